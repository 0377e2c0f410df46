//! The whole behaviour of the bot as plain Rust: "user U in channel C does X" in, an outcome out.
//! The Discord layer and `bredon local` only translate. Every change is durable (flushed) before
//! an outcome is returned, and every refusal is a sentence that says what would be right.

pub mod analysis;
mod finish;
mod opponent;
mod options;
mod tournament;
mod university;

pub use opponent::EngineOpponent;
pub use options::{describe_secs, parse_duration, parse_stakes, ChallengeOptions};
pub use tournament::{
    parse_format, PendingPairing, RoundLine, TournamentOptions, TournamentView, MOST_ENTRANTS,
};
pub use university::{Bid, ANTE, TAK_FEE};

use crate::game::{Decision, Ending, Kind, Match};
use crate::render::Theme;
use crate::store::records::*;
use crate::store::{Change, CommitError, Store, StoreError, TimerKind};
use crate::tak::{Color, Position};
use std::fmt;

/// Who does something, where, when.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub guild: u64,
    pub channel: u64,
    pub user: PlayerRef,
    pub now_ms: i64,
    /// May abort games and change server settings.
    pub moderator: bool,
}

/// A refusal: nothing was changed. The text says what is wrong and what is allowed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

fn refuse<T>(text: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(text.into()))
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        Refusal(format!(
            "Bredon could not reach its database ({e}); nothing was changed, try again"
        ))
    }
}

/// A position to draw with the names and theme of its game.
#[derive(Clone, Debug)]
pub struct Board {
    pub game: Match,
    pub players: [PlayerRef; 2],
    pub theme: String,
    /// The time the player to move has left, in words, in games with a time limit.
    pub clock: Option<String>,
}

impl Board {
    fn names(&self) -> [&str; 2] {
        [self.players[0].name.as_str(), self.players[1].name.as_str()]
    }

    pub fn png(&self) -> Vec<u8> {
        let theme = Theme::named(&self.theme).unwrap_or_default();
        self.game.png(self.names(), &theme, self.clock.clone())
    }

    pub fn alt_text(&self) -> String {
        self.game.alt_text(self.names())
    }

    /// The whole game as an animation (for the end-of-game post).
    pub fn gif(&self) -> Vec<u8> {
        let theme = Theme::named(&self.theme).unwrap_or_default();
        self.game.gif(self.names(), &theme)
    }
}

/// A finished game, for the end-of-game post.
#[derive(Clone, Debug)]
pub struct Finished {
    pub result: Ending,
    pub reason: String,
    /// The game record (PTN for Tak) and the name of its file.
    pub ptn: String,
    pub file: &'static str,
    /// A PTN Ninja link (Tak only: PTN Ninja does not know Takat).
    pub link: Option<String>,
    /// (player, rating after, change), for rated games.
    pub ratings: Vec<(PlayerRef, f64, f64)>,
    /// The series score after this game: (player, points).
    pub series: [(PlayerRef, u32); 2],
}

/// A question an outcome leaves open: which record it is about and at which version, so that an
/// answer to an older question (an old button) is refused instead of answering today's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Prompt {
    /// The open challenge with this id: accept, decline or cancel.
    Challenge { id: u64 },
    /// An undo request stored as version `seq` of game `game`: agree or refuse.
    Undo { game: u64, seq: u64 },
    /// A draw offer stored as version `seq` of game `game`: agree or refuse.
    Draw { game: u64, seq: u64 },
    /// The finished game `game`: ask for a rematch.
    Rematch { game: u64 },
    /// The board of game `game` after the plies whose fingerprint is `position`: undo, offer a
    /// draw, resign, list the legal plies, show it again. Any ply or undo makes it an old board.
    Board { game: u64, position: u64 },
    /// "Do you really resign?" on that board.
    Resign { game: u64, position: u64 },
}

/// An answer to a [`Prompt`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    Accept,
    Decline,
    Cancel,
    Agree,
    Refuse,
    Rematch,
    /// Board buttons.
    Move,
    Undo,
    Draw,
    Resign,
    Moves,
    Refresh,
}

/// What to post after an action.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The announcement, in plain text with names (no markup: adapters escape it).
    pub text: String,
    /// Users to mention (the player to move, the challenged player...).
    pub ping: Vec<PlayerRef>,
    pub board: Option<Board>,
    pub finished: Option<Finished>,
    /// "Tak!" / "Tinuë!" applies to this outcome.
    pub tak: bool,
    pub tinue: bool,
    /// The question this outcome asks, if any (for buttons).
    pub prompt: Option<Prompt>,
    /// When the player to move loses on time (games with a time limit).
    pub deadline_ms: Option<i64>,
    /// Players who asked for a direct message when it becomes their move (`/notify dm:on`).
    pub direct: Vec<PlayerRef>,
    /// Something changed in this tournament: adapters ask for its news and open the games of
    /// new pairings.
    pub tournament: Option<u64>,
    /// A table to show in fixed-width text (tournament standings).
    pub table: Option<String>,
    /// A picture other than a board (a tournament's crosstable).
    pub image: Option<Picture>,
}

/// A rendered picture with its file name and description.
#[derive(Clone, Debug)]
pub struct Picture {
    pub file: &'static str,
    pub png: Vec<u8>,
    pub alt: String,
}

/// Something the timer loop must post.
#[derive(Clone, Debug)]
pub struct TimerEvent {
    /// Unique per event, so a post that is retried after a failure can be deduplicated.
    pub id: u64,
    pub guild: u64,
    pub channel: u64,
    pub outcome: Outcome,
}

/// A live game as `/games` and `/mygames` list it.
#[derive(Clone, Debug)]
pub struct Summary {
    pub channel: u64,
    pub game: Kind,
    pub players: [PlayerRef; 2],
    pub size: usize,
    pub plies: usize,
    pub to_move: PlayerRef,
    pub last_ply_ms: i64,
    pub deadline_ms: Option<i64>,
    /// The newest message showing its board, if Bredon knows it.
    pub board_message: Option<u64>,
}

/// A game record to post: its text, file name and PTN Ninja link.
#[derive(Clone, Debug)]
pub struct Record {
    pub text: String,
    pub file: &'static str,
    pub link: Option<String>,
}

impl Record {
    pub fn new(text: String, kind: Kind) -> Record {
        Record {
            link: (kind == Kind::Tak).then(|| finish::ninja_link(&text)),
            file: kind.record_file(),
            text,
        }
    }
}

/// What `/stats` shows.
#[derive(Clone, Debug)]
pub struct Stats {
    pub player: PlayerRecord,
    pub rank: Option<usize>,
}

pub struct Service {
    store: Store,
}

const CHALLENGE_TTL_MS: i64 = 48 * 3600 * 1000;
pub const DEFAULT_RATING: f64 = 1500.0;

impl Service {
    pub fn new(store: Store) -> Service {
        Service { store }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    fn durable(&self, change: &Change) -> Result<(), Refusal> {
        self.durable_or(
            change,
            "the game changed while this was being done (another action came first); look at \
             /board and try again",
        )
    }

    /// `durable`, saying `conflict` if the records changed since they were read.
    fn durable_or(&self, change: &Change, conflict: &str) -> Result<(), Refusal> {
        match self.store.commit(change) {
            Ok(()) => {
                self.store.flush()?;
                Ok(())
            }
            Err(CommitError::Conflict) => refuse(conflict),
            Err(CommitError::Store(e)) => Err(e.into()),
            Err(CommitError::Broke(who, has)) => refuse(format!(
                "{} has only {has} coins, not enough for this; nothing was changed",
                who.name
            )),
        }
    }

    /// Stores `game` as the next version of its channel's game: its `seq` goes up by one, and
    /// the change applies only if the stored game is still the version that was read.
    fn update(&self, game: &mut LiveGame) -> Result<(), Refusal> {
        self.update_with_coins(game, Vec::new())
    }

    /// `update`, moving `coins` in the same change.
    fn update_with_coins(
        &self,
        game: &mut LiveGame,
        coins: Vec<crate::store::CoinChange>,
    ) -> Result<(), Refusal> {
        game.seq += 1;
        self.durable(&Change {
            channel: game.channel,
            expect_seq: Some(game.seq - 1),
            game: Some(game.clone()),
            coins,
            ..Change::default()
        })
    }

    fn live(&self, ctx: &Ctx) -> Result<LiveGame, Refusal> {
        match self.store.game(ctx.channel)? {
            Some(g) => Ok(g),
            None => refuse("there is no game in this channel: start one with /challenge"),
        }
    }

    fn seat_of(game: &LiveGame, user: u64) -> Option<Color> {
        if game.players[0].id == user {
            Some(Color::White)
        } else if game.players[1].id == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    fn player_seat(game: &LiveGame, ctx: &Ctx) -> Result<Color, Refusal> {
        Self::seat_of(game, ctx.user.id).ok_or_else(|| {
            Refusal(format!(
                "you are not playing in this game ({} vs {}); anyone can look with /board",
                game.players[0].name, game.players[1].name
            ))
        })
    }

    /// A finished game offers a rematch, unless it was a tournament's: the tournament decides
    /// who plays whom.
    fn rematch_prompt(game: &LiveGame) -> Option<Prompt> {
        game.fixture
            .is_none()
            .then_some(Prompt::Rematch { game: game.id })
    }

    /// The game of a record, replayed from its plies.
    pub fn rebuild(game: &LiveGame) -> Result<Match, Refusal> {
        let mut g = Self::start(&game.settings).map_err(Refusal)?;
        for (i, text) in game.plies.iter().enumerate() {
            g.play(text)
                .map_err(|e| Refusal(format!("stored ply {} does not replay: {e}", i + 1)))?;
        }
        Ok(g)
    }

    /// The start of a game with these settings.
    pub fn start(settings: &GameSettings) -> Result<Match, String> {
        Ok(match settings.game {
            Kind::Tak => {
                let setup = settings.setup()?;
                let start = match &settings.tps {
                    Some(tps) => Position::from_tps_with(tps, setup)?,
                    None => Position::new(setup),
                };
                Match::Tak(crate::tak::Game::new(start))
            }
            Kind::Takat => {
                let start = match &settings.tps {
                    Some(text) => crate::takat::Position::from_text(text)?,
                    None => crate::takat::Position::new(settings.size)?,
                };
                Match::Takat(crate::takat::Game::new(start))
            }
        })
    }

    /// The board of `game` at `now_ms` (for the time left, in games with a time limit).
    fn board(game: &LiveGame, g: Match, now_ms: i64) -> Board {
        let clock = game
            .timeout_due_ms
            .filter(|_| g.result().is_none())
            .map(|due| describe_time_left(due - now_ms));
        Board {
            game: g,
            players: game.players.clone(),
            theme: game.settings.theme.clone(),
            clock,
        }
    }

    /// The board a running game shows: none in a blind game, whose players follow the plies.
    fn shown(game: &LiveGame, g: Match, now_ms: i64) -> Option<Board> {
        (!game.settings.blind).then(|| Self::board(game, g, now_ms))
    }

    /// Arms the time-out and the first reminder for the player to move (`to_move`), whose own
    /// reminder wish overrides the game's.
    fn set_timers(&self, game: &mut LiveGame, to_move: u64, now_ms: i64) -> Result<(), Refusal> {
        game.timeout_due_ms = game
            .settings
            .time_limit_secs
            .map(|s| now_ms + s as i64 * 1000);
        game.reminder_due_ms = next_reminder(game, self.reminder_interval(game, to_move)?, now_ms);
        Ok(())
    }

    /// How often `player` is reminded in `game`.
    fn reminder_interval(&self, game: &LiveGame, player: u64) -> Result<Option<u64>, Refusal> {
        Ok(self
            .store
            .prefs(player)?
            .reminder
            .interval(game.settings.reminder_secs))
    }

    /// The player to move, in a list if they asked for direct messages.
    fn wants_direct(&self, player: &PlayerRef) -> Result<Vec<PlayerRef>, Refusal> {
        Ok(if self.store.prefs(player.id)?.dm {
            vec![player.clone()]
        } else {
            Vec::new()
        })
    }

    /// Changes a player's notification wishes: `dm` on or off, `reminder` `game` (as the game
    /// says), `off`, or an interval (1h .. 2w).
    pub fn set_prefs(
        &self,
        user: u64,
        dm: Option<bool>,
        reminder: Option<&str>,
    ) -> Result<PlayerPrefs, Refusal> {
        let mut prefs = self.store.prefs(user)?;
        if let Some(dm) = dm {
            prefs.dm = dm;
        }
        if let Some(text) = reminder {
            prefs.reminder = match text.trim() {
                "game" | "default" => ReminderPref::Game,
                "off" | "none" => ReminderPref::Off,
                other => ReminderPref::Every(options::reminder(other)?),
            };
        }
        self.store.put_prefs(user, &prefs)?;
        self.store.flush()?;
        Ok(prefs)
    }

    pub fn prefs(&self, user: u64) -> Result<PlayerPrefs, Refusal> {
        Ok(self.store.prefs(user)?)
    }

    // ---- Challenges -----------------------------------------------------------------------

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
        self.durable(&Change {
            channel: ctx.channel,
            put_challenge: Some(challenge.clone()),
            ..Change::default()
        })?;
        Ok(challenge_outcome(&challenge))
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
    fn accept_challenge(&self, ctx: &Ctx, c: Challenge) -> Result<Outcome, Refusal> {
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
        };
        let g = Self::rebuild(&game)?;
        if game.settings.stakes.is_some() {
            return self.accept_for_coins(ctx, &c, game);
        }
        let first = game.players[g.to_move().index()].id;
        self.set_timers(&mut game, first, ctx.now_ms)?;
        self.durable(&Change {
            channel: ctx.channel,
            expect_seq: None,
            take_challenge: Some(c.id),
            game: Some(game.clone()),
            ..Change::default()
        })?;
        let to_move = game.players[g.to_move().index()].clone();
        Ok(Outcome {
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
        })
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
        self.durable(&Change {
            channel: ctx.channel,
            expect_seq: None,
            take_challenge: Some(c.id),
            game: Some(game.clone()),
            coins: moves.changes,
            ..Change::default()
        })?;
        Ok(Outcome {
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
        })
    }

    pub fn decline(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let c = self.current_challenge(ctx)?;
        self.decline_challenge(ctx, c)
    }

    fn decline_challenge(&self, ctx: &Ctx, c: Challenge) -> Result<Outcome, Refusal> {
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
        self.durable(&Change {
            channel: ctx.channel,
            take_challenge: Some(c.id),
            ..Change::default()
        })?;
        Ok(Outcome {
            text: format!(
                "{} declined {}'s challenge.",
                ctx.user.name, c.challenger.name
            ),
            ping: vec![c.challenger],
            ..Outcome::default()
        })
    }

    pub fn cancel(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let c = self.current_challenge(ctx)?;
        self.cancel_challenge(ctx, c)
    }

    fn cancel_challenge(&self, ctx: &Ctx, c: Challenge) -> Result<Outcome, Refusal> {
        if c.challenger.id != ctx.user.id && !ctx.moderator {
            return refuse(format!(
                "only {} (who made the challenge) or a moderator can cancel it",
                c.challenger.name
            ));
        }
        self.durable(&Change {
            channel: ctx.channel,
            take_challenge: Some(c.id),
            ..Change::default()
        })?;
        Ok(Outcome {
            text: format!("{}'s challenge was cancelled.", c.challenger.name),
            ..Outcome::default()
        })
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
        self.durable(&Change {
            channel: ctx.channel,
            put_challenge: Some(challenge.clone()),
            ..Change::default()
        })?;
        Ok(challenge_outcome(&challenge))
    }

    // ---- Plies ------------------------------------------------------------------------------

    pub fn play(&self, ctx: &Ctx, text: &str) -> Result<Outcome, Refusal> {
        let mut game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        Self::refuse_while_bidding(&game)?;
        let mut g = Self::rebuild(&game)?;
        let to_move = g.to_move();
        if seat != to_move {
            return refuse(format!(
                "it is {}'s turn, not yours",
                game.players[to_move.index()].name
            ));
        }
        let mover = game.players[seat.index()].clone();
        let coins = self.before_ply(&mut game, &mover)?;
        let played = g.play(text).map_err(Refusal)?;
        game.plies.push(played.text.clone());
        game.last_ply_ms = ctx.now_ms;
        game.undo_request = None;
        game.draw_offer = None;
        let next = game.players[g.to_move().index()].id;
        self.set_timers(&mut game, next, ctx.now_ms)?;
        let mut text = format!("{} played {}.", mover.name, played.text);
        let mut outcome = Outcome {
            tak: played.tak,
            tinue: played.tinue,
            ..Outcome::default()
        };
        if played.tinue {
            text.push_str(" Tinuë!");
        } else if played.tak {
            text.push_str(" Tak!");
        }
        for note in &played.notes {
            text.push_str(&format!(" {note}!"));
        }
        if coins.lines.iter().any(|m| m.user == mover.id) {
            text.push_str(&format!(
                " ({} paid {TAK_FEE} coins for the Tak.)",
                mover.name
            ));
        }
        if played.tak && g.result().is_none() {
            if let Some(fee) = Self::after_tak(&mut game, &mover) {
                text.push(' ');
                text.push_str(&fee);
            }
        }
        if let Some(result) = g.result() {
            let finished =
                self.finish_with_coins(ctx, game.clone(), &g, result, game.seq, coins.changes)?;
            text.push(' ');
            text.push_str(&finished.reason);
            outcome.finished = Some(finished);
            outcome.tournament = game.fixture.map(|f| f.tournament);
            outcome.ping = game.players.to_vec();
            outcome.prompt = Self::rematch_prompt(&game);
        } else {
            self.update_with_coins(&mut game, coins.changes)?;
            let next = game.players[g.to_move().index()].clone();
            text.push_str(&format!(" {} to move.", next.name));
            outcome.direct = self.wants_direct(&next)?;
            outcome.ping = vec![next];
            outcome.deadline_ms = game.timeout_due_ms;
            outcome.prompt = Self::board_prompt(&game);
        }
        outcome.text = text;
        outcome.board = match outcome.finished {
            Some(_) => Some(Self::board(&game, g, ctx.now_ms)),
            None => Self::shown(&game, g, ctx.now_ms),
        };
        Ok(outcome)
    }

    /// The legal plies for the player to move, in canonical PTN (for autocomplete).
    pub fn legal_plies(&self, channel: u64) -> Result<Vec<String>, Refusal> {
        let Some(game) = self.store.game(channel)? else {
            return Ok(Vec::new());
        };
        if game.settings.blind {
            return refuse("this is a blind game: the legal plies would give the board away");
        }
        Ok(Self::rebuild(&game)?.legal_plies())
    }

    /// Labels for plies offered as choices: what each does in words, and whether it wins,
    /// makes Tak or Tinuë ("2c3>11 — two from c3 right, dropping 1, 1 (Tak!)"), at most 100
    /// characters (Discord's limit for a choice's name).
    pub fn label_plies(&self, channel: u64, plies: &[String]) -> Result<Vec<String>, Refusal> {
        let Some(game) = self.store.game(channel)? else {
            return Ok(plies.to_vec());
        };
        let g = Self::rebuild(&game)?;
        Ok(plies.iter().map(|text| g.label(text)).collect())
    }

    pub fn view(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        if let Some(game) = self.store.game(ctx.channel)? {
            let g = Self::rebuild(&game)?;
            let to_move = &game.players[g.to_move().index()];
            let mut text = format!(
                "{} (White) vs {} (Black), {}, move {}. {} to move.",
                game.players[0].name,
                game.players[1].name,
                game.settings.game.name(),
                g.move_number(),
                to_move.name
            );
            if let Some(u) = game.undo_request {
                text.push_str(&format!(
                    " {} asked to undo the last ply.",
                    name_of(&game.players, u)
                ));
            }
            if let Some(u) = game.draw_offer {
                text.push_str(&format!(" {} offers a draw.", name_of(&game.players, u)));
            }
            if game.settings.blind {
                let ptn = g.record(&[]);
                let movetext = ptn
                    .split_once("\n\n")
                    .map_or(String::new(), |(_, m)| m.trim().replace('\n', " "));
                text.push_str(&format!(
                    " A blind game, so no picture; the plies so far: {}",
                    if movetext.is_empty() {
                        "none"
                    } else {
                        &movetext
                    }
                ));
            }
            return Ok(Outcome {
                text,
                deadline_ms: game.timeout_due_ms,
                prompt: Self::board_prompt(&game),
                board: Self::shown(&game, g, ctx.now_ms),
                ..Outcome::default()
            });
        }
        if let Some(last) = self.store.last_finished(ctx.channel)? {
            let g = Match::from_record(&last.ptn).map_err(Refusal)?;
            let names = [last.players[0].name.as_str(), last.players[1].name.as_str()];
            return Ok(Outcome {
                text: format!(
                    "No game is running here. The last one: {} ({}).",
                    last.result.describe_with(last.settings.komi, names),
                    last.result.code()
                ),
                board: Some(Board {
                    game: g,
                    players: last.players.clone(),
                    theme: last.settings.theme.clone(),
                    clock: None,
                }),
                ..Outcome::default()
            });
        }
        refuse("there is no game in this channel: start one with /challenge")
    }

    /// Answers the question `prompt` (a button under an older message, or a command), refusing
    /// if that question is no longer the open one.
    pub fn answer(&self, ctx: &Ctx, prompt: Prompt, answer: Answer) -> Result<Outcome, Refusal> {
        let stale = || refuse("this request is no longer open; /board shows the game as it is now");
        match (prompt, answer) {
            (Prompt::Challenge { id }, Answer::Accept | Answer::Decline | Answer::Cancel) => {
                let Some(c) = self.store.challenge(ctx.channel)?.filter(|c| c.id == id) else {
                    return stale();
                };
                match answer {
                    Answer::Accept => self.accept_challenge(ctx, c),
                    Answer::Decline => self.decline_challenge(ctx, c),
                    _ => self.cancel_challenge(ctx, c),
                }
            }
            (
                Prompt::Undo { game, seq } | Prompt::Draw { game, seq },
                Answer::Agree | Answer::Refuse,
            ) => {
                let Some(live) = self
                    .store
                    .game(ctx.channel)?
                    .filter(|g| g.id == game && g.seq == seq)
                else {
                    return stale();
                };
                let agree = answer == Answer::Agree;
                match prompt {
                    Prompt::Undo { .. } => self.answer_undo_in(ctx, live, agree),
                    _ => self.answer_draw_in(ctx, live, agree),
                }
            }
            (Prompt::Rematch { game }, Answer::Rematch) => {
                match self.store.last_finished(ctx.channel)? {
                    Some(last) if last.id == game => self.rematch(ctx),
                    _ => stale(),
                }
            }
            (Prompt::Board { .. }, Answer::Undo) => {
                self.check_board(ctx, prompt)?;
                self.request_undo(ctx)
            }
            (Prompt::Board { .. }, Answer::Draw) => {
                self.check_board(ctx, prompt)?;
                self.offer_draw(ctx)
            }
            (Prompt::Board { .. }, Answer::Refresh) => {
                self.check_board(ctx, prompt)?;
                self.view(ctx)
            }
            (Prompt::Resign { game, position }, Answer::Agree) => {
                self.check_board(ctx, Prompt::Board { game, position })?;
                self.resign(ctx)
            }
            _ => refuse("that answer does not fit this request"),
        }
    }

    /// Refuses a button of an older board, or one pressed by someone not playing.
    pub fn check_board(&self, ctx: &Ctx, prompt: Prompt) -> Result<(), Refusal> {
        let Prompt::Board { game, position } = prompt else {
            return refuse("that button does not belong to a board");
        };
        let live = self.store.game(ctx.channel)?;
        let Some(live) = live.filter(|g| g.id == game && fingerprint(&g.plies) == position) else {
            return refuse(
                "this board is no longer the latest; use the buttons under the newest board, or /board",
            );
        };
        Self::player_seat(&live, ctx).map(|_| ())
    }

    /// The buttons of a live game's board.
    fn board_prompt(game: &LiveGame) -> Option<Prompt> {
        Some(Prompt::Board {
            game: game.id,
            position: fingerprint(&game.plies),
        })
    }

    // ---- Undo, draws, resignation, abort ----------------------------------------------------

    /// How many plies an undo for `requester` takes back: their last ply and any reply since
    /// (so 1 if they moved last, 2 if the opponent has answered). `None` if they have no ply yet.
    fn undo_count(g: &Match, requester: Color) -> Option<usize> {
        let last_mover = g.to_move().opponent();
        let count = if last_mover == requester { 1 } else { 2 };
        (g.ply_count() >= count).then_some(count)
    }

    pub fn request_undo(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        if game.purse.is_some() {
            return refuse(
                "plies cannot be taken back in a University game: coins have moved with them",
            );
        }
        let Some(count) = Self::undo_count(&Self::rebuild(&game)?, seat) else {
            return refuse("you have no ply to take back yet");
        };
        if game.undo_request == Some(ctx.user.id) {
            return refuse("you already asked; your opponent can accept or decline");
        }
        if game.undo_request.is_some() {
            return self.answer_undo(ctx, true);
        }
        game.undo_request = Some(ctx.user.id);
        self.update(&mut game)?;
        let other = game.players[seat.opponent().index()].clone();
        let plies = game.plies[game.plies.len() - count..].join(" ");
        Ok(Outcome {
            text: format!(
                "{} asks to take back {plies}. {}, do you agree?",
                ctx.user.name, other.name
            ),
            ping: vec![other],
            prompt: Some(Prompt::Undo {
                game: game.id,
                seq: game.seq,
            }),
            ..Outcome::default()
        })
    }

    /// The opponent's answer to an undo request.
    pub fn answer_undo(&self, ctx: &Ctx, accept: bool) -> Result<Outcome, Refusal> {
        self.answer_undo_in(ctx, self.live(ctx)?, accept)
    }

    /// Answers the undo request of `game`, as read; the change applies only to that version.
    fn answer_undo_in(
        &self,
        ctx: &Ctx,
        mut game: LiveGame,
        accept: bool,
    ) -> Result<Outcome, Refusal> {
        Self::player_seat(&game, ctx)?;
        let requester = match game.undo_request {
            None => return refuse("nobody asked to undo; ask with /undo"),
            Some(u) if u == ctx.user.id => {
                return refuse("your opponent has to answer your undo request")
            }
            Some(u) => u,
        };
        game.undo_request = None;
        let mut g = Self::rebuild(&game)?;
        let text = if accept {
            let seat = Self::seat_of(&game, requester).expect("only players ask");
            let count = Self::undo_count(&g, seat).unwrap_or(0);
            for _ in 0..count {
                g.undo();
            }
            let undone = game.plies.split_off(game.plies.len() - count).join(" ");
            let next = game.players[g.to_move().index()].id;
            self.set_timers(&mut game, next, ctx.now_ms)?;
            format!("{} agreed: {undone} taken back.", ctx.user.name)
        } else {
            format!("{} declined the undo.", ctx.user.name)
        };
        self.update(&mut game)?;
        let next = game.players[g.to_move().index()].clone();
        Ok(Outcome {
            text: format!("{text} {} to move.", next.name),
            direct: self.wants_direct(&next)?,
            ping: vec![next],
            deadline_ms: game.timeout_due_ms,
            prompt: Self::board_prompt(&game),
            board: Self::shown(&game, g, ctx.now_ms),
            ..Outcome::default()
        })
    }

    pub fn offer_draw(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        match game.draw_offer {
            Some(u) if u == ctx.user.id => {
                return refuse("you already offered a draw; it stands until a ply is made")
            }
            Some(_) => return self.answer_draw(ctx, true),
            None => {}
        }
        game.draw_offer = Some(ctx.user.id);
        self.update(&mut game)?;
        let other = game.players[seat.opponent().index()].clone();
        Ok(Outcome {
            text: format!(
                "{} offers a draw. {}, accept or decline (the offer lapses when a ply is made).",
                ctx.user.name, other.name
            ),
            ping: vec![other],
            prompt: Some(Prompt::Draw {
                game: game.id,
                seq: game.seq,
            }),
            ..Outcome::default()
        })
    }

    pub fn answer_draw(&self, ctx: &Ctx, accept: bool) -> Result<Outcome, Refusal> {
        self.answer_draw_in(ctx, self.live(ctx)?, accept)
    }

    /// Answers the draw offer of `game`, as read; the change applies only to that version.
    fn answer_draw_in(
        &self,
        ctx: &Ctx,
        mut game: LiveGame,
        accept: bool,
    ) -> Result<Outcome, Refusal> {
        Self::player_seat(&game, ctx)?;
        match game.draw_offer {
            None => return refuse("there is no draw offer to answer; offer one with /draw"),
            Some(u) if u == ctx.user.id => {
                return refuse("your opponent has to answer your draw offer")
            }
            Some(_) => {}
        }
        if accept {
            let g = Self::rebuild(&game)?;
            return self.decided(ctx, game, g, Decision::DrawAgreed);
        }
        game.draw_offer = None;
        self.update(&mut game)?;
        Ok(Outcome {
            text: format!("{} declined the draw.", ctx.user.name),
            ..Outcome::default()
        })
    }

    pub fn resign(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        let g = Self::rebuild(&game)?;
        self.decided(
            ctx,
            game,
            g,
            Decision::Resignation {
                winner: seat.opponent(),
            },
        )
    }

    /// A moderator ends a game without result.
    pub fn abort(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        if !ctx.moderator {
            return refuse("only a server moderator (Manage Messages) can abort a game; players can /resign or offer a /draw");
        }
        let game = self.live(ctx)?;
        if game.fixture.is_some() {
            return refuse("this is a tournament game: a moderator can withdraw a player (/tournament withdraw) or cancel the whole tournament (/tournament cancel), not abort one game");
        }
        let g = Self::rebuild(&game)?;
        self.decided(ctx, game, g, Decision::Abandoned)
    }

    fn decided(
        &self,
        ctx: &Ctx,
        game: LiveGame,
        mut g: Match,
        decision: Decision,
    ) -> Result<Outcome, Refusal> {
        let result = g.decide(decision).map_err(Refusal)?;
        let seq = game.seq;
        let finished = self.finish(ctx, game.clone(), &g, result, seq)?;
        Ok(Outcome {
            tournament: game.fixture.map(|f| f.tournament),
            text: finished.reason.clone(),
            ping: game.players.to_vec(),
            prompt: Self::rematch_prompt(&game),
            board: Some(Self::board(&game, g, ctx.now_ms)),
            finished: Some(finished),
            ..Outcome::default()
        })
    }

    // ---- Timers -----------------------------------------------------------------------------

    /// Fires due reminders and time-outs and expires old challenges. Each fires once: its new
    /// state is stored before the event is returned.
    pub fn tick(&self, now_ms: i64) -> Result<Vec<TimerEvent>, Refusal> {
        let mut events = Vec::new();
        for (channel, kind, due) in self.store.due_timers(now_ms)? {
            let Some(mut game) = self.store.game(channel)? else {
                continue;
            };
            let g = Self::rebuild(&game)?;
            let to_move = g.to_move();
            let player = game.players[to_move.index()].clone();
            let ctx = Ctx {
                guild: game.guild,
                channel,
                user: player.clone(),
                now_ms,
                moderator: false,
            };
            let outcome = match kind {
                // A reminder overtaken by the time-out (the bot was down) is not posted.
                TimerKind::Reminder if game.timeout_due_ms.is_some_and(|t| t <= now_ms) => continue,
                TimerKind::Reminder => {
                    let interval = self.reminder_interval(&game, player.id)?;
                    game.reminder_due_ms = next_reminder(&game, interval, now_ms);
                    if self.update(&mut game).is_err() {
                        continue; // a ply came in meanwhile: its timers stand
                    }
                    let idle = (now_ms - game.last_ply_ms) / 3_600_000;
                    Outcome {
                        text: format!(
                            "{}, it is your move (move {}; no ply for {idle} h).",
                            player.name,
                            g.move_number()
                        ),
                        direct: self.wants_direct(&player)?,
                        ping: vec![player],
                        deadline_ms: game.timeout_due_ms,
                        prompt: Self::board_prompt(&game),
                        board: Self::shown(&game, g, now_ms),
                        ..Outcome::default()
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
                id: event_id(channel, kind as u64, due as u64),
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
            if self.durable(&change).is_ok() {
                events.push(TimerEvent {
                    id: event_id(c.channel, 3, c.id),
                    guild: c.guild,
                    channel: c.channel,
                    outcome: Outcome {
                        text: format!("{}'s challenge expired.", c.challenger.name),
                        ping: vec![c.challenger],
                        ..Outcome::default()
                    },
                });
            }
        }
        Ok(events)
    }

    /// Discord says the channel is gone or closed to Bredon (deleted, locked, no access): its
    /// reminders and time-outs stop, so nothing keeps failing there. The game is kept; a ply
    /// (which re-arms them) or a moderator's /abort still works. True if timers were stopped.
    pub fn channel_gone(&self, channel: u64) -> Result<bool, Refusal> {
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

    /// Bredon was removed from a server: every game there stops its timers (the data stays).
    pub fn guild_gone(&self, guild: u64) -> Result<usize, Refusal> {
        let mut stopped = 0;
        for game in self.store.live_games(guild)? {
            stopped += usize::from(self.channel_gone(game.channel)?);
        }
        Ok(stopped)
    }

    // ---- Records ----------------------------------------------------------------------------

    /// The record of the live game, or of the last finished one, with its PTN Ninja link.
    pub fn ptn(&self, ctx: &Ctx) -> Result<Record, Refusal> {
        let (text, kind) = if let Some(game) = self.store.game(ctx.channel)? {
            let g = Self::rebuild(&game)?;
            (finish::ptn_text(&game.players, &g, ctx.now_ms), g.kind())
        } else if let Some(last) = self.store.last_finished(ctx.channel)? {
            (last.ptn, last.settings.game)
        } else {
            return refuse("there is no game in this channel yet");
        };
        Ok(Record::new(text, kind))
    }

    /// The record of the last finished game in this channel, for analysis. Never a game still
    /// being played: an analysis would help one side.
    pub fn finished_record(&self, ctx: &Ctx) -> Result<String, Refusal> {
        match self.store.last_finished(ctx.channel)? {
            Some(last) => Ok(last.ptn),
            None if self.store.game(ctx.channel)?.is_some() => refuse(
                "the game in this channel is still being played; /analyze works once it has ended",
            ),
            None => {
                refuse("no game has finished in this channel yet: /analyze looks at the last one")
            }
        }
    }

    pub fn history(&self, ctx: &Ctx, user: u64) -> Result<Vec<ArchivedGame>, Refusal> {
        Ok(self
            .store
            .history(user, 50)?
            .into_iter()
            .filter(|g| g.guild == ctx.guild)
            .take(10)
            .collect())
    }

    pub fn stats(&self, ctx: &Ctx, user: &PlayerRef, game: Kind) -> Result<Stats, Refusal> {
        let Some(player) = self.store.player(ctx.guild, user.id, game)? else {
            return refuse(format!(
                "{} has not finished a game of {} in this server yet",
                user.name,
                game.name()
            ));
        };
        let board = self.leaderboard(ctx, game)?;
        let rank = board
            .iter()
            .position(|p| p.user.id == user.id)
            .map(|i| i + 1);
        Ok(Stats { player, rank })
    }

    /// Rated players of the server in one game, best first.
    pub fn leaderboard(&self, ctx: &Ctx, game: Kind) -> Result<Vec<PlayerRecord>, Refusal> {
        let mut players: Vec<PlayerRecord> = self
            .store
            .players(ctx.guild, game)?
            .into_iter()
            .filter(|p| p.rated_games > 0)
            .collect();
        players.sort_by(|a, b| {
            b.rating
                .total_cmp(&a.rating)
                .then(a.user.name.cmp(&b.user.name))
        });
        Ok(players)
    }

    pub fn live_games(&self, ctx: &Ctx) -> Result<Vec<LiveGame>, Refusal> {
        Ok(self.store.live_games(ctx.guild)?)
    }

    /// The server's live games (`player`'s only, if given), most urgent first: the oldest last
    /// ply first.
    pub fn summaries(&self, ctx: &Ctx, player: Option<u64>) -> Result<Vec<Summary>, Refusal> {
        let mut out = Vec::new();
        for game in self.store.live_games(ctx.guild)? {
            if player.is_some_and(|p| game.players.iter().all(|q| q.id != p)) {
                continue;
            }
            let g = Self::rebuild(&game)?;
            out.push(Summary {
                channel: game.channel,
                game: game.settings.game,
                size: game.settings.size,
                plies: game.plies.len(),
                to_move: game.players[g.to_move().index()].clone(),
                last_ply_ms: game.last_ply_ms,
                deadline_ms: game.timeout_due_ms,
                board_message: self.store.board_message(game.channel)?,
                players: game.players,
            });
        }
        out.sort_by_key(|s| (s.last_ply_ms, s.channel));
        Ok(out)
    }

    /// Remembers the newest message showing the board of `channel`'s game (for jump links).
    /// Not flushed: losing it in a crash only loses a link.
    pub fn board_posted(&self, channel: u64, message: u64) -> Result<(), Refusal> {
        Ok(self.store.put_board_message(channel, message)?)
    }

    pub fn settings(&self, guild: u64) -> Result<GuildSettings, Refusal> {
        Ok(self.store.settings(guild)?)
    }

    /// Changes server defaults (moderators only).
    pub fn set_settings(
        &self,
        ctx: &Ctx,
        theme: Option<&str>,
        size: Option<usize>,
        reminder: Option<&str>,
    ) -> Result<GuildSettings, Refusal> {
        if !ctx.moderator {
            return refuse("only a server moderator (Manage Server) can change Bredon's settings");
        }
        let mut s = self.store.settings(ctx.guild)?;
        if let Some(t) = theme {
            s.theme = Theme::named(t).map_err(Refusal)?.name;
        }
        if let Some(n) = size {
            crate::tak::Setup::new(n).map_err(Refusal)?;
            s.size = n;
        }
        if let Some(r) = reminder {
            s.reminder_secs = match r {
                "off" | "none" => None,
                text => Some(options::reminder(text)?),
            };
        }
        self.store.put_settings(ctx.guild, &s)?;
        self.store.flush()?;
        Ok(s)
    }
}

/// Time left in words for the picture: "23 h 10 min", "45 min", "less than a minute".
fn describe_time_left(ms: i64) -> String {
    let minutes = ms.max(0) / 60_000;
    match (minutes / 60, minutes % 60) {
        (0, 0) => "less than a minute".into(),
        (0, m) => format!("{m} min"),
        (h, m) => format!("{h} h {m:02} min"),
    }
}

/// The last warning comes this long before a time-out (or a quarter of the limit, if shorter).
const LAST_CALL_MS: i64 = 3_600_000;

/// The next reminder after `now_ms`: after the reminder `interval`, and with a time limit
/// also at half the limit and an hour before the time-out; never at or after the time-out, so a
/// reminder never arrives together with it.
fn next_reminder(game: &LiveGame, interval: Option<u64>, now_ms: i64) -> Option<i64> {
    let regular = interval.map(|s| now_ms + s as i64 * 1000);
    let Some(deadline) = game.timeout_due_ms else {
        return regular;
    };
    let limit = deadline - game.last_ply_ms;
    let last_call = deadline - LAST_CALL_MS.min(limit / 4);
    [regular, Some(game.last_ply_ms + limit / 2), Some(last_call)]
        .into_iter()
        .flatten()
        .filter(|&t| t > now_ms && t <= last_call)
        .min()
}

/// FNV-1a: a small, stable hash for ids and fingerprints (not for security).
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// A fingerprint of a game's plies: boards of different positions (or histories) differ.
pub fn fingerprint(plies: &[String]) -> u64 {
    fnv1a(plies.iter().flat_map(|p| p.bytes().chain([b' '])))
}

/// An event's id from what makes it unique.
pub fn event_id(channel: u64, kind: u64, when: u64) -> u64 {
    fnv1a([channel, kind, when].iter().flat_map(|v| v.to_le_bytes()))
}

/// The game, board and options in a few words: "Tak on 6x6, komi 2", "Takat on 7 circles".
fn describe_game(s: &GameSettings) -> String {
    match s.game {
        Kind::Tak => format!("Tak on {}, komi {}", s.game.board(s.size), s.komi),
        Kind::Takat => format!("Takat on {}", s.game.board(s.size)),
    }
}

fn name_of(players: &[PlayerRef; 2], id: u64) -> &str {
    players
        .iter()
        .find(|p| p.id == id)
        .map_or("someone", |p| p.name.as_str())
}

fn challenge_outcome(c: &Challenge) -> Outcome {
    let s = &c.settings;
    let mut details = vec![describe_game(s)];
    details.push(match c.seat {
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
    if s.blind {
        details.push("blind: no picture until the end".into());
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
