//! TPS (Tak Positional System): `rows side move`.

use super::ply::{Color, Role};
use super::position::Position;
use super::setup::Setup;
use super::square::{Square, MAX_SIZE, MIN_SIZE};

impl Position {
    /// Reads a TPS with the standard reserves for its size, no komi, opening swap.
    pub fn from_tps(tps: &str) -> Result<Position, String> {
        let size = tps_size(tps)?;
        Position::from_tps_with(tps, Setup::new(size)?)
    }

    /// Reads a TPS for a game of `setup` (its size must match the TPS). The variants other tools
    /// write are read too: `-` between rows (TPS-Ninja's file names), `c`/`s` and `X` in either
    /// case, and move number 0 (as 1).
    pub fn from_tps_with(tps: &str, setup: Setup) -> Result<Position, String> {
        let tps = normalize(tps);
        let fields: Vec<&str> = tps.split_whitespace().collect();
        let [rows, side, mv] = fields[..] else {
            return Err(format!(
                "TPS needs 3 fields separated by spaces (rows, side to move, move number), got {}: \
                 for example `x5/x5/x5/x5/x5 1 1`",
                fields.len()
            ));
        };
        let side = match side {
            "1" => 0,
            "2" => 1,
            other => {
                return Err(format!(
                    "TPS side to move is {}: it must be 1 or 2",
                    super::quote(other)
                ))
            }
        };
        let mv: u32 = match mv.parse() {
            Ok(0) => 1,
            Ok(n) if (1..=100_000).contains(&n) => n,
            _ => {
                return Err(format!(
                    "TPS move number is {}: it must be a whole number from 1",
                    super::quote(mv)
                ))
            }
        };
        let size = setup.size;
        let row_texts: Vec<&str> = rows.split('/').collect();
        if row_texts.len() == 1 {
            return Err(NOT_TPS.into());
        }
        if row_texts.len() != size {
            return Err(format!(
                "TPS has {}; a {size}x{size} board needs {size}",
                crate::words::count(row_texts.len() as u64, "row")
            ));
        }
        let mut squares = Vec::new();
        for (i, row) in row_texts.iter().enumerate() {
            let rank = size - 1 - i;
            let where_ = || format!("TPS row {} (rank {})", i + 1, rank + 1);
            let mut file = 0usize;
            for cell in row.split(',') {
                let at = |file: usize| Square::new(file.min(7) as u8, rank as u8);
                if let Some(n) = cell.strip_prefix('x') {
                    let count = if n.is_empty() {
                        1
                    } else {
                        match n.parse::<usize>() {
                            Ok(k) if (1..=MAX_SIZE).contains(&k) => k,
                            _ => {
                                return Err(format!(
                                    "{}: {} should be x or x2..x{size}",
                                    where_(),
                                    super::quote(cell)
                                ))
                            }
                        }
                    };
                    file += count;
                } else {
                    if file >= size {
                        file += 1; // too wide: reported below
                        continue;
                    }
                    let sq = at(file);
                    let (digits, role) = match cell.as_bytes().last() {
                        Some(b'S') => (&cell[..cell.len() - 1], Role::Wall),
                        Some(b'C') => (&cell[..cell.len() - 1], Role::Cap),
                        _ => (cell, Role::Flat),
                    };
                    if digits.is_empty() || !digits.bytes().all(|b| b == b'1' || b == b'2') {
                        return Err(format!(
                            "{}, square {sq}: `{cell}` is not a stack; write owners bottom to top \
                             as 1 and 2, then S or C for a wall or capstone on top (like 12S), or x for empty",
                            where_()
                        ));
                    }
                    let colors: Vec<Color> = digits
                        .bytes()
                        .map(|b| {
                            if b == b'1' {
                                Color::White
                            } else {
                                Color::Black
                            }
                        })
                        .collect();
                    if colors.len() > 128 {
                        return Err(format!("{}, square {sq}: the stack is too tall", where_()));
                    }
                    squares.push((sq, colors, role));
                    file += 1;
                }
            }
            if file != size {
                return Err(format!(
                    "{} has {file} squares; a {size}x{size} board needs {size}",
                    where_()
                ));
            }
        }
        let ply_index = 2 * (mv - 1) + side;
        Position::from_parts(setup, &squares, ply_index)
    }

    /// The position as TPS.
    pub fn to_tps(&self) -> String {
        let size = self.size();
        let mut out = String::new();
        for rank in (0..size).rev() {
            let mut empties = 0;
            let mut cells: Vec<String> = Vec::new();
            for file in 0..size {
                let sq = Square::new(file as u8, rank as u8);
                let stack = self.stack(sq);
                if stack.is_empty() {
                    empties += 1;
                    continue;
                }
                if empties > 0 {
                    cells.push(empty_run(empties));
                    empties = 0;
                }
                let mut cell: String = stack
                    .colors()
                    .map(|c| if c == Color::White { '1' } else { '2' })
                    .collect();
                match self.top(sq).map(|p| p.role) {
                    Some(Role::Wall) => cell.push('S'),
                    Some(Role::Cap) => cell.push('C'),
                    _ => {}
                }
                cells.push(cell);
            }
            if empties > 0 {
                cells.push(empty_run(empties));
            }
            out.push_str(&cells.join(","));
            if rank > 0 {
                out.push('/');
            }
        }
        format!("{out} {} {}", self.to_move().number(), self.move_number())
    }
}

fn empty_run(n: usize) -> String {
    if n == 1 {
        "x".into()
    } else {
        format!("x{n}")
    }
}

/// The board size a TPS describes (its number of rows), checked to be 3..=8.
/// A TPS in its canonical spelling: rows split by `/`, `x` lower case, `S` and `C` upper case.
fn normalize(tps: &str) -> String {
    let tps = tps.trim_start_matches('\u{feff}').trim();
    let (rows, rest) = tps.split_once(char::is_whitespace).unwrap_or((tps, ""));
    let rows: String = rows
        .chars()
        .map(|c| match c {
            '-' => '/',
            'X' => 'x',
            's' => 'S',
            'c' => 'C',
            other => other,
        })
        .collect();
    format!("{rows} {rest}")
}

/// Text with no `/` has one row at most: it is no TPS at all.
const NOT_TPS: &str = "this is not TPS: write the board's rows from the top, separated by `/`, \
     then the player to move and the move number, like `x5/x5/x5/x5/x5 1 1`";

pub fn tps_size(tps: &str) -> Result<usize, String> {
    let tps = normalize(tps);
    let rows = tps
        .split_whitespace()
        .next()
        .ok_or("TPS is empty: for example `x5/x5/x5/x5/x5 1 1`")?;
    let size = rows.split('/').count();
    if size == 1 {
        return Err(NOT_TPS.into());
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!(
            "TPS has {size} rows: boards go from {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}"
        ));
    }
    Ok(size)
}
