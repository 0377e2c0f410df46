//! "Play and survive" puzzles (Tinuë avoidance): the opponent threatens a Tinuë (given a free
//! ply, it would force a road), and only one ply, or two, of the side to move takes the threat
//! away. Each escape and each refutation is proven by the Tinuë
//! solver; a position any reply of which it cannot decide is passed over.

use super::puzzles::{Puzzle, PuzzleKind, MOST_FIRST_PLIES};
use super::tinue::{ptn_line, solve, solve_defence, Verdict};
use crate::tak::{Color, Game, Ply, Position};

/// Most replies left undecided by the first pass for a position still to be tried as a puzzle.
const MOST_OPEN: usize = 3;

/// The position with the other side to move, as if the side to move let its turn pass (no ply
/// of Tak does that; the question is what the opponent threatens).
pub fn passed(pos: &Position) -> Option<Position> {
    let tps = pos.to_tps();
    let mut fields: Vec<&str> = tps.split(' ').collect();
    let (side, number) = match pos.to_move() {
        Color::White => ("2", pos.move_number()),
        Color::Black => ("1", pos.move_number() + 1),
    };
    let number = number.to_string();
    fields[1] = side;
    fields[2] = &number;
    Position::from_tps_with(&fields.join(" "), *pos.setup()).ok()
}

/// What makes a position a "play and survive" puzzle: the opponent's threatened line (after a
/// passed turn), every escape, and the refutation of each other ply.
pub struct Survival {
    pub threat: Vec<Ply>,
    pub escapes: Vec<Ply>,
    pub nodes: usize,
}

/// Whether the side to move in `pos` must find one of at most `MOST_FIRST_PLIES` escapes from a
/// threatened Tinuë: it has no road in one and no Tinuë of its own, the opponent would force a
/// road after a passed turn, at least `MOST_FIRST_PLIES + 2` plies leave the opponent no road in
/// one (so stopping a Tak does not give the answer away), and every reply was decided within
/// eight times `budget` nodes.
pub fn survival(pos: &Position, budget: usize) -> Option<Survival> {
    let (me, them) = (pos.to_move(), pos.to_move().opponent());
    if pos.is_over() || pos.is_opening_swap() || pos.is_tak(me) {
        return None;
    }
    let threat = match solve(&passed(pos)?, budget).verdict {
        Verdict::Tinue(line) => line,
        _ => return None,
    };
    if !matches!(solve(pos, budget).verdict, Verdict::NoTinue) {
        return None;
    }
    // Lost whatever it plays (one search over every reply), or not known to escape: no puzzle.
    if !matches!(solve_defence(pos, budget).verdict, Verdict::NoTinue) {
        return None;
    }
    let mut replies = Vec::new();
    pos.generate_plies(&mut replies);
    let (mut escapes, mut holding) = (Vec::new(), Vec::new());
    for reply in replies {
        let mut after = pos.clone();
        after.play_unchecked(reply);
        match after.end() {
            Some(end) if end.winner() != Some(them) => escapes.push(reply),
            Some(_) => {}
            None if after.is_tak(them) => {}
            None => holding.push((reply, after)),
        }
    }
    // Where the road in one leaves few plies, the escape is no find.
    if holding.len() < MOST_FIRST_PLIES + 2 {
        return None;
    }
    // Each reply within `budget` first (most positions have many escapes and stop early), the
    // few left open with eight times as much once the position is otherwise a puzzle.
    let (mut nodes, mut open) = (0, Vec::new());
    for (reply, after) in holding {
        let solved = solve(&after, budget);
        nodes += solved.nodes;
        match solved.verdict {
            Verdict::NoTinue => escapes.push(reply),
            Verdict::Unknown => open.push((reply, after)),
            Verdict::Tinue(_) => {}
        }
        // Many replies the solver cannot decide within `budget`: too open a position to prove
        // a puzzle of cheaply (each would take eight times as much), passed over at once.
        if escapes.len() > MOST_FIRST_PLIES || open.len() > MOST_OPEN {
            return None;
        }
    }
    for (reply, after) in open {
        let solved = solve(&after, 8 * budget);
        nodes += solved.nodes;
        match solved.verdict {
            Verdict::NoTinue => escapes.push(reply),
            Verdict::Unknown => return None,
            Verdict::Tinue(_) => {}
        }
        if escapes.len() > MOST_FIRST_PLIES {
            return None;
        }
    }
    (!escapes.is_empty()).then_some(Survival {
        threat,
        escapes,
        nodes,
    })
}

/// The "play and survive" puzzles of one game: each position, from the third move on, that
/// `survival` accepts.
pub fn mine_survival(game: &Game, origin: &str, budget: usize) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut pos = game.start().clone();
    for (i, played) in game.plies().iter().enumerate() {
        if pos.move_number() >= 3 {
            if let Some(found) = survival(&pos, budget) {
                out.push(puzzle(&pos, &found, origin, i));
            }
        }
        pos.play_unchecked(played.undo.ply);
    }
    out
}

fn puzzle(pos: &Position, found: &Survival, origin: &str, index: usize) -> Puzzle {
    let threat = passed(pos).map_or_else(Vec::new, |p| ptn_line(&p, &found.threat));
    Puzzle {
        solution: vec![pos.ptn(found.escapes[0])],
        first_plies: found.escapes.iter().map(|&p| pos.ptn(p)).collect(),
        plies: 1,
        nodes: found.nodes,
        threat,
        ..Puzzle::at(
            pos,
            PuzzleKind::Survive,
            format!("{origin} ply {}", index + 1),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_turn_gives_the_move_to_the_other_side() {
        let white = Position::from_tps("x4/x4/x,1,2,x/x4 1 3").unwrap();
        let black = passed(&white).unwrap();
        assert_eq!(black.to_tps(), "x4/x4/x,1,2,x/x4 2 3");
        assert_eq!(passed(&black).unwrap().to_tps(), "x4/x4/x,1,2,x/x4 1 4");
    }

    #[test]
    fn only_a_threatened_tinue_with_one_or_two_escapes_is_a_survival() {
        // Nothing threatened on a quiet board.
        let quiet = Position::from_tps("x4/x4/x,1,2,x/x4 1 3").unwrap();
        assert!(survival(&quiet, 10_000).is_none());
        // From the starter set: Black must play 2a3- or 2a3-11 (White threatens b2).
        let threatened =
            Position::from_tps("1,2,2,1/12S,1,1,2S/1,x,2S,1/1,11112S,2,1 2 13").unwrap();
        let found = survival(&threatened, 30_000).expect("a survival");
        let mut escapes: Vec<String> = found.escapes.iter().map(|&p| threatened.ptn(p)).collect();
        escapes.sort();
        assert_eq!(escapes, ["2a3-", "2a3-11"]);
        // White given the move here wins at once: it is no survival for White.
        assert!(survival(&passed(&threatened).unwrap(), 30_000).is_none());
    }
}
