//! Reminders, time-outs and expired challenges, and channels or servers Bredon lost.

use super::*;

impl Service {
    /// Arms the time-out and the first reminder for the player to move (`to_move`), whose own
    /// reminder wish overrides the game's. The clock starts now, or when a player's vacation
    /// ends.
    pub(super) fn set_timers(
        &self,
        game: &mut LiveGame,
        to_move: u64,
        now_ms: i64,
    ) -> Result<(), Refusal> {
        let start = game.paused_until_ms.map_or(now_ms, |t| t.max(now_ms));
        game.timeout_due_ms = game
            .settings
            .time_limit_secs
            .map(|s| start + s as i64 * 1000);
        game.reminder_due_ms = next_reminder(game, self.reminder_interval(game, to_move)?, start);
        Ok(())
    }

    /// How often `player` is reminded in `game`.
    pub(super) fn reminder_interval(
        &self,
        game: &LiveGame,
        player: u64,
    ) -> Result<Option<u64>, Refusal> {
        Ok(self
            .store
            .prefs(player)?
            .reminder
            .interval(game.settings.reminder_secs))
    }

    /// Fires due reminders and time-outs and expires old challenges. Each fires once: its new
    /// state is stored before the event is returned.
    pub fn tick(&self, now_ms: i64) -> Result<Vec<TimerEvent>, Refusal> {
        let mut events = Vec::new();
        for (channel, kind, _) in self.store.due_timers(now_ms)? {
            let Some(mut game) = self.store.game(channel)? else {
                continue;
            };
            // The list of due timers was read before the game: a ply, or another process's tick,
            // may have moved this timer since. The game read now decides.
            let due = match kind {
                TimerKind::Reminder => game.reminder_due_ms,
                TimerKind::Timeout => game.timeout_due_ms,
            };
            if due.is_none_or(|d| d > now_ms) {
                continue;
            }
            let g = Self::rebuild(&game)?;
            let to_move = g.to_move();
            let player = game.players[to_move.index()].clone();
            let ctx = Ctx {
                guild: game.guild,
                channel,
                user: player.clone(),
                now_ms,
                moderator: false,
                request: None,
            };
            let outcome = match kind {
                // A reminder overtaken by the time-out (the bot was down) is not posted.
                TimerKind::Reminder if game.timeout_due_ms.is_some_and(|t| t <= now_ms) => continue,
                TimerKind::Reminder => {
                    let interval = self.reminder_interval(&game, player.id)?;
                    game.reminder_due_ms = next_reminder(&game, interval, now_ms);
                    let direct = self.wants_direct(&player)?;
                    let reminded = self.update_announcing(&ctx, &mut game, Vec::new(), |game| {
                        let idle = (now_ms - game.last_ply_ms) / 3_600_000;
                        Ok(Outcome {
                            text: format!(
                                "{}, it is your move (move {}; no ply for {idle} h).",
                                player.name,
                                g.move_number()
                            ),
                            direct,
                            ping: vec![player],
                            deadline_ms: game.timeout_due_ms,
                            prompt: Self::board_prompt(game),
                            board: Self::shown(game, g, now_ms),
                            ..Outcome::default()
                        })
                    });
                    match reminded {
                        Ok(outcome) => outcome,
                        Err(_) => continue, // a ply came in meanwhile: its timers stand
                    }
                }
                TimerKind::Timeout => match self.decided(
                    &ctx,
                    game,
                    g,
                    Decision::Timeout {
                        winner: to_move.opponent(),
                    },
                ) {
                    Ok(o) => o,
                    Err(_) => continue,
                },
            };
            events.push(TimerEvent {
                guild: ctx.guild,
                channel,
                outcome,
            });
        }
        for c in self.store.challenges_expired(now_ms)? {
            let change = Change {
                channel: c.channel,
                take_challenge: Some(c.id),
                ..Change::default()
            };
            let outcome = Outcome {
                text: format!("{}'s challenge expired.", c.challenger.name),
                ping: vec![c.challenger.clone()],
                ..Outcome::default()
            };
            let ctx = Ctx {
                guild: c.guild,
                channel: c.channel,
                user: c.challenger,
                now_ms,
                moderator: false,
                request: None,
            };
            if let Ok(outcome) = self.commit(&ctx, change, outcome) {
                events.push(TimerEvent {
                    guild: c.guild,
                    channel: c.channel,
                    outcome,
                });
            }
        }
        // Daily posts need no finer time than a minute: looked at once a minute.
        let minute = now_ms.div_euclid(60_000);
        let before = self
            .daily_checked
            .swap(minute, std::sync::atomic::Ordering::Relaxed);
        if before != minute {
            events.extend(self.daily_puzzles(now_ms)?);
            events.extend(self.digests(now_ms)?);
        }
        Ok(events)
    }

    /// Discord says the channel is gone (deleted, Unknown Channel): its game's reminders and
    /// time-outs stop, so nothing keeps failing there, and a daily puzzle posted there stops.
    /// The game is kept; a ply (which re-arms them) or a moderator's /abort still works. True
    /// if timers were stopped.
    pub fn channel_gone(&self, channel: u64) -> Result<bool, Refusal> {
        self.puzzle_channel_gone(channel)?;
        // Several events may report the same channel at once: a lost race is read again.
        let mut tries = 0;
        loop {
            let Some(mut game) = self.store.game(channel)? else {
                return Ok(false);
            };
            if game.reminder_due_ms.is_none() && game.timeout_due_ms.is_none() {
                return Ok(false);
            }
            game.reminder_due_ms = None;
            game.timeout_due_ms = None;
            match self.update(&mut game) {
                Ok(()) => return Ok(true),
                Err(_) if tries < 3 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// The channels of the server's live games.
    pub fn live_channels(&self, guild: u64) -> Result<Vec<u64>, Refusal> {
        Ok(self
            .store
            .live_games(guild)?
            .into_iter()
            .map(|g| g.channel)
            .collect())
    }

    /// Bredon was removed from a server: every game there stops its timers (the data stays), and
    /// the messages owed there are dropped.
    pub fn guild_gone(&self, guild: u64) -> Result<usize, Refusal> {
        let mut stopped = 0;
        for game in self.store.live_games(guild)? {
            stopped += usize::from(self.channel_gone(game.channel)?);
        }
        // What Bredon owed there can never be posted: dropped, not tried again forever.
        for letter in self.store.letters()? {
            if letter.guild == guild {
                self.store.remove_letter(letter.id)?;
            }
        }
        Ok(stopped)
    }
}

/// The last warning comes this long before a time-out (or a quarter of the limit, if shorter).
const LAST_CALL_MS: i64 = 3_600_000;

/// The next reminder after `now_ms`: after the reminder `interval`, and with a time limit
/// also at half the limit and an hour before the time-out; never at or after the time-out, so a
/// reminder never arrives together with it.
fn next_reminder(game: &LiveGame, interval: Option<u64>, now_ms: i64) -> Option<i64> {
    let regular = interval.map(|s| now_ms + s as i64 * 1000);
    let (Some(deadline), Some(limit)) = (game.timeout_due_ms, game.settings.time_limit_secs) else {
        return regular;
    };
    // The clock started a limit before the deadline (a vacation may have moved both).
    let limit = limit as i64 * 1000;
    let last_call = deadline - LAST_CALL_MS.min(limit / 4);
    [regular, Some(deadline - limit / 2), Some(last_call)]
        .into_iter()
        .flatten()
        .filter(|&t| t > now_ms && t <= last_call)
        .min()
}
