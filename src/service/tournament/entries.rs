//! Entries: a tournament created, joined, left, withdrawn from, or cancelled.

use super::*;

impl Service {
    pub fn create_tournament(
        &self,
        ctx: &Ctx,
        options: &TournamentOptions,
    ) -> Result<Outcome, Refusal> {
        let defaults = self.store.settings(ctx.guild)?;
        if !ctx.moderator && !defaults.open_tournaments {
            return refuse(
                "only a moderator (Manage Messages) can create a tournament in this server; a \
                 moderator can let everyone with /settings tournaments:anyone",
            );
        }
        if let Some(t) = self.active_here(ctx)? {
            return refuse(format!(
                "this channel already runs the tournament {}; make another in another channel, \
                 or wait for it to end",
                t.name
            ));
        }
        let name = options.name.trim();
        if name.is_empty() || name.chars().count() > 50 {
            return refuse("a tournament needs a name of 1 to 50 characters");
        }
        if options.game.engine.is_some() || options.game.stakes.is_some() {
            return refuse("tournament games are between players, without stakes");
        }
        if options.game.tps.is_some() {
            return refuse("tournament games start from the empty board");
        }
        let settings = options.game.settings(&defaults)?;
        if let Some(n) = options.limit {
            if !(2..=MOST_ENTRANTS).contains(&n) {
                return refuse(format!(
                    "an entry limit must be 2 to {MOST_ENTRANTS} players"
                ));
            }
        }
        let start = match options.start.as_deref().map(str::trim) {
            None | Some("" | "manual") => Start::Manual,
            Some("when full" | "when-full" | "full") => {
                if options.limit.is_none() {
                    return refuse(
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
                    return refuse("that start time has passed: give a time to come");
                }
                if at - ctx.now_ms > 28 * 24 * 3_600_000 {
                    return refuse("a tournament starts within 4 weeks");
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
            no_vacations: options.no_vacations,
            threads_refused: false,
        };
        let limit = t
            .limit
            .map_or(String::new(), |n| format!(", at most {n} players"));
        let outcome = Outcome {
            text: format!(
                "{} opened the tournament {}: {}, {}{limit}; it {}. Join with /tournament join.",
                ctx.user.name,
                t.name,
                t.format.describe(),
                describe_game(&t.settings),
                describe_start(t.start)
            ),
            ..Outcome::default()
        };
        let change = Change {
            tournament: Some((t, None)),
            ..Change::default()
        };
        self.commit(ctx, change, outcome)
    }

    pub fn join_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.join_tournament_once(ctx))
    }

    fn join_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut t = self.open_here(ctx)?;
        if t.entrants.iter().any(|e| e.player.id == ctx.user.id) {
            return refuse(format!("you are already in {}", t.name));
        }
        if t.entrants.len() >= t.limit.unwrap_or(MOST_ENTRANTS) {
            return refuse(format!("{} is full ({} players)", t.name, t.entrants.len()));
        }
        t.entrants.push(Entrant {
            player: ctx.user.clone(),
            withdrawn: false,
        });
        let full = t.limit == Some(t.entrants.len());
        if full && t.start == Start::WhenFull {
            let joined = format!("{} joined {}; it is full.", ctx.user.name, t.name);
            return self.begin(ctx, t, &joined);
        }
        let outcome = Outcome {
            text: format!(
                "{} joined {} ({}).",
                ctx.user.name,
                t.name,
                crate::words::count(t.entrants.len() as u64, "player")
            ),
            ..Outcome::default()
        };
        self.save_tournament(ctx, &mut t, Vec::new(), outcome)
    }

    pub fn leave_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.leave_tournament_once(ctx))
    }

    fn leave_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut t = match self.active_here(ctx)? {
            Some(t) if t.phase == Phase::Running => {
                return refuse(
                    "the tournament has started: to stop playing, /tournament withdraw (your \
                     remaining games are forfeited)",
                )
            }
            _ => self.open_here(ctx)?,
        };
        let Some(i) = t.entrants.iter().position(|e| e.player.id == ctx.user.id) else {
            return refuse(format!("you are not in {}", t.name));
        };
        t.entrants.remove(i);
        let outcome = Outcome {
            text: format!("{} left {}.", ctx.user.name, t.name),
            ..Outcome::default()
        };
        self.save_tournament(ctx, &mut t, Vec::new(), outcome)
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
            return refuse("the tournament has not started: leave it with /tournament leave");
        }
        if t.phase != Phase::Running {
            return refuse(format!("{} is over", t.name));
        }
        let Some(seed) = t.entrants.iter().position(|e| e.player.id == who.id) else {
            return refuse(format!("{} is not in {}", who.name, t.name));
        };
        if t.entrants[seed].withdrawn {
            return refuse(format!("{} has already withdrawn", who.name));
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
        let game = match live {
            Some(channel) => self.store.game(channel)?,
            None => None,
        };
        let mut text = format!("{} withdrew from {}.", who.name, t.name);
        if game.is_some() {
            text.push_str(" The game they were playing is lost by forfeit.");
        }
        let outcome = Outcome {
            text,
            tournament: Some(t.id),
            ..Outcome::default()
        };
        let mut outcome = self.save_tournament(ctx, &mut t, forfeits, outcome)?;
        if let Some(game) = game {
            let g = Self::rebuild(&game)?;
            let seat = Self::seat_of(&game, who.id).expect("a pairing's players play it");
            let winner = seat.opponent();
            let in_game = Self::in_game(ctx, game.channel);
            let ended = self.decided(&in_game, game, g, Decision::Resignation { winner })?;
            outcome.elsewhere.extend(ended.letter);
        }
        Ok(outcome)
    }

    /// Ends the tournament without result; its running games are aborted (they do not count).
    pub fn cancel_tournament(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        self.retried(|| self.cancel_tournament_once(ctx))
    }

    fn cancel_tournament_once(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let Some(mut t) = self.active_here(ctx)? else {
            return refuse("there is no open or running tournament in this channel");
        };
        Self::may_run(&t, ctx, "cancel it")?;
        t.phase = Phase::Cancelled;
        let mut games = Vec::new();
        for channel in t.rounds.iter().flatten().filter_map(|p| p.channel) {
            games.extend(self.store.game(channel)?);
        }
        let aborted = games.len();
        let outcome = Outcome {
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
        };
        let mut outcome = self.save_tournament(ctx, &mut t, Vec::new(), outcome)?;
        for game in games {
            let g = Self::rebuild(&game)?;
            let in_game = Self::in_game(ctx, game.channel);
            let ended = self.decided(&in_game, game, g, Decision::Abandoned)?;
            outcome.elsewhere.extend(ended.letter);
        }
        Ok(outcome)
    }
}
