//! Text: the embedded DejaVu fonts, names made drawable, and fitting text to a width.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgb, RgbImage};
use std::sync::OnceLock;

static REGULAR: &[u8] = include_bytes!("../../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../fonts/DejaVuSans-Bold.ttf");

pub struct Fonts {
    pub regular: FontRef<'static>,
    pub bold: FontRef<'static>,
}

pub fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| Fonts {
        regular: FontRef::try_from_slice(REGULAR).expect("embedded DejaVu Sans is a valid font"),
        bold: FontRef::try_from_slice(BOLD).expect("embedded DejaVu Sans Bold is a valid font"),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    Regular,
    Bold,
}

fn font(weight: Weight) -> &'static FontRef<'static> {
    match weight {
        Weight::Regular => &fonts().regular,
        Weight::Bold => &fonts().bold,
    }
}

/// Pictographs (emoji) and the invisible characters that build them.
fn is_emoji_part(c: char) -> bool {
    matches!(c as u32,
        0x1F000..=0x1FAFF | 0x2600..=0x27BF | 0x2B00..=0x2BFF | 0xFE00..=0xFE0F | 0x200D
        | 0x20E3 | 0xE0020..=0xE007F)
}

/// A display name the fonts can draw: emoji dropped, other missing glyphs shown as `?`,
/// control characters and runs of spaces removed; empty names become `fallback`.
pub fn drawable_name(name: &str, fallback: &str) -> String {
    let f = &fonts().bold;
    let mut out = String::new();
    for c in name.chars() {
        let c = if c.is_whitespace() { ' ' } else { c };
        if c.is_control() || is_emoji_part(c) {
            continue;
        }
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(if f.glyph_id(c).0 == 0 { '?' } else { c });
    }
    let trimmed = out.trim_end();
    if trimmed.chars().all(|c| c == '?' || c == ' ') {
        fallback.to_string()
    } else {
        trimmed.to_string()
    }
}

pub fn width(text: &str, px: f32, weight: Weight) -> f32 {
    let f = font(weight).as_scaled(PxScale::from(px));
    let mut w = 0.0;
    let mut prev = None;
    for c in text.chars() {
        let id = f.glyph_id(c);
        if let Some(p) = prev {
            w += f.kern(p, id);
        }
        w += f.h_advance(id);
        prev = Some(id);
    }
    w
}

/// `text`, shortened with `…` until it fits `max` pixels.
pub fn fit(text: &str, px: f32, weight: Weight, max: f32) -> String {
    if width(text, px, weight) <= max {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let candidate: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
        if width(&candidate, px, weight) <= max {
            return candidate;
        }
    }
    "…".to_string()
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// Draws one line of text at `x` (by `align`) with its vertical middle at `mid_y`; returns its width.
pub fn draw(
    img: &mut RgbImage,
    text: &str,
    (x, mid_y): (f32, f32),
    px: f32,
    weight: Weight,
    align: Align,
    color: Rgb<u8>,
) -> f32 {
    let f = font(weight);
    let scaled = f.as_scaled(PxScale::from(px));
    let w = width(text, px, weight);
    let left = match align {
        Align::Left => x,
        Align::Center => x - w / 2.0,
        Align::Right => x - w,
    };
    // Centre the cap height (digits and capitals) on mid_y: it reads as centred.
    let cap = f
        .outline_glyph(f.glyph_id('H').with_scale(PxScale::from(px)))
        .map(|g| -g.px_bounds().min.y)
        .unwrap_or(px * 0.7);
    let top = mid_y + cap / 2.0 - scaled.ascent();
    imageproc::drawing::draw_text_mut(
        img,
        color,
        left.round() as i32,
        top.round() as i32,
        PxScale::from(px),
        f,
        text,
    );
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_emoji_and_keep_what_the_font_draws() {
        assert_eq!(drawable_name("🐢 turtle 🐢", "Player 1"), "turtle");
        assert_eq!(drawable_name("Ünïcødé", "x"), "Ünïcødé");
        assert_eq!(drawable_name("名前 bob", "x"), "?? bob");
        assert_eq!(drawable_name("👍🏽", "Player 2"), "Player 2");
        assert_eq!(drawable_name("a\u{0}\tb  c", "x"), "a b c");
        assert_eq!(drawable_name("", "Player 1"), "Player 1");
    }

    #[test]
    fn long_text_is_shortened_to_fit() {
        let long = "A very long display name that keeps going";
        let short = fit(long, 24.0, Weight::Bold, 200.0);
        assert!(short.ends_with('…'));
        assert!(width(&short, 24.0, Weight::Bold) <= 200.0);
        assert_eq!(fit("bob", 24.0, Weight::Bold, 200.0), "bob");
    }
}
