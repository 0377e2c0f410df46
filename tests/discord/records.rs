//! Records as players read them: `/history` saying how each game ended, the series line of a
//! finished game, and `/leaderboard` on the size the asker plays.

use crate::harness::*;
use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::records::{PlayerRef, Seat};
use serde_json::json;
use std::time::Duration;

/// alice's and bob's names as a prankster might set them: 32 characters that all need
/// escaping, so a history line is as long as it gets.
fn long_name(base: &str) -> String {
    format!("{base}{}", "*_`".repeat(10))
        .chars()
        .take(32)
        .collect()
}

/// `name` (alice or bob, with a long name) acting in the test channel at `now_ms`.
fn as_player(name: &str, now_ms: i64) -> Ctx {
    let user = player(name);
    Ctx {
        user: PlayerRef {
            id: user.id,
            name: long_name(name),
        },
        now_ms,
        ..sctx(&user, CHANNEL)
    }
}

/// alice (White) challenges bob on 5x5 with a day per ply; bob accepts.
fn begin(s: &Service, now_ms: i64) {
    let options = ChallengeOptions {
        opponent: Some(as_player("bob", now_ms).user),
        seat: Seat::White,
        size: Some(5),
        time_limit: Some("1d".into()),
        ..Default::default()
    };
    s.challenge(&as_player("alice", now_ms), &options).unwrap();
    s.accept(&as_player("bob", now_ms)).unwrap();
}

/// Plays `plies` alternately from alice.
fn play(s: &Service, plies: &[&str], now_ms: i64) {
    for (i, ply) in plies.iter().enumerate() {
        let who = ["alice", "bob"][i % 2];
        s.play(&as_player(who, now_ms), ply).unwrap();
    }
}

/// Five games, each ended another way: a time-out after two plies, a resignation, a draw by
/// agreement, an abort, a road.
fn five_endings(s: &Service, now_ms: i64) {
    let day = 86_400_000;
    begin(s, now_ms);
    play(s, &["a1", "e5"], now_ms);
    s.tick(now_ms + 2 * day).unwrap();
    let now_ms = now_ms + 2 * day;
    begin(s, now_ms);
    play(s, &["a1", "e5", "b1"], now_ms);
    s.resign(&as_player("bob", now_ms)).unwrap();
    begin(s, now_ms);
    s.offer_draw(&as_player("alice", now_ms)).unwrap();
    s.answer_draw(&as_player("bob", now_ms), true).unwrap();
    begin(s, now_ms);
    s.abort(&as_player("alice", now_ms)).unwrap();
    begin(s, now_ms);
    let road = [
        "e1", "a1", "a3", "a5", "b3", "b5", "c3", "c5", "d3", "d5", "e3",
    ];
    play(s, &road, now_ms);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_says_how_each_game_ended_and_ten_games_fit_one_message() {
    let fake = start_fake().await;
    let data = tempfile::tempdir().unwrap();
    with_service(data.path(), |s| {
        five_endings(s, now_ms());
        five_endings(s, now_ms() + 10 * 86_400_000);
        posted_earlier(s);
    });
    let _bot = start_bot(&fake, data.path(), 30.0);
    connected(&fake, 1).await;
    let r = run(
        &fake,
        &carol(),
        "history",
        json!([{ "name": "user", "type": 6, "value": "111" }]),
    )
    .await;
    assert_eq!(r.status, 204, "Discord took it");
    let content = r.content();
    assert!(content.chars().count() <= 2000, "{}", content.len());
    let lines: Vec<&str> = content.lines().skip(1).collect();
    assert_eq!(lines.len(), 10, "every game, none cut: {content}");
    assert!(
        lines.iter().all(|l| l.ends_with(" plies)")),
        "whole lines: {content}"
    );
    for how in [
        "**0-1** on time (2 plies)",
        "**1-0** by resignation (3 plies)",
        "**1/2-1/2** by agreement (0 plies)",
        "**0-0** aborted (0 plies)",
        "**R-0** by road (11 plies)",
    ] {
        assert_eq!(
            lines.iter().filter(|l| l.ends_with(how)).count(),
            2,
            "{how} in: {content}"
        );
    }
}

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

/// With `BREDON_TEI_ENGINE` set, `/analyze` is judged by that engine and says so: the PTN's
/// `Annotator` names it, and the marks come from its winning chances.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_is_judged_by_the_servers_engine_when_there_is_one() {
    let engine = format!("{} tei", env!("CARGO_BIN_EXE_bredon"));
    let env = [
        ("BREDON_TEI_ENGINE", engine.as_str()),
        ("BREDON_ANALYSIS_MS", "50"),
    ];
    let (fake, _data, _bot) = boot_with(30.0, &env).await;
    let pasted = r#"[Size "5"] [Player1 "ann"] [Player2 "ben"] 1. a5 a1 2. b1 b5 3. c1 c5 4. d1 d5 5. a2 e5"#;
    let from = fake.requests().len();
    let token = fake.command(
        &carol(),
        CHANNEL,
        "analyze",
        json!([{ "name": "ptn", "type": 3, "value": pasted }]),
    );
    let done = fake
        .wait_request(from, "the analysis", |r| {
            r.path.contains(&token) && r.method == "PATCH" && r.text().contains("analysis.ptn")
        })
        .await;
    assert_eq!(done.status, 200, "{}", done.text());
    let files = done.files();
    let ptn = files
        .iter()
        .find(|(n, _)| n == "analysis.ptn")
        .map(|(_, f)| String::from_utf8_lossy(f).into_owned())
        .unwrap_or_else(|| panic!("{}", done.text()));
    assert!(
        ptn.contains("[Annotator \"Bredon (through Bredon "),
        "{ptn}"
    );
    assert!(
        ptn.contains(
            "5. a2'?? {Missed the road in one: e1 wins at once. (Bredon gives White 100%, 0% after \
             this ply)}"
        ),
        "{ptn}"
    );
    assert!(
        done.content().contains("ann: 1 blunder (??)"),
        "{}",
        done.content()
    );
}
