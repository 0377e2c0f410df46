//! "Play and survive" puzzles: the solver has one ply to take away the opponent's threatened
//! Tinuë. A ply after which the solver proves no road forced (or one of the puzzle's proven
//! escapes) solves it; any other is refuted by the road that follows, and the position stays.

use super::*;
use crate::tak::Ply;

impl Service {
    /// The solver's one ply of a "play and survive" puzzle.
    pub(super) fn survival_ply(
        &self,
        ctx: &Ctx,
        mut s: Standing,
        text: &str,
    ) -> Result<Outcome, Refusal> {
        let me = s.game.position().to_move();
        let them = me.opponent();
        let (_, ptn, _) = s.play(text)?;
        let after = s.game.position().clone();
        let name = s.attempt.solver.name.clone();
        if let Some(end) = after.end() {
            if end.winner() == Some(them) {
                let why = format!("{ptn} ends the game: {}", end.describe(after.setup().komi));
                return self.wrong(ctx, s, &why);
            }
            let how = won(end);
            return self.solved(ctx, s, format!("{name} played {ptn}"), how);
        }
        let mut road = Vec::new();
        after.road_wins(them, &mut road);
        if let Some(&win) = road.first() {
            let why = format!(
                "{ptn} leaves {} a road in one: {}",
                side_name(them),
                after.ptn(win)
            );
            return self.wrong(ctx, s, &why);
        }
        let verdict = match solve(&after, CHECK_NODES).verdict {
            Verdict::Unknown if s.puzzle.first_plies.contains(&ptn) => Verdict::NoTinue,
            known => known,
        };
        match verdict {
            Verdict::NoTinue => {
                let played = format!(
                    "{name} played {ptn}: {} no longer forces a road",
                    side_name(them)
                );
                self.solved(ctx, s, played, "the threat is gone!")
            }
            Verdict::Tinue(line) => {
                let line = ptn_line(&after, &line).join(" ");
                let why = format!(
                    "after {ptn}, {} still forces a road: {line}",
                    side_name(them)
                );
                self.wrong(ctx, s, &why)
            }
            Verdict::Unknown => refuse(format!(
                "Bredon could not decide within its budget whether {ptn} escapes; nothing was \
                 changed: try the ply you are surest of"
            )),
        }
    }
}

impl Standing {
    /// The escape a hint points at: the puzzle's first, from its position.
    pub(super) fn escape(&self) -> Option<Ply> {
        let first = self.puzzle.first_plies.first()?;
        Some(Ply::parse(first).ok()?.ply)
    }

    /// What giving up a "play and survive" puzzle tells: its escapes and the threat.
    pub(super) fn survival_answer(&self) -> String {
        let them = side_name(self.game.position().to_move().opponent());
        let mut text = format!(
            "Puzzle #{}: the escape was {}.",
            self.attempt.puzzle,
            self.puzzle.first_plies.join(" or ")
        );
        if !self.puzzle.threat.is_empty() {
            text.push_str(&format!(
                " Given a free ply, {them} would force a road: {}.",
                self.puzzle.threat.join(" ")
            ));
        }
        text
    }
}
