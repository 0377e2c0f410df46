//! Takat's pictures: the winning stack ringed, arrows between circles, red circles, each
//! stack's order of colours.

use super::pictures::assert_each_reads_at_preview;
use bredon::render::hex::{circle_geometry, render_takat, takat_texts, TakatScene};
use bredon::render::Theme;
use bredon::takat::{Ending, Position};

fn close(a: image::Rgb<u8>, b: image::Rgb<u8>) -> bool {
    a.0.iter().zip(b.0).all(|(x, y)| x.abs_diff(y) <= 24)
}

#[test]
fn the_winning_stack_is_ringed_the_arrow_lies_between_circles_and_red_circles_show() {
    let theme = Theme::named("dark").unwrap();
    let p = Position::from_text("x,x/111121,221,x/x,x 2 b1 6").unwrap();
    let scene = TakatScene {
        position: &p,
        last: Some(p.parse_ply("b2-b1").unwrap()),
        players: ["Ann", "Bo"],
        result: p.end(),
        notes: Vec::new(),
        clock: None,
    };
    assert_eq!(scene.result, Some(Ending::Sixes { count: 1 }));
    let img = render_takat(&scene, &theme);
    let cell = |name: &str| p.board().cell(name).unwrap();
    let ((x, y), r) = circle_geometry(&theme, &p, cell("b1"));
    // The ring at the lower left, clear of the height's badge (right) and a lock (left).
    let ring = *img.get_pixel((x - r * 0.66) as u32, (y + r * 0.66) as u32);
    assert!(
        close(ring, theme.result_fill.0),
        "b1 ringed in green: {ring:?}"
    );
    // The arrow from b2 down to b1 crosses the gap between the two circles.
    let ((_, y2), _) = circle_geometry(&theme, &p, cell("b2"));
    let gap = *img.get_pixel(x as u32, ((y + y2) / 2.0) as u32);
    assert!(close(gap, theme.arrow.0), "arrow in the gap: {gap:?}");
    // The top slab of b1 (the White piece that made six) is drawn, not covered.
    let total = 6.0 * 0.19 + 5.0 * 0.035;
    let top = y + r * (total / 2.0 - 0.04) - r * (0.095 + 5.0 * 0.225);
    let slab = *img.get_pixel(x as u32, top as u32);
    assert!(close(slab, theme.white_fill.0), "top slab: {slab:?}");
    let ((ax, ay), ar) = circle_geometry(&theme, &p, cell("a1"));
    let red = *img.get_pixel((ax - ar * 0.96) as u32, ay as u32);
    assert!(close(red, theme.tak_fill.0), "a1 is a red circle: {red:?}");
    let ((bx, by), br) = circle_geometry(&theme, &p, cell("a2"));
    let plain = *img.get_pixel((bx - br * 0.96) as u32, by as u32);
    assert!(!close(plain, theme.tak_fill.0), "a2 is not red: {plain:?}");
}

#[test]
fn every_stack_shows_its_order_of_colours() {
    let theme = Theme::named("dark").unwrap();
    // b2 holds White, Black, White, Black from the bottom.
    let p = Position::from_text("x,x/x,1212,x/x,x 1 - 3").unwrap();
    let scene = TakatScene {
        position: &p,
        last: None,
        players: ["Ann", "Bo"],
        result: None,
        notes: Vec::new(),
        clock: None,
    };
    let img = render_takat(&scene, &theme);
    let ((x, y), r) = circle_geometry(&theme, &p, p.board().centre);
    // Slabs are 0.19 r high with 0.035 r gaps, centred (0.04 r up) on the circle.
    let total = 4.0 * 0.19 + 3.0 * 0.035;
    let bottom = y + r * (total / 2.0 - 0.04);
    let colours: Vec<bool> = (0..4)
        .map(|i| {
            let cy = bottom - r * (0.095 + i as f32 * 0.225);
            let px = *img.get_pixel(x as u32, cy as u32);
            assert!(
                close(px, theme.white_fill.0) || close(px, theme.black_fill.0),
                "slab {i} is a piece: {px:?}"
            );
            close(px, theme.white_fill.0)
        })
        .collect();
    assert_eq!(colours, [true, false, true, false]);
}

/// Every text of a Takat picture, on either board and in every theme, is at least
/// `SMALLEST_PREVIEW_TEXT` tall where Discord shows the picture 400 px wide: the cards, the
/// status row (the result, or the move, the clock and a threat), the circles' names, the
/// stacks' heights and the legend.
#[test]
fn every_text_of_a_takat_picture_reads_at_discords_preview() {
    for name in Theme::names() {
        let theme = Theme::named(name).unwrap();
        // Each board with its tallest stack's height, on the stack's badge.
        for (text, tallest) in [
            ("x,x/111121,221,x/x,x 2 b1 6", "6"),
            ("x,x,x/12,x,x,x/x,x,x,x,x/x,x,21212,x/x,x,1 2 e3 8", "5"),
        ] {
            let p = Position::from_text(text).unwrap();
            let scene = TakatScene {
                position: &p,
                last: None,
                players: ["Ann", "Bo"],
                result: p.end(),
                notes: vec!["White threatens a stack of six".into()],
                clock: Some("2 days".into()),
            };
            let lines = takat_texts(&scene, &theme);
            let status = match scene.result {
                Some(_) => "1-0",
                None => "2 days left",
            };
            for kind in ["Ann", "to enter", status, "a1", tallest, "owner moves it"] {
                assert!(
                    lines.iter().any(|l| l.text.starts_with(kind)),
                    "{name} {text}: no {kind:?} in {lines:?}"
                );
            }
            assert_each_reads_at_preview(&lines, &theme, &format!("{name} {text}"));
        }
    }
}
