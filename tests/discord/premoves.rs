//! Conditional plies (`/premove`, the Move form's second field): answered at once when the
//! opponent follows a line, dropped when they deviate, private, kept over a restart, and
//! played against Bredon too.

use crate::fake_discord::{self, FakeDiscord, Request, TestUser};
use crate::harness::*;
use serde_json::json;
use std::time::Duration;

async fn premove(fake: &FakeDiscord, user: &TestUser, options: serde_json::Value) -> Request {
    let r = run(fake, user, "premove", options).await;
    assert!(
        r.is_ephemeral(),
        "a premove answer is private: {}",
        r.content()
    );
    r
}

fn line(text: &str) -> serde_json::Value {
    json!([{ "name": "line", "type": 3, "value": text }])
}

/// Every message anyone but the asker could read: posts and answers that are neither
/// ephemeral nor a form (which only the presser sees).
fn public_texts(fake: &FakeDiscord) -> Vec<String> {
    fake.requests()
        .into_iter()
        .filter(|r| r.method != "GET" && !r.path.contains("/commands"))
        .filter(|r| !r.is_ephemeral() && r.json()["type"] != 9)
        .map(|r| r.content())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_answers_the_foreseen_replies_at_once_and_is_dropped_when_they_deviate() {
    let (fake, data, bot) = boot().await;
    start_game(&fake).await;
    ply(&fake, &alice(), "a1").await;
    // Bob is to move: alice leaves three branches (two in one line: if e5, b1; then if d5, c1).
    let r = premove(&fake, &bob(), line("a5 b1")).await;
    says(&r, "it is your move");
    let r = premove(&fake, &alice(), line("e5 b1 d5 c1; e4 b2")).await;
    says(&r, "Kept: 2 lines.");
    let r = premove(&fake, &alice(), line("d1 b3")).await;
    says(&r, "Kept: 1 line.");
    says(&r, "bob never sees them");
    says(&r, "3. if d1: b3");
    // Checked ply by ply when set, and a contradicting answer refused.
    let r = premove(&fake, &alice(), line("e5 c3 d4")).await;
    says(&r, "pairs of plies");
    let r = premove(&fake, &alice(), line("e5 a1")).await;
    says(&r, "in that line cannot be played: a1 is not empty");
    let r = premove(&fake, &alice(), line("e5 c2")).await;
    says(&r, "after e5 you answer b1");
    // Bob follows the line: alice's answers come in the same message, twice.
    let r = ply(&fake, &bob(), "e5").await;
    says(
        &r,
        "bob played e5. alice answered with a conditional ply: b1. bob to move.",
    );
    assert!(
        r.content().contains("<@222>"),
        "bob is pinged: {}",
        r.content()
    );
    // The rest of the line survives a restart.
    let bot = restarted(&fake, bot, data.path(), 2).await;
    let r = premove(&fake, &alice(), json!([])).await;
    says(&r, "1. if d5: c1");
    assert!(
        !r.content().contains("e4"),
        "the other branches are gone: {}",
        r.content()
    );
    let r = ply(&fake, &bob(), "d5").await;
    let d5 = "bob played d5. alice answered with a conditional ply: c1. bob to move.";
    announced(&fake, CHANNEL, &r, d5).await;
    // A deviation drops the line silently: alice is simply to move.
    premove(&fake, &alice(), line("a5 b4; a4 c4")).await;
    let r = ply(&fake, &bob(), "e3").await;
    says(&r, "bob played e3. alice to move.");
    let r = premove(&fake, &alice(), json!([])).await;
    says(&r, "You have no conditional plies in this game");
    // Undo clears what is kept: alice plays, keeps a line, and takes her ply back.
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    let inputs = &form.json()["data"]["components"];
    assert_eq!(inputs[1]["components"][0]["custom_id"], "then");
    let modal_id = form.modal_id();
    let from = fake.requests().len();
    let fields = [("ply", "a2"), ("then", "b5 a3")];
    let token = fake.submit_modal_fields(&alice(), CHANNEL, &modal_id, &fields);
    let r = answer(&fake, from, &token).await;
    says(&r, "alice played a2. bob to move.");
    // The line is confirmed to alice alone, after the public ply.
    let hook = format!("/webhooks/{}/{token}", fake_discord::APP_ID);
    let kept = fake
        .wait_request(from, "the private confirmation of the line", |r| {
            r.method == "POST" && r.path.ends_with(&hook) && r.content().contains("Kept")
        })
        .await;
    assert!(kept.is_ephemeral(), "{}", kept.content());
    assert_eq!(kept.content(), "Kept: 1 line.");
    says(&premove(&fake, &alice(), json!([])).await, "1. if b5: a3");
    let r = run(&fake, &alice(), "undo", json!([])).await;
    says(&r, "taken back");
    says(
        &premove(&fake, &alice(), json!([])).await,
        "You have no conditional plies",
    );
    // Never in a public message, nor in the PTN.
    let r = run(&fake, &alice(), "ptn", json!([])).await;
    assert!(
        r.text().contains("1. a1 e5") && r.pngs().is_empty(),
        "the PTN file: {}",
        r.text()
    );
    for text in public_texts(&fake).iter().chain([&r.text()]) {
        let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        for unplayed in ["e4", "d1", "b3", "b2", "a4", "c4", "b5"] {
            assert!(!words.contains(&unplayed), "{unplayed} shown in {text}");
        }
    }
    drop(bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_answer_bredon_too() {
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_ENGINE_SECS", "0.05")]).await;
    alice_plays_bredon(&fake, 0, 3).await;
    // Bredon's first reply places one of alice's flats on one of eight squares: alice answers
    // each with the Move form's second field, one branch a square.
    let answers = [
        ("a2", "c3"),
        ("a3", "c3"),
        ("b1", "c3"),
        ("b2", "c3"),
        ("b3", "c1"),
        ("c1", "c3"),
        ("c2", "c3"),
        ("c3", "c1"),
    ];
    let branches: Vec<String> = answers.iter().map(|(r, a)| format!("{r} {a}")).collect();
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    let modal_id = form.modal_id();
    let from = fake.requests().len();
    let fields = [("ply", "a1"), ("then", &branches.join("; ")[..])];
    let token = fake.submit_modal_fields(&alice(), CHANNEL, &modal_id, &fields);
    let r = answer(&fake, from, &token).await;
    says(&r, "alice played a1. Bredon to move.");
    let posts = format!("/channels/{CHANNEL}/messages");
    let reply = fake
        .wait_request(from, "Bredon's ply and alice's answer", |r| {
            r.path.contains(&posts) && r.content().contains("Bredon played")
        })
        .await;
    let text = reply.content();
    let (square, answered) = answers
        .iter()
        .find(|(r, _)| text.contains(&format!("Bredon played {r}.")))
        .unwrap_or_else(|| panic!("Bredon's reply is one of the eight: {text}"));
    says(
        &reply,
        &format!("Bredon played {square}. alice answered with a conditional ply: {answered}."),
    );
    says(&reply, "Bredon to move.");
    // Bredon goes on by itself after the conditional ply.
    fake.wait_request(from, "Bredon's next ply", |r| {
        r.path.contains(&posts) && r.content().contains("alice to move")
    })
    .await;
}

/// A refused `/move` while Bredon thinks asks for its turn again: it is noted, not started
/// beside the search already running, so Bredon plays once and nothing says its engine failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_move_while_bredon_thinks_leaves_it_one_turn() {
    let (fake, data, bot) = boot_logging_with(&[("BREDON_ENGINE_SECS", "2")]).await;
    alice_plays_bredon(&fake, 2, 5).await;
    says(&ply(&fake, &alice(), "a1").await, "Bredon to move");
    let refused = ply(&fake, &alice(), "b1").await;
    assert!(refused.is_ephemeral(), "{}", refused.content());
    fake.wait_until("Bredon's ply", Duration::from_secs(30), |f| {
        said_in(f, CHANNEL, "Bredon played") >= 1
    })
    .await;
    // A second search, started by the refusal, would have played once every task of Bredon's
    // turns there has ended.
    bot.turns_over(CHANNEL).await;
    assert_eq!(
        outbox_after(&fake, data.path(), &[("BREDON_ENGINE_SECS", "2")], bot).await,
        0
    );
    assert_eq!(said_in(&fake, CHANNEL, "Bredon played"), 1, "one ply");
    assert_eq!(
        said_in(&fake, CHANNEL, "engine failed"),
        0,
        "no false failure"
    );
}

/// A TEI engine that plays `replies` in turn, the one after the position's `n` plies being
/// the `n / 2`-th (Bredon plays Black): Bredon's replies known in advance.
fn scripted_engine(dir: &std::path::Path, replies: &[&str]) -> String {
    let script = format!(
        "#!/bin/sh\nreplies='{}'\nn=0\nwhile read line; do case \"$line\" in\n\
         tei) echo 'id name scripted'; echo teiok;;\n\
         isready) echo readyok;;\n\
         position*) set -- $line; n=0; seen=; for w; do \
         if [ \"$seen\" = 1 ]; then n=$((n + 1)); fi; [ \"$w\" = moves ] && seen=1; done;;\n\
         go*) set -- $replies; shift $((n / 2)); echo \"bestmove $1\";;\n\
         quit) exit 0;;\nesac; done\n",
        replies.join(" ")
    );
    let path = dir.join("scripted-engine");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}

/// A conditional line of six pairs against Bredon plays to its end, each of Bredon's turns
/// answered at once, and Bredon takes the turn after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_of_six_pairs_against_bredon_plays_to_its_end() {
    let scripts = tempfile::tempdir().unwrap();
    let replies = ["e5", "e1", "e2", "e3", "a3", "a4", "a5", "b1"];
    let engine = scripted_engine(scripts.path(), &replies);
    let (fake, _data, _bot) = boot_with(30.0, &[("BREDON_TEI_ENGINE", &engine)]).await;
    // Level 4 is `strongest`: the server's TEI engine, here the scripted one.
    alice_plays_bredon(&fake, 4, 5).await;
    says(&ply(&fake, &alice(), "a1").await, "Bredon to move");
    fake.wait_until("Bredon's first ply", Duration::from_secs(30), |f| {
        said_in(f, CHANNEL, "Bredon played e5") == 1
    })
    .await;
    let form = open_move_form(&fake, &alice(), CHANNEL).await;
    let modal_id = form.modal_id();
    let from = fake.requests().len();
    let line = "e1 c2 e2 d2 e3 b4 a3 c4 a4 d4 a5 b3";
    let fields = [("ply", "b2"), ("then", line)];
    let token = fake.submit_modal_fields(&alice(), CHANNEL, &modal_id, &fields);
    says(
        &answer(&fake, from, &token).await,
        "alice played b2. Bredon to move.",
    );
    fake.wait_until(
        "Bredon's ply after the line",
        Duration::from_secs(60),
        |f| said_in(f, CHANNEL, "Bredon played b1") == 1,
    )
    .await;
    // Each of Bredon's six replies answered by the line, in one message ("Tak!" may stand
    // between: a5 threatens a road).
    let messages = fake.messages();
    let pairs = [
        ("e1", "c2"),
        ("e2", "d2"),
        ("e3", "b4"),
        ("a3", "c4"),
        ("a4", "d4"),
        ("a5", "b3"),
    ];
    for (reply, answered) in pairs {
        let answered = format!("alice answered with a conditional ply: {answered}.");
        let found = messages.iter().filter(|m| {
            m.content.starts_with(&format!("Bredon played {reply}."))
                && m.content.contains(&answered)
        });
        assert_eq!(found.count(), 1, "{reply}, {answered}");
    }
    assert_eq!(said_in(&fake, CHANNEL, "engine failed"), 0);
}
