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
        ("x5/x5/x5/x5/x5 1 -1", "move number is `-1`"),
        ("x5/x5/x5/x5 1 1", "a 4x4 board needs 4"),
        ("x5/x5/x4/x5/x5 1 1", "row 3 (rank 3) has 4 squares"),
        ("x5/x5/x5/x5/x4,1,1 1 1", "row 5 (rank 1) has 6 squares"),
        (
            "x5/x5/x2,13X,x2/x5/x5 1 1",
            "row 3 (rank 3), square c3: `13x` is not a stack",
        ),
        ("x2/x2 1 1", "boards go from 3x3"),
        ("x5/x5/x5/x5/x,x9 1 1", "`x9` should be"),
        ("1C,2,x/x3/x3 1 2", "0 capstones on 3x3"),
        (
            "x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1",
            "boards go from 3x3 to 8x8",
        ),
        ("hello there", "this is not TPS: write the board's rows"),
        ("x5 1 1", "this is not TPS"),
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
fn a_written_result_that_contradicts_the_moves_gives_way_to_them_with_a_warning() {
    // White's road on file c: the file's result contradicts it; the moves' result stands.
    let file = PtnFile::parse("[Size \"3\"] 1. a1 c1 2. c2 a2 3. c3 0-R").unwrap();
    let (game, warnings) = file.replay_with_warnings().unwrap();
    assert_eq!(game.result().map(|r| r.ptn()), Some("R-0"));
    assert!(
        warnings[0].contains("says the result is 0-R, but the moves give R-0"),
        "{warnings:?}"
    );
    let g = Game::from_ptn("[Size \"3\"] 1. a1 c3 0-1").unwrap();
    assert_eq!(
        g.result(),
        Some(GameResult::Resignation {
            winner: Color::Black
        })
    );
    // Plies after a result are read, as PTN Ninja reads them, and the result passed over.
    let g = Game::from_ptn("[Size \"3\"] 1. a1 c3 1-0 2. b2").unwrap();
    assert_eq!((g.plies().len(), g.result()), (3, None));
}

#[test]
fn ptn_headers_are_checked() {
    for (text, says) in [
        ("1. a1", "no [Size"),
        ("[Size \"9\"] 1. a1", "sizes go from 3 to 8"),
        ("[Size \"five\"]", "not a number"),
        ("[Size 5]", "value in quotes"),
        ("[Size \"5\"] [Komi \"21\"]", "komi"),
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
        Some("a ''quoted'' name"),
        "written as PTN Ninja writes quotes"
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
        let text = game.to_ptn(&[("Player1", "p \"1\"".into()), ("Player2", "{p2}".into())]);
        prop_assert!(ptn_ninja_reads_tags(&text), "{}", text);
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

// ---- PTN and TPS as the community writes them (tests/data/wild: samples written for Bredon) --

fn wild(name: &str) -> String {
    std::fs::read_to_string(format!("tests/data/wild/{name}")).unwrap()
}

#[test]
fn a_star_result_is_a_game_still_running() {
    let file = PtnFile::parse(&wild("unfinished-star.ptn")).unwrap();
    assert_eq!(file.result, None);
    let game = file.replay().unwrap();
    assert_eq!(game.plies().len(), 5);
    assert_eq!(game.result(), None);
    // What `bredon replay` prints for a running game reads back.
    assert!(Game::from_ptn("[Size \"3\"] 1. a1 c3 *").is_ok());
}

#[test]
fn squares_and_piece_letters_are_read_in_either_case() {
    let game = Game::from_ptn(&wild("upper-case.ptn")).unwrap();
    let plies: Vec<&str> = game.plies().iter().map(|p| p.ptn.as_str()).collect();
    assert_eq!(
        plies,
        ["b1", "a5", "Sd3", "Sc2", "Cc3", "Cb4", "a2", "e1", "a2+", "e1<"]
    );
    for (typed, canonical) in [
        ("cc3", "Cc3"),
        ("C3", "c3"),
        ("fA1", "a1"),
        ("2A3>11", "2a3>11"),
    ] {
        let ply = Ply::parse(typed).unwrap().ply;
        let p = Position::from_tps("x5/x5/x5/x5/x5 1 3").unwrap();
        assert_eq!(p.ptn(ply), canonical, "{typed}");
    }
    assert!(
        Ply::parse("c3>").is_ok(),
        "a move from file c is no capstone"
    );
    assert!(Ply::parse("Sa9").unwrap_err().contains("piece letter"));
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let text = wild("bom.ptn");
    assert!(text.starts_with('\u{feff}'));
    assert_eq!(Game::from_ptn(&text).unwrap().plies().len(), 4);
}

/// The plies of a game as text.
fn texts(game: &Game) -> Vec<String> {
    game.plies().iter().map(|p| p.ptn.clone()).collect()
}

#[test]
fn older_variations_keep_the_main_line_and_become_branches() {
    // `{2b1}` after a blank line names the branch at move 2; `2.2. --` is the older form of a
    // branch at Black's ply of move 2.
    for (name, branch, black_first) in [
        ("branches.ptn", "2b1", false),
        ("branches-old.ptn", "2", true),
    ] {
        let file = PtnFile::parse(&wild(name)).unwrap();
        let (game, warnings) = file.replay_with_warnings().unwrap();
        assert_eq!(
            texts(&game)[..6],
            ["a1", "e5", "c3", "c4", "d3", "b3"],
            "{name}"
        );
        assert!(
            warnings[0].contains("the main line is read"),
            "{warnings:?}"
        );
        assert_eq!(file.branches[0].name, branch);
        assert_eq!(
            (file.branches[0].move_number, file.branches[0].black_first),
            (2, black_first)
        );
    }
}

#[test]
fn ptn_ninjas_branches_after_the_result_are_kept_and_the_main_line_played() {
    let text = wild("ninja-branches.ptn");
    assert!(
        text.contains("5. e1 R-0\r\n\r\n{2w1}"),
        "written as PTN Ninja writes it"
    );
    let file = PtnFile::parse(&text).unwrap();
    let (game, warnings) = file.replay_with_warnings().unwrap();
    assert_eq!(
        texts(&game),
        ["a5", "a1", "b1", "b5", "c1", "c5", "d1", "d5", "e1"]
    );
    assert_eq!(game.result().unwrap().ptn(), "R-0");
    assert_eq!(
        warnings,
        ["the file has 4 branches (2w1, 4b1, 4b1/6w1, 5w1): the main line is read"]
    );
    let comment = |after: usize, text: &str| PtnComment {
        after,
        text: text.into(),
    };
    assert_eq!(
        file.comments,
        [comment(2, "corners first"), comment(5, "building the road")]
    );
    // Each branch: its name, the line it departs from, where, its plies and its result.
    let shape: Vec<String> = file
        .branches
        .iter()
        .map(|b| {
            let side = if b.black_first { "..." } else { "." };
            let result = b.result.as_deref().unwrap_or("*");
            let (name, parent, n, plies) = (&b.name, b.parent(), b.move_number, b.plies.len());
            format!("{name} from '{parent}' at {n}{side} {plies} plies {result}")
        })
        .collect();
    assert_eq!(
        shape,
        [
            "2w1 from '' at 2. 4 plies *",
            "4b1 from '' at 4... 4 plies R-0",
            "4b1/6w1 from '4b1' at 6. 2 plies 0-R",
            "5w1 from '' at 5. 2 plies *",
        ]
    );
    assert_eq!(file.branches[0].comments, [comment(1, "the centre")]);
}

#[test]
fn a_branch_is_the_line_it_departs_from_up_to_its_start_then_its_own_plies() {
    let file = PtnFile::parse(&wild("ninja-branches.ptn")).unwrap();
    let line = |name: &str| {
        let (game, _) = file.replay_branch(name).unwrap();
        (texts(&game).join(" "), game.result().map(|r| r.ptn()))
    };
    assert_eq!(line("2w1"), ("a5 a1 c3 b5 b1 c5".into(), None));
    assert_eq!(
        line("4b1"),
        ("a5 a1 b1 b5 c1 c5 d1 e1 d2 d5 e2".into(), Some("R-0"))
    );
    assert_eq!(
        line("4b1/6w1"),
        ("a5 a1 b1 b5 c1 c5 d1 e1 d2 d5 a2 e5".into(), Some("0-R"))
    );
    assert_eq!(line("5w1"), ("a5 a1 b1 b5 c1 c5 d1 d5 d2 e1".into(), None));
    let unknown = file.replay_branch("9w1").unwrap_err().to_string();
    assert_eq!(
        unknown,
        "the file has no branch `9w1`; its branches: `2w1`, `4b1`, `4b1/6w1`, `5w1`"
    );
    // A branch's illegal ply is named with its branch and its number in the game.
    let bad = PtnFile::parse("[Size \"5\"] 1. a5 a1 2. b1 b5 {2b1} 2. -- a1")
        .unwrap()
        .replay_branch("2b1")
        .unwrap_err()
        .to_string();
    assert!(bad.starts_with("branch `2b1`, ply 4 (`a1`): "), "{bad}");
    // The main line is read whatever its branches hold.
    let main = PtnFile::parse("[Size \"5\"] 1. a5 a1 2. b1 b5 {2b1} 2. -- a1").unwrap();
    assert_eq!(main.replay().unwrap().plies().len(), 4);
    let orphan = PtnFile::parse("[Size \"5\"]\n\n1. a5 a1\n\n{3w1/4b1}\n4. -- c3")
        .unwrap()
        .replay_branch("3w1/4b1")
        .unwrap_err()
        .to_string();
    assert!(
        orphan.contains("departs from branch `3w1`, which the file does not"),
        "{orphan}"
    );
}

#[test]
fn older_branch_numbers_after_a_result_are_read() {
    let file = PtnFile::parse(&wild("old-branches.ptn")).unwrap();
    let (game, _) = file.replay_with_warnings().unwrap();
    assert_eq!(game.plies().len(), 9);
    assert_eq!(game.result().unwrap().ptn(), "R-0");
    assert_eq!(file.branches.len(), 1);
    assert_eq!(file.branches[0].name, "4-1");
    let (branch, _) = file.replay_branch("4-1").unwrap();
    assert_eq!(texts(&branch)[7..], ["e1", "d2", "d5", "e2"]);
    assert_eq!(branch.result().unwrap().ptn(), "R-0");
    // PTN Ninja's name rule: parts split at `.` and `/`, empty ones dropped.
    assert_eq!(branches::branch_name("49-1."), "49-1");
    assert_eq!(branches::branch_name("14b1/15b1"), "14b1/15b1");
    assert_eq!(branches::branch_name("2.3."), "2/3");
    let number = branches::line_number("49-1.49.2c5>11").unwrap();
    assert_eq!(
        (number.branch.as_deref(), number.number, number.rest),
        (Some("49-1"), 49, "2c5>11")
    );
    assert_eq!(branches::line_number("12...").unwrap().branch, None);
    assert!(branches::line_number("1-0").is_none() && branches::line_number("--").is_none());
}

#[test]
fn branches_pasted_on_one_line_are_found_by_their_move_numbers() {
    // Discord's text options lose line breaks: a move number going back starts a branch, named
    // by the comment before it; a repeated move number with `--` starts one at Black's ply.
    let pasted = "[Size \"5\"] 1. a5 a1 2. b1 b5 3. c1 c5 4. d1 {4b1} 4. -- e1 5. d2 d5 6. e2 \
                  R-0 {2w1} 2. c3 b5 2. d3 e3";
    let file = PtnFile::parse(pasted).unwrap();
    assert_eq!(file.plies.len(), 7, "the main line ends at d1");
    let names: Vec<(&str, u32, bool)> = file
        .branches
        .iter()
        .map(|b| (b.name.as_str(), b.move_number, b.black_first))
        .collect();
    assert_eq!(
        names,
        [("4b1", 4, true), ("2w1", 2, false), ("2w2", 2, false)]
    );
    assert!(file.comments.is_empty(), "the names are no comments");
    assert_eq!(file.branches[0].result.as_deref(), Some("R-0"));
    let (game, _) = file.replay_branch("2w2").unwrap();
    assert_eq!(texts(&game), ["a5", "a1", "d3", "e3"]);
}

#[test]
fn a_comment_names_a_branch_after_a_blank_line_before_a_move_number() {
    // PTN Ninja's rule: a blank line, the comment, then a line number.
    let file = PtnFile::parse("[Size \"5\"]\n\n1. a5 a1\n{a note}\n2. b1 b5\n").unwrap();
    assert_eq!((file.plies.len(), file.branches.len()), (4, 0));
    assert_eq!(file.comments[0].text, "a note");
    let file = PtnFile::parse("[Size \"5\"]\n\n1. a5 a1\n\n{a note}\n2. b1 b5\n").unwrap();
    assert_eq!((file.plies.len(), file.branches.len()), (2, 1));
    assert_eq!(file.branches[0].name, "a note");
    // Before any ply there is nothing to branch from: a comment.
    let file = PtnFile::parse("[Size \"5\"]\n\n{opening}\n\n1. a5 a1\n").unwrap();
    assert_eq!(file.comments[0].text, "opening");
    // A line with spaces on it is not blank to PTN Ninja.
    let file = PtnFile::parse("[Size \"5\"]\n\n1. a5 a1\n \n{a note}\n2. b1\n").unwrap();
    assert_eq!(file.plies.len(), 3);
}

/// Two branches of one name: refused, naming it (they were merged into one line before).
#[test]
fn a_branch_name_given_twice_is_refused_naming_it() {
    let twice = "[Size \"5\"]\n\n1. a5 a1\n2. b1 b5\n\n{idea}\n2. c1 c5\n\n{idea}\n2. d1 d5\n";
    let refused = PtnFile::parse(twice).unwrap_err();
    assert_eq!(refused.branch.as_deref(), Some("idea"));
    let said = refused.to_string();
    assert!(
        said.starts_with("branch `idea`, two branches have this name"),
        "{said}"
    );
    // The same with the second named before a number going back (text pasted on one line).
    let pasted = "[Size \"5\"] 1. a5 a1 2. b1 b5 {idea} 2. c1 c5 {idea} 2. d1 d5";
    let refused = PtnFile::parse(pasted).unwrap_err();
    assert_eq!(refused.branch.as_deref(), Some("idea"));
    // Two names: two branches.
    let file = PtnFile::parse(&twice.replacen("{idea}", "{other}", 1)).unwrap();
    assert_eq!(file.branches.len(), 2);
}

#[test]
fn plies_after_a_result_are_read_and_the_result_passed_over() {
    let (game, warnings) = PtnFile::parse(&wild("result-then-plies.ptn"))
        .unwrap()
        .replay_with_warnings()
        .unwrap();
    assert_eq!(game.plies().len(), 6);
    assert_eq!(game.result(), None);
    assert!(
        warnings[0].contains("the main line goes on after its result 1-0 (ply 5, c1)"),
        "{warnings:?}"
    );
}

#[test]
fn zero_zero_is_no_result_as_ptn_ninja_reads_it_but_bredons_own_abort_stands() {
    for name in ["abandoned.ptn", "aborted.ptn"] {
        let text = wild(name);
        let (game, warnings) = PtnFile::parse(&text)
            .unwrap()
            .replay_with_warnings()
            .unwrap();
        assert_eq!(game.result(), None, "{name}");
        assert!(
            warnings[0].contains("0-0, a game abandoned without result: it is read as unfinished"),
            "{warnings:?}"
        );
        assert_eq!(
            Game::from_record(&text).unwrap().result(),
            Some(GameResult::Abandoned),
            "{name}: a record Bredon wrote keeps its abort"
        );
    }
    // Moves that make a road give their result, whatever the file says.
    let road = PtnFile::parse("[Size \"3\"] 1. a3 a1 2. b1 c3 3. c1 0-0")
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(road.result().unwrap().ptn(), "R-0");
}

#[test]
fn the_annotated_ptn_keeps_the_players_comments_and_branches_for_ptn_ninja() {
    let file = PtnFile::parse(&wild("ninja-branches.ptn")).unwrap();
    let (game, _) = file.replay_branch("4b1/6w1").unwrap();
    let mut notes = vec![PtnNote::default(); game.plies().len()];
    notes[10] = PtnNote {
        mark: "??",
        comment: Some("Leaves the road to Black".into()),
    };
    notes[1].comment = Some("the analysis".into());
    let ptn = file.annotated(&game, "4b1/6w1", &[("Player1", "ann".into())], &notes);
    assert!(
        ptn.contains("1. a5 a1 {corners first} {the analysis}\n"),
        "the player's comment beside the analysis's: {ptn}"
    );
    assert!(
        ptn.contains("5. e1\nR-0\n\n{2w1}\n2. c3 {the centre} b5\n"),
        "{ptn}"
    );
    assert!(
        ptn.contains("{4b1}\n4. -- e1\n5. d2' d5'\n6. e2\nR-0\n"),
        "{ptn}"
    );
    assert!(
        ptn.contains("{4b1/6w1}\n6. a2'?? {Leaves the road to Black} e5\n0-R\n"),
        "the note on the analysed branch's ply: {ptn}"
    );
    assert!(
        ptn.contains("[Result \"R-0\"]"),
        "the main line's result: {ptn}"
    );
    // Read back, it is the same file.
    let back = PtnFile::parse(&ptn).unwrap();
    assert_eq!(back.plies.len(), file.plies.len());
    let texts: Vec<(usize, &str)> = back
        .comments
        .iter()
        .map(|c| (c.after, c.text.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            (2, "corners first"),
            (2, "the analysis"),
            (5, "building the road")
        ]
    );
    for (a, b) in back.branches.iter().zip(&file.branches) {
        assert_eq!(
            (
                &a.name,
                a.move_number,
                a.black_first,
                a.plies.len(),
                &a.result
            ),
            (
                &b.name,
                b.move_number,
                b.black_first,
                b.plies.len(),
                &b.result
            )
        );
    }
    assert_eq!(back.branches.len(), 4);
}

#[test]
fn a_file_with_several_games_is_read_game_by_game() {
    let games = PtnFile::parse_all(&wild("tournament.ptn")).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Player1"), Some("alice"));
    assert_eq!(
        games[0].result, None,
        "the second game's result stays its own"
    );
    assert_eq!(games[1].tag("Player1"), Some("carol"));
    assert_eq!(games[1].tag("Size"), Some("6"));
    assert_eq!(games[1].replay().unwrap().result().unwrap().ptn(), "0-1");
    let err = Game::from_ptn(&wild("tournament.ptn")).unwrap_err();
    assert!(err.reason.contains("this file holds 2 games"), "{err}");
}

#[test]
fn a_result_the_moves_do_not_reach_loads_with_a_warning() {
    let (game, warnings) = PtnFile::parse(&wild("puzzle.ptn"))
        .unwrap()
        .replay_with_warnings()
        .unwrap();
    assert_eq!(game.result(), None, "loaded as still running");
    assert!(
        warnings[0].contains("says the result is R-0, but the moves end before it"),
        "{warnings:?}"
    );
    // PTN Ninja reads a result on a file without moves as none: so does Bredon, saying so.
    let (game, warnings) = PtnFile::parse(&wild("setup-with-result.ptn"))
        .unwrap()
        .replay_with_warnings()
        .unwrap();
    assert_eq!(game.result(), None);
    assert!(
        warnings[0].contains("says the result is 1-0, but it has no moves"),
        "{warnings:?}"
    );
    // A resignation written 0-1 after moves is the common case: read without a warning.
    let (_, warnings) = PtnFile::parse("[Size \"3\"] 1. a1 c3 0-1")
        .unwrap()
        .replay_with_warnings()
        .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn komi_goes_from_minus_to_plus_twenty_and_a_half() {
    let game = Game::from_ptn(&wild("big-komi.ptn")).unwrap();
    assert_eq!(game.start().setup().komi.halves(), 41);
    assert_eq!(Komi::parse("-20.5").unwrap().halves(), -41);
    let err = Komi::parse("21").unwrap_err();
    assert!(err.contains("-20.5 to 20.5"), "{err}");
    // A decimal comma, as many European players write it.
    let game = Game::from_ptn(&wild("komi-comma.ptn")).unwrap();
    assert_eq!(game.start().setup().komi.halves(), 5);
    assert_eq!(Komi::parse("-1,5").unwrap().halves(), -3);
}

#[test]
fn a_size_bredon_cannot_play_is_named_before_the_plies() {
    let err = Game::from_ptn(&wild("nine.ptn")).unwrap_err().to_string();
    assert!(err.contains("the Size tag says 9"), "{err}");
    assert!(!err.contains("ply 1"), "{err}");
}

/// PTN Ninja's tag pattern (`\[(\S+)\s*"([^"]*)"\]`) and its player format (`^[^"{}]+$`).
fn ptn_ninja_reads_tags(ptn: &str) -> bool {
    ptn.lines().filter(|l| l.starts_with('[')).all(|line| {
        let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
            return false;
        };
        let Some((key, value)) = inner.split_once(' ') else {
            return false;
        };
        let Some(value) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) else {
            return false;
        };
        let player = key.starts_with("Player");
        let format_ok = match key {
            "Size" => matches!(value, "3" | "4" | "5" | "6" | "7" | "8"),
            "Komi" => {
                let v = value.strip_prefix('-').unwrap_or(value);
                let whole = v.strip_suffix(".5").unwrap_or(v);
                whole.bytes().all(|b| b.is_ascii_digit())
            }
            "Opening" => value == "swap" || value == "no-swap",
            "Result" => ["R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2"].contains(&value),
            _ => true,
        };
        format_ok
            && !value.contains('"')
            && !(player && (value.contains('{') || value.contains('}')))
    })
}

#[test]
fn names_are_written_so_ptn_ninja_can_read_them() {
    let mut game = Game::new(Position::new(Setup::new(3).unwrap()));
    game.play(Ply::parse("a1").unwrap().ply).unwrap();
    let ptn = game.to_ptn(&[
        ("Player1", "Dwayne \"The Rock\" {J}".to_string()),
        ("Player2", "back\\slash".to_string()),
    ]);
    assert!(
        ptn.contains("[Player1 \"Dwayne ''The Rock'' (J)\"]"),
        "{ptn}"
    );
    assert!(ptn_ninja_reads_tags(&ptn), "{ptn}");
    let back = PtnFile::parse(&ptn).unwrap();
    assert_eq!(back.tag("Player1"), Some("Dwayne ''The Rock'' (J)"));
    assert_eq!(back.replay().unwrap().plies().len(), 1);
    // An abandoned game: `0-0` only in the movetext (PTN Ninja's Result tag has no `0-0`).
    game.decide(GameResult::Abandoned).unwrap();
    let ptn = game.to_ptn(&[]);
    assert!(
        ptn_ninja_reads_tags(&ptn) && ptn.trim_end().ends_with("0-0"),
        "{ptn}"
    );
    assert_eq!(
        Game::from_record(&ptn).unwrap().result(),
        Some(GameResult::Abandoned)
    );
}

#[test]
fn tps_variants_of_other_tools_are_read() {
    let canonical = Position::from_tps("x4,1/x5/x2,1C,x2/x5/2S,x4 2 3").unwrap();
    for variant in [
        "x4,1-x5-x2,1C,x2-x5-2S,x4 2 3",
        "X4,1/X5/X2,1c,X2/X5/2s,X4 2 3",
    ] {
        assert_eq!(Position::from_tps(variant).unwrap(), canonical, "{variant}");
    }
    let zero = Position::from_tps("x5/x5/x5/x5/x5 1 0").unwrap();
    assert_eq!(zero.move_number(), 1);
}

#[test]
fn a_star_that_flattens_nothing_is_read_as_the_plain_move_with_a_warning() {
    let (game, warnings) = PtnFile::parse(&wild("needless-star.ptn"))
        .unwrap()
        .replay_with_warnings()
        .unwrap();
    assert_eq!(game.plies().len(), 6);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("ply 5 (c3>*) marks a flattening with `*` but flattens nothing")),
        "{warnings:?}"
    );
    // Typed in a game, the same mark is still refused: the player is told what is wrong.
    let mut strict = Game::from_ptn("[Size \"5\"]\n\n1. a1 e5\n2. c3 d3").unwrap();
    assert!(strict.play_ptn(&Ply::parse("c3>*").unwrap()).is_err());
}
