//! The addresses and their handlers: a server's page, a game's page, a ply's picture (PNG,
//! cached by ETag), a game's record, and the style sheet and scripts as files of their own.
//! Addresses go by a server's random slug and its game numbers; anything that does not name a
//! page of a server with its pages on is the same 404.

use super::pages;
use super::site::Web;
use super::tournament_page;
use crate::service::{fingerprint, WebGame};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;

const STYLE: &str = include_str!("../../assets/web/style.css");
const SCRIPT: &str = include_str!("../../assets/web/game.js");
const BOARD: &str = include_str!("../../assets/web/board.js");
const TIMES: &str = include_str!("../../assets/web/times.js");

pub(super) fn routes() -> Router<Web> {
    Router::new()
        .route("/", get(home))
        .route("/static/style.css", get(style))
        .route("/static/game.js", get(script))
        .route("/static/times.js", get(times))
        .route("/static/board.js", get(board_script))
        .route("/s/{slug}", get(server))
        .route("/s/{slug}/game/{number}", get(game))
        .route("/s/{slug}/game/{number}/ptn", get(record))
        .route("/s/{slug}/game/{number}/board/{ply}", get(picture))
        .route("/s/{slug}/game/{number}/position/{ply}", get(position))
        .route("/s/{slug}/game/{number}/ptn/{ply}", get(record_until))
        .route("/s/{slug}/game/{number}/chart", get(chart))
        .route("/s/{slug}/tournament/{id}", get(tournament_page::page))
        .route("/s/{slug}/player/{key}", get(super::player_page::page))
        .route("/s/{slug}/puzzle", get(super::puzzle_page::page))
        .route("/s/{slug}/puzzle/board", get(super::puzzle_page::picture))
        .route(
            "/s/{slug}/puzzle/yesterday/board",
            get(super::puzzle_page::yesterday_picture),
        )
        .fallback(not_found)
}

/// The fallback: the same 404 as every page that is not there.
pub(super) async fn not_found() -> Response {
    super::site::not_found()
}

async fn home() -> Response {
    Html(pages::home()).into_response()
}

async fn style() -> Response {
    static_file("text/css; charset=utf-8", STYLE)
}

async fn script() -> Response {
    static_file("text/javascript; charset=utf-8", SCRIPT)
}

async fn board_script() -> Response {
    static_file("text/javascript; charset=utf-8", BOARD)
}

async fn times() -> Response {
    static_file("text/javascript; charset=utf-8", TIMES)
}

fn static_file(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

async fn server(State(web): State<Web>, Path(slug): Path<String>) -> Response {
    let page = web
        .of_server(&slug, |s, guild| s.web_server_page(guild).map(Some))
        .await;
    match page {
        Ok(page) => Html(pages::server(&page, &slug, web.now_ms())).into_response(),
        Err(answer) => answer,
    }
}

async fn game(
    State(web): State<Web>,
    Path((slug, number)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Response {
    match web.game(&slug, &number).await {
        Ok(game) => {
            let ply =
                asked_ply(query.as_deref()).map_or(game.plies.len(), |p| p.min(game.plies.len()));
            let view = pages::View {
                ply,
                flipped: asked_flip(query.as_deref()),
            };
            Html(pages::game(&game, &slug, view, web.now_ms())).into_response()
        }
        Err(answer) => answer,
    }
}

/// `ply=N` in a query string, if it is there and a number; anything else is ignored.
fn asked_ply(query: Option<&str>) -> Option<usize> {
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("ply="))
        .and_then(|n| n.parse().ok())
}

/// `flip=1` in a query string: the board seen from Black's side.
fn asked_flip(query: Option<&str>) -> bool {
    query.is_some_and(|q| q.split('&').any(|pair| pair == "flip=1"))
}

async fn record(State(web): State<Web>, Path((slug, number)): Path<(String, String)>) -> Response {
    match web.game(&slug, &number).await {
        Ok(game) => {
            let name = format!("bredon-{}-{}", game.number, game.file);
            (
                [
                    (
                        header::CONTENT_TYPE,
                        "text/plain; charset=utf-8".to_string(),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"{name}\""),
                    ),
                ],
                game.record,
            )
                .into_response()
        }
        Err(answer) => answer,
    }
}

/// The ply a picture's or a position's address asks for, if the game has that many and shows
/// its board (not a blind game being played).
fn shown_ply(game: &WebGame, ply: &str) -> Option<usize> {
    ply.parse::<usize>()
        .ok()
        .filter(|&p| game.pictures && p <= game.plies.len())
}

/// How long a ply's picture or position may be kept: a finished game's never change.
fn caching(game: &WebGame) -> &'static str {
    match game.result {
        Some(_) => "public, max-age=86400",
        None => "no-cache",
    }
}

/// The position after `ply` plies as its notation writes it (TPS for Tak), as text: what the
/// game page's copy button copies. None for a blind game being played, as its pictures.
async fn position(
    State(web): State<Web>,
    Path((slug, number, ply)): Path<(String, String, String)>,
) -> Response {
    text_at(&web, &slug, &number, &ply, |game, ply| {
        game.at(ply).map(|shown| shown.position_text())
    })
    .await
}

/// A Tak game's record up to `ply` plies, as text to copy (none for a blind game being played).
async fn record_until(
    State(web): State<Web>,
    Path((slug, number, ply)): Path<(String, String, String)>,
) -> Response {
    text_at(&web, &slug, &number, &ply, WebGame::record_until).await
}

/// What `text` writes of game `number` at the ply its address asks for, as plain text cached
/// as the game's pictures are; the one 404 if the game or the ply is not shown, or `text`
/// writes nothing.
async fn text_at(
    web: &Web,
    slug: &str,
    number: &str,
    ply: &str,
    text: impl FnOnce(&WebGame, usize) -> Option<String>,
) -> Response {
    let game = match web.game(slug, number).await {
        Ok(game) => game,
        Err(answer) => return answer,
    };
    let Some(written) = shown_ply(&game, ply).and_then(|ply| text(&game, ply)) else {
        return not_found().await;
    };
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, caching(&game)),
        ],
        written,
    )
        .into_response()
}

/// The board after `ply` plies, drawn by the same renderer as Discord's. Its ETag names the
/// game and the plies up to it, so a ply taken back and played otherwise is a new picture.
async fn picture(
    State(web): State<Web>,
    Path((slug, number, ply)): Path<(String, String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let flipped = asked_flip(query.as_deref());
    let game = match web.game(&slug, &number).await {
        Ok(game) => game,
        Err(answer) => return answer,
    };
    let Some(ply) = shown_ply(&game, &ply) else {
        return not_found().await;
    };
    let etag = format!(
        "\"{:x}-{ply}-{:x}{}\"",
        game.id,
        fingerprint(&game.plies[..ply]),
        if flipped { "-flipped" } else { "" }
    );
    web.png(etag, caching(&game), &headers, move || {
        let shown = game.at(ply)?;
        let theme = crate::render::Theme::named(&game.theme).unwrap_or_default();
        let names = [game.players[0].as_str(), game.players[1].as_str()];
        let display = crate::render::Display {
            flipped,
            ..game.display
        };
        Some(shown.png(names, &theme, None, display))
    })
    .await
}

/// The evaluation chart of the game's newest analysis, as `/analyze` posted it. Its ETag names
/// the analysis, so a game analysed again is a new picture.
async fn chart(
    State(web): State<Web>,
    Path((slug, number)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let game = match web.game(&slug, &number).await {
        Ok(game) => game,
        Err(answer) => return answer,
    };
    let Some(analysis) = &game.analysis else {
        return not_found().await;
    };
    let etag = format!("\"{:x}-chart-{:x}\"", game.id, analysis.made_ms);
    web.png(etag, "no-cache", &headers, move || game.analysis_chart())
        .await
}
