//! Takat, `/analyze`, and a University game.

use crate::fake_discord::TestUser;
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

/// A cooperative game of Takat on seven circles that ends in a stack of six at ply 24 (found by
/// a beam search over the rules; every ply is legal, Black entering whenever it is behind).
const TAKAT_SIX: [&str; 24] = [
    "a1", "a2", "a1-a2", "a1", "b3", "b1", "b3-a2", "b1-a1", "b1", "a1-a2", "b1-a1", "b1", "b3",
    "b1-a1", "c1", "b1", "a1-a2", "b1-a1", "b3-b2", "c1-b2", "a1-b2", "a1-b2", "a1-b1", "b2-a2",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_takat_from_challenge_to_a_stack_of_six() {
    let (fake, _data, _bot) = boot().await;
    let r = challenge_bob(
        &fake,
        json!([
            { "name": "game", "type": 4, "value": 1 },
            { "name": "seat", "type": 4, "value": 0 },
        ]),
    )
    .await;
    assert!(
        r.content()
            .contains("alice challenges bob (Takat on 7 circles"),
        "{}",
        r.content()
    );
    let r = press(&fake, &bob(), "bredon:accept").await;
    assert!(
        r.content()
            .contains("alice (White) vs bob (Black), Takat on 7 circles. alice to move."),
        "{}",
        r.content()
    );
    let first = image::load_from_memory(&r.pngs()[0]).unwrap();
    assert_eq!(first.width(), 800, "one picture size for every game");
    // The Move form shows Takat's notation, not PTN.
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    let input = &form.json()["data"]["components"][0]["components"][0];
    assert_eq!(input["placeholder"], "b1 to enter, a1-b2 to move");
    assert_eq!(input["label"], "Your ply");
    // Refusals name the rule broken, privately, and change nothing.
    let r = ply(&fake, &alice(), "b2").await;
    assert!(
        r.is_ephemeral()
            && r.content()
                .contains("nobody may enter on the centre circle b2"),
        "{}",
        r.content()
    );
    // Autocomplete offers Takat's plies, in words.
    let from = fake.requests().len();
    let token = fake.autocomplete_option(&alice(), CHANNEL, "move", "ply", "a");
    let choices = offered(&fake, from, &token).await;
    assert!(
        choices.iter().any(|c| c.name == "a1 — enter on a1") && choices.len() == 2,
        "{choices:?}"
    );
    let mut last = None;
    let mut threats = 0;
    for (i, text) in TAKAT_SIX.iter().enumerate() {
        let user = if i % 2 == 0 { alice() } else { bob() };
        let r = ply(&fake, &user, text).await;
        assert!(
            !r.is_ephemeral(),
            "ply {} ({text}) was refused: {}",
            i + 1,
            r.content()
        );
        if r.content().contains("White threatens a stack of six!") {
            threats += 1;
        }
        if i == 2 {
            // The piece White just moved cannot be moved by Black: refused in words.
            let r = ply(&fake, &bob(), "a2-b2").await;
            assert!(
                r.is_ephemeral()
                    && r.content()
                        .contains("the piece on a2 was just moved by White"),
                "{}",
                r.content()
            );
        }
        last = Some((r, fake.requests().len()));
    }
    assert!(threats > 0, "White's threat of six was announced");
    let (win, from) = last.unwrap();
    // Black's ply completes the stack, and the stack wins for White.
    assert!(
        win.content()
            .contains("bob played b2-a2. alice wins with a stack of six (1-0)."),
        "{}",
        win.content()
    );
    assert_eq!(win.pngs().len(), 1, "the final board comes with the result");
    let record = fake
        .wait_request(from.saturating_sub(4), "the game's record", |r| {
            r.path.ends_with("/messages") && r.text().contains("game.gif")
        })
        .await;
    let files = record.files();
    let text = files
        .iter()
        .find(|(name, _)| name == "game.takat.txt")
        .map(|(_, bytes)| String::from_utf8(bytes.clone()).unwrap())
        .expect("the record is attached");
    assert!(
        text.contains("[Game \"Takat\"]") && text.contains("12. a1-b1 b2-a2 1-0"),
        "{text}"
    );
    let replayed = bredon::takat::Game::from_record(&text).unwrap();
    assert_eq!(replayed.ply_count(), 24);
    assert!(
        !record.content().contains("ptn.ninja"),
        "PTN Ninja does not read Takat"
    );
    let r = run(&fake, &carol(), "board", json!([])).await;
    assert!(
        r.content()
            .contains("The last one: alice wins with a stack of six (1-0)"),
        "{}",
        r.content()
    );
    let r = run(
        &fake,
        &carol(),
        "stats",
        json!([{ "name": "user", "type": 6, "value": "111" }, { "name": "game", "type": 4, "value": 1 }]),
    )
    .await;
    says(
        &r,
        "alice in Takat:\n- 7 circles: no rated game yet, 1 win, 0 losses",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_marks_an_unanswered_tak_and_posts_a_chart_and_the_annotated_ptn() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    // Half a second a position: the opening positions alone take longer than the 2 s between
    // progress edits.
    let _bot = start_bot_with(&fake, data.path(), 30.0, &[("BREDON_ANALYSIS_MS", "500")]);
    connected(&fake, 1).await;
    let early = run(&fake, &bob(), "analyze", json!([])).await;
    assert!(
        early.is_ephemeral() && early.content().contains("no game has finished"),
        "{}",
        early.content()
    );
    start_game(&fake).await;
    // Alice makes Tak with d3 (e3 completes her road); Bob answers elsewhere and loses.
    for (user, text) in [
        (alice(), "e1"),
        (bob(), "a1"),
        (alice(), "a3"),
        (bob(), "a5"),
        (alice(), "b3"),
        (bob(), "b5"),
        (alice(), "c3"),
        (bob(), "c5"),
    ] {
        ply(&fake, &user, text).await;
    }
    let live = run(&fake, &bob(), "analyze", json!([])).await;
    assert!(
        live.is_ephemeral() && live.content().contains("still being played"),
        "no analysis while the game runs: {}",
        live.content()
    );
    ply(&fake, &alice(), "d3").await;
    ply(&fake, &bob(), "d5").await;
    let win = ply(&fake, &alice(), "e3").await;
    says(&win, "wins by road");

    let seen = fake.notifications().len();
    let from = fake.requests().len();
    let token = fake.command(&bob(), CHANNEL, "analyze", json!([]));
    let callback = fake
        .wait_request(from, "the callback", |r| {
            r.path.contains(&format!("/{token}/callback"))
        })
        .await;
    assert_eq!(callback.status, 204, "{}", callback.text());
    assert_eq!(callback.json()["type"], 5, "the analysis is deferred");
    let done = fake
        .wait_request(from, "the analysis", |r| {
            r.method == "PATCH" && r.text().contains("analysis.ptn")
        })
        .await;
    assert_eq!(done.status, 200, "{}", done.text());
    let progress: Vec<String> = fake.requests()[from..]
        .iter()
        .filter(|r| r.method == "PATCH" && r.content().contains("Analysing the game: search"))
        .map(|r| r.content())
        .collect();
    assert!(!progress.is_empty(), "the thinking message shows progress");
    assert!(progress[0].ends_with("of 23…"), "{progress:?}");
    let content = done.content();
    assert!(
        content.contains("bob: ") && !content.contains("bob: 0 blunders"),
        "{content}"
    );
    assert!(
        content.contains("5... d5'?? Leaves the Tak unanswered: White wins with e3."),
        "{content}"
    );
    assert!(content.contains("https://ptn.ninja/"), "{content}");
    assert!(content.chars().count() <= 2000);
    let files = done.files();
    let chart = &files.iter().find(|(n, _)| n == "evaluation.png").unwrap().1;
    let img = image::load_from_memory(chart).unwrap();
    assert_eq!((img.width(), img.height()), (800, 400));
    let ptn = String::from_utf8(
        files
            .iter()
            .find(|(n, _)| n == "analysis.ptn")
            .unwrap()
            .1
            .clone(),
    )
    .unwrap();
    assert!(
        ptn.contains("d3' d5'?? {Leaves the Tak unanswered"),
        "{ptn}"
    );
    let replayed = bredon::tak::Game::from_ptn(&ptn).unwrap();
    assert_eq!(replayed.plies().len(), 11, "the annotated record replays");
    // The edit notifies no one; the asker alone is pinged when it is ready.
    fake.wait_until("the ping", Duration::from_secs(10), |f| {
        f.notifications().len() > seen
    })
    .await;
    assert_eq!(notified_since(&fake, seen), vec![222]);
}

/// University rules through Discord: the antes, sealed bids answered privately, a Tak whose fee
/// is paid by playing on, a Tak refused by resigning, the reward, the balances and the ledger.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_university_game_antes_bids_pays_for_tak_and_rewards_the_winner() {
    let (fake, data, bot) = boot().await;
    let r = challenge_bob(
        &fake,
        json!([
            { "name": "size", "type": 4, "value": 5 },
            { "name": "stakes", "type": 4, "value": 0 },
        ]),
    )
    .await;
    says(&r, "alice challenges bob");
    let seen = fake.notifications().len();
    let started = press(&fake, &bob(), "bredon:accept").await;
    assert!(
        started
            .content()
            .contains("University rules: each antes 10 (pot 20)"),
        "{}",
        started.content()
    );
    let early = ply(&fake, &alice(), "e1").await;
    assert!(early.is_ephemeral() && early.content().contains("still bidding"));
    let sealed = run(
        &fake,
        &alice(),
        "bid",
        json!([{ "name": "coins", "type": 4, "value": 7 }]),
    )
    .await;
    assert!(
        sealed.is_ephemeral() && sealed.content().contains("Your bid of 7 is sealed"),
        "a bid is private: {}",
        sealed.content()
    );
    let settled = run(
        &fake,
        &bob(),
        "bid",
        json!([{ "name": "coins", "type": 4, "value": 3 }]),
    )
    .await;
    assert!(!settled.is_ephemeral());
    says(
        &settled,
        "Bids: alice 7, bob 3. alice moves first (White) and pays 7 into the pot (pot 27)",
    );
    assert_eq!(
        settled.pngs().len(),
        1,
        "the board comes with the first move"
    );
    assert!(
        notified_since(&fake, seen).contains(&111),
        "alice is pinged to move"
    );
    for (user, text) in [
        (alice(), "e1"),
        (bob(), "a1"),
        (alice(), "a3"),
        (bob(), "a5"),
        (alice(), "b3"),
        (bob(), "b5"),
        (alice(), "c3"),
        (bob(), "c5"),
    ] {
        ply(&fake, &user, text).await;
    }
    let tak = ply(&fake, &alice(), "d3").await;
    says(&tak, "bob owes 2 coins for the Tak");
    let paid = ply(&fake, &bob(), "d5").await;
    assert!(
        paid.content().contains("bob paid 2 coins")
            && paid.content().contains("alice owes 2 coins for the Tak"),
        "{}",
        paid.content()
    );
    // Alice refuses to pay: she resigns, and Bob takes the pot and his bonus.
    let resigned = run(&fake, &alice(), "resign", json!([])).await;
    assert!(
        resigned
            .content()
            .contains("bob takes the pot of 29 and 17 coins from alice"),
        "{}",
        resigned.content()
    );
    let wallet = |user: TestUser| {
        let fake = &fake;
        async move { run(fake, &user, "wallet", json!([])).await.content() }
    };
    assert_eq!(wallet(alice()).await, "alice has 66 coins.");
    assert_eq!(wallet(bob()).await, "bob has 134 coins.");
    let top = run(
        &fake,
        &carol(),
        "wallet",
        json!([{ "name": "top", "type": 5, "value": true }]),
    )
    .await;
    assert!(
        top.content()
            .contains("1. bob — 134 coins\n2. alice — 66 coins"),
        "{}",
        top.content()
    );
    drop(bot);
    let ledger = with_service(data.path(), |s| {
        s.store().last_finished(CHANNEL).unwrap().unwrap().ledger
    });
    let sum = |id: u64| {
        ledger
            .iter()
            .filter(|m| m.user == id)
            .map(|m| m.delta)
            .sum::<i64>()
    };
    assert_eq!((sum(111), sum(222)), (-34, 34));
    assert_eq!(ledger.len(), 7, "{ledger:?}");
}

// ---- Tournaments ------------------------------------------------------------------------------
