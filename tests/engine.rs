//! The built-in engine and TEI: legal plies, roads in one, blocks, budgets, determinism, and
//! Bredon's TEI server driven by Bredon's TEI client.

use bredon::engine::{random_ply, search, tei, Level, Limits};
use bredon::tak::{Color, Game, Position, Setup};
use std::time::Duration;

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

#[test]
fn always_a_legal_ply_in_random_positions() {
    let mut seed = 0x2545F4914F6CDD1Du64;
    for size in 3..=8 {
        for game_no in 0..4 {
            let mut p = Position::new(Setup::new(size).unwrap());
            for i in 0..(10 + game_no * 12) {
                if p.ply_index() > 0 && p.is_over() {
                    break;
                }
                if i % 3 == 0 {
                    let found = search(&p, nodes(400), i as u64).expect("the game is running");
                    assert!(
                        p.check(found.ply).is_ok(),
                        "{} illegal in {}",
                        p.ptn(found.ply),
                        p.to_tps()
                    );
                }
                let ply = random_ply(&p, &mut seed).unwrap();
                p.play(ply).unwrap();
            }
        }
    }
}

#[test]
fn takes_a_road_in_one() {
    for tps in [
        "x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 5",
        "x5/x5/x5/x2,1,x2/1,1,2,1,1 1 5",
        "x5/x5/x5/x2,1C,x2/1,1,2S,1,1 1 5",
    ] {
        let p = Position::from_tps(tps).unwrap();
        let found = search(&p, Level::Easy.limits(Duration::ZERO), 1).unwrap();
        let mut after = p.clone();
        after.play(found.ply).unwrap();
        assert!(
            after.has_road(Color::White),
            "{tps}: played {}",
            p.ptn(found.ply)
        );
        assert!(found.mate_in().is_some_and(|m| m > 0));
    }
}

#[test]
fn blocks_a_lone_threat() {
    // White threatens e3; Black must take it away (a piece on e3, or a capture).
    for tps in [
        "x5/x5/1,1,1,1,x/x5/2,2,x3 2 5",
        "x6/x6/1,1,1,1,1,x/x6/2,2,2,x3/x6 2 6",
    ] {
        let p = Position::from_tps(tps).unwrap();
        assert!(p.is_tak(Color::White));
        for level in [Level::Easy, Level::Medium] {
            let found = search(&p, level.limits(Duration::ZERO), 3).unwrap();
            let mut after = p.clone();
            after.play(found.ply).unwrap();
            assert!(
                !after.is_tak(Color::White),
                "{level:?} in {tps} played {} and left the road open",
                p.ptn(found.ply)
            );
        }
    }
}

#[test]
fn respects_its_node_budget_and_is_deterministic() {
    let p =
        Position::from_tps("x6/x2,2,1,x2/x,1,2,21,1,x/x,2,1112C,2S,x2/x2,1,2,x2/x6 1 11").unwrap();
    let a = search(&p, nodes(20_000), 9).unwrap();
    assert!(
        a.nodes <= 20_000 + 50_000,
        "a depth-2 search always completes, then the budget holds: {}",
        a.nodes
    );
    let b = search(&p, nodes(20_000), 9).unwrap();
    assert_eq!((a.ply, a.nodes, a.score), (b.ply, b.nodes, b.score));
    let timed = search(
        &p,
        Limits {
            time: Some(Duration::from_millis(100)),
            ..Limits::default()
        },
        9,
    )
    .unwrap();
    assert!(timed.depth >= 2);
}

#[test]
fn beats_a_random_player() {
    let mut seed = 77;
    let mut wins = 0;
    for g in 0..6u64 {
        let engine_color = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut game = Game::new(Position::new(Setup::new(4).unwrap()));
        while game.result().is_none() && game.plies().len() < 200 {
            let p = game.position();
            let ply = if p.to_move() == engine_color {
                search(p, Level::Easy.limits(Duration::ZERO), g)
                    .unwrap()
                    .ply
            } else {
                random_ply(p, &mut seed).unwrap()
            };
            game.play(ply).unwrap();
        }
        if game.result().and_then(|r| r.winner()) == Some(engine_color) {
            wins += 1;
        }
    }
    assert_eq!(wins, 6);
}

#[test]
fn bredon_tei_answers_bredons_tei_client() {
    let mut client =
        tei::Client::spawn(env!("CARGO_BIN_EXE_bredon"), &["tei".to_string()]).unwrap();
    assert_eq!(client.name, "Bredon");
    let setup = Setup::new(5).unwrap();
    let ply = client
        .best_ply(None, &setup, &[], Duration::from_millis(100))
        .unwrap();
    let mut p = Position::new(setup);
    p.play_ptn(&bredon::tak::Ply::parse(&ply).unwrap()).unwrap();
    // From a position with a road in one, after moves.
    let plies: Vec<String> = ["e1", "a1", "a3", "a5", "b3", "b5", "c3", "c5", "d3", "d5"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let best = client
        .best_ply(None, &setup, &plies, Duration::from_millis(200))
        .unwrap();
    assert_eq!(best, "e3");
    // A TPS start.
    let best = client
        .best_ply(
            Some("x5/x5/x5/x2,1,x2/1,1,2,1,1 1 5"),
            &setup,
            &[],
            Duration::from_millis(100),
        )
        .unwrap();
    assert_eq!(best, "c2-");
}

#[test]
fn a_silent_or_crashed_engine_is_noticed_and_restarted() {
    // A program that never answers `tei`: the handshake times out with a clear error.
    let err = tei::Client::spawn("sh", &["-c".into(), "sleep 30".into()])
        .err()
        .unwrap();
    assert!(
        err.contains("did not answer `teiok`") || err.contains("exited"),
        "{err}"
    );
    let err = tei::Client::spawn("/no/such/engine", &[]).err().unwrap();
    assert!(err.contains("cannot start the engine"), "{err}");
    let mut client =
        tei::Client::spawn(env!("CARGO_BIN_EXE_bredon"), &["tei".to_string()]).unwrap();
    client.restart().unwrap();
    assert!(client
        .best_ply(
            None,
            &Setup::new(4).unwrap(),
            &[],
            Duration::from_millis(50)
        )
        .is_ok());
}
