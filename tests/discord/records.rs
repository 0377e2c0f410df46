//! Records as players read them: the series line of a finished game, and `/leaderboard` on
//! the size the asker plays.

use crate::harness::*;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_series_line_says_its_points_are_the_rulebooks_and_the_leaderboard_shows_your_size() {
    let (fake, _data, _bot) = boot().await;
    let options = json!([
        { "name": "size", "type": 4, "value": 5 },
        { "name": "seat", "type": 4, "value": 0 },
        { "name": "rated", "type": 5, "value": true }
    ]);
    let seen = fake.notifications().len();
    challenge_bob(&fake, options).await;
    // The challenge's ping must not be taken for the answer to the press below.
    fake.wait_until("bob pinged", Duration::from_secs(10), |f| {
        notified_since(f, seen).contains(&bob().id)
    })
    .await;
    let r = press(&fake, &bob(), "bredon:accept").await;
    says(&r, "alice (White) vs bob (Black)");
    for (i, text) in ["a1", "e5", "b1", "d5", "c1", "c5"].iter().enumerate() {
        ply(&fake, &[alice(), bob()][i % 2], text).await;
    }
    let from = fake.requests().len();
    run(&fake, &bob(), "resign", json!([])).await;
    let record = fake
        .wait_request(from, "the game's record", |r| r.text().contains("game.gif"))
        .await;
    // alice wins with the 25 squares, her 18 stones left and her capstone.
    says(
        &record,
        "Series after 1 game: alice 44 – 0 bob (rulebook points: a win scores the board's \
         squares plus the pieces the winner has left).",
    );
    says(&record, "alice is now rated ");
    // Someone who played only 5x5 sees 5x5, not the server's 6x6.
    let board = run(&fake, &alice(), "leaderboard", json!([])).await;
    says(
        &board,
        "Tak on 5x5 (the size you play most; `size:` shows another):\n1. alice — ",
    );
    let server = run(&fake, &carol(), "leaderboard", json!([])).await;
    says(
        &server,
        "nobody has finished a rated game of Tak on 6x6 here yet",
    );
}
