//! Who is notified, names as typed, a draw at ply 300, a declined draw, and long games within
//! Discord's limits.

use crate::fake_discord::TestUser;
use crate::harness::*;
use serde_json::json;

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
    let fake = start_fake().await;
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
    let fake = start_fake().await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_draw_notifies_the_player_who_offered_it_and_nobody_else() {
    let (fake, _data, _bot) = boot().await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    let offer = run(&fake, &alice(), "draw", json!([])).await;
    says(&offer, "alice offers a draw");
    let seen = fake.notifications().len();
    let declined = press(&fake, &bob(), "bredon:draw-no").await;
    assert_eq!(
        declined.json()["content"],
        "bob declined the draw.\n<@111>",
        "a new message that names alice"
    );
    assert_eq!(
        declined.json()["allowed_mentions"]["users"],
        json!(["111"]),
        "exactly alice may be pinged"
    );
    assert_eq!(notified_since(&fake, seen), vec![111], "alice hears of it");
    assert!(fake.other_pings().is_empty(), "{:?}", fake.other_pings());
}
