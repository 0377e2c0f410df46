//! A server's life: challenge caps, ratings per size, finished games by number, vacations,
//! komi and the reserve tray.

use super::world::*;
use crate::support;
use bredon::game::{Kind, Match};
use bredon::service::{ChallengeOptions, Ctx, Outcome};
use bredon::store::records::Seat;

#[test]
fn open_challenges_are_capped_per_player_and_server() {
    let w = world();
    let at = |channel: u64, name: &str| Ctx {
        channel,
        ..ctx(name, 0)
    };
    for channel in 0..5 {
        w.service
            .challenge(&at(channel, "alice"), &opts(None, Seat::White))
            .unwrap();
    }
    let sixth = refusal(
        w.service
            .challenge(&at(5, "alice"), &opts(None, Seat::White)),
    );
    assert!(sixth.contains("5 open challenges"), "{sixth}");
    // Others still may; and one answered makes room again.
    w.service
        .challenge(&at(5, "bob"), &opts(None, Seat::White))
        .unwrap();
    w.service.accept(&at(0, "carol")).unwrap();
    w.service
        .challenge(&at(6, "alice"), &opts(None, Seat::White))
        .unwrap();
}

/// One finished game in the channel: `white` challenges `black` with `options`, they play
/// three plies each (a rated game decided sooner moves no rating), `black` resigns.
fn white_wins(w: &World, white: &str, black: &str, options: ChallengeOptions, at_ms: i64) {
    let options = ChallengeOptions {
        opponent: Some(user(black)),
        seat: Seat::White,
        ..options
    };
    w.service.challenge(&ctx(white, at_ms), &options).unwrap();
    w.service.accept(&ctx(black, at_ms)).unwrap();
    // Legal and undecided on 3x3 up: White's c1 b1 b2 and Black's a1 a2 c3 make no road.
    for (i, ply) in ["a1", "c1", "b1", "a2", "b2", "c3"].iter().enumerate() {
        let who = [white, black][i % 2];
        w.service.play(&ctx(who, at_ms), ply).unwrap();
    }
    w.service.resign(&ctx(black, at_ms + 1)).unwrap();
}

fn rated(size: usize) -> ChallengeOptions {
    ChallengeOptions {
        size: Some(size),
        rated: true,
        ..ChallengeOptions::default()
    }
}

/// alice wins a rated 5x5, bob a rated 6x6, alice an unrated 3x3.
fn three_sizes(w: &World) {
    white_wins(w, "alice", "bob", rated(5), 10);
    white_wins(w, "bob", "alice", rated(6), 20);
    let unrated = ChallengeOptions {
        rated: false,
        ..rated(3)
    };
    white_wins(w, "alice", "bob", unrated, 30);
}

#[test]
fn ratings_are_kept_per_board_size_and_small_boards_are_never_rated() {
    let w = world();
    for size in [3, 4] {
        let why = refusal_of(w.service.challenge(&ctx("alice", 0), &rated(size)));
        assert!(
            why.contains(&format!("{size}x{size} games are never rated")),
            "{why}"
        );
    }
    three_sizes(&w);
    let lines: Vec<String> = w
        .service
        .stats(&ctx("carol", 0), &user("alice"), Kind::Tak)
        .unwrap()
        .iter()
        .map(|s| s.describe())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "3x3: never rated, 1 win, 0 losses, 0 draws");
    assert!(
        lines[1].starts_with("5x5: rating 1662 ± ")
            && lines[1].ends_with("(rank #1), 1 win, 0 losses, 0 draws"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("6x6: rating 1338 ± ")
            && lines[2].ends_with("(rank #2), 0 wins, 1 loss, 0 draws"),
        "{}",
        lines[2]
    );
    // Without a size: the server's default, 6x6, where bob leads; 5x5 is named as elsewhere.
    let board = w
        .service
        .leaderboard(&ctx("carol", 0), Kind::Tak, None)
        .unwrap();
    assert_eq!(board.size, 6);
    assert_eq!(board.players[0].user.name, "bob");
    assert_eq!(board.other_sizes, vec![5]);
    let five = w
        .service
        .leaderboard(&ctx("carol", 0), Kind::Tak, Some(5))
        .unwrap();
    assert_eq!(five.players[0].user.name, "alice");
    assert_eq!(five.other_sizes, vec![6]);
    let why = refusal_of(w.service.leaderboard(&ctx("carol", 0), Kind::Tak, Some(3)));
    assert!(
        why.contains("3x3 games are never rated, so they have no leaderboard"),
        "{why}"
    );
}

/// A rated game decided before each player has made three plies of their own moves no rating,
/// whatever decided it (lichess aborts such a game); its result counts everywhere else (the
/// record, the series), and the replay of the archive agrees with the stored ratings.
#[test]
fn a_rated_game_decided_before_three_plies_each_counts_but_moves_no_rating() {
    let w = world();
    let five = || ChallengeOptions {
        opponent: Some(user("bob")),
        seat: Seat::White,
        time_limit: Some("1d".into()),
        ..rated(5)
    };
    let plays = |plies: &[&str], at_ms: i64| {
        for (i, ply) in plies.iter().enumerate() {
            let who = ["alice", "bob"][i % 2];
            w.service.play(&ctx(who, at_ms), ply).unwrap();
        }
    };
    let early = "Unrated: decided before each player made 3 plies.";
    // A time-out after two plies: bob wins, nothing rated.
    started(&w, five());
    plays(&["a1", "e5"], 1000);
    let events = w.service.tick(1000 + 25 * HOUR).unwrap();
    let f = events
        .iter()
        .find_map(|e| e.outcome.finished.clone())
        .expect("the time-out ends the game");
    assert_eq!(
        f.reason,
        format!("alice ran out of time; bob wins (0-1). {early} Game #1.")
    );
    assert!(f.ratings.is_empty(), "{:?}", f.ratings);
    assert!(f.series[1].1 > 0, "the series counts it: {:?}", f.series);
    let bob = |w: &World| {
        w.service
            .stats(&ctx("carol", 0), &user("bob"), Kind::Tak)
            .unwrap()[0]
            .player
            .clone()
    };
    let after = bob(&w);
    assert_eq!(
        (after.wins, after.rated_games, after.rating),
        (1, 0, 1500.0),
        "the win counts, the rating stays"
    );
    // A resignation after five plies and a draw agreed before any: unrated too.
    let at = 2 * DAY;
    w.service.challenge(&ctx("alice", at), &five()).unwrap();
    w.service.accept(&ctx("bob", at)).unwrap();
    plays(&["a1", "e5", "b1", "d5", "c1"], at);
    let resigned = w.service.resign(&ctx("bob", at)).unwrap();
    assert!(resigned.text.contains(early), "{}", resigned.text);
    w.service.challenge(&ctx("alice", at), &five()).unwrap();
    w.service.accept(&ctx("bob", at)).unwrap();
    w.service.offer_draw(&ctx("alice", at)).unwrap();
    let drawn = w.service.answer_draw(&ctx("bob", at), true).unwrap();
    assert!(drawn.text.contains(early), "{}", drawn.text);
    let after = bob(&w);
    assert_eq!(
        (after.wins, after.losses, after.draws, after.rated_games),
        (1, 1, 1, 0)
    );
    // Three plies each: rated.
    w.service.challenge(&ctx("alice", at), &five()).unwrap();
    w.service.accept(&ctx("bob", at)).unwrap();
    plays(&["a1", "e5", "b1", "d5", "c1", "c5"], at);
    let resigned = w.service.resign(&ctx("alice", at)).unwrap();
    let f = resigned.finished.unwrap();
    assert!(!resigned.text.contains("Unrated"), "{}", resigned.text);
    assert_eq!(f.ratings.len(), 2);
    assert_eq!(bob(&w).rated_games, 1);
    // Rebuilt from the archive, the ratings are the ones stored.
    let archive = w.service.store().history(user("bob").id, 50).unwrap();
    assert_eq!(archive.len(), 4);
    let order = |mut v: Vec<bredon::store::records::PlayerRecord>| {
        v.sort_by_key(|p| (p.user.id, p.size));
        v
    };
    assert_eq!(
        order(bredon::ratings::replay(archive)),
        order(w.service.store().players(GUILD, Kind::Tak).unwrap())
    );
}

/// With no `size:`, the leaderboard shows the size the asker plays most; someone who has not
/// played sees the server's size.
#[test]
fn the_leaderboard_without_a_size_shows_the_askers_size() {
    let w = world();
    white_wins(&w, "alice", "bob", rated(5), 10);
    let board = w
        .service
        .leaderboard(&ctx("alice", 0), Kind::Tak, None)
        .unwrap();
    assert_eq!((board.size, board.askers_size), (5, true));
    assert_eq!(board.players.len(), 2);
    let board = w
        .service
        .leaderboard(&ctx("carol", 0), Kind::Tak, None)
        .unwrap();
    assert_eq!((board.size, board.askers_size), (6, false));
    assert_eq!(board.other_sizes, vec![5]);
    // More rated games on 6x6 than on 5x5: 6x6.
    white_wins(&w, "bob", "alice", rated(6), 20);
    white_wins(&w, "alice", "bob", rated(6), 30);
    let board = w
        .service
        .leaderboard(&ctx("alice", 0), Kind::Tak, None)
        .unwrap();
    assert_eq!((board.size, board.askers_size), (6, true));
    let asked = w
        .service
        .leaderboard(&ctx("alice", 0), Kind::Tak, Some(5))
        .unwrap();
    assert_eq!((asked.size, asked.askers_size), (5, false));
}

/// A store written before ratings were per size (one record per player and game, under a key
/// without a size) is rebuilt from its archive when it opens: each rating on the size it was
/// earned on, and a rated 3x3 game of then counted but not rated.
#[test]
fn ratings_kept_before_sizes_were_apart_move_to_their_sizes() {
    let w = world_in(support::folder());
    three_sizes(&w);
    let expected = w.service.store().players(GUILD, Kind::Tak).unwrap();
    assert_eq!(expected.len(), 6, "two players on three sizes");
    let World { place, service } = w;
    let dir = place.dir;
    drop(service);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let db = loop {
        match sled::open(dir.path()) {
            Ok(db) => break db,
            Err(_) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            Err(e) => panic!("{e}"),
        }
    };
    let players = db.open_tree("players").unwrap();
    players.clear().unwrap();
    for (name, rating) in [("alice", 1700.0), ("bob", 1450.0)] {
        let id = user(name).id;
        let mut key = GUILD.to_be_bytes().to_vec();
        key.extend(id.to_be_bytes());
        let old = format!(
            r#"{{"v":2,"data":{{"guild":{GUILD},"game":"Tak","user":{{"id":{id},"name":"{name}"}},"rating":{rating},"deviation":200.0,"volatility":0.06,"rated_games":3,"wins":2,"losses":1,"draws":0}}}}"#
        );
        players.insert(key, old.as_bytes()).unwrap();
    }
    // The 3x3 game was rated when it was played.
    let archive = db.open_tree("archive").unwrap();
    let mut rated_small = 0;
    for entry in archive.iter() {
        let (key, value) = entry.unwrap();
        let text = String::from_utf8(value.to_vec()).unwrap();
        if text.contains(r#""size":3"#) {
            let text = text.replace(r#""rated":false"#, r#""rated":true"#);
            archive.insert(key, text.as_bytes()).unwrap();
            rated_small += 1;
        }
    }
    assert_eq!(rated_small, 1);
    db.flush().unwrap();
    drop((players, archive, db));
    let store = support::reopen(dir.path());
    let mut rebuilt = store.players(GUILD, Kind::Tak).unwrap();
    let order =
        |v: &mut Vec<bredon::store::records::PlayerRecord>| v.sort_by_key(|p| (p.user.id, p.size));
    let mut expected = expected;
    order(&mut rebuilt);
    order(&mut expected);
    assert_eq!(rebuilt, expected);
}

#[test]
fn any_finished_game_of_the_server_by_its_number() {
    let w = world();
    three_sizes(&w);
    let history = w
        .service
        .history(&ctx("carol", 0), user("alice").id)
        .unwrap();
    let five = history.iter().find(|g| g.settings.size == 5).unwrap();
    assert_eq!(five.number, Some(1), "the server's first game");
    let o = w.service.view_finished(&ctx("carol", 0), 1, None).unwrap();
    assert_eq!(
        o.text,
        "Game #1, alice vs bob, Tak on 5x5: bob resigns; alice wins (1-0)."
    );
    let board = o.board.unwrap();
    assert_eq!(Match::from_record(&board.record).unwrap().kind(), Kind::Tak);
    // `ply:` goes no further than the game.
    let plies = five.plies.len();
    let why = refusal_of(
        w.service
            .view_finished(&ctx("carol", 0), 1, Some(plies + 1)),
    );
    assert!(
        why.starts_with(&format!("the game ends after ply {plies}")),
        "{why}"
    );
    let record = w.service.ptn(&ctx("carol", 0), Some(1)).unwrap();
    assert!(record.text.contains("[Size \"5\"]"), "{}", record.text);
    assert_eq!(
        w.service
            .finished_record(&ctx("carol", 0), Some(1))
            .unwrap()
            .record,
        record.text
    );
    // Without a number: the channel's last game, the 3x3.
    assert!(w
        .service
        .ptn(&ctx("carol", 0), None)
        .unwrap()
        .text
        .contains("[Size \"3\"]"));
    let elsewhere = in_guild(GUILD + 1, "carol");
    for why in [
        refusal_of(w.service.view_finished(&elsewhere, five.id, None)),
        refusal_of(w.service.ptn(&elsewhere, Some(five.id))),
        refusal_of(w.service.finished_record(&ctx("carol", 0), Some(999))),
    ] {
        assert!(
            why.starts_with("there is no finished game #") && why.contains("/history lists"),
            "{why}"
        );
    }
}

const DAY: i64 = 24 * HOUR;

/// Every message owed to `channel` so far, in order.
fn owed_in(w: &World, channel: u64) -> Vec<String> {
    w.service
        .deliveries()
        .unwrap()
        .into_iter()
        .filter(|d| d.letter.channel == channel)
        .map(|d| d.outcome.text)
        .collect()
}

#[test]
fn a_vacation_stops_the_clocks_of_a_players_games_and_ending_it_early_gives_days_back() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    let elsewhere = Ctx {
        channel: CHANNEL + 1,
        ..ctx("bob", HOUR)
    };
    let o = w.service.vacation_start(&elsewhere, 3).unwrap();
    assert_eq!(
        o.text,
        "bob is on vacation until 1970.01.04 01:00 UTC: the clocks of 1 game stand still until \
         then. Vacation days left this year: 11 of 14; /vacation end comes back early."
    );
    // Asking again while away says that nothing changed, and changes nothing.
    let stored = |w: &World| {
        let s = w.service.store();
        (
            s.vacation(GUILD, user("bob").id).unwrap(),
            s.game(CHANNEL).unwrap().unwrap(),
        )
    };
    let before = stored(&w);
    let again = refusal(w.service.vacation_start(
        &Ctx {
            now_ms: 2 * HOUR,
            ..elsewhere.clone()
        },
        5,
    ));
    assert_eq!(
        again,
        "you are already on vacation here until 1970.01.04 01:00 UTC, so nothing changed: no \
         days were added or counted. /vacation end comes back early (giving back the days not \
         taken); after it, /vacation start takes days off again"
    );
    assert_eq!(stored(&w), before);
    let game = w.service.store().game(CHANNEL).unwrap().unwrap();
    assert_eq!(game.paused_until_ms, Some(HOUR + 3 * DAY));
    assert_eq!(
        game.timeout_due_ms,
        Some(4 * DAY),
        "a day's limit, three days later"
    );
    assert!(owed_in(&w, CHANNEL).last().unwrap().starts_with(
        "bob is on vacation until 1970.01.04 01:00 UTC: this game's clock stands still"
    ));
    // alice's day runs out while bob is away: nothing happens.
    assert!(w.service.tick(2 * DAY).unwrap().is_empty());
    // She plays anyway; bob's clock starts when he is back.
    w.service.play(&ctx("alice", 2 * DAY), "a1").unwrap();
    let game = w.service.store().game(CHANNEL).unwrap().unwrap();
    assert_eq!(game.timeout_due_ms, Some(HOUR + 4 * DAY));
    // He comes back a day early: one day given back, his clock runs from now.
    let o = w
        .service
        .vacation_end(&Ctx {
            now_ms: 2 * DAY + HOUR,
            ..elsewhere.clone()
        })
        .unwrap();
    assert_eq!(
        o.text,
        "bob is back: the clocks of 1 game run again; 1 unused day given back."
    );
    let game = w.service.store().game(CHANNEL).unwrap().unwrap();
    assert_eq!(
        (game.paused_until_ms, game.timeout_due_ms),
        (None, Some(3 * DAY + HOUR))
    );
    assert!(refusal(w.service.vacation_end(&elsewhere)).contains("not on vacation"));
    let events = w.service.tick(3 * DAY + HOUR).unwrap();
    assert!(
        events
            .iter()
            .any(|e| e.outcome.text.contains("bob ran out of time")),
        "{:?}",
        events.iter().map(|e| &e.outcome.text).collect::<Vec<_>>()
    );
    // 12 days are left this year: more is refused; a server may allow none.
    let why = refusal(w.service.vacation_start(&elsewhere, 13));
    assert_eq!(
        why,
        "you have 12 vacation days left this year (of 14); ask for at most that many"
    );
    w.service.set_vacation_days(&ctx("mod", 0), 0).unwrap();
    assert!(refusal(w.service.vacation_start(&elsewhere, 1)).contains("allows no vacations"));
    assert!(refusal_of(w.service.set_vacation_days(&ctx("bob", 0), 30))
        .contains("only a server moderator"));
}

#[test]
fn a_servers_komi_per_size_goes_to_challenges_that_name_none() {
    let w = world();
    assert!(
        refusal_of(w.service.set_server_komi(&ctx("alice", 0), Some(6), "2"))
            .contains("only a server moderator")
    );
    let s = w
        .service
        .set_server_komi(&ctx("mod", 0), None, "2")
        .unwrap();
    assert_eq!(
        s.describe_komi(),
        "komi 2 on 6x6",
        "the server's size by default"
    );
    w.service
        .set_server_komi(&ctx("mod", 0), Some(5), "1,5")
        .unwrap();
    let o = w
        .service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    assert!(o.text.contains("Tak on 5x5, komi 1.5"), "{}", o.text);
    w.service.cancel(&ctx("alice", 0)).unwrap();
    let named = ChallengeOptions {
        komi: Some("0".into()),
        ..opts(Some("bob"), Seat::White)
    };
    let o = w.service.challenge(&ctx("alice", 0), &named).unwrap();
    assert!(
        o.text.contains("komi 0"),
        "a challenge's own komi wins: {}",
        o.text
    );
    let s = w
        .service
        .set_server_komi(&ctx("mod", 0), Some(5), "0")
        .unwrap();
    assert_eq!(
        s.describe_komi(),
        "komi 2 on 6x6",
        "0 forgets a size's komi"
    );
}

#[test]
fn the_reserve_tray_is_the_servers_choice_unless_a_challenge_says() {
    let w = world();
    w.service.set_tray(&ctx("mod", 0), true).unwrap();
    let s = w.service.set_display(&ctx("mod", 0), "labels").unwrap();
    assert_eq!(
        s.describe_display(),
        "pictures without labels (and the reserve tray)",
        "hiding parts keeps the tray"
    );
    let tray_of = |o: &Outcome| o.board.as_ref().expect("a board").display.tray;
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    let game = w.service.accept(&ctx("bob", 0)).unwrap();
    assert!(tray_of(&game));
    w.service.abort(&ctx("alice", 0)).unwrap();
    let without = ChallengeOptions {
        tray: Some(false),
        hide: Some("none".into()),
        ..opts(Some("bob"), Seat::White)
    };
    w.service.challenge(&ctx("alice", 0), &without).unwrap();
    let game = w.service.accept(&ctx("bob", 0)).unwrap();
    assert!(!tray_of(&game), "the challenge's own choice wins");
}

/// The channels not everyone sees change in a transaction of their own, and a moderator's
/// settings written after (read before the bot's reading) never undo them; an id the bot does
/// not know keeps its place.
#[test]
fn hidden_channels_survive_a_moderators_settings_read_before() {
    let w = world();
    let guild = ctx("alice", 0).guild;
    let store = w.service.store();
    let read_before = store.settings(guild).unwrap();
    assert!(w
        .service
        .set_hidden_channels(guild, &[7, 8], &[7, 8])
        .unwrap());
    store.put_settings(guild, &read_before).unwrap();
    assert_eq!(store.settings(guild).unwrap().hidden_channels, vec![7, 8]);
    assert!(
        !w.service.set_hidden_channels(guild, &[8], &[8]).unwrap(),
        "7 unknown: kept"
    );
    assert!(w.service.set_hidden_channels(guild, &[], &[7]).unwrap());
    assert_eq!(store.settings(guild).unwrap().hidden_channels, vec![8]);
}
