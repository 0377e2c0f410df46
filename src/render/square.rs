//! What is drawn on one occupied square and where: the top piece, beside it the strip of a
//! stack's carryable pieces (a bar each, in its owner's colours), its height badge and `+N`
//! pill, the last spread's drop-count tag. `SquareMarks` tells where each goes, for drawing
//! and for checking that they read and do not overlap.

use super::paint::{self, pt, Paint, Pt, Rect};
use super::preview::{self, Line};
use super::scene::{piece_paint, Layout, Scene};
use super::text::{self, Align, Weight};
use super::Theme;
use crate::tak::{Color, Ply, Role, Square};
use image::RgbImage;

/// The text size of the labels on a square (height badges, `+N` pills): 15% of a square, and
/// never smaller than what reads at Discord's preview (see `preview`).
fn label_px(l: &Layout) -> f32 {
    (0.15 * l.cell).max(preview::smallest_px(l.width, Weight::Bold))
}

/// A height badge's width and height: a pill around its number, a circle for one digit.
fn badge_size(l: &Layout, label: &str) -> (f32, f32) {
    let px = label_px(l);
    let h = 0.95 * px;
    ((text::width(label, px, Weight::Bold) + 0.4 * px).max(h), h)
}

/// A `+N` pill's width and height: snugger than a badge (light text on a dark pill needs no
/// outline), so it fits beside a drop-count tag on an 8x8 square.
fn pill_size(l: &Layout, label: &str) -> (f32, f32) {
    let px = label_px(l);
    (text::width(label, px, Weight::Bold) + 0.25 * px, 0.9 * px)
}

/// How far labels sit from the square's edges: the badge at the top, the pill at the bottom.
fn label_insets(l: &Layout) -> (f32, f32) {
    (0.04 * l.cell, 0.03 * l.cell)
}

/// The strip's width and its inset from the square's left edge.
const STRIP_WIDTH: f32 = 0.16;
const STRIP_INSET: f32 = 0.05;
/// A bar is at most this tall (a fraction of a square), however few pieces the strip shows.
const TALLEST_BAR: f32 = 0.13;

/// The top piece's height: the top piece decides control and roads, so it keeps this size
/// whatever the stack under it.
fn top_height(theme: &Theme, c: f32, top: Role) -> f32 {
    match top {
        Role::Flat => theme.flat_size * c * 0.78,
        Role::Wall => 0.62 * c,
        Role::Cap => 2.0 * theme.cap_size * c,
    }
}

/// A label on a square (a height badge or a `+N` pill): its line of text and where it is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub line: Line,
    pub area: Rect,
}

/// Where the parts of an occupied square go, for drawing them and for checking that they read
/// and do not overlap.
#[derive(Clone, Debug, PartialEq)]
pub struct SquareMarks {
    pub square: Rect,
    /// The top piece's box.
    pub pile: Rect,
    /// For a stack of two or more, the bars of its top pieces a player may carry (as many as
    /// the board is wide), from the top piece's at the top down: each bar's box. The strip
    /// stands at the square's right edge, level with the bottom of its room.
    pub bars: Vec<Rect>,
    /// The height, at the top left, for stacks of two or more (unless hidden).
    pub badge: Option<Label>,
    /// How many pieces lie under the strip's, at the bottom under the top piece.
    pub pill: Option<Label>,
    /// The last spread's drop count on this square, at the bottom left.
    pub drop_tag: Option<Rect>,
}

impl SquareMarks {
    /// The strip's area: every bar's box together (`None` for a single piece).
    pub fn strip(&self) -> Option<Rect> {
        let (first, last) = (self.bars.first()?, self.bars.last()?);
        Some(Rect {
            top: first.top,
            bottom: last.bottom,
            ..*first
        })
    }
}

/// Where the parts of `sq` go in `scene`'s picture (`None` for an empty square).
pub fn square_marks(scene: &Scene, theme: &Theme, sq: Square) -> Option<SquareMarks> {
    let l = Layout::of(theme, scene.position.size(), scene.display);
    marks(scene, theme, &l, sq)
}

fn marks(scene: &Scene, theme: &Theme, l: &Layout, sq: Square) -> Option<SquareMarks> {
    let height = scene.position.stack(sq).height();
    let top = scene.position.top(sq)?;
    let c = l.cell;
    let (x, y) = l.square_origin(sq.file() as usize, sq.rank() as usize);
    let square = Rect {
        left: x,
        top: y,
        right: x + c,
        bottom: y + c,
    };
    let (top_inset, bottom_inset) = label_insets(l);
    let label = |text: String, (w, h): (f32, f32), at: Pt| Label {
        area: Rect::around(at, w, h),
        line: Line {
            text,
            px: label_px(l),
            weight: Weight::Bold,
        },
    };
    // The height at the top left (over the arrow's lane beside a file, which it may cover).
    let badge = (height >= 2 && scene.display.heights).then(|| {
        let text = height.to_string();
        let (w, h) = badge_size(l, &text);
        let at = pt(x + top_inset + w / 2.0, y + top_inset + h / 2.0);
        label(text, (w, h), at)
    });
    let drop_tag = drop_tags(scene.last, l.size)
        .into_iter()
        .find(|(on, _)| *on == sq)
        .map(|_| drop_tag_area(l, sq));
    // The strip stands at the right edge; the top piece in the room left of it.
    let shown = if height >= 2 { height.min(l.size) } else { 0 };
    let strip_right = x + c - STRIP_INSET * c;
    let strip_left = strip_right - STRIP_WIDTH * c;
    let room_right = if shown > 0 { strip_left } else { x + c };
    let mid = (x + room_right) / 2.0;
    // The pill under the top piece, right of the drop-count tag if the square has one.
    // Where the pill and a drop-count tag do not fit side by side (a long count on 7x7 or
    // 8x8), the pill is left out: the badge gives the height, the bars the pieces on top.
    let hidden = height - shown.max(1);
    let pill = (hidden > 0)
        .then(|| {
            let text = format!("+{hidden}");
            let (w, h) = pill_size(l, &text);
            let at = pt(mid, y + c - bottom_inset - h / 2.0);
            match drop_tag.filter(|tag| tag.overlaps(&Rect::around(at, w, h))) {
                Some(tag) => {
                    let beside = tag.right + 1.5 * l.k + w / 2.0;
                    let cx = beside.min(x + c - 0.02 * c - w / 2.0);
                    let pill = label(text, (w, h), pt(cx, at.y));
                    (!pill.area.overlaps(&tag)).then_some(pill)
                }
                None => Some(label(text, (w, h), at)),
            }
        })
        .flatten();
    // Down to the square's bottom, or to the pill where it reaches under the strip.
    let strip_top = y + 0.05 * c;
    let strip_bottom = match &pill {
        Some(p) if p.area.right > strip_left => p.area.top - 2.0 * l.k,
        _ => y + c - 0.05 * c,
    };
    let pitch = match shown {
        0 => 0.0,
        n => ((strip_bottom - strip_top) / n as f32).min(TALLEST_BAR * c),
    };
    let gap = (0.18 * pitch).max(l.k);
    let bars = (0..shown)
        .map(|i| {
            let top = strip_bottom - (shown - i) as f32 * pitch;
            Rect {
                left: strip_left,
                right: strip_right,
                top,
                bottom: top + pitch - gap,
            }
        })
        .collect();
    // The badge, drawn over everything, may cover the top piece's upper left corner: under it
    // and over a pill, a piece at full size would not fit an 8x8 square.
    let upper = y + 0.05 * c;
    let lower = (pill.iter().map(|p| p.area.top))
        .chain(drop_tag.map(|t| t.top))
        .fold(y + 0.95 * c, f32::min)
        - l.k;
    let top_h = top_height(theme, c, top.role).min(lower - upper);
    // Centred in the square when it fits there, else in the room it has.
    let centre = (y + c / 2.0).clamp(upper + top_h / 2.0, lower - top_h / 2.0);
    let fw = match top.role {
        Role::Wall => 0.22 * c,
        _ => theme.flat_size * c,
    };
    Some(SquareMarks {
        square,
        pile: Rect::around(pt(mid, centre), fw, top_h),
        bars,
        badge,
        pill,
        drop_tag,
    })
}

/// A stack: its top piece, the strip of its carryable pieces beside it (each bar in its
/// owner's colours, the top piece's at the top), and `+N` for the pieces under those.
pub(super) fn stack(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout, sq: Square) {
    let Some(marks) = marks(scene, theme, l, sq) else {
        return;
    };
    let c = l.cell;
    let p = scene.position;
    let stack = p.stack(sq);
    let height = stack.height();
    let top = p.top(sq).expect("occupied squares have a top");
    for (i, bar) in marks.bars.iter().enumerate() {
        // Filled in the owner's colour and edged in White's outline: a thin bar's light rim
        // would make Black's read as White's.
        let fill = match stack.color_at(height - 1 - i) {
            Color::White => theme.white_fill.0,
            Color::Black => theme.black_fill.0,
        };
        let edge = (bar.height() * 0.15).clamp(0.75, 1.5 * l.k);
        paint::round_rect(
            img,
            bar.centre(),
            bar.width(),
            bar.height(),
            (bar.height() / 4.0).min(2.0 * l.k),
            0.0,
            Paint::outlined(fill, theme.white_outline.0, edge),
        );
    }
    let at = marks.pile.centre();
    let top_h = marks.pile.height();
    let fw = theme.flat_size * c;
    let outline = (c * 0.03).clamp(1.5, 4.0);
    let paint = piece_paint(theme, top.color, outline);
    match top.role {
        Role::Flat => {
            paint::round_rect(img, at, fw, top_h, 0.1 * fw, 0.0, paint);
        }
        Role::Wall => {
            let tilt = theme.wall_tilt_degrees.to_radians();
            let angle = if top.color == Color::White {
                tilt
            } else {
                -tilt
            };
            paint::round_rect(img, at, 0.22 * c, top_h, 0.04 * c, angle, paint);
        }
        Role::Cap => {
            let r = top_h / 2.0;
            paint::circle(img, at, r, paint);
            // A ring inside tells a capstone from a flat even at a glance.
            let inner = match top.color {
                Color::White => theme.white_outline.0,
                Color::Black => theme.black_outline.0,
            };
            paint::circle(img, at, r * 0.38, Paint::solid(inner).with_opacity(0.85));
        }
    }
    // How many pieces lie under the strip's: a dark pill under the top piece.
    if let Some(pill) = &marks.pill {
        let a = pill.area;
        paint::round_rect(
            img,
            a.centre(),
            a.width(),
            a.height(),
            a.height() / 2.0,
            0.0,
            Paint::solid(theme.badge_text.0),
        );
        bold_label(img, &pill.line, a.centre(), theme.badge_fill.0);
    }
}

/// A label's bold text centred on `at` (the text of a badge or a pill).
fn bold_label(img: &mut RgbImage, line: &Line, at: Pt, colour: image::Rgb<u8>) {
    text::draw(
        img,
        &line.text,
        (at.x, at.y),
        line.px,
        line.weight,
        Align::Center,
        colour,
    );
}

/// The height badges, at the top right of their squares, drawn over everything.
pub(super) fn badges(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout) {
    for sq in scene.position.occupied().squares() {
        if let Some(SquareMarks { badge: Some(b), .. }) = marks(scene, theme, l, sq) {
            badge(img, theme, l, &b);
        }
    }
}

fn badge(img: &mut RgbImage, theme: &Theme, l: &Layout, badge: &Label) {
    let a = badge.area;
    paint::round_rect(
        img,
        a.centre(),
        a.width(),
        a.height(),
        a.height() / 2.0,
        0.0,
        Paint::outlined(theme.badge_fill.0, theme.badge_text.0, 1.5 * l.k),
    );
    bold_label(img, &badge.line, a.centre(), theme.badge_text.0);
}

/// The squares the last spread dropped on and how many pieces each got, when the picture tags
/// them: not when a single piece moved one square.
fn drop_tags(last: Option<Ply>, size: usize) -> Vec<(Square, u8)> {
    let Some(Ply::Spread { from, dir, drops }) = last else {
        return Vec::new();
    };
    let counts: Vec<u8> = drops.counts().collect();
    if counts.len() < 2 && counts.first().is_none_or(|&n| n < 2) {
        return Vec::new();
    }
    let mut sq = from;
    let mut tags = Vec::new();
    for n in counts {
        match sq.step(dir, size) {
            Some(next) => sq = next,
            None => break,
        }
        tags.push((sq, n));
    }
    tags
}

/// A drop count's size: the smallest that reads at the preview, or more on big squares.
fn drop_count_px(l: &Layout) -> f32 {
    (0.124 * l.cell).max(preview::smallest_px(l.width, Weight::Bold))
}

/// The drop counts of the last spread as lines of text, at the size they are drawn.
pub(super) fn drop_count_lines(scene: &Scene, l: &Layout) -> Vec<Line> {
    drop_tags(scene.last, l.size)
        .into_iter()
        .map(|(_, n)| Line {
            text: n.to_string(),
            px: drop_count_px(l),
            weight: Weight::Bold,
        })
        .collect()
}

/// Where a square's drop-count tag goes: its bottom-left corner, snug around its digit.
fn drop_tag_area(l: &Layout, sq: Square) -> Rect {
    let c = l.cell;
    let side = (0.2 * c).max(1.1 * drop_count_px(l));
    let (x, y) = l.square_origin(sq.file() as usize, sq.rank() as usize);
    Rect::around(
        pt(x + 0.04 * c + side / 2.0, y + c - 0.04 * c - side / 2.0),
        side,
        side,
    )
}

/// How many pieces the last spread dropped on each square: a square tag in the arrow's
/// colours at the bottom-left corner of each square, so it is told from the round height badge
/// (top right) at a glance and never sits on a road connector (those run through the centre).
/// Drawn over everything.
pub(super) fn drop_counts(img: &mut RgbImage, theme: &Theme, l: &Layout, last: Option<Ply>) {
    for (sq, n) in drop_tags(last, l.size) {
        let area = drop_tag_area(l, sq);
        let side = area.width();
        paint::round_rect(
            img,
            area.centre(),
            side,
            side,
            0.12 * side,
            0.0,
            Paint::outlined(theme.arrow_outline.0, theme.arrow.0, 1.5 * l.k),
        );
        text::draw(
            img,
            &n.to_string(),
            (area.centre().x, area.centre().y),
            drop_count_px(l),
            Weight::Bold,
            Align::Center,
            theme.arrow.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tak::Position;

    fn scene_marks(tps: &str, last: Option<&str>, on: &str) -> SquareMarks {
        let theme = Theme::default();
        let p = Position::from_tps(tps).unwrap();
        let last = last.map(|l| Ply::parse(l).unwrap().ply);
        let scene = Scene::of_position(&p, last, ["a", "b"]);
        square_marks(&scene, &theme, Square::parse(on).unwrap()).unwrap()
    }

    /// A board of `size` with `stack` (TPS, bottom up) on b2 and nothing else.
    fn alone(size: usize, stack: &str) -> String {
        let mut ranks = vec![format!("x{size}"); size];
        ranks[size - 2] = format!("x,{stack},x{}", size - 2);
        format!("{} 1 30", ranks.join("/"))
    }

    /// The top piece keeps its full size whatever the stack under it; the strip shows one bar per
    /// carryable piece, as many as the board is wide, however tall the stack.
    #[test]
    fn a_tall_stack_keeps_its_top_piece_and_shows_its_carryable_pieces() {
        let theme = Theme::default();
        for size in 3..=8 {
            let stones = [10, 15, 21, 30, 40, 50][size - 3];
            let tops: &[&str] = if size >= 5 {
                &["", "S", "C"]
            } else {
                &["", "S"]
            };
            for top in tops {
                let role = match *top {
                    "" => Role::Flat,
                    "S" => Role::Wall,
                    _ => Role::Cap,
                };
                for height in [1, 2, 4, 11, 22, 40].into_iter().filter(|h| *h < stones) {
                    let pieces: String = (0..height).map(|i| ["1", "2"][i % 2]).collect();
                    let m = scene_marks(&alone(size, &format!("{pieces}{top}")), None, "b2");
                    let full = top_height(&theme, m.square.width(), role);
                    let least = full;
                    let h = m.pile.height();
                    assert!(
                        h >= least - 0.01,
                        "{size}x{size} {role:?} of {height}: {h} of {full}, {m:?}"
                    );
                    let bars = if height == 1 { 0 } else { height.min(size) };
                    assert_eq!(m.bars.len(), bars, "{size}x{size} {height}");
                    assert_eq!(m.pill.is_some(), height > size.max(1));
                }
            }
        }
    }

    /// A tall stack that a spread dropped on keeps its parts apart on every size: the height
    /// badge, the `+N` pill, the drop-count tag and the strip inside the square and clear of
    /// each other, and the top piece clear of all but the badge (which may cover its upper
    /// left corner). On 7x7 and 8x8 a long pill beside a drop count is left out.
    #[test]
    fn a_tall_stacks_parts_never_overlap() {
        for size in 3..=8 {
            let row = |stack: &str| format!("x,{stack},x{}", size - 2);
            let mut ranks = vec![format!("x{size}"); size];
            ranks[size - 3] = row("1");
            // Taller than the board is wide: some pieces under the strip's (on 5x5 and up,
            // ten or more: a two-digit pill).
            let pieces = |n: usize| (0..n).map(|i| ["1", "2"][i % 2]).collect::<String>();
            let tall = if size >= 5 { 2 * size + 5 } else { size + 3 };
            ranks[size - 2] = row(&(pieces(size + 2) + "S"));
            ranks[size - 1] = row(&pieces(tall));
            let tps = format!("{} 1 30", ranks.join("/"));
            for on in ["b2", "b1"] {
                let m = scene_marks(&tps, Some("3b3-12"), on);
                let badge = m.badge.as_ref().unwrap().area;
                let pill = m.pill.as_ref().map(|p| p.area);
                if size <= 6 {
                    assert!(pill.is_some(), "{size}x{size} {on}: the pill fits");
                }
                let parts: Vec<Rect> = [Some(badge), pill, m.drop_tag, m.strip()]
                    .into_iter()
                    .flatten()
                    .collect();
                let s = m.square;
                for (i, a) in parts.iter().enumerate() {
                    let inside = a.left >= s.left && a.right <= s.right;
                    assert!(
                        inside && a.top >= s.top && a.bottom <= s.bottom,
                        "{size}x{size} {on}: {a:?} {s:?}"
                    );
                    for b in &parts[i + 1..] {
                        assert!(!a.overlaps(b), "{size}x{size} {on}: {a:?} {b:?}");
                    }
                    if *a != badge {
                        assert!(
                            !a.overlaps(&m.pile),
                            "{size}x{size} {on}: {a:?} {:?}",
                            m.pile
                        );
                    }
                }
            }
        }
    }
}
