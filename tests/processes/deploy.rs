//! A rolling deploy: the old and the new process of the same shards side by side on one
//! PostgreSQL, both sweeping one outbox. Fifty games end while Discord makes nothing; when it
//! is back, both processes deliver what is owed, and each result and each record stands once.

use crate::fake_discord::{FakeDiscord, GUILD_ID};
use crate::harness::*;
use crate::scale::alice_and_bob_start;
use crate::support;
use serde_json::json;
use std::time::Duration;

const GAMES: u64 = 50;

/// How many of Bredon's messages in `channel` carry a file named `name`.
fn carrying(fake: &FakeDiscord, channel: u64, name: &str) -> usize {
    fake.with_messages(|messages| {
        let standing = messages
            .iter()
            .filter(|m| m.channel == channel && !m.deleted);
        standing
            .filter(|m| m.files.iter().any(|f| f == name))
            .count()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_of_the_same_shards_deliver_fifty_results_once_each() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let fake = FakeDiscord::start().await;
    let channels: Vec<u64> = (0..GAMES).map(|i| 7_100 + i).collect();
    for &channel in &channels {
        fake.place_channel(channel, GUILD_ID);
    }
    let old = start_shards(&fake, &url, 1, "0..1", &[]);
    fake.wait_until("the old process connected", Duration::from_secs(30), |f| {
        f.shards_connected() == vec![(0, 1)]
    })
    .await;
    for &channel in &channels {
        alice_and_bob_start(&fake, channel).await;
    }
    // Discord makes nothing for five minutes; every game ends meanwhile (bob resigns), so each
    // result and record is owed in the store.
    let store = bredon::store::Store::connect(&url).unwrap();
    fake.outage(Duration::from_secs(300));
    for &channel in &channels {
        fake.command(&bob(), channel, "resign", json!([]));
    }
    fake.wait_until("fifty results owed", Duration::from_secs(60), |_| {
        store.letter_heads().is_ok_and(|l| l.len() as u64 >= GAMES)
    })
    .await;
    // The new process starts beside the old one, on the same shards and the same store.
    let new = start_shards(&fake, &url, 1, "0..1", &[]);
    // The fake's gateway then sends the shard's events to the newer session alone.
    new.logged(&["connected user="]).await;
    fake.advance(Duration::from_secs(301));
    fake.wait_until("the outbox empty", Duration::from_secs(120), |_| {
        store.letter_heads().is_ok_and(|l| l.is_empty())
    })
    .await;
    for &channel in &channels {
        assert_eq!(
            said_in(&fake, channel, "bob resigns"),
            1,
            "result in {channel}"
        );
        assert_eq!(
            carrying(&fake, channel, "game.ptn"),
            1,
            "record in {channel}"
        );
    }
    // Both processes delivered: each its own holder, fenced from the other's letters.
    let delivered_by = |bot: &Bot| bot.log_count(&["owed outcome delivered"]);
    assert!(
        delivered_by(&old) > 0 && delivered_by(&new) > 0,
        "old {} new {}",
        delivered_by(&old),
        delivered_by(&new)
    );
}
