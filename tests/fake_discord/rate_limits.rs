//! Discord's rate limits as topics/rate-limits documents them, with a bucket identity of the
//! fake's own (not the gate's parsing, so a test of the gate does not agree with itself):
//!
//! - Per route: "Per-route rate limits exist for many individual endpoints, and may include the
//!   HTTP method"; "per-route limits will be shared across a set of similar endpoints, indicated
//!   in the X-RateLimit-Bucket header"; they "account for top-level resources within the path
//!   ... channels (channel_id), guilds (guild_id), and webhooks (webhook_id or webhook_id +
//!   webhook_token)". Which routes share a bucket is Discord's to say and not listed per route,
//!   so the fake names its own pair (`SHARED_BUCKETS`): editing and deleting a channel's message
//!   count against one bucket, told by one hash.
//! - Global: 50 requests a second but the interaction endpoints ("Global Rate Limit"), counted
//!   over any second (the last 50 requests' times), not a fixed one.
//! - A request past either is answered 429 with `retry_after` and has no effect ("Exceeding A
//!   Rate Limit").
//! - Cloudflare ("Invalid Request Limit aka Cloudflare bans"): an address Cloudflare restricts
//!   meets its 429 page, HTML without Discord's JSON or `X-RateLimit-*` headers
//!   (`cloudflare_429`).
//!
//! Windows run on the wall clock, as the limiters of bots and proxies do.

use super::*;

/// Routes (method, path with its ids named) whose limit is one bucket, and its hash.
const SHARED_BUCKETS: &[(&str, &str, &str)] = &[
    (
        "PATCH",
        "channels/{channel}/messages/{id}",
        "5e7ac4a9d0a7c1f3",
    ),
    (
        "DELETE",
        "channels/{channel}/messages/{id}",
        "5e7ac4a9d0a7c1f3",
    ),
];

/// Discord's global limit: requests in any second.
const GLOBAL_PER_SECOND: usize = 50;

pub(super) struct RateLimits {
    per_route: u32,
    window: Duration,
    /// Each bucket (hash and top-level resources): its window's start and requests taken.
    buckets: HashMap<String, (Instant, u32)>,
    /// When the requests bound to the global limit went, within the last second.
    global: VecDeque<Instant>,
}

/// What the limits make of one request: the headers of its answer, and a 429 if it is refused.
pub(super) struct RateVerdict {
    pub headers: String,
    pub refused: Option<Answer>,
}

/// A route's bucket: its hash (`X-RateLimit-Bucket`, without the top-level resources) and the
/// bucket's full name (the hash with the top-level resources' ids).
pub(super) fn bucket_of(method: &str, path: &str) -> (String, String) {
    let path = path.split('?').next().unwrap_or("");
    let segments: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let mut pattern = Vec::new();
    let mut resources = Vec::new();
    for (i, &segment) in segments.iter().enumerate() {
        let named = match (i, segments[0]) {
            (1, "channels") => Some("{channel}"),
            (1, "guilds") => Some("{guild}"),
            (1, "webhooks") => Some("{webhook}"),
            (2, "webhooks") => Some("{webhook_token}"),
            (1, "interactions") => Some("{interaction}"),
            (2, "interactions") => Some("{interaction_token}"),
            _ => None,
        };
        if let Some(name) = named {
            pattern.push(name);
            resources.push(segment);
        } else if segment.parse::<u64>().is_ok() {
            pattern.push("{id}");
        } else {
            pattern.push(segment);
        }
    }
    let pattern = pattern.join("/");
    let hash = SHARED_BUCKETS
        .iter()
        .find(|(m, p, _)| *m == method && *p == pattern)
        .map(|(.., hash)| hash.to_string())
        .unwrap_or_else(|| {
            let route = format!("{method} {pattern}");
            let fnv = route.bytes().fold(0xcbf29ce484222325u64, |h, b| {
                (h ^ b as u64).wrapping_mul(0x100000001b3)
            });
            format!("{fnv:016x}")
        });
    let full = format!("{hash}:{}", resources.join("/"));
    (hash, full)
}

/// The interaction endpoints, which the global limit does not bind.
pub(super) fn is_interaction(path: &str) -> bool {
    path.contains("/interactions/") || path.contains("/webhooks/")
}

impl RateLimits {
    pub(super) fn new(per_route: u32, window: Duration) -> RateLimits {
        RateLimits {
            per_route,
            window,
            buckets: HashMap::new(),
            global: VecDeque::new(),
        }
    }

    pub(super) fn judge(&mut self, method: &str, path: &str) -> RateVerdict {
        let now = Instant::now();
        let second = Duration::from_secs(1);
        let interaction = is_interaction(path);
        let (hash, key) = bucket_of(method, path);
        let (per_route, window) = (self.per_route, self.window);
        let bucket = self.buckets.entry(key).or_insert((now, 0));
        if now >= bucket.0 + window {
            *bucket = (now, 0);
        }
        while self.global.front().is_some_and(|&at| now >= at + second) {
            self.global.pop_front();
        }
        let reset_after = (bucket.0 + window - now).as_secs_f64();
        let global_full = !interaction && self.global.len() >= GLOBAL_PER_SECOND;
        let route_full = bucket.1 >= per_route;
        if !global_full && !route_full {
            bucket.1 += 1;
            if !interaction {
                self.global.push_back(now);
            }
        }
        let reset_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64()
            + reset_after;
        let mut headers = format!(
            "x-ratelimit-limit: {per_route}\r\nx-ratelimit-remaining: {}\r\nx-ratelimit-reset: {reset_at:.3}\r\nx-ratelimit-reset-after: {reset_after:.3}\r\nx-ratelimit-bucket: {hash}\r\n",
            per_route - bucket.1,
        );
        if !global_full && !route_full {
            return RateVerdict {
                headers,
                refused: None,
            };
        }
        let retry_after = match self.global.front() {
            Some(&oldest) if global_full => (oldest + second - now).as_secs_f64(),
            _ => reset_after,
        };
        headers.push_str(&format!(
            "retry-after: {}\r\nx-ratelimit-scope: user\r\n",
            retry_after.ceil() as u64
        ));
        if global_full {
            headers.push_str("x-ratelimit-global: true\r\n");
        }
        let body = json!({ "message": "You are being rate limited.", "retry_after": retry_after, "global": global_full });
        RateVerdict {
            headers,
            refused: Some((429, Some(body))),
        }
    }
}

/// The whole answer Cloudflare gives a restricted address while `cloudflare_429` holds: 429, an
/// HTML page, `Retry-After` and no `X-RateLimit-*` header.
pub(super) fn cloudflare_page(state: &State) -> Option<String> {
    let now = Instant::now();
    let until = {
        let mut ban = state.cloudflare.lock().unwrap();
        let (length, until) = ban.as_mut()?;
        *until.get_or_insert(now + *length)
    };
    let left = until.checked_duration_since(now)?;
    let page = "<!DOCTYPE html><html><head><title>Access denied | discord.com used Cloudflare to restrict access</title></head><body>Error 1015: You are being rate limited.</body></html>";
    Some(format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/html; charset=UTF-8\r\ncontent-length: {}\r\nretry-after: {}\r\n\r\n{page}",
        page.len(),
        left.as_secs_f64().ceil() as u64,
    ))
}

impl FakeDiscord {
    /// From the next request on, for `length` of wall time, every request meets Cloudflare's
    /// 429 page (`cloudflare_page`), has no effect, and counts as invalid and rate-limited.
    pub fn cloudflare_429(&self, length: Duration) {
        *self.state.cloudflare.lock().unwrap() = Some((length, None));
    }
}
