//! Private notes (`/note`): kept on a player's game, listed to them alone, in their
//! `/mygames`, over a restart, and after the game in their own copy of the record
//! (`/ptn notes:True`); never in anything anyone else reads.

use crate::fake_discord::{FakeDiscord, Request, TestUser};
use crate::harness::*;
use serde_json::json;

async fn note(fake: &FakeDiscord, user: &TestUser, text: Option<&str>) -> Request {
    let options = match text {
        Some(text) => json!([{ "name": "text", "type": 3, "value": text }]),
        None => json!([]),
    };
    let r = run(fake, user, "note", options).await;
    assert!(
        r.is_ephemeral(),
        "a note answer is private: {}",
        r.content()
    );
    r
}

/// Every request body Bredon sent that anyone but its asker could read.
fn public_bodies(fake: &FakeDiscord) -> Vec<String> {
    fake.requests()
        .into_iter()
        .filter(|r| r.method != "GET" && !r.path.contains("/commands"))
        .filter(|r| !r.is_ephemeral() && r.json()["type"] != 9)
        .map(|r| r.text())
        .collect()
}

/// The `.ptn` file an answer carries.
fn ptn_file(r: &Request) -> String {
    let files = r.files();
    let (_, body) = files
        .iter()
        .find(|(name, _)| name.ends_with(".ptn"))
        .unwrap_or_else(|| panic!("no .ptn file in {}", r.content()));
    String::from_utf8(body.clone()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_are_their_writers_alone_and_come_back_as_comments_in_their_record() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    let r = note(&fake, &alice(), Some("open in the corner, {then} race")).await;
    says(&r, "Noted before the first ply");
    ply(&fake, &alice(), "a1").await;
    ply(&fake, &bob(), "e5").await;
    let r = note(&fake, &alice(), Some("SECRET-PLAN: wall at c3")).await;
    says(&r, "Noted after ply 2 (e5)");
    says(&r, "2 notes on game #1");
    note(&fake, &bob(), Some("bob's own idea")).await;
    // Refused: an empty note, and a note by someone not playing of this game.
    says(
        &note(&fake, &alice(), Some("   ")).await,
        "the note is empty",
    );
    says(
        &note(&fake, &carol(), Some("carol meddles")).await,
        "you are not playing in this game",
    );

    // Listed to each writer: their own notes only.
    let r = note(&fake, &alice(), None).await;
    says(
        &r,
        "- before the first ply: open in the corner, {then} race",
    );
    says(&r, "- after ply 2 (e5): SECRET-PLAN: wall at c3");
    assert!(!r.content().contains("bob's own idea"), "{}", r.content());
    let r = note(&fake, &bob(), None).await;
    says(&r, "after ply 2 (e5): bob's own idea");
    assert!(!r.content().contains("SECRET-PLAN"), "{}", r.content());
    says(
        &note(&fake, &carol(), None).await,
        "You keep no notes on game #1",
    );

    // In the writer's /mygames (private), and kept over a restart.
    let _bot = restarted(&fake, bot, data.path(), 2).await;
    let mine = run(&fake, &alice(), "mygames", json!([])).await;
    assert!(mine.is_ephemeral());
    says(&mine, "your note: “SECRET-PLAN: wall at c3” (+1 more)");
    let theirs = run(&fake, &bob(), "mygames", json!([])).await;
    says(&theirs, "your note: “bob's own idea”");
    assert!(!theirs.content().contains("SECRET"), "{}", theirs.content());

    // A finished game takes no more notes; its record with the writer's notes is theirs alone.
    run(&fake, &bob(), "resign", json!([])).await;
    says(
        &note(&fake, &alice(), Some("too late")).await,
        "game #1 in this channel has ended, so it takes no more notes",
    );
    let r = run(
        &fake,
        &alice(),
        "ptn",
        json!([{ "name": "notes", "type": 5, "value": true }]),
    )
    .await;
    assert!(r.is_ephemeral(), "the record with notes is private");
    let record = ptn_file(&r);
    assert!(
        record.contains("1. {open in the corner, then race} a1 e5 {SECRET-PLAN: wall at c3}"),
        "{record}"
    );
    assert!(!record.contains("bob's own idea"), "{record}");
    // It reads back as the same game.
    let replayed = bredon::tak::Game::from_ptn(&record).expect("the record reads");
    assert_eq!(replayed.plies().len(), 2);
    let r = run(
        &fake,
        &carol(),
        "ptn",
        json!([{ "name": "game", "type": 4, "value": 1 },
               { "name": "notes", "type": 5, "value": true }]),
    )
    .await;
    assert!(r.is_ephemeral());
    says(&r, "you kept no notes on game #1");

    // Nothing anyone else read held a note: posts, public answers, the plain record.
    let plain = run(&fake, &bob(), "ptn", json!([])).await;
    assert!(!plain.is_ephemeral());
    for body in public_bodies(&fake) {
        for secret in ["SECRET-PLAN", "bob's own idea", "open in the corner"] {
            assert!(
                !body.contains(secret),
                "a public message holds a note: {body}"
            );
        }
    }
}
