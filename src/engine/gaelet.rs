//! "Play and win on flats" puzzles (Gaelets): near the end of a game, where a reserve or the
//! board can run out within a few plies, the side to move forces the game to end with more flats
//! (komi counted) whatever the opponent replies, and only one first ply, or two, does it. The
//! full-width search of `forced` proves each line; a position without a Tinuë of its own is
//! required, so the answer is a flat race rather than a road.

use super::forced::{longest_defence_of_win, shortest_win, Shortest};
use super::puzzles::{Puzzle, PuzzleKind, MOST_FIRST_PLIES};
use super::tinue::{ptn_line, solve, Verdict};
use crate::tak::{Color, Game, GameResult, Ply, Position};

/// The longest Gaelet a puzzle may have, in plies: the search is full width on both sides, so
/// each two plies more cost about a hundred times the positions.
pub const LONGEST_GAELET: usize = 5;

/// What makes a position a Gaelet: the shortest forced line (ending on flats) and every first
/// ply that forces a win within as many plies.
pub struct Gaelet {
    pub line: Vec<Ply>,
    pub first_plies: Vec<Ply>,
    pub nodes: usize,
}

/// Whether a Gaelet is looked for in `pos`: a reserve of at most `LONGEST_GAELET` pieces, or at
/// most a row of empty squares. Where the board could fill only by spreads covering many squares
/// the full-width search costs most and a win on flats is rare; puzzles come from the end.
pub fn near_the_end(pos: &Position) -> bool {
    let low = |color: Color| pos.reserve(color).total() as usize <= LONGEST_GAELET;
    low(Color::White) || low(Color::Black) || pos.empty_squares().count() as usize <= pos.size()
}

/// The quickest win on flats the side to move in `pos` forces, three plies at least and at most
/// `LONGEST_GAELET` (it has no road in one, and the line ends on flats), and the positions the
/// search took; `None` if there is none, `pos` is not `near_the_end`, or `budget` ran out.
pub fn forced_flat_win(pos: &Position, budget: usize) -> Option<(Vec<Ply>, usize)> {
    let me = pos.to_move();
    if pos.is_over() || pos.is_opening_swap() || pos.is_tak(me) || !near_the_end(pos) {
        return None;
    }
    let found = shortest_win(pos, LONGEST_GAELET, budget);
    match found.shortest {
        Shortest::Line(line) if line.len() >= 3 && ends_on_flats(pos, &line, me) => {
            Some((line, found.nodes))
        }
        _ => None,
    }
}

/// Whether the side to move in `pos` must find one of at most `MOST_FIRST_PLIES` first plies
/// of a `forced_flat_win` (`line`, found in `nodes` positions): it has no Tinuë, and each of its
/// first plies was decided within `budget` positions.
pub fn gaelet(pos: &Position, line: Vec<Ply>, nodes: usize, budget: usize) -> Option<Gaelet> {
    let roads = solve(pos, budget);
    if !matches!(roads.verdict, Verdict::NoTinue) {
        return None;
    }
    let mut nodes = nodes + roads.nodes;
    let mut first_plies = Vec::new();
    let mut plies = Vec::new();
    pos.generate_plies(&mut plies);
    for ply in plies {
        let mut after = pos.clone();
        after.play_unchecked(ply);
        // The line is the quickest, so no first ply wins at once.
        if after.is_over() {
            continue;
        }
        let defence = longest_defence_of_win(&after, line.len() - 1, budget);
        nodes += defence.nodes;
        match defence.shortest {
            Shortest::Line(_) => first_plies.push(ply),
            Shortest::NoneWithin => {}
            Shortest::Unknown => return None,
        }
        if first_plies.len() > MOST_FIRST_PLIES {
            return None;
        }
    }
    // The line's first ply first.
    first_plies.sort_by_key(|&p| p != line[0]);
    Some(Gaelet {
        line,
        first_plies,
        nodes,
    })
}

/// Whether `line` from `pos` ends the game with `winner` ahead on flats.
fn ends_on_flats(pos: &Position, line: &[Ply], winner: Color) -> bool {
    let mut end = pos.clone();
    for &ply in line {
        end.play_unchecked(ply);
    }
    matches!(end.end(), Some(GameResult::Flats { winner: w, .. }) if w == Some(winner))
}

/// The defender's reply (the defender is to move in `pos`) after which the side that just moved
/// forces no win within `most - 1` plies more, if one is found within `budget` positions each.
pub fn escape(pos: &Position, most: usize, budget: usize) -> Option<Ply> {
    let attacker = pos.to_move().opponent();
    let mut replies = Vec::new();
    pos.generate_plies(&mut replies);
    replies.into_iter().find(|&reply| {
        let mut after = pos.clone();
        after.play_unchecked(reply);
        match after.end() {
            Some(end) => end.winner() != Some(attacker),
            None => {
                let left = most.saturating_sub(1);
                matches!(
                    shortest_win(&after, left, budget).shortest,
                    Shortest::NoneWithin
                )
            }
        }
    })
}

/// The Gaelets of one game: each position, from the third move on, with a `forced_flat_win`
/// that its side to move did not have at its previous turn (where the win appeared) and that
/// `gaelet` accepts.
pub fn mine_gaelets(game: &Game, origin: &str, budget: usize) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut pos = game.start().clone();
    let mut had = [false; 2];
    for (i, played) in game.plies().iter().enumerate() {
        let me = pos.to_move();
        let win = match pos.move_number() >= 3 {
            true => forced_flat_win(&pos, budget),
            false => None,
        };
        let fresh = !had[me.index()];
        had[me.index()] = win.is_some();
        if let (Some((line, nodes)), true) = (win, fresh) {
            if let Some(found) = gaelet(&pos, line, nodes, budget) {
                out.push(puzzle(&pos, &found, origin, i));
            }
        }
        pos.play_unchecked(played.undo.ply);
    }
    out
}

fn puzzle(pos: &Position, found: &Gaelet, origin: &str, index: usize) -> Puzzle {
    Puzzle {
        solution: ptn_line(pos, &found.line),
        first_plies: found.first_plies.iter().map(|&p| pos.ptn(p)).collect(),
        plies: found.line.len(),
        nodes: found.nodes,
        ..Puzzle::at(
            pos,
            PuzzleKind::Gaelet,
            format!("{origin} ply {}", index + 1),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(tps: &str) -> Position {
        Position::from_tps(tps).unwrap()
    }

    #[test]
    fn a_flat_race_won_in_five_plies_is_a_gaelet_with_its_one_first_ply() {
        // From a game of `medium` against `easy` on 4x4: three squares will be empty after
        // White's a4>; White fills the last but one and the last, ahead on flats.
        let pos = position("1,2,1,1S/x,2,1,2/12,2,112S,1/21112S,1,1,x 1 15");
        let (line, nodes) = forced_flat_win(&pos, 200_000).expect("a forced win on flats");
        assert_eq!(line.len(), 5);
        assert!(ends_on_flats(&pos, &line, Color::White));
        let found = gaelet(&pos, line, nodes, 200_000).expect("a Gaelet");
        let first: Vec<String> = found.first_plies.iter().map(|&p| pos.ptn(p)).collect();
        assert_eq!(first, ["a4>"]);
        assert_eq!(found.line[0], found.first_plies[0]);
        // Filling a square at once instead leaves Black a reply that holds.
        let mut after = pos.clone();
        after.play(Ply::parse("a3").unwrap().ply).unwrap();
        assert!(escape(&after, 4, 200_000).is_some());
        after = pos.clone();
        after.play(found.line[0]).unwrap();
        assert_eq!(escape(&after, 4, 200_000), None);
    }

    #[test]
    fn a_position_far_from_the_end_or_won_at_once_is_no_gaelet() {
        // The opening of 6x6: no reserve or board can run out within five plies.
        let opening = position("x6/x6/x2,1,2,x2/x6/x6/x6 1 3");
        assert!(!near_the_end(&opening));
        assert!(forced_flat_win(&opening, 10_000).is_none());
        // White's last stone on the last square wins at once: no puzzle (one ply).
        let last = position("1,2,1,2/2,1,2,1/1,2,1,2/1,1,2,x 1 9");
        assert!(matches!(
            shortest_win(&last, LONGEST_GAELET, 10_000).shortest,
            Shortest::Line(l) if l.len() == 1
        ));
        assert!(forced_flat_win(&last, 10_000).is_none());
    }
}
