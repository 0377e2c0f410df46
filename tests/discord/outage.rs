//! Discord's outages lose no message: six games through answers lost, then a 16-minute outage of
//! every message-making request (past the nonce's window and the interaction tokens' life) with
//! a SIGKILL of the bot inside it, then answers lost on the way back, all on a virtual clock the
//! bot shares. Every stored ply that leaves a player to move, the reminder and the time-out due
//! meanwhile, and Bredon's own plies reach their players exactly once, and the outbox is empty
//! at the end. Then the faults of one channel or one interaction: permissions taken away for
//! hours, a deferred answer whose ping or edit failed until its token died.

use crate::fake_discord::{perms, FakeDiscord, TestUser, GUILD_ID};
use crate::harness::*;
use crate::{fake_discord, support};
use serde_json::json;
use std::time::Duration;

const HOUR_MS: i64 = 3_600_000;

fn channel(game: u64) -> u64 {
    CHANNEL + game
}

/// Sends `/move ply:` and waits until Bredon has tried to answer it, whatever Discord said.
async fn move_blind(fake: &FakeDiscord, user: &TestUser, game: u64, ply: &str) {
    let from = fake.requests().len();
    let options = json!([{ "name": "ply", "type": 3, "value": ply }]);
    let token = fake.command(user, channel(game), "move", options);
    let callback = format!("/{token}/callback");
    fake.wait_request(from, "an answer tried", |r| r.path.contains(&callback))
        .await;
}

/// The messages in `game`'s channel whose content holds `text`.
fn posts(fake: &FakeDiscord, game: u64, text: &str) -> Vec<fake_discord::Msg> {
    fake.messages()
        .into_iter()
        .filter(|m| m.channel == channel(game) && !m.deleted && m.content.contains(text))
        .collect()
}

/// How often `user` was notified by messages holding `text` in `game`'s channel.
fn notified(fake: &FakeDiscord, game: u64, text: &str, user: u64) -> usize {
    let ids: Vec<u64> = posts(fake, game, text).iter().map(|m| m.id).collect();
    fake.notifications()
        .iter()
        .filter(|n| n.user == user && ids.contains(&n.message))
        .count()
}

/// Where Bredon played in game 6, read from its first (failed) post.
async fn bredon_played(fake: &FakeDiscord) -> String {
    let posts = format!("/channels/{}/messages", channel(6));
    let tried = fake
        .wait_request(0, "Bredon's ply", |r| {
            r.path.ends_with(&posts) && r.content().contains("Bredon played ")
        })
        .await
        .content();
    let after = tried.split("Bredon played ").nth(1).unwrap();
    after.split(['.', ' ']).next().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_with_a_kill_inside_loses_no_announcement() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let engine = bredon::store::records::PlayerRef {
        id: fake_discord::BOT_ID,
        name: "Bredon".into(),
    };
    with_service(data.path(), |s| {
        let bob_ref = bredon::store::records::PlayerRef {
            id: bob().id,
            name: "bob".into(),
        };
        let mut options = bredon::service::ChallengeOptions {
            opponent: Some(bob_ref.clone()),
            seat: bredon::store::records::Seat::White,
            size: Some(5),
            ..Default::default()
        };
        // Games 1 to 3 are played during the outage.
        for game in 1..=3 {
            s.challenge(&sctx(&alice(), channel(game)), &options)
                .unwrap();
            s.accept(&sctx(&bob(), channel(game))).unwrap();
        }
        // Game 4's reminder and game 5's time-out (a day per move) fall due while Discord is down.
        let mut long_ago = sctx(&alice(), channel(4));
        long_ago.now_ms = now_ms() - 25 * HOUR_MS;
        options.reminder = Some("1h".into());
        s.challenge(&long_ago, &options).unwrap();
        s.accept(&bredon::service::Ctx {
            user: bob_ref.clone(),
            ..long_ago.clone()
        })
        .unwrap();
        options.reminder = None;
        options.time_limit = Some("1d".into());
        long_ago.channel = channel(5);
        s.challenge(&long_ago, &options).unwrap();
        s.accept(&bredon::service::Ctx {
            user: bob_ref,
            ..long_ago
        })
        .unwrap();
        // Game 6 is against Bredon, who answers every ply.
        options.time_limit = None;
        options.opponent = Some(engine.clone());
        options.engine = Some("beginner".into());
        s.challenge_engine(&sctx(&alice(), channel(6)), &options, &engine)
            .unwrap();
        posted_earlier(s);
    });
    let clock = fake.share_clock(data.path());
    // For the first minute every answer is lost: each message is made, but Bredon hears 503.
    fake.lossy(Duration::from_secs(60), 1);
    let quick = [
        ("BREDON_ENGINE_SECS", "0.05"),
        ("BREDON_CLOCK_FILE", &clock),
    ];
    let bot = start_bot_with(&fake, data.path(), 0.2, &quick);
    connected(&fake, 1).await;
    let rounds = [("a1", "e5"), ("b1", "d5"), ("c1", "c5"), ("a2", "e4")];
    for (white, black) in &rounds[..1] {
        for game in 1..=3 {
            move_blind(&fake, &alice(), game, white).await;
            move_blind(&fake, &bob(), game, black).await;
        }
    }
    move_blind(&fake, &alice(), 6, "a1").await;
    // Bredon's answer is stored; its post was made, but says where it played.
    let first_reply = bredon_played(&fake).await;
    let lost = fake.requests().iter().filter(|r| r.status == 503).count();
    assert!(lost > 0, "answers were lost");
    // Then sixteen minutes of outage: nothing Bredon sends has any effect.
    fake.outage(Duration::from_secs(16 * 60));
    let made = fake.messages().len();
    for (white, black) in &rounds[1..2] {
        for game in 1..=3 {
            move_blind(&fake, &alice(), game, white).await;
            move_blind(&fake, &bob(), game, black).await;
        }
    }
    // Killed in the middle of the outage; most of it passes while no process runs, and the bot
    // starts again while a minute and a half of it is left. A jump of the clock is no time a
    // request spends on its way: one made before a jump of minutes would reach Discord after
    // it, past the nonce's window, when no real request outlives it (Bredon trusts a nonce a
    // minute, its requests give up after 25 s, Discord keeps a nonce minutes). So the long
    // jump falls between the processes, and the outage ends with a jump that leaves every
    // letter of the new process younger than the fake's nonce window (two minutes).
    drop(bot);
    fake.advance(fake.outage_left() - Duration::from_secs(90));
    let bot = start_bot_with(&fake, data.path(), 0.2, &quick);
    connected(&fake, 2).await;
    for (white, black) in &rounds[2..] {
        for game in 1..=3 {
            move_blind(&fake, &alice(), game, white).await;
            move_blind(&fake, &bob(), game, black).await;
        }
    }
    let second = ["e1", "e5", "a5", "c3"]
        .into_iter()
        .find(|p| *p != first_reply)
        .unwrap();
    move_blind(&fake, &alice(), 6, second).await;
    assert_eq!(
        fake.messages().len(),
        made,
        "nothing got through the outage"
    );
    // Discord comes back, losing every third answer for a while.
    fake.advance(fake.outage_left() + Duration::from_secs(1));
    fake.lossy(Duration::from_secs(600), 3);
    let (alice_id, bob_id) = (alice().id, bob().id);
    let expected = |f: &FakeDiscord| {
        let plies_told = (1..=3).all(|game| {
            rounds.iter().all(|(white, black)| {
                posts(f, game, &format!("alice played {white}")).len() == 1
                    && posts(f, game, &format!("bob played {black}")).len() == 1
            })
        });
        let engine_told = posts(f, 6, "Bredon played").len() >= 2;
        plies_told
            && engine_told
            && !posts(f, 4, "it is your move").is_empty()
            && !posts(f, 5, "ran out of time").is_empty()
            && !posts(f, 5, "Series").is_empty()
    };
    let started = std::time::Instant::now();
    while !expected(&fake) {
        let seen: Vec<String> = fake
            .messages()
            .iter()
            .filter(|m| !m.content.is_empty())
            .map(|m| format!("{}: {}", m.channel - CHANNEL, m.content))
            .collect();
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "an owed message is missing 60 s after the outage; posted: {seen:#?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Counted once nothing is owed any more: a letter still in the outbox could post again.
    assert_eq!(
        outbox_after(&fake, data.path(), &[("BREDON_CLOCK_FILE", &clock)], bot).await,
        0
    );
    for game in 1..=3 {
        for (white, black) in rounds {
            let mine = format!("alice played {white}");
            let theirs = format!("bob played {black}");
            assert_eq!(posts(&fake, game, &mine).len(), 1, "game {game}: {mine}");
            assert_eq!(notified(&fake, game, &mine, bob_id), 1, "{game} {mine}");
            assert_eq!(
                posts(&fake, game, &theirs).len(),
                1,
                "game {game}: {theirs}"
            );
            assert_eq!(
                notified(&fake, game, &theirs, alice_id),
                1,
                "{game} {theirs}"
            );
        }
    }
    for mine in ["alice played a1", &format!("alice played {second}")] {
        assert_eq!(posts(&fake, 6, mine).len(), 1, "{mine}");
        assert_eq!(notified(&fake, 6, mine, fake_discord::BOT_ID), 0);
    }
    let replies = posts(&fake, 6, "Bredon played");
    assert_eq!(replies.len(), 2, "Bredon's two plies, once each");
    assert_eq!(notified(&fake, 6, "Bredon played", alice_id), 2);
    assert_eq!(posts(&fake, 4, "it is your move").len(), 1, "one reminder");
    assert_eq!(notified(&fake, 4, "it is your move", alice_id), 1);
    let timeout = posts(&fake, 5, "ran out of time");
    assert_eq!(timeout.len(), 1, "one time-out");
    assert_eq!(notified(&fake, 5, "ran out of time", alice_id), 1);
    assert_eq!(notified(&fake, 5, "ran out of time", bob_id), 1);
    assert_eq!(posts(&fake, 5, "Series").len(), 1, "one record");
    let notes = fake.notifications();
    let unexpected: Vec<_> = notes
        .iter()
        .filter(|n| ![alice_id, bob_id].contains(&n.user))
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_move_is_deferred_at_once_and_announced_once() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    // Queued for 2.8 s (while Bredon registered its commands, say): 0.2 s of the window left.
    fake.deliver_late(Duration::from_millis(2_800));
    let from = fake.requests().len();
    let seen = fake.notifications().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    let token = fake.command(&alice(), CHANNEL, "move", options);
    let first = first_response(&fake, from, &token).await;
    assert_eq!(first.status, 204);
    assert_eq!(first.json()["type"], 5, "deferred at once, before the work");
    announced_with_bobs_ping(&fake, from, &token).await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    announced_once_with_bobs_ping_once(&fake, seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_move_form_is_deferred_at_once_and_a_wrong_ply_stays_private() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    let modal_id = form.modal_id();
    // A wrong ply, late: the public "thinking" goes, the refusal is alice's alone.
    fake.deliver_late(Duration::from_millis(2_800));
    let from = fake.requests().len();
    let token = fake.submit_modal(&alice(), CHANNEL, &modal_id, "ply", "z9");
    let first = first_response(&fake, from, &token).await;
    assert_eq!(first.json()["type"], 5, "deferred at once, before the work");
    let refused = fake
        .wait_request(from, "the private refusal", |r| {
            r.method == "POST" && r.path.contains(&token) && r.is_ephemeral()
        })
        .await;
    assert!(refused.content().contains("✋"), "{}", refused.content());
    assert!(
        fake.requests()[from..]
            .iter()
            .any(|r| r.method == "DELETE" && r.path.contains(&token)),
        "the thinking message is deleted"
    );
    // The right ply, late: stored, the thinking message becomes the board, bob is pinged once.
    fake.deliver_late(Duration::from_millis(2_800));
    let from = fake.requests().len();
    let seen = fake.notifications().len();
    let token = fake.submit_modal(&alice(), CHANNEL, &modal_id, "ply", "a1");
    announced_with_bobs_ping(&fake, from, &token).await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    announced_once_with_bobs_ping_once(&fake, seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_press_for_a_private_answer_is_deferred_privately() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    fake.deliver_late(Duration::from_millis(2_800));
    let button = fake.button(CHANNEL, "bredon:board-moves:").unwrap();
    let from = fake.requests().len();
    let token = fake.press(&alice(), CHANNEL, &button);
    let first = first_response(&fake, from, &token).await;
    assert_eq!(first.json()["type"], 5, "deferred");
    assert!(first.is_ephemeral(), "for alice alone");
    let moves = answer(&fake, from, &token).await;
    assert_eq!(moves.method, "PATCH", "the private deferral is edited");
    says(&moves, "legal plies:\n**a1**");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_answer_that_failed_becomes_the_announcement_later() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    fake.deliver_late(Duration::from_millis(2_800));
    // The edit of "thinking" into the ply fails once; the outbox makes it later.
    fake.fail_next("/messages/@original", 503);
    let from = fake.requests().len();
    let seen = fake.notifications().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    let token = fake.command(&alice(), CHANNEL, "move", options);
    let edit = format!("/{token}/messages/@original");
    let edited = fake
        .wait_request(from, "the thinking message edited", |r| {
            r.method == "PATCH" && r.path.ends_with(&edit) && r.status == 200
        })
        .await;
    says(&edited, "alice played a1");
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.wait_request(from, "the ping after it", |r| {
        r.path.ends_with(&posts) && r.content().contains("<@222>") && r.status == 200
    })
    .await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    assert_eq!(notified_since(&fake, seen), vec![bob().id]);
    assert_eq!(
        posts_holding(&fake, "alice played a1"),
        1,
        "no second announcement"
    );
    let thinking = fake
        .messages()
        .into_iter()
        .filter(|m| !m.deleted && m.content.is_empty())
        .count();
    assert_eq!(thinking, 0, "no \"thinking\" message is left standing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_replayed_after_a_resume_is_stored_and_announced_in_the_channel() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    // Replayed after a RESUME, 10 s after it was made: too late for any answer.
    fake.deliver_late(Duration::from_secs(10));
    let from = fake.requests().len();
    let seen = fake.notifications().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    fake.command(&alice(), CHANNEL, "move", options);
    let posts = format!("/channels/{CHANNEL}/messages");
    let post = fake
        .wait_request(from, "the ply announced in the channel", |r| {
            r.path.ends_with(&posts) && r.status == 200
        })
        .await;
    says(&post, "alice played a1");
    assert!(post.content().contains("<@222>"), "{}", post.content());
    assert_eq!(notified_since(&fake, seen), vec![bob().id]);
    // Bob's next ply is answered as usual, and nothing of alice's came twice.
    let reply = ply(&fake, &bob(), "e5").await;
    says(&reply, "bob played e5");
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    assert_eq!(posts_holding(&fake, "alice played a1"), 1);
    assert_eq!(notified_since(&fake, seen), vec![bob().id, alice().id]);
}

/// A token lives 15 minutes from its interaction, not from when Bredon read it: a move replayed
/// five minutes late, then an outage, is announced in the channel without its token ever being
/// used past its life.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_lives_from_its_interaction_not_from_its_reading() {
    let (fake, data, clock, bot) = game_on_the_virtual_clock().await;
    fake.deliver_late(Duration::from_secs(5 * 60));
    fake.outage(Duration::from_secs(12 * 60));
    let from = fake.requests().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    let token = fake.command(&alice(), CHANNEL, "move", options);
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.wait_request(from, "a post refused by the outage", |r| {
        r.path.ends_with(&posts) && r.status == 503
    })
    .await;
    // Sixteen minutes after the interaction, eleven after Bredon read it, Discord is still down;
    // then it is back.
    let from = fake.requests().len();
    fake.advance(Duration::from_secs(11 * 60));
    fake.wait_request(from, "a try in the outage's last minute", |r| {
        r.path.ends_with(&posts) && r.status == 503
    })
    .await;
    fake.advance(Duration::from_secs(2 * 60));
    fake.wait_until("the ply announced", Duration::from_secs(30), |f| {
        posts_holding(f, "alice played a1") == 1
    })
    .await;
    let env = [("BREDON_CLOCK_FILE", clock.as_str())];
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    let dead: Vec<String> = fake
        .requests()
        .iter()
        .filter(|r| r.path.contains(&token) && r.status == 401)
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(dead.is_empty(), "the token used past its life: {dead:?}");
    assert_eq!(posts_holding(&fake, "alice played a1"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ply_whose_answer_is_lost_is_found_and_not_posted_again() {
    let (fake, data, bot) = boot_logging().await;
    start_game(&fake).await;
    // Discord makes the answer, but Bredon hears 503.
    fake.lose_next_answer("/callback", 503);
    let from = fake.requests().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    let token = fake.command(&alice(), CHANNEL, "move", options);
    fake.wait_request(from, "a look at the answer", |r| {
        r.method == "GET" && r.path.contains(&token) && r.path.ends_with("/@original")
    })
    .await;
    bot.logged(&["owed outcome delivered"]).await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    assert_eq!(posts_holding(&fake, "alice played a1"), 1);
}

/// The first response to the interaction `token` (sent after request `from`).
async fn first_response(fake: &FakeDiscord, from: usize, token: &str) -> fake_discord::Request {
    let callback = format!("/{token}/callback");
    fake.wait_request(from, "the first response", |r| r.path.contains(&callback))
        .await
}

/// Alice's a1 arrived as the answer to `token`, then a message pinged bob.
async fn announced_with_bobs_ping(fake: &FakeDiscord, from: usize, token: &str) {
    says(&answer(fake, from, token).await, "alice played a1");
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.wait_request(from, "the ping after the deferred answer", |r| {
        r.path.ends_with(&posts) && r.content().contains("<@222>")
    })
    .await;
}

/// Since the `seen`-th notification, alice's a1 was announced once and bob alone pinged, once:
/// read once the outbox is empty, when nothing more can come.
fn announced_once_with_bobs_ping_once(fake: &FakeDiscord, seen: usize) {
    assert_eq!(notified_since(fake, seen), vec![bob().id]);
    assert_eq!(posts_holding(fake, "alice played a1"), 1);
}

/// The first message anywhere whose content holds `text`.
fn message_holding(fake: &FakeDiscord, text: &str) -> fake_discord::Msg {
    fake.messages()
        .into_iter()
        .find(|m| m.content.contains(text))
        .unwrap_or_else(|| panic!("no message holds {text:?}"))
}

/// Messages anywhere whose content holds `text`.
fn posts_holding(fake: &FakeDiscord, text: &str) -> usize {
    fake.messages()
        .iter()
        .filter(|m| !m.deleted && m.content.contains(text))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_direct_messages_are_told_once_and_not_tried_again() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    let r = run(
        &fake,
        &bob(),
        "notify",
        json!([{ "name": "dm", "type": 5, "value": true }]),
    )
    .await;
    assert!(r.is_ephemeral());
    fake.close_dms(bob().id);
    let told = "Bredon cannot send you direct messages";
    let posts = format!("/channels/{CHANNEL}/messages");
    let from = fake.requests().len();
    ply(&fake, &alice(), "a1").await;
    let notice = fake
        .wait_request(from, "the notice", |r| {
            r.path.ends_with(&posts) && r.content().contains(told)
        })
        .await;
    assert!(notice.content().contains("<@222>"), "{}", notice.content());
    ply(&fake, &bob(), "e5").await;
    let from = fake.requests().len();
    ply(&fake, &alice(), "b1").await;
    ply(&fake, &bob(), "d5").await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    assert_eq!(posts_holding(&fake, told), 1, "told once");
    let dm_tries = fake
        .requests()
        .iter()
        .skip(from)
        .filter(|r| r.path.contains("/users/@me/channels"))
        .count();
    assert_eq!(
        dm_tries, 0,
        "the wish is off: no more direct messages tried"
    );
    assert!(fake.direct_messages(bob().id).is_empty());
}

/// The bot started with the fake's virtual clock as its own, storing in `data`.
fn start_on_virtual_clock(fake: &FakeDiscord, data: &std::path::Path, clock: &str) -> Bot {
    start_bot_logging_with(fake, data, 0.2, &[("BREDON_CLOCK_FILE", clock)])
}

/// A fake Discord whose clock the bot shares, the bot, and a game between alice and bob.
async fn game_on_the_virtual_clock() -> (FakeDiscord, tempfile::TempDir, String, Bot) {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let bot = start_on_virtual_clock(&fake, data.path(), &clock);
    connected(&fake, 1).await;
    start_game(&fake).await;
    (fake, data, clock, bot)
}

/// The bot killed, and started again 16 virtual minutes later (an interaction's token is dead
/// by then); the index of the first request after the restart.
async fn killed_and_started_later(
    fake: &FakeDiscord,
    bot: Bot,
    data: &std::path::Path,
    clock: &str,
) -> (Bot, usize) {
    drop(bot);
    fake.advance(Duration::from_secs(16 * 60));
    let restarted = fake.requests().len();
    let bot = start_on_virtual_clock(fake, data, clock);
    connected(fake, 2).await;
    (bot, restarted)
}

/// The requests since `from` that carried the interaction token `token`.
fn requests_carrying(fake: &FakeDiscord, from: usize, token: &str) -> Vec<String> {
    fake.requests()[from..]
        .iter()
        .filter(|r| r.path.contains(token))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_answer_whose_ping_failed_is_pinged_once_without_its_expired_token() {
    let (fake, data, clock, bot) = game_on_the_virtual_clock().await;
    // Channel posts fail for ten minutes: the "thinking" edit goes through, its ping does not.
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.outage_of(&posts, Duration::from_secs(600));
    fake.deliver_late(Duration::from_millis(2_800));
    let from = fake.requests().len();
    let seen = fake.notifications().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    let token = fake.command(&alice(), CHANNEL, "move", options);
    let edited = fake
        .wait_request(from, "the thinking message edited", |r| {
            r.method == "PATCH" && r.path.contains(&token) && r.status == 200
        })
        .await;
    says(&edited, "alice played a1");
    fake.wait_request(from, "the ping, failing", |r| {
        r.path.ends_with(&posts) && r.content().contains("<@222>") && r.status == 503
    })
    .await;
    // Killed, and started again 16 minutes later (whether or not the bot noted the
    // announcement after its ping failed: either way the ping is owed once): the token is dead, the ping still owed.
    let (bot, restarted) = killed_and_started_later(&fake, bot, data.path(), &clock).await;
    let ping = fake
        .wait_request(restarted, "the ping", |r| {
            r.path.ends_with(&posts) && r.content().contains("<@222>") && r.status == 200
        })
        .await;
    assert_eq!(
        outbox_after(&fake, data.path(), &[("BREDON_CLOCK_FILE", &clock)], bot).await,
        0
    );
    // It links the announcement: no other letter's ping reads the same, so a look for one
    // never takes another for it.
    let announcement = message_holding(&fake, "alice played a1");
    let link = format!("/{CHANNEL}/{}", announcement.id);
    assert!(ping.content().ends_with(&link), "{}", ping.content());
    assert_eq!(
        notified_since(&fake, seen),
        vec![bob().id],
        "bob pinged once"
    );
    assert_eq!(posts_holding(&fake, "alice played a1"), 1, "announced once");
    let with_token = requests_carrying(&fake, restarted, &token);
    assert!(
        with_token.is_empty(),
        "the dead token was used: {with_token:?}"
    );
}

/// The server's system channel, where Bredon tells what Discord refuses it elsewhere.
const SYSTEM_CHANNEL: u64 = 555_000_000_000_000_077;

/// What Bredon told in the system channel.
fn notices(fake: &FakeDiscord) -> Vec<String> {
    fake.messages()
        .into_iter()
        .filter(|m| m.channel == SYSTEM_CHANNEL)
        .map(|m| m.content)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn permissions_taken_away_keep_what_is_owed_and_the_clocks_running() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    with_service(data.path(), |s| {
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
        s.challenge(&sctx(&alice(), CHANNEL), &options).unwrap();
        s.accept(&sctx(&bob(), CHANNEL)).unwrap();
        posted_earlier(s);
    });
    fake.set_system_channel(GUILD_ID, SYSTEM_CHANNEL);
    let bot = start_on_virtual_clock(&fake, data.path(), &clock);
    connected(&fake, 1).await;
    // A raid lock-down takes Send Messages from Bredon for two hours; the reminder falls due,
    // and is refused at each try.
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::SEND_MESSAGES);
    let posts = format!("/channels/{CHANNEL}/messages");
    for (minutes, what) in [
        (61, "the reminder, refused"),
        (10, "refused again"),
        (20, "and again"),
    ] {
        let from = fake.requests().len();
        fake.advance(Duration::from_secs(minutes * 60));
        let refused = fake
            .wait_request(from, what, |r| r.path.ends_with(&posts) && r.status == 403)
            .await;
        assert!(
            refused.content().contains("it is your move"),
            "{}",
            refused.content()
        );
    }
    fake.advance(Duration::from_secs(29 * 60));
    assert_eq!(posts_holding(&fake, "it is your move"), 0);
    let told = fake.wait_until("the server told", Duration::from_secs(30), |f| {
        notices(f).len() == 1
    });
    told.await;
    let notice = &notices(&fake)[0];
    assert!(
        notice.starts_with(&format!(
            "<#{CHANNEL}>: Discord no longer lets Bredon post there"
        )),
        "{notice}"
    );
    // Given back: the channel's update wakes the outbox, and the reminder goes out once.
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    fake.wait_until("the reminder", Duration::from_secs(30), |f| {
        posts_holding(f, "it is your move") == 1
    })
    .await;
    // Then Attach Files alone is taken: the time-out still falls due, told in text.
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::ATTACH_FILES);
    let seen = fake.notifications().len();
    fake.advance(Duration::from_secs(22 * 3600 + 60));
    fake.wait_until(
        "the time-out and the record",
        Duration::from_secs(30),
        |f| posts_holding(f, "ran out of time") == 1 && posts_holding(f, "Series") == 1,
    )
    .await;
    assert_eq!(
        outbox_after(&fake, data.path(), &[("BREDON_CLOCK_FILE", &clock)], bot).await,
        0
    );
    let timeout = message_holding(&fake, "ran out of time");
    assert!(
        timeout.files.is_empty(),
        "no file where none may be attached"
    );
    assert!(
        timeout.content.contains("No picture") && timeout.content.contains("\n> "),
        "the picture's description stands in for it: {}",
        timeout.content
    );
    let pinged: Vec<u64> = fake.notifications()[seen..]
        .iter()
        .filter(|n| n.message == timeout.id)
        .map(|n| n.user)
        .collect();
    assert_eq!(
        pinged.len(),
        2,
        "both players told of the result: {pinged:?}"
    );
    assert_eq!(posts_holding(&fake, "it is your move"), 1, "one reminder");
    let told = notices(&fake);
    assert_eq!(told.len(), 2, "told once of each refusal: {told:?}");
    assert!(told[1].contains("attach pictures"), "{}", told[1]);
    let store = support::reopen(data.path());
    assert!(
        store.game(CHANNEL).unwrap().is_none(),
        "the game ended on time"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_answer_whose_edit_failed_goes_to_the_channel_once_its_token_is_dead() {
    let (fake, data, clock, bot) = game_on_the_virtual_clock().await;
    // Interaction edits fail for ten minutes: the "thinking" message never becomes the ply.
    fake.outage_of("/messages/@original", Duration::from_secs(600));
    fake.deliver_late(Duration::from_millis(2_800));
    let from = fake.requests().len();
    let seen = fake.notifications().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    let token = fake.command(&alice(), CHANNEL, "move", options);
    fake.wait_request(from, "the edit, failing", |r| {
        r.method == "PATCH" && r.path.contains(&token) && r.status == 503
    })
    .await;
    let (bot, restarted) = killed_and_started_later(&fake, bot, data.path(), &clock).await;
    let posts = format!("/channels/{CHANNEL}/messages");
    let post = fake
        .wait_request(restarted, "the ply in the channel", |r| {
            r.path.ends_with(&posts) && r.status == 200
        })
        .await;
    says(&post, "alice played a1");
    assert_eq!(
        outbox_after(&fake, data.path(), &[("BREDON_CLOCK_FILE", &clock)], bot).await,
        0
    );
    assert_eq!(
        notified_since(&fake, seen),
        vec![bob().id],
        "bob pinged once"
    );
    assert_eq!(posts_holding(&fake, "alice played a1"), 1, "announced once");
    let with_token = requests_carrying(&fake, restarted, &token);
    assert!(
        with_token.is_empty(),
        "the dead token was used: {with_token:?}"
    );
}
