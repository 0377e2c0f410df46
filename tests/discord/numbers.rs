//! Game numbers through Discord: games stored before numbers numbered when the bot starts, a
//! typed number the server's game first and an old id second, never another server's game.

use crate::fake_discord::{FakeDiscord, Request, TestUser, GUILD_ID};
use crate::harness::*;
use crate::support;
use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::records::{PlayerRef, Seat};
use serde_json::json;
use std::time::Duration;

/// Another server, whose games this one's commands never find.
const OTHER: u64 = GUILD_ID + 1;

/// alice (White) beats bob by resignation after one ply, in `channel` of `guild`.
fn won_by_alice(service: &Service, guild: u64, channel: u64) -> u64 {
    let at = |user: TestUser| Ctx {
        guild,
        channel,
        user: PlayerRef {
            id: user.id,
            name: user.name,
        },
        now_ms: now_ms(),
        moderator: false,
        request: None,
    };
    let options = ChallengeOptions {
        opponent: Some(PlayerRef {
            id: bob().id,
            name: "bob".into(),
        }),
        seat: Seat::White,
        size: Some(5),
        ..ChallengeOptions::default()
    };
    service.challenge(&at(alice()), &options).unwrap();
    service.accept(&at(bob())).unwrap();
    service.play(&at(alice()), "a1").unwrap();
    service.resign(&at(bob())).unwrap();
    posted_earlier(service);
    service.store().last_finished(channel).unwrap().unwrap().id
}

/// `/board game:` with `typed`.
async fn board(fake: &FakeDiscord, typed: u64) -> Request {
    let game = json!([{ "name": "game", "type": 4, "value": typed }]);
    run(fake, &carol(), "board", game).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_number_finds_the_servers_game_then_an_old_id_never_another_servers() {
    // A folder as a build before numbers left it: one finished game here, three in another
    // server. Opened a second time first, as a restarted bot would: sled's ids jump, so the
    // old ids are large, as players saw them.
    let then = support::folder();
    drop(then.open());
    let (here, elsewhere) = {
        let service = Service::new(then.open());
        let here = won_by_alice(&service, GUILD_ID, 10);
        let elsewhere: Vec<u64> = (20..23)
            .map(|channel| won_by_alice(&service, OTHER, channel))
            .collect();
        (here, elsewhere)
    };
    assert!(here > 1000, "an id as sled gives after a restart: {here}");
    support::before_numbers(then.path(), &["archive"]);
    let data = then.dir;

    let fake = start_fake().await;
    let _bot = start_bot(&fake, data.path(), 30.0);
    connected(&fake, 1).await;
    let history = json!([{ "name": "user", "type": 6, "value": alice().id.to_string() }]);
    let r = run(&fake, &carol(), "history", history.clone()).await;
    assert!(
        r.content().contains("\n#1 alice vs bob, Tak on 5x5"),
        "numbered when the bot started: {}",
        r.content()
    );

    // A new game is the server's second, and its result says so.
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    let r = run(&fake, &bob(), "resign", json!([])).await;
    says(&r, "bob resigns; alice wins (1-0). Game #2.");
    let r = run(&fake, &carol(), "history", history).await;
    assert!(
        r.content().contains("\n#2 alice vs bob") && r.content().contains("\n#1 alice vs bob"),
        "{}",
        r.content()
    );

    // #1 and its old id find the same game; #2 the new one.
    let first = "Game #1, alice vs bob, Tak on 5x5: bob resigns; alice wins (1-0).";
    says(&board(&fake, 1).await, first);
    says(&board(&fake, here).await, first);
    says(&board(&fake, 2).await, "Game #2, alice vs bob");

    // The other server has a #3, and old ids of its own: neither is this server's.
    for typed in [3, elsewhere[2]] {
        let r = board(&fake, typed).await;
        assert!(
            r.is_ephemeral()
                && r.content().contains(&format!(
                    "there is no finished game #{typed} in this server"
                )),
            "{}",
            r.content()
        );
    }

    // A live game is listed by its number, and `game:` says it has not finished. Started once
    // game #2's record is posted, so that post is not taken for an answer to the challenge.
    fake.wait_until("game #2's record", Duration::from_secs(20), |f| {
        f.messages()
            .iter()
            .any(|m| m.content.contains("Series after 1 game"))
    })
    .await;
    start_game(&fake).await;
    let r = run(&fake, &carol(), "games", json!([])).await;
    says(&r, &format!("Game #3 in <#{CHANNEL}>: alice vs bob"));
    let r = board(&fake, 3).await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("game #3 of this server has not finished yet"),
        "{}",
        r.content()
    );
}
