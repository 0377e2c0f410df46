//! PlayTak games by number: `/analyze playtak:` and `/board playtak:`, against a stand-in for
//! PlayTak's API on 127.0.0.1 (`support/playtak.rs`).

use crate::harness::*;
use crate::support::playtak::{game, Answer, FakePlayTak, ROAD_ON_RANK_ONE};
use serde_json::json;
use std::time::Duration;

const FINISHED: u64 = 1001;
const UNKNOWN: u64 = 1002;
const UNFINISHED: u64 = 1003;
const SLOW: u64 = 1004;
const GARBLED: u64 = 1005;

/// PlayTak's API with a finished game, one still running, one answered too late, one answered
/// with a page that is not a game; any other number is unknown (404).
fn playtak() -> FakePlayTak {
    let api = FakePlayTak::start();
    let finished = game(5, "Annika", "Bertil", ROAD_ON_RANK_ONE, "R-0");
    api.answer(FINISHED, Answer::Game(finished.clone()));
    api.answer(
        UNFINISHED,
        Answer::Game(game(6, "Annika", "Bertil", "", "0-0")),
    );
    let late = Answer::Slow(Duration::from_secs(3), Box::new(Answer::Game(finished)));
    api.answer(SLOW, late);
    api.answer(
        GARBLED,
        Answer::Body("<html>PlayTak is down for maintenance</html>"),
    );
    api
}

fn playtak_option(id: u64) -> serde_json::Value {
    json!({ "name": "playtak", "type": 4, "value": id })
}

/// `/analyze playtak:ID` by carol, up to its analysis (the deferred answer's edit) or its
/// refusal (a private follow-up, or the callback itself).
async fn analyze(fake: &crate::fake_discord::FakeDiscord, id: u64) -> crate::fake_discord::Request {
    run(fake, &carol(), "analyze", json!([playtak_option(id)])).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_playtak_game_is_analysed_and_shown_and_each_failure_is_told_privately() {
    let api = playtak();
    let env = [
        ("PLAYTAK_API_URL", api.url.as_str()),
        ("PLAYTAK_TIMEOUT_MS", "500"),
        ("BREDON_ANALYSIS_MS", "20"),
    ];
    let (fake, data, mut bot) = boot_with(30.0, &env).await;

    let r = analyze(&fake, FINISHED).await;
    assert_eq!(
        r.method,
        "PATCH",
        "the deferred answer, edited: {}",
        r.text()
    );
    let files = r.files();
    let ptn = files
        .iter()
        .find(|(n, _)| n == "analysis.ptn")
        .map(|(_, f)| String::from_utf8_lossy(f).to_string())
        .unwrap_or_else(|| panic!("{}", r.text()));
    assert!(ptn.contains("[Player1 \"Annika\"]"), "{ptn}");
    assert!(ptn.contains("[Event \"PlayTak game #1001\"]"), "{ptn}");
    let replayed = bredon::tak::Game::from_ptn(&ptn).unwrap();
    assert_eq!(replayed.plies().len(), 9, "every ply of PlayTak's record");
    assert!(r.content().contains("Annika: "), "{}", r.content());
    assert!(
        api.asked()
            .contains(&format!("/v1/games-history/{FINISHED}")),
        "{:?}",
        api.asked()
    );

    let r = run(&fake, &carol(), "board", json!([playtak_option(FINISHED)])).await;
    says(
        &r,
        "PlayTak game #1001, Annika vs Bertil, Tak on 5x5: Annika wins by road (R-0).",
    );
    assert_eq!(r.pngs().len(), 1, "the final board");
    let at =
        |ply: u64| json!([playtak_option(FINISHED), { "name": "ply", "type": 4, "value": ply }]);
    let r = run(&fake, &carol(), "board", at(4)).await;
    says(
        &r,
        "PlayTak game #1001, Annika vs Bertil, Tak on 5x5, after ply 4 of 9: Annika to move.",
    );
    assert_eq!(r.pngs().len(), 1, "the board after 2... Se4");
    let r = run(&fake, &carol(), "board", at(10)).await;
    assert!(r.is_ephemeral(), "{}", r.text());
    says(&r, "the game ends after ply 9");
    says(&r, "goes from 0 (the start) to 9");

    for (id, why) in [
        (UNKNOWN, "PlayTak has no game #1002: check the number"),
        (
            UNFINISHED,
            "PlayTak game #1003 has no result: it is still being played",
        ),
        (SLOW, "PlayTak did not answer within 0.5 s; try again later"),
        (
            GARBLED,
            "PlayTak's answer for game #1005 is not a game record Bredon can read",
        ),
    ] {
        let r = analyze(&fake, id).await;
        assert!(r.is_ephemeral(), "{id}: {}", r.text());
        says(&r, why);
        let r = run(&fake, &carol(), "board", json!([playtak_option(id)])).await;
        assert!(r.is_ephemeral(), "{id}: {}", r.text());
        says(&r, why);
    }
    let both = json!([{ "name": "game", "type": 4, "value": 1 }, playtak_option(FINISHED)]);
    let r = run(&fake, &carol(), "analyze", both.clone()).await;
    assert!(r.is_ephemeral(), "{}", r.text());
    says(&r, "name one game, not several");
    let r = run(&fake, &carol(), "board", both).await;
    assert!(r.is_ephemeral(), "{}", r.text());
    says(&r, "name one game");

    // Nothing of PlayTak's games was stored, answered or refused.
    bot.stop();
    let backup = data.path().join("backup.json");
    bredon::store::Store::open(data.path())
        .unwrap()
        .backup(&backup)
        .unwrap();
    let stored = std::fs::read_to_string(&backup).unwrap();
    for word in ["Annika", "Bertil", "PlayTak"] {
        assert!(!stored.contains(word), "{word} stored: {stored}");
    }
}

/// The Tiltak bot's limit: two analyses at a time in a server; a third is refused until one
/// has finished.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_most_two_analyses_run_at_once_in_a_server() {
    let api = playtak();
    let env = [
        ("PLAYTAK_API_URL", api.url.as_str()),
        ("BREDON_ANALYSIS_MS", "20"),
    ];
    let (fake, _data, _bot) = boot_with(30.0, &env).await;
    // Both analyses wait for PlayTak's answer, holding their slots.
    api.hold();
    let from = fake.requests().len();
    let tokens: Vec<String> = (0..2)
        .map(|_| {
            fake.command(
                &carol(),
                CHANNEL,
                "analyze",
                json!([playtak_option(FINISHED)]),
            )
        })
        .collect();
    fake.wait_until("both fetches", Duration::from_secs(10), |_| {
        api.asked().len() == 2
    })
    .await;
    let pasted = r#"[Size "3"] 1. a3 c1 2. a1 b3 3. b1 R-0"#;
    let r = run(
        &fake,
        &bob(),
        "analyze",
        json!([{ "name": "ptn", "type": 3, "value": pasted }]),
    )
    .await;
    assert!(r.is_ephemeral(), "{}", r.text());
    says(
        &r,
        "Bredon is analysing 2 games in this server already, as many as it runs at once",
    );
    api.release();
    for token in &tokens {
        let done = fake
            .wait_request(from, "an analysis", |r| {
                r.path.contains(token.as_str())
                    && r.method == "PATCH"
                    && r.text().contains("analysis.ptn")
            })
            .await;
        assert_eq!(done.status, 200, "{}", done.text());
    }
    // Both ended: their slots are free again.
    let r = run(
        &fake,
        &bob(),
        "analyze",
        json!([{ "name": "ptn", "type": 3, "value": pasted }]),
    )
    .await;
    assert!(
        !r.is_ephemeral() && r.text().contains("analysis.ptn"),
        "{}",
        r.text()
    );
}
