//! Discord's refusals, each decided by its JSON code (`src/bot/delivery/failure.rs`): a code Bredon has
//! no row for keeps what is owed; an address Discord would refuse in every link stops the start.

use crate::harness::*;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bredon_run_refuses_a_web_address_without_a_scheme() {
    let fake = start_fake().await;
    let (status, stderr) = run_until_it_stops(&fake, &[("BREDON_WEB_URL", "tak.example")]).await;
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("BREDON_WEB_URL") && stderr.contains("https://"),
        "{stderr}"
    );
    assert_eq!(fake.identifies(), 0, "refused before connecting");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_with_an_unknown_code_keeps_the_message_and_tells_the_operator_once() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    let clock = fake.share_clock(data.path());
    games_with_reminders(data.path(), &[CHANNEL]);
    let env = [("BREDON_CLOCK_FILE", clock.as_str())];
    let bot = start_bot_logging_with(&fake, data.path(), 0.2, &env);
    connected(&fake, 1).await;
    // Discord refuses alice's reminder twice with a code no row of Bredon's table names.
    let posts = format!("/channels/{CHANNEL}/messages");
    fake.refuse_next(&posts, 400, 99_999);
    fake.refuse_next(&posts, 400, 99_999);
    fake.advance(Duration::from_secs(61 * 60));
    let reminders = |f: &crate::fake_discord::FakeDiscord| {
        f.messages()
            .iter()
            .filter(|m| m.channel == CHANNEL && m.content.contains("it is your move"))
            .count()
    };
    fake.wait_until(
        "the reminder, kept and posted",
        Duration::from_secs(30),
        |f| reminders(f) == 1,
    )
    .await;
    let refused = fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with(&posts) && r.status == 400)
        .count();
    assert_eq!(refused, 2, "refused twice, then posted");
    assert_eq!(
        bot.log_count(&["a code Bredon does not know", "99999"]),
        1,
        "{}",
        bot.log()
    );
    assert_eq!(outbox_after(&fake, data.path(), &env, bot).await, 0);
    assert_eq!(reminders(&fake), 1, "posted once");
}
