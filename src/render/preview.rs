//! How text reads where Discord shows a picture: on a phone, scaled to 400 px wide. A text's
//! size there is measured as the ink height of its digits (DejaVu's digits stand as tall as its
//! capitals, a little above the lowercase), in pixels of the picture scaled to that width.

use super::text::{self, Weight};

/// How wide Discord shows an attached picture in a chat on a phone.
pub const PREVIEW_WIDTH: u32 = 400;

/// The least height of a text's digits at the preview (see the module's comment): smaller
/// text on a phone is a guess.
pub const SMALLEST_PREVIEW_TEXT: f32 = 9.0;

/// A line of text as a picture draws it: its words, size (ab_glyph's pixel scale) and weight.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub text: String,
    pub px: f32,
    pub weight: Weight,
}

impl Line {
    pub fn new(text: &str, px: f32, weight: Weight) -> Line {
        Line {
            text: text.to_string(),
            px,
            weight,
        }
    }

    /// The ink height of its digits, in pixels, when the picture (`width` pixels wide) is shown
    /// 400 px wide.
    pub fn preview_height(&self, width: u32) -> f32 {
        text::digit_height(self.px, self.weight) * PREVIEW_WIDTH as f32 / width as f32
    }
}

/// The smallest text size in a picture `width` pixels wide: its digits are
/// `SMALLEST_PREVIEW_TEXT` tall at the preview (rounded up to a hundredth of a pixel, so never
/// a rounding error below).
pub(crate) fn smallest_px(width: u32, weight: Weight) -> f32 {
    let per_px = text::digit_height(1.0, weight);
    let px = SMALLEST_PREVIEW_TEXT * width as f32 / PREVIEW_WIDTH as f32 / per_px;
    (px * 100.0).ceil() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_text_has_its_digits_nine_pixels_tall_at_the_preview() {
        for width in [400, 800, 1234] {
            for weight in [Weight::Regular, Weight::Bold] {
                let line = Line {
                    text: "12".into(),
                    px: smallest_px(width, weight),
                    weight,
                };
                let h = line.preview_height(width);
                let least = SMALLEST_PREVIEW_TEXT;
                assert!((least..least + 0.01).contains(&h), "{width}: {h}");
            }
        }
    }
}
