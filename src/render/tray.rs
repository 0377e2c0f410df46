//! The reserve tray under the board (shown on request): each player's stones in piles and
//! capstones beside them, under that player's card, so what is left to place reads at a glance.

use super::paint::{self, pt};
use super::scene::{piece_paint, Layout, Scene, TRAY_HEIGHT as HEIGHT};
use super::Theme;
use crate::tak::Color;
use image::RgbImage;

/// A slab's width, thickness and the step from one slab to the next; the space between piles;
/// a capstone's radius.
const SLAB: (f32, f32, f32) = (30.0, 7.0, 9.0);
const GAP: f32 = 8.0;
const CAP_RADIUS: f32 = 14.0;
/// Stones per pile (as players keep them beside the board), unless there are too many piles
/// for the tray.
const PILE: usize = 5;

pub(super) fn draw(img: &mut RgbImage, scene: &Scene, theme: &Theme, l: &Layout) {
    let (k, w) = (l.k, l.width as f32);
    let top = l.height as f32 - HEIGHT * k;
    let base = top + (HEIGHT - 10.0) * k;
    for color in [Color::White, Color::Black] {
        let left = match color {
            Color::White => 16.0 * k,
            Color::Black => w / 2.0 + 8.0 * k,
        };
        let room = w / 2.0 - 24.0 * k;
        let reserve = scene.position.reserve(color);
        let (stones, caps) = (reserve.stones as usize, reserve.caps as usize);
        let paint = piece_paint(theme, color, 1.2 * k);
        let caps_room = caps as f32 * (2.0 * CAP_RADIUS + GAP) * k;
        let most_piles = (((room - caps_room) / ((SLAB.0 + GAP) * k)).floor() as usize).max(1);
        let per_pile = pile_size(stones, most_piles);
        let mut x = left + GAP * k;
        for pile in 0..stones.div_ceil(per_pile) {
            let in_pile = per_pile.min(stones - pile * per_pile);
            // Taller piles (custom reserves) squeeze their slabs into the same height.
            let squeeze = (PILE as f32 / per_pile as f32).min(1.0);
            let (slab_h, step) = (SLAB.1 * k * squeeze, SLAB.2 * k * squeeze);
            for i in 0..in_pile {
                let cy = base - slab_h / 2.0 - i as f32 * step;
                let centre = pt(x + SLAB.0 * k / 2.0, cy);
                paint::round_rect(img, centre, SLAB.0 * k, slab_h, 1.5 * k, 0.0, paint);
            }
            x += (SLAB.0 + GAP) * k;
        }
        for _ in 0..caps {
            let centre = pt(x + CAP_RADIUS * k, base - CAP_RADIUS * k);
            paint::circle(img, centre, CAP_RADIUS * k, paint);
            x += (2.0 * CAP_RADIUS + GAP) * k;
        }
    }
}

/// Stones per pile: five, or as many as it takes to fit `stones` in `most_piles` piles.
fn pile_size(stones: usize, most_piles: usize) -> usize {
    PILE.max(stones.div_ceil(most_piles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piles_hold_five_until_the_tray_is_full() {
        assert_eq!(pile_size(30, 8), 5);
        assert_eq!(pile_size(50, 8), 7);
        assert_eq!(pile_size(64, 5), 13);
        assert_eq!(pile_size(0, 5), 5);
    }
}
