//! The game service through its public API, on a real store: a sled folder, or a PostgreSQL
//! database with `BREDON_TEST_DATABASE=postgres`.

use bredon::game::{Ending, Kind, Match};
use bredon::service::{Answer, ChallengeOptions, Ctx, Outcome, Service};
use bredon::store::records::{PlayerRef, Seat};
use bredon::store::Store;
use bredon::tak::{Color, GameResult, Opening};
use std::sync::Arc;

mod support;

const GUILD: u64 = 7;
const CHANNEL: u64 = 100;
const HOUR: i64 = 3_600_000;

struct World {
    place: support::Place,
    service: Service,
}

fn world() -> World {
    world_in(support::place())
}

fn world_in(place: support::Place) -> World {
    let service = Service::new(place.open());
    World { place, service }
}

fn user(name: &str) -> PlayerRef {
    let id = name.bytes().fold(1469598103934665603u64, |h, b| {
        (h ^ b as u64).wrapping_mul(1099511628211)
    });
    PlayerRef {
        id,
        name: name.into(),
    }
}

fn ctx(name: &str, now_ms: i64) -> Ctx {
    Ctx {
        guild: GUILD,
        channel: CHANNEL,
        user: user(name),
        now_ms,
        moderator: name == "mod",
        request: None,
    }
}

fn opts(opponent: Option<&str>, seat: Seat) -> ChallengeOptions {
    ChallengeOptions {
        opponent: opponent.map(user),
        seat,
        size: Some(5),
        ..ChallengeOptions::default()
    }
}

/// alice (White) vs bob (Black) on 5x5, started at t=0.
fn started(w: &World, options: ChallengeOptions) {
    w.service.challenge(&ctx("alice", 0), &options).unwrap();
    w.service.accept(&ctx("bob", 0)).unwrap();
}

fn play(w: &World, who: &str, ply: &str) -> Outcome {
    w.service
        .play(&ctx(who, 1000), ply)
        .unwrap_or_else(|e| panic!("{who} {ply}: {e}"))
}

fn refusal(r: Result<Outcome, bredon::service::Refusal>) -> String {
    r.expect_err("should be refused").0
}

/// White builds a road on rank 3 of 5x5 while Black plays on rank 5 (its swap flat is on e1).
const ROAD: [(&str, &str); 11] = [
    ("alice", "e1"),
    ("bob", "a1"),
    ("alice", "a3"),
    ("bob", "a5"),
    ("alice", "b3"),
    ("bob", "b5"),
    ("alice", "c3"),
    ("bob", "c5"),
    ("alice", "d3"),
    ("bob", "d5"),
    ("alice", "e3"),
];

#[test]
fn a_direct_challenge_is_accepted_by_the_challenged_player_only() {
    let w = world();
    let o = w
        .service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    assert!(o.text.contains("alice challenges bob"), "{}", o.text);
    assert_eq!(o.ping, vec![user("bob")]);
    assert!(refusal(w.service.accept(&ctx("carol", 0))).contains("this challenge is for bob"));
    assert!(
        refusal(w.service.accept(&ctx("alice", 0))).contains("cannot accept your own challenge")
    );
    let started = w.service.accept(&ctx("bob", 0)).unwrap();
    assert!(
        started.text.contains("alice (White) vs bob (Black)"),
        "{}",
        started.text
    );
    assert_eq!(started.ping, vec![user("alice")]);
    assert!(started.board.is_some());
}

#[test]
fn seats_follow_the_challenge() {
    let w = world();
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::Black))
        .unwrap();
    let o = w.service.accept(&ctx("bob", 0)).unwrap();
    assert!(
        o.text.contains("bob (White) vs alice (Black)"),
        "{}",
        o.text
    );
}

#[test]
fn an_open_challenge_can_be_taken_by_anyone_but_not_declined() {
    let w = world();
    let o = w
        .service
        .challenge(&ctx("alice", 0), &opts(None, Seat::White))
        .unwrap();
    assert!(o.text.contains("anyone may accept"));
    assert!(refusal(w.service.decline(&ctx("carol", 0))).contains("cannot be declined"));
    assert!(w
        .service
        .accept(&ctx("carol", 0))
        .unwrap()
        .text
        .contains("alice (White) vs carol (Black)"));
}

#[test]
fn decline_and_cancel_have_owners() {
    let w = world();
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    assert!(refusal(w.service.decline(&ctx("carol", 0))).contains("only they can decline"));
    assert!(refusal(w.service.cancel(&ctx("bob", 0))).contains("only alice"));
    assert!(w
        .service
        .decline(&ctx("bob", 0))
        .unwrap()
        .text
        .contains("bob declined alice's challenge"));
    assert!(refusal(w.service.accept(&ctx("bob", 0))).contains("no open challenge"));
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    w.service.cancel(&ctx("alice", 0)).unwrap();
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    w.service.cancel(&ctx("mod", 0)).unwrap();
}

#[test]
fn one_game_and_one_challenge_per_channel() {
    let w = world();
    assert!(refusal(
        w.service
            .challenge(&ctx("alice", 0), &opts(Some("alice"), Seat::White))
    )
    .contains("cannot challenge yourself"));
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    assert!(refusal(
        w.service
            .challenge(&ctx("carol", 0), &opts(None, Seat::White))
    )
    .contains("already has a challenge open"));
    w.service.accept(&ctx("bob", 0)).unwrap();
    let r = refusal(
        w.service
            .challenge(&ctx("carol", 0), &opts(None, Seat::White)),
    );
    assert!(
        r.contains("already a game in this channel (alice vs bob)"),
        "{r}"
    );
    // Another channel is free.
    let other = Ctx {
        channel: CHANNEL + 1,
        ..ctx("carol", 0)
    };
    w.service
        .challenge(&other, &opts(None, Seat::White))
        .unwrap();
}

#[test]
fn challenge_options_are_validated_with_clear_answers() {
    let w = world();
    let c = ctx("alice", 0);
    let cases: Vec<(ChallengeOptions, &str)> = vec![
        (
            ChallengeOptions {
                size: Some(9),
                ..opts(None, Seat::White)
            },
            "sizes go from 3 to 8",
        ),
        (
            ChallengeOptions {
                komi: Some("21".into()),
                ..opts(None, Seat::White)
            },
            "-20.5 to 20.5",
        ),
        (
            ChallengeOptions {
                time_limit: Some("1h".into()),
                ..opts(None, Seat::White)
            },
            "1d to 2w",
        ),
        (
            ChallengeOptions {
                reminder: Some("soon".into()),
                ..opts(None, Seat::White)
            },
            "not a duration",
        ),
        (
            ChallengeOptions {
                theme: Some("neon".into()),
                ..opts(None, Seat::White)
            },
            "no theme `neon`",
        ),
        (
            ChallengeOptions {
                tps: Some("x4/x4/x4/x4 1 1".into()),
                ..opts(None, Seat::White)
            },
            "the position is 4x4 but size says 5x5",
        ),
        (
            ChallengeOptions {
                tps: Some("x5/x5/x5/x5/x5 1 1".into()),
                rated: true,
                size: None,
                ..opts(None, Seat::White)
            },
            "cannot be rated",
        ),
        (
            ChallengeOptions {
                tps: Some("1,1,1/x3/x3 2 3".into()),
                size: None,
                ..opts(None, Seat::White)
            },
            "already decided",
        ),
    ];
    for (o, says) in cases {
        let r = refusal(w.service.challenge(&c, &o));
        assert!(r.contains(says), "{says}: {r}");
    }
    assert!(
        w.service.store().challenge(CHANNEL).unwrap().is_none(),
        "refusals store nothing"
    );
}

#[test]
fn only_the_player_to_move_plays_legal_plies() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    assert!(refusal(w.service.play(&ctx("bob", 0), "a1")).contains("it is alice's turn"));
    assert!(refusal(w.service.play(&ctx("carol", 0), "a1"))
        .contains("you are not playing in this game (alice vs bob)"));
    assert!(refusal(w.service.play(&ctx("alice", 0), "Sa1"))
        .contains("the first ply must place the opponent's flat"));
    assert!(refusal(w.service.play(&ctx("alice", 0), "zz")).contains("is not a ply"));
    let before = w.service.store().game(CHANNEL).unwrap().unwrap();
    let o = play(&w, "alice", "a1");
    assert_eq!(o.text, "alice played a1. bob to move.");
    assert_eq!(o.ping, vec![user("bob")]);
    assert!(refusal(w.service.play(&ctx("bob", 0), "a1")).contains("a1 is not empty"));
    let after = w.service.store().game(CHANNEL).unwrap().unwrap();
    assert_eq!(after.plies, vec!["a1"]);
    assert_eq!(after.seq, before.seq + 1);
}

#[test]
fn tak_is_announced_and_a_road_ends_the_game_into_the_archive() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            rated: true,
            komi: Some("2".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    let mut last = Outcome::default();
    for (who, ply) in ROAD {
        last = play(&w, who, ply);
        if ply == "d3" {
            assert!(last.tak && last.text.contains("Tak!"), "{}", last.text);
        }
    }
    let f = last.finished.expect("the road ends the game");
    assert_eq!(
        f.result,
        Ending::Tak(GameResult::Road {
            winner: Color::White,
            double: false
        })
    );
    assert!(
        last.text.contains("alice wins by road (R-0)"),
        "{}",
        last.text
    );
    assert!(
        f.ptn.contains("[Player1 \"alice\"]")
            && f.ptn.contains("[Result \"R-0\"]")
            && f.ptn.contains("5. d3' d5'"),
        "{}",
        f.ptn
    );
    assert!(
        f.ptn.contains("[Site \"Bredon on Discord\"]")
            && f.ptn.contains("[Date \"1970.01.01\"]")
            && f.ptn.contains("[Komi \"2\"]")
            && f.ptn.contains("[Opening \"swap\"]")
    );
    let packed = f
        .link
        .as_deref()
        .unwrap()
        .strip_prefix("https://ptn.ninja/")
        .unwrap();
    let unpacked = lz_str::decompress_from_encoded_uri_component(packed).unwrap();
    assert_eq!(String::from_utf16(&unpacked).unwrap(), f.ptn);
    assert!(w.service.store().game(CHANNEL).unwrap().is_none());
    // Ratings moved for a rated game: the winner up, the loser down.
    assert_eq!(f.ratings.len(), 2);
    assert!(f.ratings[0].2 > 0.0 && f.ratings[1].2 < 0.0);
    assert_eq!(f.rated_board, "5x5", "ratings are kept per board size");
    // The series scores 25 + alice's reserve: 21 stones less her 5 and the one Black's swap
    // placed, plus her capstone.
    assert_eq!(f.series[0].1, 25 + 15 + 1);
    let history = w.service.history(&ctx("alice", 0), user("bob").id).unwrap();
    assert_eq!(history.len(), 1);
    let stats = w
        .service
        .stats(&ctx("bob", 0), &user("alice"), Kind::Tak)
        .unwrap();
    assert_eq!(
        stats
            .iter()
            .map(|s| (s.player.size, s.player.wins, s.player.losses, s.rank))
            .collect::<Vec<_>>(),
        vec![(5, 1, 0, Some(1))]
    );
    let board = w
        .service
        .leaderboard(&ctx("bob", 0), Kind::Tak, Some(5))
        .unwrap();
    assert_eq!(
        board
            .players
            .iter()
            .map(|p| p.user.name.as_str())
            .collect::<Vec<_>>(),
        vec!["alice", "bob"]
    );
    // /board and /ptn still show the finished game.
    assert!(w
        .service
        .view(&ctx("carol", 0))
        .unwrap()
        .text
        .contains("The last one: alice wins by road"));
    assert!(w
        .service
        .ptn(&ctx("carol", 0), None)
        .unwrap()
        .text
        .contains("R-0"));
    assert!(refusal(w.service.play(&ctx("bob", 0), "a2")).contains("no game in this channel"));
}

#[test]
fn unrated_games_keep_stats_but_not_ratings() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    for (who, ply) in ROAD {
        play(&w, who, ply);
    }
    let stats = w
        .service
        .stats(&ctx("bob", 0), &user("bob"), Kind::Tak)
        .unwrap();
    assert_eq!(
        (
            stats[0].player.losses,
            stats[0].player.rated_games,
            stats[0].rank
        ),
        (1, 0, None)
    );
    assert_eq!(
        stats[0].describe(),
        "5x5: no rated game yet, 0 wins, 1 loss, 0 draws"
    );
    assert!(w
        .service
        .leaderboard(&ctx("bob", 0), Kind::Tak, Some(5))
        .unwrap()
        .players
        .is_empty());
}

#[test]
fn undo_needs_the_opponents_consent() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    assert!(refusal(w.service.request_undo(&ctx("alice", 0))).contains("no ply to take back"));
    play(&w, "alice", "a1");
    assert!(refusal(w.service.request_undo(&ctx("bob", 0))).contains("no ply to take back"));
    // Within a minute of the ply, before bob answers: taken back without asking.
    let o = w.service.request_undo(&ctx("alice", 61_000)).unwrap();
    assert_eq!(
        o.text,
        "alice took back their ply within a minute, before it was answered: a1 taken back. \
         alice to move."
    );
    assert!(o
        .prompt
        .is_some_and(|p| !matches!(p, bredon::service::Prompt::Undo { .. })));
    play(&w, "alice", "a1");
    // Later, bob is asked.
    let o = w.service.request_undo(&ctx("alice", 61_001)).unwrap();
    assert!(o.text.contains("alice asks to take back a1."), "{}", o.text);
    assert!(refusal(w.service.answer_undo(&ctx("alice", 0), true))
        .contains("your opponent has to answer"));
    assert!(refusal(w.service.answer_undo(&ctx("carol", 0), true)).contains("not playing"));
    w.service.answer_undo(&ctx("bob", 0), false).unwrap();
    assert_eq!(
        w.service.store().game(CHANNEL).unwrap().unwrap().plies,
        vec!["a1"]
    );
    w.service.request_undo(&ctx("alice", 61_001)).unwrap();
    let o = w.service.answer_undo(&ctx("bob", 0), true).unwrap();
    assert!(
        o.text.contains("bob agreed: a1 taken back. alice to move"),
        "{}",
        o.text
    );
    assert!(w
        .service
        .store()
        .game(CHANNEL)
        .unwrap()
        .unwrap()
        .plies
        .is_empty());
    // After the opponent replied, an undo takes back the requester's ply and the reply.
    play(&w, "alice", "a1");
    play(&w, "bob", "e5");
    let o = w.service.request_undo(&ctx("alice", 0)).unwrap();
    assert!(
        o.text.contains("alice asks to take back a1 e5"),
        "{}",
        o.text
    );
    w.service.answer_undo(&ctx("bob", 0), true).unwrap();
    assert!(w
        .service
        .store()
        .game(CHANNEL)
        .unwrap()
        .unwrap()
        .plies
        .is_empty());
}

#[test]
fn draw_offers_are_accepted_declined_or_lapse_on_a_ply() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    assert!(refusal(w.service.answer_draw(&ctx("bob", 0), true)).contains("no draw offer"));
    w.service.offer_draw(&ctx("alice", 0)).unwrap();
    assert!(refusal(w.service.offer_draw(&ctx("alice", 0))).contains("already offered"));
    w.service.answer_draw(&ctx("bob", 0), false).unwrap();
    w.service.offer_draw(&ctx("alice", 0)).unwrap();
    play(&w, "alice", "a1");
    assert!(
        refusal(w.service.answer_draw(&ctx("bob", 0), true)).contains("no draw offer"),
        "lapsed on the ply"
    );
    w.service.offer_draw(&ctx("bob", 0)).unwrap();
    let o = w.service.answer_draw(&ctx("alice", 0), true).unwrap();
    assert_eq!(
        o.finished.unwrap().result,
        Ending::Tak(GameResult::DrawAgreed)
    );
    assert!(o.text.contains("Drawn by agreement (1/2-1/2)"));
}

#[test]
fn resignation_and_moderator_abort() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    assert!(refusal(w.service.resign(&ctx("carol", 0))).contains("not playing"));
    let o = w.service.resign(&ctx("bob", 0)).unwrap();
    assert_eq!(o.finished.unwrap().result.code(), "1-0");
    assert!(o.text.contains("bob resigns; alice wins (1-0)"));
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1");
    let why = refusal(w.service.abort(&ctx("alice", 0)));
    assert!(
        why.starts_with(
            "the first ply has been played, so the game can no longer be aborted by a player"
        ),
        "{why}"
    );
    assert!(refusal(w.service.abort(&ctx("carol", 0))).starts_with("only the game's players"));
    let o = w.service.abort(&ctx("mod", 0)).unwrap();
    assert!(
        o.text
            .starts_with("mod aborted the game (0-0); it does not count."),
        "{}",
        o.text
    );
    assert_eq!(o.finished.unwrap().result.code(), "0-0");
    let why = refusal_of(w.service.stats(&ctx("alice", 0), &user("alice"), Kind::Tak));
    assert_eq!(
        why, "alice has not finished a game of Tak in this server yet",
        "an aborted game does not count"
    );
    // Before the first ply, either player may abort alone.
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let o = w.service.abort(&ctx("bob", 0)).unwrap();
    assert_eq!(o.finished.unwrap().result.code(), "0-0");
    assert!(
        o.text
            .starts_with("bob aborted the game (0-0); it does not count."),
        "{}",
        o.text
    );
}

#[test]
fn a_rematch_swaps_seats_keeps_settings_and_the_series_score() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            komi: Some("1.5".into()),
            opening: Opening::NoSwap,
            ..opts(Some("bob"), Seat::White)
        },
    );
    w.service.resign(&ctx("bob", 0)).unwrap();
    assert!(refusal(w.service.rematch(&ctx("carol", 0))).contains("only alice and bob"));
    let o = w.service.rematch(&ctx("bob", 0)).unwrap();
    assert!(
        o.text.contains("bob challenges alice")
            && o.text.contains("bob plays White")
            && o.text.contains("komi 1.5")
            && o.text.contains("no swap"),
        "{}",
        o.text
    );
    let o = w.service.accept(&ctx("alice", 0)).unwrap();
    assert!(o.text.contains("bob (White) vs alice (Black)"));
    let o = w.service.resign(&ctx("alice", 0)).unwrap();
    let series = o.finished.unwrap().series;
    // Each won one game by resignation with a full 5x5 reserve: 25 + 22 each.
    assert_eq!((series[0].1, series[1].1), (47, 47));
}

#[test]
fn annotations_typed_with_a_ply_are_kept_in_the_record() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1?");
    let o = play(&w, "bob", "e5!?");
    assert!(o.text.contains("bob played e5!?."), "{}", o.text);
    play(&w, "alice", "c3");
    // The game goes on after a restart-like rebuild, and the record keeps both annotations.
    let record = w.service.ptn(&ctx("alice", 0), None).unwrap().text;
    assert!(record.contains("1. a1? e5!?"), "{record}");
    assert!(record.contains("2. c3"), "{record}");
    play(&w, "bob", "d4!!");
    w.service.resign(&ctx("bob", 0)).unwrap();
    let record = w.service.ptn(&ctx("alice", 0), None).unwrap().text;
    assert!(record.contains("2. c3 d4!!"), "{record}");
}

#[test]
fn a_rematch_asked_by_both_players_starts_the_game() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    w.service.resign(&ctx("bob", 0)).unwrap();
    w.service.rematch(&ctx("alice", 0)).unwrap();
    // bob presses Rematch too: that accepts alice's, seats swapped.
    let o = w.service.rematch(&ctx("bob", 0)).unwrap();
    assert!(
        o.text.contains("bob (White) vs alice (Black)"),
        "{}",
        o.text
    );
    // Someone else's open challenge still refuses a rematch.
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    w.service.resign(&ctx("bob", 0)).unwrap();
    w.service
        .challenge(&ctx("carol", 0), &opts(Some("alice"), Seat::White))
        .unwrap();
    assert!(refusal(w.service.rematch(&ctx("bob", 0))).contains("carol already has a challenge"));
}

#[test]
fn reminders_fire_once_and_time_outs_end_the_game_after_a_restart() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("12h".into()),
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    assert!(w.service.tick(11 * HOUR).unwrap().is_empty());
    let events = w.service.tick(12 * HOUR).unwrap();
    assert_eq!(events.len(), 1);
    assert!(
        events[0].outcome.text.contains("alice, it is your move"),
        "{}",
        events[0].outcome.text
    );
    assert!(
        w.service.tick(12 * HOUR + 1).unwrap().is_empty(),
        "the same reminder never fires twice"
    );
    // Restart: the due times survive.
    let World { place, service } = w;
    drop(service);
    let service = Service::new(place.open());
    let events = service.tick(24 * HOUR).unwrap();
    let texts: Vec<&str> = events.iter().map(|e| e.outcome.text.as_str()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("alice ran out of time; bob wins (0-1)")),
        "{texts:?}"
    );
    assert!(service.store().game(CHANNEL).unwrap().is_none());
    assert!(service.tick(48 * HOUR).unwrap().is_empty());
}

#[test]
fn with_a_time_limit_reminders_come_at_half_time_and_an_hour_before_never_with_the_time_out() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("1w".into()),
            time_limit: Some("2d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    let start = w.service.view(&ctx("carol", 0)).unwrap();
    assert_eq!(start.deadline_ms, Some(48 * HOUR), "the deadline is shown");
    assert_eq!(
        start.board.unwrap().clock.as_deref(),
        Some("48 h 00 min"),
        "the picture says the time left"
    );
    assert!(w.service.tick(24 * HOUR - 1).unwrap().is_empty());
    let half = w.service.tick(24 * HOUR).unwrap();
    assert_eq!(
        half.len(),
        1,
        "a reminder at half the limit, before the weekly one"
    );
    assert_eq!(half[0].outcome.deadline_ms, Some(48 * HOUR));
    let board = half[0].outcome.board.clone().unwrap();
    assert_eq!(board.clock.as_deref(), Some("24 h 00 min"));
    let last_call = w.service.tick(47 * HOUR).unwrap();
    assert_eq!(
        last_call.len(),
        1,
        "a last reminder an hour before the time-out"
    );
    assert!(last_call[0].outcome.finished.is_none());
    assert_ne!(
        half[0].outcome.letter, last_call[0].outcome.letter,
        "each post is owed on its own"
    );
    let end = w.service.tick(48 * HOUR).unwrap();
    assert_eq!(end.len(), 1);
    assert!(end[0].outcome.finished.is_some(), "then only the time-out");
}

#[test]
fn a_late_tick_posts_the_time_out_without_the_reminder_it_missed() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    assert_eq!(w.service.tick(12 * HOUR).unwrap().len(), 1, "half time");
    // The bot was down from 13 h to 30 h: the 23 h reminder is overtaken by the time-out.
    let events = w.service.tick(30 * HOUR).unwrap();
    let texts: Vec<&str> = events.iter().map(|e| e.outcome.text.as_str()).collect();
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("ran out of time"), "{texts:?}");
}

#[test]
fn answers_to_an_older_question_are_refused() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1");
    let later = 2 * 60_000;
    let first = w.service.request_undo(&ctx("alice", later)).unwrap();
    let asked = first.prompt.expect("an undo request asks bob");
    w.service
        .answer(&ctx("bob", later), asked, Answer::Refuse)
        .unwrap();
    let second = w
        .service
        .request_undo(&ctx("alice", later))
        .unwrap()
        .prompt
        .unwrap();
    assert_ne!(asked, second, "a new request is a new version");
    let stale = refusal(w.service.answer(&ctx("bob", 0), asked, Answer::Agree));
    assert!(stale.contains("no longer open"), "{stale}");
    w.service
        .answer(&ctx("bob", 0), second, Answer::Agree)
        .unwrap();
    assert!(w
        .service
        .store()
        .game(CHANNEL)
        .unwrap()
        .unwrap()
        .plies
        .is_empty());
    // A challenge button of a cancelled challenge does not accept the next one.
    let w = world();
    let old = w
        .service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap()
        .prompt
        .unwrap();
    w.service.cancel(&ctx("alice", 0)).unwrap();
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    let stale = refusal(w.service.answer(&ctx("bob", 0), old, Answer::Accept));
    assert!(stale.contains("no longer open"), "{stale}");
}

#[test]
fn a_gone_channel_stops_its_timers_and_keeps_its_game() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            reminder: Some("1h".into()),
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    assert!(w.service.channel_gone(CHANNEL).unwrap());
    assert!(
        w.service.tick(100 * HOUR).unwrap().is_empty(),
        "no posts into the void"
    );
    assert!(
        w.service.store().game(CHANNEL).unwrap().is_some(),
        "the game is kept"
    );
    play(&w, "alice", "a1");
    assert_eq!(
        w.service.tick(1000 + 12 * HOUR).unwrap().len(),
        1,
        "a ply there re-arms the timers"
    );
    assert!(
        !w.service.deliveries().unwrap().is_empty(),
        "the ply is owed"
    );
    assert_eq!(w.service.guild_gone(GUILD).unwrap(), 1);
    assert!(
        w.service.deliveries().unwrap().is_empty(),
        "nothing owed to a server that removed Bredon is tried again"
    );
}

#[test]
fn a_ply_resets_the_clocks() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            time_limit: Some("1d".into()),
            ..opts(Some("bob"), Seat::White)
        },
    );
    w.service.play(&ctx("alice", 20 * HOUR), "a1").unwrap();
    assert!(
        w.service.tick(25 * HOUR).unwrap().is_empty(),
        "bob's day starts at alice's ply"
    );
    let events = w.service.tick(44 * HOUR).unwrap();
    assert!(events
        .iter()
        .any(|e| e.outcome.text.contains("bob ran out of time")));
}

#[test]
fn challenges_expire() {
    let w = world();
    w.service
        .challenge(&ctx("alice", 0), &opts(Some("bob"), Seat::White))
        .unwrap();
    let events = w.service.tick(49 * HOUR).unwrap();
    assert!(events[0].outcome.text.contains("alice's challenge expired"));
    assert!(refusal(w.service.accept(&ctx("bob", 49 * HOUR))).contains("no open challenge"));
}

#[test]
fn racing_plies_apply_exactly_once() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let service = Arc::new(w.service);
    let threads: Vec<_> = ["a1", "e5", "c3", "b2", "d4", "a5", "e1", "b4"]
        .into_iter()
        .map(|ply| {
            let s = Arc::clone(&service);
            std::thread::spawn(move || s.play(&ctx("alice", 0), ply).is_ok())
        })
        .collect();
    let applied = threads
        .into_iter()
        .map(|t| t.join().unwrap())
        .filter(|&ok| ok)
        .count();
    assert_eq!(applied, 1);
    assert_eq!(
        service.store().game(CHANNEL).unwrap().unwrap().plies.len(),
        1
    );
}

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
    let service = Service::new(Store::open(dir.path()).unwrap());
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
        r#"{{"v":1,"data":{{"id":8,"guild":{GUILD},"channel":{CHANNEL},"players":{players},"settings":{settings},"plies":["a1"],"result":{{"Resignation":{{"winner":"Black"}}}},"ptn":"[Size \"5\"]\n\n1. a1 0-1\n","started_ms":0,"finished_ms":0,"rating_changes":[-20.5,20.5],"series":{series}}}}}"#
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
    let store = Store::open(dir.path()).unwrap();
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
    bredon::ratings::score(&mut fresh, old.result, true);
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

fn refusal_of<T: std::fmt::Debug>(r: Result<T, bredon::service::Refusal>) -> String {
    r.expect_err("should be refused").0
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

fn takat(options: ChallengeOptions) -> ChallengeOptions {
    ChallengeOptions {
        game: Kind::Takat,
        size: None,
        ..options
    }
}

#[test]
fn takat_challenges_check_their_own_options() {
    let w = world();
    let bad = |o: ChallengeOptions| refusal(w.service.challenge(&ctx("alice", 0), &o));
    let base = takat(opts(Some("bob"), Seat::White));
    assert!(bad(ChallengeOptions {
        size: Some(8),
        ..base.clone()
    })
    .contains("7 or 19"));
    assert!(bad(ChallengeOptions {
        komi: Some("2".into()),
        ..base.clone()
    })
    .contains("komi and reserves are Tak's options"));
    assert!(bad(ChallengeOptions {
        tps: Some("x,x/111121,221,x/x,x 2 b1 6".into()),
        ..base.clone()
    })
    .contains("already decided"));
    let o = w
        .service
        .challenge(
            &ctx("alice", 0),
            &ChallengeOptions {
                size: Some(19),
                ..base
            },
        )
        .unwrap();
    assert!(o.text.contains("Takat on 19 circles"), "{}", o.text);
}

#[test]
fn takat_games_undo_time_out_and_rate_apart_from_tak() {
    let w = world();
    started(
        &w,
        ChallengeOptions {
            time_limit: Some("1d".into()),
            rated: true,
            ..takat(opts(Some("bob"), Seat::White))
        },
    );
    play(&w, "alice", "a1");
    let o = play(&w, "bob", "c2");
    assert!(
        o.board.is_some() && o.text.contains("alice to move"),
        "{}",
        o.text
    );
    assert!(refusal(w.service.play(&ctx("alice", 1000), "c2-b2")).contains("just moved by Black"));
    w.service.request_undo(&ctx("bob", 2 * 60_000)).unwrap();
    let o = w
        .service
        .answer_undo(&ctx("alice", 3 * 60_000), true)
        .unwrap();
    assert!(o.text.contains("c2 taken back"), "{}", o.text);
    assert_eq!(
        w.service.legal_plies(CHANNEL).unwrap().len(),
        5,
        "Black enters again"
    );
    let labels = w.service.label_plies(CHANNEL, &["b1".to_string()]).unwrap();
    assert_eq!(labels, ["b1 — enter on b1"]);
    // Black lets the clock run out.
    let events = w.service.tick(3000 + 25 * 3600 * 1000).unwrap();
    let end = events
        .iter()
        .find_map(|e| e.outcome.finished.clone())
        .expect("the time-out ends the game");
    assert_eq!(end.result.code(), "1-0");
    assert!(
        end.reason.contains("bob ran out of time; alice wins"),
        "{}",
        end.reason
    );
    assert_eq!(end.file, "game.takat.txt");
    assert!(end.link.is_none());
    let takat_board = w
        .service
        .leaderboard(&ctx("carol", 0), Kind::Takat, None)
        .unwrap()
        .players;
    assert_eq!(takat_board.len(), 2);
    assert!(takat_board[0].rating > 1500.0 && takat_board[0].user.name == "alice");
    assert!(
        w.service
            .leaderboard(&ctx("carol", 0), Kind::Tak, None)
            .unwrap()
            .other_sizes
            .is_empty()
            && w.service
                .leaderboard(&ctx("carol", 0), Kind::Tak, None)
                .unwrap()
                .players
                .is_empty(),
        "Tak ratings are untouched"
    );
}

fn in_guild(guild: u64, name: &str) -> Ctx {
    Ctx {
        guild,
        ..ctx(name, 1000)
    }
}

/// University rules: antes, sealed bids, a Tak fee paid by playing on (and the token: Bob's
/// answering Tak makes Alice owe), the pot and the reserve bonus to the winner; every coin in
/// the ledger and the wallets adding up.
#[test]
fn a_university_game_moves_every_coin_through_the_ledger() {
    let w = world();
    let s = &w.service;
    let mut options = opts(Some("bob"), Seat::White);
    options.stakes = Some(bredon::store::records::Stakes::University);
    let asked = s.challenge(&ctx("alice", 0), &options).unwrap();
    // The bids decide the seats, so the challenge names none.
    assert!(
        asked.text.contains("the higher bid plays White") && !asked.text.contains("alice plays"),
        "{}",
        asked.text
    );
    let started = s.accept(&ctx("bob", 0)).unwrap();
    assert!(
        started.text.contains("each antes 10 (pot 20)"),
        "{}",
        started.text
    );
    assert_eq!(s.wallet(&ctx("alice", 0), user("alice").id).unwrap(), 90);
    let early = refusal(s.play(&ctx("alice", 0), "e1"));
    assert!(
        early.contains("still bidding") && early.contains("alice and bob"),
        "{early}"
    );
    let why = refusal_of(s.bid(&ctx("alice", 0), 91));
    assert!(
        why.contains("bid 0 to 90 coins"),
        "more than alice has: {why}"
    );
    match s.bid(&ctx("alice", 0), 7).unwrap() {
        bredon::service::Bid::Sealed(text) => assert!(text.contains("sealed"), "{text}"),
        bredon::service::Bid::Settled(_) => panic!("one bid settles nothing"),
    }
    let why = refusal_of(s.bid(&ctx("alice", 0), 8));
    assert!(why.contains("bids are sealed and final"), "{why}");
    let settled = match s.bid(&ctx("bob", 0), 3).unwrap() {
        bredon::service::Bid::Settled(o) => o,
        bredon::service::Bid::Sealed(_) => panic!("the second bid settles"),
    };
    assert!(
        settled.text.contains(
            "Bids: alice 7, bob 3. alice moves first (White) and pays 7 into the pot (pot 27)"
        ),
        "{}",
        settled.text
    );
    assert_eq!(settled.ping, vec![user("alice")]);
    assert!(refusal(s.request_undo(&ctx("alice", 0))).contains("University"));
    for (who, ply) in &ROAD[..8] {
        play(&w, who, ply);
    }
    let tak = play(&w, "alice", "d3");
    assert!(
        tak.text.contains("bob owes 2 coins for the Tak"),
        "{}",
        tak.text
    );
    let answer = play(&w, "bob", "d5");
    assert!(answer.text.contains("bob paid 2 coins"), "{}", answer.text);
    assert!(
        answer.text.contains("alice owes 2 coins"),
        "the token passes: {}",
        answer.text
    );
    let end = play(&w, "alice", "e3");
    let reason = &end.finished.as_ref().unwrap().reason;
    // Pot: 20 + 7 + 2 + 2; Alice's reserve: 21 stones + 1 capstone - 6 of her flats on board.
    assert!(
        reason.contains("alice takes the pot of 31 and 16 coins from bob"),
        "{reason}"
    );
    let alice = s.wallet(&ctx("alice", 0), user("alice").id).unwrap();
    let bob = s.wallet(&ctx("alice", 0), user("bob").id).unwrap();
    assert_eq!(
        (alice, bob),
        (100 - 10 - 7 - 2 + 31 + 16, 100 - 10 - 2 - 16)
    );
    assert_eq!(alice + bob, 200, "no coin made or lost");
    let archived = s.store().last_finished(CHANNEL).unwrap().unwrap();
    let deltas: Vec<(String, i64)> = archived
        .ledger
        .iter()
        .map(|m| {
            let name = if m.user == user("alice").id {
                "alice"
            } else {
                "bob"
            };
            (format!("{name}: {}", m.why), m.delta)
        })
        .collect();
    assert_eq!(
        deltas,
        [
            ("alice: ante", -10),
            ("bob: ante", -10),
            ("alice: bid for the first move", -7),
            ("bob: paid for a Tak", -2),
            ("alice: paid for a Tak", -2),
            ("alice: won the pot", 31),
            ("bob: bonus to the winner", -16),
            ("alice: bonus from the loser", 16),
        ]
        .map(|(w, d)| (w.to_string(), d))
    );
    let top = s.coin_leaderboard(&ctx("alice", 0)).unwrap();
    assert_eq!(top[0].user.name, "alice");
    assert_eq!(top[0].balance, 128);
}

/// A player who owes a Tak fee and cannot pay is told to resign; resigning is the refusal, and
/// the winner takes the pot (the loser has nothing left for a bonus).
#[test]
fn a_tak_fee_that_cannot_be_paid_leaves_only_resignation() {
    let w = world();
    let s = &w.service;
    const POOR: u64 = 8;
    let why = refusal_of(s.set_starting_coins(&in_guild(POOR, "alice"), 10));
    assert!(why.contains("only a server moderator"), "{why}");
    s.set_starting_coins(&in_guild(POOR, "mod"), 10).unwrap();
    let mut options = opts(Some("bob"), Seat::White);
    options.stakes = Some(bredon::store::records::Stakes::University);
    s.challenge(&in_guild(POOR, "alice"), &options).unwrap();
    s.accept(&in_guild(POOR, "bob")).unwrap();
    assert!(matches!(
        s.bid(&in_guild(POOR, "bob"), 0).unwrap(),
        bredon::service::Bid::Sealed(_)
    ));
    let settled = match s.bid(&in_guild(POOR, "alice"), 0).unwrap() {
        bredon::service::Bid::Settled(o) => o,
        bredon::service::Bid::Sealed(_) => panic!("settled"),
    };
    assert!(
        settled.text.contains("a tie, decided by lot"),
        "{}",
        settled.text
    );
    let game = s.store().game(CHANNEL).unwrap().unwrap();
    let (white, black) = (game.players[0].name.clone(), game.players[1].name.clone());
    let mv = |who: &str, ply: &str| s.play(&in_guild(POOR, who), ply);
    // White builds a road on rank 3 and makes Tak; Black owes 2 coins and has none.
    for (who, ply) in [
        (&white, "e1"),
        (&black, "a1"),
        (&white, "a3"),
        (&black, "a5"),
        (&white, "b3"),
        (&black, "b5"),
        (&white, "c3"),
        (&black, "c5"),
    ] {
        mv(who, ply).unwrap();
    }
    let tak = mv(&white, "d3").unwrap();
    assert!(
        tak.text.contains(&format!("{black} owes 2 coins")),
        "{}",
        tak.text
    );
    let refused = mv(&black, "e3").expect_err("cannot pay").0;
    assert!(refused.contains("you must resign"), "{refused}");
    assert_eq!(
        s.store().game(CHANNEL).unwrap().unwrap().plies.len(),
        9,
        "unchanged"
    );
    let resigned = s.resign(&in_guild(POOR, &black)).unwrap();
    let reason = &resigned.finished.as_ref().unwrap().reason;
    assert!(
        reason.contains(&format!(
            "{white} takes the pot of 20 and 0 coins from {black}"
        )),
        "{reason}"
    );
    assert_eq!(s.wallet(&in_guild(POOR, "x"), user(&white).id).unwrap(), 20);
    assert_eq!(s.wallet(&in_guild(POOR, "x"), user(&black).id).unwrap(), 0);
    // A new University game needs the ante.
    let mut again = opts(Some(&white), Seat::White);
    again.stakes = Some(bredon::store::records::Stakes::University);
    s.challenge(&in_guild(POOR, &black), &again).unwrap();
    let broke = refusal(s.accept(&in_guild(POOR, &white)));
    assert!(broke.contains(&format!("{black} has 0 coins")), "{broke}");
}

/// A drawn University game splits the pot (the odd coin to Black); an aborted one gives back
/// every coin paid in.
#[test]
fn university_draws_split_the_pot_and_aborts_refund_it() {
    let w = world();
    let s = &w.service;
    let university = || {
        let mut o = opts(Some("bob"), Seat::White);
        o.stakes = Some(bredon::store::records::Stakes::University);
        o
    };
    let settle = |a: i64, b: i64| {
        s.challenge(&ctx("alice", 0), &university()).unwrap();
        s.accept(&ctx("bob", 0)).unwrap();
        s.bid(&ctx("alice", 0), a).unwrap();
        s.bid(&ctx("bob", 0), b).unwrap();
    };
    let coins = |name: &str| s.wallet(&ctx(name, 0), user(name).id).unwrap();
    // Bob bids 5 and moves first; the pot is 25; a draw gives 12 to White (Bob), 13 to Black.
    settle(2, 5);
    let white = s.store().game(CHANNEL).unwrap().unwrap().players[0]
        .name
        .clone();
    assert_eq!(white, "bob");
    s.offer_draw(&ctx("bob", 0)).unwrap();
    let drawn = s.answer_draw(&ctx("alice", 0), true).unwrap();
    assert!(drawn
        .finished
        .unwrap()
        .reason
        .contains("The pot of 25 is split: 12 and 13."),);
    assert_eq!((coins("alice"), coins("bob")), (90 + 13, 85 + 12));
    // An aborted game refunds antes and bids.
    settle(4, 1);
    s.abort(&ctx("mod", 0)).unwrap();
    assert_eq!(
        (coins("alice"), coins("bob")),
        (103, 97),
        "back to before the game"
    );
    assert_eq!(coins("alice") + coins("bob"), 200);
}

#[test]
fn every_change_stores_the_message_it_owes_until_it_is_delivered() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let ply = play(&w, "alice", "a1");
    let owed = w.service.deliveries().unwrap();
    let texts: Vec<&str> = owed.iter().map(|d| d.outcome.text.as_str()).collect();
    assert_eq!(owed.len(), 3, "{texts:?}");
    assert!(texts[0].starts_with("alice challenges bob"), "{texts:?}");
    assert!(
        texts[1].contains("alice (White) vs bob (Black)"),
        "{texts:?}"
    );
    assert_eq!(texts[2], ply.text, "the stored outcome is the one returned");
    assert_eq!(owed[2].outcome.letter, ply.letter);
    assert_eq!(owed[2].outcome.ping, vec![user("bob")]);
    assert_eq!(owed[2].letter.channel, CHANNEL);
    // A look at the board changes nothing and owes nothing.
    let view = w.service.view(&ctx("carol", 1)).unwrap();
    assert_eq!(view.letter, None);
    assert_eq!(w.service.deliveries().unwrap().len(), 3);
    // A refused action stores nothing either.
    refusal(w.service.play(&ctx("alice", 2), "a2"));
    assert_eq!(w.service.deliveries().unwrap().len(), 3);
    for d in &owed {
        w.service.delivered(d.letter.id).unwrap();
    }
    assert!(w.service.deliveries().unwrap().is_empty());
}

#[test]
fn a_letter_is_stored_with_its_version_and_a_newer_one_is_left_to_its_build() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let ply = play(&w, "alice", "a1");
    let id = ply.letter.unwrap();
    let store = w.service.store();
    let mut letter = store.letter(id).unwrap().unwrap();
    assert_eq!(letter.body["v"], 1, "{}", letter.body);
    // Written by a newer Bredon sharing the store: neither read nor dropped.
    letter.body["v"] = serde_json::json!(2);
    store.put_letter(&letter).unwrap();
    assert!(w.service.delivery(id).is_err());
    assert_eq!(
        w.service.deliveries().unwrap().len(),
        2,
        "the others still read"
    );
    assert!(store.letter(id).unwrap().is_some(), "kept for its build");
    // One stored before bodies had a version reads as the first.
    letter.body.as_object_mut().unwrap().remove("v");
    store.put_letter(&letter).unwrap();
    let read = w.service.delivery(id).unwrap().unwrap();
    assert_eq!(read.outcome.text, ply.text);
}

#[test]
fn a_stored_outcome_draws_the_same_board_after_a_restart() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    play(&w, "alice", "a1");
    play(&w, "bob", "e5");
    let resigned = w.service.resign(&ctx("bob", 3)).unwrap();
    let World { place, service } = w;
    drop(service);
    let service = Service::new(place.open());
    let owed = service.deliveries().unwrap();
    let stored = &owed.last().unwrap().outcome;
    assert_eq!(stored.letter, resigned.letter);
    let (a, b) = (
        resigned.board.as_ref().unwrap(),
        stored.board.as_ref().unwrap(),
    );
    assert_eq!(b, a, "the same board, as plain data");
    let replayed = Match::from_record(&b.record).unwrap();
    assert_eq!(
        replayed.result().map(|e| e.code()),
        Some("1-0"),
        "bob's resignation is kept in the record"
    );
    let draw = |b: &bredon::service::Board| {
        bredon::game::explain::record_picture(
            &b.record,
            b.names(),
            &b.theme,
            b.clock.clone(),
            b.display,
        )
        .unwrap()
    };
    assert_eq!(draw(b), draw(a), "the same picture and description");
    let (fa, fb) = (
        resigned.finished.as_ref().unwrap(),
        stored.finished.as_ref().unwrap(),
    );
    assert_eq!((&fb.ptn, &fb.file, &fb.link), (&fa.ptn, &fa.file, &fa.link));
    assert_eq!(stored.prompt, resigned.prompt);
}

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

/// One finished game in the channel: `white` challenges `black` with `options`, `black` resigns.
fn white_wins(w: &World, white: &str, black: &str, options: ChallengeOptions, at_ms: i64) {
    let options = ChallengeOptions {
        opponent: Some(user(black)),
        seat: Seat::White,
        ..options
    };
    w.service.challenge(&ctx(white, at_ms), &options).unwrap();
    w.service.accept(&ctx(black, at_ms)).unwrap();
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
    let o = w.service.view_finished(&ctx("carol", 0), five.id).unwrap();
    assert_eq!(
        o.text,
        format!(
            "Game #{}, alice vs bob, Tak on 5x5: bob resigns; alice wins (1-0).",
            five.id
        )
    );
    let board = o.board.unwrap();
    assert_eq!(Match::from_record(&board.record).unwrap().kind(), Kind::Tak);
    let record = w.service.ptn(&ctx("carol", 0), Some(five.id)).unwrap();
    assert!(record.text.contains("[Size \"5\"]"), "{}", record.text);
    assert_eq!(
        w.service
            .finished_record(&ctx("carol", 0), Some(five.id))
            .unwrap(),
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
        refusal_of(w.service.view_finished(&elsewhere, five.id)),
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
