//! What a picture shows (`Scene`) and where everything goes (`Layout`: every size scales from
//! the theme's width), and the paint of each player's pieces: the ground every drawing stands on.

use super::paint::Paint;
use super::text;
use super::{Display, Theme};
use crate::tak::{Color, Game, GameResult, Ply, Position};

/// The height of the reserve tray under the board, in units of `Layout::k`.
pub(crate) const TRAY_HEIGHT: f32 = 64.0;

/// The height of the header (the players' cards, then the status row), in units of `Layout::k`.
const HEADER: f32 = 162.0;

/// Everything a picture shows.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    pub position: &'a Position,
    /// The ply that led to `position`, highlighted.
    pub last: Option<Ply>,
    /// Display names of player 1 (White) and player 2 (Black).
    pub players: [&'a str; 2],
    /// The player who just moved threatens a road.
    pub tak: bool,
    pub tinue: bool,
    pub result: Option<GameResult>,
    /// How long the player to move has left, in words ("23 h 10 min"), in games with a limit.
    pub clock: Option<String>,
    /// What the picture shows of the optional parts.
    pub display: Display,
}

impl<'a> Scene<'a> {
    /// The current position of a game, with its last ply, flags and result.
    pub fn of_game(game: &'a Game, players: [&'a str; 2]) -> Scene<'a> {
        let last = game.plies().last();
        Scene {
            position: game.position(),
            last: last.map(|p| p.undo.ply),
            players,
            tak: last.is_some_and(|p| p.tak),
            tinue: last.is_some_and(|p| p.tinue),
            result: game.result(),
            clock: None,
            display: Display::default(),
        }
    }

    /// A lone position (from a TPS): result and Tak are worked out from the position.
    pub fn of_position(
        position: &'a Position,
        last: Option<Ply>,
        players: [&'a str; 2],
    ) -> Scene<'a> {
        let result = position.end().filter(|_| position.ply_index() > 0);
        let mover = position.to_move().opponent();
        let tak = result.is_none() && position.ply_index() > 0 && position.is_tak(mover);
        Scene {
            position,
            last,
            players,
            tak,
            tinue: tak && position.is_tinue(),
            result,
            clock: None,
            display: Display::default(),
        }
    }

    pub(crate) fn name(&self, color: Color) -> String {
        let fallback = format!("Player {}", color.number());
        text::drawable_name(self.players[color.index()], &fallback)
    }
}

/// Sizes in pixels for a picture of width `theme.width`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub k: f32,
    pub width: u32,
    pub height: u32,
    /// Where the board's area starts, under the header.
    pub header: f32,
    pub board_x: f32,
    pub board_y: f32,
    pub cell: f32,
    pub size: usize,
    /// Seen from Black's side: every square turned half a circle about the board's middle.
    pub flipped: bool,
}

impl Layout {
    pub fn new(theme: &Theme, size: usize) -> Layout {
        Layout::with_tray(theme, size, false)
    }

    /// The layout with room for the reserve tray under the board, if `tray`.
    pub fn with_tray(theme: &Theme, size: usize, tray: bool) -> Layout {
        let width = theme.width;
        let k = width as f32 / 800.0;
        let header = (HEADER * k).round();
        let board_area = (712.0 * k).round();
        let cell = (board_area / size as f32).floor();
        let board_px = cell * size as f32;
        let board_x = ((width as f32 - board_px) / 2.0).round();
        let board_y = header + ((board_area - board_px) / 2.0).round();
        let tray = if tray { TRAY_HEIGHT } else { 0.0 };
        let height = (header + board_area + (46.0 + tray) * k).round() as u32;
        Layout {
            k,
            width,
            height,
            header,
            board_x,
            board_y,
            cell,
            size,
            flipped: false,
        }
    }

    /// The layout of `display`'s picture: with its tray, and flipped if it asks.
    pub fn of(theme: &Theme, size: usize, display: Display) -> Layout {
        Layout {
            flipped: display.flipped,
            ..Layout::with_tray(theme, size, display.tray)
        }
    }

    /// The middle of the status row (move, flats, Tak!, the result), under the cards.
    pub fn status_row_mid(&self) -> f32 {
        self.header - 27.0 * self.k
    }

    /// The top-left corner of a square on the picture (rank 1 at the bottom).
    pub fn square_origin(&self, file: usize, rank: usize) -> (f32, f32) {
        let (file, rank) = match self.flipped {
            true => (self.size - 1 - file, self.size - 1 - rank),
            false => (file, rank),
        };
        let row = self.size - 1 - rank;
        (
            self.board_x + file as f32 * self.cell,
            self.board_y + row as f32 * self.cell,
        )
    }
}

/// The centre of a square in the picture and the side of a square, in pixels.
pub fn square_geometry(theme: &Theme, size: usize, sq: crate::tak::Square) -> ((u32, u32), f32) {
    let l = Layout::new(theme, size);
    let (x, y) = l.square_origin(sq.file() as usize, sq.rank() as usize);
    (
        ((x + l.cell / 2.0) as u32, (y + l.cell / 2.0) as u32),
        l.cell,
    )
}

pub(crate) fn piece_paint(theme: &Theme, color: Color, outline: f32) -> Paint {
    owner_paint(theme, color == Color::White, outline)
}

/// A piece in the first player's colours (`white`) or the second's, in any game.
pub(crate) fn owner_paint(theme: &Theme, white: bool, outline: f32) -> Paint {
    match white {
        true => Paint::outlined(theme.white_fill.0, theme.white_outline.0, outline),
        false => Paint::outlined(theme.black_fill.0, theme.black_outline.0, outline),
    }
}
