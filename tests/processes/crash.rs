//! Durability under SIGKILL: a child process plays plies in a loop and reports each one the
//! service acknowledged; it is killed at random moments, and after every kill each acknowledged
//! ply must be in the store and every game must load. Once on a sled folder, once on PostgreSQL.

use crate::support;
use bredon::service::{ChallengeOptions, Service};
use bredon::store::records::Seat;
use bredon::store::Store;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{ctx, player};

const CHANNELS: [u64; 3] = [11, 12, 13];

/// The child: plays random legal plies in three channels forever, printing
/// `ACK channel game_id ply_count` after each acknowledged ply.
#[test]
#[ignore = "run by crash_kills_never_lose_an_acknowledged_ply as its child process"]
fn crash_child() {
    let store = match (
        std::env::var("BREDON_CRASH_DATABASE_URL"),
        std::env::var_os("BREDON_CRASH_DIR"),
    ) {
        (Ok(url), _) => Store::connect(&url).unwrap(),
        (_, Some(dir)) => Store::open(std::path::Path::new(&dir)).unwrap(),
        _ => return,
    };
    let service = Service::new(store);
    let (a, b) = (player("alice", 1), player("bob", 2));
    let mut seed = std::process::id() as u64 | 1;
    loop {
        for &ch in &CHANNELS {
            let game = match service.store().game(ch).unwrap() {
                Some(g) => g,
                None => {
                    let _ = service
                        .store()
                        .challenge(ch)
                        .unwrap()
                        .map(|_| service.cancel(&ctx(ch, &a)));
                    let o = ChallengeOptions {
                        opponent: Some(b.clone()),
                        seat: Seat::White,
                        size: Some(4),
                        ..ChallengeOptions::default()
                    };
                    service.challenge(&ctx(ch, &a), &o).unwrap();
                    service.accept(&ctx(ch, &b)).unwrap();
                    continue;
                }
            };
            let plies = service.legal_plies(ch).unwrap();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let ply = &plies[(seed % plies.len() as u64) as usize];
            let mover = if game.plies.len() % 2 == 0 { &a } else { &b };
            // On PostgreSQL the killed child's last commit can land after this child read the
            // game (its server process finishes the transaction it was sent): the ply is then
            // refused as a conflict and read again, as a player would.
            if let Err(why) = service.play(&ctx(ch, mover), ply) {
                eprintln!("refused, read again: {why}");
                continue;
            }
            println!("ACK {ch} {} {}", game.id, game.plies.len() + 1);
        }
    }
}

#[test]
fn crash_kills_never_lose_an_acknowledged_ply() {
    kill_rounds(&support::folder(), 20);
}

#[test]
fn crash_kills_on_postgres_never_lose_an_acknowledged_ply() {
    if let Some(url) = support::postgres::database() {
        let place = support::Place {
            dir: tempfile::tempdir().unwrap(),
            url: Some(url),
        };
        kill_rounds(&place, 12);
    }
}

/// Kills a child playing on `place` `rounds` times; after each kill, checks the store.
fn kill_rounds(place: &support::Place, rounds: u32) {
    let mut seed = 0x9E3779B97F4A7C15u64;
    let mut total_acks = 0;
    let said = tempfile::tempdir().unwrap();
    for round in 0..rounds {
        let stderr = said.path().join(format!("round-{round}"));
        let mut child = Command::new(std::env::current_exe().unwrap());
        match &place.url {
            Some(url) => child.env("BREDON_CRASH_DATABASE_URL", url),
            None => child.env("BREDON_CRASH_DIR", place.path()),
        };
        let mut child = child
            .args([
                "--exact",
                "crash::crash_child",
                "--ignored",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let run_for = Duration::from_millis(150 + seed % 400);
        let stdout = child.stdout.take().unwrap();
        let (first_ack, acked) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut acks = Vec::new();
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let parts: Vec<&str> = line.split_whitespace().collect();
                if let ["ACK", ch, id, n] = parts[..] {
                    acks.push((
                        ch.parse::<u64>().unwrap(),
                        id.parse::<u64>().unwrap(),
                        n.parse::<usize>().unwrap(),
                    ));
                    if acks.len() == 1 {
                        let _ = first_ack.send(());
                    }
                }
            }
            acks
        });
        // The kill comes a random while after the first acknowledged ply, however slow the
        // child is to start: every round kills a child in the middle of its plies.
        acked
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| {
                let said = std::fs::read_to_string(&stderr).unwrap_or_default();
                panic!("round {round}: the child acknowledged no ply; it said:\n{said}")
            });
        let started = Instant::now();
        while started.elapsed() < run_for {
            std::thread::sleep(Duration::from_millis(10));
        }
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let acks = reader.join().unwrap();
        total_acks += acks.len();
        let store = match &place.url {
            Some(url) => Store::connect(url),
            None => Store::open(place.path()),
        }
        .unwrap_or_else(|e| panic!("round {round}: the store does not reopen: {e}"));
        for &ch in &CHANNELS {
            if let Some(g) = store.game(ch).unwrap() {
                Service::rebuild(&g)
                    .unwrap_or_else(|e| panic!("round {round}: channel {ch} does not load: {e}"));
            }
            // The last acknowledged ply of this channel is stored: in the live game or the archive.
            if let Some(&(_, id, n)) = acks.iter().rfind(|a| a.0 == ch) {
                let stored = match store.game(ch).unwrap() {
                    Some(g) if g.id == id => g.plies.len(),
                    _ => store.archived(id).unwrap().map_or(0, |a| a.plies.len()),
                };
                assert!(stored >= n, "round {round}, channel {ch}: acknowledged {n} plies of game {id}, stored {stored}");
            }
        }
        drop(store);
    }
    assert!(
        total_acks > 20,
        "the child made progress ({total_acks} acknowledged plies)"
    );
}
