//! Challenges and a game through the service: seats, owners, options, plies, Tak and the road,
//! undo, draws, resignation, rematches, annotations.

use super::world::*;
use bredon::game::{Ending, Kind};
use bredon::service::{ChallengeOptions, Ctx, Outcome};
use bredon::store::records::Seat;
use bredon::tak::{Color, GameResult, Opening};

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
fn each_ply_keeps_its_time_through_undos_into_the_archive() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    let at = |who: &str, ms: i64, ply: &str| {
        w.service.play(&ctx(who, ms), ply).unwrap();
    };
    let times = || w.service.store().game(CHANNEL).unwrap().unwrap().ply_ms;
    at("alice", 10_000, "a1");
    at("bob", 20_000, "e5");
    assert_eq!(times(), vec![10_000, 20_000]);
    w.service.request_undo(&ctx("alice", 100_000)).unwrap();
    w.service.answer_undo(&ctx("bob", 100_000), true).unwrap();
    assert_eq!(times(), Vec::<i64>::new(), "both plies taken back");
    at("alice", 200_000, "b1");
    at("bob", 300_000, "e4");
    assert_eq!(times(), vec![200_000, 300_000]);
    w.service.resign(&ctx("bob", 400_000)).unwrap();
    let archived = w.service.store().archived_games().unwrap();
    assert_eq!(archived.len(), 1);
    assert_eq!(archived[0].plies, vec!["b1", "e4"]);
    assert_eq!(archived[0].ply_ms, vec![200_000, 300_000]);
}

/// A conditional line whose answer leaves the opponent a road in one is kept, with a word in
/// the confirmation saying where (what a player hit: `d1 e4`, alice's d1 makes Tak, e4 let
/// her road through); a line whose answer stops the road says nothing of the kind.
#[test]
fn a_conditional_line_that_lets_a_road_through_is_kept_with_a_warning() {
    let w = world();
    started(&w, opts(Some("bob"), Seat::White));
    for (who, ply) in [
        ("alice", "e5"),
        ("bob", "a1"),
        ("alice", "b1"),
        ("bob", "a5"),
        ("alice", "c1"),
        ("bob", "b5"),
    ] {
        play(&w, who, ply);
    }
    let kept = w
        .service
        .add_conditional(&ctx("bob", 2000), "d1 e4")
        .unwrap();
    assert!(kept.private, "lines are their owner's alone");
    assert!(
        kept.text.starts_with(
            "Kept: 1 line. Careful: in the line d1 e4, after d1 your e4 leaves them a road in one."
        ),
        "{}",
        kept.text
    );
    let safe = w
        .service
        .add_conditional(&ctx("bob", 3000), "c2 e1")
        .unwrap();
    assert!(safe.text.starts_with("Kept: 1 line. Your"), "{}", safe.text);
    // Kept all the same: alice's d1 is answered by e4, and her e1 wins.
    let answered = play(&w, "alice", "d1");
    assert!(answered.text.contains("e4"), "{}", answered.text);
    let won = play(&w, "alice", "e1");
    assert!(won.finished.is_some(), "{}", won.text);
}
