//! Playing against Bredon: a built-in searcher, levels, and the Tak Engine Interface (TEI) both
//! ways (`tei::serve` for `bredon tei`, `tei::Client` to run an external engine).
//!
//! The searcher (`search`) is principal variation search with pruning and a road-threat
//! extension; the evaluation (`eval`) is a weighted sum of features fitted to a teacher's chances
//! and game results, and on 6x6 a small network over the same features (`net`).
//! Road wins come from the rules layer's Tak detection at every node, so a road in one is never
//! missed and a lone threat is always met.

pub mod analysis;
pub mod eval;
pub mod forced;
pub mod gaelet;
mod limits;
pub mod net;
pub mod net_train;
mod ordering;
pub mod puzzles;
mod search;
pub mod survival;
mod table;
mod tactics;
pub mod tei;
pub mod tei_analysis;
pub mod tinue;
pub mod tune;

pub use eval::evaluate;
pub use limits::{Found, Iteration, Limits};
pub(crate) use limits::{WIN, WIN_SOON};
pub use search::{search_remembering, search_reporting, Memory};
pub use table::TABLE_ENTRY_BYTES;

use crate::tak::{Ply, Position};
use std::time::Duration;

/// A score as TEI writes it: `cp N`, or `mate N` in moves (negative: the side to move is mated).
pub fn tei_score(score: i32) -> String {
    if score.abs() > WIN_SOON {
        let plies = (WIN - score.abs()) * score.signum();
        format!("mate {}", (plies + plies.signum()) / 2)
    } else {
        format!("cp {score}")
    }
}

/// Playing strength: a node budget each, so play is the same on every machine; `Hard` also
/// keeps searching until its time budget runs out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// For new players: takes a road in one, but otherwise plays a random ply one time in three
    /// and looks only one ply ahead the rest of the time.
    Beginner,
    Easy,
    Medium,
    Hard,
    /// The server's external TEI engine when one is configured (the bot decides); the built-in
    /// searcher plays it as `Hard` otherwise.
    Strongest,
}

impl Level {
    pub fn parse(text: &str) -> Result<Level, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "beginner" => Ok(Level::Beginner),
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            "strongest" => Ok(Level::Strongest),
            other => Err(format!(
                "level `{other}` is not known: beginner, easy, medium, hard or strongest"
            )),
        }
    }

    /// Depth and node budget for Takat's searcher (small boards: nodes, not time).
    pub fn takat_budget(self) -> (u32, u64) {
        match self {
            Level::Beginner => (1, 200),
            Level::Easy => (2, 1_000),
            Level::Medium => (4, 20_000),
            Level::Hard | Level::Strongest => (8, 400_000),
        }
    }

    pub fn limits(self, time: Duration) -> Limits {
        match self {
            Level::Beginner => Limits {
                depth: Some(1),
                nodes: Some(500),
                ..Limits::default()
            },
            Level::Easy => Limits {
                depth: Some(2),
                nodes: Some(3_000),
                ..Limits::default()
            },
            Level::Medium => Limits {
                nodes: Some(60_000),
                ..Limits::default()
            },
            Level::Hard | Level::Strongest => Limits {
                time: Some(time),
                ..Limits::default()
            },
        }
    }
}

/// The ply `level` plays in `position`: a search within the level's limits, except that a
/// beginner, when it has no road in one, plays any legal ply one time in three (chosen by the
/// seed and the ply number, so it varies through a game) — the mistakes of a new player.
/// `memory` is what the level's earlier searches in this game left (`Memory::default()` at its
/// start).
pub fn choose(
    level: Level,
    memory: &mut Memory,
    position: &Position,
    think: Duration,
    seed: u64,
) -> Option<Ply> {
    if level == Level::Beginner && !(position.ply_index() > 0 && position.is_over()) {
        let mut wins = Vec::new();
        position.road_wins(position.to_move(), &mut wins);
        if let Some(&win) = wins.first() {
            return Some(win);
        }
        let mut state = (seed ^ (position.ply_index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9)
            | 1;
        state ^= state >> 31;
        if state.is_multiple_of(3) {
            return random_ply(position, &mut state);
        }
    }
    search_remembering(memory, position, level.limits(think), seed, |_| {}).map(|f| f.ply)
}

/// Finds a ply for the side to move. Deterministic for the same position, limits without time,
/// and seed. `None` only when the game is already over.
pub fn search(position: &Position, limits: Limits, seed: u64) -> Option<Found> {
    search_reporting(position, limits, seed, |_| {})
}

/// A uniformly random legal ply (the baseline opponent in matches).
pub fn random_ply(position: &Position, seed: &mut u64) -> Option<Ply> {
    let mut plies = Vec::new();
    position.generate_plies(&mut plies);
    let draw = xorshift(seed);
    (!plies.is_empty()).then(|| plies[(draw % plies.len() as u64) as usize])
}

/// One step of xorshift64: the next state, which is also the number drawn.
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}
