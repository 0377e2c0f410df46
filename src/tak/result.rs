//! How a game ended: the result, why a flat count ended it, and the score as people write it.
//! Below [`super::position`] (which detects a finished position) and [`super::game`].

use super::ply::Color;
use super::setup::Komi;

/// Why a flat count ended the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum FlatCause {
    BoardFull,
    /// This player's reserve ran out.
    ReserveEmpty(Color),
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum GameResult {
    /// `double`: the ply made roads for both players; the mover wins.
    Road {
        winner: Color,
        double: bool,
    },
    /// `winner: None` is a draw on equal totals.
    Flats {
        winner: Option<Color>,
        cause: FlatCause,
        white: u32,
        black: u32,
    },
    Resignation {
        winner: Color,
    },
    Timeout {
        winner: Color,
    },
    DrawAgreed,
    Abandoned,
}

impl GameResult {
    pub fn winner(&self) -> Option<Color> {
        match *self {
            GameResult::Road { winner, .. }
            | GameResult::Resignation { winner }
            | GameResult::Timeout { winner } => Some(winner),
            GameResult::Flats { winner, .. } => winner,
            GameResult::DrawAgreed | GameResult::Abandoned => None,
        }
    }

    /// The PTN result: `R-0`, `0-F`, `1-0`, `1/2-1/2`, `0-0` ...
    pub fn ptn(&self) -> &'static str {
        let by = |winner: Color, white: &'static str, black: &'static str| match winner {
            Color::White => white,
            Color::Black => black,
        };
        match *self {
            GameResult::Road { winner, .. } => by(winner, "R-0", "0-R"),
            GameResult::Flats {
                winner: Some(w), ..
            } => by(w, "F-0", "0-F"),
            GameResult::Flats { winner: None, .. } | GameResult::DrawAgreed => "1/2-1/2",
            GameResult::Resignation { winner } | GameResult::Timeout { winner } => {
                by(winner, "1-0", "0-1")
            }
            GameResult::Abandoned => "0-0",
        }
    }

    /// How the game was decided, in a few words for a list of games ("**0-1** on time"): the
    /// PTN result alone cannot tell a resignation from a time-out.
    pub fn how(&self) -> &'static str {
        match self {
            GameResult::Road { .. } => "by road",
            GameResult::Flats { .. } => "on flats",
            GameResult::Resignation { .. } => "by resignation",
            GameResult::Timeout { .. } => "on time",
            GameResult::DrawAgreed => "by agreement",
            GameResult::Abandoned => "aborted",
        }
    }

    /// A sentence for people, e.g. "Black wins on flats, 15 vs 14 + 2 (the board is full)".
    pub fn describe(&self, komi: Komi) -> String {
        self.describe_with(komi, [Color::White.name(), Color::Black.name()])
    }

    /// The same sentence with the players' names (White's, then Black's) for the colours.
    pub fn describe_with(&self, komi: Komi, names: [&str; 2]) -> String {
        let name = |c: Color| names[c.index()];
        match *self {
            GameResult::Road {
                winner,
                double: false,
            } => format!("{} wins by road", name(winner)),
            GameResult::Road {
                winner,
                double: true,
            } => format!(
                "{} wins by road, completing roads for both players as the mover",
                name(winner)
            ),
            GameResult::Flats {
                winner,
                cause,
                white,
                black,
            } => {
                let count = flat_score(white, black, komi);
                let why = match cause {
                    FlatCause::BoardFull => "the board is full".to_string(),
                    FlatCause::ReserveEmpty(c) => format!("{} has no pieces left", name(c)),
                };
                match winner {
                    Some(w) => format!("{} wins on flats, {count} ({why})", name(w)),
                    None => format!("Draw on flats, {count} ({why})"),
                }
            }
            GameResult::Resignation { winner } => {
                format!("{} resigns; {} wins", name(winner.opponent()), name(winner))
            }
            GameResult::Timeout { winner } => {
                format!(
                    "{} ran out of time; {} wins",
                    name(winner.opponent()),
                    name(winner)
                )
            }
            GameResult::DrawAgreed => "Drawn by agreement".to_string(),
            GameResult::Abandoned => "Game abandoned without result".to_string(),
        }
    }
}

/// "17 vs 15 + 2": White's flats then Black's, komi written beside the side it helps.
pub fn flat_score(white: u32, black: u32, komi: Komi) -> String {
    let k = komi.halves();
    let abs = Komi::from_halves(k.abs()).expect("abs of a valid komi is valid");
    match k.signum() {
        1 => format!("{white} vs {black} + {abs}"),
        -1 => format!("{white} + {abs} vs {black}"),
        _ => format!("{white} vs {black}"),
    }
}
