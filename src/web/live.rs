//! New plies on an open game page, as server-sent events: the game is read again every
//! second while the page is open (the store may be another process's, so there is nothing to
//! wait on), and its plies are sent whenever they differ from what the page shows. A finished
//! game sends its last plies and ends the stream; a page of a finished game gets 204, which
//! tells the browser not to ask again.

use super::connections::LIVE_PAGES_PER_ADDRESS;
use super::pages::{isolate, isolated, when};
use super::site::Web;
use crate::service::{fingerprint, WebGame};
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

/// How often an open page's game is read again.
const EVERY: Duration = Duration::from_secs(1);

/// What a page is told: every ply, the status line, and whether the game has ended.
#[derive(serde::Serialize)]
struct Plies<'a> {
    plies: &'a [String],
    /// How long each ply took, where that is known (as the page's list says it).
    took: Vec<Option<String>>,
    status: String,
    finished: bool,
}

/// The status line as text, as the page first showed it (names isolated): whose move it is,
/// since when and until when, or how the game ended.
fn status(game: &WebGame) -> String {
    match (&game.result, &game.to_move) {
        (Some((sentence, code)), _) => format!("{code} {}", isolated(sentence, &game.players)),
        (None, Some(to_move)) => {
            let deadline = game
                .deadline_ms
                .map(|d| format!("; loses on time at {}", when(d)))
                .unwrap_or_default();
            let since = when(game.last_ply_ms);
            format!("{} to move, since {since}{deadline}.", isolate(to_move))
        }
        (None, None) => String::new(),
    }
}

/// Where a page stands: how many plies, and which.
fn position(plies: &[String]) -> (usize, u64) {
    (plies.len(), fingerprint(plies))
}

/// `plies=N` in the query: the plies the page shows (else its whole game is sent at once).
fn shown(query: Option<&str>) -> Option<usize> {
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("plies="))
        .and_then(|n| n.parse().ok())
}

pub(super) async fn events(
    State(web): State<Web>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path((slug, number)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Response {
    let Some(place) = web.streams.take(peer.ip()) else {
        let why = format!(
            "Too many live pages are open from your address (at most {LIVE_PAGES_PER_ADDRESS}): \
             close some, or reload this one later.\n"
        );
        return (StatusCode::TOO_MANY_REQUESTS, why).into_response();
    };
    let game = match web.game(&slug, &number).await {
        Ok(game) => game,
        Err(answer) => return answer,
    };
    if game.result.is_some() || !game.pictures {
        return StatusCode::NO_CONTENT.into_response();
    }
    // The page was drawn with the first `shown` plies of this game (as far as it knows).
    let seen = shown(query.as_deref())
        .filter(|&n| n <= game.plies.len())
        .map(|n| position(&game.plies[..n]));
    let stream = futures_util::stream::unfold(
        (web, slug, number, seen, false, place),
        |(web, slug, number, seen, ended, place)| async move {
            if ended {
                return None;
            }
            loop {
                let game = match web.game(&slug, &number).await {
                    Ok(game) => game,
                    Err(_) => return None,
                };
                let now = position(&game.plies);
                if Some(now) != seen || game.result.is_some() {
                    let finished = game.result.is_some();
                    let plies = Plies {
                        plies: &game.plies,
                        took: (0..game.plies.len())
                            .map(|i| super::pages::took(&game, i))
                            .collect(),
                        status: status(&game),
                        finished,
                    };
                    let data = serde_json::to_string(&plies).unwrap_or_default();
                    let event = Event::default().event("plies").data(data);
                    return Some((
                        Ok::<Event, Infallible>(event),
                        (web, slug, number, Some(now), finished, place),
                    ));
                }
                tokio::time::sleep(EVERY).await;
            }
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}
