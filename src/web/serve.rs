//! The router over the pages, the guard on every answer (405 for any method but GET and
//! HEAD, and the safety headers), and a rate limit per connecting address (429 past it).

use super::connections::HEADER_READ;
use super::live;
use super::routes::routes;
use super::site::Web;
use crate::clock::Clock;
use crate::service::Service;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::GovernorLayer;

/// How many requests one address may make: `burst` at once, then one more every `every`.
#[derive(Clone, Copy, Debug)]
pub struct RateLimit {
    pub burst: u32,
    pub every: Duration,
}

impl RateLimit {
    /// Enough for a reader stepping through a game as fast as a key repeats (each ply a
    /// picture), and for a page's style, script and news, from one address.
    pub const PAGES: RateLimit = RateLimit {
        burst: 120,
        every: Duration::from_millis(50),
    };
}

/// How often the limiter forgets the addresses that are within their limit again.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// The policy every answer carries: nothing inline, nothing from elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The whole site as a router over `web`, limited per address by `limit` (if any).
fn router(web: Web, limit: Option<RateLimit>) -> Result<axum::Router, String> {
    let pages = routes()
        .route(
            "/s/{slug}/game/{number}/events",
            axum::routing::get(live::events),
        )
        .with_state(web);
    let pages = match limit {
        Some(limit) => {
            let config = GovernorConfigBuilder::default()
                .period(limit.every)
                .burst_size(limit.burst)
                .finish()
                .ok_or_else(|| {
                    format!("a rate limit needs a burst and a period above zero: {limit:?}")
                })?;
            let limiter = config.limiter().clone();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(FORGET_EVERY).await;
                    limiter.retain_recent();
                }
            });
            pages.layer(GovernorLayer::new(config))
        }
        None => pages,
    };
    Ok(pages.layer(axum::middleware::from_fn(guard)))
}

/// Serves the pages on a listener already bound (so a bad address stops a start at once,
/// and tests bind port 0) until the process ends; `clock` says which day it is (the bot's
/// clock, or a test's).
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    service: Arc<Service>,
    limit: Option<RateLimit>,
    clock: Clock,
) -> Result<(), String> {
    serve_on_reading_headers_within(listener, service, limit, clock, HEADER_READ).await
}

/// `serve_on`, with a request's headers given `header_read` to arrive instead of the 10 s
/// production gives them (a test of that bound waits a second, not ten).
pub async fn serve_on_reading_headers_within(
    listener: tokio::net::TcpListener,
    service: Arc<Service>,
    limit: Option<RateLimit>,
    clock: Clock,
    header_read: Duration,
) -> Result<(), String> {
    // Without a limit per address here, a reverse proxy limits per reader: every reader comes
    // from the proxy's address, so no bound per address applies either.
    let per_address = limit.is_some();
    let router = router(Web::new(service, clock, per_address), limit)?;
    super::connections::serve(listener, router, per_address, header_read).await
}

/// Serves the pages beside the bot: on a runtime of their own, whose threads (half the cores,
/// one at least, and as many for blocking work) run at a lower priority than the bot's, so
/// readers of the pages, however many, never slow the plies the bot answers. Returns at once;
/// a failure to serve is logged.
pub fn serve_beside(
    listener: tokio::net::TcpListener,
    service: Arc<Service>,
    limit: Option<RateLimit>,
) -> Result<(), String> {
    let listener = listener
        .into_std()
        .map_err(|e| format!("cannot hand the web pages their address: {e}"))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .max_blocking_threads(threads)
        .thread_name("bredon-web")
        .on_thread_start(yield_to_the_bot)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the web pages' runtime: {e}"))?;
    std::thread::Builder::new()
        .name("bredon-web".into())
        .spawn(move || {
            let served = runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)
                    .map_err(|e| format!("cannot serve the web pages: {e}"))?;
                serve_on(listener, service, limit, Clock::BOT).await
            });
            if let Err(reason) = served {
                tracing::error!(%reason, "the web pages stopped");
            }
        })
        .map_err(|e| format!("cannot start the web pages' thread: {e}"))?;
    Ok(())
}

/// Lowers this thread's priority (nice 10): the scheduler gives the bot's threads the cores
/// first whenever both have work.
fn yield_to_the_bot() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only changes the scheduling priority of the calling thread (on Linux,
    // `who` 0 of PRIO_PROCESS names the calling thread); it touches no memory of ours.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Refuses every method but GET and HEAD, and puts the safety headers on every answer.
async fn guard(request: Request, next: Next) -> Response {
    let mut response = if matches!(*request.method(), Method::GET | Method::HEAD) {
        next.run(request).await
    } else {
        (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "Bredon's pages are read-only: GET and HEAD only.\n",
        )
            .into_response()
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}
