//! New plies on an open game page, as server-sent events: the game is read again (directly
//! from its channel) whenever this process made a change there durable (the service's
//! `changes`, a broadcast of changed channels), and every second besides
//! when the store is shared with other processes (PostgreSQL: their changes wake nothing
//! here), and its plies are sent whenever they differ from what the page shows. A finished
//! game sends its last plies and ends the stream; a page of a finished game gets 204, which
//! tells the browser not to ask again.

use super::connections::LIVE_PAGES_PER_ADDRESS;
use super::pages::{isolate, isolated, when};
use super::site::Web;
use super::viewer::Viewer;
use crate::service::{fingerprint, WebGame};
use axum::extract::{ConnectInfo, Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// How often an open page's game is read again when other processes may change it (a store
/// shared on PostgreSQL); otherwise a page reads its game only when this process changed
/// something, and this often besides as a safety net.
const EVERY_SHARED: Duration = Duration::from_secs(1);
const EVERY_ALONE: Duration = Duration::from_secs(30);

/// What a page is told: every ply, the status line, and whether the game has ended.
#[derive(serde::Serialize)]
struct Plies<'a> {
    plies: &'a [String],
    /// How long each ply took, where that is known (as the page's list says it).
    took: Vec<Option<String>>,
    status: String,
    /// While the game is played, the status's parts, for the page to show times in the
    /// reader's own time: whose move, since when, until when.
    to_move: Option<&'a str>,
    since_ms: i64,
    deadline_ms: Option<i64>,
    finished: bool,
    /// Every position, for the page to draw the new plies itself.
    viewer: Option<Viewer>,
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

/// An open live page: its game, what it shows, and how it learns of changes.
struct Watch {
    web: Web,
    slug: String,
    number: u64,
    /// Where the game is played: only a change there wakes the page.
    channel: u64,
    /// Where the page stands, as far as it knows.
    seen: Option<(usize, u64)>,
    /// The game ended: its last event was sent.
    ended: bool,
    /// Its address's place among the live pages (given back when the page closes).
    _place: super::connections::Place,
    changes: tokio::sync::broadcast::Receiver<u64>,
    poll: Duration,
}

impl Watch {
    /// Until this process changes the game's channel (or changed so much that the page lost
    /// count), or `poll` passed (a change another process sharing the store made is seen only
    /// by reading again).
    async fn next_change(&mut self) {
        let ours = async {
            loop {
                match self.changes.recv().await {
                    Ok(channel) if channel != self.channel => continue,
                    Ok(_) | Err(RecvError::Lagged(_)) => return,
                    // The service is gone: only the timer is left.
                    Err(RecvError::Closed) => std::future::pending::<()>().await,
                }
            }
        };
        tokio::select! {
            _ = ours => {}
            _ = tokio::time::sleep(self.poll) => {}
        }
    }
}

/// The event telling a page everything of `game`.
fn event(game: &WebGame) -> Event {
    let plies = Plies {
        plies: &game.plies,
        took: (0..game.plies.len())
            .map(|i| super::pages::took(game, i))
            .collect(),
        status: status(game),
        to_move: game.to_move.as_deref().filter(|_| game.result.is_none()),
        since_ms: game.last_ply_ms,
        deadline_ms: game.deadline_ms,
        finished: game.result.is_some(),
        viewer: Viewer::of(game),
    };
    let data = serde_json::to_string(&plies).unwrap_or_default();
    Event::default().event("plies").data(data)
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
    let watch = Watch {
        changes: web.changes(),
        number: game.number,
        channel: game.channel,
        poll: match web.store_is_shared() {
            true => EVERY_SHARED,
            false => EVERY_ALONE,
        },
        web,
        slug,
        seen,
        ended: false,
        _place: place,
    };
    let stream = futures_util::stream::unfold(watch, |mut watch| async move {
        if watch.ended {
            return None;
        }
        loop {
            let game = (watch.web)
                .game_in(&watch.slug, watch.number, watch.channel)
                .await
                .ok()?;
            let now = position(&game.plies);
            if Some(now) != watch.seen || game.result.is_some() {
                watch.seen = Some(now);
                watch.ended = game.result.is_some();
                return Some((Ok::<Event, Infallible>(event(&game)), watch));
            }
            watch.next_change().await;
        }
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}
