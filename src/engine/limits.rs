//! What a search is given and gives back: its limits, each finished iteration, what it found,
//! and the scores of a forced win.

use crate::tak::Ply;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub(crate) const WIN: i32 = 1_000_000;
/// Scores above this are forced wins (within this many plies of WIN).
pub(crate) const WIN_SOON: i32 = WIN - 1000;

/// How long the searcher may think.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub depth: Option<u32>,
    /// Set from another thread to stop (TEI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// At most this many transposition-table entries (TEI `Hash`); `None`: unbounded.
    pub table_entries: Option<usize>,
    /// Search this many best root plies exactly (TEI `MultiPV`); 0 and 1 mean one.
    pub multi_pv: usize,
}

/// One finished iteration of the search, for TEI `info` lines.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    /// The deepest ply reached (quiescence and extensions included).
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The best root plies, best first, each with its score (side to move's view) and principal
    /// variation: one line, or `multi_pv` lines.
    pub lines: Vec<(i32, Vec<Ply>)>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    pub ply: Ply,
    /// From the side to move's view, in hundredths of a flat; beyond ±`WIN_SOON` a forced result.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Found {
    /// Plies to a forced road, if the score says so (positive: we win).
    pub fn mate_in(&self) -> Option<i32> {
        (self.score.abs() > WIN_SOON).then(|| (WIN - self.score.abs()) * self.score.signum())
    }
}
