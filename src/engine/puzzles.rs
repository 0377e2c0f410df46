//! Puzzles mined from games: positions where the side to move forces a road by Tinuë and only one
//! first ply (or a short list of them) does it. The solver proves each; its effort and the line's
//! length say how hard the puzzle is.

use super::forced::{shortest_tinue, without_circles, Shortest};
use super::tinue::{ptn_line, solve, solve_defence, Verdict};
use crate::tak::{Color, Game, Komi, Ply, Position, Setup};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The solver's budget for judging a puzzle's ply (and for each reply when a refutation is
/// sought): enough for every starter puzzle's line in well under a second.
pub const CHECK_NODES: usize = 400_000;

/// The budget for a puzzle's shortest line (hints, giving up; past it the solver's line stands
/// in, its circles cut out), as `bredon puzzles refine` gives it, so the line given up is the
/// stored one.
pub const LINE_NODES: usize = 200_000;

/// The quickest forced road from `pos` against the longest defence, or, past its budget, the
/// solver's line with its circles cut out: never a line that comes to a position twice. A
/// puzzle's hints and solution; its first ply is always taken as a solving ply.
pub fn winning_line(pos: &Position) -> Option<Vec<Ply>> {
    let Verdict::Tinue(line) = solve(pos, CHECK_NODES).verdict else {
        return None;
    };
    match shortest_tinue(pos, line.len(), LINE_NODES).shortest {
        Shortest::Line(shortest) => Some(shortest),
        _ => Some(without_circles(pos, &line)),
    }
}

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleKind {
    /// "Play and win": force a road by threats alone.
    #[default]
    Win,
    /// "Play and survive": find the ply that takes away the opponent's threatened Tinuë.
    Survive,
    /// "Play and win on flats" (a Gaelet): near the end, force the game to end with more flats.
    Gaelet,
}

impl PuzzleKind {
    fn is_win(&self) -> bool {
        *self == PuzzleKind::Win
    }
}

/// A puzzle: the side to move forces a road ("play and win"), escapes a threatened one ("play
/// and survive"), or forces a win on flats near the end ("play and win on flats").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    #[serde(default, skip_serializing_if = "PuzzleKind::is_win")]
    pub kind: PuzzleKind,
    pub tps: String,
    pub komi: String,
    pub size: usize,
    /// `white` or `black`: who is to move and wins.
    pub to_move: String,
    /// The shortest forced line: the quickest first ply, Bredon's longest defence, ..., the
    /// road (no position twice).
    pub solution: Vec<String>,
    /// Every first ply that forces the road (the solution's first among them).
    pub first_plies: Vec<String>,
    /// Plies to the road against the longest defence, the attacker playing its quickest.
    pub plies: usize,
    /// Proof-tree nodes the solver needed: with `plies`, the puzzle's difficulty.
    pub nodes: usize,
    /// "Play and survive": the road the opponent would force given a free ply (PTN, from the
    /// opponent's first ply), shown once the puzzle is over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub threat: Vec<String>,
    /// Where it comes from: a file and the game and ply in it.
    pub origin: String,
    /// Why a puzzle is no longer given (its line too long): kept in the file so that the
    /// puzzles after it keep their numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retired: Option<String>,
}

impl Puzzle {
    /// A puzzle of `kind` at `pos` from `origin`, its answer still to be filled in.
    pub fn at(pos: &Position, kind: PuzzleKind, origin: String) -> Puzzle {
        Puzzle {
            kind,
            tps: pos.to_tps(),
            komi: pos.setup().komi.to_string(),
            size: pos.size(),
            to_move: match pos.to_move() {
                Color::White => "white".into(),
                Color::Black => "black".into(),
            },
            solution: Vec::new(),
            first_plies: Vec::new(),
            plies: 0,
            nodes: 0,
            threat: Vec::new(),
            origin,
            retired: None,
        }
    }

    /// The position to solve.
    pub fn position(&self) -> Result<Position, String> {
        let setup = Setup::new(self.size)?.with_komi(Komi::parse(&self.komi)?);
        Position::from_tps_with(&self.tps, setup)
    }

    /// The rating a puzzle starts with before anyone tried it: longer lines and more of the
    /// solver's effort make it harder (about 1000 for a three-ply road found in a few hundred
    /// nodes, 2000 for twenty plies or a search of a hundred thousand nodes).
    pub fn first_rating(&self) -> f64 {
        let effort = (self.nodes.max(1) as f64).log2();
        (700.0 + 35.0 * self.plies.saturating_sub(3) as f64 + 60.0 * effort).clamp(800.0, 2400.0)
    }
}

/// The longest solution a puzzle may have, in plies: past it a line is a marathon of threats
/// rather than a puzzle.
pub const LONGEST_SOLUTION: usize = 21;

/// A puzzle with its shortest forced line as its solution and that line's length as `plies`;
/// where the search runs out of its `budget` first, the solver's line with its circles cut out
/// (the same position again, the line goes on from its last coming); retired if no road is
/// forced within `LONGEST_SOLUTION` plies, or the line left is longer. The same puzzle and budget
/// always give the same answer (`bredon puzzles refine`). Puzzles of the other kinds are proven
/// by searches whose lines are the shortest already, and stay as they are.
pub fn refine(puzzle: &Puzzle, budget: usize) -> Result<Puzzle, String> {
    if puzzle.kind != PuzzleKind::Win {
        return Ok(puzzle.clone());
    }
    let pos = puzzle.position()?;
    let mut out = puzzle.clone();
    out.retired = None;
    let line = match shortest_tinue(&pos, LONGEST_SOLUTION, budget).shortest {
        Shortest::Line(line) => line,
        Shortest::NoneWithin => {
            out.retired = Some(format!("no road is forced within {LONGEST_SOLUTION} plies"));
            return Ok(out);
        }
        Shortest::Unknown => {
            let mut scratch = pos.clone();
            let mut stored = Vec::new();
            for text in &puzzle.solution {
                let ply = Ply::parse(text)?.ply;
                scratch.play(ply).map_err(|e| format!("{text}: {e}"))?;
                stored.push(ply);
            }
            without_circles(&pos, &stored)
        }
    };
    if line.len() > LONGEST_SOLUTION {
        out.retired = Some(format!(
            "its line is {} plies, longer than {LONGEST_SOLUTION}",
            line.len()
        ));
        return Ok(out);
    }
    out.solution = ptn_line(&pos, &line);
    out.plies = line.len();
    Ok(out)
}

/// How hard a puzzle is, in words, from its rating.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub fn of(rating: f64) -> Difficulty {
        match rating {
            r if r < 1300.0 => Difficulty::Easy,
            r if r < 1700.0 => Difficulty::Medium,
            _ => Difficulty::Hard,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// The starter set shipped in `assets/puzzles.jsonl`, numbered from 1 in the file's order (new
/// puzzles are only ever appended and old ones retired in place, so a number always means the
/// same puzzle).
pub fn starter_set() -> &'static [Puzzle] {
    static SET: OnceLock<Vec<Puzzle>> = OnceLock::new();
    SET.get_or_init(|| {
        include_str!("../../assets/puzzles.jsonl")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("the starter puzzles are valid JSON"))
            .collect()
    })
}

/// The defender's replies after the attacker's ply (the defender is to move in `pos`): those
/// that escape the road (end the game otherwise, or leave no Tinuë), and those the budget could
/// not decide.
pub struct Escapes {
    pub escapes: Vec<Ply>,
    pub unknown: Vec<Ply>,
    pub nodes: usize,
}

pub fn escapes(pos: &Position, budget: usize) -> Escapes {
    let mut replies = Vec::new();
    pos.generate_plies(&mut replies);
    let defender = pos.to_move();
    let mut found = Escapes {
        escapes: Vec::new(),
        unknown: Vec::new(),
        nodes: 0,
    };
    for reply in replies {
        let mut after = pos.clone();
        after.play_unchecked(reply);
        match after.end() {
            Some(end) if end.winner() != Some(defender.opponent()) => found.escapes.push(reply),
            Some(_) => {}
            None => {
                let solved = solve(&after, budget);
                found.nodes += solved.nodes;
                match solved.verdict {
                    Verdict::NoTinue => found.escapes.push(reply),
                    Verdict::Unknown => found.unknown.push(reply),
                    Verdict::Tinue(_) => {}
                }
            }
        }
    }
    found
}

/// At most this many first plies may win for a position to make a puzzle ("find the move").
pub const MOST_FIRST_PLIES: usize = 2;

/// The puzzles of one game: each position whose side to move has a Tinuë of three plies or more
/// that its previous ply did not already have (where the win appeared), with at most
/// `MOST_FIRST_PLIES` winning first plies, each proven within `budget` nodes.
pub fn mine(game: &Game, origin: &str, budget: usize) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let mut pos = game.start().clone();
    // Whether each side had a Tinuë at its previous turn.
    let mut had = [false; 2];
    for (i, played) in game.plies().iter().enumerate() {
        let me = pos.to_move();
        let solved = solve(&pos, budget);
        let line = match &solved.verdict {
            Verdict::Tinue(line) => Some(line.clone()),
            _ => None,
        };
        let fresh = !had[me.index()];
        had[me.index()] = line.is_some();
        if let (Some(line), true) = (line, fresh) {
            if line.len() >= 3 {
                if let Some(first_plies) = winning_first_plies(&pos, budget, MOST_FIRST_PLIES) {
                    if first_plies.len() <= MOST_FIRST_PLIES {
                        let found = puzzle(&pos, &line, &first_plies, solved.nodes, origin, i);
                        // Only puzzles whose shortest line is short enough.
                        if let Some(p) = refine(&found, budget).ok().filter(|p| p.retired.is_none())
                        {
                            out.push(p);
                        }
                    }
                }
            }
        }
        pos.play_unchecked(played.undo.ply);
    }
    out
}

fn puzzle(
    pos: &Position,
    line: &[Ply],
    first_plies: &[Ply],
    nodes: usize,
    origin: &str,
    index: usize,
) -> Puzzle {
    Puzzle {
        solution: ptn_line(pos, line),
        first_plies: first_plies.iter().map(|&p| pos.ptn(p)).collect(),
        plies: line.len(),
        nodes,
        ..Puzzle::at(pos, PuzzleKind::Win, format!("{origin} ply {}", index + 1))
    }
}

/// The first plies that force the road (a win at once, or Tak that keeps Tinuë whatever the
/// reply), wins at once first; it stops once more than `most` are found. `None` if one of them
/// could not be decided within `budget`.
pub fn winning_first_plies(pos: &Position, budget: usize, most: usize) -> Option<Vec<Ply>> {
    let me = pos.to_move();
    let mut plies = Vec::new();
    pos.generate_plies(&mut plies);
    let mut after = pos.clone();
    let mut at_once = |ply: Ply| {
        let undo = after.play_unchecked(ply);
        let won = match after.end() {
            Some(end) => Some(end.winner() == Some(me)),
            None => after.is_tak(me).then_some(false),
        };
        after.undo(undo);
        won
    };
    // Some(true): wins at once; Some(false): makes Tak; None: neither (or loses).
    let kinds: Vec<(Ply, Option<bool>)> = plies.iter().map(|&p| (p, at_once(p))).collect();
    let mut winning: Vec<Ply> = kinds
        .iter()
        .filter(|(_, k)| *k == Some(true))
        .map(|(p, _)| *p)
        .collect();
    for (ply, _) in kinds.iter().filter(|(_, k)| *k == Some(false)) {
        if winning.len() > most {
            break;
        }
        let mut after = pos.clone();
        after.play_unchecked(*ply);
        match solve_defence(&after, budget).verdict {
            Verdict::Tinue(_) => winning.push(*ply),
            Verdict::NoTinue => {}
            Verdict::Unknown => return None,
        }
    }
    Some(winning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_with_a_unique_tinue_yields_its_puzzle_once() {
        // From a `bredon match` game: White to move has 2b2+ a1 2b1>, and goes on to play it.
        let tps = "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11";
        let ptn = format!("[TPS \"{tps}\"]\n[Size \"5\"]\n\n11. 2b2+ a1 12. 2b1>\n");
        let game = Game::from_ptn(&ptn).unwrap();
        let found = mine(&game, "test.ptn game 1", 100_000);
        assert_eq!(found.len(), 1, "{found:?}");
        let p = &found[0];
        assert_eq!(p.tps, tps);
        assert_eq!(p.to_move, "white");
        assert_eq!(p.first_plies, ["2b2+"]);
        assert_eq!(p.solution.first().map(String::as_str), Some("2b2+"));
        assert_eq!((p.plies, p.size), (3, 5));
        assert_eq!(p.origin, "test.ptn game 1 ply 1");
    }

    #[test]
    fn the_winning_first_plies_are_all_found() {
        // Roads in one on rows 2 and 4 (flat or capstone on e2 or e4): too many for a puzzle.
        let pos = Position::from_tps("x5/1,1,1,1,x/x5/1,1,1,1,x/2,2,x,2,2S 1 7").unwrap();
        let winning: Vec<String> = winning_first_plies(&pos, 10_000, 10)
            .unwrap()
            .into_iter()
            .map(|p| pos.ptn(p))
            .collect();
        for ply in ["e2", "Ce2", "e4", "Ce4"] {
            assert!(winning.iter().any(|w| w == ply), "{ply} in {winning:?}");
        }
        // Past `most`, nothing more is solved.
        assert!(winning.len() <= 11, "{winning:?}");
    }
}
