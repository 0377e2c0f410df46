//! How a game is set up: size, reserves, komi, opening.

use super::ply::Color;
use super::square::{MAX_SIZE, MIN_SIZE};
use std::fmt;

/// A player's pieces not yet on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Reserve {
    pub stones: u8,
    pub caps: u8,
}

/// Most pieces one player may have; two players' pieces then fit any stack in 128 bits.
pub const MAX_PIECES_PER_PLAYER: u32 = 64;

impl Reserve {
    /// The rulebook's reserves (7x7: the community's 40/2).
    pub const fn standard(size: usize) -> Reserve {
        let (stones, caps) = match size {
            3 => (10, 0),
            4 => (15, 0),
            5 => (21, 1),
            6 => (30, 1),
            7 => (40, 2),
            _ => (50, 2),
        };
        Reserve { stones, caps }
    }

    pub const fn total(self) -> u32 {
        self.stones as u32 + self.caps as u32
    }

    pub const fn is_empty(self) -> bool {
        self.total() == 0
    }
}

/// Komi in half flats: `Komi(4)` is 2 flats, `Komi(-3)` is -1.5. Positive helps player 2.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Komi(i8);

impl Komi {
    /// ±20.5, the range the community's Discord bot allows.
    pub const MAX_HALVES: i8 = 41;

    pub fn from_halves(halves: i8) -> Result<Komi, String> {
        if (-Self::MAX_HALVES..=Self::MAX_HALVES).contains(&halves) {
            Ok(Komi(halves))
        } else {
            Err(format!(
                "komi {} is out of range: it goes in half steps from -20.5 to 20.5",
                Komi(halves)
            ))
        }
    }

    pub const fn halves(self) -> i8 {
        self.0
    }

    /// Parses `2`, `2.5`, `-1.5`, `0.0`.
    pub fn parse(text: &str) -> Result<Komi, String> {
        let t = text.trim();
        let err = || {
            format!(
                "komi {} is not a number in half steps from -20.5 to 20.5 (like 0, 2, 2.5 or -1.5)",
                super::quote(t)
            )
        };
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        // A decimal comma (`2,5`) is how much of Europe writes it, files included.
        let (whole, frac) = digits.split_once(['.', ',']).unwrap_or((digits, "0"));
        if frac.is_empty()
            || whole.is_empty()
            || whole.len() > 2
            || !whole.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(err());
        }
        let whole: i8 = whole.parse().map_err(|_| err())?;
        let half = match frac.trim_end_matches('0') {
            "" => 0,
            "5" => 1,
            _ => return Err(err()),
        };
        if frac.len() > 2 {
            return Err(err());
        }
        let halves = whole
            .checked_mul(2)
            .and_then(|w| w.checked_add(half))
            .ok_or_else(err)?;
        Komi::from_halves(if negative { -halves } else { halves }).map_err(|_| err())
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        if a.is_multiple_of(2) {
            write!(f, "{sign}{}", a / 2)
        } else {
            write!(f, "{sign}{}.5", a / 2)
        }
    }
}

/// How the first two plies go.
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Opening {
    /// Each player's first ply places the opponent's flat (the rulebook).
    #[default]
    Swap,
    /// Players place their own pieces from the start.
    NoSwap,
}

impl Opening {
    pub const fn ptn(self) -> &'static str {
        match self {
            Opening::Swap => "swap",
            Opening::NoSwap => "no-swap",
        }
    }

    pub fn parse(text: &str) -> Result<Opening, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "swap" => Ok(Opening::Swap),
            "no-swap" | "noswap" | "no swap" => Ok(Opening::NoSwap),
            other => Err(format!(
                "opening `{other}` is not known: use `swap` or `no-swap`"
            )),
        }
    }
}

/// Everything fixed when a game is created.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    pub size: usize,
    pub komi: Komi,
    pub opening: Opening,
    /// Per player, indexed by `Color::index`.
    pub reserves: [Reserve; 2],
}

impl Setup {
    /// The standard game of `size`; an error names the allowed sizes.
    pub fn new(size: usize) -> Result<Setup, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "a {size}x{size} board is not allowed: sizes go from {MIN_SIZE} to {MAX_SIZE}"
            ));
        }
        let r = Reserve::standard(size);
        Ok(Setup {
            size,
            komi: Komi::default(),
            opening: Opening::Swap,
            reserves: [r, r],
        })
    }

    pub fn with_komi(self, komi: Komi) -> Setup {
        Setup { komi, ..self }
    }

    pub fn with_opening(self, opening: Opening) -> Setup {
        Setup { opening, ..self }
    }

    /// Custom reserves for one player. At least one piece, at most 64 pieces per player.
    pub fn with_reserve(self, color: Color, reserve: Reserve) -> Result<Setup, String> {
        if reserve.is_empty() || reserve.total() > MAX_PIECES_PER_PLAYER {
            return Err(format!(
                "{}'s reserve of {} and {} is not allowed: \
                 each player needs 1 to {MAX_PIECES_PER_PLAYER} pieces",
                color.name(),
                crate::words::count(reserve.stones, "stone"),
                crate::words::count(reserve.caps, "capstone")
            ));
        }
        let mut reserves = self.reserves;
        reserves[color.index()] = reserve;
        Ok(Setup { reserves, ..self })
    }

    pub fn is_standard_reserve(&self) -> bool {
        let r = Reserve::standard(self.size);
        self.reserves == [r, r]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_reserves_match_the_table() {
        let table = [
            (3, 10, 0),
            (4, 15, 0),
            (5, 21, 1),
            (6, 30, 1),
            (7, 40, 2),
            (8, 50, 2),
        ];
        for (size, stones, caps) in table {
            assert_eq!(Reserve::standard(size), Reserve { stones, caps });
            assert_eq!(
                Setup::new(size).unwrap().reserves[1],
                Reserve { stones, caps }
            );
        }
    }

    #[test]
    fn sizes_outside_3_to_8_are_refused() {
        assert!(Setup::new(2).unwrap_err().contains("sizes go from 3 to 8"));
        assert!(Setup::new(9).is_err());
    }

    #[test]
    fn komi_parses_half_steps_and_refuses_the_rest() {
        for (text, halves) in [
            ("0", 0),
            ("2", 4),
            ("2.5", 5),
            ("-1.5", -3),
            ("4.5", 9),
            ("-4.5", -9),
            ("5", 10),
            ("20.5", 41),
            ("-20.5", -41),
            ("0.50", 1),
            ("+1", 2),
        ] {
            assert_eq!(Komi::parse(text).unwrap().halves(), halves, "{text}");
        }
        for text in ["21", "-21", "1.25", "abc", "", "1.", "0.7", "-", "99999"] {
            assert!(Komi::parse(text).is_err(), "{text}");
        }
        assert_eq!(Komi::parse("-0.5").unwrap().to_string(), "-0.5");
        assert_eq!(Komi::parse("2").unwrap().to_string(), "2");
    }

    #[test]
    fn custom_reserves_are_bounded() {
        let s = Setup::new(5).unwrap();
        let custom = s
            .with_reserve(
                Color::Black,
                Reserve {
                    stones: 20,
                    caps: 2,
                },
            )
            .unwrap();
        assert_eq!(
            custom.reserves[1],
            Reserve {
                stones: 20,
                caps: 2
            }
        );
        assert_eq!(custom.reserves[0], Reserve::standard(5));
        assert!(!custom.is_standard_reserve());
        assert!(s
            .with_reserve(Color::White, Reserve { stones: 0, caps: 0 })
            .is_err());
        assert!(s
            .with_reserve(
                Color::White,
                Reserve {
                    stones: 64,
                    caps: 1
                }
            )
            .is_err());
    }
}
