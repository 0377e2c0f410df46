//! Themes: colours and proportions, read from the JSON files in `assets/themes/` (embedded).

use image::Rgb;
use serde::{Deserialize, Serialize};

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

/// Written back as the theme file writes it (the web pages draw boards in these colours).
impl Serialize for Color {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let [r, g, b] = self.0 .0;
        s.serialize_str(&format!("#{r:02X}{g:02X}{b:02X}"))
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

#[derive(Clone, Debug, Deserialize, Serialize)]
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

const THEMES: [(&str, &str); 8] = [
    ("dark", include_str!("../../assets/themes/dark.json")),
    ("light", include_str!("../../assets/themes/light.json")),
    (
        "colorblind",
        include_str!("../../assets/themes/colorblind.json"),
    ),
    (
        "colorblind-light",
        include_str!("../../assets/themes/colorblind-light.json"),
    ),
    ("tritan", include_str!("../../assets/themes/tritan.json")),
    (
        "high-contrast",
        include_str!("../../assets/themes/high-contrast.json"),
    ),
    ("wood", include_str!("../../assets/themes/wood.json")),
    ("slate", include_str!("../../assets/themes/slate.json")),
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

    /// WCAG's contrast ratio of two colours: 1 (the same) to 21 (black on white).
    fn contrast(a: Rgb<u8>, b: Rgb<u8>) -> f32 {
        let luminance = |c: Rgb<u8>| {
            let lin = |v: u8| {
                let s = v as f32 / 255.0;
                if s <= 0.04045 {
                    s / 12.92
                } else {
                    ((s + 0.055) / 1.055).powf(2.4)
                }
            };
            0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
        };
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    #[test]
    fn every_built_in_theme_parses() {
        for name in Theme::names() {
            let t = Theme::named(name).unwrap();
            assert_eq!(t.name, name);
        }
        assert_eq!(Theme::default().background.0, Rgb([0x31, 0x33, 0x38]));
    }

    /// Every theme keeps the owners apart and every piece visible on every square, and its text
    /// readable: WCAG ratios (4.5 for text, 3 for large marks and shapes).
    #[test]
    fn every_theme_keeps_owners_and_text_apart() {
        assert!(Theme::names().count() >= 8);
        for name in Theme::names() {
            let t = Theme::named(name).unwrap();
            let mut failures = Vec::new();
            let pairs = [
                ("white vs black pieces", t.white_fill, t.black_fill, 7.0),
                ("text on cards", t.text, t.card, 4.5),
                ("text on the background", t.text, t.background, 4.5),
                ("badges", t.badge_text, t.badge_fill, 4.5),
                ("Tak! banner", t.tak_text, t.tak_fill, 3.0),
                ("result banner", t.result_text, t.result_fill, 3.0),
                ("draw banner", t.result_text, t.draw_fill, 3.0),
                ("arrow on its outline", t.arrow, t.arrow_outline, 4.5),
                ("labels on the background", t.label, t.background, 4.5),
            ];
            for (what, a, b, min) in pairs {
                let ratio = contrast(a.0, b.0);
                if ratio < min {
                    failures.push(format!("{what}: {ratio:.2} < {min}"));
                }
            }
            for square in [t.square_light, t.square_dark] {
                // A piece reads by its fill or, failing that, by its outline.
                for (fill, outline, who) in [
                    (t.white_fill, t.white_outline, "white"),
                    (t.black_fill, t.black_outline, "black"),
                ] {
                    let best = contrast(fill.0, square.0).max(contrast(outline.0, square.0));
                    if best < 3.0 {
                        failures.push(format!("{who} piece on a square: {best:.2} < 3"));
                    }
                }
            }
            assert!(failures.is_empty(), "theme {name}: {failures:?}");
        }
        assert!(contrast(Rgb([0, 0, 0]), Rgb([255, 255, 255])) > 20.9);
    }

    #[test]
    fn unknown_themes_and_bad_colours_are_explained() {
        assert!(Theme::named("neon").unwrap_err().contains(
            "dark, light, colorblind, colorblind-light, tritan, high-contrast, wood, slate"
        ));
        let bad = include_str!("../../assets/themes/dark.json").replace("#313338", "313338");
        assert!(Theme::from_json(&bad)
            .unwrap_err()
            .contains("write #RRGGBB"));
    }
}
