//! The order the searcher tries a node's plies in, after the table's ply (which goes first
//! unsorted): the two killers of its height, the reply that last refuted the ply before it (the
//! counter), then by kind (a spread by the flats on top it wins) and by how often each ply
//! refuted a position (history).

use crate::tak::{Color, Dir, Drops, Ply, Position, Role, Square};

/// Plies told apart by the history and counter tables: a placement by square and kind, a spread
/// by square and direction.
pub(super) const HISTORY_PLIES: usize = 64 * 3 + 64 * 4;

/// How often each ply (by `history_index`) refuted a position, weighted by depth, per colour.
pub(super) type History = Vec<[i32; HISTORY_PLIES]>;

pub(super) fn fresh_history() -> History {
    vec![[0; HISTORY_PLIES]; 2]
}

pub(super) struct PlyOrder {
    /// Each ply with its sort key (scratch).
    keyed: Vec<(u64, Ply)>,
    killers: Vec<[Option<Ply>; 2]>,
    history: History,
    /// The ply that led to each height's node (none after a null move or at the root).
    played: Vec<Option<Ply>>,
    /// The reply that last refuted each ply (by `history_index`), per colour of the replier.
    counters: Vec<[Option<Ply>; HISTORY_PLIES]>,
    /// Breaks ties between equal plies, so they vary between games but not between runs.
    seed: u64,
}

impl PlyOrder {
    /// With the history a game's earlier searches left, and a fresh memory of everything else.
    pub fn new(history: History, seed: u64) -> PlyOrder {
        PlyOrder {
            keyed: Vec::new(),
            killers: Vec::new(),
            history,
            played: Vec::new(),
            counters: vec![[None; HISTORY_PLIES]; 2],
            seed,
        }
    }

    pub fn into_history(self) -> History {
        self.history
    }

    /// `ply` (none for a null move) is played from the node at `height`.
    pub fn playing(&mut self, height: i32, ply: Option<Ply>) {
        let child = height as usize + 1;
        if self.played.len() <= child {
            self.played.resize(child + 1, None);
        }
        self.played[child] = ply;
    }

    pub fn killers(&mut self, height: i32) -> [Option<Ply>; 2] {
        *self.killers_at(height)
    }

    fn killers_at(&mut self, height: i32) -> &mut [Option<Ply>; 2] {
        let h = height as usize;
        if self.killers.len() <= h {
            self.killers.resize(h + 1, [None; 2]);
        }
        &mut self.killers[h]
    }

    /// The ply that led to the node at `height`, if any.
    fn before(&self, height: i32) -> Option<Ply> {
        self.played.get(height as usize).copied().flatten()
    }

    /// `ply`, played by `me`, refuted the node at `height` searched `depth` plies deep: it is
    /// tried early in its siblings (a killer), after the same ply before it (a counter), and
    /// anywhere (history).
    pub fn cut(&mut self, me: Color, ply: Ply, height: i32, depth: i32) {
        let k = self.killers_at(height);
        if k[0] != Some(ply) {
            k[1] = k[0];
            k[0] = Some(ply);
        }
        if let Some(before) = self.before(height) {
            self.counters[me.index()][history_index(before)] = Some(ply);
        }
        let h = &mut self.history[me.index()][history_index(ply)];
        *h = h.saturating_add(depth * depth);
    }

    /// The reply that last refuted the ply before the node at `height`, `me` to move.
    fn counter(&self, me: Color, height: i32) -> Option<Ply> {
        let before = self.before(height)?;
        self.counters[me.index()][history_index(before)]
    }

    /// Killers first, the counter next, then by kind (flats and capstones next to own pieces,
    /// other flats, capstones elsewhere, walls; a spread beside the placements worth its flat
    /// swing) less what history has seen them do. Only the first `needed` come in order, the
    /// rest after them in any.
    pub fn order(&mut self, pos: &Position, list: &mut [Ply], needed: usize, height: i32) {
        let me = pos.to_move();
        let mine = pos.controlled_by(me);
        let board = crate::tak::square::edges(pos.size()).board;
        let near = mine.neighbours(board);
        let seed = self.seed;
        let killers = self.killers(height);
        let counter = self.counter(me, height);
        let history = &self.history[me.index()];
        // One key a ply, smallest first: its rank above a tie-breaker of 24 bits.
        let key = |ply: Ply| -> u64 {
            let rank = if Some(ply) == killers[0] {
                0
            } else if Some(ply) == killers[1] {
                1
            } else if Some(ply) == counter {
                2
            } else {
                let prior = match ply {
                    Ply::Place {
                        square,
                        role: Role::Flat | Role::Cap,
                    } if near.contains(square) => 300,
                    Ply::Place {
                        role: Role::Flat, ..
                    } => 200,
                    // A spread by the flats on top it wins or loses: one won is a flat
                    // placement's worth, two a placement next to one's own.
                    Ply::Spread { from, dir, drops } => {
                        (100 + 100 * flat_swing(pos, from, dir, drops)).clamp(0, 350)
                    }
                    Ply::Place {
                        role: Role::Cap, ..
                    } => 100,
                    Ply::Place {
                        role: Role::Wall, ..
                    } => 0,
                };
                let bonus = (history[history_index(ply)] / 16).clamp(0, 250);
                (3 + 600 - prior - bonus) as u64
            };
            let h = hash_ply(ply) ^ seed;
            rank << 24 | h.wrapping_mul(0x9E3779B97F4A7C15) >> 40
        };
        let keyed = &mut self.keyed;
        keyed.clear();
        keyed.extend(list.iter().map(|&ply| (key(ply), ply)));
        if needed < keyed.len() {
            keyed.select_nth_unstable_by_key(needed, |&(k, _)| k);
            keyed[..needed].sort_unstable_by_key(|&(k, _)| k);
        } else {
            keyed.sort_unstable_by_key(|&(k, _)| k);
        }
        for (slot, &(_, ply)) in list.iter_mut().zip(keyed.iter()) {
            *slot = ply;
        }
    }
}

/// The flats on top the side to move gains by a spread, less those the opponent gains: what the
/// drops cover and uncover (the carried pile's own colours, bottom first, on each square in
/// turn, the moving top last).
fn flat_swing(pos: &Position, from: Square, dir: Dir, drops: Drops) -> i32 {
    let me = pos.to_move();
    let hard = pos.walls() | pos.caps();
    let sign = |c: Color| if c == me { 1 } else { -1 };
    let flat_on_top = |sq: Square| match pos.stack(sq).top() {
        Some(c) if !hard.contains(sq) => sign(c),
        _ => 0,
    };
    let stack = pos.stack(from);
    let (height, carry) = (stack.height(), drops.carry() as usize);
    let mut swing = -flat_on_top(from);
    if height > carry {
        swing += sign(stack.color_at(height - carry - 1));
    }
    let top_is_flat = !hard.contains(from);
    let mut sq = from;
    for top in drops.top_indices() {
        let Some(next) = sq.step(dir, pos.size()) else {
            break;
        };
        sq = next;
        swing -= flat_on_top(sq);
        if top + 1 < carry || top_is_flat {
            swing += sign(stack.color_at(height - carry + top));
        }
    }
    swing
}

fn history_index(ply: Ply) -> usize {
    match ply {
        Ply::Place { square, role } => square.index() * 3 + role as usize,
        Ply::Spread { from, dir, .. } => 64 * 3 + from.index() * 4 + dir as usize,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spread_counts_the_flats_it_covers_and_uncovers() {
        // White to move: c3 holds Black under White under White (bottom first).
        let pos = Position::from_tps("x6/x6/x6/x,2,211,2,x2/x6/x6 1 10").unwrap();
        let swing = |t: &str| match Ply::parse(t).unwrap().ply {
            Ply::Spread { from, dir, drops } => flat_swing(&pos, from, dir, drops),
            _ => unreachable!(),
        };
        // White has one flat on top (c3), Black two (b3, d3): White is one behind.
        // One piece onto d3: White on c3 and d3, Black on b3, one ahead.
        assert_eq!(swing("c3>"), 2);
        // Two onto d3 and e3, Black's flat at c3's bottom uncovered: two each.
        assert_eq!(swing("2c3>11"), 1);
        // All three onto b3: White on b3, Black on d3, one each.
        assert_eq!(swing("3c3<"), 1);
    }

    #[test]
    fn a_reply_that_refuted_a_ply_comes_first_after_that_ply_anywhere() {
        let pos = Position::from_tps("x6/x6/x2,2,1,x2/x2,1,2,x2/x6/x6 1 3").unwrap();
        let ply = |t: &str| Ply::parse(t).unwrap().ply;
        let (before, other, reply) = (ply("e5"), ply("b2"), ply("Sa1"));
        let mut order = PlyOrder::new(fresh_history(), 1);
        // Two plies deeper in another line, the same ply before: the wall, last by kind, first.
        order.playing(2, Some(before));
        order.cut(Color::White, reply, 3, 1);
        let mut first_after = |prior: Ply| {
            order.playing(4, Some(prior));
            let mut list = Vec::new();
            pos.generate_plies(&mut list);
            order.order(&pos, &mut list, usize::MAX, 5);
            list[0]
        };
        assert_eq!(first_after(before), reply);
        assert_ne!(first_after(other), reply);
    }
}
