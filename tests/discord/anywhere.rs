//! Bredon outside servers: installed by a user, in a group DM where it is no member and speaks
//! only in answers, and in a DM with Bredon; what is owed while no interaction is open goes to
//! the players by direct message.

use crate::fake_discord::{self, FakeDiscord, Request, TestUser};
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

/// The commands registered for everywhere, as a user install needs (DMs offer global commands
/// only).
const EVERYWHERE: (&str, &str) = ("DISCORD_GUILD_ID", "");

/// A fake Discord and a bot whose commands are registered globally, with `env` added.
async fn boot_everywhere(env: &[(&str, &str)]) -> (FakeDiscord, tempfile::TempDir, Bot) {
    let mut env = env.to_vec();
    env.push(EVERYWHERE);
    boot_logging_with(&env).await
}

/// `user` plays `text` by the Move form under the newest board in `channel`.
async fn by_form(fake: &FakeDiscord, channel: u64, user: &TestUser, text: &str) -> Request {
    let form = open_move_form(fake, user, channel).await;
    let from = fake.requests().len();
    let token = fake.submit_modal(user, channel, &form.modal_id(), "ply", text);
    answer(fake, from, &token).await
}

/// Waits until `user` was notified after the first `seen` notifications.
async fn pinged(fake: &FakeDiscord, seen: usize, user: &TestUser) {
    fake.wait_until("the ping", Duration::from_secs(20), |f| {
        notified_since(f, seen).contains(&user.id)
    })
    .await;
}

/// Whether any request asked Discord to post in `channel` itself (not an interaction's answer).
fn posted_in(fake: &FakeDiscord, channel: u64) -> Vec<String> {
    let path = format!("/channels/{channel}/messages");
    fake.requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with(&path))
        .map(|r| format!("{} {}", r.status, r.content()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_in_a_group_dm_is_played_in_answers_alone() {
    let (fake, dm) = a_rated_game_in_a_group_dm(&[]).await;
    // Every player an answer pinged heard of it in the channel, never by a direct message; the
    // game's start, written into the challenge bob accepted (an edit notifies no one), is told
    // to alice by one.
    assert!(fake.direct_messages(bob().id).is_empty());
    let told = fake.direct_messages(alice().id);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].content.contains("alice to move"), "{told:?}");
    assert!(!said_twice(&fake, dm));
}

/// The same with every answer deferred: an edit notifies no one, so the pings of each
/// "thinking" message made into an answer go to their player by direct message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_in_a_group_dm_is_played_in_deferred_answers_alone() {
    let (fake, dm) = a_rated_game_in_a_group_dm(&[("BREDON_DEFER_MS", "0")]).await;
    let link = format!("channels/@me/{dm}");
    for user in [alice(), bob()] {
        let told = fake.direct_messages(user.id);
        assert!(!told.is_empty(), "{} told of the turns", user.name);
        assert!(told.iter().all(|m| m.content.contains(&link)), "{told:?}");
    }
    assert!(!said_twice(&fake, dm));
}

/// Whether a line of Bredon's stands twice in `channel`'s messages, counted over them all (what
/// follows an answer is written into it).
fn said_twice(fake: &FakeDiscord, channel: u64) -> bool {
    let mut lines: Vec<String> = fake
        .messages()
        .into_iter()
        .filter(|m| m.channel == channel && !m.deleted)
        .flat_map(|m| m.content.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|line| {
            line.contains("played") || line.starts_with("Series") || line.contains("rated")
        })
        .collect();
    let all = lines.len();
    lines.sort();
    lines.dedup();
    lines.len() != all
}

/// alice, who installed Bredon, challenges bob in their group DM; they play a rated game to
/// alice's road, bob by the Move form, alice by /move; then the ladder outside servers. The
/// fake and the group DM are handed back.
async fn a_rated_game_in_a_group_dm(env: &[(&str, &str)]) -> (FakeDiscord, u64) {
    let (fake, data, bot) = boot_everywhere(env).await;
    fake.install_for_user(&alice());
    let dm = fake.group_dm(&[&alice(), &bob()]);
    let options = json!([
        { "name": "opponent", "type": 6, "value": bob().id.to_string() },
        { "name": "size", "type": 4, "value": 5 },
        { "name": "seat", "type": 4, "value": 0 },
        { "name": "rated", "type": 5, "value": true }
    ]);
    // What Discord's private channels cannot hold is refused in a sentence.
    let threaded = json!([{ "name": "thread", "type": 5, "value": true }]);
    let r = run_with(&fake, dm, &alice(), "challenge", threaded).await;
    assert!(r.is_ephemeral());
    says(
        &r,
        "threads belong to servers, and a DM or group DM holds none",
    );
    let seen = fake.notifications().len();
    let r = run_with(&fake, dm, &alice(), "challenge", options).await;
    says(&r, "alice challenges bob");
    pinged(&fake, seen, &bob()).await;
    let seen = fake.notifications().len();
    let r = press_in(&fake, dm, &bob(), "bredon:accept").await;
    says(&r, "alice (White) vs bob (Black)");
    pinged(&fake, seen, &alice()).await;
    let plies = [
        (alice(), "a1"),
        (bob(), "e5"),
        (alice(), "b5"),
        (bob(), "e4"),
        (alice(), "c5"),
        (bob(), "e3"),
        (alice(), "d5"),
    ];
    for (user, text) in plies {
        let seen = fake.notifications().len();
        let r = match user.id == alice().id {
            true => {
                let ply = json!([{ "name": "ply", "type": 3, "value": text }]);
                run_with(&fake, dm, &user, "move", ply).await
            }
            false => by_form(&fake, dm, &user, text).await,
        };
        says(&r, &format!("played {text}"));
        // The next player is pinged before they play: by the answer, or after a deferred one
        // (an edit notifies no one) by a direct message.
        let next = if user.id == alice().id {
            bob()
        } else {
            alice()
        };
        pinged(&fake, seen, &next).await;
    }
    // a5 finishes White's road on the fifth rank (e5 is the White stone bob placed).
    let tak = fake
        .messages()
        .into_iter()
        .rev()
        .find(|m| m.content.contains("alice played d5"));
    assert!(
        tak.is_some_and(|m| m.content.contains("Tak!")),
        "d5 makes Tak"
    );
    by_form(&fake, dm, &bob(), "e2").await;
    let r = run_with(
        &fake,
        dm,
        &alice(),
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a5" }]),
    )
    .await;
    says(&r, "alice wins");
    // The record follows the answer in the channel, rated on the ladder outside servers.
    let record = fake
        .wait_request(0, "the record", |r| {
            r.path.contains("/webhooks/") && r.files().iter().any(|(name, _)| name == "game.ptn")
        })
        .await;
    says(&record, "alice is now rated");
    let ptn = record
        .files()
        .into_iter()
        .find(|(name, _)| name == "game.ptn")
        .unwrap()
        .1;
    assert!(String::from_utf8(ptn).unwrap().contains("[Result \"R-0\"]"));
    // Games outside servers have a ladder of their own, no server's.
    let five = json!([{ "name": "size", "type": 4, "value": 5 }]);
    let r = run_with(&fake, dm, &alice(), "leaderboard", five.clone()).await;
    says(&r, "1. alice — 1662 (1-0-0)");
    let r = run_with(&fake, CHANNEL, &alice(), "leaderboard", five).await;
    assert!(!r.content().contains("alice"), "{}", r.content());
    let mut env = env.to_vec();
    env.push(EVERYWHERE);
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(posted_in(&fake, dm), Vec::<String>::new());
    (fake, dm)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_and_a_time_out_in_a_group_dm_go_to_the_players_by_direct_message() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let env = [("BREDON_CLOCK_FILE", clock.as_str()), EVERYWHERE];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 1).await;
    fake.install_for_user(&alice());
    let dm = fake.group_dm(&[&alice(), &bob()]);
    let options = json!([
        { "name": "opponent", "type": 6, "value": bob().id.to_string() },
        { "name": "seat", "type": 4, "value": 0 },
        { "name": "time", "type": 3, "value": "1d" },
        { "name": "reminder", "type": 3, "value": "1h" }
    ]);
    run_with(&fake, dm, &alice(), "challenge", options).await;
    press_in(&fake, dm, &bob(), "bredon:accept").await;
    // bob asked, in a server, for a direct message when it is his move.
    let notify = json!([{ "name": "dm", "type": 5, "value": true }]);
    run_with(&fake, CHANNEL, &bob(), "notify", notify).await;
    let ply = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    says(
        &run_with(&fake, dm, &alice(), "move", ply).await,
        "bob to move",
    );
    let turn = format!("It is your move in your game: https://discord.com/channels/@me/{dm}/");
    fake.wait_until("bob's turn told", Duration::from_secs(20), |f| {
        f.direct_messages(bob().id)
            .iter()
            .any(|m| m.content.contains(&turn))
    })
    .await;
    // bob does nothing for an hour: every token in the channel is dead by then.
    let link = format!("https://discord.com/channels/@me/{dm}");
    fake.advance(Duration::from_secs(61 * 60));
    fake.wait_until("bob reminded", Duration::from_secs(30), |f| {
        let told = f.direct_messages(bob().id);
        told.iter()
            .any(|m| m.content.contains("it is your move") && m.content.contains(&link))
    })
    .await;
    // The day runs out: both players are told by direct message.
    fake.advance(Duration::from_secs(23 * 3600));
    for player in [alice(), bob()] {
        fake.wait_until("the time-out told", Duration::from_secs(30), |f| {
            let told = f.direct_messages(player.id);
            told.iter()
                .any(|m| m.content.contains("ran out of time") && m.content.contains(&link))
        })
        .await;
    }
    // The next command in the channel shows how the game ended.
    let r = run_with(&fake, dm, &alice(), "board", json!([])).await;
    says(&r, "No game is running here");
    assert_eq!(r.pngs().len(), 1, "the final board");
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(posted_in(&fake, dm), Vec::<String>::new());
    let reminders = fake.direct_messages(bob().id);
    let reminders = reminders
        .iter()
        .filter(|m| m.content.contains("it is your move"));
    assert_eq!(reminders.count(), 1, "one reminder");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_bredon_in_a_dm_with_bredon_is_played_to_its_end() {
    let (fake, _data, _bot) = boot_everywhere(&[]).await;
    let dm = fake.bot_dm(&alice());
    let r = run_with(&fake, dm, &alice(), "help", json!([])).await;
    says(&r, "in DMs and group DMs with friends");
    let options = json!([
        { "name": "opponent", "type": 6, "value": fake_discord::BOT_ID.to_string() },
        { "name": "level", "type": 4, "value": 0 },
        { "name": "size", "type": 4, "value": 3 },
        { "name": "seat", "type": 4, "value": 0 }
    ]);
    let r = run_with(&fake, dm, &alice(), "challenge", options).await;
    says(&r, "alice (White) vs Bredon (Black)");
    let squares = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
    let mut ended = false;
    for _ in 0..9 {
        let replies = said_in(&fake, dm, "Bredon played");
        // alice places on the first empty square.
        let mut played = None;
        for square in squares {
            let ply = json!([{ "name": "ply", "type": 3, "value": square }]);
            let r = run_with(&fake, dm, &alice(), "move", ply).await;
            if r.content().contains("alice played") {
                played = Some(r.content());
                break;
            }
        }
        let played = played.expect("a square left while the game runs");
        if played.contains("wins") || played.contains("draw") {
            ended = true;
            break;
        }
        fake.wait_until("Bredon's ply", Duration::from_secs(30), |f| {
            said_in(f, dm, "Bredon played") > replies
        })
        .await;
        let last = fake
            .messages()
            .into_iter()
            .rev()
            .find(|m| m.content.contains("Bredon played"));
        let last = last.unwrap().content;
        if last.contains("wins") || last.contains("draw") {
            ended = true;
            break;
        }
    }
    assert!(ended, "the game ended");
    fake.wait_until("the record", Duration::from_secs(30), |f| {
        f.requests()
            .iter()
            .any(|r| r.files().iter().any(|(name, _)| name == "game.ptn"))
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_bredon_hears_where_bredon_plays() {
    let (fake, _data, _bot) = boot_everywhere(&[]).await;
    fake.install_for_user(&alice());
    let elsewhere = fake.server_without_bredon();
    let options = json!([{ "name": "opponent", "type": 6, "value": bob().id.to_string() }]);
    let r = run_with(&fake, elsewhere, &alice(), "challenge", options).await;
    assert!(r.is_ephemeral());
    says(&r, "Bredon is not in this server");
    // What is only answered works there as anywhere.
    let r = run_with(&fake, elsewhere, &alice(), "rules", json!([])).await;
    says(&r, "road");
    assert_eq!(posted_in(&fake, elsewhere), Vec::<String>::new());
}

/// A ply whose answer Discord failed is still announced once in a group DM: as a follow-up of
/// the channel's latest answered interaction while one lives, else to the player it pings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_answer_in_a_group_dm_is_delivered_once_all_the_same() {
    let env = [EVERYWHERE];
    let (fake, data, bot) = boot_everywhere(&[]).await;
    fake.install_for_user(&alice());
    let dm = fake.group_dm(&[&alice(), &bob()]);
    let options = json!([
        { "name": "opponent", "type": 6, "value": bob().id.to_string() },
        { "name": "seat", "type": 4, "value": 0 }
    ]);
    run_with(&fake, dm, &alice(), "challenge", options).await;
    press_in(&fake, dm, &bob(), "bredon:accept").await;
    // alice's ply is stored, but Discord fails its answer (no effect).
    fake.fail_next("/callback", 503);
    let ply = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    fake.command(&alice(), dm, "move", ply);
    fake.wait_until("the ply announced", Duration::from_secs(30), |f| {
        said_in(f, dm, "alice played a1") == 1
    })
    .await;
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(said_in(&fake, dm, "alice played a1"), 1, "once");
    assert_eq!(posted_in(&fake, dm), Vec::<String>::new());
}
