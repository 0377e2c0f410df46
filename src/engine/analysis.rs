//! A finished game, judged ply by ply: the searcher evaluates every position, and each ply gets
//! a PTN mark (`??`, `?`, `!`) and a comment when it missed a road in one, left a road open,
//! missed a Tinuë (the solver, `tinue`, proves one before each ply), threw away or walked into
//! a forced win, lost much of its value, or made Tinuë (marked once, where the forced road
//! starts).

use super::tinue::{self, Verdict};
use super::{search, Limits, WIN, WIN_SOON};
use crate::tak::{Color, Game, GameResult, Ply, Position, PtnNote};

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

/// Evaluation lost by a mistake (`?`), in hundredths of a flat: a flat and a half, above the
/// searcher's noise between neighbouring positions.
pub const MISTAKE: i32 = 150;
/// Evaluation lost by a blunder (`??`): four flats.
pub const BLUNDER: i32 = 400;

/// What the analysis found about one ply.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub color: Color,
    /// The ply the search preferred (none when the game was already decided before it).
    pub best: Option<Ply>,
    /// The best ply's and the played ply's value, from the mover's view (hundredths of a flat;
    /// beyond ±`WIN_SOON` a forced win or loss).
    pub best_score: i32,
    pub played_score: i32,
    pub mark: Option<Mark>,
    pub comment: Option<String>,
}

/// A whole game's analysis.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The value of the start and of the position after every ply, from White's view.
    pub white_view: Vec<i32>,
    pub plies: Vec<Judgement>,
}

impl Analysis {
    /// How many plies of `color` carry `mark`.
    pub fn count(&self, color: Color, mark: Mark) -> usize {
        self.plies
            .iter()
            .filter(|j| j.color == color && j.mark == Some(mark))
            .count()
    }

    /// The PTN notes (marks and comments) for `Game::to_ptn_annotated`.
    pub fn notes(&self) -> Vec<PtnNote> {
        self.plies
            .iter()
            .map(|j| PtnNote {
                mark: j.mark.map_or("", Mark::ptn),
                comment: j.comment.clone(),
            })
            .collect()
    }

    /// One line per player, e.g. "White: 1 blunder (??), 2 mistakes (?), 1 good ply (!)".
    pub fn summary(&self, names: [&str; 2]) -> Vec<String> {
        [Color::White, Color::Black]
            .iter()
            .map(|&c| {
                let counts = [
                    (Mark::Blunder, "blunder", "??"),
                    (Mark::Mistake, "mistake", "?"),
                    (Mark::Good, "good ply", "!"),
                ]
                .iter()
                .map(|&(mark, word, sign)| {
                    let n = self.count(c, mark);
                    let word = match (n, word) {
                        (1, w) => w.to_string(),
                        (_, "good ply") => "good plies".to_string(),
                        (_, w) => format!("{w}s"),
                    };
                    format!("{n} {word} ({sign})")
                })
                .collect::<Vec<_>>()
                .join(", ");
                format!("{}: {counts}", names[c.index()])
            })
            .collect()
    }
}

/// A score in words from the mover's view: "+1.5" (flats), "a win in 3 plies", "a loss in 1 ply".
pub fn describe_score(score: i32) -> String {
    let plies = |n: i32| format!("{n} {}", if n == 1 { "ply" } else { "plies" });
    if score > WIN_SOON {
        format!("a win in {}", plies(WIN - score))
    } else if score < -WIN_SOON {
        format!("a loss in {}", plies(WIN + score))
    } else {
        format!("{:+.1}", score as f64 / 100.0)
    }
}

/// A score from `side`'s view in words that name the side, as every analysis comment writes
/// scores: "+1.5 for White", "a win in 3 plies for Black".
/// A forced road three plies or more away also says whose ply makes it: "a loss in 3 plies for
/// Black (on White's 2nd ply)".
pub fn describe_score_for(score: i32, side: Color) -> String {
    let mut words = format!("{} for {}", describe_score(score), side.name());
    let (plies, winner) = match score {
        s if s > WIN_SOON => (WIN - s, side),
        s if s < -WIN_SOON => (WIN + s, side.opponent()),
        _ => return words,
    };
    if plies >= 3 {
        // The winner makes the last ply, whoever moves first: theirs are half, rounded up.
        let own = (plies + 1) / 2;
        words.push_str(&format!(" (on {}'s {} ply)", winner.name(), ordinal(own)));
    }
    words
}

/// "1st", "2nd", "3rd", "4th"... "11th", "21st".
fn ordinal(n: i32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Scores past a forced result count as this many hundredths of a flat when measuring a loss.
const DECIDED: i32 = 2000;

fn capped(score: i32) -> i32 {
    score.clamp(-DECIDED, DECIDED)
}

/// Analyses every ply of `game` with `limits` per position, calling `progress(done, total)` as
/// it goes. Deterministic when `limits` has no time.
///
/// A played ply other than the best is searched again to the depth the best was found at (one
/// less, from the position after it), so both are seen to the same horizon: the side to move
/// gains from having the last ply of a search, and positions searched to different depths would
/// differ by that alone.
pub fn analyze(game: &Game, limits: &Limits, mut progress: impl FnMut(usize, usize)) -> Analysis {
    let plies = game.plies();
    let total = 2 * plies.len() + 1;
    // Every position's value, best ply and search depth, side to move's view.
    let mut pos = game.start().clone();
    let mut values: Vec<Value> = Vec::with_capacity(plies.len() + 1);
    for i in 0..=plies.len() {
        values.push(value(&pos, limits, i));
        progress(i + 1, total);
        if let Some(played) = plies.get(i) {
            pos.play_unchecked(played.undo.ply);
        }
    }
    let mut judgements: Vec<Judgement> = Vec::with_capacity(plies.len());
    let mut pos = game.start().clone();
    let mut tinues = Tinues::default();
    // The position before the last ply judged, and that ply: the one a Tinuë found now was
    // walked into by.
    let mut previous: Option<(Position, &crate::tak::Played)> = None;
    for (i, played) in plies.iter().enumerate() {
        let v = values[i];
        let mut after = pos.clone();
        after.play_unchecked(played.undo.ply);
        let played_score = if v.best == Some(played.undo.ply) {
            v.score
        } else if let Some(result) = after.end() {
            -ended(&after, result)
        } else {
            let same_depth = Limits {
                depth: Some(v.depth.saturating_sub(1).max(1)),
                nodes: Some(v.nodes.max(10_000) * 2),
                stop: limits.stop.clone(),
                ..Limits::default()
            };
            search(&after, same_depth, 0xA11B ^ i as u64).map_or(-values[i + 1].score, |f| -f.score)
        };
        progress(plies.len() + 2 + i, total);
        let tinue = tinues.around(&pos, played, &after);
        if let (Some(seen), Some((before, last)), Some(judged)) =
            (&tinue, &previous, judgements.last_mut())
        {
            if judged.mark != Some(Mark::Blunder) {
                if let Some(text) = walked_into(before, last, judged.best, seen) {
                    judged.mark = Some(Mark::Blunder);
                    judged.comment = Some(text);
                }
            }
        }
        let next = plies.get(i + 1).map(|p| p.undo.ply);
        let scores = (v.best, v.score, played_score);
        let (mark, comment) = judge(&pos, &after, played, &tinue, scores, next);
        judgements.push(Judgement {
            color: played.color,
            best: v.best,
            best_score: v.score,
            played_score,
            mark,
            comment,
        });
        previous = Some((pos, played));
        pos = after;
    }
    let white_view = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let white_moves = (game.start().ply_index() as usize + i).is_multiple_of(2);
            if white_moves {
                v.score
            } else {
                -v.score
            }
        })
        .collect();
    Analysis {
        white_view,
        plies: judgements,
    }
}

#[derive(Clone, Copy)]
struct Value {
    score: i32,
    best: Option<Ply>,
    depth: u32,
    nodes: u64,
}

/// The value of a position for the side to move, and the best ply: exact when the game is over.
fn value(pos: &Position, limits: &Limits, index: usize) -> Value {
    let exact = |score| Value {
        score,
        best: None,
        depth: 0,
        nodes: 0,
    };
    if pos.ply_index() > 0 {
        if let Some(result) = pos.end() {
            return exact(ended(pos, result));
        }
    }
    match search(pos, limits.clone(), 0xA11A ^ index as u64) {
        Some(found) => Value {
            score: found.score,
            best: Some(found.ply),
            depth: found.depth,
            nodes: found.nodes,
        },
        None => exact(0),
    }
}

fn ended(pos: &Position, result: GameResult) -> i32 {
    match result.winner() {
        None => 0,
        Some(w) if w == pos.to_move() => WIN,
        Some(_) => -WIN,
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

/// Plies tried for the escape a ply that walked into a Tinuë missed, each with the solver's
/// `TINUE_NODES`: every ply of most positions, as `bredon tinue --defend` tries them (a reply
/// that loses is mostly proven in a few hundred nodes).
const ESCAPE_TRIES: usize = 400;

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
    let me = played.color;
    let them = me.opponent();
    let best = best.filter(|&b| b != played.undo.ply);
    let escape = holding_ply(before, me, best, ESCAPE_TRIES, TINUE_NODES)?;
    (escape != played.undo.ply).then(|| {
        format!(
            "Walks into Tinuë: {} forces a road in {} plies ({}). {} would have held (no road \
             in one, no Tinuë for {}).",
            them.name(),
            seen.plies,
            seen.line,
            before.ptn(escape),
            them.name()
        )
    })
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
fn won_and_over(after: &Position, me: Color) -> (bool, bool) {
    let end = after.end();
    (end.and_then(|r| r.winner()) == Some(me), end.is_some())
}

/// Judges a ply: `scores` are the best ply, its score and the played ply's (the mover's view);
/// `next` is the ply the game went on with.
fn judge(
    before: &Position,
    after: &Position,
    played: &crate::tak::Played,
    tinue: &Option<TinueSeen>,
    scores: (Option<Ply>, i32, i32),
    next: Option<Ply>,
) -> (Option<Mark>, Option<String>) {
    let (best, best_score, played_score) = scores;
    let lost_already = best_score < -WIN_SOON;
    if let Some((mark, text)) = tactics(before, after, played, tinue, best, next, lost_already) {
        return (Some(mark), Some(text));
    }
    let me = played.color;
    let them = me.opponent();
    let (won, over) = won_and_over(after, me);
    let best_text = |best: Option<Ply>| {
        best.map(|b| {
            format!(
                " Best was {} ({}).",
                before.ptn(b),
                describe_score_for(best_score, me)
            )
        })
        .unwrap_or_default()
    };
    if best_score > WIN_SOON && played_score <= WIN_SOON && !won {
        return blunder(format!("Throws away a forced win.{}", best_text(best)));
    }
    if played_score < -WIN_SOON && !lost_already {
        return blunder(format!(
            "Walks into a forced win for {}: {} after it.{}",
            them.name(),
            describe_score_for(played_score, me),
            best_text(best)
        ));
    }
    // Tinuë the solver could not prove in its budget, seen as every reply losing at once.
    if played.tinue && !over && tinue.is_none() {
        return (
            Some(Mark::Good),
            Some("Tinuë: every reply loses.".to_string()),
        );
    }
    if played_score > WIN_SOON && best_score <= WIN_SOON && !over {
        return (
            Some(Mark::Good),
            Some(format!(
                "Finds {} that the search had not seen a ply earlier.",
                describe_score_for(played_score, me)
            )),
        );
    }
    // The opening plies place the opponent's piece: the evaluation says little about them.
    if before.is_opening_swap() {
        return (None, None);
    }
    let loss = capped(best_score) - capped(played_score);
    let detail = format!(
        "Costs {:.1} flats: {} after it.{}",
        loss as f64 / 100.0,
        describe_score_for(played_score, me),
        best_text(best)
    );
    if loss >= BLUNDER {
        (Some(Mark::Blunder), Some(detail))
    } else if loss >= MISTAKE {
        (Some(Mark::Mistake), Some(detail))
    } else {
        (None, None)
    }
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
        let held = saving_ply(before, me, best)
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

/// A ply of `me` in `before` after which the opponent has no road in one and no Tinuë the
/// solver finds (the search's best first), if one is found among the first `HOLD_TRIES`.
fn saving_ply(before: &Position, me: Color, best: Option<Ply>) -> Option<Ply> {
    holding_ply(before, me, best, HOLD_TRIES, HOLD_NODES)
}

/// `saving_ply` among the first `most` plies tried, with `nodes` for the solver on each.
fn holding_ply(
    before: &Position,
    me: Color,
    best: Option<Ply>,
    most: usize,
    nodes: usize,
) -> Option<Ply> {
    let them = me.opponent();
    let mut plies = Vec::new();
    before.generate_plies(&mut plies);
    let mut scratch = before.clone();
    let mut tries = 0;
    best.into_iter()
        .chain(plies.into_iter().filter(|&p| Some(p) != best))
        .find(|&ply| {
            if tries >= most {
                return false;
            }
            let undo = scratch.play_unchecked(ply);
            let holds = match scratch.end() {
                Some(end) => end.winner() != Some(them),
                None if scratch.is_tak(them) => false,
                None => {
                    tries += 1;
                    tinue::solve(&scratch, nodes).verdict == Verdict::NoTinue
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

fn blunder(comment: String) -> (Option<Mark>, Option<String>) {
    (Some(Mark::Blunder), Some(comment))
}
