//! What every handler shares: the service, asked on a blocking thread, and the pictures
//! already drawn, by their ETag.

use crate::clock::Clock;
use crate::service::{Service, WebGame};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The one answer for anything that is not a page: unknown, or of a server without pages.
pub(super) fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::response::Html(super::pages::not_found()),
    )
        .into_response()
}

/// Pictures kept drawn, at most; the cache is emptied when it is full (a game page's pictures
/// are asked for together, so the ones in use are drawn again at once).
const PICTURES_KEPT: usize = 512;

/// What every handler shares: the service, the pictures already drawn by their ETag, and the
/// clock that says which day it is (the bot's, or a test's).
#[derive(Clone)]
pub struct Web {
    service: Arc<Service>,
    pictures: Arc<Mutex<HashMap<String, Arc<Vec<u8>>>>>,
    clock: Clock,
    /// The live pages (event streams) each address holds open.
    pub(super) streams: Arc<super::connections::PerAddress>,
}

impl Web {
    /// The pages over `service` on `clock`, with live pages bounded per address if
    /// `per_address` (not behind a reverse proxy).
    pub fn new(service: Arc<Service>, clock: Clock, per_address: bool) -> Web {
        let streams = match per_address {
            true => super::connections::LIVE_PAGES_PER_ADDRESS,
            false => usize::MAX,
        };
        Web {
            service,
            pictures: Arc::default(),
            clock,
            streams: super::connections::PerAddress::new(streams),
        }
    }

    pub(super) fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Runs `work` on a blocking thread (as many at once as the pages' runtime has: beside the
    /// bot, half the cores); a panic becomes a 500.
    pub(super) async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Response> {
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
    }

    /// The channel of every change the service makes durable in this process from now on.
    pub(super) fn changes(&self) -> tokio::sync::broadcast::Receiver<u64> {
        self.service.changes()
    }

    /// Whether other processes may change the store (PostgreSQL).
    pub(super) fn store_is_shared(&self) -> bool {
        self.service.store_is_shared()
    }

    /// Runs `work` with the service on a blocking thread (the service and the store are
    /// synchronous); a panic or a refusal becomes a 500 with no detail.
    pub(super) async fn ask<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Service) -> Result<T, crate::service::Refusal> + Send + 'static,
    ) -> Result<T, Response> {
        let service = Arc::clone(&self.service);
        match self.blocking(move || work(&service)).await? {
            Ok(value) => Ok(value),
            Err(refusal) => {
                tracing::warn!(%refusal, "a web page could not be read");
                Err(StatusCode::INTERNAL_SERVER_ERROR.into_response())
            }
        }
    }

    /// What `read` finds of the server whose slug is `slug` (given its id, on a blocking
    /// thread), or the one 404 when the server has no pages or `read` finds nothing.
    pub(super) async fn of_server<T: Send + 'static>(
        &self,
        slug: &str,
        read: impl FnOnce(&Service, u64) -> Result<Option<T>, crate::service::Refusal> + Send + 'static,
    ) -> Result<T, Response> {
        let slug = slug.to_string();
        let found = self
            .ask(move |s| match s.web_server(&slug)? {
                Some(guild) => read(s, guild),
                None => Ok(None),
            })
            .await?;
        found.ok_or_else(not_found)
    }

    /// Game `number` of the server whose slug is `slug`, or the one 404.
    pub(super) async fn game(&self, slug: &str, number: &str) -> Result<WebGame, Response> {
        let Ok(number) = number.parse::<u64>() else {
            return Err(not_found());
        };
        let now = self.now_ms();
        self.of_server(slug, move |s, guild| s.web_game(guild, number, now))
            .await
    }

    /// Game `number` of the server, read from `channel` while it is played there.
    pub(super) async fn game_in(
        &self,
        slug: &str,
        number: u64,
        channel: u64,
    ) -> Result<WebGame, Response> {
        let now = self.now_ms();
        self.of_server(slug, move |s, guild| {
            s.web_game_in(guild, number, channel, now)
        })
        .await
    }

    /// A picture named by `etag`, answered 304 when the reader has it, from the pictures kept
    /// when it was drawn, else drawn by `draw` on a blocking thread and kept; `caching` is its
    /// Cache-Control. A picture `draw` cannot make is a 500.
    pub(super) async fn png(
        &self,
        etag: String,
        caching: &'static str,
        asked: &HeaderMap,
        draw: impl FnOnce() -> Option<Vec<u8>> + Send + 'static,
    ) -> Response {
        let answer = |status: StatusCode, body: Option<Arc<Vec<u8>>>| {
            let headers = [
                (header::ETAG, etag.clone()),
                (header::CACHE_CONTROL, caching.to_string()),
                (header::CONTENT_TYPE, "image/png".to_string()),
            ];
            match body {
                Some(png) => (status, headers, png.as_ref().clone()).into_response(),
                None => (status, headers).into_response(),
            }
        };
        let seen = asked
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
        if seen {
            return answer(StatusCode::NOT_MODIFIED, None);
        }
        if let Some(png) = self.picture(&etag) {
            return answer(StatusCode::OK, Some(png));
        }
        match self.blocking(draw).await {
            Ok(Some(png)) => {
                let png = Arc::new(png);
                self.keep_picture(etag.clone(), Arc::clone(&png));
                answer(StatusCode::OK, Some(png))
            }
            _ => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        }
    }

    fn picture(&self, etag: &str) -> Option<Arc<Vec<u8>>> {
        self.pictures.lock().ok()?.get(etag).cloned()
    }

    fn keep_picture(&self, etag: String, png: Arc<Vec<u8>>) {
        if let Ok(mut kept) = self.pictures.lock() {
            if kept.len() >= PICTURES_KEPT {
                kept.clear();
            }
            kept.insert(etag, png);
        }
    }
}
