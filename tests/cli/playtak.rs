//! `bredon analyze --playtak ID`, against a stand-in for PlayTak's API on 127.0.0.1.

use crate::process::{stderr, stdout};
use crate::support::playtak::{game, Answer, FakePlayTak, ROAD_ON_RANK_ONE};
use std::process::{Command, Output};
use std::time::Duration;

/// `bredon analyze --playtak ID` in `dir` with `env`, as a user runs it.
fn analyze(dir: &tempfile::TempDir, id: &str, env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bredon"))
        .args(["analyze", "--playtak", id, "--nodes", "2000"])
        .current_dir(dir.path())
        .env_remove("PLAYTAK_API_URL")
        .env_remove("PLAYTAK_TIMEOUT_MS")
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

#[test]
fn analyze_reads_a_playtak_game_by_number_and_says_why_it_cannot() {
    let api = FakePlayTak::start();
    let finished = game(5, "Annika", "Bertil", ROAD_ON_RANK_ONE, "R-0");
    api.answer(7, Answer::Game(finished.clone()));
    api.answer(8, Answer::Game(game(5, "Annika", "Bertil", "P A1", "0-0")));
    let late = Answer::Slow(Duration::from_secs(3), Box::new(Answer::Game(finished)));
    api.answer(9, late);
    api.answer(10, Answer::Body("{\"size\": 5"));
    // PlayTak's result says Black won, its plies end in White's road.
    let contradicted = game(5, "Annika", "Bertil", ROAD_ON_RANK_ONE, "0-R");
    api.answer(12, Answer::Game(contradicted));
    let dir = tempfile::tempdir().unwrap();
    let env = [
        ("PLAYTAK_API_URL", api.url.as_str()),
        ("PLAYTAK_TIMEOUT_MS", "300"),
    ];

    let out = analyze(&dir, "7", &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Annika: "), "{}", stdout(&out));
    let ptn = std::fs::read_to_string(dir.path().join("playtak-7.analysed.ptn")).unwrap();
    assert!(ptn.contains("[Player2 \"Bertil\"]"), "{ptn}");
    assert!(ptn.contains("5. e1"), "{ptn}");
    assert!(dir.path().join("playtak-7.eval.png").exists());
    assert_eq!(api.asked(), vec!["/v1/games-history/7"]);
    assert!(
        !stdout(&out).contains("Read with care"),
        "nothing to say of an agreed record: {}",
        stdout(&out)
    );

    // Analysed by its plies, saying so.
    let out = analyze(&dir, "12", &env);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(
            "Read with care: the record says the result is 0-R, but the moves give R-0; the \
             moves' result is kept."
        ),
        "{}",
        stdout(&out)
    );

    for (id, why) in [
        ("11", "PlayTak has no game #11"),
        ("8", "PlayTak game #8 has no result"),
        ("9", "PlayTak did not answer within 0.3 s"),
        (
            "10",
            "PlayTak's answer for game #10 is not a game record Bredon can read",
        ),
    ] {
        let out = analyze(&dir, id, &env);
        assert_eq!(out.status.code(), Some(1), "{id}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{id}: {}", stderr(&out));
        assert!(!dir
            .path()
            .join(format!("playtak-{id}.analysed.ptn"))
            .exists());
    }

    // A port nothing listens on: PlayTak cannot be reached.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let nowhere = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let out = analyze(&dir, "7", &[("PLAYTAK_API_URL", &nowhere)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("PlayTak cannot be reached ("),
        "{}",
        stderr(&out)
    );

    for (name, value) in [
        ("PLAYTAK_TIMEOUT_MS", "soon"),
        ("PLAYTAK_API_URL", "api.playtak.com"),
    ] {
        let out = analyze(&dir, "7", &[(name, value)]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains(name), "{}", stderr(&out));
    }
}
