//! `bredon local`: games, timers, Takat, tournaments, pictures and records in the terminal.

use crate::process::{bredon, stderr, stdout};
use crate::support;
use std::io::Write;
use std::process::{Command, Stdio};

/// `bredon local` with these lines on stdin, in a fresh folder: its output.
pub(crate) fn local(lines: &str) -> String {
    local_in(&tempfile::tempdir().unwrap(), lines)
}

pub(crate) fn local_in(dir: &tempfile::TempDir, lines: &str) -> String {
    local_as(dir, &[], lines)
}

/// `bredon local` with `args` (e.g. `--moderator mod`).
pub(crate) fn local_as(dir: &tempfile::TempDir, args: &[&str], lines: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bredon"))
        .arg("local")
        .env_remove("BREDON_WEB_URL")
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
        out.contains("Round 3: frank 0-1 erin (game #8)."),
        "lost on time: {out}"
    );
    assert!(
        out.contains("  bob 1-0 gina (game #9) in #cup-r3-bob-vs-gina"),
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
        out.contains("Reminders: after 12h without a ply") && !out.contains("Every("),
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
fn local_games_are_numbered_from_one_in_the_order_they_began() {
    let dir = tempfile::tempdir().unwrap();
    let out = local_in(
        &dir,
        "alice challenge bob size=3 seat=white\nbob accept\nalice a1\nbob resign\n\
         channel second\nalice challenge bob size=3 seat=white\nbob accept\nalice c3\nbob resign\n\
         channel third\nalice challenge bob size=3 seat=white\nbob accept\n\
         alice history\ncarol games\ncarol board 3\n",
    );
    assert!(
        out.contains("bob resigns; alice wins (1-0). Game #1.")
            && out.contains("bob resigns; alice wins (1-0). Game #2."),
        "{out}"
    );
    assert!(
        out.contains("> #2 alice vs bob, Tak on 3x3") && out.contains("\n#1 alice vs bob"),
        "newest first: {out}"
    );
    assert!(out.contains("  game #3 in #third: alice vs bob"), "{out}");
    assert!(
        out.contains("game #3 of this server has not finished yet"),
        "{out}"
    );
    // After a restart the numbers name the same games.
    let again = local_in(&dir, "carol board 1\ncarol ptn #2\n");
    assert!(
        again.contains("Game #1, alice vs bob, Tak on 3x3: bob resigns; alice wins (1-0)."),
        "{again}"
    );
    assert!(again.contains("1. c3\n1-0"), "game #2's record: {again}");
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
fn local_conditional_plies_are_kept_privately_and_answer_at_once() {
    let out = local(
        "alice challenge bob size=5 seat=white\nbob accept\nalice move a1 then e5 b1 d5 c1\n\
         alice premove\nbob e5\nalice premove e4 b2\nbob premove a2 a3\nalice premove clear\n\
         bob a2\nalice move c1 then b5\nalice move c1 b5\nquit\n",
    );
    assert!(
        out.contains("(privately) Your conditional plies (bob never sees them):\n1. if e5: b1, then if d5: c1"),
        "{out}"
    );
    // The Move form's line is confirmed privately, beside the public ply.
    assert!(
        out.contains("alice played a1. bob to move.\n(privately) Kept: 1 line.\n"),
        "{out}"
    );
    assert!(
        out.contains("bob played e5. alice answered with a conditional ply: b1. bob to move."),
        "{out}"
    );
    assert!(out.contains("it is your move: a line starts with"), "{out}");
    assert!(out.contains("(privately) Cleared: 2 lines."), "{out}");
    // A refused line leaves its ply unplayed, and says so.
    assert!(
        out.contains(
            "c1 was not played, as the line given with it was refused: a line is pairs of plies"
        ),
        "{out}"
    );
    assert!(out.contains("a move is one ply (you added `b5`)"), "{out}");
}

#[test]
fn local_history_says_how_games_ended_and_the_series_line_names_its_points() {
    let out = local(
        "alice challenge bob size=5 seat=white time=1d\nbob accept\nalice a1\nbob e5\nwait 25h\n\
         alice challenge bob size=5 seat=white\nbob accept\nalice a1\nbob e5\nalice b1\nbob resign\n\
         alice history\nalice leaderboard\nquit\n",
    );
    // The game: a time-out after two plies read "0-1 (2 plies)" and "alice 0 – 46 bob".
    assert!(out.contains(": 0-1 on time (2 plies)"), "{out}");
    assert!(out.contains(": 1-0 by resignation (3 plies)"), "{out}");
    assert!(
        out.contains(
            "  Series after 1 game: alice 0 – 46 bob (rulebook points: a win scores the board's \
             squares plus the pieces the winner has left)."
        ),
        "{out}"
    );
    assert!(
        out.contains("Tak on 5x5 (the size you play most; size=N shows another):"),
        "{out}"
    );
}

#[test]
fn local_refuses_a_level_with_a_person_and_on_off_words_it_cannot_read() {
    let out = local_as(
        &tempfile::tempdir().unwrap(),
        &["--moderator", "mod"],
        "alice challenge bob level=hard\nalice notify dm=maybe\nalice notify dm\n\
         alice challenge bob rated=sure\nalice challenge bob blind=1\n\
         mod tournament create name=Cup vacations=never\nmod settings puzzle_mining=perhaps\n\
         alice notify dm=on\nalice challenge bob size=5\nbob accept\nalice draw maybe\nquit\n",
    );
    assert!(
        out.contains(
            "✗ a level sets Bredon's strength, so it needs Bredon as the opponent: leave the \
             level out to challenge bob, or write `challenge bredon level=...` to play Bredon"
        ),
        "{out}"
    );
    assert!(
        !out.contains("Bredon (Black)") && !out.contains("Bredon (White)"),
        "{out}"
    );
    for refused in [
        "✗ dm=maybe: write dm=on or dm=off (yes/no and true/false work too)",
        "✗ `dm` is not a notify option: dm=on|off, reminder=12h|off|game, digest=18|off",
        "✗ rated=sure: write rated=on or rated=off",
        "✗ blind=1: write blind=on or blind=off",
        "✗ vacations=never: write vacations=on or vacations=off",
        "✗ puzzle_mining=perhaps: write puzzle_mining=on or puzzle_mining=off",
        "✗ `draw maybe`: answer with `draw yes` or `draw no`, or write `draw` alone to ask",
    ] {
        assert!(out.contains(refused), "{refused} in: {out}");
    }
    assert!(
        out.contains("Direct messages when it is your move: on."),
        "{out}"
    );
    assert!(!out.contains("offers a draw"), "{out}");
}

#[test]
fn local_notes_are_checked_capped_listed_to_fit_and_written_into_takat_records_too() {
    let long = "x".repeat(301);
    let mut lines = format!(
        "alice challenge bob size=5 seat=white\nbob accept\nalice note {long}\nalice a1\nbob e5\n"
    );
    // A note after a ply taken back stays after the last ply left.
    lines.push_str("alice b1\nalice note after b1\nalice undo\n");
    for i in 1..=60 {
        lines.push_str(&format!("alice note plan number {i}: {}\n", "y".repeat(40)));
    }
    lines.push_str("alice note\nalice ptn notes\n");
    lines.push_str(
        "channel other\nalice challenge bob game=takat seat=white\nbob accept\nalice note takat plan\n\
         alice a1\nbob resign\nalice ptn notes\nquit\n",
    );
    let out = local(&lines);
    assert!(
        out.contains("a note holds at most 300 characters, and this one has 301"),
        "{out}"
    );
    assert!(
        out.contains("you keep 60 notes on this game already"),
        "{out}"
    );
    // The list holds the newest notes that fit one message, and says how many came before.
    let list = out
        .split("Your notes on game #1 (only you see them):\n")
        .nth(1)
        .expect("the list");
    let list = &list[..list.find("\n[#").unwrap()];
    assert!(list.starts_with("… 37 earlier notes not shown"), "{list}");
    let newest = format!("after ply 2 (e5): plan number 59: {}", "y".repeat(40));
    assert!(list.ends_with(&newest), "{list}");
    assert!(list.chars().count() < 2000, "{}", list.chars().count());
    assert!(
        !list.contains("plan number 1:"),
        "the oldest are left out: {list}"
    );
    assert!(out.contains("e5 {after b1} {plan number 1: y"), "{out}");
    assert!(out.contains("1. {takat plan} a1"), "{out}");
}

#[test]
fn local_challenges_start_where_a_ptns_main_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("g.ptn"),
        "[Size \"5\"]\n[Komi \"1.5\"]\n\n1. a1 e5\n2. c3 {a comment} d3\n\n{4b1}\n2. -- c2\n",
    )
    .unwrap();
    let out = local_in(
        &dir,
        "alice challenge bob ptn=g.ptn seat=white\nbob accept\nalice moves\n\
         channel plies\nalice challenge bob size=6 tps=\"1. a1 f6 2. c3\" seat=white\nbob accept\nbob moves\n\
         channel road\nalice challenge bob size=5 tps=\"1. e5 a1 2. b1 e4 3. c1 e3 4. d1 e2 5. e1\"\n\
         alice challenge bob size=5 tps=\"1. a1 e5 2. z9\"\n\
         alice challenge bob tps=\"1. a1 e5\" rated\nquit\n",
    );
    // The file's main line (its branch left out), with the komi it names.
    assert!(
        out.contains("alice (White) vs bob (Black), Tak on 5x5, komi 1.5. alice to move."),
        "{out}"
    );
    let legal = |n: usize| {
        out.lines()
            .filter(|l| l.contains("legal plies:"))
            .nth(n)
            .unwrap()
    };
    // d3 is taken by the main line; c2, the branch's, is still empty.
    assert!(
        !legal(0).contains(" d3 ") && legal(0).contains(" c2 "),
        "{out}"
    );
    assert!(
        legal(0).contains(" c3+") && legal(0).contains(" e5<"),
        "{out}"
    );
    // Plies alone play on the challenge's board; Black moves next, its stone on a1.
    assert!(out.contains("Tak on 6x6, komi 0. bob to move."), "{out}");
    assert!(
        !legal(1).contains(" c3 ") && legal(1).contains(" a1+"),
        "{out}"
    );
    assert!(
        out.contains("the starting position is already decided"),
        "{out}"
    );
    assert!(out.contains("ply 3 (`z9`): `z9` is not a ply"), "{out}");
    assert!(
        out.contains("games from a position cannot be rated"),
        "{out}"
    );
}

#[test]
fn local_turns_the_web_pages_on_with_a_new_address_on_reset_and_off() {
    let out = local_as(
        &tempfile::tempdir().unwrap(),
        &["--moderator", "mod"],
        "alice settings web=on\nmod settings web=on\nmod settings web=on\n\
         mod settings web_reset=on\n\
         alice challenge bob size=3 seat=white\nbob accept\nalice a1\nbob board\nbob resign\n\
         mod settings web=off\nmod settings web_reset=on\nalice board\nquit\n",
    );
    assert!(
        out.contains("✗ only a server moderator (Manage Server) can change Bredon's settings"),
        "{out}"
    );
    let slugs: Vec<&str> = out
        .lines()
        .filter_map(|line| line.trim().strip_prefix("web pages at /s/"))
        .map(|rest| rest.split(' ').next().unwrap())
        .collect();
    assert_eq!(slugs.len(), 3, "{out}");
    assert_eq!(slugs[0], slugs[1], "turned on again, the address stays");
    assert_ne!(slugs[1], slugs[2], "reset, it changes");
    assert!(slugs.iter().all(|s| s.len() == 24));
    assert!(out.contains("✗ this server's web pages are off"), "{out}");
    // `/board` and a result give the game's page (its path, as BREDON_WEB_URL is not set),
    // once each here: the board after the pages are off gives none.
    let page = format!(
        "  on the web: /s/{}/game/1 (below BREDON_WEB_URL)",
        slugs[2]
    );
    assert_eq!(out.matches(&page).count(), 2, "{out}");
    assert_eq!(out.matches("on the web:").count(), 2, "{out}");
}

/// The daily digest lists its games in the terminal as its direct message does on Discord: a
/// line a game, with the opponent, their last ply and how long ago (the digest's hour is the
/// next one, and the clock moves on an hour to reach it).
#[test]
fn local_digest_lists_each_waiting_game() {
    let hour_ms = 3_600_000;
    let mut now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    // Not at the very end of an hour: the session reads the clock a moment later, so near the
    // end it first moves its own clock a minute on.
    let mut first = "";
    if now % hour_ms > hour_ms - 20_000 {
        first = "wait 1m\n";
        now += 60_000;
    }
    let next = (now / hour_ms + 1) % 24;
    let out = local(&format!(
        "{first}alice challenge bob size=5 seat=white\nbob accept\nalice a1\n\
         bob notify digest={next}\nwait 1h\nquit\n"
    ));
    assert!(out.contains("Daily digest: your move in 1 game."), "{out}");
    assert!(
        out.contains("  - #local vs alice · played a1 1 h 00 min ago"),
        "{out}"
    );
}

/// `wait` moves the clock on for good: a restart goes on from where it was, so a game's time
/// runs out across two runs (20 h, then 5 h of a 1-day limit) as it would in one.
#[test]
fn local_wait_is_kept_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    let first = local_in(
        &dir,
        "alice challenge bob size=5 seat=white time=1d\nbob accept\nalice a1\nwait 20h\nquit\n",
    );
    assert!(!first.contains("ran out of time"), "{first}");
    let second = local_in(&dir, "wait 5h\nquit\n");
    assert!(
        second.contains("(the clock is 20 h 00 min ahead of the real time, as `wait` left it)"),
        "{second}"
    );
    assert!(second.contains("ran out of time"), "{second}");
}

/// Words that are plies breaking a rule get the rule, not "is not a command": a count of two
/// digits, a ply typed in full-width letters.
#[test]
fn local_plies_that_break_a_rule_say_which() {
    let out = local(
        "alice challenge bob size=5 seat=white\nbob accept\nalice 99a1>\nalice \u{FF41}1\nquit\n",
    );
    assert!(
        out.contains("`99a1>` is not a ply: a count is one digit, 1 to 8"),
        "{out}"
    );
    assert!(
        out.contains("`\u{FF41}1` is not a ply: it has characters PTN does not use"),
        "{out}"
    );
    assert!(!out.contains("is not a command"), "{out}");
}

#[test]
fn local_answers_name_the_sessions_commands_not_discords() {
    let out = local(
        "alice challenge bob size=5 seat=white\nbob accept\nalice a1\nbob premove b1 c1\n\
         alice premove b1 c1\nalice note a plan\nbob resign\nalice note too late\nquit\n",
    );
    // "it is your move: … (the Move form takes a line with your ply)" on Discord.
    assert!(
        out.contains("(`move PLY then LINE` takes a line with your ply)"),
        "{out}"
    );
    assert!(
        out.contains("`note` lists them, and after the game `ptn notes` writes them"),
        "{out}"
    );
    assert!(
        out.contains("`ptn 1 notes` gives you your notes on it"),
        "{out}"
    );
    for discord in ["`/", " /", ":True", "Move form"] {
        assert!(!out.contains(discord), "{discord} in {out}");
    }
}

#[test]
fn local_series_line_keeps_its_sides_when_a_rematch_swaps_the_colours() {
    let out = local(
        "alice challenge bob size=5 seat=white\nbob accept\nalice a1\nbob e5\nalice b1\n\
         bob resign\nbob rematch\nalice accept\nbob a1\nalice e5\nbob b1\nalice d5\nbob c1\nalice resign\nquit\n",
    );
    assert!(
        out.contains("Series after 1 game: alice 45 – 0 bob"),
        "{out}"
    );
    // bob has White in the rematch: the series still names alice first.
    assert!(out.contains("bob (White) vs alice (Black)"), "{out}");
    assert!(
        out.contains("Series after 2 games: alice 45 – 44 bob"),
        "{out}"
    );
}
