//! Squares, directions and bitboards.
//!
//! Every board size uses the same 8-wide layout (`rank * 8 + file`), so one `u64` holds any board
//! from 3x3 to 8x8 and the neighbour shifts are the same for all sizes; the per-size masks keep
//! the bits beyond the board empty.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

pub const MIN_SIZE: usize = 3;
pub const MAX_SIZE: usize = 8;

/// A square on the board: `rank * 8 + file`, file 0 = `a`, rank 0 = `1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn bit(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// This square and the next `len` squares from it towards `dir`, as far as `board` goes.
    pub fn ray(self, dir: Dir, len: usize, board: Bitboard) -> Bitboard {
        Bitboard(RAYS[dir as usize][self.index()][len.min(7)] & board.0)
    }

    pub fn is_on_board(self, size: usize) -> bool {
        (self.file() as usize) < size && (self.rank() as usize) < size
    }

    /// The neighbouring square in `dir`, if it is on a board of `size`.
    pub fn step(self, dir: Dir, size: usize) -> Option<Square> {
        let (file, rank) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (f, r) = (file + df, rank + dr);
        let on = (0..size as i8).contains(&f) && (0..size as i8).contains(&r);
        on.then(|| Square::new(f as u8, r as u8))
    }

    /// Parses `a1` .. `h8` (lowercase file letter, rank digit).
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::new(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// All squares of a board of `size`, rank 1 first.
    pub fn all(size: usize) -> impl Iterator<Item = Square> {
        (0..size).flat_map(move |r| (0..size).map(move |f| Square::new(f as u8, r as u8)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A direction of movement, with its PTN symbol.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    North,
    South,
    East,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    pub const fn symbol(self) -> char {
        match self {
            Dir::North => '+',
            Dir::South => '-',
            Dir::East => '>',
            Dir::West => '<',
        }
    }

    pub fn from_symbol(c: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.symbol() == c)
    }

    /// (file delta, rank delta)
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::South => (0, -1),
            Dir::East => (1, 0),
            Dir::West => (-1, 0),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::South => "south",
            Dir::East => "east",
            Dir::West => "west",
        }
    }
}

/// `RAYS[dir][square][len]`: the square and up to `len` squares past it towards `dir` on the
/// widest board; a smaller board's rays are these cut by its mask (a ray that leaves the board
/// never comes back).
static RAYS: [[[u64; 8]; 64]; 4] = {
    let mut rays = [[[0u64; 8]; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let (df, dr) = Dir::ALL[dir].delta();
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
            let mut line = 1u64 << sq;
            rays[dir][sq][0] = line;
            let mut len = 1;
            while len < 8 {
                f += df;
                r += dr;
                if f >= 0 && f < 8 && r >= 0 && r < 8 {
                    line |= 1 << (r * 8 + f);
                }
                rays[dir][sq][len] = line;
                len += 1;
            }
            sq += 1;
        }
        dir += 1;
    }
    rays
};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    pub fn squares(self) -> Squares {
        Squares(self.0)
    }

    /// The squares orthogonally next to any square of `self`, within `board`.
    pub const fn neighbours(self, board: Bitboard) -> Bitboard {
        let b = self.0;
        Bitboard(((b << 8) | (b >> 8) | ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H)) & board.0)
    }

    /// Everything in `within` connected to `self` through `within`.
    pub fn flood(self, within: Bitboard) -> Bitboard {
        let mut reached = self & within;
        loop {
            let next = (reached | reached.neighbours(within)) & within;
            if next == reached {
                return reached;
            }
            reached = next;
        }
    }
}

/// Iterates the squares of a bitboard, lowest index first.
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square(index as u8))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0
    }
}

/// The board area and its four edges for one board size.
#[derive(Clone, Copy, Debug)]
pub struct Edges {
    pub board: Bitboard,
    pub north: Bitboard,
    pub south: Bitboard,
    pub east: Bitboard,
    pub west: Bitboard,
}

const fn edges_for(size: usize) -> Edges {
    let mut board = 0u64;
    let mut rank = 0;
    while rank < size {
        board |= ((1u64 << size) - 1) << (rank * 8);
        rank += 1;
    }
    let south = (1u64 << size) - 1;
    Edges {
        board: Bitboard(board),
        north: Bitboard(south << ((size - 1) * 8)),
        south: Bitboard(south),
        west: Bitboard(board & FILE_A),
        east: Bitboard(board & (FILE_A << (size - 1))),
    }
}

const EDGES: [Edges; MAX_SIZE + 1] = {
    let mut table = [edges_for(1); MAX_SIZE + 1];
    let mut size = 1;
    while size <= MAX_SIZE {
        table[size] = edges_for(size);
        size += 1;
    }
    table
};

/// The masks for a board of `size` (3..=8).
pub fn edges(size: usize) -> &'static Edges {
    &EDGES[size]
}

impl Edges {
    /// True when `road` connects north to south or east to west.
    pub fn connects(&self, road: Bitboard) -> bool {
        (!(road & self.north).is_empty()
            && !(road & self.south).is_empty()
            && !((road & self.north).flood(road) & self.south).is_empty())
            || (!(road & self.west).is_empty()
                && !(road & self.east).is_empty()
                && !((road & self.west).flood(road) & self.east).is_empty())
    }

    /// The squares of every road in `road` (for drawing a winning road).
    pub fn road_squares(&self, road: Bitboard) -> Bitboard {
        let ns = (road & self.north).flood(road) & (road & self.south).flood(road);
        let ew = (road & self.west).flood(road) & (road & self.east).flood(road);
        let mut out = Bitboard::EMPTY;
        if !(ns & self.south).is_empty() {
            out |= ns;
        }
        if !(ew & self.east).is_empty() {
            out |= ew;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse() {
        assert_eq!(Square::new(0, 0).to_string(), "a1");
        assert_eq!(Square::new(7, 7).to_string(), "h8");
        assert_eq!(Square::parse("c3"), Some(Square::new(2, 2)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn steps_stop_at_the_edge() {
        let a1 = Square::new(0, 0);
        assert_eq!(a1.step(Dir::South, 5), None);
        assert_eq!(a1.step(Dir::West, 5), None);
        assert_eq!(a1.step(Dir::North, 5), Some(Square::new(0, 1)));
        let e5 = Square::new(4, 4);
        assert_eq!(e5.step(Dir::East, 5), None);
        assert_eq!(e5.step(Dir::East, 6), Some(Square::new(5, 4)));
    }

    #[test]
    fn rays_are_the_steps_from_a_square_on_every_board() {
        for size in MIN_SIZE..=MAX_SIZE {
            let board = edges(size).board;
            for sq in Square::all(size) {
                for dir in Dir::ALL {
                    for len in 0..=size {
                        let mut want = sq.bit();
                        let mut at = sq;
                        for _ in 0..len {
                            match at.step(dir, size) {
                                Some(next) => at = next,
                                None => break,
                            }
                            want.0 |= at.bit().0;
                        }
                        assert_eq!(sq.ray(dir, len, board), want, "{size} {sq} {dir:?} {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn neighbours_never_wrap_or_leave_the_board() {
        for size in MIN_SIZE..=MAX_SIZE {
            let e = edges(size);
            for sq in Square::all(size) {
                let expected: Vec<Square> =
                    Dir::ALL.iter().filter_map(|&d| sq.step(d, size)).collect();
                let mut got: Vec<Square> = sq.bit().neighbours(e.board).squares().collect();
                got.sort();
                let mut want = expected.clone();
                want.sort();
                assert_eq!(got, want, "size {size} square {sq}");
            }
        }
    }

    #[test]
    fn edges_have_size_squares() {
        for size in MIN_SIZE..=MAX_SIZE {
            let e = edges(size);
            assert_eq!(e.board.count() as usize, size * size);
            for edge in [e.north, e.south, e.east, e.west] {
                assert_eq!(edge.count() as usize, size);
            }
        }
    }
}
