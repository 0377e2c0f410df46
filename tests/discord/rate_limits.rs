//! Discord's rate limits through the limiter production runs (the gate, `src/bot/gate/`): a
//! global 429 holds every request of the process back once, and a 429 longer than a request
//! may wait is handed back and tried again after it, never posting anything twice.

use crate::harness::*;
use std::time::Duration;

/// Games in `channels` between alice and bob with a reminder an hour after each move, their
/// first messages posted already.
fn games_with_reminders(data: &std::path::Path, channels: &[u64]) {
    with_service(data, |s| {
        for &channel in channels {
            let options = bredon::service::ChallengeOptions {
                opponent: Some(bredon::store::records::PlayerRef {
                    id: bob().id,
                    name: "bob".into(),
                }),
                seat: bredon::store::records::Seat::White,
                reminder: Some("1h".into()),
                ..Default::default()
            };
            s.challenge(&sctx(&alice(), channel), &options).unwrap();
            s.accept(&sctx(&bob(), channel)).unwrap();
        }
        posted_earlier(s);
    });
}

fn reminders_in(fake: &crate::fake_discord::FakeDiscord, channel: u64) -> usize {
    said_in(fake, channel, "it is your move")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_global_429_holds_every_request_back_once_and_then_all_go() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let channels: Vec<u64> = (0..6).map(|i| CHANNEL + i).collect();
    games_with_reminders(data.path(), &channels);
    let env = [("BREDON_CLOCK_FILE", clock.as_str())];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 1).await;
    // The first reminder's post meets a global limit of 4 s; the five others are due with it.
    fake.rate_limit_for(None, "/messages", Duration::from_secs(4), true);
    fake.advance(Duration::from_secs(61 * 60));
    fake.wait_until("six reminders", Duration::from_secs(60), |f| {
        channels.iter().all(|&c| reminders_in(f, c) == 1)
    })
    .await;
    assert_eq!(
        fake.rate_limited(),
        1,
        "only the first request met the limit: the others waited for its end"
    );
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    for &channel in &channels {
        assert_eq!(reminders_in(&fake, channel), 1, "channel {channel}: once");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_route_429_longer_than_a_request_may_wait_is_tried_again_after_it_and_posts_once() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let (held, free) = (CHANNEL, CHANNEL + 1);
    games_with_reminders(data.path(), &[held, free]);
    let env = [("BREDON_CLOCK_FILE", clock.as_str())];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 1).await;
    // Four minutes on one channel's route: far longer than a request may wait.
    let route = format!("/channels/{held}/messages");
    fake.rate_limit_for(None, &route, Duration::from_secs(240), false);
    fake.advance(Duration::from_secs(61 * 60));
    fake.wait_until(
        "the free channel's reminder",
        Duration::from_secs(30),
        |f| reminders_in(f, free) == 1,
    )
    .await;
    bot.logged(&["rate-limits Bredon for longer than a request may wait"])
        .await;
    // Tries within the wait are held at the gate: Discord saw the one 429 only.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(reminders_in(&fake, held), 0, "not before the limit's end");
    assert_eq!(
        fake.rate_limited(),
        1,
        "Discord saw one request in the wait"
    );
    fake.advance(Duration::from_secs(240));
    fake.wait_until(
        "the held channel's reminder",
        Duration::from_secs(60),
        |f| reminders_in(f, held) == 1,
    )
    .await;
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(reminders_in(&fake, held), 1, "posted once");
}
