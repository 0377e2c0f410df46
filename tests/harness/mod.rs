//! The harness of the end-to-end tests: the real `bredon` binary started against the fake
//! Discord with a clean environment and a working folder of its own, the test users, and the
//! steps a scenario is written in (run a command, play a ply, press a button, wait for news).

#![allow(dead_code)]

use crate::fake_discord::{self, FakeDiscord, Request, TestUser};
use crate::support;
use serde_json::json;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `bredon run`, killed when dropped (as SIGKILL would).
pub struct Bot {
    pub child: Child,
    /// Its working folder: empty, so no `.env` of the developer's is read. Holds `bot.log` when
    /// the bot was started logging.
    work: tempfile::TempDir,
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Bot {
    /// What the bot has logged so far (started with `start_bot_logging`).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.work.path().join("bot.log")).unwrap_or_default()
    }

    /// How many lines of the log contain every one of `words`.
    pub fn log_count(&self, words: &[&str]) -> usize {
        let log = self.log();
        log.lines()
            .filter(|l| words.iter().all(|w| l.contains(w)))
            .count()
    }

    /// Waits until the log has a line containing every one of `words`: how a test sees that
    /// work which posts nothing (a channel deleted, a server left) was done.
    pub async fn logged(&self, words: &[&str]) {
        self.logged_times(words, 1).await;
    }

    /// Waits until `times` lines of the log contain every one of `words`. Negative checks wait
    /// for such a later event (the outcome fully posted, more timer ticks) instead of sleeping.
    pub async fn logged_times(&self, words: &[&str], times: usize) {
        let started = std::time::Instant::now();
        while self.log_count(words) < times {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the bot never logged {words:?}:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until every task of Bredon's turns in `channel` this bot started has ended (as
    /// many "over" lines as "looks" lines, one at least; started logging): a search that
    /// would play a second time has played by then.
    pub async fn turns_over(&self, channel: u64) {
        let channel = channel.to_string();
        let started = std::time::Instant::now();
        loop {
            let looked = self.log_count(&["Bredon looks for its turn", &channel]);
            let over = self.log_count(&["Bredon's turns here are over", &channel]);
            if looked >= 1 && over == looked {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "Bredon's turns never ended ({looked} started, {over} over):\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until the outbox has swept twice more (started logging, with
    /// `BREDON_OUTBOX_SWEEP_MS` short): one whole sweep began after the call, so what the
    /// virtual clock made due before it was tried. How a test lets the outbox work instead of
    /// sleeping through its period.
    pub async fn swept(&self) {
        let before = self.log_count(&["outbox swept"]);
        self.logged_times(&["outbox swept"], before + 2).await;
    }

    /// Stops the bot as a deploy would (SIGTERM) and waits until it has exited.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        self.child.wait().unwrap()
    }
}

/// The `bredon` binary with a clean environment, run in `work` (so no `.env` is read).
pub fn bredon(work: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bredon"));
    command.env_clear().current_dir(work);
    support::ends_with_the_test(&mut command);
    // A run under libfaketime (the tests with the machine's date moved) moves the bot's date too.
    for kept in ["LD_PRELOAD", "FAKETIME", "DONT_FAKE_MONOTONIC"] {
        if let Some(value) = std::env::var_os(kept) {
            command.env(kept, value);
        }
    }
    command
}

/// `bredon run` against the fake, storing in `data`, checking timers every `tick_secs`.
fn bot_command(fake: &FakeDiscord, data: &Path, tick_secs: f64, work: &Path) -> Command {
    let mut command = bredon(work);
    command
        .arg("run")
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", &fake.api_base)
        .env("DISCORD_GUILD_ID", fake_discord::GUILD_ID.to_string())
        .env("BREDON_DATA", data)
        .env("BREDON_TICK_SECS", tick_secs.to_string())
        .env(
            "BREDON_IDENTIFY_SPACING_MS",
            turn_spacing_ms(fake).to_string(),
        )
        .stdout(Stdio::null());
    command
}

/// How far apart the bot takes its turns at the fake's gateway: a second more than the fake's
/// window, as `bredon run` keeps 6 s for Discord's 5 (none when a test removed the window).
fn turn_spacing_ms(fake: &FakeDiscord) -> u128 {
    match fake.identify_window().as_millis() {
        0 => 0,
        window => window + 1_000,
    }
}

pub fn start_bot(fake: &FakeDiscord, data: &Path, tick_secs: f64) -> Bot {
    start_bot_with(fake, data, tick_secs, &[])
}

/// Starts the bot with `env` added to its clean environment. `BREDON_TEST_LOG` (a `RUST_LOG`
/// filter) shows its log on the test's standard error.
pub fn start_bot_with(
    fake: &FakeDiscord,
    data: &Path,
    tick_secs: f64,
    env: &[(&str, &str)],
) -> Bot {
    let log = std::env::var("BREDON_TEST_LOG").ok();
    let shown = log.is_some();
    let stderr = move |_: &Path| match shown {
        true => Stdio::inherit(),
        false => Stdio::null(),
    };
    spawn_bot(
        fake,
        data,
        tick_secs,
        env,
        log.as_deref().unwrap_or("off"),
        stderr,
    )
}

/// The bot with `env` added, logging at `rust_log` to what `stderr` makes of its working folder.
fn spawn_bot(
    fake: &FakeDiscord,
    data: &Path,
    tick_secs: f64,
    env: &[(&str, &str)],
    rust_log: &str,
    stderr: impl FnOnce(&Path) -> Stdio,
) -> Bot {
    let work = tempfile::tempdir().unwrap();
    let child = bot_command(fake, data, tick_secs, work.path())
        .env("RUST_LOG", rust_log)
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .stderr(stderr(work.path()))
        .spawn()
        .unwrap();
    Bot { child, work }
}

/// `bredon run --shards TOTAL --shard-range RANGE` against the fake, one of several processes
/// on the PostgreSQL database `url`, with the commands registered for every server (no
/// `DISCORD_GUILD_ID`). `BREDON_TEST_LOG` shows its log.
pub fn start_shards(
    fake: &FakeDiscord,
    url: &str,
    total: u32,
    range: &str,
    env: &[(&str, &str)],
) -> Bot {
    let work = tempfile::tempdir().unwrap();
    // Its log in `bot.log` (`Bot::log`), or on the test's stderr when BREDON_TEST_LOG is set.
    let log = std::env::var("BREDON_TEST_LOG").ok();
    let stderr = match log {
        Some(_) => Stdio::inherit(),
        None => std::fs::File::create(work.path().join("bot.log"))
            .unwrap()
            .into(),
    };
    let child = bot_command(fake, &work.path().join("unused"), 0.5, work.path())
        .args(["--shards", &total.to_string(), "--shard-range", range])
        .env("BREDON_DATABASE_URL", url)
        .env("BREDON_CLOCK_FILE", fake.shared_clock())
        .env_remove("DISCORD_GUILD_ID")
        .env(
            "RUST_LOG",
            log.as_deref()
                .unwrap_or("bredon=info,bredon::bot::delivery=debug"),
        )
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .stderr(stderr)
        .spawn()
        .unwrap();
    Bot { child, work }
}

/// `bredon run` against the fake with `env` added, for a start that must fail: waits (30 s at
/// most) for it to stop by itself, and gives its exit status and standard error.
pub async fn run_until_it_stops(
    fake: &FakeDiscord,
    env: &[(&str, &str)],
) -> (std::process::ExitStatus, String) {
    let data = tempfile::tempdir().unwrap();
    let mut child = bredon(data.path())
        .arg("run")
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", &fake.api_base)
        .env("DISCORD_GUILD_ID", fake_discord::GUILD_ID.to_string())
        .env("BREDON_DATA", data.path())
        .env("RUST_LOG", "off")
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the bot stayed up");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    (status, stderr)
}

/// `start_bot`, with Bredon's own log (debug and above) kept in its working folder.
pub fn start_bot_logging(fake: &FakeDiscord, data: &Path, tick_secs: f64) -> Bot {
    start_bot_logging_with(fake, data, tick_secs, &[])
}

/// `start_bot_logging` with `env` added.
pub fn start_bot_logging_with(
    fake: &FakeDiscord,
    data: &Path,
    tick_secs: f64,
    env: &[(&str, &str)],
) -> Bot {
    let to_file = |work: &Path| std::fs::File::create(work.join("bot.log")).unwrap().into();
    spawn_bot(fake, data, tick_secs, env, "bredon=debug", to_file)
}

/// A fake Discord for a test that starts bots on it: the IDENTIFY window (5 s) off, so a bot
/// restarted on one store does not wait its turn on the wall clock (the session-start test in
/// `channels.rs` and the three processes in `scale.rs` keep Discord's window).
pub async fn start_fake() -> FakeDiscord {
    let fake = FakeDiscord::start().await;
    fake.shorten_identify_window(Duration::ZERO);
    fake
}

/// `boot`, with the bot's log kept (see `Bot::logged`).
pub async fn boot_logging() -> (FakeDiscord, tempfile::TempDir, Bot) {
    boot_logging_with(&[]).await
}

/// `boot_logging` with `env` added to the bot's environment.
pub async fn boot_logging_with(env: &[(&str, &str)]) -> (FakeDiscord, tempfile::TempDir, Bot) {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let bot = start_bot_logging_with(&fake, data.path(), 30.0, env);
    connected(&fake, 1).await;
    (fake, data, bot)
}

/// A fake Discord, a database folder, and the bot connected to the fake.
pub async fn boot() -> (FakeDiscord, tempfile::TempDir, Bot) {
    boot_with(30.0, &[]).await
}

/// `boot`, with the timers checked every `tick_secs` and `env` added to the bot's environment.
pub async fn boot_with(
    tick_secs: f64,
    env: &[(&str, &str)],
) -> (FakeDiscord, tempfile::TempDir, Bot) {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let bot = start_bot_with(&fake, data.path(), tick_secs, env);
    connected(&fake, 1).await;
    (fake, data, bot)
}

/// Kills `bot` (as SIGKILL would) and starts it again on `data`, ready as its `n`th start.
pub async fn restarted(fake: &FakeDiscord, bot: Bot, data: &Path, n: u64) -> Bot {
    killed(fake, bot).await;
    let bot = start_bot(fake, data, 30.0);
    connected(fake, n).await;
    bot
}

/// `restarted`, the new bot logging, with `env` (a shared clock) and a tick of 0.2 s.
pub async fn restarted_logging_with(
    fake: &FakeDiscord,
    bot: Bot,
    data: &Path,
    env: &[(&str, &str)],
    n: u64,
) -> Bot {
    killed(fake, bot).await;
    let bot = start_bot_logging_with(fake, data, 0.2, env);
    connected(fake, n).await;
    bot
}

/// Kills `bot` (as SIGKILL would) and waits until its gateway connection closed.
async fn killed(fake: &FakeDiscord, bot: Bot) {
    drop(bot);
    fake.wait_until(
        "the old connection to close",
        Duration::from_secs(10),
        |f| !f.connected(),
    )
    .await;
}

/// Waits for the `n`th start of the bot to be ready: its IDENTIFY, then its look at the
/// registered commands, and the commands in place (a restart finds them there and writes
/// nothing).
pub async fn connected(fake: &FakeDiscord, n: u64) {
    fake.wait_until("IDENTIFY", Duration::from_secs(30), |f| f.identifies() >= n)
        .await;
    fake.wait_until("command registration", Duration::from_secs(30), |f| {
        let looks = f
            .requests()
            .iter()
            .filter(|r| r.method == "GET" && r.path.contains("/commands"))
            .count();
        looks as u64 >= n && f.registered_commands() > 0
    })
    .await;
}

/// serenity's HTTP client pointed at the fake, as Bredon's application: for checking the fake's
/// rules directly.
pub fn fake_http(fake: &FakeDiscord) -> poise::serenity_prelude::Http {
    use poise::serenity_prelude as serenity;
    serenity::HttpBuilder::new("fake-token")
        .proxy(fake.api_base.as_str())
        .ratelimiter_disabled(true)
        .application_id(serenity::ApplicationId::new(fake_discord::APP_ID))
        .build()
}

/// Answers the interaction `id` with `reply` directly; Discord's refusal in full if it refuses.
pub async fn respond_directly(
    http: &poise::serenity_prelude::Http,
    id: u64,
    token: &str,
    reply: poise::serenity_prelude::CreateInteractionResponse,
) -> Result<(), String> {
    let id = poise::serenity_prelude::InteractionId::new(id);
    http.create_interaction_response(id, token, &reply, vec![])
        .await
        .map_err(|e| format!("{e:?}"))
}

/// alice challenges bob in the test channel, with `options` besides the opponent.
pub async fn challenge_bob(fake: &FakeDiscord, options: serde_json::Value) -> Request {
    let mut all = vec![json!({ "name": "opponent", "type": 6, "value": "222" })];
    all.extend(options.as_array().cloned().unwrap_or_default());
    run(fake, &alice(), "challenge", json!(all)).await
}

/// Presses the Move button under the newest board in `channel`: the form Bredon answers with.
pub async fn open_move_form(fake: &FakeDiscord, user: &TestUser, channel: u64) -> Request {
    open_form(fake, user, channel, "bredon:board-move:").await
}

/// Presses the newest button whose custom id starts with `button` and waits for the form it
/// opens (the interaction's callback).
pub async fn open_form(fake: &FakeDiscord, user: &TestUser, channel: u64, button: &str) -> Request {
    let button = fake
        .button(channel, button)
        .unwrap_or_else(|| panic!("no {button} button in {channel}"));
    let from = fake.requests().len();
    let token = fake.press(user, channel, &button);
    fake.wait_request(from, "the form", |r| {
        r.path.contains(&format!("/{token}/callback"))
    })
    .await
}

/// alice (White) challenges Bredon at `level` (the option's index: 0 easy, 2 hard) on a board
/// of `size`, and the game starts.
pub async fn alice_plays_bredon(fake: &FakeDiscord, level: u64, size: u64) {
    let options = json!([
        { "name": "opponent", "type": 6, "value": fake_discord::BOT_ID.to_string() },
        { "name": "level", "type": 4, "value": level },
        { "name": "size", "type": 4, "value": size },
        { "name": "seat", "type": 4, "value": 0 }
    ]);
    let r = run(fake, &alice(), "challenge", options).await;
    says(&r, "alice (White) vs Bredon (Black)");
}

/// How many of Bredon's messages in `channel`, not deleted, hold `text`.
pub fn said_in(fake: &FakeDiscord, channel: u64, text: &str) -> usize {
    fake.with_messages(|messages| {
        messages
            .iter()
            .filter(|m| m.author == fake_discord::BOT_ID && m.channel == channel)
            .filter(|m| !m.deleted && m.content.contains(text))
            .count()
    })
}

/// Asserts that an answer's text contains `text`, showing the whole text if not.
#[track_caller]
pub fn says(answer: &Request, text: &str) {
    let content = answer.content();
    assert!(content.contains(text), "expected {text:?} in: {content}");
}

/// A choice autocomplete offers: what the user reads, and the value sent when picked.
#[derive(Debug)]
pub struct Choice {
    pub name: String,
    pub value: String,
}

/// The choices Bredon answered the autocomplete request `token` (sent after request `from`)
/// with.
pub async fn offered(fake: &FakeDiscord, from: usize, token: &str) -> Vec<Choice> {
    let callback = format!("/{token}/callback");
    let answer = fake
        .wait_request(from, "autocomplete choices", |r| r.path.contains(&callback))
        .await;
    let j = answer.json();
    assert_eq!(j["type"], 8, "an autocomplete result: {j}");
    let text = |c: &serde_json::Value, key: &str| c[key].as_str().unwrap().to_string();
    j["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Choice {
            name: text(c, "name"),
            value: text(c, "value"),
        })
        .collect()
}

pub fn alice() -> TestUser {
    player("alice")
}

pub fn bob() -> TestUser {
    player("bob")
}

pub fn carol() -> TestUser {
    player("carol")
}

pub const CHANNEL: u64 = 555_000_000_000_000_001;

/// The response to the interaction with `token`: its callback; if that deferred (5), the edit of
/// the "thinking" message; if it acknowledged a button (6), the private follow-up of a refusal or
/// the outcome's message in the channel.
pub async fn answer(fake: &FakeDiscord, from: usize, token: &str) -> Request {
    let cb = format!("/{token}/callback");
    let callback = fake
        .wait_request(from, &format!("callback for {token}"), |r| {
            r.path.contains(&cb) && r.status < 300
        })
        .await;
    let hook = format!("/webhooks/{}/{token}", fake_discord::APP_ID);
    match callback.json()["type"].as_u64() {
        Some(5) => {
            fake.wait_request(from, &format!("answer for {token}"), |r| {
                r.path.contains(&hook) && matches!(r.method.as_str(), "POST" | "PATCH")
            })
            .await
        }
        Some(6) => {
            fake.wait_request(from, &format!("the answer to {token}"), |r| {
                let posted = r.path.contains("/channels/") && r.path.ends_with("/messages");
                r.method == "POST" && (r.path.ends_with(&hook) || posted)
            })
            .await
        }
        _ => callback,
    }
}

pub async fn run(
    fake: &FakeDiscord,
    user: &TestUser,
    command: &str,
    options: serde_json::Value,
) -> Request {
    run_with(fake, CHANNEL, user, command, options).await
}

pub async fn run_in(fake: &FakeDiscord, channel: u64, user: &TestUser, command: &str) -> Request {
    run_with(fake, channel, user, command, json!([])).await
}

/// `user` runs `command` with `options` in `channel`; Bredon's answer.
pub async fn run_with(
    fake: &FakeDiscord,
    channel: u64,
    user: &TestUser,
    command: &str,
    options: serde_json::Value,
) -> Request {
    let from = fake.requests().len();
    let token = fake.command(user, channel, command, options);
    answer(fake, from, &token).await
}

pub async fn ply(fake: &FakeDiscord, user: &TestUser, text: &str) -> Request {
    run(
        fake,
        user,
        "move",
        json!([{ "name": "ply", "type": 3, "value": text }]),
    )
    .await
}

/// Presses the newest button whose action is `action` (like `bredon:accept`) in the channel.
pub async fn press(fake: &FakeDiscord, user: &TestUser, action: &str) -> Request {
    press_in(fake, CHANNEL, user, action).await
}

pub async fn press_in(fake: &FakeDiscord, channel: u64, user: &TestUser, action: &str) -> Request {
    let id = fake
        .button(channel, &format!("{action}:"))
        .unwrap_or_else(|| panic!("no {action} button in {channel}"));
    let from = fake.requests().len();
    let token = fake.press(user, channel, &id);
    answer(fake, from, &token).await
}

pub async fn start_game(fake: &FakeDiscord) {
    let options = json!([
        { "name": "size", "type": 4, "value": 5 },
        { "name": "seat", "type": 4, "value": 0 }
    ]);
    let seen = fake.notifications().len();
    let r = challenge_bob(fake, options).await;
    assert!(
        r.content().contains("alice challenges bob"),
        "{}",
        r.content()
    );
    assert!(
        r.text().contains("bredon:accept"),
        "the challenge has buttons"
    );
    // A deferred challenge pings bob in a message after the answer: it must not be taken for
    // an answer to the presses below.
    fake.wait_until("bob pinged", Duration::from_secs(10), |f| {
        notified_since(f, seen).contains(&bob().id)
    })
    .await;
    let r = press(fake, &alice(), "bredon:accept").await;
    assert!(r.is_ephemeral() && r.content().contains("cannot accept your own challenge"));
    let r = press(fake, &bob(), "bredon:accept").await;
    assert!(
        r.content().contains("alice (White) vs bob (Black)"),
        "{}",
        r.content()
    );
    assert_eq!(r.pngs().len(), 1);
}

/// Runs `f` on the bot's store while the bot is not running (sled allows one process).
pub fn with_service<T>(
    data: &std::path::Path,
    f: impl FnOnce(&bredon::service::Service) -> T,
) -> T {
    let service = bredon::service::Service::new(bredon::store::Store::open(data).unwrap());
    f(&service)
}

pub fn sctx(user: &TestUser, channel: u64) -> bredon::service::Ctx {
    bredon::service::Ctx {
        guild: fake_discord::GUILD_ID,
        channel,
        user: bredon::store::records::PlayerRef {
            id: user.id,
            name: user.name.clone(),
        },
        now_ms: now_ms(),
        moderator: false,
        request: None,
    }
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A stored game between alice (White) and bob in `channel`, `plies` plies long, still running.
pub fn stored_game(service: &bredon::service::Service, channel: u64, plies: usize) {
    let options = bredon::service::ChallengeOptions {
        opponent: Some(bredon::store::records::PlayerRef {
            id: 222,
            name: "bob".into(),
        }),
        seat: bredon::store::records::Seat::White,
        size: Some(6),
        ..Default::default()
    };
    service
        .challenge(&sctx(&alice(), channel), &options)
        .unwrap();
    service.accept(&sctx(&bob(), channel)).unwrap();
    let game = support::long_game(6, plies, channel);
    let players = [alice(), bob()];
    for (i, played) in game.plies().iter().enumerate() {
        service
            .play(&sctx(&players[i % 2], channel), &played.ptn)
            .unwrap_or_else(|e| panic!("ply {} {}: {e}", i + 1, played.ptn));
    }
    posted_earlier(service);
}

/// Games in `channels` between alice and bob with a reminder an hour after each move, their
/// first messages posted already.
pub fn games_with_reminders(data: &Path, channels: &[u64]) {
    let in_the_server: Vec<(u64, u64)> = channels
        .iter()
        .map(|&c| (fake_discord::GUILD_ID, c))
        .collect();
    games_with_reminders_in(data, &in_the_server, |_, _| {});
}

/// A game with a reminder after an hour (alice White, to move, against bob) in each
/// (server, channel) of `places`, and `also` done in each as a moderator there (typed plies
/// turned on, say).
pub fn games_with_reminders_in(
    data: &Path,
    places: &[(u64, u64)],
    also: impl Fn(&bredon::service::Service, &bredon::service::Ctx),
) {
    with_service(data, |s| {
        for &(guild, channel) in places {
            let at = |user: &TestUser| bredon::service::Ctx {
                guild,
                ..sctx(user, channel)
            };
            let options = bredon::service::ChallengeOptions {
                opponent: Some(bredon::store::records::PlayerRef {
                    id: bob().id,
                    name: "bob".into(),
                }),
                seat: bredon::store::records::Seat::White,
                reminder: Some("1h".into()),
                ..Default::default()
            };
            s.challenge(&at(&alice()), &options).unwrap();
            s.accept(&at(&bob())).unwrap();
            let moderator = bredon::service::Ctx {
                moderator: true,
                ..at(&alice())
            };
            also(s, &moderator);
            // Each game's posts delivered as they are made: an outbox of hundreds would be
            // read whole at every change.
            posted_earlier(s);
        }
    });
}

/// Empties the outbox, as if an earlier Bredon had posted every outcome stored so far.
pub fn posted_earlier(service: &bredon::service::Service) {
    support::delivered_all(service);
}

/// Notifications that arrived since `from` (an index into `fake.notifications()`).
pub fn notified_since(fake: &FakeDiscord, from: usize) -> Vec<u64> {
    fake.notifications()
        .into_iter()
        .skip(from)
        .map(|n| n.user)
        .collect()
}

pub fn player(name: &str) -> TestUser {
    let id = match name {
        "alice" => 111,
        "bob" => 222,
        "carol" => 333,
        "dave" => 444,
        "erin" => 555,
        "frank" => 666,
        "gina" => 777,
        _ => panic!("no test user {name}"),
    };
    TestUser::new(id, name)
}

/// A member with Manage Server, who may change `/settings`.
pub fn server_manager() -> TestUser {
    TestUser {
        permissions: fake_discord::perms::MANAGE_GUILD,
        ..TestUser::new(444, "mod")
    }
}

pub fn moderator() -> TestUser {
    let mut m = TestUser::new(999, "mod");
    m.permissions |= fake_discord::perms::MANAGE_MESSAGES;
    m
}

pub async fn tournament_cmd(
    fake: &FakeDiscord,
    user: &TestUser,
    sub: &str,
    options: serde_json::Value,
) -> Request {
    run(
        fake,
        user,
        "tournament",
        json!([{ "name": sub, "type": 1, "options": options }]),
    )
    .await
}

/// The games of round `round` as the bot opens them, each in a new thread under the tournament's
/// channel: (thread, White, Black), waiting until `count` have started.
pub async fn round_games(
    fake: &FakeDiscord,
    name: &str,
    round: usize,
    count: usize,
) -> Vec<(u64, String, String)> {
    let marker = format!("{name}, round {round}: ");
    let found = |f: &FakeDiscord| -> Vec<(u64, String, String)> {
        let threads = f.threads();
        f.messages()
            .iter()
            .filter(|m| threads.contains(&m.channel))
            .filter_map(|m| {
                let rest = m.content.strip_prefix(&marker)?;
                let (white, rest) = rest.split_once(" (White) vs ")?;
                let (black, _) = rest.split_once(" (Black)")?;
                Some((m.channel, white.to_string(), black.to_string()))
            })
            .collect()
    };
    fake.wait_until(
        &format!("round {round}'s {count} games"),
        Duration::from_secs(30),
        |f| found(f).len() >= count,
    )
    .await;
    let games = found(fake);
    assert_eq!(games.len(), count, "each pairing opened once: {games:?}");
    games
}

/// Ends the game in `thread`: the loser resigns, or both ask for a draw.
pub async fn decide_in(
    fake: &FakeDiscord,
    thread: u64,
    white: &str,
    black: &str,
    winner: Option<&str>,
) {
    match winner {
        Some(w) => {
            let loser = if w == white { black } else { white };
            let r = run_in(fake, thread, &player(loser), "resign").await;
            announced(fake, thread, &r, &format!("{w} wins")).await;
        }
        None => {
            run_in(fake, thread, &player(white), "draw").await;
            let r = run_in(fake, thread, &player(black), "draw").await;
            announced(fake, thread, &r, "Drawn by agreement").await;
        }
    }
}

/// Waits until `text` is announced in `channel`: in the answer `r` itself, or, when the answer
/// said privately that it waits behind what the channel is still owed (under load, the outbox
/// may take longer than a handler waits for it), in the channel after those messages.
pub async fn announced(fake: &FakeDiscord, channel: u64, r: &Request, text: &str) {
    if r.content().contains(text) {
        return;
    }
    says(r, "Bredon posts the answer after them, in order");
    fake.wait_until(text, Duration::from_secs(30), |f| {
        said_in(f, channel, text) >= 1
    })
    .await;
}

/// The newest message in the tournament's channel containing `text`.
pub async fn news(fake: &FakeDiscord, text: &str) -> fake_discord::Msg {
    let find = |f: &FakeDiscord| {
        f.messages()
            .into_iter()
            .rev()
            .find(|m| m.channel == CHANNEL && m.content.contains(text))
    };
    fake.wait_until(&format!("news: {text}"), Duration::from_secs(30), |f| {
        find(f).is_some()
    })
    .await;
    find(fake).unwrap()
}

/// The standings table of a message: its code block's rows, spaces squeezed.
pub fn table_rows(content: &str) -> Vec<String> {
    let block = content
        .split("```")
        .nth(1)
        .expect("a table in a code block");
    block
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The store's outbox once the bot (started with `env`) is stopped: how a test asserts "once"
/// and "never", since a letter still owed could be posted again later. A letter caught in
/// delivery by the stop is what a bot started again delivers at once (seen in its log), as
/// after any stop; then the outbox is read again.
pub async fn outbox_after(
    fake: &FakeDiscord,
    data: &Path,
    env: &[(&str, &str)],
    bot: Bot,
) -> usize {
    let mut bot = bot;
    for _ in 0..3 {
        bot.stop();
        if support::reopen(data).letters().unwrap().is_empty() {
            return 0;
        }
        bot = start_bot_logging_with(fake, data, 0.2, env);
        bot.logged(&["owed outcome delivered"]).await;
    }
    bot.stop();
    let left = support::reopen(data).letters().unwrap();
    for letter in &left {
        eprintln!("left in the outbox: {letter:?}");
    }
    left.len()
}
