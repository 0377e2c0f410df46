//! The whole behaviour of the bot as plain Rust: "user U in channel C does X" in, an outcome out.
//! The Discord layer and `bredon local` only translate. Every change is durable (flushed) before
//! an outcome is returned, and every refusal is a sentence that says what would be right.

pub mod analysis;
mod challenge;
mod conditional;
mod digest;
mod fair_play;
mod finish;
mod letter;
mod notes;
mod opponent;
mod options;
mod outbox;
mod outcome;
mod play;
mod puzzle;
mod records;
mod refusals;
mod requests;
mod router;
mod settings;
mod timers;
mod tournament;
mod university;
mod vacation;
mod web;
mod web_player;
mod web_puzzle;
mod web_tournament;

pub use finish::ptn_date;
pub use opponent::EngineOpponent;
pub use options::{
    describe_reminder, describe_secs, parse_duration, parse_reserves, parse_stakes,
    ChallengeOptions,
};
pub use outbox::{Delivery, Fenced, Handed, Part, Progress, NEWER_BUILD_WAIT_MS};
pub use outcome::{
    Answer, Board, DigestGame, Finished, FollowUp, Leaderboard, Outcome, Picture, Prompt, Record,
    Stats, Summary, TimerEvent,
};
pub use puzzle::PuzzleChoice;
pub use settings::{describe_prefs, digest_hour};
pub use tournament::{
    parse_format, PendingPairing, RoundLine, StandingRow, TournamentOptions, TournamentView,
    MOST_ENTRANTS,
};
pub use university::{Bid, ANTE, TAK_FEE};
pub use web::{WebAnalysis, WebBoard, WebGame, WebLive, WebRanked, WebResult, WebServerPage};
pub use web_player::{WebPlayerPage, WebPlayerResult, WebRating, WebRival};
pub use web_puzzle::{WebDaily, WebPuzzlePage, WebPuzzlePicture, WebPuzzler};
pub use web_tournament::{WebPairing, WebTournament, WebTournamentLine};

use crate::game::{Decision, Kind, Match};
use crate::render::Theme;
use crate::store::records::*;
use crate::store::{Change, CommitError, Store, StoreError, TimerKind};
use crate::tak::{Color, Position};
use std::fmt;
use std::sync::{Arc, Mutex};

/// Who does something, where, when.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub guild: u64,
    pub channel: u64,
    pub user: PlayerRef,
    pub now_ms: i64,
    /// May abort games and change server settings.
    pub moderator: bool,
    /// The request this action answers, if its answer may carry the outcome (a Discord
    /// interaction's token): stored with the outcome, so a publisher that restarts can ask
    /// whether the answer went out before posting it again.
    pub request: Option<RequestToken>,
}

/// What answers a request: its token, and when the request was made (the token's life runs
/// from then, not from when Bredon read it: a request replayed late has less of it left).
#[derive(Clone, Debug)]
pub struct RequestToken {
    pub token: String,
    pub issued_ms: i64,
    pub deferral: Deferral,
}

/// Whether a request's answer is deferred (a "thinking" message first, which the answer
/// edits), as far as the letter its action writes can say: the bot tells it as it defers, and
/// the service reads it as it writes the letter, which then says so. The outbox then knows that
/// an edit of the "thinking" message owes its pings, with no note written between the action
/// and the answer. After a deferral told too late (the letter written first), the bot deletes
/// the "thinking" message and posts the answer in the channel instead.
#[derive(Clone, Debug, Default)]
pub struct Deferral(Arc<Mutex<DeferralState>>);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum DeferralState {
    #[default]
    Open,
    Deferred,
    Written,
}

impl Deferral {
    /// For an answer whose letter was written before (an outcome decided already).
    pub fn written() -> Deferral {
        Deferral(Arc::new(Mutex::new(DeferralState::Written)))
    }

    /// The bot defers the answer: whether the letter will say so (not written yet).
    pub fn mark_deferred(&self) -> bool {
        let mut state = self.0.lock().expect("deferral");
        if *state == DeferralState::Open {
            *state = DeferralState::Deferred;
        }
        *state == DeferralState::Deferred
    }

    /// The service writes the letter: whether the answer was deferred by then. A deferral
    /// after this is the bot's to note.
    fn letter_written(&self) -> bool {
        let mut state = self.0.lock().expect("deferral");
        if *state == DeferralState::Open {
            *state = DeferralState::Written;
        }
        *state == DeferralState::Deferred
    }
}

impl Ctx {
    /// Bredon acting on its own in `channel` (a daily puzzle, a notice): no one asked.
    fn of_bredon(guild: u64, channel: u64, now_ms: i64) -> Ctx {
        Ctx {
            guild,
            channel,
            user: PlayerRef {
                id: 0,
                name: "Bredon".into(),
            },
            now_ms,
            moderator: false,
            request: None,
        }
    }
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

/// How long a lease on a letter lasts, from the change that writes it or from its last
/// renewal (the deliverer renews it before each part).
pub const LEASE_MS: i64 = 60_000;

/// The epoch of the lease a letter is written with.
pub const FIRST_EPOCH: u64 = 1;

pub struct Service {
    store: Store,
    /// The minute the daily puzzles and digests were last looked at: the timer loop ticks
    /// every second or so, and a daily post needs no finer time than a minute.
    daily_checked: std::sync::atomic::AtomicI64,
    /// Who this process is to the outbox's leases (`Lease`: their holder): the same after a restart, and
    /// never the same as another process sharing the store.
    holder: u64,
    /// Letters of a newer build this one cannot read, passed by in their channels (told once).
    passed_by: std::sync::Mutex<std::collections::HashSet<u64>>,
    /// The channel of each change this process made durable: a live page reads its game
    /// again when its own channel changed, instead of every second.
    changed: tokio::sync::broadcast::Sender<u64>,
}

/// How many changed channels a live page may fall behind before it reads its game again
/// whatever changed.
const CHANGES_KEPT: usize = 1024;

const CHANGED_MEANWHILE: &str = "the game changed while this was being done (another action \
     came first); look at /board and try again";

/// Another game of the server started at the same moment and took the number (the start is
/// tried again with the next; this is said only if that keeps happening).
const NUMBER_TAKEN: &str = "another game of this server started at the same moment; try again";

impl Service {
    /// The service of a process that has its store to itself.
    pub fn new(store: Store) -> Service {
        Service::of_process(store, 0)
    }

    /// The service of process `holder` among those sharing `store`.
    pub fn of_process(store: Store, holder: u64) -> Service {
        Service {
            store,
            daily_checked: std::sync::atomic::AtomicI64::new(i64::MIN),
            holder,
            passed_by: Default::default(),
            changed: tokio::sync::broadcast::Sender::new(CHANGES_KEPT),
        }
    }

    /// The service of a process starting now: its holder drawn at random, so no two process
    /// starts (an old and a new one side by side in a rolling deploy, or a restart) ever share
    /// one. On a store no other process opens (sled), every lease left by a stopped process
    /// lapses at once, so its letters are delivered without waiting out their leases.
    pub fn starting_process(store: Store) -> Result<Service, Refusal> {
        let mut bytes = [0u8; 8];
        getrandom::getrandom(&mut bytes)
            .map_err(|e| Refusal(format!("no randomness for this process's holder id: {e}")))?;
        // Never 0 (no lease's holder) nor one a test or an older build gave a fixed process.
        let holder = u64::from_le_bytes(bytes) | 1 << 63;
        if !store.is_shared() {
            let lapsed = store.lapse_leases()?;
            if lapsed > 0 {
                tracing::info!(
                    lapsed,
                    "leases a stopped process left lapsed: its letters go out now"
                );
            }
        }
        tracing::info!(holder, "this process delivers letters as holder {holder:x}");
        Ok(Service::of_process(store, holder))
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Whether other processes may change the store too (PostgreSQL).
    pub fn store_is_shared(&self) -> bool {
        self.store.is_shared()
    }

    /// The channel of every change this process makes durable from now on (other processes
    /// sharing the store tell nobody here: their changes are seen by reading again). A
    /// receiver more than `CHANGES_KEPT` behind is told it lagged.
    pub fn changes(&self) -> tokio::sync::broadcast::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Reserves this process's turn at Discord's gateway: `count` IDENTIFYs `spacing_ms` apart,
    /// after those other processes sharing the store reserved. When the first may be sent.
    pub fn gateway_turn(&self, count: u32, now_ms: i64, spacing_ms: i64) -> Result<i64, Refusal> {
        Ok(self.store.gateway_turn(count, now_ms, spacing_ms)?)
    }

    fn durable(&self, change: &Change) -> Result<(), Refusal> {
        self.durable_or(change, CHANGED_MEANWHILE)
    }

    /// `durable`, saying `conflict` if the records changed since they were read.
    fn durable_or(&self, change: &Change, conflict: &str) -> Result<(), Refusal> {
        match self.store.commit(change) {
            Ok(()) => {
                self.store.flush()?;
                // Nobody listening (no live page open) is no error.
                let _ = self.changed.send(change.channel);
                Ok(())
            }
            Err(CommitError::Conflict) => refuse(conflict),
            Err(CommitError::NumberTaken) => refuse(NUMBER_TAKEN),
            Err(CommitError::Store(e)) => Err(e.into()),
            Err(CommitError::Broke(who, has)) => refuse(format!(
                "{} has only {has} coins, not enough for this; nothing was changed",
                who.name
            )),
        }
    }

    /// Stores `change` with the outcome it owes, to be posted in `ctx.channel`, in one durable
    /// step: the outcome comes back marked with its letter in the outbox.
    fn commit(&self, ctx: &Ctx, change: Change, outcome: Outcome) -> Result<Outcome, Refusal> {
        self.commit_or(ctx, change, outcome, CHANGED_MEANWHILE)
    }

    /// `commit`, saying `conflict` if the records changed since they were read.
    fn commit_or(
        &self,
        ctx: &Ctx,
        mut change: Change,
        mut outcome: Outcome,
        conflict: &str,
    ) -> Result<Outcome, Refusal> {
        let letter = self.letter_for(ctx, &outcome)?;
        outcome.letter = Some(letter.id);
        outcome.guild = letter.guild;
        outcome.lease_until_ms = letter.lease.map_or(0, |l| l.until_ms);
        outcome.behind = self.owed_before(letter.channel, letter.id)?;
        change.letters.push(letter);
        self.durable_or(&change, conflict)?;
        Ok(outcome)
    }

    /// Runs `start`, which starts a game numbered as its server's next, again (reading the
    /// number afresh) while another game of the server took that number first: games starting
    /// at once in two channels, or in two processes sharing a database, each get their own.
    fn numbered<T>(&self, start: impl Fn() -> Result<T, Refusal>) -> Result<T, Refusal> {
        let mut tries = 0;
        loop {
            match start() {
                Err(Refusal(why)) if why == NUMBER_TAKEN && tries < 16 => tries += 1,
                done => return done,
            }
        }
    }

    /// Stores `game` as the next version of its channel's game: its `seq` goes up by one, and
    /// the change applies only if the stored game is still the version that was read.
    fn update(&self, game: &mut LiveGame) -> Result<(), Refusal> {
        game.seq += 1;
        self.durable(&Self::next_version(game, Vec::new()))
    }

    /// `update`, moving `coins` with it, and storing the outcome it owes, which `announce`
    /// writes from the game as stored.
    fn update_announcing(
        &self,
        ctx: &Ctx,
        game: &mut LiveGame,
        coins: Vec<crate::store::CoinChange>,
        announce: impl FnOnce(&LiveGame) -> Result<Outcome, Refusal>,
    ) -> Result<Outcome, Refusal> {
        game.seq += 1;
        let outcome = announce(game)?;
        self.commit(ctx, Self::next_version(game, coins), outcome)
    }

    /// The change that stores `game`, whose `seq` was just raised, over its previous version.
    fn next_version(game: &LiveGame, coins: Vec<crate::store::CoinChange>) -> Change {
        Change {
            channel: game.channel,
            expect_seq: Some(game.seq - 1),
            game: Some(game.clone()),
            coins,
            ..Change::default()
        }
    }

    /// `ctx` acting in another game's channel: what it posts there answers no request.
    fn in_game(ctx: &Ctx, channel: u64) -> Ctx {
        Ctx {
            channel,
            request: None,
            ..ctx.clone()
        }
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
        Board::of(
            &g,
            game.players.clone(),
            game.settings.theme.clone(),
            clock,
            game.settings.display,
        )
    }

    /// The board a running game shows: none in a blind game, whose players follow the plies.
    fn shown(game: &LiveGame, g: Match, now_ms: i64) -> Option<Board> {
        (!game.settings.blind).then(|| Self::board(game, g, now_ms))
    }

    /// The buttons of a live game's board.
    fn board_prompt(game: &LiveGame) -> Option<Prompt> {
        Some(Prompt::Board {
            game: game.id,
            position: fingerprint(&game.plies),
        })
    }

    /// A finished game offers a rematch, unless it was a tournament's: the tournament decides
    /// who plays whom.
    fn rematch_prompt(game: &LiveGame) -> Option<Prompt> {
        game.fixture
            .is_none()
            .then_some(Prompt::Rematch { game: game.id })
    }
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

/// Time left in words for the picture: "23 h 10 min", "45 min", "less than a minute".
fn describe_time_left(ms: i64) -> String {
    let minutes = ms.max(0) / 60_000;
    match (minutes / 60, minutes % 60) {
        (0, 0) => "less than a minute".into(),
        (0, m) => format!("{m} min"),
        (h, m) => format!("{h} h {m:02} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::Deferral;

    #[test]
    fn a_letter_says_its_answer_was_deferred_only_if_told_before_it_was_written() {
        let told_first = Deferral::default();
        assert!(told_first.mark_deferred(), "the letter is not written yet");
        assert!(told_first.letter_written(), "so it says so");
        assert!(told_first.mark_deferred(), "and a second look agrees");

        let written_first = Deferral::default();
        assert!(!written_first.letter_written());
        assert!(
            !written_first.mark_deferred(),
            "too late: the bot answers otherwise"
        );

        assert!(
            !Deferral::written().mark_deferred(),
            "an outcome decided before"
        );
    }
}
