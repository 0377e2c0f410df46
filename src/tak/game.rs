//! A game: the start position, the plies played, and how it ended.

use super::ply::{Color, Ply, PtnPly};
use super::position::{PlyError, Position, Undo};
use super::setup::Komi;
use std::fmt;

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

/// Why a ply cannot be played in this game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    Over(GameResult),
    Illegal(PlyError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GameError::Over(r) => write!(f, "the game is over ({})", r.ptn()),
            GameError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// A ply in the game's history with what it caused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Played {
    pub undo: Undo,
    pub color: Color,
    /// Canonical PTN, `*` included, no marks.
    pub ptn: String,
    /// The mover threatens a road (and the game is not over).
    pub tak: bool,
    /// The threat cannot be stopped (one-move Tinuë).
    pub tinue: bool,
}

impl Played {
    /// PTN with `'` for Tak and `''` for Tinuë.
    pub fn ptn_with_marks(&self) -> String {
        let marks = if self.tinue {
            "''"
        } else if self.tak {
            "'"
        } else {
            ""
        };
        format!("{}{marks}", self.ptn)
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    plies: Vec<Played>,
    result: Option<GameResult>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        let result = start.end().filter(|_| start.ply_index() > 0);
        Game {
            position: start.clone(),
            start,
            plies: Vec::new(),
            result,
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn plies(&self) -> &[Played] {
        &self.plies
    }

    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    pub fn play(&mut self, ply: Ply) -> Result<&Played, GameError> {
        self.play_ptn(&PtnPly {
            ply,
            crush: false,
            tak_marks: 0,
        })
    }

    /// Plays a ply as written in PTN (so a wrong `*` is refused).
    pub fn play_ptn(&mut self, ptn: &PtnPly) -> Result<&Played, GameError> {
        if let Some(r) = self.result {
            return Err(GameError::Over(r));
        }
        let color = self.position.to_move();
        let text = self.position.ptn(ptn.ply);
        let undo = self.position.play_ptn(ptn).map_err(GameError::Illegal)?;
        self.result = self.position.end();
        // Tinuë implies Tak: without a threat, any placement by the opponent (always possible
        // while the game runs) leaves the attacker without a road win.
        let tak = self.result.is_none() && self.position.is_tak(color);
        let tinue = tak && self.position.is_tinue();
        self.plies.push(Played {
            undo,
            color,
            ptn: text,
            tak,
            tinue,
        });
        Ok(self.plies.last().expect("just pushed"))
    }

    /// Takes back the last ply; `None` at the start. Clears a result the position had caused,
    /// and refuses (returns `None`) once the game was decided by the players.
    pub fn undo(&mut self) -> Option<Played> {
        if matches!(
            self.result,
            Some(
                GameResult::Resignation { .. }
                    | GameResult::Timeout { .. }
                    | GameResult::DrawAgreed
                    | GameResult::Abandoned
            )
        ) {
            return None;
        }
        let played = self.plies.pop()?;
        self.position.undo(played.undo);
        self.result = None;
        Some(played)
    }

    /// Ends the game by a decision of the players (resignation, time, agreement, abandonment).
    pub fn decide(&mut self, result: GameResult) -> Result<(), GameError> {
        match self.result {
            Some(r) => Err(GameError::Over(r)),
            None => {
                self.result = Some(result);
                Ok(())
            }
        }
    }
}
