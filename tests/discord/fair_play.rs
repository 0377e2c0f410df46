//! Fair play through Discord: a rated game's position pasted into `/analyze ptn:` or
//! `/position` by one of its players is refused while the game is played, privately and with
//! the reason; a third player, or the same player after the game, has it analysed.

use crate::harness::*;
use serde_json::json;

/// The game so far and a line a player might want to try from it.
const TRIED: &str = "[Size \"5\"]\n\n1. e1 a1 2. a3 a5 3. b3";

fn pasted(ptn: &str) -> serde_json::Value {
    json!([{ "name": "ptn", "type": 3, "value": ptn }])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_games_players_cannot_have_its_position_analysed_while_it_is_played() {
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_ANALYSIS_MS", "20")]).await;
    let options = json!([
        { "name": "size", "type": 4, "value": 5 },
        { "name": "seat", "type": 4, "value": 0 },
        { "name": "rated", "type": 5, "value": true }
    ]);
    says(&challenge_bob(&fake, options).await, "alice challenges bob");
    says(
        &press(&fake, &bob(), "bredon:accept").await,
        "alice (White) vs bob (Black)",
    );
    for (who, text) in [(alice(), "e1"), (bob(), "a1"), (alice(), "a3")] {
        says(&ply(&fake, &who, text).await, "played");
    }
    let present = "[TPS \"x5/x5/1,x4/x5/1,x3,2 2 2\"]\n\n2... a5";
    for (who, record) in [(alice(), TRIED), (bob(), TRIED), (alice(), present)] {
        let r = run(&fake, &who, "analyze", pasted(record)).await;
        assert!(r.is_ephemeral(), "{}", r.text());
        says(&r, "that is the position of your rated game #1");
        says(&r, "It is open to you again when the game ends");
    }
    let tps = json!([{ "name": "tps", "type": 3, "value": "x5/x5/1,x4/x5/1,x3,2 2 2" }]);
    let r = run(&fake, &bob(), "position", tps).await;
    assert!(r.is_ephemeral(), "{}", r.text());
    says(&r, "that is the position of your rated game #1");
    // carol plays no part in it.
    let r = run(&fake, &carol(), "analyze", pasted(TRIED)).await;
    assert!(
        !r.is_ephemeral() && r.text().contains("analysis.ptn"),
        "{}",
        r.text()
    );
    // Once it is over, it is open to its players.
    says(
        &run(&fake, &bob(), "resign", json!([])).await,
        "bob resigns",
    );
    let r = run(&fake, &alice(), "analyze", pasted(TRIED)).await;
    assert!(
        !r.is_ephemeral() && r.text().contains("analysis.ptn"),
        "{}",
        r.text()
    );
}
