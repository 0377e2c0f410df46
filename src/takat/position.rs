//! A Takat position: the stacks, whose turn, the piece just moved, and every rule of a ply.

use super::board::{each, Board, Cells};
use super::result::{Color, Ending};
use std::fmt;

/// The tallest a stack may be.
pub const MAX_HEIGHT: u8 = 6;

/// A stack of at most six pieces: bit i is set when the i-th piece from the bottom is Black.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Stack {
    height: u8,
    black: u8,
}

impl Stack {
    pub fn height(self) -> u8 {
        self.height
    }

    /// The pieces from the bottom up.
    pub fn pieces(self) -> impl Iterator<Item = Color> {
        (0..self.height).map(move |i| {
            if self.black & 1 << i != 0 {
                Color::Black
            } else {
                Color::White
            }
        })
    }

    pub fn top(self) -> Option<Color> {
        self.pieces().last()
    }

    /// How many pieces of the top piece's colour lie directly on one another at the top.
    pub fn run(self) -> u8 {
        let Some(top) = self.top() else { return 0 };
        let pieces: Vec<Color> = self.pieces().collect();
        pieces.iter().rev().take_while(|&&c| c == top).count() as u8
    }

    fn push(&mut self, c: Color) {
        if c == Color::Black {
            self.black |= 1 << self.height;
        }
        self.height += 1;
    }

    fn pop(&mut self) -> Option<Color> {
        let top = self.top()?;
        self.height -= 1;
        self.black &= !(1 << self.height);
        Some(top)
    }

    fn count(self, c: Color) -> u8 {
        let black = self.black.count_ones() as u8;
        match c {
            Color::Black => black,
            Color::White => self.height - black,
        }
    }
}

/// Why a move is refused (`Position::move_refused`; `move_refusal` words it).
#[derive(Clone, Copy)]
enum Refused {
    NoPiece,
    NotNext,
    JustMoved,
    /// By the colour of its top.
    PermanentlySafe(Color),
    Safe(Color),
    Climbs,
    TooTall,
    TowersTogether,
}

/// How safe the top piece of a stack is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Safety {
    /// Either player may move it.
    Open,
    /// Two or more of its colour on top: only its owner may move it.
    Temporary,
    /// Three or more of its colour on top, on a red circle: nobody may move it.
    Permanent,
}

/// One turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ply {
    /// A piece from the reserve onto an empty circle.
    Enter(u8),
    /// The top piece of `from` onto the adjacent `to`.
    Move { from: u8, to: u8 },
}

impl Ply {
    /// The cell the ply ends on (where the just-moved piece lies).
    pub fn target(self) -> u8 {
        match self {
            Ply::Enter(c) | Ply::Move { to: c, .. } => c,
        }
    }
}

/// Why a ply is not allowed, in words a player understands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlyError(pub String);

impl fmt::Display for PlyError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlyError {}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    board: &'static Board,
    stacks: [Stack; 19],
    to_move: Color,
    /// The cell of the piece the opponent moved or entered last.
    just_moved: Option<u8>,
    /// A move is a White ply and a Black ply; starts at 1.
    move_number: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Position({})", self.to_text())
    }
}

impl Position {
    /// The empty board of `cells` circles (7 or 19), White to move.
    pub fn new(cells: usize) -> Result<Position, String> {
        Ok(Position {
            board: Board::of(cells)?,
            stacks: [Stack::default(); 19],
            to_move: Color::White,
            just_moved: None,
            move_number: 1,
        })
    }

    pub fn board(&self) -> &'static Board {
        self.board
    }

    pub fn stack(&self, cell: u8) -> Stack {
        self.stacks[cell as usize]
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn just_moved(&self) -> Option<u8> {
        self.just_moved
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The same stacks, player to move and just-moved piece (what repetition compares; the
    /// move number is not part of it).
    pub fn repeats(&self, other: &Position) -> bool {
        self.stacks == other.stacks
            && self.to_move == other.to_move
            && self.just_moved == other.just_moved
    }

    fn cells(&self) -> impl Iterator<Item = u8> {
        0..self.board.len() as u8
    }

    /// Pieces of `c` on the board.
    pub fn on_board(&self, c: Color) -> u8 {
        self.cells().map(|x| self.stack(x).count(c)).sum()
    }

    /// Pieces of `c` not yet entered.
    pub fn reserve(&self, c: Color) -> u8 {
        self.board.pieces()[c.index()] - self.on_board(c)
    }

    pub fn safety(&self, cell: u8) -> Safety {
        match self.stack(cell).run() {
            k if k >= 3 && self.board.is_red(cell) => Safety::Permanent,
            k if k >= 2 => Safety::Temporary,
            _ => Safety::Open,
        }
    }

    /// Stacks of exactly six.
    pub fn sixes(&self) -> u32 {
        self.cells()
            .filter(|&c| self.stack(c).height() == MAX_HEIGHT)
            .count() as u32
    }

    fn empty_entries(&self) -> Cells {
        self.cells()
            .filter(|&c| c != self.board.centre && self.stack(c).height() == 0)
            .fold(0, |set, c| set | 1 << c)
    }

    /// The cells the player to move may enter on (none without a reserve).
    fn entries(&self) -> Cells {
        if self.reserve(self.to_move) == 0 {
            0
        } else {
            self.empty_entries()
        }
    }

    /// Black has fewer pieces on the board than White and can enter: Black may only enter.
    fn must_enter(&self) -> bool {
        self.to_move == Color::Black
            && self.on_board(Color::Black) < self.on_board(Color::White)
            && self.entries() != 0
    }

    /// The colour of a safe tower's cap: a stack of four or more whose top is safe.
    fn tower(&self, cell: u8) -> Option<Color> {
        let s = self.stack(cell);
        (s.height() >= 4 && s.run() >= 2).then(|| s.top()).flatten()
    }

    /// No two neighbouring safe towers with caps of one colour, looking at the changed cells.
    fn towers_apart(&self, changed: [u8; 2]) -> bool {
        changed.iter().all(|&c| match self.tower(c) {
            None => true,
            Some(cap) => each(self.board.neighbours(c)).all(|n| self.tower(n) != Some(cap)),
        })
    }

    /// Why `from` → `to` is not a legal move, or `None` if it is. Checked in the order a player
    /// would think of them; nothing is worded here (move generation asks this of every pair).
    fn move_refused(&self, from: u8, to: u8) -> Option<Refused> {
        let b = self.board;
        let (f, t) = (self.stack(from), self.stack(to));
        let Some(top) = f.top() else {
            return Some(Refused::NoPiece);
        };
        if b.neighbours(from) & 1 << to == 0 {
            return Some(Refused::NotNext);
        }
        if self.just_moved == Some(from) {
            return Some(Refused::JustMoved);
        }
        match self.safety(from) {
            Safety::Permanent => return Some(Refused::PermanentlySafe(top)),
            Safety::Temporary if top != self.to_move => return Some(Refused::Safe(top)),
            _ => {}
        }
        if t.height() > f.height() + 1 {
            return Some(Refused::Climbs);
        }
        if t.height() >= MAX_HEIGHT {
            return Some(Refused::TooTall);
        }
        let mut after = *self;
        after.stacks[from as usize].pop();
        after.stacks[to as usize].push(top);
        if !after.towers_apart([from, to]) {
            return Some(Refused::TowersTogether);
        }
        None
    }

    /// Why `from` → `to` is not a legal move, in words, or `None` if it is.
    fn move_refusal(&self, from: u8, to: u8) -> Option<String> {
        let refused = self.move_refused(from, to)?;
        let b = self.board;
        let (f, t) = (self.stack(from), self.stack(to));
        let name = |c| b.name(c);
        Some(match refused {
            Refused::NoPiece => format!("there is no piece on {} to move", name(from)),
            Refused::NotNext => format!(
                "{} is not next to {}: a piece moves to a neighbouring circle",
                name(to),
                name(from)
            ),
            Refused::JustMoved => format!(
                "the piece on {} was just moved by {}; it cannot be moved back at once",
                name(from),
                self.to_move.opponent().name()
            ),
            Refused::PermanentlySafe(top) => format!(
                "the {} piece on {} is permanently safe (three of its colour on a red circle): nobody may move it",
                top.name().to_lowercase(),
                name(from)
            ),
            Refused::Safe(top) => format!(
                "the {} piece on {} is safe (two of its colour on top): only {} may move it",
                top.name().to_lowercase(),
                name(from),
                top.name()
            ),
            Refused::Climbs => format!(
                "a piece climbs at most one level: the stack on {} is {} high, so it can reach stacks of at most {}, and {} is {} high",
                name(from),
                f.height(),
                f.height() + 1,
                name(to),
                t.height()
            ),
            Refused::TooTall => format!(
                "a stack may not be taller than six, and {} already has six",
                name(to)
            ),
            Refused::TowersTogether => {
                "two neighbouring stacks of four or more may not both have safe tops of one colour"
                    .into()
            }
        })
    }

    /// Every legal ply of the player to move, entries first.
    pub fn legal_plies(&self, out: &mut Vec<Ply>) {
        out.extend(each(self.entries()).map(Ply::Enter));
        if self.must_enter() {
            return;
        }
        for from in self.cells() {
            if self.stack(from).height() == 0 {
                continue;
            }
            for to in each(self.board.neighbours(from)) {
                if self.move_refused(from, to).is_none() {
                    out.push(Ply::Move { from, to });
                }
            }
        }
    }

    pub fn has_legal_ply(&self) -> bool {
        let mut plies = Vec::new();
        self.legal_plies(&mut plies);
        !plies.is_empty()
    }

    /// Why `ply` is illegal here, if it is.
    pub fn check(&self, ply: Ply) -> Result<(), PlyError> {
        let b = self.board;
        match ply {
            Ply::Enter(c) => {
                let who = self.to_move.name();
                if c == b.centre {
                    Err(format!("nobody may enter on the centre circle {}", b.name(c)))
                } else if self.stack(c).height() > 0 {
                    Err(format!(
                        "{} is taken: pieces enter on empty circles only",
                        b.name(c)
                    ))
                } else if self.reserve(self.to_move) == 0 {
                    Err(format!("{who} has no pieces left to enter; move one instead"))
                } else {
                    Ok(())
                }
            }
            Ply::Move { from, to } => {
                if self.must_enter() {
                    Err(format!(
                        "Black has fewer pieces on the board than White ({} vs {}), so Black must enter a piece",
                        self.on_board(Color::Black),
                        self.on_board(Color::White)
                    ))
                } else {
                    self.move_refusal(from, to).map_or(Ok(()), Err)
                }
            }
        }
        .map_err(|why| PlyError(format!("{}: {why}", self.name(ply))))
    }

    /// Plays a ply already checked legal.
    pub fn apply(&mut self, ply: Ply) {
        match ply {
            Ply::Enter(c) => self.stacks[c as usize].push(self.to_move),
            Ply::Move { from, to } => {
                let piece = self.stacks[from as usize].pop().expect("checked");
                self.stacks[to as usize].push(piece);
            }
        }
        self.just_moved = Some(ply.target());
        if self.to_move == Color::Black {
            self.move_number += 1;
        }
        self.to_move = self.to_move.opponent();
    }

    /// Hands the turn to the opponent without a ply (for evaluating their options); the
    /// just-moved piece is cleared.
    pub fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
        self.just_moved = None;
    }

    /// Checks and plays.
    pub fn play(&mut self, ply: Ply) -> Result<(), PlyError> {
        self.check(ply)?;
        self.apply(ply);
        Ok(())
    }

    /// How the position ends the game, by the rules' order: White's stacks of six, then a player
    /// to move with no legal ply. Repetition needs the history: see `Game`.
    pub fn end(&self) -> Option<Ending> {
        if self.sixes() >= self.board.sixes_to_win() {
            return Some(Ending::Sixes {
                count: self.sixes(),
            });
        }
        (!self.has_legal_ply()).then_some(Ending::Immobilised {
            loser: self.to_move,
        })
    }

    /// `b1` or `a1-b2`.
    pub fn name(&self, ply: Ply) -> String {
        match ply {
            Ply::Enter(c) => self.board.name(c).to_string(),
            Ply::Move { from, to } => {
                format!("{}-{}", self.board.name(from), self.board.name(to))
            }
        }
    }

    /// Reads `b1` or `a1-b2` (either case, spaces allowed around the dash).
    pub fn parse_ply(&self, text: &str) -> Result<Ply, PlyError> {
        let b = self.board;
        let cell = |t: &str| {
            b.cell(t).ok_or_else(|| {
                PlyError(format!(
                    "{} is not a circle of this board: circles are {} (columns a-{}, rows from 1 at the bottom)",
                    crate::tak::quote(t.trim()),
                    self.cells().map(|c| b.name(c)).collect::<Vec<_>>().join(" "),
                    (b'a' + 2 * b.radius as u8) as char
                ))
            })
        };
        let hint = "write an entry as its circle (b1) or a move as from-to (a1-b2)";
        if text.trim().is_empty() {
            return Err(PlyError(format!("no ply given: {hint}")));
        }
        match text.split_once('-') {
            Some((from, to)) => Ok(Ply::Move {
                from: cell(from)?,
                to: cell(to)?,
            }),
            None if text.trim().chars().all(|c| c.is_ascii_alphanumeric()) => {
                Ok(Ply::Enter(cell(text)?))
            }
            None => Err(PlyError(format!(
                "{} is not a Takat ply: {hint}",
                crate::tak::quote(text)
            ))),
        }
    }

    /// The position string: `x,x/x,x,x/x,x 1 - 1`.
    pub fn to_text(&self) -> String {
        let mut columns = Vec::new();
        let mut cell = 0u8;
        for len in self.board.columns() {
            let mut cells = Vec::new();
            for _ in 0..len {
                let s = self.stack(cell);
                cells.push(if s.height() == 0 {
                    "x".to_string()
                } else {
                    s.pieces()
                        .map(|c| if c == Color::White { '1' } else { '2' })
                        .collect()
                });
                cell += 1;
            }
            columns.push(cells.join(","));
        }
        format!(
            "{} {} {} {}",
            columns.join("/"),
            self.to_move.index() + 1,
            self.just_moved.map_or("-", |c| self.board.name(c)),
            self.move_number
        )
    }

    /// Reads a position string; the board size follows from it.
    pub fn from_text(text: &str) -> Result<Position, String> {
        let bad = |why: String| {
            format!(
                "{} is not a Takat position: {why} (example, the start of 7 circles: `x,x/x,x,x/x,x 1 - 1`)",
                crate::tak::quote(text)
            )
        };
        let parts: Vec<&str> = text.split_whitespace().collect();
        let [cells, side, moved, number] = parts[..] else {
            return Err(bad(
                "it needs four parts: the columns, the player to move, the just-moved cell, the move number".into(),
            ));
        };
        let columns: Vec<Vec<&str>> = cells.split('/').map(|c| c.split(',').collect()).collect();
        let count: usize = columns.iter().map(Vec::len).sum();
        let board = Board::of(count).map_err(|_| {
            bad(format!(
                "it has {count} cells; a board has 7 or 19 (columns of 2,3,2 or 3,4,5,4,3)"
            ))
        })?;
        if columns.iter().map(Vec::len).collect::<Vec<_>>() != board.columns() {
            return Err(bad(format!(
                "its columns hold {:?} cells; this board's hold {:?}",
                columns.iter().map(Vec::len).collect::<Vec<_>>(),
                board.columns()
            )));
        }
        let mut p = Position::new(count)?;
        for (i, cell) in columns.iter().flatten().enumerate() {
            if *cell == "x" || *cell == "X" {
                continue;
            }
            if cell.len() > MAX_HEIGHT as usize {
                return Err(bad(format!(
                    "{} holds more than six pieces",
                    board.name(i as u8)
                )));
            }
            for ch in cell.chars() {
                p.stacks[i].push(match ch {
                    '1' => Color::White,
                    '2' => Color::Black,
                    _ => {
                        return Err(bad(format!(
                            "cell {} is {cell}: write x for empty, or the stack bottom to top with 1 (White) and 2 (Black)",
                            board.name(i as u8)
                        )))
                    }
                });
            }
        }
        for c in [Color::White, Color::Black] {
            if p.on_board(c) > board.pieces()[c.index()] {
                return Err(bad(format!(
                    "{} has {} pieces on the board but only {} in all",
                    c.name(),
                    p.on_board(c),
                    board.pieces()[c.index()]
                )));
            }
        }
        p.to_move = match side {
            "1" => Color::White,
            "2" => Color::Black,
            _ => return Err(bad("the player to move is 1 (White) or 2 (Black)".into())),
        };
        p.just_moved = match moved {
            "-" => None,
            name => {
                let c = board
                    .cell(name)
                    .ok_or_else(|| bad(format!("{name} is not a cell of this board")))?;
                if p.stack(c).height() == 0 {
                    return Err(bad(format!(
                        "the just-moved piece is on {name}, which is empty"
                    )));
                }
                Some(c)
            }
        };
        p.move_number = number
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| bad("the move number is a whole number from 1".into()))?;
        Ok(p)
    }
}
