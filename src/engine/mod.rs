//! Playing against Bredon: a built-in searcher, levels, and the Tak Engine Interface (TEI) both
//! ways (`tei::serve` for `bredon tei`, `tei::Client` to run an external engine).
//!
//! The searcher is iterative-deepening negamax with alpha-beta, a transposition table and move
//! ordering. Road wins come from the rules layer's Tak detection at every node, so a road in one
//! is never missed and a lone threat is always met (any ply that leaves the opponent a road win
//! scores as a loss at depth 2, which every level completes).

pub mod tei;

use crate::tak::{Bitboard, Color, GameResult, Ply, Position, Role};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const WIN: i32 = 1_000_000;
/// Scores above this are forced wins (within this many plies of WIN).
const WIN_SOON: i32 = WIN - 1000;

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

/// A score as TEI writes it: `cp N`, or `mate N` in moves (negative: the side to move is mated).
pub fn tei_score(score: i32) -> String {
    if score.abs() > WIN_SOON {
        let plies = (WIN - score.abs()) * score.signum();
        format!("mate {}", (plies + plies.signum()) / 2)
    } else {
        format!("cp {score}")
    }
}

/// Bytes a transposition-table entry takes (key, entry and the hash map's overhead).
pub const TABLE_ENTRY_BYTES: usize = 48;

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
}

impl Level {
    pub fn parse(text: &str) -> Result<Level, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "beginner" => Ok(Level::Beginner),
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            other => Err(format!(
                "level `{other}` is not known: beginner, easy, medium or hard"
            )),
        }
    }

    /// Depth and node budget for Takat's searcher (small boards: nodes, not time).
    pub fn takat_budget(self) -> (u32, u64) {
        match self {
            Level::Beginner => (1, 200),
            Level::Easy => (2, 1_000),
            Level::Medium => (4, 20_000),
            Level::Hard => (8, 400_000),
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
            Level::Hard => Limits {
                time: Some(time),
                ..Limits::default()
            },
        }
    }
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

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    score: i32,
    bound: Bound,
    best: Option<Ply>,
}

#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

struct Search {
    limits: Limits,
    started: Instant,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    table: HashMap<u64, Entry>,
    seed: u64,
    lists: Vec<Vec<Ply>>,
}

/// The ply `level` plays in `position`: a search within the level's limits, except that a
/// beginner, when it has no road in one, plays any legal ply one time in three (chosen by the
/// seed and the ply number, so it varies through a game) — the mistakes of a new player.
pub fn choose(level: Level, position: &Position, think: Duration, seed: u64) -> Option<Ply> {
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
    search(position, level.limits(think), seed).map(|f| f.ply)
}

/// Finds a ply for the side to move. Deterministic for the same position, limits without time,
/// and seed. `None` only when the game is already over.
pub fn search(position: &Position, limits: Limits, seed: u64) -> Option<Found> {
    search_reporting(position, limits, seed, |_| {})
}

/// `search`, calling `report` after every completed iteration.
pub fn search_reporting(
    position: &Position,
    limits: Limits,
    seed: u64,
    mut report: impl FnMut(&Iteration),
) -> Option<Found> {
    if position.ply_index() > 0 && position.is_over() {
        return None;
    }
    let lines = limits.multi_pv.max(1);
    let mut s = Search {
        limits,
        started: Instant::now(),
        nodes: 0,
        seldepth: 0,
        stopped: false,
        table: HashMap::new(),
        seed: seed | 1,
        lists: Vec::new(),
    };
    let mut pos = position.clone();
    let mut best: Option<Found> = None;
    let mut root = Vec::new();
    pos.generate_plies(&mut root);
    s.order(&pos, &mut root, None);
    for depth in 1..=s.limits.depth.unwrap_or(64) {
        let mut this_best: Option<(Ply, i32)> = None;
        // The best `lines` root plies so far, best first: a child must beat the worst of them.
        let mut top: Vec<(i32, Ply)> = Vec::new();
        let previous = best.as_ref().map(|b| b.ply);
        if let Some(p) = previous {
            if let Some(i) = root.iter().position(|&r| r == p) {
                root[..=i].rotate_right(1);
            }
        }
        for &ply in &root {
            let alpha = if top.len() < lines {
                -WIN - 1
            } else {
                top[lines - 1].0
            };
            let undo = pos.play_unchecked(ply);
            let score = -s.negamax(&mut pos, depth - 1, -WIN - 1, -alpha, 1);
            pos.undo(undo);
            if s.stopped && depth > 2 {
                break;
            }
            if score > alpha {
                let at = top
                    .iter()
                    .position(|&(t, _)| score > t)
                    .unwrap_or(top.len());
                top.insert(at, (score, ply));
                top.truncate(lines);
                if this_best.is_none_or(|(_, b)| score > b) {
                    this_best = Some((ply, score));
                }
            }
        }
        if s.stopped && depth > 2 {
            break;
        }
        report(&Iteration {
            depth,
            seldepth: s.seldepth.max(depth),
            nodes: s.nodes,
            elapsed: s.started.elapsed(),
            lines: top
                .iter()
                .map(|&(score, ply)| (score, s.principal_variation(&pos, ply, depth)))
                .collect(),
        });
        if let Some((ply, score)) = this_best {
            best = Some(Found {
                ply,
                score,
                depth,
                nodes: s.nodes,
                elapsed: s.started.elapsed(),
            });
            if score.abs() > WIN_SOON {
                break;
            }
        }
        if s.out_of_budget() && depth >= 2 {
            break;
        }
    }
    if let Some(b) = &mut best {
        b.nodes = s.nodes;
        b.elapsed = s.started.elapsed();
    }
    best
}

impl Search {
    /// `first`, then the table's best replies, as far as they stay legal and new (at most
    /// `depth` plies).
    fn principal_variation(&self, root: &Position, first: Ply, depth: u32) -> Vec<Ply> {
        let mut pos = root.clone();
        let mut line = vec![first];
        pos.play_unchecked(first);
        let mut seen = vec![pos.hash64()];
        while (line.len() as u32) < depth && !pos.is_over() {
            let Some(next) = self.table.get(&pos.hash64()).and_then(|e| e.best) else {
                break;
            };
            if pos.check(next).is_err() {
                break;
            }
            pos.play_unchecked(next);
            if seen.contains(&pos.hash64()) {
                break;
            }
            seen.push(pos.hash64());
            line.push(next);
        }
        line
    }

    fn out_of_budget(&mut self) -> bool {
        if self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
            || self
                .limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        height: i32,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(height as u32);
        if self.nodes.is_multiple_of(1024) && height > 2 {
            self.out_of_budget();
        }
        if let Some(result) = pos.end() {
            return terminal(pos, result, height);
        }
        let me = pos.to_move();
        if pos.is_tak(me) {
            return WIN - height;
        }
        if depth == 0 || (self.stopped && height > 2) {
            return evaluate(pos);
        }
        let key = pos.hash64();
        let mut tt_best = None;
        if let Some(e) = self.table.get(&key) {
            tt_best = e.best;
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let mut list = self.lists.pop().unwrap_or_default();
        list.clear();
        pos.generate_plies(&mut list);
        self.order(pos, &mut list, tt_best);
        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_ply = None;
        for &ply in &list {
            let undo = pos.play_unchecked(ply);
            let score = -self.negamax(pos, depth - 1, -beta, -alpha, height + 1);
            pos.undo(undo);
            if score > best_score {
                best_score = score;
                best_ply = Some(ply);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.lists.push(list);
        let bound = if best_score <= original_alpha {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A full table keeps what it has: an entry is replaced only by one for the same key.
        let full = self
            .limits
            .table_entries
            .is_some_and(|cap| self.table.len() >= cap && !self.table.contains_key(&key));
        let interrupted = self.stopped && height > 2;
        if !interrupted && !full {
            self.table.insert(
                key,
                Entry {
                    depth,
                    score: best_score,
                    bound,
                    best: best_ply,
                },
            );
        }
        best_score
    }

    /// TT move first, then flats and capstones next to own pieces, spreads, walls; ties broken
    /// by the seed so equal plies vary between games but not between runs.
    fn order(&mut self, pos: &Position, list: &mut [Ply], first: Option<Ply>) {
        let me = pos.to_move();
        let mine = pos.controlled_by(me);
        let board = crate::tak::square::edges(pos.size()).board;
        let near = mine.neighbours(board);
        let seed = self.seed;
        list.sort_by_cached_key(|&ply| {
            let class = if Some(ply) == first {
                0
            } else {
                match ply {
                    Ply::Place {
                        square,
                        role: Role::Flat | Role::Cap,
                    } if near.contains(square) => 1,
                    Ply::Place {
                        role: Role::Flat, ..
                    } => 2,
                    Ply::Spread { .. } => 3,
                    Ply::Place {
                        role: Role::Cap, ..
                    } => 3,
                    Ply::Place {
                        role: Role::Wall, ..
                    } => 4,
                }
            };
            let h = hash_ply(ply) ^ seed;
            (class, h.wrapping_mul(0x9E3779B97F4A7C15) >> 40)
        });
    }
}

fn hash_ply(ply: Ply) -> u64 {
    match ply {
        Ply::Place { square, role } => (square.index() as u64) << 8 | role as u64,
        Ply::Spread { from, dir, drops } => {
            1 << 20 | (from.index() as u64) << 12 | (dir as u64) << 10 | drops.mask() as u64
        }
    }
}

fn terminal(pos: &Position, result: GameResult, height: i32) -> i32 {
    match result.winner() {
        None => 0,
        Some(w) if w == pos.to_move() => WIN - height,
        Some(_) => -(WIN - height),
    }
}

/// The position's value for the side to move, in hundredths of a flat.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.to_move();
    side(pos, me) - side(pos, me.opponent()) + komi_for(pos, me) + 15
}

fn komi_for(pos: &Position, me: Color) -> i32 {
    let k = pos.setup().komi.halves() as i32 * 50;
    if me == Color::Black {
        k
    } else {
        -k
    }
}

fn side(pos: &Position, c: Color) -> i32 {
    let size = pos.size();
    let e = crate::tak::square::edges(size);
    let flats = pos.flat_count(c) as i32;
    let road = pos.road_squares(c);
    let mut score = flats * 100;
    // Road potential: how far the best line of road squares reaches, by row and by column.
    let mut line_best = 0;
    for i in 0..size {
        let row = Bitboard(e.south.0 << (8 * i));
        let col = Bitboard(e.west.0 << i);
        line_best = line_best
            .max((road & row).count())
            .max((road & col).count());
    }
    score += (line_best * line_best) as i32 * 12;
    // Groups that span many rows or columns are close to roads.
    let mut rest = road;
    let mut span_best = 0;
    while let Some(sq) = rest.squares().next() {
        let group = sq.bit().flood(road);
        rest = Bitboard(rest.0 & !group.0);
        let (mut rows, mut cols) = (0u32, 0u32);
        for s in group.squares() {
            rows |= 1 << s.rank();
            cols |= 1 << s.file();
        }
        span_best = span_best.max(rows.count_ones()).max(cols.count_ones());
    }
    score += (span_best * span_best) as i32 * 15;
    // Stacks: own pieces under own control are strength (captives), capstone and walls are blockers.
    for sq in pos.controlled_by(c).squares() {
        let stack = pos.stack(sq);
        let h = stack.height();
        let own = stack.colors().rev().take(size).filter(|&x| x == c).count() as i32;
        score += (own - 1) * 20 - (h.min(size) as i32 - own) * 10;
    }
    score += (pos.controlled_by(c) & pos.caps()).count() as i32 * 40;
    score += (pos.controlled_by(c) & pos.walls()).count() as i32 * 20;
    score
}

/// A uniformly random legal ply (the baseline opponent in matches).
pub fn random_ply(position: &Position, seed: &mut u64) -> Option<Ply> {
    let mut plies = Vec::new();
    position.generate_plies(&mut plies);
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (!plies.is_empty()).then(|| plies[(*seed % plies.len() as u64) as usize])
}
