//! The rules of Tak, pure: no I/O, no async, no allocation in move generation.
//!
//! - [`square`]: squares, directions, bitboards and board edges (8-wide layout for every size);
//! - [`ply`]: plies and their PTN spelling; [`setup`]: size, reserves, komi, opening;
//! - [`position`]: the position and its invariants, every rule of a ply, game end by position;
//! - [`movegen`]: legal plies, counting, road threats (Tak) and one-move Tinuë;
//! - [`result`]: how a game ended (below `position` and `game`); [`game`]: history, undo; [`tps`] and [`ptn`]: notation
//!   ([`branches`]: PTN Ninja's branches; [`ptn_replay`]: a file played; [`ptn_write`]: written); [`perft`].

pub mod branches;
pub mod game;
pub mod movegen;
pub mod perft;
pub mod ply;
pub mod position;
pub mod ptn;
pub mod ptn_replay;
pub mod ptn_write;
pub mod result;
pub mod setup;
pub mod square;
pub mod stack;
pub mod tps;

pub use branches::{PtnBranch, PtnComment};
pub use game::{Game, GameError, Played};
pub use perft::perft;
pub use ply::{Color, Drops, Piece, Ply, PtnPly, Role};
pub use position::{PlyError, Position, Undo};
pub use ptn::{PtnFile, ReplayError};
pub use ptn_write::PtnNote;
pub use result::{flat_score, FlatCause, GameResult};
pub use setup::{Komi, Opening, Reserve, Setup};
pub use square::{Bitboard, Dir, Square};
pub use stack::Stack;

/// Typed input as it is quoted back in a message: in backticks, cut after 24 characters, so a
/// refusal stays short whatever was pasted.
pub fn quote(text: &str) -> String {
    let shown: String = text.chars().take(24).collect();
    let more = if text.chars().count() > 24 { "…" } else { "" };
    format!("`{}{more}`", shown.replace('`', "'"))
}
