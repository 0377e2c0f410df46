//! The daily digest (`/notify digest:`): one direct message at the player's hour listing the
//! games where it is their move, once across a restart, none on a day with nothing waiting.

use crate::fake_discord::{self, FakeDiscord, TestUser};
use crate::harness::{self, *};
use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::records::{PlayerRef, Seat};
use serde_json::json;
use std::time::Duration;

const HOUR_MS: i64 = 3_600_000;

fn digests(fake: &FakeDiscord) -> Vec<String> {
    fake.direct_messages(alice().id)
        .into_iter()
        .map(|m| m.content)
        .filter(|c| c.contains("daily digest"))
        .collect()
}

/// Starts a game in `channel` where alice (White) is to move, against `opponent`.
fn game_for_alice(service: &Service, channel: u64, opponent: &TestUser, now_ms: i64) {
    let ctx = |u: &TestUser| Ctx {
        guild: fake_discord::GUILD_ID,
        channel,
        user: PlayerRef {
            id: u.id,
            name: u.name.clone(),
        },
        now_ms,
        moderator: false,
        request: None,
    };
    let options = ChallengeOptions {
        opponent: Some(PlayerRef {
            id: opponent.id,
            name: opponent.name.clone(),
        }),
        seat: Seat::White,
        ..Default::default()
    };
    service.challenge(&ctx(&alice()), &options).unwrap();
    service.accept(&ctx(opponent)).unwrap();
}

/// Lets the bot's timers run a few times at the clock's time now.
async fn ticks(bot: &Bot) {
    let seen = bot.log_count(&["timers checked"]);
    bot.logged_times(&["timers checked"], seen + 4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_digest_comes_once_at_its_hour_and_not_when_nothing_waits() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let channels = [CHANNEL, CHANNEL + 1, CHANNEL + 2];
    {
        let service = Service::new(bredon::store::Store::open(data.path()).unwrap());
        for (channel, opponent) in channels.iter().zip([bob(), carol(), bob()]) {
            game_for_alice(&service, *channel, &opponent, now_ms());
        }
        // In carol's game, a ply each: alice's move again.
        let ctx = |u: &TestUser| harness::sctx(u, channels[1]);
        service.play(&ctx(&alice()), "a1").unwrap();
        service.play(&ctx(&carol()), "e5").unwrap();
    }
    let env = [("BREDON_CLOCK_FILE", clock.as_str())];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 1).await;
    // Two hours from now, on the hour (UTC).
    let bot_now = |f: &FakeDiscord| now_ms() + f.advanced_ms();
    let hour = (bot_now(&fake).div_euclid(HOUR_MS) + 2).rem_euclid(24);
    let option = json!([{ "name": "digest", "type": 3, "value": hour.to_string() }]);
    let r = run(&fake, &alice(), "notify", option).await;
    says(&r, &format!("Daily digest: at {hour:02}:00 UTC"));
    let r = run(
        &fake,
        &alice(),
        "notify",
        json!([{ "name": "digest", "type": 3, "value": "25" }]),
    )
    .await;
    says(&r, "0 to 23 (e.g. 18), or off");
    ticks(&bot).await;
    assert!(digests(&fake).is_empty(), "nothing before the hour");
    let to_hour = HOUR_MS - bot_now(&fake).rem_euclid(HOUR_MS) + HOUR_MS + 30_000;
    fake.advance(Duration::from_millis(to_hour as u64));
    fake.wait_until("the digest", Duration::from_secs(20), |f| {
        digests(f).len() == 1
    })
    .await;
    let digest = digests(&fake).remove(0);
    assert!(digest.starts_with("Your move in 3 games"), "{digest}");
    for channel in channels {
        assert!(digest.contains(&format!("<#{channel}> vs ")), "{digest}");
    }
    assert!(digest.contains("vs carol · played e5 <t:"), "{digest}");
    assert!(digest.contains("vs bob · started <t:"), "{digest}");
    // A restart within the hour sends nothing more.
    let bot = restarted_logging_with(&fake, bot, data.path(), &env, 2).await;
    ticks(&bot).await;
    assert_eq!(digests(&fake).len(), 1, "one digest across the restart");
    // alice moves everywhere: the next day, nothing waits and nothing is sent.
    for channel in channels {
        let from = fake.requests().len();
        let ply = json!([{ "name": "ply", "type": 3, "value": "c3" }]);
        let token = fake.command(&alice(), channel, "move", ply);
        says(&answer(&fake, from, &token).await, "alice played c3.");
    }
    fake.advance(Duration::from_millis(24 * HOUR_MS as u64));
    ticks(&bot).await;
    // Counted once nothing more can come: the bot stopped and the outbox read empty.
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(digests(&fake).len(), 1, "no digest when nothing waits");
}

/// A digest waits in its reader's own queue: one whose longest-waiting game is in a channel
/// Bredon can no longer see (its messages there stuck) still arrives. A reader whose direct
/// messages are closed is told once, in that game's channel, and the digest is turned off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_digest_passes_a_hidden_channel_and_closed_dms_turn_it_off() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    {
        let service = Service::new(bredon::store::Store::open(data.path()).unwrap());
        game_for_alice(&service, CHANNEL, &bob(), now_ms() - HOUR_MS);
        game_for_alice(&service, CHANNEL + 1, &carol(), now_ms());
    }
    // The longest-waiting game's channel is hidden from Bredon: its own news there wait.
    fake.set_bot_permissions(CHANNEL, 0);
    let env = [("BREDON_CLOCK_FILE", clock.as_str())];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 1).await;
    let bot_now = |f: &FakeDiscord| now_ms() + f.advanced_ms();
    let hour = (bot_now(&fake).div_euclid(HOUR_MS) + 2).rem_euclid(24);
    let option = json!([{ "name": "digest", "type": 3, "value": hour.to_string() }]);
    says(
        &run_with(&fake, CHANNEL + 1, &alice(), "notify", option).await,
        "Daily digest",
    );
    // Its first try fails on the way (Discord's 503 opening the DM channel): the outbox takes
    // it over.
    fake.fail_next("/users/@me/channels", 503);
    let to_hour = HOUR_MS - bot_now(&fake).rem_euclid(HOUR_MS) + HOUR_MS + 30_000;
    fake.advance(Duration::from_millis(to_hour as u64));
    fake.wait_until("the digest", Duration::from_secs(20), |f| {
        digests(f).len() == 1
    })
    .await;
    assert!(digests(&fake)[0].contains(&format!("<#{CHANNEL}> vs bob")));
    let refused = fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/users/@me/channels") && r.status == 503)
        .count();
    assert_eq!(refused, 1, "the first try failed");
    // The channel is visible again, and alice closes her direct messages: the next day's
    // digest is refused, alice is told once in the game's channel, and the digest is off.
    fake.set_bot_permissions(CHANNEL, fake_discord::perms::INVITE);
    fake.close_dms(alice().id);
    let told = |f: &FakeDiscord| said_in(f, CHANNEL, "cannot send you direct messages");
    fake.advance(Duration::from_millis(24 * HOUR_MS as u64));
    fake.wait_until("alice told", Duration::from_secs(30), |f| told(f) == 1)
        .await;
    let r = run_with(&fake, CHANNEL + 1, &alice(), "notify", json!([])).await;
    says(&r, "Daily digest: off");
    fake.advance(Duration::from_millis(24 * HOUR_MS as u64));
    ticks(&bot).await;
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(told(&fake), 1, "told once");
    assert_eq!(digests(&fake).len(), 1, "no digest once they are off");
}
