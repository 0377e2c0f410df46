//! Records: schema versions, a locked folder, legal plies and their labels, settings, names,
//! blind games, a player's reminder wish.

use super::world::*;
use bredon::game::{Ending, Kind};
use bredon::service::{ChallengeOptions, Service};
use bredon::store::records::Seat;
use bredon::store::Store;
use bredon::tak::{Color, GameResult};

#[test]
fn records_of_another_schema_version_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    {
        let db = sled::open(dir.path()).unwrap();
        let games = db.open_tree("games").unwrap();
        games
            .insert(CHANNEL.to_be_bytes(), br#"{"v":4,"data":{}}"#.to_vec())
            .unwrap();
        db.flush().unwrap();
    }
    let service = Service::new(crate::support::reopen(dir.path()));
    let r = refusal(service.play(&ctx("alice", 0), "a1"));
    assert!(
        r.contains("schema version 4, but this build reads versions 1 to 3"),
        "{r}"
    );
}

/// Records as Bredon wrote them before Takat (schema version 1, no game kind anywhere) still
/// load as Tak games: a live game that plays on, its archived predecessor, and a rating.
#[test]
fn version_one_records_load_as_tak() {
    let dir = tempfile::tempdir().unwrap();
    let settings = r#"{"size":5,"komi":4,"opening":"Swap","reserves":null,"tps":null,"rated":true,"reminder_secs":86400,"time_limit_secs":null,"theme":"dark","engine":null,"blind":false}"#;
    let (a, b) = (user("alice").id, user("bob").id);
    let players = format!(r#"[{{"id":{a},"name":"alice"}},{{"id":{b},"name":"bob"}}]"#);
    let series = format!(r#"{{"id":7,"games":1,"points":[[{a},0],[{b},30]]}}"#);
    let live = format!(
        r#"{{"v":1,"data":{{"id":9,"seq":2,"guild":{GUILD},"channel":{CHANNEL},"players":{players},"settings":{settings},"plies":["a1","e5"],"started_ms":0,"last_ply_ms":0,"undo_request":null,"draw_offer":null,"reminder_due_ms":null,"timeout_due_ms":null,"series":{series}}}}}"#
    );
    let archived = format!(
        r#"{{"v":1,"data":{{"id":8,"guild":{GUILD},"channel":{CHANNEL},"players":{players},"settings":{settings},"plies":["a1","e5","b1","d5","c1","c5"],"result":{{"Resignation":{{"winner":"Black"}}}},"ptn":"[Size \"5\"]\n\n1. a1 e5\n2. b1 d5\n3. c1 c5 0-1\n","started_ms":0,"finished_ms":0,"rating_changes":[-20.5,20.5],"series":{series}}}}}"#
    );
    let player = format!(
        r#"{{"v":1,"data":{{"guild":{GUILD},"user":{{"id":{b},"name":"bob"}},"rating":1620.5,"deviation":290.0,"volatility":0.06,"rated_games":1,"wins":1,"losses":0,"draws":0}}}}"#
    );
    {
        let db = sled::open(dir.path()).unwrap();
        db.open_tree("games")
            .unwrap()
            .insert(CHANNEL.to_be_bytes(), live.as_bytes())
            .unwrap();
        db.open_tree("archive")
            .unwrap()
            .insert(8u64.to_be_bytes(), archived.as_bytes())
            .unwrap();
        let mut key = GUILD.to_be_bytes().to_vec();
        key.extend(b.to_be_bytes());
        db.open_tree("players")
            .unwrap()
            .insert(key, player.as_bytes())
            .unwrap();
        db.flush().unwrap();
    }
    let store = crate::support::reopen(dir.path());
    let old = store.archived(8).unwrap().expect("the archived game reads");
    assert_eq!(old.settings.game, Kind::Tak);
    assert_eq!(
        old.result,
        Ending::Tak(GameResult::Resignation {
            winner: Color::Black
        })
    );
    let service = Service::new(store);
    // The stored rating (kept before ratings were per size) is rebuilt from the archive, on the
    // size the game was played on: one rated 5x5 win from the start.
    let rated = service
        .stats(&ctx("alice", 0), &user("bob"), Kind::Tak)
        .expect("the rating reads");
    let mut fresh =
        [user("alice"), user("bob")].map(|u| bredon::ratings::newcomer(GUILD, Kind::Tak, 5, u));
    bredon::ratings::score(&mut fresh, old.result, true, old.plies.len());
    assert_eq!(rated.len(), 1);
    assert_eq!(rated[0].player, fresh[1]);
    assert!(rated[0].player.rating > 1600.0 && rated[0].rank == Some(1));
    let why = refusal_of(service.stats(&ctx("alice", 0), &user("bob"), Kind::Takat));
    assert_eq!(
        why,
        "bob has not finished a game of Takat in this server yet"
    );
    let live = service.store().game(CHANNEL).unwrap().unwrap();
    assert_eq!((live.settings.game, live.settings.size), (Kind::Tak, 5));
    let o = service
        .play(&ctx("alice", 0), "b2")
        .expect("the old game plays on");
    assert!(o.text.contains("alice played b2"), "{}", o.text);
}

#[test]
fn a_locked_folder_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let _first = Store::open(dir.path()).unwrap();
    let err = Store::open(dir.path())
        .err()
        .expect("the second open must fail")
        .to_string();
    assert!(err.contains("in use by another Bredon process"), "{err}");
}

#[test]
fn legal_plies_list_the_position() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let plies = w.service.legal_plies(CHANNEL).unwrap();
    assert_eq!(plies.len(), 25);
    assert!(plies.contains(&"c3".to_string()));
}

#[test]
fn settings_are_for_moderators_and_become_defaults() {
    let w = world();
    let why = refusal_of(
        w.service
            .set_settings(&ctx("alice", 0), Some("light"), None, None),
    );
    assert!(why.contains("only a server moderator"), "{why}");
    let s = w
        .service
        .set_settings(&ctx("mod", 0), Some("light"), Some(7), Some("off"))
        .unwrap();
    assert_eq!(
        (s.theme.as_str(), s.size, s.reminder_secs),
        ("light", 7, None)
    );
    let o = w
        .service
        .challenge(
            &ctx("alice", 0),
            &ChallengeOptions {
                size: None,
                ..opts(None, Seat::White)
            },
        )
        .unwrap();
    assert!(o.text.contains("7x7"), "{}", o.text);
    let why = refusal_of(w.service.set_settings(&ctx("mod", 0), None, Some(2), None));
    assert!(why.contains("sizes go from 3 to 8"), "{why}");
}

#[test]
fn results_name_the_players_even_when_a_name_contains_a_colour() {
    let w = world();
    let o = ChallengeOptions {
        tps: Some("2,1,2/1,2,1/2,1,x 1 5".into()),
        size: None,
        ..opts(Some("bob"), Seat::White)
    };
    w.service.challenge(&ctx("Blackbeard", 0), &o).unwrap();
    w.service.accept(&ctx("bob", 0)).unwrap();
    let o = play(&w, "Blackbeard", "c1");
    assert!(
        o.text
            .contains("Blackbeard wins on flats, 5 vs 4 (the board is full) (F-0)"),
        "{}",
        o.text
    );
}

#[test]
fn ply_choices_say_what_they_do_and_mark_wins_and_tak() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    for (who, ply) in &ROAD[..8] {
        play(&w, who, ply);
    }
    let labels = w
        .service
        .label_plies(
            CHANNEL,
            &["d3".into(), "Sd3".into(), "a3>".into(), "Cb2".into()],
        )
        .unwrap();
    assert_eq!(
        labels,
        [
            "d3 — flat on d3 (Tak!)",
            "Sd3 — wall on d3",
            "a3> — one from a3 right",
            "Cb2 — capstone on b2"
        ]
    );
    for (who, ply) in &ROAD[8..10] {
        play(&w, who, ply);
    }
    let labels = w.service.label_plies(CHANNEL, &["e3".into()]).unwrap();
    assert_eq!(labels, ["e3 — flat on e3 (wins!)"]);
    let spread = bredon::tak::Ply::parse("3c3>12").unwrap().ply;
    assert_eq!(
        bredon::game::describe_ply(spread),
        "three from c3 right, dropping 1, 2"
    );
}

#[test]
fn a_blind_game_shows_only_plies_until_it_ends() {
    let w = world();
    let o = w
        .service
        .challenge(
            &ctx("alice", 0),
            &ChallengeOptions {
                blind: true,
                ..opts(Some("bob"), Seat::White)
            },
        )
        .unwrap();
    assert!(
        o.text.contains("blind: no picture until the end"),
        "{}",
        o.text
    );
    let start = w.service.accept(&ctx("bob", 0)).unwrap();
    assert!(start.board.is_none(), "no picture at the start");
    for (who, ply) in &ROAD[..4] {
        let o = play(&w, who, ply);
        assert!(o.board.is_none(), "no picture after {ply}");
        assert!(o.text.contains(&format!("played {ply}")), "the ply is said");
    }
    let view = w.service.view(&ctx("carol", 0)).unwrap();
    assert!(view.board.is_none());
    assert!(
        view.text.contains("the plies so far: 1. e1 a1 2. a3 a5"),
        "{}",
        view.text
    );
    assert!(refusal_of(w.service.legal_plies(CHANNEL)).contains("blind game"));
    for (who, ply) in &ROAD[4..] {
        play(&w, who, ply);
    }
    let end = w.service.view(&ctx("carol", 0)).unwrap();
    assert!(
        end.board.is_some(),
        "the last board is shown once the game is over"
    );
}

#[test]
fn a_players_reminder_wish_overrides_the_games() {
    let w = world();
    w.service
        .set_prefs(user("bob").id, None, Some("1h"))
        .unwrap();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    play(&w, "alice", "a1");
    assert!(w.service.tick(1000 + HOUR - 1).unwrap().is_empty());
    let events = w.service.tick(1000 + HOUR).unwrap();
    assert!(
        events[0].outcome.text.contains("bob, it is your move"),
        "bob's hour"
    );
    w.service
        .set_prefs(user("alice").id, Some(true), Some("off"))
        .unwrap();
    let o = play(&w, "bob", "e5");
    assert_eq!(o.direct.len(), 1, "alice asked for a direct message");
    assert!(
        w.service.tick(1000 + 30 * 24 * HOUR).unwrap().is_empty(),
        "alice turned reminders off"
    );
    let err = refusal_of(
        w.service
            .set_prefs(user("bob").id, None, Some("5m"))
            .map(|_| ()),
    );
    assert!(err.contains("1h to 2w"), "{err}");
}
