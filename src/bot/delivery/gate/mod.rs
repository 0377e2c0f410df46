//! The gate: the one way this process's requests reach Discord's REST API. serenity sends every
//! request to it on 127.0.0.1 as to a REST proxy (its own limiter off), and the gate sends it on
//! to Discord, or to `DISCORD_API_BASE`, under the limits it learns from the answers
//! (`limits.rs`). The same code runs under the fake Discord and in production, behind a REST
//! proxy too, whose 429s it honours as Discord's.
//!
//! Invariant: a request reaches Discord at most `LONGEST_WAIT_AT_THE_GATE` after it came to the gate, or never.
//! A request whose turn is further off (a bucket spent, a long 429, its bucket's queue) is
//! answered 429 here without reaching Discord, so a letter's post never goes out after its lease
//! (renewed right before it) could have passed to another process. A bucket's requests go one at
//! a time, in the order they came, each after the answer before it was learnt (nirn-proxy's and
//! twilight's way). A 429 Discord gives is waited out here when short, and the request sent once
//! more at most (`limits::MOST_429S_A_REQUEST`); a long one is handed back. A global 429, a
//! Cloudflare 429 (every route, interaction answers too) and `limits::INVALID_PAUSE_AT` invalid
//! requests in 10 minutes hold back every request of the process once (`held_back_until_ms`),
//! instead of each meeting them in turn.

mod limits;

use crate::clock::now_ms;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use limits::{
    again_after_429, Admit, Limits, Route, Told, TooMany, INVALID_PAUSE_AT, RETRY_FLOOR_MS,
};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::OwnedMutexGuard;

/// The longest a request waits at the gate for its turn (see the invariant above).
pub const LONGEST_WAIT_AT_THE_GATE: Duration = Duration::from_secs(10);
/// The `retry_after` of the gate's own 429 for a request that waited its whole bound in its
/// bucket's queue: the requests ahead of it were slow, and how much longer is not known.
const QUEUED_TOO_LONG_RETRY_MS: i64 = 1_000;
/// The largest request body passed on: above Discord's own upload limits, which Discord judges.
const MOST_BODY: usize = 64 << 20;

/// This process's gate to Discord's REST API.
pub struct Gate {
    /// Where serenity sends its requests (a secret path on a loopback port).
    base: String,
    inner: Arc<Inner>,
}

struct Inner {
    /// Discord's address, or the REST base the operator set.
    upstream: String,
    /// The path every request of this process starts with: no other program on the machine
    /// can send through the gate.
    secret: String,
    client: reqwest::Client,
    limits: Mutex<Limits>,
}

impl Gate {
    /// Opens the gate on a loopback port, sending on to `upstream` (Discord itself when
    /// `None`) with `client`.
    pub async fn open(upstream: Option<&str>, client: reqwest::Client) -> Result<Gate, String> {
        let mut secret = [0u8; 16];
        getrandom::getrandom(&mut secret)
            .map_err(|e| format!("no randomness for the gate: {e}"))?;
        let secret: String = secret.iter().map(|b| format!("{b:02x}")).collect();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| format!("cannot open the gate to Discord on 127.0.0.1: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let inner = Arc::new(Inner {
            upstream: upstream
                .unwrap_or("https://discord.com")
                .trim_end_matches('/')
                .to_string(),
            secret: format!("/{secret}"),
            client,
            limits: Mutex::new(Limits::default()),
        });
        let app = axum::Router::new()
            .fallback(pass)
            .layer(DefaultBodyLimit::max(MOST_BODY))
            .with_state(Arc::clone(&inner));
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!(error = %e, "the gate to Discord stopped");
            }
        });
        Ok(Gate {
            base: format!("http://127.0.0.1:{port}/{secret}"),
            inner,
        })
    }

    /// The base serenity sends to, in place of `https://discord.com`.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Until when a global or a Cloudflare 429, or too many invalid requests, hold every request
    /// of this process back (interaction answers apart but for Cloudflare's).
    pub fn held_back_until_ms(&self) -> i64 {
        self.limits().held_back_until_ms(now_ms())
    }

    /// Invalid requests (401, 403, 429) Discord answered this process in the last 10 minutes.
    pub fn invalid_in_window(&self) -> usize {
        self.limits().invalid_in_window(now_ms())
    }

    fn limits(&self) -> std::sync::MutexGuard<'_, Limits> {
        self.inner.limits()
    }
}

impl Inner {
    fn limits(&self) -> std::sync::MutexGuard<'_, Limits> {
        self.limits.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One request from serenity: its turn waited for, sent on, and its answer handed back.
async fn pass(
    State(inner): State<Arc<Inner>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let full = uri.path_and_query().map_or("", |p| p.as_str());
    let Some(path) = full.strip_prefix(inner.secret.as_str()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let route = Route::of(method.as_str(), path);
    let came = Instant::now();
    let mut met_429 = 0;
    loop {
        let (turn, admitted_ms) = match take_turn(&inner, &route, came).await {
            Ok(turn) => turn,
            Err(here) => return here,
        };
        let sent = inner
            .client
            .request(method.clone(), format!("{}{path}", inner.upstream))
            .headers(passed_on(&headers))
            .body(body.clone())
            .send()
            .await;
        let answer = match sent {
            Ok(answer) => answer,
            Err(e) => return bad_gateway(format!("Bredon's gate could not reach Discord: {e}")),
        };
        let status = answer.status().as_u16();
        let answer_headers = answer.headers().clone();
        let Ok(answer_body) = answer.bytes().await else {
            // Sent, its answer lost: the effect is unknown, as serenity would have seen it.
            return bad_gateway("Discord's answer was cut off on its way to Bredon".into());
        };
        let header = |name: &str| answer_headers.get(name).and_then(|v| v.to_str().ok());
        let too_many = (status == 429).then(|| TooMany::of(header, &answer_body));
        inner.limits().came_back(&route, admitted_ms, now_ms());
        learn(&inner, &route, status, &answer_headers, too_many);
        // The bucket's next request goes once this one's answer is learnt, not before.
        drop(turn);
        let Some(t) = too_many else {
            return handed_back(status, &answer_headers, answer_body);
        };
        met_429 += 1;
        let left_ms = LONGEST_WAIT_AT_THE_GATE
            .saturating_sub(came.elapsed())
            .as_millis() as i64;
        if let Some(wait_ms) = again_after_429(met_429, &t, left_ms) {
            tracing::debug!(route = ?route, retry_after_ms = t.retry_after_ms, "a short 429, waited out at the gate");
            tokio::time::sleep(Duration::from_millis(wait_ms as u64)).await;
            continue;
        }
        if t.retry_after_ms.max(RETRY_FLOOR_MS) > left_ms && !t.cloudflare {
            tracing::warn!(
                retry_after_ms = t.retry_after_ms,
                global = t.global,
                "Discord rate-limits Bredon for longer than a request may wait: handed back, and tried again later"
            );
        } else if !t.cloudflare {
            tracing::warn!(route = ?route, retry_after_ms = t.retry_after_ms, "a request met {met_429} 429s in a row: handed back, and tried again later");
        }
        return handed_back(status, &answer_headers, answer_body);
    }
}

/// `route`'s turn: first in its bucket's queue (one request of a bucket in flight at a time, in
/// the order they came), then within the bucket's and the global limits, with when it was
/// admitted; or the gate's own 429 when the turn is further off than the request may still wait.
async fn take_turn(
    inner: &Inner,
    route: &Route,
    came: Instant,
) -> Result<(OwnedMutexGuard<()>, i64), Response> {
    let beyond = |ms: i64| {
        came.elapsed() + Duration::from_millis(ms.max(0) as u64) > LONGEST_WAIT_AT_THE_GATE
    };
    loop {
        let queue = {
            let mut limits = inner.limits();
            let now = now_ms();
            // A wait known already past the bound is answered at once, not after the queue.
            if let Admit::Wait { ms, global } = limits.check(route, now) {
                if beyond(ms) {
                    return Err(too_many_here(ms, global));
                }
            }
            limits.queue_of(route, now)
        };
        let left = LONGEST_WAIT_AT_THE_GATE.saturating_sub(came.elapsed());
        let Ok(turn) = tokio::time::timeout(left, Arc::clone(&queue).lock_owned()).await else {
            return Err(too_many_here(QUEUED_TOO_LONG_RETRY_MS, false));
        };
        if !Arc::ptr_eq(&queue, &inner.limits().queue_of(route, now_ms())) {
            // While it waited, an answer told that the route shares another bucket: its turn
            // is in that bucket's queue.
            continue;
        }
        loop {
            let now = now_ms();
            let admit = inner.limits().admit(route, now);
            let Admit::Wait { ms, global } = admit else {
                return Ok((turn, now));
            };
            if beyond(ms) {
                return Err(too_many_here(ms, global));
            }
            tokio::time::sleep(Duration::from_millis(ms.max(1) as u64)).await;
        }
    }
}

/// What an answer tells the limits; the pauses it starts are told to the operator once.
fn learn(
    inner: &Inner,
    route: &Route,
    status: u16,
    headers: &HeaderMap,
    too_many: Option<TooMany>,
) {
    let header = |name: &str| headers.get(name)?.to_str().ok();
    let number = |name: &str| header(name)?.parse::<f64>().ok();
    let now = now_ms();
    let mut limits = inner.limits();
    if let (Some(remaining), Some(reset_after)) = (
        number("x-ratelimit-remaining"),
        number("x-ratelimit-reset-after"),
    ) {
        let told = Told {
            bucket: header("x-ratelimit-bucket").map(str::to_string),
            remaining: remaining as u32,
            reset_after_ms: (reset_after * 1000.0).ceil() as i64,
        };
        limits.told(route, told, now);
    }
    let heard = limits.answered(route, status, too_many, now);
    let invalid = limits.invalid_in_window(now);
    drop(limits);
    if heard.invalid_pause_began {
        tracing::warn!(
            invalid,
            "{INVALID_PAUSE_AT} invalid requests in the last 10 minutes (Discord bans a bot's address for an hour at 10,000): every request but interaction answers waits until the window slides below"
        );
    }
    if let Some(t) = too_many.filter(|_| heard.cloudflare_pause_began) {
        tracing::error!(
            pause_ms = t.retry_after_ms,
            "Cloudflare refused Bredon's address (a 429 without Discord's rate-limit headers): every request waits out the pause"
        );
    }
}

/// `headers` but those of one hop (and the host, which is the next hop's), which each hop
/// sets itself.
fn passed_on(headers: &HeaderMap) -> HeaderMap {
    let hop = ["host", "connection", "content-length", "transfer-encoding"];
    let mut out = HeaderMap::new();
    for (name, value) in headers {
        if !hop.contains(&name.as_str()) {
            out.append(name.clone(), value.clone());
        }
    }
    out
}

/// Discord's answer as the gate hands it back to serenity.
fn handed_back(status: u16, headers: &HeaderMap, body: Bytes) -> Response {
    let mut response = Response::new(axum::body::Body::from(body));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    *response.headers_mut() = passed_on(headers);
    response
}

/// A 429 of the gate's own: the request's turn is further off than it may wait, so it never
/// reached Discord.
fn too_many_here(ms: i64, global: bool) -> Response {
    let body = serde_json::json!({
        "code": 0,
        "message": "held back by Bredon's rate limiter (not sent to Discord)",
        "retry_after": ms as f64 / 1000.0,
        "global": global,
    });
    let mut response = (StatusCode::TOO_MANY_REQUESTS, body.to_string()).into_response();
    let headers = response.headers_mut();
    headers.insert(
        HeaderName::from_static("content-type"),
        HeaderValue::from_static("application/json"),
    );
    if let Ok(seconds) = HeaderValue::from_str(&format!("{}", (ms + 999) / 1000)) {
        headers.insert(HeaderName::from_static("retry-after"), seconds);
    }
    response
}

/// Discord could not be reached, or its answer was lost: the effect is unknown.
fn bad_gateway(message: String) -> Response {
    let body = serde_json::json!({ "code": 0, "message": message });
    (StatusCode::BAD_GATEWAY, body.to_string()).into_response()
}
