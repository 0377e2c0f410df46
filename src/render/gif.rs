//! An animated GIF of a whole game: one frame per position, the last held.

use super::{render, Scene, Theme};
use crate::tak::Game;
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, DynamicImage, Frame};

/// GIF frames are drawn at this width: big enough to read, small enough to post.
const GIF_WIDTH: u32 = 480;
const FRAME_MS: u32 = 900;
const LAST_FRAME_MS: u32 = 5000;

pub fn render_gif(game: &Game, players: [&str; 2], theme: &Theme) -> Vec<u8> {
    let mut small = theme.clone();
    small.width = GIF_WIDTH;
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, 20);
        encoder
            .set_repeat(Repeat::Infinite)
            .expect("writing to memory does not fail");
        let mut position = game.start().clone();
        let count = game.plies().len();
        let mut frame = |scene: &Scene, last: bool| {
            let rgba = DynamicImage::ImageRgb8(render(scene, &small)).into_rgba8();
            let ms = if last { LAST_FRAME_MS } else { FRAME_MS };
            let delay = Delay::from_numer_denom_ms(ms, 1);
            encoder
                .encode_frame(Frame::from_parts(rgba, 0, 0, delay))
                .expect("writing to memory does not fail");
        };
        let start = Scene {
            position: &position,
            last: None,
            players,
            tak: false,
            tinue: false,
            result: None,
        };
        frame(&start, count == 0);
        for (i, played) in game.plies().iter().enumerate() {
            position.play_unchecked(played.undo.ply);
            let last = i + 1 == count;
            let scene = Scene {
                position: &position,
                last: Some(played.undo.ply),
                players,
                tak: played.tak,
                tinue: played.tinue,
                result: if last { game.result() } else { None },
            };
            frame(&scene, last);
        }
    }
    out
}
