//! The pictures: checked by sampling pixels where pieces, highlights and marks must be.

use crate::support;
use bredon::render::{
    alt_text, card_text, encode_png, render, render_gif, square_geometry, square_marks, texts,
    Display, Line, Scene, Theme, SMALLEST_PREVIEW_TEXT,
};
use bredon::tak::{Color, Game, GameResult, Ply, Position, Square};
use image::{Rgb, RgbImage};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn scene_for<'a>(p: &'a Position, last: Option<&str>) -> Scene<'a> {
    Scene::of_position(
        p,
        last.map(|l| Ply::parse(l).unwrap().ply),
        ["alice", "bob"],
    )
}

fn draw(tps: &str, last: Option<&str>, theme: &Theme) -> (RgbImage, Position) {
    let p = Position::from_tps(tps).unwrap();
    let img = render(&scene_for(&p, last), theme);
    (img, p)
}

/// The pixel at a fraction of a square away from its centre.
fn at(img: &RgbImage, theme: &Theme, size: usize, square: &str, dx: f32, dy: f32) -> Rgb<u8> {
    let ((cx, cy), cell) = square_geometry(theme, size, sq(square));
    *img.get_pixel(
        (cx as f32 + dx * cell) as u32,
        (cy as f32 + dy * cell) as u32,
    )
}

/// Every line's digits are at least `SMALLEST_PREVIEW_TEXT` tall where Discord shows a
/// picture of `theme` 400 px wide; `what` names the case in a failure.
pub(crate) fn assert_each_reads_at_preview(lines: &[Line], theme: &Theme, what: &str) {
    for line in lines {
        let h = line.preview_height(theme.width);
        assert!(
            h >= SMALLEST_PREVIEW_TEXT,
            "{what}: {line:?} is {h:.2} px at 400 px"
        );
    }
}

fn close(a: Rgb<u8>, b: Rgb<u8>) -> bool {
    a.0.iter()
        .zip(b.0)
        .all(|(x, y)| (*x as i32 - y as i32).abs() <= 6)
}

fn count(img: &RgbImage, x0: u32, x1: u32, y0: u32, y1: u32, color: Rgb<u8>) -> usize {
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| *img.get_pixel(x, y) == color)
        .count()
}

#[test]
fn every_theme_renders_every_size_at_one_picture_size() {
    for name in Theme::names() {
        let theme = Theme::named(name).unwrap();
        let mut dims = Vec::new();
        for size in 3..=8 {
            let p = Position::new(bredon::tak::Setup::new(size).unwrap());
            let png = encode_png(&render(&scene_for(&p, None), &theme));
            let decoded = image::load_from_memory(&png).unwrap();
            dims.push((decoded.width(), decoded.height()));
        }
        assert!(dims.iter().all(|&d| d == dims[0]), "{name}: {dims:?}");
        assert_eq!(dims[0].0, 800);
    }
}

#[test]
fn pieces_are_drawn_in_their_owners_colours_and_shapes() {
    let theme = Theme::default();
    let (img, _) = draw("x5/x5/x,1,2,1S,2S/x,1C,x3/x5 1 5", None, &theme);
    let (white, black) = (theme.white_fill.0, theme.black_fill.0);
    // Flats fill their upper corners; walls do not reach them.
    assert!(close(at(&img, &theme, 5, "b3", -0.2, -0.12), white));
    assert!(close(at(&img, &theme, 5, "c3", -0.2, -0.12), black));
    assert!(
        !close(at(&img, &theme, 5, "d3", -0.2, -0.2), white),
        "a wall is narrow"
    );
    assert!(
        close(at(&img, &theme, 5, "d3", 0.0, 0.0), white),
        "but stands in the middle"
    );
    // Walls lean by owner: White's top leans right, Black's left.
    assert!(close(at(&img, &theme, 5, "d3", 0.07, -0.22), white));
    assert!(close(at(&img, &theme, 5, "e3", -0.07, -0.22), black));
    // A capstone is round with a ring of the outline colour in the middle.
    let ring = bredon::render::paint::mix(white, theme.white_outline.0, 0.85);
    assert!(close(at(&img, &theme, 5, "b2", 0.0, 0.0), ring));
    assert!(close(at(&img, &theme, 5, "b2", -0.17, 0.0), white));
    assert!(
        !close(at(&img, &theme, 5, "b2", -0.22, -0.22), white),
        "a round piece leaves its corners empty"
    );
    // Empty squares show the board.
    let empty = at(&img, &theme, 5, "a1", 0.0, 0.0);
    assert!(empty == theme.square_dark.0 || empty == theme.square_light.0);
}

/// The colours at the middle of each bar of `on`'s strip, from the top piece's down.
fn bar_colours(img: &RgbImage, p: &Position, theme: &Theme, on: &str) -> Vec<Rgb<u8>> {
    let marks = square_marks(&scene_for(p, None), theme, sq(on)).unwrap();
    let middle =
        |r: &bredon::render::paint::Rect| *img.get_pixel(r.centre().x as u32, r.centre().y as u32);
    marks.bars.iter().map(middle).collect()
}

#[test]
fn stacks_show_their_height_and_each_carryable_pieces_owner() {
    let theme = Theme::default();
    // c3: White, Black, White (bottom to top).
    let (img, p) = draw("x5/x5/x2,121,x2/x5/x5 2 5", None, &theme);
    // The badge sits in the top-left corner.
    let badge = at(&img, &theme, 5, "c3", -0.37, -0.37);
    assert!(
        close(badge, theme.badge_fill.0) || close(badge, theme.badge_text.0),
        "{badge:?}"
    );
    // Beside the top piece, a bar per piece from the top down: White, Black, White.
    let (w, b) = (theme.white_fill.0, theme.black_fill.0);
    let bars = bar_colours(&img, &p, &theme, "c3");
    assert_eq!(bars.len(), 3);
    for (bar, owner) in bars.iter().zip([w, b, w]) {
        assert!(close(*bar, owner), "{bars:?}");
    }
    // A single piece has none.
    let alone = square_marks(&scene_for(&p, None), &theme, sq("c3"));
    assert!(alone.is_some_and(|m| m.pill.is_none()));
    let (_, one) = draw("x5/x5/x2,1,x2/x5/x5 2 5", None, &theme);
    let marks = square_marks(&scene_for(&one, None), &theme, sq("c3")).unwrap();
    assert!(marks.bars.is_empty() && marks.badge.is_none());
}

/// What the issue asked of a tall 8x8 stack at Discord's preview: an 18-stack whose top eight
/// alternate colours, drawn at 1600 px and scaled to 400, shows eight marks of alternating
/// colour down its strip, the top piece's (Black's) first.
#[test]
fn a_tall_stacks_carryable_pieces_read_at_discords_preview() {
    let theme = Theme {
        width: 1600,
        ..Theme::default()
    };
    let (img, p) = draw(
        "x8/x8/x8/x3,121212121212121212,x4/x8/x8/x8/x8 2 20",
        None,
        &theme,
    );
    let strip = square_marks(&scene_for(&p, None), &theme, sq("d5"))
        .unwrap()
        .strip()
        .unwrap();
    let scale = 400.0 / img.width() as f32;
    let height = (img.height() as f32 * scale).round() as u32;
    let small = image::imageops::resize(&img, 400, height, image::imageops::FilterType::Triangle);
    // Down the strip's middle at 400 px: each row light (White's fill), dark (Black's) or
    // neither (edges, the square); the runs of light and dark rows are the marks.
    let x = (strip.centre().x * scale) as u32;
    let (top, bottom) = (
        (strip.top * scale) as u32,
        (strip.bottom * scale).ceil() as u32,
    );
    let lum = |p: &Rgb<u8>| (p.0[0] as u32 * 3 + p.0[1] as u32 * 6 + p.0[2] as u32) / 10;
    let (light, dark) = (lum(&theme.white_fill.0), lum(&theme.black_fill.0));
    let mut marks: Vec<bool> = Vec::new();
    for y in top..=bottom {
        let l = lum(small.get_pixel(x, y));
        let shade = match l {
            l if l.abs_diff(light) < 40 => Some(true),
            l if l.abs_diff(dark) < 40 => Some(false),
            _ => None,
        };
        if let Some(white) = shade {
            if marks.last() != Some(&white) {
                marks.push(white);
            }
        }
    }
    let alternating: Vec<bool> = (0..8).map(|i| i % 2 == 1).collect();
    assert_eq!(
        marks, alternating,
        "light (true) and dark marks from the top down"
    );
}

#[test]
fn stacks_taller_than_the_carry_limit_say_how_many_are_hidden() {
    let theme = Theme::default();
    let (img, _) = draw("x3/x,1212121,x/x3 1 5", None, &theme);
    // The +4 label is a dark pill under the pile, inside the square: between the square's
    // bottom edge and the lowest slab, clear of the slabs.
    let ((cx, cy), cell) = square_geometry(&theme, 3, sq("b2"));
    let band = |img: &RgbImage, top: f32, bottom: f32| {
        count(
            img,
            (cx as f32 - 0.45 * cell) as u32,
            (cx as f32 + 0.45 * cell) as u32,
            (cy as f32 + top * cell) as u32,
            (cy as f32 + bottom * cell) as u32,
            theme.badge_text.0,
        )
    };
    assert!(band(&img, 0.3, 0.49) > 50, "the pill is there");
    // Nothing of it below the square, and the slabs above it are pieces, not pill.
    let below = count(
        &img,
        (cx as f32 - 0.5 * cell) as u32,
        (cx as f32 + 0.5 * cell) as u32,
        (cy as f32 + 0.5 * cell) as u32 + 1,
        (cy as f32 + 0.5 * cell) as u32 + 4,
        theme.badge_text.0,
    );
    assert_eq!(below, 0, "the pill stays inside its square");
    let lowest_slab = *img.get_pixel(cx, (cy as f32 + 0.18 * cell) as u32);
    assert!(
        close(lowest_slab, theme.white_fill.0) || close(lowest_slab, theme.black_fill.0),
        "the lowest visible slab is not covered: {lowest_slab:?}"
    );
    let (plain, _) = draw("x3/x,121,x/x3 1 5", None, &theme);
    assert_eq!(band(&plain, 0.3, 0.49), 0);
}

/// Text that must read where Discord shows the picture on a phone, scaled to 400 px wide: a
/// 19-high stack's height badge and `+N` pill on 8x8 (the smallest squares) and the players'
/// card lines (name; "to move", stones and caps) on every size, in every theme. A text's height
/// is the ink height of its digits (as tall as DejaVu's capitals) at the size the layout draws
/// it, times 400 / the picture's width (`Line::preview_height`); at least 9 px.
#[test]
fn badges_pills_and_card_lines_read_at_discords_preview_in_every_theme_and_size() {
    let tall = "x8/x8/x8/x3,1212121212121212121,x4/x8/x8/x8/x8 2 20";
    for name in Theme::names() {
        let theme = Theme::named(name).unwrap();
        let p = Position::from_tps(tall).unwrap();
        let marks = square_marks(&scene_for(&p, None), &theme, sq("d5")).unwrap();
        let (badge, pill) = (marks.badge.unwrap(), marks.pill.unwrap());
        assert_eq!(badge.line.text, "19");
        assert!(pill.line.text.starts_with('+'), "{pill:?}");
        let mut lines = vec![badge.line, pill.line];
        for size in 3..=8 {
            let p = Position::new(bredon::tak::Setup::new(size).unwrap());
            let cards = card_text(&scene_for(&p, None), &theme);
            assert!(cards.iter().any(|l| l.text.starts_with("to move · ")));
            lines.extend(cards);
        }
        assert_each_reads_at_preview(&lines, &theme, name);
    }
    // What is drawn is that size: the rows of the pill's (light) digits on its dark fill.
    let theme = Theme::default();
    let (img, p) = draw(tall, None, &theme);
    let pill = square_marks(&scene_for(&p, None), &theme, sq("d5"))
        .unwrap()
        .pill
        .unwrap();
    let a = pill.area;
    let inked = (a.top as u32..a.bottom as u32)
        .filter(|&y| {
            (a.left as u32..a.right as u32).any(|x| close(*img.get_pixel(x, y), theme.badge_fill.0))
        })
        .count() as f32;
    let scale = bredon::render::PREVIEW_WIDTH as f32 / theme.width as f32;
    assert!(inked * scale >= SMALLEST_PREVIEW_TEXT - 1.0, "{inked} rows");
}

/// Every text a picture lays out reads at Discord's preview (400 px wide): at least 9 px of
/// ink, as `Line::preview_height` measures the glyph boxes the renderer uses, on every size
/// and theme: the cards (names, status lines, counts and their captions), the status row
/// (`Move 30 · flats 1 vs 1 + 2`), the coordinates, the badges and `+N` pills of tall stacks,
/// the drop counts of a spread.
#[test]
fn every_text_of_a_picture_reads_at_discords_preview() {
    for name in Theme::names() {
        let theme = Theme::named(name).unwrap();
        for size in 3..=8 {
            let row = |stack: &str| format!("x,{stack},x{}", size - 2);
            let pieces = |n: usize| (0..n).map(|i| ["1", "2"][i % 2]).collect::<String>();
            let mut ranks = vec![format!("x{size}"); size];
            ranks[size - 3] = row("1");
            ranks[size - 2] = row(&pieces(size + 2));
            ranks[size - 1] = row(&pieces(size + 3));
            let p = Position::from_tps(&format!("{} 1 30", ranks.join("/"))).unwrap();
            let scene = scene_for(&p, Some("3b3-12"));
            let lines = texts(&scene, &theme);
            for kind in ["flats", "Move 30 · flats", "a", "1", "+", "2"] {
                assert!(
                    lines.iter().any(|l| l.text.starts_with(kind)),
                    "{name} {size}x{size}: no {kind:?} in {lines:?}"
                );
            }
            assert_each_reads_at_preview(&lines, &theme, &format!("{name} {size}x{size}"));
        }
    }
}

#[test]
fn the_last_ply_is_highlighted_with_an_arrow() {
    let theme = Theme::named("colorblind").unwrap();
    let (img, _) = draw("x5/x5/x5/x5/1,12,1,x2 2 5", Some("2b1>11"), &theme);
    let origin = at(&img, &theme, 5, "b1", -0.49, -0.49);
    assert!(close(origin, theme.origin.0), "origin border {origin:?}");
    for dest in ["c1", "d1"] {
        assert!(
            close(at(&img, &theme, 5, dest, -0.49, -0.49), theme.destination.0),
            "{dest}"
        );
    }
    assert!(!close(
        at(&img, &theme, 5, "e1", -0.49, -0.49),
        theme.destination.0
    ));
    // The arrow runs along the rank between the pieces, under them: the piece on c1, which it
    // crosses, shows whole at its centre.
    assert!(close(at(&img, &theme, 5, "c1", 0.5, 0.0), theme.arrow.0));
    let moved = at(&img, &theme, 5, "c1", 0.0, 0.0);
    assert!(
        close(moved, theme.white_fill.0) || close(moved, theme.black_fill.0),
        "the moved piece is not covered: {moved:?}"
    );
}

#[test]
fn tak_is_marked_in_the_header_only_when_it_applies() {
    let theme = Theme::default();
    let header = |img: &RgbImage| count(img, 0, 800, 100, 148, theme.tak_fill.0);
    let (tak, _) = draw("x5/x5/1,1,1,1,x/x5/2,2,2,x2 2 5", Some("d3"), &theme);
    assert!(header(&tak) > 200);
    let (quiet, _) = draw("x5/x5/1,1,x3/x5/2,2,2,x2 2 5", Some("b3"), &theme);
    assert_eq!(header(&quiet), 0);
}

#[test]
fn after_tak_the_squares_that_complete_the_road_are_framed() {
    let theme = Theme::default();
    let (img, _) = draw("x5/x5/1,1,1,1,x/x5/2,2,2,x2 2 5", Some("d3"), &theme);
    // The frame runs along the inside of the square's edge, clear of any piece.
    let edge = |square: &str| at(&img, &theme, 5, square, -0.46, 0.0);
    assert!(close(edge("e3"), theme.tak_fill.0), "e3 completes the road");
    for quiet in ["e1", "e2", "e4", "d1"] {
        assert!(!close(edge(quiet), theme.tak_fill.0), "{quiet}");
    }
    let (quiet, _) = draw("x5/x5/1,1,x3/x5/2,2,2,x2 2 5", Some("b3"), &theme);
    assert!(!close(
        at(&quiet, &theme, 5, "e3", -0.46, 0.0),
        theme.tak_fill.0
    ));
}

#[test]
fn a_draw_has_its_own_banner_colour() {
    let theme = Theme::default();
    let p = Position::from_tps("x5/x5/1,1,x3/x5/2,2,2,x2 2 5").unwrap();
    let banner = |result| {
        let scene = Scene {
            result: Some(result),
            ..scene_for(&p, None)
        };
        let img = render(&scene, &theme);
        (
            count(&img, 0, 800, 100, 148, theme.result_fill.0),
            count(&img, 0, 800, 100, 148, theme.draw_fill.0),
        )
    };
    let (win, _) = banner(GameResult::Resignation {
        winner: Color::White,
    });
    assert!(win > 500, "a win is green");
    let (green, grey) = banner(GameResult::DrawAgreed);
    assert!(green == 0 && grey > 500, "a draw is not: {green} {grey}");
    assert_ne!(theme.draw_fill, theme.result_fill);
}

#[test]
fn the_player_to_move_is_outlined() {
    let theme = Theme::default();
    let accent = |img: &RgbImage, left: bool| {
        let (x0, x1) = if left { (0, 400) } else { (400, 800) };
        count(img, x0, x1, 0, 100, theme.accent.0)
    };
    let (white_to_move, _) = draw("x5/x5/x5/x5/1,2,x3 1 2", None, &theme);
    assert!(accent(&white_to_move, true) > 500 && accent(&white_to_move, false) == 0);
    let (black_to_move, _) = draw("x5/x5/x5/x5/1,2,x3 2 2", None, &theme);
    assert!(accent(&black_to_move, false) > 500 && accent(&black_to_move, true) == 0);
}

#[test]
fn a_road_win_draws_the_road_and_a_result_banner() {
    let theme = Theme::named("light").unwrap();
    let (img, p) = draw("x5/x5/1,1,1,1,1/2,2,2,2,x/x5 2 5", Some("e3"), &theme);
    assert!(p.end().is_some());
    for s in ["a3", "b3", "c3", "d3", "e3"] {
        assert!(close(at(&img, &theme, 5, s, 0.0, 0.0), theme.road.0), "{s}");
    }
    assert!(!close(at(&img, &theme, 5, "a2", 0.0, 0.0), theme.road.0));
    assert!(count(&img, 0, 800, 100, 148, theme.result_fill.0) > 500);
}

#[test]
fn alt_text_speaks_the_position_within_discords_limit() {
    let p = Position::from_tps("x5/x5/x2,1212,x2/x5/x4,2 1 7").unwrap();
    let scene = Scene::of_position(&p, Some(Ply::parse("e1").unwrap().ply), ["alice", "bob"]);
    let alt = alt_text(&scene);
    for part in [
        "5x5 Tak board",
        "move 7",
        "alice (White) to move",
        "last ply e1 by bob",
        "flats 0 vs 2",
        "reserves White",
        "tall stacks c3 4",
        "TPS x5/x5/x2,1212,x2/x5/x4,2 1 7",
    ] {
        assert!(alt.contains(part), "{part:?} missing from {alt}");
    }
    let long = "n".repeat(1500);
    let scene = Scene::of_position(&p, None, [&long, &long]);
    let alt = alt_text(&scene);
    assert!(alt.len() <= 1024);
    assert!(alt.contains("nnn… (White) to move"), "{alt}");
    // The tallest stacks a big board can hold still fit.
    let s24 = "12".repeat(12);
    let tall = format!("x8/x8/x8/x8/x8/x8/x8/{s24},{s24},{s24},{s24},x4 1 60");
    let p = Position::from_tps(&tall).unwrap();
    let alt = alt_text(&Scene::of_position(&p, None, ["a", "b"]));
    assert!(alt.len() <= 1024 && alt.ends_with(" 1 60"), "{alt}");
}

#[test]
fn a_game_gif_has_a_frame_per_position() {
    use image::AnimationDecoder;
    let text = std::fs::read_to_string("tests/data/road-win.ptn").unwrap();
    let game = Game::from_ptn(&text).unwrap();
    let gif = render_gif(
        &game,
        ["alice", "bob"],
        &Theme::default(),
        Display::default(),
    );
    let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif)).unwrap();
    let frames = decoder.into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), game.plies().len() + 1);
    let (last, first) = (frames.last().unwrap().delay(), frames[0].delay());
    assert!(last > first, "the last frame is held");
}

#[test]
fn a_long_games_gif_keeps_to_its_budget_and_ends_on_the_final_position() {
    use image::AnimationDecoder;
    let game = support::long_game(6, 300, 7);
    let gif = render_gif(
        &game,
        ["alice", "bob"],
        &Theme::default(),
        Display::default(),
    );
    assert!(gif.len() <= 8 * 1024 * 1024, "{} bytes", gif.len());
    let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif)).unwrap();
    let frames = decoder.into_frames().collect_frames().unwrap();
    assert!(
        frames.len() < 301,
        "positions are skipped: {}",
        frames.len()
    );
    let ms: u32 = frames
        .iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            n / d
        })
        .sum();
    assert!(ms <= 60_000, "{ms} ms of playback");
    // The last frame is the final position: the same picture at the GIF's width.
    let small = Theme {
        width: frames[0].buffer().width(),
        ..Theme::default()
    };
    let scene = Scene::of_game(&game, ["alice", "bob"]);
    let expected = render(&scene, &small);
    let last = frames.last().unwrap().buffer();
    let same = expected
        .pixels()
        .zip(last.pixels())
        .filter(|(a, b)| a.0.iter().zip(&b.0[..3]).all(|(x, y)| x.abs_diff(*y) < 48))
        .count();
    let share = same as f64 / expected.pixels().len() as f64;
    assert!(
        share > 0.95,
        "the last frame shows the final position ({share:.3})"
    );
}

#[test]
fn the_render_command_refuses_bad_input_without_panicking() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_bredon"))
            .args(args)
            .output()
            .unwrap()
    };
    // In a folder of this test's: no file left from another run can pass for this one's.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("render-test.png");
    let out = out.to_str().unwrap();
    let ok = run(&[
        "render",
        "--tps",
        "x3/x3/1,2,x 1 2",
        "--last",
        "b1",
        "-o",
        out,
    ]);
    assert!(ok.status.success());
    assert!(image::open(out).is_ok());
    for (args, says) in [
        (
            vec!["render", "--tps", "x3/x3 1 1", "-o", out],
            "boards go from",
        ),
        (
            vec!["render", "--tps", "x3/x3/x3 1 1", "--last", "z9", "-o", out],
            "--last",
        ),
        (
            vec!["render", "--tps", "x3/x3/x3 1 1", "--last", "a1", "-o", out],
            "cannot have led",
        ),
        (
            vec![
                "render",
                "--tps",
                "x3/x3/x3 1 1",
                "--theme",
                "neon",
                "-o",
                out,
            ],
            "no theme `neon`",
        ),
        (
            vec!["render", "--tps", "x3/x3/x3 1 1", "--komi", "21", "-o", out],
            "komi",
        ),
        (
            vec!["render", "--gif", "tests/data/illegal.ptn", "-o", out],
            "ply 3",
        ),
    ] {
        let o = run(&args);
        assert!(!o.status.success() && o.status.code().is_some(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_road_win_is_drawn_as_one_path_from_edge_to_edge() {
    let theme = Theme::default();
    // White's road along rank 3, with a branch up c4 and c5 that is not part of it.
    let (img, p) = draw("x2,1,x2/x2,1,x2/1,1,1,1,1/x5/2,2,2,2,x 2 8", None, &theme);
    assert!(p.end().is_some(), "the road ends the game");
    for square in ["a3", "b3", "c3", "d3", "e3"] {
        assert!(
            close(at(&img, &theme, 5, square, 0.0, 0.0), theme.road.0)
                || count_near(&img, &theme, square, theme.road.0) > 20,
            "{square} is on the road"
        );
    }
    for square in ["c4", "c5"] {
        assert_eq!(
            count_near(&img, &theme, square, theme.road.0),
            0,
            "{square} branches off the road"
        );
    }
}

/// Pixels of `colour` within a tenth of a square of the square's centre.
fn count_near(img: &RgbImage, theme: &Theme, square: &str, colour: Rgb<u8>) -> usize {
    let ((cx, cy), cell) = square_geometry(theme, 5, sq(square));
    let r = (0.1 * cell) as u32;
    count(img, cx - r, cx + r, cy - r, cy + r, colour)
}

#[test]
fn a_flat_win_tints_every_square_that_counted_towards_its_owner() {
    let theme = Theme::default();
    let (img, p) = draw("1,2,1/2,1,2/1,2,1 2 6", None, &theme);
    assert!(p.end().is_some(), "the full board ends the game");
    let corner = |square: &str| {
        let ((cx, cy), cell) = square_geometry(&theme, 3, sq(square));
        *img.get_pixel(
            (cx as f32 - 0.4 * cell) as u32,
            (cy as f32 + 0.4 * cell) as u32,
        )
    };
    let dist = |a: Rgb<u8>, b: Rgb<u8>| {
        a.0.iter()
            .zip(b.0)
            .map(|(x, y)| (*x as i32 - y as i32).abs())
            .sum::<i32>()
    };
    let (white, black) = (corner("a1"), corner("b1"));
    assert!(
        dist(white, theme.white_fill.0) < dist(black, theme.white_fill.0),
        "a1 (White's) is lighter than b1 (Black's): {white:?} {black:?}"
    );
    assert!(dist(black, theme.black_fill.0) < dist(white, theme.black_fill.0));
    let (quiet, _) = draw("1,2,x/2,1,x/1,2,x 2 4", None, &theme);
    let ((cx, cy), cell) = square_geometry(&theme, 3, sq("a1"));
    let plain = *quiet.get_pixel(
        (cx as f32 - 0.4 * cell) as u32,
        (cy as f32 + 0.4 * cell) as u32,
    );
    assert!(dist(plain, white) > 30, "no tint while the game runs");
    // A wall does not count, so its square keeps its colour.
    let (walled, _) = draw("2,1,2/1,2,1/2,1,1S 2 5", Some("Sc1"), &theme);
    let ((wx, wy), wcell) = square_geometry(&theme, 3, sq("c1"));
    let wall_corner = *walled.get_pixel(
        (wx as f32 - 0.4 * wcell) as u32,
        (wy as f32 + 0.4 * wcell) as u32,
    );
    let ((bx, by), _) = square_geometry(&theme, 3, sq("b1"));
    let counted = *walled.get_pixel(
        (bx as f32 - 0.4 * wcell) as u32,
        (by as f32 + 0.4 * wcell) as u32,
    );
    assert!(
        dist(wall_corner, theme.destination.0) < dist(wall_corner, theme.white_fill.0)
            || dist(wall_corner, counted) > 30,
        "the wall's square is not tinted: {wall_corner:?}"
    );
}

#[test]
fn the_time_left_is_in_the_status_row_when_the_game_has_a_limit() {
    let theme = Theme::default();
    let p = Position::from_tps("x5/x5/x2,1,x2/x5/x5 2 1").unwrap();
    let plain = render(&scene_for(&p, None), &theme);
    let timed = render(
        &Scene {
            clock: Some("23 h 10 min".into()),
            ..scene_for(&p, None)
        },
        &theme,
    );
    // A second pill in the status row: more card-coloured pixels there than without it.
    let pills = |img: &RgbImage| count(img, 0, 800, 106, 140, theme.card.0);
    assert!(
        pills(&timed) > pills(&plain) + 500,
        "{} vs {}",
        pills(&timed),
        pills(&plain)
    );
}

#[test]
fn neighbouring_road_pieces_of_one_owner_are_joined() {
    let theme = Theme::default();
    // a3-b3 White flats, c3 a Black flat, a2 a White wall under a3.
    let (img, _) = draw("x5/x5/1,1,2,x2/1S,x4/x5 2 4", None, &theme);
    let gap = |square: &str, dx: f32, dy: f32| at(&img, &theme, 5, square, dx, dy);
    assert!(
        close(gap("a3", 0.5, 0.0), theme.white_fill.0),
        "a3-b3 joined"
    );
    let between_owners = gap("b3", 0.5, 0.0);
    assert!(
        !close(between_owners, theme.white_fill.0) && !close(between_owners, theme.black_fill.0),
        "b3-c3 belong to different players: {between_owners:?}"
    );
    let to_wall = gap("a3", 0.0, 0.5);
    assert!(
        !close(to_wall, theme.white_fill.0),
        "a wall is not a road piece: {to_wall:?}"
    );
}

#[test]
fn drop_counts_are_square_tags_apart_from_height_badges_and_bars_stay_thick_on_8x8() {
    let theme = Theme::default();
    assert_ne!(
        theme.arrow_outline.0, theme.badge_fill.0,
        "tags and badges differ"
    );
    // 3c3<12 style: b3 and a3 received pieces; each count sits in its square's bottom-left
    // corner, off the centre lines where road connectors run.
    let (img, _) = draw("x5/x5/12,121,x,x2/x5/x5 1 4", Some("3c3<12"), &theme);
    let tag_pixels = |square: &str| {
        let ((cx, cy), cell) = square_geometry(&theme, 5, sq(square));
        let left = cx - cell as u32 / 2 + (0.05 * cell) as u32;
        let bottom = cy + cell as u32 / 2 - (0.05 * cell) as u32;
        let side = (0.18 * cell) as u32;
        count(
            &img,
            left,
            left + side,
            bottom - side,
            bottom,
            theme.arrow_outline.0,
        )
    };
    for square in ["a3", "b3"] {
        assert!(
            tag_pixels(square) > 100,
            "{square}'s count: {}",
            tag_pixels(square)
        );
    }
    assert_eq!(tag_pixels("c3"), 0, "the origin has no count");
    // An 8x8 stack of 22: eight bars, each at least 8 px of fill at full size (4 px at 400).
    let tall =
        Position::from_tps("x8/x8/x8/x3,1212121212121212121212,x4/x8/x8/x8/x8 2 20").unwrap();
    let bars = square_marks(&scene_for(&tall, None), &theme, sq("d5"))
        .unwrap()
        .bars;
    assert_eq!(bars.len(), 8);
    assert!(bars.iter().all(|b| b.height() >= 8.0), "{bars:?}");
}

/// The evaluation chart: White's advantage above the middle line, Black's below, and each mark
/// as a dot of its colour where the marked ply left the game.
#[test]
fn the_evaluation_chart_puts_marks_on_the_line_in_their_colours() {
    use bredon::render::chart::{render_chart, Chart};
    let theme = Theme::named("dark").unwrap();
    let values = [0, 150, 300, -400, -400, 1_000_000];
    let img = render_chart(
        &Chart {
            white_view: &values,
            marks: &[(3, "??"), (4, "?"), (5, "!")],
            first_move: 1,
            white_first: true,
            players: ["alice", "bob"],
        },
        &theme,
    );
    assert_eq!((img.width(), img.height()), (800, 400));
    // Plot area: x from 64 to 780, y from 64 (top, +reach) to 356 (bottom); a forced win makes
    // the reach its most, 10 flats.
    let x = |i: usize| 64.0 + (780.0 - 64.0) * i as f32 / 5.0;
    let y = |v: i32| 210.0 - v.clamp(-1000, 1000) as f32 / 1000.0 * 146.0;
    let at = |i: usize, v: i32| *img.get_pixel(x(i) as u32, y(v) as u32);
    assert_eq!(at(3, -400).0, [0xE5, 0x3B, 0x3B], "a blunder is red");
    assert_eq!(at(4, -400).0, [0xF2, 0xA0, 0x2C], "a mistake is orange");
    assert_eq!(
        at(5, 1000).0,
        [0x3C, 0xB3, 0x71],
        "a forced win sits at the top edge"
    );
    // An unmarked point is on the line (the accent colour), not a dot.
    assert_eq!(at(2, 300).0, theme.accent.0 .0);
}

/// A picture may leave out the labels, height badges, road connectors and flat counts; each
/// part goes alone, and hiding nothing is the usual picture.
#[test]
fn display_options_leave_out_only_the_parts_they_name() {
    let theme = Theme::default();
    let p = Position::from_tps("x5/x5/x2,121,x2/x5/1,1,1,x2 2 5").unwrap();
    let with = |hide: &str| {
        let mut scene = scene_for(&p, None);
        scene.display = Display::hiding(hide).unwrap();
        render(&scene, &theme)
    };
    let usual = with("none");
    assert_eq!(usual, render(&scene_for(&p, None), &theme));
    // The file letters under the board.
    let ((_, a1_y), cell) = square_geometry(&theme, 5, sq("a1"));
    let below = |img: &RgbImage| {
        let y0 = a1_y + (cell / 2.0) as u32 + 4;
        count(
            img,
            0,
            img.width(),
            y0,
            (y0 + 36).min(img.height()),
            theme.label.0,
        )
    };
    let bare = with("labels");
    assert!(
        below(&usual) > 50 && below(&bare) == 0,
        "{} {}",
        below(&usual),
        below(&bare)
    );
    // The badge in c3's top-left corner.
    let badge = |img: &RgbImage| at(img, &theme, 5, "c3", -0.37, -0.37);
    assert!(close(badge(&usual), theme.badge_fill.0) || close(badge(&usual), theme.badge_text.0));
    let no_heights = with("heights");
    assert!(
        !close(badge(&no_heights), theme.badge_fill.0)
            && !close(badge(&no_heights), theme.badge_text.0)
    );
    // Between a1 and b1 runs White's connector.
    let between = |img: &RgbImage| at(img, &theme, 5, "a1", 0.5, 0.0);
    assert_ne!(between(&usual), between(&with("roads")));
    // Flat counts live in the header only (above the board's frame, 8 px above rank 5).
    let ((_, a5_y), _) = square_geometry(&theme, 5, sq("a5"));
    let (w, header) = (usual.width(), a5_y - (cell / 2.0) as u32 - 9);
    let differs = |a: &RgbImage, b: &RgbImage, y0: u32, y1: u32| {
        (y0..y1).any(|y| (0..w).any(|x| a.get_pixel(x, y) != b.get_pixel(x, y)))
    };
    let no_flats = with("flats");
    assert!(differs(&usual, &no_flats, 0, header));
    assert!(!differs(&usual, &no_flats, header, usual.height()));
}

/// The reserve tray, asked for, adds a strip under the board with each player's piles under
/// their card, and changes nothing above it.
#[test]
fn the_reserve_tray_shows_each_players_pieces_under_the_board() {
    let theme = Theme::default();
    // White has 19 stones left, Black 21 and a capstone (5x5: 21 stones, 1 capstone each).
    let p = Position::from_tps("x5/x5/x2,1,x2/x5/1C,1,x3 2 3").unwrap();
    let usual = render(&scene_for(&p, None), &theme);
    let mut scene = scene_for(&p, None);
    scene.display.tray = true;
    let tray = render(&scene, &theme);
    assert_eq!(tray.width(), usual.width());
    assert_eq!(tray.height(), usual.height() + 64, "k = 1 at 800 px");
    let same_above = (0..usual.height())
        .all(|y| (0..usual.width()).all(|x| tray.get_pixel(x, y) == usual.get_pixel(x, y)));
    assert!(same_above, "the tray only adds");
    let half = tray.width() / 2;
    let strip = (usual.height(), tray.height());
    let white_left = count(&tray, 0, half, strip.0, strip.1, theme.white_fill.0);
    let black_right = count(
        &tray,
        half,
        tray.width(),
        strip.0,
        strip.1,
        theme.black_fill.0,
    );
    assert!(
        white_left > 500 && black_right > 500,
        "{white_left} {black_right}"
    );
    assert_eq!(
        count(
            &tray,
            half,
            tray.width(),
            strip.0,
            strip.1,
            theme.white_fill.0
        ),
        0
    );
}
