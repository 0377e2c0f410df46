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
    drop(bot);
    fake.wait_until("the bot to stop", Duration::from_secs(10), |f| {
        !f.connected()
    })
    .await;
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 2).await;
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
    assert_eq!(digests(&fake).len(), 1, "no digest when nothing waits");
}
