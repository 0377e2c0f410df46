//! The daily puzzle's page, `/s/{slug}/puzzle`: today's position (a picture of its own,
//! `/s/{slug}/puzzle/board`, drawn by the same renderer and cached by ETag), whose move, what
//! to find and who solved it; the solution only of the day before's puzzle, whose day is over,
//! shown with its position (`/s/{slug}/puzzle/yesterday/board`).

use super::pages::layout;
use super::site::Web;
use crate::service::{fingerprint, WebDaily, WebPuzzlePage};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use maud::{html, Markup};

pub(super) async fn page(State(web): State<Web>, Path(slug): Path<String>) -> Response {
    let now = web.now_ms();
    let page = web
        .of_server(&slug, move |s, guild| {
            s.web_puzzle_page(guild, now).map(Some)
        })
        .await;
    match page {
        Ok(page) => Html(render(&page, &slug)).into_response(),
        Err(answer) => answer,
    }
}

fn render(page: &WebPuzzlePage, slug: &str) -> String {
    let body = html! {
        nav { a href={ "/s/" (slug) } { "← All games of this server" } }
        h1 { "The daily puzzle" }
        @match (&page.today, page.posting_hour) {
            (Some(today), _) => (today_block(today, page.yesterday.as_ref(), slug)),
            (None, Some(hour)) => p { "Today's puzzle is not posted yet: it comes at "
                (format!("{hour:02}:00")) " UTC." },
            (None, None) => p { "This server has no daily puzzle." },
        }
        @if let (None, Some(yesterday)) = (&page.today, &page.yesterday) { (past_block(yesterday, slug)) }
    };
    layout("Daily puzzle", false, body)
}

/// Today's puzzle: its board, and beside it on a desktop (below it on a phone) who solved it
/// and the day before's.
fn today_block(today: &WebDaily, yesterday: Option<&WebDaily>, slug: &str) -> Markup {
    html! {
        p.meta { (today.date) ": puzzle #" (today.puzzle) " · " (today.board) " · "
            (today.difficulty) }
        p.status { strong { (today.to_move) " to play and win by Tinuë" }
            ": find the ply that forces a road whatever the defence. Solve it privately on \
             Discord with /puzzle daily." }
        div.play {
            figure.board.puzzle {
                img src={ "/s/" (slug) "/puzzle/board" } width="800"
                    alt={ "Puzzle #" (today.puzzle) ": " (today.to_move) " to move" };
            }
            div {
                h2.first { "Solved by" }
                (solvers(today))
                (solution(today))
                @if let Some(yesterday) = yesterday { (past_block(yesterday, slug)) }
            }
        }
    }
}

fn past_block(past: &WebDaily, slug: &str) -> Markup {
    html! {
        h2 { "The day before: puzzle #" (past.puzzle) }
        p.meta { (past.date) " · " (past.board) " · " (past.difficulty) " · "
            (past.to_move) " to play" }
        figure.board.past {
            img src={ "/s/" (slug) "/puzzle/yesterday/board" } width="800"
                alt={ "Puzzle #" (past.puzzle) ": " (past.to_move) " to move" };
        }
        (solution(past))
        h3 { "Solved by" }
        (solvers(past))
    }
}

/// The winning line, which the service gives only for a puzzle whose day is over.
fn solution(daily: &WebDaily) -> Markup {
    html! {
        @match &daily.solution {
            Some(line) => p { "Solution: " code.solution { (line.join(" ")) } },
            None => p.meta { "The solution is shown here when the day is over." },
        }
    }
}

fn solvers(daily: &WebDaily) -> Markup {
    html! {
        @if daily.solvers.is_empty() {
            p { @if daily.solution.is_some() { "Nobody solved it on its day." }
                @else { "Nobody has solved it yet." } }
        } @else {
            ol.solvers { @for (name, took) in &daily.solvers {
                li { bdi { (name) } " (" (took) ")" }
            } }
        }
    }
}

/// Today's puzzle's position as a PNG.
pub(super) async fn picture(
    State(web): State<Web>,
    Path(slug): Path<String>,
    headers: HeaderMap,
) -> Response {
    puzzle_picture(web, slug, headers, false).await
}

/// The day before's puzzle's position as a PNG, so its solution is read beside its board.
pub(super) async fn yesterday_picture(
    State(web): State<Web>,
    Path(slug): Path<String>,
    headers: HeaderMap,
) -> Response {
    puzzle_picture(web, slug, headers, true).await
}

/// A daily puzzle's position as a PNG; its ETag names the puzzle, the theme and what the
/// pictures show, so a new day's puzzle or a new theme is a new picture.
async fn puzzle_picture(web: Web, slug: String, headers: HeaderMap, day_before: bool) -> Response {
    let now = web.now_ms();
    let asked = web
        .of_server(&slug, move |s, guild| {
            s.web_puzzle_picture(guild, now, day_before)
        })
        .await;
    let shown = match asked {
        Ok(shown) => shown,
        Err(answer) => return answer,
    };
    let look = fingerprint(&[shown.theme.clone(), format!("{:?}", shown.display)]);
    let etag = format!("\"puzzle-{}-{look:x}\"", shown.puzzle);
    web.png(etag, "no-cache", &headers, move || {
        let theme = crate::render::Theme::named(&shown.theme).unwrap_or_default();
        Some(
            shown
                .position
                .png(["White", "Black"], &theme, None, shown.display),
        )
    })
    .await
}
