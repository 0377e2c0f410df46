//! The router over the pages and the guard on every answer: 405 for any method but GET and
//! HEAD, and the safety headers.

use super::live;
use super::routes::routes;
use super::site::Web;
use crate::service::Service;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The policy every answer carries: nothing inline, nothing from elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The whole site as a router over `web`.
fn router(web: Web) -> axum::Router {
    routes()
        .route(
            "/s/{slug}/game/{number}/events",
            axum::routing::get(live::events),
        )
        .with_state(web)
        .layer(axum::middleware::from_fn(guard))
}

/// Serves the pages on a listener already bound (so a bad address stops a start at once,
/// and tests bind port 0) until the process ends.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    service: Arc<Service>,
) -> Result<(), String> {
    axum::serve(listener, router(Web::new(service)))
        .await
        .map_err(|e| format!("the web pages stopped: {e}"))
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
