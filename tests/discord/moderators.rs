//! A moderator's hand on a game's channel: a thread locked and unlocked. Only a channel that is
//! gone stops a game's clocks; what Bredon owes a closed one waits for it to open again, and a
//! turn it has held for an hour goes to the player by direct message meanwhile.

use crate::harness::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_locked_for_two_hours_keeps_the_clocks_and_gets_what_waited() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    let env = [("BREDON_CLOCK_FILE", clock.as_str())];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 1).await;
    challenge_bob(
        &fake,
        json!([
            { "name": "seat", "type": 4, "value": 0 },
            { "name": "thread", "type": 5, "value": true },
            { "name": "time", "type": 3, "value": "1d" },
            { "name": "reminder", "type": 3, "value": "1h" },
        ]),
    )
    .await;
    let thread = *fake.threads().last().expect("a thread for the game");
    press_in(&fake, thread, &bob(), "bredon:accept").await;
    // A moderator locks the thread to stop a quarrel; alice's reminder falls due an hour later,
    // and Discord refuses it there (400, 50083).
    fake.lock_thread(thread);
    bot.logged(&["game thread locked by a moderator"]).await;
    let posts = format!("/channels/{thread}/messages");
    let from = fake.requests().len();
    fake.advance(Duration::from_secs(61 * 60));
    let refused = fake
        .wait_request(from, "the reminder, refused", |r| {
            r.path.ends_with(&posts) && r.status == 400
        })
        .await;
    assert!(
        refused.content().contains("it is your move"),
        "{}",
        refused.content()
    );
    fake.advance(Duration::from_secs(59 * 60));
    assert_eq!(said_in(&fake, thread, "it is your move"), 0);
    // Refused for an hour, the reminder goes to alice by direct message meanwhile, saying why
    // (the next hour's reminder falls due meanwhile, and waits behind it).
    fake.advance(Duration::from_secs(5 * 60));
    let told = |f: &crate::fake_discord::FakeDiscord| {
        let dms = f.direct_messages(alice().id);
        let told = dms.iter().filter(|m| m.content.contains("it is your move"));
        told.filter(|m| m.content.contains("a moderator locked"))
            .count()
    };
    fake.wait_until("alice told", Duration::from_secs(30), |f| told(f) == 1)
        .await;
    // Unlocked two hours on (still archived): Bredon reopens it and the reminders go out.
    fake.unlock_thread(thread);
    fake.wait_until("the reminders", Duration::from_secs(30), |f| {
        said_in(f, thread, "it is your move") == 2
    })
    .await;
    assert!(!fake.thread_archived(thread), "reopened");
    // The clocks ran all along: alice's day runs out at its time, told in the thread (the
    // reminders due meanwhile are overtaken by it, and not posted).
    fake.advance(Duration::from_secs(22 * 3600 + 60));
    fake.wait_until("the time-out", Duration::from_secs(30), |f| {
        said_in(f, thread, "ran out of time") == 1
    })
    .await;
    assert_eq!(told(&fake), 1, "alice told once");
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    for hours in ["no ply for 1 h", "no ply for 2 h"] {
        assert_eq!(said_in(&fake, thread, hours), 1, "{hours}");
    }
    assert_eq!(said_in(&fake, thread, "ran out of time"), 1, "one time-out");
}
