//! Latency of the whole bot: from INTERACTION_CREATE sent by a fake Discord to the board PNG
//! arriving at its REST server, with 100 games played at once. Not a test: it prints numbers.
//! Run: cargo bench --bench discord

#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;

use fake_discord::{FakeDiscord, TestUser};
use serde_json::json;
use std::collections::HashMap;
use std::time::{Duration, Instant};

const GAMES: u64 = 100;
const PLIES: [&str; 8] = ["a1", "f6", "b2", "e5", "c3", "d4", "a6", "f1"];

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
    let (alice, bob) = (TestUser::new(111, "alice"), TestUser::new(222, "bob"));
    let channel = |i: u64| 777_000_000_000 + i;
    for i in 0..GAMES {
        let from = fake.requests().len();
        let options = json!([{ "name": "opponent", "type": 6, "value": "222" }, { "name": "size", "type": 4, "value": 6 }, { "name": "seat", "type": 4, "value": 0 }]);
        let t = fake.command(&alice, channel(i), "challenge", options);
        fake.wait_request(from, "challenge", |r| {
            r.path.contains(&t)
                && r.pngs().is_empty()
                && r.method == "POST"
                && r.path.contains("/webhooks/")
        })
        .await;
        let from = fake.requests().len();
        let t = fake.press(&bob, channel(i), "bredon:accept");
        fake.wait_request(from, "accept", |r| r.path.contains(&t))
            .await;
    }
    // A burst: all 100 games send a ply at the same instant; then paced: one ply every 5 ms.
    let mut burst = Vec::new();
    let mut paced = Vec::new();
    for (n, ply) in PLIES.iter().enumerate() {
        let user = if n % 2 == 0 { &alice } else { &bob };
        let pace = if n < PLIES.len() / 2 {
            None
        } else {
            Some(Duration::from_millis(5))
        };
        let seen = fake.uploads().len();
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
        for (path, at) in fake.uploads().into_iter().skip(seen) {
            if let Some((_, sent_at)) = sent.iter().find(|(t, _)| path.contains(t.as_str())) {
                let d = at.duration_since(*sent_at);
                if pace.is_some() {
                    paced.push(d)
                } else {
                    burst.push(d)
                }
            }
        }
    }
    let _ = bot.kill();
    let _ = bot.wait();
    for (name, mut latencies) in [
        ("burst: 100 plies at once", burst),
        ("paced: a ply every 5 ms", paced),
    ] {
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
            GAMES * PLIES.len() as u64 / 2,
            "every ply got its picture"
        );
    }
}
