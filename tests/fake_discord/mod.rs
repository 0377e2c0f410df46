//! A fake Discord on 127.0.0.1 for end-to-end tests of the bot: a REST server that records every
//! request (JSON and multipart) and a WebSocket gateway that greets, takes IDENTIFY, sends READY
//! and then whatever dispatches the test pushes. Payloads are complete objects: serenity drops
//! what it cannot parse without a word, so `payloads_deserialize` checks each with serenity.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
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
            let text = self.text();
            let start = text
                .find("name=\"payload_json\"")
                .and_then(|i| text[i..].find("\r\n\r\n").map(|j| i + j + 4));
            if let Some(start) = start {
                let end = text[start..]
                    .find("\r\n--")
                    .map_or(text.len(), |e| start + e);
                return serde_json::from_str(&text[start..end]).unwrap_or(Value::Null);
            }
            return Value::Null;
        }
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// PNG files in a multipart body.
    pub fn pngs(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let sig = b"\x89PNG\r\n\x1a\n";
        let mut i = 0;
        while let Some(pos) = find(&self.body[i..], sig) {
            let start = i + pos;
            let end = find(&self.body[start..], b"IEND")
                .map_or(self.body.len(), |e| (start + e + 8).min(self.body.len()));
            out.push(self.body[start..end].to_vec());
            i = end;
        }
        out
    }

    pub fn is_ephemeral(&self) -> bool {
        let j = self.json();
        let flags = j["data"]["flags"]
            .as_u64()
            .or_else(|| j["flags"].as_u64())
            .unwrap_or(0);
        flags & 64 != 0
    }

    /// The message text, for callbacks (`data.content`) and messages (`content`).
    pub fn content(&self) -> String {
        let j = self.json();
        j["data"]["content"]
            .as_str()
            .or_else(|| j["content"].as_str())
            .unwrap_or("")
            .to_string()
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[derive(Default)]
struct State {
    requests: Mutex<Vec<Request>>,
    /// (path, arrival) of every request carrying a PNG, kept apart so waiting on uploads is cheap.
    uploads: Mutex<Vec<(String, Instant)>>,
    /// (path fragment, status): the next matching request gets this status.
    failures: Mutex<VecDeque<(String, u16)>>,
    gateway: Mutex<Option<mpsc::UnboundedSender<Message>>>,
    identifies: AtomicU64,
    resumes: AtomicU64,
    seq: AtomicU64,
    ids: AtomicU64,
    ws_url: Mutex<String>,
}

#[derive(Clone)]
pub struct FakeDiscord {
    pub api_base: String,
    state: Arc<State>,
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let ws = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let state = Arc::new(State::default());
        state.ids.store(1_000_000, Ordering::SeqCst);
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

    pub fn identifies(&self) -> u64 {
        self.state.identifies.load(Ordering::SeqCst)
    }

    pub fn resumes(&self) -> u64 {
        self.state.resumes.load(Ordering::SeqCst)
    }

    /// The next request whose path contains `fragment` is answered with `status`.
    pub fn fail_next(&self, fragment: &str, status: u16) {
        self.state
            .failures
            .lock()
            .unwrap()
            .push_back((fragment.to_string(), status));
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
                started.elapsed() < Duration::from_secs(20),
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

    fn next_id(&self) -> u64 {
        self.state.ids.fetch_add(1, Ordering::SeqCst)
    }

    /// Sends a dispatch event to the connected bot.
    pub fn dispatch(&self, event: &str, data: Value) {
        let s = self.state.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let frame = json!({ "op": 0, "t": event, "s": s, "d": data });
        let gw = self.state.gateway.lock().unwrap();
        gw.as_ref()
            .expect("the bot is connected")
            .send(Message::Text(frame.to_string()))
            .unwrap();
    }

    /// Closes the gateway connection with `code` (4000: the bot resumes).
    pub fn drop_gateway(&self, code: u16) {
        if let Some(gw) = self.state.gateway.lock().unwrap().take() {
            let _ = gw.send(Message::Close(Some(CloseFrame {
                code: CloseCode::from(code),
                reason: "test".into(),
            })));
        }
    }

    pub fn connected(&self) -> bool {
        self.state.gateway.lock().unwrap().is_some()
    }

    /// Sends a slash command; returns its interaction token.
    /// User options (type 6) are resolved as Discord does, from `names` (id → name).
    pub fn command(&self, user: &TestUser, channel: u64, name: &str, options: Value) -> String {
        let token = format!("tok{}", self.next_id());
        let mut users = serde_json::Map::new();
        let mut members = serde_json::Map::new();
        for o in options
            .as_array()
            .into_iter()
            .flatten()
            .filter(|o| o["type"] == 6)
        {
            let id: u64 = o["value"]
                .as_str()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            let u = TestUser::new(id, &test_name(id));
            users.insert(id.to_string(), user_json(id, &u.name, false));
            let mut m = member_json(&u);
            m.as_object_mut().unwrap().remove("user");
            members.insert(id.to_string(), m);
        }
        let data = json!({ "id": "1", "name": name, "type": 1, "options": options, "resolved": { "users": users, "members": members } });
        let data = interaction(self.next_id(), 2, &token, user, channel, data, None);
        self.dispatch("INTERACTION_CREATE", data);
        token
    }

    /// Autocomplete for `/move ply:` with `typed` so far.
    pub fn autocomplete(&self, user: &TestUser, channel: u64, typed: &str) -> String {
        let token = format!("tok{}", self.next_id());
        let options = json!([{ "name": "ply", "type": 3, "value": typed, "focused": true }]);
        let data = interaction(
            self.next_id(),
            4,
            &token,
            user,
            channel,
            json!({ "id": "1", "name": "move", "type": 1, "options": options }),
            None,
        );
        self.dispatch("INTERACTION_CREATE", data);
        token
    }

    /// Presses a button with `custom_id`.
    pub fn press(&self, user: &TestUser, channel: u64, custom_id: &str) -> String {
        let token = format!("tok{}", self.next_id());
        let msg = message(self.next_id(), channel, "a challenge");
        let data = interaction(
            self.next_id(),
            3,
            &token,
            user,
            channel,
            json!({ "custom_id": custom_id, "component_type": 2 }),
            Some(msg),
        );
        self.dispatch("INTERACTION_CREATE", data);
        token
    }
}

/// The names of the tests' users, by id.
pub fn test_name(id: u64) -> String {
    match id {
        111 => "alice".into(),
        222 => "bob".into(),
        333 => "carol".into(),
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
            permissions: 0x0000_0000_0004_0800,
        } // send messages, embed/attach
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
        "channel": { "id": channel.to_string(), "type": 0, "name": "tak", "permissions": "2147483647" },
        "member": member_json(user), "token": token, "version": 1,
        "app_permissions": "2147483647", "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
        "authorizing_integration_owners": { "0": GUILD_ID.to_string() }, "context": 0,
        "attachment_size_limit": 26214400
    });
    if let Some(m) = msg {
        v["message"] = m;
    }
    v
}

pub fn ready(ws_url: &str) -> Value {
    json!({
        "v": 10, "user": { "id": BOT_ID.to_string(), "username": "Bredon", "global_name": null, "discriminator": "0",
            "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0, "public_flags": 0 },
        "guilds": [{ "id": GUILD_ID.to_string(), "unavailable": true }],
        "session_id": "fake-session", "resume_gateway_url": ws_url, "shard": [0, 1],
        "application": { "id": APP_ID.to_string(), "flags": 0 }
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
    *state.gateway.lock().unwrap() = Some(tx.clone());
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
                state.identifies.fetch_add(1, Ordering::SeqCst);
                let s = state.seq.fetch_add(1, Ordering::SeqCst) + 1;
                let url = state.ws_url.lock().unwrap().clone();
                let frame = json!({ "op": 0, "t": "READY", "s": s, "d": ready(&url) });
                let _ = tx.send(Message::Text(frame.to_string()));
            }
            Some(6) => {
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
    let mut current = state.gateway.lock().unwrap();
    if current.as_ref().is_some_and(|c| c.same_channel(&tx)) {
        *current = None;
    }
}

async fn serve_http(stream: TcpStream, state: Arc<State>) {
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (
            parts.next().unwrap_or("").to_string(),
            parts.next().unwrap_or("").to_string(),
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
        let (status, response) = route(&state, &method, &path);
        if find(&body, b"\x89PNG").is_some() {
            state
                .uploads
                .lock()
                .unwrap()
                .push((path.clone(), Instant::now()));
        }
        state.requests.lock().unwrap().push(Request {
            method,
            path,
            content_type,
            body,
            status,
            at: Instant::now(),
        });
        let reason = match status {
            200 => "OK",
            204 => "No Content",
            429 => "Too Many Requests",
            500 => "Internal Server Error",
            _ => "Not Found",
        };
        let body = response.map(|v| v.to_string()).unwrap_or_default();
        let mut head = format!("HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n", body.len());
        if status == 429 {
            head.push_str("retry-after: 0\r\nx-ratelimit-global: true\r\n");
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

fn route(state: &State, method: &str, path: &str) -> (u16, Option<Value>) {
    let path = path.split('?').next().unwrap_or(path);
    {
        let mut failures = state.failures.lock().unwrap();
        if let Some(i) = failures
            .iter()
            .position(|(frag, _)| path.contains(frag.as_str()))
        {
            let (_, status) = failures.remove(i).unwrap();
            let body = if status == 429 {
                json!({ "message": "You are being rate limited.", "retry_after": 0.0, "global": false })
            } else {
                json!({ "message": "Internal Server Error", "code": 0 })
            };
            return (status, Some(body));
        }
    }
    let id = state.ids.fetch_add(1, Ordering::SeqCst);
    let segments: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let ws = state.ws_url.lock().unwrap().clone();
    match (method, segments.as_slice()) {
        ("GET", ["gateway"]) => (200, Some(json!({ "url": ws }))),
        ("GET", ["gateway", "bot"]) => (
            200,
            Some(
                json!({ "url": ws, "shards": 1, "session_start_limit": { "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1 } }),
            ),
        ),
        ("GET", ["users", "@me"]) => (200, Some(ready(&ws)["user"].clone())),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => (200, Some(json!([]))),
        ("POST", ["interactions", _, _, "callback"]) => (204, None),
        ("POST", ["webhooks", _, _])
        | ("PATCH", ["webhooks", _, _, "messages", _])
        | ("GET", ["webhooks", _, _, "messages", _]) => (200, Some(message(id, 1, ""))),
        ("POST", ["channels", channel, "messages"]) => {
            (200, Some(message(id, channel.parse().unwrap_or(1), "")))
        }
        ("POST", ["channels", channel, "threads"]) => {
            (200, Some(thread_json(id, channel.parse().unwrap_or(0))))
        }
        _ => (404, Some(json!({ "message": "Unknown route", "code": 0 }))),
    }
}
