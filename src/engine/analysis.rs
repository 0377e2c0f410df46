//! A finished game, judged ply by ply: the searcher evaluates every position, and each ply gets
//! a PTN mark (`??`, `?`, `!`) and a comment when it missed a road in one, left a road open,
//! missed a Tinuë (the solver, `tinue`, proves one before each ply), threw away or walked into
//! a forced win, lost much of its value, or made Tinuë (marked once, where the forced road
//! starts).

pub use super::tactics::Mark;
use super::tactics::{tactics, walked_into, won_and_over, TinueSeen, Tinues};
use super::{search, Limits, WIN, WIN_SOON};
use crate::tak::{Color, Game, GameResult, Ply, Position, PtnNote};

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

impl Judgement {
    /// Marks this ply, played from `before`, a blunder that walked into the Tinuë `seen` found
    /// on the next ply, when its mover had an escape and it is no blunder already; `words`
    /// writes the comment from the escape's words (a TEI judge adds its chances).
    pub(super) fn mark_walk_in(
        &mut self,
        before: &Position,
        played: &crate::tak::Played,
        seen: &TinueSeen,
        words: impl FnOnce(String) -> String,
    ) {
        if self.mark == Some(Mark::Blunder) {
            return;
        }
        if let Some(text) = walked_into(before, played, self.best, seen) {
            self.mark = Some(Mark::Blunder);
            self.comment = Some(words(text));
        }
    }
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
            judged.mark_walk_in(before, last, seen, |text| text);
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

fn blunder(comment: String) -> (Option<Mark>, Option<String>) {
    (Some(Mark::Blunder), Some(comment))
}
