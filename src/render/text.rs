//! Text: the embedded DejaVu fonts, names made drawable, and fitting text to a width.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgb, RgbImage};
use std::sync::OnceLock;

static REGULAR: &[u8] = include_bytes!("../../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../fonts/DejaVuSans-Bold.ttf");
/// GNU Unifont (OFL), for what DejaVu lacks: CJK above all. Kept as WOFF (3.2 MB instead of the
/// 12 MB font) and unpacked the first time a name needs it.
static FALLBACK: &[u8] = include_bytes!("../../fonts/unifont.woff");

/// The fallback font, unpacked on first use.
fn fallback_font() -> &'static ab_glyph::FontVec {
    static FONT: OnceLock<ab_glyph::FontVec> = OnceLock::new();
    FONT.get_or_init(|| {
        let sfnt = unpack_woff(FALLBACK).expect("the embedded Unifont WOFF unpacks");
        ab_glyph::FontVec::try_from_vec(sfnt).expect("the embedded Unifont is a valid font")
    })
}

/// A WOFF 1.0 file back to the font it wraps: each table is stored zlib-compressed (or as is,
/// when that is not smaller), with its directory entry.
fn unpack_woff(woff: &[u8]) -> Option<Vec<u8>> {
    let u32_at = |at: usize| Some(u32::from_be_bytes(woff.get(at..at + 4)?.try_into().ok()?));
    if woff.get(..4)? != b"wOFF" {
        return None;
    }
    let flavor = u32_at(4)?;
    let count = u16::from_be_bytes(woff.get(12..14)?.try_into().ok()?) as usize;
    let mut tables = Vec::with_capacity(count);
    for i in 0..count {
        let at = 44 + 20 * i;
        let tag = woff.get(at..at + 4)?;
        let (offset, stored, size, checksum) = (
            u32_at(at + 4)? as usize,
            u32_at(at + 8)? as usize,
            u32_at(at + 12)? as usize,
            u32_at(at + 16)?,
        );
        let raw = woff.get(offset..offset + stored)?;
        let data = if stored < size {
            miniz_oxide::inflate::decompress_to_vec_zlib(raw).ok()?
        } else {
            raw.to_vec()
        };
        (data.len() == size).then_some(())?;
        tables.push((tag, checksum, data));
    }
    let mut power = 1;
    while power * 2 <= count {
        power *= 2;
    }
    let mut out = Vec::new();
    out.extend(flavor.to_be_bytes());
    for v in [
        count,
        power * 16,
        power.trailing_zeros() as usize,
        count * 16 - power * 16,
    ] {
        out.extend((v as u16).to_be_bytes());
    }
    let mut offset = 12 + 16 * count;
    let mut body = Vec::new();
    for (tag, checksum, data) in &tables {
        out.extend_from_slice(tag);
        out.extend(checksum.to_be_bytes());
        out.extend(((offset + body.len()) as u32).to_be_bytes());
        out.extend((data.len() as u32).to_be_bytes());
        body.extend_from_slice(data);
        body.resize(body.len().next_multiple_of(4), 0);
    }
    offset += body.len();
    out.extend(body);
    (out.len() == offset).then_some(out)
}

/// DejaVu has no glyph for `c`.
fn missing(c: char) -> bool {
    fonts().bold.glyph_id(c).0 == 0
}

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

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
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

/// A display name the fonts can draw (DejaVu, then Unifont): emoji dropped, other missing
/// glyphs shown as `?`,
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
        // The fallback is looked at (and so loaded) only for what DejaVu lacks.
        let drawable = f.glyph_id(c).0 != 0 || fallback_font().glyph_id(c).0 != 0;
        out.push(if drawable { c } else { '?' });
    }
    let trimmed = out.trim_end();
    if trimmed.chars().all(|c| c == '?' || c == ' ') {
        fallback.to_string()
    } else {
        trimmed.to_string()
    }
}

/// Text in a right-to-left script (Hebrew, Arabic and its extensions, Syriac, Thaana, N'Ko):
/// it needs the bidirectional algorithm and shaping, not one glyph per character.
fn needs_shaping(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF))
}

/// Glyphs placed left to right: (glyph, x offset from the start, y offset), and the width.
struct Shaped {
    glyphs: Vec<(ab_glyph::GlyphId, f32, f32)>,
    width: f32,
}

/// The font as rustybuzz reads it, parsed once per weight (`width`, `fit` and `draw` shape
/// the same name several times).
fn shaping_face(weight: Weight) -> &'static rustybuzz::Face<'static> {
    static REGULAR_FACE: OnceLock<rustybuzz::Face<'static>> = OnceLock::new();
    static BOLD_FACE: OnceLock<rustybuzz::Face<'static>> = OnceLock::new();
    let (cell, data) = match weight {
        Weight::Regular => (&REGULAR_FACE, REGULAR),
        Weight::Bold => (&BOLD_FACE, BOLD),
    };
    cell.get_or_init(|| {
        rustybuzz::Face::from_slice(data, 0).expect("embedded DejaVu is a valid font")
    })
}

/// Lays out `text` as a reader sees it: the Unicode bidirectional algorithm puts its runs in
/// visual order, and rustybuzz shapes each run (Arabic letters join, marks attach).
fn shape(text: &str, px: f32, weight: Weight) -> Shaped {
    let face = shaping_face(weight);
    // ab_glyph scales by the font's height (ascent - descent), not by its em.
    let unit = px / font(weight).height_unscaled();
    let bidi = unicode_bidi::BidiInfo::new(text, None);
    let mut glyphs = Vec::new();
    let mut x = 0.0;
    for para in &bidi.paragraphs {
        let (levels, runs) = bidi.visual_runs(para, para.range.clone());
        for run in runs {
            let mut buffer = rustybuzz::UnicodeBuffer::new();
            buffer.push_str(&text[run.clone()]);
            buffer.set_direction(if levels[run.start].is_rtl() {
                rustybuzz::Direction::RightToLeft
            } else {
                rustybuzz::Direction::LeftToRight
            });
            buffer.guess_segment_properties();
            let out = rustybuzz::shape(face, &[], buffer);
            for (info, pos) in out.glyph_infos().iter().zip(out.glyph_positions()) {
                glyphs.push((
                    ab_glyph::GlyphId(info.glyph_id as u16),
                    x + pos.x_offset as f32 * unit,
                    -(pos.y_offset as f32) * unit,
                ));
                x += pos.x_advance as f32 * unit;
            }
        }
    }
    Shaped { glyphs, width: x }
}

/// Glyphs of text that needs the fallback font, one font per character: (glyph, font, x).
fn mixed(text: &str, px: f32, weight: Weight) -> (Vec<(ab_glyph::GlyphId, bool, f32)>, f32) {
    let primary = font(weight).as_scaled(PxScale::from(px));
    let other = fallback_font().as_scaled(PxScale::from(px));
    let mut x = 0.0;
    let glyphs = text
        .chars()
        .map(|c| {
            let from_fallback = missing(c) && other.glyph_id(c).0 != 0;
            let id = if from_fallback {
                other.glyph_id(c)
            } else {
                primary.glyph_id(c)
            };
            let at = x;
            x += if from_fallback {
                other.h_advance(id)
            } else {
                primary.h_advance(id)
            };
            (id, from_fallback, at)
        })
        .collect();
    (glyphs, x)
}

/// The ink height of the digits 0 to 9 together (top of the tallest to bottom of the lowest) at
/// `px`: how big a text reads (see `preview`).
pub fn digit_height(px: f32, weight: Weight) -> f32 {
    let f = font(weight);
    let (mut top, mut bottom) = (f32::MIN, f32::MAX);
    for c in '0'..='9' {
        if let Some(outline) = f.outline(f.glyph_id(c)) {
            let b = outline.bounds;
            top = top.max(b.min.y.max(b.max.y));
            bottom = bottom.min(b.min.y.min(b.max.y));
        }
    }
    (top - bottom) * px / f.height_unscaled()
}

pub fn width(text: &str, px: f32, weight: Weight) -> f32 {
    if needs_shaping(text) {
        return shape(text, px, weight).width;
    }
    if text.chars().any(missing) {
        return mixed(text, px, weight).1;
    }
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
    if needs_shaping(text) {
        draw_shaped(img, text, (left, top + scaled.ascent()), px, weight, color);
        return w;
    }
    if text.chars().any(missing) {
        let baseline = top + scaled.ascent();
        for (id, from_fallback, x) in mixed(text, px, weight).0 {
            let glyph =
                id.with_scale_and_position(PxScale::from(px), ab_glyph::point(left + x, baseline));
            let outline = if from_fallback {
                fallback_font().outline_glyph(glyph)
            } else {
                f.outline_glyph(glyph)
            };
            if let Some(outline) = outline {
                blend(img, &outline, color);
            }
        }
        return w;
    }
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

/// Draws shaped text with its baseline at `baseline_y`, blending coverage into the picture.
fn draw_shaped(
    img: &mut RgbImage,
    text: &str,
    (left, baseline_y): (f32, f32),
    px: f32,
    weight: Weight,
    color: Rgb<u8>,
) {
    let f = font(weight);
    for (id, dx, dy) in shape(text, px, weight).glyphs {
        let glyph = id.with_scale_and_position(
            PxScale::from(px),
            ab_glyph::point(left + dx, baseline_y + dy),
        );
        if let Some(outline) = f.outline_glyph(glyph) {
            blend(img, &outline, color);
        }
    }
}

/// Blends a glyph's coverage into the picture.
fn blend(img: &mut RgbImage, outline: &ab_glyph::OutlinedGlyph, color: Rgb<u8>) {
    let bounds = outline.px_bounds();
    outline.draw(|gx, gy, coverage| {
        let (x, y) = (
            bounds.min.x as i32 + gx as i32,
            bounds.min.y as i32 + gy as i32,
        );
        if x < 0 || y < 0 || x >= img.width() as i32 || y >= img.height() as i32 {
            return;
        }
        let pixel = img.get_pixel_mut(x as u32, y as u32);
        *pixel = super::paint::mix(*pixel, color, coverage);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_emoji_and_keep_what_the_font_draws() {
        assert_eq!(drawable_name("🐢 turtle 🐢", "Player 1"), "turtle");
        assert_eq!(drawable_name("Ünïcødé", "x"), "Ünïcødé");
        assert_eq!(
            drawable_name("名前 bob", "x"),
            "名前 bob",
            "CJK from the fallback font"
        );
        assert_eq!(drawable_name("한국 あ", "x"), "한국 あ");
        assert_eq!(
            drawable_name("\u{10FFFD}x", "x"),
            "?x",
            "nothing has this one"
        );
        assert_eq!(drawable_name("שלום", "x"), "שלום", "Hebrew is drawable");
        assert_eq!(drawable_name("سلام", "x"), "سلام", "Arabic is drawable");
        assert_eq!(drawable_name("👍🏽", "Player 2"), "Player 2");
        assert_eq!(drawable_name("a\u{0}\tb  c", "x"), "a b c");
        assert_eq!(drawable_name("", "Player 1"), "Player 1");
    }

    #[test]
    fn right_to_left_names_are_reordered_and_arabic_letters_join() {
        // Hebrew: the first letter (shin) is drawn rightmost.
        let hebrew = shape("שלום", 40.0, Weight::Bold);
        let shin = fonts().bold.glyph_id('ש');
        let rightmost = hebrew
            .glyphs
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        assert_eq!(rightmost.0, shin);
        // Arabic: "salam" shapes to joined forms (and the lam-alef ligature), not the isolated
        // letters one per character.
        let arabic = shape("سلام", 40.0, Weight::Bold);
        let isolated: Vec<_> = "سلام".chars().map(|c| fonts().bold.glyph_id(c)).collect();
        assert!(arabic.glyphs.len() < 4, "lam-alef is one ligature");
        assert!(arabic
            .glyphs
            .iter()
            .all(|g| !isolated.contains(&g.0) || g.0 == isolated[3]));
        // Mixed text keeps the Latin part in reading order after the Hebrew run.
        let mixed = shape("bob שלום", 40.0, Weight::Bold);
        let b = fonts().bold.glyph_id('b');
        assert!(mixed.glyphs[0].0 == b, "Latin first, left to right");
        assert!(width("שלום", 40.0, Weight::Bold) > 40.0);
    }

    #[test]
    fn cjk_names_are_drawn_from_the_fallback_font() {
        let unifont = unpack_woff(FALLBACK).unwrap();
        assert_eq!(&unifont[..4], &[0, 1, 0, 0], "a TrueType font");
        assert!(unpack_woff(b"not a woff").is_none());
        let w = width("名前", 24.0, Weight::Bold);
        assert!(w > 30.0, "two wide glyphs: {w}");
        let mut img = RgbImage::from_pixel(200, 60, Rgb([0, 0, 0]));
        draw(
            &mut img,
            "名前",
            (10.0, 30.0),
            24.0,
            Weight::Bold,
            Align::Left,
            Rgb([255, 255, 255]),
        );
        let lit = img.pixels().filter(|p| p[0] > 128).count();
        assert!(lit > 80, "the glyphs are drawn, not blank: {lit}");
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
