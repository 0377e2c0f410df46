//! Board pictures: a position (plus last ply, names, result, theme) in, PNG bytes and alt text out.
//! Knows nothing of Discord or storage.
//!
//! Layout, top to bottom: a header (a card per player: name, reserves, flats; the card of the
//! player to move is outlined), a status row (move, flat count with komi, Tak!/result), then the
//! board with rank and file labels, and on request the reserve tray. Every size is drawn at one
//! picture size.

mod alt;
mod board;
pub mod chart;
pub mod crosstable;
mod display;
mod gif;
pub mod hex;
pub mod paint;
mod preview;
mod scene;
mod square;
pub mod text;
mod theme;
mod tray;

pub use alt::alt_text;
pub use display::Display;
pub use gif::{animate, render_gif};
pub use preview::{Line, PREVIEW_WIDTH, SMALLEST_PREVIEW_TEXT};
pub(crate) use scene::{owner_paint, Layout};
pub use scene::{square_geometry, Scene};
pub use square::{square_marks, Label, SquareMarks};
pub use theme::Theme;

use crate::tak::{flat_score, Color};
use image::{ImageEncoder, RgbImage};
use paint::{pt, Paint};
use text::{Align, Weight};

/// The background, frame, squares and labels (if shown) of a theme and size, drawn once and
/// copied.
fn template(theme: &Theme, layout: &Layout, labels: bool) -> std::sync::Arc<RgbImage> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<RgbImage>>>> = OnceLock::new();
    // Keyed by the whole theme: two themes with one name but other colours never mix.
    let key = format!(
        "{}:{}:{labels}:{}:{theme:?}",
        layout.size, layout.height, layout.flipped
    );
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(t) = cache.lock().expect("template cache").get(&key) {
        return Arc::clone(t);
    }
    let mut img = RgbImage::from_pixel(layout.width, layout.height, theme.background.0);
    board::draw_static(&mut img, theme, layout, labels);
    let t = Arc::new(img);
    cache
        .lock()
        .expect("template cache")
        .insert(key, Arc::clone(&t));
    t
}

/// Draws the scene.
pub fn render(scene: &Scene, theme: &Theme) -> RgbImage {
    let layout = Layout::of(theme, scene.position.size(), scene.display);
    let mut img = RgbImage::clone(&template(theme, &layout, scene.display.labels));
    header(&mut img, scene, theme, &layout);
    board::draw(&mut img, scene, theme, &layout);
    if scene.display.tray {
        tray::draw(&mut img, scene, theme, &layout);
    }
    img
}

/// Draws the scene and encodes it as PNG.
pub fn render_png(scene: &Scene, theme: &Theme) -> Vec<u8> {
    encode_png(&render(scene, theme))
}

/// PNG with fast deflate and adaptive filtering: on these pictures (large flat areas) it is
/// within 40% of the smallest file at a tenth of the time (docs/DEVELOPING.md: Performance).
pub fn encode_png(img: &RgbImage) -> Vec<u8> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut out = Vec::with_capacity(64 * 1024);
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .expect("encoding to memory does not fail");
    out
}

/// What a player's card in the header shows, in any game.
pub(crate) struct Card<'a> {
    /// 0 for the first player (left), 1 for the second.
    pub seat: usize,
    pub name: String,
    /// The piece icon's width, height and corner radius, in units of `Layout::k`.
    pub icon: (f32, f32, f32),
    /// The big number on the right (flats, pieces to enter) and its caption.
    pub count: String,
    pub caption: &'a str,
    /// The line under the name; drawn in the accent colour when this player is to move.
    pub status: String,
    pub to_move: bool,
}

/// A card's height and the middles of its two rows (the icon, name and count; the status line
/// under them, as wide as the card), from its top, in units of `Layout::k`.
const CARD: (f32, f32, f32) = (98.0, 28.0, 76.0);

/// Where a player's card goes: its left edge, top and width.
fn card_frame(l: &Layout, seat: usize) -> (f32, f32, f32) {
    let (k, w) = (l.k, l.width as f32);
    let x = if seat == 0 {
        16.0 * k
    } else {
        w / 2.0 + 8.0 * k
    };
    (x, 12.0 * k, w / 2.0 - 24.0 * k)
}

/// Half the width of the count's column at the card's right: as wide as its caption needs
/// (at least 68 units).
fn count_half_width(l: &Layout, caption: &str) -> f32 {
    let k = l.k;
    (text::width(caption, caption_px(l), Weight::Regular) / 2.0 + 10.0 * k).max(34.0 * k)
}

/// The count's caption ("flats", "in hand"): the smallest size that reads at the preview.
fn caption_px(l: &Layout) -> f32 {
    preview::smallest_px(l.width, Weight::Regular)
}

/// The count's size on a card.
fn count_px(l: &Layout) -> f32 {
    32.0 * l.k
}

/// The status row's text ("Move 30 · flats 1 vs 1 + 2", Tak!, the result): the smallest size
/// that reads at the preview, and never smaller than the pills were first drawn.
pub(crate) fn pill_px(l: &Layout) -> f32 {
    (19.0 * l.k).max(preview::smallest_px(l.width, Weight::Bold))
}

/// The card's name and status lines as drawn, each shortened to its room: the name between the
/// icon and the count, the status line across the card. Both at least the smallest size that
/// reads at Discord's preview.
pub(crate) fn card_lines(l: &Layout, card: &Card) -> [preview::Line; 2] {
    let k = l.k;
    let (_, _, card_w) = card_frame(l, card.seat);
    let name_px = preview::smallest_px(l.width, Weight::Bold);
    let status_px = preview::smallest_px(l.width, Weight::Regular);
    let name_room = card_w - 58.0 * k - 2.0 * count_half_width(l, card.caption) - 4.0 * k;
    let status_room = card_w - 2.0 * 13.0 * k;
    [
        preview::Line {
            text: text::fit(&card.name, name_px, Weight::Bold, name_room),
            px: name_px,
            weight: Weight::Bold,
        },
        preview::Line {
            text: text::fit(&card.status, status_px, Weight::Regular, status_room),
            px: status_px,
            weight: Weight::Regular,
        },
    ]
}

/// Draws a player's card: outlined when the player is to move; the piece icon, name and the
/// count with its caption in a column at the right; the status line under them.
pub(crate) fn player_card(img: &mut RgbImage, theme: &Theme, l: &Layout, card: &Card) {
    let k = l.k;
    let (x, y, card_w) = card_frame(l, card.seat);
    let (h, first_row, status_row) = (CARD.0 * k, y + CARD.1 * k, y + CARD.2 * k);
    let frame = match card.to_move {
        true => Paint::outlined(theme.card.0, theme.accent.0, 3.0 * k),
        false => Paint::solid(theme.card.0),
    };
    paint::round_rect(
        img,
        pt(x + card_w / 2.0, y + h / 2.0),
        card_w,
        h,
        12.0 * k,
        0.0,
        frame,
    );
    let (iw, ih, ir) = card.icon;
    paint::round_rect(
        img,
        pt(x + 30.0 * k, first_row),
        iw * k,
        ih * k,
        ir * k,
        0.0,
        owner_paint(theme, card.seat == 0, 2.0 * k),
    );
    let fx = x + card_w - count_half_width(l, card.caption);
    text::draw(
        img,
        &card.count,
        (fx, first_row - 6.0 * k),
        count_px(l),
        Weight::Bold,
        Align::Center,
        theme.text.0,
    );
    text::draw(
        img,
        card.caption,
        (fx, first_row + 21.0 * k),
        caption_px(l),
        Weight::Regular,
        Align::Center,
        theme.subtle_text.0,
    );
    let [name, status] = card_lines(l, card);
    let ink = match card.to_move {
        true => theme.accent.0,
        false => theme.subtle_text.0,
    };
    for (line, (lx, mid), colour) in [
        (name, (x + 58.0 * k, first_row), theme.text.0),
        (status, (x + 13.0 * k, status_row), ink),
    ] {
        text::draw(
            img,
            &line.text,
            (lx, mid),
            line.px,
            line.weight,
            Align::Left,
            colour,
        );
    }
}

/// The result's pill: `code · sentence`, green for a win, grey for a draw or no result.
pub(crate) fn result_pill(theme: &Theme, code: &str, sentence: &str, won: bool) -> Pill {
    let fill = if won {
        theme.result_fill.0
    } else {
        theme.draw_fill.0
    };
    (
        format!("{code} · {sentence}"),
        Some((fill, theme.result_text.0)),
    )
}

/// The players' cards of a Tak picture, White's then Black's.
fn tak_cards(scene: &Scene) -> [Card<'static>; 2] {
    let p = scene.position;
    let to_move = scene.result.is_none().then(|| p.to_move());
    [Color::White, Color::Black].map(|color| {
        let r = p.reserve(color);
        let mut reserve = crate::words::count(r.stones, "stone");
        if p.setup().reserves[color.index()].caps > 0 {
            reserve = format!("{reserve} · {}", crate::words::count(r.caps, "cap"));
        }
        let to_move = to_move == Some(color);
        Card {
            seat: color.index(),
            name: scene.name(color),
            // The player's piece colour as a flat.
            icon: (34.0, 34.0, 5.0),
            count: match scene.display.flat_counts {
                true => p.flat_count(color).to_string(),
                false => r.total().to_string(),
            },
            caption: if scene.display.flat_counts {
                "flats"
            } else {
                "in hand"
            },
            // "to move" first, so a long reserve line never cuts it off.
            status: match to_move {
                true => format!("to move · {reserve}"),
                false => reserve,
            },
            to_move,
        }
    })
}

/// The lines of the players' cards as a picture of `scene` draws them: White's name and status
/// line, then Black's.
pub fn card_text(scene: &Scene, theme: &Theme) -> Vec<preview::Line> {
    let l = Layout::with_tray(theme, scene.position.size(), scene.display.tray);
    tak_cards(scene)
        .iter()
        .flat_map(|card| card_lines(&l, card))
        .collect()
}

/// Every text a picture of `scene` lays out, at the size it is drawn: the cards' lines, counts
/// and captions, the status row, the coordinates, the stacks' badges and pills, the drop
/// counts; for checking that each reads at Discord's preview.
pub fn texts(scene: &Scene, theme: &Theme) -> Vec<preview::Line> {
    let l = Layout::of(theme, scene.position.size(), scene.display);
    let line = preview::Line::new;
    let mut lines = header_texts(&l, &tak_cards(scene), &status_pills(scene, theme));
    if scene.display.labels {
        for i in 0..l.size {
            let file = ((b'a' + i as u8) as char).to_string();
            lines.push(line(&file, board::label_px(&l), Weight::Bold));
            lines.push(line(
                &(i + 1).to_string(),
                board::label_px(&l),
                Weight::Bold,
            ));
        }
    }
    for sq in scene.position.occupied().squares() {
        if let Some(marks) = square_marks(scene, theme, sq) {
            lines.extend(marks.badge.into_iter().chain(marks.pill).map(|b| b.line));
        }
    }
    lines.extend(square::drop_count_lines(scene, &l));
    lines
}

/// The header's texts as drawn, in Tak's pictures and Takat's: each card's name and status
/// lines, its count and caption, then the status row's pills.
fn header_texts(l: &Layout, cards: &[Card], pills: &[Pill]) -> Vec<preview::Line> {
    let mut lines = Vec::new();
    for card in cards {
        lines.extend(card_lines(l, card));
        lines.push(preview::Line::new(&card.count, count_px(l), Weight::Bold));
        lines.push(preview::Line::new(
            card.caption,
            caption_px(l),
            Weight::Regular,
        ));
    }
    let pill = |(text, _): &Pill| preview::Line::new(text, pill_px(l), Weight::Bold);
    lines.extend(pills.iter().map(pill));
    lines
}

fn header(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout) {
    for card in tak_cards(scene) {
        player_card(img, theme, l, &card);
    }
    pill_row(img, status_pills(scene, theme), theme, l);
}

/// The status row's pills: move and flat count, then Tak!/Tinuë! or the result.
fn status_pills(scene: &Scene, theme: &Theme) -> Vec<Pill> {
    let p = scene.position;
    let komi = p.setup().komi;
    let count = flat_score(p.flat_count(Color::White), p.flat_count(Color::Black), komi);
    let mut pills: Vec<Pill> = Vec::new();
    match scene.result {
        Some(r) => pills.push(result_pill(
            theme,
            r.ptn(),
            &r.describe_with(komi, [&scene.name(Color::White), &scene.name(Color::Black)]),
            r.winner().is_some(),
        )),
        None => {
            let mut status = format!("Move {}", p.move_number());
            if scene.display.flat_counts {
                status.push_str(&format!(" · flats {count}"));
            }
            pills.push((status, None));
            if let Some(clock) = &scene.clock {
                pills.push((format!("{clock} left"), None));
            }
            if scene.tinue {
                pills.push(("Tinuë!".into(), Some((theme.tak_fill.0, theme.tak_text.0))));
            } else if scene.tak {
                pills.push(("Tak!".into(), Some((theme.tak_fill.0, theme.tak_text.0))));
            }
        }
    }
    pills
}

/// A pill: its text, and its fill and ink colours (none: a plain card pill).
pub(crate) type Pill = (String, Option<(image::Rgb<u8>, image::Rgb<u8>)>);

/// A centred row of pills: the status row, under the cards.
pub(crate) fn pill_row(img: &mut RgbImage, pills: Vec<Pill>, theme: &Theme, l: &Layout) {
    let (k, w, mid) = (l.k, l.width as f32, l.status_row_mid());
    let px = pill_px(l);
    let pad = 14.0 * k;
    let gap = 12.0 * k;
    let max_text = w - 2.0 * (16.0 * k + pad);
    let pills: Vec<_> = pills
        .into_iter()
        .map(|(t, colors)| {
            let t = text::fit(&t, px, Weight::Bold, max_text);
            let tw = text::width(&t, px, Weight::Bold);
            (t, tw, colors)
        })
        .collect();
    let total: f32 = pills.iter().map(|(_, tw, _)| tw + 2.0 * pad).sum::<f32>()
        + gap * (pills.len() as f32 - 1.0);
    let mut x = (w - total) / 2.0;
    for (t, tw, colors) in pills {
        let pw = tw + 2.0 * pad;
        let (fill, ink) = colors.unwrap_or((theme.card.0, theme.text.0));
        paint::round_rect(
            img,
            pt(x + pw / 2.0, mid),
            pw,
            34.0 * k,
            17.0 * k,
            0.0,
            Paint::solid(fill),
        );
        text::draw(img, &t, (x + pad, mid), px, Weight::Bold, Align::Left, ink);
        x += pw + gap;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_has_one_picture_size() {
        let theme = Theme::default();
        let sizes: Vec<(u32, u32)> = (3..=8)
            .map(|s| {
                let l = Layout::new(&theme, s);
                (l.width, l.height)
            })
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{sizes:?}");
        assert_eq!(sizes[0].0, 800);
    }

    /// Seen from Black's side, a1 is at the top right and its labels follow it: the picture is
    /// the board turned half a circle, with the header as it is.
    #[test]
    fn a_flipped_board_turns_its_squares_and_labels_half_a_circle() {
        use crate::tak::Position;
        let theme = Theme::default();
        let position = Position::from_tps("x4/x4/x4/1,x3 2 1").unwrap();
        let scene = |flipped| Scene {
            display: Display {
                flipped,
                ..Display::default()
            },
            ..Scene::of_position(&position, None, ["a", "b"])
        };
        let (upright, turned) = (render(&scene(false), &theme), render(&scene(true), &theme));
        let l = Layout::new(&theme, 4);
        let centre = |file: usize, rank: usize| {
            let (x, y) = l.square_origin(file, rank);
            ((x + l.cell / 2.0) as u32, (y + l.cell / 2.0) as u32)
        };
        let fill = theme.white_fill.0;
        let (a1, d4) = (centre(0, 0), centre(3, 3));
        assert_eq!(
            *upright.get_pixel(a1.0, a1.1),
            fill,
            "a1 at the bottom left"
        );
        assert_eq!(
            *turned.get_pixel(d4.0, d4.1),
            fill,
            "a1 where d4 stands upright"
        );
        assert_ne!(*turned.get_pixel(a1.0, a1.1), fill);
        // The header is the same; the frame's labels are not.
        use image::GenericImageView;
        let header = |img: &RgbImage| img.view(0, 0, img.width(), l.header as u32).to_image();
        assert_eq!(header(&upright), header(&turned));
        assert_ne!(upright, turned);
    }
}
