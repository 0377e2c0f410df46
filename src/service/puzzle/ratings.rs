//! Puzzle ratings: Glicko-2 for each solver (per server) and each puzzle (shared by every
//! server), moved once per attempt; the choice of a puzzle near a solver's rating; the ranking.

use super::super::*;
use super::{puzzle_by_number, PuzzleChoice};
use crate::engine::puzzles::{starter_set, Difficulty};
use crate::ratings::{first_glicko, puzzle_result};
use crate::store::PuzzleChange;

/// A newcomer's puzzle-rating deviation: smaller than a game rating's first 350, so that one
/// puzzle moves a newcomer by a couple of hundred points at most, not five hundred (puzzles
/// come many a day).
const PLAYER_DEVIATION: f64 = 200.0;

/// A new puzzle's deviation: its first rating is a guess from its length and the solver's
/// effort, so the first solvers move it quickly.
const PUZZLE_DEVIATION: f64 = 200.0;

impl Service {
    /// Moves the solver's and the puzzle's ratings once per attempt; says how the solver's moved.
    pub(super) fn rate(
        &self,
        ctx: &Ctx,
        a: &PuzzleAttempt,
        solved: bool,
        change: &mut PuzzleChange,
    ) -> Result<String, Refusal> {
        let mut player = self.puzzle_record(ctx.guild, &a.solver)?;
        let mut rating = self.puzzle_glicko_record(a.puzzle)?;
        // The name the solver goes by now, for the ranking.
        player.player = a.solver.clone();
        let before = player.rating.rating;
        puzzle_result(&mut player.rating, &mut rating.rating, solved);
        match solved {
            true => (player.solved += 1, rating.solved += 1),
            false => (player.failed += 1, rating.failed += 1),
        };
        if !player.seen.contains(&a.puzzle) {
            player.seen.push(a.puzzle);
        }
        let text = format!("Puzzle rating {before:.0} → {:.0}.", player.rating.rating);
        change.player = Some(player);
        change.rating = Some(rating);
        Ok(text)
    }

    pub(super) fn puzzle_record(
        &self,
        guild: u64,
        user: &PlayerRef,
    ) -> Result<PuzzlePlayer, Refusal> {
        Ok(self
            .store
            .puzzle_player(guild, user.id)?
            .unwrap_or_else(|| PuzzlePlayer {
                guild,
                player: user.clone(),
                rating: first_glicko(1500.0, PLAYER_DEVIATION),
                solved: 0,
                failed: 0,
                seen: Vec::new(),
            }))
    }

    pub(super) fn puzzle_glicko_record(&self, id: u32) -> Result<PuzzleRating, Refusal> {
        let puzzle = puzzle_by_number(id)?;
        Ok(self
            .store
            .puzzle_rating(id)?
            .unwrap_or_else(|| PuzzleRating {
                puzzle: id,
                rating: first_glicko(puzzle.first_rating(), PUZZLE_DEVIATION),
                solved: 0,
                failed: 0,
            }))
    }

    pub(in crate::service) fn puzzle_glicko(&self, id: u32) -> Result<Glicko, Refusal> {
        Ok(self.puzzle_glicko_record(id)?.rating)
    }

    /// A puzzle for `ctx.user`: of the size and difficulty asked, not had before, rated nearest
    /// their puzzle rating (one of the five nearest, so two players do not all get the same).
    pub(super) fn choose_puzzle(&self, ctx: &Ctx, choice: PuzzleChoice) -> Result<u32, Refusal> {
        let player = self.puzzle_record(ctx.guild, &ctx.user)?;
        let mut fits = Vec::new();
        for (i, p) in starter_set().iter().enumerate() {
            let id = i as u32 + 1;
            if p.retired.is_some() {
                continue;
            }
            let rating = self.puzzle_glicko(id)?.rating;
            if p.kind != choice.kind
                || choice.size.is_some_and(|s| s != p.size)
                || choice
                    .difficulty
                    .is_some_and(|d| d != Difficulty::of(rating))
            {
                continue;
            }
            fits.push((id, rating));
        }
        if fits.is_empty() {
            // The sizes that have puzzles of the kind asked, as the choice could be met.
            let sizes: Vec<String> = {
                let of_kind = starter_set()
                    .iter()
                    .filter(|p| p.kind == choice.kind && p.retired.is_none());
                let mut s: Vec<usize> = of_kind.map(|p| p.size).collect();
                s.sort();
                s.dedup();
                s.iter().map(|n| format!("{n}x{n}")).collect()
            };
            return refuse(format!(
                "no puzzle of this kind is that size and difficulty; this kind has puzzles on {}",
                sizes.join(", ")
            ));
        }
        let fresh: Vec<(u32, f64)> = fits
            .iter()
            .copied()
            .filter(|(id, _)| !player.seen.contains(id))
            .collect();
        let mut pool = if fresh.is_empty() { fits } else { fresh };
        let target = player.rating.rating;
        pool.sort_by(|a, b| (a.1 - target).abs().total_cmp(&(b.1 - target).abs()));
        pool.truncate(5);
        let pick = fnv1a(
            ctx.now_ms
                .to_le_bytes()
                .into_iter()
                .chain(ctx.user.id.to_le_bytes()),
        );
        Ok(pool[(pick % pool.len() as u64) as usize].0)
    }

    /// A server's puzzle solvers, best rated first.
    pub fn puzzle_leaderboard(&self, ctx: &Ctx) -> Result<Vec<PuzzlePlayer>, Refusal> {
        let mut players = self.store.puzzle_players(ctx.guild)?;
        players.sort_by(|a, b| b.rating.rating.total_cmp(&a.rating.rating));
        Ok(players)
    }
}
