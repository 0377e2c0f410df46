//! Plies and their PTN spelling, independent of any position.

use super::square::{Dir, Square};
use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 1 for White (player 1), 2 for Black.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// What kind of piece: flats can be stacked on, walls and capstones cannot.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    Flat,
    Wall,
    Cap,
}

impl Role {
    pub const fn name(self) -> &'static str {
        match self {
            Role::Flat => "flat",
            Role::Wall => "wall",
            Role::Cap => "capstone",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

/// How a carried pile is dropped: bit `i` is set when a square's drop ends after `i + 1` pieces.
/// So the highest set bit gives the number carried, the number of set bits the squares passed.
/// `3c3>12` is `0b100 | 0b001`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Drops(u8);

impl Drops {
    /// Every piece dropped on the next square.
    pub const fn all_on_one(carry: u8) -> Drops {
        Drops(1 << (carry - 1))
    }

    pub(crate) const fn from_mask(mask: u8) -> Drops {
        Drops(mask)
    }

    pub const fn mask(self) -> u8 {
        self.0
    }

    /// Builds drops from counts such as `[1, 2]`; each count must be at least 1, the sum at most 8.
    pub fn from_counts(counts: &[u8]) -> Option<Drops> {
        let mut mask = 0u8;
        let mut sum = 0u8;
        for &n in counts {
            if n == 0 {
                return None;
            }
            sum = sum.checked_add(n).filter(|&s| s <= 8)?;
            mask |= 1 << (sum - 1);
        }
        (mask != 0).then_some(Drops(mask))
    }

    pub const fn carry(self) -> u8 {
        8 - self.0.leading_zeros() as u8
    }

    pub const fn squares(self) -> u32 {
        self.0.count_ones()
    }

    /// The number dropped on each square in turn.
    pub fn counts(self) -> impl Iterator<Item = u8> {
        let mut rest = self.0;
        let mut done = 0u8;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let end = rest.trailing_zeros() as u8 + 1;
            rest &= rest - 1;
            let n = end - done;
            done = end;
            Some(n)
        })
    }

    /// The last drop is a single piece (needed for a capstone to flatten a wall).
    pub const fn ends_with_one(self) -> bool {
        let carry = self.carry();
        carry == 1 || self.0 & (1 << (carry - 2)) != 0
    }
}

/// One player's action: place a piece or move (spread) a stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ply {
    Place {
        square: Square,
        role: Role,
    },
    Spread {
        from: Square,
        dir: Dir,
        drops: Drops,
    },
}

impl Ply {
    /// Parses one ply in PTN. Marks after it (`'`, `''`, `"`, `!`, `?`) are accepted and
    /// returned in [`PtnPly`]; `*` is kept so the position can check it.
    pub fn parse(text: &str) -> Result<PtnPly, String> {
        parse_ply(text)
    }
}

/// Canonical PTN without the position-dependent `*` (see `Position::ptn`).
impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Ply::Place { square, role } => {
                let prefix = match role {
                    Role::Flat => "",
                    Role::Wall => "S",
                    Role::Cap => "C",
                };
                write!(f, "{prefix}{square}")
            }
            Ply::Spread { from, dir, drops } => {
                let carry = drops.carry();
                if carry > 1 {
                    write!(f, "{carry}")?;
                }
                write!(f, "{from}{}", dir.symbol())?;
                if drops.squares() > 1 {
                    for n in drops.counts() {
                        write!(f, "{n}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// A ply as written in PTN, with what was written around it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PtnPly {
    pub ply: Ply,
    /// `*` was written: the writer says a capstone flattens a wall.
    pub crush: bool,
    /// 0 none, 1 `'` (Tak), 2 `''` or `"` (Tinuë).
    pub tak_marks: u8,
    /// The writer's judgement of the ply: one of `ANNOTATIONS`.
    pub annotation: Option<&'static str>,
}

/// PTN's annotations of a ply (after its Tak marks), longest first.
pub const ANNOTATIONS: [&str; 6] = ["!!", "??", "!?", "?!", "!", "?"];

/// The annotation in a ply's trailing marks; anything else of `!` and `?` is no annotation.
fn annotation(marks: &str) -> Option<&'static str> {
    let judged: String = marks.chars().filter(|c| matches!(c, '!' | '?')).collect();
    ANNOTATIONS.into_iter().find(|a| *a == judged)
}

fn parse_ply(text: &str) -> Result<PtnPly, String> {
    let shown = || super::quote(text);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("a ply is needed, like `a1`, `Sb2`, `Cc3` or `3c3>12`".into());
    }
    // Split off trailing marks: Tak marks and annotations.
    let body_end = trimmed.trim_end_matches(['\'', '"', '!', '?', '’']).len();
    let (body, marks) = trimmed.split_at(body_end);
    let tak_marks = if marks.contains('"') {
        2
    } else {
        marks
            .chars()
            .filter(|&c| c == '\'' || c == '’')
            .count()
            .min(2) as u8
    };
    let (body, crush) = match body.strip_suffix('*') {
        Some(b) => (b, true),
        None => (body, false),
    };
    let bytes = body.as_bytes();
    let bad = |why: &str| {
        Err(format!(
            "{} is not a ply: {why}. Write a placement like `a1`, `Sa1` (wall) or `Ca1` (capstone), \
             or a move like `c3>`, `3c3>12` (count, square, direction + - > <, drops)",
            shown()
        ))
    };
    if !body.is_ascii() {
        return bad("it has characters PTN does not use");
    }
    // Placement: [FSC]?square. Letters of either case are read (files like `B1`, `SD3` and
    // `sc2` exist, and phones capitalise): a piece letter is only ever followed by a square, so
    // `c3` is a flat, `cc3` or `Cc3` a capstone, and `c3>` a move.
    let square_at = |text: &str| Square::parse(&text.to_ascii_lowercase());
    let piece = |b: u8| match b.to_ascii_uppercase() {
        b'F' => Some(Role::Flat),
        b'S' => Some(Role::Wall),
        b'C' => Some(Role::Cap),
        _ => None,
    };
    let placement = square_at(body)
        .map(|square| (Role::Flat, square))
        .or_else(|| {
            let role = piece(*bytes.first()?)?;
            Some((role, square_at(&body[1..])?))
        });
    if let Some((role, square)) = placement {
        if crush {
            return bad("`*` only follows a move that flattens a wall");
        }
        return Ok(PtnPly {
            ply: Ply::Place { square, role },
            crush: false,
            tak_marks,
            annotation: annotation(marks),
        });
    }
    let letter_then_letter = bytes.get(1).is_some_and(u8::is_ascii_alphabetic);
    if matches!(bytes.first(), Some(b'S' | b's'))
        || (matches!(bytes.first(), Some(b'F' | b'C')) && letter_then_letter)
    {
        return bad("a piece letter F, S or C must be followed by a square from a1 to h8");
    }
    // Movement: [count]square dir [drops]
    let (count, rest) = match bytes.first() {
        Some(c @ b'0'..=b'9') => (Some(c - b'0'), &body[1..]),
        _ => (None, body),
    };
    if count.is_some() && rest.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return bad("a count is one digit, 1 to 8 (no board allows carrying more than 8)");
    }
    if rest.len() < 3 {
        return bad("it is neither a square nor a move");
    }
    let Some(from) = square_at(&rest[..2]) else {
        return bad("the square must be a file a..h and a rank 1..8");
    };
    let Some(dir) = Dir::from_symbol(rest.as_bytes()[2] as char) else {
        return bad("the direction must be + (north), - (south), > (east) or < (west)");
    };
    let drop_digits = &rest[3..];
    let count = match count {
        Some(0) => return bad("the count must be at least 1"),
        Some(n) if n > 8 => return bad("no board allows carrying more than 8"),
        Some(n) => n,
        None => 1,
    };
    let drops = if drop_digits.is_empty() {
        Drops::all_on_one(count)
    } else {
        let mut counts = Vec::with_capacity(drop_digits.len());
        for c in drop_digits.bytes() {
            match c {
                b'1'..=b'8' => counts.push(c - b'0'),
                _ => return bad("drop counts are digits 1 to 8"),
            }
        }
        let sum: u32 = counts.iter().map(|&n| n as u32).sum();
        if sum != count as u32 {
            return Err(format!(
                "{}: the drops add up to {sum} but {count} {} carried; they must match",
                shown(),
                if count == 1 { "piece is" } else { "pieces are" }
            ));
        }
        Drops::from_counts(&counts).expect("counts are 1..=8 and sum to count <= 8")
    };
    Ok(PtnPly {
        ply: Ply::Spread { from, dir, drops },
        crush,
        tak_marks,
        annotation: annotation(marks),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(s: &str) -> Ply {
        Ply::parse(s).unwrap().ply
    }

    #[test]
    fn drops_encode_counts() {
        let d = Drops::from_counts(&[1, 2]).unwrap();
        assert_eq!(d.carry(), 3);
        assert_eq!(d.squares(), 2);
        assert_eq!(d.counts().collect::<Vec<_>>(), vec![1, 2]);
        assert!(!d.ends_with_one());
        assert!(Drops::from_counts(&[2, 1]).unwrap().ends_with_one());
        assert!(Drops::all_on_one(1).ends_with_one());
        assert_eq!(Drops::from_counts(&[0]), None);
        assert_eq!(Drops::from_counts(&[5, 4]), None);
    }

    #[test]
    fn placements_parse_and_print() {
        assert_eq!(ply("a1").to_string(), "a1");
        assert_eq!(ply("Fa1").to_string(), "a1");
        assert_eq!(ply("Sb2").to_string(), "Sb2");
        assert_eq!(ply("Ch8").to_string(), "Ch8");
    }

    #[test]
    fn moves_parse_and_print_canonically() {
        assert_eq!(ply("c3>").to_string(), "c3>");
        assert_eq!(ply("1c3>1").to_string(), "c3>");
        assert_eq!(ply("3c3>12").to_string(), "3c3>12");
        assert_eq!(ply("3c3>3").to_string(), "3c3>");
        assert_eq!(ply("5b4+2111").to_string(), "5b4+2111");
        assert_eq!(ply("a1-").to_string(), "a1-");
        assert_eq!(ply("2d4<11").to_string(), "2d4<11");
    }

    #[test]
    fn marks_are_read() {
        let p = Ply::parse("5b4+2111*'").unwrap();
        assert!(p.crush);
        assert_eq!(p.tak_marks, 1);
        assert_eq!(Ply::parse("a1''").unwrap().tak_marks, 2);
        assert_eq!(Ply::parse("a1\"").unwrap().tak_marks, 2);
        assert_eq!(Ply::parse("a1'!?").unwrap().tak_marks, 1);
        assert_eq!(Ply::parse("Sa1??").unwrap().tak_marks, 0);
        assert_eq!(Ply::parse("c3>!").unwrap().ply, ply("c3>"));
    }

    #[test]
    fn bad_plies_say_what_is_wrong() {
        for (text, says) in [
            ("", "a ply is needed"),
            ("z9", "not a ply"),
            ("3c3>13", "add up to 4 but 3"),
            ("0c3>", "at least 1"),
            ("9c3>", "more than 8"),
            ("99a1>", "a count is one digit"),
            ("c3x", "direction"),
            ("Xc3", "not a ply"),
            ("a1*", "`*` only follows"),
            ("2c3>0", "digits 1 to 8"),
            ("é1", "characters"),
            ("Sc3>", "piece letter"),
        ] {
            let err = Ply::parse(text).unwrap_err();
            assert!(err.contains(says), "{text:?}: {err}");
        }
    }
}
