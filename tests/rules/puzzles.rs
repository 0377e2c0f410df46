//! Bredon's starter puzzles: each "play and win" a Tinuë whose solution is the shortest forced
//! line, each "play and survive" a threatened Tinuë with exactly its escapes.

use bredon::engine::puzzles::PuzzleKind;
use bredon::tak::Position;

/// Every starter puzzle given (not retired) has a solution that plays, ends in the solver's win,
/// never stands on one position twice (side to move included) and is at most
/// `LONGEST_SOLUTION` plies; at least 300 are given.
#[test]
fn no_starter_solution_comes_to_a_position_twice_or_runs_too_long() {
    use bredon::engine::puzzles::{starter_set, LONGEST_SOLUTION};
    use bredon::tak::Ply;
    let (mut circling, mut too_long, mut given) = (Vec::new(), Vec::new(), 0);
    for (i, p) in starter_set().iter().enumerate() {
        if p.retired.is_some() || p.kind != PuzzleKind::Win {
            continue;
        }
        given += 1;
        let mut pos = p.position().unwrap();
        let solver = pos.to_move();
        let mut seen = std::collections::HashSet::from([pos.hash64()]);
        let mut twice = false;
        for text in &p.solution {
            pos.play(Ply::parse(text).unwrap().ply).unwrap();
            twice |= !seen.insert(pos.hash64());
        }
        assert_eq!(
            pos.end().and_then(|e| e.winner()),
            Some(solver),
            "#{}",
            i + 1
        );
        assert_eq!(p.plies, p.solution.len(), "#{}", i + 1);
        if twice {
            circling.push(i + 1);
        }
        if p.solution.len() > LONGEST_SOLUTION {
            too_long.push((i + 1, p.solution.len()));
        }
    }
    assert!(
        circling.is_empty() && too_long.is_empty(),
        "{} circle: {circling:?}; {} too long: {too_long:?}",
        circling.len(),
        too_long.len()
    );
    assert!(given >= 300, "{given} puzzles given");
}

/// Bredon's starter puzzles (`assets/puzzles.jsonl`, made by `assets/regenerate-puzzles.sh`):
/// each is a Tinuë, and its first plies are exactly those that win.
fn check_starter_puzzles(every: usize) -> usize {
    use bredon::engine::puzzles::{winning_first_plies, Puzzle};
    use bredon::engine::tinue::{solve, Verdict};
    use bredon::tak::{Komi, Setup};
    let text = include_str!("../../assets/puzzles.jsonl");
    let puzzles: Vec<Puzzle> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut checked = 0;
    for p in puzzles.iter().step_by(every) {
        if p.kind == PuzzleKind::Survive {
            check_survival_puzzle(p);
            checked += 1;
            continue;
        }
        let setup = Setup::new(p.size)
            .unwrap()
            .with_komi(Komi::parse(&p.komi).unwrap());
        let pos = Position::from_tps_with(&p.tps, setup).unwrap();
        assert!(
            matches!(solve(&pos, 1_000_000).verdict, Verdict::Tinue(_)),
            "{} is no Tinuë",
            p.tps
        );
        let winning: Vec<String> = winning_first_plies(&pos, 1_000_000, 5)
            .unwrap_or_else(|| panic!("{}: undecided", p.tps))
            .into_iter()
            .map(|ply| pos.ptn(ply))
            .collect();
        assert_eq!(winning, p.first_plies, "{}", p.tps);
        checked += 1;
    }
    checked
}

/// A "play and survive" puzzle: the opponent, given a free ply, forces a road by the stored
/// threat; the escapes are exactly the plies after which no road is forced; every other ply
/// loses (each proven by the solver).
fn check_survival_puzzle(p: &bredon::engine::puzzles::Puzzle) {
    use bredon::engine::survival::{passed, survival};
    use bredon::engine::tinue::{solve, Verdict};
    let pos = p.position().unwrap();
    let found = survival(&pos, 1_000_000).unwrap_or_else(|| panic!("{}: no survival", p.tps));
    let mut escapes: Vec<String> = found.escapes.iter().map(|&e| pos.ptn(e)).collect();
    let mut stored = p.first_plies.clone();
    escapes.sort();
    stored.sort();
    assert_eq!(escapes, stored, "{}", p.tps);
    assert_eq!(p.solution, p.first_plies[..1], "{}", p.tps);
    // The threat plays out to the opponent's win from the passed position.
    let mut threatened = passed(&pos).unwrap();
    let them = threatened.to_move();
    for ply in &p.threat {
        threatened
            .play(bredon::tak::Ply::parse(ply).unwrap().ply)
            .unwrap();
    }
    assert_eq!(
        threatened.end().and_then(|e| e.winner()),
        Some(them),
        "{}: the threat {:?}",
        p.tps,
        p.threat
    );
    // And the escape leaves no road forced.
    let mut after = pos.clone();
    after.play(found.escapes[0]).unwrap();
    assert_eq!(
        solve(&after, 1_000_000).verdict,
        Verdict::NoTinue,
        "{}",
        p.tps
    );
}

#[test]
fn the_starter_set_has_survival_puzzles_that_hold() {
    use bredon::engine::puzzles::starter_set;
    let survive: Vec<_> = starter_set()
        .iter()
        .filter(|p| p.kind == PuzzleKind::Survive && p.retired.is_none())
        .collect();
    assert!(survive.len() >= 10, "{} survival puzzles", survive.len());
    for p in survive.iter().step_by(5) {
        check_survival_puzzle(p);
    }
}

#[test]
fn a_sample_of_the_starter_puzzles_holds() {
    assert!(check_starter_puzzles(25) >= 10);
}

#[test]
#[ignore = "every starter puzzle, a few minutes: cargo test --release -- --ignored"]
fn every_starter_puzzle_holds() {
    assert_eq!(
        check_starter_puzzles(1),
        include_str!("../../assets/puzzles.jsonl").lines().count()
    );
}
