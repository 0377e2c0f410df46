//! Fair play: Bredon does not look at a rated game's position for one of its players while the
//! game is played (as it stands, or within two plies; turned or mirrored alike).

use super::world::*;
use bredon::service::{ChallengeOptions, Ctx};
use bredon::store::records::Seat;
use bredon::tak::Game;

/// The TPS after `moves` on 5x5.
fn tps(moves: &str) -> String {
    let game = Game::from_ptn(&format!("[Size \"5\"]\n\n{moves}\n")).unwrap();
    game.position().to_tps()
}

fn look_up(w: &World, who: &str, text: &str) -> Result<(), String> {
    let asked = ctx(who, 2000);
    w.service
        .refuse_rated_text(&asked, Some(text), Some(text))
        .map_err(|r| r.0)
}

#[test]
fn a_rated_games_position_is_refused_to_its_players_while_it_is_played() {
    let w = world();
    let rated = ChallengeOptions {
        rated: true,
        ..opts(Some("bob"), Seat::White)
    };
    started(&w, rated);
    for (who, ply) in &ROAD[..6] {
        play(&w, who, ply);
    }
    let now = tps("1. e1 a1 2. a3 a5 3. b3 b5");
    for who in ["alice", "bob"] {
        let why = look_up(&w, who, &now).unwrap_err();
        assert!(
            why.starts_with("that is the position of your rated game #1 (as it stands, or within two plies of it)"),
            "{why}"
        );
    }
    let near = [
        ("one ply on", tps("1. e1 a1 2. a3 a5 3. b3 b5 4. c3")),
        ("two plies on", tps("1. e1 a1 2. a3 a5 3. b3 b5 4. c3 c5")),
        ("mirrored", tps("1. a1 e1 2. e3 e5 3. d3 d5")),
        ("renumbered", now.replace(" 1 4", " 1 1")),
        (
            "a record through it",
            "[Size \"5\"]\n\n1. e1 a1 2. a3 a5 3. b3 b5 4. c3 c5 5. d3".to_string(),
        ),
    ];
    for (what, text) in &near {
        assert!(look_up(&w, "alice", text).is_err(), "{what}: {text}");
    }
    let far = tps("1. e1 a1 2. a3 a5 3. b3 b5 4. c3 c5 5. d3");
    assert_eq!(look_up(&w, "alice", &far), Ok(()), "three plies on");
    assert_eq!(look_up(&w, "carol", &now), Ok(()), "not carol's game");
    // A game against Bredon from the position is refused the same way, and nothing is kept.
    let bredon = user("Bredon");
    let elsewhere = Ctx {
        channel: CHANNEL + 1,
        ..ctx("alice", 2000)
    };
    let from_here = ChallengeOptions {
        tps: Some(now.clone()),
        opponent: Some(bredon.clone()),
        engine: Some("easy".into()),
        ..ChallengeOptions::default()
    };
    let why = refusal(w.service.challenge_engine(&elsewhere, &from_here, &bredon));
    assert!(why.contains("your rated game #1"), "{why}");
    assert!(w.service.store().challenge(CHANNEL + 1).unwrap().is_none());
    assert!(w.service.store().game(CHANNEL + 1).unwrap().is_none());
    // alice's unrated game's position is open to her.
    let unrated = Ctx {
        channel: CHANNEL + 2,
        ..ctx("alice", 2000)
    };
    w.service
        .challenge(&unrated, &opts(Some("dave"), Seat::White))
        .unwrap();
    let dave = Ctx {
        user: user("dave"),
        ..unrated.clone()
    };
    w.service.accept(&dave).unwrap();
    w.service.play(&unrated, "c2").unwrap();
    assert_eq!(look_up(&w, "alice", &tps("1. c2")), Ok(()));
    // Once the rated game ends, its position is open to its players too.
    for (who, ply) in &ROAD[6..] {
        play(&w, who, ply);
    }
    assert_eq!(look_up(&w, "alice", &now), Ok(()));
}
