//! Anti-aliased shapes by signed distance: each shape is a distance function (negative inside)
//! evaluated only over its bounding box, so edges are smooth at any board size.

use image::{Rgb, RgbImage};

#[derive(Clone, Copy, Debug)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

pub const fn pt(x: f32, y: f32) -> Pt {
    Pt { x, y }
}

/// An upright rectangle in the picture, in pixels: where something is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub left: f32,
    pub top: f32,
    pub right: f32,
    pub bottom: f32,
}

impl Rect {
    /// The rectangle `w` by `h` around `c`.
    pub fn around(c: Pt, w: f32, h: f32) -> Rect {
        Rect {
            left: c.x - w / 2.0,
            top: c.y - h / 2.0,
            right: c.x + w / 2.0,
            bottom: c.y + h / 2.0,
        }
    }

    pub fn centre(&self) -> Pt {
        pt(
            (self.left + self.right) / 2.0,
            (self.top + self.bottom) / 2.0,
        )
    }

    pub fn width(&self) -> f32 {
        self.right - self.left
    }

    pub fn height(&self) -> f32 {
        self.bottom - self.top
    }

    /// They share more than an edge.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }
}

/// How a shape is painted: fill, optional outline inside the edge, overall opacity.
#[derive(Clone, Copy)]
pub struct Paint {
    pub fill: Rgb<u8>,
    pub outline: Option<(Rgb<u8>, f32)>,
    pub opacity: f32,
}

impl Paint {
    pub const fn solid(fill: Rgb<u8>) -> Paint {
        Paint {
            fill,
            outline: None,
            opacity: 1.0,
        }
    }

    pub const fn outlined(fill: Rgb<u8>, outline: Rgb<u8>, width: f32) -> Paint {
        Paint {
            fill,
            outline: Some((outline, width)),
            opacity: 1.0,
        }
    }

    pub const fn with_opacity(self, opacity: f32) -> Paint {
        Paint { opacity, ..self }
    }
}

pub fn mix(a: Rgb<u8>, b: Rgb<u8>, t: f32) -> Rgb<u8> {
    // Fixed point: `round` is a library call and this runs for every edge pixel.
    let t = (t.clamp(0.0, 1.0) * 256.0) as i32;
    let m = |x: u8, y: u8| (x as i32 + (((y as i32 - x as i32) * t + 128) >> 8)) as u8;
    Rgb([m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])])
}

/// Fills whole pixels (for axis-aligned rectangles on pixel boundaries).
pub fn fill_rect(
    img: &mut RgbImage,
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
    color: Rgb<u8>,
    opacity: f32,
) {
    let (w, h) = (img.width() as i32, img.height() as i32);
    let (x0, x1) = (x0.clamp(0, w) as usize, x1.clamp(0, w) as usize);
    if x0 >= x1 {
        return;
    }
    let stride = w as usize * 3;
    let buf: &mut [u8] = img;
    let solid: Vec<u8> = color.0.repeat(x1 - x0);
    for y in y0.clamp(0, h)..y1.clamp(0, h) {
        let row = &mut buf[y as usize * stride..][x0 * 3..x1 * 3];
        if opacity >= 1.0 {
            row.copy_from_slice(&solid);
        } else {
            for px in row.chunks_exact_mut(3) {
                px.copy_from_slice(&mix(Rgb([px[0], px[1], px[2]]), color, opacity).0);
            }
        }
    }
}

/// Paints the shape `sdf` (distance in pixels, negative inside) within the box `min`..`max`.
pub fn shape(img: &mut RgbImage, min: Pt, max: Pt, paint: Paint, sdf: impl Fn(Pt) -> f32) {
    shape_around(img, min, max, None, paint, sdf)
}

/// Like `shape`, with a box known to be solid fill: filled directly, its distances not computed.
fn shape_around(
    img: &mut RgbImage,
    min: Pt,
    max: Pt,
    solid: Option<[i32; 4]>,
    paint: Paint,
    sdf: impl Fn(Pt) -> f32,
) {
    let (w, h) = (img.width() as i32, img.height() as i32);
    let x0 = (min.x.floor() as i32 - 1).max(0);
    let y0 = (min.y.floor() as i32 - 1).max(0);
    let x1 = (max.x.ceil() as i32 + 1).min(w);
    let y1 = (max.y.ceil() as i32 + 1).min(h);
    let [sx0, sy0, sx1, sy1] = solid.unwrap_or([0; 4]);
    if solid.is_some() {
        fill_rect(img, sx0, sy0, sx1, sy1, paint.fill, paint.opacity);
    }
    for y in y0..y1 {
        let in_rows = y >= sy0 && y < sy1;
        let mut x = x0;
        while x < x1 {
            if in_rows && x == sx0 && sx1 > sx0 {
                x = sx1;
                continue;
            }
            let d = sdf(pt(x as f32 + 0.5, y as f32 + 0.5));
            let cover = (0.5 - d).clamp(0.0, 1.0);
            if cover > 0.0 {
                let color = match paint.outline {
                    Some((line, width)) => {
                        mix(line, paint.fill, (0.5 - (d + width)).clamp(0.0, 1.0))
                    }
                    None => paint.fill,
                };
                let p = img.get_pixel_mut(x as u32, y as u32);
                *p = mix(*p, color, cover * paint.opacity);
            }
            x += 1;
        }
    }
}

fn round_rect_sdf(p: Pt, c: Pt, half_w: f32, half_h: f32, r: f32) -> f32 {
    let qx = (p.x - c.x).abs() - (half_w - r);
    let qy = (p.y - c.y).abs() - (half_h - r);
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - r
}

/// A rectangle with rounded corners, centre `c`, rotated by `angle` radians (clockwise on screen).
pub fn round_rect(img: &mut RgbImage, c: Pt, w: f32, h: f32, r: f32, angle: f32, paint: Paint) {
    let r = r.min(w / 2.0).min(h / 2.0);
    if angle == 0.0 {
        // Upright: the part inside the corners and the outline is plain fill.
        let inset = r.max(paint.outline.map_or(0.0, |(_, lw)| lw)) + 1.0;
        let solid = [
            (c.x - w / 2.0 + inset).ceil() as i32,
            (c.y - h / 2.0 + inset).ceil() as i32,
            (c.x + w / 2.0 - inset).floor() as i32,
            (c.y + h / 2.0 - inset).floor() as i32,
        ];
        let solid = (solid[0] < solid[2] && solid[1] < solid[3]).then_some(solid);
        let (min, max) = (
            pt(c.x - w / 2.0, c.y - h / 2.0),
            pt(c.x + w / 2.0, c.y + h / 2.0),
        );
        return shape_around(img, min, max, solid, paint, |p| {
            round_rect_sdf(p, c, w / 2.0, h / 2.0, r)
        });
    }
    let (s, co) = angle.sin_cos();
    let reach = (w * w + h * h).sqrt() / 2.0 + 1.0;
    shape(
        img,
        pt(c.x - reach, c.y - reach),
        pt(c.x + reach, c.y + reach),
        paint,
        |p| {
            let (dx, dy) = (p.x - c.x, p.y - c.y);
            let local = pt(c.x + dx * co + dy * s, c.y - dx * s + dy * co);
            round_rect_sdf(local, c, w / 2.0, h / 2.0, r)
        },
    );
}

pub fn circle(img: &mut RgbImage, c: Pt, r: f32, paint: Paint) {
    shape(
        img,
        pt(c.x - r, c.y - r),
        pt(c.x + r, c.y + r),
        paint,
        |p| ((p.x - c.x).powi(2) + (p.y - c.y).powi(2)).sqrt() - r,
    );
}

/// A thick line with round ends.
pub fn capsule(img: &mut RgbImage, a: Pt, b: Pt, radius: f32, paint: Paint) {
    let min = pt(a.x.min(b.x) - radius, a.y.min(b.y) - radius);
    let max = pt(a.x.max(b.x) + radius, a.y.max(b.y) + radius);
    let (bx, by) = (b.x - a.x, b.y - a.y);
    let len2 = (bx * bx + by * by).max(1e-6);
    shape(img, min, max, paint, |p| {
        let (px, py) = (p.x - a.x, p.y - a.y);
        let t = ((px * bx + py * by) / len2).clamp(0.0, 1.0);
        ((px - bx * t).powi(2) + (py - by * t).powi(2)).sqrt() - radius
    });
}

/// A convex polygon, points in either winding order.
pub fn convex(img: &mut RgbImage, points: &[Pt], paint: Paint) {
    let n = points.len();
    let min = points.iter().fold(pt(f32::MAX, f32::MAX), |m, p| {
        pt(m.x.min(p.x), m.y.min(p.y))
    });
    let max = points.iter().fold(pt(f32::MIN, f32::MIN), |m, p| {
        pt(m.x.max(p.x), m.y.max(p.y))
    });
    let area: f32 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum();
    let sign = if area >= 0.0 { 1.0 } else { -1.0 };
    shape(img, min, max, paint, |p| {
        (0..n)
            .map(|i| {
                let (a, b) = (points[i], points[(i + 1) % n]);
                let (ex, ey) = (b.x - a.x, b.y - a.y);
                let len = (ex * ex + ey * ey).sqrt().max(1e-6);
                // Signed distance to the edge's line, negative on the polygon's side.
                sign * ((p.x - a.x) * ey - (p.y - a.y) * ex) / len
            })
            .fold(f32::MIN, f32::max)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Rgb<u8> = Rgb([255, 0, 0]);

    #[test]
    fn shapes_cover_their_inside_and_not_their_outside() {
        let mut img = RgbImage::new(40, 40);
        circle(&mut img, pt(20.0, 20.0), 8.0, Paint::solid(RED));
        assert_eq!(*img.get_pixel(20, 20), RED);
        assert_eq!(*img.get_pixel(20, 30), Rgb([0, 0, 0]));
        let edge = img.get_pixel(27, 20)[0];
        assert!(edge > 0, "edge pixels are partly covered");

        let mut img = RgbImage::new(40, 40);
        convex(
            &mut img,
            &[pt(5.0, 5.0), pt(35.0, 5.0), pt(20.0, 35.0)],
            Paint::solid(RED),
        );
        assert_eq!(*img.get_pixel(20, 12), RED);
        assert_eq!(*img.get_pixel(5, 30), Rgb([0, 0, 0]));
        let mut img2 = RgbImage::new(40, 40);
        convex(
            &mut img2,
            &[pt(20.0, 35.0), pt(35.0, 5.0), pt(5.0, 5.0)],
            Paint::solid(RED),
        );
        assert_eq!(img, img2, "winding order does not matter");
    }

    #[test]
    fn outlines_sit_inside_the_edge() {
        let mut img = RgbImage::new(40, 40);
        let blue = Rgb([0, 0, 255]);
        round_rect(
            &mut img,
            pt(20.0, 20.0),
            30.0,
            30.0,
            4.0,
            0.0,
            Paint::outlined(RED, blue, 3.0),
        );
        assert_eq!(*img.get_pixel(20, 20), RED);
        assert_eq!(*img.get_pixel(20, 6), blue);
    }
}
