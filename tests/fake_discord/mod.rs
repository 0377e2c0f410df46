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
//!   new one; the earlier message is any "created by the same author with the same nonce", in
//!   whatever channel (a direct message to another user included). Only a new message notifies: edits never do, nor ephemeral messages; a
//!   backslash-escaped mention is text. A reply (`message_reference`) needs Read Message
//!   History (160002, "Limitations").
//! - resources/message ("Get Channel Messages"): needs View Channel (50001); without Read
//!   Message History no messages are listed; `after` lists the messages after an id, newest
//!   first, at most `limit` (1 to 100, default 50); a listed message carries no nonce (it is
//!   only "used for validating a message was sent", in the answer and MESSAGE_CREATE). Message
//!   ids are snowflakes of the virtual clock.
//! - interactions/message-components: at most 5 rows of 5 buttons, custom ids up to 100
//!   characters, labels up to 80. components/reference ("Button"): a link button (style 5) has
//!   a `url` of at most 512 characters and no `custom_id`; any other button has a `custom_id`
//!   and no `url` (50035 otherwise).
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
//!   unless it is locked, and in a locked thread only Manage Threads may post (locked and
//!   archived: 400, 50083, "JSON Error Codes"; a moderator locks and unlocks it with a
//!   THREAD_UPDATE, and an unlocked thread stays archived until reopened); unarchiving an
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
//! - topics/rate-limits: per-route buckets, some shared between routes by one
//!   `X-RateLimit-Bucket` hash, the global 50 over any second, Cloudflare's 429 page
//!   (`rate_limits.rs`, which cites each rule).
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

mod driver;
mod faults;
mod gateway;
mod installs;
mod interactions;
mod messages;
mod openapi;
mod payloads;
mod rate_limits;
mod rest;

use gateway::*;
use interactions::*;
use messages::*;
pub use payloads::*;
use rate_limits::*;
use rest::*;

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
    pub const EMBED_LINKS: u64 = 1 << 14;
    pub const MENTION_EVERYONE: u64 = 1 << 17;
    pub const SEND_POLLS: u64 = 1 << 49;
    /// What a user-installed app may do in a DM or group DM it is no member of, as Discord's
    /// interactions there say (`app_permissions` 562949953601536): answer, with files, embeds,
    /// mentions and polls; it can neither view the channel nor post in it.
    pub const PRIVATE_CHANNEL_APP: u64 = EMBED_LINKS | ATTACH_FILES | MENTION_EVERYONE | SEND_POLLS;
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
    /// Which process sent it, when the test gave processes bases of their own
    /// (`api_base_for`).
    pub via: Option<String>,
    pub content_type: String,
    /// Shared, so a test that copies the log of requests while it waits copies no picture.
    pub body: Arc<[u8]>,
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

    /// The addresses of the message's link buttons.
    pub fn link_urls(&self) -> Vec<String> {
        link_urls(&message_payload(&self.json())["components"])
    }

    /// The custom id of the form (modal) a callback opens.
    pub fn modal_id(&self) -> String {
        self.json()["data"]["custom_id"]
            .as_str()
            .expect("a form's callback")
            .to_string()
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
    /// Authorized by a user's install alone, outside the app's servers: at most 5 follow-ups
    /// (interactions/receiving-and-responding, "Create Followup Message").
    user_install_only: bool,
    follow_ups: u8,
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
    /// The newest message posted in it, and how many were (resources/channel, "Channel
    /// Object": `last_message_id`, and a thread's `message_count`).
    last_message: Option<u64>,
    message_count: u64,
    /// A DM's or group DM's members (resources/channel, "Channel Object": `recipients`).
    recipients: Vec<u64>,
    /// An overwrite denies @everyone View Channel (`hide_from_everyone`).
    hidden_from_everyone: bool,
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
            last_message: None,
            message_count: 0,
            recipients: Vec::new(),
            hidden_from_everyone: false,
        }
    }

    /// A DM (kind 1) or group DM (kind 3) of `recipients`: outside any server.
    fn private(kind: u8, recipients: Vec<u64>, bot_permissions: u64) -> Channel {
        Channel {
            guild: 0,
            kind,
            bot_permissions,
            recipients,
            ..Channel::text()
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
    /// (path fragment, status, JSON code): the next matching request is refused so, with no
    /// effect (a refusal with any code Discord may add to its list).
    refusals: Mutex<VecDeque<(String, u16, u64)>>,
    /// How many more message-making requests carrying a link button are refused with 400/50035
    /// (components/reference, "Button": Discord refuses a link it will not take, and the whole
    /// message with it).
    refused_links: AtomicU64,
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
    /// What Bredon's role lets it do in each server's channels, once a test set it
    /// (`set_role_permissions`).
    role_permissions: Mutex<HashMap<u64, u64>>,
    /// IDENTIFYs allowed at once ("Session Start Limit Object": `max_concurrency`; 1 for most
    /// bots).
    max_concurrency: AtomicU64,
    /// How far apart one bucket's IDENTIFYs must be (`IDENTIFY_SPACING` unless a test shortens
    /// it with `shorten_identify_window`), in milliseconds.
    identify_window_ms: AtomicU64,
    /// When each `max_concurrency` bucket last identified.
    last_identify: Mutex<HashMap<u64, Instant>>,
    /// IDENTIFYs answered with Invalid Session for coming too soon after their bucket's last.
    invalid_sessions: AtomicU64,
    /// The gateway URL `GET /gateway` gives, when a test sets another than the fake's own.
    advertised_gateway: Mutex<Option<String>>,
    /// Rate limits, when a test asks for them (`enforce_rate_limits`).
    rate_limits: Mutex<Option<RateLimits>>,
    /// Requests answered 429 by the rate limits (Cloudflare's included).
    rate_limited: AtomicU64,
    /// How long every request meets Cloudflare's 429 page (`cloudflare_429`), and until when
    /// once the first met it.
    cloudflare: Mutex<Option<(Duration, Option<Instant>)>>,
    /// Rung at every request and every gateway session that starts or ends: what a test that
    /// waits for the bot waits on, instead of reading the state over and over.
    changed: tokio::sync::Notify,
    /// When each IDENTIFY that started a session arrived.
    identified_at: Mutex<Vec<Instant>>,
    /// The close frames the bot sent, by their code (`None`: a frame without one).
    closed_by_bot: Mutex<Vec<Option<u16>>>,
    resumes: AtomicU64,
    seq: AtomicU64,
    ids: AtomicU64,
    ws_url: Mutex<String>,
    /// The virtual clock, in milliseconds since the fake started; it moves only by `advance`.
    clock_ms: AtomicI64,
    /// Where the virtual clock is written for the bot, when the test shares it.
    clock_file: Mutex<Option<std::path::PathBuf>>,
    /// The folder of the clock's file when the fake made it itself (`shared_clock`).
    clock_dir: Mutex<Option<tempfile::TempDir>>,
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
    /// Message-making requests refused until a time: path fragment, status, code, until.
    long_refusals: Mutex<Vec<(String, u16, u64, i64)>>,
    /// (method, path fragment, delay): matching requests take `delay` of wall time to take
    /// effect and be answered, as Discord's slower routes do.
    slow_routes: Mutex<Vec<(String, String, Duration)>>,
    /// (process, path fragment, until): the POSTs of that process (by the base it was given,
    /// `api_base_for`) holding the fragment are held back until then, as a process's own rate
    /// limiter holds a request after a long 429 and sends it when the wait is over; one the
    /// process gives up meanwhile (its connection closed) never takes effect.
    held_back: Mutex<Vec<(String, String, Instant)>>,
    /// How many requests are held back now.
    holding: AtomicU64,
    /// Long 429s a test asked for (`rate_limit_for`).
    long_limits: Mutex<Vec<LongLimit>>,
    /// When (virtual time) each invalid request was answered: 401, 403 and 429 (topics/
    /// rate-limits, "Invalid Request Limit").
    invalid_at: Mutex<Vec<i64>>,
    /// (until, every, seen): before `until`, every `every`-th message-making request takes
    /// effect but is answered 503.
    lossy: Mutex<Option<(i64, u64, u64)>>,
    /// The next interaction reaches the bot this long after Discord made it.
    late_ms: AtomicI64,
    /// Users whose privacy settings refuse direct messages from server members.
    closed_dms: Mutex<Vec<u64>>,
    /// Users who installed the app to their account (`install_for_user`).
    user_installs: Mutex<Vec<u64>>,
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

/// A long 429 for one process (or all): from the first request holding `fragment`, for
/// `length_ms` of the clock the bot shares (wall time and the test's advances), every request of the process bound by the same limit (every
/// route but the interaction endpoints when `global`, else the same bucket) is answered 429
/// with what is left of the wait, and has no effect (topics/rate-limits, "Exceeding A Rate
/// Limit"; a global limit is told by `X-RateLimit-Global`).
struct LongLimit {
    via: Option<String>,
    fragment: String,
    length_ms: i64,
    global: bool,
    /// Once started: until when, and the bucket it holds.
    running: Option<(i64, String)>,
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
    /// Whether `shard` may IDENTIFY now (its bucket's last IDENTIFY was the window, 5 s, ago or
    /// more), and if so, that it did.
    fn identify_allowed(&self, shard: u64) -> bool {
        let bucket = shard % self.max_concurrency.load(Ordering::SeqCst).max(1);
        let mut last = self.last_identify.lock().unwrap();
        let now = Instant::now();
        let window = Duration::from_millis(self.identify_window_ms.load(Ordering::SeqCst));
        if last
            .get(&bucket)
            .is_some_and(|t| now.duration_since(*t) < window)
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

    /// The time as a bot sharing the clock reads it: the wall clock and the test's advances.
    fn bot_clock_ms(&self) -> i64 {
        let wall = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        wall + self.shared_clock_ms()
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
        let dm = Channel::private(1, vec![user], perms::INVITE);
        self.channels.lock().unwrap().insert(id, dm);
        id
    }

    /// Whether `channel` is a DM with the app's bot user.
    fn is_bot_dm(&self, channel: u64) -> bool {
        self.dms
            .lock()
            .unwrap()
            .iter()
            .any(|(_, id)| *id == channel)
    }

    /// Message `id` was posted in `channel`: its last message, and one more in its count.
    fn note_message(&self, channel: u64, id: u64) {
        if let Some(c) = self.channels.lock().unwrap().get_mut(&channel) {
            c.last_message = Some(id);
            c.message_count += 1;
        }
    }

    fn with_channel<T>(&self, id: u64, f: impl FnOnce(&mut Channel) -> T) -> T {
        let mut channels = self.channels.lock().unwrap();
        f(channels.entry(id).or_insert_with(|| {
            let mut c = Channel::text();
            if let Some(&bits) = self.role_permissions.lock().unwrap().get(&c.guild) {
                c.bot_permissions = bits;
            }
            c
        }))
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
