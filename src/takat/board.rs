//! The hexagonal board: cells, their names, neighbours and red circles, for radius 1 (7 cells)
//! and radius 2 (19 cells). Cells are numbered column by column (`a1 a2 b1 ...`), the order of
//! the position string.

use std::sync::OnceLock;

/// A set of cells (at most 19, so one bit each).
pub type Cells = u32;

#[derive(Debug)]
pub struct Board {
    pub radius: i8,
    /// Axial coordinates (q, r) of every cell.
    coords: Vec<(i8, i8)>,
    names: Vec<String>,
    neighbours: Vec<Cells>,
    /// Column index and row (1-based) of every cell, for drawing.
    places: Vec<(u8, u8)>,
    pub red: Cells,
    pub centre: u8,
}

impl Board {
    /// The board of `cells` circles: 7 or 19.
    pub fn of(cells: usize) -> Result<&'static Board, String> {
        static SMALL: OnceLock<Board> = OnceLock::new();
        static LARGE: OnceLock<Board> = OnceLock::new();
        match cells {
            7 => Ok(SMALL.get_or_init(|| Board::build(1))),
            19 => Ok(LARGE.get_or_init(|| Board::build(2))),
            _ => Err(format!(
                "a Takat board has 7 or 19 circles, not {cells}: choose size 7 (the standard game) or 19"
            )),
        }
    }

    fn build(radius: i8) -> Board {
        let mut coords = Vec::new();
        let mut places = Vec::new();
        for col in 0..=2 * radius {
            let q = col - radius;
            let (low, high) = ((-radius).max(-q - radius), radius.min(radius - q));
            for (row, r) in (low..=high).rev().enumerate() {
                coords.push((q, r));
                places.push((col as u8, row as u8 + 1));
            }
        }
        let index = |q: i8, r: i8| coords.iter().position(|&c| c == (q, r));
        let neighbours = coords
            .iter()
            .map(|&(q, r)| {
                [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
                    .iter()
                    .filter_map(|&(dq, dr)| index(q + dq, r + dr))
                    .fold(0, |set, i| set | 1 << i)
            })
            .collect();
        let names = places
            .iter()
            .map(|&(col, row)| format!("{}{row}", (b'a' + col) as char))
            .collect();
        let red_names: &[&str] = if radius == 1 {
            &["a1", "b3", "c1"]
        } else {
            &["a1", "a3", "c1", "c3", "c5", "e1", "e3"]
        };
        let mut board = Board {
            radius,
            centre: index(0, 0).expect("the centre is a cell") as u8,
            coords,
            names,
            neighbours,
            places,
            red: 0,
        };
        board.red = red_names
            .iter()
            .map(|n| board.cell(n).expect("red circles are cells"))
            .fold(0, |set, c| set | 1 << c);
        board
    }

    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    pub fn name(&self, cell: u8) -> &str {
        &self.names[cell as usize]
    }

    /// The cell called `name` (`b2`), in either case.
    pub fn cell(&self, name: &str) -> Option<u8> {
        let lower = name.trim().to_ascii_lowercase();
        self.names.iter().position(|n| *n == lower).map(|i| i as u8)
    }

    pub fn neighbours(&self, cell: u8) -> Cells {
        self.neighbours[cell as usize]
    }

    pub fn is_red(&self, cell: u8) -> bool {
        self.red & 1 << cell != 0
    }

    pub fn coords(&self, cell: u8) -> (i8, i8) {
        self.coords[cell as usize]
    }

    /// (column index from 0, row from 1).
    pub fn place(&self, cell: u8) -> (u8, u8) {
        self.places[cell as usize]
    }

    /// Cells per column, `a` first.
    pub fn columns(&self) -> Vec<usize> {
        (0..=2 * self.radius as u8)
            .map(|c| self.places.iter().filter(|p| p.0 == c).count())
            .collect()
    }

    /// The White pieces (`cells - 1`) and Black pieces (`2 * cells + 1`) of a game.
    pub fn pieces(&self) -> [u8; 2] {
        [self.len() as u8 - 1, 2 * self.len() as u8 + 1]
    }

    /// How many stacks of six win the game for White.
    pub fn sixes_to_win(&self) -> u32 {
        (self.len() as u32 - 1) / 6
    }
}

/// There is one board per radius.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.radius == other.radius
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.radius.hash(state)
    }
}

/// The cells of a set, lowest first.
pub fn each(mut set: Cells) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as u8;
            set &= set - 1;
            c
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_by_column_from_the_bottom() {
        let b = Board::of(7).unwrap();
        let names: Vec<&str> = (0..7).map(|c| b.name(c)).collect();
        assert_eq!(names, ["a1", "a2", "b1", "b2", "b3", "c1", "c2"]);
        assert_eq!(b.name(b.centre), "b2");
        let big = Board::of(19).unwrap();
        assert_eq!(big.columns(), [3, 4, 5, 4, 3]);
        assert_eq!(big.name(big.centre), "c3");
        assert!(Board::of(8).is_err());
    }

    #[test]
    fn neighbours_follow_the_axial_directions() {
        let b = Board::of(7).unwrap();
        let around = |name: &str| {
            let mut n: Vec<&str> = each(b.neighbours(b.cell(name).unwrap()))
                .map(|c| b.name(c))
                .collect();
            n.sort();
            n
        };
        assert_eq!(around("b2"), ["a1", "a2", "b1", "b3", "c1", "c2"]);
        // a1 is (q=-1, r=1): its neighbours are (0,1)=b1, (0,0)=b2 and (-1,0)=a2.
        assert_eq!(around("a1"), ["a2", "b1", "b2"]);
        assert_eq!(around("c2"), ["b2", "b3", "c1"]);
        let big = Board::of(19).unwrap();
        assert_eq!(each(big.neighbours(big.centre)).count(), 6);
        let degrees: Vec<u32> = (0..19).map(|c| big.neighbours(c).count_ones()).collect();
        assert_eq!(degrees.iter().filter(|&&d| d == 3).count(), 6, "corners");
        assert_eq!(degrees.iter().filter(|&&d| d == 4).count(), 6, "edges");
    }

    #[test]
    fn red_circles_are_every_other_corner() {
        let b = Board::of(7).unwrap();
        let red: Vec<&str> = each(b.red).map(|c| b.name(c)).collect();
        assert_eq!(red, ["a1", "b3", "c1"]);
        let big = Board::of(19).unwrap();
        assert_eq!(big.red.count_ones(), 7);
        assert!(big.is_red(big.centre));
        assert_eq!(big.pieces(), [18, 39]);
        assert_eq!(big.sixes_to_win(), 3);
    }
}
