//! What a Tak picture may leave out, per server and per game: some players read a bare board
//! better, and a board without flat counts keeps a count-it-yourself habit.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Display {
    /// Flat counts in the player cards and the status row.
    pub flat_counts: bool,
    /// Bars between neighbouring road pieces of one owner.
    pub connectors: bool,
    /// The height badge of stacks of two or more.
    pub heights: bool,
    /// The files and ranks around the board.
    pub labels: bool,
    /// The reserve tray under the board: shown only when asked for (it makes the picture
    /// taller, so Discord's preview shows the board smaller).
    #[serde(default)]
    pub tray: bool,
    /// The board seen from Black's side: h1 at the top left (a viewer's choice, never stored).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flipped: bool,
}

impl Default for Display {
    fn default() -> Display {
        Display {
            flat_counts: true,
            connectors: true,
            heights: true,
            labels: true,
            tray: false,
            flipped: false,
        }
    }
}

/// The parts a picture may hide, by the name players write.
const PARTS: [&str; 4] = ["flats", "roads", "heights", "labels"];

impl Display {
    /// The display that hides the parts `text` names (`heights, labels`), or hides nothing
    /// (`none`).
    pub fn hiding(text: &str) -> Result<Display, String> {
        let mut d = Display::default();
        for word in text
            .split([',', ' ', '+'])
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            match word.to_ascii_lowercase().as_str() {
                "none" | "nothing" => {}
                "flats" | "flat" | "counts" | "count" => d.flat_counts = false,
                "roads" | "road" | "connectors" => d.connectors = false,
                "heights" | "height" | "badges" => d.heights = false,
                "labels" | "label" | "axes" | "coordinates" => d.labels = false,
                other => {
                    return Err(format!(
                        "pictures cannot hide {}: name some of {} (or none)",
                        crate::tak::quote(other),
                        PARTS.join(", ")
                    ))
                }
            }
        }
        Ok(d)
    }

    /// The hidden parts' names, in `hiding`'s words (empty when all is shown).
    pub fn hidden(&self) -> Vec<&'static str> {
        let shown = [self.flat_counts, self.connectors, self.heights, self.labels];
        PARTS
            .iter()
            .zip(shown)
            .filter(|(_, on)| !on)
            .map(|(name, _)| *name)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_hidden_by_name_and_named_back() {
        let d = Display::hiding("Heights, labels").unwrap();
        assert!(d.flat_counts && d.connectors && !d.heights && !d.labels);
        assert_eq!(d.hidden(), ["heights", "labels"]);
        assert_eq!(Display::hiding("none").unwrap(), Display::default());
        let why = Display::hiding("flats colours").unwrap_err();
        assert!(why.contains("cannot hide `colours`"), "{why}");
    }
}
