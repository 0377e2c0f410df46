//! The built-in engine and TEI: legal plies, roads in one, blocks, budgets, determinism, and
//! Bredon's TEI server driven by Bredon's TEI client.

use bredon::engine::{random_ply, search, search_remembering, tei, Level, Limits, Memory};
use bredon::service::{ChallengeOptions, Ctx, EngineOpponent, Service};
use bredon::store::records::{PlayerRef, Seat};
use bredon::store::Store;
use bredon::tak::{Color, Game, Komi, Position, Setup};
use std::time::Duration;

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

#[test]
fn always_a_legal_ply_in_random_positions() {
    let mut seed = 0x2545F4914F6CDD1Du64;
    for size in 3..=8 {
        for game_no in 0..4 {
            let mut p = Position::new(Setup::new(size).unwrap());
            for i in 0..(10 + game_no * 12) {
                if p.ply_index() > 0 && p.is_over() {
                    break;
                }
                if i % 3 == 0 {
                    let found = search(&p, nodes(400), i as u64).expect("the game is running");
                    assert!(
                        p.check(found.ply).is_ok(),
                        "{} illegal in {}",
                        p.ptn(found.ply),
                        p.to_tps()
                    );
                }
                let ply = random_ply(&p, &mut seed).unwrap();
                p.play(ply).unwrap();
            }
        }
    }
}

#[test]
fn takes_a_road_in_one() {
    for tps in [
        "x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 5",
        "x5/x5/x5/x2,1,x2/1,1,2,1,1 1 5",
        "x5/x5/x5/x2,1C,x2/1,1,2S,1,1 1 5",
    ] {
        let p = Position::from_tps(tps).unwrap();
        let found = search(&p, Level::Easy.limits(Duration::ZERO), 1).unwrap();
        let mut after = p.clone();
        after.play(found.ply).unwrap();
        assert!(
            after.has_road(Color::White),
            "{tps}: played {}",
            p.ptn(found.ply)
        );
        assert!(found.mate_in().is_some_and(|m| m > 0));
    }
}

#[test]
fn blocks_a_lone_threat() {
    // White threatens e3; Black must take it away (a piece on e3, or a capture).
    for tps in [
        "x5/x5/1,1,1,1,x/x5/2,2,x3 2 5",
        "x6/x6/1,1,1,1,1,x/x6/2,2,2,x3/x6 2 6",
    ] {
        let p = Position::from_tps(tps).unwrap();
        assert!(p.is_tak(Color::White));
        for level in [Level::Easy, Level::Medium] {
            let found = search(&p, level.limits(Duration::ZERO), 3).unwrap();
            let mut after = p.clone();
            after.play(found.ply).unwrap();
            assert!(
                !after.is_tak(Color::White),
                "{level:?} in {tps} played {} and left the road open",
                p.ptn(found.ply)
            );
        }
    }
}

#[test]
fn respects_its_node_budget_and_is_deterministic() {
    let p =
        Position::from_tps("x6/x2,2,1,x2/x,1,2,21,1,x/x,2,1112C,2S,x2/x2,1,2,x2/x6 1 11").unwrap();
    // The budget is looked at every 1,024 nodes; once it has run out, the plies of the first
    // two levels left to look at are finished with a static look at each reply. Nothing more.
    let mut root = Vec::new();
    p.generate_plies(&mut root);
    let mut finish = 0;
    for &ply in &root {
        let mut after = p.clone();
        after.play(ply).unwrap();
        finish += 1 + after.count_plies();
    }
    let a = search(&p, nodes(20_000), 9).unwrap();
    assert!(
        a.depth >= 3 && a.nodes <= 20_000 + 1_024 + finish,
        "{} nodes to depth {} for a budget of 20,000 (at most {} to finish two plies)",
        a.nodes,
        a.depth,
        finish
    );
    let b = search(&p, nodes(20_000), 9).unwrap();
    assert_eq!((a.ply, a.nodes, a.score), (b.ply, b.nodes, b.score));
    let timed = search(
        &p,
        Limits {
            time: Some(Duration::from_millis(100)),
            ..Limits::default()
        },
        9,
    )
    .unwrap();
    assert!(timed.depth >= 2);
}

/// What a search leaves for the next of the same game: the position two plies on, searched as
/// deep as the last search saw it, costs fewer nodes than afresh (so under a clock the next
/// search's first iterations come almost free).
#[test]
fn the_next_search_of_a_game_starts_from_what_the_last_one_left() {
    let p =
        Position::from_tps("x6/x2,2,1,x2/x,1,2,21,1,x/x,2,1112C,2S,x2/x2,1,2,x2/x6 1 11").unwrap();
    let depth = |d| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let mut memory = Memory::default();
    let mut line = Vec::new();
    search_remembering(&mut memory, &p, depth(6), 9, |it| {
        line = it.lines[0].1.clone()
    })
    .unwrap();
    // The line it expected: its ply, then the reply.
    let mut next = p.clone();
    for &ply in &line[..2] {
        next.play(ply).unwrap();
    }
    let fresh = search(&next, depth(4), 9).unwrap();
    let kept = search_remembering(&mut memory, &next, depth(4), 9, |_| {}).unwrap();
    assert!(
        kept.nodes < fresh.nodes,
        "{} nodes with the memory, {} afresh",
        kept.nodes,
        fresh.nodes
    );
    // A new game's memory is empty: the same search as afresh, node for node.
    let again = search_remembering(&mut Memory::default(), &next, depth(4), 9, |_| {}).unwrap();
    assert_eq!((again.ply, again.nodes), (fresh.ply, fresh.nodes));
}

/// From depth 4 an iteration first searches a window around the last score; a forced road
/// found past it is searched again until the window holds it, so its distance is exact. In
/// this starter puzzle depth 4 sees about half a flat, depth 5 the Tinuë after 4e4-22 (or
/// 3e4-12, the puzzle's other first ply): a road in 7 plies.
#[test]
fn a_forced_road_beyond_the_aspiration_window_is_scored_exactly() {
    let komi = Komi::parse("2").unwrap();
    let p = Position::from_tps_with(
        "2,2,x4/2,1,1,1C,x2/x,2S,21221222221S,1,2121,x/1,21,x,1,211122112,x/\
         2,12221S,2,2,x,1/x2,211112C,2,2,1 1 49",
        Setup::new(6).unwrap().with_komi(komi),
    )
    .unwrap();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mut scores = Vec::new();
    let found = search_remembering(&mut Memory::default(), &p, limits, 9, |it| {
        scores.push(it.lines[0].0)
    })
    .unwrap();
    assert!(scores.len() > 3 && scores[3].abs() < 1_000, "{scores:?}");
    assert!(["4e4-22", "3e4-12"].contains(&p.ptn(found.ply).as_str()));
    assert_eq!(found.mate_in(), Some(7), "{scores:?}");
}

/// Black has one piece left and leads by three flats, with no road in reach: whatever White
/// plays (a placement, or a flat or stack moved onto Black's), Black's last placement ends the
/// game and wins it. A leaf where the side to move can end the race is searched one ply
/// further, so even a one-ply search sees the loss instead of weighing the position.
#[test]
fn a_one_ply_search_sees_the_opponent_end_the_flat_race_with_its_last_piece() {
    let p = Position::from_tps("2,2,2,221/2,2,221,x/2,221,x2/1,2,2,1 1 20").unwrap();
    assert_eq!(p.reserve(Color::Black).total(), 1);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let found = search(&p, limits, 9).unwrap();
    assert_eq!(found.mate_in(), Some(-2), "scored {}", found.score);
}

#[test]
fn beats_a_random_player() {
    let mut seed = 77;
    let mut wins = 0;
    for g in 0..6u64 {
        let engine_color = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut game = Game::new(Position::new(Setup::new(4).unwrap()));
        while game.result().is_none() && game.plies().len() < 200 {
            let p = game.position();
            let ply = if p.to_move() == engine_color {
                search(p, Level::Easy.limits(Duration::ZERO), g)
                    .unwrap()
                    .ply
            } else {
                random_ply(p, &mut seed).unwrap()
            };
            game.play(ply).unwrap();
        }
        if game.result().and_then(|r| r.winner()) == Some(engine_color) {
            wins += 1;
        }
    }
    assert_eq!(wins, 6);
}

#[test]
fn bredon_tei_answers_bredons_tei_client() {
    let mut client =
        tei::Client::spawn(env!("CARGO_BIN_EXE_bredon"), &["tei".to_string()]).unwrap();
    assert_eq!(client.name, "Bredon");
    let setup = Setup::new(5).unwrap();
    let ply = client
        .best_ply(None, &setup, &[], Duration::from_millis(100))
        .unwrap();
    let mut p = Position::new(setup);
    p.play_ptn(&bredon::tak::Ply::parse(&ply).unwrap()).unwrap();
    // From a position with a road in one, after moves.
    let plies: Vec<String> = ["e1", "a1", "a3", "a5", "b3", "b5", "c3", "c5", "d3", "d5"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let best = client
        .best_ply(None, &setup, &plies, Duration::from_millis(200))
        .unwrap();
    assert_eq!(best, "e3");
    // A TPS start.
    let best = client
        .best_ply(
            Some("x5/x5/x5/x2,1,x2/1,1,2,1,1 1 5"),
            &setup,
            &[],
            Duration::from_millis(100),
        )
        .unwrap();
    assert_eq!(best, "c2-");
}

#[test]
fn a_silent_or_missing_engine_is_refused_with_a_clear_reason() {
    // A program that never answers `tei`: the handshake times out with a clear error (after a
    // second, not the 10 s a real engine is given).
    let silent = ["-c".into(), "sleep 30".into()];
    let err = tei::Client::spawn_within("sh", &silent, Duration::from_secs(1))
        .err()
        .unwrap();
    assert!(
        err.contains("did not answer `teiok`") || err.contains("exited"),
        "{err}"
    );
    let err = tei::Client::spawn("/no/such/engine", &[]).err().unwrap();
    assert!(err.contains("cannot start the engine"), "{err}");
}

/// A shell engine that answers the handshake and dies at `go`, leaving `mark`; once the mark
/// exists it is Bredon's own `bredon tei` (a crash, then a working restart), unless `always`.
fn crashing_engine(mark: &std::path::Path, always: bool) -> Vec<String> {
    let mark = mark.display();
    let healed = match always {
        true => String::new(),
        false => format!(
            "if [ -e {mark} ]; then exec {} tei; fi; ",
            env!("CARGO_BIN_EXE_bredon")
        ),
    };
    let script = format!(
        "{healed}while read line; do case \"$line\" in \
         tei) echo 'id name crashy'; echo teiok;; isready) echo readyok;; \
         go*) touch {mark}; exit 1;; esac; done"
    );
    vec!["sh".into(), "-c".into(), script]
}

/// A service with an engine game at `level` in channel 1 where Bredon (White) is to move.
fn engine_game(dir: &std::path::Path, me: &PlayerRef, level: &str) -> Service {
    let service = Service::new(Store::open(dir).unwrap());
    let alice = PlayerRef {
        id: 111,
        name: "alice".into(),
    };
    let at = |user: &PlayerRef| Ctx {
        guild: 9,
        channel: 1,
        user: user.clone(),
        now_ms: 0,
        moderator: false,
        request: None,
    };
    let options = ChallengeOptions {
        opponent: Some(me.clone()),
        engine: Some(level.into()),
        seat: Seat::Black,
        size: Some(5),
        ..ChallengeOptions::default()
    };
    service.challenge(&at(&alice), &options).unwrap();
    service.accept(&at(me)).unwrap();
    service
}

#[test]
fn an_engine_that_crashes_mid_game_is_restarted_and_one_that_keeps_crashing_is_reported() {
    let me = PlayerRef {
        id: 900,
        name: "Bredon".into(),
    };
    let think = Duration::from_millis(50);
    let plies = |s: &Service| s.store().game(1).unwrap().unwrap().plies;
    // It crashes at its first `go`; restarted, it plays.
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("crashed");
    let service = engine_game(&dir.path().join("db"), &me, "strongest");
    let engine = EngineOpponent::new(me.clone(), Some(crashing_engine(&mark, false)), think);
    let played = engine
        .act(&service, 1, 1000)
        .unwrap()
        .expect("Bredon moves");
    assert!(mark.exists(), "the engine really crashed first");
    assert!(played.text.starts_with("Bredon played "), "{}", played.text);
    assert_eq!(plies(&service).len(), 1);
    // It crashes every time: a clear reason, and the game as it was.
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("crashed");
    let service = engine_game(&dir.path().join("db"), &me, "strongest");
    let engine = EngineOpponent::new(me, Some(crashing_engine(&mark, true)), think);
    let why = engine.act(&service, 1, 1000).expect_err("reported");
    assert!(
        why.contains("exited") && why.contains("after a restart"),
        "{why}"
    );
    assert!(plies(&service).is_empty(), "nothing was played");
}

/// The configured engine plays only `strongest`: every other level keeps its own strength.
#[test]
fn levels_below_strongest_are_the_built_in_searcher_even_with_an_engine_configured() {
    let me = PlayerRef {
        id: 900,
        name: "Bredon".into(),
    };
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("crashed");
    let service = engine_game(&dir.path().join("db"), &me, "medium");
    let engine = EngineOpponent::new(
        me,
        Some(crashing_engine(&mark, true)),
        Duration::from_millis(50),
    );
    let played = engine
        .act(&service, 1, 1000)
        .unwrap()
        .expect("Bredon moves");
    assert!(played.text.starts_with("Bredon played "), "{}", played.text);
    assert!(!mark.exists(), "the engine was never started");
}

/// `bredon tei` as a child: send lines, read its answers up to a line that starts with `until`.
struct Session {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Session {
    fn start() -> Session {
        use std::io::BufRead;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bredon"))
            .arg("tei")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        use std::io::Write;
        writeln!(self.stdin, "{text}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no `{prefix}` after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

#[test]
fn tei_reports_each_iteration_and_refuses_what_it_cannot_do() {
    let mut s = Session::start();
    s.send("tei");
    let hello = s.until("teiok");
    for option in ["HalfKomi", "Hash", "MultiPV"] {
        assert!(
            hello
                .iter()
                .any(|l| l.contains(&format!("option name {option} "))),
            "{hello:?}"
        );
    }
    s.send("teinewgame 5");
    s.send("position startpos moves a1 e5");
    s.send("go depth 3");
    let answer = s.until("bestmove");
    let infos: Vec<&String> = answer
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "one info line per iteration: {answer:?}");
    for word in ["depth", "seldepth", "score", "nodes", "nps", "time", "pv"] {
        assert!(
            infos[2].split(' ').any(|w| w == word),
            "{word} in {}",
            infos[2]
        );
    }
    // The principal variation starts with the move played.
    let best = answer.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(infos[2].contains(&format!(" pv {best}")), "{answer:?}");
    // MultiPV 3: three lines per iteration, best first.
    s.send("setoption name MultiPV value 3");
    s.send("go depth 2");
    let answer = s.until("bestmove");
    let last_depth: Vec<&String> = answer
        .iter()
        .filter(|l| l.starts_with("info depth 2 "))
        .collect();
    assert_eq!(last_depth.len(), 3, "{answer:?}");
    assert!(last_depth[2].contains("multipv 3"));
    s.send("setoption name MultiPV value 1");
    // An invalid position clears the old one: `go` answers an error, never a move for it.
    s.send("position startpos moves a1 zz9");
    let error = s.until("info string error");
    assert!(error.last().unwrap().contains("zz9"));
    s.send("go depth 2");
    let answer = s.until("bestmove");
    assert_eq!(answer.last().unwrap(), "bestmove (none)");
    assert!(
        answer.iter().any(|l| l.contains("no position")),
        "{answer:?}"
    );
    // A finished game answers at once.
    s.send("position tps x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 6");
    s.send("go infinite");
    let answer = s.until("bestmove");
    assert!(
        answer.iter().any(|l| l.contains("the game is over")),
        "{answer:?}"
    );
    assert_eq!(answer.last().unwrap(), "bestmove (none)");
    // A second `go` while searching is refused; `stop` ends the first with a move.
    s.send("position startpos moves a1 e5");
    s.send("go infinite");
    s.send("go depth 1");
    let refused = s.until("info string error");
    assert!(
        refused.last().unwrap().contains("already searching"),
        "{refused:?}"
    );
    s.send("stop");
    let answer = s.until("bestmove");
    assert_ne!(answer.last().unwrap(), "bestmove (none)");
}

#[test]
fn tei_half_komi_set_after_position_applies_to_the_next_search() {
    let mut s = Session::start();
    s.send("tei");
    s.until("teiok");
    s.send("teinewgame 3");
    // 3x3, Black to move, the board one square from full: White 5 flats, Black 3. A flat on b2
    // fills it: 5 to 4 loses without komi, and wins with two flats of komi.
    s.send("position tps 1,2,1/2,x,1/1,1,2 2 5");
    s.send("setoption name HalfKomi value 4");
    s.send("go depth 1");
    let with_komi = s.until("bestmove");
    s.send("setoption name HalfKomi value 0");
    s.send("go depth 1");
    let without = s.until("bestmove");
    assert_ne!(
        last_score(&with_komi),
        last_score(&without),
        "{with_komi:?} {without:?}"
    );
    assert!(last_score(&with_komi).starts_with("mate"), "{with_komi:?}");
}

/// The score of a search's last `info depth` line ("cp 120", "mate -1").
fn last_score(lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap()
        .split(" score ")
        .nth(1)
        .unwrap()
        .split(" nodes")
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn the_tei_client_starts_one_game_per_game_not_per_ply() {
    let mut client =
        tei::Client::spawn(env!("CARGO_BIN_EXE_bredon"), &["tei".to_string()]).unwrap();
    let setup = Setup::new(5).unwrap();
    let t = Duration::from_millis(30);
    let mut plies: Vec<String> = Vec::new();
    for _ in 0..4 {
        let ply = client.best_ply(None, &setup, &plies, t).unwrap();
        plies.push(ply);
    }
    assert_eq!(
        client.new_games, 1,
        "four plies of one game, one teinewgame"
    );
    // Another game (the plies do not continue the last ones): a new teinewgame.
    client
        .best_ply(None, &setup, &["e5".to_string()], t)
        .unwrap();
    assert_eq!(client.new_games, 2);
}

#[test]
fn match_openings_are_distinct_and_open() {
    let setup = Setup::new(6)
        .unwrap()
        .with_komi(bredon::tak::Komi::from_halves(4).unwrap());
    let book = bredon::cli::engine::openings(setup, 60);
    assert_eq!(book.len(), 60);
    let mut finals = std::collections::HashSet::new();
    for line in &book {
        assert_eq!(line.len(), 4);
        let mut p = Position::new(setup);
        for &ply in line {
            p.check(ply).expect("legal");
            p.play_unchecked(ply);
        }
        assert!(finals.insert(p.to_tps()), "distinct positions");
    }
}

/// The ply `level` chooses at the start of a game's memory, with no time to think.
fn choose_afresh(level: Level, p: &Position, seed: u64) -> Option<bredon::tak::Ply> {
    bredon::engine::choose(level, &mut Memory::default(), p, Duration::ZERO, seed)
}

#[test]
fn the_beginner_never_misses_a_road_in_one_but_makes_a_new_players_mistakes() {
    for tps in [
        "x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 5",
        "x5/x5/x5/x2,1,x2/1,1,2,1,1 1 5",
    ] {
        let p = Position::from_tps(tps).unwrap();
        for seed in 0..20 {
            let ply = choose_afresh(Level::Beginner, &p, seed).unwrap();
            let mut after = p.clone();
            after.play(ply).unwrap();
            assert!(after.has_road(Color::White), "{tps}, seed {seed}");
        }
    }
    // Through random games: every ply legal, and some differ from what easy would play.
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let (mut compared, mut differ) = (0, 0);
    for game in 0..6u64 {
        let mut p = Position::new(Setup::new(5).unwrap());
        for i in 0..20u64 {
            if p.ply_index() > 0 && p.is_over() {
                break;
            }
            let seed = game << 8 | i;
            let beginner = choose_afresh(Level::Beginner, &p, seed).expect("the game runs");
            assert!(p.check(beginner).is_ok(), "legal");
            let easy = choose_afresh(Level::Easy, &p, seed).unwrap();
            compared += 1;
            differ += usize::from(beginner != easy);
            let ply = random_ply(&p, &mut state).unwrap();
            p.play(ply).unwrap();
        }
    }
    assert!(
        differ * 5 >= compared,
        "{differ} of {compared} differ from easy"
    );
    assert!(differ < compared, "it is not purely random");
}

/// `mate N` counts the side to move's moves up to and including the road, as UCI does: White,
/// to move after 5... b5 of `tests/data/repro/analysis-loss-count-5x5.ptn`, has d2 a1 e2, a road
/// on its second move (it said `mate 1`, counting a road in one as made already).
#[test]
fn tei_counts_mate_in_the_side_to_moves_moves() {
    let mut s = Session::start();
    s.send("tei");
    s.until("teiok");
    s.send("teinewgame 5");
    let game = "e1 a5 a2 e4 b2 b4 c2 a4 d3 b5";
    // White to move; then Black, to move after 6. d2, loses on White's next move.
    for (moves, mate) in [
        (game.to_string(), "mate 2"),
        (format!("{game} d2"), "mate -1"),
    ] {
        s.send(&format!("position startpos moves {moves}"));
        s.send("go depth 4");
        let lines = s.until("bestmove");
        assert_eq!(last_score(&lines), mate, "{lines:?}");
    }
}
