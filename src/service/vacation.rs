//! Vacations: a player takes days off, and the clocks of their games stand still meanwhile (no
//! reminder, no time-out, for either side), as correspondence servers allow leave.
//!
//! A game keeps the end of the longest vacation of its players (`paused_until_ms`); starting a
//! vacation moves the game's deadlines later by the days it adds, ending one early moves them
//! back. Plies may still be played: the next clock then starts when the vacation ends.

use super::*;

const DAY_MS: i64 = 86_400_000;

/// The longest vacation asked for at once.
const LONGEST_DAYS: u32 = 60;

impl Service {
    /// How many vacation days a player may take in a year here (moderators; 0 forbids them).
    pub fn set_vacation_days(&self, ctx: &Ctx, days: u32) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            if days > 365 {
                return refuse(format!(
                    "{days} vacation days a year is not allowed: choose 0 (none) to 365"
                ));
            }
            s.vacation_days = days;
            Ok(())
        })
    }

    /// `ctx.user` takes `days` off in this server: every game of theirs here stops its clock
    /// until then, and each game's channel is told. Asking again while away adds nothing (it
    /// says so, and stores nothing), but stops the clocks of games the first attempt did not
    /// reach.
    pub fn vacation_start(&self, ctx: &Ctx, days: u32) -> Result<Outcome, Refusal> {
        let allowed = self.store.settings(ctx.guild)?.vacation_days;
        if allowed == 0 {
            return refuse("this server allows no vacations (a moderator can allow some with /settings vacation_days)");
        }
        if !(1..=LONGEST_DAYS).contains(&days) {
            return refuse(format!(
                "a vacation lasts 1 to {LONGEST_DAYS} days, not {days}"
            ));
        }
        let mut v = self.vacation_of(ctx)?;
        let until = match v.until_ms.filter(|&t| t > ctx.now_ms) {
            Some(until) => return self.vacation_again(ctx, until),
            None => {
                let left = allowed.saturating_sub(v.used_days);
                if days > left {
                    return refuse(format!(
                        "you have {} left this year (of {allowed}); ask for at most that many",
                        crate::words::count(left, "vacation day")
                    ));
                }
                v.used_days += days;
                let until = ctx.now_ms + i64::from(days) * DAY_MS;
                v.until_ms = Some(until);
                self.store.put_vacation(&v)?;
                self.store.flush()?;
                until
            }
        };
        let (letters, paused, kept) = self.pause_games(ctx, until)?;
        let mut text = format!(
            "{} is on vacation until {}: the clocks of {} stand still until then.",
            ctx.user.name,
            utc_time(until),
            crate::words::count(paused as u64, "game")
        );
        if !kept.is_empty() {
            text.push_str(&format!(
                " Not in {}: {} no vacations.",
                kept.join(", "),
                if kept.len() == 1 {
                    "its tournament allows"
                } else {
                    "their tournaments allow"
                }
            ));
        }
        text.push_str(&format!(
            " Vacation days left this year: {} of {allowed}; /vacation end comes back early.",
            allowed.saturating_sub(v.used_days)
        ));
        Ok(Outcome {
            text,
            elsewhere: letters,
            ..Outcome::default()
        })
    }

    /// `/vacation start` by a player already away until `until`: the vacation stays as it was
    /// (the days asked for are not added); only games the first request did not reach (a
    /// crash between games) stop their clocks now, and the player hears that nothing changed.
    fn vacation_again(&self, ctx: &Ctx, until: i64) -> Result<Outcome, Refusal> {
        let (letters, _, _) = self.pause_games(ctx, until)?;
        if letters.is_empty() {
            return refuse(format!(
                "you are already on vacation here until {}, so nothing changed: no days were \
                 added or counted. /vacation end comes back early (giving back the days not \
                 taken); after it, /vacation start takes days off again",
                utc_time(until)
            ));
        }
        Ok(Outcome {
            text: format!(
                "{} was already on vacation until {}; the clocks of {} that had kept running \
                 now stand still too. No days were added.",
                ctx.user.name,
                utc_time(until),
                crate::words::count(letters.len() as u64, "game")
            ),
            elsewhere: letters,
            ..Outcome::default()
        })
    }

    /// `ctx.user` is back before their vacation ends: the days not taken are given back,
    /// and the clocks run again (unless the opponent is away too).
    pub fn vacation_end(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut v = self.vacation_of(ctx)?;
        let Some(until) = v.until_ms.filter(|&t| t > ctx.now_ms) else {
            return refuse("you are not on vacation here: /vacation start takes days off");
        };
        // Days not taken, to the nearest: back within hours, the day is not counted.
        let back = ((until - ctx.now_ms + DAY_MS / 2) / DAY_MS) as u32;
        v.used_days = v.used_days.saturating_sub(back);
        v.until_ms = None;
        self.store.put_vacation(&v)?;
        self.store.flush()?;
        let letters = self.resume_games(ctx)?;
        Ok(Outcome {
            text: format!(
                "{} is back: the clocks of {} run again; {} given back.",
                ctx.user.name,
                crate::words::count(letters.len() as u64, "game"),
                crate::words::count(back, "unused day")
            ),
            elsewhere: letters,
            ..Outcome::default()
        })
    }

    /// When the vacations of `game`'s players end, if any is under way.
    pub(super) fn vacation_end_of(
        &self,
        game: &LiveGame,
        now_ms: i64,
    ) -> Result<Option<i64>, Refusal> {
        let mut end = None;
        for p in &game.players {
            let until = self
                .store
                .vacation(game.guild, p.id)?
                .and_then(|v| v.until_ms);
            end = end.max(until.filter(|&t| t > now_ms));
        }
        Ok(end)
    }

    /// The user's vacation record in this server, counting from this year.
    fn vacation_of(&self, ctx: &Ctx) -> Result<Vacation, Refusal> {
        let year = year_of(ctx.now_ms);
        let mut v = self
            .store
            .vacation(ctx.guild, ctx.user.id)?
            .unwrap_or_else(|| Vacation {
                guild: ctx.guild,
                user: ctx.user.clone(),
                year,
                used_days: 0,
                until_ms: None,
            });
        if v.year != year {
            v.year = year;
            v.used_days = 0;
        }
        v.user = ctx.user.clone();
        Ok(v)
    }

    /// Stops the clocks of the user's games here until `until`: the letters telling the games
    /// newly stopped, how many stand still, and the names of the tournaments whose games keep
    /// running.
    fn pause_games(
        &self,
        ctx: &Ctx,
        until: i64,
    ) -> Result<(Vec<u64>, usize, Vec<String>), Refusal> {
        let mut letters = Vec::new();
        let mut paused = 0;
        let mut kept = Vec::new();
        for mut game in self.games_of(ctx)? {
            if let Some(t) = self.no_vacations_in(&game)? {
                kept.push(t);
                continue;
            }
            paused += 1;
            let from = game.paused_until_ms.unwrap_or(ctx.now_ms).max(ctx.now_ms);
            let added = until - from;
            if added <= 0 {
                continue;
            }
            shift(&mut game, added);
            game.paused_until_ms = Some(until);
            let opponent = Self::opponent_of(&game, ctx.user.id);
            let text = format!(
                "{} is on vacation until {}: this game's clock stands still until then (no \
                 reminders, no time-out). Plies may still be played.",
                ctx.user.name,
                utc_time(until)
            );
            letters.extend(self.notify_game(ctx, game, opponent, text)?);
        }
        Ok((letters, paused, kept))
    }

    /// Runs the clocks of the user's games here again from now (or from the end of the
    /// opponent's own vacation): the letters telling each game.
    fn resume_games(&self, ctx: &Ctx) -> Result<Vec<u64>, Refusal> {
        let mut letters = Vec::new();
        for mut game in self.games_of(ctx)? {
            let Some(paused) = game.paused_until_ms.filter(|&t| t > ctx.now_ms) else {
                continue;
            };
            let end = self.vacation_end_of(&game, ctx.now_ms)?;
            let to = end.unwrap_or(ctx.now_ms);
            if to >= paused {
                continue;
            }
            shift(&mut game, to - paused);
            game.reminder_due_ms = game.reminder_due_ms.map(|r| r.max(ctx.now_ms));
            game.paused_until_ms = end;
            let opponent = Self::opponent_of(&game, ctx.user.id);
            let text = format!(
                "{} is back from vacation: this game's clock runs again.",
                ctx.user.name
            );
            letters.extend(self.notify_game(ctx, game, opponent, text)?);
        }
        Ok(letters)
    }

    /// The user's live games in this server.
    fn games_of(&self, ctx: &Ctx) -> Result<Vec<LiveGame>, Refusal> {
        let mut games = self.store.live_games(ctx.guild)?;
        games.retain(|g| g.players.iter().any(|p| p.id == ctx.user.id));
        Ok(games)
    }

    /// The name of `game`'s tournament, if it allows no vacations.
    fn no_vacations_in(&self, game: &LiveGame) -> Result<Option<String>, Refusal> {
        let Some(f) = game.fixture else {
            return Ok(None);
        };
        Ok(self
            .store
            .tournament(f.tournament)?
            .filter(|t| t.no_vacations)
            .map(|t| t.name))
    }

    fn opponent_of(game: &LiveGame, user: u64) -> PlayerRef {
        let i = usize::from(game.players[0].id == user);
        game.players[i].clone()
    }

    /// Stores `game` with its clocks moved, and the letter (returned) that tells its channel,
    /// pinging `opponent`.
    fn notify_game(
        &self,
        ctx: &Ctx,
        mut game: LiveGame,
        opponent: PlayerRef,
        text: String,
    ) -> Result<Option<u64>, Refusal> {
        let in_game = Self::in_game(ctx, game.channel);
        let told = self.update_announcing(&in_game, &mut game, Vec::new(), |game| {
            Ok(Outcome {
                text,
                ping: vec![opponent],
                deadline_ms: game.timeout_due_ms,
                ..Outcome::default()
            })
        })?;
        Ok(told.letter)
    }
}

/// Moves a game's reminder and time-out by `ms` (later if positive).
fn shift(game: &mut LiveGame, ms: i64) {
    game.timeout_due_ms = game.timeout_due_ms.map(|t| t + ms);
    game.reminder_due_ms = game.reminder_due_ms.map(|t| t + ms);
}

/// The calendar year (UTC) of a time.
fn year_of(ms: i64) -> i64 {
    finish::ptn_date(ms)[..4].parse().unwrap_or(1970)
}

/// "2026.11.29 17:03 UTC".
fn utc_time(ms: i64) -> String {
    let minutes = ms.rem_euclid(DAY_MS) / 60_000;
    format!(
        "{} {:02}:{:02} UTC",
        finish::ptn_date(ms),
        minutes / 60,
        minutes % 60
    )
}
