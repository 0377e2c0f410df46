//! Discord's rate limits as this process has learnt them (topics/rate-limits), plain state on the
//! bot's clock, so tests drive it with numbers; `gate` does the waiting.
//!
//! - Per route: a route's bucket is the `X-RateLimit-Bucket` hash its answers tell (several
//!   routes may share one: "per-route limits will be shared across a set of similar endpoints")
//!   with its top-level resource (a channel, a server, a webhook with its token), or the route
//!   itself until an answer tells its hash. Each bucket has a queue: one request of it in flight
//!   at a time, the others in the order they came, so no answer races another's.
//! - Global: 50 requests in any second, interaction endpoints apart ("Global Rate Limit").
//! - After a 429: a pause of its bucket, of every route bound to the global limit, or, for
//!   Cloudflare's (no JSON, no `X-RateLimit-*`: "Invalid Request Limit aka Cloudflare bans"), of
//!   every route.
//! - Invalid requests (401, 403 and 429 but a shared one) over Discord's 10 minutes ("Invalid
//!   Request Limit"): counted, and at `INVALID_PAUSE_AT` every route but the interaction
//!   endpoints waits until the window has slid below it.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Discord's global limit: requests in any second, interaction endpoints apart.
const GLOBAL_PER_SECOND: usize = 50;
const GLOBAL_WINDOW_MS: i64 = 1_000;
/// Discord's window for invalid requests.
pub const INVALID_WINDOW_MS: i64 = 600_000;
/// Invalid requests in the window at which the gate stops sending (interaction endpoints apart)
/// until the window slides below: half of the 10,000 at which Discord bans the address for an
/// hour, so the outbox's own budget (1,000) is spent long before and a ban never comes.
pub const INVALID_PAUSE_AT: usize = 5_000;
/// How long every request waits after a Cloudflare 429 that tells no `Retry-After`: such a 429
/// is the edge refusing the address ("Invalid Request Limit aka Cloudflare bans"), and any
/// request sent into it only counts against the address again.
pub const CLOUDFLARE_PAUSE_MS: i64 = 60_000;
/// A 429 a request met is sent again at most this many times less one: a `retry_after` of 0
/// (seen on interaction routes) would otherwise send it in a loop for the whole wait.
pub const MOST_429S_A_REQUEST: u32 = 2;
/// The least wait before a request that met a 429 is sent again.
pub const RETRY_FLOOR_MS: i64 = 250;
/// An answer's reset this much later than the one known starts a new window: answers of one
/// window tell one reset, give or take their time on the way.
const NEW_WINDOW_MARGIN_MS: i64 = 100;
/// Idle buckets (their window over, nobody queued) are dropped once every this many requests:
/// a webhook's and an interaction's bucket names its token, so every interaction makes one.
const SWEEP_EVERY: u64 = 1_000;

/// A request's route as the limits know it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Route {
    /// The method and path with its top-level resource, every other id, token and emoji made
    /// one: what Discord's bucket hash is learnt for. It holds no token.
    template: String,
    /// The top-level resource: `channels/1`, `guilds/2`, `webhooks/3/token`,
    /// `interactions/4/token`, or nothing.
    major: String,
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
            .trim_start_matches('/')
            .split('/')
            .collect();
        let top = segments[0];
        let tokened = matches!(top, "webhooks" | "interactions") && segments.len() >= 3;
        let mut template = method.to_string();
        let mut major = String::new();
        for (i, &segment) in segments.iter().enumerate() {
            let is_major = i == 1
                && matches!(top, "channels" | "guilds" | "webhooks" | "interactions")
                || i == 2 && tokened;
            let id = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
            template.push('/');
            if is_major {
                major.push_str(if i == 1 { top } else { "" });
                major.push('/');
                major.push_str(segment);
                template.push_str(":major");
            } else if id {
                template.push_str(":id");
            } else if i > 0 && segments[i - 1] == "reactions" {
                template.push_str(":emoji");
            } else {
                template.push_str(segment);
            }
        }
        Route {
            template,
            major,
            interaction: top == "interactions" || tokened,
        }
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
    /// Cloudflare's, not Discord's: every route waits.
    pub cloudflare: bool,
}

impl TooMany {
    /// A 429's wait and scope from its JSON body ("retry_after" in seconds, "global") or else its
    /// headers (topics/rate-limits, "Exceeding A Rate Limit"). One without a JSON body and
    /// without `X-RateLimit-*` headers is Cloudflare's: its `Retry-After`, else
    /// `CLOUDFLARE_PAUSE_MS`.
    pub fn of<'a>(header: impl Fn(&str) -> Option<&'a str>, body: &[u8]) -> TooMany {
        let json: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
        let told_by_discord = json.is_object()
            || [
                "x-ratelimit-scope",
                "x-ratelimit-bucket",
                "x-ratelimit-global",
            ]
            .iter()
            .any(|name| header(name).is_some());
        let retry_after = header("retry-after").and_then(|s| s.trim().parse::<f64>().ok());
        if !told_by_discord {
            return TooMany {
                retry_after_ms: retry_after.map_or(CLOUDFLARE_PAUSE_MS, seconds_to_ms),
                global: true,
                shared: false,
                cloudflare: true,
            };
        }
        let scope = header("x-ratelimit-scope");
        TooMany {
            retry_after_ms: seconds_to_ms(
                json["retry_after"].as_f64().or(retry_after).unwrap_or(1.0),
            ),
            global: json["global"].as_bool() == Some(true)
                || header("x-ratelimit-global").is_some()
                || scope == Some("global"),
            shared: scope == Some("shared"),
            cloudflare: false,
        }
    }
}

fn seconds_to_ms(seconds: f64) -> i64 {
    (seconds.max(0.0) * 1000.0).ceil() as i64
}

/// Whether a request that met its `met`-th 429 (`too_many`) is sent again, with `left_ms` of its
/// wait left: after how long, or `None` to hand the 429 back.
pub fn again_after_429(met: u32, too_many: &TooMany, left_ms: i64) -> Option<i64> {
    let wait = too_many.retry_after_ms.max(RETRY_FLOOR_MS);
    (!too_many.cloudflare && met < MOST_429S_A_REQUEST && wait <= left_ms).then_some(wait)
}

/// What an answer's `X-RateLimit-*` headers told (topics/rate-limits, "Header Format").
#[derive(Clone, Debug, PartialEq)]
pub struct Told {
    /// `X-RateLimit-Bucket`: the limit's name, shared by the routes that share it.
    pub bucket: Option<String>,
    pub remaining: u32,
    pub reset_after_ms: i64,
}

/// What an answer changed that the operator hears of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heard {
    /// The invalid requests of the window reached `INVALID_PAUSE_AT` (once a crossing).
    pub invalid_pause_began: bool,
    /// A Cloudflare 429 paused every route (not while one pause runs).
    pub cloudflare_pause_began: bool,
}

/// A bucket's name: its hash once an answer told it, else its route's template; and the
/// top-level resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct BucketKey {
    limit: Limit,
    major: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Limit {
    Hash(String),
    Unlearnt(String),
}

/// One request's turn in a bucket: whoever holds the lock is the bucket's request in flight.
/// tokio's mutex is fair, so the others go in the order they came, one at a time.
pub type Queue = Arc<tokio::sync::Mutex<()>>;

#[derive(Default, Debug)]
struct Bucket {
    /// Requests left in the window, once an answer told it; unknown after the window ends,
    /// until the next answer.
    remaining: Option<u32>,
    reset_at_ms: i64,
    queue: Queue,
}

#[derive(Default, Debug)]
pub struct Limits {
    /// Each route template's bucket hash, once an answer told it.
    hashes: HashMap<String, String>,
    buckets: HashMap<BucketKey, Bucket>,
    /// Requests that asked for their bucket's queue, for the sweep.
    asked: u64,
    /// No request bound to the global limit goes before this.
    global_until_ms: i64,
    /// No request at all goes before this (a Cloudflare 429).
    cloudflare_until_ms: i64,
    /// When the requests bound to the global limit in the last second went, or, once answered,
    /// when their answer came: Discord counts a request when it arrives, some time between the
    /// two, so it is counted until a second after its answer (a request sent late by a busy
    /// machine, or overtaken on the way, then never makes 51 in Discord's second).
    sent: VecDeque<i64>,
    /// When each invalid request of the window was answered.
    invalid: VecDeque<i64>,
    /// The invalid requests of the window are at `INVALID_PAUSE_AT` or more.
    invalid_paused: bool,
}

impl Limits {
    fn key_of(&self, route: &Route) -> BucketKey {
        let limit = match self.hashes.get(&route.template) {
            Some(hash) => Limit::Hash(hash.clone()),
            None => Limit::Unlearnt(route.template.clone()),
        };
        BucketKey {
            limit,
            major: route.major.clone(),
        }
    }

    /// The queue of `route`'s bucket, made if it is new. Every `SWEEP_EVERY` asks, the idle
    /// buckets are dropped.
    pub fn queue_of(&mut self, route: &Route, now_ms: i64) -> Queue {
        self.asked += 1;
        if self.asked.is_multiple_of(SWEEP_EVERY) {
            // Idle: its window over (nothing it knows still holds) and its queue held by nobody
            // (no request waits in it or is in flight).
            self.buckets
                .retain(|_, b| now_ms < b.reset_at_ms || Arc::strong_count(&b.queue) > 1);
        }
        let key = self.key_of(route);
        Arc::clone(&self.buckets.entry(key).or_default().queue)
    }

    /// Buckets held in memory.
    #[cfg(test)]
    pub fn bucket_count(&self) -> usize {
        self.buckets.len()
    }

    /// What the limits say of `route` at `now_ms`, counting nothing.
    pub fn check(&mut self, route: &Route, now_ms: i64) -> Admit {
        if now_ms < self.cloudflare_until_ms {
            let ms = self.cloudflare_until_ms - now_ms;
            return Admit::Wait { ms, global: true };
        }
        if !route.interaction {
            let mut until = self.global_until_ms;
            if let Some(at) = self.invalid_pause_ends(now_ms) {
                until = until.max(at);
            }
            while self
                .sent
                .front()
                .is_some_and(|&at| at <= now_ms - GLOBAL_WINDOW_MS)
            {
                self.sent.pop_front();
            }
            if self.sent.len() >= GLOBAL_PER_SECOND {
                let oldest = self.sent[self.sent.len() - GLOBAL_PER_SECOND];
                until = until.max(oldest + GLOBAL_WINDOW_MS);
            }
            if now_ms < until {
                let ms = until - now_ms;
                return Admit::Wait { ms, global: true };
            }
        }
        match self.buckets.get(&self.key_of(route)) {
            Some(b) if b.remaining == Some(0) && now_ms < b.reset_at_ms => Admit::Wait {
                ms: b.reset_at_ms - now_ms,
                global: false,
            },
            _ => Admit::Go,
        }
    }

    /// Whether `route` may go at `now_ms`; when it may, it is counted as sent. The caller
    /// holds its bucket's queue.
    pub fn admit(&mut self, route: &Route, now_ms: i64) -> Admit {
        let verdict = self.check(route, now_ms);
        if verdict != Admit::Go {
            return verdict;
        }
        if !route.interaction {
            self.sent.push_back(now_ms);
        }
        let key = self.key_of(route);
        let bucket = self.buckets.entry(key).or_default();
        if now_ms >= bucket.reset_at_ms {
            // A new window: unknown until this request's answer tells it (the queue lets no
            // other go meanwhile).
            bucket.remaining = None;
        }
        bucket.remaining = bucket.remaining.map(|n| n.saturating_sub(1));
        Admit::Go
    }

    /// `route`, admitted at `admitted_ms`, was answered at `now_ms`: it counts against the
    /// global limit from its answer on (see `sent`).
    pub fn came_back(&mut self, route: &Route, admitted_ms: i64, now_ms: i64) {
        if route.interaction {
            return;
        }
        if let Some(i) = self.sent.iter().position(|&at| at == admitted_ms) {
            self.sent.remove(i);
            let answered = now_ms.max(admitted_ms);
            let at = self.sent.partition_point(|&t| t <= answered);
            self.sent.insert(at, answered);
        }
    }

    /// What an answer's headers told of `route`'s bucket at `now_ms`. Its hash names the
    /// bucket from now on (shared with every route told the same). The answer replaces what is
    /// known only when it starts a later window; within one, only a lower `remaining` counts,
    /// so an answer that was overtaken never gives back requests already spent.
    pub fn told(&mut self, route: &Route, told: Told, now_ms: i64) {
        if let Some(hash) = told.bucket {
            self.learn_hash(route, hash);
        }
        let key = self.key_of(route);
        let bucket = self.buckets.entry(key).or_default();
        let reset_at_ms = now_ms + told.reset_after_ms;
        let later_window = bucket.remaining.is_none()
            || now_ms >= bucket.reset_at_ms
            || reset_at_ms > bucket.reset_at_ms + NEW_WINDOW_MARGIN_MS;
        if later_window {
            bucket.remaining = Some(told.remaining);
            bucket.reset_at_ms = reset_at_ms;
        } else if bucket.remaining.is_some_and(|n| told.remaining < n) {
            bucket.remaining = Some(told.remaining);
        }
    }

    /// `route`'s template is limited by `hash`: what was learnt under the route's own name (and
    /// its queue) moves to the hash's bucket, unless that bucket is known already; requests
    /// queued in a queue no longer the route's find the right one when their turn comes.
    fn learn_hash(&mut self, route: &Route, hash: String) {
        if self.hashes.get(&route.template) == Some(&hash) {
            return;
        }
        let old = self.key_of(route);
        self.hashes.insert(route.template.clone(), hash);
        if let Some(bucket) = self.buckets.remove(&old) {
            let new = self.key_of(route);
            self.buckets.entry(new).or_insert(bucket);
        }
    }

    /// Discord answered `status` at `now_ms` (with `too_many` for a 429): an invalid request
    /// is counted, and a 429 pauses its bucket, every route bound to the global limit, or
    /// every route (Cloudflare's).
    pub fn answered(
        &mut self,
        route: &Route,
        status: u16,
        too_many: Option<TooMany>,
        now_ms: i64,
    ) -> Heard {
        let mut heard = Heard::default();
        let shared = too_many.is_some_and(|t| t.shared);
        if matches!(status, 401 | 403 | 429) && !shared {
            self.invalid.push_back(now_ms);
            let paused = self.invalid_in_window(now_ms) >= INVALID_PAUSE_AT;
            heard.invalid_pause_began = paused && !self.invalid_paused;
            self.invalid_paused = paused;
        }
        let Some(t) = too_many else {
            return heard;
        };
        let until = now_ms + t.retry_after_ms;
        if t.cloudflare {
            heard.cloudflare_pause_began = now_ms >= self.cloudflare_until_ms;
            self.cloudflare_until_ms = self.cloudflare_until_ms.max(until);
        } else if t.global {
            self.global_until_ms = self.global_until_ms.max(until);
        } else {
            let key = self.key_of(route);
            let bucket = self.buckets.entry(key).or_default();
            bucket.remaining = Some(0);
            bucket.reset_at_ms = bucket.reset_at_ms.max(until);
        }
        heard
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
        if self.invalid.len() < INVALID_PAUSE_AT {
            self.invalid_paused = false;
        }
        self.invalid.len()
    }

    /// When the invalid requests of the window will be below `INVALID_PAUSE_AT` again, if they
    /// are not now.
    fn invalid_pause_ends(&mut self, now_ms: i64) -> Option<i64> {
        let n = self.invalid_in_window(now_ms);
        (n >= INVALID_PAUSE_AT).then(|| self.invalid[n - INVALID_PAUSE_AT] + INVALID_WINDOW_MS)
    }

    /// Until when every request bound to the global limit is held back: a global 429, a
    /// Cloudflare 429, or the invalid requests' pause (past, when none holds).
    pub fn held_back_until_ms(&mut self, now_ms: i64) -> i64 {
        let invalid = self.invalid_pause_ends(now_ms).unwrap_or(i64::MIN);
        self.global_until_ms
            .max(self.cloudflare_until_ms)
            .max(invalid)
    }
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
