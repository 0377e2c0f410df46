//! A game from challenge to road and to flats: pictures, refusals, autocomplete, racing plies, a
//! failing REST call, a restart mid-game, a dropped gateway, a reminder.

use crate::fake_discord::{self, FakeDiscord, TestUser};
use crate::harness::*;
use serde_json::json;
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
    // What belongs to a server is installed with it and used there only; the rest is
    // installable by a user too, and used anywhere: servers, the DM with Bredon, private
    // channels (interactions/application-commands, "Installation Context", "Interaction
    // Contexts").
    for c in registration.json().as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let server_only = [
            "settings",
            "tournament",
            "vacation",
            "bid",
            "wallet",
            "games",
            "abort",
        ];
        let (installs, contexts) = match server_only.contains(&name) {
            true => (json!([0]), json!([0])),
            false => (json!([0, 1]), json!([0, 1, 2])),
        };
        assert_eq!(c["integration_types"], installs, "{name}");
        assert_eq!(c["contexts"], contexts, "{name}");
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
    let _bot = restarted(&fake, bot, data.path(), 2).await; // SIGKILL
                                                            // Killed before a1's letter was done, the restarted bot answers bob's e5 at once when its
                                                            // outbox has made sure a1 went out; if not yet, bob is told privately and e5 follows a1.
    let r = ply(&fake, &bob(), "e5").await;
    announced(&fake, CHANNEL, &r, "bob played e5. alice to move").await;
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
        // Their messages count as delivered long ago: a reminder never overtakes what its
        // channel is still owed, and this test is about the reminder alone.
        for owed in service.deliveries().unwrap() {
            service.delivered(owed.letter.id).unwrap();
        }
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

/// A `/move` crosses from the bot to the service at most twice, whatever its path: its action,
/// and one step that ends its delivery, where the announcement, the direct message handed over
/// to the next player's own queue, the record and the board's message are told to the store
/// together. Each delivery logs its steps into the store, taken after the action's one; tried
/// answered at once, then deferred (the letter says so from its making).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_crosses_to_the_service_twice_on_every_path() {
    for defer_ms in ["60000", "0"] {
        let env = [("BREDON_DEFER_MS", defer_ms)];
        let (fake, data, bot) = boot_logging_with(&env).await;
        start_game(&fake).await;
        // The challenge and the game's start, delivered (by their handlers or the outbox)
        // before the moves are counted.
        let delivered =
            |bot: &Bot| bot.log_count(&["outcome posted"]) + bot.log_count(&["owed outcome"]);
        let started = async {
            while delivered(&bot) < 2 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        let waited = tokio::time::timeout(Duration::from_secs(30), started).await;
        waited.expect("the game's start delivered");
        let on = json!([{ "name": "dm", "type": 5, "value": true }]);
        assert!(run(&fake, &bob(), "notify", on).await.is_ephemeral());
        let before = bot.log_count(&["outcome posted"]);
        for (player, text) in [(alice(), "a1"), (bob(), "e5"), (alice(), "b1")] {
            let answered = ply(&fake, &player, text).await;
            says(&answered, &format!("played {text}"));
        }
        let resigned = run(&fake, &bob(), "resign", json!([])).await;
        says(&resigned, "bob resigns");
        bot.logged_times(&["outcome posted"], before + 4).await;
        let steps: Vec<String> = bot
            .log()
            .lines()
            .filter(|l| l.contains("outcome posted"))
            .skip(before)
            .map(|l| l.split_whitespace().last().unwrap_or_default().to_string())
            .collect();
        assert_eq!(steps, ["store_steps=1"; 4], "BREDON_DEFER_MS={defer_ms}");
        fake.wait_until("bob's direct messages", Duration::from_secs(30), |f| {
            f.direct_messages(bob().id).len() >= 2
        })
        .await;
        assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
        assert_eq!(fake.direct_messages(bob().id).len(), 2, "a1 and b1");
    }
}
