//! Pictures of Takat: the hexagonal board of circles, stacks drawn as columns of slabs (bottom
//! to top) with their height, red circles ringed in red, the last ply as an arrow between
//! circles (never over a stack), the just-moved piece outlined, safe tops marked with a lock
//! (gold: only its owner may move it; on red: nobody), reserves, whose turn and the result.

use super::paint::{self, pt, Paint, Pt};
use super::text::{self, Align, Weight};
use super::{header_texts, preview};
use super::{owner_paint, pill_row, player_card, result_pill, Card, Layout, Pill, Theme};
use crate::takat::{Color, Ending, Game, Ply, Position, Safety};
use image::RgbImage;

/// Everything a Takat picture shows.
pub struct TakatScene<'a> {
    pub position: &'a Position,
    pub last: Option<Ply>,
    pub players: [&'a str; 2],
    pub result: Option<Ending>,
    /// Announcements after the last ply ("White threatens a stack of six").
    pub notes: Vec<String>,
    /// How long the player to move has left, in words, in games with a limit.
    pub clock: Option<String>,
}

impl<'a> TakatScene<'a> {
    pub fn of_game(game: &'a Game, players: [&'a str; 2]) -> TakatScene<'a> {
        TakatScene {
            position: game.position(),
            last: game.last(),
            players,
            result: game.result(),
            notes: if game.result().is_none() && game.ply_count() > 0 {
                crate::takat::threats(game.position())
            } else {
                Vec::new()
            },
            clock: None,
        }
    }

    fn name(&self, c: Color) -> String {
        text::drawable_name(
            self.players[c.index()],
            &format!("Player {}", c.index() + 1),
        )
    }
}

/// Where the circles go: centres and the circle radius, fitted to the board area.
struct Geometry {
    centre: Pt,
    /// Distance unit of the hexagonal grid (neighbours are √3·s apart).
    s: f32,
    radius: f32,
}

impl Geometry {
    fn new(l: &Layout, board_radius: f32) -> Geometry {
        let k = l.k;
        let (area_w, area_h) = (760.0 * k, 680.0 * k);
        let s = (area_h / (3f32.sqrt() * (2.0 * board_radius + 1.0)))
            .min(area_w / (3.0 * board_radius + 1.8));
        Geometry {
            centre: pt(l.width as f32 / 2.0, l.header + 712.0 * k / 2.0),
            s,
            // A gap between neighbours leaves room for the last ply's arrow.
            radius: 0.74 * s,
        }
    }

    fn at(&self, (q, r): (i8, i8)) -> Pt {
        let (q, r) = (q as f32, r as f32);
        pt(
            self.centre.x + 1.5 * self.s * q,
            self.centre.y + 3f32.sqrt() * self.s * (r + q / 2.0),
        )
    }
}

/// The centre of a circle in the picture and the circle's radius, in pixels.
pub fn circle_geometry(theme: &Theme, position: &Position, cell: u8) -> ((f32, f32), f32) {
    let l = layout(theme);
    let b = position.board();
    let g = Geometry::new(&l, b.radius as f32);
    let at = g.at(b.coords(cell));
    ((at.x, at.y), g.radius)
}

fn piece(theme: &Theme, c: Color, width: f32) -> Paint {
    owner_paint(theme, c == Color::White, width)
}

/// The picture's layout: one size for every board, the same as Tak's.
fn layout(theme: &Theme) -> Layout {
    Layout::new(theme, 6)
}

pub fn render_takat(scene: &TakatScene, theme: &Theme) -> RgbImage {
    let l = layout(theme);
    let mut img = RgbImage::from_pixel(l.width, l.height, theme.background.0);
    header(&mut img, scene, theme, &l);
    board(&mut img, scene, theme, &l);
    legend(&mut img, theme, &l);
    img
}

fn header(img: &mut RgbImage, scene: &TakatScene, theme: &Theme, l: &Layout) {
    for card in cards(scene) {
        player_card(img, theme, l, &card);
    }
    pill_row(img, status_pills(scene, theme), theme, l);
}

/// The players' cards: name, aim, pieces left to enter, and whose turn it is.
fn cards(scene: &TakatScene) -> [Card<'static>; 2] {
    let p = scene.position;
    let to_move = scene.result.is_none().then(|| p.to_move());
    [Color::White, Color::Black].map(|c| {
        let aim = match c {
            Color::White => "builds six",
            Color::Black => "blocks",
        };
        let to_move = to_move == Some(c);
        Card {
            seat: c.index(),
            name: scene.name(c),
            // A slab, as pieces are drawn on the board.
            icon: (34.0, 14.0, 4.0),
            count: p.reserve(c).to_string(),
            caption: "to enter",
            status: match to_move {
                true => format!("{} · {aim} · to move", c.name()),
                false => format!("{} · {aim}", c.name()),
            },
            to_move,
        }
    })
}

/// The status row's pills: the move, the clock and the threats, or the result.
fn status_pills(scene: &TakatScene, theme: &Theme) -> Vec<Pill> {
    let p = scene.position;
    let mut pills: Vec<Pill> = Vec::new();
    match scene.result {
        Some(r) => pills.push(result_pill(
            theme,
            r.code(),
            &r.describe_with([&scene.name(Color::White), &scene.name(Color::Black)]),
            r.winner().is_some(),
        )),
        None => {
            pills.push((format!("Move {}", p.move_number()), None));
            if let Some(clock) = &scene.clock {
                pills.push((format!("{clock} left"), None));
            }
            for note in &scene.notes {
                pills.push((note.clone(), Some((theme.tak_fill.0, theme.tak_text.0))));
            }
        }
    }
    pills
}

/// A circle's name, low in the circle under its stack: at least the smallest size that reads
/// at Discord's preview.
fn cell_label_px(l: &Layout, rho: f32) -> f32 {
    (0.17 * rho).max(preview::smallest_px(l.width, Weight::Bold))
}

/// The height of a circle's name: low in the circle, clear of its ring.
fn cell_label_middle(l: &Layout, at: Pt, rho: f32) -> f32 {
    at.y + rho - 0.6 * cell_label_px(l, rho) - 0.07 * rho
}

/// A stack's height on its badge: at least the smallest size that reads at Discord's preview.
fn badge_px(l: &Layout, rho: f32) -> f32 {
    (0.26 * rho).max(preview::smallest_px(l.width, Weight::Bold))
}

/// The legend under the board: each mark's icon (none for the shaded centre) and meaning.
const LEGEND: [(Option<Safety>, &str); 3] = [
    (Some(Safety::Temporary), "owner moves it"),
    (Some(Safety::Permanent), "nobody moves it"),
    (None, "shaded centre: no entry"),
];

/// The legend's text: the smallest size that reads at Discord's preview.
fn legend_px(l: &Layout) -> f32 {
    preview::smallest_px(l.width, Weight::Regular)
}

/// Every text a Takat picture of `scene` lays out, at the size it is drawn: the cards' lines,
/// counts and captions, the status row, the circles' names, the stacks' heights and the legend;
/// for checking that each reads at Discord's preview.
pub fn takat_texts(scene: &TakatScene, theme: &Theme) -> Vec<preview::Line> {
    let l = layout(theme);
    let line = preview::Line::new;
    let mut lines = header_texts(&l, &cards(scene), &status_pills(scene, theme));
    let p = scene.position;
    let b = p.board();
    let rho = Geometry::new(&l, b.radius as f32).radius;
    for c in 0..b.len() as u8 {
        lines.push(line(b.name(c), cell_label_px(&l, rho), Weight::Bold));
        if p.stack(c).height() > 1 {
            let height = p.stack(c).height().to_string();
            lines.push(line(&height, badge_px(&l, rho), Weight::Bold));
        }
    }
    for (_, text) in LEGEND {
        lines.push(line(text, legend_px(&l), Weight::Regular));
    }
    lines
}

fn board(img: &mut RgbImage, scene: &TakatScene, theme: &Theme, l: &Layout) {
    let p = scene.position;
    let b = p.board();
    let g = Geometry::new(l, b.radius as f32);
    let rho = g.radius;
    let cells = 0..b.len() as u8;
    for c in cells.clone() {
        let at = g.at(b.coords(c));
        // The centre, where nobody may enter, is shaded towards the background.
        let fill = if c == b.centre {
            paint::mix(theme.square_dark.0, theme.background.0, 0.35)
        } else {
            theme.square_light.0
        };
        let ring = match b.is_red(c) {
            true => (theme.tak_fill.0, 0.09 * rho),
            false => (theme.board_frame.0, 0.035 * rho),
        };
        paint::circle(img, at, rho, Paint::outlined(fill, ring.0, ring.1));
        let px = cell_label_px(l, rho);
        text::draw(
            img,
            b.name(c),
            (at.x, cell_label_middle(l, at, rho)),
            px,
            Weight::Bold,
            Align::Center,
            theme.label.0,
        );
    }
    // The last ply: the origin ringed, an arrow between the circles, the target ringed.
    if let Some(ply) = scene.last {
        let to = g.at(b.coords(ply.target()));
        if let Ply::Move { from, .. } = ply {
            let from = g.at(b.coords(from));
            ring(img, from, rho, theme.origin.0, 0.07 * rho);
        }
        ring(img, to, rho, theme.destination.0, 0.07 * rho);
    }
    // The stacks of six that won the game.
    if let Some(Ending::Sixes { .. }) = scene.result {
        for c in cells.clone().filter(|&c| p.stack(c).height() == 6) {
            ring(img, g.at(b.coords(c)), rho, theme.result_fill.0, 0.1 * rho);
        }
    }
    for c in cells {
        stack(img, scene, theme, (l, &g), c);
    }
    if let Some(Ply::Move { from, to }) = scene.last {
        arrow(img, g.at(b.coords(from)), g.at(b.coords(to)), rho, theme);
    }
}

/// A ring just inside a circle's edge.
fn ring(img: &mut RgbImage, at: Pt, rho: f32, color: image::Rgb<u8>, width: f32) {
    let r = rho - width / 2.0 - 0.02 * rho;
    paint::shape(
        img,
        pt(at.x - rho, at.y - rho),
        pt(at.x + rho, at.y + rho),
        Paint::solid(color),
        |q| {
            let d = ((q.x - at.x).powi(2) + (q.y - at.y).powi(2)).sqrt();
            (d - r).abs() - width / 2.0
        },
    );
}

/// An arrow in the gap between two neighbouring circles, so it never covers a stack.
fn arrow(img: &mut RgbImage, from: Pt, to: Pt, rho: f32, theme: &Theme) {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    let start = pt(from.x + ux * rho * 0.72, from.y + uy * rho * 0.72);
    let tip = pt(to.x - ux * rho * 0.86, to.y - uy * rho * 0.86);
    let head = 0.3 * rho;
    let base = pt(tip.x - ux * head, tip.y - uy * head);
    let (nx, ny) = (-uy, ux);
    let wing = 0.19 * rho;
    let shaft = 0.065 * rho;
    let outline = 0.03 * rho;
    paint::capsule(
        img,
        start,
        base,
        shaft + outline,
        Paint::solid(theme.arrow_outline.0),
    );
    let tri = |w: f32, extra: f32| {
        [
            pt(tip.x + ux * extra, tip.y + uy * extra),
            pt(base.x + nx * w - ux * extra, base.y + ny * w - uy * extra),
            pt(base.x - nx * w - ux * extra, base.y - ny * w - uy * extra),
        ]
    };
    paint::convex(
        img,
        &tri(wing + outline * 1.5, outline * 1.5),
        Paint::solid(theme.arrow_outline.0),
    );
    paint::capsule(img, start, base, shaft, Paint::solid(theme.arrow.0));
    paint::convex(img, &tri(wing, 0.0), Paint::solid(theme.arrow.0));
}

fn stack(
    img: &mut RgbImage,
    scene: &TakatScene,
    theme: &Theme,
    (l, g): (&Layout, &Geometry),
    c: u8,
) {
    let p = scene.position;
    let s = p.stack(c);
    if s.height() == 0 {
        return;
    }
    let rho = g.radius;
    let at = g.at(p.board().coords(c));
    let (slab_w, slab_h, gap) = (0.95 * rho, 0.19 * rho, 0.035 * rho);
    let h = s.height() as f32;
    let total = h * slab_h + (h - 1.0) * gap;
    // Centred on the circle, but standing clear of the circle's name under it when tall on
    // small circles.
    let name_px = cell_label_px(l, rho);
    let name_top = cell_label_middle(l, at, rho) - text::digit_height(name_px, Weight::Bold) / 2.0;
    let bottom = (at.y + total / 2.0 - 0.04 * rho).min(name_top - 0.04 * rho);
    let outline = (0.03 * rho).max(1.0);
    let mut top_mid = at;
    for (i, color) in s.pieces().enumerate() {
        let y = bottom - slab_h / 2.0 - i as f32 * (slab_h + gap);
        top_mid = pt(at.x, y);
        paint::round_rect(
            img,
            top_mid,
            slab_w,
            slab_h,
            0.05 * rho,
            0.0,
            piece(theme, color, outline),
        );
    }
    // The piece just moved (the last ply's target): outlined in the destination colour.
    if scene.last.is_some_and(|ply| ply.target() == c) && scene.result.is_none() {
        let w = 0.05 * rho;
        let (hw, hh) = ((slab_w + 0.16 * rho) / 2.0, (slab_h + 0.16 * rho) / 2.0);
        paint::shape(
            img,
            pt(top_mid.x - hw - w, top_mid.y - hh - w),
            pt(top_mid.x + hw + w, top_mid.y + hh + w),
            Paint::solid(theme.destination.0),
            |q| {
                let dx = (q.x - top_mid.x).abs() - hw;
                let dy = (q.y - top_mid.y).abs() - hh;
                let outside = (dx.max(0.0).powi(2) + dy.max(0.0).powi(2)).sqrt();
                (outside + dx.max(dy).min(0.0)).abs() - w / 2.0
            },
        );
    }
    // Height on a badge to the right, the lock to the left: between the neighbours' directions,
    // where no arrow passes.
    if s.height() > 1 {
        let badge = pt(at.x + 0.74 * rho, at.y);
        let px = badge_px(l, rho);
        paint::circle(
            img,
            badge,
            0.73 * px,
            Paint::outlined(theme.badge_fill.0, theme.badge_text.0, 0.025 * rho),
        );
        text::draw(
            img,
            &s.height().to_string(),
            (badge.x, badge.y),
            px,
            Weight::Bold,
            Align::Center,
            theme.badge_text.0,
        );
    }
    match p.safety(c) {
        Safety::Open => {}
        safety => lock(img, pt(at.x - 0.74 * rho, at.y), 0.13 * rho, safety, theme),
    }
}

/// A padlock of size `r` centred at `at`: gold for a temporarily safe top, gold on red for a
/// permanently safe one.
fn lock(img: &mut RgbImage, at: Pt, r: f32, safety: Safety, theme: &Theme) {
    if safety == Safety::Permanent {
        paint::circle(img, at, r * 1.55, Paint::solid(theme.tak_fill.0));
    }
    let gold = theme.badge_fill.0;
    let ink = theme.badge_text.0;
    // Shackle: a ring above the body.
    let shackle = pt(at.x, at.y - r * 0.35);
    paint::shape(
        img,
        pt(at.x - r, at.y - r * 1.3),
        pt(at.x + r, at.y + r),
        Paint::solid(ink),
        |q| {
            let d = ((q.x - shackle.x).powi(2) + (q.y - shackle.y).powi(2)).sqrt();
            ((d - r * 0.55).abs() - r * 0.22).max(q.y - shackle.y)
        },
    );
    paint::round_rect(
        img,
        pt(at.x, at.y + r * 0.3),
        r * 1.6,
        r * 1.2,
        r * 0.2,
        0.0,
        Paint::outlined(gold, ink, (r * 0.14).max(1.0)),
    );
}

/// A line under the board explaining the marks.
fn legend(img: &mut RgbImage, theme: &Theme, l: &Layout) {
    let k = l.k;
    let y = l.height as f32 - 24.0 * k;
    let px = legend_px(l);
    let widths: Vec<f32> = LEGEND
        .iter()
        .map(|(icon, t)| {
            text::width(t, px, Weight::Regular) + if icon.is_some() { 30.0 * k } else { 0.0 }
        })
        .collect();
    let gap = 24.0 * k;
    let total = widths.iter().sum::<f32>() + gap * (LEGEND.len() as f32 - 1.0);
    let mut x = (l.width as f32 - total) / 2.0;
    for ((icon, t), w) in LEGEND.iter().zip(widths) {
        let mut tx = x;
        if let Some(safety) = icon {
            lock(img, pt(x + 10.0 * k, y), 9.0 * k, *safety, theme);
            tx += 30.0 * k;
        }
        text::draw(
            img,
            t,
            (tx, y),
            px,
            Weight::Regular,
            Align::Left,
            theme.subtle_text.0,
        );
        x += w + gap;
    }
}

/// One sentence a screen reader can speak, then the position string (at most 1024 characters).
pub fn takat_alt_text(scene: &TakatScene) -> String {
    let p = scene.position;
    let b = p.board();
    let name = |c: Color| format!("{} ({})", super::alt::shorten(&scene.name(c), 40), c.name());
    let mut parts = vec![format!(
        "Takat board of {} circles, move {}",
        b.len(),
        p.move_number()
    )];
    match scene.result {
        Some(r) => parts.push(format!(
            "game over, {}: {}",
            r.code(),
            r.describe_with([&scene.name(Color::White), &scene.name(Color::Black)])
        )),
        None => parts.push(format!("{} to move", name(p.to_move()))),
    }
    if let Some(ply) = scene.last {
        parts.push(format!("last ply {}", p.name(ply)));
    }
    parts.push(format!(
        "reserves {} White, {} Black",
        p.reserve(Color::White),
        p.reserve(Color::Black)
    ));
    let stacks: Vec<String> = (0..b.len() as u8)
        .filter(|&c| p.stack(c).height() > 0)
        .map(|c| {
            let pieces: String = p
                .stack(c)
                .pieces()
                .map(|x| if x == Color::White { 'W' } else { 'B' })
                .collect();
            let safe = match p.safety(c) {
                Safety::Open => "",
                Safety::Temporary => " safe",
                Safety::Permanent => " permanently safe",
            };
            format!("{} {pieces}{safe}", b.name(c))
        })
        .collect();
    if !stacks.is_empty() {
        parts.push(format!("stacks bottom to top: {}", stacks.join(", ")));
    }
    parts.extend(scene.notes.iter().cloned());
    let mut out = format!("{}. Position: {}", parts.join("; "), p.to_text());
    if out.chars().count() > super::alt::MAX_ALT {
        out = out.chars().take(super::alt::MAX_ALT - 1).collect();
        out.push('…');
    }
    out
}

pub fn render_takat_gif(game: &Game, players: [&str; 2], theme: &Theme) -> Vec<u8> {
    let plies: Vec<Ply> = game.plies().collect();
    let mut position = *game.start();
    let mut shown = 0;
    super::animate(plies.len(), theme, |n, small| {
        for &ply in &plies[shown..n] {
            position.apply(ply);
        }
        shown = n;
        let scene = TakatScene {
            position: &position,
            last: n.checked_sub(1).map(|i| plies[i]),
            players,
            result: if n == plies.len() {
                game.result()
            } else {
                None
            },
            notes: Vec::new(),
            clock: None,
        };
        render_takat(&scene, small)
    })
}
