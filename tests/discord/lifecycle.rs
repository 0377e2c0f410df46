//! The process: payloads serenity reads, no token, SIGTERM, server nicknames.

use crate::fake_discord::{self};
use crate::harness::*;
use serde_json::json;
use std::process::Command;
use std::time::Duration;

#[test]
fn payloads_deserialize_with_serenitys_own_types() {
    use poise::serenity_prelude as serenity;
    let u = alice();
    let ready: serenity::Ready = serde_json::from_value(fake_discord::ready(
        "ws://x",
        0,
        1,
        &[fake_discord::GUILD_ID],
    ))
    .unwrap();
    assert_eq!(ready.user.id.get(), fake_discord::BOT_ID);
    let _: serenity::Member = serde_json::from_value(fake_discord::member_json(&u)).unwrap();
    let _: serenity::Message =
        serde_json::from_value(fake_discord::message(1, CHANNEL, "x")).unwrap();
    let command = fake_discord::interaction(
        5,
        2,
        "t",
        &u,
        CHANNEL,
        json!({ "id": "1", "name": "move", "type": 1, "options": [{ "name": "ply", "type": 3, "value": "a1" }] }),
        None,
    );
    match serde_json::from_value::<serenity::Interaction>(command) {
        Ok(serenity::Interaction::Command(c)) => assert_eq!(c.user.id.get(), u.id),
        other => panic!("{other:?}"),
    }
    let auto = fake_discord::interaction(
        5,
        4,
        "t",
        &u,
        CHANNEL,
        json!({ "id": "1", "name": "move", "type": 1, "options": [{ "name": "ply", "type": 3, "value": "a", "focused": true }] }),
        None,
    );
    assert!(matches!(
        serde_json::from_value::<serenity::Interaction>(auto),
        Ok(serenity::Interaction::Autocomplete(_))
    ));
    let button = fake_discord::interaction(
        5,
        3,
        "t",
        &u,
        CHANNEL,
        json!({ "custom_id": "bredon:accept", "component_type": 2 }),
        Some(fake_discord::message(9, CHANNEL, "x")),
    );
    assert!(matches!(
        serde_json::from_value::<serenity::Interaction>(button),
        Ok(serenity::Interaction::Component(_))
    ));
    let mut form = fake_discord::interaction(
        5,
        5,
        "t",
        &u,
        CHANNEL,
        json!({ "custom_id": "bredon:board-move:1:2", "components": [{ "type": 1, "components": [{ "type": 4, "custom_id": "ply", "value": "a1" }] }] }),
        None,
    );
    form["channel"] = fake_discord::interaction_thread_json(7, CHANNEL);
    match serde_json::from_value::<serenity::Interaction>(form) {
        Ok(serenity::Interaction::Modal(m)) => {
            let channel = m.channel.expect("the thread it came from");
            assert_eq!(channel.kind, serenity::ChannelType::PublicThread);
            assert_eq!(channel.parent_id.map(|p| p.get()), Some(CHANNEL));
        }
        other => panic!("{other:?}"),
    }
    let user: serenity::User =
        serde_json::from_value(fake_discord::user_json(u.id, &u.name, false)).unwrap();
    assert_eq!(user.name, u.name);
    let dm: serenity::PrivateChannel =
        serde_json::from_value(fake_discord::dm_channel_json(8, u.id)).unwrap();
    assert_eq!(dm.recipient.id.get(), u.id);
    // The gateway's channel events.
    let deleted: serenity::GuildChannel =
        serde_json::from_value(fake_discord::text_channel_json(CHANNEL)).unwrap();
    assert_eq!(deleted.kind, serenity::ChannelType::Text);
    let thread: serenity::PartialGuildChannel =
        serde_json::from_value(fake_discord::thread_delete_json(7, CHANNEL)).unwrap();
    assert_eq!(thread.parent_id.get(), CHANNEL);
    let updated: serenity::GuildChannel =
        serde_json::from_value(fake_discord::thread_update_json(7, CHANNEL, true, true)).unwrap();
    let meta = updated.thread_metadata.expect("a thread's metadata");
    assert!(meta.archived && meta.locked);
    assert_eq!(
        meta.auto_archive_duration,
        serenity::AutoArchiveDuration::OneWeek
    );
    let left: serenity::UnavailableGuild =
        serde_json::from_value(fake_discord::guild_delete_json()).unwrap();
    assert!(!left.unavailable, "removed, not an outage");
}

#[test]
fn no_token_exits_2_with_instructions() {
    let dir = tempfile::tempdir().unwrap();
    let o = bredon(dir.path()).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("DISCORD_TOKEN")
            && err.contains("bredon local")
            && err.contains("discord.com/developers"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_the_gateway_and_exits_cleanly_with_the_game_stored() {
    let (fake, data, mut bot) = boot().await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    let pid = bot.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = bot.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "the bot did not stop on SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(status.success(), "{status:?}");
    // topics/opcodes-and-status-codes: 1000 closes a session for good (no resume expected).
    fake.wait_until("the connection gone", Duration::from_secs(10), |f| {
        !f.connected()
    })
    .await;
    assert_eq!(fake.closed_by_bot(), vec![Some(1000)], "the gateway closed");
    let store = bredon::store::Store::open(data.path()).unwrap();
    assert_eq!(store.game(CHANNEL).unwrap().unwrap().plies, vec!["a1"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_are_named_by_their_server_nicknames() {
    let (fake, _data, _bot) = boot().await;
    fake.set_nickname(111, "Alice of Tak");
    fake.set_nickname(222, "Bobby");
    let r = challenge_bob(&fake, json!([{ "name": "seat", "type": 4, "value": 0 }])).await;
    says(&r, "Alice of Tak challenges Bobby");
    let r = press(&fake, &bob(), "bredon:accept").await;
    says(&r, "Alice of Tak (White) vs Bobby (Black)");
}
