//! Game numbers: each server numbers its games #1, #2, ... in the order they began, on either
//! backend; a typed number is the server's first and an id second; games stored before numbers
//! are numbered when the store opens; numbers never given twice by racing starts.

use super::world::*;
use crate::support;
use bredon::service::{parse_format, ChallengeOptions, Ctx, Service, TournamentOptions};
use bredon::store::records::Seat;
use bredon::store::Store;
use std::sync::{Arc, Barrier};

/// `ctx` of `name` in `channel` of `guild`.
fn at(guild: u64, channel: u64, name: &str) -> Ctx {
    Ctx {
        guild,
        channel,
        ..ctx(name, 1000)
    }
}

/// alice (White) and bob start a 5x5 game in `channel` of `guild`.
fn start(service: &Service, guild: u64, channel: u64) {
    service
        .challenge(
            &at(guild, channel, "alice"),
            &opts(Some("bob"), Seat::White),
        )
        .unwrap();
    service.accept(&at(guild, channel, "bob")).unwrap();
}

/// A round robin of alice and bob in `channel` of `guild`, its one game started in `thread`.
fn tournament_game(service: &Service, guild: u64, channel: u64, thread: u64) {
    let options = TournamentOptions {
        name: "Cup".into(),
        format: parse_format("rr", None).unwrap(),
        game: ChallengeOptions {
            size: Some(5),
            ..ChallengeOptions::default()
        },
        limit: None,
        start: None,
        no_vacations: false,
    };
    let moderator = Ctx {
        moderator: true,
        ..at(guild, channel, "mod")
    };
    service.create_tournament(&moderator, &options).unwrap();
    for name in ["alice", "bob"] {
        service.join_tournament(&at(guild, channel, name)).unwrap();
    }
    service.start_tournament(&moderator).unwrap();
    let pending = service.pending_pairings().unwrap();
    service
        .start_pairing(pending[0].fixture, thread, 1000)
        .unwrap()
        .expect("the pairing starts");
}

fn number_of_live(service: &Service, channel: u64) -> Option<u64> {
    service.store().game(channel).unwrap().unwrap().number
}

#[test]
fn each_server_numbers_its_games_in_the_order_they_began() {
    let w = world();
    start(&w.service, GUILD, 100);
    start(&w.service, GUILD + 1, 200);
    start(&w.service, GUILD, 101);
    start(&w.service, GUILD, 102);
    assert_eq!(number_of_live(&w.service, 100), Some(1));
    assert_eq!(number_of_live(&w.service, 101), Some(2));
    assert_eq!(number_of_live(&w.service, 102), Some(3));
    assert_eq!(number_of_live(&w.service, 200), Some(1), "its own #1");

    // The game keeps its number when it ends, and the result says it.
    let ended = w.service.resign(&at(GUILD, 101, "bob")).unwrap();
    assert!(ended.text.ends_with("Game #2."), "{}", ended.text);
    let archived = w.service.store().last_finished(101).unwrap().unwrap();
    assert_eq!(archived.number, Some(2));
    let history = w.service.history(&at(GUILD, 1, "carol"), user("alice").id);
    assert_eq!(history.unwrap()[0].shown_number(), 2);

    // /games lists them by number; a number is never given again, even to a game in the same
    // channel after its first ended.
    let mut listed: Vec<u64> = w
        .service
        .summaries(&at(GUILD, 1, "carol"), None)
        .unwrap()
        .iter()
        .map(|s| s.number)
        .collect();
    listed.sort();
    assert_eq!(listed, vec![1, 3]);
    start(&w.service, GUILD, 101);
    assert_eq!(number_of_live(&w.service, 101), Some(4));

    // The numbers and the counters survive a restart.
    drop(w.service);
    let service = Service::new(w.place.open());
    assert_eq!(number_of_live(&service, 100), Some(1));
    start(&service, GUILD + 1, 201);
    assert_eq!(number_of_live(&service, 201), Some(2));

    // A tournament's game is numbered too, and its pairing line says the number.
    tournament_game(&service, GUILD, 300, 301);
    assert_eq!(number_of_live(&service, 301), Some(5));
    let view = service.tournament_view(&at(GUILD, 300, "carol")).unwrap();
    let line = view.round_lines(0)[0].describe();
    assert!(
        line.contains(" vs ") && line.ends_with(" (game #5)"),
        "{line}"
    );
}

#[test]
fn a_typed_number_is_the_servers_game_first_and_an_id_second() {
    let w = world();
    for channel in [100, 101] {
        start(&w.service, GUILD, channel);
        w.service.resign(&at(GUILD, channel, "bob")).unwrap();
    }
    start(&w.service, GUILD, 102);
    let second = w.service.store().last_finished(101).unwrap().unwrap();
    let here = at(GUILD, 1, "carol");

    let o = w.service.view_finished(&here, 2, None).unwrap();
    assert!(o.text.starts_with("Game #2, alice vs bob"), "{}", o.text);
    assert_eq!(w.service.ptn(&here, Some(2)).unwrap().text, second.ptn);

    // An id from before numbers still finds its game, unless the server has a game of that
    // number: ids of a sled store begin small, so the test asks for one above the numbers.
    assert!(second.id > 3, "id {}", second.id);
    let by_id = w.service.view_finished(&here, second.id, None).unwrap();
    assert_eq!(by_id.text, o.text);
    assert_eq!(
        w.service
            .finished_record(&here, Some(second.id))
            .unwrap()
            .record,
        second.ptn
    );

    // #3 is still being played: said so, not taken for an id.
    let why = refusal_of(w.service.view_finished(&here, 3, None));
    assert!(
        why.contains("game #3 of this server has not finished yet"),
        "{why}"
    );

    // Another server's numbers and ids are not this server's.
    let elsewhere = at(GUILD + 1, 1, "carol");
    for typed in [1, second.id] {
        let why = refusal_of(w.service.view_finished(&elsewhere, typed, None));
        assert!(
            why.starts_with(&format!(
                "there is no finished game #{typed} in this server"
            )),
            "{why}"
        );
    }
}

#[test]
fn games_started_at_once_in_many_channels_get_distinct_numbers() {
    let w = world();
    let service = Arc::new(w.service);
    let barrier = Arc::new(Barrier::new(4));
    let starters: Vec<_> = (0..4u64)
        .map(|t| {
            let (service, barrier) = (Arc::clone(&service), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                for i in 0..5 {
                    start(&service, GUILD, 1000 + 10 * t + i);
                }
            })
        })
        .collect();
    for s in starters {
        s.join().unwrap();
    }
    let mut numbers: Vec<u64> = service
        .store()
        .live_games(GUILD)
        .unwrap()
        .iter()
        .map(|g| g.number.unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=20).collect::<Vec<_>>());
}

#[test]
fn two_processes_on_one_database_never_give_one_number_twice() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let services: Vec<Arc<Service>> = (0..2)
        .map(|_| Arc::new(Service::new(Store::connect(&url).unwrap())))
        .collect();
    let barrier = Arc::new(Barrier::new(2));
    let starters: Vec<_> = services
        .iter()
        .enumerate()
        .map(|(p, service)| {
            let (service, barrier) = (Arc::clone(service), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                for i in 0..15 {
                    start(&service, GUILD, 1000 + 100 * p as u64 + i);
                }
            })
        })
        .collect();
    for s in starters {
        s.join().unwrap();
    }
    let mut numbers: Vec<u64> = services[1]
        .store()
        .live_games(GUILD)
        .unwrap()
        .iter()
        .map(|g| g.number.unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=30).collect::<Vec<_>>());
}

#[test]
fn games_stored_before_numbers_are_numbered_at_open_in_the_order_they_began() {
    // Games as a build before numbers left them: two finished and one live in one server (the
    // live one began first), one finished in another, and a tournament's game.
    let then = support::folder();
    {
        let service = Service::new(then.open());
        let later = |channel: u64, name: &str, ms: i64| Ctx {
            now_ms: ms,
            ..at(GUILD, channel, name)
        };
        for (channel, ms) in [(100, 0), (101, 5000), (102, 9000)] {
            service
                .challenge(
                    &later(channel, "alice", ms),
                    &opts(Some("bob"), Seat::White),
                )
                .unwrap();
            service.accept(&later(channel, "bob", ms)).unwrap();
        }
        for channel in [101, 102] {
            service.resign(&later(channel, "bob", 10_000)).unwrap();
        }
        start(&service, GUILD + 1, 200);
        service.resign(&at(GUILD + 1, 200, "bob")).unwrap();
        tournament_game(&service, GUILD + 2, 300, 301);
    }
    support::before_numbers(then.path(), &["games", "archive", "tournaments"]);
    let old = then;

    let service = Service::new(old.open());
    let store = service.store();
    assert_eq!(number_of_live(&service, 100), Some(1), "began first");
    assert_eq!(store.last_finished(101).unwrap().unwrap().number, Some(2));
    assert_eq!(store.last_finished(102).unwrap().unwrap().number, Some(3));
    assert_eq!(store.last_finished(200).unwrap().unwrap().number, Some(1));
    let t = &store.tournaments().unwrap()[0];
    let pairing = &t.rounds[0][0];
    let game = pairing.game.unwrap();
    assert_eq!(
        pairing.number,
        Some(1),
        "the pairing learns its game's number"
    );
    assert_eq!(store.numbered_game(GUILD + 2, 1).unwrap(), Some(game));
    let view = service
        .view_finished(&at(GUILD, 1, "carol"), 3, None)
        .unwrap();
    assert!(view.text.starts_with("Game #3,"), "{}", view.text);

    // New games go on from there, and opening again changes nothing.
    start(&service, GUILD, 103);
    assert_eq!(number_of_live(&service, 103), Some(4));
    drop(service);
    let service = Service::new(old.open());
    assert_eq!(number_of_live(&service, 100), Some(1));
    assert_eq!(service.store().next_game_number(GUILD).unwrap(), 5);
}
