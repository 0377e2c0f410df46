//! Helpers shared by integration tests.

#![allow(dead_code)]

use bredon::store::{Store, StoreError};
use bredon::tak::{Game, Position, Setup};

/// A legal game of `plies` plies on a `size` board that is still running: each ply is chosen
/// pseudo-randomly from `seed` among those that do not end the game, moves before placements,
/// so reserves last.
pub fn long_game(size: usize, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(Position::new(Setup::new(size).unwrap()));
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    while game.plies().len() < plies {
        let mut legal = Vec::new();
        game.position().generate_plies(&mut legal);
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let start = (state >> 33) as usize % legal.len();
        let mut candidates: Vec<_> = legal
            .iter()
            .cycle()
            .skip(start)
            .take(legal.len())
            .copied()
            .collect();
        candidates.sort_by_key(|p| game.position().ptn(*p).len() < 3);
        let ply = candidates
            .into_iter()
            .find(|&p| {
                let mut trial = game.clone();
                trial.play(p).is_ok() && trial.result().is_none()
            })
            .expect("a ply that keeps the game going");
        game.play(ply).unwrap();
    }
    game
}

/// The final standings of the test round robin of 5 (results in `tests/tournament.rs`, played
/// again through `bredon local` and the fake Discord), worked out by hand, as "rank name points
/// Sonneborn-Berger". Points: alice ½+1+0+1 = 2½, bob ½+1+1+0 = 2½, carol 0+0+½+1 = 1½, dave
/// 1+0+½+1 = 2½, erin 0+1+0+0 = 1. Sonneborn-Berger: bob beat carol (1½) and dave (2½) and drew
/// alice (2½/2): 5.25; dave beat alice (2½) and erin (1), drew carol (1½/2): 4.25; alice beat
/// carol and erin, drew bob: 1½ + 1 + 1¼ = 3.75; carol beat erin, drew dave: 1 + 1¼ = 2.25; erin
/// beat bob: 2.5. Byes count neither way.
pub const ROUND_ROBIN_STANDINGS: [&str; 5] = [
    "1 bob 2½ 5.25",
    "2 dave 2½ 4.25",
    "3 alice 2½ 3.75",
    "4 carol 1½ 2.25",
    "5 erin 1 2.5",
];

/// The final standings of the test Swiss of 7 in 3 rounds, worked out by hand, as "rank name
/// points Buchholz median-Buchholz". Points: carol 3, erin 2½, bob 2, alice 1½, frank 1, gina 1,
/// dave 1. Buchholz (opponents' scores, a bye counting 0): carol f1+g1+a1½ = 3½; erin b2+a1½+f1
/// = 4½; bob e2½+d1+g1 = 4½; alice d1+e2½+c3 = 6½; frank c3+0+e2½ = 5½; gina 0+c3+b2 = 5; dave
/// a1½+b2+0 = 3½. Median-Buchholz drops the highest and the lowest: carol 1, erin 1½, bob 1,
/// alice 2½, frank 2½, gina 2, dave 1½. Gina withdrew in round 3: "(w)".
pub const SWISS_STANDINGS: [&str; 7] = [
    "1 carol 3 3½ 1",
    "2 erin 2½ 4½ 1½",
    "3 bob 2 4½ 1",
    "4 alice 1½ 6½ 2½",
    "5 frank 1 5½ 2½",
    "6 gina(w) 1 5 2",
    "7 dave 1 3½ 1½",
];

/// Opens the store in `path` again after the last handle was dropped, as a restarted bot would.
/// sled's flusher thread lets go of the folder's lock a moment after the handle goes, so a
/// `Locked` answer is waited out (for at most five seconds).
pub fn reopen(path: &std::path::Path) -> Store {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match Store::open(path) {
            Err(StoreError::Locked(_)) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            opened => return opened.unwrap(),
        }
    }
}

pub mod playtak;
/// Rewrites the closed sled folder `dir` as a build before numbers left it: the records of
/// `trees` without `number` (nor their pairings'), and no `numbers` tree.
pub fn before_numbers(dir: &std::path::Path, trees: &[&str]) {
    // sled lets go of its lock a moment after the last handle: waited out, five seconds at most.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let db = loop {
        match sled::open(dir) {
            Err(_) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            opened => break opened.unwrap(),
        }
    };
    for tree in trees {
        let tree = db.open_tree(tree).unwrap();
        for row in tree.iter() {
            let (k, v) = row.unwrap();
            let mut record: serde_json::Value = serde_json::from_slice(&v).unwrap();
            let data = record["data"].as_object_mut().unwrap();
            data.remove("number");
            let rounds = data.get_mut("rounds").and_then(|r| r.as_array_mut());
            for pairing in rounds
                .into_iter()
                .flatten()
                .flat_map(|r| r.as_array_mut().unwrap())
            {
                pairing.as_object_mut().unwrap().remove("number");
            }
            tree.insert(k, serde_json::to_vec(&record).unwrap())
                .unwrap();
        }
    }
    db.drop_tree("numbers").unwrap();
    db.flush().unwrap();
}

pub mod postgres;

/// Marks every letter `service`'s outbox owes as delivered, as a bot would once it posted
/// them: a test that plays through the service with no bot keeps its outbox as short as a
/// running bot keeps it (every change reads the outbox's heads, decoding each letter's
/// pictures: a 127-ply game's outbox, never emptied, took most of a minute).
pub fn delivered_all(service: &bredon::service::Service) {
    for owed in service.deliveries().unwrap() {
        service.delivered(owed.letter.id).unwrap();
    }
}

/// `command`'s process is killed when the thread that starts it ends: a test process that is
/// killed (a time-out, ^C) leaves no bot, proxy or driver running behind it. Start it from the
/// test's own thread (or one that lives as long as the child should).
pub fn ends_with_the_test(command: &mut std::process::Command) -> &mut std::process::Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: prctl only sets this process's parent-death signal, between fork and exec.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    command
}

/// Player `name` with id `id`.
pub fn player(name: &str, id: u64) -> bredon::store::records::PlayerRef {
    bredon::store::records::PlayerRef {
        id,
        name: name.into(),
    }
}

/// `who` acting in `channel` of server 1, at time 0.
pub fn ctx(channel: u64, who: &bredon::store::records::PlayerRef) -> bredon::service::Ctx {
    bredon::service::Ctx {
        guild: 1,
        channel,
        user: who.clone(),
        now_ms: 0,
        moderator: false,
        request: None,
    }
}

/// Where a test's store lives: a temporary folder (sled), or a new PostgreSQL database when the
/// tests run with `BREDON_TEST_DATABASE=postgres` (the second pass of `.ci/run`).
pub struct Place {
    pub dir: tempfile::TempDir,
    pub url: Option<String>,
}

/// A place on the backend the tests run against.
pub fn place() -> Place {
    match std::env::var("BREDON_TEST_DATABASE").as_deref() {
        Ok("postgres") => {
            let server = postgres::server().unwrap_or_else(|why| {
                panic!("BREDON_TEST_DATABASE=postgres, but there is no PostgreSQL: {why}")
            });
            Place {
                dir: tempfile::tempdir().unwrap(),
                url: Some(server.database()),
            }
        }
        _ => folder(),
    }
}

/// A sled folder whatever the backend (tests of the folder itself).
pub fn folder() -> Place {
    Place {
        dir: tempfile::tempdir().unwrap(),
        url: None,
    }
}

impl Place {
    /// The store here, opened anew as a restarted bot would.
    pub fn open(&self) -> Store {
        match &self.url {
            Some(url) => Store::connect(url).unwrap(),
            None => reopen(self.dir.path()),
        }
    }

    pub fn path(&self) -> &std::path::Path {
        self.dir.path()
    }
}
