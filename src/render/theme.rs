//! Themes: colours and proportions, read from the JSON files in `assets/themes/` (embedded).

use image::Rgb;
use serde::Deserialize;

/// A colour written `#RRGGBB` in the theme file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Color(pub Rgb<u8>);

impl<'de> Deserialize<'de> for Color {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let text = String::deserialize(d)?;
        parse_hex(&text).map(Color).ok_or_else(|| {
            serde::de::Error::custom(format!("`{text}` is not a colour: write #RRGGBB"))
        })
    }
}

fn parse_hex(text: &str) -> Option<Rgb<u8>> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 || !hex.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some(Rgb([byte(0)?, byte(2)?, byte(4)?]))
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    pub name: String,
    pub description: String,
    /// Picture width in pixels; the height follows.
    pub width: u32,
    pub background: Color,
    pub card: Color,
    pub text: Color,
    pub subtle_text: Color,
    /// Marks the player to move.
    pub accent: Color,
    pub board_frame: Color,
    pub square_light: Color,
    pub square_dark: Color,
    pub label: Color,
    pub white_fill: Color,
    pub white_outline: Color,
    pub black_fill: Color,
    pub black_outline: Color,
    pub badge_fill: Color,
    pub badge_text: Color,
    /// The last ply's origin square and its destination squares.
    pub origin: Color,
    pub destination: Color,
    pub arrow: Color,
    pub arrow_outline: Color,
    pub road: Color,
    pub tak_fill: Color,
    pub tak_text: Color,
    /// The result banner of a win, and of a draw (or a game without result), told apart.
    pub result_fill: Color,
    pub result_text: Color,
    pub draw_fill: Color,
    /// Flat width as a fraction of a square.
    pub flat_size: f32,
    /// Capstone radius as a fraction of a square.
    pub cap_size: f32,
    /// Walls lean this far: White's to the right, Black's to the left.
    pub wall_tilt_degrees: f32,
}

const THEMES: [(&str, &str); 3] = [
    ("dark", include_str!("../../assets/themes/dark.json")),
    ("light", include_str!("../../assets/themes/light.json")),
    (
        "colorblind",
        include_str!("../../assets/themes/colorblind.json"),
    ),
];

impl Theme {
    /// The names of the built-in themes; the first is the default.
    pub fn names() -> impl Iterator<Item = &'static str> {
        THEMES.iter().map(|(n, _)| *n)
    }

    /// A built-in theme by name; the error lists the names there are.
    pub fn named(name: &str) -> Result<Theme, String> {
        let (_, json) = THEMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "there is no theme `{name}`: choose one of {}",
                    Theme::names().collect::<Vec<_>>().join(", ")
                )
            })?;
        Theme::from_json(json)
    }

    pub fn from_json(json: &str) -> Result<Theme, String> {
        let theme: Theme = serde_json::from_str(json).map_err(|e| format!("theme file: {e}"))?;
        if !(400..=2000).contains(&theme.width) {
            return Err(format!(
                "theme {}: width must be 400..2000 pixels",
                theme.name
            ));
        }
        let fractions = [theme.flat_size, theme.cap_size];
        if fractions.iter().any(|f| !(0.1..=0.8).contains(f)) {
            return Err(format!(
                "theme {}: flat_size and cap_size are fractions 0.1..0.8",
                theme.name
            ));
        }
        Ok(theme)
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::named("dark").expect("the built-in dark theme parses")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_theme_parses() {
        for name in Theme::names() {
            let t = Theme::named(name).unwrap();
            assert_eq!(t.name, name);
        }
        assert_eq!(Theme::default().background.0, Rgb([0x31, 0x33, 0x38]));
    }

    #[test]
    fn unknown_themes_and_bad_colours_are_explained() {
        assert!(Theme::named("neon")
            .unwrap_err()
            .contains("dark, light, colorblind"));
        let bad = include_str!("../../assets/themes/dark.json").replace("#313338", "313338");
        assert!(Theme::from_json(&bad)
            .unwrap_err()
            .contains("write #RRGGBB"));
    }
}
