//! `bredon reshard`: two folders of four shards dealt out to eight folders of eight and back,
//! with a game, a finished game, an open challenge and settings in a server of every shard. Every
//! game goes on with its id (so its buttons still work) and its server's number, every reminder
//! fires once, the records are all there; the folders refuse a process started for other shards.

use crate::support;
use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::layout::Layout;
use bredon::store::records::{GuildSettings, PlayerPrefs, PlayerRef, Seat};
use bredon::store::Store;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const HOUR: i64 = 3_600_000;

/// The server on shard `s` of 8 (so on shard `s % 4` of 4).
fn guild(s: u64) -> u64 {
    ((800 + s) << 22) | 7
}

fn who(name: &str) -> PlayerRef {
    let id = if name == "alice" { 1 } else { 2 };
    PlayerRef {
        id,
        name: name.into(),
    }
}

fn ctx(s: u64, channel: u64, name: &str, now_ms: i64) -> Ctx {
    Ctx {
        guild: guild(s),
        channel,
        user: who(name),
        now_ms,
        moderator: true,
        request: None,
    }
}

fn open(dir: &Path, shards: u32, first: u32, last: u32) -> Service {
    let layout = Layout {
        shards,
        first,
        last,
    };
    Service::new(Store::open_sharded(dir, layout).unwrap())
}

/// `bredon reshard` (waiting, a few seconds at most, for sled to let go of folders just closed).
fn reshard(from: &[PathBuf], to: &[PathBuf], shards: u32) -> std::process::Output {
    let mut args = vec!["reshard".to_string(), "--shards".into(), shards.to_string()];
    for f in from {
        args.extend(["--from".into(), f.display().to_string()]);
    }
    for t in to {
        args.extend(["--to".into(), t.display().to_string()]);
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let out = Command::new(env!("CARGO_BIN_EXE_bredon"))
            .args(&args)
            .output()
            .unwrap();
        let busy = String::from_utf8_lossy(&out.stderr).contains("in use by a Bredon process");
        if !busy || std::time::Instant::now() > deadline {
            return out;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Every record of the folders, counted by tree.
fn counts(dirs: &[PathBuf]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let file = tempfile::NamedTempFile::new().unwrap();
    for dir in dirs {
        support::reopen(dir).backup(file.path()).unwrap();
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(file.path()).unwrap()).unwrap();
        for (tree, rows) in doc["trees"].as_object().unwrap() {
            *out.entry(tree.clone()).or_default() += rows.as_array().unwrap().len();
        }
    }
    out.retain(|_, n| *n > 0);
    out
}

#[test]
fn two_folders_of_four_shards_become_eight_and_back() {
    let root = tempfile::tempdir().unwrap();
    let dirs = |name: &str, n: usize| -> Vec<PathBuf> {
        (0..n)
            .map(|i| root.path().join(format!("{name}{i}")))
            .collect()
    };
    let (old, eight, back) = (dirs("four-", 2), dirs("eight-", 8), dirs("back-", 2));

    // Before: shards 0..=1 of 4 in one folder, 2..=3 in the other.
    let mut ids = BTreeMap::new();
    let mut every_id = HashSet::new();
    for (half, dir) in old.iter().enumerate() {
        let service = open(dir, 4, 2 * half as u32, 2 * half as u32 + 1);
        for s in (0..8).filter(|s| (s % 4) / 2 == half as u64) {
            let game = ChallengeOptions {
                opponent: Some(who("bob")),
                seat: Seat::White,
                size: Some(5),
                reminder: Some("12h".into()),
                ..ChallengeOptions::default()
            };
            service
                .challenge(&ctx(s, 1000 + s, "alice", 0), &game)
                .unwrap();
            service.accept(&ctx(s, 1000 + s, "bob", 0)).unwrap();
            service.play(&ctx(s, 1000 + s, "alice", 0), "a1").unwrap();
            service
                .challenge(&ctx(s, 2000 + s, "alice", 0), &game)
                .unwrap();
            service.accept(&ctx(s, 2000 + s, "bob", 0)).unwrap();
            service.resign(&ctx(s, 2000 + s, "bob", 0)).unwrap();
            let open_challenge = ChallengeOptions {
                opponent: Some(who("bob")),
                ..ChallengeOptions::default()
            };
            service
                .challenge(&ctx(s, 3000 + s, "alice", 0), &open_challenge)
                .unwrap();
            let settings = GuildSettings {
                puzzle_hour: s as u32,
                ..GuildSettings::default()
            };
            service.store().put_settings(guild(s), &settings).unwrap();
            let store = service.store();
            let (live, finished, challenge) = (
                store.game(1000 + s).unwrap().unwrap().id,
                store.last_finished(2000 + s).unwrap().unwrap().id,
                store.challenge(3000 + s).unwrap().unwrap().id,
            );
            every_id.extend([live, finished, challenge]);
            ids.insert(s, (live, finished, challenge));
        }
        // bob's wishes, heard by both processes: the folder with shard 0 keeps its copy.
        let prefs = PlayerPrefs {
            dm: half == 0,
            ..PlayerPrefs::default()
        };
        service.store().put_prefs(2, &prefs).unwrap();
        service.store().flush().unwrap();
    }
    assert_eq!(every_id.len(), 24, "the two folders made different ids");
    let before = counts(&old);

    // Four to eight.
    let out = reshard(&old, &eight, 8);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("8 live games load and replay"), "{said}");
    assert!(said.contains("--shards 8 --shard-range 5..=5"), "{said}");
    let mut after = counts(&eight);
    assert_eq!(after.remove("prefs"), Some(1), "bob's wishes kept once");
    let mut expected = before.clone();
    expected.remove("prefs");
    assert_eq!(after, expected, "every other record, once");

    let mut new_ids = HashSet::new();
    for (s, dir) in eight.iter().enumerate() {
        let s = s as u64;
        let service = open(dir, 8, s as u32, s as u32);
        let store = service.store();
        let (live, finished, challenge) = ids[&s];
        let games = store.all_live_games().unwrap();
        assert_eq!(games.len(), 1, "one server's game in each folder");
        assert_eq!(
            (games[0].id, games[0].guild),
            (live, guild(s)),
            "the game keeps its id"
        );
        assert_eq!(store.challenge(3000 + s).unwrap().unwrap().id, challenge);
        assert_eq!(store.last_finished(2000 + s).unwrap().unwrap().id, finished);
        // The server's numbers moved with it: its games keep theirs, its next game is #3.
        assert_eq!(games[0].number, Some(1));
        let archived = store.last_finished(2000 + s).unwrap().unwrap();
        assert_eq!(archived.number, Some(2));
        assert_eq!(store.numbered_game(guild(s), 2).unwrap(), Some(finished));
        assert_eq!(store.next_game_number(guild(s)).unwrap(), 3);
        assert_eq!(store.settings(guild(s)).unwrap().puzzle_hour, s as u32);
        assert_eq!(
            store.prefs(2).unwrap().dm,
            s == 0,
            "wishes live with shard 0"
        );
        // Each reminder fires once, in its own folder; then bob plays on.
        let fired = service.tick(12 * HOUR).unwrap();
        assert_eq!(fired.len(), 1, "folder {s}: {fired:?}");
        assert!(fired[0].outcome.text.contains("bob, it is your move"));
        assert!(service.tick(12 * HOUR + 1).unwrap().is_empty());
        service
            .play(&ctx(s, 1000 + s, "bob", 13 * HOUR), "e5")
            .unwrap();
        let id = store.new_id().unwrap();
        assert!(
            !every_id.contains(&id) && new_ids.insert(id),
            "new id {id} is new"
        );
        store.flush().unwrap();
    }

    // A process started for other shards, a folder given twice, a target in use: refused.
    let wrong = Store::open_sharded(
        &eight[0],
        Layout {
            shards: 4,
            first: 0,
            last: 1,
        },
    );
    let why = wrong
        .err()
        .expect("a folder of another layout is refused")
        .to_string();
    assert!(
        why.contains("shards 0..=0 of 8") && why.contains("bredon reshard"),
        "{why}"
    );
    let out = reshard(&old[..1], &dirs("half-", 2), 4);
    assert_eq!(out.status.code(), Some(1), "a missing source is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 2 of 4 is held by 0"));
    let out = reshard(&old, &eight[..2], 4);
    assert_eq!(out.status.code(), Some(1), "a used target is refused");
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));
    // `bredon run` with the old flags on a new folder stops before it connects, saying why.
    let run = Command::new(env!("CARGO_BIN_EXE_bredon"))
        .args(["run", "--shards", "4", "--shard-range", "0..2"])
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", "http://127.0.0.1:9")
        .env("BREDON_DATA", &eight[0])
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{said}");
    assert!(
        said.contains("holds the servers of shards 0..=0 of 8")
            && said.contains("started for shards 0..=1 of 4"),
        "{said}"
    );

    // Eight back to two: the games go on, alice to move; reminders once more.
    let out = reshard(&eight, &back, 4);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut after = counts(&back);
    after.remove("prefs");
    let mut expected = counts(&eight);
    expected.remove("prefs");
    assert_eq!(after, expected);
    let mut fired = 0;
    for (half, dir) in back.iter().enumerate() {
        let service = open(dir, 4, 2 * half as u32, 2 * half as u32 + 1);
        for s in (0..8).filter(|s| (s % 4) / 2 == half as u64) {
            let game = service.store().game(1000 + s).unwrap().unwrap();
            assert_eq!(
                (game.id, game.number, game.plies.len()),
                (ids[&s].0, Some(1), 2)
            );
            service
                .play(&ctx(s, 1000 + s, "alice", 14 * HOUR), "c3")
                .unwrap();
        }
        fired += service.tick(26 * HOUR + 1).unwrap().len();
        assert!(service.tick(26 * HOUR + 2).unwrap().is_empty());
    }
    assert_eq!(fired, 8, "every game's next reminder, once");
}
