//! Several processes on one PostgreSQL database: ids no two processes share, a ply raced from
//! two processes stored once, and `bredon migrate` moving a sled folder in whole. Each test
//! starts from a new database on the test binary's throwaway server, and skips (saying why)
//! where PostgreSQL is not installed.

use crate::support;
use bredon::service::{ChallengeOptions, Service};
use bredon::store::records::Seat;
use bredon::store::Store;
use std::collections::HashSet;
use std::process::Command;
use std::sync::{Arc, Barrier};

use crate::support::{ctx, player};

/// alice (white) and bob start a 5x5 game in `channel`.
fn start_game(service: &Service, channel: u64) {
    let o = ChallengeOptions {
        opponent: Some(player("bob", 2)),
        seat: Seat::White,
        size: Some(5),
        ..ChallengeOptions::default()
    };
    service
        .challenge(&ctx(channel, &player("alice", 1)), &o)
        .unwrap();
    service.accept(&ctx(channel, &player("bob", 2))).unwrap();
}

#[test]
fn two_processes_never_give_the_same_id() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let stores: Vec<Store> = (0..2).map(|_| Store::connect(&url).unwrap()).collect();
    let ids: Vec<u64> = std::thread::scope(|s| {
        let takers: Vec<_> = stores
            .iter()
            .map(|store| {
                s.spawn(move || {
                    (0..300)
                        .map(|_| store.new_id().unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        takers.into_iter().flat_map(|t| t.join().unwrap()).collect()
    });
    let distinct: HashSet<u64> = ids.iter().copied().collect();
    assert_eq!(distinct.len(), 600, "every id given once across both");
}

#[test]
fn a_ply_raced_from_two_processes_is_stored_once() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let first = Arc::new(Service::new(Store::connect(&url).unwrap()));
    let second = Arc::new(Service::new(Store::connect(&url).unwrap()));
    for channel in 10..20 {
        start_game(&first, channel);
    }
    // Each channel: both processes play alice's first ply at the same moment.
    for channel in 10..20 {
        let barrier = Arc::new(Barrier::new(2));
        let racers: Vec<_> = [&first, &second]
            .into_iter()
            .map(|service| {
                let (service, barrier) = (Arc::clone(service), Arc::clone(&barrier));
                std::thread::spawn(move || {
                    barrier.wait();
                    service
                        .play(&ctx(channel, &player("alice", 1)), "a1")
                        .is_ok()
                })
            })
            .collect();
        let won: Vec<bool> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        assert_eq!(
            won.iter().filter(|w| **w).count(),
            1,
            "channel {channel}: exactly one process stores the ply ({won:?})"
        );
        let game = second.store().game(channel).unwrap().unwrap();
        assert_eq!(game.plies, vec!["a1".to_string()]);
    }
    // And either process sees what the other stored.
    first
        .play(&ctx(10, &player("bob", 2)), "e5")
        .expect("bob plays through the other process");
    assert_eq!(second.store().game(10).unwrap().unwrap().plies.len(), 2);
}

#[test]
fn migrate_moves_a_folder_into_postgres_whole() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let folder = tempfile::tempdir().unwrap();
    let (live_id, finished_id) = {
        let service = Service::new(Store::open(folder.path()).unwrap());
        start_game(&service, 10);
        service.play(&ctx(10, &player("alice", 1)), "a1").unwrap();
        start_game(&service, 11);
        service.resign(&ctx(11, &player("bob", 2))).unwrap();
        service.store().flush().unwrap();
        let live = service.store().game(10).unwrap().unwrap().id;
        let finished = service.store().last_finished(11).unwrap().unwrap().id;
        (live, finished)
    };
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_bredon"))
            .args(args)
            .env("BREDON_DATABASE_URL", &url)
            .output()
            .unwrap()
    };
    // sled's flusher thread lets go of the folder's lock a moment after the last handle: until
    // then `migrate` is refused before it touches anything, and is asked again.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let moved = loop {
        let out = run(&["migrate", "--from", folder.path().to_str().unwrap()]);
        let in_use = String::from_utf8_lossy(&out.stderr).contains("in use by another Bredon");
        if !in_use || std::time::Instant::now() > deadline {
            break out;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let said = String::from_utf8_lossy(&moved.stdout);
    assert!(
        moved.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&moved.stderr)
    );
    assert!(
        said.contains("moved ") && said.contains("games 1"),
        "{said}"
    );

    // Every record is there: both backups list the same rows.
    let backups = tempfile::tempdir().unwrap();
    let from_folder = support::reopen(folder.path());
    from_folder
        .backup(&backups.path().join("sled.json"))
        .unwrap();
    drop(from_folder);
    let store = Store::connect(&url).unwrap();
    store.backup(&backups.path().join("pg.json")).unwrap();
    let trees = |file: &str| -> serde_json::Map<String, serde_json::Value> {
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(backups.path().join(file)).unwrap()).unwrap();
        let mut trees = doc["trees"].as_object().unwrap().clone();
        trees.retain(|_, rows| !rows.as_array().unwrap().is_empty());
        trees
    };
    assert_eq!(trees("sled.json"), trees("pg.json"));

    // The game goes on, the finished one reads, and new ids are new; numbers go on from #3.
    let service = Service::new(store);
    service.play(&ctx(10, &player("bob", 2)), "e5").unwrap();
    let finished = service.store().archived(finished_id).unwrap().unwrap();
    assert_eq!(finished.number, Some(2));
    start_game(&service, 12);
    assert_eq!(service.store().game(12).unwrap().unwrap().number, Some(3));
    let next = service.store().new_id().unwrap();
    assert!(next > live_id.max(finished_id), "new id {next}");

    // A second move into a database that has records is refused.
    let again = run(&["migrate", "--from", folder.path().to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("empty store only"));
}

#[test]
fn timers_fire_once_across_service_handles() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let services: Vec<Arc<Service>> = (1..=3)
        .map(|p| Arc::new(Service::of_process(Store::connect(&url).unwrap(), p)))
        .collect();
    const HOUR: i64 = 3_600_000;
    for channel in 10..40 {
        let o = ChallengeOptions {
            opponent: Some(player("bob", 2)),
            seat: Seat::White,
            size: Some(5),
            reminder: Some("12h".into()),
            time_limit: Some("1d".into()),
            ..ChallengeOptions::default()
        };
        services[0]
            .challenge(&ctx(channel, &player("alice", 1)), &o)
            .unwrap();
        services[0]
            .accept(&ctx(channel, &player("bob", 2)))
            .unwrap();
    }
    // Every process's timer loop ticks at the same moment, twice: reminders, then time-outs.
    for (now, says) in [
        (12 * HOUR, "it is your move"),
        (24 * HOUR, "ran out of time"),
    ] {
        let barrier = Arc::new(Barrier::new(services.len()));
        let ticks: Vec<_> = services
            .iter()
            .map(|s| {
                let (s, barrier) = (Arc::clone(s), Arc::clone(&barrier));
                std::thread::spawn(move || {
                    barrier.wait();
                    s.tick(now).unwrap()
                })
            })
            .collect();
        let mut fired: Vec<u64> = Vec::new();
        for t in ticks {
            for e in t.join().unwrap() {
                assert!(e.outcome.text.contains(says), "{}", e.outcome.text);
                fired.push(e.channel);
            }
        }
        fired.sort();
        assert_eq!(
            fired,
            (10..40).collect::<Vec<_>>(),
            "each channel's timer fired once"
        );
    }
    assert!(services[0].store().all_live_games().unwrap().is_empty());
}
