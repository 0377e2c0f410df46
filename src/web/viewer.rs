//! What a game page's script needs to draw the board itself, so that stepping through the
//! game asks the server for nothing: every position with the pieces in hand, and the game's
//! theme (the colours its pictures have).

use crate::render::Theme;
use crate::service::WebGame;

#[derive(serde::Serialize)]
pub(super) struct Viewer {
    /// "tak" (drawn by the page) or "takat" (the server's pictures).
    kind: &'static str,
    players: [String; 2],
    /// The position at the start and after each ply: TPS, or Takat's position string.
    positions: Vec<String>,
    /// After each: White's stones and capstones in hand, then Black's.
    hands: Vec<[u8; 4]>,
    theme: Theme,
}

impl Viewer {
    /// The game's positions for its page, or `None` while a blind game hides its board.
    pub(super) fn of(game: &WebGame) -> Option<Viewer> {
        if !game.pictures {
            return None;
        }
        let (positions, hands) = game.positions().into_iter().unzip();
        let kind = match game.kind {
            crate::game::Kind::Tak => "tak",
            crate::game::Kind::Takat => "takat",
        };
        Some(Viewer {
            kind,
            players: game.players.clone(),
            positions,
            hands,
            theme: Theme::named(&game.theme).unwrap_or_default(),
        })
    }

    /// The position after `ply` plies, as its notation writes it.
    pub(super) fn position(&self, ply: usize) -> Option<&str> {
        self.positions.get(ply).map(String::as_str)
    }

    /// As JSON, for the page's `data-viewer` or a live event.
    pub(super) fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
