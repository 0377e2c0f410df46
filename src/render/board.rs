//! The board: squares, last-ply highlight, stacks, road, flat marks, move arrow, badges, labels.

use super::paint::{self, mix, pt, Paint, Pt};
use super::scene::{piece_paint, Layout, Scene};
use super::square;
use super::text::{self, Align, Weight};
use super::Theme;
use crate::tak::{Bitboard, Color, Dir, GameResult, Ply, Square};
use image::RgbImage;

/// What every picture of a theme and size shares: the frame, the squares and their labels.
pub(super) fn draw_static(img: &mut RgbImage, theme: &Theme, l: &Layout, with_labels: bool) {
    let board_px = l.cell * l.size as f32;
    let frame = 8.0 * l.k;
    paint::round_rect(
        img,
        pt(l.board_x + board_px / 2.0, l.board_y + board_px / 2.0),
        board_px + 2.0 * frame,
        board_px + 2.0 * frame,
        10.0 * l.k,
        0.0,
        Paint::solid(theme.board_frame.0),
    );
    for sq in Square::all(l.size) {
        let (x0, y0, x1, y1) = square_box(l, sq);
        paint::fill_rect(img, x0, y0, x1, y1, square_colour(theme, sq), 1.0);
    }
    if with_labels {
        labels(img, theme, l);
    }
}

fn square_box(l: &Layout, sq: Square) -> (i32, i32, i32, i32) {
    let (x, y) = l.square_origin(sq.file() as usize, sq.rank() as usize);
    (x as i32, y as i32, (x + l.cell) as i32, (y + l.cell) as i32)
}

fn square_colour(theme: &Theme, sq: Square) -> image::Rgb<u8> {
    if (sq.file() + sq.rank()).is_multiple_of(2) {
        theme.square_dark.0
    } else {
        theme.square_light.0
    }
}

/// Everything that changes: last-ply highlight, stacks, road or flat marks, arrow, badges.
pub(super) fn draw(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout) {
    let (origin, destinations) = last_ply_squares(scene.last, l.size);
    let highlighted = destinations
        .squares()
        .map(|sq| (sq, theme.destination.0))
        .chain(origin.map(|sq| (sq, theme.origin.0)));
    for (sq, h) in highlighted {
        let (x0, y0, x1, y1) = square_box(l, sq);
        paint::fill_rect(
            img,
            x0,
            y0,
            x1,
            y1,
            mix(square_colour(theme, sq), h, 0.45),
            1.0,
        );
        let border = (4.0 * l.k).round().max(2.0) as i32;
        for (a, b, c, d) in [
            (x0, y0, x1, y0 + border),
            (x0, y1 - border, x1, y1),
            (x0, y0, x0 + border, y1),
            (x1 - border, y0, x1, y1),
        ] {
            paint::fill_rect(img, a, b, c, d, h, 1.0);
        }
    }
    if let Some(GameResult::Flats { .. }) = scene.result {
        flat_territory(img, scene, theme, l);
    }
    let spread = match scene.last {
        Some(Ply::Spread { from, dir, drops }) => {
            Some((from, dir, drops.counts().collect::<Vec<_>>()))
        }
        _ => None,
    };
    if scene.display.connectors {
        connectors(img, scene, theme, l);
    }
    if let Some((from, dir, counts)) = &spread {
        arrow(img, theme, l, *from, *dir, counts);
    }
    for sq in scene.position.occupied().squares() {
        square::stack(img, scene, theme, l, sq);
    }
    match scene.result {
        Some(GameResult::Road { winner, .. }) => road(img, scene, theme, l, winner),
        None if scene.tak => threats(img, scene, theme, l),
        _ => {}
    }
    square::drop_counts(img, theme, l, scene.last);
    square::badges(img, scene, theme, l);
}

/// A bar between every two neighbouring road pieces (flats and capstones on top) of one owner,
/// in the owner's colours, as PTN Ninja draws them: roads and threats read at a glance. Drawn
/// under the pieces, so only the part between them shows.
fn connectors(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout) {
    let p = scene.position;
    let width = 0.13 * l.cell;
    for color in [Color::White, Color::Black] {
        let road = p.road_squares(color);
        let paint = piece_paint(theme, color, (0.02 * l.cell).max(1.0));
        for sq in road.squares() {
            for dir in [Dir::North, Dir::East] {
                let Some(next) = sq.step(dir, l.size).filter(|n| road.contains(*n)) else {
                    continue;
                };
                let (a, b) = (centre(l, sq), centre(l, next));
                let mid = pt((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
                let (w, h) = match dir {
                    Dir::East => (l.cell * 0.6, width),
                    _ => (width, l.cell * 0.6),
                };
                paint::round_rect(img, mid, w, h, width * 0.3, 0.0, paint);
            }
        }
    }
}

/// After Tak!, a frame on each square where a ply would complete the road: the square placed on,
/// or the last square a spread drops on.
fn threats(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout) {
    let mover = scene.position.to_move().opponent();
    let mut wins = Vec::new();
    scene.position.road_wins(mover, &mut wins);
    let mut targets = Bitboard::EMPTY;
    for ply in wins {
        let target = match ply {
            Ply::Place { square, .. } => Some(square),
            Ply::Spread { from, dir, drops } => {
                (0..drops.squares()).try_fold(from, |sq, _| sq.step(dir, l.size))
            }
        };
        if let Some(sq) = target {
            targets |= sq.bit();
        }
    }
    let border = (5.0 * l.k).round().max(2.0) as i32;
    let inset = (3.0 * l.k).round() as i32;
    for sq in targets.squares() {
        let (x0, y0, x1, y1) = square_box(l, sq);
        let (x0, y0, x1, y1) = (x0 + inset, y0 + inset, x1 - inset, y1 - inset);
        for (a, b, c, d) in [
            (x0, y0, x1, y0 + border),
            (x0, y1 - border, x1, y1),
            (x0, y0, x0 + border, y1),
            (x1 - border, y0, x1, y1),
        ] {
            paint::fill_rect(img, a, b, c, d, theme.tak_fill.0, 1.0);
        }
    }
}

/// The origin of the last ply (for a spread) and the squares it placed or dropped on.
fn last_ply_squares(last: Option<Ply>, size: usize) -> (Option<Square>, Bitboard) {
    match last {
        None => (None, Bitboard::EMPTY),
        Some(Ply::Place { square, .. }) => (None, square.bit()),
        Some(Ply::Spread { from, dir, drops }) => {
            let mut dest = Bitboard::EMPTY;
            let mut sq = from;
            for _ in 0..drops.squares() {
                match sq.step(dir, size) {
                    Some(next) => {
                        sq = next;
                        dest |= sq.bit();
                    }
                    None => break,
                }
            }
            (Some(from), dest)
        }
    }
}

fn centre(l: &Layout, sq: Square) -> Pt {
    let (x, y) = l.square_origin(sq.file() as usize, sq.rank() as usize);
    pt(x + l.cell / 2.0, y + l.cell / 2.0)
}

/// The winning road as one edge-to-edge path (the shortest, so no branches or loops), drawn as
/// connectors between the centres of its squares.
fn road(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout, winner: Color) {
    let path = road_path(scene.position.road_squares(winner), l.size);
    let r = 0.07 * l.cell;
    let paint = Paint::solid(theme.road.0).with_opacity(0.9);
    for pair in path.windows(2) {
        paint::capsule(img, centre(l, pair[0]), centre(l, pair[1]), r, paint);
    }
    // Out to the two edges it joins: the path runs from one edge (its last square) to the
    // opposite one (its first).
    if let (Some(&end), Some(&start)) = (path.first(), path.last()) {
        let across = start.file() == 0 && end.file() as usize == l.size - 1;
        let (a, b) = (centre(l, start), centre(l, end));
        // The round end of the line stops at the board's edge.
        let half = l.cell / 2.0 - r;
        let (a_out, b_out) = if across {
            (pt(a.x - half, a.y), pt(b.x + half, b.y))
        } else {
            // Rank 1 is at the bottom of the picture.
            (pt(a.x, a.y + half), pt(b.x, b.y - half))
        };
        paint::capsule(img, a, a_out, r, paint);
        paint::capsule(img, b, b_out, r, paint);
    }
    for &sq in &path {
        paint::circle(img, centre(l, sq), r * 1.6, paint);
    }
}

/// The shortest path through `road` joining two opposite edges (breadth-first from each edge
/// in turn), from edge to edge; empty if there is none.
pub(crate) fn road_path(road: Bitboard, size: usize) -> Vec<Square> {
    let e = crate::tak::square::edges(size);
    let mut best: Vec<Square> = Vec::new();
    for (from, to) in [(e.west, e.east), (e.south, e.north)] {
        let mut came_from: Vec<(Square, Option<Square>)> = Vec::new();
        let mut seen = Bitboard::EMPTY;
        let mut frontier: Vec<Square> = (road & from).squares().collect();
        for &sq in &frontier {
            seen |= sq.bit();
            came_from.push((sq, None));
        }
        let mut end = frontier.iter().copied().find(|sq| to.contains(*sq));
        while end.is_none() && !frontier.is_empty() {
            let mut next = Vec::new();
            for &sq in &frontier {
                for dir in Dir::ALL {
                    let Some(n) = sq.step(dir, size) else {
                        continue;
                    };
                    if road.contains(n) && !seen.contains(n) {
                        seen |= n.bit();
                        came_from.push((n, Some(sq)));
                        next.push(n);
                        if end.is_none() && to.contains(n) {
                            end = Some(n);
                        }
                    }
                }
            }
            frontier = next;
        }
        let Some(mut at) = end else { continue };
        let mut path = vec![at];
        while let Some(&(_, Some(before))) = came_from.iter().find(|(sq, _)| *sq == at) {
            path.push(before);
            at = before;
        }
        if best.is_empty() || path.len() < best.len() {
            best = path;
        }
    }
    best
}

/// After a flat win, every square whose top flat counted is tinted towards its owner's colour,
/// so the count reads as territory at any size (drawn under the pieces).
fn flat_territory(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout) {
    for color in [Color::White, Color::Black] {
        let tint = match color {
            Color::White => theme.white_fill.0,
            Color::Black => theme.black_fill.0,
        };
        for sq in scene.position.flat_squares(color).squares() {
            let (x0, y0, x1, y1) = square_box(l, sq);
            let inset = (3.0 * l.k).round() as i32;
            paint::fill_rect(
                img,
                x0 + inset,
                y0 + inset,
                x1 - inset,
                y1 - inset,
                mix(square_colour(theme, sq), tint, 0.55),
                1.0,
            );
        }
    }
}

/// The last spread's arrow, drawn under the pieces so it never hides the piece that moved:
/// along the rank between the pieces for a sideways spread, in the free band at the left of
/// the file for an upward or downward one. The head stops before the last square's piece.
fn arrow(img: &mut RgbImage, theme: &Theme, l: &Layout, from: Square, dir: Dir, counts: &[u8]) {
    let c = l.cell;
    let (dx, dy) = direction(dir);
    // Seen from Black's side, every direction points the other way on the picture.
    let (dx, dy) = if l.flipped { (-dx, -dy) } else { (dx, dy) };
    let side = if dy != 0.0 { -0.39 * c } else { 0.0 };
    let start = centre(l, from);
    let start = pt(start.x + side, start.y);
    let mut end = start;
    let mut sq = from;
    for _ in counts {
        match sq.step(dir, l.size) {
            Some(next) => sq = next,
            None => break,
        }
        let at = centre(l, sq);
        end = pt(at.x + side, at.y);
    }
    let r = (0.035 * c).max(3.0);
    // Sideways, the head ends where the last piece begins; beside a file, at the square's middle.
    let reach = if dy != 0.0 { 0.1 * c } else { -0.3 * c };
    let tip = pt(end.x + dx * reach, end.y + dy * reach);
    let neck = pt(tip.x - dx * 0.2 * c, tip.y - dy * 0.2 * c);
    let (px, py) = (-dy, dx);
    let wing = 0.13 * c;
    let head = [
        tip,
        pt(neck.x + px * wing, neck.y + py * wing),
        pt(neck.x - px * wing, neck.y - py * wing),
    ];
    let outline = Paint::solid(theme.arrow_outline.0);
    let fill = Paint::solid(theme.arrow.0);
    let grow = 2.0 * l.k;
    paint::capsule(img, start, neck, r + grow, outline);
    paint::convex(img, &grown(&head, grow), outline);
    paint::capsule(img, start, neck, r, fill);
    paint::convex(img, &head, fill);
    paint::circle(
        img,
        start,
        r * 2.0,
        Paint::outlined(theme.arrow.0, theme.arrow_outline.0, grow),
    );
}

fn direction(dir: Dir) -> (f32, f32) {
    match dir {
        Dir::North => (0.0, -1.0),
        Dir::South => (0.0, 1.0),
        Dir::East => (1.0, 0.0),
        Dir::West => (-1.0, 0.0),
    }
}

/// A triangle pushed outwards by `by` pixels (for an outline behind it).
fn grown(points: &[Pt; 3], by: f32) -> [Pt; 3] {
    let cx = points.iter().map(|p| p.x).sum::<f32>() / 3.0;
    let cy = points.iter().map(|p| p.y).sum::<f32>() / 3.0;
    points.map(|p| {
        let (dx, dy) = (p.x - cx, p.y - cy);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        pt(p.x + dx / len * by * 2.0, p.y + dy / len * by * 2.0)
    })
}

/// The coordinates' size: the smallest that reads at the preview.
pub(super) fn label_px(l: &Layout) -> f32 {
    (24.0 * l.k).max(super::preview::smallest_px(l.width, Weight::Bold))
}

fn labels(img: &mut RgbImage, theme: &Theme, l: &Layout) {
    let px = label_px(l);
    let board_px = l.cell * l.size as f32;
    for i in 0..l.size {
        let (x, _) = l.square_origin(i, 0);
        let file = ((b'a' + i as u8) as char).to_string();
        text::draw(
            img,
            &file,
            (x + l.cell / 2.0, l.board_y + board_px + 26.0 * l.k),
            px,
            Weight::Bold,
            Align::Center,
            theme.label.0,
        );
        let (_, y) = l.square_origin(0, i);
        text::draw(
            img,
            &(i + 1).to_string(),
            (l.board_x - 22.0 * l.k, y + l.cell / 2.0),
            px,
            Weight::Bold,
            Align::Center,
            theme.label.0,
        );
    }
}
