//! An animated GIF of a whole game, within a budget for any game length: at most a minute of
//! playback and a few MB. Short games show every position at 0.9 s; longer ones play faster,
//! down to 0.3 s a frame, and beyond that show evenly spaced positions. The start and the final
//! position are always shown, and the final one is held.

use super::{render, Display, Scene, Theme};
use crate::tak::Game;
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, DynamicImage, Frame};

/// GIF frames are drawn at this width: big enough to read, small enough to post.
const GIF_WIDTH: u32 = 480;
const FRAME_MS: u32 = 900;
const MIN_FRAME_MS: u32 = 300;
const LAST_FRAME_MS: u32 = 5000;
/// Playback before the final position's hold: with it, at most a minute.
const PLAYBACK_MS: u32 = 55_000;
/// At ~20 KB a frame, the most frames keep a GIF near 4 MB.
pub const MAX_FRAMES: usize = (PLAYBACK_MS / MIN_FRAME_MS) as usize + 1;

/// Which positions (0 = the start, n = after n plies) become frames, and each frame's delay.
fn plan(plies: usize) -> (Vec<usize>, u32) {
    let positions = plies + 1;
    if positions <= MAX_FRAMES {
        let delay = match positions {
            1 => FRAME_MS,
            n => (PLAYBACK_MS / (n as u32 - 1)).clamp(MIN_FRAME_MS, FRAME_MS),
        };
        return ((0..positions).collect(), delay);
    }
    let steps = MAX_FRAMES - 1;
    let picks = (0..=steps).map(|i| i * plies / steps).collect();
    (picks, MIN_FRAME_MS)
}

pub fn render_gif(game: &Game, players: [&str; 2], theme: &Theme, display: Display) -> Vec<u8> {
    let plies = game.plies();
    let mut position = game.start().clone();
    let mut shown = 0;
    animate(plies.len(), theme, |n, small| {
        for played in &plies[shown..n] {
            position.play_unchecked(played.undo.ply);
        }
        shown = n;
        let played = n.checked_sub(1).map(|i| &plies[i]);
        let scene = Scene {
            position: &position,
            last: played.map(|p| p.undo.ply),
            players,
            tak: played.is_some_and(|p| p.tak),
            tinue: played.is_some_and(|p| p.tinue),
            result: if n == plies.len() {
                game.result()
            } else {
                None
            },
            clock: None,
            display,
        };
        render(&scene, small)
    })
}

/// A GIF of a game of `plies` plies: `draw(n, theme)` draws the position after `n` plies at the
/// GIF's width, for the `n` the budget picks, in increasing order.
pub fn animate(
    plies: usize,
    theme: &Theme,
    mut draw: impl FnMut(usize, &Theme) -> image::RgbImage,
) -> Vec<u8> {
    let mut small = theme.clone();
    small.width = GIF_WIDTH;
    let (picks, delay) = plan(plies);
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, 20);
        encoder
            .set_repeat(Repeat::Infinite)
            .expect("writing to memory does not fail");
        for n in picks {
            let rgba = DynamicImage::ImageRgb8(draw(n, &small)).into_rgba8();
            let ms = if n == plies { LAST_FRAME_MS } else { delay };
            encoder
                .encode_frame(Frame::from_parts(
                    rgba,
                    0,
                    0,
                    Delay::from_numer_denom_ms(ms, 1),
                ))
                .expect("writing to memory does not fail");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_length_fits_the_playback_budget() {
        for plies in [0, 1, 10, 60, 61, 100, 182, 183, 184, 300, 1000, 5000] {
            let (picks, delay) = plan(plies);
            assert_eq!(picks[0], 0, "{plies}: starts at the start");
            assert_eq!(
                *picks.last().unwrap(),
                plies,
                "{plies}: ends on the final position"
            );
            assert!(
                picks.windows(2).all(|w| w[0] < w[1]),
                "{plies}: in order, no repeats"
            );
            assert!(picks.len() <= MAX_FRAMES, "{plies}");
            let playback = (picks.len() as u32 - 1) * delay + LAST_FRAME_MS;
            assert!(playback <= 60_000, "{plies}: {playback} ms");
            assert!(
                (MIN_FRAME_MS..=FRAME_MS).contains(&delay),
                "{plies}: {delay}"
            );
        }
        assert_eq!(
            plan(20),
            ((0..=20).collect(), FRAME_MS),
            "short games at full pace"
        );
    }
}
