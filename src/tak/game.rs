//! A game: the start position, the plies played, and how it ended.

use super::ply::{Color, Ply, PtnPly};
use super::position::{PlyError, Position, Undo};
use super::result::GameResult;
use std::fmt;

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
    /// The player's own judgement written with the ply (`!?`), kept for the record.
    pub annotation: Option<&'static str>,
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

    /// PTN with its Tak marks and the player's annotation, as the record writes it.
    pub fn ptn_annotated(&self) -> String {
        self.ptn_with_marks() + self.annotation.unwrap_or_default()
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
            annotation: None,
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
            annotation: ptn.annotation,
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
