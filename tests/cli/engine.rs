//! The engine's commands: `tinue`, `puzzles mine`, `match`, `tune`, `label`, `tei`, `analyze`.

use crate::local::local_as;
use crate::process::{bredon, stderr, stdout};
use bredon::engine::net;
use bredon::tak::PtnFile;

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

/// Puzzle #67 as first mined: the proof-number solver's line of 46 plies (2c2+ eight times).
const CIRCLING_PUZZLE: &str = r#"{"tps":"1,12,x2,12S/2,2,2112S,1,x/2,2S,12,1,1/1,212121C,x,1112C,1/x3,1,x 1 26","komi":"0","size":5,"to_move":"white","solution":["e1","2e5-11","4b2>","b3-","3c2+21*","4d2+22","3d3<111","a4-","4c3-22","3b2>","2c4-11*","Sb2","2c2+","b2>","c3-*","Sb2","2c2+","b2>","c3-*","Sb2","2c2+","b2>","c3-*","Sb2","2c2+","b2>","c3-*","Sb2","2c2+","b2>","c3-*","Sb2","2c2+","b2>","c3-*","Sb2","2c2+","b2>","c3-*","Sb2","2c2+","b2>","c3-*","2e3-11","b2","a1"],"first_plies":["e1"],"plies":46,"nodes":184362,"origin":"games-5x5.ptn game 15 ply 51"}"#;

#[test]
fn puzzles_refine_gives_the_shortest_line_and_retires_past_21_plies_and_mine_appends() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.jsonl");
    std::fs::write(&file, format!("{CIRCLING_PUZZLE}\n")).unwrap();
    let path = file.to_str().unwrap();
    let o = bredon(&["puzzles", "refine", path, "--out", path]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("0 retired"), "{}", stderr(&o));
    let refined: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&file).unwrap().trim()).unwrap();
    assert_eq!(refined["plies"], 13);
    assert_eq!(refined["solution"].as_array().unwrap().len(), 13);
    assert!(refined.get("retired").is_none(), "{refined}");
    // With too few positions to find it, the stored line stands, and 46 plies is too long.
    std::fs::write(&file, format!("{CIRCLING_PUZZLE}\n")).unwrap();
    let o = bredon(&["puzzles", "refine", path, "--nodes", "10", "--out", path]);
    assert!(
        stderr(&o).contains("puzzle 1 retired: its line is 46 plies, longer than 21"),
        "{}",
        stderr(&o)
    );
    let retired = std::fs::read_to_string(&file).unwrap();
    // Mining appends after it, and a position the file holds is not mined twice.
    let games = dir.path().join("games.ptn");
    let tps = "x,1,x3/x,1,1,2,x/x,12,x,2,2/x,121,x3/x,121S,x3 1 11";
    let game = format!("[TPS \"{tps}\"]\n[Size \"5\"]\n\n11. 2b2+ a1 12. 2b1>\n");
    std::fs::write(&games, &game).unwrap();
    let mine = || {
        bredon(&[
            "puzzles",
            "mine",
            games.to_str().unwrap(),
            "--out",
            path,
            "--append",
        ])
    };
    assert!(mine().status.success());
    assert!(mine().status.success());
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.starts_with(&retired), "{after}");
    assert_eq!(after.lines().count(), 2, "{after}");
    assert!(after.lines().nth(1).unwrap().contains(tps));
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
    // Forty games: in twenty, `easy` (with the 5x5 network) won so much on roads that the fit
    // found flats worth nothing.
    easy_vs_beginner(&games, &["--games", "40", "--openings", "20"]);
    let o = bredon(&["tune", "--ptn", games.to_str().unwrap(), "--rounds", "200"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("40 games, "), "{out}");
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
    // On the positions it fitted, better than today's weights (which a nudge of one weight
    // would not be) and than knowing nothing: saying 50% everywhere costs 0.25.
    let errors: Vec<f64> = out
        .split("on the fitted ones ")
        .nth(1)
        .expect("the errors on the fitted positions")
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter_map(|t| t.parse().ok())
        .take(2)
        .collect();
    let [today_error, fitted] = errors[..] else {
        panic!("today's weights' error and the fitted ones': {out}");
    };
    assert!(fitted < today_error && fitted < 0.25, "{out}");
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

/// A match says how A's games were decided, by a road or on flats, as its PTN records them.
#[test]
fn a_match_counts_its_wins_and_losses_by_road_and_on_flats() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.ptn");
    // Random plies on 3x3 (seeded by the game and ply, so the same every run) end both ways.
    let mut args: Vec<&str> = "match --a random --b random --size 3 --games 20 --openings 10"
        .split_whitespace()
        .collect();
    args.extend(["--ptn", path.to_str().unwrap()]);
    let o = bredon(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let ptn = std::fs::read_to_string(&path).unwrap();
    // A's wins by road and on flats, then its losses by road and on flats.
    let mut counts = [0; 4];
    // Both players are named `random`: A is White in games 1, 3, 5 ...
    for (i, game) in PtnFile::parse_all(&ptn).unwrap().iter().enumerate() {
        let a_is_white = i % 2 == 0;
        let (white_won, flats) = match game.tag("Result") {
            Some("R-0") => (true, 0),
            Some("F-0") => (true, 1),
            Some("0-R") => (false, 0),
            Some("0-F") => (false, 1),
            _ => continue,
        };
        counts[flats + if white_won == a_is_white { 0 } else { 2 }] += 1;
    }
    let [road_wins, flat_wins, road_losses, flat_losses] = counts;
    assert!(
        road_wins + road_losses > 0 && flat_wins + flat_losses > 0,
        "{ptn}"
    );
    let line = format!(
        "random won {road_wins} by a road and {flat_wins} on flats; \
         lost {road_losses} by a road and {flat_losses} on flats"
    );
    assert!(stdout(&o).contains(&line), "{line}\n{}", stdout(&o));
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
    // A teacher that stops after 30 positions: the 30 lines written are whole, and `--from`
    // goes on from there, the two outputs together the whole run's.
    let tired = dir.path().join("tired.sh");
    std::fs::write(
        &tired,
        "n=0; while read line; do case \"$line\" in \
         tei) echo 'id name tired'; echo teiok;; isready) echo readyok;; \
         go*) n=$((n+1)); [ $n -gt 30 ] && exit 0; \
         echo 'info depth 1 score cp 20 wdl 700 100 200'; echo 'bestmove a1';; esac; done\n",
    )
    .unwrap();
    let path = games.to_str().unwrap();
    let tired = format!("tei:sh {}", tired.display());
    let o = bredon(&["label", "--ptn", path, "--teacher", &tired]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("30 of "), "{}", stderr(&o));
    assert!(stderr(&o).contains("--from 30 goes on"), "{}", stderr(&o));
    let rest = bredon(&["label", "--ptn", path, "--teacher", &spec, "--from", "30"]);
    assert!(rest.status.success(), "{}", stderr(&rest));
    assert_eq!(format!("{}{}", stdout(&o), stdout(&rest)), labels);
    let past = (lines.len() + 1).to_string();
    let o = bredon(&["label", "--ptn", path, "--teacher", &spec, "--from", &past]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("past the last"), "{}", stderr(&o));
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
    // The network trains on the same labels and writes itself in its own shape.
    let net = |path: &std::path::Path| {
        let labels = file.to_str().unwrap();
        let net = path.to_str().unwrap();
        bredon(&["tune", "--labels", labels, "--net", net, "--epochs", "2"])
    };
    let written = dir.path().join("net.txt");
    let o = net(&written);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("epoch 2: held out"), "{}", stdout(&o));
    let text = std::fs::read_to_string(&written).unwrap();
    let shape = format!("{} {} ", net::INPUTS, net::HIDDEN);
    assert!(text.starts_with(&shape), "{text}");
    let o = net(&dir.path().join("no-such-folder/net.txt"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
    // A network is trained for one size: a 6x6 position among 5x5 ones is refused.
    assert!(stdout(&net(&written)).contains("positions of 5x5 to fit"));
    let mixed = dir.path().join("mixed.tsv");
    std::fs::write(
        &mixed,
        format!("{labels}0\t1\t0.5\t2\tx6/x6/x2,1,2,x2/x6/x6/x6 1 3\n"),
    )
    .unwrap();
    let o = bredon(&[
        "tune",
        "--labels",
        mixed.to_str().unwrap(),
        "--net",
        written.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("one board size"), "{}", stderr(&o));

    let own = format!("tei:{} tei", env!("CARGO_BIN_EXE_bredon"));
    let o = bredon(&["label", "--ptn", games.to_str().unwrap(), "--teacher", &own]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("reports no `wdl`"), "{}", stderr(&o));
}

#[test]
fn analyze_keeps_the_players_comments_and_branches_and_analyses_a_branch_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.ptn");
    std::fs::copy("tests/data/wild/ninja-branches.ptn", &game).unwrap();
    let path = game.to_str().unwrap();
    let analysed = dir.path().join("game.analysed.ptn");
    let o = bredon(&["analyze", path, "--nodes", "2000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let main = std::fs::read_to_string(&analysed).unwrap();
    for kept in [
        "a1 {corners first}",
        "c1 {building the road}",
        "\n\n{2w1}\n2. c3 {the centre} b5",
        "\n\n{4b1/6w1}\n6. a2",
    ] {
        assert!(main.contains(kept), "{kept} in {main}");
    }
    // A branch by name: Black's missed block, then White's missed road, judged in the branch.
    let o = bredon(&["analyze", path, "--nodes", "2000", "--branch", "4b1/6w1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("Branch 4b1/6w1: 12 plies\n"), "{out}");
    assert!(
        out.contains("5... d5'?? Leaves the Tak unanswered: White wins with e2."),
        "{out}"
    );
    assert!(
        out.contains("6. a2'?? Missed the road in one: e2 wins at once."),
        "{out}"
    );
    let branch = std::fs::read_to_string(&analysed).unwrap();
    // Marks where the analysed plies stand: in the branch it departs from, and its own.
    assert!(
        branch.contains("{4b1}\n4. -- e1\n5. d2' d5'?? {Leaves"),
        "{branch}"
    );
    assert!(
        branch.contains("{4b1/6w1}\n6. a2'?? {Missed the road in one"),
        "{branch}"
    );
    assert!(
        branch.contains("5. e1\nR-0\n"),
        "the main line as it was: {branch}"
    );
    let back = bredon::tak::PtnFile::parse(&branch).unwrap();
    assert_eq!(back.branches.len(), 4, "PTN Ninja's form read back");
    assert_eq!(back.replay().unwrap().plies().len(), 9);
    let o = bredon(&["analyze", path, "--branch", "9w1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the file has no branch `9w1`; its branches: `2w1`, `4b1`"),
        "{}",
        stderr(&o)
    );
}

/// A game where White builds a road on row 1 while Black plays elsewhere, then looks away from
/// it: Black's 4... d5 leaves e1 open (a wall there was the last defence), and White's 5. a2
/// misses the road in one.
const MISSED_ROAD: &str = "[Size \"5\"]\n[Player1 \"alice\"]\n[Player2 \"bob\"]\n\n\
                           1. a5 a1\n2. b1 b5\n3. c1 c5\n4. d1 d5\n5. a2 e5\n";

/// A player's own marks stay: where the analysis marks a ply otherwise (the player's `5. a2!!`
/// misses a road in one), the player's mark is kept in a comment beside the analysis's.
#[test]
fn analyze_keeps_the_players_own_marks_beside_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("marked.ptn");
    let marked = MISSED_ROAD
        .replace("1. a5 a1", "1. a5 a1!?")
        .replace("5. a2", "5. a2!!");
    std::fs::write(&file, marked).unwrap();
    let o = bredon(&["analyze", file.to_str().unwrap(), "--nodes", "2000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ptn = std::fs::read_to_string(dir.path().join("marked.analysed.ptn")).unwrap();
    assert!(
        ptn.contains("5. a2'?? {Marked !! in the record} {Missed the road in one"),
        "{ptn}"
    );
    assert!(
        ptn.contains("1. a5 a1!?"),
        "unjudged, the player's mark: {ptn}"
    );
}

/// `tests/data/repro/analysis-tei-swap-6x6.ptn` through a TEI engine: the opening plies place
/// the opponent's piece, and are marked no more than Bredon's own analysis marks them (it said
/// "1. c6? Bredon gives White 56% with a6").
#[test]
fn analyze_by_a_tei_engine_marks_no_opening_ply() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("swap.ptn");
    std::fs::copy("tests/data/repro/analysis-tei-swap-6x6.ptn", &file).unwrap();
    let engine = format!("tei:{} tei", env!("CARGO_BIN_EXE_bredon"));
    let args = ["--engine", &engine, "--movetime", "50"];
    let o = bredon(&[&["analyze", file.to_str().unwrap()], &args[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines().any(|l| l.starts_with("27... ")),
        "the game is judged: {out}"
    );
    assert!(
        !out.lines()
            .any(|l| l.starts_with("1. ") || l.starts_with("1... ")),
        "{out}"
    );
}

#[test]
fn analyze_by_an_external_tei_engine_marks_plies_by_the_chances_they_give_away() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("missed.ptn");
    std::fs::write(&file, MISSED_ROAD).unwrap();
    // Bredon's own `tei` stands in for the server's engine (Tiltak in practice).
    let engine = format!("tei:{} tei", env!("CARGO_BIN_EXE_bredon"));
    let o = bredon(&[
        "analyze",
        file.to_str().unwrap(),
        "--engine",
        &engine,
        "--movetime",
        "50",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("alice: 1 blunder (??)"), "{out}");
    let blunder = out
        .lines()
        .find(|l| l.starts_with("5. a2'??"))
        .unwrap_or_else(|| panic!("{out}"));
    // What the rules say exactly (as Bredon's own analysis says it), then the engine, named,
    // with the chances on both sides of the ply.
    assert_eq!(
        blunder,
        "5. a2'?? Missed the road in one: e1 wins at once. \
         (Bredon gives White 100%, 0% after this ply)"
    );
    let annotated = std::fs::read_to_string(dir.path().join("missed.analysed.ptn")).unwrap();
    assert!(
        annotated.contains("[Annotator \"Bredon (through Bredon "),
        "{annotated}"
    );
    let refused = bredon(&["analyze", file.to_str().unwrap(), "--engine", "tiltak"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("--engine tiltak: write bredon or tei:PROGRAM"),
        "{}",
        stderr(&refused)
    );
    let missing = bredon(&[
        "analyze",
        file.to_str().unwrap(),
        "--engine",
        "tei:/no/such/engine",
    ]);
    assert!(
        stderr(&missing).contains("cannot start the engine /no/such/engine"),
        "{}",
        stderr(&missing)
    );
}

/// An engine that crashes in the middle of a match ends it with a message naming the engine,
/// not silently (the CLI's SIGPIPE default once killed `match` and `label` without a word).
#[test]
fn a_match_whose_engine_exits_fails_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let quitter = dir.path().join("quitter.sh");
    std::fs::write(&quitter, "read line; echo 'id name quitter'; echo teiok\n").unwrap();
    let spec = format!("tei:sh {}", quitter.display());
    let o = bredon(&[
        "match", "--a", "easy", "--b", &spec, "--size", "5", "--games", "1",
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(stderr(&o).contains("the engine quitter"), "{}", stderr(&o));
}
