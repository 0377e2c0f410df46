//! The position: stacks, reserves, whose turn; playing and undoing plies with every rule checked.

use super::ply::{Color, Drops, Piece, Ply, PtnPly, Role};
use super::setup::{Reserve, Setup};
use super::square::{edges, Bitboard, Dir, Edges, Square};
use super::stack::Stack;
use std::fmt;

/// A Tak position. Invariants (kept by every method):
/// - `owner[c]` is exactly the set of squares whose top piece is `c`'s;
/// - `walls` and `caps` are disjoint, and only mark occupied squares;
/// - no piece is off the board area of `setup.size`;
/// - pieces on the board plus `reserves` equal the setup's reserves, per player and kind.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    setup: Setup,
    stacks: [Stack; 64],
    owner: [Bitboard; 2],
    walls: Bitboard,
    caps: Bitboard,
    reserves: [Reserve; 2],
    /// Plies since move 1 with White to move: `2 * (move - 1) + (side - 1)`.
    ply_index: u32,
    /// Zobrist key of the board (every piece at its height, the top roles), kept up to date by
    /// every change so the searcher never rehashes a position; `hash64` adds the turn.
    zobrist: u64,
}

/// What `Position::play` returns so the ply can be taken back with `Position::undo`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Undo {
    pub ply: Ply,
    /// The ply's capstone flattened a wall.
    pub flattened: bool,
}

/// Why a ply is not legal here. Each says which square and which rule.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlyError {
    OffBoard {
        square: Square,
        size: usize,
    },
    Occupied(Square),
    OpeningMustPlaceFlat,
    NoStones {
        caps_left: bool,
    },
    NoCaps {
        size: usize,
        had_any: bool,
    },
    EmptySquare(Square),
    NotYours(Square),
    CarryLimit {
        size: usize,
    },
    TooFewPieces {
        square: Square,
        height: usize,
        carry: u8,
    },
    LeavesBoard {
        from: Square,
        dir: Dir,
    },
    CoversCap(Square),
    CoversWall(Square),
    NothingToFlatten(Square),
}

impl fmt::Display for PlyError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            PlyError::OffBoard { square, size } => write!(
                f,
                "{square} is off the {size}x{size} board (files a..{}, ranks 1..{size})",
                (b'a' + size as u8 - 1) as char
            ),
            PlyError::Occupied(sq) => write!(f, "{sq} is not empty: pieces are placed on empty squares only"),
            PlyError::OpeningMustPlaceFlat => write!(
                f,
                "the first ply must place the opponent's flat: on each player's first turn you \
                 place one of your opponent's flats on an empty square, like `a1`"
            ),
            PlyError::NoStones { caps_left: true } => {
                write!(f, "no stones left: you can still place your capstone, or move a stack")
            }
            PlyError::NoStones { caps_left: false } => write!(f, "no stones left"),
            PlyError::NoCaps { size, had_any: false } => {
                write!(f, "there are no capstones on {size}x{size}: place a flat or a wall")
            }
            PlyError::NoCaps { .. } => write!(f, "no capstones left: place a flat or a wall"),
            PlyError::EmptySquare(sq) => write!(f, "{sq} is empty: there is no stack to move"),
            PlyError::NotYours(sq) => {
                write!(f, "you do not control {sq}: you can only move stacks with your piece on top")
            }
            PlyError::CarryLimit { size } => {
                write!(f, "can carry at most {size} on {size}x{size}")
            }
            PlyError::TooFewPieces { square, height, carry } => write!(
                f,
                "{square} has {} but the move carries {carry}",
                crate::words::count(height as u64, "piece")
            ),
            PlyError::LeavesBoard { from, dir } => write!(
                f,
                "the move from {from} going {} leaves the board: drop fewer squares",
                dir.name()
            ),
            PlyError::CoversCap(sq) => {
                write!(f, "{sq} has a capstone on top: nothing can move onto a capstone")
            }
            PlyError::CoversWall(sq) => write!(
                f,
                "only a capstone moving alone flattens the wall on {sq}; nothing else can move onto a wall"
            ),
            PlyError::NothingToFlatten(sq) => {
                write!(f, "the `*` says a wall is flattened, but there is no wall on {sq}")
            }
        }
    }
}

impl std::error::Error for PlyError {}

impl Position {
    /// The empty board of `setup`, White to move.
    pub fn new(setup: Setup) -> Position {
        Position {
            setup,
            stacks: [Stack::default(); 64],
            owner: [Bitboard::EMPTY; 2],
            walls: Bitboard::EMPTY,
            caps: Bitboard::EMPTY,
            reserves: setup.reserves,
            ply_index: 0,
            zobrist: 0,
        }
    }

    /// Builds a position from its parts, checking the piece counts against the setup.
    /// `squares[i]` is bottom-first owners plus the top role, for `Square::from_index(i)`.
    pub(crate) fn from_parts(
        setup: Setup,
        squares: &[(Square, Vec<Color>, Role)],
        ply_index: u32,
    ) -> Result<Position, String> {
        let mut pos = Position::new(setup);
        pos.ply_index = ply_index;
        let mut used = [[0u32; 2]; 2]; // [color][stone/cap]
        for (sq, colors, role) in squares {
            let stack = &mut pos.stacks[sq.index()];
            for &c in colors {
                stack.push(c);
                used[c.index()][0] += 1;
            }
            let top = *colors.last().expect("stacks in TPS are never empty");
            match role {
                Role::Flat => {}
                Role::Wall => pos.walls |= sq.bit(),
                Role::Cap => {
                    pos.caps |= sq.bit();
                    used[top.index()][0] -= 1;
                    used[top.index()][1] += 1;
                }
            }
            pos.owner[top.index()] |= sq.bit();
        }
        pos.zobrist = pos.board_key();
        for color in [Color::White, Color::Black] {
            let [stones, caps] = used[color.index()];
            let r = setup.reserves[color.index()];
            if stones > r.stones as u32 || caps > r.caps as u32 {
                use crate::words::count;
                return Err(format!(
                    "the board has {} and {}, but each side has only {} and {} on {}x{}",
                    count(stones, &format!("{} stone", color.name())),
                    count(caps, &format!("{} capstone", color.name())),
                    count(r.stones, "stone"),
                    count(r.caps, "capstone"),
                    setup.size,
                    setup.size
                ));
            }
            pos.reserves[color.index()] = Reserve {
                stones: r.stones - stones as u8,
                caps: r.caps - caps as u8,
            };
        }
        Ok(pos)
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn size(&self) -> usize {
        self.setup.size
    }

    pub(crate) fn edges(&self) -> &'static Edges {
        edges(self.setup.size)
    }

    /// Hands the move to the opponent without a ply (the searcher's null move); `unpass` takes
    /// it back. Not a ply of Tak: only for trying what the opponent would do with two in a row.
    pub(crate) fn pass(&mut self) {
        self.ply_index += 1;
    }

    pub(crate) fn unpass(&mut self) {
        self.ply_index -= 1;
    }

    pub fn ply_index(&self) -> u32 {
        self.ply_index
    }

    pub fn move_number(&self) -> u32 {
        self.ply_index / 2 + 1
    }

    pub fn to_move(&self) -> Color {
        if self.ply_index.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Plies that place the opponent's flat (the opening swap).
    pub fn is_opening_swap(&self) -> bool {
        self.ply_index < 2 && self.setup.opening == super::setup::Opening::Swap
    }

    pub fn reserve(&self, color: Color) -> Reserve {
        self.reserves[color.index()]
    }

    pub fn stack(&self, sq: Square) -> &Stack {
        &self.stacks[sq.index()]
    }

    pub fn top(&self, sq: Square) -> Option<Piece> {
        let color = self.stacks[sq.index()].top()?;
        Some(Piece {
            color,
            role: self.role_at(sq),
        })
    }

    pub(crate) fn role_at(&self, sq: Square) -> Role {
        if self.walls.contains(sq) {
            Role::Wall
        } else if self.caps.contains(sq) {
            Role::Cap
        } else {
            Role::Flat
        }
    }

    pub fn occupied(&self) -> Bitboard {
        self.owner[0] | self.owner[1]
    }

    pub fn empty_squares(&self) -> Bitboard {
        self.edges().board & !self.occupied()
    }

    pub fn controlled_by(&self, color: Color) -> Bitboard {
        self.owner[color.index()]
    }

    pub fn walls(&self) -> Bitboard {
        self.walls
    }

    pub fn caps(&self) -> Bitboard {
        self.caps
    }

    /// Squares that count for `color`'s roads: its flats and capstones on top.
    pub fn road_squares(&self, color: Color) -> Bitboard {
        self.owner[color.index()] & !self.walls
    }

    /// Flats on top for `color` (what a flat win counts).
    pub fn flat_squares(&self, color: Color) -> Bitboard {
        self.owner[color.index()] & !self.walls & !self.caps
    }

    pub fn flat_count(&self, color: Color) -> u32 {
        self.flat_squares(color).count()
    }

    pub fn has_road(&self, color: Color) -> bool {
        self.edges().connects(self.road_squares(color))
    }

    /// Checks `ply` against every rule; `Ok(true)` when it flattens a wall.
    pub fn check(&self, ply: Ply) -> Result<bool, PlyError> {
        let size = self.size();
        let me = self.to_move();
        match ply {
            Ply::Place { square, role } => {
                if !square.is_on_board(size) {
                    return Err(PlyError::OffBoard { square, size });
                }
                if self.occupied().contains(square) {
                    return Err(PlyError::Occupied(square));
                }
                if self.is_opening_swap() {
                    if role != Role::Flat {
                        return Err(PlyError::OpeningMustPlaceFlat);
                    }
                    if self.reserve(me.opponent()).stones == 0 {
                        return Err(PlyError::NoStones { caps_left: false });
                    }
                    return Ok(false);
                }
                let r = self.reserve(me);
                match role {
                    Role::Cap if r.caps == 0 => Err(PlyError::NoCaps {
                        size,
                        had_any: self.setup.reserves[me.index()].caps > 0,
                    }),
                    Role::Flat | Role::Wall if r.stones == 0 => Err(PlyError::NoStones {
                        caps_left: r.caps > 0,
                    }),
                    _ => Ok(false),
                }
            }
            Ply::Spread { from, dir, drops } => {
                if self.is_opening_swap() {
                    return Err(PlyError::OpeningMustPlaceFlat);
                }
                if !from.is_on_board(size) {
                    return Err(PlyError::OffBoard { square: from, size });
                }
                let stack = self.stack(from);
                match stack.top() {
                    None => return Err(PlyError::EmptySquare(from)),
                    Some(c) if c != me => return Err(PlyError::NotYours(from)),
                    Some(_) => {}
                }
                let carry = drops.carry();
                if carry as usize > size {
                    return Err(PlyError::CarryLimit { size });
                }
                if carry as usize > stack.height() {
                    return Err(PlyError::TooFewPieces {
                        square: from,
                        height: stack.height(),
                        carry,
                    });
                }
                let moving = self.role_at(from);
                let mut sq = from;
                let last = drops.squares();
                for (i, n) in drops.counts().enumerate() {
                    sq = sq
                        .step(dir, size)
                        .ok_or(PlyError::LeavesBoard { from, dir })?;
                    if self.caps.contains(sq) {
                        return Err(PlyError::CoversCap(sq));
                    }
                    if self.walls.contains(sq) {
                        let flattens = i as u32 + 1 == last && n == 1 && moving == Role::Cap;
                        return if flattens {
                            Ok(true)
                        } else {
                            Err(PlyError::CoversWall(sq))
                        };
                    }
                }
                Ok(false)
            }
        }
    }

    /// Plays a ply written in PTN, checking the rules and any `*` mark.
    pub fn play_ptn(&mut self, ptn: &PtnPly) -> Result<Undo, PlyError> {
        let flattens = self.check(ptn.ply)?;
        if ptn.crush && !flattens {
            return Err(PlyError::NothingToFlatten(self.destination(ptn.ply)));
        }
        Ok(self.apply(ptn.ply, flattens))
    }

    /// Plays a ply after checking every rule.
    pub fn play(&mut self, ply: Ply) -> Result<Undo, PlyError> {
        let flattens = self.check(ply)?;
        Ok(self.apply(ply, flattens))
    }

    /// Plays a ply known to be legal (one from `generate_plies`).
    pub fn play_unchecked(&mut self, ply: Ply) -> Undo {
        let flattens = match ply {
            Ply::Spread { .. } => self.walls.contains(self.destination(ply)),
            Ply::Place { .. } => false,
        };
        self.apply(ply, flattens)
    }

    /// Where a ply ends: the placed square, or the last square of a spread (if on the board).
    pub fn destination(&self, ply: Ply) -> Square {
        match ply {
            Ply::Place { square, .. } => square,
            Ply::Spread { from, dir, drops } => {
                let mut sq = from;
                for _ in 0..drops.squares() {
                    match sq.step(dir, self.size()) {
                        Some(next) => sq = next,
                        None => break,
                    }
                }
                sq
            }
        }
    }

    /// Canonical PTN of a legal ply here, with `*` when it flattens a wall.
    pub fn ptn(&self, ply: Ply) -> String {
        let crush = matches!(ply, Ply::Spread { .. }) && self.walls.contains(self.destination(ply));
        if crush {
            format!("{ply}*")
        } else {
            ply.to_string()
        }
    }

    fn set_top(&mut self, sq: Square) {
        let bit = sq.bit();
        self.owner[0] &= !bit;
        self.owner[1] &= !bit;
        if let Some(c) = self.stacks[sq.index()].top() {
            self.owner[c.index()] |= bit;
        }
    }

    fn set_role(&mut self, sq: Square, role: Role) {
        self.zobrist ^= role_key(sq, self.role_at(sq)) ^ role_key(sq, role);
        let bit = sq.bit();
        self.walls &= !bit;
        self.caps &= !bit;
        match role {
            Role::Flat => {}
            Role::Wall => self.walls |= bit,
            Role::Cap => self.caps |= bit,
        }
    }

    fn apply(&mut self, ply: Ply, flattened: bool) -> Undo {
        match ply {
            Ply::Place { square, role } => {
                let color = if self.is_opening_swap() {
                    self.to_move().opponent()
                } else {
                    self.to_move()
                };
                let r = &mut self.reserves[color.index()];
                if role == Role::Cap {
                    r.caps -= 1;
                } else {
                    r.stones -= 1;
                }
                self.put_pieces(square, color.index() as u128, 1);
                self.set_role(square, role);
                self.owner[color.index()] |= square.bit();
            }
            Ply::Spread { from, dir, drops } => {
                let carry = drops.carry() as usize;
                let moving = self.role_at(from);
                let mut pile = self.take_pieces(from, carry);
                self.set_role(from, Role::Flat);
                self.set_top(from);
                let mut sq = from;
                for n in drops.counts() {
                    sq = sq
                        .step(dir, self.size())
                        .expect("legal spreads stay on the board");
                    self.put_pieces(sq, pile, n as usize);
                    pile >>= n;
                    self.set_role(sq, Role::Flat);
                    self.set_top(sq);
                }
                self.set_role(sq, moving);
            }
        }
        self.ply_index += 1;
        Undo { ply, flattened }
    }

    /// Takes back the ply that returned `undo` (which must be the last one played).
    pub fn undo(&mut self, undo: Undo) {
        self.ply_index -= 1;
        match undo.ply {
            Ply::Place { square, role } => {
                let color = self.stacks[square.index()]
                    .top()
                    .expect("placed piece is there");
                self.take_pieces(square, 1);
                self.set_role(square, Role::Flat);
                self.set_top(square);
                let r = &mut self.reserves[color.index()];
                if role == Role::Cap {
                    r.caps += 1;
                } else {
                    r.stones += 1;
                }
            }
            Ply::Spread { from, dir, drops } => {
                let last = self.destination(undo.ply);
                let moving = self.role_at(last);
                let counts: [u8; 8] = {
                    let mut a = [0; 8];
                    for (i, n) in drops.counts().enumerate() {
                        a[i] = n;
                    }
                    a
                };
                let squares = drops.squares() as usize;
                let mut pile: u128 = 0;
                let mut sq = last;
                for i in (0..squares).rev() {
                    let n = counts[i] as usize;
                    let taken = self.take_pieces(sq, n);
                    pile = (pile << n) | taken;
                    self.set_role(sq, Role::Flat);
                    self.set_top(sq);
                    if i > 0 {
                        sq = sq
                            .step(opposite(dir), self.size())
                            .expect("walks back along the move");
                    }
                }
                if undo.flattened {
                    self.set_role(last, Role::Wall);
                }
                self.put_pieces(from, pile, drops.carry() as usize);
                self.set_role(from, moving);
                self.set_top(from);
            }
        }
    }

    /// The game's end after the last ply, if the position ends it (road first, then flats).
    pub fn end(&self) -> Option<super::result::GameResult> {
        use super::result::{FlatCause, GameResult};
        let mover = self.to_move().opponent();
        let mine = self.has_road(mover);
        let theirs = self.has_road(mover.opponent());
        if mine || theirs {
            let winner = if mine { mover } else { mover.opponent() };
            return Some(GameResult::Road {
                winner,
                double: mine && theirs,
            });
        }
        let cause = if self.empty_squares().is_empty() {
            FlatCause::BoardFull
        } else if self.reserves.iter().any(|r| r.is_empty()) {
            let who = if self.reserves[0].is_empty() {
                Color::White
            } else {
                Color::Black
            };
            FlatCause::ReserveEmpty(who)
        } else {
            return None;
        };
        let white = self.flat_count(Color::White);
        let black = self.flat_count(Color::Black);
        let k = self.setup.komi.halves() as i32;
        let w2 = 2 * white as i32 + (-k).max(0);
        let b2 = 2 * black as i32 + k.max(0);
        let winner = match w2.cmp(&b2) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        Some(GameResult::Flats {
            winner,
            cause,
            white,
            black,
        })
    }

    /// True when the game is over by position (road, full board, an empty reserve).
    pub fn is_over(&self) -> bool {
        let e = self.edges();
        e.connects(self.road_squares(Color::White))
            || e.connects(self.road_squares(Color::Black))
            || self.empty_squares().is_empty()
            || self.reserves[0].is_empty()
            || self.reserves[1].is_empty()
    }
}

pub(crate) const fn opposite(dir: Dir) -> Dir {
    match dir {
        Dir::North => Dir::South,
        Dir::South => Dir::North,
        Dir::East => Dir::West,
        Dir::West => Dir::East,
    }
}

impl Drops {
    /// Bits of the carried pile (bottom first) that end on top of each square: used to see the
    /// new tops of a spread without playing it.
    pub(crate) fn top_indices(self) -> impl Iterator<Item = usize> {
        let mut rest = self.mask();
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                i
            })
        })
    }
}

impl Position {
    /// A 64-bit digest of everything that decides the game from here (stacks, roles, side to
    /// move, opening phase; the reserves follow from the board), for transposition tables and
    /// repetition checks. Incremental: costs the same on any board.
    pub fn hash64(&self) -> u64 {
        self.zobrist
            ^ mix(0x7A6B ^ (self.ply_index.min(2) as u64) << 8 ^ self.to_move().index() as u64)
    }

    /// `hash64` whatever the move number says: the stacks, roles and side to move alone (fair
    /// play compares a position a player types, who may renumber it, with a game's).
    pub fn placement_hash(&self) -> u64 {
        self.zobrist ^ mix(0x7A6B ^ self.to_move().index() as u64)
    }

    /// The board's Zobrist key computed from scratch (what `zobrist` must always equal).
    fn board_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied().squares() {
            let stack = &self.stacks[sq.index()];
            key ^= pile_key(sq, 0, stack.peek(stack.height()), stack.height());
            key ^= role_key(sq, self.role_at(sq));
        }
        key
    }

    /// Puts `n` pieces (bottom first in `pile`) on `sq`, keeping the key.
    fn put_pieces(&mut self, sq: Square, pile: u128, n: usize) {
        let stack = &mut self.stacks[sq.index()];
        self.zobrist ^= pile_key(sq, stack.height(), pile, n);
        stack.put(pile, n);
    }

    /// Takes the top `n` pieces of `sq` (bottom first in the result), keeping the key.
    fn take_pieces(&mut self, sq: Square, n: usize) -> u128 {
        let stack = &mut self.stacks[sq.index()];
        let pile = stack.take(n);
        self.zobrist ^= pile_key(sq, stack.height(), pile, n);
        pile
    }
}

/// splitmix64's finaliser: a well-mixed 64-bit key from any input.
const fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d049bb133111eb);
    x ^ (x >> 31)
}

/// The key of `n` pieces (owners bottom first in `pile`) lying on `sq` from height `base` up.
/// Each piece's input carries a tag of its own: `mix(0)` is 0, so untagged, White's bottom
/// piece on a1 would leave the key unchanged.
fn pile_key(sq: Square, base: usize, pile: u128, n: usize) -> u64 {
    (0..n).fold(0, |key, i| {
        let black = (pile >> i & 1) as u64;
        key ^ mix(0x3_0000_0000 ^ (sq.index() as u64) << 16 ^ ((base + i) as u64) << 1 ^ black)
    })
}

fn role_key(sq: Square, role: Role) -> u64 {
    match role {
        Role::Flat => 0,
        Role::Wall => mix(0x1_0000_0000 ^ sq.index() as u64),
        Role::Cap => mix(0x2_0000_0000 ^ sq.index() as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The incremental key equals the key computed from scratch after every ply and every undo,
    /// through spreads, crushes and the opening swap; and transposed positions share a key.
    #[test]
    fn zobrist_key_stays_exact_through_play_and_undo() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for size in 3..=8 {
            let mut pos = Position::new(Setup::new(size).unwrap());
            let mut undos = Vec::new();
            let mut plies = Vec::new();
            for _ in 0..200 {
                if pos.ply_index() > 0 && pos.is_over() {
                    break;
                }
                plies.clear();
                pos.generate_plies(&mut plies);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let ply = plies[(seed % plies.len() as u64) as usize];
                undos.push(pos.play_unchecked(ply));
                assert_eq!(pos.zobrist, pos.board_key(), "after {ply} on {size}x{size}");
            }
            while let Some(undo) = undos.pop() {
                pos.undo(undo);
                assert_eq!(pos.zobrist, pos.board_key(), "after undoing {}", undo.ply);
            }
            assert_eq!(pos, Position::new(Setup::new(size).unwrap()));
        }
        let mut a = Position::new(Setup::new(5).unwrap());
        let mut b = a.clone();
        for ply in ["a1", "e5", "b2", "d4", "c3", "e4"] {
            a.play(Ply::parse(ply).unwrap().ply).unwrap();
        }
        for ply in ["a1", "e5", "c3", "e4", "b2", "d4"] {
            b.play(Ply::parse(ply).unwrap().ply).unwrap();
        }
        assert_ne!(a.to_tps(), Position::new(Setup::new(5).unwrap()).to_tps());
        assert_eq!(a.hash64(), b.hash64());
        b.play(Ply::parse("a2").unwrap().ply).unwrap();
        assert_ne!(a.hash64(), b.hash64());
    }

    /// One flat of either colour, on any square of any size, changes the key: positions that
    /// differ by a piece never share one (a1's bottom White piece once did not count).
    #[test]
    fn every_piece_on_every_square_changes_the_key() {
        for size in 3..=8 {
            let setup = Setup::new(size).unwrap();
            let empty = Position::from_tps_with(&empty_board(size, None), setup).unwrap();
            for sq in 0..size * size {
                for piece in ["1", "2"] {
                    let tps = empty_board(size, Some((sq, piece)));
                    let one = Position::from_tps_with(&tps, setup).unwrap();
                    assert_ne!(one.hash64(), empty.hash64(), "{tps}");
                }
            }
        }
    }

    /// The TPS of an empty board of `size`, White to move at move 3, with one flat on square
    /// `sq` (a1 = 0, row by row) if asked.
    fn empty_board(size: usize, flat: Option<(usize, &str)>) -> String {
        let rows: Vec<String> = (0..size)
            .rev()
            .map(|row| {
                let cells: Vec<&str> = (0..size)
                    .map(|col| match flat {
                        Some((sq, piece)) if sq == row * size + col => piece,
                        _ => "x",
                    })
                    .collect();
                cells.join(",")
            })
            .collect();
        format!("{} 1 3", rows.join("/"))
    }
}
