//! Latency of the whole bot: from INTERACTION_CREATE sent by a fake Discord to the board PNG
//! arriving at its REST server (as the first response, a new message that notifies the player to
//! move), with 100 games played at once, in bursts and paced. Not a test: it prints numbers.
//! Run: cargo bench --bench discord

mod bot;
#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;

use fake_discord::{FakeDiscord, TestUser};
use serde_json::json;
use std::collections::HashMap;
use std::time::{Duration, Instant};

const GAMES: u64 = 100;
const PLIES: [&str; 12] = [
    "a1", "f6", "b2", "e5", "c3", "d4", "a6", "f1", "b5", "e2", "c4", "d3",
];
/// The pace of each round of plies: four rounds at once, four at 5 ms, four at 40 ms.
const LOADS: [(&str, Option<u64>); 3] = [
    ("burst: 100 plies at once", None),
    ("paced: a ply every 5 ms", Some(5)),
    ("paced: a ply every 40 ms", Some(40)),
];

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(run());
}

async fn run() {
    let fake = FakeDiscord::start().await;
    let data = tempfile::tempdir().unwrap();
    let mut bot = std::process::Command::new(env!("CARGO_BIN_EXE_bredon"))
        .arg("run")
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_BASE", &fake.api_base)
        .env("DISCORD_GUILD_ID", fake_discord::GUILD_ID.to_string())
        .env("BREDON_DATA", data.path())
        .env("RUST_LOG", "off")
        .spawn()
        .unwrap();
    fake.wait_until("the bot", Duration::from_secs(60), |f| {
        f.requests().iter().any(|r| r.method == "PUT")
    })
    .await;
    bot::start_games(&fake, GAMES).await;
    let (alice, bob) = (TestUser::new(111, "alice"), TestUser::new(222, "bob"));
    let channel = bot::channel;
    let mut latencies: Vec<Vec<Duration>> = vec![Vec::new(); LOADS.len()];
    for (n, ply) in PLIES.iter().enumerate() {
        let user = if n % 2 == 0 { &alice } else { &bob };
        let load = n * LOADS.len() / PLIES.len();
        let pace = LOADS[load].1.map(Duration::from_millis);
        let seen = fake.uploads().len();
        let notified = fake.notifications().len();
        let mut sent: HashMap<String, Instant> = HashMap::new();
        for i in 0..GAMES {
            let options = json!([{ "name": "ply", "type": 3, "value": ply }]);
            let token = fake.command(user, channel(i), "move", options);
            sent.insert(token, Instant::now());
            if let Some(p) = pace {
                tokio::time::sleep(p).await;
            }
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while fake.uploads().len() < seen + GAMES as usize && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        assert_eq!(
            fake.notifications().len() - notified,
            GAMES as usize,
            "every ply notified the player to move"
        );
        for (path, at) in fake.uploads().into_iter().skip(seen) {
            if let Some((_, sent_at)) = sent.iter().find(|(t, _)| path.contains(t.as_str())) {
                latencies[load].push(at.duration_since(*sent_at));
            }
        }
    }
    let _ = bot.kill();
    let notifications = fake.notifications().len();
    println!("{notifications} notifications in all (every ply pings the player to move)");
    let _ = bot.wait();
    for ((name, _), mut latencies) in LOADS.into_iter().zip(latencies) {
        latencies.sort();
        let pick = |p: f64| {
            latencies[((latencies.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3
        };
        println!(
            "{name}, {GAMES} games: {} plies, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (INTERACTION_CREATE -> PNG upload)",
            latencies.len(),
            pick(0.5),
            pick(0.99),
            pick(1.0)
        );
        assert_eq!(
            latencies.len() as u64,
            GAMES * PLIES.len() as u64 / LOADS.len() as u64,
            "every ply got its picture"
        );
    }
}
