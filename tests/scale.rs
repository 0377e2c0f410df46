//! Several `bredon run` processes, each with a range of the shards, on one PostgreSQL database,
//! through the strict fake Discord with a server on every shard: each process hears its own
//! shard's servers, all of them play, one registers the commands, a player's wishes set through
//! one process hold on the others, and every interaction is answered once.

mod fake_discord;
mod harness;
mod support;

use fake_discord::{shard_of, FakeDiscord, GUILD_ID};
use harness::*;
use serde_json::json;
use std::collections::HashMap;
use std::time::Duration;

const SHARDS: u64 = 3;

/// A server id that hashes to `shard` (`GUILD_ID` for its own shard).
fn guild_on(shard: u64) -> u64 {
    (0..)
        .map(|i| GUILD_ID + (i << 22))
        .find(|g| shard_of(Some(*g), SHARDS) == shard)
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_processes_with_shard_ranges_share_one_postgres() {
    let url = match support::postgres::server() {
        Ok(server) => server.database(),
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let fake = FakeDiscord::start().await;
    fake.recommend_shards(SHARDS);
    let channels: Vec<u64> = (0..SHARDS).map(|s| 7_000 + s).collect();
    for (shard, &channel) in channels.iter().enumerate() {
        let guild = guild_on(shard as u64);
        if guild != GUILD_ID {
            fake.add_guild(guild);
        }
        fake.place_channel(channel, guild);
    }
    let _bots: Vec<Bot> = (0..SHARDS)
        .map(|s| start_shards(&fake, &url, SHARDS as u32, &format!("{s}..{}", s + 1)))
        .collect();
    fake.wait_until("every shard connected", Duration::from_secs(30), |f| {
        f.shards_connected() == vec![(0, 3), (1, 3), (2, 3)]
    })
    .await;
    fake.wait_until("the commands registered", Duration::from_secs(30), |f| {
        f.registered_commands() > 0
    })
    .await;

    // bob asks for direct messages through shard 0's process...
    let r = run_with(
        &fake,
        channels[0],
        &bob(),
        "notify",
        json!([{ "name": "dm", "type": 5, "value": true }]),
    )
    .await;
    says(&r, "Direct messages when it is your move: on");

    // ...and a game starts and goes on in a server of every shard, each heard by its process.
    for &channel in &channels {
        let challenge = json!([
            { "name": "opponent", "type": 6, "value": "222" },
            { "name": "size", "type": 4, "value": 5 },
            { "name": "seat", "type": 4, "value": 0 }
        ]);
        let r = run_with(&fake, channel, &alice(), "challenge", challenge).await;
        says(&r, "alice challenges bob");
        let r = press_in(&fake, channel, &bob(), "bredon:accept").await;
        says(&r, "alice (White) vs bob (Black)");
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
        let dm = fake.direct_messages(222).pop().unwrap();
        assert!(
            dm.content.contains(&format!("<#{channel}>")),
            "{}",
            dm.content
        );
    }

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
