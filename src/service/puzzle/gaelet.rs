//! "Play and win on flats" puzzles (Gaelets): the solver must end the game ahead on flats
//! within the puzzle's plies whatever Bredon replies. Any ply that keeps such a win forced within
//! the plies left counts (the full-width search judges it), and Bredon answers with its longest
//! defence; any other is refuted by the reply that holds out.

use super::*;
use crate::engine::forced::{longest_defence_of_win, shortest_win};
use crate::engine::gaelet::escape;
use crate::tak::{Ply, Position};

impl Service {
    /// A ply of the solver in a "play and win on flats" puzzle.
    pub(super) fn gaelet_ply(
        &self,
        ctx: &Ctx,
        mut s: Standing,
        text: &str,
    ) -> Result<Outcome, Refusal> {
        let me = s.game.position().to_move();
        // The plies the win may still take, this one included.
        let left = s.plies_left();
        let (_, ptn, _) = s.play(text)?;
        let after = s.game.position().clone();
        let name = s.attempt.solver.name.clone();
        if let Some(end) = after.end() {
            if end.winner() == Some(me) {
                return self.solved(ctx, s, format!("{name} played {ptn}"), won(end));
            }
            let why = format!("{ptn} ends the game: {}", end.describe(after.setup().komi));
            return self.wrong(ctx, s, &why);
        }
        if left < 3 {
            let why = format!("{ptn} does not end the game, and this was the last ply to win in");
            return self.wrong(ctx, s, &why);
        }
        match longest_defence_of_win(&after, left - 1, CHECK_NODES).shortest {
            Shortest::Line(defence) => {
                let answer = after.ptn(defence[0]);
                s.game
                    .play(defence[0])
                    .map_err(|e| Refusal(e.to_string()))?;
                if let Some(end) = s.game.position().end() {
                    let played = format!(
                        "{name} played {ptn}; every reply loses, and Bredon's {answer} ends the game"
                    );
                    return self.solved(ctx, s, played, won(end));
                }
                let text = format!(
                    "{name} played {ptn}. Bredon answers {answer}. The win is still forced, \
                     within {}: your move.",
                    crate::words::count(left as u32 - 2, "ply")
                );
                self.answered(ctx, s, [ptn, answer], text)
            }
            Shortest::NoneWithin => {
                let why = match escape(&after, left - 1, CHECK_NODES) {
                    Some(reply) => escaped_by(&after, &ptn, reply, left),
                    None => format!("{ptn} does not force a win within the plies left"),
                };
                self.wrong(ctx, s, &why)
            }
            Shortest::Unknown => refuse(format!(
                "Bredon could not decide within its budget whether {ptn} forces the win; \
                 nothing was changed: try the ply you are surest of"
            )),
        }
    }
}

/// Why `ptn` failed, Bredon's `reply` to it holding out: the reply ends the game (a draw, or
/// Bredon's win), or no win is forced within the plies left after it.
fn escaped_by(after: &Position, ptn: &str, reply: Ply, left: usize) -> String {
    let answer = after.ptn(reply);
    let mut then = after.clone();
    match then.play(reply).ok().and_then(|_| then.end()) {
        Some(end) => format!(
            "after {ptn}, Bredon answers {answer}, which ends the game: {}",
            end.describe(then.setup().komi)
        ),
        None => format!(
            "after {ptn}, Bredon answers {answer} and no win is forced within the {} left",
            crate::words::count(left as u32 - 2, "ply")
        ),
    }
}

impl Standing {
    /// The plies a Gaelet's win may still take from here: the puzzle's, less those played.
    pub(super) fn plies_left(&self) -> usize {
        self.puzzle.plies.saturating_sub(self.attempt.plies.len())
    }

    /// The quickest forced win from here within the plies left, if it is found.
    pub(super) fn gaelet_line(&self) -> Option<Vec<Ply>> {
        let pos: &Position = self.game.position();
        match shortest_win(pos, self.plies_left(), LINE_NODES).shortest {
            Shortest::Line(line) => Some(line),
            _ => None,
        }
    }

    /// What giving up a "play and win on flats" puzzle tells: the winning line from here.
    pub(super) fn gaelet_answer(&self) -> String {
        let pos = self.game.position();
        let line = match self.gaelet_line() {
            Some(line) => ptn_line(pos, &line).join(" "),
            None => self.puzzle.solution.join(" "),
        };
        format!(
            "Puzzle #{}: the winning line was {line}.",
            self.attempt.puzzle
        )
    }
}
