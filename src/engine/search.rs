//! The searcher: iterative deepening in aspiration windows over principal variation search
//! (negamax, alpha-beta with null windows), a two-slot transposition table, ordering by killers,
//! counter plies and history (`ordering`), reverse futility, null moves, late-move reductions and
//! pruning, and a road-threat extension at the leaves. Each was measured in matches
//! (docs/DEVELOPING.md, *The searcher and its evaluation*).
//!
//! Road wins come from the rules layer's Tak detection at every node, so a road in one is never
//! missed, and a leaf whose side to move faces a road threat is searched one ply further (so a
//! threat is met, or two threats are seen to be decisive, instead of scored as quiet), as is a
//! leaf whose side to move can end the flat race with a placement (`can_end_now`).

use super::eval::{evaluate, race_placements};
use super::ordering::{fresh_history, History, PlyOrder};
use super::table::{from_table, table_size, to_table, Bound, Slot, Table};
use super::{Found, Iteration, Limits, WIN, WIN_SOON};
use crate::tak::{GameResult, Ply, Position};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Plies after this many in a node's order are reduced when quiet (late-move reductions).
const LATE: usize = 4;

/// Reverse futility pruning: up to this depth, a node whose evaluation is above beta by
/// `FUTILE_MARGIN` a ply is not searched.
const FUTILE_DEPTH: i32 = 3;
const FUTILE_MARGIN: i32 = 120;

/// Late-move pruning: at depth 1 and 2, quiet plies after this many are not searched.
const PRUNE_AFTER: [usize; 3] = [usize::MAX, 16, 32];

/// Plies less deep a late quiet ply is first searched: one, and more the deeper the node and
/// the later the ply (logarithmically), never below depth 1.
fn late_reduction(depth: i32, index: usize) -> i32 {
    let r = 1.0 + (depth as f32).ln() * (index as f32).ln() / 2.5;
    (r as i32).clamp(1, depth - 2)
}

/// Plies deeper than the iteration's depth that the road-threat extension may add.
const EXTENSION_PLIES: i32 = 6;

/// Whether the side to move's next placement ends the game (one left in the race: its last
/// piece, or the last empty square): a leaf there is searched one ply further, for the
/// evaluation cannot tell whether ending the flat race now wins it.
fn can_end_now(pos: &Position) -> bool {
    race_placements(pos) == 1
}

/// From this depth on, an iteration first searches a window around the last one's score
/// (an aspiration window), widened on the side it fails.
const ASPIRATION_FROM: u32 = 4;
const ASPIRATION_MARGIN: i32 = 50;
/// A window widened past this margin opens fully (a forced win, or a swing of eight flats).
const ASPIRATION_LIMIT: i32 = 800;

/// The bounds a root iteration searches within; a score outside them is only a bound.
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
    margin: i32,
}

impl Window {
    const FULL: Window = Window {
        alpha: -WIN - 1,
        beta: WIN + 1,
        margin: WIN,
    };

    fn around(score: i32) -> Window {
        Window {
            alpha: score - ASPIRATION_MARGIN,
            beta: score + ASPIRATION_MARGIN,
            margin: ASPIRATION_MARGIN,
        }
    }

    /// Every ply failed low: the floor goes down (by twice as much each time).
    fn lower(self) -> Window {
        let margin = self.margin.saturating_mul(2);
        let alpha = if margin > ASPIRATION_LIMIT {
            -WIN - 1
        } else {
            self.alpha - margin
        };
        Window {
            alpha,
            margin,
            ..self
        }
    }

    /// A ply failed high: the ceiling goes up.
    fn higher(self) -> Window {
        let margin = self.margin.saturating_mul(2);
        let beta = if margin > ASPIRATION_LIMIT {
            WIN + 1
        } else {
            self.beta + margin
        };
        Window {
            beta,
            margin,
            ..self
        }
    }
}

/// How the search came to a node: what its parent already knows of it.
#[derive(Clone, Copy, PartialEq)]
enum Reached {
    /// By a ply that may have given the side to move a road in one.
    Open,
    /// By a placement of a side that faced no road threat: placing one's own piece never gives
    /// the opponent a road in one (a test in the rules), so there is none to look for.
    SafePlacement,
    /// By a null move: no road in one either, and no second null move in a row.
    Pass,
}

struct Search {
    limits: Limits,
    started: Instant,
    nodes: u64,
    seldepth: u32,
    stopped: bool,
    table: Table,
    lists: Vec<Vec<Ply>>,
    ordering: PlyOrder,
    /// The deepest height the current iteration's extensions may reach.
    horizon: i32,
}

/// What a searcher keeps from one search to the next of the same game: the transposition table
/// (the positions two plies on were mostly searched already) and the history of refutations,
/// halved at each search so the present position counts most. A new game needs a new memory.
pub struct Memory {
    table: Table,
    history: History,
}

impl Default for Memory {
    fn default() -> Memory {
        Memory {
            table: Table::new(2),
            history: fresh_history(),
        }
    }
}

impl Memory {
    /// Ready for a search within `limits`: a table grown to what it may reach, never shrunk.
    fn prepare(&mut self, limits: &Limits) {
        let entries = table_size(limits);
        if self.table.len() < Table::slots_for(entries) {
            self.table = Table::new(entries);
        } else {
            self.table.next_search();
        }
        for h in self.history.iter_mut().flatten() {
            *h /= 2;
        }
    }
}

/// `search`, calling `report` after every completed iteration.
pub fn search_reporting(
    position: &Position,
    limits: Limits,
    seed: u64,
    report: impl FnMut(&Iteration),
) -> Option<Found> {
    search_remembering(&mut Memory::default(), position, limits, seed, report)
}

/// `search_reporting` with what earlier searches of the same game left in `memory`.
pub fn search_remembering(
    memory: &mut Memory,
    position: &Position,
    limits: Limits,
    seed: u64,
    mut report: impl FnMut(&Iteration),
) -> Option<Found> {
    if position.ply_index() > 0 && position.is_over() {
        return None;
    }
    let lines = limits.multi_pv.max(1);
    memory.prepare(&limits);
    let mut s = Search {
        table: std::mem::replace(&mut memory.table, Table::new(2)),
        limits,
        started: Instant::now(),
        nodes: 0,
        seldepth: 0,
        stopped: false,
        lists: Vec::new(),
        ordering: PlyOrder::new(std::mem::take(&mut memory.history), seed | 1),
        horizon: 0,
    };
    let mut pos = position.clone();
    let mut best: Option<Found> = None;
    let mut root = Vec::new();
    pos.generate_plies(&mut root);
    s.ordering.order(&pos, &mut root, usize::MAX, 0);
    for depth in 1..=s.limits.depth.unwrap_or(64) {
        s.horizon = depth as i32 + EXTENSION_PLIES;
        if let Some(b) = &best {
            bring_forward(&mut root, 0, b.ply);
        }
        let mut window = match &best {
            Some(b) if lines == 1 && depth >= ASPIRATION_FROM && b.score.abs() < WIN_SOON => {
                Window::around(b.score)
            }
            _ => Window::FULL,
        };
        let top = loop {
            let top = s.root(&mut pos, &root, depth, lines, window);
            if s.stopped {
                break top;
            }
            match top.first() {
                None => window = window.lower(),
                Some(&(score, ply)) if score >= window.beta => {
                    window = window.higher();
                    bring_forward(&mut root, 0, ply);
                }
                _ => break top,
            }
        };
        let this_best = top.first().map(|&(score, ply)| (ply, score));
        if s.stopped && depth > 2 {
            // The root plies searched before time ran out are searched in full: the best of
            // them is worth more than the last iteration's choice.
            if let Some((ply, score)) = this_best {
                best = Some(Found {
                    ply,
                    score,
                    depth: depth - 1,
                    nodes: s.nodes,
                    elapsed: s.started.elapsed(),
                });
            }
            break;
        }
        // Next iteration: the best lines first, in order.
        for (rank, &(_, ply)) in top.iter().enumerate() {
            bring_forward(&mut root, rank, ply);
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
    memory.table = s.table;
    memory.history = s.ordering.into_history();
    best
}

impl Search {
    /// One iteration over the root plies within `window`: the best `lines` plies that rose
    /// above its floor, best first, each with its score. A score at its ceiling or above stops
    /// the iteration.
    fn root(
        &mut self,
        pos: &mut Position,
        root: &[Ply],
        depth: u32,
        lines: usize,
        window: Window,
    ) -> Vec<(i32, Ply)> {
        // The best `lines` root plies so far, best first: a child must beat the worst of them.
        let mut top: Vec<(i32, Ply)> = Vec::new();
        let beta = window.beta;
        for &ply in root {
            let full = top.len() < lines;
            let alpha = if full {
                window.alpha
            } else {
                top[lines - 1].0.max(window.alpha)
            };
            self.ordering.playing(0, Some(ply));
            let undo = pos.play_unchecked(ply);
            let d = depth as i32 - 1;
            let mut score = if full {
                -self.negamax(pos, d, -beta, -alpha, 1, Reached::Open)
            } else {
                -self.negamax(pos, d, -alpha - 1, -alpha, 1, Reached::Open)
            };
            if !full && score > alpha && !self.stopped {
                score = -self.negamax(pos, d, -beta, -alpha, 1, Reached::Open);
            }
            pos.undo(undo);
            if self.stopped && depth > 2 {
                break;
            }
            if score > alpha {
                let at = top
                    .iter()
                    .position(|&(t, _)| score > t)
                    .unwrap_or(top.len());
                top.insert(at, (score, ply));
                top.truncate(lines);
                if score >= beta {
                    break;
                }
            }
        }
        top
    }

    /// `first`, then the table's best replies, as far as they stay legal and new (at most
    /// `depth` plies).
    fn principal_variation(&self, root: &Position, first: Ply, depth: u32) -> Vec<Ply> {
        let mut pos = root.clone();
        let mut line = vec![first];
        pos.play_unchecked(first);
        let mut seen = vec![pos.hash64()];
        while (line.len() as u32) < depth && !pos.is_over() {
            let Some(next) = self.table.get(pos.hash64()).and_then(|e| e.best) else {
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
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        height: i32,
        reached: Reached,
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
        if reached == Reached::Open && pos.is_tak(me) {
            // The road comes with the next ply, one below this node (as `terminal` counts it).
            return WIN - (height + 1);
        }
        if self.stopped && height > 2 {
            return evaluate(pos);
        }
        let threatened = pos.is_tak(me.opponent());
        if depth <= 0 {
            if !(threatened || can_end_now(pos)) || height >= self.horizon {
                return evaluate(pos);
            }
            depth = 1;
        }
        let key = pos.hash64();
        let mut tt_best = None;
        if let Some(e) = self.table.get(key) {
            tt_best = e.best;
            if e.depth as i32 >= depth {
                let score = from_table(e.score, height);
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let null_window = beta - alpha == 1;
        if null_window && !threatened && beta.abs() < WIN_SOON && height > 1 {
            if let Some(score) = self.prune(pos, depth, beta, height, reached) {
                return score;
            }
        }
        let mut list = self.lists.pop().unwrap_or_default();
        list.clear();
        pos.generate_plies(&mut list);
        // Near the leaves, the late quiet plies of a node that is only being proven no better
        // than its bound are not looked at (late-move pruning): with a hundred plies and more a
        // node, the ordering's tail rarely holds the refutation. From this ply on it may stop.
        let prune_from = if null_window && !threatened && depth <= 2 {
            PRUNE_AFTER[depth as usize]
        } else {
            usize::MAX
        };
        // The table's ply goes first unsorted: when it cuts, as it mostly does, the rest is
        // never sorted. Where late-move pruning may stop the node, only the plies before it are
        // sorted at first; the rest only if the loop gets there.
        let mut sorted_to = 0;
        if let Some(j) = tt_best.and_then(|t| list.iter().position(|&p| p == t)) {
            list.swap(0, j);
            sorted_to = 1;
        }
        // Placing one's own piece never opens the opponent a road in one: the child need not
        // look for one unless this node faced a threat already (or the piece is the opponent's).
        let placements_are_safe = !threatened && !pos.is_opening_swap();
        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_ply = None;
        let killers = self.ordering.killers(height);
        for i in 0..list.len() {
            if i == sorted_to {
                let end = if i < prune_from {
                    prune_from.min(list.len())
                } else {
                    list.len()
                };
                self.ordering.order(pos, &mut list[i..], end - i, height);
                sorted_to = end;
            }
            let ply = list[i];
            let quiet = Some(ply) != tt_best && !killers.contains(&Some(ply));
            if quiet && i >= prune_from && best_score > -WIN_SOON {
                break;
            }
            let child = if placements_are_safe && matches!(ply, Ply::Place { .. }) {
                Reached::SafePlacement
            } else {
                Reached::Open
            };
            self.ordering.playing(height, Some(ply));
            let undo = pos.play_unchecked(ply);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, height + 1, child)
            } else {
                // A null window proves the ply no better than the first; a late, quiet ply
                // (not the table's, not a killer, no road threat to answer) is first looked at
                // less deep, the later the shallower. Whatever seems better is searched again
                // in full.
                let reduction = if quiet && !threatened && depth >= 3 && i >= LATE {
                    late_reduction(depth, i)
                } else {
                    0
                };
                let mut s = -self.negamax(
                    pos,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    height + 1,
                    child,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, height + 1, child);
                }
                if s > alpha && s < beta {
                    -self.negamax(pos, depth - 1, -beta, -alpha, height + 1, child)
                } else {
                    s
                }
            };
            pos.undo(undo);
            if score > best_score {
                best_score = score;
                best_ply = Some(ply);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                self.ordering.cut(me, ply, height, depth);
                break;
            }
        }
        self.lists.push(list);
        let interrupted = self.stopped && height > 2;
        if !interrupted {
            let bound = if best_score <= original_alpha {
                Bound::Upper
            } else if best_score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.put(Slot {
                key,
                best: best_ply,
                score: to_table(best_score, height),
                depth: depth.clamp(0, u8::MAX as i32) as u8,
                bound,
                ..Slot::default()
            });
        }
        best_score
    }

    /// Cuts a node short without searching its plies: when the static evaluation is so far
    /// above `beta` near the leaves that no ply will bring it down (reverse futility), or when
    /// even passing keeps the score above `beta` in a shallower search (a null move). Never
    /// with a road threat to answer (the caller checks); no null move near the end of a reserve
    /// or of the board, where having to move can hurt and a pass would flatter the position.
    fn prune(
        &mut self,
        pos: &mut Position,
        depth: i32,
        beta: i32,
        height: i32,
        reached: Reached,
    ) -> Option<i32> {
        let me = pos.to_move();
        let plenty = |c| pos.reserve(c).total() > 3;
        let futile = depth <= FUTILE_DEPTH;
        let null = reached != Reached::Pass
            && depth >= 3
            && plenty(me)
            && plenty(me.opponent())
            && pos.empty_squares().count() > 3;
        // The evaluation only where one of the two may cut: most interior nodes need neither.
        if !futile && !null {
            return None;
        }
        let eval = evaluate(pos);
        if futile && eval - FUTILE_MARGIN * depth >= beta {
            return Some(eval);
        }
        if !null || eval < beta {
            return None;
        }
        let reduction = 2 + depth / 6;
        self.ordering.playing(height, None);
        pos.pass();
        let score = -self.negamax(
            pos,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            height + 1,
            Reached::Pass,
        );
        pos.unpass();
        (score >= beta && !self.stopped).then_some(beta)
    }
}

/// Moves `ply` to `rank` in the root's order, the plies from there on one place later.
fn bring_forward(root: &mut [Ply], rank: usize, ply: Ply) {
    if let Some(i) = root.iter().position(|&r| r == ply) {
        root[rank..=i].rotate_right(1);
    }
}

fn terminal(pos: &Position, result: GameResult, height: i32) -> i32 {
    match result.winner() {
        None => 0,
        Some(w) if w == pos.to_move() => WIN - height,
        Some(_) => -(WIN - height),
    }
}
