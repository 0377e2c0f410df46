//! Help with a puzzle: hints (where to look, then the ply) and giving up (the answer), for
//! every kind; either counts the attempt as failed for the ratings.

use super::*;

impl Service {
    /// A hint: first where the winning ply happens, then the ply itself. A hint counts as a
    /// failed attempt for the ratings. `tell_private` learns whether the answer is private
    /// (`Service::play_then`'s).
    pub fn puzzle_hint(
        &self,
        ctx: &Ctx,
        tell_private: impl FnOnce(bool),
    ) -> Result<Outcome, Refusal> {
        let s = self.current(ctx, tell_private)?;
        let pos = s.game.position();
        let hinted = match s.puzzle.kind {
            PuzzleKind::Win => winning_line(pos).and_then(|line| line.first().copied()),
            PuzzleKind::Survive => s.escape(),
            PuzzleKind::Gaelet => s.gaelet_line().and_then(|line| line.first().copied()),
        };
        let Some(hinted) = hinted else {
            let sought = match s.puzzle.kind {
                PuzzleKind::Win => "the road",
                PuzzleKind::Survive => "an escape",
                PuzzleKind::Gaelet => "the win on flats",
            };
            return refuse(format!(
                "Bredon could not find {sought} within its budget; nothing was changed"
            ));
        };
        let mut a = s.attempt.clone();
        a.hints += 1;
        let mut text = match a.hints {
            1 => format!("Hint: look at {}.", first_square(hinted)),
            _ => format!("Hint: play {}.", pos.ptn(hinted)),
        };
        let mut change = PuzzleChange::default();
        if let Some(line) = self.failed_once(ctx, &a, &mut change)? {
            text.push_str(&format!(
                " (A hint means this puzzle no longer counts as solved. {line})"
            ));
        }
        self.goes_on(ctx, a, change, text)
    }

    /// Giving up: the solution from where the attempt stands, and the attempt ends.
    /// `tell_private` as `puzzle_hint`'s.
    pub fn give_up_puzzle(
        &self,
        ctx: &Ctx,
        tell_private: impl FnOnce(bool),
    ) -> Result<Outcome, Refusal> {
        let s = self.current(ctx, tell_private)?;
        let pos = s.game.position();
        let a = &s.attempt;
        let mut text = match s.puzzle.kind {
            PuzzleKind::Win => {
                let line = match winning_line(pos) {
                    Some(line) => ptn_line(pos, &line).join(" "),
                    None => s.puzzle.solution.join(" "),
                };
                format!("Puzzle #{}: the winning line was {line}.", a.puzzle)
            }
            PuzzleKind::Survive => s.survival_answer(),
            PuzzleKind::Gaelet => s.gaelet_answer(),
        };
        let mut change = PuzzleChange {
            attempt: Some((a.seat, None, Some(a.seq))),
            ..PuzzleChange::default()
        };
        if let Some(line) = self.failed_once(ctx, a, &mut change)? {
            text.push(' ');
            text.push_str(&line);
        }
        self.puzzle_text(ctx, a, change, text)
    }
}
