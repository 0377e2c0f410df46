//! Every rule and decision of TAKAT.md, each with a hand-worked position.
//!
//! Seven circles: a1 (red) a2 | b1 b2 (centre) b3 (red) | c1 (red) c2. Neighbours: a1: a2 b1 b2;
//! a2: a1 b2 b3; b1: a1 b2 c1; b3: a2 b2 c2; c1: b1 b2 c2; c2: b2 b3 c1; b2: all six.

use bredon::takat::{perft, Color, Ending, Game, Ply, Position, Safety};

fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    let mut plies = Vec::new();
    p.legal_plies(&mut plies);
    let mut names: Vec<String> = plies.into_iter().map(|ply| p.name(ply)).collect();
    names.sort();
    names
}

/// The refusal of `ply` in `p`, which must be illegal.
fn refusal(p: &Position, ply: &str) -> String {
    let parsed = p.parse_ply(ply).unwrap();
    assert!(
        !legal(p).contains(&ply.to_string()),
        "{ply} is listed as legal"
    );
    p.check(parsed).expect_err(ply).to_string()
}

fn allowed(p: &Position, ply: &str) {
    let parsed = p.parse_ply(ply).unwrap();
    assert_eq!(p.check(parsed), Ok(()), "{ply} should be legal");
    assert!(
        legal(p).contains(&ply.to_string()),
        "{ply} is legal but not listed"
    );
}

#[test]
fn perft_from_the_start_matches_hand_counts() {
    let small = Position::new(7).unwrap();
    assert_eq!(small.to_text(), "x,x/x,x,x/x,x 1 - 1");
    // Depth 1: six outer circles (the published value). Depth 2: Black is behind, so it must
    // enter on one of the five others. Depth 3: White enters on one of four, or moves its piece
    // to one of its three neighbours (two outer circles and the centre; Black's piece was just
    // entered and cannot be moved).
    assert_eq!(perft(&small, 1), 6);
    assert_eq!(perft(&small, 2), 6 * 5);
    assert_eq!(perft(&small, 3), 6 * 5 * (4 + 3));
    // Depth 4. After a White entry Black is behind and enters on one of three: 30 * 4 * 3 = 360.
    // After White moves its piece (Black's piece on Y; White's lands on N, which Black may not
    // move): N the centre, 5 entries + 3 moves of Y's piece; N outer and not Y, 4 + 3; N = Y, 5
    // entries and nothing to move. For each X: Y next to X (2 ways) gives 8 + 7 + 5, Y apart (3
    // ways) 8 + 7 + 7, so 6 * (2 * 20 + 3 * 22) = 636.
    assert_eq!(perft(&small, 4), 360 + 636);
    // Nineteen: 18 entries; Black 17; White 16 entries plus its piece's neighbours (the degrees
    // of the 18 outer cells sum to 84 - 6 = 78).
    let large = Position::new(19).unwrap();
    assert_eq!(perft(&large, 1), 18);
    assert_eq!(perft(&large, 2), 18 * 17);
    assert_eq!(perft(&large, 3), 17 * (18 * 16 + 78));
    // Deeper values, as computed (no hand count): a change to move generation shows here.
    assert_eq!(perft(&small, 6), 86_532);
    assert_eq!(perft(&large, 4), 100_218);
}

#[test]
fn pieces_start_off_the_board_and_white_moves_first() {
    let p = Position::new(7).unwrap();
    assert_eq!(p.to_move(), Color::White);
    assert_eq!([p.reserve(Color::White), p.reserve(Color::Black)], [6, 15]);
    let big = Position::new(19).unwrap();
    assert_eq!(
        [big.reserve(Color::White), big.reserve(Color::Black)],
        [18, 39]
    );
    assert!(Position::new(8).is_err());
}

#[test]
fn entries_go_on_empty_circles_but_never_the_centre() {
    let p = Position::new(7).unwrap();
    assert!(refusal(&p, "b2").contains("centre"));
    let q = pos("1,x/x,x,x/x,x 2 a1 1");
    assert!(refusal(&q, "a1").contains("a1 is taken"));
    // Moving into the centre is allowed.
    let r = pos("1,2/x,x,x/x,x 1 a2 2");
    allowed(&r, "a1-b2");
}

#[test]
fn a_player_without_reserve_cannot_enter() {
    // All six White pieces are on the board.
    let p = pos("11,1/1,x,x/1,1 1 - 5");
    assert_eq!(p.reserve(Color::White), 0);
    let r = refusal(&p, "b3");
    assert!(r.contains("White has no pieces left"), "{r}");
    assert!(legal(&p).iter().all(|ply| ply.contains('-')));
}

#[test]
fn black_must_enter_while_behind() {
    // White 1 on the board, Black 0: Black may only enter.
    let p = pos("x,x/1,x,x/x,x 2 - 1");
    let r = refusal(&p, "b1-b2");
    assert!(r.contains("Black must enter"), "{r}");
    assert!(legal(&p).iter().all(|ply| !ply.contains('-')));
    // Level: Black may move White's piece.
    let q = pos("2,x/1,x,x/x,x 2 a1 2");
    allowed(&q, "b1-b2");
    // Behind, but every outer circle is taken: Black may move.
    let full = pos("11,1/1,x,2/2,2 2 - 5");
    assert!(full.on_board(Color::Black) < full.on_board(Color::White));
    allowed(&full, "c2-b2");
}

#[test]
fn a_piece_climbs_at_most_one_level() {
    // b1 holds one piece: it may go onto stacks of at most two.
    let p = pos("x,x/1,222,x/x,x 1 b2 3");
    let r = refusal(&p, "b1-b2");
    assert!(r.contains("climbs at most one level"), "{r}");
    allowed(&p, "b1-a1");
    let q = pos("x,x/1,22,x/x,x 1 b2 3");
    allowed(&q, "b1-b2");
    // Dropping any number of levels is fine: from five high onto the empty a1.
    let drop = pos("x,x/21111,x,2/x,2 1 - 5");
    allowed(&drop, "b1-a1");
}

#[test]
fn no_stack_grows_taller_than_six() {
    let p = pos("x,x/21111,22222,x/x,x 1 - 6");
    allowed(&p, "b1-b2");
    let q = pos("x,x/21111,222222,x/x,x 1 - 6");
    let r = refusal(&q, "b1-b2");
    assert!(r.contains("may not be taller than six"), "{r}");
}

#[test]
fn the_piece_just_moved_cannot_be_moved_back() {
    let p = pos("x,2/1,x,x/x,x 1 b1 2");
    let r = refusal(&p, "b1-b2");
    assert_eq!(
        r,
        "b1-b2: the piece on b1 was just moved by Black; it cannot be moved back at once"
    );
    allowed(&p, "a2-b2");
    // It applies to one ply only.
    let mut q = p;
    q.play(q.parse_ply("a2-b2").unwrap()).unwrap();
    assert_eq!(q.just_moved(), q.board().cell("b2"));
    allowed(&q, "b1-a1");
}

#[test]
fn two_on_top_are_temporarily_safe() {
    // a2: two White on top; c2 three Black on a circle that is not red.
    let p = pos("x,11/x,x,x/x,222 2 - 3");
    assert_eq!(p.safety(p.board().cell("a2").unwrap()), Safety::Temporary);
    let r = refusal(&p, "a2-b2");
    assert!(r.contains("only White may move it"), "{r}");
    allowed(&p, "c2-b2");
    let white = pos("x,11/x,x,x/x,222 1 - 3");
    allowed(&white, "a2-b2");
    let r = refusal(&white, "c2-b2");
    assert!(r.contains("only Black may move it"), "{r}");
    // One on top is open to both, whatever lies beneath.
    let open = pos("x,112/x,x,x/x,222 1 - 3");
    allowed(&open, "a2-b2");
}

#[test]
fn three_on_top_on_a_red_circle_are_permanently_safe() {
    // b3 is red.
    let p = pos("x,11/x,x,222/x,x 2 - 3");
    assert_eq!(p.safety(p.board().cell("b3").unwrap()), Safety::Permanent);
    let r = refusal(&p, "b3-b2");
    assert!(r.contains("permanently safe"), "{r}");
    let white = pos("x,11/x,x,222/x,x 1 - 3");
    assert!(refusal(&white, "b3-b2").contains("permanently safe"));
    // Two on a red circle are only temporarily safe.
    let two = pos("x,11/x,x,22/x,x 2 - 3");
    allowed(&two, "b3-b2");
    // Pieces may still be placed on a permanently safe stack.
    let onto = pos("x,11/x,x,222/x,x 1 - 3");
    allowed(&onto, "a2-b3");
}

#[test]
fn neighbouring_safe_towers_of_one_colour_are_refused() {
    // b1 is a tower with two White on top; moving White's piece from b2 onto a1 would make a
    // neighbouring one.
    let p = pos("221,x/2211,21,x/x,x 1 - 4");
    let r = refusal(&p, "b2-a1");
    assert!(r.contains("neighbouring stacks of four or more"), "{r}");
    // With a Black cap instead, the towers differ in colour: allowed.
    let q = pos("221,x/2211,22,x/x,x 2 - 4");
    allowed(&q, "b2-a1");
    // Uncovering counts: the Black piece on b1 guards a White tower beneath it.
    let u = pos("2211,x/22112,x,x/x,x 1 - 4");
    let r = refusal(&u, "b1-c1");
    assert!(r.contains("neighbouring stacks of four or more"), "{r}");
    assert!(!legal(&u).contains(&"b1-b2".to_string()));
    // Stacks of three do not count as towers.
    let low = pos("22,x/211,21,x/x,x 1 - 3");
    allowed(&low, "b2-a1");
}

#[test]
fn stacks_of_six_win_for_white_even_when_black_builds_them() {
    let p = pos("x,1/22222,2222,x/x,x 2 - 6");
    let mut g = Game::new(p);
    g.play_text("b2-b1").unwrap();
    assert_eq!(g.result(), Some(Ending::Sixes { count: 1 }));
    assert_eq!(g.result().unwrap().winner(), Some(Color::White));
    assert_eq!(g.result().unwrap().code(), "1-0");
    assert!(g
        .play_text("a2-b2")
        .unwrap_err()
        .to_string()
        .contains("game is over"));
    // Nineteen circles need three.
    let big = pos("x,x,x/222222,x,x,x/x,x,x,x,x/x,x,x,x/x,x,x 1 - 7");
    assert_eq!(big.sixes(), 1);
    assert_eq!(big.end(), None);
}

#[test]
fn a_player_who_cannot_move_loses() {
    // Black's ply buries White's last movable piece under two Black: White has no reserve,
    // and every top is two Black, safe from White.
    let p = pos("122,122/122,2,122/122,12 2 - 10");
    let mut g = Game::new(p);
    g.play_text("b2-c2").unwrap();
    assert_eq!(
        g.result(),
        Some(Ending::Immobilised {
            loser: Color::White
        })
    );
    assert_eq!(g.result().unwrap().code(), "0-1");
    // Black immobilised: the outer circles are full (no entry), the red ones permanently safe,
    // the others two White on top.
    let b = pos("222,11/11,x,222/222,11 2 - 8");
    assert_eq!(legal(&b), Vec::<String>::new());
    assert_eq!(
        b.end(),
        Some(Ending::Immobilised {
            loser: Color::Black
        })
    );
}

#[test]
fn the_third_repetition_draws() {
    let mut g = Game::new(pos("1,x/x,x,x/x,2 1 c2 2"));
    for round in 0..2 {
        for ply in ["a1-a2", "c2-b3", "a2-a1", "b3-c2"] {
            assert_eq!(g.result(), None, "round {round}, before {ply}");
            g.play_text(ply).unwrap();
        }
    }
    assert_eq!(g.result(), Some(Ending::Repetition));
    assert_eq!(g.result().unwrap().code(), "1/2-1/2");
    // Undo takes the draw back.
    g.undo();
    assert_eq!(g.result(), None);
}

#[test]
fn plies_read_in_either_case_and_refuse_nonsense_in_words() {
    let p = Position::new(7).unwrap();
    assert_eq!(p.parse_ply("A1").unwrap(), Ply::Enter(0));
    let q = pos("1,x/x,x,x/x,2 1 c2 2");
    assert_eq!(q.name(q.parse_ply(" a1 - A2 ").unwrap()), "a1-a2");
    let e = p.parse_ply("d4").unwrap_err().to_string();
    assert!(
        e.contains("not a circle") && e.contains("a1 a2 b1 b2 b3 c1 c2"),
        "{e}"
    );
    assert!(p.parse_ply("").is_err());
    assert!(p
        .parse_ply("a1>")
        .unwrap_err()
        .to_string()
        .contains("from-to"));
    assert!(refusal(&q, "a1-c1").contains("not next to"));
    assert!(refusal(&q, "b1-b2").contains("no piece on b1"));
}

#[test]
fn position_strings_round_trip_and_explain_mistakes() {
    for text in [
        "x,x/x,x,x/x,x 1 - 1",
        "122,122/122,2,122/122,12 2 c2 10",
        "x,x,x/222222,x,x,x/x,x,x,x,x/x,x,x,x/x,x,x 1 - 7",
    ] {
        assert_eq!(pos(text).to_text(), text);
    }
    let errors = [
        ("x,x/x,x/x,x 1 - 1", "7 or 19"),
        ("x,x,x/x,x/x,x 1 - 1", "columns hold"),
        ("x,x/x,x,x/x,x 3 - 1", "1 (White) or 2 (Black)"),
        ("x,x/x,x,x/x,x 1 a1 1", "which is empty"),
        ("x,x/x,x,x/x,x 1 - 0", "move number"),
        ("x,x/x,3,x/x,x 1 - 1", "bottom to top"),
        ("1111111,x/x,x,x/x,x 1 - 1", "more than six"),
        ("111,111/1,x,x/x,x 1 - 1", "only 6 in all"),
        ("x,x/x,x,x/x,x", "four parts"),
    ];
    for (text, why) in errors {
        let e = Position::from_text(text).unwrap_err();
        assert!(e.contains(why), "{text}: {e}");
    }
}

#[test]
fn game_records_round_trip() {
    let mut g = Game::new(Position::new(7).unwrap());
    for ply in ["a1", "c2", "a1-a2", "b3", "a2-b2"] {
        g.play_text(ply).unwrap();
    }
    g.decide(Ending::Resignation {
        winner: Color::White,
    })
    .unwrap();
    let record = g.to_record(&[("Player1", "Ann \"A\"".into())]);
    assert!(record.starts_with("[Game \"Takat\"]\n[Size \"7\"]\n[Player1 \"Ann ''A''\"]"));
    assert!(
        record.contains("1. a1 c2\n2. a1-a2 b3\n3. a2-b2 1-0"),
        "{record}"
    );
    let back = Game::from_record(&record).unwrap();
    assert_eq!(back.position().to_text(), g.position().to_text());
    assert_eq!(back.ply_count(), 5);
    // From a position, with Black first: the record keeps the start and marks the skipped ply.
    let mut h = Game::new(pos("1,x/x,x,x/x,x 2 a1 1"));
    h.play_text("c2").unwrap();
    let text = h.to_record(&[]);
    assert!(
        text.contains("[TPS \"1,x/x,x,x/x,x 2 a1 1\"]") && text.contains("1. -- c2"),
        "{text}"
    );
    assert_eq!(
        Game::from_record(&text).unwrap().position().to_text(),
        h.position().to_text()
    );
    assert!(Game::from_record("[Size \"7\"]\n1. a1")
        .unwrap_err()
        .contains("Game"));
    let bad = Game::from_record("[Game \"Takat\"]\n[Size \"7\"]\n1. b2").unwrap_err();
    assert!(
        bad.contains("ply 1 (b2)") && bad.contains("centre"),
        "{bad}"
    );
}

#[test]
fn threats_are_announced() {
    // White moves Black's piece off c2 and still has b2-b1 for six next ply: a threat.
    let mut g = Game::new(pos("x,x/11112,2211,x/x,2 1 - 5"));
    let played = g.play_text("c2-c1").unwrap();
    assert_eq!(played.notes, ["White threatens a stack of six"]);
    // Black's entry threatens nothing.
    let played = g.play_text("a1").unwrap();
    assert_eq!(played.notes, Vec::<String>::new());
    // Black (who just moved) threatens b2-c2, after which White cannot move.
    let notes = bredon::takat::threats(&pos("122,122/122,2,122/122,12 1 - 10"));
    assert_eq!(notes, ["Black threatens to immobilise White"]);
}
