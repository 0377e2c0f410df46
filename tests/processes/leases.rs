//! One letter, two processes: the lease written with the change, fenced by its epoch, decides
//! who delivers, also when Discord holds one process back far past the nonce's window.

use crate::fake_discord::{shard_of, FakeDiscord, GUILD_ID};
use crate::harness::*;
use crate::support;
use serde_json::json;
use std::time::Duration;

const NAMES: [&str; 2] = ["first", "second"];

/// Two processes on one PostgreSQL (sharing the fake's clock), each with a REST base of its
/// own (`api_base_for`), and a game started in `CHANNEL`; the name of the process that
/// answers its interactions. A request is given up after 2 s held back, not production's 25.
async fn two_processes_with_a_game(url: &str) -> (FakeDiscord, Vec<Bot>, &'static str) {
    let fake = start_fake().await;
    fake.recommend_shards(2);
    let bases: Vec<String> = NAMES.iter().map(|n| fake.api_base_for(n)).collect();
    let bots: Vec<Bot> = (0..2)
        .map(|s| {
            let range = format!("{s}..{}", s + 1);
            let env = [
                ("DISCORD_API_BASE", bases[s].as_str()),
                ("BREDON_REQUEST_BUDGET_MS", "2000"),
            ];
            start_shards(&fake, url, 2, &range, &env)
        })
        .collect();
    fake.wait_until("both shards connected", Duration::from_secs(30), |f| {
        f.shards_connected() == vec![(0, 2), (1, 2)] && f.registered_commands() > 0
    })
    .await;
    start_game(&fake).await;
    // The server's shard decides which process answers its interactions.
    let answering = NAMES[shard_of(Some(GUILD_ID), 2) as usize];
    (fake, bots, answering)
}

/// Which process posted each copy of the record (by the REST base it was given).
fn record_posted_by(fake: &FakeDiscord, posts: &str) -> Vec<Option<String>> {
    fake.requests()
        .iter()
        .filter(|r| r.path.ends_with(posts) && r.status == 200 && r.content().contains("Series"))
        .map(|r| r.via.clone())
        .collect()
}

/// Once the record is posted and the outbox read empty: it was posted once, by the process
/// that did not answer, and the answering one met one 429 and sent nothing more in its wait.
async fn posted_once_by_the_other(fake: &FakeDiscord, url: &str, answering: &str) {
    fake.wait_until("the record", Duration::from_secs(90), |f| {
        said_in(f, CHANNEL, "Series") == 1
    })
    .await;
    let store = bredon::store::Store::connect(url).unwrap();
    fake.wait_until("the outbox empty", Duration::from_secs(60), |_| {
        store.letter_heads().is_ok_and(|l| l.is_empty())
    })
    .await;
    let posted_by = record_posted_by(fake, &format!("/channels/{CHANNEL}/messages"));
    assert_eq!(posted_by.len(), 1, "{posted_by:?}");
    assert_ne!(posted_by[0].as_deref(), Some(answering));
    assert_eq!(
        fake.rate_limited(),
        1,
        "the limited process sent nothing more in the wait"
    );
    assert_eq!(said_in(fake, CHANNEL, "Series"), 1, "one record");
}

/// A finished game's record is a channel post the answering process owes. Discord answers that
/// process's posts in the channel with a 429 of four minutes (its limiter holds them back; the
/// other process is not limited): it gives the record up inside its lease and lets the letter
/// go, the other process delivers it, and nothing held back ever reaches the channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_discord_holds_back_leaves_the_record_to_the_other_and_nothing_is_posted_twice() {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let (fake, _bots, answering) = two_processes_with_a_game(&url).await;
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.hold_back(answering, &posts, Duration::from_secs(240));
    says(&run(&fake, &bob(), "resign", json!([])).await, "resigns");
    fake.wait_until("the record", Duration::from_secs(120), |f| {
        said_in(f, CHANNEL, "Series") == 1
    })
    .await;
    let posted_by = record_posted_by(&fake, &posts);
    assert_eq!(posted_by.len(), 1, "{posted_by:?}");
    assert_ne!(
        posted_by[0].as_deref(),
        Some(answering),
        "the other process delivered"
    );
    // Whatever the held-back process tried was given up before its lease lapsed: nothing of it
    // waits to reach the channel when the four minutes end.
    let store = bredon::store::Store::connect(&url).unwrap();
    fake.wait_until("the outbox empty", Duration::from_secs(60), |_| {
        store.letter_heads().is_ok_and(|l| l.is_empty())
    })
    .await;
    fake.wait_until("nothing held back", Duration::from_secs(60), |f| {
        f.holding() == 0
    })
    .await;
    let given_up = fake
        .requests()
        .iter()
        .filter(|r| r.via.as_deref() == Some(answering) && r.status == 499)
        .count();
    assert!(given_up >= 1, "the held-back process gave its try up");
    assert_eq!(said_in(&fake, CHANNEL, "Series"), 1, "one record");
}

/// The same with the limiter production runs (the gate): Discord answers the answering
/// process's first post of the record with a 429 of four minutes, global or of the channel's
/// route. The process holds the limited requests back itself (Discord sees no second one),
/// and the record is posted once, by whichever process, long before the four minutes end.
async fn a_429_of_four_minutes_posts_the_record_once(global: bool) {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let (fake, _bots, answering) = two_processes_with_a_game(&url).await;
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.rate_limit_for(Some(answering), &posts, Duration::from_secs(240), global);
    says(&run(&fake, &bob(), "resign", json!([])).await, "resigns");
    posted_once_by_the_other(&fake, &url, answering).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_global_429_of_four_minutes_leaves_the_record_to_the_other_process_once() {
    a_429_of_four_minutes_posts_the_record_once(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_route_429_of_four_minutes_leaves_the_record_to_the_other_process_once() {
    a_429_of_four_minutes_posts_the_record_once(false).await;
}

/// The same for a deferred answer: every store call of both processes waits behind a lock of
/// the table while 15 s pass on the shared clock (the work of bob's `/resign`, so its answer
/// is deferred), and the answering
/// process's first channel post then meets a 429 of four minutes, global or of the route. The
/// "thinking" message becomes the resignation (interaction endpoints are not bound by the
/// global limit), and the record is posted once, by the other process, long before the four
/// minutes end.
async fn a_deferred_answer_and_a_429_of_four_minutes_post_the_record_once(global: bool) {
    let Some(url) = support::postgres::database() else {
        return;
    };
    let (fake, _bots, answering) = two_processes_with_a_game(&url).await;
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.rate_limit_for(Some(answering), &posts, Duration::from_secs(240), global);
    let (locker, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    locker
        .batch_execute("BEGIN; LOCK TABLE bredon_kv IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let from = fake.requests().len();
    let token = fake.command(&bob(), CHANNEL, "resign", json!([]));
    let callback = format!("/{token}/callback");
    let first = fake
        .wait_request(from, "the first response", |r| r.path.contains(&callback))
        .await;
    assert_eq!(first.json()["type"], 5, "deferred while the work waits");
    fake.advance(Duration::from_secs(15));
    locker.batch_execute("COMMIT").await.unwrap();
    says(&answer(&fake, from, &token).await, "resigns");
    posted_once_by_the_other(&fake, &url, answering).await;
    assert_eq!(said_in(&fake, CHANNEL, "resigns"), 1, "one announcement");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_answer_then_a_global_429_of_four_minutes_posts_the_record_once() {
    a_deferred_answer_and_a_429_of_four_minutes_post_the_record_once(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_answer_then_a_route_429_of_four_minutes_posts_the_record_once() {
    a_deferred_answer_and_a_429_of_four_minutes_post_the_record_once(false).await;
}
