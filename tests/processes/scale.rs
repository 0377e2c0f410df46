//! Several `bredon run` processes, each with a range of the shards, on one PostgreSQL database,
//! through the strict fake Discord with a server on every shard: each process hears its own
//! shard's servers, all of them play, one registers the commands, a player's wishes set through
//! one process hold on the others, and every interaction is answered once.

use crate::fake_discord::{shard_of, FakeDiscord, TestUser, GUILD_ID};
use crate::harness::*;
use crate::support;
use serde_json::json;
use std::collections::HashMap;
use std::time::Duration;

const SHARDS: u64 = 3;

/// A server id that hashes to `shard` of `total` (`GUILD_ID` for its own shard).
fn guild_on(shard: u64, total: u64) -> u64 {
    (0..)
        .map(|i| GUILD_ID + (i << 22))
        .find(|g| shard_of(Some(*g), total) == shard)
        .unwrap()
}

/// bob runs `/notify dm:true` in `channel`.
async fn bob_asks_for_direct_messages(fake: &FakeDiscord, channel: u64) {
    let dm = json!([{ "name": "dm", "type": 5, "value": true }]);
    let r = run_with(fake, channel, &bob(), "notify", dm).await;
    says(&r, "Direct messages when it is your move: on");
}

/// alice challenges bob to a 5x5 game in `channel`, playing White, and bob accepts.
pub(crate) async fn alice_and_bob_start(fake: &FakeDiscord, channel: u64) {
    let challenge = json!([
        { "name": "opponent", "type": 6, "value": "222" },
        { "name": "size", "type": 4, "value": 5 },
        { "name": "seat", "type": 4, "value": 0 }
    ]);
    says(
        &run_with(fake, channel, &alice(), "challenge", challenge).await,
        "alice challenges bob",
    );
    says(
        &press_in(fake, channel, &bob(), "bredon:accept").await,
        "alice (White) vs bob (Black)",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_processes_with_shard_ranges_share_one_postgres() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let fake = FakeDiscord::start().await;
    fake.recommend_shards(SHARDS);
    let channels: Vec<u64> = (0..SHARDS).map(|s| 7_000 + s).collect();
    for (shard, &channel) in channels.iter().enumerate() {
        let guild = guild_on(shard as u64, SHARDS);
        if guild != GUILD_ID {
            fake.add_guild(guild);
        }
        fake.place_channel(channel, guild);
    }
    let _bots: Vec<Bot> = (0..SHARDS)
        .map(|s| start_shards(&fake, &url, SHARDS as u32, &format!("{s}..{}", s + 1), &[]))
        .collect();
    fake.wait_until("every shard connected", Duration::from_secs(30), |f| {
        f.shards_connected() == vec![(0, 3), (1, 3), (2, 3)]
    })
    .await;
    assert_eq!(
        fake.invalid_sessions(),
        0,
        "processes started together IDENTIFY in turns, 5 s apart"
    );
    fake.wait_until("the commands registered", Duration::from_secs(30), |f| {
        f.registered_commands() > 0
    })
    .await;

    // bob asks for direct messages through shard 0's process...
    bob_asks_for_direct_messages(&fake, channels[0]).await;

    // ...and a game starts and goes on in a server of every shard, each heard by its process.
    for &channel in &channels {
        alice_and_bob_start(&fake, channel).await;
        let before = fake.direct_messages(222).len();
        let r = run_with(
            &fake,
            channel,
            &alice(),
            "move",
            json!([{ "name": "ply", "type": 3, "value": "a1" }]),
        )
        .await;
        says(&r, "a1");
        fake.wait_until(
            "bob's direct message for this server's game",
            Duration::from_secs(15),
            |f| f.direct_messages(222).len() > before,
        )
        .await;
    }
    // Once nothing is owed in the shared store, nothing more can be sent: bob got exactly one
    // direct message per game, whichever process delivered it.
    let store = bredon::store::Store::connect(&url).unwrap();
    fake.wait_until("the outbox empty", Duration::from_secs(30), |_| {
        store.letter_heads().is_ok_and(|l| l.is_empty())
    })
    .await;
    let dms = fake.direct_messages(222);
    for &channel in &channels {
        let about = dms
            .iter()
            .filter(|m| m.content.contains(&format!("<#{channel}>")))
            .count();
        assert_eq!(about, 1, "one direct message for the game in {channel}");
    }
    assert_eq!(dms.len(), channels.len());

    // One process registered the commands; every interaction was answered exactly once.
    let requests = fake.requests();
    let registrations = requests
        .iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .count();
    assert_eq!(registrations, 1, "only the process with shard 0 registers");
    let mut callbacks: HashMap<String, usize> = HashMap::new();
    for r in requests.iter().filter(|r| r.path.ends_with("/callback")) {
        *callbacks.entry(r.path.clone()).or_default() += 1;
        assert!(r.status < 300, "{} answered {}", r.path, r.status);
    }
    assert_eq!(callbacks.len(), 1 + 3 * SHARDS as usize);
    assert!(callbacks.values().all(|n| *n == 1), "{callbacks:?}");
}

/// `@discordjs/proxy` in front of the fake, run by Node.js; installed once with npm into the
/// build's temporary folder. Stopped when dropped.
struct RestProxy {
    child: std::process::Child,
    url: String,
}

impl Drop for RestProxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn rest_proxy(fake: &FakeDiscord) -> Result<RestProxy, String> {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    // The proxy's folder (its script, package.json and lockfile) copied where npm may write;
    // `npm ci` installs exactly the locked packages, again whenever the lockfile changes.
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rest-proxy");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("rest-proxy");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let lock = std::fs::read(source.join("package-lock.json")).map_err(|e| e.to_string())?;
    let installed_lock = std::fs::read(dir.join("package-lock.json")).ok();
    for file in ["package.json", "package-lock.json", "rest-proxy.mjs"] {
        std::fs::copy(source.join(file), dir.join(file)).map_err(|e| e.to_string())?;
    }
    if installed_lock.as_deref() != Some(&lock[..]) || !dir.join("node_modules").exists() {
        let installed = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&dir)
            .output()
            .map_err(|e| format!("npm is not there ({e})"))?;
        if !installed.status.success() {
            let _ = std::fs::remove_file(dir.join("package-lock.json"));
            return Err(format!(
                "npm could not install @discordjs/proxy: {}",
                String::from_utf8_lossy(&installed.stderr)
            ));
        }
    }
    let script = dir.join("rest-proxy.mjs");
    let mut child = support::ends_with_the_test(&mut Command::new("node"))
        .arg(&script)
        .env("FAKE_DISCORD", &fake.api_base)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("Node.js is not there ({e})"))?;
    let mut port = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut port)
        .map_err(|e| e.to_string())?;
    let port: u16 = port
        .trim()
        .parse()
        .map_err(|_| format!("the proxy did not start: {port:?}"))?;
    Ok(RestProxy {
        child,
        url: format!("http://127.0.0.1:{port}"),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rest_proxy_keeps_two_processes_within_the_rate_limits() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let fake = start_fake().await;
    let proxy = match rest_proxy(&fake) {
        Ok(proxy) => proxy,
        Err(why) => {
            support::postgres::skip("Node.js and npm", &why);
            return;
        }
    };
    fake.enforce_rate_limits(5, Duration::from_secs(2));
    // The limits bite: the sixth message to a channel within its window is refused.
    let client = reqwest::Client::new();
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let sent = client
            .post(format!("{}/api/v10/channels/9999/messages", fake.api_base))
            .header("authorization", "Bot fake-token")
            .header("content-type", "application/json")
            .body(json!({ "content": "x" }).to_string())
            .send()
            .await
            .unwrap();
        statuses.push(sent.status().as_u16());
    }
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429]);
    let refused_before = fake.rate_limited();
    let through_proxy = [("DISCORD_PROXY_URL", proxy.url.as_str())];
    direct_message_burst(&fake, &url, &through_proxy).await;
    assert_eq!(
        fake.rate_limited(),
        refused_before,
        "the proxy kept both processes within the limits"
    );
}

/// The control: the same burst from two processes talking to the fake directly meets 429s (and
/// the outbox still delivers each direct message once), so the test above shows the proxy at
/// work. Each process sends a reader's direct messages one at a time (they are letters in the
/// reader's queue) and its gate learns the bucket from Discord's headers, so the processes
/// overrun it only when both spend its last place at once: with one place per window, they
/// both do at the start of every window.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_rest_proxy_the_same_burst_meets_the_rate_limits() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let fake = start_fake().await;
    // A window of a second (the proxy's test keeps 2 s): the overrun comes at each window's
    // start all the same, and sixteen messages one a window take half as long.
    fake.enforce_rate_limits(1, Duration::from_secs(1));
    direct_message_burst(&fake, &url, &[]).await;
    assert!(
        fake.rate_limited() > 0,
        "two processes without a shared limiter overran a bucket"
    );
}

/// Two processes (with `env`) on `url`, eight games in each: one ply per process first, then
/// fourteen plies at once, each owing bob a direct message in one channel's bucket. Checks that
/// each game's direct message arrived once.
async fn direct_message_burst(fake: &FakeDiscord, url: &str, env: &[(&str, &str)]) {
    fake.recommend_shards(2);
    let mut channels = Vec::new();
    for shard in 0..2u64 {
        let guild = guild_on(shard, 2);
        if guild != GUILD_ID {
            fake.add_guild(guild);
        }
        for i in 0..8 {
            let channel = 8_000 + shard * 100 + i;
            fake.place_channel(channel, guild);
            channels.push(channel);
        }
    }
    let _bots: Vec<Bot> = ["0..1", "1..2"]
        .iter()
        .map(|range| start_shards(fake, url, 2, range, env))
        .collect();
    fake.wait_until("both shards connected", Duration::from_secs(30), |f| {
        f.shards_connected() == vec![(0, 2), (1, 2)] && f.registered_commands() > 0
    })
    .await;
    bob_asks_for_direct_messages(fake, channels[0]).await;
    for &channel in &channels {
        alice_and_bob_start(fake, channel).await;
    }
    // One ply in a game of each process first: each opens bob's DM channel, and the proxy
    // learns the buckets (a limiter knows a bucket from its first answer; until then a burst
    // can overrun it, behind a proxy or not).
    for &channel in [channels[0], channels[8]].iter() {
        let before = fake.direct_messages(222).len();
        let ply = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
        says(&run_with(fake, channel, &alice(), "move", ply).await, "a1");
        fake.wait_until("bob's direct message", Duration::from_secs(15), |f| {
            f.direct_messages(222).len() > before
        })
        .await;
    }
    // The burst: alice plays in the fourteen other games at once, and each ply owes bob a
    // direct message, all in one channel's bucket, from both processes.
    let from = fake.requests().len();
    let tokens: Vec<String> = channels
        .iter()
        .filter(|c| ![channels[0], channels[8]].contains(c))
        .map(|&channel| {
            let ply = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
            fake.command(&alice(), channel, "move", ply)
        })
        .collect();
    for token in &tokens {
        says(&answer(fake, from, token).await, "a1");
    }
    fake.wait_until(
        "bob's sixteen direct messages",
        Duration::from_secs(60),
        |f| f.direct_messages(222).len() >= 16,
    )
    .await;
    // Counted once nothing is owed in the shared store, when nothing more can be sent.
    let store = bredon::store::Store::connect(url).unwrap();
    fake.wait_until("the outbox empty", Duration::from_secs(30), |_| {
        store.letter_heads().is_ok_and(|l| l.is_empty())
    })
    .await;
    let dms = fake.direct_messages(222);
    assert_eq!(dms.len(), channels.len(), "one direct message per game");
    for &channel in &channels {
        let about = dms
            .iter()
            .filter(|m| m.content.contains(&format!("<#{channel}>")))
            .count();
        assert_eq!(about, 1, "one direct message for the game in {channel}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shards_connect_where_bredon_gateway_url_says() {
    let fake = start_fake().await;
    // Discord's gateway is out of reach (nothing listens on port 9); a gateway proxy, here the
    // fake's own gateway, is where the shards go.
    fake.advertise_gateway("ws://127.0.0.1:9");
    let data = tempfile::tempdir().unwrap();
    let gateway = fake.gateway_url();
    let _bot = start_bot_with(&fake, data.path(), 1.0, &[("BREDON_GATEWAY_URL", &gateway)]);
    connected(&fake, 1).await;
    start_game(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bredon_register_sets_the_commands_without_starting_the_bot() {
    let fake = start_fake().await;
    let api = fake.api_base.clone();
    let register = move |token: &str| {
        let (api, token) = (api.clone(), token.to_string());
        tokio::task::spawn_blocking(move || {
            let work = tempfile::tempdir().unwrap();
            bredon(work.path())
                .arg("register")
                .env("DISCORD_TOKEN", token)
                .env("DISCORD_API_BASE", api)
                .output()
                .unwrap()
        })
    };
    let first = register("fake-token").await.unwrap();
    let said = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(
        said.contains("slash commands registered for every server"),
        "{said}"
    );
    assert!(fake.registered_commands() > 0);
    assert!(!fake.connected(), "no gateway connection");
    let again = register("fake-token").await.unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("already registered"));
    let puts = fake
        .requests()
        .iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .count();
    assert_eq!(puts, 1, "the second run only looked");
    let without = register(" ").await.unwrap();
    assert_eq!(without.status.code(), Some(2));
}

/// Every process runs the tournaments' work; Start Thread has no idempotency, so each pairing's
/// thread is claimed in the store first, and after a try whose answer was lost, looked for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_open_one_thread_per_pairing_of_a_swiss() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let fake = start_fake().await;
    fake.recommend_shards(2);
    let tick = [("BREDON_TICK_SECS", "0.05")];
    let _bots: Vec<Bot> = ["0..1", "1..2"]
        .into_iter()
        .map(|range| start_shards(&fake, &url, 2, range, &tick))
        .collect();
    fake.wait_until("both shards connected", Duration::from_secs(30), |f| {
        f.shards_connected() == vec![(0, 2), (1, 2)]
    })
    .await;
    fake.wait_until("the commands registered", Duration::from_secs(30), |f| {
        f.registered_commands() > 0
    })
    .await;
    let create = json!([
        { "name": "name", "type": 3, "value": "Cup" },
        { "name": "format", "type": 4, "value": 2 },
        { "name": "rounds", "type": 4, "value": 3 },
        { "name": "size", "type": 4, "value": 4 }
    ]);
    tournament_cmd(&fake, &moderator(), "create", create).await;
    for p in ["alice", "bob", "carol", "dave"] {
        tournament_cmd(&fake, &player(p), "join", json!([])).await;
    }
    // Discord takes a while to make a thread: both processes see each pairing pending.
    fake.slow_route("POST", "/threads", Duration::from_millis(300));
    // And the first thread is made, but its answer is lost: it is found, not made again.
    fake.lose_next_answer("/threads", 503);
    tournament_cmd(&fake, &moderator(), "start", json!([])).await;
    for round in 1..=3 {
        for (thread, white, black) in round_games(&fake, "Cup", round, 2).await {
            decide_in(&fake, thread, &white, &black, Some(&white)).await;
        }
    }
    news(&fake, "Cup is over").await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 6, "one thread per pairing: {threads:?}");
}

/// Three processes, each with its own timer loop, on one database and one virtual clock: every
/// game's reminder and time-out is posted once, whichever process's tick finds it first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_processes_post_each_reminder_and_time_out_once() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let fake = start_fake().await;
    let clock_dir = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(clock_dir.path());
    fake.recommend_shards(SHARDS);
    let service = bredon::service::Service::new(bredon::store::Store::connect(&url).unwrap());
    let mut channels = Vec::new();
    for shard in 0..SHARDS {
        let guild = guild_on(shard, SHARDS);
        if guild != GUILD_ID {
            fake.add_guild(guild);
        }
        for i in 0..4 {
            let channel = 9_000 + shard * 100 + i;
            fake.place_channel(channel, guild);
            let options = bredon::service::ChallengeOptions {
                opponent: Some(bredon::store::records::PlayerRef {
                    id: bob().id,
                    name: "bob".into(),
                }),
                seat: bredon::store::records::Seat::White,
                size: Some(5),
                reminder: Some("1h".into()),
                time_limit: Some("1d".into()),
                ..Default::default()
            };
            let at = |user: TestUser| bredon::service::Ctx {
                guild,
                ..sctx(&user, channel)
            };
            service.challenge(&at(alice()), &options).unwrap();
            service.accept(&at(bob())).unwrap();
            channels.push(channel);
        }
    }
    posted_earlier(&service);
    let on_the_clock = [("BREDON_CLOCK_FILE", clock.as_str())];
    let _bots: Vec<Bot> = (0..SHARDS)
        .map(|s| {
            start_shards(
                &fake,
                &url,
                SHARDS as u32,
                &format!("{s}..{}", s + 1),
                &on_the_clock,
            )
        })
        .collect();
    fake.wait_until("every shard connected", Duration::from_secs(60), |f| {
        f.shards_connected() == vec![(0, 3), (1, 3), (2, 3)]
    })
    .await;
    let posted = |f: &FakeDiscord, channel: u64, says: &str| {
        f.messages()
            .iter()
            .filter(|m| m.channel == channel && m.content.contains(says))
            .count()
    };
    for (advance, says) in [(61 * 60, "it is your move"), (23 * 3600, "ran out of time")] {
        fake.advance(Duration::from_secs(advance));
        fake.wait_until(says, Duration::from_secs(60), |f| {
            channels.iter().all(|&c| posted(f, c, says) >= 1)
        })
        .await;
        // Once nothing is owed, nothing more can be posted.
        fake.wait_until("the outbox empty", Duration::from_secs(30), |_| {
            service.deliveries().is_ok_and(|d| d.is_empty())
        })
        .await;
        for &channel in &channels {
            assert_eq!(posted(&fake, channel, says), 1, "{says} in {channel}");
        }
    }
}
