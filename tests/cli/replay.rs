//! `bredon perft` and `bredon replay`: counts, records, standard input, errors and their exit
//! codes, a reader that goes away.

use crate::process::{bredon, stderr, stdout};
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn perft_prints_one_line_per_depth() {
    let o = bredon(&["perft", "--size", "4", "--depth", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "1 16\n2 240\n3 7440\n");
}

#[test]
fn perft_from_a_tps_with_komi() {
    let o = bredon(&[
        "perft",
        "--tps",
        "x3/x3/1,2,x 1 2",
        "--komi",
        "-1.5",
        "--depth",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // 7 empty squares x (flat, wall) + the white flat's 2 moves (north, onto b1... east).
    assert_eq!(stdout(&o), "1 16\n");
}

#[test]
fn perft_refuses_bad_input_clearly() {
    let o = bredon(&["perft", "--size", "9", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("sizes go from 3 to 8"));
    let o = bredon(&["perft", "--tps", "x3/x3 1 1", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("boards go from 3x3"));
}

#[test]
fn replay_prints_the_final_tps_and_result() {
    let o = bredon(&["replay", "tests/data/road-win.ptn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{} 2 6\nR-0\n", expected_final()));
}

fn expected_final() -> String {
    // White's swap put a black flat on e5, Black's a white flat on a1; Black's b4..e4 and
    // White's road along rank 3.
    "x4,2/x,2,2,2,2/1,1,1,1,1/x5/1,x4".to_string()
}

#[test]
fn replay_json_has_every_ply() {
    let o = bredon(&["replay", "--json", "tests/data/road-win.ptn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["size"], 5);
    assert_eq!(v["komi"], 2);
    assert_eq!(v["result"], "R-0");
    assert_eq!(v["tps"], format!("{} 2 6", expected_final()));
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 11);
    assert_eq!(plies[0]["ptn"], "e5");
    assert_eq!(plies[0]["tps"], "x4,2/x5/x5/x5/x5 2 1");
    assert_eq!(plies[8]["ptn"], "d3");
    assert_eq!(plies[8]["tak"], true);
    assert_eq!(plies[7]["tak"], false);
    assert_eq!(plies[9]["result"], serde_json::Value::Null);
    assert_eq!(plies[10]["result"], "R-0");
    assert_eq!(plies[10]["tak"], false);
}

#[test]
fn replay_reads_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bredon"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"[Size \"3\"]\n1. a1 c3\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert_eq!(stdout(&o), "x2,1/x3/2,x2 1 2\n*\n");
}

#[test]
fn an_illegal_ply_exits_1_with_its_number_and_reason() {
    let o = bredon(&["replay", "tests/data/illegal.ptn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("ply 3 (`a1`): a1 is not empty"),
        "{}",
        stderr(&o)
    );
    let o = bredon(&["replay", "--json", "tests/data/illegal.ptn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    let o = bredon(&["replay", "no-such-file.ptn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read no-such-file.ptn"));
}

#[test]
fn replay_reads_every_game_of_a_file_or_the_one_asked_for() {
    let o = bredon(&["replay", "tests/data/wild/tournament.ptn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let games: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(games.len(), 2, "{out}");
    assert!(games[1].trim_end().ends_with("0-1"), "{out}");
    let o = bredon(&[
        "replay",
        "--game",
        "2",
        "--json",
        "tests/data/wild/tournament.ptn",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["size"], 6);
    let o = bredon(&["replay", "--game", "3", "tests/data/wild/tournament.ptn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("this file holds 2 games; pick 1 to 2"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn replay_warns_on_stderr_about_what_it_passed_over() {
    let o = bredon(&["replay", "tests/data/wild/puzzle.ptn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: the record says the result is R-0"));
    assert!(stdout(&o).ends_with("\n*\n"), "{}", stdout(&o));
}

#[test]
fn replay_reads_ptn_ninjas_branches_and_text_after_the_result() {
    for file in [
        "tests/data/wild/ninja-branches.ptn",
        "tests/data/wild/old-branches.ptn",
    ] {
        let o = bredon(&["replay", "--json", file]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["result"], "R-0", "{file}");
        assert_eq!(v["tps"], "2,2,2,2,x/x5/x5/x5/1,1,1,1,1 2 5", "{file}");
        let plies = v["plies"].as_array().unwrap();
        assert_eq!(plies.len(), 9, "the main line: {file}");
        assert_eq!(plies[8]["result"], "R-0");
        assert!(
            stderr(&o).contains("warning: the file has "),
            "{}",
            stderr(&o)
        );
    }
    let o = bredon(&["replay", "tests/data/wild/ninja-branches.ptn"]);
    assert!(
        stderr(&o).contains("branches (2w1, 4b1, 4b1/6w1, 5w1): the main line is read"),
        "{}",
        stderr(&o)
    );
    let o = bredon(&["replay", "tests/data/wild/result-then-plies.ptn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).ends_with(" 1 4\n*\n"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("goes on after its result 1-0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn replay_reads_zero_zero_as_no_result_as_ptn_ninja_does() {
    for file in [
        "tests/data/wild/abandoned.ptn",
        "tests/data/wild/aborted.ptn",
    ] {
        let o = bredon(&["replay", "--json", file]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["result"], serde_json::Value::Null, "{file}");
        assert!(
            stderr(&o).contains("0-0, a game abandoned without result"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    // Many games of JSON: far more than a pipe holds, so the writer meets the closed pipe.
    let game = std::fs::read_to_string("tests/data/road-win.ptn").unwrap();
    let many = vec![game; 400].join("\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_bredon"))
        .args(["replay", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(many.as_bytes())
        .unwrap();
    let mut first = [0u8; 1];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
    assert_ne!(o.status.code(), Some(101), "no panic");
}
