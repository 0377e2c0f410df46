//! TPS and PTN: reading, writing, errors, and round trips.

use bredon::tak::*;
use proptest::prelude::*;

#[test]
fn tps_round_trips_and_reads_the_side_and_move() {
    for tps in [
        "x5/x5/x5/x5/x5 1 1",
        "x3/x3/x3 2 1",
        "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42",
        "x8/x8/x8/x8/x8/x8/x8/1C,x6,2C 2 9",
    ] {
        let p = Position::from_tps(tps).unwrap();
        assert_eq!(p.to_tps(), tps);
    }
    let p = Position::from_tps("x3/x3/x3 2 3").unwrap();
    assert_eq!(p.ply_index(), 5);
    assert_eq!(p.to_move(), Color::Black);
    assert_eq!(p.move_number(), 3);
}

#[test]
fn tps_errors_name_the_row_square_or_field() {
    let cases = [
        ("", "TPS is empty"),
        ("x5/x5/x5/x5/x5 1", "3 fields"),
        ("x5/x5/x5/x5/x5 3 1", "side to move is `3`"),
        ("x5/x5/x5/x5/x5 1 0", "move number is `0`"),
        ("x5/x5/x5/x5 1 1", "a 4x4 board needs 4"),
        ("x5/x5/x4/x5/x5 1 1", "row 3 (rank 3) has 4 squares"),
        ("x5/x5/x5/x5/x4,1,1 1 1", "row 5 (rank 1) has 6 squares"),
        (
            "x5/x5/x2,13X,x2/x5/x5 1 1",
            "row 3 (rank 3), square c3: `13X` is not a stack",
        ),
        ("x2/x2 1 1", "boards go from 3x3"),
        ("x5/x5/x5/x5/x,x9 1 1", "`x9` should be"),
        ("1C,2,x/x3/x3 1 2", "0 capstones on 3x3"),
        (
            "x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1",
            "boards go from 3x3 to 8x8",
        ),
    ];
    for (tps, says) in cases {
        let err = Position::from_tps(tps).unwrap_err();
        assert!(err.contains(says), "{tps:?}: {err}");
    }
}

#[test]
fn a_tps_with_more_pieces_than_the_reserve_is_refused() {
    let full = "1111111111,11111111111,111111111111";
    let err = Position::from_tps(&format!("{full}/x3/x3 1 9")).unwrap_err();
    assert!(err.contains("33 White stones"), "{err}");
}

#[test]
fn a_playtak_style_file_replays_with_marks_comments_and_tags() {
    let text = std::fs::read_to_string("tests/data/road-win.ptn").unwrap();
    let file = PtnFile::parse(&text).unwrap();
    assert_eq!(file.tag("player1"), Some("alice"));
    assert_eq!(file.plies.len(), 11);
    let game = file.replay().unwrap();
    assert_eq!(game.result().unwrap().ptn(), "R-0");
    assert_eq!(game.start().setup().komi, Komi::parse("2").unwrap());
    let tak: Vec<bool> = game.plies().iter().map(|p| p.tak).collect();
    assert_eq!(tak.iter().filter(|&&t| t).count(), 2);
    assert!(tak[8] && tak[9], "d3 and b4 threaten roads");
}

#[test]
fn an_illegal_ply_is_reported_with_its_number() {
    let text = std::fs::read_to_string("tests/data/illegal.ptn").unwrap();
    let err = Game::from_ptn(&text).unwrap_err();
    assert_eq!(err.ply_number, 3);
    assert_eq!(
        err.to_string(),
        "ply 3 (`a1`): a1 is not empty: pieces are placed on empty squares only"
    );
}

#[test]
fn a_written_result_must_match_the_position() {
    let err = Game::from_ptn("[Size \"3\"] 1. a1 c3 R-0").unwrap_err();
    assert!(err.reason.contains("says the result is R-0"), "{err}");
    let g = Game::from_ptn("[Size \"3\"] 1. a1 c3 0-1").unwrap();
    assert_eq!(
        g.result(),
        Some(GameResult::Resignation {
            winner: Color::Black
        })
    );
    let err = Game::from_ptn("[Size \"3\"] 1. a1 c3 1-0 2. b2").unwrap_err();
    assert!(err.reason.contains("after the result"));
}

#[test]
fn ptn_headers_are_checked() {
    for (text, says) in [
        ("1. a1", "no [Size"),
        ("[Size \"9\"] 1. a1", "sizes go from 3 to 8"),
        ("[Size \"five\"]", "not a number"),
        ("[Size 5]", "value in quotes"),
        ("[Size \"5\"] [Komi \"7\"]", "komi"),
        (
            "[Size \"5\"] [Opening \"reverse\"]",
            "use `swap` or `no-swap`",
        ),
        ("[Size \"5\"", "never closed"),
        ("[Size \"5\"] {unclosed", "never closed"),
        ("[Size \"5\"] [Flats \"99\"]", "1 to 64 pieces"),
    ] {
        let err = Game::from_ptn(text).unwrap_err().to_string();
        assert!(err.contains(says), "{text:?}: {err}");
    }
}

#[test]
fn a_tps_start_continues_the_move_numbers() {
    let text = "[Size \"5\"]\n[TPS \"x5/x5/x5/x5/1,2,x3 2 4\"]\n\n4. -- c3\n5. d4 e5\n";
    let game = Game::from_ptn(text).unwrap();
    assert_eq!(game.plies().len(), 3);
    assert_eq!(
        game.position().to_tps(),
        "x4,2/x3,1,x/x2,2,x2/x5/1,2,x3 1 6"
    );
    let written = game.to_ptn(&[]);
    assert!(
        written.contains("[TPS \"x5/x5/x5/x5/1,2,x3 2 4\"]"),
        "{written}"
    );
    assert!(written.contains("4. -- c3\n5. d4 e5\n"), "{written}");
    assert_eq!(
        Game::from_ptn(&written).unwrap().position(),
        game.position()
    );
}

#[test]
fn custom_reserves_and_no_swap_survive_a_round_trip() {
    let setup = Setup::new(4)
        .unwrap()
        .with_opening(Opening::NoSwap)
        .with_reserve(
            Color::Black,
            Reserve {
                stones: 12,
                caps: 1,
            },
        )
        .unwrap();
    let mut game = Game::new(Position::new(setup));
    game.play(Ply::parse("Sa1").unwrap().ply).unwrap();
    game.play(Ply::parse("Cb2").unwrap().ply).unwrap();
    let text = game.to_ptn(&[("Player1", "a \"quoted\" name".into())]);
    let back = Game::from_ptn(&text).unwrap();
    assert_eq!(back.start().setup(), &setup);
    assert_eq!(back.position(), game.position());
    assert_eq!(
        PtnFile::parse(&text).unwrap().tag("Player1"),
        Some("a \"quoted\" name")
    );
}

/// Plays a random game from a seed: a list of choices indexes into the legal plies.
fn random_game(size: usize, choices: &[u16]) -> Game {
    let mut game = Game::new(Position::new(Setup::new(size).unwrap()));
    let mut plies = Vec::new();
    for &c in choices {
        if game.result().is_some() {
            break;
        }
        plies.clear();
        game.position().generate_plies(&mut plies);
        let ply = plies[c as usize % plies.len()];
        game.play(ply).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_game_written_as_ptn_reads_back_the_same(size in 3usize..=8, choices in prop::collection::vec(any::<u16>(), 0..90)) {
        let game = random_game(size, &choices);
        let text = game.to_ptn(&[("Player1", "p1".into()), ("Player2", "p2".into())]);
        let back = Game::from_ptn(&text).unwrap();
        prop_assert_eq!(back.plies().len(), game.plies().len());
        let mut replay = game.start().clone();
        for (a, b) in game.plies().iter().zip(back.plies()) {
            prop_assert_eq!(&a.ptn, &b.ptn);
            prop_assert_eq!(a.tak, b.tak);
            replay.play(a.undo.ply).unwrap();
        }
        prop_assert_eq!(back.position(), game.position());
        prop_assert_eq!(back.result(), game.result());
        prop_assert_eq!(&replay, game.position());
    }

    #[test]
    fn ply_text_round_trips(size in 3usize..=8, choices in prop::collection::vec(any::<u16>(), 1..60)) {
        let game = random_game(size, &choices);
        let mut p = game.start().clone();
        for played in game.plies() {
            let parsed = Ply::parse(&played.ptn).unwrap();
            prop_assert_eq!(parsed.ply, played.undo.ply);
            p.play_ptn(&parsed).unwrap();
        }
    }

    #[test]
    fn ply_parser_never_panics(text in ".{0,16}") {
        let _ = Ply::parse(&text);
    }

    #[test]
    fn ply_parser_never_panics_on_ptn_like_text(text in "[0-9a-hSCF+<>*'\"!?-]{0,12}") {
        if let Ok(p) = Ply::parse(&text) {
            // Whatever parses must print as something that parses to the same ply.
            prop_assert_eq!(Ply::parse(&p.ply.to_string()).unwrap().ply, p.ply);
        }
    }

    #[test]
    fn tps_parser_never_panics(text in "[x0-9,/12SC ]{0,60}") {
        if let Ok(p) = Position::from_tps(&text) {
            prop_assert_eq!(Position::from_tps(&p.to_tps()).unwrap(), p);
        }
    }

    #[test]
    fn ptn_parser_never_panics(text in "(\\[[A-Za-z0-9]{0,6} \"[^\"]{0,8}\"\\]|[0-9]\\.|[a-e][1-5][<>+-]?|\\{[^}]{0,5}\\}|R-0|--| |\n|.){0,30}") {
        let _ = Game::from_ptn(&text);
    }

    #[test]
    fn ptn_parser_never_panics_on_anything(text in "\\PC{0,80}") {
        let _ = Game::from_ptn(&text);
    }
}
