//! What a test does with the fake: starts it, plays users' interactions and events, changes
//! the world (permissions, channels, outages, the clock), and reads what the bot did.

use super::*;

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let ws = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let state = Arc::new(State::default());
        state.ids.store(1_000_000, Ordering::SeqCst);
        state.registration_status.store(200, Ordering::SeqCst);
        state.session_starts.store(1000, Ordering::SeqCst);
        state.max_concurrency.store(1, Ordering::SeqCst);
        state
            .identify_window_ms
            .store(IDENTIFY_SPACING.as_millis() as u64, Ordering::SeqCst);
        // No outage until a test makes one, wherever a test pins the clock (`pin_clock`).
        state.outage_until_ms.store(i64::MIN, Ordering::SeqCst);
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

    /// A test setting: IDENTIFYs of one bucket may come `window` apart instead of Discord's 5 s,
    /// and the bots the harness starts take their turns at the gateway as far apart (a restart
    /// on one store then waits on no wall clock). The tests of the window itself keep Discord's.
    pub fn shorten_identify_window(&self, window: Duration) {
        let ms = window.min(IDENTIFY_SPACING).as_millis() as u64;
        self.state.identify_window_ms.store(ms, Ordering::SeqCst);
    }

    /// How far apart one bucket's IDENTIFYs must be.
    pub fn identify_window(&self) -> Duration {
        Duration::from_millis(self.state.identify_window_ms.load(Ordering::SeqCst))
    }

    /// IDENTIFYs refused for coming sooner than the window after their bucket's last.
    pub fn invalid_sessions(&self) -> u64 {
        self.state.invalid_sessions.load(Ordering::SeqCst)
    }

    pub fn identifies(&self) -> u64 {
        self.state.identified_at.lock().unwrap().len() as u64
    }

    /// When each IDENTIFY that started a session arrived, in order.
    pub fn identified_at(&self) -> Vec<Instant> {
        self.state.identified_at.lock().unwrap().clone()
    }

    /// The codes of the close frames the bot sent its gateway connections, in order.
    pub fn closed_by_bot(&self) -> Vec<Option<u16>> {
        self.state.closed_by_bot.lock().unwrap().clone()
    }

    pub fn resumes(&self) -> u64 {
        self.state.resumes.load(Ordering::SeqCst)
    }

    /// Every message created so far (including ephemeral ones), in order.
    pub fn messages(&self) -> Vec<Msg> {
        self.state.messages.lock().unwrap().clone()
    }

    /// What `read` makes of the messages, read under the lock without copying them: a test
    /// polling hundreds of channels' counts copies no log (copies of it were most of a test's
    /// time).
    pub fn with_messages<T>(&self, read: impl FnOnce(&[Msg]) -> T) -> T {
        read(&self.state.messages.lock().unwrap())
    }

    /// What `read` makes of the requests so far, read under the lock without copying them.
    pub fn with_requests<T>(&self, read: impl FnOnce(&[Request]) -> T) -> T {
        read(&self.state.requests.lock().unwrap())
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

    /// What Bredon's role lets it do in every channel of `guild`, those made later too (the
    /// fake keeps no overrides apart: a role change reaches every channel), told by one
    /// GUILD_ROLE_UPDATE (events/gateway-events, "Guild Role Update"; topics/permissions,
    /// "Permission Hierarchy": @everyone's role has the server's id).
    pub fn set_role_permissions(&self, guild: u64, bits: u64) {
        self.state
            .role_permissions
            .lock()
            .unwrap()
            .insert(guild, bits);
        for c in self.state.channels.lock().unwrap().values_mut() {
            if c.guild == guild {
                c.bot_permissions = bits;
            }
        }
        let role = everyone_role_json(guild, bits);
        let event = json!({ "guild_id": guild.to_string(), "role": role });
        self.state.dispatch("GUILD_ROLE_UPDATE", event);
    }

    /// A moderator denies @everyone View Channel in `channel` (an overwrite for the role), or
    /// takes the overwrite away, told by CHANNEL_UPDATE (topics/gateway-events, "Channel
    /// Update").
    pub fn hide_from_everyone(&self, channel: u64, hidden: bool) {
        let json = self.state.with_channel(channel, |c| {
            c.hidden_from_everyone = hidden;
            channel_json(channel, c)
        });
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

    /// The virtual clock's file, shared already or now, in a folder of the fake's own: what
    /// every process the harness starts on this fake reads (`BREDON_CLOCK_FILE`).
    pub fn shared_clock(&self) -> String {
        if let Some(path) = self.state.clock_file.lock().unwrap().as_ref() {
            return path.to_string_lossy().into_owned();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = self.share_clock(dir.path());
        *self.state.clock_dir.lock().unwrap() = Some(dir);
        path
    }

    fn write_clock(&self) {
        if let Some(path) = self.state.clock_file.lock().unwrap().as_ref() {
            let temporary = path.with_extension("new");
            std::fs::write(&temporary, self.state.now_ms().to_string()).unwrap();
            std::fs::rename(&temporary, path).unwrap();
        }
    }

    /// Sets the virtual clock so that the bot sharing it reads `at_ms` now, whatever the
    /// machine's date: a test pins the day it runs on. `advance` moves it on from there.
    pub fn pin_clock(&self, at_ms: i64) {
        let wall = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        self.state.clock_ms.store(at_ms - wall, Ordering::SeqCst);
        self.write_clock();
    }

    /// How far `advance` has moved the virtual clock on (the bot's time is the machine's
    /// plus this, once it shares the clock).
    pub fn advanced_ms(&self) -> i64 {
        self.state.now_ms()
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

    /// A moderator unlocks a thread; it stays archived until someone reopens it (topics/threads).
    pub fn unlock_thread(&self, id: u64) {
        let thread = self.state.with_channel(id, |c| {
            c.locked = false;
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
        self.state.note_message(channel, id);
        if intents & intents::GUILD_MESSAGES == 0 {
            return id;
        }
        let readable = intents & intents::MESSAGE_CONTENT != 0 || mentions_bot;
        let mut m = message(id, channel, if readable { content } else { "" });
        // The channel's own server (one placed in another server says so).
        let guild = self
            .state
            .channels
            .lock()
            .unwrap()
            .get(&channel)
            .map(|c| c.guild);
        if let Some(guild) = guild.filter(|&g| g != 0) {
            m["guild_id"] = json!(guild.to_string());
        }
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
        loop {
            // Listening before the look, so a change between the two is not missed; what the
            // fake is not told of (the bot's log, its store) is looked at again after 50 ms.
            let changed = self.state.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if ready(self) {
                return;
            }
            assert!(started.elapsed() < timeout, "timed out waiting for {what}");
            let _ = tokio::time::timeout(Duration::from_millis(50), changed).await;
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
            let changed = self.state.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let found = {
                let requests = self.state.requests.lock().unwrap();
                requests.iter().skip(from).find(|r| pred(r)).cloned()
            };
            if let Some(r) = found {
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
            let _ = tokio::time::timeout(Duration::from_millis(100), changed).await;
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

    /// Enforces rate limits from now on: `per_route` requests a `window` in each bucket (a
    /// route's, or one that routes share), 50 in any second in all (`RateLimits`).
    pub fn enforce_rate_limits(&self, per_route: u32, window: Duration) {
        *self.state.rate_limits.lock().unwrap() = Some(RateLimits::new(per_route, window));
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
                user_install_only: false,
                follow_ups: 0,
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
        if guild == 0 {
            self.outside_servers(&mut payload, &token, user, channel);
        } else if !self.state.guilds().contains(&guild) {
            self.in_a_server_without_the_app(&mut payload, &token, user);
        }
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
        self.submit_modal_fields(user, channel, custom_id, &[(input, value)])
    }

    /// Submits the modal `custom_id` with its text inputs filled as `fields` (input, value),
    /// each in its own action row as Discord sends them.
    pub fn submit_modal_fields(
        &self,
        user: &TestUser,
        channel: u64,
        custom_id: &str,
        fields: &[(&str, &str)],
    ) -> String {
        let rows: Vec<_> = fields
            .iter()
            .map(|(input, value)| {
                json!({ "type": 1, "components": [{ "type": 4, "custom_id": input, "value": value }] })
            })
            .collect();
        let data = json!({ "custom_id": custom_id, "components": rows });
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
