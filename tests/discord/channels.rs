//! Session starts, registration, permissions, archived threads, and plies typed as messages.

use crate::fake_discord::{self, perms, FakeDiscord};
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

/// A bot restarted in a loop spends Discord's daily session starts, and Discord resets the token
/// of one that spends them all: with a tenth or less left, Bredon waits for the reset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_few_session_starts_left_the_bot_waits_for_their_reset() {
    let fake = FakeDiscord::start().await;
    let data = tempfile::tempdir().unwrap();
    fake.session_starts_left(500, Duration::from_secs(3600));
    let mut bot = start_bot_logging(&fake, data.path(), 30.0);
    connected(&fake, 1).await;
    bot.stop();
    assert_eq!(
        bot.log_count(&["few more session starts"]),
        0,
        "{}",
        bot.log()
    );
    let reset_at = std::time::Instant::now() + Duration::from_millis(1500);
    fake.session_starts_left(60, Duration::from_millis(1500));
    let bot = start_bot_logging(&fake, data.path(), 30.0);
    bot.logged(&["few more session starts", "remaining=60"])
        .await;
    connected(&fake, 2).await;
    // Read once the bot has answered a command, well after it connected: one IDENTIFY of this
    // start, none refused, and none before the count reset.
    says(&run(&fake, &alice(), "rules", json!([])).await, "Tak");
    let identified = fake.identified_at();
    assert_eq!(identified.len(), 2, "one IDENTIFY for each start");
    assert!(identified[1] >= reset_at, "an IDENTIFY before the reset");
    assert_eq!(fake.invalid_sessions(), 0, "no IDENTIFY refused");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_command_registration_stops_the_bot_with_discords_reason() {
    let fake = FakeDiscord::start().await;
    fake.fail_registration(403);
    let (status, stderr) = run_until_it_stops(&fake, &[]).await;
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("registering the slash commands failed")
            && stderr.contains("Missing Access")
            && stderr.contains("50001"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_attach_files_a_ply_is_refused_and_records_come_without_files() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::ATTACH_FILES);
    let r = ply(&fake, &alice(), "a1").await;
    assert!(
        r.is_ephemeral()
            && r.content().contains("missing the Attach Files permission")
            && r.content().contains("nothing was changed"),
        "{}",
        r.content()
    );
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    let board = run(&fake, &carol(), "board", json!([])).await;
    assert!(
        board.content().contains("move 1. alice to move"),
        "the ply was not played: {}",
        board.content()
    );
    let r = ply(&fake, &alice(), "a1").await;
    says(&r, "alice played a1");
    // Answers that only show something give it without a file.
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::ATTACH_FILES);
    let ptn = run(&fake, &carol(), "ptn", json!([])).await;
    assert!(ptn.files().is_empty(), "no file");
    assert!(
        ptn.content().contains("https://ptn.ninja/") && ptn.content().contains("no .ptn file"),
        "{}",
        ptn.content()
    );
    let rules = run(&fake, &carol(), "rules", json!([])).await;
    assert!(rules.files().is_empty(), "no picture");
    assert!(
        rules.content().contains("Tak in one minute"),
        "{}",
        rules.content()
    );
    let tps = json!([{ "name": "tps", "type": 3, "value": "x5/x5/x5/x5/x5 1 1" }]);
    let position = run(&fake, &carol(), "position", tps).await;
    assert!(position.files().is_empty(), "no picture");
    assert!(
        !position.content().is_empty(),
        "the picture's description instead"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_game_thread_is_unarchived_and_the_game_goes_on() {
    let (fake, _data, bot) = boot_logging().await;
    challenge_bob(
        &fake,
        json!([
            { "name": "seat", "type": 4, "value": 0 },
            { "name": "thread", "type": 5, "value": true },
        ]),
    )
    .await;
    let thread = *fake.threads().last().expect("a thread for the game");
    assert_eq!(
        fake.auto_archive_minutes(thread),
        10080,
        "listed for a week"
    );
    press_in(&fake, thread, &bob(), "bredon:accept").await;
    let from = fake.requests().len();
    let token = fake.command(
        &alice(),
        thread,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a1" }]),
    );
    let r = answer(&fake, from, &token).await;
    says(&r, "alice played a1");
    // A week without a ply: Discord archives the thread; Bredon opens it again.
    fake.advance(Duration::from_secs(8 * 24 * 3600));
    fake.wait_until(
        "the thread to be unarchived",
        Duration::from_secs(10),
        |f| !f.thread_archived(thread),
    )
    .await;
    let from = fake.requests().len();
    let token = fake.command(
        &bob(),
        thread,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "f6" }]),
    );
    let r = answer(&fake, from, &token).await;
    says(&r, "bob played f6");
    // Without Send Messages Bredon may not reopen it (403): the game and its timers stay, for
    // a moderator to reopen; only a deleted thread (404) ends them.
    fake.set_bot_permissions(thread, perms::INVITE & !perms::SEND_MESSAGES);
    fake.advance(Duration::from_secs(8 * 24 * 3600));
    bot.logged(&["could not unarchive a game thread", "Missing Permissions"])
        .await;
    assert!(fake.thread_archived(thread));
    assert_eq!(bot.log_count(&["timers stop"]), 0, "{}", bot.log());
    fake.set_bot_permissions(thread, perms::INVITE);
    // A moderator locks it: Bredon leaves it closed.
    fake.lock_thread(thread);
    bot.logged(&["game thread locked by a moderator"]).await;
    assert!(
        fake.thread_archived(thread),
        "a locked thread stays archived"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_thread_archived_while_bredon_was_offline_is_reopened_at_start() {
    let (fake, data, bot) = boot().await;
    challenge_bob(
        &fake,
        json!([
            { "name": "seat", "type": 4, "value": 0 },
            { "name": "thread", "type": 5, "value": true },
        ]),
    )
    .await;
    let thread = *fake.threads().last().expect("a thread for the game");
    press_in(&fake, thread, &bob(), "bredon:accept").await;
    // Bredon is away for the week in which Discord archives the thread: it hears nothing.
    drop(bot);
    fake.wait_until("the bot gone", Duration::from_secs(10), |f| !f.connected())
        .await;
    fake.advance(Duration::from_secs(8 * 24 * 3600));
    assert!(fake.thread_archived(thread));
    let _bot = start_bot(&fake, data.path(), 30.0);
    connected(&fake, 2).await;
    fake.wait_until(
        "the thread to be unarchived",
        Duration::from_secs(10),
        |f| !f.thread_archived(thread),
    )
    .await;
    let from = fake.requests().len();
    let token = fake.command(
        &alice(),
        thread,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a1" }]),
    );
    let answered = answer(&fake, from, &token).await;
    announced(&fake, thread, &answered, "alice played a1").await;
}

/// Messages Bredon wrote in `channel` holding `text`.
fn bredon_said(fake: &FakeDiscord, channel: u64, text: &str) -> Vec<fake_discord::Msg> {
    fake.messages()
        .into_iter()
        .filter(|m| m.author == fake_discord::BOT_ID && m.channel == channel)
        .filter(|m| !m.deleted && m.content.contains(text))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plies_typed_as_messages_are_played_where_the_server_allows_them() {
    use fake_discord::intents;
    let (fake, _data, bot) = boot_logging_with(&[("BREDON_TYPED_PLIES", "plain")]).await;
    let asked = fake.intents();
    assert_eq!(
        asked & (intents::GUILD_MESSAGES | intents::MESSAGE_CONTENT),
        intents::GUILD_MESSAGES | intents::MESSAGE_CONTENT
    );
    start_game(&fake).await;
    // Not before the server turns it on.
    fake.say(&alice(), CHANNEL, "a1");
    bot.logged_times(&["a message read as talk"], 1).await;
    let r = run(
        &fake,
        &server_manager(),
        "settings",
        json!([{ "name": "typed_plies", "type": 5, "value": true }]),
    )
    .await;
    says(
        &r,
        "Typed plies: on: the player to move may type a ply (c3) as a message.",
    );
    // Talk, a spectator, the player not to move: Bredon stays quiet.
    fake.say(&alice(), CHANNEL, "good luck!");
    fake.say(&carol(), CHANNEL, "a1");
    fake.say(&bob(), CHANNEL, "e5");
    bot.logged_times(&["a message read as talk"], 3).await;
    let seen = fake.notifications().len();
    fake.say(&alice(), CHANNEL, "a1");
    fake.wait_until("alice's typed ply", Duration::from_secs(10), |f| {
        !bredon_said(f, CHANNEL, "alice played a1").is_empty()
    })
    .await;
    let played = bredon_said(&fake, CHANNEL, "alice played a1");
    assert_eq!(played.len(), 1, "played once");
    assert_eq!(played[0].files, ["board.png"]);
    assert_eq!(notified_since(&fake, seen), vec![bob().id], "bob is pinged");
    // A ply that cannot be played is answered, in reply, to nobody's notification.
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let typed = fake.say(&bob(), CHANNEL, "a1");
    let posts = format!("/channels/{CHANNEL}/messages");
    let reply = fake
        .wait_request(from, "the reply", |r| {
            r.path.ends_with(&posts) && r.content().starts_with("✋")
        })
        .await;
    says(&reply, "a1 is not empty");
    assert_eq!(
        reply.json()["message_reference"]["message_id"],
        typed.to_string()
    );
    assert!(notified_since(&fake, seen).is_empty());
    // Without Read Message History a reply is refused (160002): the answer names bob instead.
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::READ_MESSAGE_HISTORY);
    let from = fake.requests().len();
    fake.say(&bob(), CHANNEL, "a1");
    let named = fake
        .wait_request(from, "the answer naming bob", |r| {
            r.path.ends_with(&posts) && r.content().contains("✋") && r.status == 200
        })
        .await;
    assert!(named.json()["message_reference"].is_null());
    assert!(named.content().starts_with("<@222>"), "{}", named.content());
    let refused = fake.requests()[from..]
        .iter()
        .filter(|r| r.path.ends_with(&posts) && r.status == 403)
        .count();
    assert_eq!(refused, 1, "one reply refused, then the answer");
    assert_eq!(notified_since(&fake, seen), vec![bob().id]);
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    fake.say(&bob(), CHANNEL, "e5");
    fake.wait_until("bob's typed ply", Duration::from_secs(10), |f| {
        !bredon_said(f, CHANNEL, "bob played e5").is_empty()
    })
    .await;
    // The whole game so far is what the typed plies made of it, nothing more.
    bot.logged_times(&["outcome posted"], 4).await;
    let board = run(&fake, &carol(), "board", json!([])).await;
    says(&board, "move 2. alice to move");
    assert!(bredon_said(&fake, CHANNEL, "carol played").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_content_intent_a_ply_is_typed_as_a_mention() {
    use fake_discord::intents;
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_TYPED_PLIES", "mention")]).await;
    assert_eq!(
        fake.intents() & intents::MESSAGE_CONTENT,
        0,
        "nothing privileged"
    );
    start_game(&fake).await;
    let r = run(
        &fake,
        &server_manager(),
        "settings",
        json!([{ "name": "typed_plies", "type": 5, "value": true }]),
    )
    .await;
    says(
        &r,
        "Typed plies: on, as a mention: the player to move types @Bredon c3",
    );
    // Discord shows Bredon the text of this one only.
    fake.say(&alice(), CHANNEL, "a1");
    fake.say(
        &alice(),
        CHANNEL,
        &format!("<@{}> a1", fake_discord::BOT_ID),
    );
    fake.wait_until("alice's typed ply", Duration::from_secs(10), |f| {
        !bredon_said(f, CHANNEL, "alice played a1").is_empty()
    })
    .await;
    assert_eq!(bredon_said(&fake, CHANNEL, "alice played a1").len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_content_intent_left_off_in_the_portal_stops_the_bot_saying_what_to_do() {
    let fake = FakeDiscord::start().await;
    fake.turn_off_content_intent();
    let (status, stderr) = run_until_it_stops(&fake, &[("BREDON_TYPED_PLIES", "plain")]).await;
    assert!(!status.success());
    assert!(
        stderr.contains("turn on Message Content Intent in the Developer Portal")
            && stderr.contains("BREDON_TYPED_PLIES=mention"),
        "{stderr}"
    );
}
