//! Fair play in rated games: while a rated game is played, Bredon does not help either of its
//! players with it. Its analysis (`/analyze ptn:`), its pictures of a typed position
//! (`/position`) and a game against Bredon from a position are refused to a player when the
//! position they give is their rated game's as it stands, or one it reaches within two plies
//! (turned or mirrored alike: the same game for the rules). An unrated or finished game, and
//! someone else's, stay open to all.

use super::*;
use crate::tak::{Position, PtnFile};
use std::collections::HashSet;

/// Plies ahead of a rated game's position that a look-up may not reach: the player's next ply
/// and the reply to it.
const PLIES_AHEAD: usize = 2;

impl Service {
    /// Refuses `ctx.user` a look-up of `looked_up` when one of those positions is, as it stands
    /// or within two plies, the position of a rated game they are playing.
    pub fn refuse_rated_look_up(&self, ctx: &Ctx, looked_up: &[Position]) -> Result<(), Refusal> {
        if looked_up.is_empty() {
            return Ok(());
        }
        // Each position asked about, turned and mirrored once, whatever the games compared.
        let asked: Vec<(usize, Vec<u64>)> = looked_up
            .iter()
            .map(|p| (p.size(), turned_and_mirrored(p)))
            .collect();
        for game in self.store.all_live_games()? {
            let playing = game.players.iter().any(|p| p.id == ctx.user.id);
            let size = game.settings.size;
            if !playing || !game.settings.rated || asked.iter().all(|(s, _)| *s != size) {
                continue;
            }
            let Match::Tak(g) = Self::rebuild(&game)? else {
                continue;
            };
            let near = within_plies(g.position(), PLIES_AHEAD);
            let same = |(s, hashes): &(usize, Vec<u64>)| {
                *s == size && hashes.iter().any(|h| near.contains(h))
            };
            if asked.iter().any(same) {
                return refuse(format!(
                    "that is the position of your rated game #{} (as it stands, or within two \
                     plies of it): while it is played, Bredon does not analyse it, draw it or \
                     play from it for either player (fair play; see the README's grid). It is \
                     open to you again when the game ends",
                    game.shown_number()
                ));
            }
        }
        Ok(())
    }

    /// `refuse_rated_look_up` for a position or record as a user gives it: a TPS, or a PTN
    /// (every position of its lines). Text that cannot be read refuses nothing here: what
    /// reads it next says what is wrong.
    pub fn refuse_rated_text(
        &self,
        ctx: &Ctx,
        tps: Option<&str>,
        ptn: Option<&str>,
    ) -> Result<(), Refusal> {
        let mut positions: Vec<Position> = tps
            .and_then(|t| Position::from_tps(t).ok())
            .into_iter()
            .collect();
        positions.extend(ptn.map(positions_of_record).unwrap_or_default());
        self.refuse_rated_look_up(ctx, &positions)
    }
}

/// Every position of a PTN record's lines (the main line and each branch).
fn positions_of_record(text: &str) -> Vec<Position> {
    let Ok(file) = PtnFile::parse(text) else {
        return Vec::new();
    };
    let branches = file
        .branches
        .iter()
        .map(|b| file.replay_branch(&b.name).map(|(g, _)| g));
    let mut out = Vec::new();
    for game in std::iter::once(file.replay()).chain(branches).flatten() {
        let mut pos = game.start().clone();
        out.push(pos.clone());
        for played in game.plies() {
            pos.play_unchecked(played.undo.ply);
            out.push(pos.clone());
        }
    }
    out
}

/// The placement hashes of `pos` and of every position `plies` plies ahead of it or fewer.
fn within_plies(pos: &Position, plies: usize) -> HashSet<u64> {
    let mut seen = HashSet::from([pos.placement_hash()]);
    let mut frontier = vec![pos.clone()];
    for _ in 0..plies {
        let mut next = Vec::new();
        let mut moves = Vec::new();
        for p in &frontier {
            if p.is_over() {
                continue;
            }
            moves.clear();
            p.generate_plies(&mut moves);
            for &ply in &moves {
                let mut after = p.clone();
                after.play_unchecked(ply);
                if seen.insert(after.placement_hash()) {
                    next.push(after);
                }
            }
        }
        frontier = next;
    }
    seen
}

/// The placement hashes of `pos` turned and mirrored the eight ways a square board allows.
fn turned_and_mirrored(pos: &Position) -> Vec<u64> {
    let tps = pos.to_tps();
    let mut fields = tps.splitn(2, ' ');
    let (rows, rest) = (fields.next().unwrap_or(""), fields.next().unwrap_or(""));
    let grid: Vec<Vec<String>> = rows
        .split('/')
        .map(|row| {
            row.split(',')
                .flat_map(|cell| match cell.strip_prefix('x') {
                    Some(n) => vec!["x".to_string(); n.parse().unwrap_or(1)],
                    None => vec![cell.to_string()],
                })
                .collect()
        })
        .collect();
    let n = grid.len();
    let mut out = Vec::with_capacity(8);
    for turn in 0..8 {
        let cell = |r: usize, c: usize| {
            let (r, c) = if turn & 4 == 0 {
                (r, c)
            } else {
                (r, n - 1 - c)
            };
            let (r, c) = match turn & 3 {
                0 => (r, c),
                1 => (c, n - 1 - r),
                2 => (n - 1 - r, n - 1 - c),
                _ => (n - 1 - c, r),
            };
            grid.get(r)
                .and_then(|row| row.get(c))
                .map_or("x", String::as_str)
        };
        let board: Vec<String> = (0..n)
            .map(|r| (0..n).map(|c| cell(r, c)).collect::<Vec<_>>().join(","))
            .collect();
        let turned = format!("{} {rest}", board.join("/"));
        if let Ok(p) = Position::from_tps_with(&turned, *pos.setup()) {
            out.push(p.placement_hash());
        }
    }
    out
}
