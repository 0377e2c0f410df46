//! A fake Discord on 127.0.0.1 for end-to-end tests of the bot: a REST server and a WebSocket
//! gateway, as strict as Discord's documentation. Every rule below cites the page it comes from
//! (paths under https://discord.com/developers/docs/):
//!
//! - interactions/receiving-and-responding: the first response within 3 s, else 404 Unknown
//!   interaction (10062), counted from the interaction's creation, whose time its id holds
//!   (reference, "Snowflakes": milliseconds since 2015 in the bits above 22); an interaction may
//!   reach the bot late, queued or replayed after a RESUME (`deliver_late`); one response per interaction (40060); follow-ups and edits for 15
//!   minutes (401 Invalid Webhook Token, 50027, after that); the first follow-up after a deferred
//!   response (type 5) edits the "thinking" message instead of creating one; UPDATE_MESSAGE (7) and
//!   DEFERRED_UPDATE_MESSAGE (6) only for components; at most 25 autocomplete choices, each
//!   named and valued in 1 to 100 characters (interactions/application-commands); a modal's
//!   title and its inputs' labels at most 45 characters (and message-components, "Text Input").
//! - resources/message ("Create Message", "Allowed Mentions Object"): content up to 2000
//!   characters, an attachment description up to 1024, files up to `attachment_size_limit`;
//!   `allowed_mentions` decides who is notified (absent: every mentioned user, role and
//!   @everyone); `enforce_nonce` returns the earlier message for a repeated nonce "in the past
//!   few minutes" (`NONCE_WINDOW_MS`: two, the least "a few" can mean), after that it makes a
//!   new one. Only a new message notifies: edits never do, nor ephemeral messages; a
//!   backslash-escaped mention is text. A reply (`message_reference`) needs Read Message
//!   History (160002, "Limitations").
//! - resources/message ("Get Channel Messages"): needs View Channel (50001); without Read
//!   Message History no messages are listed; `after` lists the messages after an id, newest
//!   first, at most `limit` (1 to 100, default 50); a listed message carries no nonce (it is
//!   only "used for validating a message was sent", in the answer and MESSAGE_CREATE). Message
//!   ids are snowflakes of the virtual clock.
//! - interactions/message-components: at most 5 rows of 5 buttons, custom ids up to 100
//!   characters, labels up to 80.
//! - topics/permissions: posting needs View Channel (50001 Missing Access) and Send Messages, or
//!   Send Messages in Threads in a thread; files need Attach Files, also on follow-ups and edits
//!   (change log, 2023); starting a thread needs Create Public Threads (403, 50013 otherwise).
//! - resources/channel ("Start Thread without Message"): a thread's name has 1 to 100 characters;
//!   threads open only in text channels (public or private threads) and announcement channels
//!   (announcement threads, type 10), never in a thread, a voice or a stage channel (400, 50024).
//! - resources/guild ("List Active Guild Threads"): the server's threads not archived; Start
//!   Thread makes a new thread at every call (no idempotency), with a snowflake id.
//! - topics/threads: a thread archives after `auto_archive_duration` minutes without activity
//!   (THREAD_UPDATE); users cannot run commands in an archived thread; a message unarchives it
//!   unless it is locked, and in a locked thread only Manage Threads may post; unarchiving an
//!   unlocked thread by editing `archived` needs Send Messages or Manage Threads
//!   (resources/channel, "Modify Channel", Thread).
//! - interactions/application-commands ("Bulk Overwrite Global Application Commands", "Get
//!   Global Application Commands", and their guild twins): a PUT replaces the scope's commands,
//!   a GET returns them as Application Command Objects (with the id, version and defaults
//!   Discord adds).
//! - events/gateway ("Session Start Limit"): `GET /gateway/bot` tells the session starts left
//!   and when their count resets; an IDENTIFY past the last is refused (the token is reset:
//!   4004).
//! - events/gateway-events ("Channel Update"): a channel's permission overwrites changed
//!   (`set_bot_permissions`) dispatch CHANNEL_UPDATE.
//! - topics/opcodes-and-status-codes: a deleted channel answers 404 Unknown Channel (10003);
//!   events/gateway-events: GUILD_DELETE without `unavailable` means the bot was removed.
//! - topics/opcodes-and-status-codes ("HTTP Response Codes": 5xx, "the server had an error
//!   processing your request"): Discord's incidents (discordstatus.com) answer 502/503 for
//!   minutes at a time, and a request may take effect although its answer never arrives.
//!   `outage` answers 503 to every request that makes a message (a channel post, an interaction
//!   response, a follow-up, an edit of `@original`) for a stretch of virtual time, with no
//!   effect; `lossy` lets every n-th such request take effect and answers it 503.
//!
//! Every request body must also match Discord's own OpenAPI description of the operation
//! (`openapi.rs`; github.com/discord/discord-api-spec, vendored under `tests/data/`), or it is
//! answered 400 50035 Invalid Form Body with the schema's complaint.
//!
//! Time runs on a virtual clock that only the test moves (`advance`): a slow machine never trips
//! a deadline by accident, and each deadline rule has a test that moves the clock past it. A
//! test may share the clock with the bot (`share_clock`): the fake writes it to a file the bot
//! reads (`BREDON_CLOCK_FILE`), and interaction ids then carry the virtual time too.
//! Tests that care how fast Bredon answers assert the order of its requests instead
//! (acknowledgement before the slow work). Payloads are complete
//! objects: serenity drops what it cannot parse without a word, so `payloads_deserialize` checks
//! each with serenity's own types.

#![allow(dead_code)]

mod openapi;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::{frame::coding::CloseCode, CloseFrame};
use tokio_tungstenite::tungstenite::Message;

pub const APP_ID: u64 = 900_000_000_000_000_001;
pub const BOT_ID: u64 = 900_000_000_000_000_002;
pub const GUILD_ID: u64 = 900_000_000_000_000_003;

/// How far apart the IDENTIFYs of one `max_concurrency` bucket must be (events/gateway, "Rate
/// Limiting": per 5 seconds).
pub const IDENTIFY_SPACING: Duration = Duration::from_secs(5);

/// Permission bits (topics/permissions).
pub mod perms {
    pub const ADMINISTRATOR: u64 = 1 << 3;
    pub const MANAGE_GUILD: u64 = 1 << 5;
    pub const MANAGE_MESSAGES: u64 = 1 << 13;
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    pub const SEND_MESSAGES: u64 = 1 << 11;
    pub const ATTACH_FILES: u64 = 1 << 15;
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    pub const MANAGE_THREADS: u64 = 1 << 34;
    pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    /// What Bredon's invite link asks for (README, "Setting up Discord").
    pub const INVITE: u64 = VIEW_CHANNEL
        | SEND_MESSAGES
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS;
}

/// Gateway intents (topics/gateway, "Gateway Intents", "List of Intents").
pub mod intents {
    /// GUILD_CREATE, thread and channel events.
    pub const GUILDS: u64 = 1 << 0;
    /// MESSAGE_CREATE in servers.
    pub const GUILD_MESSAGES: u64 = 1 << 9;
    /// Privileged: without it, a received message's `content` is empty unless the message
    /// mentions the app, is a DM, or is the app's own ("Message Content Intent").
    pub const MESSAGE_CONTENT: u64 = 1 << 15;
}

const DEADLINE_MS: i64 = 3_000;
const TOKEN_LIFETIME_MS: i64 = 15 * 60_000;
/// How long a nonce makes a repeated post return the first message (see the header).
const NONCE_WINDOW_MS: i64 = 2 * 60_000;
/// A file's size limit in a server without boosts: 10 MiB since 2025 (reference, "Uploading
/// Files"; interactions carry it as `attachment_size_limit`).
const ATTACHMENT_SIZE_LIMIT: usize = 10 * 1024 * 1024;

#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub content_type: String,
    pub body: Vec<u8>,
    pub status: u16,
    /// When the request had fully arrived.
    pub at: Instant,
}

impl Request {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The JSON payload: the body itself, or the `payload_json` part of a multipart body.
    pub fn json(&self) -> Value {
        if self.content_type.starts_with("multipart/") {
            return parts(self)
                .into_iter()
                .find(|p| p.name == "payload_json")
                .and_then(|p| serde_json::from_slice(&p.body).ok())
                .unwrap_or(Value::Null);
        }
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The files of a multipart body: (file name, bytes).
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        parts(self)
            .into_iter()
            .filter_map(|p| p.filename.map(|f| (f, p.body)))
            .collect()
    }

    /// PNG files in a multipart body.
    pub fn pngs(&self) -> Vec<Vec<u8>> {
        self.files()
            .into_iter()
            .filter(|(_, b)| b.starts_with(b"\x89PNG"))
            .map(|(_, b)| b)
            .collect()
    }

    pub fn is_ephemeral(&self) -> bool {
        flags(&message_payload(&self.json())) & 64 != 0
    }

    /// The message text, for callbacks (`data.content`) and messages (`content`).
    pub fn content(&self) -> String {
        message_payload(&self.json())["content"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

/// The message inside a request's JSON: `data` of a callback, else the JSON itself.
fn message_payload(j: &Value) -> Value {
    if j.get("type").is_some() && j.get("data").is_some() {
        j["data"].clone()
    } else {
        j.clone()
    }
}

fn flags(payload: &Value) -> u64 {
    payload["flags"].as_u64().unwrap_or(0)
}

struct Part {
    name: String,
    filename: Option<String>,
    body: Vec<u8>,
}

/// The parts of a multipart/form-data body.
fn parts(r: &Request) -> Vec<Part> {
    let Some(boundary) = r
        .content_type
        .split(';')
        .find_map(|p| p.trim().strip_prefix("boundary="))
    else {
        return Vec::new();
    };
    let delimiter = format!("--{}", boundary.trim_matches('"'));
    let mut out = Vec::new();
    let body = &r.body;
    let mut starts: Vec<usize> = Vec::new();
    let mut i = 0;
    while let Some(p) = find(&body[i..], delimiter.as_bytes()) {
        starts.push(i + p);
        i += p + delimiter.len();
    }
    for w in starts.windows(2) {
        let part = &body[w[0] + delimiter.len()..w[1]];
        let Some(split) = find(part, b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&part[..split]).to_string();
        let mut content = &part[split + 4..];
        if content.ends_with(b"\r\n") {
            content = &content[..content.len() - 2];
        }
        let attr = |key: &str| {
            let k = format!("{key}=\"");
            head.find(&k).and_then(|s| {
                let rest = &head[s + k.len()..];
                rest.find('"').map(|e| rest[..e].to_string())
            })
        };
        out.push(Part {
            name: attr(" name").or_else(|| attr("name")).unwrap_or_default(),
            filename: attr("filename"),
            body: content.to_vec(),
        });
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A message as Discord holds it.
#[derive(Clone, Debug)]
pub struct Msg {
    pub id: u64,
    pub channel: u64,
    pub content: String,
    pub ephemeral: bool,
    pub files: Vec<String>,
    pub components: Value,
    pub edits: u32,
    pub deleted: bool,
    nonce: Option<String>,
    /// Who wrote it: Bredon, or a test user who typed it (`say`).
    pub author: u64,
    /// When it was made, on the virtual clock.
    pub created_ms: i64,
}

/// A user notified by a new message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notification {
    pub user: u64,
    pub message: u64,
    pub channel: u64,
}

struct Interaction {
    kind: u8,
    channel: u64,
    created_ms: i64,
    responded: Option<u8>,
    /// The message the interaction's `@original` is: its response, or the pressed message.
    original: Option<u64>,
    /// A deferred response's "thinking" message, not yet edited.
    thinking: bool,
    attachment_size_limit: usize,
}

struct Channel {
    name: String,
    /// 0 text, 2 voice, 5 announcement, 10 announcement thread, 11 public thread, 13 stage.
    kind: u8,
    parent: Option<u64>,
    bot_permissions: u64,
    deleted: bool,
    archived: bool,
    locked: bool,
    auto_archive_minutes: i64,
    last_activity_ms: i64,
    /// The server it is in (`GUILD_ID` unless a test places it in another).
    guild: u64,
}

impl Channel {
    fn text() -> Channel {
        Channel {
            name: "tak".into(),
            guild: GUILD_ID,
            kind: 0,
            parent: None,
            bot_permissions: perms::INVITE,
            deleted: false,
            archived: false,
            locked: false,
            auto_archive_minutes: 0,
            last_activity_ms: 0,
        }
    }
}

#[derive(Default)]
struct State {
    requests: Mutex<Vec<Request>>,
    /// (path, arrival) of every request carrying a PNG, kept apart so waiting on uploads is cheap.
    uploads: Mutex<Vec<(String, Instant)>>,
    /// (path fragment, status): the next matching request gets this status, with no effect.
    failures: Mutex<VecDeque<(String, u16)>>,
    /// (path fragment, status): the next matching request takes effect, but its answer is this
    /// status (a response lost on the way back).
    lost_answers: Mutex<VecDeque<(String, u16)>>,
    /// The identified gateway connections: each one shard of a total.
    gateways: Mutex<Vec<ShardConnection>>,
    /// The shard count `GET /gateway/bot` recommends (0: one).
    recommended_shards: AtomicU64,
    /// Servers besides `GUILD_ID` that the app is in.
    more_guilds: Mutex<Vec<u64>>,
    /// Each server's system channel, where Discord posts its own notices (none by default).
    system_channels: Mutex<HashMap<u64, u64>>,
    /// IDENTIFYs allowed at once ("Session Start Limit Object": `max_concurrency`; 1 for most
    /// bots).
    max_concurrency: AtomicU64,
    /// When each `max_concurrency` bucket last identified.
    last_identify: Mutex<HashMap<u64, Instant>>,
    /// IDENTIFYs answered with Invalid Session for coming too soon after their bucket's last.
    invalid_sessions: AtomicU64,
    /// The gateway URL `GET /gateway` gives, when a test sets another than the fake's own.
    advertised_gateway: Mutex<Option<String>>,
    /// Rate limits, when a test asks for them (`enforce_rate_limits`).
    rate_limits: Mutex<Option<RateLimits>>,
    /// Requests answered 429 by the rate limits.
    rate_limited: AtomicU64,
    identifies: AtomicU64,
    resumes: AtomicU64,
    seq: AtomicU64,
    ids: AtomicU64,
    ws_url: Mutex<String>,
    /// The virtual clock, in milliseconds since the fake started; it moves only by `advance`.
    clock_ms: AtomicI64,
    /// Where the virtual clock is written for the bot, when the test shares it.
    clock_file: Mutex<Option<std::path::PathBuf>>,
    interactions: Mutex<HashMap<String, Interaction>>,
    messages: Mutex<Vec<Msg>>,
    notifications: Mutex<Vec<Notification>>,
    /// Role ids and `@everyone`/`@here` that were pinged (never wanted).
    other_pings: Mutex<Vec<String>>,
    channels: Mutex<HashMap<u64, Channel>>,
    /// (user, DM channel).
    dms: Mutex<Vec<(u64, u64)>>,
    /// The status of the command registration request (200 unless a test says otherwise).
    registration_status: AtomicU64,
    /// The registered commands by scope (the request path), as Discord stores them.
    commands: Mutex<HashMap<String, Vec<Value>>>,
    /// Until this virtual time, message-making requests answer 503 and have no effect.
    outage_until_ms: AtomicI64,
    /// (path fragment, until): a partial outage, matching requests answer 503 without effect.
    partial_outages: Mutex<Vec<(String, i64)>>,
    /// (method, path fragment, delay): matching requests take `delay` of wall time to take
    /// effect and be answered, as Discord's slower routes do.
    slow_routes: Mutex<Vec<(String, String, Duration)>>,
    /// (until, every, seen): before `until`, every `every`-th message-making request takes
    /// effect but is answered 503.
    lossy: Mutex<Option<(i64, u64, u64)>>,
    /// The next interaction reaches the bot this long after Discord made it.
    late_ms: AtomicI64,
    /// Users whose privacy settings refuse direct messages from server members.
    closed_dms: Mutex<Vec<u64>>,
    /// Server nicknames (resources/guild, "Guild Member Object": `nick`), by user.
    nicknames: Mutex<HashMap<u64, String>>,
    /// Session starts the day allows (1000 unless a test says otherwise), those spent, and the
    /// milliseconds until the day's count resets, as `GET /gateway/bot` tells them.
    session_starts: AtomicU64,
    session_starts_used: AtomicU64,
    session_reset_after_ms: AtomicU64,
    /// The intents of the last IDENTIFY.
    intents: AtomicU64,
    /// The app's Developer Portal leaves the Message Content intent off: an IDENTIFY asking for
    /// it is closed with 4014 (topics/opcodes-and-status-codes, "Disallowed intent(s)").
    content_intent_off: std::sync::atomic::AtomicBool,
}

/// Rate limits as topics/rate-limits describes them: each route (method and path, its major
/// parameter, a channel, server or webhook, kept apart) has a bucket of `per_route` requests a
/// `window`, told in `X-RateLimit-*` headers; every request but the interaction endpoints also
/// counts against the global limit of 50 a second ("Global Rate Limit"). A request past either is
/// answered 429 with `retry_after` and has no effect. Windows run on the wall clock, as the
/// limiters of bots and proxies do.
struct RateLimits {
    per_route: u32,
    window: Duration,
    buckets: HashMap<String, (Instant, u32)>,
    global: (Instant, u32),
}

/// What the limits make of one request: the headers of its answer, and a 429 if it is refused.
struct RateVerdict {
    headers: String,
    refused: Option<Answer>,
}

const GLOBAL_PER_SECOND: u32 = 50;

/// The bucket of a route: numbers other than a major parameter's are the same bucket.
fn bucket_of(method: &str, path: &str) -> String {
    let segments: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let mut key = vec![method.to_string()];
    for (i, seg) in segments.iter().enumerate() {
        let major = i > 0 && matches!(segments[i - 1], "channels" | "guilds" | "webhooks")
            || i > 1 && segments[i - 2] == "webhooks";
        let numeric = !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit());
        key.push(if numeric && !major {
            ":id".into()
        } else {
            seg.to_string()
        });
    }
    key.join("/")
}

impl RateLimits {
    fn judge(&mut self, method: &str, path: &str) -> RateVerdict {
        let now = Instant::now();
        let interaction = path.contains("/interactions/") || path.contains("/webhooks/");
        let key = bucket_of(method, path);
        let (per_route, window) = (self.per_route, self.window);
        let bucket = self.buckets.entry(key.clone()).or_insert((now, 0));
        if now >= bucket.0 + window {
            *bucket = (now, 0);
        }
        if now >= self.global.0 + Duration::from_secs(1) {
            self.global = (now, 0);
        }
        let reset_after = (bucket.0 + window - now).as_secs_f64();
        let global_full = !interaction && self.global.1 >= GLOBAL_PER_SECOND;
        let route_full = bucket.1 >= per_route;
        if !global_full && !route_full {
            bucket.1 += 1;
            if !interaction {
                self.global.1 += 1;
            }
        }
        let reset_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs_f64()
            + reset_after;
        let mut headers = format!(
            "x-ratelimit-limit: {per_route}\r\nx-ratelimit-remaining: {}\r\nx-ratelimit-reset: {reset_at:.3}\r\nx-ratelimit-reset-after: {reset_after:.3}\r\nx-ratelimit-bucket: {:x}\r\n",
            per_route - bucket.1,
            key.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3))
        );
        if !global_full && !route_full {
            return RateVerdict {
                headers,
                refused: None,
            };
        }
        let retry_after = if global_full {
            (self.global.0 + Duration::from_secs(1) - now).as_secs_f64()
        } else {
            reset_after
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

/// One shard's gateway connection (topics/gateway, "Sharding").
struct ShardConnection {
    shard: u64,
    total: u64,
    tx: mpsc::UnboundedSender<Message>,
}

/// The shard that receives a server's events: `(guild_id >> 22) % num_shards`; direct
/// messages go to shard 0 (topics/gateway, "Sharding").
pub fn shard_of(guild: Option<u64>, total: u64) -> u64 {
    guild.map_or(0, |g| (g >> 22) % total.max(1))
}

impl State {
    /// Whether `shard` may IDENTIFY now (its bucket's last IDENTIFY was 5 s ago or more), and
    /// if so, that it did.
    fn identify_allowed(&self, shard: u64) -> bool {
        let bucket = shard % self.max_concurrency.load(Ordering::SeqCst).max(1);
        let mut last = self.last_identify.lock().unwrap();
        let now = Instant::now();
        if last
            .get(&bucket)
            .is_some_and(|t| now.duration_since(*t) < IDENTIFY_SPACING)
        {
            return false;
        }
        last.insert(bucket, now);
        true
    }

    fn guilds(&self) -> Vec<u64> {
        let mut all = vec![GUILD_ID];
        all.extend(self.more_guilds.lock().unwrap().iter().copied());
        all
    }

    fn now_ms(&self) -> i64 {
        self.clock_ms.load(Ordering::SeqCst)
    }

    fn next_id(&self) -> u64 {
        self.ids.fetch_add(1, Ordering::SeqCst)
    }

    /// A new message's or thread's id: a snowflake of the virtual time (reference,
    /// "Snowflakes").
    fn new_snowflake(&self) -> u64 {
        snowflake(-self.now_ms(), self.next_id())
    }

    /// How far interaction ids are moved on: by the virtual clock when the bot shares it.
    fn shared_clock_ms(&self) -> i64 {
        match self.clock_file.lock().unwrap().is_some() {
            true => self.now_ms(),
            false => 0,
        }
    }

    fn dispatch(&self, event: &str, data: Value) {
        let s = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let guild = data["guild_id"].as_str().and_then(|g| g.parse().ok());
        let frame = json!({ "op": 0, "t": event, "s": s, "d": data });
        for gw in self.gateways.lock().unwrap().iter() {
            if gw.shard == shard_of(guild, gw.total) {
                let _ = gw.tx.send(Message::Text(frame.to_string()));
            }
        }
    }

    /// The DM channel with `user` (created on first use); every message there notifies them.
    fn dm_channel(&self, user: u64) -> u64 {
        let mut dms = self.dms.lock().unwrap();
        if let Some((_, id)) = dms.iter().find(|(u, _)| *u == user) {
            return *id;
        }
        let id = self.next_id();
        dms.push((user, id));
        id
    }

    fn with_channel<T>(&self, id: u64, f: impl FnOnce(&mut Channel) -> T) -> T {
        let mut channels = self.channels.lock().unwrap();
        f(channels.entry(id).or_insert_with(Channel::text))
    }
}

#[derive(Clone)]
pub struct FakeDiscord {
    pub api_base: String,
    state: Arc<State>,
}

/// An answer Discord would give: status and JSON body.
type Answer = (u16, Option<Value>);

fn error(status: u16, code: u64, message: &str) -> Answer {
    (status, Some(json!({ "message": message, "code": code })))
}

fn form_error(path: &str, code: &str, message: &str) -> Answer {
    let mut errors = json!({ "_errors": [{ "code": code, "message": message }] });
    for key in path.rsplit('.') {
        errors = json!({ key: errors });
    }
    (
        400,
        Some(json!({ "message": "Invalid Form Body", "code": 50035, "errors": errors })),
    )
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let ws = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let state = Arc::new(State::default());
        state.ids.store(1_000_000, Ordering::SeqCst);
        state.registration_status.store(200, Ordering::SeqCst);
        state.session_starts.store(1000, Ordering::SeqCst);
        state.max_concurrency.store(1, Ordering::SeqCst);
        *state.ws_url.lock().unwrap() = format!("ws://{}", ws.local_addr().unwrap());
        let api_base = format!("http://{}", http.local_addr().unwrap());
        let s = Arc::clone(&state);
        tokio::spawn(async move {
            while let Ok((stream, _)) = http.accept().await {
                tokio::spawn(serve_http(stream, Arc::clone(&s)));
            }
        });
        let s = Arc::clone(&state);
        tokio::spawn(async move {
            while let Ok((stream, _)) = ws.accept().await {
                tokio::spawn(serve_gateway(stream, Arc::clone(&s)));
            }
        });
        FakeDiscord { api_base, state }
    }

    /// How many commands are registered, in every scope.
    pub fn registered_commands(&self) -> usize {
        self.state
            .commands
            .lock()
            .unwrap()
            .values()
            .map(Vec::len)
            .sum()
    }

    pub fn requests(&self) -> Vec<Request> {
        self.state.requests.lock().unwrap().clone()
    }

    /// Paths and arrival times of requests that carried a PNG.
    pub fn uploads(&self) -> Vec<(String, Instant)> {
        self.state.uploads.lock().unwrap().clone()
    }

    pub fn request_count(&self) -> usize {
        self.state.requests.lock().unwrap().len()
    }

    /// IDENTIFYs refused for coming sooner than 5 s after their bucket's last.
    pub fn invalid_sessions(&self) -> u64 {
        self.state.invalid_sessions.load(Ordering::SeqCst)
    }

    pub fn identifies(&self) -> u64 {
        self.state.identifies.load(Ordering::SeqCst)
    }

    pub fn resumes(&self) -> u64 {
        self.state.resumes.load(Ordering::SeqCst)
    }

    /// Every message created so far (including ephemeral ones), in order.
    pub fn messages(&self) -> Vec<Msg> {
        self.state.messages.lock().unwrap().clone()
    }

    pub fn message(&self, id: u64) -> Option<Msg> {
        self.messages().into_iter().find(|m| m.id == id)
    }

    /// Users notified so far, in order.
    pub fn notifications(&self) -> Vec<Notification> {
        self.state.notifications.lock().unwrap().clone()
    }

    /// Messages sent to `user` in their DM channel.
    pub fn direct_messages(&self, user: u64) -> Vec<Msg> {
        let dm = self
            .state
            .dms
            .lock()
            .unwrap()
            .iter()
            .find(|(u, _)| *u == user)
            .map(|(_, c)| *c);
        self.messages()
            .into_iter()
            .filter(|m| Some(m.channel) == dm)
            .collect()
    }

    /// Roles, @everyone or @here pinged so far.
    pub fn other_pings(&self) -> Vec<String> {
        self.state.other_pings.lock().unwrap().clone()
    }

    /// The next request whose path contains `fragment` is answered with `status` and has no effect.
    pub fn fail_next(&self, fragment: &str, status: u16) {
        self.state
            .failures
            .lock()
            .unwrap()
            .push_back((fragment.to_string(), status));
    }

    /// The next request whose path contains `fragment` takes effect, but is answered with `status`,
    /// as when Discord's answer is lost on the way back.
    pub fn lose_next_answer(&self, fragment: &str, status: u16) {
        self.state
            .lost_answers
            .lock()
            .unwrap()
            .push_back((fragment.to_string(), status));
    }

    /// For the next `length` of virtual time, every message-making request answers 503 and
    /// makes nothing.
    pub fn outage(&self, length: Duration) {
        let until = self.state.now_ms() + length.as_millis() as i64;
        self.state.outage_until_ms.store(until, Ordering::SeqCst);
    }

    /// For the next `length` of virtual time, every `every`-th message-making request makes its
    /// message but is answered 503.
    /// For `length` of virtual time, requests whose path holds `fragment` answer 503 and have no
    /// effect (an incident of one route).
    pub fn outage_of(&self, fragment: &str, length: Duration) {
        let until = self.state.now_ms() + length.as_millis() as i64;
        self.state
            .partial_outages
            .lock()
            .unwrap()
            .push((fragment.to_string(), until));
    }

    /// Requests `method` whose path holds `fragment` take `delay` to take effect and be answered.
    pub fn slow_route(&self, method: &str, fragment: &str, delay: Duration) {
        self.state.slow_routes.lock().unwrap().push((
            method.to_string(),
            fragment.to_string(),
            delay,
        ));
    }

    pub fn lossy(&self, length: Duration, every: u64) {
        let until = self.state.now_ms() + length.as_millis() as i64;
        *self.state.lossy.lock().unwrap() = Some((until, every, 0));
    }

    /// `user`'s privacy settings refuse direct messages: posting in their DM channel answers
    /// 403 50007 Cannot send messages to this user (topics/opcodes-and-status-codes).
    pub fn close_dms(&self, user: u64) {
        self.state.closed_dms.lock().unwrap().push(user);
    }

    /// `user` goes by `nick` in the server: every member object of theirs says so.
    pub fn set_nickname(&self, user: u64, nick: &str) {
        let mut nicknames = self.state.nicknames.lock().unwrap();
        nicknames.insert(user, nick.to_string());
    }

    fn nickname(&self, user: u64) -> Value {
        json!(self.state.nicknames.lock().unwrap().get(&user))
    }

    /// The next interaction reaches the bot `by` after Discord created it (its id and its
    /// 3-second window count from then).
    pub fn deliver_late(&self, by: Duration) {
        self.state
            .late_ms
            .store(by.as_millis() as i64, Ordering::SeqCst);
    }

    /// Only `left` session starts remain today, for `reset_after` more (a bot restarted in a loop
    /// spent the rest): the next IDENTIFYs past them close with 4004.
    pub fn session_starts_left(&self, left: u64, reset_after: Duration) {
        let used = self.state.session_starts_used.load(Ordering::SeqCst);
        self.state
            .session_starts
            .store(used + left, Ordering::SeqCst);
        self.state
            .session_reset_after_ms
            .store(reset_after.as_millis() as u64, Ordering::SeqCst);
    }

    /// Registering commands answers `status` (with Discord's error body).
    pub fn fail_registration(&self, status: u16) {
        self.state
            .registration_status
            .store(status as u64, Ordering::SeqCst);
    }

    /// What Bredon may do in `channel` (it has `perms::INVITE` everywhere unless said here).
    /// Makes `channel` another kind of channel (5 announcement, 2 voice, 13 stage).
    pub fn set_channel_kind(&self, channel: u64, kind: u8) {
        self.state.with_channel(channel, |c| c.kind = kind);
    }

    pub fn set_bot_permissions(&self, channel: u64, bits: u64) {
        // A thread's permissions are its parent's (topics/threads, "Permissions"): an override
        // changed there is the parent's CHANNEL_UPDATE.
        let parent = self.state.with_channel(channel, |c| {
            c.bot_permissions = bits;
            c.parent
        });
        let updated = parent.unwrap_or(channel);
        let json = self.state.with_channel(updated, |c| {
            let mut v = text_channel_json(updated);
            v["type"] = json!(c.kind);
            v["guild_id"] = json!(c.guild.to_string());
            v
        });
        // The channel's permission overwrites changed (events/gateway-events, "Channel Update").
        self.state.dispatch("CHANNEL_UPDATE", json);
    }

    /// Gives `guild` a system channel (a text channel of its own), as GUILD_CREATE then tells
    /// (resources/guild, "Guild Object": `system_channel_id`). Set before the bot connects.
    pub fn set_system_channel(&self, guild: u64, channel: u64) {
        self.state.with_channel(channel, |c| {
            c.guild = guild;
            c.name = "general".into();
        });
        self.state
            .system_channels
            .lock()
            .unwrap()
            .insert(guild, channel);
    }

    /// Shares the virtual clock with the bot: the path to give it as `BREDON_CLOCK_FILE`.
    pub fn share_clock(&self, dir: &std::path::Path) -> String {
        let path = dir.join("clock");
        *self.state.clock_file.lock().unwrap() = Some(path.clone());
        self.write_clock();
        path.to_string_lossy().into_owned()
    }

    fn write_clock(&self) {
        if let Some(path) = self.state.clock_file.lock().unwrap().as_ref() {
            let temporary = path.with_extension("new");
            std::fs::write(&temporary, self.state.now_ms().to_string()).unwrap();
            std::fs::rename(&temporary, path).unwrap();
        }
    }

    /// Moves the virtual clock on: threads idle for their auto-archive duration archive.
    pub fn advance(&self, by: Duration) {
        self.state
            .clock_ms
            .fetch_add(by.as_millis() as i64, Ordering::SeqCst);
        let now = self.state.now_ms();
        self.write_clock();
        let mut archived = Vec::new();
        {
            let mut channels = self.state.channels.lock().unwrap();
            for (id, c) in channels.iter_mut() {
                let idle = now - c.last_activity_ms;
                if is_thread(c.kind)
                    && !c.archived
                    && !c.deleted
                    && idle >= c.auto_archive_minutes * 60_000
                {
                    c.archived = true;
                    archived.push((*id, thread_of(*id, c)));
                }
            }
        }
        for (_, thread) in archived {
            self.state.dispatch("THREAD_UPDATE", thread);
        }
    }

    pub fn thread_archived(&self, id: u64) -> bool {
        self.state.with_channel(id, |c| c.archived)
    }

    /// The thread's auto-archive duration in minutes (0 for channels that are no threads).
    pub fn auto_archive_minutes(&self, id: u64) -> i64 {
        self.state.with_channel(id, |c| c.auto_archive_minutes)
    }

    /// The threads created so far.
    pub fn threads(&self) -> Vec<u64> {
        let channels = self.state.channels.lock().unwrap();
        let mut ids: Vec<u64> = channels
            .iter()
            .filter(|(_, c)| is_thread(c.kind))
            .map(|(id, _)| *id)
            .collect();
        ids.sort();
        ids
    }

    /// A moderator locks and archives a thread.
    pub fn lock_thread(&self, id: u64) {
        let thread = self.state.with_channel(id, |c| {
            c.locked = true;
            c.archived = true;
            thread_of(id, c)
        });
        self.state.dispatch("THREAD_UPDATE", thread);
    }

    /// A moderator deletes a channel (or thread).
    pub fn delete_channel(&self, id: u64) {
        let (kind, parent) = self.state.with_channel(id, |c| {
            c.deleted = true;
            (c.kind, c.parent)
        });
        if is_thread(kind) {
            let deleted = thread_delete_json(id, parent.unwrap_or(0));
            self.state.dispatch("THREAD_DELETE", deleted);
        } else {
            self.state.dispatch("CHANNEL_DELETE", text_channel_json(id));
        }
    }

    /// The Message Content intent is off in the app's Developer Portal.
    pub fn turn_off_content_intent(&self) {
        self.state.content_intent_off.store(true, Ordering::SeqCst);
    }

    /// The intents the bot asked for when it last identified.
    pub fn intents(&self) -> u64 {
        self.state.intents.load(Ordering::SeqCst)
    }

    /// `user` types `content` in `channel`. The bot hears it (MESSAGE_CREATE) only if it asked
    /// for GUILD_MESSAGES, and reads its text only with MESSAGE_CONTENT or when the message
    /// mentions it (topics/gateway, "Message Content Intent"). The message's id.
    pub fn say(&self, user: &TestUser, channel: u64, content: &str) -> u64 {
        let id = self.state.new_snowflake();
        let intents = self.intents();
        let mentions_bot = content.contains(&format!("<@{BOT_ID}>"));
        self.state.messages.lock().unwrap().push(Msg {
            id,
            channel,
            content: content.to_string(),
            ephemeral: false,
            files: Vec::new(),
            components: json!([]),
            edits: 0,
            deleted: false,
            nonce: None,
            author: user.id,
            created_ms: self.state.now_ms(),
        });
        if intents & intents::GUILD_MESSAGES == 0 {
            return id;
        }
        let readable = intents & intents::MESSAGE_CONTENT != 0 || mentions_bot;
        let mut m = message(id, channel, if readable { content } else { "" });
        m["author"] = user_json(user.id, &user.name, false);
        let mut member = member_json(user);
        member.as_object_mut().unwrap().remove("user");
        m["member"] = member;
        if mentions_bot {
            m["mentions"] = json!([user_json(BOT_ID, "Bredon", true)]);
        }
        self.state.dispatch("MESSAGE_CREATE", m);
        id
    }

    /// The bot is removed from the test server.
    pub fn remove_from_guild(&self) {
        self.state.dispatch("GUILD_DELETE", guild_delete_json());
    }

    pub async fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        mut ready: impl FnMut(&FakeDiscord) -> bool,
    ) {
        let started = Instant::now();
        while !ready(self) {
            assert!(started.elapsed() < timeout, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Waits for the first request after index `from` matching `pred`.
    pub async fn wait_request(
        &self,
        from: usize,
        what: &str,
        pred: impl Fn(&Request) -> bool,
    ) -> Request {
        let started = Instant::now();
        loop {
            if let Some(r) = self.requests().into_iter().skip(from).find(|r| pred(r)) {
                return r;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "timed out waiting for {what}; saw {:#?}",
                self.requests()
                    .iter()
                    .skip(from)
                    .map(|r| format!("{} {} {}", r.method, r.path, r.status))
                    .collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Sends a dispatch event to the connected bot.
    pub fn dispatch(&self, event: &str, data: Value) {
        assert!(self.connected(), "the bot is connected");
        self.state.dispatch(event, data);
    }

    /// Closes every gateway connection with `code` (4000: the bot resumes).
    pub fn drop_gateway(&self, code: u16) {
        for gw in self.state.gateways.lock().unwrap().drain(..) {
            let _ = gw.tx.send(Message::Close(Some(CloseFrame {
                code: CloseCode::from(code),
                reason: "test".into(),
            })));
        }
    }

    pub fn connected(&self) -> bool {
        !self.state.gateways.lock().unwrap().is_empty()
    }

    /// The shards identified now, as (shard, total), in order.
    pub fn shards_connected(&self) -> Vec<(u64, u64)> {
        let mut shards: Vec<_> = self
            .state
            .gateways
            .lock()
            .unwrap()
            .iter()
            .map(|g| (g.shard, g.total))
            .collect();
        shards.sort();
        shards
    }

    /// Enforces rate limits from now on: `per_route` requests a `window` in each route's bucket,
    /// 50 a second in all (`RateLimits`).
    pub fn enforce_rate_limits(&self, per_route: u32, window: Duration) {
        *self.state.rate_limits.lock().unwrap() = Some(RateLimits {
            per_route,
            window,
            buckets: HashMap::new(),
            global: (Instant::now(), 0),
        });
    }

    /// How many requests the rate limits refused.
    pub fn rate_limited(&self) -> u64 {
        self.state.rate_limited.load(Ordering::SeqCst)
    }

    /// The fake's own gateway (a WebSocket URL).
    pub fn gateway_url(&self) -> String {
        self.state.ws_url.lock().unwrap().clone()
    }

    /// `GET /gateway` and `GET /gateway/bot` give `url` from now on (as a gateway proxy's users
    /// would see Discord's, which they do not connect to).
    pub fn advertise_gateway(&self, url: &str) {
        *self.state.advertised_gateway.lock().unwrap() = Some(url.into());
    }

    /// `GET /gateway/bot` recommends `n` shards from now on.
    pub fn recommend_shards(&self, n: u64) {
        self.state.recommended_shards.store(n, Ordering::SeqCst);
    }

    /// The app joins server `guild` (its events go to the shard it hashes to).
    pub fn add_guild(&self, guild: u64) {
        self.state.more_guilds.lock().unwrap().push(guild);
    }

    /// Channel `channel` is in server `guild`.
    pub fn place_channel(&self, channel: u64, guild: u64) {
        self.state.with_channel(channel, |c| c.guild = guild);
    }

    /// Sends an interaction to the bot; returns its token.
    fn interact(
        &self,
        kind: u8,
        user: &TestUser,
        channel: u64,
        data: Value,
        msg: Option<Value>,
    ) -> String {
        let (token, payload) = self.register(kind, user, channel, data, msg);
        self.dispatch("INTERACTION_CREATE", payload);
        token
    }

    /// A slash command that Discord knows of but never sends to the bot: for checking the rules
    /// of responses directly. Returns its id and token.
    pub fn unsent_command(&self, user: &TestUser, channel: u64) -> (u64, String) {
        let data = json!({ "id": "1", "name": "board", "type": 1, "options": [] });
        let (token, payload) = self.register(2, user, channel, data, None);
        (payload["id"].as_str().unwrap().parse().unwrap(), token)
    }

    /// An autocomplete of `/move ply:` that Discord knows of but never sends to the bot.
    pub fn unsent_autocomplete(&self, user: &TestUser, channel: u64) -> (u64, String) {
        let data = json!({ "id": "1", "name": "move", "type": 1, "options": [{ "name": "ply", "type": 3, "value": "a", "focused": true }] });
        let (token, payload) = self.register(4, user, channel, data, None);
        (payload["id"].as_str().unwrap().parse().unwrap(), token)
    }

    /// Registers an interaction as Discord would create it: its token and payload.
    fn register(
        &self,
        kind: u8,
        user: &TestUser,
        channel: u64,
        data: Value,
        msg: Option<Value>,
    ) -> (String, Value) {
        let (archived, deleted) = self
            .state
            .with_channel(channel, |c| (c.archived, c.deleted));
        assert!(
            !archived,
            "Discord does not let users use commands in an archived thread (topics/threads)"
        );
        assert!(!deleted, "channel {channel} was deleted");
        let token = format!("tok{}", self.state.next_id());
        let original = msg.as_ref().and_then(|m| m["id"].as_str()?.parse().ok());
        let late = self.state.late_ms.swap(0, Ordering::SeqCst);
        self.state.interactions.lock().unwrap().insert(
            token.clone(),
            Interaction {
                kind,
                channel,
                created_ms: self.state.now_ms() - late,
                responded: None,
                original,
                thinking: false,
                attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
            },
        );
        let channel_json = self
            .state
            .with_channel(channel, |c| partial_channel(channel, c));
        let app_permissions = self.state.with_channel(channel, |c| c.bot_permissions);
        let guild = self.state.with_channel(channel, |c| c.guild);
        let id = snowflake(late - self.state.shared_clock_ms(), self.state.next_id());
        let mut payload = interaction(id, kind, &token, user, channel, data, msg);
        payload["guild_id"] = json!(guild.to_string());
        payload["authorizing_integration_owners"] = json!({ "0": guild.to_string() });
        payload["member"]["nick"] = self.nickname(user.id);
        payload["channel"] = channel_json;
        payload["app_permissions"] = json!(app_permissions.to_string());
        (token, payload)
    }

    /// Sends a slash command; returns its interaction token.
    /// User options (type 6) are resolved as Discord does, from `test_name`.
    pub fn command(&self, user: &TestUser, channel: u64, name: &str, options: Value) -> String {
        let mut users = serde_json::Map::new();
        let mut members = serde_json::Map::new();
        // User options, also inside a subcommand (type 1), as Discord resolves them.
        let top = options.as_array().cloned().unwrap_or_default();
        let nested = top
            .iter()
            .filter(|o| o["type"] == 1)
            .flat_map(|o| o["options"].as_array().cloned().unwrap_or_default());
        let all: Vec<Value> = top.iter().cloned().chain(nested).collect();
        for o in all.iter().filter(|o| o["type"] == 6) {
            let id: u64 = o["value"]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let u = TestUser::new(id, &test_name(id));
            users.insert(id.to_string(), user_json(id, &u.name, id == BOT_ID));
            let mut m = member_json(&u);
            m.as_object_mut().unwrap().remove("user");
            m["nick"] = self.nickname(id);
            members.insert(id.to_string(), m);
        }
        // Channel options (type 7) come with the channel, partial, in `resolved.channels`
        // (interactions/receiving-and-responding, "Resolved Data Structure").
        let mut channels = serde_json::Map::new();
        for o in all.iter().filter(|o| o["type"] == 7) {
            let id: u64 = o["value"]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let partial = self.state.with_channel(id, |c| partial_channel(id, c));
            channels.insert(id.to_string(), partial);
        }
        let data = json!({ "id": "1", "name": name, "type": 1, "options": options,
            "resolved": { "users": users, "members": members, "channels": channels } });
        self.interact(2, user, channel, data, None)
    }

    /// Autocomplete for `/move ply:` with `typed` so far.
    pub fn autocomplete(&self, user: &TestUser, channel: u64, typed: &str) -> String {
        self.autocomplete_option(user, channel, "move", "ply", typed)
    }

    /// Autocomplete for `/command option:` with `typed` so far.
    /// Autocomplete for `/command sub option:` (an option of a subcommand).
    pub fn autocomplete_sub_option(
        &self,
        user: &TestUser,
        channel: u64,
        command: &str,
        sub: &str,
        option: &str,
        typed: &str,
    ) -> String {
        let focused = json!([{ "name": option, "type": 3, "value": typed, "focused": true }]);
        let options = json!([{ "name": sub, "type": 1, "options": focused }]);
        self.interact(
            4,
            user,
            channel,
            json!({ "id": "1", "name": command, "type": 1, "options": options }),
            None,
        )
    }

    pub fn autocomplete_option(
        &self,
        user: &TestUser,
        channel: u64,
        command: &str,
        option: &str,
        typed: &str,
    ) -> String {
        let options = json!([{ "name": option, "type": 3, "value": typed, "focused": true }]);
        self.interact(
            4,
            user,
            channel,
            json!({ "id": "1", "name": command, "type": 1, "options": options }),
            None,
        )
    }

    /// A user context-menu command (type 2) on `target`.
    pub fn user_command(&self, user: &TestUser, channel: u64, name: &str, target: u64) -> String {
        let t = TestUser::new(target, &test_name(target));
        let mut member = member_json(&t);
        member.as_object_mut().unwrap().remove("user");
        member["nick"] = self.nickname(target);
        let data = json!({ "id": "2", "name": name, "type": 2, "target_id": target.to_string(),
            "resolved": { "users": { target.to_string(): user_json(target, &t.name, target == BOT_ID) },
                          "members": { target.to_string(): member } } });
        self.interact(2, user, channel, data, None)
    }

    /// Presses the button `custom_id` on the newest message in `channel` that has it (or on a
    /// stand-in message, for buttons Bredon never posted).
    pub fn press(&self, user: &TestUser, channel: u64, custom_id: &str) -> String {
        let found = self.messages().into_iter().rev().find(|m| {
            m.channel == channel && !m.deleted && m.components.to_string().contains(custom_id)
        });
        let msg = match found {
            Some(m) => {
                let mut v = message(m.id, channel, &m.content);
                v["components"] = m.components.clone();
                v
            }
            None => message(self.state.next_id(), channel, "an old message"),
        };
        self.interact(
            3,
            user,
            channel,
            json!({ "custom_id": custom_id, "component_type": 2 }),
            Some(msg),
        )
    }

    /// Submits the modal `custom_id` with `value` in its text input `input`.
    pub fn submit_modal(
        &self,
        user: &TestUser,
        channel: u64,
        custom_id: &str,
        input: &str,
        value: &str,
    ) -> String {
        let data = json!({ "custom_id": custom_id, "components": [{ "type": 1, "components": [
            { "type": 4, "custom_id": input, "value": value }
        ] }] });
        self.interact(5, user, channel, data, None)
    }

    /// The newest message (by id order) with a button whose custom id starts with `prefix`.
    pub fn button(&self, channel: u64, prefix: &str) -> Option<String> {
        self.messages()
            .into_iter()
            .rev()
            .filter(|m| m.channel == channel && !m.deleted)
            .flat_map(|m| custom_ids(&m.components))
            .find(|id| id.starts_with(prefix))
    }
}

/// Every custom id in a message's components.
pub fn custom_ids(components: &Value) -> Vec<String> {
    components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["custom_id"].as_str().map(String::from))
        .collect()
}

/// The names of the tests' users, by id.
pub fn test_name(id: u64) -> String {
    match id {
        111 => "alice".into(),
        222 => "bob".into(),
        333 => "carol".into(),
        444 => "dave".into(),
        555 => "erin".into(),
        666 => "frank".into(),
        777 => "gina".into(),
        BOT_ID => "Bredon".into(),
        _ => format!("user{id}"),
    }
}

#[derive(Clone)]
pub struct TestUser {
    pub id: u64,
    pub name: String,
    /// Discord permission bits of the member in the channel.
    pub permissions: u64,
}

impl TestUser {
    pub fn new(id: u64, name: &str) -> TestUser {
        TestUser {
            id,
            name: name.into(),
            // What @everyone may do in a new server (topics/permissions, default permissions).
            permissions: perms::VIEW_CHANNEL
                | perms::SEND_MESSAGES
                | perms::ATTACH_FILES
                | perms::CREATE_PUBLIC_THREADS
                | perms::SEND_MESSAGES_IN_THREADS,
        }
    }
}

pub fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({ "id": id.to_string(), "username": name, "global_name": name, "discriminator": "0", "avatar": null, "bot": bot, "public_flags": 0 })
}

pub fn member_json(u: &TestUser) -> Value {
    json!({
        "user": user_json(u.id, &u.name, false), "nick": null, "avatar": null, "roles": [],
        "joined_at": "2026-01-01T00:00:00.000000+00:00", "premium_since": null, "deaf": false, "mute": false,
        "flags": 0, "pending": false, "permissions": u.permissions.to_string(), "communication_disabled_until": null
    })
}

pub fn message(id: u64, channel: u64, content: &str) -> Value {
    json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "guild_id": GUILD_ID.to_string(),
        "author": user_json(BOT_ID, "Bredon", true), "content": content,
        "timestamp": "2026-11-22T00:00:00.000000+00:00", "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
        "pinned": false, "type": 0, "flags": 0, "components": []
    })
}

/// An id made `ago_ms` ago by the wall clock, as Discord makes them: the milliseconds since
/// 2015-01-01 above bit 22, a counter below (reference, "Snowflakes").
fn snowflake(ago_ms: i64, counter: u64) -> u64 {
    const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    (((now - ago_ms - DISCORD_EPOCH_MS) as u64) << 22) | (counter & 0x3F_FFFF)
}

pub fn interaction(
    id: u64,
    kind: u8,
    token: &str,
    user: &TestUser,
    channel: u64,
    data: Value,
    msg: Option<Value>,
) -> Value {
    let mut v = json!({
        "id": id.to_string(), "application_id": APP_ID.to_string(), "type": kind, "data": data,
        "guild_id": GUILD_ID.to_string(), "channel_id": channel.to_string(),
        "channel": { "id": channel.to_string(), "type": 0, "name": "tak", "permissions": perms::INVITE.to_string() },
        "member": member_json(user), "token": token, "version": 1,
        "app_permissions": perms::INVITE.to_string(), "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
        "authorizing_integration_owners": { "0": GUILD_ID.to_string() }, "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT
    });
    if let Some(m) = msg {
        v["message"] = m;
    }
    v
}

fn partial_channel(id: u64, c: &Channel) -> Value {
    let mut v = json!({ "id": id.to_string(), "type": c.kind, "name": "tak", "permissions": c.bot_permissions.to_string() });
    if is_thread(c.kind) {
        v["parent_id"] = json!(c.parent.unwrap_or(0).to_string());
        v["thread_metadata"] = thread_metadata(c);
    }
    v
}

fn thread_metadata(c: &Channel) -> Value {
    json!({ "archived": c.archived, "auto_archive_duration": c.auto_archive_minutes,
            "archive_timestamp": "2026-11-22T00:00:00.000000+00:00", "locked": c.locked })
}

fn thread_of(id: u64, c: &Channel) -> Value {
    let mut v = thread_json(id, c.parent.unwrap_or(0));
    v["type"] = json!(c.kind);
    v["thread_metadata"] = thread_metadata(c);
    v["guild_id"] = json!(c.guild.to_string());
    v["name"] = json!(c.name);
    v
}

pub fn text_channel_json(id: u64) -> Value {
    json!({ "id": id.to_string(), "type": 0, "guild_id": GUILD_ID.to_string(), "name": "tak",
        "position": 0, "permission_overwrites": [], "nsfw": false, "rate_limit_per_user": 0 })
}

/// A direct-message channel with `recipient` (POST /users/@me/channels).
pub fn dm_channel_json(id: u64, recipient: u64) -> Value {
    json!({ "id": id.to_string(), "type": 1, "last_message_id": null,
        "recipients": [user_json(recipient, &test_name(recipient), false)] })
}

/// THREAD_DELETE's payload: the deleted thread, partly.
pub fn thread_delete_json(id: u64, parent: u64) -> Value {
    json!({ "id": id.to_string(), "guild_id": GUILD_ID.to_string(),
            "parent_id": parent.to_string(), "type": 11 })
}

/// GUILD_DELETE's payload when the bot was removed (no `unavailable`).
pub fn guild_delete_json() -> Value {
    json!({ "id": GUILD_ID.to_string() })
}

/// A public thread under `parent` as REST answers and THREAD_UPDATE carry it.
pub fn thread_update_json(id: u64, parent: u64, archived: bool, locked: bool) -> Value {
    let mut c = Channel::text();
    (c.kind, c.parent, c.archived, c.locked) = (11, Some(parent), archived, locked);
    c.auto_archive_minutes = 10080;
    thread_of(id, &c)
}

/// The `channel` of an interaction in a thread under `parent`.
pub fn interaction_thread_json(id: u64, parent: u64) -> Value {
    let mut c = Channel::text();
    (c.kind, c.parent, c.auto_archive_minutes) = (11, Some(parent), 1440);
    partial_channel(id, &c)
}

/// READY for `shard` of `total`, listing the servers of that shard (topics/gateway-events,
/// "Ready": `shard` is the pair the IDENTIFY sent).
pub fn ready(ws_url: &str, shard: u64, total: u64, guilds: &[u64]) -> Value {
    let guilds: Vec<Value> = guilds
        .iter()
        .map(|g| json!({ "id": g.to_string(), "unavailable": true }))
        .collect();
    json!({
        "v": 10, "user": bot_user_json(), "guilds": guilds,
        "session_id": format!("fake-session-{shard}-{total}"), "resume_gateway_url": ws_url,
        "shard": [shard, total], "application": { "id": APP_ID.to_string(), "flags": 0 }
    })
}

fn bot_user_json() -> Value {
    json!({ "id": BOT_ID.to_string(), "username": "Bredon", "global_name": null, "discriminator": "0",
        "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0, "public_flags": 0 })
}

/// The test server as GUILD_CREATE brings it (topics/gateway-events, "Guild Create"): its
/// channels, and its *active* threads only ("All active threads in the guild that current user
/// has permission to view"): a thread archived meanwhile is in neither list.
fn guild_create_json(guild: u64, state: &State) -> Value {
    let system_channel = state.system_channels.lock().unwrap().get(&guild).copied();
    let channels = &*state.channels.lock().unwrap();
    let live = channels
        .iter()
        .filter(|(_, c)| !c.deleted && c.guild == guild);
    let listed: Vec<Value> = live
        .clone()
        .filter(|(_, c)| !is_thread(c.kind))
        .map(|(id, c)| {
            let mut v = text_channel_json(*id);
            v["type"] = json!(c.kind);
            v
        })
        .collect();
    let threads: Vec<Value> = live
        .filter(|(_, c)| is_thread(c.kind) && !c.archived)
        .map(|(id, c)| thread_of(*id, c))
        .collect();
    json!({
        "id": guild.to_string(), "name": "Tak", "icon": null, "splash": null, "discovery_splash": null,
        "owner_id": "1", "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "roles": [], "emojis": [], "features": [], "mfa_level": 0,
        "system_channel_id": system_channel.map(|c| c.to_string()),
        "system_channel_flags": 0, "premium_tier": 0, "preferred_locale": "en-US", "nsfw_level": 0,
        "stickers": [], "premium_progress_bar_enabled": false,
        "joined_at": "2026-11-01T00:00:00.000000+00:00", "large": false, "unavailable": false,
        "member_count": 4, "voice_states": [], "members": [], "channels": listed, "threads": threads,
        "presences": [], "stage_instances": [], "guild_scheduled_events": []
    })
}

pub fn thread_json(id: u64, parent: u64) -> Value {
    json!({ "id": id.to_string(), "type": 11, "guild_id": GUILD_ID.to_string(), "parent_id": parent.to_string(), "name": "Tak",
        "owner_id": BOT_ID.to_string(), "thread_metadata": { "archived": false, "auto_archive_duration": 1440, "archive_timestamp": "2026-11-22T00:00:00.000000+00:00", "locked": false },
        "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "position": 0, "permission_overwrites": [], "nsfw": false })
}

async fn serve_gateway(stream: TcpStream, state: Arc<State>) {
    let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (mut sink, mut source) = ws.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Message>();
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41250 } });
    let _ = tx.send(Message::Text(hello.to_string()));
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            let closing = matches!(m, Message::Close(_));
            if sink.send(m).await.is_err() || closing {
                break;
            }
        }
    });
    while let Some(Ok(msg)) = source.next().await {
        let Message::Text(text) = msg else { continue };
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        match v["op"].as_u64() {
            Some(1) => {
                let _ = tx.send(Message::Text(json!({ "op": 11 }).to_string()));
            }
            Some(2) => {
                let asked = v["d"]["intents"].as_u64().unwrap_or(0);
                state.intents.store(asked, Ordering::SeqCst);
                if asked & intents::MESSAGE_CONTENT != 0
                    && state.content_intent_off.load(Ordering::SeqCst)
                {
                    let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
                        code: 4014.into(),
                        reason: "Disallowed intent(s).".into(),
                    };
                    let _ = tx.send(Message::Close(Some(close)));
                    continue;
                }
                // `shard`: [shard_id, num_shards], [0, 1] when left out; a shard id not below
                // the count is closed with 4010 (topics/opcodes-and-status-codes, "Invalid
                // shard").
                let shard = v["d"]["shard"].as_array();
                let (shard, total) = shard
                    .and_then(|p| Some((p.first()?.as_u64()?, p.get(1)?.as_u64()?)))
                    .unwrap_or((0, 1));
                if total == 0 || shard >= total {
                    let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
                        code: 4010.into(),
                        reason: "Invalid shard.".into(),
                    };
                    let _ = tx.send(Message::Close(Some(close)));
                    continue;
                }
                // events/gateway ("Rate Limiting", "Max Concurrency"): one IDENTIFY per
                // `max_concurrency` bucket (1 here, so one bucket) per 5 seconds; one sooner is
                // answered with Invalid Session (opcode 9, `d: false`).
                if !state.identify_allowed(shard) {
                    state.invalid_sessions.fetch_add(1, Ordering::SeqCst);
                    let invalid = json!({ "op": 9, "d": false });
                    let _ = tx.send(Message::Text(invalid.to_string()));
                    continue;
                }
                // events/gateway ("Session Start Limit"): each IDENTIFY spends one of the day's
                // session starts; past the last, Discord resets the token (here: 4004
                // Authentication failed, topics/opcodes-and-status-codes).
                if state.session_starts_used.fetch_add(1, Ordering::SeqCst)
                    >= state.session_starts.load(Ordering::SeqCst)
                {
                    let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
                        code: 4004.into(),
                        reason: "Authentication failed.".into(),
                    };
                    let _ = tx.send(Message::Close(Some(close)));
                    continue;
                }
                state.identifies.fetch_add(1, Ordering::SeqCst);
                identified(&state, shard, total, &tx);
                let guilds: Vec<u64> = state
                    .guilds()
                    .into_iter()
                    .filter(|g| shard_of(Some(*g), total) == shard)
                    .collect();
                let s = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
                let url = state.ws_url.lock().unwrap().clone();
                let frame = json!({ "op": 0, "t": "READY", "s": s, "d": ready(&url, shard, total, &guilds) });
                let _ = tx.send(Message::Text(frame.to_string()));
                // Then each guild READY listed as unavailable (topics/gateway-events, "Ready").
                for g in guilds {
                    let s = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
                    let guild = guild_create_json(g, &state);
                    let frame = json!({ "op": 0, "t": "GUILD_CREATE", "s": s, "d": guild });
                    let _ = tx.send(Message::Text(frame.to_string()));
                }
            }
            Some(6) => {
                // The session id names the shard it resumes.
                let session = v["d"]["session_id"].as_str().unwrap_or("");
                let mut parts = session.rsplit('-');
                let total = parts.next().and_then(|t| t.parse().ok()).unwrap_or(1);
                let shard = parts.next().and_then(|t| t.parse().ok()).unwrap_or(0);
                identified(&state, shard, total, &tx);
                state.resumes.fetch_add(1, Ordering::SeqCst);
                let s = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
                let _ = tx.send(Message::Text(
                    json!({ "op": 0, "t": "RESUMED", "s": s, "d": {} }).to_string(),
                ));
            }
            _ => {}
        }
    }
    writer.abort();
    state
        .gateways
        .lock()
        .unwrap()
        .retain(|c| !c.tx.same_channel(&tx));
}

/// `tx` is now the connection of `shard` of `total` (in place of an earlier one).
fn identified(state: &State, shard: u64, total: u64, tx: &mpsc::UnboundedSender<Message>) {
    let mut gateways = state.gateways.lock().unwrap();
    gateways.retain(|c| c.shard != shard && !c.tx.same_channel(tx));
    gateways.push(ShardConnection {
        shard,
        total,
        tx: tx.clone(),
    });
}

async fn serve_http(stream: TcpStream, state: Arc<State>) {
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let mut words = line.split_whitespace();
        let (method, path) = (
            words.next().unwrap_or("").to_string(),
            words.next().unwrap_or("").to_string(),
        );
        let (mut length, mut chunked, mut content_type) = (0usize, false, String::new());
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).await.unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            let (k, v) = h.split_once(':').unwrap_or((h, ""));
            match k.to_ascii_lowercase().as_str() {
                "content-length" => length = v.trim().parse().unwrap_or(0),
                "transfer-encoding" => chunked = v.to_ascii_lowercase().contains("chunked"),
                "content-type" => content_type = v.trim().to_string(),
                _ => {}
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                let mut size = String::new();
                reader.read_line(&mut size).await.unwrap_or(0);
                let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
                let mut chunk = vec![0; n + 2];
                if reader.read_exact(&mut chunk).await.is_err() {
                    return;
                }
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        } else {
            body.resize(length, 0);
            if reader.read_exact(&mut body).await.is_err() {
                return;
            }
        }
        let mut request = Request {
            method,
            path,
            content_type,
            body,
            status: 0,
            at: Instant::now(),
        };
        let verdict = state
            .rate_limits
            .lock()
            .unwrap()
            .as_mut()
            .map(|limits| limits.judge(&request.method, &request.path));
        let delay = state
            .slow_routes
            .lock()
            .unwrap()
            .iter()
            .find(|(method, fragment, _)| {
                *method == request.method && request.path.contains(fragment.as_str())
            })
            .map(|(_, _, delay)| *delay);
        if let Some(delay) = delay {
            tokio::time::sleep(delay).await;
        }
        let (status, response) = match verdict.as_ref().and_then(|v| v.refused.clone()) {
            Some(refused) => {
                state.rate_limited.fetch_add(1, Ordering::SeqCst);
                refused
            }
            None => route(&state, &request),
        };
        request.status = status;
        if find(&request.body, b"\x89PNG").is_some() {
            // Arrival, not the fake's own checks, is what the bench times.
            state
                .uploads
                .lock()
                .unwrap()
                .push((request.path.clone(), request.at));
        }
        state.requests.lock().unwrap().push(request);
        let reason = match status {
            200 => "OK",
            204 => "No Content",
            400 => "Bad Request",
            401 => "Unauthorized",
            403 => "Forbidden",
            413 => "Payload Too Large",
            429 => "Too Many Requests",
            500 => "Internal Server Error",
            503 => "Service Unavailable",
            _ => "Not Found",
        };
        let body = response.map(|v| v.to_string()).unwrap_or_default();
        let mut head = format!("HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n", body.len());
        match &verdict {
            Some(v) => head.push_str(&v.headers),
            None if status == 429 => {
                head.push_str("retry-after: 0\r\nx-ratelimit-global: true\r\n")
            }
            None => {}
        }
        head.push_str("\r\n");
        let stream = reader.get_mut();
        if stream.write_all(head.as_bytes()).await.is_err()
            || stream.write_all(body.as_bytes()).await.is_err()
        {
            return;
        }
    }
}

fn take_matching(queue: &Mutex<VecDeque<(String, u16)>>, path: &str) -> Option<u16> {
    let mut q = queue.lock().unwrap();
    let i = q
        .iter()
        .position(|(frag, _)| path.contains(frag.as_str()))?;
    q.remove(i).map(|(_, status)| status)
}

/// Whether a request makes (or edits into) a message.
fn makes_message(r: &Request, path: &str) -> bool {
    let segments: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    matches!(
        (r.method.as_str(), segments.as_slice()),
        ("POST", ["channels", _, "messages"])
            | ("POST", ["interactions", _, _, "callback"])
            | ("POST", ["webhooks", _, _])
            | ("PATCH", ["webhooks", _, _, "messages", "@original"])
    )
}

/// Whether this message-making request's answer is lost (`lossy`).
fn loses_answer(state: &State) -> bool {
    let mut lossy = state.lossy.lock().unwrap();
    match lossy.as_mut() {
        Some((until, every, seen)) if state.now_ms() < *until => {
            *seen += 1;
            *seen % *every == 0
        }
        _ => false,
    }
}

fn route(state: &State, r: &Request) -> Answer {
    let path = r.path.split('?').next().unwrap_or(&r.path);
    let body = (!r.body.is_empty()).then(|| r.json());
    if let Some(why) = openapi::check(&r.method, path.trim_start_matches("/api/v10"), body) {
        return (
            400,
            Some(json!({ "code": 50035, "message": format!("Invalid Form Body: {why}") })),
        );
    }
    let makes = makes_message(r, path);
    if makes && state.now_ms() < state.outage_until_ms.load(Ordering::SeqCst) {
        return error(503, 0, "Service Unavailable");
    }
    let partly_down = state
        .partial_outages
        .lock()
        .unwrap()
        .iter()
        .any(|(fragment, until)| path.contains(fragment.as_str()) && state.now_ms() < *until);
    if partly_down {
        return error(503, 0, "Service Unavailable");
    }
    if let Some(status) = take_matching(&state.failures, path) {
        return if status == 429 {
            (
                429,
                Some(
                    json!({ "message": "You are being rate limited.", "retry_after": 0.0, "global": false }),
                ),
            )
        } else {
            error(status, 0, "Internal Server Error")
        };
    }
    let answer = handle(state, r, path);
    if makes && answer.0 < 300 && loses_answer(state) {
        return error(503, 0, "Service Unavailable");
    }
    match take_matching(&state.lost_answers, path) {
        Some(status) => error(status, 0, "Internal Server Error"),
        None => answer,
    }
}

fn handle(state: &State, r: &Request, path: &str) -> Answer {
    let segments: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let ws = state
        .advertised_gateway
        .lock()
        .unwrap()
        .clone()
        .unwrap_or_else(|| state.ws_url.lock().unwrap().clone());
    match (r.method.as_str(), segments.as_slice()) {
        ("GET", ["gateway"]) => (200, Some(json!({ "url": ws }))),
        ("GET", ["gateway", "bot"]) => (
            200,
            Some(
                json!({ "url": ws, "shards": state.recommended_shards.load(Ordering::SeqCst).max(1), "session_start_limit": {
                    "total": 1000,
                    "remaining": state.session_starts.load(Ordering::SeqCst).saturating_sub(state.session_starts_used.load(Ordering::SeqCst)),
                    "reset_after": state.session_reset_after_ms.load(Ordering::SeqCst),
                    "max_concurrency": state.max_concurrency.load(Ordering::SeqCst) } }),
            ),
        ),
        ("GET", ["users", "@me"]) => (200, Some(bot_user_json())),
        // topics/oauth2, "Get Current Bot Application Information" (and resources/application,
        // "Get Current Application").
        ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => (
            200,
            Some(json!({
                "id": APP_ID.to_string(), "name": "Bredon", "icon": null, "description": "",
                "bot_public": true, "bot_require_code_grant": false, "verify_key": "0".repeat(64),
                "team": null, "owner": bot_user_json(), "flags": 0, "bot": bot_user_json()
            })),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            match state.registration_status.load(Ordering::SeqCst) as u16 {
                200 => {
                    let guild = segments.get(3).copied();
                    let stored: Vec<Value> = r
                        .json()
                        .as_array()
                        .cloned()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|c| stored_command(state.next_id(), guild, c))
                        .collect();
                    state
                        .commands
                        .lock()
                        .unwrap()
                        .insert(path.to_string(), stored.clone());
                    (200, Some(Value::Array(stored)))
                }
                status => error(status, 50001, "Missing Access"),
            }
        }
        ("GET", ["applications", _, "commands"])
        | ("GET", ["applications", _, "guilds", _, "commands"]) => {
            let stored = state.commands.lock().unwrap().get(path).cloned();
            (200, Some(Value::Array(stored.unwrap_or_default())))
        }
        ("POST", ["interactions", _, token, "callback"]) => callback(state, r, token),
        ("POST", ["webhooks", _, token]) => followup(state, r, token),
        ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            edit_original(state, r, token)
        }
        ("GET", ["webhooks", _, token, "messages", "@original"]) => {
            match live_token(state, token) {
                Ok((channel, Some(original), _, _)) => {
                    let content = state
                        .messages
                        .lock()
                        .unwrap()
                        .iter()
                        .find(|m| m.id == original)
                        .map(|m| m.content.clone())
                        .unwrap_or_default();
                    (200, Some(message(original, channel, &content)))
                }
                Ok(_) => error(404, 10008, "Unknown Message"),
                Err(answer) => answer,
            }
        }
        ("POST", ["users", "@me", "channels"]) => {
            // A DM channel with the recipient (resources/user, "Create DM").
            let recipient: u64 = r.json()["recipient_id"]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let id = state.dm_channel(recipient);
            (200, Some(dm_channel_json(id, recipient)))
        }
        ("DELETE", ["webhooks", _, token, "messages", "@original"]) => {
            let mut ixns = state.interactions.lock().unwrap();
            let Some(ixn) = ixns.get_mut(*token) else {
                return error(404, 10015, "Unknown Webhook");
            };
            ixn.thinking = false;
            if let Some(id) = ixn.original.take() {
                for m in state
                    .messages
                    .lock()
                    .unwrap()
                    .iter_mut()
                    .filter(|m| m.id == id)
                {
                    m.deleted = true;
                }
            }
            (204, None)
        }
        ("POST", ["channels", channel, "messages"]) => {
            channel_message(state, r, channel.parse().unwrap_or(0))
        }
        ("POST", ["channels", channel, "threads"]) => {
            start_thread(state, r, channel.parse().unwrap_or(0))
        }
        ("GET", ["guilds", guild, "threads", "active"]) => {
            active_threads(state, guild.parse().unwrap_or(0))
        }
        ("GET", ["channels", channel, "messages"]) => {
            channel_messages(state, &r.path, channel.parse().unwrap_or(0))
        }
        ("GET", ["channels", channel]) => {
            // resources/channel, "Get Channel": a thread comes with its metadata.
            let id: u64 = channel.parse().unwrap_or(0);
            state.with_channel(id, |c| match (c.deleted, is_thread(c.kind)) {
                (true, _) => error(404, 10003, "Unknown Channel"),
                (false, true) => (200, Some(thread_of(id, c))),
                (false, false) => {
                    let mut v = text_channel_json(id);
                    v["type"] = json!(c.kind);
                    (200, Some(v))
                }
            })
        }
        ("PATCH", [channel]) | ("PATCH", ["channels", channel]) => {
            edit_channel(state, r, channel.parse().unwrap_or(0))
        }
        _ => error(404, 0, "Unknown route"),
    }
}

/// Checks a message against Discord's limits.
fn check_message(
    payload: &Value,
    files: &[(String, Vec<u8>)],
    size_limit: usize,
) -> Option<Answer> {
    if let Some(content) = payload["content"].as_str() {
        if content.chars().count() > 2000 {
            return Some(form_error(
                "content",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 2000 or fewer in length.",
            ));
        }
    }
    for (i, a) in payload["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if a["description"]
            .as_str()
            .is_some_and(|d| d.chars().count() > 1024)
        {
            return Some(form_error(
                &format!("attachments.{i}.description"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 1024 or fewer in length.",
            ));
        }
    }
    if files.iter().any(|(_, b)| b.len() > size_limit) {
        return Some(error(413, 40005, "Request entity too large"));
    }
    let rows = payload["components"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if rows.len() > 5 {
        return Some(form_error(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 5 or fewer in length.",
        ));
    }
    for row in &rows {
        let buttons = row["components"].as_array().cloned().unwrap_or_default();
        if buttons.len() > 5 {
            return Some(form_error(
                "components.0.components",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 5 or fewer in length.",
            ));
        }
        for b in buttons {
            if b["custom_id"].as_str().is_some_and(|c| c.len() > 100)
                || b["label"].as_str().is_some_and(|l| l.chars().count() > 80)
            {
                return Some(form_error(
                    "components.0.components.0",
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                ));
            }
        }
    }
    None
}

/// Mentions in content that Discord would render: `<@id>`, `<@!id>`, `<@&id>`, @everyone and
/// @here, except after a backslash.
fn mentions(content: &str) -> (Vec<u64>, Vec<u64>, bool) {
    let (mut users, mut roles, mut everyone) = (Vec::new(), Vec::new(), false);
    let bytes = content.as_bytes();
    for (i, _) in content.match_indices("<@") {
        if i > 0 && bytes[i - 1] == b'\\' {
            continue;
        }
        let rest = &content[i + 2..];
        let (role, rest) = match rest.strip_prefix('&') {
            Some(r) => (true, r),
            None => (false, rest.strip_prefix('!').unwrap_or(rest)),
        };
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if rest[digits.len()..].starts_with('>') {
            if let Ok(id) = digits.parse() {
                if role {
                    roles.push(id);
                } else {
                    users.push(id);
                }
            }
        }
    }
    for word in ["@everyone", "@here"] {
        for (i, _) in content.match_indices(word) {
            if i == 0 || bytes[i - 1] != b'\\' {
                everyone = true;
            }
        }
    }
    (users, roles, everyone)
}

/// A new message: stored, and everyone its allowed mentions reach is notified (ephemeral
/// messages notify no one).
fn create_message(
    state: &State,
    channel: u64,
    payload: &Value,
    files: &[(String, Vec<u8>)],
) -> Msg {
    let content = payload["content"].as_str().unwrap_or("").to_string();
    let ephemeral = flags(payload) & 64 != 0;
    let msg = Msg {
        id: state.new_snowflake(),
        channel,
        content: content.clone(),
        ephemeral,
        files: files.iter().map(|(n, _)| n.clone()).collect(),
        components: payload["components"].clone(),
        edits: 0,
        deleted: false,
        nonce: payload["nonce"].as_str().map(String::from),
        author: BOT_ID,
        created_ms: state.now_ms(),
    };
    state.messages.lock().unwrap().push(msg.clone());
    if !ephemeral {
        let allowed = &payload["allowed_mentions"];
        let parse: Vec<&str> = if allowed.is_object() {
            allowed["parse"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str())
                .collect()
        } else {
            vec!["users", "roles", "everyone"]
        };
        let listed = |key: &str, id: u64| {
            allowed[key]
                .as_array()
                .into_iter()
                .flatten()
                .any(|v| v.as_str() == Some(&id.to_string()))
        };
        let (users, roles, everyone) = mentions(&content);
        let mut notified = state.notifications.lock().unwrap();
        for u in users {
            if (parse.contains(&"users") || listed("users", u))
                && !notified.iter().any(|n| n.message == msg.id && n.user == u)
            {
                notified.push(Notification {
                    user: u,
                    message: msg.id,
                    channel,
                });
            }
        }
        let mut others = state.other_pings.lock().unwrap();
        for role in roles {
            if parse.contains(&"roles") || listed("roles", role) {
                others.push(format!("role {role}"));
            }
        }
        if everyone && parse.contains(&"everyone") {
            others.push("@everyone".into());
        }
    }
    msg
}

/// A message the bot adds to a thread: refused in a locked thread, and it unarchives it.
fn thread_activity(state: &State, channel: u64) -> Option<Answer> {
    let (update, refused) = state.with_channel(channel, |c| {
        if c.kind != 11 {
            return (None, false);
        }
        if c.locked && c.bot_permissions & perms::MANAGE_THREADS == 0 {
            return (None, true);
        }
        c.last_activity_ms = state.now_ms();
        if c.archived {
            c.archived = false;
            return (Some(thread_of(channel, c)), false);
        }
        (None, false)
    });
    if refused {
        return Some(error(403, 50013, "Missing Permissions"));
    }
    if let Some(thread) = update {
        state.dispatch("THREAD_UPDATE", thread);
    }
    None
}

/// What the bot may not do in `channel` to post a message (with files or not).
fn post_refused(state: &State, channel: u64, with_files: bool) -> Option<Answer> {
    let (kind, have, deleted) =
        state.with_channel(channel, |c| (c.kind, c.bot_permissions, c.deleted));
    if deleted {
        return Some(error(404, 10003, "Unknown Channel"));
    }
    if have & perms::ADMINISTRATOR != 0 {
        return None;
    }
    if have & perms::VIEW_CHANNEL == 0 {
        return Some(error(403, 50001, "Missing Access"));
    }
    let send = if is_thread(kind) {
        perms::SEND_MESSAGES_IN_THREADS
    } else {
        perms::SEND_MESSAGES
    };
    if have & send == 0 || (with_files && have & perms::ATTACH_FILES == 0) {
        return Some(error(403, 50013, "Missing Permissions"));
    }
    None
}

fn callback(state: &State, r: &Request, token: &str) -> Answer {
    let body = r.json();
    let kind = body["type"].as_u64().unwrap_or(0) as u8;
    let data = body["data"].clone();
    let now = state.now_ms();
    let (ixn_kind, channel, size_limit, pressed) = {
        let mut ixns = state.interactions.lock().unwrap();
        let Some(ixn) = ixns.get_mut(token) else {
            return error(404, 10062, "Unknown interaction");
        };
        if ixn.responded.is_some() {
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        if now - ixn.created_ms > DEADLINE_MS {
            return error(404, 10062, "Unknown interaction");
        }
        let allowed = match ixn.kind {
            2 => matches!(kind, 4 | 5 | 9),
            3 => matches!(kind, 4 | 5 | 6 | 7 | 9),
            4 => kind == 8,
            5 => (4..=7).contains(&kind),
            _ => false,
        };
        if !allowed {
            return form_error(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Invalid response type for this interaction",
            );
        }
        (
            ixn.kind,
            ixn.channel,
            ixn.attachment_size_limit,
            ixn.original,
        )
    };
    let files = r.files();
    if matches!(kind, 4 | 7) {
        if let Some(refused) = check_message(&data, &files, size_limit) {
            return refused;
        }
    }
    if kind == 8 && data["choices"].as_array().is_some_and(|c| c.len() > 25) {
        return form_error(
            "data.choices",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        );
    }
    if let Some(refused) = check_choices(&data).or_else(|| check_modal(kind, &data)) {
        return refused;
    }
    let mut original = pressed;
    let mut thinking = false;
    match kind {
        4 => {
            if flags(&data) & 64 == 0 {
                if let Some(refused) = thread_activity(state, channel) {
                    return refused;
                }
            }
            original = Some(create_message(state, channel, &data, &files).id);
        }
        5 => {
            let thinking_msg = json!({ "content": "", "flags": flags(&data) });
            original = Some(create_message(state, channel, &thinking_msg, &[]).id);
            thinking = true;
        }
        7 => edit_message(state, pressed, &data, &files),
        _ => {}
    }
    let _ = ixn_kind;
    let mut ixns = state.interactions.lock().unwrap();
    let ixn = ixns.get_mut(token).expect("checked above");
    ixn.responded = Some(kind);
    ixn.original = original;
    ixn.thinking = thinking;
    (204, None)
}

/// A command as Discord keeps it after a bulk overwrite: the fields sent, and those it adds.
fn stored_command(id: u64, guild: Option<&str>, mut command: Value) -> Value {
    let added = json!({
        "id": id.to_string(), "application_id": APP_ID.to_string(), "version": id.to_string(),
        "type": 1, "description": "", "default_member_permissions": null, "nsfw": false, "dm_permission": true,
        "integration_types": [0], "guild_id": guild,
    });
    // A context menu command is sent without a description and kept with an empty one.
    for (key, value) in added.as_object().unwrap() {
        if command.get(key).is_none_or(Value::is_null) {
            command[key] = value.clone();
        }
    }
    if guild.is_none() {
        command.as_object_mut().unwrap().remove("guild_id");
    }
    command
}

/// Autocomplete choices (interactions/application-commands, "Application Command Option Choice
/// Structure"): a name of 1 to 100 characters, a string value of 1 to 100.
fn check_choices(data: &Value) -> Option<Answer> {
    let choices = data["choices"].as_array()?;
    for (i, c) in choices.iter().enumerate() {
        for key in ["name", "value"] {
            let Some(text) = c[key].as_str() else {
                continue;
            };
            if !(1..=100).contains(&text.chars().count()) {
                return Some(form_error(
                    &format!("data.choices.{i}.{key}"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
        }
    }
    None
}

/// A modal (interactions/receiving-and-responding, "Modal"): a title of at most 45 characters;
/// its text inputs (message-components, "Text Input"): labels of at most 45, custom ids of at
/// most 100.
fn check_modal(kind: u8, data: &Value) -> Option<Answer> {
    if kind != 9 {
        return None;
    }
    let too_long = |v: &Value, most: usize| v.as_str().is_some_and(|t| t.chars().count() > most);
    if too_long(&data["title"], 45) {
        return Some(form_error(
            "data.title",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 45 or fewer in length.",
        ));
    }
    let rows = data["components"].as_array().cloned().unwrap_or_default();
    for (r, row) in rows.iter().enumerate() {
        let inputs = row["components"].as_array().cloned().unwrap_or_default();
        for (i, input) in inputs.iter().enumerate() {
            for (key, most) in [("label", 45), ("custom_id", 100)] {
                if too_long(&input[key], most) {
                    return Some(form_error(
                        &format!("data.components.{r}.components.{i}.{key}"),
                        "BASE_TYPE_MAX_LENGTH",
                        &format!("Must be {most} or fewer in length."),
                    ));
                }
            }
        }
    }
    None
}

fn edit_message(state: &State, id: Option<u64>, payload: &Value, files: &[(String, Vec<u8>)]) {
    let Some(id) = id else { return };
    for m in state
        .messages
        .lock()
        .unwrap()
        .iter_mut()
        .filter(|m| m.id == id)
    {
        if let Some(c) = payload["content"].as_str() {
            m.content = c.to_string();
        }
        if !payload["components"].is_null() {
            m.components = payload["components"].clone();
        }
        if payload["attachments"].is_array() {
            m.files = files.iter().map(|(n, _)| n.clone()).collect();
        }
        m.edits += 1;
    }
}

/// The interaction behind a webhook token, if its token still works.
fn live_token(state: &State, token: &str) -> Result<(u64, Option<u64>, bool, usize), Answer> {
    let ixns = state.interactions.lock().unwrap();
    let Some(ixn) = ixns.get(token) else {
        return Err(error(404, 10015, "Unknown Webhook"));
    };
    if ixn.responded.is_none() {
        return Err(error(404, 10015, "Unknown Webhook"));
    }
    if state.now_ms() - ixn.created_ms > TOKEN_LIFETIME_MS {
        return Err(error(401, 50027, "Invalid Webhook Token"));
    }
    Ok((
        ixn.channel,
        ixn.original,
        ixn.thinking,
        ixn.attachment_size_limit,
    ))
}

fn files_refused(state: &State, channel: u64, files: &[(String, Vec<u8>)]) -> Option<Answer> {
    let have = state.with_channel(channel, |c| c.bot_permissions);
    (!files.is_empty() && have & (perms::ATTACH_FILES | perms::ADMINISTRATOR) == 0)
        .then(|| error(403, 50013, "Missing Permissions"))
}

/// A webhook message request (follow-up or edit), checked: the token still works, files are
/// allowed in the channel, and the message keeps Discord's limits.
struct WebhookMessage {
    channel: u64,
    original: Option<u64>,
    thinking: bool,
    payload: Value,
    files: Vec<(String, Vec<u8>)>,
}

fn webhook_message(state: &State, r: &Request, token: &str) -> Result<WebhookMessage, Answer> {
    let (channel, original, thinking, size_limit) = live_token(state, token)?;
    let (payload, files) = (r.json(), r.files());
    if let Some(refused) = files_refused(state, channel, &files) {
        return Err(refused);
    }
    if let Some(refused) = check_message(&payload, &files, size_limit) {
        return Err(refused);
    }
    Ok(WebhookMessage {
        channel,
        original,
        thinking,
        payload,
        files,
    })
}

/// Edits the interaction's `@original`; a deferral's "thinking" message is thinking no more.
fn edit_original_message(state: &State, token: &str, m: &WebhookMessage) -> Answer {
    edit_message(state, m.original, &m.payload, &m.files);
    if let Some(ixn) = state.interactions.lock().unwrap().get_mut(token) {
        ixn.thinking = false;
    }
    (200, Some(message(m.original.unwrap_or(0), m.channel, "")))
}

fn followup(state: &State, r: &Request, token: &str) -> Answer {
    let m = match webhook_message(state, r, token) {
        Ok(m) => m,
        Err(answer) => return answer,
    };
    if m.thinking {
        // Directly after a deferred response, a follow-up edits the "thinking" message (and
        // keeps its ephemeral state): no new message, no notification.
        return edit_original_message(state, token, &m);
    }
    if flags(&m.payload) & 64 == 0 {
        if let Some(refused) = thread_activity(state, m.channel) {
            return refused;
        }
    }
    let msg = create_message(state, m.channel, &m.payload, &m.files);
    (200, Some(message(msg.id, m.channel, &msg.content)))
}

fn edit_original(state: &State, r: &Request, token: &str) -> Answer {
    match webhook_message(state, r, token) {
        Ok(m) => edit_original_message(state, token, &m),
        Err(answer) => answer,
    }
}

fn channel_message(state: &State, r: &Request, channel: u64) -> Answer {
    let recipient = state
        .dms
        .lock()
        .unwrap()
        .iter()
        .find(|(_, id)| *id == channel)
        .map(|(user, _)| *user);
    if recipient.is_some_and(|u| state.closed_dms.lock().unwrap().contains(&u)) {
        return error(403, 50007, "Cannot send messages to this user");
    }
    let payload = r.json();
    let files = r.files();
    if let Some(refused) = post_refused(state, channel, !files.is_empty()) {
        return refused;
    }
    // resources/message, "Create Message": at least one of content, embeds, sticker_ids,
    // components, files or poll; else 50006 "Cannot send an empty message".
    let has = |key: &str| match &payload[key] {
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Null => false,
        _ => true,
    };
    let empty = files.is_empty()
        && !["content", "embeds", "sticker_ids", "components", "poll"]
            .iter()
            .any(|k| has(k));
    if empty {
        return error(400, 50006, "Cannot send an empty message");
    }
    if let Some(refused) = check_message(&payload, &files, ATTACHMENT_SIZE_LIMIT) {
        return refused;
    }
    if payload["enforce_nonce"] == true {
        if let Some(nonce) = payload["nonce"].as_str() {
            let earlier = state
                .messages
                .lock()
                .unwrap()
                .iter()
                .find(|m| {
                    m.channel == channel
                        && m.nonce.as_deref() == Some(nonce)
                        && state.now_ms() - m.created_ms < NONCE_WINDOW_MS
                })
                .cloned();
            if let Some(m) = earlier {
                return (200, Some(message(m.id, channel, &m.content)));
            }
        }
    }
    if let Some(refused) = thread_activity(state, channel) {
        return refused;
    }
    // A reply names a message of the same channel; one that does not exist is refused unless
    // `fail_if_not_exists` is false (resources/message, "Message Reference Structure").
    let reference = &payload["message_reference"];
    let history = state.with_channel(channel, |c| c.bot_permissions)
        & (perms::READ_MESSAGE_HISTORY | perms::ADMINISTRATOR);
    if reference["message_id"].is_string() && history == 0 {
        return error(
            403,
            160002,
            "Cannot reply without permission to read message history",
        );
    }
    if let Some(replied) = reference["message_id"].as_str() {
        let exists = state
            .messages
            .lock()
            .unwrap()
            .iter()
            .any(|m| m.id.to_string() == replied && m.channel == channel && !m.deleted);
        if !exists && reference["fail_if_not_exists"] != false {
            return form_error(
                "message_reference",
                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                "Unknown message",
            );
        }
    }
    let msg = create_message(state, channel, &payload, &files);
    (200, Some(message(msg.id, channel, &msg.content)))
}

/// resources/guild, "List Active Guild Threads": the server's threads that are not archived and
/// that Bredon can see, newest first, with the members Bredon has joined (none tracked here).
fn active_threads(state: &State, guild: u64) -> Answer {
    let channels = state.channels.lock().unwrap();
    let visible =
        |c: &Channel| c.bot_permissions & (perms::VIEW_CHANNEL | perms::ADMINISTRATOR) != 0;
    let mut threads: Vec<(&u64, &Channel)> = channels
        .iter()
        .filter(|(_, c)| c.guild == guild && is_thread(c.kind) && !c.archived && !c.deleted)
        .filter(|(_, c)| visible(c))
        .collect();
    // "ordered by their id, in descending order".
    threads.sort_by_key(|(id, _)| std::cmp::Reverse(**id));
    let threads: Vec<Value> = threads.iter().map(|(id, c)| thread_of(**id, c)).collect();
    (
        200,
        Some(json!({ "threads": threads, "members": [], "has_more": false })),
    )
}

/// resources/message, "Get Channel Messages" (with `after` and `limit`; see the header).
fn channel_messages(state: &State, path: &str, channel: u64) -> Answer {
    let (have, deleted) = state.with_channel(channel, |c| (c.bot_permissions, c.deleted));
    let is_dm = state
        .dms
        .lock()
        .unwrap()
        .iter()
        .any(|(_, id)| *id == channel);
    if deleted {
        return error(404, 10003, "Unknown Channel");
    }
    let admin = have & perms::ADMINISTRATOR != 0;
    if !is_dm && !admin && have & perms::VIEW_CHANNEL == 0 {
        return error(403, 50001, "Missing Access");
    }
    if !is_dm && !admin && have & perms::READ_MESSAGE_HISTORY == 0 {
        return (200, Some(json!([])));
    }
    let query = |key: &str| {
        path.split_once('?')
            .map_or("", |(_, q)| q)
            .split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{key}=")[..]))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let after = query("after").unwrap_or(0);
    let limit = query("limit").unwrap_or(50);
    if !(1..=100).contains(&limit) {
        return form_error(
            "limit",
            "NUMBER_TYPE_MAX",
            "int value should be between 1 and 100.",
        );
    }
    let mut listed: Vec<Msg> = state
        .messages
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.channel == channel && !m.deleted && !m.ephemeral && m.id > after)
        .cloned()
        .collect();
    listed.sort_by_key(|m| m.id);
    listed.truncate(limit as usize);
    listed.reverse();
    let json: Vec<Value> = listed
        .iter()
        .map(|m| {
            let mut v = message(m.id, channel, &m.content);
            if m.author != BOT_ID {
                v["author"] = user_json(m.author, &test_name(m.author), false);
            }
            v
        })
        .collect();
    (200, Some(Value::Array(json)))
}

fn start_thread(state: &State, r: &Request, parent: u64) -> Answer {
    let (have, deleted) = state.with_channel(parent, |c| (c.bot_permissions, c.deleted));
    if deleted {
        return error(404, 10003, "Unknown Channel");
    }
    if have & perms::ADMINISTRATOR == 0 && have & perms::CREATE_PUBLIC_THREADS == 0 {
        return error(403, 50013, "Missing Permissions");
    }
    let body = r.json();
    // resources/channel, "Start Thread without Message": name, 1-100 characters.
    let name_length = body["name"].as_str().map_or(0, |n| n.chars().count());
    if !(1..=100).contains(&name_length) {
        return form_error(
            "name",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        );
    }
    // resources/channel, "Start Thread without Message": a thread opens in a text channel
    // (type 0: public 11 or private 12) or an announcement channel (type 5: announcement thread
    // 10); anywhere else, a thread in a thread included, Discord answers 50024 "Cannot execute
    // action on this channel type" (topics/opcodes-and-status-codes, JSON error codes).
    let (parent_kind, guild) = state.with_channel(parent, |c| (c.kind, c.guild));
    let kind = body["type"].as_u64().unwrap_or(12) as u8;
    let fits = matches!((parent_kind, kind), (0, 11 | 12) | (5, 10));
    if !fits {
        return error(400, 50024, "Cannot execute action on this channel type");
    }
    let id = state.new_snowflake();
    let thread = Channel {
        name: body["name"].as_str().unwrap_or_default().to_string(),
        guild,
        kind,
        parent: Some(parent),
        bot_permissions: have,
        deleted: false,
        archived: false,
        locked: false,
        // Without a duration, a thread takes the channel's default: a day.
        auto_archive_minutes: body["auto_archive_duration"].as_i64().unwrap_or(1440),
        last_activity_ms: state.now_ms(),
    };
    let json = thread_of(id, &thread);
    state.channels.lock().unwrap().insert(id, thread);
    (200, Some(json))
}

fn edit_channel(state: &State, r: &Request, id: u64) -> Answer {
    let body = r.json();
    let answer = state.with_channel(id, |c| {
        if c.deleted {
            return Err(error(404, 10003, "Unknown Channel"));
        }
        // Unarchiving an unlocked thread needs Send Messages (resources/channel, "Modify
        // Channel", Thread), or Manage Threads.
        let may_unarchive = c.bot_permissions & (perms::SEND_MESSAGES | perms::MANAGE_THREADS) != 0;
        if body["archived"] == false && is_thread(c.kind) && !may_unarchive {
            return Err(error(403, 50013, "Missing Permissions"));
        }
        if body["archived"] == false && is_thread(c.kind) {
            c.archived = false;
            c.last_activity_ms = state.now_ms();
        }
        Ok(thread_of(id, c))
    });
    match answer {
        Ok(thread) => {
            state.dispatch("THREAD_UPDATE", thread.clone());
            (200, Some(thread))
        }
        Err(e) => e,
    }
}

/// Announcement, public and private threads (resources/channel, "Channel Types": 10, 11, 12).
fn is_thread(kind: u8) -> bool {
    matches!(kind, 10..=12)
}
