//! Challenges: made, accepted (a game starts), declined, cancelled, and rematches.

use super::*;

const CHALLENGE_TTL_MS: i64 = 48 * 3600 * 1000;

/// Open challenges one player may have in a server at once: enough for every game a player
/// follows, few enough that nobody fills a server's channels with them.
pub const MOST_OPEN_CHALLENGES: usize = 5;

impl Service {
    /// Removes `c`, the channel's open challenge (declined or cancelled), saying so.
    fn take_challenge(
        &self,
        ctx: &Ctx,
        c: &Challenge,
        outcome: Outcome,
    ) -> Result<Outcome, Refusal> {
        let change = Change {
            channel: c.channel,
            take_challenge: Some(c.id),
            ..Change::default()
        };
        self.commit(ctx, change, outcome)
    }

    /// Stores `challenge` as its channel's open challenge and announces it.
    fn open_challenge(&self, ctx: &Ctx, challenge: Challenge) -> Result<Outcome, Refusal> {
        let outcome = challenge_outcome(&challenge);
        let change = Change {
            channel: challenge.channel,
            put_challenge: Some(challenge),
            ..Change::default()
        };
        self.commit(ctx, change, outcome)
    }

    pub fn challenge(&self, ctx: &Ctx, options: &ChallengeOptions) -> Result<Outcome, Refusal> {
        if let Some(g) = self.store.game(ctx.channel)? {
            return refuse(format!(
                "there is already a game in this channel ({} vs {}); finish it, or challenge in another \
                 channel or thread",
                g.players[0].name, g.players[1].name
            ));
        }
        if let Some(c) = self.store.challenge(ctx.channel)? {
            return refuse(format!(
                "{} already has a challenge open in this channel; accept or decline it, or it can be cancelled",
                c.challenger.name
            ));
        }
        if options
            .opponent
            .as_ref()
            .is_some_and(|o| o.id == ctx.user.id)
        {
            return refuse("you cannot challenge yourself: name another player, or leave the opponent out for an open challenge");
        }
        if self.store.challenges_by(ctx.guild, ctx.user.id)? >= MOST_OPEN_CHALLENGES {
            return refuse(format!(
                "you have {MOST_OPEN_CHALLENGES} open challenges in this server, the most there \
                 may be: cancel one (/cancel in its channel) or wait for answers"
            ));
        }
        let defaults = self.store.settings(ctx.guild)?;
        let settings = options.settings(&defaults)?;
        let challenge = Challenge {
            id: self.store.new_id()?,
            guild: ctx.guild,
            channel: ctx.channel,
            challenger: ctx.user.clone(),
            opponent: options.opponent.clone(),
            seat: options.seat,
            settings,
            created_ms: ctx.now_ms,
            expires_ms: ctx.now_ms + CHALLENGE_TTL_MS,
            series: None,
        };
        self.open_challenge(ctx, challenge)
    }

    /// A challenge to Bredon's engine (`engine` is Bredon as a player), which accepts at once:
    /// the game's start is the one announcement.
    pub fn challenge_engine(
        &self,
        ctx: &Ctx,
        options: &ChallengeOptions,
        engine: &PlayerRef,
    ) -> Result<Outcome, Refusal> {
        // `tps:` holds a TPS or a PTN record.
        let from = options.tps.as_deref();
        self.refuse_rated_text(ctx, from, from)?;
        let challenged = self.challenge(ctx, options)?;
        let accepting = Ctx {
            user: engine.clone(),
            ..ctx.clone()
        };
        let started = self.accept(&accepting)?;
        if let Some(letter) = challenged.letter {
            self.delivered(letter)?;
        }
        Ok(started)
    }

    fn current_challenge(&self, ctx: &Ctx) -> Result<Challenge, Refusal> {
        match self.store.challenge(ctx.channel)? {
            Some(c) => Ok(c),
            None => refuse("there is no open challenge in this channel: make one with /challenge"),
        }
    }

    pub fn accept(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let c = self.current_challenge(ctx)?;
        self.accept_challenge(ctx, c)
    }

    /// Accepts `c`; the change applies only while `c` is still the channel's challenge.
    pub(super) fn accept_challenge(&self, ctx: &Ctx, c: Challenge) -> Result<Outcome, Refusal> {
        if c.challenger.id == ctx.user.id {
            return refuse(
                "you cannot accept your own challenge; wait for your opponent, or cancel it",
            );
        }
        if let Some(o) = &c.opponent {
            if o.id != ctx.user.id {
                return refuse(format!(
                    "this challenge is for {}; only they can accept it",
                    o.name
                ));
            }
        }
        self.numbered(|| self.start_from(ctx, &c))
    }

    /// Starts the game of challenge `c`, numbered as its server's next.
    fn start_from(&self, ctx: &Ctx, c: &Challenge) -> Result<Outcome, Refusal> {
        let challenger_white = match c.seat {
            Seat::White => true,
            Seat::Black => false,
            Seat::Random => (c.id ^ ctx.now_ms as u64).count_ones().is_multiple_of(2),
        };
        let players = if challenger_white {
            [c.challenger.clone(), ctx.user.clone()]
        } else {
            [ctx.user.clone(), c.challenger.clone()]
        };
        let series = match c.series.clone() {
            Some(s) => s,
            None => Series {
                id: c.id,
                games: 0,
                points: [(players[0].id, 0), (players[1].id, 0)],
            },
        };
        let mut game = LiveGame {
            id: self.store.new_id()?,
            number: Some(self.store.next_game_number(c.guild)?),
            seq: 0,
            guild: c.guild,
            channel: c.channel,
            players,
            settings: c.settings.clone(),
            plies: Vec::new(),
            started_ms: ctx.now_ms,
            last_ply_ms: ctx.now_ms,
            undo_request: None,
            draw_offer: None,
            reminder_due_ms: None,
            timeout_due_ms: None,
            series,
            purse: None,
            fixture: None,
            paused_until_ms: None,
            conditional: Vec::new(),
            asked_at: Default::default(),
            ply_ms: Vec::new(),
        };
        let g = Self::rebuild(&game)?;
        if game.settings.stakes.is_some() {
            return self.accept_for_coins(ctx, c, game);
        }
        let first = game.players[g.to_move().index()].id;
        game.paused_until_ms = self.vacation_end_of(&game, ctx.now_ms)?;
        self.set_timers(&mut game, first, ctx.now_ms)?;
        let to_move = game.players[g.to_move().index()].clone();
        let outcome = Outcome {
            text: format!(
                "{} (White) vs {} (Black), {}. {} to move.",
                game.players[0].name,
                game.players[1].name,
                describe_game(&game.settings),
                to_move.name
            ),
            direct: self.wants_direct(&to_move)?,
            ping: vec![to_move],
            deadline_ms: game.timeout_due_ms,
            prompt: Self::board_prompt(&game),
            board: Self::shown(&game, g, ctx.now_ms),
            ..Outcome::default()
        };
        self.commit(ctx, game_from(c, game, Vec::new()), outcome)
    }

    /// A University game starts with the antes and waits for the bids; its clock starts when
    /// the bids are settled.
    fn accept_for_coins(
        &self,
        ctx: &Ctx,
        c: &Challenge,
        mut game: LiveGame,
    ) -> Result<Outcome, Refusal> {
        let moves = self.ante(&mut game)?;
        let outcome = Outcome {
            text: format!(
                "{} vs {}, {}, University rules: each antes {ANTE} (pot {}). Bid for the first \
                 move with /bid coins:N: bids are sealed; the higher bid moves first (White) and \
                 is paid into the pot.",
                game.players[0].name,
                game.players[1].name,
                describe_game(&game.settings),
                2 * ANTE
            ),
            ping: game.players.to_vec(),
            ..Outcome::default()
        };
        self.commit(ctx, game_from(c, game, moves.changes), outcome)
    }

    pub fn decline(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let c = self.current_challenge(ctx)?;
        self.decline_challenge(ctx, c)
    }

    pub(super) fn decline_challenge(&self, ctx: &Ctx, c: Challenge) -> Result<Outcome, Refusal> {
        match &c.opponent {
            None => {
                return refuse("an open challenge cannot be declined; the challenger can cancel it")
            }
            Some(o) if o.id != ctx.user.id => {
                return refuse(format!(
                    "this challenge is for {}; only they can decline it",
                    o.name
                ))
            }
            Some(_) => {}
        }
        let outcome = Outcome {
            text: format!(
                "{} declined {}'s challenge.",
                ctx.user.name, c.challenger.name
            ),
            ping: vec![c.challenger.clone()],
            ..Outcome::default()
        };
        self.take_challenge(ctx, &c, outcome)
    }

    pub fn cancel(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let c = self.current_challenge(ctx)?;
        self.cancel_challenge(ctx, c)
    }

    pub(super) fn cancel_challenge(&self, ctx: &Ctx, c: Challenge) -> Result<Outcome, Refusal> {
        if c.challenger.id != ctx.user.id && !ctx.moderator {
            return refuse(format!(
                "only {} (who made the challenge) or a moderator can cancel it",
                c.challenger.name
            ));
        }
        let outcome = Outcome {
            text: format!("{}'s challenge was cancelled.", c.challenger.name),
            ..Outcome::default()
        };
        self.take_challenge(ctx, &c, outcome)
    }

    pub fn rematch(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        if self.store.game(ctx.channel)?.is_some() {
            return refuse(
                "a game is still running in this channel; a rematch comes after it ends",
            );
        }
        let Some(last) = self.store.last_finished(ctx.channel)? else {
            return refuse("no game has finished in this channel yet: start one with /challenge");
        };
        if last.fixture.is_some() {
            return refuse("that was a tournament game: the tournament pairs its players; challenge each other in another channel for a friendly game");
        }
        let Some(seat) = last.players.iter().position(|p| p.id == ctx.user.id) else {
            return refuse(format!(
                "only {} and {} can ask for a rematch of their game",
                last.players[0].name, last.players[1].name
            ));
        };
        if let Some(c) = self.store.challenge(ctx.channel)? {
            // Both asked for the rematch: the second asking accepts the first.
            let asked_by_the_other = c.challenger.id == last.players[1 - seat].id
                && c.opponent.as_ref().is_some_and(|o| o.id == ctx.user.id);
            if asked_by_the_other {
                return self.accept(ctx);
            }
            return refuse(format!(
                "{} already has a challenge open in this channel",
                c.challenger.name
            ));
        }
        let challenge = Challenge {
            id: self.store.new_id()?,
            guild: ctx.guild,
            channel: ctx.channel,
            challenger: ctx.user.clone(),
            opponent: Some(last.players[1 - seat].clone()),
            // Seats swap: whoever had White last time takes Black.
            seat: if seat == 0 { Seat::Black } else { Seat::White },
            settings: last.settings.clone(),
            created_ms: ctx.now_ms,
            expires_ms: ctx.now_ms + CHALLENGE_TTL_MS,
            series: Some(last.series.clone()),
        };
        self.open_challenge(ctx, challenge)
    }
}

/// The change that starts `game` in place of the challenge `c` (still open, in a channel with no
/// game), moving `coins` with it.
fn game_from(c: &Challenge, game: LiveGame, coins: Vec<crate::store::CoinChange>) -> Change {
    Change {
        channel: c.channel,
        expect_seq: None,
        take_challenge: Some(c.id),
        game: Some(game),
        coins,
        ..Change::default()
    }
}

fn challenge_outcome(c: &Challenge) -> Outcome {
    let s = &c.settings;
    let mut details = vec![describe_game(s)];
    details.push(match c.seat {
        // University rules: the bids decide who moves first, whatever the challenge said.
        _ if s.stakes.is_some() => "the higher bid plays White".into(),
        Seat::White => format!("{} plays White", c.challenger.name),
        Seat::Black => format!("{} plays Black", c.challenger.name),
        Seat::Random => "seats drawn at random".into(),
    });
    if s.game == Kind::Tak && s.opening == crate::tak::Opening::NoSwap {
        details.push("no swap".into());
    }
    if s.rated {
        details.push("rated".into());
    }
    if let Some(t) = s.time_limit_secs {
        details.push(format!("{} per move", options::describe_secs(t)));
    }
    if s.tps.is_some() {
        details.push("from a position".into());
    }
    if let Some([w, b]) = s.reserves {
        details.push(format!(
            "pieces {}/{} for White, {}/{} for Black",
            w.stones, w.caps, b.stones, b.caps
        ));
    }
    if s.blind {
        details.push("blind: no picture until the end".into());
    }
    let hidden = s.display.hidden();
    if !hidden.is_empty() {
        details.push(format!("pictures without {}", hidden.join(", ")));
    }
    let (text, ping) = match &c.opponent {
        Some(o) => (
            format!(
                "{} challenges {} ({}).",
                c.challenger.name,
                o.name,
                details.join(", ")
            ),
            vec![o.clone()],
        ),
        None => (
            format!(
                "{} opens a challenge ({}); anyone may accept.",
                c.challenger.name,
                details.join(", ")
            ),
            vec![],
        ),
    };
    Outcome {
        text,
        ping,
        prompt: Some(Prompt::Challenge { id: c.id }),
        ..Outcome::default()
    }
}
