//! What a game's page adds to its plies: how long each ply took, the ratings a rated game
//! moved, and the newest `/analyze` of a finished game (marks, comments and its chart).

use crate::browser::{browser, fits, screenshot_path};
use crate::http::get;
use crate::site::*;
use bredon::engine::Limits;
use bredon::service::analysis::{analyze_ptn, Report};
use bredon::service::{ChallengeOptions, Ctx};
use bredon::store::records::Seat;

const MINUTE: i64 = 60_000;

/// The page of game `number` of the open server, as text.
async fn page(site: &Site, number: u64) -> String {
    let answer = get(&site.base, &format!("/s/{}/game/{number}", site.slug)).await;
    assert_eq!(answer.status, 200);
    answer.text()
}

/// `Ratings: alice 1500 → 1516 (+16); bob ...` read back: (before, after, change) per player.
fn ratings(page: &str) -> Vec<(f64, f64, f64)> {
    let line = page.split("Ratings: ").nth(1).expect("a ratings line");
    let line = &line[..line.find("</p>").unwrap()];
    let numbers = regex::Regex::new(r"(\d+) → (\d+) \(([+-]\d+)\)").unwrap();
    numbers
        .captures_iter(line)
        .map(|c| {
            (
                c[1].parse().unwrap(),
                c[2].parse().unwrap(),
                c[3].parse().unwrap(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn each_ply_says_how_long_it_took_and_a_rated_game_the_ratings_it_moved() {
    let site = Site::start().await;
    let (alice, bob) = (user("alice"), user("bob"));
    let at = |who, ms| Ctx {
        now_ms: ms,
        ..ctx(OPEN, 400, who)
    };
    let start = 1_700_000_000_000;
    let options = ChallengeOptions {
        opponent: Some(bob.clone()),
        seat: Seat::White,
        size: Some(5),
        rated: true,
        ..ChallengeOptions::default()
    };
    site.service
        .challenge(&at(&alice, start), &options)
        .unwrap();
    site.service.accept(&at(&bob, start)).unwrap();
    // Each ply after a wait of its own: seconds, minutes, hours, days.
    let waits = [30_000, 12 * MINUTE, 5 * 60 * MINUTE, 2 * 24 * 60 * MINUTE];
    let mut now = start;
    for (i, ply) in ROAD.iter().enumerate() {
        now += waits[i % waits.len()];
        let who = if i % 2 == 0 { &alice } else { &bob };
        site.service.play(&at(who, now), ply).unwrap();
    }
    let shown = page(&site, 4).await;
    let took =
        regex::Regex::new(r#"<span class="took" title="Time taken">([^<]+)</span>"#).unwrap();
    let times: Vec<&str> = took
        .captures_iter(&shown)
        .map(|c| c.get(1).unwrap().as_str())
        .collect();
    let expected: Vec<&str> = (0..ROAD.len())
        .map(|i| ["&lt;1 min", "12 min", "5 h", "2 d"][i % 4])
        .collect();
    assert_eq!(times, expected);

    // Game #2 (alice's road on this server too) came first: its ratings after are game #4's
    // before, and each line adds up.
    let first = ratings(&page(&site, 2).await);
    let second = ratings(&page(&site, 4).await);
    assert_eq!(first.len(), 2);
    assert_eq!(second.len(), 2);
    for (before, after, change) in first.iter().chain(&second) {
        assert!(
            (before + change - after).abs() <= 1.0,
            "{before} {change} {after}"
        );
        assert!(*change != 0.0);
    }
    assert_eq!(second[0].0, first[0].1, "alice's rating before #4");
    assert_eq!(second[1].0, first[1].1, "bob's rating before #4");
    // A game being played shows no ratings yet.
    assert!(!page(&site, 1).await.contains("Ratings: "));
}

/// Game #2 of the open server (alice's road) analysed, as `/analyze` keeps it.
pub fn analysed(site: &Site) -> Report {
    let here = ctx(OPEN, 200 + OPEN, &user("alice"));
    let found = site.service.finished_record(&here, None).unwrap();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let theme = bredon::render::Theme::default();
    let report = analyze_ptn(&found.record, &limits, &theme, |_, _| {}).unwrap();
    assert!(!report.marked.is_empty(), "black let the road through");
    // Only this server's games keep an analysis.
    let elsewhere = ctx(CLOSED, 200 + OPEN, &user("alice"));
    assert!(site
        .service
        .keep_analysis(&elsewhere, found.game, &report)
        .is_err());
    site.service
        .keep_analysis(&here, found.game, &report)
        .unwrap();
    report
}

#[tokio::test(flavor = "multi_thread")]
async fn an_analysed_game_shows_its_marks_comments_and_chart() {
    let site = Site::start().await;
    let chart = format!("/s/{}/game/2/chart", site.slug);
    assert!(!page(&site, 2).await.contains("<h2>Analysis</h2>"));
    assert_eq!(get(&site.base, &chart).await.status, 404);
    let report = analysed(&site);
    let shown = page(&site, 2).await;
    assert!(shown.contains("<h2>Analysis</h2>"), "{shown}");
    assert!(shown.contains(&format!("By <bdi>{}</bdi>", report.annotator)));
    for (i, judged) in report.analysis.plies.iter().enumerate() {
        let ply = ROAD[i];
        if let Some(mark) = judged.mark {
            // In the move list, and in the analysis's list with its comment.
            let marked = format!("{ply}{}</a>", mark.ptn());
            assert_eq!(shown.matches(&marked).count(), 2, "{marked}");
        }
        if let Some(comment) = &judged.comment {
            let escaped = comment
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            assert!(shown.contains(&escaped), "{comment}");
        }
    }
    let picture = get(&site.base, &chart).await;
    assert_eq!(picture.status, 200);
    assert_eq!(picture.header("content-type").as_deref(), Some("image/png"));
    assert_eq!(picture.body, report.chart, "the chart /analyze posted");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_analysis_reads_in_a_browser_on_a_desktop_and_a_phone() {
    let site = Site::start().await;
    analysed(&site);
    let Some(browser) = browser().await else {
        return;
    };
    let c = &browser.client;
    // The chart once loaded: its drawn width, and the window's.
    let chart = "const i = document.querySelector('img.chart'); \
                 return i.complete && i.naturalWidth > 0 \
                   ? [i.getBoundingClientRect().width, window.innerWidth] : null;";
    for (width, name) in [
        (1280, "web-game-analysis-1280.png"),
        (400, "web-game-analysis-400.png"),
    ] {
        c.set_window_size(width, 1600).await.unwrap();
        c.goto(&site.page("game/2")).await.unwrap();
        let mut drawn = serde_json::Value::Null;
        for _ in 0..500 {
            drawn = c.execute(chart, vec![]).await.unwrap();
            if !drawn.is_null() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let [shown, window] = [0, 1].map(|i| drawn[i].as_f64().expect("the chart loads"));
        assert!(
            shown >= 0.8 * window.min(800.0) && shown <= window,
            "{shown} of {window}"
        );
        assert!(fits(c).await, "nothing to scroll sideways at {width} px");
        std::fs::write(screenshot_path(name), c.screenshot().await.unwrap()).unwrap();
    }
    // A commented ply steps the board in the page: no reload (a mark left on the window stays).
    let (ply, link) = {
        let first = c
            .find(fantoccini::Locator::Css("ul.judged a[data-ply]"))
            .await
            .unwrap();
        (first.attr("data-ply").await.unwrap().unwrap(), first)
    };
    c.execute("window.stayed = true;", vec![]).await.unwrap();
    link.click().await.unwrap();
    let stepped = |ply: &str| {
        format!(
            "return window.stayed === true && document.getElementById('ply').value === '{ply}' \
             && document.getElementById('drawn').dataset.ply === '{ply}' \
             && location.search === '?ply={ply}';"
        )
    };
    crate::browser::until(c, &stepped(&ply)).await;
    // A click on the chart steps the board to the ply under the click (WebDriver clicks an
    // element's middle): where the plot puts it.
    let (left, right) = bredon::render::chart::PLOT_X;
    let under = ((0.5 - left) / (right - left) * ROAD.len() as f32).round();
    assert_ne!(
        under.to_string(),
        ply,
        "the click must step the board elsewhere"
    );
    c.find(fantoccini::Locator::Css("img.chart"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    crate::browser::until(c, &stepped(&under.to_string())).await;
}
