//! `bredon local`: the bot's commands in a terminal, as named users, through the same service.
//! Each line is `NAME COMMAND [ARGS]` (a leading `/` is fine): `alice challenge bob size=5`,
//! `bob accept`, `alice move c3`. Pictures are written to a folder and their paths printed.

mod commands;
mod puzzles;
mod show;
mod words;

use super::ground::Failure;
use crate::game::{explain, Kind};
use crate::service::{Ctx, EngineOpponent, FollowUp, Outcome, Refusal, Service};
use crate::store::Store;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};
use words::*;

#[derive(clap::Args)]
pub struct Args {
    /// Database folder for local games (kept apart from the bot's).
    #[arg(long, default_value = "./data-local")]
    data: PathBuf,
    /// Where board pictures are written.
    #[arg(long, default_value = "./local-pictures")]
    out: PathBuf,
    /// Users who may abort games and change settings.
    #[arg(long = "moderator")]
    moderators: Vec<String>,
}

const HELP: &str = "\
Each line: NAME COMMAND [ARGS]. Commands (as on Discord):
  challenge [OPPONENT|bredon] [game=tak|takat] [level=beginner|easy|medium|hard|strongest] [size=6] [komi=2] [seat=white|black|random] [opening=swap|no-swap]
            [rated] [blind] [time=1d] [reminder=12h|off] [theme=dark|light|colorblind|...]
            [reserves=21/1,21/1] [tps=\"x5/x5/x5/x5/x5 1 1\" | tps=\"1. a1 e5 2. c3\" | ptn=FILE] [stakes=university] [hide=heights,labels]
            [tray=on|off]
  accept | decline | cancel | rematch
  move PLY [then LINE] (also: PLY alone, e.g. `alice c3`; `then e3 d3; d4 c4` keeps conditional plies)
  premove [LINE | clear] (your answers left in advance: `premove e3 d3 f3 d4; d4 c4`, shown to you alone)
  note [TEXT] (a private note on your game here; alone: list yours) | ptn [GAME] notes (with your notes)
  undo | undo yes | undo no | draw | draw yes | draw no | resign | abort
  board [GAME] | ptn [GAME] | history [NAME] | stats [NAME] [game=takat] | leaderboard [game=takat] [size=N] | games | mygames | moves
  bid COINS (University games: sealed bid for the first move) | wallet [NAME] | wallet top
  notify [dm=on|off] [reminder=12h|off|game] [digest=18|off] | vacation start DAYS | vacation end
  settings [theme=..] [size=..] [reminder=..] [coins=..] [tournaments=anyone|moderators] [vacation_days=14]
           [komi=2 komi_size=6] [hide=heights,labels|none] [tray=on|off]
  settings web=on|off [web_reset=on]   (this server's read-only web pages, a new address with web_reset)
  tournament create name=\"Spring Cup\" [format=round-robin|double-round-robin|swiss] [rounds=3]
                    [limit=8] [start=\"when full\"|2h|manual] [size=..] [komi=..] [time=1d] [rated]
                    [vacations=no]
  tournament join | leave | start | standings | pairings | withdraw [NAME] | cancel
             (games of a round open in channels of their own, e.g. #spring-cup-r1-alice-vs-bob)
{PUZZLES}
Other lines: `channel NAME` (switch channel), `wait 25h` (advance the clock, fire timers),
`rules [takat]`, `position TPS` or `position ptn=FILE` (draw it), `analyze [GAME]` (the channel's
last finished game, or the one `history` numbers GAME: marks, chart and annotated PTN), `help`,
`quit`.";

struct Session {
    service: Service,
    /// Bredon itself, for `challenge bredon` (engine games).
    bredon: EngineOpponent,
    out: PathBuf,
    moderators: Vec<String>,
    channel: String,
    /// Every channel name used, to name channels in game lists (kept in `CHANNELS_FILE` of the
    /// data folder, so a channel opened for a tournament game keeps its name after a restart).
    channels: Vec<String>,
    data: PathBuf,
    offset_ms: i64,
    pictures: u32,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let store = Store::open(&args.data).map_err(|e| Failure::new(1, e.to_string()))?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Failure::new(1, format!("cannot create {}: {e}", args.out.display())))?;
    let mut s = Session {
        service: Service::new(store),
        bredon: EngineOpponent::from_env(user("Bredon")),
        out: args.out,
        moderators: args.moderators.iter().map(|m| m.to_lowercase()).collect(),
        channel: "local".into(),
        channels: known_channels(&args.data),
        data: args.data.clone(),
        offset_ms: kept_offset(&args.data),
        pictures: 0,
    };
    // Numbering goes on from an earlier run's pictures instead of overwriting them.
    s.pictures = last_picture_number(&s.out);
    println!(
        "bredon local: games in {}, pictures in {}. Type `help`.",
        args.data.display(),
        s.out.display()
    );
    if s.offset_ms > 0 {
        println!(
            "(the clock is {} ahead of the real time, as `wait` left it)",
            span(s.offset_ms)
        );
    }
    let stdin = std::io::stdin();
    let mut line = String::new();
    loop {
        print!("[#{}] > ", s.channel);
        std::io::stdout().flush().ok();
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(Failure::new(1, format!("cannot read input: {e}"))),
        }
        let words = split_words(line.trim());
        if words.is_empty() {
            continue;
        }
        if !s.command(&words) {
            break;
        }
    }
    Ok(())
}

/// Splits on spaces, keeping `"quoted text"` (and `key="quoted text"`) together.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

impl Session {
    fn now(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
            + self.offset_ms
    }

    fn ctx(&self, name: &str) -> Ctx {
        Ctx {
            guild: 1,
            channel: user(&self.channel).id,
            user: user(name),
            now_ms: self.now(),
            moderator: self.moderators.contains(&name.to_lowercase()),
            request: None,
        }
    }

    /// Runs one line; false to quit.
    fn command(&mut self, words: &[String]) -> bool {
        match words[0].as_str() {
            "quit" | "exit" => return false,
            "help" => println!("{}", HELP.replace("{PUZZLES}", puzzles::HELP)),
            "rules" => self.rules(&words[1..]),
            "position" => self.position(&words[1..]),
            "analyze" | "analyse" => self.analyze(&words[1..]),
            "channel" => match words.get(1) {
                Some(name) => {
                    self.channel = name.trim_start_matches('#').to_string();
                    self.remember_channel(self.channel.clone());
                }
                None => println!("which channel? `channel NAME`"),
            },
            "wait" => match words.get(1).map(|w| crate::service::parse_duration(w)) {
                Some(Ok(secs)) => {
                    self.offset_ms += secs as i64 * 1000;
                    println!("(the clock moves on {})", words[1]);
                    self.keep_offset();
                    // What fell due while waiting fires now, at the time it is now.
                    self.fire_timers();
                    self.bredon_turns();
                    self.tournament_work();
                }
                Some(Err(e)) => println!("{e}"),
                None => println!("how long? `wait 25h`"),
            },
            _ if words.len() < 2 => {
                println!("start with a user name, then the command: `alice challenge bob`")
            }
            _ => {
                let name = &words[0];
                let cmd = words[1].trim_start_matches('/');
                let rest = &words[2..];
                self.fire_timers();
                // A channel named in the settings is one to show posts in by name.
                let named = rest
                    .iter()
                    .filter_map(|w| w.strip_prefix("puzzle_channel="));
                for name in named
                    .map(|n| n.trim_start_matches('#').to_string())
                    .collect::<Vec<_>>()
                {
                    self.remember_channel(name);
                }
                let result = match cmd {
                    "tournament" => self.tournament_command(name, rest),
                    _ => self.user_command(name, cmd, rest),
                };
                match result {
                    Ok(Some(outcome)) => {
                        self.show(&outcome);
                        if outcome
                            .follow_ups(self.bredon.me.id)
                            .contains(&FollowUp::BredonActs)
                        {
                            self.bredon_turns();
                        }
                    }
                    Ok(None) => {}
                    Err(Refusal(why)) => {
                        println!("✗ {}", for_terminal(&why));
                        // As on Discord: a move Bredon owes (its engine failed) is tried again.
                        self.bredon_turns();
                    }
                }
                // The timers' share of tournaments (a start time come), as every tick on Discord.
                self.tournament_work();
            }
        }
        true
    }

    /// Writes a file of this channel's next picture number (`local-004-rules.png`), printing
    /// its path after `label`.
    fn save(&mut self, label: &str, name: &str, bytes: &[u8]) {
        self.pictures += 1;
        let path = self
            .out
            .join(format!("{}-{:03}-{name}", self.channel, self.pictures));
        match std::fs::write(&path, bytes) {
            Ok(()) => println!("  {label}: {}", path.display()),
            Err(e) => println!("  ✗ cannot write {}: {e}", path.display()),
        }
    }

    /// The rules in a minute, with their picture, as `/rules` gives them.
    fn rules(&mut self, words: &[String]) {
        let takat = words.iter().any(|w| w == "takat" || w == "game=takat");
        let kind = if takat { Kind::Takat } else { Kind::Tak };
        let text = match kind {
            Kind::Tak => explain::TAK_RULES,
            Kind::Takat => explain::TAKAT_RULES,
        };
        println!("{text}");
        let (png, _) = explain::rules_picture(kind);
        self.save("picture", "rules.png", &png);
    }

    /// Any position drawn, as `/position` draws it: a TPS (the words after `position`), or the
    /// final position of a record file (`ptn=game.ptn`).
    fn position(&mut self, words: &[String]) {
        let drawn = match words.iter().find_map(|w| w.strip_prefix("ptn=")) {
            Some(file) => std::fs::read_to_string(file)
                .map_err(|e| format!("cannot read {file}: {e}"))
                .and_then(|ptn| explain::position_picture(None, Some(&ptn), "dark")),
            None if words.is_empty() => {
                Err("which position? `position x5/x5/x5/x5/x5 1 1` or `position ptn=FILE`".into())
            }
            None => explain::position_picture(Some(&words.join(" ")), None, "dark"),
        };
        match drawn {
            Ok((png, alt)) => {
                println!("{alt}");
                self.save("picture", "position.png", &png);
            }
            Err(why) => println!("✗ {why}"),
        }
    }

    /// The channel's last finished game analysed, as `/analyze` does it.
    fn analyze(&mut self, rest: &[String]) {
        let ctx = self.ctx("local");
        let found = match game_number(rest).and_then(|id| self.service.finished_record(&ctx, id)) {
            Ok(found) => found,
            Err(Refusal(why)) => return println!("✗ {why}"),
        };
        let limits = crate::engine::Limits {
            time: Some(super::ground::analysis_per_position()),
            ..Default::default()
        };
        let theme = crate::render::Theme::default();
        match crate::service::analysis::analyze_ptn(&found.record, &limits, &theme, |_, _| {}) {
            Ok(report) => {
                if let Err(Refusal(why)) = self.service.keep_analysis(&ctx, found.game, &report) {
                    println!("✗ the analysis was not kept for the game's page: {why}");
                }
                for line in report.summary.iter().chain(&report.marked) {
                    println!("{line}");
                }
                println!("{}", report.link);
                self.save("chart", "eval.png", &report.chart);
                self.save("annotated PTN", "analysed.ptn", report.ptn.as_bytes());
            }
            Err(why) => println!("✗ {why}"),
        }
    }

    /// In a game against Bredon, its answers and plies.
    fn bredon_turns(&mut self) {
        let channel = user(&self.channel).id;
        for _ in 0..3 {
            match self.bredon.act(&self.service, channel, self.now()) {
                Ok(Some(outcome)) => self.show(&outcome),
                Ok(None) => return,
                Err(why) => {
                    println!("✗ Bredon's engine failed: {why}");
                    return;
                }
            }
        }
    }

    /// Keeps how far the clock was moved on for the next run (said if it cannot be).
    fn keep_offset(&self) {
        let file = self.data.join(CLOCK_FILE);
        if let Err(e) = std::fs::write(&file, self.offset_ms.to_string()) {
            println!(
                "  (the next run starts from the real time: {}: {e})",
                file.display()
            );
        }
    }

    /// Adds a channel's name to those shown in lists, for this run and the next.
    fn remember_channel(&mut self, name: String) {
        if self.channels.contains(&name) {
            return;
        }
        let line = format!("{name}\n");
        let file = self.data.join(CHANNELS_FILE);
        let kept = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .and_then(|mut f| std::io::Write::write_all(&mut f, line.as_bytes()));
        if let Err(e) = kept {
            println!(
                "  (the channel name is not kept for the next run: {}: {e})",
                file.display()
            );
        }
        self.channels.push(name);
    }

    /// What Discord's timer loop does for tournaments: their news in their channels, and a
    /// channel of its own for each new pairing's game.
    fn tournament_work(&mut self) {
        let news = match self.service.tournament_news(self.now()) {
            Ok(news) => news,
            Err(e) => return println!("✗ tournaments: {e}"),
        };
        let here = self.channel.clone();
        for event in news {
            self.channel = channel_name(event.channel, &self.channels);
            println!("🏆 [#{}]", self.channel);
            self.show(&event.outcome);
        }
        let pending = match self.service.pending_pairings() {
            Ok(p) => p,
            Err(e) => return println!("✗ tournaments: {e}"),
        };
        for p in pending {
            let name = slug(&p.name);
            let channel = user(&name).id;
            match self.service.start_pairing(p.fixture, channel, self.now()) {
                Ok(Some(outcome)) => {
                    self.remember_channel(name.clone());
                    self.channel = name;
                    println!("🏆 [#{}] (a channel for this game)", self.channel);
                    self.show(&outcome);
                }
                Ok(None) => {}
                Err(e) => println!("✗ {e}"),
            }
        }
        self.channel = here;
    }

    fn tournament_command(
        &mut self,
        name: &str,
        rest: &[String],
    ) -> Result<Option<Outcome>, Refusal> {
        let ctx = self.ctx(name);
        let sv = &self.service;
        let what = rest.first().map(String::as_str).unwrap_or("");
        let outcome = match what {
            "create" => sv.create_tournament(&ctx, &tournament_options(&rest[1..])?)?,
            "join" => sv.join_tournament(&ctx)?,
            "leave" => sv.leave_tournament(&ctx)?,
            "start" => sv.start_tournament(&ctx)?,
            "withdraw" => {
                let who = rest.get(1).map(|n| user(n.trim_start_matches('@')));
                sv.withdraw(&ctx, who.as_ref())?
            }
            "cancel" => sv.cancel_tournament(&ctx)?,
            "standings" => sv.tournament_standings(&ctx)?,
            "pairings" => {
                let view = sv.tournament_view(&ctx)?;
                let rounds = view.tournament.rounds.len();
                if rounds == 0 {
                    println!("{} has not started yet", view.tournament.name);
                }
                for r in 0..rounds {
                    println!("Round {}:", r + 1);
                    for line in view.round_lines(r) {
                        let place = line
                            .channel
                            .map(|c| format!(" in #{}", channel_name(c, &self.channels)))
                            .unwrap_or_default();
                        println!("  {}{place}", line.describe());
                    }
                }
                return Ok(None);
            }
            other => {
                return Err(Refusal(format!(
                    "`tournament {other}` is not known: create, join, leave, start, standings, \
                     pairings, withdraw or cancel"
                )))
            }
        };
        Ok(Some(outcome))
    }

    fn fire_timers(&mut self) {
        match self.service.tick(self.now()) {
            Ok(events) => {
                // Each event is shown in its own game's channel, and its files named after it.
                let here = self.channel.clone();
                for e in events {
                    self.channel = channel_name(e.channel, &self.channels);
                    println!("⏰ [#{}] (timer)", self.channel);
                    self.show(&e.outcome);
                }
                self.channel = here;
            }
            Err(e) => println!("✗ timers: {e}"),
        }
    }
}
