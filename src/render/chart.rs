//! The evaluation chart of an analysed game: White's advantage position by position (above the
//! middle line White is ahead, below it Black), with each marked ply shown as a dot in its
//! mark's colour. Drawn at the theme's width so it reads at Discord's 400 px preview.

use super::paint::{capsule, circle, fill_rect, pt, Paint};
use super::text::{self, Align, Weight};
use super::Theme;
use image::{Rgb, RgbImage};

/// What the chart shows.
pub struct Chart<'a> {
    /// Values from White's view, hundredths of a flat, for the start and after every ply;
    /// beyond ±`decided` a forced result (drawn at the edge).
    pub white_view: &'a [i32],
    /// `(position, mark)`: the mark (`??`, `?`, `!`) of the ply that led to `position`.
    pub marks: &'a [(usize, &'a str)],
    /// Move number of position 0, and whether White is to move there.
    pub first_move: u32,
    pub white_first: bool,
    /// The players' names, White's first.
    pub players: [&'a str; 2],
}

/// "alice (White) ahead", or "White ahead" for a player named by colour only.
fn ahead(name: &str, colour: &str) -> String {
    if name.is_empty() || name == colour {
        format!("{colour} ahead")
    } else {
        format!("{name} ({colour}) ahead")
    }
}

const HEIGHT_RATIO: f32 = 0.5;
/// The plot's left and right edges, as fractions of the picture's width: the first ply's
/// value is drawn at the one, the last's at the other, evenly between (a web page maps a
/// click on the picture back to its ply with them).
pub const PLOT_X: (f32, f32) = (64.0 / 800.0, 780.0 / 800.0);
const BLUNDER: Rgb<u8> = Rgb([0xE5, 0x3B, 0x3B]);
const MISTAKE: Rgb<u8> = Rgb([0xF2, 0xA0, 0x2C]);
const GOOD: Rgb<u8> = Rgb([0x3C, 0xB3, 0x71]);

fn mark_colour(mark: &str) -> Rgb<u8> {
    match mark {
        "??" => BLUNDER,
        "?" => MISTAKE,
        _ => GOOD,
    }
}

/// The chart's vertical reach in flats: the largest value shown (at least 3, at most 10),
/// rounded up to an even number so the half-way labels are whole.
fn reach(values: &[i32]) -> i32 {
    let most = values
        .iter()
        .map(|v| v.unsigned_abs().min(1000) as i32)
        .max()
        .unwrap_or(0);
    let flats = (most + 99) / 100;
    let flats = flats.clamp(3, 10);
    flats + flats % 2
}

/// A step between move-number labels that keeps them at most eight.
fn label_step(moves: u32) -> u32 {
    [1, 2, 5, 10, 20, 25, 50, 100]
        .into_iter()
        .find(|s| moves / s <= 8)
        .unwrap_or(200)
}

pub fn render_chart(chart: &Chart, theme: &Theme) -> RgbImage {
    let w = theme.width;
    let h = (w as f32 * HEIGHT_RATIO) as u32;
    let s = w as f32 / 800.0;
    let mut img = RgbImage::from_pixel(w, h, theme.background.0);
    let (left, right) = (PLOT_X.0 * w as f32, PLOT_X.1 * w as f32);
    let (top, bottom) = (64.0 * s, h as f32 - 44.0 * s);
    let mid = (top + bottom) / 2.0;
    let flats = reach(chart.white_view);
    let y_of = |v: i32| {
        let clamped = v.clamp(-flats * 100, flats * 100) as f32;
        mid - clamped / (flats * 100) as f32 * (bottom - top) / 2.0
    };
    let n = chart.white_view.len().max(2);
    let x_of = |i: usize| left + (right - left) * i as f32 / (n - 1) as f32;

    // Title and legend.
    text::draw(
        &mut img,
        "Evaluation (in flats)",
        (left, 24.0 * s),
        24.0 * s,
        Weight::Bold,
        Align::Left,
        theme.text.0,
    );
    let mut x = right;
    for (label, colour) in [("!", GOOD), ("?", MISTAKE), ("??", BLUNDER)] {
        let tw = text::draw(
            &mut img,
            label,
            (x, 24.0 * s),
            22.0 * s,
            Weight::Bold,
            Align::Right,
            theme.text.0,
        );
        circle(
            &mut img,
            pt(x - tw - 14.0 * s, 24.0 * s),
            8.0 * s,
            Paint::solid(colour),
        );
        x -= tw + 40.0 * s;
    }
    // White's and Black's halves, tinted with their pieces' colours.
    fill_rect(
        &mut img,
        left as i32,
        top as i32,
        right as i32,
        mid as i32,
        theme.white_fill.0,
        0.18,
    );
    fill_rect(
        &mut img,
        left as i32,
        mid as i32,
        right as i32,
        bottom as i32,
        theme.black_fill.0,
        0.5,
    );
    text::draw(
        &mut img,
        &ahead(chart.players[0], "White"),
        (left + 8.0 * s, top + 16.0 * s),
        18.0 * s,
        Weight::Regular,
        Align::Left,
        theme.subtle_text.0,
    );
    text::draw(
        &mut img,
        &ahead(chart.players[1], "Black"),
        (left + 8.0 * s, bottom - 16.0 * s),
        18.0 * s,
        Weight::Regular,
        Align::Left,
        theme.subtle_text.0,
    );
    // Value labels and grid lines: the edges, half-way, and the even line.
    for v in [flats, flats / 2, 0, -flats / 2, -flats] {
        let y = y_of(v * 100);
        let opacity = if v == 0 { 1.0 } else { 0.35 };
        fill_rect(
            &mut img,
            left as i32,
            y as i32,
            right as i32,
            y as i32 + 1,
            theme.subtle_text.0,
            opacity,
        );
        let label = if v > 0 {
            format!("+{v}")
        } else if v < 0 {
            format!("−{}", -v)
        } else {
            "0".into()
        };
        text::draw(
            &mut img,
            &label,
            (left - 10.0 * s, y),
            20.0 * s,
            Weight::Regular,
            Align::Right,
            theme.text.0,
        );
    }
    // Move numbers along the bottom.
    let position_move = |i: usize| {
        let ply = i as u32 + u32::from(!chart.white_first);
        chart.first_move + ply / 2
    };
    let last_move = position_move(n - 1);
    let step = label_step(last_move.saturating_sub(chart.first_move).max(1));
    let mut labelled = None;
    for i in 0..n {
        let m = position_move(i);
        let white_to_move = (i as u32 + u32::from(!chart.white_first)).is_multiple_of(2);
        if white_to_move && m % step == 0 && labelled != Some(m) {
            labelled = Some(m);
            let x = x_of(i);
            fill_rect(
                &mut img,
                x as i32,
                bottom as i32,
                x as i32 + 1,
                (bottom + 6.0 * s) as i32,
                theme.subtle_text.0,
                1.0,
            );
            text::draw(
                &mut img,
                &m.to_string(),
                (x, bottom + 22.0 * s),
                20.0 * s,
                Weight::Regular,
                Align::Center,
                theme.text.0,
            );
        }
    }
    // The line, then the marks over it.
    let line = Paint::solid(theme.accent.0);
    for i in 1..chart.white_view.len() {
        let a = pt(x_of(i - 1), y_of(chart.white_view[i - 1]));
        let b = pt(x_of(i), y_of(chart.white_view[i]));
        capsule(&mut img, a, b, 2.0 * s, line);
    }
    for &(i, mark) in chart.marks {
        if let Some(&v) = chart.white_view.get(i) {
            let c = pt(x_of(i), y_of(v));
            circle(
                &mut img,
                c,
                8.0 * s,
                Paint::outlined(mark_colour(mark), theme.background.0, 2.0 * s),
            );
        }
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_and_label_steps() {
        assert_eq!(reach(&[0, 50, -120]), 4);
        assert_eq!(reach(&[0, 1_000_000]), 10);
        assert_eq!(reach(&[]), 4);
        assert_eq!(label_step(7), 1);
        assert_eq!(label_step(30), 5);
        assert_eq!(label_step(150), 20);
    }

    #[test]
    fn the_halves_name_the_players() {
        assert_eq!(ahead("alice", "White"), "alice (White) ahead");
        assert_eq!(ahead("White", "White"), "White ahead");
        assert_eq!(ahead("", "Black"), "Black ahead");
    }
}
