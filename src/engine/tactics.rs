//! What a ply did that needs no search's judgement, found exactly by the rules and the Tinuë
//! solver, for every judge alike (Bredon's own analysis and a TEI engine's): a road in one
//! missed or left open, a Tinuë missed, made, or walked into, with the ply that would have held.

use super::tinue::{self, Verdict};
use crate::tak::{Color, Ply, Position};

/// A judgement on a ply, as PTN writes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mark {
    /// `!`: a ply that makes Tinuë, or finds a forced win the search had not seen.
    Good,
    /// `?`: costs between `MISTAKE` and `BLUNDER` of evaluation.
    Mistake,
    /// `??`: a road in one missed, a road in one left to the opponent, a forced win thrown
    /// away or walked into, or a loss of `BLUNDER` or more.
    Blunder,
}

impl Mark {
    pub fn ptn(self) -> &'static str {
        match self {
            Mark::Good => "!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// Whether each side's last ply kept a Tinuë it had (its next ply goes on with it, and is no
/// new find).
#[derive(Default)]
pub(super) struct Tinues([bool; 2]);

impl Tinues {
    /// The Tinuë the mover of `played` had before it, if any, and what the ply made of it.
    pub(super) fn around(
        &mut self,
        before: &Position,
        played: &crate::tak::Played,
        after: &Position,
    ) -> Option<TinueSeen> {
        let side = played.color.index();
        let seen = tinue_around(before, played.undo.ply, after, self.0[side]);
        self.0[side] = seen.as_ref().is_some_and(|t| t.kept);
        seen
    }
}

/// The escape a ply that walked into a Tinuë missed is looked for among every ply, as `bredon
/// tinue --defend` looks, each with the solver's `TINUE_NODES` (a reply that loses is mostly
/// proven in a few hundred nodes), and `ESCAPE_NODES` in all (a few seconds at most).
const ESCAPE_NODES: usize = 2_000_000;

/// The ply before a new Tinuë `seen` (found on the next ply) walked into it when its mover had
/// an escape: the blunder's words, naming the escape (the search's `best` tried first).
pub(super) fn walked_into(
    before: &Position,
    played: &crate::tak::Played,
    best: Option<Ply>,
    seen: &TinueSeen,
) -> Option<String> {
    if seen.going_on {
        return None;
    }
    let them = played.color.opponent();
    let limits = Tries {
        most: usize::MAX,
        nodes: TINUE_NODES,
        total: ESCAPE_NODES,
    };
    let escape = holding_ply(before, played, best, limits)?;
    Some(format!(
        "Walks into Tinuë: {} forces a road in {} plies ({}). {} would have held (no road in \
         one, no Tinuë for {}).",
        them.name(),
        seen.plies,
        seen.line,
        before.ptn(escape),
        them.name()
    ))
}

/// A Tinuë the mover had before a ply (a forced road longer than one ply), and what the ply
/// made of it.
pub(super) struct TinueSeen {
    /// The line the solver proved, in PTN.
    line: String,
    plies: usize,
    /// The ply keeps a forced road (by Tinuë after it, or it won).
    kept: bool,
    /// The mover's last ply had kept it already: this one goes on with it.
    going_on: bool,
}

/// The solver's budget per position in an analysis (about a tenth of a second at most).
const TINUE_NODES: usize = 50_000;

fn tinue_around(
    before: &Position,
    played: Ply,
    after: &Position,
    going_on: bool,
) -> Option<TinueSeen> {
    let Verdict::Tinue(line) = tinue::solve(before, TINUE_NODES).verdict else {
        return None;
    };
    if line.len() < 3 {
        return None;
    }
    let won = after
        .end()
        .and_then(|r| r.winner())
        .is_some_and(|w| w == before.to_move());
    // The line shown is the played one where it keeps the win, else the one missed.
    let kept_line = match won {
        true => Some(vec![played]),
        false => match tinue::solve_defence(after, TINUE_NODES).verdict {
            Verdict::Tinue(rest) => Some([vec![played], rest].concat()),
            _ => None,
        },
    };
    let kept = kept_line.is_some();
    let line = kept_line.unwrap_or(line);
    Some(TinueSeen {
        line: tinue::ptn_line(before, &line).join(" "),
        plies: line.len(),
        kept,
        going_on,
    })
}

/// Whether the game after a ply of `me` is won by `me`, and whether it is over.
pub(super) fn won_and_over(after: &Position, me: Color) -> (bool, bool) {
    let end = after.end();
    (end.and_then(|r| r.winner()) == Some(me), end.is_some())
}

/// What a ply did that needs no search's judgement, found exactly (by the rules and the Tinuë
/// solver), so every judge says it alike: a road in one missed, a Tak left unanswered (or one of
/// two answered) or a road in one opened (unless the mover was `lost_already` whatever it
/// played), a Tinuë missed, or one made. `best` is the judge's ply, tried first for one that
/// would have held.
pub(super) fn tactics(
    before: &Position,
    after: &Position,
    played: &crate::tak::Played,
    tinue: &Option<TinueSeen>,
    best: Option<Ply>,
    next: Option<Ply>,
    lost_already: bool,
) -> Option<(Mark, String)> {
    let me = played.color;
    let them = me.opponent();
    let (won, over) = won_and_over(after, me);
    let mut wins = Vec::new();
    before.road_wins(me, &mut wins);
    if !won {
        if let Some(&win) = wins.first() {
            let text = format!("Missed the road in one: {} wins at once.", before.ptn(win));
            return Some((Mark::Blunder, text));
        }
    }
    if !over && !lost_already && after.is_tak(them) {
        let answer = their_roads(after, them, next);
        let held = saving_ply(before, played, best)
            .map(|p| {
                format!(
                    " {} would have held (no road in one, no Tinuë for {}).",
                    before.ptn(p),
                    them.name()
                )
            })
            .unwrap_or_default();
        let (threats, left) = (threat_squares(before, them), threat_squares(after, them));
        let answered = threats.iter().filter(|s| !left.contains(s)).count();
        let text = match (before.is_tak(them), answered) {
            (true, 0) => format!(
                "Leaves the Tak unanswered: {} wins with {answer}.",
                them.name()
            ),
            (true, n) => format!(
                "Answers {} Tak of {}: {} still wins with {answer}.",
                number_word(n),
                number_word(threats.len()),
                them.name()
            ),
            (false, _) => format!("Opens a road in one for {}: {answer}.", them.name()),
        };
        return Some((Mark::Blunder, format!("{text}{held}")));
    }
    match tinue {
        Some(t) if !t.kept => Some((
            Mark::Blunder,
            format!(
                "Missed Tinuë: {} forces a road in {} plies.",
                t.line, t.plies
            ),
        )),
        Some(t) if !over && !t.going_on => Some((
            Mark::Good,
            format!(
                "Tinuë: a road in {} plies whatever the defence ({}).",
                t.plies, t.line
            ),
        )),
        _ => None,
    }
}

/// The plies of `them` that complete a road at once: the one the game went on with if it is one
/// of them, else one for each square a road is completed on ("e2 or c5").
fn their_roads(after: &Position, them: Color, next: Option<Ply>) -> String {
    let mut wins = Vec::new();
    after.road_wins(them, &mut wins);
    if let Some(next) = next.filter(|n| wins.contains(n)) {
        return after.ptn(next);
    }
    let mut squares = Vec::new();
    let mut names = Vec::new();
    for &w in &wins {
        let square = after.destination(w);
        if !squares.contains(&square) {
            squares.push(square);
            names.push(after.ptn(w));
        }
    }
    names.join(" or ")
}

/// The squares where `them` completes a road at once: one square, one threat.
fn threat_squares(pos: &Position, them: Color) -> Vec<crate::tak::Square> {
    let mut wins = Vec::new();
    pos.road_wins(them, &mut wins);
    let mut squares: Vec<_> = wins.iter().map(|&w| pos.destination(w)).collect();
    squares.sort_by_key(|s| s.index());
    squares.dedup();
    squares
}

/// The solver's budget for each ply tried as the one that would have held.
const HOLD_NODES: usize = 10_000;
/// Most plies tried for it (each a Tinuë search): a blunder's comment stays cheap.
const HOLD_TRIES: usize = 40;

/// Whether `me` has a ply in `before` that leaves the opponent no road in one: a Tak that no
/// ply answers is no blunder.
pub(super) fn can_stop_roads(before: &Position, me: Color) -> bool {
    let mut plies = Vec::new();
    before.generate_plies(&mut plies);
    let mut scratch = before.clone();
    plies.into_iter().any(|ply| {
        let undo = scratch.play_unchecked(ply);
        let stops = match scratch.end() {
            Some(end) => end.winner() != Some(me.opponent()),
            None => !scratch.is_tak(me.opponent()),
        };
        scratch.undo(undo);
        stops
    })
}

/// A ply in `before`, other than the one `played`, after which the opponent has no road in one
/// and no Tinuë the solver finds (the search's best first), if one is found among the first
/// `HOLD_TRIES`.
fn saving_ply(before: &Position, played: &crate::tak::Played, best: Option<Ply>) -> Option<Ply> {
    let limits = Tries {
        most: HOLD_TRIES,
        nodes: HOLD_NODES,
        total: usize::MAX,
    };
    holding_ply(before, played, best, limits)
}

/// How far `holding_ply` looks: at most `most` plies solved, `nodes` for the solver on each,
/// `total` nodes in all.
struct Tries {
    most: usize,
    nodes: usize,
    total: usize,
}

/// `saving_ply` within `limits`. The ply played is passed over: it is the one that did not
/// hold, and the solver's nodes go to the others.
fn holding_ply(
    before: &Position,
    played: &crate::tak::Played,
    best: Option<Ply>,
    limits: Tries,
) -> Option<Ply> {
    let them = played.color.opponent();
    let played = played.undo.ply;
    let mut plies = Vec::new();
    before.generate_plies(&mut plies);
    let mut scratch = before.clone();
    let (mut tries, mut spent) = (0, 0);
    best.into_iter()
        .chain(plies.into_iter().filter(|&p| Some(p) != best))
        .filter(|&p| p != played)
        .find(|&ply| {
            if tries >= limits.most || spent >= limits.total {
                return false;
            }
            let undo = scratch.play_unchecked(ply);
            let holds = match scratch.end() {
                Some(end) => end.winner() != Some(them),
                None if scratch.is_tak(them) => false,
                None => {
                    tries += 1;
                    let solved = tinue::solve(&scratch, limits.nodes);
                    spent += solved.nodes;
                    solved.verdict == Verdict::NoTinue
                }
            };
            scratch.undo(undo);
            holds
        })
}

/// "one", "two", ... for the few threats a position has.
fn number_word(n: usize) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        n => n.to_string(),
    }
}
