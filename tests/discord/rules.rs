//! Lost answers, old buttons, deleted channels, threads from threads, and the fake's own rules.

use crate::fake_discord::{perms, FakeDiscord};
use crate::harness::*;
use crate::support;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timer_post_whose_answer_is_lost_arrives_exactly_once() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    with_service(data.path(), |s| {
        let options = bredon::service::ChallengeOptions {
            opponent: Some(bredon::store::records::PlayerRef {
                id: 222,
                name: "bob".into(),
            }),
            reminder: Some("1h".into()),
            seat: bredon::store::records::Seat::White,
            ..Default::default()
        };
        let mut long_ago = sctx(&alice(), CHANNEL);
        long_ago.now_ms = 0;
        s.challenge(&long_ago, &options).unwrap();
        s.accept(&bredon::service::Ctx {
            user: bredon::store::records::PlayerRef {
                id: 222,
                name: "bob".into(),
            },
            ..long_ago
        })
        .unwrap();
        posted_earlier(s);
    });
    let posts = format!("/channels/{CHANNEL}/messages");
    // Discord creates the message, but its answer is lost: Bredon must not post it twice.
    fake.lose_next_answer(&posts, 500);
    let bot = start_bot_logging(&fake, data.path(), 0.2);
    connected(&fake, 1).await;
    fake.wait_until("the retry", Duration::from_secs(20), |f| {
        f.requests()
            .iter()
            .filter(|r| r.path.contains(&posts))
            .count()
            >= 2
    })
    .await;
    let ticks = bot.log_count(&["timers checked"]);
    bot.logged_times(&["timers checked"], ticks + 5).await;
    // Counted once nothing more can come: the bot stopped and the outbox read empty.
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    let reminders: Vec<_> = fake
        .messages()
        .into_iter()
        .filter(|m| m.channel == CHANNEL && m.content.contains("it is your move"))
        .collect();
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert_eq!(
        notified_since(&fake, 0),
        vec![111],
        "alice is reminded once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_buttons_and_old_commands_get_an_answer_that_says_what_to_do() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a2").await;
    // A slip taken back at once, before bob has answered: no question asked.
    let r = run(&fake, &alice(), "undo", json!([])).await;
    says(
        &r,
        "alice took back their ply within a minute, before it was answered: a2 taken back. alice to move.",
    );
    assert!(fake.button(CHANNEL, "bredon:undo-yes:").is_none());
    ply(&fake, &alice(), "a1").await;
    ply(&fake, &bob(), "e5").await;
    run(&fake, &alice(), "undo", json!([])).await;
    let first = fake.button(CHANNEL, "bredon:undo-yes:").unwrap();
    let r = press(&fake, &bob(), "bredon:undo-no").await;
    says(&r, "bob declined the undo");
    run(&fake, &alice(), "undo", json!([])).await;
    let second = fake.button(CHANNEL, "bredon:undo-yes:").unwrap();
    assert_ne!(first, second, "each request has its own buttons");
    let from = fake.requests().len();
    let token = fake.press(&bob(), CHANNEL, &first);
    let r = answer(&fake, from, &token).await;
    assert!(
        r.is_ephemeral() && r.content().contains("no longer open"),
        "{}",
        r.content()
    );
    // Buttons posted by an older Bredon, and commands it no longer has.
    let from = fake.requests().len();
    let token = fake.press(&bob(), CHANNEL, "bredon:undo-yes");
    let r = answer(&fake, from, &token).await;
    assert!(
        r.is_ephemeral() && r.content().contains("older version"),
        "{}",
        r.content()
    );
    let r = run(&fake, &bob(), "oldcommand", json!([])).await;
    assert!(
        r.is_ephemeral() && r.content().contains("no /oldcommand command"),
        "{}",
        r.content()
    );
    let r = run(
        &fake,
        &bob(),
        "move",
        json!([{ "name": "ply", "type": 4, "value": 5 }]),
    )
    .await;
    assert!(r.is_ephemeral(), "{}", r.content());
    says(&r, "reload Discord");
    // The undo that is open still works.
    let r = press(&fake, &bob(), "bredon:undo-yes").await;
    says(&r, "bob agreed: a1 e5 taken back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleted_channels_and_threads_and_a_removed_server_stop_the_timers_and_keep_the_games() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let (deleted, kept) = (CHANNEL, CHANNEL + 7);
    with_service(data.path(), |s| {
        stored_game(s, deleted, 2);
        stored_game(s, kept, 2);
    });
    let mut bot = start_bot_logging(&fake, data.path(), 30.0);
    connected(&fake, 1).await;
    // A game in a thread of its own.
    challenge_bob(
        &fake,
        json!([
            { "name": "thread", "type": 5, "value": true },
        ]),
    )
    .await;
    let thread = fake.threads()[0];
    press_in(&fake, thread, &bob(), "bredon:accept").await;
    // Each deletion alone, each seen done in the bot's log before the next.
    fake.delete_channel(deleted);
    bot.logged(&["channel deleted", &deleted.to_string()]).await;
    fake.delete_channel(thread);
    bot.logged(&["channel deleted", &thread.to_string()]).await;
    bot.stop();
    let timers = |channel: u64| {
        let store = support::reopen(data.path());
        let game = store.game(channel).unwrap().expect("the game is kept");
        (game.reminder_due_ms, game.plies.len())
    };
    assert_eq!(
        timers(deleted),
        (None, 2),
        "no reminder into a deleted channel"
    );
    assert_eq!(timers(thread).0, None, "nor into a deleted thread");
    assert!(
        timers(kept).0.is_some(),
        "the other channel's game keeps its reminder"
    );
    // Removed from the server: every game there stops its timers.
    let mut bot = start_bot_logging(&fake, data.path(), 30.0);
    connected(&fake, 2).await;
    fake.remove_from_guild();
    bot.logged(&["removed from a server", "Ok(1)"]).await;
    bot.stop();
    assert_eq!(
        timers(kept),
        (None, 2),
        "the game is kept, its timers stopped"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_from_a_game_thread_opens_its_thread_in_the_parent_channel() {
    let (fake, _data, _bot) = boot().await;
    challenge_bob(
        &fake,
        json!([{ "name": "thread", "type": 5, "value": true }]),
    )
    .await;
    let game_thread = fake.threads()[0];
    press_in(&fake, game_thread, &bob(), "bredon:accept").await;
    // Inside the game's thread: a thread inside a thread cannot be, so it opens in the channel.
    let from = fake.requests().len();
    let r = run_with(&fake, game_thread, &carol(), "challenge", json!([])).await;
    says(
        &r,
        "already has a game, so this one starts in a new thread: Challenge posted in <#",
    );
    let threads: Vec<String> = fake
        .requests()
        .into_iter()
        .skip(from)
        .filter(|r| r.path.ends_with("/threads"))
        .map(|r| format!("{} {}", r.path, r.status))
        .collect();
    assert_eq!(
        threads,
        [format!("/api/v10/channels/{CHANNEL}/threads 200")]
    );
    let new_thread = *fake.threads().last().unwrap();
    assert_ne!(new_thread, game_thread);
    let posted = fake
        .messages()
        .into_iter()
        .rev()
        .find(|m| m.channel == new_thread);
    assert!(posted.is_some_and(|m| m.content.contains("carol opens a challenge")));
    // An announcement channel takes announcement threads.
    let news = CHANNEL + 10;
    fake.set_channel_kind(news, 5);
    let from = fake.requests().len();
    let thread = json!([{ "name": "thread", "type": 5, "value": true }]);
    let r = run_with(&fake, news, &carol(), "challenge", thread.clone()).await;
    says(&r, "Challenge posted in <#");
    let created = fake
        .wait_request(from, "the announcement thread", |r| {
            r.path.ends_with("/threads")
        })
        .await;
    assert_eq!(
        (created.status, created.json()["type"].as_u64()),
        (200, Some(10))
    );
    // A voice channel's chat holds no threads: refused before anything is made.
    let voice = CHANNEL + 11;
    fake.set_channel_kind(voice, 2);
    let from = fake.requests().len();
    let r = run_with(&fake, voice, &carol(), "challenge", thread).await;
    assert!(r.is_ephemeral(), "{}", r.content());
    says(&r, "cannot hold threads");
    let options = json!([{ "name": "create", "type": 1, "options": [
        { "name": "name", "type": 3, "value": "Cup" }, { "name": "format", "type": 4, "value": 0 }] }]);
    let r = run_with(&fake, voice, &moderator(), "tournament", options).await;
    assert!(r.is_ephemeral(), "{}", r.content());
    says(&r, "a tournament is made in a text channel");
    let made = fake
        .requests()
        .into_iter()
        .skip(from)
        .any(|r| r.path.ends_with("/threads"));
    assert!(!made, "no thread was asked for");
    assert_eq!(
        fake.requests().iter().filter(|r| r.status >= 400).count(),
        0,
        "Discord refused nothing"
    );
}

/// The fake's own rules, checked with serenity's HTTP client: limits and the token lifetime.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_refuses_what_discord_refuses() {
    use poise::serenity_prelude as serenity;
    let fake = FakeDiscord::start().await;
    let http = fake_http(&fake);
    let channel = serenity::ChannelId::new(CHANNEL);
    let code = |e: serenity::Error| match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("{other}"),
    };
    // Threads open in text channels (public) and announcement channels (announcement threads)
    // only: not in a thread, nor in a voice chat, nor as the wrong kind.
    let open = |parent: u64, kind: serenity::ChannelType| {
        let http = &http;
        async move {
            serenity::ChannelId::new(parent)
                .create_thread(http, serenity::CreateThread::new("Tak").kind(kind))
                .await
        }
    };
    let public = serenity::ChannelType::PublicThread;
    let thread = open(CHANNEL + 2, public).await.unwrap();
    assert_eq!(thread.kind, public);
    let inside = open(thread.id.get(), public).await.unwrap_err();
    assert_eq!(code(inside), (400, 50024), "no thread in a thread");
    fake.set_channel_kind(CHANNEL + 3, 5);
    let news = serenity::ChannelType::NewsThread;
    assert_eq!(open(CHANNEL + 3, news).await.unwrap().kind, news);
    assert_eq!(
        code(open(CHANNEL + 3, public).await.unwrap_err()),
        (400, 50024)
    );
    fake.set_channel_kind(CHANNEL + 4, 2);
    assert_eq!(
        code(open(CHANNEL + 4, public).await.unwrap_err()),
        (400, 50024)
    );
    let alt =
        serenity::CreateAttachment::bytes(vec![1, 2, 3], "a.png").description("d".repeat(1025));
    let described = serenity::CreateMessage::new().add_file(alt);
    assert_eq!(
        code(channel.send_message(&http, described).await.unwrap_err()),
        (400, 50035)
    );
    // A link button has a url (at most 512 characters) and no custom id; any other button has a
    // custom id and no url.
    let with_button = |button: serde_json::Value| {
        let http = &http;
        async move {
            let body = json!({ "content": "Game over", "components": [
                { "type": 1, "components": [button] }
            ] });
            http.send_message(channel, Vec::new(), &body).await
        }
    };
    let link =
        json!({ "type": 2, "style": 5, "label": "On the web", "url": "https://tak.example/s/1" });
    with_button(link.clone()).await.unwrap();
    let mut long = link.clone();
    long["url"] = json!(format!("https://tak.example/{}", "a".repeat(500)));
    assert_eq!(code(with_button(long).await.unwrap_err()), (400, 50035));
    let mut both = link.clone();
    both["custom_id"] = json!("bredon:web");
    assert_eq!(code(with_button(both).await.unwrap_err()), (400, 50035));
    let no_id = json!({ "type": 2, "style": 1, "label": "Rematch", "url": "https://tak.example" });
    assert_eq!(code(with_button(no_id).await.unwrap_err()), (400, 50035));
    // A link's scheme is http, https or discord (components/reference, "Button").
    let mut schemeless = link.clone();
    schemeless["url"] = json!("tak.example/s/1");
    assert_eq!(
        code(with_button(schemeless).await.unwrap_err()),
        (400, 50035)
    );
    // A thread a moderator locked and archived takes no post (400, 50083); unlocked, it stays
    // archived, and a post reopens it.
    fake.lock_thread(thread.id.get());
    let in_thread = || serenity::CreateMessage::new().content("move 12");
    assert_eq!(
        code(
            thread
                .id
                .send_message(&http, in_thread())
                .await
                .unwrap_err()
        ),
        (400, 50083)
    );
    fake.unlock_thread(thread.id.get());
    assert!(fake.thread_archived(thread.id.get()));
    thread.id.send_message(&http, in_thread()).await.unwrap();
    assert!(!fake.thread_archived(thread.id.get()));
    fake.set_bot_permissions(CHANNEL, perms::VIEW_CHANNEL | perms::SEND_MESSAGES);
    let file = serenity::CreateMessage::new()
        .add_file(serenity::CreateAttachment::bytes(vec![1], "a.png"));
    assert_eq!(
        code(channel.send_message(&http, file).await.unwrap_err()),
        (403, 50013)
    );
    fake.set_bot_permissions(CHANNEL, perms::SEND_MESSAGES);
    let plain = || serenity::CreateMessage::new().content("hi");
    assert_eq!(
        code(channel.send_message(&http, plain()).await.unwrap_err()),
        (403, 50001)
    );
    fake.delete_channel(CHANNEL);
    assert_eq!(
        code(channel.send_message(&http, plain()).await.unwrap_err()),
        (404, 10003)
    );
    // A mention that allowed_mentions does not allow reaches no one.
    let other = serenity::ChannelId::new(CHANNEL + 1);
    let quiet = plain().content("<@111> <@222>").allowed_mentions(
        serenity::CreateAllowedMentions::new().users([serenity::UserId::new(222)]),
    );
    other.send_message(&http, quiet).await.unwrap();
    assert_eq!(notified_since(&fake, 0), vec![222]);
}

/// An interaction's rules: 3 s to answer it once, 15 minutes for follow-ups, and the first
/// follow-up after a deferral edits the "thinking" message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_keeps_discords_interaction_deadlines() {
    use poise::serenity_prelude as serenity;
    let (fake, _data, _bot) = boot().await;
    let http = fake_http(&fake);
    // A command the bot does not know answers itself; use its token after the bot answered.
    let from = fake.requests().len();
    let token = fake.command(&carol(), CHANNEL, "help", json!([]));
    answer(&fake, from, &token).await;
    let followup =
        |text: &str| serenity::CreateInteractionResponseFollowup::new().content(text.to_string());
    let seen = fake.messages().len();
    http.create_followup_message(&token, &followup("<@111> one"), vec![])
        .await
        .unwrap();
    assert_eq!(
        fake.messages().len(),
        seen + 1,
        "a follow-up is a new message"
    );
    assert_eq!(notified_since(&fake, 0), vec![111]);
    fake.advance(Duration::from_secs(16 * 60));
    let late = http
        .create_followup_message(&token, &followup("late"), vec![])
        .await
        .unwrap_err();
    assert!(late.to_string().contains("Invalid Webhook Token"), "{late}");
    // Deferred, then a follow-up: an edit, which notifies no one.
    let from = fake.requests().len();
    let token = fake.command(
        &carol(),
        CHANNEL,
        "challenge",
        json!([{ "name": "thread", "type": 5, "value": true }]),
    );
    answer(&fake, from, &token).await;
    let thread_answer = fake
        .messages()
        .into_iter()
        .rev()
        .find(|m| m.content.contains("Challenge posted in"))
        .expect("the edited thinking message");
    assert_eq!(
        thread_answer.edits, 1,
        "the deferral's message was edited, not a new one"
    );
    // One response, within 3 s.
    let ok = || {
        serenity::CreateInteractionResponse::Message(
            serenity::CreateInteractionResponseMessage::new().content("ok"),
        )
    };
    let respond = |id: u64, token: String| {
        let http = &http;
        async move { respond_directly(http, id, &token, ok()).await }
    };
    let (id, token) = fake.unsent_command(&carol(), CHANNEL);
    respond(id, token.clone()).await.unwrap();
    let twice = respond(id, token).await.unwrap_err();
    assert!(twice.contains("already been acknowledged"), "{twice}");
    let (id, token) = fake.unsent_command(&carol(), CHANNEL);
    fake.advance(Duration::from_secs(4));
    let late = respond(id, token).await.unwrap_err();
    assert!(late.contains("Unknown interaction"), "{late}");
}

/// The fake refuses choices and forms longer than Discord allows, and bodies its description
/// does not allow.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_refuses_long_choices_and_forms() {
    use poise::serenity_prelude as serenity;
    let fake = FakeDiscord::start().await;
    let http = fake_http(&fake);
    let respond = |id: u64, token: String, reply: serenity::CreateInteractionResponse| {
        let http = &http;
        async move { respond_directly(http, id, &token, reply).await }
    };
    let choices = |name: String| {
        serenity::CreateInteractionResponse::Autocomplete(
            serenity::CreateAutocompleteResponse::new().add_string_choice(name, "a1"),
        )
    };
    let (id, token) = fake.unsent_autocomplete(&carol(), CHANNEL);
    let long = respond(id, token, choices("x".repeat(101)))
        .await
        .unwrap_err();
    assert!(long.contains("50035") && long.contains("choices"), "{long}");
    let (id, token) = fake.unsent_autocomplete(&carol(), CHANNEL);
    respond(id, token, choices("x".repeat(100))).await.unwrap();
    let form = |title: &str, label: &str| {
        let input = serenity::CreateInputText::new(serenity::InputTextStyle::Short, label, "ply");
        serenity::CreateInteractionResponse::Modal(
            serenity::CreateModal::new("form", title)
                .components(vec![serenity::CreateActionRow::InputText(input)]),
        )
    };
    let (id, token) = fake.unsent_command(&carol(), CHANNEL);
    let long = respond(id, token, form(&"t".repeat(46), "ply"))
        .await
        .unwrap_err();
    assert!(long.contains("50035") && long.contains("title"), "{long}");
    let (id, token) = fake.unsent_command(&carol(), CHANNEL);
    let long = respond(id, token, form("Your move", &"l".repeat(46)))
        .await
        .unwrap_err();
    assert!(long.contains("50035") && long.contains("label"), "{long}");
    let (id, token) = fake.unsent_command(&carol(), CHANNEL);
    respond(id, token, form(&"t".repeat(45), &"l".repeat(45)))
        .await
        .unwrap();
    // Every body is held against Discord's own description of the request.
    let channel = serenity::ChannelId::new(CHANNEL);
    let wrong = json!({ "content": 5, "allowed_mentions": { "parse": ["nobody"] } });
    let refused = http
        .send_message(channel, vec![], &wrong)
        .await
        .unwrap_err();
    let refused = format!("{refused:?}");
    assert!(refused.contains("Invalid Form Body"), "{refused}");
    let right = json!({ "content": "5", "allowed_mentions": { "parse": [] } });
    http.send_message(channel, vec![], &right).await.unwrap();
}

/// events/gateway ("Rate Limiting"): a second IDENTIFY of the same `max_concurrency` bucket
/// within 5 seconds is answered with Invalid Session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_answers_an_identify_too_soon_with_an_invalid_session() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let fake = FakeDiscord::start().await;
    let identify = json!({ "op": 2, "d": {
        "token": "fake-token", "intents": 1, "shard": [0, 1],
        "properties": { "os": "linux", "browser": "test", "device": "test" } } });
    let mut answers = Vec::new();
    for _ in 0..2 {
        let (mut ws, _) = tokio_tungstenite::connect_async(fake.gateway_url())
            .await
            .unwrap();
        let hello = ws.next().await.unwrap().unwrap();
        assert!(hello.to_text().unwrap().contains("\"op\":10"), "{hello}");
        ws.send(Message::Text(identify.to_string())).await.unwrap();
        let answer: serde_json::Value =
            serde_json::from_str(ws.next().await.unwrap().unwrap().to_text().unwrap()).unwrap();
        answers.push((answer["op"].clone(), answer["t"].clone()));
    }
    assert_eq!(answers[0], (json!(0), json!("READY")));
    assert_eq!(answers[1], (json!(9), json!(null)), "the second, too soon");
    assert_eq!(fake.invalid_sessions(), 1);
}
