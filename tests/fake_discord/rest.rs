//! The REST server: requests read and recorded, outages and lost answers, rate limits, the
//! OpenAPI check, and each route's rules.

use super::*;

pub(super) async fn serve_http(stream: TcpStream, state: Arc<State>) {
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
        // A process given a base of its own (`api_base_for`): `/p/<name>/api/v10/...`.
        let (via, path) = match path.strip_prefix("/p/").and_then(|p| p.split_once('/')) {
            Some((name, rest)) => (Some(name.to_string()), format!("/{rest}")),
            None => (None, path),
        };
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
            via,
            content_type,
            body: body.into(),
            status: 0,
            at: Instant::now(),
        };
        if let Some(page) = cloudflare_page(&state) {
            request.status = 429;
            state.rate_limited.fetch_add(1, Ordering::SeqCst);
            state.invalid_at.lock().unwrap().push(state.bot_clock_ms());
            state.requests.lock().unwrap().push(request);
            state.changed.notify_waiters();
            if reader.get_mut().write_all(page.as_bytes()).await.is_err() {
                return;
            }
            continue;
        }
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
        if let Some(until) = held_back_until(&state, &request) {
            state.holding.fetch_add(1, Ordering::SeqCst);
            let mut probe = [0u8; 1];
            let given_up = tokio::select! {
                _ = tokio::time::sleep_until(until.into()) => false,
                _ = reader.get_mut().read(&mut probe) => true,
            };
            state.holding.fetch_sub(1, Ordering::SeqCst);
            if given_up {
                request.status = 499;
                state.requests.lock().unwrap().push(request);
                state.changed.notify_waiters();
                return;
            }
        }
        let long_limit = long_limited(&state, &request);
        let (status, response) = match verdict.as_ref().and_then(|v| v.refused.clone()) {
            Some(refused) => {
                state.rate_limited.fetch_add(1, Ordering::SeqCst);
                refused
            }
            None if long_limit.is_some() => {
                state.rate_limited.fetch_add(1, Ordering::SeqCst);
                let (left, global) = long_limit.unwrap();
                let body = json!({ "message": "You are being rate limited.", "retry_after": left as f64 / 1000.0, "global": global });
                (429, Some(body))
            }
            None => route(&state, &request),
        };
        request.status = status;
        if matches!(status, 401 | 403 | 429) {
            state.invalid_at.lock().unwrap().push(state.bot_clock_ms());
        }
        if find(&request.body, b"\x89PNG").is_some() {
            // Arrival, not the fake's own checks, is what the bench times.
            state
                .uploads
                .lock()
                .unwrap()
                .push((request.path.clone(), request.at));
        }
        state.requests.lock().unwrap().push(request);
        state.changed.notify_waiters();
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
        match (&verdict, long_limit) {
            (_, Some((left, global))) => {
                let scope = if global { "global" } else { "user" };
                head.push_str(&format!(
                    "retry-after: {}\r\nx-ratelimit-scope: {scope}\r\n",
                    (left + 999) / 1000
                ));
                if global {
                    head.push_str("x-ratelimit-global: true\r\n");
                } else {
                    let reset_after = left as f64 / 1000.0;
                    head.push_str(&format!("x-ratelimit-limit: 5\r\nx-ratelimit-remaining: 0\r\nx-ratelimit-reset-after: {reset_after:.3}\r\n"));
                }
            }
            (Some(v), None) => head.push_str(&v.headers),
            (None, None) if status == 429 => {
                head.push_str("retry-after: 0\r\nx-ratelimit-global: true\r\n")
            }
            (None, None) => {}
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

pub(super) fn take_matching(queue: &Mutex<VecDeque<(String, u16)>>, path: &str) -> Option<u16> {
    let mut q = queue.lock().unwrap();
    let i = q
        .iter()
        .position(|(frag, _)| path.contains(frag.as_str()))?;
    q.remove(i).map(|(_, status)| status)
}

/// Until when `request` is held back (`FakeDiscord::hold_back`), if it is.
fn held_back_until(state: &State, request: &Request) -> Option<Instant> {
    let via = request.via.as_deref()?;
    let now = Instant::now();
    state
        .held_back
        .lock()
        .unwrap()
        .iter()
        .find(|(name, fragment, until)| {
            request.method == "POST"
                && name == via
                && request.path.contains(fragment.as_str())
                && *until > now
        })
        .map(|(.., until)| *until)
}

/// Whether a long 429 (`LongLimit`) refuses `request`: the wait left in milliseconds, and
/// whether the limit is global.
fn long_limited(state: &State, request: &Request) -> Option<(i64, bool)> {
    let now = state.bot_clock_ms();
    let (_, bucket) = bucket_of(&request.method, &request.path);
    let interaction = is_interaction(&request.path);
    let mut limits = state.long_limits.lock().unwrap();
    for limit in limits.iter_mut() {
        if limit.via.is_some() && limit.via != request.via {
            continue;
        }
        match &limit.running {
            None if request.path.contains(limit.fragment.as_str()) => {
                limit.running = Some((now + limit.length_ms, bucket));
                return Some((limit.length_ms, limit.global));
            }
            Some((until, held)) if now < *until => {
                let bound = if limit.global {
                    !interaction
                } else {
                    *held == bucket
                };
                if bound {
                    return Some((until - now, limit.global));
                }
            }
            _ => {}
        }
    }
    None
}

/// Takes one from `count` if any is left.
fn take_one(count: &AtomicU64) -> bool {
    count
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok()
}

/// Whether a request makes (or edits into) a message.
pub(super) fn makes_message(r: &Request, path: &str) -> bool {
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
pub(super) fn loses_answer(state: &State) -> bool {
    let mut lossy = state.lossy.lock().unwrap();
    match lossy.as_mut() {
        Some((until, every, seen)) if state.now_ms() < *until => {
            *seen += 1;
            *seen % *every == 0
        }
        _ => false,
    }
}

pub(super) fn route(state: &State, r: &Request) -> Answer {
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
    let refused_long = state
        .long_refusals
        .lock()
        .unwrap()
        .iter()
        .find(|(fragment, .., until)| path.contains(fragment.as_str()) && state.now_ms() < *until)
        .map(|&(_, status, code, _)| (status, code));
    if let (true, Some((status, code))) = (makes, refused_long) {
        return error(status, code, "Refused");
    }
    let refusal = {
        let mut queue = state.refusals.lock().unwrap();
        let at = queue
            .iter()
            .position(|(fragment, ..)| path.contains(fragment.as_str()));
        at.and_then(|i| queue.remove(i))
    };
    if let Some((_, status, code)) = refusal {
        return error(status, code, "Refused");
    }
    if makes && !r.link_urls().is_empty() && take_one(&state.refused_links) {
        return form_error(
            "components.0.components.0.url",
            "URL_TYPE_INVALID_URL",
            "Not a well formed URL.",
        );
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
    // A fragment may name the method too ("PATCH /webhooks/").
    match take_matching(&state.lost_answers, &format!("{} {path}", r.method)) {
        Some(status) => error(status, 0, "Internal Server Error"),
        None => answer,
    }
}

pub(super) fn handle(state: &State, r: &Request, path: &str) -> Answer {
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
