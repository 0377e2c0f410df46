//! The command-line contracts of DESIGN.md, run as a user would run them.

mod support;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bredon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bredon"))
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

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
    assert!(stderr(&o).contains("warning: the file says the result is R-0"));
    assert!(stdout(&o).ends_with("\n*\n"), "{}", stdout(&o));
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

/// `bredon local` with these lines on stdin, in a fresh folder: its output.
fn local(lines: &str) -> String {
    local_in(&tempfile::tempdir().unwrap(), lines)
}

fn local_in(dir: &tempfile::TempDir, lines: &str) -> String {
    local_as(dir, &[], lines)
}

/// `bredon local` with `args` (e.g. `--moderator mod`).
fn local_as(dir: &tempfile::TempDir, args: &[&str], lines: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bredon"))
        .arg("local")
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    stdout(&child.wait_with_output().unwrap())
}

#[test]
fn local_play_reads_plies_in_either_case_and_says_why_a_ply_is_wrong() {
    let out = local(
        "alice challenge bob size=5 seat=white time=1d\nbob accept\nalice A1\nbob 2a3>1\nbob E5\nalice sb2\nquit\n",
    );
    assert!(out.contains("alice played a1."), "{out}");
    assert!(
        out.contains("`2a3>1`: the drops add up to 1 but 2 pieces are carried"),
        "{out}"
    );
    assert!(
        out.contains("bob played e5.") && out.contains("alice played Sb2."),
        "{out}"
    );
    assert!(out.contains("time runs out in 24 h 00 min"), "{out}");
}

#[test]
fn a_local_game_leaves_its_gif_and_ptn() {
    let dir = tempfile::tempdir().unwrap();
    let out = local_in(
        &dir,
        "alice challenge bob size=3 seat=white\nbob accept\nalice a1\nbob resign\nquit\n",
    );
    let file = |ext: &str| {
        let path = out
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{ext}: ")))
            .unwrap_or_else(|| panic!("no {ext} in {out}"));
        std::fs::read(dir.path().join(path)).unwrap()
    };
    assert!(file("gif").starts_with(b"GIF89a"));
    let ptn = String::from_utf8(file("ptn")).unwrap();
    assert!(ptn.contains("1. a1") && ptn.contains("1-0"), "{ptn}");
    // Everything the terminal showed was delivered: nothing is left owed in the store.
    let store = bredon::store::Store::open(&dir.path().join("data-local")).unwrap();
    let service = bredon::service::Service::new(store);
    assert!(service.deliveries().unwrap().is_empty());
}

#[test]
fn local_wait_fires_the_timers_that_fell_due() {
    let out = local("alice challenge bob size=5 seat=white time=1d\nbob accept\nwait 13h\nquit\n");
    let (_, after_wait) = out.split_once("(the clock moves on 13h)").unwrap();
    assert!(
        after_wait.contains("alice, it is your move")
            && after_wait.contains("time runs out in 11 h 00 min"),
        "the half-time reminder fires during the wait: {out}"
    );
}

#[test]
fn takat_perft_and_replay() {
    let o = bredon(&["perft", "--game", "takat", "--size", "7", "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1 6\n2 30\n3 210\n");
    let o = bredon(&["perft", "--game", "takat", "--size", "8", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("7 or 19"), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.takat.txt");
    std::fs::write(
        &path,
        "[Game \"Takat\"]\n[Size \"7\"]\n\n1. a1 c2\n2. a1-a2 b3\n3. a2-b2 1-0 {resigned}\n",
    )
    .unwrap();
    let o = bredon(&["replay", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "x,x/x,1,2/x,2 2 b2 3\n1-0\n");
    let o = bredon(&["replay", "--json", path.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["game"], "Takat");
    assert_eq!(v["plies"][2]["ptn"], "a1-a2");
    assert_eq!(v["plies"][2]["tps"], "x,1/x,x,x/x,2 2 a2 2");
    std::fs::write(&path, "[Game \"Takat\"]\n[Size \"7\"]\n\n1. b2\n").unwrap();
    let o = bredon(&["replay", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ply 1 (b2)"), "{}", stderr(&o));
}

#[test]
fn a_local_game_of_takat_to_a_stack_of_six_and_one_against_bredon() {
    let dir = tempfile::tempdir().unwrap();
    let plies = [
        "a1", "a2", "a1-a2", "a1", "b3", "b1", "b3-a2", "b1-a1", "b1", "a1-a2", "b1-a1", "b1",
        "b3", "b1-a1", "c1", "b1", "a1-a2", "b1-a1", "b3-b2", "c1-b2", "a1-b2", "a1-b2", "a1-b1",
        "b2-a2",
    ];
    let mut script =
        String::from("alice challenge bob game=takat seat=white\nbob accept\nalice b2\n");
    for (i, ply) in plies.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("{who} {ply}\n"));
    }
    script.push_str("alice stats game=takat\nquit\n");
    let out = local_in(&dir, &script);
    assert!(
        out.contains("alice (White) vs bob (Black), Takat on 7 circles"),
        "{out}"
    );
    assert!(
        out.contains("nobody may enter on the centre circle b2"),
        "{out}"
    );
    assert!(
        out.contains("bob played b2-a2. alice wins with a stack of six (1-0)."),
        "{out}"
    );
    assert!(
        out.contains("alice in Takat:\n  7 circles: no rated game yet, 1 win, 0 losses"),
        "{out}"
    );
    let record = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("takat.txt: "))
        .unwrap_or_else(|| panic!("no record in {out}"));
    let text = std::fs::read_to_string(dir.path().join(record)).unwrap();
    assert!(text.contains("[Game \"Takat\"]"), "{text}");
    let out = local("alice challenge bredon game=takat level=easy seat=white\nalice a1\nquit\n");
    assert!(out.contains("alice played a1."), "{out}");
    assert!(
        out.lines().any(|l| l.contains("Bredon played")),
        "Bredon answers with a Takat ply: {out}"
    );
}

#[test]
fn analyze_writes_the_annotated_ptn_and_the_chart_and_refuses_takat() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.ptn");
    std::fs::copy("tests/data/missed-road.ptn", &game).unwrap();
    let out = bredon(&["analyze", game.to_str().unwrap(), "--nodes", "5000"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("5. a2'?? Missed the road in one: e1 wins at once."),
        "{stdout}"
    );
    assert!(
        stdout.contains("Alice: ") && stdout.contains("Bob: "),
        "{stdout}"
    );
    let ptn = std::fs::read_to_string(dir.path().join("game.analysed.ptn")).unwrap();
    assert!(ptn.contains("[Annotator \"Bredon"), "{ptn}");
    assert!(ptn.contains("[Player1 \"Alice\"]"), "{ptn}");
    let chart = image::open(dir.path().join("game.eval.png")).unwrap();
    assert_eq!(chart.width(), 800);
    let takat = dir.path().join("takat.txt");
    std::fs::write(&takat, "[Game \"Takat\"]\n[Size \"7\"]\n\n1. d4 \n").unwrap();
    let out = bredon(&["analyze", takat.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("analysis is for Tak games"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The last standings table `bredon local` printed (the lines after the last header).
fn last_table(out: &str) -> Vec<String> {
    let start = out.rfind(" #  Player").expect("a standings table");
    out[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with(' ') && !l.starts_with("  "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_round_robin_of_five_through_bredon_local() {
    let dir = tempfile::tempdir().unwrap();
    let script = std::fs::read_to_string("tests/data/local-round-robin.txt").unwrap();
    let out = local_as(&dir, &["--moderator", "mod"], &script);
    // Every game opened in a channel of its own, two a round, with a bye each.
    assert_eq!(
        out.matches("(a channel for this game)").count(),
        10,
        "{out}"
    );
    assert!(
        out.contains(
            "Spring Cup is over: bob wins with 2½ points, ahead of dave on Sonneborn-Berger."
        ),
        "{out}"
    );
    // Worked out by hand in tests/support.
    assert_eq!(last_table(&out), support::ROUND_ROBIN_STANDINGS);
    let crosstable = out
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("picture: "))
        .filter(|p| p.ends_with("crosstable.png"))
        .expect("a crosstable picture");
    let img = image::open(dir.path().join(crosstable)).unwrap();
    assert!(
        img.width() <= 800,
        "readable when Discord shows it 400 px wide"
    );
}

#[test]
fn a_swiss_of_seven_through_bredon_local() {
    let dir = tempfile::tempdir().unwrap();
    let script = std::fs::read_to_string("tests/data/local-swiss.txt").unwrap();
    let out = local_as(&dir, &["--moderator", "mod"], &script);
    assert!(out.contains("gina withdrew from Cup"), "{out}");
    assert!(
        out.contains("Round 3: frank 0-1 erin."),
        "lost on time: {out}"
    );
    assert!(
        out.contains("  bob 1-0 gina (#cup-r3-bob-vs-gina)"),
        "{out}"
    );
    // Worked out by hand in tests/support.
    assert_eq!(last_table(&out), support::SWISS_STANDINGS);
}

#[test]
fn local_refuses_extra_words_cuts_long_echoes_and_numbers_pictures_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(100_000);
    let out = local_in(
        &dir,
        &format!(
            "alice challenge bob seat=white\nbob accept\nbob resign please\nbob ptn two\nalice {long}\n\
             alice notify reminder=12h\n"
        ),
    );
    assert!(
        out.contains("`resign` takes nothing after it (you wrote `please`)"),
        "{out}"
    );
    assert!(
        out.contains("`two` is not a game number: `history` lists them (#12)"),
        "{out}"
    );
    assert!(!out.contains("bob resigns"), "{out}");
    assert!(out.len() < 10_000, "the long command is not echoed whole");
    assert!(
        out.contains("reminders after 12h without a ply") && !out.contains("Every("),
        "{out}"
    );
    // A second run goes on numbering the pictures.
    let again = local_in(&dir, "alice board\n");
    assert!(again.contains("local-002.png"), "{again}");
    assert!(dir.path().join("local-pictures/local-001.png").exists());
    // A finished game by the number `history` gives it.
    let listed = local_in(&dir, "bob resign\nalice history\n");
    let id = listed
        .lines()
        .find_map(|l| l.split_once("> #").map(|(_, rest)| rest.to_string()))
        .and_then(|l| l.split_whitespace().next().map(String::from))
        .unwrap_or_else(|| panic!("a numbered game: {listed}"));
    let shown = local_in(&dir, &format!("carol board #{id}\ncarol ptn {id}\n"));
    assert!(
        shown.contains(&format!(
            "Game #{id}, alice vs bob, Tak on 6x6: bob resigns; alice wins"
        )),
        "{shown}"
    );
    assert!(shown.contains("[Result \"1-0\"]"), "{shown}");
    let away = local_in(
        &dir,
        "alice vacation start 3\nalice vacation\nalice vacation end\n",
    );
    assert!(
        away.contains("alice is on vacation until ")
            && away.contains("`vacation start DAYS` (e.g. `vacation start 5`) or `vacation end`")
            && away.contains(
                "alice is back: the clocks of 0 games run again; 3 unused days given back."
            ),
        "{away}"
    );
}

#[test]
fn local_has_rules_position_and_analyze_as_discord_does() {
    let dir = tempfile::tempdir().unwrap();
    let out = local_in(
        &dir,
        "rules\nrules takat\nposition x3/x,1,x/2,x2 1 2\nposition not a position\nanalyze\n\
         alice challenge bob size=3 seat=white\nbob accept\nalice a1\nbob c3\nalice b3\nbob c2\n\
         alice a3\nanalyze\n",
    );
    assert!(out.contains("Tak in one minute"), "{out}");
    assert!(out.contains("Takat in one minute"), "{out}");
    assert!(
        out.contains("local-001-rules.png") && out.contains("local-002-rules.png"),
        "{out}"
    );
    assert!(out.contains("local-003-position.png"), "{out}");
    assert!(out.contains("✗ this is not TPS"), "{out}");
    assert!(
        out.contains("✗ no game has finished in this channel yet"),
        "{out}"
    );
    // alice's road along rank 3 ends the game; the analysis writes its chart and annotated PTN.
    assert!(out.contains("alice wins"), "{out}");
    assert!(
        out.contains("eval.png") && out.contains("analysed.ptn"),
        "{out}"
    );
    let analysed = std::fs::read_dir(dir.path().join("local-pictures"))
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with("analysed.ptn"))
        .expect("the annotated PTN is written");
    let text = std::fs::read_to_string(analysed.path()).unwrap();
    assert!(text.contains("[Annotator \"Bredon"), "{text}");
}

#[test]
fn a_tournament_games_channel_keeps_its_name_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = local_as(
        &dir,
        &["--moderator", "mod"],
        "channel cup\nmod tournament create name=Cup format=rr limit=2 start=\"when full\"\nalice tournament join\nbob tournament join\n",
    );
    assert!(first.contains("(a channel for this game)"), "{first}");
    let again = local_in(&dir, "alice games\n");
    assert!(again.contains("#cup-r1-"), "named, not numbered: {again}");
}

#[test]
fn run_refuses_an_unknown_typed_plies_mode_before_connecting() {
    let work = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_bredon"))
        .arg("run")
        .env_clear()
        .current_dir(work.path())
        .env("DISCORD_TOKEN", "a-token")
        .env("BREDON_TYPED_PLIES", "sometimes")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("BREDON_TYPED_PLIES `sometimes`: write off (the default), mention"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tinue_prints_the_line_no_tinue_or_unknown_on_its_first_line() {
    let first_line = |args: &[&str]| {
        let o = bredon(args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains(" nodes in "), "{}", stderr(&o));
        stdout(&o).lines().next().unwrap_or_default().to_string()
    };
    // A road in one; a Tinuë three plies long (the reply shown is one of many that all lose).
    assert_eq!(
        first_line(&["tinue", "--tps", "x5/1,1,1,1,x/x5/2,2,2,x2/x5 1 5"]),
        "tinue e4"
    );
    let line = first_line(&[
        "tinue",
        "--tps",
        "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11",
    ]);
    assert!(line.starts_with("tinue 2b2+ "), "{line}");
    assert_eq!(line.split(' ').count(), 4, "{line}");
    assert_eq!(
        first_line(&["tinue", "--tps", "x5/x5/x2,1,x2/x5/x4,2 1 2"]),
        "no tinue"
    );
    let hard = "2,x,2,x2/x,1,2,2,x/2,221,2,1,1/12,221S,2,111121,112/x2,1S,x,1 2 22";
    assert_eq!(
        first_line(&["tinue", "--tps", hard, "--nodes", "100"]),
        "unknown"
    );
    // The defender of a double threat cannot escape; one facing a single threat can.
    let double = "x5/1,1,1,1,x/x5/1,1,1,1,x/2,2,2,2,2S 2 6";
    assert_eq!(
        first_line(&["tinue", "--defend", "--tps", double]),
        "no escape"
    );
    let single = "x5/1,1,1,1,x/x5/x5/2,2,2,x,2S 2 6";
    assert_eq!(
        first_line(&["tinue", "--defend", "--tps", single]),
        "escapes e4 Se4 Ce4"
    );
    let json: serde_json::Value = serde_json::from_str(&first_line(&[
        "tinue",
        "--json",
        "--tps",
        "x5/1,1,1,1,x/x5/2,2,2,x2/x5 1 5",
    ]))
    .unwrap();
    assert_eq!(json["verdict"], "tinue");
    assert_eq!(json["pv"], serde_json::json!(["e4"]));
    let o = bredon(&["tinue", "--tps", "x5/x5 1 1"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn puzzles_mine_writes_one_json_puzzle_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.ptn");
    let tps = "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11";
    let game = format!("[TPS \"{tps}\"]\n[Size \"5\"]\n\n11. 2b2+ a1 12. 2b1>\n");
    // The same game twice: its puzzle once.
    std::fs::write(&games, format!("{game}\n{game}")).unwrap();
    let o = bredon(&["puzzles", "mine", games.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 puzzle from 2 games"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let puzzle: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(puzzle["tps"], tps);
    assert_eq!(puzzle["first_plies"], serde_json::json!(["2b2+"]));
    assert_eq!(puzzle["plies"], 3);
    assert!(puzzle["origin"]
        .as_str()
        .unwrap()
        .ends_with("games.ptn game 1 ply 1"));
}

#[test]
fn finished_games_are_mined_for_puzzles_unless_their_server_opts_out() {
    let dir = tempfile::tempdir().unwrap();
    let tps = "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11";
    let game = format!(
        "alice challenge bob size=5 seat=white tps=\"{tps}\"\nbob accept\nalice 2b2+\nbob a1\nalice 2b1>\n"
    );
    let out = local_as(&dir, &["--moderator", "mod"], &game);
    assert!(out.contains("wins by road"), "{out}");
    let data = dir.path().join("data-local");
    let mine = || bredon(&["puzzles", "mine", "--archive", data.to_str().unwrap()]);
    let o = mine();
    assert!(o.status.success(), "{}", stderr(&o));
    let puzzle: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(puzzle["tps"], tps);
    let origin = puzzle["origin"].as_str().unwrap();
    assert!(
        origin.starts_with("server 1 game ") && origin.ends_with(" ply 1"),
        "{origin}"
    );
    let out = local_as(
        &dir,
        &["--moderator", "mod"],
        "mod settings puzzle_mining=off\n",
    );
    assert!(out.contains("settings:"), "{out}");
    let o = mine();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("1 server passed over"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn local_plays_a_puzzle_and_posts_the_daily_puzzle_after_a_wait() {
    let dir = tempfile::tempdir().unwrap();
    // Puzzle #3 (4x4): White wins with d3 or d4; the second hint names the road's last ply.
    let out = local_as(
        &dir,
        &["--moderator", "mod"],
        "alice puzzle number=3\nalice a3\nalice d4\nalice puzzle hint\nalice puzzle hint\n",
    );
    assert!(out.contains("Puzzle #3 · 4x4"), "{out}");
    assert!(out.contains("✗ a3 is not Tak"), "{out}");
    assert!(
        out.contains("alice played d4. Tak! Bredon answers"),
        "{out}"
    );
    let road = out
        .split("Hint: play ")
        .nth(1)
        .and_then(|t| t.split('.').next())
        .unwrap_or_else(|| panic!("no second hint: {out}"))
        .to_string();
    let out = local_as(
        &dir,
        &["--moderator", "mod"],
        &format!(
            "alice {road}\nalice leaderboard puzzles\nmod settings puzzle_channel=puzzles puzzle_hour=0\n\
             wait 25h\nbob puzzle daily\nbob puzzle give up\n"
        ),
    );
    assert!(out.contains("Puzzle #3 solved in "), "{out}");
    assert!(out.contains("1. alice "), "{out}");
    assert!(
        out.contains("daily puzzle in #puzzles at 00:00 UTC"),
        "{out}"
    );
    assert!(out.contains("[#puzzles] (timer)"), "{out}");
    assert!(out.contains("Daily puzzle of "), "{out}");
    assert!(out.contains("(privately) Puzzle #"), "{out}");
    assert!(out.contains("the winning line was"), "{out}");
}

/// `easy` against `beginner` on 5x5 (fast, and the same every run), the games kept in `ptn`;
/// what the match printed.
fn easy_vs_beginner(ptn: &std::path::Path, options: &[&str]) -> String {
    let mut args = vec![
        "match", "--a", "easy", "--b", "beginner", "--size", "5", "--ptn",
    ];
    args.push(ptn.to_str().unwrap());
    args.extend(options);
    let o = bredon(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn match_writes_its_games_and_tune_fits_weights_to_them() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.ptn");
    easy_vs_beginner(&games, &["--games", "20", "--openings", "10"]);
    let o = bredon(&["tune", "--ptn", games.to_str().unwrap(), "--rounds", "200"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("20 games, "), "{out}");
    let weights: Vec<f32> = out
        .lines()
        .find_map(|l| l.strip_prefix("pub const WEIGHTS: Weights = ["))
        .and_then(|l| l.strip_suffix("];"))
        .expect("the weights as Rust")
        .split(", ")
        .map(|w| w.parse().expect("a weight"))
        .collect();
    assert_eq!(weights.len(), bredon::engine::eval::FEATURES);
    let today = bredon::engine::eval::WEIGHTS;
    let moved = (0..weights.len())
        .filter(|&i| (weights[i] - today[i]).abs() > 0.05)
        .count();
    assert!(moved > 0, "the fit moved no weight: {out}");
    // Better than knowing nothing: saying 50% everywhere costs 0.25.
    let fitted: f64 = out
        .split("on the fitted ones ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .expect("the fitted weights' error");
    assert!(fitted < 0.25, "{out}");
    let o = bredon(&["tune", "--ptn", "no-such-file.ptn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read no-such-file.ptn"),
        "{}",
        stderr(&o)
    );
}

/// A match split over processes (`--first-game`) plays the same games as one run.
#[test]
fn a_match_started_at_a_later_game_plays_that_game_and_opening() {
    let dir = tempfile::tempdir().unwrap();
    let play = |name: &str, extra: &[&str]| {
        let path = dir.path().join(name);
        let out = easy_vs_beginner(&path, &[&["--openings", "2"], extra].concat());
        (out, std::fs::read_to_string(path).unwrap())
    };
    let (_, whole) = play("whole.ptn", &["--games", "4"]);
    let (out, tail) = play("tail.ptn", &["--games", "2", "--first-game", "3"]);
    assert!(out.starts_with("game 3: easy as White"), "{out}");
    assert!(out.contains("game 4: easy as Black"), "{out}");
    let games: Vec<&str> = whole.split("[Player1").collect();
    assert_eq!(games.len(), 5, "{whole}");
    assert_eq!(tail, format!("[Player1{}[Player1{}", games[3], games[4]));
}

/// `label` asks a teacher engine for its chances in every quiet position, and `tune --labels`
/// fits to them; an engine that reports no `wdl` cannot teach.
#[test]
fn label_records_a_teachers_chances_and_tune_fits_to_them() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.ptn");
    easy_vs_beginner(&games, &["--games", "10", "--openings", "5"]);
    let teacher = dir.path().join("teacher.sh");
    std::fs::write(
        &teacher,
        "while read line; do case \"$line\" in \
         tei) echo 'id name teacher'; echo teiok;; isready) echo readyok;; \
         go*) echo 'info depth 1 score cp 20 wdl 700 100 200'; echo 'bestmove a1';; esac; done\n",
    )
    .unwrap();
    let spec = format!("tei:sh {}", teacher.display());
    let o = bredon(&[
        "label",
        "--ptn",
        games.to_str().unwrap(),
        "--teacher",
        &spec,
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let labels = stdout(&o);
    let lines: Vec<&str> = labels.lines().collect();
    assert!(lines.len() > 50, "{labels}");
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[2], "0.7500", "a draw counts half: {line}");
        assert!(["0", "0.5", "1"].contains(&fields[1]), "{line}");
    }
    assert_eq!(lines.first().unwrap().split('\t').next(), Some("0"));
    assert_eq!(lines.last().unwrap().split('\t').next(), Some("9"));
    let file = dir.path().join("labels.tsv");
    std::fs::write(&file, &labels).unwrap();
    let tune = |share: &str| {
        bredon(&[
            "tune",
            "--labels",
            file.to_str().unwrap(),
            "--teacher-share",
            share,
            "--rounds",
            "100",
        ])
    };
    // The results alone fit; this teacher's chances, the same everywhere, teach nothing.
    let o = tune("0");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("10 games, "), "{}", stdout(&o));
    let o = tune("1");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("flats worth nothing"), "{}", stderr(&o));

    let own = format!("tei:{} tei", env!("CARGO_BIN_EXE_bredon"));
    let o = bredon(&["label", "--ptn", games.to_str().unwrap(), "--teacher", &own]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("reports no `wdl`"), "{}", stderr(&o));
}
