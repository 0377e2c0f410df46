//! The rules of Takat (William Wragg's stacking game on a hexagonal board), pure: no I/O. See
//! `TAKAT.md` in the shared docs for every rule and decision.
//!
//! - [`board`]: the 7- and 19-circle boards, names, neighbours, red circles;
//! - [`position`]: stacks, safety, every restriction of a ply, legal plies, position strings;
//! - [`result`]: the two sides and how a game ends (below `position` and `game`);
//! - [`game`]: history, repetition, decided results, game records, perft, threats;
//! - [`engine`]: an alpha-beta player.

pub mod board;
pub mod engine;
pub mod game;
pub mod position;
pub mod result;

pub use board::Board;
pub use game::{perft, threats, Game, Played};
pub use position::{Ply, PlyError, Position, Safety, Stack};
pub use result::{Color, Ending};
