//! What is drawn on one occupied square and where: the stack (slabs under the top piece), its
//! height badge and `+N` pill, the last spread's drop-count tag. `SquareMarks` tells where each
//! goes, for drawing and for checking that they read and do not overlap.

use super::paint::{self, pt, Paint, Pt, Rect};
use super::preview::{self, Line};
use super::scene::{piece_paint, Layout, Scene};
use super::text::{self, Align, Weight};
use super::Theme;
use crate::tak::{Color, Ply, Role, Square};
use image::RgbImage;

/// The most pieces a stack shows (the top piece included).
const MAX_SLABS: usize = 6;

/// How a stack is drawn in its square.
#[derive(Clone, Copy, Debug, PartialEq)]
struct StackShape {
    /// Pieces shown as slabs under the top one (the rest are counted by a pill).
    under: usize,
    /// Each slab's thickness.
    slab: f32,
    /// The top piece's height.
    top_h: f32,
    /// The bottom of the pile, down from the square's top edge.
    bottom: f32,
}

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
/// outline), so it fits beside a drop-count tag on an 8x8 square and leaves the pile its room.
fn pill_size(l: &Layout, label: &str) -> (f32, f32) {
    let px = label_px(l);
    (text::width(label, px, Weight::Bold) + 0.25 * px, 0.9 * px)
}

/// How far labels sit from the square's edges: the badge at the top, the pill at the bottom.
fn label_insets(l: &Layout) -> (f32, f32) {
    (0.04 * l.cell, 0.03 * l.cell)
}

/// The top piece decides control and roads, so it keeps its full size whatever the height; the
/// pieces under it share what is left of the pile as slabs, each at least `thinnest` (4 px at
/// Discord's preview), at most the carry limit and six of them with the top; a pill at the
/// bottom of the square counts the rest. The pile sits in the middle of its room, lowered to
/// clear the height badge (`badge`) where the room allows; where it does not (a tall pile on a
/// small square), the badge covers the top piece's upper right corner.
fn stack_shape(theme: &Theme, l: &Layout, height: usize, top: Role, badge: bool) -> StackShape {
    let c = l.cell;
    let top_h = match top {
        Role::Flat => theme.flat_size * c * 0.78,
        Role::Wall => 0.62 * c,
        Role::Cap => 2.0 * theme.cap_size * c,
    };
    let thinnest = 8.0 * l.k;
    let most = height.min(l.size).min(MAX_SLABS) - 1;
    let upper = 0.05 * c;
    let fitting = |lower: f32| most.min(((lower - upper - top_h).max(0.0) / thinnest) as usize);
    let mut lower = 0.93 * c;
    let mut under = fitting(lower);
    if under < height - 1 {
        // Hidden pieces: the pile ends above the pill.
        let (_, pill_h) = pill_size(l, "+1");
        lower = c - label_insets(l).1 - pill_h - l.k;
        under = fitting(lower);
    }
    let room = lower - upper;
    // On small squares slabs may take more of the square, to stay 4 px thick at preview size.
    let slab = if under > 0 {
        ((room - top_h) / under as f32)
            .min((0.075 * c).max(9.0 * l.k))
            .max(thinnest)
    } else {
        0.0
    };
    let top_h = top_h.min(room);
    let pile = top_h + slab * under as f32;
    let centred = upper + (room + pile) / 2.0;
    let bottom = match badge {
        true => {
            let (_, badge_h) = badge_size(l, "1");
            let clear = label_insets(l).0 + badge_h + 2.0 * l.k + pile;
            centred.max(clear).min(lower)
        }
        false => centred,
    };
    StackShape {
        under,
        slab,
        top_h,
        bottom,
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
    /// The pile from the top of its top piece down (slabs as wide as a flat), and the slabs.
    pub pile: Rect,
    pub slabs: Rect,
    /// The height, at the top right, for stacks of two or more (unless hidden).
    pub badge: Option<Label>,
    /// How many pieces are not drawn, at the bottom under the pile.
    pub pill: Option<Label>,
    /// The last spread's drop count on this square, at the bottom left.
    pub drop_tag: Option<Rect>,
}

/// Where the parts of `sq` go in `scene`'s picture (`None` for an empty square).
pub fn square_marks(scene: &Scene, theme: &Theme, sq: Square) -> Option<SquareMarks> {
    let l = Layout::of(theme, scene.position.size(), scene.display);
    marks(scene, theme, &l, sq).map(|(marks, _)| marks)
}

fn marks(
    scene: &Scene,
    theme: &Theme,
    l: &Layout,
    sq: Square,
) -> Option<(SquareMarks, StackShape)> {
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
    let shows_badge = height >= 2 && scene.display.heights;
    let shape = stack_shape(theme, l, height, top.role, shows_badge);
    let (mid, fw) = (x + c / 2.0, theme.flat_size * c);
    let bottom = y + shape.bottom;
    let slabs_top = bottom - shape.slab * shape.under as f32;
    let span = |top: f32, bottom: f32| Rect {
        left: mid - fw / 2.0,
        top,
        right: mid + fw / 2.0,
        bottom,
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
    let badge = shows_badge.then(|| {
        let text = height.to_string();
        let (w, h) = badge_size(l, &text);
        let at = pt(x + c - top_inset - w / 2.0, y + top_inset + h / 2.0);
        label(text, (w, h), at)
    });
    let drop_tag = drop_tags(scene.last, l.size)
        .into_iter()
        .find(|(on, _)| *on == sq)
        .map(|_| drop_tag_area(l, sq));
    let hidden = height - 1 - shape.under;
    let pill = (hidden > 0).then(|| {
        let text = format!("+{hidden}");
        let (w, h) = pill_size(l, &text);
        // Centred under the pile; beside the drop count when the square has one.
        let at = pt(mid, y + c - bottom_inset - h / 2.0);
        match drop_tag.filter(|tag| tag.overlaps(&Rect::around(at, w, h))) {
            Some(tag) => {
                let cx = (tag.right + 1.5 * l.k + w / 2.0).min(x + c - 0.01 * c - w / 2.0);
                label(text, (w, h), pt(cx, at.y))
            }
            None => label(text, (w, h), at),
        }
    });
    let marks = SquareMarks {
        square,
        pile: span(slabs_top - shape.top_h, bottom),
        slabs: span(slabs_top, bottom),
        badge,
        pill,
        drop_tag,
    };
    Some((marks, shape))
}

/// A stack seen from the front: the top `carry limit` pieces as slabs (each in its owner's
/// colours, so buried owners read bottom to top), the top piece on them, and `+N` for the rest.
pub(super) fn stack(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout, sq: Square) {
    let Some((marks, shape)) = marks(scene, theme, l, sq) else {
        return;
    };
    let c = l.cell;
    let p = scene.position;
    let stack = p.stack(sq);
    let height = stack.height();
    let top = p.top(sq).expect("occupied squares have a top");
    let mid = marks.square.centre();
    let fw = theme.flat_size * c;
    let StackShape {
        under, slab, top_h, ..
    } = shape;
    let visible = under + 1;
    let base = marks.slabs.bottom;
    for j in 0..visible - 1 {
        let owner = stack.color_at(height - visible + j);
        let y = base - (j as f32 + 0.5) * slab;
        paint::round_rect(
            img,
            pt(mid.x, y),
            fw,
            slab + 1.0,
            slab.min(4.0) / 2.0,
            0.0,
            piece_paint(theme, owner, 1.0),
        );
    }
    // The top piece stands on the slabs.
    let at = pt(mid.x, (marks.pile.top + marks.slabs.top) / 2.0);
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
    // How many pieces lie below the visible ones: a dark pill under the pile.
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
        if let Some((SquareMarks { badge: Some(b), .. }, _)) = marks(scene, theme, l, sq) {
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

/// Where a square's drop-count tag goes: its bottom-left corner.
fn drop_tag_area(l: &Layout, sq: Square) -> Rect {
    let c = l.cell;
    let side = (0.2 * c).max(24.0 * l.k);
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
            side * 0.62,
            Weight::Bold,
            Align::Center,
            theme.arrow.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tall_stack_keeps_its_top_piece_at_full_size_and_its_slabs_thick() {
        let theme = Theme::default();
        for size in 3..=8 {
            let l = Layout::new(&theme, size);
            for role in [Role::Flat, Role::Wall, Role::Cap] {
                let alone = stack_shape(&theme, &l, 1, role, false);
                for height in [2, 4, 11, 22, 40] {
                    let shape = stack_shape(&theme, &l, height, role, true);
                    assert_eq!(
                        shape.top_h, alone.top_h,
                        "{size}x{size} {role:?} of {height}"
                    );
                    assert!(shape.under < height && shape.under < MAX_SLABS);
                    if shape.under > 0 {
                        assert!(shape.slab >= 8.0 * l.k, "{shape:?}");
                    }
                }
            }
        }
    }

    /// A tall stack that a spread dropped on keeps its labels apart on every size: the height
    /// badge, the `+N` pill and the drop-count tag inside the square and clear of each other,
    /// the pill under the pile and the badge above the slabs (on the smallest squares it may
    /// cover the top piece's upper right corner).
    #[test]
    fn a_tall_stacks_badge_pill_and_drop_tag_never_overlap() {
        use crate::tak::Position;
        let theme = Theme::default();
        for size in 3..=8 {
            let row = |stack: &str| format!("x,{stack},x{}", size - 2);
            let mut ranks = vec![format!("x{size}"); size];
            ranks[size - 3] = row("1");
            ranks[size - 2] = row("12121212");
            ranks[size - 1] = row("1212121");
            let p = Position::from_tps(&format!("{} 1 30", ranks.join("/"))).unwrap();
            let last = Ply::parse("3b3-12").unwrap().ply;
            let scene = Scene::of_position(&p, Some(last), ["a", "b"]);
            for on in ["b2", "b1"] {
                let m = square_marks(&scene, &theme, Square::parse(on).unwrap()).unwrap();
                let (badge, pill) = (m.badge.unwrap(), m.pill.unwrap());
                let parts = [badge.area, pill.area, m.drop_tag.unwrap()];
                let s = m.square;
                for (i, a) in parts.iter().enumerate() {
                    let inside = a.left >= s.left && a.right <= s.right;
                    assert!(
                        inside && a.top >= s.top && a.bottom <= s.bottom,
                        "{a:?} {s:?}"
                    );
                    for b in &parts[i + 1..] {
                        assert!(!a.overlaps(b), "{size}x{size} {on}: {a:?} {b:?}");
                    }
                }
                assert!(!pill.area.overlaps(&m.pile), "{size}x{size} {on}");
                assert!(!badge.area.overlaps(&m.slabs), "{size}x{size} {on}");
            }
        }
    }
}
