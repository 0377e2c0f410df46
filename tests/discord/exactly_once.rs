//! Exactly once where an earlier try's answer was lost, and no channel stalled for good: Bredon's
//! own ply made with its answer lost and then four minutes of outage (past Discord's nonce
//! window); a channel refusing with a code Bredon has no row for, for hours, while a game's
//! clocks run; a group DM game whose answer and record were made with their replies lost.

use crate::fake_discord::{perms, FakeDiscord, TestUser};
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

/// A fake Discord whose clock the bot shares, and the bot (logging, its outbox sweeping every
/// 50 ms, Bredon's searches quick), with `env` added.
async fn on_the_virtual_clock(
    env: &[(&str, &str)],
) -> (FakeDiscord, tempfile::TempDir, Vec<(String, String)>, Bot) {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let mut all: Vec<(String, String)> = vec![
        ("BREDON_CLOCK_FILE".into(), clock),
        ("BREDON_OUTBOX_SWEEP_MS".into(), "50".into()),
        ("BREDON_ENGINE_SECS".into(), "0.05".into()),
    ];
    all.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &pairs(&all));
    connected(&fake, 1).await;
    (fake, data, all, bot)
}

fn pairs(env: &[(String, String)]) -> Vec<(&str, &str)> {
    env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// Moves the shared clock on by `seconds` in steps of `step` seconds, letting the outbox sweep
/// after each.
async fn pass(fake: &FakeDiscord, bot: &Bot, seconds: u64, step: u64) {
    for _ in 0..seconds.div_ceil(step) {
        fake.advance(Duration::from_secs(step));
        bot.swept().await;
    }
}

/// alice challenges bob to a game with a day per move and a reminder after an hour, playing
/// White, and bob accepts.
async fn a_day_a_move_reminded_hourly(fake: &FakeDiscord) {
    let options = json!([
        { "name": "opponent", "type": 6, "value": bob().id.to_string() },
        { "name": "seat", "type": 4, "value": 0 },
        { "name": "time", "type": 3, "value": "1d" },
        { "name": "reminder", "type": 3, "value": "1h" }
    ]);
    run(fake, &alice(), "challenge", options).await;
    press(fake, &bob(), "bredon:accept").await;
}

/// `/move ply:` by `user`, without waiting for Bredon's answer.
fn move_blind(fake: &FakeDiscord, user: &TestUser, ply: &str) {
    let options = json!([{ "name": "ply", "type": 3, "value": ply }]);
    fake.command(user, CHANNEL, "move", options);
}

/// alice plays Bredon. Every message Bredon makes for a while is made but its answer lost
/// (alice's ply, then Bredon's own), then every message-making request fails for four minutes:
/// past the nonce's window, only a look finds what the first tries made. Each ply is announced
/// once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bredons_ply_made_with_its_answer_lost_then_four_minutes_of_outage_is_announced_once() {
    bredons_ply_lost_then_an_outage(false).await;
}

/// The same when the outage fails every request, the looks at the channel's messages too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bredons_ply_lost_then_four_minutes_of_every_request_failing_is_announced_once() {
    bredons_ply_lost_then_an_outage(true).await;
}

async fn bredons_ply_lost_then_an_outage(every_request: bool) {
    let (fake, data, env, bot) = on_the_virtual_clock(&[]).await;
    alice_plays_bredon(&fake, 0, 5).await;
    fake.lossy(Duration::from_secs(3600), 1);
    move_blind(&fake, &alice(), "a1");
    fake.wait_until("Bredon's ply made", Duration::from_secs(30), |f| {
        said_in(f, CHANNEL, "Bredon played") == 1
    })
    .await;
    let lost = fake.requests().iter().filter(|r| r.status == 503).count();
    assert!(
        lost >= 2,
        "alice's answer and Bredon's post were lost ({lost})"
    );
    fake.lossy(Duration::ZERO, 1);
    fake.outage(Duration::from_secs(240));
    if every_request {
        fake.outage_of("/api/", Duration::from_secs(240));
    }
    pass(&fake, &bot, 250, 10).await;
    bot.swept().await;
    assert_eq!(outbox_after(&fake, data.path(), &pairs(&env), bot).await, 0);
    assert_eq!(
        said_in(&fake, CHANNEL, "alice played a1"),
        1,
        "alice's ply once"
    );
    assert_eq!(
        said_in(&fake, CHANNEL, "Bredon played"),
        1,
        "Bredon's ply once"
    );
}

/// A game with a day per move and a reminder after an hour; bob is to move when the channel
/// starts refusing every post with a code Bredon has no row for (99999), for three hours. The
/// reminder is held, then passed over and sent to bob by direct message within the hour; the
/// game goes on in answers, and alice's reminder, later in the same channel, goes to her at once
/// rather than waiting behind. The operator is told of the code once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_refusing_with_an_unknown_code_for_hours_tells_the_player_to_move_by_dm() {
    let (fake, data, env, bot) = on_the_virtual_clock(&[]).await;
    a_day_a_move_reminded_hourly(&fake).await;
    says(&ply(&fake, &alice(), "a1").await, "bob to move");
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.refuse_for(&posts, 400, 99999, Duration::from_secs(3 * 3600));
    let reminded = |f: &FakeDiscord, user: &TestUser| {
        f.direct_messages(user.id)
            .iter()
            .filter(|m| m.content.contains("it is your move") && m.content.contains("code 99999"))
            .count()
    };
    // The reminder falls due after an hour and is refused; within the next hour bob hears it.
    pass(&fake, &bot, 61 * 60, 61 * 60).await;
    let mut waited = Duration::ZERO;
    while reminded(&fake, &bob()) == 0 {
        assert!(
            waited < Duration::from_secs(3600),
            "bob never told within the hour"
        );
        pass(&fake, &bot, 300, 300).await;
        waited += Duration::from_secs(300);
    }
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.path.ends_with(&posts) && r.status == 400),
        "the channel was tried first"
    );
    // bob plays by his answer (interactions are not the channel's posts); alice's reminder an
    // hour later goes to her after one refused try, not after another hold.
    says(&ply(&fake, &bob(), "e5").await, "alice to move");
    pass(&fake, &bot, 61 * 60, 61 * 60).await;
    fake.wait_until("alice told", Duration::from_secs(30), |f| {
        reminded(f, &alice()) == 1
    })
    .await;
    assert_eq!(reminded(&fake, &bob()), 1, "bob told once");
    assert_eq!(
        bot.log_count(&["a code Bredon does not know"]),
        1,
        "{}",
        bot.log()
    );
    assert_eq!(outbox_after(&fake, data.path(), &pairs(&env), bot).await, 0);
}

/// In a group DM, where Bredon only answers, bob resigns: the answer is made and its reply
/// lost, then the record with the series line is written into that answer and its reply lost,
/// then every message-making request fails for five minutes. The resignation, the series line
/// and the record each stand once, and nothing was posted to the channel. (With the record a
/// follow-up, as it was, the series line stood twice.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_dm_game_ended_with_its_answer_and_record_lost_then_an_outage_says_each_once() {
    let (fake, data, env, bot) = on_the_virtual_clock(&[("DISCORD_GUILD_ID", "")]).await;
    // Both installed Bredon, so both may use its commands there.
    fake.install_for_user(&alice());
    fake.install_for_user(&bob());
    let dm = fake.group_dm(&[&alice(), &bob()]);
    let options = json!([
        { "name": "opponent", "type": 6, "value": bob().id.to_string() },
        { "name": "size", "type": 4, "value": 5 },
        { "name": "seat", "type": 4, "value": 0 }
    ]);
    says(
        &run_with(&fake, dm, &alice(), "challenge", options).await,
        "alice challenges bob",
    );
    press_in(&fake, dm, &bob(), "bredon:accept").await;
    let a1 = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    says(
        &run_with(&fake, dm, &alice(), "move", a1).await,
        "bob to move",
    );
    fake.lose_next_answer("/callback", 503);
    fake.lose_next_answer("PATCH /api/v10/webhooks/", 503);
    fake.command(&bob(), dm, "resign", json!([]));
    fake.wait_until("the record made", Duration::from_secs(30), |f| {
        lines_in(f, dm, "Series after 1 game") == 1
    })
    .await;
    let lost = fake.requests().iter().filter(|r| r.status == 503).count();
    assert_eq!(lost, 2, "the answer's reply and the record's");
    fake.outage(Duration::from_secs(300));
    pass(&fake, &bot, 310, 10).await;
    assert_eq!(outbox_after(&fake, data.path(), &pairs(&env), bot).await, 0);
    for line in ["bob resigns", "Series after 1 game"] {
        assert_eq!(
            lines_in(&fake, dm, line),
            1,
            "{line}: {:#?}",
            fake.messages()
        );
    }
    assert_eq!(attached(&fake, dm, "game.ptn"), 1, "the record once");
    let posts = format!("/channels/{dm}/messages");
    assert!(!fake.requests().iter().any(|r| r.path.ends_with(&posts)));
}

/// How many lines of the messages standing in `channel` hold `text`.
fn lines_in(fake: &FakeDiscord, channel: u64, text: &str) -> usize {
    let messages = fake.messages().into_iter();
    let standing = messages.filter(|m| m.channel == channel && !m.deleted);
    let contents: Vec<String> = standing.map(|m| m.content).collect();
    contents
        .iter()
        .flat_map(|c| c.lines())
        .filter(|line| line.contains(text))
        .count()
}

/// How many messages standing in `channel` carry a file named `name`.
fn attached(fake: &FakeDiscord, channel: u64, name: &str) -> usize {
    let messages = fake.messages().into_iter();
    let standing = messages.filter(|m| m.channel == channel && !m.deleted);
    standing
        .filter(|m| m.files.iter().any(|f| f == name))
        .count()
}

/// A game with a day per move and a reminder after an hour; bob is to move when Bredon loses
/// Send Messages in the game's channel. The reminder falls due and is refused; it stays owed
/// to the channel, and once it has waited an hour bob hears it by direct message, once, with
/// why it is not in the channel (the next hour's reminder waits behind it, untried). Given the
/// permission back, the channel gets both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_a_channel_refuses_for_an_hour_goes_to_the_player_by_dm() {
    let (fake, data, env, bot) = on_the_virtual_clock(&[]).await;
    a_day_a_move_reminded_hourly(&fake).await;
    says(&ply(&fake, &alice(), "a1").await, "bob to move");
    fake.set_bot_permissions(CHANNEL, perms::VIEW_CHANNEL);
    let told = |f: &FakeDiscord| {
        f.direct_messages(bob().id)
            .iter()
            .filter(|m| m.content.contains("it is your move") && m.content.contains("permission"))
            .count()
    };
    pass(&fake, &bot, 61 * 60, 61 * 60).await;
    let posts = format!("/channels/{CHANNEL}/messages");
    let refused = |f: &FakeDiscord| {
        f.requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path.ends_with(&posts) && r.status == 403)
            .count()
    };
    fake.wait_until("the reminder refused", Duration::from_secs(30), |f| {
        refused(f) > 0
    })
    .await;
    assert_eq!(told(&fake), 0, "not before it waited an hour");
    pass(&fake, &bot, 50 * 60, 300).await;
    assert_eq!(told(&fake), 0, "not before it waited an hour");
    let mut waited = Duration::ZERO;
    while told(&fake) == 0 {
        assert!(waited < Duration::from_secs(1800), "bob never told");
        pass(&fake, &bot, 300, 300).await;
        waited += Duration::from_secs(300);
    }
    // Later tries of the channel tell him nothing more.
    pass(&fake, &bot, 30 * 60, 300).await;
    assert_eq!(told(&fake), 1, "told once");
    fake.set_bot_permissions(CHANNEL, perms::INVITE);
    pass(&fake, &bot, 10 * 60, 60).await;
    assert_eq!(outbox_after(&fake, data.path(), &pairs(&env), bot).await, 0);
    // The channel gets each hour's reminder, once.
    for hours in ["no ply for 1 h", "no ply for 2 h"] {
        assert_eq!(said_in(&fake, CHANNEL, hours), 1, "{hours}");
    }
}

/// A game between people where every message Bredon makes for an hour is made but its answer
/// lost, then four minutes of outage (past the nonce's window): each kind of post that carries
/// a nonce, or is looked for, stands once: the answers to /move, the direct messages of a turn,
/// a reminder, the resignation and its record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_post_made_with_its_answer_lost_then_an_outage_stands_once() {
    let (fake, data, env, bot) = on_the_virtual_clock(&[]).await;
    for user in [alice(), bob()] {
        let dm = json!([{ "name": "dm", "type": 5, "value": true }]);
        says(&run(&fake, &user, "notify", dm).await, "Direct messages");
    }
    a_day_a_move_reminded_hourly(&fake).await;
    fake.lossy(Duration::from_secs(6 * 3600), 1);
    move_blind(&fake, &alice(), "a1");
    fake.wait_until("a1", Duration::from_secs(30), |f| {
        said_in(f, CHANNEL, "alice played a1") == 1
    })
    .await;
    pass(&fake, &bot, 20, 5).await;
    move_blind(&fake, &bob(), "e5");
    fake.wait_until("e5", Duration::from_secs(30), |f| {
        said_in(f, CHANNEL, "bob played e5") == 1
    })
    .await;
    pass(&fake, &bot, 61 * 60, 300).await;
    fake.wait_until("the reminder", Duration::from_secs(30), |f| {
        said_in(f, CHANNEL, "no ply for 1 h") == 1
    })
    .await;
    fake.command(&bob(), CHANNEL, "resign", json!([]));
    // Left to the outbox after its answer was lost, the record waits on the shared clock.
    for _ in 0..60 {
        if attached(&fake, CHANNEL, "game.ptn") == 1 {
            break;
        }
        pass(&fake, &bot, 5, 5).await;
    }
    assert_eq!(attached(&fake, CHANNEL, "game.ptn"), 1, "the record made");
    let lost = fake.requests().iter().filter(|r| r.status == 503).count();
    assert!(lost >= 6, "answers lost: {lost}");
    fake.lossy(Duration::ZERO, 1);
    fake.outage(Duration::from_secs(240));
    pass(&fake, &bot, 250, 10).await;
    assert_eq!(outbox_after(&fake, data.path(), &pairs(&env), bot).await, 0);
    for text in [
        "alice played a1",
        "bob played e5",
        "no ply for 1 h",
        "bob resigns",
    ] {
        assert_eq!(said_in(&fake, CHANNEL, text), 1, "{text}");
    }
    assert_eq!(attached(&fake, CHANNEL, "game.ptn"), 1, "the record");
    for (user, turns) in [(bob(), 1), (alice(), 1)] {
        let dms = fake.direct_messages(user.id);
        let mut texts: Vec<String> = dms.into_iter().map(|m| m.content).collect();
        let all = texts.len();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), all, "{}: {texts:#?}", user.name);
        assert!(all >= turns, "{} told of the turn: {texts:#?}", user.name);
    }
}
