//! `bredon local`: the bot's commands in a terminal, as named users, through the same service.
//! Each line is `NAME COMMAND [ARGS]` (a leading `/` is fine): `alice challenge bob size=5`,
//! `bob accept`, `alice move c3`. Pictures are written to a folder and their paths printed.

use super::Failure;
use crate::game::{explain, Kind};
use crate::service::{ChallengeOptions, Ctx, EngineOpponent, Outcome, Refusal, Service};
use crate::store::records::{PlayerRef, Seat};
use crate::store::Store;
use crate::tak::Opening;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

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
            [reserves=21/1,21/1] [tps=\"x5/x5/x5/x5/x5 1 1\"] [stakes=university] [hide=heights,labels]
            [tray=on|off]
  accept | decline | cancel | rematch
  move PLY            (also: PLY alone, e.g. `alice c3`)
  undo | undo yes | undo no | draw | draw yes | draw no | resign | abort
  board [GAME] | ptn [GAME] | history [NAME] | stats [NAME] [game=takat] | leaderboard [game=takat] [size=N] | games | mygames | moves
  bid COINS (University games: sealed bid for the first move) | wallet [NAME] | wallet top
  notify [dm=on|off] [reminder=12h|off|game] | vacation start DAYS | vacation end
  settings [theme=..] [size=..] [reminder=..] [coins=..] [tournaments=anyone|moderators] [vacation_days=14]
           [komi=2 komi_size=6] [hide=heights,labels|none] [tray=on|off]
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

fn user(name: &str) -> PlayerRef {
    // A stable id per name (FNV-1a), so games and stats follow a name across sessions.
    let id = crate::service::fnv1a(name.to_lowercase().bytes());
    PlayerRef {
        id,
        name: name.to_string(),
    }
}

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
        offset_ms: 0,
        pictures: 0,
    };
    // Numbering goes on from an earlier run's pictures instead of overwriting them.
    s.pictures = last_picture_number(&s.out);
    println!(
        "bredon local: games in {}, pictures in {}. Type `help`.",
        args.data.display(),
        s.out.display()
    );
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
            "help" => println!("{}", HELP.replace("{PUZZLES}", super::local_puzzles::HELP)),
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
                    Ok(Some(outcome)) => self.show(&outcome),
                    Ok(None) => {}
                    Err(Refusal(why)) => println!("✗ {why}"),
                }
                self.bredon_turns();
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
        let record = match game_number(rest).and_then(|id| self.service.finished_record(&ctx, id)) {
            Ok(record) => record,
            Err(Refusal(why)) => return println!("✗ {why}"),
        };
        let limits = crate::engine::Limits {
            time: Some(super::analysis_per_position()),
            ..Default::default()
        };
        let theme = crate::render::Theme::default();
        match crate::service::analysis::analyze_ptn(&record, &limits, &theme, |_, _| {}) {
            Ok(report) => {
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
                            .map(|c| format!(" (#{})", channel_name(c, &self.channels)))
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

    fn user_command(
        &mut self,
        name: &str,
        cmd: &str,
        rest: &[String],
    ) -> Result<Option<Outcome>, Refusal> {
        let ctx = self.ctx(name);
        let sv = &self.service;
        let answer = rest.first().map(String::as_str);
        // A command that takes nothing refuses what follows it (`resign please` does not resign).
        if BARE_COMMANDS.contains(&cmd) && !rest.is_empty() {
            return Err(Refusal(format!(
                "`{cmd}` takes nothing after it (you wrote `{}`); type `{name} {cmd}`",
                shortened(&rest.join(" "))
            )));
        }
        let outcome = match cmd {
            "challenge" => {
                let options = challenge_options(rest)?;
                if options.engine.is_some() {
                    // Bredon accepts at once.
                    sv.challenge_engine(&ctx, &options, &self.bredon.me)?
                } else {
                    sv.challenge(&ctx, &options)?
                }
            }
            "accept" => sv.accept(&ctx)?,
            "decline" => sv.decline(&ctx)?,
            "cancel" => sv.cancel(&ctx)?,
            "rematch" => sv.rematch(&ctx)?,
            "move" | "play" => match rest.first() {
                Some(ply) => sv.play(&ctx, ply)?,
                None => return Err(Refusal("which ply? `move c3`".into())),
            },
            "undo" => match answer {
                Some("yes" | "accept") => sv.answer_undo(&ctx, true)?,
                Some("no" | "decline") => sv.answer_undo(&ctx, false)?,
                _ => sv.request_undo(&ctx)?,
            },
            "draw" => match answer {
                Some("yes" | "accept") => sv.answer_draw(&ctx, true)?,
                Some("no" | "decline") => sv.answer_draw(&ctx, false)?,
                _ => sv.offer_draw(&ctx)?,
            },
            "resign" => sv.resign(&ctx)?,
            "abort" => sv.abort(&ctx)?,
            "board" => match game_number(rest)? {
                Some(id) => sv.view_finished(&ctx, id)?,
                None => sv.view(&ctx)?,
            },
            "ptn" => {
                let record = sv.ptn(&ctx, game_number(rest)?)?;
                println!("{}", record.text);
                if let Some(link) = record.link {
                    println!("{link}");
                }
                return Ok(None);
            }
            "moves" => {
                let plies = sv.legal_plies(ctx.channel)?;
                println!("{} legal plies: {}", plies.len(), plies.join(" "));
                return Ok(None);
            }
            "history" => {
                let who = rest.first().map_or_else(|| ctx.user.clone(), |n| user(n));
                let games = sv.history(&ctx, who.id)?;
                if games.is_empty() {
                    println!("{} has no finished games here", who.name);
                }
                for g in games {
                    println!(
                        "#{} {} vs {}, {} on {}: {} ({} plies)",
                        g.id,
                        g.players[0].name,
                        g.players[1].name,
                        g.settings.game.name(),
                        g.settings.game.board(g.settings.size),
                        g.result.code(),
                        g.plies.len()
                    );
                }
                return Ok(None);
            }
            "stats" => {
                let kind = game_option(rest)?;
                let who = rest
                    .iter()
                    .find(|w| !w.contains('='))
                    .map_or_else(|| ctx.user.clone(), |n| user(n));
                println!("{} in {}:", who.name, kind.name());
                for s in sv.stats(&ctx, &who, kind)? {
                    println!("  {}", s.describe());
                }
                return Ok(None);
            }
            "puzzle" => super::local_puzzles::command(sv, &ctx, rest)?,
            "leaderboard" if answer == Some("puzzles") => {
                super::local_puzzles::leaderboard(sv, &ctx)?;
                return Ok(None);
            }
            "leaderboard" => {
                let board = sv.leaderboard(
                    &ctx,
                    game_option(rest)?,
                    number_option(rest, "size", "a board size: write a number, like size=6")?,
                )?;
                println!("{} on {}:", board.game.name(), board.game.board(board.size));
                if board.players.is_empty() {
                    println!("  nobody has finished a rated game on this size yet");
                }
                for (i, p) in board.players.iter().take(10).enumerate() {
                    println!(
                        "{}. {} {:.0} ({}-{}-{})",
                        i + 1,
                        p.user.name,
                        p.rating,
                        p.wins,
                        p.losses,
                        p.draws
                    );
                }
                for n in board.other_sizes {
                    println!("  also rated here: {} (size={n})", board.game.board(n));
                }
                return Ok(None);
            }
            "games" | "mygames" => {
                let mine = (cmd == "mygames").then_some(ctx.user.id);
                let list = sv.summaries(&ctx, mine)?;
                if list.is_empty() {
                    println!("no games");
                }
                for g in list {
                    let idle = (self.now() - g.last_ply_ms) / 60_000;
                    let since = if g.plies == 0 { "started" } else { "last ply" };
                    println!(
                        "  #{}: {} vs {} ({} on {}, ply {}), {} to move, {since} {} h {:02} min ago",
                        channel_name(g.channel, &self.channels),
                        g.players[0].name,
                        g.players[1].name,
                        g.game.name(),
                        g.game.board(g.size),
                        g.plies,
                        g.to_move.name,
                        idle / 60,
                        idle % 60
                    );
                }
                return Ok(None);
            }
            "notify" => {
                let get = |k: &str| rest.iter().find_map(|w| w.strip_prefix(&format!("{k}=")));
                let dm = get("dm").map(|v| matches!(v, "on" | "yes" | "true"));
                let p = sv.set_prefs(ctx.user.id, dm, get("reminder"))?;
                println!(
                    "notifications: direct messages {}, reminders {}",
                    if p.dm { "on" } else { "off" },
                    crate::service::describe_reminder(p.reminder)
                );
                return Ok(None);
            }
            "bid" => {
                let coins = rest
                    .first()
                    .and_then(|c| c.parse::<i64>().ok())
                    .ok_or_else(|| Refusal("bid how many coins? e.g. `alice bid 5`".into()))?;
                match sv.bid(&ctx, coins)? {
                    crate::service::Bid::Sealed(text) => {
                        println!("(only {} sees this) {text}", ctx.user.name);
                        return Ok(None);
                    }
                    crate::service::Bid::Settled(outcome) => *outcome,
                }
            }
            "wallet" => {
                if rest.first().is_some_and(|w| w == "top") {
                    for (i, w) in sv.coin_leaderboard(&ctx)?.iter().take(10).enumerate() {
                        println!("{}. {} {} coins", i + 1, w.user.name, w.balance);
                    }
                } else {
                    let who = rest.first().map_or_else(|| ctx.user.clone(), |n| user(n));
                    println!("{} has {} coins", who.name, sv.wallet(&ctx, who.id)?);
                }
                return Ok(None);
            }
            "vacation" => match rest.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                ["start", days] => {
                    let days = days.trim_end_matches('d').parse().map_err(|_| {
                        Refusal(format!(
                            "`{}` is not a number of days: `vacation start 5`",
                            shortened(days)
                        ))
                    })?;
                    sv.vacation_start(&ctx, days)?
                }
                ["end"] => sv.vacation_end(&ctx)?,
                _ => {
                    return Err(Refusal(
                        "`vacation start DAYS` (e.g. `vacation start 5`) or `vacation end`".into(),
                    ))
                }
            },
            "settings" => {
                let get = |k: &str| rest.iter().find_map(|w| w.strip_prefix(&format!("{k}=")));
                if let Some(n) = number_option(rest, "coins", "a number")? {
                    sv.set_starting_coins(&ctx, n)?;
                }
                if let Some(who) = get("tournaments") {
                    sv.set_tournament_makers(&ctx, who)?;
                }
                if let Some(hide) = get("hide") {
                    sv.set_display(&ctx, hide)?;
                }
                if let Some(tray) = get("tray") {
                    sv.set_tray(&ctx, on_off("tray", tray)?)?;
                }
                if let Some(komi) = get("komi") {
                    let size = number_option(rest, "komi_size", "a number 3..8")?;
                    sv.set_server_komi(&ctx, size, komi)?;
                }
                if let Some(n) = number_option(rest, "vacation_days", "a number of days")? {
                    sv.set_vacation_days(&ctx, n)?;
                }
                super::local_puzzles::settings(sv, &ctx, rest, |name| user(name).id)?;
                let size = number_option(rest, "size", "a number 3..8")?;
                let s = sv.set_settings(&ctx, get("theme"), size, get("reminder"))?;
                println!(
                    "settings: theme {}, {}, size {}, {}, reminders {}, starting coins {}, tournaments by {}, {} a year",
                    s.theme,
                    s.describe_display(),
                    s.size,
                    s.describe_komi(),
                    s.reminder_secs
                        .map_or("off".into(), |r| format!(
                            "after {}",
                            crate::service::describe_secs(r)
                        )),
                    s.starting_coins,
                    if s.open_tournaments { "anyone" } else { "moderators" },
                    crate::words::count(s.vacation_days, "vacation day")
                );
                if let Some(c) = s.puzzle_channel {
                    let name = channel_name(c, &self.channels);
                    println!("  daily puzzle in #{name} at {:02}:00 UTC", s.puzzle_hour);
                }
                return Ok(None);
            }
            // `alice c3`: a ply without the word `move`; something shaped like a ply that is
            // not one (`2a3>1`) gets the ply's refusal, which says what is wrong.
            ply if looks_like_ply(ply) => sv.play(&ctx, ply)?,
            other => {
                return Err(Refusal(format!(
                    "`{}` is not a command; type `help` for the list",
                    shortened(other)
                )))
            }
        };
        Ok(Some(outcome))
    }

    /// Prints an outcome: the terminal is where it is delivered, so it leaves the outbox.
    fn show(&mut self, o: &Outcome) {
        if let Some(letter) = o.letter {
            if let Err(e) = self.service.delivered(letter) {
                eprintln!("{e}");
            }
        }
        match o.private {
            true => println!("(privately) {}", o.text),
            false => println!("{}", o.text),
        }
        if let Some(deadline) = o.deadline_ms {
            let minutes = ((deadline - self.now()).max(0) + 30_000) / 60_000;
            println!(
                "  time runs out in {} h {:02} min",
                minutes / 60,
                minutes % 60
            );
        }
        if !o.ping.is_empty() {
            let names: Vec<&str> = o.ping.iter().map(|p| p.name.as_str()).collect();
            println!("  (pings {})", names.join(", "));
        }
        if let Some(table) = &o.table {
            print!("{table}");
        }
        if let Some(image) = &o.image {
            self.save("picture", &image.file, &image.png);
        }
        if let Some(board) = &o.board {
            self.pictures += 1;
            let path = self
                .out
                .join(format!("{}-{:03}.png", self.channel, self.pictures));
            let png = explain::record_picture(
                &board.record,
                board.names(),
                &board.theme,
                board.clock.clone(),
                board.display,
            )
            .map(|(png, _)| png);
            match png.map(|png| std::fs::write(&path, png)) {
                Ok(Ok(())) => println!("  picture: {}", path.display()),
                Ok(Err(e)) => println!("  ✗ cannot write {}: {e}", path.display()),
                Err(why) => println!("  ✗ cannot draw the board: {why}"),
            }
        }
        if let (Some(f), Some(board)) = (&o.finished, &o.board) {
            // The record a Discord channel gets: the whole game as GIF and PTN.
            let stem = self
                .out
                .join(format!("{}-{:03}-game", self.channel, self.pictures));
            let gif =
                explain::record_gif(&board.record, board.names(), &board.theme, board.display)
                    .unwrap_or_default();
            let record_ext = f.file.trim_start_matches("game.");
            for (ext, bytes) in [("gif", gif), (record_ext, f.ptn.clone().into_bytes())] {
                let path = stem.with_extension(ext);
                match std::fs::write(&path, bytes) {
                    Ok(()) => println!("  {ext}: {}", path.display()),
                    Err(e) => println!("  ✗ cannot write {}: {e}", path.display()),
                }
            }
        }
        if let Some(f) = &o.finished {
            for (p, rating, change) in &f.ratings {
                println!(
                    "  {} is now rated {rating:.0} on {} ({change:+.0})",
                    p.name, f.rated_board
                );
            }
            // As on Discord: a series is shown once it has points (never for tournament games).
            if f.series[0].1 + f.series[1].1 > 0 {
                println!(
                    "  series: {} {} – {} {}",
                    f.series[0].0.name, f.series[0].1, f.series[1].1, f.series[1].0.name
                );
            }
            if let Some(link) = &f.link {
                println!("  PTN Ninja: {link}");
            }
        }
    }
}

/// The highest picture number among the files in `out` (`local-007.png`, `local-008-game.gif`).
fn last_picture_number(out: &std::path::Path) -> u32 {
    let Ok(entries) = std::fs::read_dir(out) else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.split('.').next()?.to_string();
            stem.rsplit('-')
                .filter(|part| part.len() == 3 && part.bytes().all(|b| b.is_ascii_digit()))
                .find_map(|part| part.parse::<u32>().ok())
        })
        .max()
        .unwrap_or(0)
}

/// Commands that take no words after them.
const BARE_COMMANDS: [&str; 7] = [
    "accept", "decline", "cancel", "rematch", "resign", "abort", "moves",
];

/// The finished game a command names by its number in `history` (`ptn 12`, `board #12`).
fn game_number(words: &[String]) -> Result<Option<u64>, Refusal> {
    match words {
        [] => Ok(None),
        [n] => match n.trim_start_matches('#').parse() {
            Ok(id) => Ok(Some(id)),
            Err(_) => Err(Refusal(format!(
                "`{}` is not a game number: `history` lists them (#12), so write `ptn 12`",
                shortened(n)
            ))),
        },
        _ => Err(Refusal(format!(
            "name one game by its number, not `{}`",
            shortened(&words.join(" "))
        ))),
    }
}

/// What the user typed, cut to 40 characters for an answer that repeats it.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// A channel's name from its id (local channels are named; their ids are hashes of the names).
/// Channel names used by earlier runs, one a line, in the data folder.
const CHANNELS_FILE: &str = "local-channels.txt";

fn known_channels(data: &std::path::Path) -> Vec<String> {
    let mut names = vec!["local".to_string()];
    let kept = std::fs::read_to_string(data.join(CHANNELS_FILE)).unwrap_or_default();
    for name in kept.lines().map(str::trim).filter(|n| !n.is_empty()) {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

fn channel_name(id: u64, names: &[String]) -> String {
    names
        .iter()
        .find(|n| user(n).id == id)
        .cloned()
        .unwrap_or_else(|| id.to_string())
}

/// A word that starts like a ply: a count, a square, or a piece letter and a square.
fn looks_like_ply(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    let b = lower.as_bytes();
    let square = |i: usize| {
        matches!(b.get(i), Some(b'a'..=b'h')) && matches!(b.get(i + 1), Some(b'1'..=b'8'))
    };
    matches!(b.first(), Some(b'1'..=b'8'))
        || square(0)
        || (matches!(b.first(), Some(b'f' | b's' | b'c')) && square(1))
}

/// `game=takat` among a command's words (Tak without it).
fn game_option(words: &[String]) -> Result<Kind, Refusal> {
    match words.iter().find_map(|w| w.strip_prefix("game=")) {
        Some(name) => Kind::parse(name).map_err(Refusal),
        None => Ok(Kind::Tak),
    }
}

/// `key=N` among `words`, read as a number; `what` says what N must be when it is not one.
fn number_option<T: std::str::FromStr>(
    words: &[String],
    key: &str,
    what: &str,
) -> Result<Option<T>, Refusal> {
    let prefix = format!("{key}=");
    words
        .iter()
        .find_map(|w| w.strip_prefix(&prefix))
        .map(|v| {
            v.parse()
                .map_err(|_| Refusal(format!("{key}={v} is not {what}")))
        })
        .transpose()
}

/// `key=on` or `key=off` (a bare `key` counts as on).
fn on_off(key: &str, value: &str) -> Result<bool, Refusal> {
    match value {
        "" | "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        other => Err(Refusal(format!(
            "{key}={other}: write {key}=on or {key}=off"
        ))),
    }
}

fn challenge_options(words: &[String]) -> Result<ChallengeOptions, Refusal> {
    let mut o = ChallengeOptions::default();
    for w in words {
        let (key, value) = w.split_once('=').unwrap_or((w.as_str(), ""));
        match key {
            "size" => {
                o.size = Some(
                    value
                        .parse()
                        .map_err(|_| Refusal(format!("size={value} is not a number 3..8")))?,
                )
            }
            "komi" => o.komi = Some(value.into()),
            "game" => o.game = Kind::parse(value).map_err(Refusal)?,
            "seat" => {
                o.seat = match value {
                    "white" => Seat::White,
                    "black" => Seat::Black,
                    "random" => Seat::Random,
                    _ => {
                        return Err(Refusal(format!(
                            "seat={value}: choose white, black or random"
                        )))
                    }
                }
            }
            "opening" => o.opening = Opening::parse(value).map_err(Refusal)?,
            "rated" => o.rated = value.is_empty() || value == "yes" || value == "true",
            "blind" => o.blind = value.is_empty() || value == "yes" || value == "true",
            "time" => o.time_limit = Some(value.into()),
            "reminder" => o.reminder = Some(value.into()),
            "theme" => o.theme = Some(value.into()),
            "tps" => o.tps = Some(value.into()),
            "reserves" => o.reserves = Some(crate::service::parse_reserves(value)?),
            "hide" => o.hide = Some(value.into()),
            "tray" => o.tray = Some(on_off("tray", value)?),
            "open" => o.opponent = None,
            "level" => o.engine = Some(value.into()),
            "stakes" => o.stakes = crate::service::parse_stakes(value)?,
            name if value.is_empty() && o.opponent.is_none() => {
                o.opponent = Some(user(name.trim_start_matches('@')))
            }
            _ => {
                return Err(Refusal(format!(
                    "`{w}` is not a challenge option; type `help`"
                )))
            }
        }
    }
    // Challenging Bredon, or giving a level, is a game against the engine.
    let named_bredon = o
        .opponent
        .as_ref()
        .is_some_and(|p| p.name.eq_ignore_ascii_case("bredon"));
    if named_bredon || o.engine.is_some() {
        o.opponent = Some(user("Bredon"));
        o.engine.get_or_insert_with(|| "medium".into());
    }
    Ok(o)
}

/// A channel name from a thread name: "Spring Cup R1: alice vs bob" → "spring-cup-r1-alice-vs-bob".
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// `name=".." format=swiss rounds=3 limit=8 start=..` and the games' challenge options.
fn tournament_options(words: &[String]) -> Result<crate::service::TournamentOptions, Refusal> {
    let get = |k: &str| words.iter().find_map(|w| w.strip_prefix(&format!("{k}=")));
    let rounds = number_option(words, "rounds", "a number")?;
    let limit = number_option(words, "limit", "a number")?;
    let own = ["name", "format", "rounds", "limit", "start", "vacations"];
    let game: Vec<String> = words
        .iter()
        .filter(|w| !own.contains(&w.split('=').next().unwrap_or("")))
        .cloned()
        .collect();
    Ok(crate::service::TournamentOptions {
        name: get("name").unwrap_or("").to_string(),
        format: crate::service::parse_format(get("format").unwrap_or("round-robin"), rounds)?,
        game: challenge_options(&game)?,
        limit,
        start: get("start").map(str::to_string),
        no_vacations: matches!(get("vacations"), Some("no" | "off" | "false")),
    })
}
