//! The static evaluation: a weighted sum of features of each side, the weights fitted to game
//! results by `bredon tune` (Texel's method, see `tune`), not set by hand.

use crate::tak::{Bitboard, Color, Position};

/// How many features describe one side.
pub const FEATURES: usize = 11;

/// What each feature counts (for `bredon tune`'s report).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "flats counted in halves (komi included)",
    "longest line of road squares, squared",
    "widest road group span, squared",
    "own pieces under own tops (captives)",
    "opponent pieces under own tops (hostages)",
    "capstones",
    "walls",
    "road squares in the centre",
    "pieces left in reserve",
    "road groups",
    "flats next to own flats",
];

/// Hundredths of a flat per unit of each feature, side to move minus opponent.
pub type Weights = [i32; FEATURES];

/// The weights Bredon plays with: fitted by `bredon tune` (docs/DEVELOPING.md gives the command).
pub const WEIGHTS: Weights = [50, 4, -2, 44, -15, 49, 51, 17, -77, -33, 28];

/// What having the move is worth.
pub const TEMPO: i32 = 115;

/// The position's value for the side to move, in hundredths of a flat.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    difference(pos)
        .iter()
        .zip(weights)
        .map(|(f, w)| f * w)
        .sum::<i32>()
        + TEMPO
}

/// Each feature of the side to move minus the opponent's.
pub fn difference(pos: &Position) -> [i32; FEATURES] {
    let me = pos.to_move();
    let mine = side(pos, me);
    let theirs = side(pos, me.opponent());
    let mut d = [0; FEATURES];
    for i in 0..FEATURES {
        d[i] = mine[i] - theirs[i];
    }
    let komi = pos.setup().komi.halves() as i32;
    d[0] += if me == Color::Black { komi } else { -komi };
    d
}

fn side(pos: &Position, c: Color) -> [i32; FEATURES] {
    let size = pos.size();
    let e = crate::tak::square::edges(size);
    let road = pos.road_squares(c);
    let mut f = [0; FEATURES];
    f[0] = 2 * pos.flat_count(c) as i32;
    let mut line_best = 0;
    for i in 0..size {
        let row = Bitboard(e.south.0 << (8 * i));
        let col = Bitboard(e.west.0 << i);
        line_best = line_best
            .max((road & row).count())
            .max((road & col).count());
    }
    f[1] = (line_best * line_best) as i32;
    let mut rest = road;
    let mut span_best = 0;
    let mut groups = 0;
    while let Some(sq) = rest.squares().next() {
        let group = sq.bit().flood(road);
        rest = Bitboard(rest.0 & !group.0);
        groups += 1;
        let (mut rows, mut cols) = (0u32, 0u32);
        for s in group.squares() {
            rows |= 1 << s.rank();
            cols |= 1 << s.file();
        }
        span_best = span_best.max(rows.count_ones()).max(cols.count_ones());
    }
    f[2] = (span_best * span_best) as i32;
    for sq in pos.controlled_by(c).squares() {
        let stack = pos.stack(sq);
        let carried = stack.height().min(size);
        let own = stack.colors().rev().take(size).filter(|&x| x == c).count() as i32;
        f[3] += own - 1;
        f[4] += carried as i32 - own;
    }
    f[5] = (pos.controlled_by(c) & pos.caps()).count() as i32;
    f[6] = (pos.controlled_by(c) & pos.walls()).count() as i32;
    f[7] = (road & centre(size)).count() as i32;
    let reserve = pos.reserve(c);
    f[8] = (reserve.stones + reserve.caps) as i32;
    f[9] = groups;
    let flats = pos.controlled_by(c) & !pos.walls() & !pos.caps();
    f[10] = (flats & flats.neighbours(e.board)).count() as i32;
    f
}

/// The squares at least one square in from every edge.
fn centre(size: usize) -> Bitboard {
    let e = crate::tak::square::edges(size);
    Bitboard(e.board.0 & !(e.north.0 | e.south.0 | e.east.0 | e.west.0))
}
