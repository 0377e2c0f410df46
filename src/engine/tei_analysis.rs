//! A finished game judged by an external TEI engine (the server's `BREDON_TEI_ENGINE`,
//! `bredon analyze --engine tei:...`). Each position gets the side to move's winning chance: the
//! engine's `wdl` where it reports one, else its score through a logistic. Each ply is marked by
//! the chance it gave away compared with the engine's own choice, so `?` and `??` mean the same
//! whichever engine judges. What needs no engine's judgement (a road in one missed, a Tak left
//! unanswered, a Tinuë made or missed) is found exactly, as Bredon's own analysis finds it.

use super::analysis::{Analysis, Judgement};
use super::tactics::{can_stop_roads, tactics, Mark, Tinues};
use super::tei::Client;
use crate::tak::{Color, Game, Ply, Position};
use std::time::Duration;

/// Winning chance given away by a mistake (`?`) and by a blunder (`??`): lichess's thresholds
/// for a mistake and a blunder, in the same terms.
pub const MISTAKE_CHANCE: f32 = 0.15;
pub const BLUNDER_CHANCE: f32 = 0.30;

/// Hundredths of a flat the chart draws for a chance (the logistic `tei` reads scores with),
/// held within four flats' worth of twenty so a won position stays on the chart.
fn chart_score(chance: f32) -> i32 {
    let p = chance.clamp(0.001, 0.999);
    (400.0 * (p / (1.0 - p)).log10())
        .round()
        .clamp(-2000.0, 2000.0) as i32
}

/// "Tiltak gives White 56% with a6, 39% after this ply": an engine's chances around a ply.
fn chances(engine: &str, side: Color, before: f32, after: f32, instead: &str) -> String {
    format!(
        "{engine} gives {} {:.0}%{instead}, {:.0}% after this ply",
        side.name(),
        before * 100.0,
        after * 100.0
    )
}

/// Analyses every position of `game` with `client` for `movetime` each, calling
/// `progress(done, total)` as it goes.
pub fn analyze_tei(
    game: &Game,
    client: &mut Client,
    movetime: Duration,
    mut progress: impl FnMut(usize, usize),
) -> Result<Analysis, String> {
    let start = game.start();
    let setup = start.setup();
    let start_tps = (*start != Position::new(*setup)).then(|| start.to_tps());
    let texts: Vec<String> = game.plies().iter().map(|p| p.ptn.clone()).collect();
    let total = texts.len() + 1;
    // Each position's engine ply and the side to move's chance.
    let mut judged: Vec<(Option<String>, f32)> = Vec::with_capacity(total);
    let mut pos = start.clone();
    for i in 0..total {
        let decided = (pos.ply_index() > 0).then(|| pos.end()).flatten();
        judged.push(match decided {
            Some(result) => (
                None,
                match result.winner() {
                    None => 0.5,
                    Some(w) if w == pos.to_move() => 1.0,
                    Some(_) => 0.0,
                },
            ),
            None => {
                let (ply, chance) =
                    client.judge(start_tps.as_deref(), setup, &texts[..i], movetime)?;
                (Some(ply), chance)
            }
        });
        progress(i + 1, total);
        if let Some(played) = game.plies().get(i) {
            pos.play_unchecked(played.undo.ply);
        }
    }
    let mut plies: Vec<Judgement> = Vec::with_capacity(texts.len());
    let mut pos = start.clone();
    let mut tinues = Tinues::default();
    // The position before the last ply judged, and that ply.
    let mut previous: Option<(Position, &crate::tak::Played)> = None;
    for (i, played) in game.plies().iter().enumerate() {
        let mut after = pos.clone();
        after.play_unchecked(played.undo.ply);
        let (best, before) = judged[i].clone();
        let chance_after = 1.0 - judged[i + 1].1;
        let best = best.and_then(|b| Ply::parse(&b).ok()).map(|p| p.ply);
        let lost = before - chance_after;
        let around =
            |instead: String| chances(&client.name, played.color, before, chance_after, &instead);
        let tinue = tinues.around(&pos, played, &after);
        // A Tinuë new on this ply: the opponent's ply before walked into it if it had an escape.
        if let (Some(seen), Some((earlier, last)), Some(j)) = (&tinue, &previous, plies.last_mut())
        {
            j.mark_walk_in(earlier, last, seen, |text| {
                let (was, left) = (judged[i - 1].1, 1.0 - judged[i].1);
                let odds = chances(&client.name, last.color, was, left, "");
                format!("{text} ({odds})")
            });
        }
        let next = game.plies().get(i + 1).map(|p| p.undo.ply);
        // Chances cannot tell a lost position from a forced loss: a Tak left is no blunder only
        // when no ply would have stopped every road in one.
        let lost_already =
            after.is_tak(played.color.opponent()) && !can_stop_roads(&pos, played.color);
        let exact = tactics(&pos, &after, played, &tinue, best, next, lost_already);
        let (mark, comment) = match exact {
            // The rules' and the solver's word first, the engine's chances after it.
            Some((mark, text)) => (
                Some(mark),
                Some(format!("{text} ({})", around(String::new()))),
            ),
            None => {
                let mark = match best {
                    // The opening plies place the opponent's piece: as in Bredon's own analysis,
                    // no chance given away marks them.
                    _ if pos.is_opening_swap() => None,
                    Some(b) if b == played.undo.ply => None,
                    _ if lost >= BLUNDER_CHANCE => Some(Mark::Blunder),
                    _ if lost >= MISTAKE_CHANCE => Some(Mark::Mistake),
                    _ => None,
                };
                let instead = best.map_or(String::new(), |b| format!(" with {}", pos.ptn(b)));
                (mark, mark.map(|_| around(instead)))
            }
        };
        plies.push(Judgement {
            color: played.color,
            best,
            best_score: chart_score(before),
            played_score: chart_score(chance_after),
            mark,
            comment,
        });
        previous = Some((pos, played));
        pos = after;
    }
    let white_view = judged
        .iter()
        .enumerate()
        .map(|(i, (_, chance))| {
            let white_moves = (start.ply_index() as usize + i).is_multiple_of(2);
            chart_score(if white_moves { *chance } else { 1.0 - chance })
        })
        .collect();
    Ok(Analysis { white_view, plies })
}
