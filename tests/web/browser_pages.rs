//! A player's page and the daily puzzle's page in headless Chromium: the rating chart drawn at
//! a size to read and inside the window, the puzzles' pictures loaded, today's solution nowhere
//! a person can read it, and both pages fitting 1280 px and 400 px (screenshots written for a
//! person to look at).

use crate::browser::{browser, fits, shot};
use crate::players::{key_of, more_games};
use crate::puzzle::posted_and_solved;
use crate::site::*;
use bredon::engine::puzzles::starter_set;
use fantoccini::{Client, Locator};

/// Six plies on 6x6 that end nothing.
const SIX: [&str; 6] = ["a1", "f6", "b2", "e5", "c3", "d4"];

/// alice's games beyond the site's and `more_games`: three rated 6x6 games against carol
/// (won, lost, won: each resigned after six plies, enough to be rated) and one more 5x5 win
/// against bob.
fn alice_plays_on(site: &Site) {
    let (alice, bob, carol) = (user("alice"), user("bob"), user("carol"));
    let s = &site.service;
    for (channel, loser) in [(600, &carol), (601, &alice), (602, &carol)] {
        sized_game(s, OPEN, channel, [&alice, &carol], 6, &SIX);
        s.resign(&ctx(OPEN, channel, loser)).unwrap();
    }
    game(s, OPEN, 603, [&alice, &bob], &LIVE);
    s.resign(&ctx(OPEN, 603, &bob)).unwrap();
}

/// Every rating chart's box on the page, `[left, top, width, height]` in CSS pixels.
async fn charts(c: &Client) -> Vec<[f64; 4]> {
    let boxes = c
        .execute(
            "return [...document.querySelectorAll('svg.chart')].map(s => { \
               const r = s.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; });",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(boxes).unwrap()
}

/// The rendered heights of the charts' labels, in CSS pixels.
async fn label_heights(c: &Client) -> Vec<f64> {
    let script = "return [...document.querySelectorAll('svg.chart text')] \
                  .map(t => t.getBoundingClientRect().height);";
    serde_json::from_value(c.execute(script, vec![]).await.unwrap()).unwrap()
}

/// Asserts every chart is drawn at a size to read and lies inside the window's width.
async fn charts_read(c: &Client) {
    let inner = c.execute("return window.innerWidth;", vec![]).await;
    let width = inner.unwrap().as_f64().unwrap();
    let boxes = charts(c).await;
    assert_eq!(boxes.len(), 2, "a chart for 5x5 and one for 6x6");
    for [left, _, w, h] in boxes {
        assert!(
            left >= 0.0 && left + w <= width,
            "a chart leaves {width} px: {left} + {w}"
        );
        assert!(
            w >= 0.6 * width.min(800.0),
            "a chart {w} px wide at {width} px"
        );
        assert!(
            (100.0..=320.0).contains(&h),
            "a chart {h} px high at {width} px"
        );
    }
    let labels = label_heights(c).await;
    assert_eq!(labels.len(), 8, "two ratings and two dates a chart");
    for h in labels {
        assert!(
            (11.0..=24.0).contains(&h),
            "a label {h} px high at {width} px"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_players_chart_reads_at_a_desktops_width_and_a_phones() {
    let site = Site::start().await;
    more_games(&site.service);
    alice_plays_on(&site);
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    let key = key_of(&site.base, &site.page(""), &site.slug, "alice").await;
    c.set_window_size(1280, 900).await.unwrap();
    c.goto(&site.page(&format!("player/{key}"))).await.unwrap();
    // 5x5: #2, #4, #5 and #9 (five points); 6x6: #6, #7, #8 (four points).
    let dots = c.find_all(Locator::Css("svg.chart circle")).await.unwrap();
    assert_eq!(dots.len(), 9);
    charts_read(c).await;
    let results = c.find_all(Locator::Css("table.results tbody tr")).await;
    assert_eq!(results.unwrap().len(), 7);
    shot(c, 1280, "web-player-1280.png").await;
    shot(c, 400, "web-player-400.png").await;
    charts_read(c).await;
    times_localized(c, 7).await;
    // The server's page too: its games' last plies and deadlines, its results.
    c.goto(&site.page("")).await.unwrap();
    times_localized(c, 3).await;
}

/// Asserts the page shows at least `least` times, each in the reader's own manner with UTC
/// kept in its title (as the server wrote it).
async fn times_localized(c: &Client, least: usize) {
    let script = "return [...document.querySelectorAll('time[data-ms]')] \
                  .map(t => [t.textContent, t.title]);";
    let times: Vec<(String, String)> =
        serde_json::from_value(c.execute(script, vec![]).await.unwrap()).unwrap();
    assert!(times.len() >= least, "{times:?}");
    for (shown, title) in times {
        assert!(title.ends_with(" UTC"), "{title}");
        assert!(!shown.ends_with("UTC") && shown != title, "{shown}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_puzzle_page_shows_its_picture_and_hides_todays_solution_in_the_browser() {
    let site = Site::start().await;
    let (_, today) = posted_and_solved(&site);
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    c.set_window_size(1280, 900).await.unwrap();
    c.goto(&site.page("puzzle")).await.unwrap();
    // Today's board and the day before's, once both have loaded (or failed to).
    let loaded = "const i = [...document.querySelectorAll('figure img')]; \
                  return i.every(i => i.complete) ? i.map(i => i.naturalWidth) : null;";
    let mut widths = serde_json::Value::Null;
    for _ in 0..500 {
        widths = c.execute(loaded, vec![]).await.unwrap();
        if !widths.is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let widths: Vec<u64> = serde_json::from_value(widths).expect("the pictures load");
    assert_eq!(widths.len(), 2, "today's board and the day before's");
    assert!(
        widths.iter().all(|&w| w > 0),
        "a picture is broken: {widths:?}"
    );
    let seen = c
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let line = starter_set()[today as usize - 1].solution.join(" ");
    assert!(!seen.contains(&line), "today's solution {line} shows");
    let past = c.find(Locator::Css("code.solution")).await.unwrap();
    assert!(!past.text().await.unwrap().is_empty(), "the day before's");
    assert!(seen.contains("alice ("), "today's solver: {seen}");
    assert!(
        seen.contains("Nobody solved it on its day."),
        "the day before's is over: {seen}"
    );
    // On a desktop who solved it stands beside the board, on a phone below it.
    let beside = "const b = document.querySelector('figure.puzzle img').getBoundingClientRect(); \
                  const s = document.querySelector('h2.first').getBoundingClientRect(); \
                  return s.left >= b.right && s.top < b.bottom;";
    assert_eq!(
        c.execute(beside, vec![]).await.unwrap(),
        serde_json::json!(true)
    );
    shot(c, 1280, "web-puzzle-1280.png").await;
    shot(c, 400, "web-puzzle-400.png").await;
    let picture = c
        .execute(
            "return document.querySelector('figure.puzzle img').getBoundingClientRect().right;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        picture.as_f64().unwrap() <= 400.0,
        "the picture leaves 400 px"
    );
    assert_eq!(
        c.execute(beside, vec![]).await.unwrap(),
        serde_json::json!(false)
    );
}

/// A game of `plies` plies on 8x8 that ends nothing: each player places a wall, then moves it
/// back and forth.
fn long_game(site: &Site, channel: u64, plies: usize) {
    let (alice, bob) = (user("alice"), user("bob"));
    let mut line = vec!["a1", "h8", "Sc3", "Sf6"];
    let shuttles = [["c3>", "f6<"], ["d3<", "e6>"]];
    while line.len() < plies {
        let pair = shuttles[(line.len() - 4) / 2 % 2];
        line.push(pair[line.len() % 2]);
    }
    sized_game(&site.service, OPEN, channel, [&alice, &bob], 8, &line);
}

/// The top and bottom of `css`'s first match, and the window's height, in CSS pixels.
async fn box_of(c: &Client, css: &str) -> [f64; 3] {
    let script = format!(
        "const r = document.querySelector('{css}').getBoundingClientRect(); \
         return [r.top, r.bottom, window.innerHeight];"
    );
    serde_json::from_value(c.execute(&script, vec![]).await.unwrap()).unwrap()
}

/// A real game's page: at 1280x900 a 127-ply 8x8 game keeps the slider and its buttons in
/// the window, its moves a box beside the board that keeps the current ply in sight; on the
/// narrowest phones (360 and 320 px) the page fits, board and all.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_game_keeps_its_controls_in_sight_and_fits_a_narrow_phone() {
    let site = Site::start().await;
    long_game(&site, 700, 127);
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    for (width, height) in [(1366, 768), (1920, 1080), (1280, 900)] {
        c.set_window_size(width, height).await.unwrap();
        c.goto(&site.page("game/4")).await.unwrap();
        crate::browser::until(c, "return !!document.getElementById('drawn');").await;
        let at = format!("{width}x{height}");
        let [_, bottom, high] = box_of(c, "#ply").await;
        assert!(
            bottom <= high,
            "{at}: the slider ends at {bottom} px of {high}"
        );
        let [_, next_bottom, _] = box_of(c, "#next").await;
        assert!(
            next_bottom <= high,
            "{at}: ▶ ends at {next_bottom} px of {high}"
        );
        let [_, board_bottom, _] = box_of(c, "#drawn").await;
        assert!(
            board_bottom <= high,
            "{at}: the board ends at {board_bottom} px of {high}"
        );
        let [top, bottom, _] = box_of(c, "a[aria-current]").await;
        let [box_top, box_bottom, _] = box_of(c, "section.moves").await;
        assert!(
            top >= box_top && bottom <= box_bottom,
            "{at}: the current ply {top}..{bottom} is in the moves' box {box_top}..{box_bottom}"
        );
        shot(c, width, &format!("web-long-game-{width}.png")).await;
    }
    // 100 plies back, one at a time: each drawn in the page, none asked of the server.
    let asked = crate::browser::requests(c).await;
    for _ in 0..100 {
        crate::browser::press(c, fantoccini::key::Key::Left).await;
    }
    crate::browser::until(
        c,
        "return document.getElementById('drawn').dataset.ply === '27';",
    )
    .await;
    assert_eq!(crate::browser::requests(c).await, asked);
    // Back to the start: the list follows.
    crate::browser::press(c, fantoccini::key::Key::Home).await;
    let [top, bottom, _] = box_of(c, "a[aria-current]").await;
    let [box_top, box_bottom, _] = box_of(c, "section.moves").await;
    assert!(
        top >= box_top && bottom <= box_bottom,
        "the start is in sight"
    );
    for width in [360, 320] {
        shot(c, width, &format!("web-long-game-{width}.png")).await;
        c.goto(&site.page("game/1")).await.unwrap();
        shot(c, width, &format!("web-game-{width}.png")).await;
        c.goto(&site.page("game/4")).await.unwrap();
    }
}

/// Taps square `name` of the drawn board: what the page then says of it.
async fn tap_square(c: &Client, name: &str) -> String {
    let css = format!("[data-square=\"{name}\"]");
    c.find(Locator::Css(&css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let said = "return document.getElementById('square').textContent;";
    let said = c.execute(said, vec![]).await.unwrap();
    said.as_str().unwrap().to_string()
}

/// Under the board, every stack of the shown position bottom up, the pieces that may be
/// carried off it marked, and what is on top; a position without stacks lists none.
#[tokio::test(flavor = "multi_thread")]
async fn the_stacks_of_the_shown_position_are_listed_bottom_up() {
    let site = Site::start().await;
    let (alice, bob) = (user("alice"), user("bob"));
    let options = bredon::service::ChallengeOptions {
        opponent: Some(bob.clone()),
        seat: bredon::store::records::Seat::White,
        size: Some(3),
        ..Default::default()
    };
    site.service
        .challenge(&ctx(OPEN, 779, &alice), &options)
        .unwrap();
    site.service.accept(&ctx(OPEN, 779, &bob)).unwrap();
    // a1 is Black's, c3 White's (the swap); Black walls b3; White's b1 moves onto a1.
    for (who, ply) in [
        (&alice, "a1"),
        (&bob, "c3"),
        (&alice, "b1"),
        (&bob, "Sb3"),
        (&alice, "b1<"),
    ] {
        site.service.play(&ctx(OPEN, 779, who), ply).unwrap();
    }
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    c.set_window_size(400, 900).await.unwrap();
    c.goto(&site.page("game/4")).await.unwrap();
    let listed = "return [...document.querySelectorAll('#stacks li')].map(li => li.textContent);";
    let stacks = c.execute(listed, vec![]).await.unwrap();
    assert_eq!(
        stacks,
        serde_json::json!(["a1 2 ●○, White flat on top"]),
        "one stack: Black's a1 under White's b1"
    );
    let carried = "return document.querySelector('#stacks .carry').textContent;";
    assert_eq!(
        c.execute(carried, vec![]).await.unwrap(),
        "●○",
        "both may be carried on 3x3"
    );
    let legend = "return document.getElementById('stacks-legend').hidden;";
    assert_eq!(c.execute(legend, vec![]).await.unwrap(), false);
    // A tapped square says its whole stack; an empty one says so, even the one the last move
    // left, under the arrow's start (the arrow is drawn under what a tap hits).
    let taps = [
        ("a1", "a1 2 ●○, White flat on top"),
        ("b2", "b2: empty"),
        ("b1", "b1: empty"),
    ];
    for (name, says) in taps {
        assert_eq!(tap_square(c, name).await, says);
    }
    crate::browser::shot(c, 400, "web-stacks-400.png").await;
    // At the start there is none, and no legend.
    crate::browser::press(c, fantoccini::key::Key::Home).await;
    let none = "return document.getElementById('position').value.startsWith('x3/') \
                && document.querySelectorAll('#stacks li').length === 0 \
                && document.getElementById('stacks-legend').hidden;";
    crate::browser::until(c, none).await;
}

/// A real game as the README shows it: Bredon's medium level against its easy one, 59 plies
/// on 6x6 with stacks up to six high, at 1280 and 360 px, its tallest stack tapped.
#[tokio::test(flavor = "multi_thread")]
async fn a_real_game_reads_on_a_desktop_and_a_phone() {
    let site = Site::start().await;
    let record = include_str!("../data/medium-vs-easy-6x6.ptn");
    let plies: Vec<&str> = record
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()))
        .flat_map(|line| line.split_whitespace().skip(1))
        .map(|ply| ply.trim_end_matches(['\'', '!', '?']))
        .collect();
    assert_eq!(plies.len(), 59);
    let (alice, bob) = (user("alice"), user("bob"));
    sized_game(&site.service, OPEN, 701, [&alice, &bob], 6, &plies);
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    for width in [1280, 360] {
        c.set_window_size(width, 900).await.unwrap();
        c.goto(&site.page("game/4?ply=52")).await.unwrap();
        crate::browser::until(
            c,
            "return document.querySelectorAll('#stacks li').length > 0;",
        )
        .await;
        // Each stack's line starts with its square and its height.
        let tallest = "return [...document.querySelectorAll('#stacks li')] \
                       .map(li => li.textContent.split(' ')) \
                       .sort((a, b) => Number(b[1]) - Number(a[1]))[0].slice(0, 2);";
        let [square, height]: [String; 2] =
            serde_json::from_value(c.execute(tallest, vec![]).await.unwrap()).unwrap();
        let said = tap_square(c, &square).await;
        assert!(said.starts_with(&format!("{square} {height} ")), "{said}");
        shot(c, width, &format!("web-real-game-{width}.png")).await;
    }
}

/// Every kind of page fits the narrowest phones: nothing scrolls sideways at 320, 360 or 400
/// px (the server's, a game being played, a finished one with its analysis, a long one, a
/// player's, a tournament's, the daily puzzle's, the 404, the home page).
#[tokio::test(flavor = "multi_thread")]
async fn every_kind_of_page_fits_a_narrow_phone() {
    let site = Site::start().await;
    more_games(&site.service);
    long_game(&site, 700, 127);
    posted_and_solved(&site);
    let tournament = crate::tournament_page::started(&site, OPEN, HOSTILE);
    crate::game_extras::analysed(&site);
    let key = key_of(&site.base, &site.page(""), &site.slug, "alice").await;
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    let pages = [
        site.page(""),
        site.page("game/1"),
        site.page("game/2"),
        site.page("game/4?ply=64"),
        site.page(&format!("player/{key}")),
        site.page(&format!("tournament/{tournament}")),
        site.page("puzzle"),
        site.page("no-such-page"),
        format!("{}/", site.base),
    ];
    for width in [320, 360, 400] {
        c.set_window_size(width, 900).await.unwrap();
        for page in &pages {
            c.goto(page).await.unwrap();
            // Once the scripts ran (a game's board drawn in place of its picture).
            crate::browser::until(c, "return document.readyState === 'complete';").await;
            assert!(fits(c).await, "{page} scrolls sideways at {width} px");
        }
    }
}
