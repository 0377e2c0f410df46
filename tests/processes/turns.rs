//! Bredon's turn across processes: two processes starting together on one PostgreSQL with a
//! game where Bredon is to move search it once (the process of the game's shard), and Bredon
//! plays once, with nothing saying its engine failed.

use crate::fake_discord::{shard_of, BOT_ID, GUILD_ID};
use crate::harness::*;
use crate::support;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_starting_with_bredon_to_move_search_once_and_play_once() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let bredon = bredon::store::records::PlayerRef {
        id: BOT_ID,
        name: "Bredon".into(),
    };
    {
        let store = bredon::store::Store::connect(&url).unwrap();
        let service = bredon::service::Service::of_process(store, 90);
        // Bredon has White: its first ply is due as the processes start.
        let options = bredon::service::ChallengeOptions {
            opponent: Some(bredon.clone()),
            engine: Some("hard".into()),
            seat: bredon::store::records::Seat::Black,
            size: Some(5),
            ..Default::default()
        };
        let at = sctx(&alice(), CHANNEL);
        service.challenge_engine(&at, &options, &bredon).unwrap();
        posted_earlier(&service);
    }
    let fake = start_fake().await;
    fake.recommend_shards(2);
    let engine = [("BREDON_ENGINE_SECS", "1")];
    let bots: Vec<Bot> = ["0..1", "1..2"]
        .iter()
        .map(|range| start_shards(&fake, &url, 2, range, &engine))
        .collect();
    fake.wait_until("Bredon's ply", Duration::from_secs(60), |f| {
        said_in(f, CHANNEL, "Bredon played") >= 1
    })
    .await;
    // Read when nothing more can come: each process past its start (where it looks for the
    // turns left waiting), the searching task's turns over, and the shared outbox empty.
    for bot in &bots {
        bot.logged(&["slash commands"]).await;
    }
    let channel = CHANNEL.to_string();
    let over = |b: &Bot| b.log_count(&["Bredon's turns here are over", &channel]);
    fake.wait_until("the turns over", Duration::from_secs(60), |_| {
        bots.iter().map(over).sum::<usize>() >= 1
    })
    .await;
    let store = bredon::store::Store::connect(&url).unwrap();
    fake.wait_until("the outbox empty", Duration::from_secs(60), |_| {
        store.letter_heads().is_ok_and(|l| l.is_empty())
    })
    .await;
    assert_eq!(said_in(&fake, CHANNEL, "Bredon played"), 1, "one ply");
    assert_eq!(said_in(&fake, CHANNEL, "engine failed"), 0);
    let looked: Vec<usize> = bots
        .iter()
        .map(|b| b.log_count(&["Bredon looks for its turn", &channel]))
        .collect();
    let owner = shard_of(Some(GUILD_ID), 2) as usize;
    let mut expected = vec![0, 0];
    expected[owner] = 1;
    assert_eq!(
        looked, expected,
        "only the process of the game's shard searched"
    );
}
