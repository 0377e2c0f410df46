//! Challenges: levels, Bredon as the opponent and its rematch, threads for games, `/position`
//! and `/rules`, records and settings commands.

use crate::fake_discord::{self, perms};
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_with_a_human_opponent_is_refused_saying_what_to_do() {
    let (fake, _data, _bot) = boot().await;
    let r = challenge_bob(&fake, json!([{ "name": "level", "type": 4, "value": 2 }])).await;
    assert!(r.is_ephemeral(), "{}", r.content());
    says(&r, "a level sets Bredon's strength");
    says(&r, "leave the level out to challenge bob");
    // Nothing started: no game, no challenge.
    let r = run(&fake, &alice(), "board", json!([])).await;
    assert!(r.is_ephemeral(), "{}", r.content());
    let r = run(&fake, &bob(), "accept", json!([])).await;
    assert!(r.is_ephemeral(), "{}", r.content());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_bredon_starts_a_game_against_its_engine_and_a_rematch() {
    let (fake, _data, _bot) = boot().await;
    alice_plays_bredon(&fake, 0, 4).await;
    let posts = format!("/channels/{CHANNEL}/messages");
    let from = fake.requests().len();
    let mine = ply(&fake, &alice(), "a1").await;
    says(&mine, "Bredon to move");
    let reply = fake
        .wait_request(from, "Bredon's ply", |r| r.path.contains(&posts))
        .await;
    says(&reply, "Bredon played");
    assert!(
        reply.content().contains("alice to move") && reply.content().contains("<@111>"),
        "{}",
        reply.content()
    );
    assert_eq!(reply.pngs().len(), 1);
    // With White, Bredon moves first as soon as the game starts.
    let other = CHANNEL + 1;
    let from = fake.requests().len();
    let token = fake.command(&bob(), other, "challenge", json!([{ "name": "level", "type": 4, "value": 1 }, { "name": "seat", "type": 4, "value": 1 }, { "name": "size", "type": 4, "value": 4 }]));
    answer(&fake, from, &token).await;
    let first = fake
        .wait_request(from, "Bredon's first ply", |r| {
            r.path.contains(&format!("/channels/{other}/messages"))
        })
        .await;
    assert!(
        first.content().contains("Bredon played") && first.content().contains("bob to move"),
        "{}",
        first.content()
    );
    // A rematch against Bredon: Bredon accepts it itself, seats swapped (so it moves first).
    let from = fake.requests().len();
    run(&fake, &alice(), "resign", json!([])).await;
    fake.wait_until(
        "the record with its rematch button",
        Duration::from_secs(20),
        |f| f.button(CHANNEL, "bredon:rematch:").is_some(),
    )
    .await;
    // The game's last part, its series line, may still be on its way: a deferred update's
    // answer is the next message in the channel, so the press must come after it.
    fake.wait_request(from, "the series line", |r| {
        r.path.contains(&posts) && r.content().contains("Series after 1 game")
    })
    .await;
    let r = press(&fake, &alice(), "bredon:rematch").await;
    says(&r, "alice challenges Bredon");
    let accepted = fake
        .wait_request(from, "Bredon accepting", |r| {
            r.path.contains(&posts) && r.content().contains("Bredon (White) vs alice (Black)")
        })
        .await;
    assert_eq!(accepted.status, 200);
    fake.wait_request(from, "Bredon's first ply of the rematch", |r| {
        r.path.contains(&posts) && r.content().contains("Bredon played")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_game_can_have_its_own_thread() {
    let (fake, _data, _bot) = boot().await;
    let r = run(
        &fake,
        &carol(),
        "challenge",
        json!([
            { "name": "level", "type": 4, "value": 0 },
            { "name": "seat", "type": 4, "value": 1 },
            { "name": "size", "type": 4, "value": 4 },
            { "name": "thread", "type": 5, "value": true }
        ]),
    )
    .await;
    says(&r, "Game started in <#");
    let thread = *fake.threads().last().expect("a thread");
    let from = 0;
    let first = fake
        .wait_request(from, "Bredon's first ply in the thread", |r| {
            r.path.contains(&format!("/channels/{thread}/messages"))
                && r.content().contains("Bredon played")
        })
        .await;
    says(&first, "<@333>");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_can_open_a_thread_for_its_game() {
    let _: poise::serenity_prelude::GuildChannel =
        serde_json::from_value(fake_discord::thread_json(5, CHANNEL)).unwrap();
    let (fake, _data, _bot) = boot().await;
    let from = fake.requests().len();
    let r = challenge_bob(
        &fake,
        json!([
            { "name": "thread", "type": 5, "value": true },
        ]),
    )
    .await;
    let created = fake
        .wait_request(from, "the thread", |r| {
            r.method == "POST" && r.path.ends_with(&format!("/channels/{CHANNEL}/threads"))
        })
        .await;
    assert_eq!(created.json()["type"], 11, "a public thread");
    let posted = fake
        .wait_request(from, "the challenge in the thread", |r| {
            r.path.contains("/messages") && r.content().contains("alice challenges bob")
        })
        .await;
    assert!(posted.text().contains("bredon:accept"));
    assert!(
        !posted.path.contains(&CHANNEL.to_string()),
        "posted in the thread, not the channel"
    );
    says(&r, "Challenge posted in <#");
    // Bredon opens a thread for a member only where they could open one themselves.
    let mut quiet = carol();
    quiet.permissions &= !perms::CREATE_PUBLIC_THREADS;
    let options = json!([{ "name": "thread", "type": 5, "value": true }]);
    let from = fake.requests().len();
    let r = run_with(&fake, CHANNEL, &quiet, "challenge", options).await;
    assert!(
        r.is_ephemeral() && r.content().contains("Create Public Threads"),
        "{}",
        r.content()
    );
    let threads = fake
        .requests()
        .iter()
        .skip(from)
        .filter(|r| r.path.ends_with("/threads"))
        .count();
    assert_eq!(threads, 0, "no thread opened");
}

/// Opening a thread is a create Discord cannot repeat safely: one whose answer was lost is
/// looked for before another is made. First the look finds it, and the challenge goes there.
/// Then the look fails too, so alice is told to try again, and her next try takes the empty
/// thread that one left (not the first, which holds a challenge) instead of opening another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_whose_answer_was_lost_is_found_not_made_twice() {
    let (fake, _data, _bot) = boot().await;
    let creates = format!("/channels/{CHANNEL}/threads");
    let thread = json!([{ "name": "thread", "type": 5, "value": true }]);
    fake.lose_next_answer(&creates, 503);
    let r = challenge_bob(&fake, thread.clone()).await;
    let first = fake.threads();
    assert_eq!(first.len(), 1);
    says(&r, &format!("Challenge posted in <#{}>", first[0]));
    fake.fail_next("/threads/active", 503);
    fake.lose_next_answer(&creates, 503);
    fake.fail_next("/threads/active", 503);
    let r = challenge_bob(&fake, thread.clone()).await;
    assert!(
        r.is_ephemeral() && r.content().contains("try again"),
        "{}",
        r.content()
    );
    let made = fake.threads();
    assert_eq!(made.len(), 2, "the lost create made its thread");
    let left = made[1];
    assert_eq!(said_in(&fake, left, "challenges"), 0, "left empty");
    let r = challenge_bob(&fake, thread).await;
    says(&r, &format!("Challenge posted in <#{left}>"));
    assert_eq!(fake.threads(), made, "no third thread");
    let tries = fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with(&creates))
        .count();
    assert_eq!(tries, 2, "a create asked of Discord per lost answer");
    for thread in made {
        assert_eq!(said_in(&fake, thread, "alice challenges bob"), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn position_and_rules_draw_pictures() {
    let (fake, _data, _bot) = boot().await;
    let r = run(
        &fake,
        &carol(),
        "position",
        json!([{ "name": "tps", "type": 3, "value": "x5/x5/1,1,1,1,x/x5/2,2,2,x2 2 5" }]),
    )
    .await;
    assert_eq!(r.pngs().len(), 1, "a picture of the position");
    let r = run(
        &fake,
        &carol(),
        "position",
        json!([{ "name": "tps", "type": 3, "value": "x5/x5 1 1" }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("TPS"),
        "{}",
        r.content()
    );
    let r = run(&fake, &carol(), "rules", json!([])).await;
    assert!(r.content().contains("Tak in one minute") && r.pngs().len() == 1);
    let r = run(
        &fake,
        &carol(),
        "rules",
        json!([{ "name": "game", "type": 4, "value": 1 }]),
    )
    .await;
    assert!(r.content().contains("Takat in one minute") && r.pngs().len() == 1);
    assert!(r.content().chars().count() <= 2000);
    let r = run(
        &fake,
        &carol(),
        "position",
        json!([{ "name": "tps", "type": 3, "value": "x,x/111121,221,x/x,x 2 b1 6" }]),
    )
    .await;
    assert_eq!(r.pngs().len(), 1, "a Takat position is drawn too");
    assert!(r.text().contains("Takat board of 7 circles"), "alt text");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_and_settings_commands_answer_or_refuse() {
    let (fake, _data, _bot) = boot().await;
    let r = run(&fake, &alice(), "games", json!([])).await;
    assert!(
        r.is_ephemeral() && r.content().contains("no games are running"),
        "{}",
        r.content()
    );
    let r = run(&fake, &alice(), "leaderboard", json!([])).await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("nobody has finished a rated game of Tak on 6x6 here yet"),
        "{}",
        r.content()
    );
    let r = run(
        &fake,
        &alice(),
        "leaderboard",
        json!([{ "name": "size", "type": 4, "value": 4 }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("4x4 games are never rated"),
        "{}",
        r.content()
    );
    let r = run(&fake, &alice(), "history", json!([])).await;
    assert!(r.is_ephemeral() && r.content().contains("alice has no finished games"));
    start_game(&fake).await;
    let r = run(&fake, &carol(), "games", json!([])).await;
    assert!(
        !r.is_ephemeral() && r.content().contains("alice vs bob, Tak on 5x5, ply 0"),
        "{}",
        r.content()
    );
    run(&fake, &bob(), "resign", json!([])).await;
    let r = run(
        &fake,
        &carol(),
        "history",
        json!([{ "name": "user", "type": 6, "value": "111" }]),
    )
    .await;
    assert!(
        r.content().contains("Last games of alice") && r.content().contains("**1-0**"),
        "{}",
        r.content()
    );
    assert!(r.is_ephemeral(), "records are private unless asked");
    let r = run(
        &fake,
        &carol(),
        "stats",
        json!([{ "name": "user", "type": 6, "value": "222" }, { "name": "public", "type": 5, "value": true }]),
    )
    .await;
    assert!(
        r.content()
            .contains("bob in Tak:\n- 5x5: no rated game yet, 0 wins, 1 loss, 0 draws"),
        "{}",
        r.content()
    );
    assert!(!r.is_ephemeral(), "public:true shows it to the channel");
    let r = run(
        &fake,
        &alice(),
        "settings",
        json!([{ "name": "theme", "type": 4, "value": 1 }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("only a server moderator"),
        "{}",
        r.content()
    );
    let moderator = server_manager();
    let r = run(
        &fake,
        &moderator,
        "settings",
        json!([{ "name": "theme", "type": 4, "value": 1 }]),
    )
    .await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("Server defaults: theme light, pictures show everything, size 6x6, no komi, reminder 24 h"),
        "{}",
        r.content()
    );
}

// ---- The strict fake: what Discord documents ------------------------------------------------
