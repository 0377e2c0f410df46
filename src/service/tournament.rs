//! Tournaments in a server: entries, rounds paired one at a time, a game per pairing (in a
//! thread the adapter opens), results written by each game's finishing change, standings and
//! the crosstable. Pairing and tie-breaks are `crate::tournament`'s; this is their bookkeeping.
//!
//! Flow: `start_tournament` pairs round 1; adapters ask `pending_pairings` for games to open,
//! make a thread for each and call `start_pairing`; a finished game stores its pairing's result;
//! `tournament_news` (called after such games and by the timer loop) announces results, pairs
//! the next round when the last game of a round ends, and finally announces the winner. Each step
//! is stored before it is told, under the tournament's `seq`, so it happens once.

use super::{options, ChallengeOptions, Ctx, Outcome, Refusal, Service, TimerEvent};
use crate::game::Decision;
use crate::render::crosstable::{render_crosstable, Crosstable};
use crate::render::Theme;
use crate::store::records::*;
use crate::store::Change;
use crate::tournament::{self as pairing, Format, Pair, Played, Points, Standing};
use std::collections::{HashMap, HashSet};

/// What `/tournament create` may set.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    pub name: String,
    pub format: Format,
    /// The games' settings (size, komi, opening, time limit, rated...); seats are the pairing's.
    pub game: ChallengeOptions,
    pub limit: Option<usize>,
    /// `when full`, `manual` (the default), a delay such as `2h` or `1d`, or a UTC time
    /// `2026-12-01 18:00`.
    pub start: Option<String>,
}

/// The most entrants a tournament takes (the crosstable stays readable).
pub const MOST_ENTRANTS: usize = 32;
const MOST_SWISS_ROUNDS: u32 = 15;

/// Parses `rr`, `round-robin`, `double`, `swiss` (with `rounds`).
pub fn parse_format(text: &str, rounds: Option<u32>) -> Result<Format, Refusal> {
    let format = match text
        .trim()
        .to_ascii_lowercase()
        .replace(['_', ' '], "-")
        .as_str()
    {
        "rr" | "round-robin" | "roundrobin" => Format::RoundRobin,
        "drr" | "double" | "double-round-robin" => Format::DoubleRoundRobin,
        "swiss" => Format::Swiss(rounds.unwrap_or(0)),
        other => {
            return Err(Refusal(format!(
            "the format {} is not known: round-robin, double-round-robin or swiss (with rounds)",
            crate::tak::quote(other)
        )))
        }
    };
    match (format, rounds) {
        (Format::Swiss(n), _) if !(1..=MOST_SWISS_ROUNDS).contains(&n) => Err(Refusal(format!(
            "a Swiss tournament needs a number of rounds from 1 to {MOST_SWISS_ROUNDS} (rounds:N)"
        ))),
        (Format::RoundRobin | Format::DoubleRoundRobin, Some(_)) => Err(Refusal(
            "rounds are for Swiss tournaments; a round robin has as many as it needs".into(),
        )),
        _ => Ok(format),
    }
}

/// A pairing waiting for its game: adapters open a thread for it and call `start_pairing`.
#[derive(Clone, Debug)]
pub struct PendingPairing {
    pub fixture: Fixture,
    /// The tournament's channel (threads go under it) and server.
    pub channel: u64,
    pub guild: u64,
    /// A name for the thread: "Spring Cup R1: alice vs bob".
    pub name: String,
}

/// A tournament with its results, as `/tournament standings` and `pairings` show it.
#[derive(Clone, Debug)]
pub struct TournamentView {
    pub tournament: Tournament,
    pub results: HashMap<(u32, u32), PairingResult>,
}

impl TournamentView {
    fn played(&self) -> Vec<Vec<Played>> {
        self.tournament
            .rounds
            .iter()
            .enumerate()
            .map(|(r, round)| {
                round
                    .iter()
                    .enumerate()
                    .map(|(b, p)| Played {
                        pair: Pair {
                            white: p.white,
                            black: p.black,
                        },
                        result: self.results.get(&(r as u32, b as u32)).map(|x| x.points),
                    })
                    .collect()
            })
            .collect()
    }

    pub fn standings(&self) -> Vec<Standing> {
        let t = &self.tournament;
        pairing::standings(t.entrants.len(), &self.played(), t.format)
    }

    fn name(&self, seed: usize) -> &str {
        &self.tournament.entrants[seed].player.name
    }

    /// The standings as a fixed-width table (for a code block), at most `width` rows.
    pub fn table_text(&self, rows: usize) -> String {
        let t = &self.tournament;
        let swiss = matches!(t.format, Format::Swiss(_));
        let mut out = if swiss {
            format!(
                "{:>2}  {:<16} {:>4} {:>5} {:>5}\n",
                "#", "Player", "Pts", "Bu", "mBu"
            )
        } else {
            format!("{:>2}  {:<16} {:>4} {:>6}\n", "#", "Player", "Pts", "SB")
        };
        let table = self.standings();
        for (i, s) in table.iter().enumerate().take(rows) {
            let mut name: String = self.name(s.seed).chars().take(16).collect();
            if t.entrants[s.seed].withdrawn {
                name = format!("{}(w)", name.chars().take(13).collect::<String>());
            }
            let pad = 16usize.saturating_sub(name.chars().count());
            let name = format!("{name}{}", " ".repeat(pad));
            if swiss {
                out.push_str(&format!(
                    "{:>2}  {name} {:>4} {:>5} {:>5}\n",
                    i + 1,
                    pairing::halves(s.score),
                    pairing::halves(s.first_tiebreak),
                    pairing::halves(s.second_tiebreak)
                ));
            } else {
                out.push_str(&format!(
                    "{:>2}  {name} {:>4} {:>6}\n",
                    i + 1,
                    pairing::halves(s.score),
                    pairing::quarters(s.first_tiebreak)
                ));
            }
        }
        if table.len() > rows {
            out.push_str(&format!(
                "… and {} more (see the picture)\n",
                table.len() - rows
            ));
        }
        out
    }

    /// The crosstable as posted: in the games' theme, with its description.
    pub fn crosstable(&self) -> super::Picture {
        let t = &self.tournament;
        super::Picture {
            file: "crosstable.png",
            png: self.crosstable_png(&Theme::named(&t.settings.theme).unwrap_or_default()),
            alt: format!("Crosstable of {}", t.name),
        }
    }

    /// The crosstable picture in `theme`.
    pub fn crosstable_png(&self, theme: &Theme) -> Vec<u8> {
        let t = &self.tournament;
        let names: Vec<String> = t.entrants.iter().map(|e| e.player.name.clone()).collect();
        let withdrawn: Vec<bool> = t.entrants.iter().map(|e| e.withdrawn).collect();
        let table = self.standings();
        let img = render_crosstable(
            &Crosstable {
                title: &format!("{} · {}", t.name, t.format.describe()),
                names: &names,
                withdrawn: &withdrawn,
                standings: &table,
                format: t.format,
                rounds: t.format.rounds(t.entrants.len()),
            },
            theme,
        );
        crate::render::encode_png(&img)
    }

    /// The round's pairings, one line each: (board, white, black or none, thread, result).
    pub fn round_lines(&self, round: usize) -> Vec<RoundLine> {
        let t = &self.tournament;
        let Some(pairings) = t.rounds.get(round) else {
            return Vec::new();
        };
        pairings
            .iter()
            .enumerate()
            .map(|(b, p)| RoundLine {
                white: t.entrants[p.white].player.clone(),
                black: p.black.map(|s| t.entrants[s].player.clone()),
                channel: p.channel,
                result: self.results.get(&(round as u32, b as u32)).copied(),
            })
            .collect()
    }
}

/// A pairing as `/tournament pairings` lists it.
#[derive(Clone, Debug)]
pub struct RoundLine {
    pub white: PlayerRef,
    pub black: Option<PlayerRef>,
    pub channel: Option<u64>,
    pub result: Option<PairingResult>,
}

impl RoundLine {
    /// "alice 1-0 bob", "carol ½-½ dave", "erin vs frank", "gina: bye".
    pub fn describe(&self) -> String {
        let Some(black) = &self.black else {
            return format!("{}: bye", self.white.name);
        };
        let score = match self.result.map(|r| (r.points, r.how)) {
            None => "vs".to_string(),
            Some((p, how)) => {
                let s = match p {
                    Points::White => "1-0",
                    Points::Black => "0-1",
                    Points::Draw => "½-½",
                };
                if how == How::Forfeit {
                    format!("{s} (forfeit)")
                } else {
                    s.to_string()
                }
            }
        };
        format!("{} {score} {}", self.white.name, black.name)
    }
}

fn describe_start(start: Start) -> String {
    match start {
        Start::Manual => "starts when its organizer says /tournament start".into(),
        Start::WhenFull => "starts when full".into(),
        Start::At(ms) => format!(
            "starts at {}",
            super::finish::ptn_date(ms).replace('.', "-") + &clock(ms)
        ),
    }
}

/// `YYYY-MM-DD HH:MM` (or with a `T`) in UTC, as milliseconds since 1970.
fn utc_time(text: &str) -> Option<i64> {
    let (date, time) = text.trim().split_once([' ', 'T'])?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let (h, min) = time.trim().split_once(':')?;
    let (h, min) = (h.parse::<i64>().ok()?, min.parse::<i64>().ok()?);
    if d.next().is_some()
        || !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
        || h > 23
        || min > 59
        || h < 0
        || min < 0
    {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm), the inverse of `ptn_date`.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 24 + h) * 60 + min) * 60_000)
}

fn clock(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000).rem_euclid(24 * 60);
    format!(" {:02}:{:02} UTC", minutes / 60, minutes % 60)
}

/// The refusal of a change to a tournament that another change overtook (retried first).
const CHANGED: &str = "the tournament changed while this was being done (another entry or \
                       result came first); try again";

/// Characters the results and the pairings of one announcement may take, so that with the
/// table and a mention of every player it fits in a Discord message.
const RESULTS_ROOM: usize = 400;
const PAIRINGS_ROOM: usize = 900;

/// `items` joined by `separator` in at most about `room` characters; what does not fit is
/// counted instead: "… and 4 more (`rest`)".
fn within(items: &[String], separator: &str, room: usize, rest: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        let sep = if i == 0 { "" } else { separator };
        if out.chars().count() + sep.len() + item.chars().count() > room {
            return format!("{out}{sep}… and {} more ({rest})", items.len() - i);
        }
        out.push_str(sep);
        out.push_str(item);
    }
    out
}

impl Service {
    /// The tournament taking entries or running in `ctx.channel`, or the one whose pairing is
    /// played there; else the newest one of the channel.
    fn tournament_here(&self, ctx: &Ctx) -> Result<Tournament, Refusal> {
        let all = self.store.tournaments()?;
        let here = |t: &&Tournament| {
            t.channel == ctx.channel
                || t.rounds
                    .iter()
                    .flatten()
                    .any(|p| p.channel == Some(ctx.channel))
        };
        let mut mine: Vec<&Tournament> = all.iter().filter(here).collect();
        mine.sort_by_key(|t| {
            (
                matches!(t.phase, Phase::Open | Phase::Running),
                t.created_ms,
            )
        });
        match mine.last() {
            Some(t) => Ok((*t).clone()),
            None => super::refuse(
                "there is no tournament in this channel: a moderator can make one with /tournament create",
            ),
        }
    }

    fn active_here(&self, ctx: &Ctx) -> Result<Option<Tournament>, Refusal> {
        Ok(self
            .store
            .tournaments()?
            .into_iter()
            .find(|t| t.channel == ctx.channel && matches!(t.phase, Phase::Open | Phase::Running)))
    }

    fn with_results(&self, t: Tournament) -> Result<TournamentView, Refusal> {
        let results = self.store.results(t.id)?;
        Ok(TournamentView {
            tournament: t,
            results,
        })
    }

    /// Stores `t` as its next version, with `results`; refused with `CHANGED` if the stored
    /// tournament is no longer the version read.
    fn save_tournament(
        &self,
        t: &mut Tournament,
        results: Vec<(Fixture, PairingResult)>,
    ) -> Result<(), Refusal> {
        t.seq += 1;
        self.durable_or(
            &Change {
                tournament: Some((t.clone(), Some(t.seq - 1))),
                results,
                ..Change::default()
            },
            CHANGED,
        )
    }

    /// Runs `action` again (reading everything afresh) while it lost a race for the tournament
    /// record to another change: two players joining at once both get in.
    fn retried<T>(&self, action: impl Fn() -> Result<T, Refusal>) -> Result<T, Refusal> {
        let mut tries = 0;
        loop {
            match action() {
                Err(Refusal(why)) if why == CHANGED && tries < 16 => tries += 1,
                done => return done,
            }
        }
    }

    fn may_run(t: &Tournament, ctx: &Ctx, what: &str) -> Result<(), Refusal> {
        if ctx.moderator || t.organizer.id == ctx.user.id {
            return Ok(());
        }
        super::refuse(format!(
            "only {} (who made the tournament) or a moderator can {what}",
            t.organizer.name
        ))
    }

    /// Who may create tournaments in this server: `anyone`, or `moderators` (the default).
    pub fn set_tournament_makers(&self, ctx: &Ctx, who: &str) -> Result<GuildSettings, Refusal> {
        if !ctx.moderator {
            return super::refuse(
                "only a server moderator (Manage Server) can change Bredon's settings",
            );
        }
        let open = match who.trim().to_ascii_lowercase().as_str() {
            "anyone" | "everyone" => true,
            "moderators" | "mods" => false,
            other => {
                return super::refuse(format!(
                    "tournaments={} is not known: anyone or moderators",
                    crate::tak::quote(other)
                ))
            }
        };
        let mut s = self.store.settings(ctx.guild)?;
        s.open_tournaments = open;
        self.store.put_settings(ctx.guild, &s)?;
        self.store.flush()?;
        Ok(s)
    }

    pub fn create_tournament(
        &self,
        ctx: &Ctx,
        options: &TournamentOptions,
    ) -> Result<Outcome, Refusal> {
        let defaults = self.store.settings(ctx.guild)?;
        if !ctx.moderator && !defaults.open_tournaments {
            return super::refuse(
                "only a moderator (Manage Messages) can create a tournament in this server; a \
                 moderator can let everyone with /settings tournaments:anyone",
            );
        }
        if let Some(t) = self.active_here(ctx)? {
            return super::refuse(format!(
                "this channel already runs the tournament {}; make another in another channel, \
                 or wait for it to end",
                t.name
            ));
        }
        let name = options.name.trim();
        if name.is_empty() || name.chars().count() > 50 {
            return super::refuse("a tournament needs a name of 1 to 50 characters");
        }
        if options.game.engine.is_some() || options.game.stakes.is_some() {
            return super::refuse("tournament games are between players, without stakes");
        }
        if options.game.tps.is_some() {
            return super::refuse("tournament games start from the empty board");
        }
        let settings = options.game.settings(&defaults)?;
        if let Some(n) = options.limit {
            if !(2..=MOST_ENTRANTS).contains(&n) {
                return super::refuse(format!(
                    "an entry limit must be 2 to {MOST_ENTRANTS} players"
                ));
            }
        }
        let start = match options.start.as_deref().map(str::trim) {
            None | Some("" | "manual") => Start::Manual,
            Some("when full" | "when-full" | "full") => {
                if options.limit.is_none() {
                    return super::refuse(
                        "a tournament that starts when full needs an entry limit (limit:N)",
                    );
                }
                Start::WhenFull
            }
            Some(when) => {
                let at = match utc_time(when) {
                    Some(ms) => ms,
                    None => {
                        let secs = options::parse_duration(when).map_err(|_| {
                            Refusal(format!(
                                "start {} is not understood: `when full`, `manual`, a delay like \
                                 2h or 1d, or a time in UTC like 2026-12-01 18:00",
                                crate::tak::quote(when)
                            ))
                        })?;
                        ctx.now_ms
                            .saturating_add(secs.min(u32::MAX as u64) as i64 * 1000)
                    }
                };
                if at <= ctx.now_ms {
                    return super::refuse("that start time has passed: give a time to come");
                }
                if at - ctx.now_ms > 28 * 24 * 3_600_000 {
                    return super::refuse("a tournament starts within 4 weeks");
                }
                Start::At(at)
            }
        };
        let t = Tournament {
            id: self.store.new_id()?,
            seq: 0,
            guild: ctx.guild,
            channel: ctx.channel,
            name: name.to_string(),
            organizer: ctx.user.clone(),
            format: options.format,
            settings,
            limit: options.limit,
            start,
            entrants: Vec::new(),
            phase: Phase::Open,
            rounds: Vec::new(),
            created_ms: ctx.now_ms,
        };
        self.durable(&Change {
            tournament: Some((t.clone(), None)),
            ..Change::default()
        })?;
        let limit = t
            .limit
            .map_or(String::new(), |n| format!(", at most {n} players"));
        Ok(Outcome {
            text: format!(
                "{} opened the tournament {}: {}, {}{limit}; it {}. Join with /tournament join.",
                ctx.user.name,
                t.name,
                t.format.describe(),
                super::describe_game(&t.settings),
                describe_start(t.start)
            ),
            ..Outcome::default()
        })
    }

    fn open_here(&self, ctx: &Ctx) -> Result<Tournament, Refusal> {
        match self.active_here(ctx)? {
            Some(t) if t.phase == Phase::Open => Ok(t),
            Some(t) => super::refuse(format!(
                "the tournament {} has started: entries are closed",
                t.name
            )),
            None => super::refuse(
                "there is no tournament taking entries in this channel; look in the channel where \
                 it was announced",
            ),
        }
    }

    pub fn join_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.join_tournament_once(ctx))
    }

    fn join_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut t = self.open_here(ctx)?;
        if t.entrants.iter().any(|e| e.player.id == ctx.user.id) {
            return super::refuse(format!("you are already in {}", t.name));
        }
        if t.entrants.len() >= t.limit.unwrap_or(MOST_ENTRANTS) {
            return super::refuse(format!("{} is full ({} players)", t.name, t.entrants.len()));
        }
        t.entrants.push(Entrant {
            player: ctx.user.clone(),
            withdrawn: false,
        });
        let full = t.limit == Some(t.entrants.len());
        if full && t.start == Start::WhenFull {
            let joined = format!("{} joined {}; it is full.", ctx.user.name, t.name);
            let mut outcome = self.begin(t)?;
            outcome.text = format!("{joined} {}", outcome.text);
            return Ok(outcome);
        }
        self.save_tournament(&mut t, Vec::new())?;
        Ok(Outcome {
            text: format!(
                "{} joined {} ({} player{}).",
                ctx.user.name,
                t.name,
                t.entrants.len(),
                if t.entrants.len() == 1 { "" } else { "s" }
            ),
            ..Outcome::default()
        })
    }

    pub fn leave_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.leave_tournament_once(ctx))
    }

    fn leave_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut t = match self.active_here(ctx)? {
            Some(t) if t.phase == Phase::Running => {
                return super::refuse(
                    "the tournament has started: to stop playing, /tournament withdraw (your \
                     remaining games are forfeited)",
                )
            }
            _ => self.open_here(ctx)?,
        };
        let Some(i) = t.entrants.iter().position(|e| e.player.id == ctx.user.id) else {
            return super::refuse(format!("you are not in {}", t.name));
        };
        t.entrants.remove(i);
        self.save_tournament(&mut t, Vec::new())?;
        Ok(Outcome {
            text: format!("{} left {}.", ctx.user.name, t.name),
            ..Outcome::default()
        })
    }

    pub fn start_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.start_tournament_once(ctx))
    }

    fn start_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let t = self.open_here(ctx)?;
        Self::may_run(&t, ctx, "start it")?;
        self.begin(t)
    }

    /// Starts `t` (as read): pairs round 1 and stores it.
    fn begin(&self, mut t: Tournament) -> Result<Outcome, Refusal> {
        let n = t.entrants.len();
        if n < 2 {
            return super::refuse(format!(
                "{} has {n} player{}; it needs at least 2",
                t.name,
                if n == 1 { "" } else { "s" }
            ));
        }
        if let Format::Swiss(rounds) = t.format {
            if rounds as usize >= n {
                return super::refuse(format!(
                    "{rounds} Swiss rounds need at least {} players, so that nobody meets the same \
                     opponent twice; {} joined",
                    rounds + 1,
                    n
                ));
            }
        }
        t.phase = Phase::Running;
        let mut results = Vec::new();
        let text = self.pair_next_round(&mut t, &HashMap::new(), &mut results);
        self.save_tournament(&mut t, results)?;
        Ok(Outcome {
            text: format!("{} begins with {n} players. {text}", t.name),
            tournament: Some(t.id),
            ..Outcome::default()
        })
    }

    /// Pairs the next round of `t` into `t.rounds`; byes and forfeits get their results at once
    /// (in `results`). The announcement.
    fn pair_next_round(
        &self,
        t: &mut Tournament,
        known: &HashMap<(u32, u32), PairingResult>,
        results: &mut Vec<(Fixture, PairingResult)>,
    ) -> String {
        let round = t.rounds.len();
        let n = t.entrants.len();
        let pairs = match t.format {
            Format::Swiss(_) => {
                let view = TournamentView {
                    tournament: t.clone(),
                    results: known.clone(),
                };
                let table = view.standings();
                let mut met = HashSet::new();
                for p in t.rounds.iter().flatten() {
                    if let Some(b) = p.black {
                        met.insert((p.white.min(b), p.white.max(b)));
                    }
                }
                let entries: Vec<pairing::Entry> = table
                    .iter()
                    .filter(|s| !t.entrants[s.seed].withdrawn)
                    .map(pairing::Entry::of)
                    .collect();
                pairing::swiss(&entries, &met, round)
            }
            _ => pairing::round_robin(n, round),
        };
        let mut lines = Vec::new();
        let mut pairings = Vec::new();
        for (b, pair) in pairs.iter().enumerate() {
            let fixture = Fixture {
                tournament: t.id,
                round: round as u32,
                board: b as u32,
            };
            let name = |s: usize| t.entrants[s].player.name.clone();
            let decided = match pair.black {
                None => Some(PairingResult {
                    points: Points::White,
                    how: How::Bye,
                }),
                Some(black) => {
                    match (
                        t.entrants[pair.white].withdrawn,
                        t.entrants[black].withdrawn,
                    ) {
                        (false, false) => None,
                        (true, false) => Some(Points::Black),
                        (false, true) => Some(Points::White),
                        // Both gone: neither can win; recorded as a draw.
                        (true, true) => Some(Points::Draw),
                    }
                    .map(|points| PairingResult {
                        points,
                        how: How::Forfeit,
                    })
                }
            };
            lines.push(match (pair.black, decided) {
                (None, _) => format!("{}: bye", name(pair.white)),
                (Some(black), Some(_)) => format!(
                    "{} vs {}: forfeit (withdrawn)",
                    name(pair.white),
                    name(black)
                ),
                (Some(black), None) => format!("{} (White) vs {}", name(pair.white), name(black)),
            });
            if let Some(r) = decided {
                results.push((fixture, r));
            }
            pairings.push(Pairing {
                white: pair.white,
                black: pair.black,
                channel: None,
                game: None,
                announced: decided.is_some(),
            });
        }
        t.rounds.push(pairings);
        format!(
            "Round {} of {}: {}. Each game starts in its own thread.",
            round + 1,
            t.format.rounds(n),
            within(
                &lines,
                "; ",
                PAIRINGS_ROOM,
                "the rest in /tournament pairings"
            )
        )
    }

    /// Pairings whose games are yet to be opened, in every running tournament.
    pub fn pending_pairings(&self) -> Result<Vec<PendingPairing>, Refusal> {
        let mut out = Vec::new();
        for t in self.store.tournaments()? {
            if t.phase != Phase::Running {
                continue;
            }
            let results = self.store.results(t.id)?;
            let round = t.rounds.len().saturating_sub(1);
            for (b, p) in t.rounds.last().into_iter().flatten().enumerate() {
                let decided = results.contains_key(&(round as u32, b as u32));
                let Some(black) = p.black else { continue };
                if p.channel.is_some() || decided {
                    continue;
                }
                let name = format!(
                    "{} R{}: {} vs {}",
                    t.name,
                    round + 1,
                    t.entrants[p.white].player.name,
                    t.entrants[black].player.name
                );
                out.push(PendingPairing {
                    fixture: Fixture {
                        tournament: t.id,
                        round: round as u32,
                        board: b as u32,
                    },
                    channel: t.channel,
                    guild: t.guild,
                    name: name.chars().take(100).collect(),
                });
            }
        }
        Ok(out)
    }

    /// Opens the game of a pending pairing in `channel` (a new thread). `None` if it no longer
    /// waits (opened meanwhile, or decided by a withdrawal).
    pub fn start_pairing(
        &self,
        fixture: Fixture,
        channel: u64,
        now_ms: i64,
    ) -> Result<Option<Outcome>, Refusal> {
        self.retried(|| self.start_pairing_once(fixture, channel, now_ms))
    }

    fn start_pairing_once(
        &self,
        fixture: Fixture,
        channel: u64,
        now_ms: i64,
    ) -> Result<Option<Outcome>, Refusal> {
        let Some(mut t) = self.store.tournament(fixture.tournament)? else {
            return Ok(None);
        };
        let decided = self
            .store
            .results(t.id)?
            .contains_key(&(fixture.round, fixture.board));
        let running = t.phase == Phase::Running;
        let Some(p) = t
            .rounds
            .get_mut(fixture.round as usize)
            .and_then(|r| r.get_mut(fixture.board as usize))
        else {
            return Ok(None);
        };
        let Some(black) = p.black else {
            return Ok(None);
        };
        if !running || decided || p.channel.is_some() {
            return Ok(None);
        }
        let white = p.white;
        let players = [
            t.entrants[white].player.clone(),
            t.entrants[black].player.clone(),
        ];
        let mut game = LiveGame {
            id: self.store.new_id()?,
            seq: 0,
            guild: t.guild,
            channel,
            players: players.clone(),
            settings: t.settings.clone(),
            plies: Vec::new(),
            started_ms: now_ms,
            last_ply_ms: now_ms,
            undo_request: None,
            draw_offer: None,
            reminder_due_ms: None,
            timeout_due_ms: None,
            series: Series {
                id: t.id,
                games: 0,
                points: [(players[0].id, 0), (players[1].id, 0)],
            },
            purse: None,
            fixture: Some(fixture),
        };
        p.channel = Some(channel);
        p.game = Some(game.id);
        let g = Self::rebuild(&game)?;
        let first = game.players[g.to_move().index()].clone();
        self.set_timers(&mut game, first.id, now_ms)?;
        t.seq += 1;
        self.durable_or(
            &Change {
                channel,
                expect_seq: None,
                game: Some(game.clone()),
                tournament: Some((t.clone(), Some(t.seq - 1))),
                ..Change::default()
            },
            CHANGED,
        )?;
        Ok(Some(Outcome {
            text: format!(
                "{}, round {}: {} (White) vs {} (Black), {}. {} to move.",
                t.name,
                fixture.round + 1,
                players[0].name,
                players[1].name,
                super::describe_game(&game.settings),
                first.name
            ),
            ping: players.to_vec(),
            direct: self.wants_direct(&first)?,
            deadline_ms: game.timeout_due_ms,
            prompt: Self::board_prompt(&game),
            board: Self::shown(&game, g, now_ms),
            ..Outcome::default()
        }))
    }

    /// Announces what happened in running tournaments since the last call: results, new
    /// rounds, the end. Also starts tournaments whose start time has come. One event per
    /// tournament with news, for its channel.
    pub fn tournament_news(&self, now_ms: i64) -> Result<Vec<TimerEvent>, Refusal> {
        let mut events = Vec::new();
        for t in self.store.tournaments()? {
            let outcome = match (t.phase, t.start) {
                (Phase::Open, Start::At(due)) if due <= now_ms => self.start_due(t.clone()),
                (Phase::Running, _) => self.advance(t.clone()),
                _ => continue,
            };
            match outcome {
                Ok(Some(outcome)) => events.push(TimerEvent {
                    id: super::event_id(t.channel, 4, t.id ^ t.seq),
                    guild: t.guild,
                    channel: t.channel,
                    outcome,
                }),
                Ok(None) => {}
                // Another process or call got there first: its news stands.
                Err(_) => {}
            }
        }
        Ok(events)
    }

    /// A tournament whose start time came: it begins, or is cancelled if too few joined.
    fn start_due(&self, mut t: Tournament) -> Result<Option<Outcome>, Refusal> {
        match self.begin(t.clone()) {
            Ok(outcome) => Ok(Some(outcome)),
            Err(Refusal(why)) => {
                t.phase = Phase::Cancelled;
                self.save_tournament(&mut t, Vec::new())?;
                Ok(Some(Outcome {
                    text: format!("{} could not start ({why}); it is cancelled.", t.name),
                    ..Outcome::default()
                }))
            }
        }
    }

    /// Announces new results of `t` (as just read), pairs its next round when the current one
    /// is complete, or ends it after the last.
    fn advance(&self, mut t: Tournament) -> Result<Option<Outcome>, Refusal> {
        let view = self.with_results(t.clone())?;
        let mut results = view.results.clone();
        let mut told = Vec::new();
        let round = t.rounds.len().saturating_sub(1);
        for (b, line) in view.round_lines(round).iter().enumerate() {
            let p = &mut t.rounds[round][b];
            if line.result.is_some() && !p.announced {
                p.announced = true;
                told.push(format!("Round {}: {}.", round + 1, line.describe()));
            }
        }
        // Results come one by one; after a pause (a restart) they may come together.
        let mut lines = Vec::new();
        if !told.is_empty() {
            lines.push(within(
                &told,
                "\n",
                RESULTS_ROOM,
                "more results in the table",
            ));
        }
        let mut new_results = Vec::new();
        let mut round_done = false;
        let mut finished = false;
        loop {
            let r = t.rounds.len() - 1;
            let complete =
                (0..t.rounds[r].len()).all(|b| results.contains_key(&(r as u32, b as u32)));
            if !complete {
                break;
            }
            round_done = true;
            if t.rounds.len() >= t.format.rounds(t.entrants.len()) {
                t.phase = Phase::Finished;
                finished = true;
                break;
            }
            let before = new_results.len();
            let text = self.pair_next_round(&mut t, &results, &mut new_results);
            for (f, r) in &new_results[before..] {
                results.insert((f.round, f.board), *r);
            }
            lines.push(text);
        }
        if lines.is_empty() && !finished {
            return Ok(None);
        }
        self.save_tournament(&mut t, new_results)?;
        let view = TournamentView {
            tournament: t.clone(),
            results,
        };
        let mut outcome = Outcome {
            tournament: Some(t.id),
            ..Outcome::default()
        };
        if finished {
            let table = view.standings();
            let winner = &t.entrants[table[0].seed].player;
            let tie = match table.get(1) {
                Some(second) if second.score == table[0].score => {
                    let swiss = matches!(t.format, Format::Swiss(_));
                    let by = if second.first_tiebreak != table[0].first_tiebreak {
                        if swiss {
                            "Buchholz"
                        } else {
                            "Sonneborn-Berger"
                        }
                    } else if swiss && second.second_tiebreak != table[0].second_tiebreak {
                        "median-Buchholz"
                    } else {
                        "the order of entry"
                    };
                    format!(", ahead of {} on {by}", t.entrants[second.seed].player.name)
                }
                _ => String::new(),
            };
            lines.push(format!(
                "{} is over: {} wins with {} points{tie}.",
                t.name,
                winner.name,
                pairing::halves(table[0].score)
            ));
            outcome.ping = t.entrants.iter().map(|e| e.player.clone()).collect();
        }
        if round_done {
            outcome.table = Some(view.table_text(12));
            outcome.image = Some(view.crosstable());
        }
        outcome.text = lines.join("\n");
        Ok(Some(outcome))
    }

    /// `player` (or the one asking) leaves a running tournament: a game they are playing is
    /// lost by forfeit now, and their later pairings are forfeited. Themselves, the organizer or
    /// a moderator.
    pub fn withdraw(&self, ctx: &Ctx, player: Option<&PlayerRef>) -> Result<Outcome, Refusal> {
        self.retried(|| self.withdraw_once(ctx, player))
    }

    fn withdraw_once(&self, ctx: &Ctx, player: Option<&PlayerRef>) -> Result<Outcome, Refusal> {
        let mut t = match self.active_here(ctx)? {
            Some(t) => t,
            None => self.tournament_here(ctx)?,
        };
        let who = player.unwrap_or(&ctx.user);
        if who.id != ctx.user.id {
            Self::may_run(&t, ctx, "withdraw another player")?;
        }
        if t.phase == Phase::Open {
            return super::refuse(
                "the tournament has not started: leave it with /tournament leave",
            );
        }
        if t.phase != Phase::Running {
            return super::refuse(format!("{} is over", t.name));
        }
        let Some(seed) = t.entrants.iter().position(|e| e.player.id == who.id) else {
            return super::refuse(format!("{} is not in {}", who.name, t.name));
        };
        if t.entrants[seed].withdrawn {
            return super::refuse(format!("{} has already withdrawn", who.name));
        }
        t.entrants[seed].withdrawn = true;
        let round = t.rounds.len() - 1;
        let results = self.store.results(t.id)?;
        let mut forfeits = Vec::new();
        let mut live = None;
        for (b, p) in t.rounds[round].iter().enumerate() {
            let decided = results.contains_key(&(round as u32, b as u32));
            let Some(black) = p.black else { continue };
            if decided || (p.white != seed && black != seed) {
                continue;
            }
            match p.channel {
                Some(channel) => live = Some(channel),
                None => forfeits.push((
                    Fixture {
                        tournament: t.id,
                        round: round as u32,
                        board: b as u32,
                    },
                    PairingResult {
                        points: if p.white == seed {
                            Points::Black
                        } else {
                            Points::White
                        },
                        how: How::Forfeit,
                    },
                )),
            }
        }
        self.save_tournament(&mut t, forfeits)?;
        let mut text = format!("{} withdrew from {}.", who.name, t.name);
        if let Some(channel) = live {
            if let Some(game) = self.store.game(channel)? {
                let g = Self::rebuild(&game)?;
                let seat = Self::seat_of(&game, who.id).expect("a pairing's players play it");
                let in_game = Ctx {
                    channel,
                    ..ctx.clone()
                };
                let ended = self.decided(
                    &in_game,
                    game,
                    g,
                    Decision::Resignation {
                        winner: seat.opponent(),
                    },
                )?;
                text.push_str(&format!(" Their game: {}", ended.text));
            }
        }
        Ok(Outcome {
            text,
            tournament: Some(t.id),
            ..Outcome::default()
        })
    }

    /// Ends the tournament without result; its running games are aborted (they do not count).
    pub fn cancel_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.cancel_tournament_once(ctx))
    }

    fn cancel_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let Some(mut t) = self.active_here(ctx)? else {
            return super::refuse("there is no open or running tournament in this channel");
        };
        Self::may_run(&t, ctx, "cancel it")?;
        t.phase = Phase::Cancelled;
        self.save_tournament(&mut t, Vec::new())?;
        let mut aborted = 0;
        for channel in t.rounds.iter().flatten().filter_map(|p| p.channel) {
            if let Some(game) = self.store.game(channel)? {
                let g = Self::rebuild(&game)?;
                let in_game = Ctx {
                    channel,
                    ..ctx.clone()
                };
                self.decided(&in_game, game, g, Decision::Abandoned)?;
                aborted += 1;
            }
        }
        Ok(Outcome {
            text: format!(
                "{} was cancelled by {}{}.",
                t.name,
                ctx.user.name,
                match aborted {
                    0 => String::new(),
                    1 => "; its running game was aborted".into(),
                    n => format!("; its {n} running games were aborted"),
                }
            ),
            ..Outcome::default()
        })
    }

    /// The tournament of this channel (or of the pairing played here) with its results.
    pub fn tournament_view(&self, ctx: &Ctx) -> Result<TournamentView, Refusal> {
        let t = self.tournament_here(ctx)?;
        self.with_results(t)
    }

    /// Standings as an outcome: the table as text and the crosstable picture.
    pub fn tournament_standings(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let view = self.tournament_view(ctx)?;
        let t = &view.tournament;
        if t.entrants.is_empty() {
            return super::refuse(format!("nobody has joined {} yet", t.name));
        }
        let state = match t.phase {
            Phase::Open => format!("taking entries; {}", describe_start(t.start)),
            Phase::Running => format!(
                "round {} of {}",
                t.rounds.len(),
                t.format.rounds(t.entrants.len())
            ),
            Phase::Finished => "finished".into(),
            Phase::Cancelled => "cancelled".into(),
        };
        Ok(Outcome {
            text: format!("{} ({}, {state}).", t.name, t.format.describe()),
            table: Some(view.table_text(25)),
            image: Some(view.crosstable()),
            ..Outcome::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_times_read_as_utc() {
        let ms = utc_time("2026-12-01 18:30").unwrap();
        assert_eq!(super::super::finish::ptn_date(ms), "2026.12.01");
        assert_eq!(clock(ms), " 18:30 UTC");
        assert_eq!(utc_time("2000-02-29T00:00"), Some(951_782_400_000));
        for bad in [
            "2026-13-01 10:00",
            "2026-12-01",
            "tomorrow 10:00",
            "2026-12-01 25:00",
        ] {
            assert_eq!(utc_time(bad), None, "{bad}");
        }
    }
}
