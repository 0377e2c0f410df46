//! The Tak Engine Interface: `serve` speaks it on stdin/stdout (`bredon tei`), `Client` drives an
//! external engine (a Tiltak binary, or Bredon itself) as a child process.

use super::{search_remembering, tei_score, Iteration, Limits, Memory, TABLE_ENTRY_BYTES};
use crate::tak::{Komi, Ply, Position, Setup};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Answers TEI commands read from `input` on `output` until `quit` or the end of input.
pub fn serve(input: impl BufRead + Send + 'static, mut output: impl Write + Send + 'static) {
    let (lines_tx, lines) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let out = Arc::new(std::sync::Mutex::new(move |text: &str| {
        let _ = writeln!(output, "{text}");
        let _ = output.flush();
    }));
    let say = |text: &str| (out.lock().expect("output lock"))(text);
    let mut half_komi: i8 = 0;
    let mut size = 6;
    let mut hash_mb: usize = DEFAULT_HASH_MB;
    let mut multi_pv: usize = 1;
    // The last valid `position` command, read again at `go` so a later HalfKomi applies.
    let mut position: Option<Vec<String>> = None;
    let mut thinking: Option<Thinking> = None;
    // What the searches of this game left, between searches (`None`: start afresh). A new game,
    // komi or table size forgets it.
    let mut memory: Option<Box<Memory>> = None;
    for line in lines {
        // A search that has answered need not be kept (it says so before its `bestmove`, so a
        // client that saw the answer never finds it still "searching").
        if let Some(t) = thinking.take_if(|t| t.answered.load(Ordering::SeqCst)) {
            memory = t.handle.join().ok();
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("tei") => {
                say("id name Bredon");
                say("id author the Bredon developers");
                say("option name HalfKomi type spin default 0 min -41 max 41");
                say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"
                ));
                say(&format!(
                    "option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"
                ));
                say("teiok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => match set_option(&words) {
                Some(("halfkomi", n)) => match i8::try_from(n).ok().map(Komi::from_halves) {
                    Some(Ok(_)) => {
                        half_komi = n as i8;
                        memory = None;
                    }
                    _ => say("info string error HalfKomi is -41..41 (half flats)"),
                },
                Some(("hash", n)) if (1..=4096).contains(&n) => {
                    hash_mb = n as usize;
                    memory = None;
                }
                Some(("multipv", n)) if (1..=MAX_MULTI_PV as i64).contains(&n) => {
                    multi_pv = n as usize
                }
                Some((name, _)) => say(&format!("info string error {name}: value out of range")),
                None => say("info string error setoption name <HalfKomi|Hash|MultiPV> value <n>"),
            },
            Some("teinewgame") => {
                if let Some(n) = words.get(1).and_then(|n| n.parse().ok()) {
                    size = n;
                }
                position = None;
                memory = None;
            }
            Some("position") => {
                let rest: Vec<String> = words[1..].iter().map(|w| w.to_string()).collect();
                match parse_position(&words[1..], size, half_komi) {
                    Ok(_) => position = Some(rest),
                    Err(e) => {
                        // Never search the previous position by mistake.
                        position = None;
                        say(&format!("info string error {e}"));
                    }
                }
            }
            Some("go") => {
                if thinking.is_some() {
                    say("info string error already searching: send stop first");
                    continue;
                }
                let parsed = match &position {
                    None => Err("no position: send `position startpos` (or tps) first".into()),
                    Some(words) => {
                        let words: Vec<&str> = words.iter().map(String::as_str).collect();
                        parse_position(&words, size, half_komi)
                    }
                };
                let p = match parsed {
                    Ok(p) if p.ply_index() > 0 && p.is_over() => {
                        say("info string error the game is over: no move to search");
                        say("bestmove (none)");
                        continue;
                    }
                    Ok(p) => p,
                    Err(e) => {
                        say(&format!("info string error {e}"));
                        say("bestmove (none)");
                        continue;
                    }
                };
                let stop = Arc::new(AtomicBool::new(false));
                let answered = Arc::new(AtomicBool::new(false));
                let done = Arc::clone(&answered);
                let mut limits = go_limits(&words[1..], &p, Arc::clone(&stop));
                limits.table_entries = Some(hash_mb * 1024 * 1024 / TABLE_ENTRY_BYTES);
                limits.multi_pv = multi_pv;
                let out = Arc::clone(&out);
                let mut memory = memory.take().unwrap_or_default();
                let handle = std::thread::spawn(move || {
                    let say = |t: &str| (out.lock().expect("output lock"))(t);
                    let report = |it: &Iteration| {
                        for line in info_lines(&p, it) {
                            say(&line);
                        }
                    };
                    let found = search_remembering(&mut memory, &p, limits, 0x5EED, report);
                    done.store(true, Ordering::SeqCst);
                    match found {
                        Some(found) => say(&format!("bestmove {}", p.ptn(found.ply))),
                        None => say("bestmove (none)"),
                    }
                    memory
                });
                thinking = Some(Thinking {
                    handle,
                    stop,
                    answered,
                });
            }
            Some("stop") => {
                if let Some(t) = thinking.take() {
                    t.stop.store(true, Ordering::Relaxed);
                    memory = t.handle.join().ok();
                }
            }
            Some("quit") => break,
            _ => {}
        }
    }
    if let Some(t) = thinking.take() {
        t.stop.store(true, Ordering::Relaxed);
        let _ = t.handle.join();
    }
}

/// A search running on its own thread.
struct Thinking {
    /// Gives back the memory the search was lent.
    handle: std::thread::JoinHandle<Box<Memory>>,
    /// Set to stop it (`stop`, `quit`).
    stop: Arc<AtomicBool>,
    /// Set by the search just before it writes `bestmove`.
    answered: Arc<AtomicBool>,
}

const DEFAULT_HASH_MB: usize = 64;
const MAX_MULTI_PV: usize = 8;

/// `setoption name <Name> value <n>`: the option's name in lower case and its value.
fn set_option(words: &[&str]) -> Option<(&'static str, i64)> {
    let name = words.iter().position(|w| *w == "name")?;
    let value = words.iter().position(|w| *w == "value")?;
    let n = words.get(value + 1)?.parse::<i64>().ok()?;
    let known = ["halfkomi", "hash", "multipv"];
    let given = words[name + 1..value].join("").to_ascii_lowercase();
    known.into_iter().find(|k| *k == given).map(|k| (k, n))
}

/// One `info` line per line of the iteration (one, or `MultiPV` of them).
fn info_lines(p: &Position, it: &Iteration) -> Vec<String> {
    let ms = it.elapsed.as_millis().max(1);
    let nps = it.nodes as u128 * 1000 / ms;
    it.lines
        .iter()
        .enumerate()
        .map(|(i, (score, pv))| {
            let mut pos = p.clone();
            let moves: Vec<String> = pv
                .iter()
                .map(|&ply| {
                    let text = pos.ptn(ply);
                    pos.play_unchecked(ply);
                    text
                })
                .collect();
            let multipv = if it.lines.len() > 1 {
                format!(" multipv {}", i + 1)
            } else {
                String::new()
            };
            format!(
                "info depth {} seldepth {}{multipv} score {} nodes {} nps {nps} time {} pv {}",
                it.depth,
                it.seldepth,
                tei_score(*score),
                it.nodes,
                it.elapsed.as_millis(),
                moves.join(" ")
            )
        })
        .collect()
}

/// `startpos [moves ...]` or `tps <rows> <side> <move> [moves ...]`.
fn parse_position(words: &[&str], size: usize, half_komi: i8) -> Result<Position, String> {
    let setup = Setup::new(size)?.with_komi(Komi::from_halves(half_komi)?);
    let moves_at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut p = match head.first().copied() {
        Some("startpos") => Position::new(setup),
        Some("tps") => {
            let tps = head[1..].join(" ");
            let setup = Setup::new(crate::tak::tps::tps_size(&tps)?)?.with_komi(setup.komi);
            Position::from_tps_with(&tps, setup)?
        }
        _ => return Err("position needs startpos or tps".into()),
    };
    for m in moves {
        let ply = Ply::parse(m)?;
        p.play_ptn(&ply).map_err(|e| format!("{m}: {e}"))?;
    }
    Ok(p)
}

fn go_limits(words: &[&str], p: &Position, stop: Arc<AtomicBool>) -> Limits {
    let value = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let mut limits = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    if words.contains(&"infinite") {
        return limits;
    }
    if let Some(n) = value("nodes") {
        limits.nodes = Some(n);
    }
    if let Some(ms) = value("movetime") {
        limits.time = Some(Duration::from_millis(ms));
    }
    if let Some(depth) = value("depth") {
        limits.depth = Some(depth.clamp(1, 64) as u32);
    }
    let (time_key, inc_key) = if p.to_move() == crate::tak::Color::White {
        ("wtime", "winc")
    } else {
        ("btime", "binc")
    };
    if let Some(left) = value(time_key) {
        // A slice of what is left, plus most of the increment.
        let inc = value(inc_key).unwrap_or(0);
        limits.time = Some(Duration::from_millis(left / 20 + inc * 3 / 4));
    }
    if limits.nodes.is_none() && limits.time.is_none() && limits.depth.is_none() {
        limits.time = Some(Duration::from_secs(1));
    }
    limits
}

/// An external TEI engine as a child process.
pub struct Client {
    program: String,
    args: Vec<String>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    pub name: String,
    /// The game the engine is playing: its start, size, komi and the plies it has seen. A request
    /// that continues it needs no `teinewgame`.
    game: Option<(Option<String>, usize, i8, Vec<String>)>,
    /// How many `teinewgame`s were sent (for tests and the match runner's log).
    pub new_games: u32,
}

/// How long an engine has to answer `tei` with `teiok`.
const HANDSHAKE: Duration = Duration::from_secs(10);

impl Client {
    /// Starts the engine and completes the `tei` handshake, waiting 10 s at most for it.
    pub fn spawn(program: &str, args: &[String]) -> Result<Client, String> {
        Client::spawn_within(program, args, HANDSHAKE)
    }

    /// `spawn`, waiting `handshake` at most for the engine's `teiok` (a test of an engine that
    /// never answers waits less than the 10 s a real one is given).
    pub fn spawn_within(
        program: &str,
        args: &[String],
        handshake: Duration,
    ) -> Result<Client, String> {
        keep_running_on_a_closed_pipe();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the engine {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("the engine has no stdin")?;
        let stdout = child.stdout.take().ok_or("the engine has no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = Client {
            program: program.into(),
            args: args.to_vec(),
            child,
            stdin,
            lines,
            name: program.into(),
            game: None,
            new_games: 0,
        };
        c.send("tei")?;
        for line in c.until("teiok", handshake)? {
            if let Some(name) = line.strip_prefix("id name ") {
                c.name = name.to_string();
            }
        }
        Ok(c)
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.stdin, "{text}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("the engine {} stopped listening: {e}", self.name))
    }

    /// Lines up to and including one starting with `word`.
    fn until(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let mut seen = Vec::new();
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.split_whitespace().next() == Some(word);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "the engine {} did not answer `{word}` within {} s",
                        self.name,
                        timeout.as_secs()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the engine {} exited", self.name))
                }
            }
        }
    }

    /// The engine's ply for the position after `plies` from the start of `setup`.
    pub fn best_ply(
        &mut self,
        start_tps: Option<&str>,
        setup: &Setup,
        plies: &[String],
        movetime: Duration,
    ) -> Result<String, String> {
        self.set_position(start_tps, setup, plies)?;
        self.send(&format!("go movetime {}", movetime.as_millis()))?;
        let lines = self.until("bestmove", movetime + Duration::from_secs(10))?;
        let last = lines.last().expect("until returns the bestmove line");
        last.split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| format!("the engine {} sent `{last}` without a ply", self.name))
    }

    /// The side to move's chance in `tps` after the engine searched `nodes` nodes: its last
    /// `wdl` (wins, draws, losses per mille), a draw counting half. A teacher's label for
    /// `bredon label`; an engine that reports no `wdl` cannot be one.
    pub fn win_chance(&mut self, tps: &str, setup: &Setup, nodes: u64) -> Result<f32, String> {
        self.set_position(Some(tps), setup, &[])?;
        self.send(&format!("go nodes {nodes}"))?;
        let lines = self.until("bestmove", Duration::from_secs(60))?;
        lines.iter().rev().find_map(|l| wdl(l)).ok_or_else(|| {
            format!(
                "the engine {} reports no `wdl` in its `info` lines: a teacher must",
                self.name
            )
        })
    }

    /// The engine's ply and the side to move's chance (0 to 1) after `plies` from the start,
    /// searched for `movetime`: its last `wdl`, else its last score through a logistic (a
    /// `mate` is a certain result).
    pub fn judge(
        &mut self,
        start_tps: Option<&str>,
        setup: &Setup,
        plies: &[String],
        movetime: Duration,
    ) -> Result<(String, f32), String> {
        self.set_position(start_tps, setup, plies)?;
        self.send(&format!("go movetime {}", movetime.as_millis()))?;
        let lines = self.until("bestmove", movetime + Duration::from_secs(10))?;
        let last = lines.last().expect("until returns the bestmove line");
        let ply = last
            .split_whitespace()
            .nth(1)
            .map(str::to_string)
            .ok_or_else(|| format!("the engine {} sent `{last}` without a ply", self.name))?;
        let chance = lines
            .iter()
            .rev()
            .find_map(|l| wdl(l).or_else(|| score_chance(l)))
            .ok_or_else(|| format!("the engine {} reported no score before `{last}`", self.name))?;
        Ok((ply, chance))
    }

    fn set_position(
        &mut self,
        start_tps: Option<&str>,
        setup: &Setup,
        plies: &[String],
    ) -> Result<(), String> {
        // One `teinewgame` per game: the same start, size and komi, with plies that continue
        // the ones already sent, is the same game (so the engine keeps what it learned).
        let same_game = self.game.as_ref().is_some_and(|(tps, size, komi, seen)| {
            tps.as_deref() == start_tps
                && *size == setup.size
                && *komi == setup.komi.halves()
                && plies.starts_with(seen)
        });
        if !same_game {
            self.send(&format!(
                "setoption name HalfKomi value {}",
                setup.komi.halves()
            ))?;
            self.send(&format!("teinewgame {}", setup.size))?;
            self.new_games += 1;
        }
        self.game = Some((
            start_tps.map(String::from),
            setup.size,
            setup.komi.halves(),
            plies.to_vec(),
        ));
        let start = match start_tps {
            Some(tps) => format!("tps {tps}"),
            None => "startpos".into(),
        };
        let moves = if plies.is_empty() {
            String::new()
        } else {
            format!(" moves {}", plies.join(" "))
        };
        self.send(&format!("position {start}{moves}"))?;
        self.send("isready")?;
        self.until("readyok", Duration::from_secs(10)).map(drop)
    }

    /// Stops the engine and starts it again (after a crash or silence).
    pub fn restart(&mut self) -> Result<(), String> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        *self = Client::spawn(&self.program.clone(), &self.args.clone())?;
        Ok(())
    }
}

/// The CLI gives SIGPIPE its default back so that its output ends quietly when `head` stops
/// reading; a write to an engine that crashed would then end Bredon without a word (a match or
/// a labelling run stopping half way). Ignored, the write fails with "stopped listening".
fn keep_running_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: a signal's disposition is process-wide and may be set from any thread; ignoring
    // SIGPIPE only turns a write to a closed pipe into an error.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// The chance an `info` line's `wdl W D L` gives the side to move, a draw counting half.
fn wdl(line: &str) -> Option<f32> {
    let mut words = line.split_whitespace().skip_while(|&w| w != "wdl").skip(1);
    let mut next = || words.next()?.parse::<f32>().ok();
    let (w, d, l) = (next()?, next()?, next()?);
    (w + d + l > 0.0).then(|| (w + d / 2.0) / (w + d + l))
}

/// Hundredths of a flat that make the side to move's chance 10 to 1 in `score_chance`: about
/// what four flats ahead are worth in Bredon's games (an assumption for engines without `wdl`).
const LOGISTIC_CP: f32 = 400.0;

/// The chance an `info` line's `score cp N` or `score mate N` gives the side to move.
fn score_chance(line: &str) -> Option<f32> {
    let mut words = line
        .split_whitespace()
        .skip_while(|&w| w != "score")
        .skip(1);
    let (kind, value) = (words.next()?, words.next()?.parse::<f32>().ok()?);
    match kind {
        "cp" => Some(1.0 / (1.0 + 10f32.powf(-value / LOGISTIC_CP))),
        "mate" => Some(if value > 0.0 { 1.0 } else { 0.0 }),
        _ => None,
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_chance_is_read_from_wdl_with_a_draw_as_half() {
        let line = "info depth 6 seldepth 7 nodes 1000 score cp 16 wdl 581 20 399 time 4 pv e3";
        assert_eq!(super::wdl(line), Some(0.591));
        assert_eq!(super::wdl("info depth 6 score cp 16 pv e3"), None);
        assert_eq!(super::wdl("info wdl 0 0 0"), None);
        assert_eq!(super::wdl("info wdl 5 x 1"), None);
    }

    #[test]
    fn a_chance_is_read_from_a_score_where_there_is_no_wdl() {
        let chance = |l: &str| super::score_chance(l).unwrap();
        assert_eq!(chance("info depth 3 score cp 0 pv a1"), 0.5);
        assert!((chance("info score cp 400 pv a1") - 10.0 / 11.0).abs() < 1e-6);
        assert!((chance("info score cp -400 pv a1") - 1.0 / 11.0).abs() < 1e-6);
        assert_eq!(chance("info depth 9 score mate 2 pv a1"), 1.0);
        assert_eq!(chance("info depth 9 score mate -1 pv a1"), 0.0);
        assert_eq!(super::score_chance("info string hello"), None);
    }
}
