//! Tournaments in a server: entries, rounds paired one at a time, a game per pairing (in a
//! thread the adapter opens), results written by each game's finishing change, standings and
//! the crosstable. Pairing and tie-breaks are `crate::tournament`'s; this is their bookkeeping.
//!
//! Flow: `start_tournament` pairs round 1; adapters ask `pending_pairings` for games to open,
//! lease each (`lease_pairing_thread`: one process of several makes its thread), make a thread
//! for each and call `start_pairing`; a finished game stores its pairing's result;
//! `tournament_news` (called after such games and by the timer loop) announces results, pairs
//! the next round when the last game of a round ends, and finally announces the winner. Each step
//! is stored before it is told, under the tournament's `seq`, so it happens once.

use super::{
    describe_game, options, refuse, ChallengeOptions, Ctx, Outcome, Refusal, Service, TimerEvent,
};
use crate::game::Decision;
use crate::render::crosstable::{render_crosstable, Crosstable, CrosstableText};
use crate::render::Theme;
use crate::service::settings::WebPage;
use crate::store::records::*;
use crate::store::Change;
use crate::tournament::{self as pairing, Format, Pair, Played, Points, Standing};
use std::collections::{HashMap, HashSet};

mod entries;
mod rounds;
mod view;

pub use view::{RoundLine, StandingRow, TournamentView};

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
    /// Players' vacations do not stop its games' clocks.
    pub no_vacations: bool,
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
            None => refuse(
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

    /// Stores `t` as its next version, with `results` and the outcome that announces it;
    /// refused with `CHANGED` if the stored tournament is no longer the version read.
    fn save_tournament(
        &self,
        ctx: &Ctx,
        t: &mut Tournament,
        results: Vec<(Fixture, PairingResult)>,
        outcome: Outcome,
    ) -> Result<Outcome, Refusal> {
        t.seq += 1;
        let change = Change {
            tournament: Some((t.clone(), Some(t.seq - 1))),
            results,
            ..Change::default()
        };
        self.commit_or(ctx, change, outcome, CHANGED)
    }

    /// Who acts when the tournament itself moves on (its start time, a round complete): its
    /// organizer, in its channel.
    fn tournament_ctx(t: &Tournament, now_ms: i64) -> Ctx {
        Ctx {
            guild: t.guild,
            channel: t.channel,
            user: t.organizer.clone(),
            now_ms,
            moderator: false,
            request: None,
        }
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
        refuse(format!(
            "only {} (who made the tournament) or a moderator can {what}",
            t.organizer.name
        ))
    }

    /// Who may create tournaments in this server: `anyone`, or `moderators` (the default).
    pub fn set_tournament_makers(&self, ctx: &Ctx, who: &str) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            s.open_tournaments = match who.trim().to_ascii_lowercase().as_str() {
                "anyone" | "everyone" => true,
                "moderators" | "mods" => false,
                other => {
                    return refuse(format!(
                        "tournaments={} is not known: anyone or moderators",
                        crate::tak::quote(other)
                    ))
                }
            };
            Ok(())
        })
    }

    fn open_here(&self, ctx: &Ctx) -> Result<Tournament, Refusal> {
        match self.active_here(ctx)? {
            Some(t) if t.phase == Phase::Open => Ok(t),
            Some(t) => refuse(format!(
                "the tournament {} has started: entries are closed",
                t.name
            )),
            None => refuse(
                "there is no tournament taking entries in this channel; look in the channel where \
                 it was announced",
            ),
        }
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
