//! Bredon's starter puzzles: each "play and win" a Tinuë whose solution is the shortest forced
//! line, each "play and survive" a threatened Tinuë with exactly its escapes, each "play and win
//! on flats" a win forced in its plies and no fewer, by its first plies alone, checked by plain
//! minimax over every ply of both sides.

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

/// Bredon's starter puzzles (`assets/puzzles.jsonl`, made by `assets/regenerate-puzzles.sh`),
/// every `every`th of them checked by its kind; how many were.
fn check_starter_puzzles(every: usize) -> usize {
    use bredon::engine::puzzles::Puzzle;
    let text = include_str!("../../assets/puzzles.jsonl");
    let puzzles: Vec<Puzzle> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut checked = 0;
    for p in puzzles.iter().step_by(every) {
        match p.kind {
            PuzzleKind::Win => check_win_puzzle(p),
            PuzzleKind::Survive => check_survival_puzzle(p),
            PuzzleKind::Gaelet => check_gaelet(p),
        }
        checked += 1;
    }
    checked
}

/// A "play and win" puzzle: a Tinuë, and its first plies are exactly those that win.
fn check_win_puzzle(p: &bredon::engine::puzzles::Puzzle) {
    use bredon::engine::puzzles::winning_first_plies;
    use bredon::engine::tinue::{solve, Verdict};
    let pos = p.position().unwrap();
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

/// Issue 62: "play and survive" on 6x6, mined on the cheaper test: at least 20, every third
/// checked here as the smaller boards' are (all of them in `every_starter_puzzle_holds`).
#[test]
fn the_starter_sets_6x6_survival_puzzles_hold() {
    use bredon::engine::puzzles::starter_set;
    let six: Vec<_> = starter_set()
        .iter()
        .filter(|p| p.kind == PuzzleKind::Survive && p.size == 6 && p.retired.is_none())
        .collect();
    assert!(six.len() >= 20, "{} on 6x6", six.len());
    for p in six.iter().step_by(3) {
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

/// Whether `attacker` wins within `n` plies from `pos` whatever the other side plays: plain
/// minimax over every ply of both sides, with no table and no pruning but the first answer that
/// decides a node (independent of the search that mined the puzzles).
fn forces_win(pos: &mut Position, attacker: bredon::tak::Color, n: usize) -> bool {
    if n == 0 {
        return false;
    }
    let mut plies = Vec::new();
    pos.generate_plies(&mut plies);
    let attacking = pos.to_move() == attacker;
    let mut wins = |ply| {
        let undo = pos.play_unchecked(ply);
        let won = match pos.end() {
            Some(end) => end.winner() == Some(attacker),
            None => forces_win(pos, attacker, n - 1),
        };
        pos.undo(undo);
        won
    };
    match attacking {
        true => plies.into_iter().any(&mut wins),
        false => plies.into_iter().all(&mut wins),
    }
}

/// A "play and win on flats" puzzle: its solution plays to a win on flats in `plies`; by plain
/// minimax, its first plies are exactly those that force a win within `plies`, and no win is
/// forced within two plies fewer; and the side to move has no Tinuë.
fn check_gaelet(p: &bredon::engine::puzzles::Puzzle) {
    use bredon::engine::tinue::{solve, Verdict};
    use bredon::tak::{GameResult, Ply};
    let pos = p.position().unwrap();
    let me = pos.to_move();
    let mut end = pos.clone();
    for ply in &p.solution {
        end.play(Ply::parse(ply).unwrap().ply).unwrap();
    }
    assert!(
        matches!(end.end(), Some(GameResult::Flats { winner, .. }) if winner == Some(me)),
        "{}: {:?} ends {:?}",
        p.tps,
        p.solution,
        end.end()
    );
    assert_eq!(p.solution.len(), p.plies, "{}", p.tps);
    assert_eq!(p.solution[0], p.first_plies[0], "{}", p.tps);
    assert!(!forces_win(&mut pos.clone(), me, p.plies - 2), "{}", p.tps);
    let mut plies = Vec::new();
    pos.generate_plies(&mut plies);
    let mut winning: Vec<String> = plies
        .into_iter()
        .filter(|&ply| {
            let mut after = pos.clone();
            after.play(ply).unwrap();
            match after.end() {
                Some(end) => end.winner() == Some(me),
                None => forces_win(&mut after, me, p.plies - 1),
            }
        })
        .map(|ply| pos.ptn(ply))
        .collect();
    let mut stored = p.first_plies.clone();
    winning.sort();
    stored.sort();
    assert_eq!(winning, stored, "{}", p.tps);
    assert_eq!(
        solve(&pos, 1_000_000).verdict,
        Verdict::NoTinue,
        "{}",
        p.tps
    );
}

#[test]
fn the_starter_set_has_gaelets_that_hold_by_plain_minimax() {
    use bredon::engine::puzzles::starter_set;
    let gaelets: Vec<_> = starter_set()
        .iter()
        .filter(|p| p.kind == PuzzleKind::Gaelet && p.retired.is_none())
        .collect();
    assert!(gaelets.len() >= 40, "{} Gaelets", gaelets.len());
    for p in gaelets {
        check_gaelet(p);
    }
}
