//! The daily puzzle's page over plain HTTP: today's puzzle with who solved it and never its
//! solution while its day runs (not in the page, its picture or the server's page), the day
//! before's with its solution and its board, and no private puzzle.

use crate::http::{get, words};
use crate::site::*;
use bredon::engine::puzzles::{starter_set, winning_line};
use bredon::game::Match;
use bredon::service::{Outcome, PuzzleChoice};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

/// The first ply of the line Bredon's hints give on the board an outcome shows: a ply the
/// puzzle always takes as solving it.
fn winning_ply(outcome: &Outcome) -> String {
    let board = outcome.board.as_ref().expect("a board");
    let Ok(Match::Tak(game)) = Match::from_record(&board.record) else {
        panic!("no Tak board in {outcome:?}");
    };
    let line = winning_line(game.position()).expect("Bredon's hint line");
    game.position().ptn(line[0])
}

/// The number after `Puzzle #` or `puzzle #` in `text`.
fn number_after(text: &str, marker: &str) -> u32 {
    text.split(marker)
        .nth(1)
        .and_then(|t| {
            t.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {marker} in {text}"))
}

/// The open server's daily puzzles of yesterday and today posted, and today's solved by alice
/// privately; the time it is now on the site's clock and today's puzzle. The day starts 12
/// hours from the hour now, so none ends while a test runs.
pub fn posted_and_solved(site: &Site) -> (i64, u32) {
    let s = &site.service;
    let now = site.clock.now_ms();
    let hour = ((now / HOUR + 12) % 24) as u32;
    let mut moderator = ctx(OPEN, 1, &user("mod"));
    moderator.now_ms = now - 3 * DAY;
    s.set_puzzle_channel(&moderator, Some(900), Some(hour), false)
        .unwrap();
    let posted = |events: Vec<bredon::service::TimerEvent>| {
        events.iter().filter(|e| e.channel == 900).count()
    };
    assert_eq!(posted(s.tick(now - DAY).unwrap()), 1, "yesterday's");
    assert_eq!(posted(s.tick(now).unwrap()), 1, "today's");
    let mut alice = ctx(OPEN, 1, &user("alice"));
    alice.now_ms = now;
    let mut shown = s.start_daily_puzzle(&alice).unwrap();
    let today = number_after(&shown.text, "Puzzle #");
    for _ in 0..40 {
        shown = s.play(&alice, &winning_ply(&shown)).unwrap();
        if shown.text.contains(" solved in ") {
            break;
        }
    }
    assert!(shown.text.contains(" solved in "), "{}", shown.text);
    (now, today)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_daily_puzzle_page_never_shows_the_solution_while_its_day_runs() {
    let site = Site::start().await;
    let s = &site.service;
    let page = format!("/s/{}/puzzle", site.slug);
    let none = get(&site.base, &page).await;
    assert_eq!(none.status, 200);
    assert!(none.text().contains("This server has no daily puzzle."));
    for picture in ["board", "yesterday/board"] {
        let none = get(&site.base, &format!("{page}/{picture}")).await;
        assert_eq!(none.status, 404, "{picture}");
    }
    let (now, today) = posted_and_solved(&site);
    // bob starts a private puzzle of his own.
    let html = get(&site.base, &page).await.text();
    let yesterday = number_after(&html, "The day before: puzzle #");
    let private = (1..).find(|n| ![today, yesterday].contains(n)).unwrap();
    let mut bob = ctx(OPEN, 2, &user("bob"));
    bob.now_ms = now;
    let choice = PuzzleChoice {
        id: Some(private),
        ..PuzzleChoice::default()
    };
    s.start_puzzle(&bob, choice, true).unwrap();

    let html = words(&get(&site.base, &page).await.text());
    let (today_part, past_part) = html.split_once("The day before").unwrap();
    assert!(
        today_part.contains(&format!("puzzle #{today} ")),
        "{today_part}"
    );
    assert!(
        today_part.contains("Solved by alice ("),
        "the solver is named"
    );
    assert!(
        !html.contains(&format!("#{private} ")),
        "the private puzzle #{private} shows"
    );
    // Today's solution: not its line, nor any winning first ply as a word of the page.
    let puzzle = &starter_set()[today as usize - 1];
    let today_words: Vec<&str> = today_part.split_whitespace().collect();
    for ply in puzzle.first_plies.iter().chain(&puzzle.solution) {
        assert!(
            !today_words.contains(&ply.as_str()),
            "today's page shows {ply}"
        );
    }
    let line = puzzle.solution.join(" ");
    let server = get(&site.base, &format!("/s/{}", site.slug)).await.text();
    let picture = get(&site.base, &format!("{page}/board")).await;
    assert_eq!(picture.header("content-type").as_deref(), Some("image/png"));
    for answer in [today_part, &words(&server), &picture.text()] {
        assert!(!answer.contains(&line), "today's solution {line} shows");
    }
    // The day before's is over: its solution shows, beside its own board.
    let past = &starter_set()[yesterday as usize - 1];
    assert!(past_part.contains(&past.solution.join(" ")), "{past_part}");
    let past_picture = get(&site.base, &format!("{page}/yesterday/board")).await;
    assert_eq!(past_picture.status, 200);
    assert_eq!(
        past_picture.header("content-type").as_deref(),
        Some("image/png")
    );
    assert_ne!(
        past_picture.body, picture.body,
        "the day before's is another board"
    );
    assert!(past_picture
        .header("etag")
        .unwrap()
        .contains(&format!("puzzle-{yesterday}-")));
    // When today is over, its solution shows as the day before's.
    let tomorrow = s.web_puzzle_page(OPEN, now + DAY).unwrap();
    let over = tomorrow.yesterday.expect("today's, as the day before's");
    assert_eq!(over.puzzle, today);
    assert_eq!(over.solution.as_ref(), Some(&puzzle.solution));
    assert!(tomorrow.today.is_none(), "not posted yet");
}
