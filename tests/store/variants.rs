//! Takat and University games through the service.

use super::world::*;
use bredon::game::Kind;
use bredon::service::ChallengeOptions;
use bredon::store::records::Seat;

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
    // Three plies each, so that the time-out moves ratings (a rated game decided sooner does
    // not).
    for who in ["bob", "alice", "bob", "alice", "bob", "alice"] {
        let ply = w.service.legal_plies(CHANNEL).unwrap()[0].clone();
        let o = w.service.play(&ctx(who, 4 * 60_000), &ply).unwrap();
        assert!(o.finished.is_none(), "{}", o.text);
    }
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
