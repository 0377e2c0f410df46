//! The real `bredon` binary against a fake Discord on 127.0.0.1: registration, challenges and
//! buttons, plies up to Tak and a road, a flat win, refusals, autocomplete, racing plies, a
//! restart mid-game, a reminder, failing REST calls and a dropped gateway.

mod fake_discord;
mod harness;
mod support;

use fake_discord::{FakeDiscord, TestUser};
use harness::*;
use serde_json::json;
use std::process::Command;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenge_tak_and_road_win_with_pictures() {
    let (fake, _data, _bot) = boot().await;
    let registration = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT")
        .unwrap();
    let names: Vec<String> = registration
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    for name in [
        "challenge",
        "move",
        "board",
        "undo",
        "draw",
        "resign",
        "rematch",
        "ptn",
        "position",
        "rules",
        "help",
    ] {
        assert!(
            names.contains(&name.to_string()),
            "{name} registered: {names:?}"
        );
    }
    // Installed with a server only; games and records in servers, the rest also in a DM.
    for c in registration.json().as_array().unwrap() {
        assert_eq!(c["integration_types"], json!([0]), "{}", c["name"]);
        let contexts = match c["name"].as_str().unwrap() {
            "help" | "rules" | "position" | "notify" => json!([0, 1]),
            _ => json!([0]),
        };
        assert_eq!(c["contexts"], contexts, "{}", c["name"]);
    }
    start_game(&fake).await;
    let moves = [
        ("alice", "e1"),
        ("bob", "a1"),
        ("alice", "a3"),
        ("bob", "a5"),
        ("alice", "b3"),
        ("bob", "b5"),
        ("alice", "c3"),
        ("bob", "c5"),
        ("alice", "d3"),
    ];
    let mut last = None;
    for (who, text) in moves {
        let user = if who == "alice" { alice() } else { bob() };
        last = Some(ply(&fake, &user, text).await);
    }
    let tak = last.unwrap();
    says(&tak, "alice played d3. Tak!");
    assert!(tak.content().contains("<@222>"), "bob is pinged");
    let png = &tak.pngs()[0];
    let img = image::load_from_memory(png).unwrap();
    assert_eq!(img.width(), 800);
    assert!(
        tak.text().contains("\"description\""),
        "the picture has alt text"
    );
    ply(&fake, &bob(), "d5").await;
    let from = fake.requests().len();
    let win = ply(&fake, &alice(), "e3").await;
    says(&win, "alice wins by road (R-0)");
    assert_eq!(win.pngs().len(), 1, "the final board comes with the result");
    let record = fake
        .wait_request(from, "the game's record", |r| {
            r.path.ends_with("/messages") && r.text().contains("game.gif")
        })
        .await;
    assert_eq!(record.status, 200);
    let link = record
        .content()
        .split("<https://ptn.ninja/")
        .nth(1)
        .and_then(|l| l.split('>').next())
        .map(String::from)
        .unwrap_or_else(|| panic!("a link: {}", record.content()));
    assert!(link
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "$+-".contains(c)));
    let unpacked = lz_str::decompress_from_encoded_uri_component(&link).unwrap();
    let attached = record
        .files()
        .into_iter()
        .find(|(name, _)| name == "game.ptn")
        .unwrap()
        .1;
    assert_eq!(
        String::from_utf16(&unpacked).unwrap().as_bytes(),
        attached.as_slice(),
        "PTN Ninja opens exactly the attached game"
    );
    assert!(record.text().contains("bredon:rematch:"));
    let errors = fake
        .requests()
        .iter()
        .filter(|r| r.content().contains("Bredon could not answer"))
        .count();
    assert_eq!(errors, 0, "no command failed on the way");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_answer_is_explained_privately_in_the_commands_own_terms() {
    let (fake, _data, _bot) = boot().await;
    // Discord refuses the answer to /leaderboard; Bredon says so to the user alone.
    fake.fail_next("/callback", 400);
    let from = fake.requests().len();
    let token = fake.command(&alice(), CHANNEL, "leaderboard", json!([]));
    let callback = format!("/{token}/callback");
    let told = fake
        .wait_request(from, "the explanation", |r| {
            r.path.contains(&callback) && r.status == 204
        })
        .await;
    assert!(told.is_ephemeral());
    says(&told, "Bredon could not answer /leaderboard: Discord did not take its message. Nothing was changed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_ephemeral_and_autocomplete_lists_legal_plies() {
    let (fake, _data, _bot) = boot().await;
    let r = ply(&fake, &alice(), "a1").await;
    assert!(
        r.is_ephemeral() && r.content().contains("no game in this channel"),
        "{}",
        r.content()
    );
    start_game(&fake).await;
    let r = ply(&fake, &alice(), "Sa1").await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("the first ply must place the opponent's flat"),
        "{}",
        r.content()
    );
    let carol = TestUser::new(333, "carol");
    let r = ply(&fake, &carol, "a1").await;
    assert!(
        r.is_ephemeral() && r.content().contains("you are not playing"),
        "{}",
        r.content()
    );
    let r = ply(&fake, &bob(), "a1").await;
    assert!(r.is_ephemeral() && r.content().contains("it is alice's turn"));
    let from = fake.requests().len();
    let token = fake.autocomplete(&alice(), CHANNEL, "c");
    let choices = offered(&fake, from, &token).await;
    assert_eq!(choices.len(), 5, "{choices:?}");
    assert!(
        choices.iter().all(|c| c.value.starts_with('c')),
        "{choices:?}"
    );
    assert!(
        choices.iter().any(|c| c.name == "c1 — flat on c1"),
        "{choices:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_plies_and_a_failing_rest_call_never_double_or_lose_a_ply() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    // Two different plies from alice at once: exactly one is played.
    let from = fake.requests().len();
    let t1 = fake.command(
        &alice(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a1" }]),
    );
    let t2 = fake.command(
        &alice(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "e5" }]),
    );
    let (a, b) = (
        answer(&fake, from, &t1).await,
        answer(&fake, from, &t2).await,
    );
    let played = [&a, &b]
        .iter()
        .filter(|r| r.content().contains("alice played"))
        .count();
    assert_eq!(played, 1, "{} / {}", a.content(), b.content());
    assert!([&a, &b].iter().any(|r| r.is_ephemeral()));
    // Discord fails the reply to bob's ply: the ply stays played, once.
    fake.fail_next("/callback", 500);
    let from = fake.requests().len();
    fake.command(
        &bob(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "c3" }]),
    );
    fake.wait_request(from, "the failed follow-up", |r| r.status == 500)
        .await;
    fake.fail_next("/callback", 429);
    let from = fake.requests().len();
    fake.command(
        &bob(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "c3" }]),
    );
    fake.wait_request(from, "the rate-limited callback", |r| r.status == 429)
        .await;
    let board = run(&fake, &bob(), "board", json!([])).await;
    says(&board, "move 2. alice to move");
    let r = ply(&fake, &bob(), "d4").await;
    assert!(
        r.is_ephemeral() && r.content().contains("it is alice's turn"),
        "c3 was played exactly once: {}",
        r.content()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_bot_continues_the_game_and_reconnects_after_a_drop() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    drop(bot); // SIGKILL
    fake.wait_until(
        "the old connection to close",
        Duration::from_secs(10),
        |f| !f.connected(),
    )
    .await;
    let _bot = start_bot(&fake, data.path(), 30.0);
    connected(&fake, 2).await;
    let r = ply(&fake, &bob(), "e5").await;
    says(&r, "bob played e5. alice to move");
    // The commands were already there: the restart looked, and wrote nothing.
    let writes = |f: &FakeDiscord| {
        f.requests()
            .iter()
            .filter(|r| r.method == "PUT" && r.path.contains("/commands"))
            .count()
    };
    assert_eq!(writes(&fake), 1, "commands registered once over two starts");
    // The gateway drops the connection: the bot resumes and keeps answering.
    fake.drop_gateway(4000);
    fake.wait_until("a RESUME", Duration::from_secs(30), |f| {
        f.resumes() >= 1 || f.identifies() >= 3
    })
    .await;
    fake.wait_until("the new connection", Duration::from_secs(10), |f| {
        f.connected()
    })
    .await;
    let r = ply(&fake, &alice(), "c3").await;
    says(&r, "alice played c3");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flat_win_and_a_reminder_that_fires_once() {
    let (fake, data, _bot) = boot_with(0.2, &[]).await;
    // A 3x3 game from a position one ply from a full board: White fills it and wins on flats.
    let r = challenge_bob(
        &fake,
        json!([
            { "name": "seat", "type": 4, "value": 0 },
            { "name": "tps", "type": 3, "value": "2,1,2/1,2,1/2,1,x 1 5" },
            { "name": "reminder", "type": 3, "value": "1h" },
        ]),
    )
    .await;
    says(&r, "from a position");
    press(&fake, &bob(), "bredon:accept").await;
    let win = ply(&fake, &alice(), "c1").await;
    assert!(
        win.content()
            .contains("alice wins on flats, 5 vs 4 (the board is full) (F-0)"),
        "{}",
        win.content()
    );
    // A reminder: the game's one-hour reminder is due long after the test, so use a second game
    // whose clock the bot's timer loop sees as due: the bot's own store decides, and it must
    // post exactly once.
    let store_dir = data.path().to_path_buf();
    drop(_bot);
    fake.wait_until("the bot to stop", Duration::from_secs(10), |f| {
        !f.connected()
    })
    .await;
    {
        let service =
            bredon::service::Service::new(bredon::store::Store::open(&store_dir).unwrap());
        let ctx = |u: &TestUser, now: i64| bredon::service::Ctx {
            guild: fake_discord::GUILD_ID,
            channel: CHANNEL,
            user: bredon::store::records::PlayerRef {
                id: u.id,
                name: u.name.clone(),
            },
            now_ms: now,
            moderator: false,
            request: None,
        };
        let long_ago = 0; // 1970: every due time has passed
        let o = bredon::service::ChallengeOptions {
            opponent: Some(bredon::store::records::PlayerRef {
                id: 222,
                name: "bob".into(),
            }),
            reminder: Some("1h".into()),
            seat: bredon::store::records::Seat::White,
            ..Default::default()
        };
        service.challenge(&ctx(&alice(), long_ago), &o).unwrap();
        service.accept(&ctx(&bob(), long_ago)).unwrap();
    }
    let before = fake.requests().len();
    let bot = start_bot_logging(&fake, &store_dir, 0.2);
    connected(&fake, 2).await;
    let reminder = fake
        .wait_request(before, "a reminder", |r| {
            r.path.contains(&format!("/channels/{CHANNEL}/messages"))
        })
        .await;
    says(&reminder, "alice, it is your move");
    assert!(reminder.content().contains("<@111>"));
    // Five more checks of the timers, then count.
    let ticks = bot.log_count(&["timers checked"]);
    bot.logged_times(&["timers checked"], ticks + 5).await;
    let posts = fake
        .requests()
        .iter()
        .skip(before)
        .filter(|r| r.path.contains(&format!("/channels/{CHANNEL}/messages")))
        .count();
    assert_eq!(
        posts, 1,
        "the reminder is posted once, then re-armed an hour later"
    );
}

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
    let bot_id = fake_discord::BOT_ID.to_string();
    let r = run(
        &fake,
        &alice(),
        "challenge",
        json!([
            { "name": "opponent", "type": 6, "value": bot_id },
            { "name": "level", "type": 4, "value": 0 },
            { "name": "size", "type": 4, "value": 4 },
            { "name": "seat", "type": 4, "value": 0 }
        ]),
    )
    .await;
    says(&r, "alice (White) vs Bredon (Black)");
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

use fake_discord::perms;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ply_notifies_the_next_player_and_nobody_else() {
    let (fake, _data, _bot) = boot().await;
    let seen = fake.notifications().len();
    let r = challenge_bob(
        &fake,
        json!([
            { "name": "seat", "type": 4, "value": 0 },
            { "name": "time", "type": 3, "value": "2d" },
        ]),
    )
    .await;
    assert_eq!(r.status, 204);
    assert_eq!(
        notified_since(&fake, seen),
        vec![222],
        "the challenge pings bob"
    );
    let seen = fake.notifications().len();
    press(&fake, &bob(), "bredon:accept").await;
    assert_eq!(notified_since(&fake, seen), vec![111], "alice moves first");
    let plies = [
        "a1", "f6", "b2", "e5", "c3", "d4", "a6", "f1", "b5", "e2", "c4", "d3", "a2", "f5", "b1",
        "e6", "c1", "d6", "a3", "f4",
    ];
    for (n, ply_text) in plies.iter().enumerate() {
        let (mover, next) = if n % 2 == 0 {
            (alice(), bob())
        } else {
            (bob(), alice())
        };
        let seen = fake.notifications().len();
        let r = ply(&fake, &mover, ply_text).await;
        assert_eq!(
            r.json()["type"],
            4,
            "a new message, not an edit of a deferral"
        );
        assert_eq!(
            notified_since(&fake, seen),
            vec![next.id],
            "after ply {} only {} is notified",
            n + 1,
            next.name
        );
        assert!(
            r.content().contains("Time runs out <t:") && r.content().contains(":R>"),
            "the deadline shows: {}",
            r.content()
        );
    }
    assert!(fake.other_pings().is_empty(), "{:?}", fake.other_pings());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_are_shown_as_typed_and_never_ping_roles_or_everyone() {
    let (fake, _data, _bot) = boot().await;
    let prankster = TestUser::new(444, "**<@&999>** @everyone");
    let seen = fake.notifications().len();
    let r = run(
        &fake,
        &prankster,
        "challenge",
        json!([{ "name": "opponent", "type": 6, "value": "222" }]),
    )
    .await;
    assert!(
        r.content()
            .starts_with("\\*\\*\\<@&999>\\*\\* @\u{200B}everyone challenges bob"),
        "{}",
        r.content()
    );
    assert_eq!(notified_since(&fake, seen), vec![222]);
    assert!(fake.other_pings().is_empty(), "{:?}", fake.other_pings());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_accepted_by_button_at_ply_300_is_acknowledged_first_and_brings_its_whole_record() {
    let fake = FakeDiscord::start().await;
    let data = tempfile::tempdir().unwrap();
    with_service(data.path(), |s| stored_game(s, CHANNEL, 300));
    let _bot = start_bot(&fake, data.path(), 30.0);
    connected(&fake, 1).await;
    let offer = run(&fake, &alice(), "draw", json!([])).await;
    says(&offer, "alice offers a draw");
    let button = fake.button(CHANNEL, "bredon:draw-yes:").unwrap();
    let from = fake.requests().len();
    let seen = fake.notifications().len();
    let token = fake.press(&bob(), CHANNEL, &button);
    let ack = fake
        .wait_request(from, "the acknowledgement", |r| {
            r.path.contains(&format!("/{token}/callback"))
        })
        .await;
    assert_eq!(ack.status, 204);
    assert_eq!(ack.json()["type"], 6);
    let posts = format!("/channels/{CHANNEL}/messages");
    let result = fake
        .wait_request(from, "the result", |r| {
            r.path.ends_with(&posts) && r.method == "POST"
        })
        .await;
    assert_eq!(result.status, 200);
    // Discord's 3 seconds: the press is acknowledged before the slow work (replaying 300 plies,
    // drawing the board) is done, so the acknowledgement is the first request of its token.
    let first = fake
        .requests()
        .into_iter()
        .skip(from)
        .find(|r| r.path.contains(token.as_str()))
        .unwrap();
    assert!(first.path.ends_with("/callback"), "{}", first.path);
    says(&result, "Drawn by agreement");
    assert_eq!(result.pngs().len(), 1, "the final board");
    let record = fake
        .wait_request(from, "the record", |r| {
            r.path.ends_with(&posts) && r.text().contains("game.gif")
        })
        .await;
    assert_eq!(record.status, 200, "{}", record.text().len());
    let files: Vec<String> = record.files().into_iter().map(|(n, _)| n).collect();
    assert_eq!(files, vec!["game.gif", "game.ptn"]);
    let ptn = String::from_utf8(record.files()[1].1.clone()).unwrap();
    assert!(
        ptn.contains("150. ") && ptn.contains("1/2-1/2"),
        "300 plies and the result"
    );
    let mut notified = notified_since(&fake, seen);
    notified.sort();
    assert_eq!(notified, vec![111, 222], "both players hear of the result");
    // The pressed message says who pressed what, and its buttons are disabled.
    let pressed = fake
        .messages()
        .into_iter()
        .find(|m| m.components.to_string().contains(&button))
        .unwrap();
    assert!(
        pressed.content.contains("bob pressed Accept draw"),
        "{}",
        pressed.content
    );
    assert!(pressed.components.to_string().contains("\"disabled\":true"));
    assert_eq!(
        fake.requests().iter().filter(|r| r.status >= 400).count(),
        0,
        "no request broke a limit"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_games_and_long_lists_stay_within_discords_limits() {
    let fake = FakeDiscord::start().await;
    let data = tempfile::tempdir().unwrap();
    with_service(data.path(), |s| {
        stored_game(s, CHANNEL, 400);
        for i in 0..100 {
            stored_game(s, 888_000 + i, 2);
        }
    });
    let _bot = start_bot(&fake, data.path(), 30.0);
    connected(&fake, 1).await;
    let games = run(&fake, &carol(), "games", json!([])).await;
    assert_eq!(games.status, 204);
    says(&games, "Page 1 of 13 (101 games)");
    let last = run(
        &fake,
        &carol(),
        "games",
        json!([{ "name": "page", "type": 4, "value": 13 }]),
    )
    .await;
    assert_eq!(last.content().lines().count(), 6, "{}", last.content());
    let ptn = run(&fake, &carol(), "ptn", json!([])).await;
    assert_eq!(ptn.status, 204);
    assert_eq!(ptn.files()[0].0, "game.ptn");
    assert!(
        ptn.content().contains("too long for a PTN Ninja link")
            && String::from_utf8_lossy(&ptn.files()[0].1).contains("200. "),
        "the whole game is attached instead: {}",
        ptn.content()
    );
    // The end of the 400-ply game: result, board, GIF, PTN, link.
    let from = fake.requests().len();
    let resigned = run(&fake, &bob(), "resign", json!([])).await;
    assert_eq!(resigned.status, 204);
    says(&resigned, "bob resigns");
    let record = fake
        .wait_request(from, "the record", |r| r.text().contains("game.gif"))
        .await;
    assert_eq!(record.status, 200);
    assert!(record.content().contains("too long for a PTN Ninja link"));
    assert!(record.files().iter().any(|(name, _)| name == "game.ptn"));
    // A refusal quotes only a little of what was typed.
    let pasted = "c3".repeat(3000);
    let r = ply(&fake, &alice(), &pasted).await;
    assert_eq!(r.status, 204);
    assert!(
        r.is_ephemeral() && r.content().chars().count() < 300,
        "{}",
        r.content()
    );
    assert_eq!(
        fake.requests().iter().filter(|r| r.status >= 400).count(),
        0,
        "no request broke a limit"
    );
}

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
    fake.session_starts_left(60, Duration::from_millis(1500));
    let bot = start_bot_logging(&fake, data.path(), 30.0);
    bot.logged(&["few more session starts", "remaining=60"])
        .await;
    assert_eq!(fake.identifies(), 1, "no IDENTIFY before the reset");
    connected(&fake, 2).await;
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
    says(&answer(&fake, from, &token).await, "alice played a1");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timer_post_whose_answer_is_lost_arrives_exactly_once() {
    let fake = FakeDiscord::start().await;
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
    let fake = FakeDiscord::start().await;
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

/// When an answer is slow, Bredon defers; the edit of the "thinking" message notifies no one,
/// so the ping follows as a new message, and a refusal goes out ephemeral.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_answer_still_notifies_the_player_to_move() {
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_DEFER_MS", "0")]).await;
    start_game(&fake).await;
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.command(
        &alice(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a1" }]),
    );
    let edit = answer(&fake, from, &token).await;
    assert_eq!(edit.method, "PATCH", "the thinking message is edited");
    says(&edit, "alice played a1");
    assert_eq!(edit.pngs().len(), 1);
    fake.wait_until("the ping", Duration::from_secs(10), |f| {
        f.notifications().len() > seen
    })
    .await;
    assert_eq!(notified_since(&fake, seen), vec![222]);
    let from = fake.requests().len();
    let token = fake.command(
        &carol(),
        CHANNEL,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "e5" }]),
    );
    let refused = answer(&fake, from, &token).await;
    assert!(
        refused.is_ephemeral() && refused.content().contains("you are not playing"),
        "{} {}",
        refused.method,
        refused.content()
    );
    assert_eq!(
        notified_since(&fake, seen),
        vec![222],
        "nobody else was pinged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buttons_under_every_board_work_for_the_players_on_the_newest_board() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let r = ply(&fake, &alice(), "a1").await;
    for action in [
        "board-undo",
        "board-draw",
        "board-resign",
        "board-moves",
        "board-refresh",
    ] {
        assert!(r.text().contains(&format!("bredon:{action}:")), "{action}");
    }
    let old_board = fake.button(CHANNEL, "bredon:board-undo:").unwrap();
    let refused = press(&fake, &carol(), "bredon:board-refresh").await;
    assert!(
        refused.is_ephemeral() && refused.content().contains("you are not playing"),
        "{}",
        refused.content()
    );
    let moves = press(&fake, &bob(), "bredon:board-moves").await;
    assert!(
        moves.is_ephemeral() && moves.content().contains("legal plies:\n**a2**"),
        "{}",
        moves.content()
    );
    // Resigning asks first; the question dies with its board.
    let ask = press(&fake, &bob(), "bredon:board-resign").await;
    assert!(ask.is_ephemeral() && ask.content().contains("Resign this game?"));
    ply(&fake, &bob(), "e5").await;
    let stale = press(&fake, &bob(), "bredon:resign-yes").await;
    says(&stale, "no longer the latest");
    let from = fake.requests().len();
    let token = fake.press(&alice(), CHANNEL, &old_board);
    let stale = answer(&fake, from, &token).await;
    assert!(stale.is_ephemeral() && stale.content().contains("no longer the latest"));
    // The newest board's buttons work.
    let seen = fake.notifications().len();
    let offer = press(&fake, &alice(), "bredon:board-draw").await;
    says(&offer, "alice offers a draw");
    assert_eq!(notified_since(&fake, seen), vec![222]);
    let again = press(&fake, &bob(), "bredon:board-refresh").await;
    assert!(
        again.content().contains("alice offers a draw") && again.pngs().len() == 1,
        "{}",
        again.content()
    );
    press(&fake, &alice(), "bredon:board-resign").await;
    let resigned = press(&fake, &alice(), "bredon:resign-yes").await;
    says(&resigned, "alice resigns");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plies_are_read_in_either_case_as_phones_capitalise_them() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    for (user, typed, played) in [
        (alice(), "A1", "alice played a1."),
        (bob(), "E5", "bob played e5."),
        (alice(), "sb2", "alice played Sb2."),
        (bob(), "cc3", "bob played Cc3."),
        (alice(), "E5-", "alice played e5-."),
    ] {
        let r = ply(&fake, &user, typed).await;
        assert!(r.content().contains(played), "{typed}: {}", r.content());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_can_be_challenged_from_their_menu_and_options_offer_presets() {
    let (fake, _data, _bot) = boot().await;
    let registration = fake
        .requests()
        .into_iter()
        .find(|r| r.method == "PUT")
        .unwrap();
    let menu = registration
        .json()
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Challenge to Tak")
        .cloned()
        .expect("a user context-menu command");
    assert_eq!(menu["type"], 2);
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.user_command(&alice(), CHANNEL, "Challenge to Tak", 222);
    let r = answer(&fake, from, &token).await;
    says(&r, "alice challenges bob");
    assert_eq!(notified_since(&fake, seen), vec![222]);
    // Free-text options suggest presets, and keep what was typed.
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "challenge", "komi", "2");
    let values = offered(&fake, from, &token)
        .await
        .into_iter()
        .map(|c| c.value);
    assert_eq!(values.collect::<Vec<_>>(), ["2", "2.5"]);
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "challenge", "time", "36h");
    let first = offered(&fake, from, &token).await.remove(0);
    assert_eq!(first.value, "36h", "what was typed comes first");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_in_a_busy_channel_gets_a_thread_and_blind_games_show_no_board() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let r = run(
        &fake,
        &carol(),
        "challenge",
        json!([
            { "name": "opponent", "type": 6, "value": "111" },
            { "name": "seat", "type": 4, "value": 0 },
            { "name": "blind", "type": 5, "value": true }
        ]),
    )
    .await;
    says(&r, "This channel already has a game, so this one starts in a new thread: Challenge posted in <#");
    let thread = *fake.threads().last().unwrap();
    let accepted = press_in(&fake, thread, &alice(), "bredon:accept").await;
    assert!(
        accepted
            .content()
            .contains("carol (White) vs alice (Black)"),
        "{}",
        accepted.content()
    );
    assert!(accepted.pngs().is_empty(), "a blind game shows no board");
    let from = fake.requests().len();
    let token = fake.command(
        &carol(),
        thread,
        "move",
        json!([{ "name": "ply", "type": 3, "value": "a1" }]),
    );
    let r = answer(&fake, from, &token).await;
    assert!(
        r.content().contains("carol played a1.") && r.pngs().is_empty(),
        "{}",
        r.content()
    );
    let from = fake.requests().len();
    let token = fake.command(&alice(), thread, "board", json!([]));
    let r = answer(&fake, from, &token).await;
    says(&r, "the plies so far: 1. a1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_move_button_opens_a_form_whose_ply_is_played() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    assert_eq!(form.json()["type"], 9, "a modal");
    let modal_id = form.json()["data"]["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
    let input = form.json()["data"]["components"][0]["components"][0].clone();
    assert_eq!(input["custom_id"], "ply");
    assert_eq!(input["placeholder"], "c3, Sd4, Cb2, 3c3>12");
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.submit_modal(&alice(), CHANNEL, &modal_id, "ply", "A1");
    let r = answer(&fake, from, &token).await;
    says(&r, "alice played a1.");
    assert_eq!(r.pngs().len(), 1);
    assert_eq!(notified_since(&fake, seen), vec![222]);
    // The form of an older board does not play on the new one.
    let from = fake.requests().len();
    let token = fake.submit_modal(&bob(), CHANNEL, &modal_id, "ply", "e5");
    let r = answer(&fake, from, &token).await;
    assert!(
        r.is_ephemeral() && r.content().contains("no longer the latest"),
        "{}",
        r.content()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_link_to_the_board_and_a_direct_message_says_it_is_my_move() {
    let (fake, _data, bot) = boot_logging().await;
    let r = run(
        &fake,
        &bob(),
        "notify",
        json!([{ "name": "dm", "type": 5, "value": true }]),
    )
    .await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("Direct messages when it is your move: on"),
        "{}",
        r.content()
    );
    start_game(&fake).await;
    let before = fake.direct_messages(222).len();
    ply(&fake, &alice(), "a1").await;
    fake.wait_until("bob's direct message", Duration::from_secs(10), |f| {
        f.direct_messages(222).len() > before
    })
    .await;
    let dm = fake.direct_messages(222).pop().unwrap();
    let link = format!(
        "It is your move in <#{CHANNEL}>: https://discord.com/channels/{}/{CHANNEL}/",
        fake_discord::GUILD_ID
    );
    assert!(dm.content.contains(&link), "{}", dm.content);
    assert!(
        fake.direct_messages(111).is_empty(),
        "alice did not ask for DMs"
    );
    let mine = run(&fake, &bob(), "mygames", json!([])).await;
    assert!(mine.is_ephemeral());
    assert!(
        mine.content()
            .contains("vs alice, ply 1 · **your move** · last ply <t:")
            && mine
                .content()
                .contains("[board](https://discord.com/channels/"),
        "{}",
        mine.content()
    );
    let theirs = run(&fake, &alice(), "mygames", json!([])).await;
    says(&theirs, "bob to move");
    let none = run(&fake, &carol(), "mygames", json!([])).await;
    assert!(none
        .content()
        .contains("you are not playing in this server"));
    // The next turn's message goes to the same DM channel, which Bredon opened once.
    ply(&fake, &bob(), "e5").await;
    ply(&fake, &alice(), "c3").await;
    fake.wait_until(
        "bob's second direct message",
        Duration::from_secs(10),
        |f| f.direct_messages(222).len() > before + 1,
    )
    .await;
    let opened = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/users/@me/channels"))
        .count();
    assert_eq!(opened, 1, "the DM channel is asked for once");
    // Off again: the next turn brings no direct message.
    run(
        &fake,
        &bob(),
        "notify",
        json!([{ "name": "dm", "type": 5, "value": false }]),
    )
    .await;
    ply(&fake, &bob(), "e4").await;
    ply(&fake, &alice(), "c4").await;
    // The game's seventh outcome (challenge, accept, a1, e5, c3, e4, c4) is posted whole,
    // direct messages included, before the count.
    bot.logged_times(&["outcome posted"], 7).await;
    assert_eq!(
        fake.direct_messages(222).len(),
        before + 2,
        "no DM after dm:false"
    );
}

/// A cooperative game of Takat on seven circles that ends in a stack of six at ply 24 (found by
/// a beam search over the rules; every ply is legal, Black entering whenever it is behind).
const TAKAT_SIX: [&str; 24] = [
    "a1", "a2", "a1-a2", "a1", "b3", "b1", "b3-a2", "b1-a1", "b1", "a1-a2", "b1-a1", "b1", "b3",
    "b1-a1", "c1", "b1", "a1-a2", "b1-a1", "b3-b2", "c1-b2", "a1-b2", "a1-b2", "a1-b1", "b2-a2",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_takat_from_challenge_to_a_stack_of_six() {
    let (fake, _data, _bot) = boot().await;
    let r = challenge_bob(
        &fake,
        json!([
            { "name": "game", "type": 4, "value": 1 },
            { "name": "seat", "type": 4, "value": 0 },
        ]),
    )
    .await;
    assert!(
        r.content()
            .contains("alice challenges bob (Takat on 7 circles"),
        "{}",
        r.content()
    );
    let r = press(&fake, &bob(), "bredon:accept").await;
    assert!(
        r.content()
            .contains("alice (White) vs bob (Black), Takat on 7 circles. alice to move."),
        "{}",
        r.content()
    );
    let first = image::load_from_memory(&r.pngs()[0]).unwrap();
    assert_eq!(first.width(), 800, "one picture size for every game");
    // The Move form shows Takat's notation, not PTN.
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    let input = &form.json()["data"]["components"][0]["components"][0];
    assert_eq!(input["placeholder"], "b1 to enter, a1-b2 to move");
    assert_eq!(input["label"], "Your ply");
    // Refusals name the rule broken, privately, and change nothing.
    let r = ply(&fake, &alice(), "b2").await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("nobody may enter on the centre circle b2"),
        "{}",
        r.content()
    );
    // Autocomplete offers Takat's plies, in words.
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "move", "ply", "a");
    let choices = offered(&fake, from, &token).await;
    assert!(
        choices.iter().any(|c| c.name == "a1 — enter on a1") && choices.len() == 2,
        "{choices:?}"
    );
    let mut last = None;
    let mut threats = 0;
    for (i, text) in TAKAT_SIX.iter().enumerate() {
        let user = if i % 2 == 0 { alice() } else { bob() };
        let r = ply(&fake, &user, text).await;
        assert!(
            !r.is_ephemeral(),
            "ply {} ({text}) was refused: {}",
            i + 1,
            r.content()
        );
        if r.content().contains("White threatens a stack of six!") {
            threats += 1;
        }
        if i == 2 {
            // The piece White just moved cannot be moved by Black: refused in words.
            let r = ply(&fake, &bob(), "a2-b2").await;
            assert!(
                r.is_ephemeral()
                    && r.content()
                        .contains("the piece on a2 was just moved by White"),
                "{}",
                r.content()
            );
        }
        last = Some((r, fake.requests().len()));
    }
    assert!(threats > 0, "White's threat of six was announced");
    let (win, from) = last.unwrap();
    // Black's ply completes the stack, and the stack wins for White.
    assert!(
        win.content()
            .contains("bob played b2-a2. alice wins with a stack of six (1-0)."),
        "{}",
        win.content()
    );
    assert_eq!(win.pngs().len(), 1, "the final board comes with the result");
    let record = fake
        .wait_request(from.saturating_sub(4), "the game's record", |r| {
            r.path.ends_with("/messages") && r.text().contains("game.gif")
        })
        .await;
    let files = record.files();
    let text = files
        .iter()
        .find(|(name, _)| name == "game.takat.txt")
        .map(|(_, bytes)| String::from_utf8(bytes.clone()).unwrap())
        .expect("the record is attached");
    assert!(
        text.contains("[Game \"Takat\"]") && text.contains("12. a1-b1 b2-a2 1-0"),
        "{text}"
    );
    let replayed = bredon::takat::Game::from_record(&text).unwrap();
    assert_eq!(replayed.ply_count(), 24);
    assert!(
        !record.content().contains("ptn.ninja"),
        "PTN Ninja does not read Takat"
    );
    let r = run(&fake, &carol(), "board", json!([])).await;
    assert!(
        r.content()
            .contains("The last one: alice wins with a stack of six (1-0)"),
        "{}",
        r.content()
    );
    let r = run(
        &fake,
        &carol(),
        "stats",
        json!([{ "name": "user", "type": 6, "value": "111" }, { "name": "game", "type": 4, "value": 1 }]),
    )
    .await;
    says(
        &r,
        "alice in Takat:\n- 7 circles: no rated game yet, 1 win, 0 losses",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_marks_an_unanswered_tak_and_posts_a_chart_and_the_annotated_ptn() {
    let fake = FakeDiscord::start().await;
    let data = tempfile::tempdir().unwrap();
    // Half a second a position: the opening positions alone take longer than the 2 s between
    // progress edits.
    let _bot = start_bot_with(&fake, data.path(), 30.0, &[("BREDON_ANALYSIS_MS", "500")]);
    connected(&fake, 1).await;
    let early = run(&fake, &bob(), "analyze", json!([])).await;
    assert!(
        early.is_ephemeral() && early.content().contains("no game has finished"),
        "{}",
        early.content()
    );
    start_game(&fake).await;
    // Alice makes Tak with d3 (e3 completes her road); Bob answers elsewhere and loses.
    for (user, text) in [
        (alice(), "e1"),
        (bob(), "a1"),
        (alice(), "a3"),
        (bob(), "a5"),
        (alice(), "b3"),
        (bob(), "b5"),
        (alice(), "c3"),
        (bob(), "c5"),
    ] {
        ply(&fake, &user, text).await;
    }
    let live = run(&fake, &bob(), "analyze", json!([])).await;
    assert!(
        live.is_ephemeral() && live.content().contains("still being played"),
        "no analysis while the game runs: {}",
        live.content()
    );
    ply(&fake, &alice(), "d3").await;
    ply(&fake, &bob(), "d5").await;
    let win = ply(&fake, &alice(), "e3").await;
    says(&win, "wins by road");

    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.command(&bob(), CHANNEL, "analyze", json!([]));
    let callback = fake
        .wait_request(from, "the callback", |r| {
            r.path.contains(&format!("/{token}/callback"))
        })
        .await;
    assert_eq!(callback.status, 204, "{}", callback.text());
    assert_eq!(callback.json()["type"], 5, "the analysis is deferred");
    let done = fake
        .wait_request(from, "the analysis", |r| {
            r.method == "PATCH" && r.text().contains("analysis.ptn")
        })
        .await;
    assert_eq!(done.status, 200, "{}", done.text());
    let progress: Vec<String> = fake.requests()[from..]
        .iter()
        .filter(|r| r.method == "PATCH" && r.content().contains("Analysing the game: search"))
        .map(|r| r.content())
        .collect();
    assert!(!progress.is_empty(), "the thinking message shows progress");
    assert!(progress[0].ends_with("of 23…"), "{progress:?}");
    let content = done.content();
    assert!(
        content.contains("bob: ") && !content.contains("bob: 0 blunders"),
        "{content}"
    );
    assert!(
        content.contains("5... d5'?? Leaves the Tak unanswered: White wins with e3."),
        "{content}"
    );
    assert!(content.contains("https://ptn.ninja/"), "{content}");
    assert!(content.chars().count() <= 2000);
    let files = done.files();
    let chart = &files.iter().find(|(n, _)| n == "evaluation.png").unwrap().1;
    let img = image::load_from_memory(chart).unwrap();
    assert_eq!((img.width(), img.height()), (800, 400));
    let ptn = String::from_utf8(
        files
            .iter()
            .find(|(n, _)| n == "analysis.ptn")
            .unwrap()
            .1
            .clone(),
    )
    .unwrap();
    assert!(
        ptn.contains("d3' d5'?? {Leaves the Tak unanswered"),
        "{ptn}"
    );
    let replayed = bredon::tak::Game::from_ptn(&ptn).unwrap();
    assert_eq!(replayed.plies().len(), 11, "the annotated record replays");
    // The edit notifies no one; the asker alone is pinged when it is ready.
    fake.wait_until("the ping", Duration::from_secs(10), |f| {
        f.notifications().len() > seen
    })
    .await;
    assert_eq!(notified_since(&fake, seen), vec![222]);
}

/// University rules through Discord: the antes, sealed bids answered privately, a Tak whose fee
/// is paid by playing on, a Tak refused by resigning, the reward, the balances and the ledger.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_university_game_antes_bids_pays_for_tak_and_rewards_the_winner() {
    let (fake, data, bot) = boot().await;
    let r = challenge_bob(
        &fake,
        json!([
            { "name": "size", "type": 4, "value": 5 },
            { "name": "stakes", "type": 4, "value": 0 },
        ]),
    )
    .await;
    says(&r, "alice challenges bob");
    let seen = fake.notifications().len();
    let started = press(&fake, &bob(), "bredon:accept").await;
    assert!(
        started
            .content()
            .contains("University rules: each antes 10 (pot 20)"),
        "{}",
        started.content()
    );
    let early = ply(&fake, &alice(), "e1").await;
    assert!(early.is_ephemeral() && early.content().contains("still bidding"));
    let sealed = run(
        &fake,
        &alice(),
        "bid",
        json!([{ "name": "coins", "type": 4, "value": 7 }]),
    )
    .await;
    assert!(
        sealed.is_ephemeral() && sealed.content().contains("Your bid of 7 is sealed"),
        "a bid is private: {}",
        sealed.content()
    );
    let settled = run(
        &fake,
        &bob(),
        "bid",
        json!([{ "name": "coins", "type": 4, "value": 3 }]),
    )
    .await;
    assert!(!settled.is_ephemeral());
    says(
        &settled,
        "Bids: alice 7, bob 3. alice moves first (White) and pays 7 into the pot (pot 27)",
    );
    assert_eq!(
        settled.pngs().len(),
        1,
        "the board comes with the first move"
    );
    assert!(
        notified_since(&fake, seen).contains(&111),
        "alice is pinged to move"
    );
    for (user, text) in [
        (alice(), "e1"),
        (bob(), "a1"),
        (alice(), "a3"),
        (bob(), "a5"),
        (alice(), "b3"),
        (bob(), "b5"),
        (alice(), "c3"),
        (bob(), "c5"),
    ] {
        ply(&fake, &user, text).await;
    }
    let tak = ply(&fake, &alice(), "d3").await;
    says(&tak, "bob owes 2 coins for the Tak");
    let paid = ply(&fake, &bob(), "d5").await;
    assert!(
        paid.content().contains("bob paid 2 coins")
            && paid.content().contains("alice owes 2 coins for the Tak"),
        "{}",
        paid.content()
    );
    // Alice refuses to pay: she resigns, and Bob takes the pot and his bonus.
    let resigned = run(&fake, &alice(), "resign", json!([])).await;
    assert!(
        resigned
            .content()
            .contains("bob takes the pot of 29 and 17 coins from alice"),
        "{}",
        resigned.content()
    );
    let wallet = |user: TestUser| {
        let fake = &fake;
        async move { run(fake, &user, "wallet", json!([])).await.content() }
    };
    assert_eq!(wallet(alice()).await, "alice has 66 coins.");
    assert_eq!(wallet(bob()).await, "bob has 134 coins.");
    let top = run(
        &fake,
        &carol(),
        "wallet",
        json!([{ "name": "top", "type": 5, "value": true }]),
    )
    .await;
    assert!(
        top.content()
            .contains("1. bob — 134 coins\n2. alice — 66 coins"),
        "{}",
        top.content()
    );
    drop(bot);
    let ledger = with_service(data.path(), |s| {
        s.store().last_finished(CHANNEL).unwrap().unwrap().ledger
    });
    let sum = |id: u64| {
        ledger
            .iter()
            .filter(|m| m.user == id)
            .map(|m| m.delta)
            .sum::<i64>()
    };
    assert_eq!((sum(111), sum(222)), (-34, 34));
    assert_eq!(ledger.len(), 7, "{ledger:?}");
}

// ---- Tournaments ------------------------------------------------------------------------------

fn rr_winner(a: &str, b: &str) -> Option<&'static str> {
    let mut pair = [a, b];
    pair.sort();
    match pair {
        ["alice", "carol"] | ["alice", "erin"] => Some("alice"),
        ["alice", "dave"] | ["dave", "erin"] => Some("dave"),
        ["bob", "carol"] | ["bob", "dave"] => Some("bob"),
        ["bob", "erin"] => Some("erin"),
        ["carol", "erin"] => Some("carol"),
        _ => None, // alice-bob and carol-dave are draws
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_five_runs_in_threads_and_survives_a_restart() {
    let (fake, data, mut bot) = boot_with(0.5, &[]).await;
    let r = tournament_cmd(
        &fake,
        &alice(),
        "create",
        json!([{ "name": "name", "type": 3, "value": "Spring" }, { "name": "format", "type": 4, "value": 0 }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("only a moderator"),
        "{}",
        r.content()
    );
    // `start:` suggests its presets while typing.
    let from = fake.requests().len();
    let token =
        fake.autocomplete_sub_option(&alice(), CHANNEL, "tournament", "create", "start", "wh");
    let values = offered(&fake, from, &token)
        .await
        .into_iter()
        .map(|c| c.value);
    assert_eq!(
        values.collect::<Vec<_>>(),
        ["wh", "when full"],
        "what was typed, then the presets"
    );
    // Its games need threads: without Create Public Threads the tournament is refused.
    use fake_discord::perms;
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::CREATE_PUBLIC_THREADS);
    let r = tournament_cmd(
        &fake,
        &moderator(),
        "create",
        json!([{ "name": "name", "type": 3, "value": "Spring" }, { "name": "format", "type": 4, "value": 0 }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("Create Public Threads"),
        "{}",
        r.content()
    );
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    let r = tournament_cmd(
        &fake,
        &moderator(),
        "create",
        json!([
            { "name": "name", "type": 3, "value": "Spring" },
            { "name": "format", "type": 4, "value": 0 },
            { "name": "size", "type": 4, "value": 5 }
        ]),
    )
    .await;
    says(&r, "opened the tournament Spring");
    for p in ["alice", "bob", "carol", "dave", "erin"] {
        let r = tournament_cmd(&fake, &player(p), "join", json!([])).await;
        says(&r, &format!("{p} joined Spring"));
    }
    let r = tournament_cmd(&fake, &moderator(), "start", json!([])).await;
    says(&r, "Round 1 of 5");
    let mut games_played = 0;
    for round in 1..=5 {
        let games = round_games(&fake, "Spring", round, 2).await;
        for (i, (thread, white, black)) in games.iter().enumerate() {
            // A restart in the middle of round 3: the stored tournament carries on.
            if round == 3 && i == 1 {
                drop(bot);
                bot = start_bot(&fake, data.path(), 0.5);
                connected(&fake, 2).await;
            }
            decide_in(&fake, *thread, white, black, rr_winner(white, black)).await;
            games_played += 1;
        }
        if round < 5 {
            news(&fake, &format!("Round {} of 5", round + 1)).await;
        }
    }
    assert_eq!(games_played, 10);
    let end = news(
        &fake,
        "Spring is over: bob wins with 2½ points, ahead of dave on Sonneborn-Berger.",
    )
    .await;
    assert!(
        end.files.iter().any(|f| f == "crosstable.png"),
        "{:?}",
        end.files
    );
    // Worked out by hand in tests/support.
    assert_eq!(table_rows(&end.content), support::ROUND_ROBIN_STANDINGS);
    // Pairings list every round with its thread, newest first, for the asker only.
    let r = tournament_cmd(&fake, &carol(), "pairings", json!([])).await;
    assert!(r.is_ephemeral());
    assert!(r.content().starts_with("**Round 5**"), "{}", r.content());
    assert_eq!(r.content().matches(" in <#").count(), 10, "{}", r.content());
    assert!(r.content().len() <= 2000);
    drop(bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pairing_whose_thread_is_refused_is_told_once_and_tried_again_later() {
    use fake_discord::perms;
    let (fake, _data, _bot) = boot_with(0.5, &[]).await;
    let options = json!([
        { "name": "name", "type": 3, "value": "Duel" },
        { "name": "format", "type": 4, "value": 0 },
        { "name": "size", "type": 4, "value": 5 }
    ]);
    tournament_cmd(&fake, &moderator(), "create", options).await;
    for p in ["alice", "bob"] {
        tournament_cmd(&fake, &player(p), "join", json!([])).await;
    }
    // A moderator takes Create Public Threads away after the tournament was made.
    fake.set_bot_permissions(CHANNEL, perms::INVITE & !perms::CREATE_PUBLIC_THREADS);
    tournament_cmd(&fake, &moderator(), "start", json!([])).await;
    let told = news(&fake, "Bredon cannot open the threads for its games here").await;
    assert!(told.content.contains("Missing Permissions") && told.content.contains("<@999>"));
    // Ticks come every half second; the tries do not (the first wait is 2 s), and the channel
    // hears it once.
    let tries = |f: &FakeDiscord| -> Vec<std::time::Instant> {
        f.requests()
            .iter()
            .filter(|r| {
                r.method == "POST" && r.path.ends_with(&format!("/channels/{CHANNEL}/threads"))
            })
            .map(|r| r.at)
            .collect()
    };
    fake.wait_until("the second try", Duration::from_secs(30), |f| {
        tries(f).len() >= 2
    })
    .await;
    let at = tries(&fake);
    let gap = at[1] - at[0];
    assert!(
        gap >= Duration::from_millis(1_900),
        "tried again after {gap:?}, before the first wait of 2 s was over"
    );
    let count = |f: &FakeDiscord| {
        f.messages()
            .iter()
            .filter(|m| m.content.contains("cannot open the threads"))
            .count()
    };
    assert_eq!(count(&fake), 1);
    // Given back, the game starts at the next try.
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    fake.wait_until("the game's thread", Duration::from_secs(30), |f| {
        !f.threads().is_empty()
    })
    .await;
    let thread = fake.threads()[0];
    fake.wait_until("the game announced", Duration::from_secs(10), |f| {
        f.messages()
            .iter()
            .any(|m| m.channel == thread && m.content.contains("Duel, round 1"))
    })
    .await;
    assert_eq!(count(&fake), 1, "told once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_seven_pairs_each_round_when_the_last_game_ends() {
    let (fake, _data, _bot) = boot_with(0.5, &[]).await;
    tournament_cmd(
        &fake,
        &moderator(),
        "create",
        json!([
            { "name": "name", "type": 3, "value": "Cup" },
            { "name": "format", "type": 4, "value": 2 },
            { "name": "rounds", "type": 4, "value": 3 },
            { "name": "size", "type": 4, "value": 5 }
        ]),
    )
    .await;
    for p in ["alice", "bob", "carol", "dave", "erin", "frank", "gina"] {
        tournament_cmd(&fake, &player(p), "join", json!([])).await;
    }
    tournament_cmd(&fake, &moderator(), "start", json!([])).await;
    // The pairings and results of tests/tournament.rs, where they are worked out by hand.
    let rounds: [&[(&str, &str, Option<&str>)]; 3] = [
        &[
            ("alice", "dave", Some("alice")),
            ("erin", "bob", Some("erin")),
            ("carol", "frank", Some("carol")),
        ],
        &[
            ("erin", "alice", None),
            ("gina", "carol", Some("carol")),
            ("dave", "bob", Some("bob")),
        ],
        &[
            ("carol", "alice", Some("carol")),
            ("frank", "erin", Some("erin")),
            ("bob", "gina", None),
        ],
    ];
    for (r, expected) in rounds.iter().enumerate() {
        let games = round_games(&fake, "Cup", r + 1, 3).await;
        for (i, ((thread, white, black), (w, b, winner))) in
            games.iter().zip(expected.iter()).enumerate()
        {
            assert_eq!(
                (white.as_str(), black.as_str()),
                (*w, *b),
                "round {}",
                r + 1
            );
            if r == 2 && *w == "bob" {
                // Gina withdraws mid-game: she loses it by forfeit.
                let out = tournament_cmd(&fake, &player("gina"), "withdraw", json!([])).await;
                says(&out, "gina withdrew from Cup");
                continue;
            }
            decide_in(&fake, *thread, white, black, *winner).await;
            if r < 2 && i + 1 < games.len() {
                // The round waits for its last game: this result is told, no round is paired.
                news(&fake, &format!("Round {}: {white} ", r + 1)).await;
                let next = format!("Round {} of 3", r + 2);
                assert!(fake.messages().iter().all(|m| !m.content.contains(&next)));
                assert_eq!(fake.threads().len(), 3 * (r + 1), "no new game yet");
            }
        }
        // Only the last game of a round pairs the next.
        if r < 2 {
            let next = news(&fake, &format!("Round {} of 3", r + 2)).await;
            assert!(next.files.iter().any(|f| f == "crosstable.png"));
        }
    }
    let end = news(&fake, "Cup is over: carol wins with 3 points.").await;
    assert_eq!(table_rows(&end.content), support::SWISS_STANDINGS);
    // Everyone who played hears the end; the moderator, who did not play, does not.
    let mut pinged: Vec<u64> = fake
        .notifications()
        .iter()
        .filter(|n| n.message == end.id)
        .map(|n| n.user)
        .collect();
    pinged.sort();
    assert_eq!(pinged, vec![111, 222, 333, 444, 555, 666, 777]);
}

/// `/history` numbers the games; `/board`, `/ptn` and `/analyze` take that number, and
/// `/analyze` takes a record pasted on one line, as a PlayTak game is copied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_by_number_and_a_pasted_record() {
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_ANALYSIS_MS", "20")]).await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    ply(&fake, &bob(), "e5").await;
    run(&fake, &bob(), "resign", json!([])).await;
    let r = run(
        &fake,
        &carol(),
        "history",
        json!([{ "name": "user", "type": 6, "value": "111" }]),
    )
    .await;
    let content = r.content();
    let id: u64 = content
        .split_once("\n#")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a numbered game: {content}"));
    let game = json!([{ "name": "game", "type": 4, "value": id }]);
    let r = run(&fake, &carol(), "board", game.clone()).await;
    says(
        &r,
        &format!("Game #{id}, alice vs bob, Tak on 5x5: bob resigns; alice wins (1-0)."),
    );
    assert_eq!(r.pngs().len(), 1, "the final board");
    let r = run(&fake, &carol(), "ptn", game.clone()).await;
    let files = r.files();
    assert!(
        files
            .iter()
            .any(|(n, f)| n == "game.ptn" && String::from_utf8_lossy(f).contains("1. a1 e5\n1-0")),
        "{files:?}"
    );
    let r = run(
        &fake,
        &carol(),
        "board",
        json!([{ "name": "game", "type": 4, "value": id + 1000 }]),
    )
    .await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains(&format!("there is no finished game #{}", id + 1000)),
        "{}",
        r.content()
    );
    let pasted = r#"[Size "3"] [Player1 "ann"] [Player2 "ben"] 1. a3 c1 2. a1 b3 3. b1 R-0"#;
    let r = run(
        &fake,
        &carol(),
        "analyze",
        json!([{ "name": "game", "type": 4, "value": id }, { "name": "ptn", "type": 3, "value": pasted }]),
    )
    .await;
    assert!(
        r.is_ephemeral() && r.content().contains("not both"),
        "{}",
        r.content()
    );
    for options in [game, json!([{ "name": "ptn", "type": 3, "value": pasted }])] {
        let from = fake.requests().len();
        let token = fake.command(&carol(), CHANNEL, "analyze", options);
        // The analysis, or a refusal after the deferral (a follow-up), of this very command.
        let done = fake
            .wait_request(from, "the analysis", |r| {
                r.path.contains(&token)
                    && ((r.method == "PATCH" && r.text().contains("analysis.ptn"))
                        || (r.method == "POST" && r.path.contains("/webhooks/")))
            })
            .await;
        assert_eq!(done.status, 200, "{}", done.text());
        let files = done.files();
        let ptn = &files
            .iter()
            .find(|(n, _)| n == "analysis.ptn")
            .unwrap_or_else(|| panic!("{}", done.text()))
            .1;
        let ptn = String::from_utf8_lossy(ptn);
        assert!(
            ptn.contains("1. a1 e5") || ptn.contains("3. b1"),
            "the game asked for: {ptn}"
        );
    }
}

/// `/vacation start` and `end` through the fake: the player's answer, and each game's channel
/// told with a ping for the opponent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_is_announced_in_every_game_of_the_player() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    let elsewhere = CHANNEL + 1;
    let seen = fake.notifications().len();
    let start = json!([{ "name": "start", "type": 1, "options": [{ "name": "days", "type": 4, "value": 2 }] }]);
    let r = run_with(&fake, elsewhere, &bob(), "vacation", start).await;
    says(&r, "bob is on vacation until ");
    says(&r, "the clocks of 1 game stand still until then");
    fake.wait_until("the game's channel told", Duration::from_secs(5), |f| {
        f.messages()
            .iter()
            .any(|m| m.channel == CHANNEL && m.content.contains("bob is on vacation until"))
    })
    .await;
    assert!(
        notified_since(&fake, seen).contains(&111),
        "alice is pinged in the game's channel"
    );
    let end = json!([{ "name": "end", "type": 1, "options": [] }]);
    let r = run_with(&fake, elsewhere, &bob(), "vacation", end.clone()).await;
    says(
        &r,
        "bob is back: the clocks of 1 game run again; 2 unused days given back.",
    );
    let r = run_with(&fake, elsewhere, &bob(), "vacation", end).await;
    assert!(
        r.is_ephemeral() && r.content().contains("not on vacation"),
        "{}",
        r.content()
    );
}

/// A server's komi per size: set in /settings, offered first while typing komi, and given to
/// challenges that name none; custom pieces through `reserves:`; what pictures leave out, per
/// challenge and per server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_komi_custom_reserves_and_display_options() {
    let (fake, _data, _bot) = boot().await;
    let manager = server_manager();
    let r = run(
        &fake,
        &manager,
        "settings",
        json!([{ "name": "komi", "type": 3, "value": "1.5" }, { "name": "komi_size", "type": 4, "value": 5 }]),
    )
    .await;
    says(&r, "komi 1.5 on 5x5");
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "challenge", "komi", "");
    let first = offered(&fake, from, &token).await.remove(0);
    assert_eq!(
        (first.value.as_str(), first.name.as_str()),
        ("1.5", "1.5 (this server's komi on 5x5)")
    );
    let r = challenge_bob(&fake, json!([{ "name": "size", "type": 4, "value": 5 }])).await;
    says(&r, "Tak on 5x5, komi 1.5");
    run(&fake, &alice(), "cancel", json!([])).await;
    let r = challenge_bob(
        &fake,
        json!([{ "name": "size", "type": 4, "value": 6 }, { "name": "reserves", "type": 3, "value": "40/2,40/2" }]),
    )
    .await;
    says(&r, "Tak on 6x6, komi 0");
    says(&r, "pieces 40/2 for White, 40/2 for Black");
    run(&fake, &alice(), "cancel", json!([])).await;
    let r = challenge_bob(
        &fake,
        json!([{ "name": "reserves", "type": 3, "value": "many" }]),
    )
    .await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("write stones/capstones for White, then Black"),
        "{}",
        r.content()
    );
}
