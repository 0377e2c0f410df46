//! Order and queues: what one channel or one reader is owed holds nothing else back, and
//! nothing overtakes what a channel is still owed. A player's direct message waits in the
//! player's own queue; a ply of Bredon's waits behind the ply it answers.

use crate::fake_discord::FakeDiscord;
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

/// A player's direct message is a letter of its own, in the player's queue: while Discord
/// cannot open bob's DM channel, the game's letters go on without it. Alice's a1 owes bob a
/// direct message; bob's e5 is answered by the outbox (its answer failed), which finds no
/// letter of a1's still waiting in the channel ahead of it. Once Discord is back, bob gets the
/// direct message once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_message_held_by_an_outage_holds_nothing_of_its_game() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    let on = json!([{ "name": "dm", "type": 5, "value": true }]);
    assert!(run(&fake, &bob(), "notify", on).await.is_ephemeral());
    fake.outage_of("/users/@me/channels", Duration::from_secs(600));
    says(&ply(&fake, &alice(), "a1").await, "alice played a1");
    fake.fail_next("/callback", 503);
    let options = json!([{ "name": "ply", "type": 3, "value": "e5" }]);
    fake.command(&bob(), CHANNEL, "move", options);
    fake.wait_until("bob's e5 from the outbox", Duration::from_secs(30), |f| {
        said_in(f, CHANNEL, "bob played e5") == 1
    })
    .await;
    assert!(
        fake.direct_messages(bob().id).is_empty(),
        "the direct message still waits for Discord"
    );
    fake.advance(Duration::from_secs(601));
    fake.wait_until("bob's direct message", Duration::from_secs(60), |f| {
        !f.direct_messages(bob().id).is_empty()
    })
    .await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    let dms = fake.direct_messages(bob().id);
    assert_eq!(dms.len(), 1, "once");
    let link = format!("It is your move in <#{CHANNEL}>: https://discord.com/channels/");
    assert!(dms[0].content.contains(&link), "{}", dms[0].content);
}

/// Messages keep their order in a channel: alice's ply against Bredon is left to the outbox (its
/// answer failed, and the outbox cannot yet ask whether it went out), and Bredon's reply, ready
/// at once, waits behind it instead of overtaking it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bredons_reply_never_overtakes_the_ply_it_answers() {
    let (fake, data, bot) = boot().await;
    alice_plays_bredon(&fake, 1, 5).await;
    alices_a1_left_to_the_outbox(&fake);
    fake.wait_until("Bredon's reply", Duration::from_secs(60), |f| {
        said_in(f, CHANNEL, "Bredon played") == 1
    })
    .await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    let order = said_in_order(&fake, &["alice played a1", "Bredon played"]);
    assert_eq!(order.len(), 2, "{order:?}");
    assert!(order[0].contains("alice played a1"), "{order:?}");
}

/// An interaction's answer never overtakes what its channel is owed either: alice's a1 is left
/// to the outbox (its answer failed, and the outbox cannot yet ask whether it went out); bob's
/// e5, played meanwhile, is stored and bob is told privately that it waits, since a public
/// answer (even "thinking") would stand above alice's ply, and nothing more (not that Discord
/// did not take the message: it is stored, and goes in its turn). The outbox posts both in
/// order, and bob's pings alice once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_answer_waits_behind_what_the_channel_is_owed() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    alices_a1_left_to_the_outbox(&fake);
    fake.wait_request(0, "alice's answer, failing", |r| {
        r.path.ends_with("/callback") && r.status == 503
    })
    .await;
    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let options = json!([{ "name": "ply", "type": 3, "value": "e5" }]);
    let token = fake.command(&bob(), CHANNEL, "move", options);
    let told = answer(&fake, from, &token).await;
    assert!(told.is_ephemeral(), "{}", told.content());
    says(&told, "Bredon posts the answer after them, in order");
    fake.wait_until("both plies", Duration::from_secs(60), |f| {
        said_in(f, CHANNEL, "bob played e5") == 1
    })
    .await;
    assert_eq!(outbox_after(&fake, data.path(), &[], bot).await, 0);
    let order = said_in_order(&fake, &["played"]);
    assert_eq!(order.len(), 2, "{order:?}");
    assert!(order[0].contains("alice played a1"), "{order:?}");
    assert!(order[1].contains("bob played e5"), "{order:?}");
    let alice_pinged = notified_since(&fake, seen)
        .into_iter()
        .filter(|&id| id == alice().id)
        .count();
    assert_eq!(alice_pinged, 1, "alice is pinged once for her move");
    let hook = format!("/webhooks/{}/{token}", crate::fake_discord::APP_ID);
    let followups: Vec<String> = fake
        .requests()
        .iter()
        .skip(from)
        .filter(|r| r.method == "POST" && r.path.contains(&hook))
        .map(|r| r.content())
        .collect();
    assert!(
        followups.is_empty(),
        "bob hears of his e5 once, privately: {followups:?}"
    );
}

/// alice plays a1, whose answer fails, and the outbox cannot ask whether it went out for its
/// first three tries: a1 waits in the outbox for a few seconds.
fn alices_a1_left_to_the_outbox(fake: &FakeDiscord) {
    fake.fail_next("/callback", 503);
    for _ in 0..3 {
        fake.fail_next("/messages/@original", 503);
    }
    let options = json!([{ "name": "ply", "type": 3, "value": "a1" }]);
    fake.command(&alice(), CHANNEL, "move", options);
}

/// Bredon's messages in the channel holding any of `texts`, in the order they stand there.
fn said_in_order(fake: &FakeDiscord, texts: &[&str]) -> Vec<String> {
    fake.messages()
        .into_iter()
        .filter(|m| m.channel == CHANNEL && !m.deleted)
        .map(|m| m.content)
        .filter(|c| texts.iter().any(|t| c.contains(t)))
        .collect()
}
