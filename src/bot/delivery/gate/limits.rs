//! Discord's rate limits as this process has learnt them (topics/rate-limits): a bucket per
//! route and major parameter, told by the `X-RateLimit-*` headers of its answers; the global
//! limit of 50 requests a second (interaction endpoints apart, "Global Rate Limit"); a pause
//! after a 429, global or of one route; and the count of invalid requests (401, 403 and 429
//! but a shared one) over Discord's window of 10 minutes ("Invalid Request Limit"). Plain state
//! on the bot's clock, so tests drive it with numbers; `gate` does the waiting.

use std::collections::{HashMap, VecDeque};

/// Discord's global limit: requests a second, interaction endpoints apart.
const GLOBAL_PER_SECOND: u32 = 50;
/// Discord's window for invalid requests.
pub const INVALID_WINDOW_MS: i64 = 600_000;

/// The bucket a request counts against: its method and path, with every id but a major
/// parameter's (a channel, a server, a webhook or an interaction and their tokens) made one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Route {
    key: String,
    /// Interaction endpoints (an interaction's callback and its webhook) are not bound to the
    /// global limit.
    pub interaction: bool,
}

impl Route {
    pub fn of(method: &str, path: &str) -> Route {
        let api = path
            .split_once("/api/")
            .map_or(path, |(_, rest)| rest.split_once('/').map_or(rest, |r| r.1));
        let segments: Vec<&str> = api
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .split('/')
            .collect();
        let mut key = method.to_string();
        for (i, segment) in segments.iter().enumerate() {
            let before = |n: usize| i.checked_sub(n).map(|j| segments[j]);
            let major = matches!(
                before(1),
                Some("channels" | "guilds" | "webhooks" | "interactions")
            ) || matches!(before(2), Some("webhooks" | "interactions"));
            let id = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
            key.push('/');
            key.push_str(if id && !major { ":id" } else { segment });
        }
        let interaction = segments.first() == Some(&"interactions")
            || segments.first() == Some(&"webhooks") && segments.len() >= 3;
        Route { key, interaction }
    }
}

/// What the limits say of a request now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Send it.
    Go,
    /// Not before `ms` from now; `global` when the whole process waits.
    Wait { ms: i64, global: bool },
}

/// What a 429 said.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TooMany {
    pub retry_after_ms: i64,
    pub global: bool,
    /// Another user's limit on a shared resource: it does not count as invalid.
    pub shared: bool,
}

#[derive(Default, Debug)]
struct Bucket {
    /// Requests left in the window, once an answer told it.
    remaining: Option<u32>,
    reset_at_ms: i64,
}

#[derive(Default, Debug)]
pub struct Limits {
    buckets: HashMap<Route, Bucket>,
    /// No request bound to the global limit goes before this.
    global_until_ms: i64,
    /// The second being counted against the global limit, and its count.
    second: (i64, u32),
    /// When each invalid request of the window was answered.
    invalid: VecDeque<i64>,
}

impl Limits {
    /// Whether `route` may go at `now_ms`; when it may, it is counted as sent.
    pub fn admit(&mut self, route: &Route, now_ms: i64) -> Admit {
        if !route.interaction {
            if now_ms < self.global_until_ms {
                let ms = self.global_until_ms - now_ms;
                return Admit::Wait { ms, global: true };
            }
            if now_ms >= self.second.0 + 1_000 {
                self.second = (now_ms, 0);
            }
            if self.second.1 >= GLOBAL_PER_SECOND {
                let ms = self.second.0 + 1_000 - now_ms;
                return Admit::Wait { ms, global: true };
            }
        }
        if let Some(bucket) = self.buckets.get_mut(route) {
            if now_ms >= bucket.reset_at_ms {
                bucket.remaining = None;
            }
            match bucket.remaining {
                Some(0) => {
                    let ms = bucket.reset_at_ms - now_ms;
                    return Admit::Wait { ms, global: false };
                }
                Some(n) => bucket.remaining = Some(n - 1),
                None => {}
            }
        }
        if !route.interaction {
            self.second.1 += 1;
        }
        Admit::Go
    }

    /// What an answer's headers told of `route`'s bucket: requests left, and seconds until
    /// the window resets.
    pub fn told(&mut self, route: &Route, remaining: u32, reset_after_ms: i64, now_ms: i64) {
        let bucket = self.buckets.entry(route.clone()).or_default();
        bucket.remaining = Some(remaining);
        bucket.reset_at_ms = now_ms + reset_after_ms;
    }

    /// Discord answered `status` at `now_ms` (with `too_many` for a 429): an invalid request
    /// is counted, and a 429 pauses its route, or every route bound to the global limit.
    pub fn answered(&mut self, route: &Route, status: u16, too_many: Option<TooMany>, now_ms: i64) {
        let shared = too_many.is_some_and(|t| t.shared);
        if matches!(status, 401 | 403 | 429) && !shared {
            self.invalid.push_back(now_ms);
        }
        let Some(t) = too_many else {
            return;
        };
        let until = now_ms + t.retry_after_ms;
        if t.global {
            self.global_until_ms = self.global_until_ms.max(until);
        } else {
            let bucket = self.buckets.entry(route.clone()).or_default();
            bucket.remaining = Some(0);
            bucket.reset_at_ms = bucket.reset_at_ms.max(until);
        }
    }

    /// Invalid requests answered in the last 10 minutes.
    pub fn invalid_in_window(&mut self, now_ms: i64) -> usize {
        while self
            .invalid
            .front()
            .is_some_and(|&at| at <= now_ms - INVALID_WINDOW_MS)
        {
            self.invalid.pop_front();
        }
        self.invalid.len()
    }

    /// Until when a global 429 holds this process back (past, when it does not).
    pub fn global_until_ms(&self) -> i64 {
        self.global_until_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_keeps_its_major_parameter_and_makes_other_ids_one() {
        let post = |path| Route::of("POST", path);
        let a = post("/api/v10/channels/11/messages");
        assert_eq!(a, post("/api/v10/channels/11/messages"));
        assert_ne!(a, post("/api/v10/channels/12/messages"), "channels apart");
        assert_eq!(
            Route::of("PATCH", "/api/v10/channels/11/messages/5"),
            Route::of("PATCH", "/api/v10/channels/11/messages/6"),
            "one bucket for every message of a channel"
        );
        assert_ne!(a, Route::of("GET", "/api/v10/channels/11/messages"));
        assert!(!a.interaction);
        assert!(post("/api/v10/interactions/9/tok/callback").interaction);
        assert!(Route::of("PATCH", "/api/v10/webhooks/3/tok/messages/@original").interaction);
        assert!(
            !post("/api/v10/webhooks/3").interaction,
            "a webhook's own route"
        );
        assert_eq!(
            post("/p/one/api/v10/channels/11/messages?x=1"),
            a,
            "a proxy's prefix and a query change nothing"
        );
    }

    #[test]
    fn a_bucket_told_empty_waits_for_its_reset_and_others_go() {
        let mut limits = Limits::default();
        let (a, b) = (
            Route::of("POST", "/api/v10/channels/1/messages"),
            Route::of("POST", "/api/v10/channels/2/messages"),
        );
        assert_eq!(limits.admit(&a, 0), Admit::Go, "nothing known yet");
        limits.told(&a, 1, 2_000, 10);
        assert_eq!(limits.admit(&a, 20), Admit::Go, "one left");
        let wait = Admit::Wait {
            ms: 1_980,
            global: false,
        };
        assert_eq!(limits.admit(&a, 30), wait, "the one left was taken");
        assert_eq!(limits.admit(&b, 30), Admit::Go, "another channel's bucket");
        assert_eq!(limits.admit(&a, 2_010), Admit::Go, "a new window");
    }

    #[test]
    fn a_global_429_pauses_every_route_but_interactions() {
        let mut limits = Limits::default();
        let a = Route::of("POST", "/api/v10/channels/1/messages");
        let b = Route::of("POST", "/api/v10/channels/2/messages");
        let callback = Route::of("POST", "/api/v10/interactions/5/t/callback");
        let global = TooMany {
            retry_after_ms: 240_000,
            global: true,
            shared: false,
        };
        limits.answered(&a, 429, Some(global), 1_000);
        let waits = Admit::Wait {
            ms: 239_000,
            global: true,
        };
        assert_eq!(limits.admit(&b, 2_000), waits);
        assert_eq!(limits.admit(&callback, 2_000), Admit::Go);
        assert_eq!(limits.admit(&b, 241_000), Admit::Go);
        assert_eq!(limits.global_until_ms(), 241_000);
    }

    #[test]
    fn a_route_429_pauses_that_route_only() {
        let mut limits = Limits::default();
        let a = Route::of("POST", "/api/v10/channels/1/messages");
        let b = Route::of("POST", "/api/v10/channels/2/messages");
        let route = TooMany {
            retry_after_ms: 5_000,
            global: false,
            shared: false,
        };
        limits.answered(&a, 429, Some(route), 0);
        assert_eq!(
            limits.admit(&a, 1_000),
            Admit::Wait {
                ms: 4_000,
                global: false
            }
        );
        assert_eq!(limits.admit(&b, 1_000), Admit::Go);
        assert_eq!(limits.admit(&a, 5_000), Admit::Go);
    }

    #[test]
    fn fifty_requests_a_second_then_a_wait() {
        let mut limits = Limits::default();
        for channel in 0..50 {
            let route = Route::of("POST", &format!("/api/v10/channels/{channel}/messages"));
            assert_eq!(limits.admit(&route, 10_100), Admit::Go);
        }
        let late = Route::of("POST", "/api/v10/channels/99/messages");
        assert_eq!(
            limits.admit(&late, 10_600),
            Admit::Wait {
                ms: 500,
                global: true
            }
        );
        let callback = Route::of("POST", "/api/v10/interactions/5/t/callback");
        assert_eq!(
            limits.admit(&callback, 10_600),
            Admit::Go,
            "not bound to it"
        );
        assert_eq!(limits.admit(&late, 11_100), Admit::Go);
    }

    #[test]
    fn invalid_requests_are_counted_over_ten_minutes_but_shared_429s() {
        let mut limits = Limits::default();
        let a = Route::of("POST", "/api/v10/channels/1/messages");
        limits.answered(&a, 403, None, 0);
        limits.answered(&a, 401, None, 1_000);
        limits.answered(&a, 404, None, 1_000);
        let shared = TooMany {
            retry_after_ms: 1,
            global: false,
            shared: true,
        };
        limits.answered(&a, 429, Some(shared), 2_000);
        limits.answered(
            &a,
            429,
            Some(TooMany {
                shared: false,
                ..shared
            }),
            3_000,
        );
        assert_eq!(limits.invalid_in_window(3_000), 3);
        assert_eq!(limits.invalid_in_window(600_000), 2, "the first ages out");
        assert_eq!(limits.invalid_in_window(603_000), 0);
    }
}
