//! One test (at least) for every rule of RULES.md and every refusal the rules give.

use bredon::tak::*;

fn from(tps: &str) -> Game {
    Game::new(Position::from_tps(tps).unwrap())
}

fn from_setup(tps: &str, setup: Setup) -> Game {
    Game::new(Position::from_tps_with(tps, setup).unwrap())
}

fn play(game: &mut Game, ptn: &str) -> Played {
    let ply = Ply::parse(ptn).unwrap();
    match game.play_ptn(&ply) {
        Ok(p) => p.clone(),
        Err(e) => panic!("{ptn} should be legal in {}: {e}", game.position().to_tps()),
    }
}

fn refuse(game: &Game, ptn: &str) -> String {
    let mut copy = game.clone();
    let ply = Ply::parse(ptn).unwrap();
    let before = copy.position().clone();
    let err = copy.play_ptn(&ply).expect_err(ptn).to_string();
    assert_eq!(copy.position(), &before, "a refused ply changes nothing");
    err
}

fn new_game(size: usize) -> Game {
    Game::new(Position::new(Setup::new(size).unwrap()))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

// ---- Opening -----------------------------------------------------------------------------------

#[test]
fn first_ply_of_each_player_places_the_opponents_flat() {
    let mut g = new_game(5);
    play(&mut g, "a1");
    let p = g.position();
    assert_eq!(
        p.top(sq("a1")),
        Some(Piece {
            color: Color::Black,
            role: Role::Flat
        })
    );
    assert_eq!(p.reserve(Color::Black).stones, 20);
    assert_eq!(p.reserve(Color::White).stones, 21);
    play(&mut g, "e5");
    assert_eq!(g.position().top(sq("e5")).unwrap().color, Color::White);
    assert_eq!(g.position().reserve(Color::White).stones, 20);
    // From the third ply on, players place their own pieces.
    play(&mut g, "c3");
    assert_eq!(g.position().top(sq("c3")).unwrap().color, Color::White);
}

#[test]
fn opening_swap_refuses_walls_capstones_and_moves() {
    let g = new_game(5);
    for ptn in ["Sa1", "Ca1"] {
        assert!(refuse(&g, ptn).contains("the first ply must place the opponent's flat"));
    }
    let mut g = new_game(5);
    play(&mut g, "a1");
    assert!(refuse(&g, "Sb1").contains("opponent's flat"));
    // Black cannot move the black flat White placed: its first ply is a placement too.
    assert!(refuse(&g, "a1+").contains("opponent's flat"));
}

#[test]
fn no_swap_opening_places_own_pieces_from_the_start() {
    let setup = Setup::new(5).unwrap().with_opening(Opening::NoSwap);
    let mut g = Game::new(Position::new(setup));
    play(&mut g, "a1");
    assert_eq!(g.position().top(sq("a1")).unwrap().color, Color::White);
    play(&mut g, "Sb1");
    assert_eq!(
        g.position().top(sq("b1")),
        Some(Piece {
            color: Color::Black,
            role: Role::Wall
        })
    );
    assert_eq!(g.position().reserve(Color::White).stones, 20);
}

// ---- Placement ---------------------------------------------------------------------------------

#[test]
fn placement_needs_an_empty_square_on_the_board() {
    let g = from("x5/x5/x3,1,x/x5/x5 1 3");
    assert_eq!(
        refuse(&g, "d3"),
        "d3 is not empty: pieces are placed on empty squares only"
    );
    assert!(refuse(&g, "f1").contains("f1 is off the 5x5 board"));
    assert!(refuse(&g, "a6").contains("off the 5x5 board"));
}

#[test]
fn capstones_come_from_the_reserve() {
    let g = from("x4/x4/x4/1,2,x2 1 2");
    assert!(refuse(&g, "Cc3").contains("there are no capstones on 4x4"));
    let mut g = from("x5/x5/x5/x5/1,2,x3 1 2");
    play(&mut g, "Cc3");
    assert_eq!(g.position().reserve(Color::White).caps, 0);
    play(&mut g, "Cd4");
    play(&mut g, "e1");
    assert!(refuse(&g, "Ce5").contains("no capstones left"));
}

#[test]
fn stones_run_out_but_a_capstone_can_still_be_placed() {
    let setup = Setup::new(5)
        .unwrap()
        .with_reserve(Color::White, Reserve { stones: 2, caps: 1 })
        .unwrap();
    let mut g = from_setup("x5/x5/x5/x5/1,2,x3 1 2", setup);
    assert_eq!(
        g.position().reserve(Color::White),
        Reserve { stones: 1, caps: 1 }
    );
    play(&mut g, "c1");
    play(&mut g, "d1");
    assert!(refuse(&g, "Sc3").contains("no stones left: you can still place your capstone"));
    play(&mut g, "Cc3");
}

#[test]
fn walls_and_capstones_are_their_own_pieces() {
    let mut g = from("x5/x5/x5/x5/1,2,x3 1 2");
    play(&mut g, "Sc3");
    play(&mut g, "Cd4");
    let p = g.position();
    assert_eq!(
        p.top(sq("c3")),
        Some(Piece {
            color: Color::White,
            role: Role::Wall
        })
    );
    assert_eq!(
        p.top(sq("d4")),
        Some(Piece {
            color: Color::Black,
            role: Role::Cap
        })
    );
    assert_eq!(p.reserve(Color::White).stones, 19, "a wall is a stone");
    assert_eq!(p.reserve(Color::Black).caps, 0);
}

// ---- Movement ----------------------------------------------------------------------------------

#[test]
fn only_the_controller_moves_a_stack() {
    let g = from("x5/x5/x5/x5/1,2,x3 1 3");
    assert!(refuse(&g, "b1>").contains("you do not control b1"));
    assert!(refuse(&g, "c1>").contains("c1 is empty"));
}

#[test]
fn carry_limit_is_the_board_size() {
    let g = from("x3/x3/1111,2,x 1 5");
    assert_eq!(refuse(&g, "4a1+"), "can carry at most 3 on 3x3");
    let mut g2 = g.clone();
    play(&mut g2, "3a1+12");
    // The stack has no height limit: one piece stayed behind, taller stacks keep growing.
    assert_eq!(g2.position().stack(sq("a1")).height(), 1);
    assert_eq!(g2.position().stack(sq("a3")).height(), 2);
}

#[test]
fn cannot_carry_more_than_the_stack_holds() {
    let g = from("x5/x5/x5/x5/12,2,x3 2 3");
    assert!(refuse(&g, "3a1+").contains("a1 has 2 pieces but the move carries 3"));
}

#[test]
fn pieces_drop_from_the_bottom_of_the_carried_pile() {
    // a1 holds (bottom to top) W B W B W; carry the top 3 (W B W) east and drop 1 then 2.
    let mut g = from("x5/x5/x5/x5/12121,x4 1 5");
    play(&mut g, "3a1>12");
    let p = g.position();
    let colors = |s: &str| p.stack(sq(s)).colors().collect::<Vec<_>>();
    use Color::{Black as B, White as W};
    assert_eq!(colors("a1"), vec![W, B]);
    assert_eq!(colors("b1"), vec![W]);
    assert_eq!(colors("c1"), vec![B, W]);
}

#[test]
fn moves_may_not_leave_the_board() {
    let g = from("x3/x3/111,2,x 1 5");
    assert!(refuse(&g, "a1-").contains("leaves the board"));
    assert!(refuse(&g, "3a1+111").contains("leaves the board"));
    assert!(refuse(&g, "a1<").contains("leaves the board"));
}

#[test]
fn nothing_moves_onto_a_capstone() {
    let g = from("x5/x5/x5/x5/1C,2C,x3 1 5");
    assert!(refuse(&g, "a1>").contains("b1 has a capstone on top"));
}

#[test]
fn only_a_lone_capstone_flattens_a_wall() {
    // A flat cannot cover a wall.
    let g = from("x5/x5/x5/x5/1,2S,x3 1 5");
    assert_eq!(
        refuse(&g, "a1>"),
        "only a capstone moving alone flattens the wall on b1; nothing else can move onto a wall"
    );
    // A wall cannot cover a wall.
    let g = from("x5/x5/x5/x5/1S,2S,x3 1 5");
    assert!(refuse(&g, "a1>").contains("only a capstone moving alone"));
    // A capstone carrying another piece onto the wall: refused.
    let g = from("x5/x5/x5/x5/11C,2S,x3 1 5");
    assert!(refuse(&g, "2a1>").contains("only a capstone moving alone flattens the wall on b1"));
}

#[test]
fn a_capstone_alone_flattens_a_wall_of_either_colour() {
    for wall in ["2S", "1S"] {
        let mut g = from(&format!("x5/x5/x5/x5/1C,{wall},x3 1 5"));
        let played = play(&mut g, "a1>");
        assert_eq!(
            played.ptn, "a1>*",
            "the canonical form marks the flattening"
        );
        let p = g.position();
        assert_eq!(p.top(sq("b1")).unwrap().role, Role::Cap);
        assert_eq!(p.stack(sq("b1")).height(), 2);
        assert_eq!(p.walls(), Bitboard::EMPTY, "the wall became a flat");
        // Undo puts the wall back.
        g.undo();
        assert_eq!(g.position().top(sq("b1")).unwrap().role, Role::Wall);
    }
}

#[test]
fn a_capstone_may_flatten_as_the_last_drop_of_a_longer_move() {
    let mut g = from("x5/x5/x5/x5/111C,x,2S,x2 1 5");
    play(&mut g, "3a1>21*");
    let p = g.position();
    assert_eq!(p.stack(sq("b1")).height(), 2);
    assert_eq!(
        p.top(sq("c1")),
        Some(Piece {
            color: Color::White,
            role: Role::Cap
        })
    );
    // But not if more than the capstone lands on the wall.
    let g = from("x5/x5/x5/x5/111C,x,2S,x2 1 5");
    assert!(refuse(&g, "3a1>12").contains("only a capstone moving alone"));
}

#[test]
fn a_star_without_a_wall_is_refused_and_a_missing_star_is_accepted() {
    let g = from("x5/x5/x5/x5/1C,x4 1 5");
    assert!(refuse(&g, "a1>*").contains("no wall on b1"));
    let mut g = from("x5/x5/x5/x5/1C,2S,x3 1 5");
    assert_eq!(play(&mut g, "a1>").ptn, "a1>*");
}

#[test]
fn walls_and_capstones_move_and_keep_their_role() {
    let mut g = from("x5/x5/x5/x5/121S,x4 1 5");
    play(&mut g, "2a1+11");
    let p = g.position();
    assert_eq!(
        p.top(sq("a1")),
        Some(Piece {
            color: Color::White,
            role: Role::Flat
        })
    );
    assert_eq!(
        p.top(sq("a2")),
        Some(Piece {
            color: Color::Black,
            role: Role::Flat
        })
    );
    assert_eq!(
        p.top(sq("a3")),
        Some(Piece {
            color: Color::White,
            role: Role::Wall
        })
    );
}

// ---- Roads -------------------------------------------------------------------------------------

#[test]
fn a_road_joins_opposite_edges_either_way() {
    let mut g = from("x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5");
    play(&mut g, "e3");
    assert_eq!(
        g.result(),
        Some(GameResult::Road {
            winner: Color::White,
            double: false
        })
    );
    assert_eq!(g.result().unwrap().ptn(), "R-0");
    let mut g = from("x,2,x3/1,2,x3/1,2,x3/1,2,x3/1,x4 2 5");
    play(&mut g, "b1");
    assert_eq!(g.result().unwrap().ptn(), "0-R");
}

#[test]
fn diagonals_do_not_connect() {
    let mut g = from("x,x,1/x,1,x/x3 1 3");
    play(&mut g, "a1");
    assert_eq!(g.result(), None);
}

#[test]
fn walls_never_count_in_a_road_and_capstones_do() {
    let mut g = from("x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 5");
    play(&mut g, "Se3");
    assert_eq!(g.result(), None);
    let mut g = from("x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 5");
    play(&mut g, "Ce3");
    assert_eq!(g.result().unwrap().ptn(), "R-0");
}

#[test]
fn a_ply_making_both_roads_wins_for_the_mover() {
    let mut g = from("2,2,21/1,1,x/x3 1 5");
    play(&mut g, "c3-");
    assert_eq!(
        g.result(),
        Some(GameResult::Road {
            winner: Color::White,
            double: true
        })
    );
}

#[test]
fn a_ply_making_only_the_opponents_road_loses() {
    let mut g = from("2,2,21/1,x2/x3 1 5");
    play(&mut g, "c3-");
    assert_eq!(
        g.result(),
        Some(GameResult::Road {
            winner: Color::Black,
            double: false
        })
    );
    assert_eq!(g.result().unwrap().ptn(), "0-R");
}

#[test]
fn a_road_beats_the_flat_count_on_a_full_board() {
    // With komi 4.5 Black is ahead on count, but White's placement fills the board with a road.
    let setup = Setup::new(3)
        .unwrap()
        .with_komi(Komi::parse("4.5").unwrap());
    let mut g = from_setup("1,2,2/1,2,1/x,1,2 1 5", setup);
    play(&mut g, "a1");
    assert!(g.position().empty_squares().is_empty());
    assert_eq!(g.result().unwrap().ptn(), "R-0");
}

#[test]
fn a_road_beats_the_flat_count_on_an_empty_reserve() {
    let setup = Setup::new(3)
        .unwrap()
        .with_reserve(Color::White, Reserve { stones: 3, caps: 0 })
        .unwrap();
    let mut g = from_setup("1,2,2/1,2,2/x3 1 5", setup);
    play(&mut g, "a1");
    assert_eq!(g.position().reserve(Color::White).total(), 0);
    assert_eq!(g.result().unwrap().ptn(), "R-0");
}

// ---- Flat wins, komi, draws --------------------------------------------------------------------

#[test]
fn a_full_board_is_counted_on_flats() {
    let mut g = from("2,1,2/1,2,1/2,1,x 1 5");
    play(&mut g, "c1");
    assert_eq!(
        g.result(),
        Some(GameResult::Flats {
            winner: Some(Color::White),
            cause: FlatCause::BoardFull,
            white: 5,
            black: 4
        })
    );
    assert_eq!(g.result().unwrap().ptn(), "F-0");
}

#[test]
fn walls_capstones_and_buried_pieces_do_not_count_as_flats() {
    let mut g = from("2,1,2/1,2,1/2,1,x 1 5");
    play(&mut g, "Sc1");
    assert!(matches!(
        g.result(),
        Some(GameResult::Flats {
            winner: None,
            white: 4,
            black: 4,
            ..
        })
    ));
    let p = Position::from_tps("x5/x5/21,1C,x3/2S,12,x3/x5 1 5").unwrap();
    assert_eq!(
        p.flat_count(Color::White),
        1,
        "a3 counts; the capstone and the buried b2 flat do not"
    );
    assert_eq!(
        p.flat_count(Color::Black),
        1,
        "b2 counts; the wall and the buried a3 flat do not"
    );
}

#[test]
fn komi_helps_player_two_and_integer_komi_can_tie() {
    let run = |komi: &str| {
        let setup = Setup::new(3).unwrap().with_komi(Komi::parse(komi).unwrap());
        let mut g = from_setup("2,1,2/1,2,1/2,1,x 1 5", setup);
        play(&mut g, "c1");
        g.result().unwrap()
    };
    assert_eq!(run("0").ptn(), "F-0");
    assert_eq!(run("1").ptn(), "1/2-1/2");
    assert_eq!(run("1.5").ptn(), "0-F");
    assert_eq!(run("0.5").ptn(), "F-0");
    assert_eq!(
        run("1").describe(Komi::parse("1").unwrap()),
        "Draw on flats, 5 vs 4 + 1 (the board is full)"
    );
}

#[test]
fn negative_komi_helps_player_one() {
    let setup = Setup::new(3)
        .unwrap()
        .with_komi(Komi::parse("-0.5").unwrap());
    let mut g = from_setup("2,1,2/1,2,1/2,1,x 1 5", setup);
    play(&mut g, "Sc1"); // 4 flats each
    assert_eq!(g.result().unwrap().ptn(), "F-0");
    assert_eq!(
        g.result().unwrap().describe(setup.komi),
        "White wins on flats, 4 + 0.5 vs 4 (the board is full)"
    );
}

#[test]
fn either_reserve_running_out_ends_the_game() {
    let setup = Setup::new(3)
        .unwrap()
        .with_opening(Opening::NoSwap)
        .with_reserve(Color::White, Reserve { stones: 2, caps: 0 })
        .unwrap();
    let mut g = Game::new(Position::new(setup));
    play(&mut g, "a1");
    play(&mut g, "b2");
    play(&mut g, "c3");
    assert_eq!(
        g.result(),
        Some(GameResult::Flats {
            winner: Some(Color::White),
            cause: FlatCause::ReserveEmpty(Color::White),
            white: 2,
            black: 1
        })
    );
    // Black's reserve empties on Black's ply: a draw on 1 vs 1.
    let setup = Setup::new(3)
        .unwrap()
        .with_opening(Opening::NoSwap)
        .with_reserve(Color::Black, Reserve { stones: 1, caps: 0 })
        .unwrap();
    let mut g = Game::new(Position::new(setup));
    play(&mut g, "a1");
    play(&mut g, "b2");
    assert!(matches!(
        g.result(),
        Some(GameResult::Flats {
            winner: None,
            cause: FlatCause::ReserveEmpty(Color::Black),
            ..
        })
    ));
}

#[test]
fn no_ply_after_the_end() {
    let mut g = from("x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5");
    play(&mut g, "e3");
    assert_eq!(refuse(&g, "e1"), "the game is over (R-0)");
}

#[test]
fn decisions_end_the_game_and_cannot_be_undone() {
    let mut g = new_game(5);
    play(&mut g, "a1");
    g.decide(GameResult::Resignation {
        winner: Color::White,
    })
    .unwrap();
    assert_eq!(g.result().unwrap().ptn(), "1-0");
    assert!(g.decide(GameResult::DrawAgreed).is_err());
    assert!(g.undo().is_none());
    assert_eq!(
        GameResult::Timeout {
            winner: Color::Black
        }
        .ptn(),
        "0-1"
    );
    assert_eq!(GameResult::DrawAgreed.ptn(), "1/2-1/2");
    assert_eq!(GameResult::Abandoned.ptn(), "0-0");
}

#[test]
fn undo_restores_the_position_and_clears_a_road_result() {
    let mut g = from("x5/x5/1,1,1,1,x/x5/2,2,2,2,x 1 5");
    let before = g.position().clone();
    play(&mut g, "e3");
    assert!(g.result().is_some());
    let undone = g.undo().unwrap();
    assert_eq!(undone.ptn, "e3");
    assert_eq!(g.position(), &before);
    assert_eq!(g.result(), None);
}

// ---- Tak and Tinuë -----------------------------------------------------------------------------

fn wins(tps: &str, color: Color) -> Vec<String> {
    let p = Position::from_tps(tps).unwrap();
    let mut out = Vec::new();
    p.road_wins(color, &mut out);
    let mut v: Vec<String> = out.iter().map(|&ply| p.ptn(ply)).collect();
    v.sort();
    v
}

#[test]
fn tak_finds_placements_that_complete_a_road() {
    let tps = "x5/x5/1,1,1,1,x/x5/2,2,x3 2 5";
    assert_eq!(wins(tps, Color::White), vec!["Ce3", "e3"]);
    assert!(Position::from_tps(tps).unwrap().is_tak(Color::White));
    assert!(!Position::from_tps(tps).unwrap().is_tak(Color::Black));
}

#[test]
fn tak_finds_spreads_that_complete_a_road() {
    // c1 is Black's, but White's c2 can cover it.
    assert_eq!(
        wins("x5/x5/x5/x2,1,x2/1,1,2,1,1 2 5", Color::White),
        vec!["c2-"]
    );
    // A wall moving onto c1 does not count.
    assert!(wins("x5/x5/x5/x2,1S,x2/1,1,2,1,1 2 5", Color::White).is_empty());
    // A capstone flattening a wall completes the road.
    assert_eq!(
        wins("x5/x5/x5/x2,1C,x2/1,1,2S,1,1 2 5", Color::White),
        vec!["c2-*"]
    );
    // Moving the top off a stack with White underneath keeps the square White's; carrying the
    // whole stack (2d1>) would empty d1.
    assert_eq!(
        wins("x5/x5/x5/x5/1,1,1,11,2 2 5", Color::White),
        vec!["d1>"]
    );
}

/// Every position of `games` random games on each size from 3x3 to 8x8, up to `plies` plies a
/// game, with its legal plies. The plies are drawn by a fixed xorshift sequence from `seed`, so
/// every run walks the same games.
fn each_random_position(
    seed: u64,
    games: usize,
    plies: u32,
    mut visit: impl FnMut(&Position, &[Ply]),
) {
    let mut seed = seed;
    let mut below = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut list = Vec::new();
    for size in 3..=8 {
        for _ in 0..games {
            let mut pos = Position::new(Setup::new(size).unwrap());
            while !pos.is_over() && pos.ply_index() < plies {
                list.clear();
                pos.generate_plies(&mut list);
                visit(&pos, &list);
                pos.play_unchecked(list[below(list.len())]);
            }
        }
    }
}

/// Tak detection skips most spreads without trying them; over random games on every size it
/// must find exactly the plies that, played, give the mover a road.
#[test]
fn road_wins_are_exactly_the_plies_that_complete_a_road() {
    let (mut checked, mut with_wins, mut by_spread) = (0, 0, 0);
    each_random_position(0x2545_f491_4f6c_dd1d, 100, 250, |pos, plies| {
        if pos.ply_index() < 2 {
            return;
        }
        let me = pos.to_move();
        let mut brute: Vec<String> = plies
            .iter()
            .filter(|&&ply| {
                let mut after = pos.clone();
                after.play_unchecked(ply);
                after.has_road(me)
            })
            .map(|&ply| pos.ptn(ply))
            .collect();
        brute.sort();
        let mut found = Vec::new();
        pos.road_wins(me, &mut found);
        let mut found: Vec<String> = found.iter().map(|&ply| pos.ptn(ply)).collect();
        found.sort();
        assert_eq!(found, brute, "in {}", pos.to_tps());
        assert_eq!(pos.is_tak(me), !brute.is_empty());
        checked += 1;
        with_wins += usize::from(!brute.is_empty());
        by_spread += usize::from(brute.iter().any(|p| p.contains(['+', '-', '<', '>'])));
    });
    assert!(
        with_wins > 500 && by_spread > 200,
        "{with_wins} of {checked} positions had a road in one, {by_spread} by a spread"
    );
}

/// The searcher skips its road-in-one check after a placement (`engine::search`): placing one's
/// own piece takes an empty square from the opponent and blocks as much as it did or more, so it
/// never opens the opponent a road in one. A spread can, by uncovering a stack.
#[test]
fn placing_a_piece_never_gives_the_opponent_a_road_in_one() {
    let (mut placements, mut spreads_that_open) = (0, 0);
    each_random_position(0x9e37_79b9_7f4a_7c15, 60, 200, |pos, plies| {
        let them = pos.to_move().opponent();
        if pos.is_opening_swap() || pos.is_tak(them) {
            return;
        }
        for &ply in plies {
            let mut after = pos.clone();
            after.play_unchecked(ply);
            if after.is_over() {
                continue;
            }
            let opened = after.is_tak(them);
            if let Ply::Place { .. } = ply {
                assert!(!opened, "{} opens a road in {}", pos.ptn(ply), pos.to_tps());
                placements += 1;
            } else {
                spreads_that_open += usize::from(opened);
            }
        }
    });
    assert!(
        placements > 1_000_000 && spreads_that_open > 1_000,
        "{placements} placements checked, {spreads_that_open} spreads opened a road"
    );
}

#[test]
fn the_tak_flag_is_set_after_a_threatening_ply() {
    let mut g = from("x5/x5/1,1,1,x2/x5/2,2,2,x2 1 5");
    assert!(play(&mut g, "d3").tak);
    assert!(
        !play(&mut g, "e3").tak,
        "black blocked and threatens nothing"
    );
}

#[test]
fn one_move_tinue_when_two_threats_cannot_both_be_blocked() {
    let p = Position::from_tps("1,1,1,1,x/x5/2,2,1,2,2/x5/1,1,1,1,x 2 6").unwrap();
    assert!(p.is_tak(Color::White));
    assert!(p.is_tinue());
    let p = Position::from_tps("1,1,1,x2/x5/2,2,1,2,2/x5/1,1,1,1,x 2 6").unwrap();
    assert!(p.is_tak(Color::White));
    assert!(!p.is_tinue(), "a single threat can be blocked");
}

#[test]
fn tinue_is_announced_with_double_marks() {
    let mut g = from("1,1,1,1,x/x5/2,2,1,2,2/x5/1,1,1,x2 1 6");
    let played = play(&mut g, "d1");
    assert!(played.tak && played.tinue);
    assert_eq!(played.ptn_with_marks(), "d1''");
}

// ---- Invariants under random play --------------------------------------------------------------

#[test]
fn random_games_undo_to_the_start_and_generated_plies_are_legal() {
    let mut seed = 0x2545F4914F6CDD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for size in 3..=8 {
        for _ in 0..20 {
            let start = Position::new(Setup::new(size).unwrap());
            let mut p = start.clone();
            let mut undos = Vec::new();
            let mut plies = Vec::new();
            for _ in 0..120 {
                if p.ply_index() > 0 && p.is_over() {
                    break;
                }
                plies.clear();
                p.generate_plies(&mut plies);
                assert_eq!(plies.len() as u64, p.count_plies());
                for &ply in &plies {
                    assert!(
                        p.check(ply).is_ok(),
                        "{} generated but illegal in {}",
                        p.ptn(ply),
                        p.to_tps()
                    );
                }
                let ply = plies[(next() % plies.len() as u64) as usize];
                let tps_before = p.to_tps();
                undos.push((p.play(ply).unwrap(), tps_before));
                // Every position reads back from its own TPS.
                let back = Position::from_tps(&p.to_tps()).unwrap();
                assert_eq!(back, p);
            }
            while let Some((undo, tps)) = undos.pop() {
                p.undo(undo);
                assert_eq!(p.to_tps(), tps);
            }
            assert_eq!(p, start);
        }
    }
}
