//! Generating and counting legal plies; road threats (Tak) and one-move Tinuë.
//!
//! Spreads are generated from the number of free squares in each direction: a pile of `k`
//! dropped over at most `d` squares is any drop mask below `1 << k` with at most `d` bits, and a
//! capstone flattening a wall at distance `d + 1` is a mask with exactly `d + 1` bits whose last
//! drop is one piece. Counting uses the same rule through two small tables, so perft can count
//! the last depth without playing anything.

use super::ply::{Color, Drops, Ply, Role};
use super::position::Position;
use super::result::GameResult;
use super::square::{Bitboard, Dir, Square, MAX_SIZE};

const fn is_crush_mask(mask: u16, bits: u32) -> bool {
    let carry = 16 - mask.leading_zeros();
    mask.count_ones() == bits && (carry == 1 || mask & (1 << (carry - 2)) != 0)
}

/// `SPREADS[k][d]`: drop patterns carrying 1..=k pieces over at most `d` squares.
/// `CRUSHES[k][d]`: patterns carrying 1..=k that cross `d` free squares and drop one on a wall.
const fn tables() -> (
    [[u32; MAX_SIZE + 1]; MAX_SIZE + 1],
    [[u32; MAX_SIZE + 1]; MAX_SIZE + 1],
) {
    let mut spreads = [[0; MAX_SIZE + 1]; MAX_SIZE + 1];
    let mut crushes = [[0; MAX_SIZE + 1]; MAX_SIZE + 1];
    let mut k = 1;
    while k <= MAX_SIZE {
        let mut d = 0;
        while d <= MAX_SIZE {
            let mut mask: u16 = 1;
            while mask < (1 << k) {
                if mask.count_ones() as usize <= d {
                    spreads[k][d] += 1;
                }
                if is_crush_mask(mask, d as u32 + 1) {
                    crushes[k][d] += 1;
                }
                mask += 1;
            }
            d += 1;
        }
        k += 1;
    }
    (spreads, crushes)
}

const TABLES: (
    [[u32; MAX_SIZE + 1]; MAX_SIZE + 1],
    [[u32; MAX_SIZE + 1]; MAX_SIZE + 1],
) = tables();

/// One direction out of a square: how many free squares, and whether a wall stops it.
#[derive(Clone, Copy)]
struct Lane {
    free: usize,
    wall_after: bool,
}

/// For each edge (north, south, west, east), the squares that meet a side's road pieces
/// connected to it: the edge itself, those pieces, and the squares next to them; and whether
/// those pieces already make a road.
struct RoadReach {
    touch: [Bitboard; 4],
    complete: bool,
}

impl Position {
    fn lane(&self, from: Square, dir: Dir) -> Lane {
        let blocked = self.walls() | self.caps();
        let mut free = 0;
        let mut sq = from;
        while let Some(next) = sq.step(dir, self.size()) {
            if blocked.contains(next) {
                return Lane {
                    free,
                    wall_after: self.walls().contains(next),
                };
            }
            free += 1;
            sq = next;
        }
        Lane {
            free,
            wall_after: false,
        }
    }

    /// The piece kinds `color` could place now (the opening places the opponent's flat).
    fn placeable(&self, color: Color) -> ([Role; 3], usize) {
        let mut roles = [Role::Flat; 3];
        let mut n = 0;
        if self.is_opening_swap() {
            return (roles, (self.reserve(color.opponent()).stones > 0) as usize);
        }
        let r = self.reserve(color);
        if r.stones > 0 {
            roles[0] = Role::Flat;
            roles[1] = Role::Wall;
            n = 2;
        }
        if r.caps > 0 {
            roles[n] = Role::Cap;
            n += 1;
        }
        (roles, n)
    }

    /// Appends every legal ply for the player to move (game end is not considered).
    pub fn generate_plies(&self, out: &mut Vec<Ply>) {
        let me = self.to_move();
        let (roles, n) = self.placeable(me);
        for square in self.empty_squares().squares() {
            for &role in &roles[..n] {
                out.push(Ply::Place { square, role });
            }
        }
        if self.is_opening_swap() {
            return;
        }
        for from in self.controlled_by(me).squares() {
            self.spreads_from(from, |ply| out.push(ply));
        }
    }

    fn spreads_from(&self, from: Square, mut emit: impl FnMut(Ply)) {
        let carry = self.stack(from).height().min(self.size());
        let is_cap = self.caps().contains(from);
        for dir in Dir::ALL {
            let lane = self.lane(from, dir);
            if lane.free > 0 {
                for mask in 1..(1u16 << carry) {
                    if mask.count_ones() as usize <= lane.free {
                        emit(Ply::Spread {
                            from,
                            dir,
                            drops: Drops::from_mask(mask as u8),
                        });
                    }
                }
            }
            if is_cap && lane.wall_after {
                for mask in 1..(1u16 << carry) {
                    if is_crush_mask(mask, lane.free as u32 + 1) {
                        emit(Ply::Spread {
                            from,
                            dir,
                            drops: Drops::from_mask(mask as u8),
                        });
                    }
                }
            }
        }
    }

    /// The number of legal plies for the player to move, without generating them.
    pub fn count_plies(&self) -> u64 {
        let me = self.to_move();
        let (_, kinds) = self.placeable(me);
        let mut count = self.empty_squares().count() as u64 * kinds as u64;
        if self.is_opening_swap() {
            return count;
        }
        let (spreads, crushes) = &TABLES;
        for from in self.controlled_by(me).squares() {
            let carry = self.stack(from).height().min(self.size());
            let is_cap = self.caps().contains(from);
            for dir in Dir::ALL {
                let lane = self.lane(from, dir);
                count += spreads[carry][lane.free] as u64;
                if is_cap && lane.wall_after {
                    count += crushes[carry][lane.free] as u64;
                }
            }
        }
        count
    }

    /// What `color`'s road pieces reach: the groups connected to each edge found once, for the
    /// placements and spreads that could complete a road and for whether one is already there.
    fn road_reach(&self, color: Color) -> RoadReach {
        let e = self.edges();
        let road = self.road_squares(color);
        let edges = [e.north, e.south, e.west, e.east];
        let groups = edges.map(|edge| (road & edge).flood(road));
        RoadReach {
            touch: std::array::from_fn(|i| edges[i] | groups[i] | groups[i].neighbours(e.board)),
            complete: !(groups[0] & e.south).is_empty() || !(groups[2] & e.east).is_empty(),
        }
    }

    /// Empty squares where a flat or capstone of `color` would complete a road for `color`.
    fn road_completing_squares(&self, reach: &RoadReach) -> Bitboard {
        let [n, s, w, e] = reach.touch;
        ((n & s) | (w & e)) & self.empty_squares()
    }

    /// Calls `found` with every ply that would win by road for `color` if it were `color`'s turn
    /// (ordinary turn rules), until `found` returns false. No allocation.
    fn each_road_win(&self, color: Color, mut found: impl FnMut(Ply) -> bool) {
        let e = self.edges();
        let r = self.reserve(color);
        let roles = [(Role::Flat, r.stones > 0), (Role::Cap, r.caps > 0)];
        let reach = self.road_reach(color);
        for square in self.road_completing_squares(&reach).squares() {
            for (role, available) in roles {
                if available && !found(Ply::Place { square, role }) {
                    return;
                }
            }
        }
        let road = self.road_squares(color);
        for from in self.controlled_by(color).squares() {
            let stack = self.stack(from);
            let height = stack.height();
            let carry = height.min(self.size());
            let moving = self.role_at(from);
            for dir in Dir::ALL {
                // A spread changes only the squares it leaves and drops on, at most `carry` of
                // them in a line: it completes a road only if that line meets what reaches two
                // opposite edges (or a road is already there). Most directions fail this before
                // their lane is looked at.
                let line = from.ray(dir, carry, e.board);
                let meets = |edge: usize| !(line & reach.touch[edge]).is_empty();
                if !(reach.complete || meets(0) && meets(1) || meets(2) && meets(3)) {
                    continue;
                }
                let lane = self.lane(from, dir);
                if lane.free + (moving == Role::Cap && lane.wall_after) as usize == 0 {
                    continue;
                }
                let mut try_ply = |drops: Drops| -> bool {
                    let k = drops.carry() as usize;
                    let pile = stack.peek(k);
                    let mut after = road & !from.bit();
                    if height > k && stack.color_at(height - k - 1) == color {
                        after |= from.bit();
                    }
                    let mut sq = from;
                    for top in drops.top_indices() {
                        sq = sq
                            .step(dir, self.size())
                            .expect("lane squares are on the board");
                        let owner_is_me = (pile >> top & 1) as usize == color.index();
                        let is_last = top + 1 == k;
                        after &= !sq.bit();
                        if owner_is_me && !(is_last && moving == Role::Wall) {
                            after |= sq.bit();
                        }
                    }
                    !e.connects(after) || found(Ply::Spread { from, dir, drops })
                };
                for mask in 1..(1u16 << carry) {
                    let bits = mask.count_ones() as usize;
                    let ok = bits <= lane.free
                        || (moving == Role::Cap
                            && lane.wall_after
                            && is_crush_mask(mask, lane.free as u32 + 1));
                    if ok && !try_ply(Drops::from_mask(mask as u8)) {
                        return;
                    }
                }
            }
        }
    }

    /// Plies that would win by road for `color` if it were `color`'s turn now.
    pub fn road_wins(&self, color: Color, out: &mut Vec<Ply>) {
        self.each_road_win(color, |ply| {
            out.push(ply);
            true
        });
    }

    /// Tak: `color` has at least one ply that completes a road.
    pub fn is_tak(&self, color: Color) -> bool {
        let mut any = false;
        self.each_road_win(color, |_| {
            any = true;
            false
        });
        any
    }

    /// One-move Tinuë for the player who just moved: every reply either hands them the game or
    /// leaves them a road win. False when the last ply already ended the game.
    pub fn is_tinue(&self) -> bool {
        if self.is_over() {
            return false;
        }
        let attacker = self.to_move().opponent();
        let mut replies = Vec::new();
        self.generate_plies(&mut replies);
        let mut pos = self.clone();
        replies.iter().all(|&reply| {
            let undo = pos.play_unchecked(reply);
            // A reply that ends the game breaks Tinuë unless it completes the attacker's road.
            let forced = match pos.end() {
                Some(GameResult::Road { winner, .. }) => winner == attacker,
                Some(_) => false,
                None => pos.is_tak(attacker),
            };
            pos.undo(undo);
            forced
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_binomial_sums() {
        let (spreads, crushes) = &TABLES;
        // Carry 1 over any free square: one pattern; carry 3 over 1 square: 3 (1, 2, 3 on it).
        assert_eq!(spreads[1][1], 1);
        assert_eq!(spreads[3][1], 3);
        // Carry up to 3 over 2 squares: 1 + 2 + 3 = 6 patterns (k=3: 3, 21, 12).
        assert_eq!(spreads[3][2], 6);
        assert_eq!(spreads[8][8], 255);
        // A lone capstone next to a wall: one crush; carry 3 with one free square: 21*.
        assert_eq!(crushes[1][0], 1);
        assert_eq!(crushes[3][1], 2); // 11*, 21*
        assert_eq!(crushes[3][0], 1);
    }
}
