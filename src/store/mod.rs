//! Persistence in sled: typed, versioned records, atomic changes, durability. Nothing else opens
//! sled.
//!
//! Trees (keys are big-endian so they sort): `games` channel → live game; `challenges` channel →
//! challenge; `archive` game id → finished game; `last` channel → id of its last finished game;
//! `history` user ++ game id → guild; `players` guild ++ user ++ game ++ size → player; `timers` due ms ++ channel
//! ++ kind → game seq (an index kept in step with `games`); `settings` guild → server settings;
//! `boards` channel → the newest message showing its board; `prefs` user → notification wishes;
//! `wallets` guild ++ user → coins; `tournaments` id → tournament, and id ++ round ++ board →
//! that pairing's result (so a tournament and its results sit together under its id); `outbox`
//! letter id → a message an outcome owes, until it is delivered; `vacations` guild ++ user → the
//! player's vacation days; `puzzles` kind ++ key → puzzle attempts, solvers' and puzzles' ratings
//! and daily puzzles (`puzzles.rs`).

mod puzzles;
pub mod records;

pub use puzzles::PuzzleChange;

use crate::game::Kind;
use records::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use sled::transaction::{abort, ConflictableTransactionError, TransactionError, TransactionalTree};
use sled::Transactional;
use std::fmt;
use std::path::Path;

#[derive(Debug)]
pub enum StoreError {
    /// The folder is used by another Bredon process.
    Locked(String),
    /// A record written by another schema version.
    Version {
        tree: &'static str,
        found: u32,
    },
    /// A record that does not decode.
    Corrupt {
        tree: &'static str,
        why: String,
    },
    Io(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StoreError::Locked(path) => write!(
                f,
                "the database folder {path} is in use by another Bredon process; stop it, or point \
                 BREDON_DATA at another folder (each shard range needs its own)"
            ),
            StoreError::Version { tree, found } => write!(
                f,
                "a {tree} record has schema version {found}, but this build reads versions \
                 {OLDEST_SCHEMA} to {SCHEMA}: run the Bredon version that wrote it"
            ),
            StoreError::Corrupt { tree, why } => write!(f, "a {tree} record cannot be read: {why}"),
            StoreError::Io(why) => write!(f, "database error: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> StoreError {
        StoreError::Io(e.to_string())
    }
}

/// Why a change was not stored.
#[derive(Debug)]
pub enum CommitError {
    /// Someone changed the channel since it was read: nothing was written.
    Conflict,
    Store(StoreError),
    /// A wallet would go below zero: whose, and what it holds.
    Broke(PlayerRef, i64),
}

impl From<StoreError> for CommitError {
    fn from(e: StoreError) -> CommitError {
        CommitError::Store(e)
    }
}

/// A tournament's results by (round, board).
pub type Results = std::collections::HashMap<(u32, u32), PairingResult>;

/// What a timer is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TimerKind {
    Reminder = 1,
    Timeout = 2,
}

/// One atomic change to a channel.
#[derive(Default)]
pub struct Change {
    pub channel: u64,
    /// The live game must have this seq (`None`: there must be no live game).
    pub expect_seq: Option<u64>,
    /// The live game after the change (`None`: no live game).
    pub game: Option<LiveGame>,
    /// The challenge in the channel must have this id, and is removed.
    pub take_challenge: Option<u64>,
    /// A new challenge (the channel must have no challenge and no game).
    pub put_challenge: Option<Challenge>,
    pub archive: Option<ArchivedGame>,
    pub players: Vec<PlayerRecord>,
    /// Coins moved with this change: each applied to the balance as stored when the change
    /// commits (a wallet is shared by every game of its player), never below zero.
    pub coins: Vec<CoinChange>,
    /// A tournament to store, and the `seq` the stored one must have (`None`: a new one).
    pub tournament: Option<(Tournament, Option<u64>)>,
    /// Results of tournament pairings, stored with the change that decides them.
    pub results: Vec<(Fixture, PairingResult)>,
    /// The messages the change owes, stored with it so that none is lost.
    pub letters: Vec<Letter>,
    pub puzzle: PuzzleChange,
}

/// `delta` coins for `user` in `guild`, whose wallet starts at `start` if it has none yet.
#[derive(Clone, Debug)]
pub struct CoinChange {
    pub guild: u64,
    pub user: PlayerRef,
    pub delta: i64,
    pub start: i64,
}

#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    games: sled::Tree,
    challenges: sled::Tree,
    archive: sled::Tree,
    last: sled::Tree,
    history: sled::Tree,
    players: sled::Tree,
    timers: sled::Tree,
    settings: sled::Tree,
    /// channel → id of the newest message showing its game's board (for jump links).
    boards: sled::Tree,
    /// user → notification wishes.
    prefs: sled::Tree,
    /// (guild, user) → coins for University games.
    wallets: sled::Tree,
    /// Tournaments and their pairings' results.
    tournaments: sled::Tree,
    /// letter id → a message not yet delivered.
    outbox: sled::Tree,
    /// (guild, user) → vacation days taken and the vacation under way.
    vacations: sled::Tree,
    /// Puzzle attempts, players' and puzzles' ratings, daily puzzles (`puzzles.rs`).
    puzzles: sled::Tree,
}

fn encode<T: Serialize>(record: &T) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "v": SCHEMA, "data": record }))
        .expect("records serialize")
}

fn decode<T: DeserializeOwned>(tree: &'static str, bytes: &[u8]) -> Result<T, StoreError> {
    #[derive(serde::Deserialize)]
    struct Version {
        v: u32,
    }
    #[derive(serde::Deserialize)]
    struct Envelope<T> {
        data: T,
    }
    let corrupt = |e: serde_json::Error| StoreError::Corrupt {
        tree,
        why: e.to_string(),
    };
    let version: Version = serde_json::from_slice(bytes).map_err(corrupt)?;
    if !(OLDEST_SCHEMA..=SCHEMA).contains(&version.v) {
        return Err(StoreError::Version {
            tree,
            found: version.v,
        });
    }
    Ok(serde_json::from_slice::<Envelope<T>>(bytes)
        .map_err(corrupt)?
        .data)
}

fn key2(a: u64, b: u64) -> [u8; 16] {
    let mut k = [0; 16];
    k[..8].copy_from_slice(&a.to_be_bytes());
    k[8..].copy_from_slice(&b.to_be_bytes());
    k
}

/// guild ++ user ++ game ++ size: a server's records sort by player, then game and size.
fn player_key(guild: u64, user: u64, game: Kind, size: usize) -> [u8; PLAYER_KEY] {
    let mut k = [0; PLAYER_KEY];
    k[..16].copy_from_slice(&key2(guild, user));
    k[16] = match game {
        Kind::Tak => 0,
        Kind::Takat => 1,
    };
    k[17] = u8::try_from(size).unwrap_or(u8::MAX);
    k
}

/// The length of a player key; records kept before sizes were apart have shorter keys.
const PLAYER_KEY: usize = 18;

fn result_key(f: &Fixture) -> [u8; 16] {
    let mut k = [0; 16];
    k[..8].copy_from_slice(&f.tournament.to_be_bytes());
    k[8..12].copy_from_slice(&f.round.to_be_bytes());
    k[12..].copy_from_slice(&f.board.to_be_bytes());
    k
}

fn timer_key(due_ms: i64, channel: u64, kind: TimerKind) -> [u8; 17] {
    let mut k = [0; 17];
    k[..8].copy_from_slice(&(due_ms.max(0) as u64).to_be_bytes());
    k[8..16].copy_from_slice(&channel.to_be_bytes());
    k[16] = kind as u8;
    k
}

fn timers_of(game: &LiveGame) -> impl Iterator<Item = [u8; 17]> + '_ {
    let reminder = game
        .reminder_due_ms
        .map(|d| timer_key(d, game.channel, TimerKind::Reminder));
    let timeout = game
        .timeout_due_ms
        .map(|d| timer_key(d, game.channel, TimerKind::Timeout));
    reminder.into_iter().chain(timeout)
}

type TxResult<T> = Result<T, ConflictableTransactionError<TxAbort>>;

enum TxAbort {
    Conflict,
    Store(StoreError),
    Broke(PlayerRef, i64),
}

fn tx_decode<T: DeserializeOwned>(tree: &'static str, bytes: &[u8]) -> TxResult<T> {
    decode(tree, bytes).or_else(|e| abort(TxAbort::Store(e)))
}

impl Store {
    /// Opens (or creates) the database in `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let db = sled::Config::new().path(path).open().map_err(|e| match e {
            sled::Error::Io(io) if io.to_string().contains("could not acquire lock") => {
                StoreError::Locked(path.display().to_string())
            }
            other => StoreError::Io(format!("cannot open {}: {other}", path.display())),
        })?;
        let tree = |name: &str| db.open_tree(name);
        Store {
            games: tree("games")?,
            challenges: tree("challenges")?,
            archive: tree("archive")?,
            last: tree("last")?,
            history: tree("history")?,
            players: tree("players")?,
            timers: tree("timers")?,
            settings: tree("settings")?,
            boards: tree("boards")?,
            prefs: tree("prefs")?,
            wallets: tree("wallets")?,
            tournaments: tree("tournaments")?,
            outbox: tree("outbox")?,
            vacations: tree("vacations")?,
            puzzles: tree("puzzles")?,
            db,
        }
        .with_players_per_size()
    }

    /// Rebuilds player records kept before ratings were per board size (keys without a size)
    /// by replaying the archive, in one atomic batch: each rating lands on the size it was
    /// earned on, and a store that is already per size is left as it is.
    fn with_players_per_size(self) -> Result<Store, StoreError> {
        let keys = self.players.iter().keys().collect::<Result<Vec<_>, _>>()?;
        let old = keys.iter().filter(|k| k.len() != PLAYER_KEY).count();
        if old == 0 {
            return Ok(self);
        }
        let games = self
            .archive
            .iter()
            .map(|e| decode("archive", &e?.1))
            .collect::<Result<Vec<ArchivedGame>, _>>()?;
        let records = crate::ratings::replay(games);
        tracing::info!(
            "player records are kept per board size now: {old} old records replaced by {} \
             rebuilt from the archive",
            records.len()
        );
        let mut batch = sled::Batch::default();
        for key in keys {
            batch.remove(key);
        }
        for r in &records {
            batch.insert(&player_key(r.guild, r.user.id, r.game, r.size), encode(r));
        }
        self.players.apply_batch(batch)?;
        self.players.flush()?;
        Ok(self)
    }

    /// Makes everything written so far durable. Concurrent callers share one disk flush.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    /// A new unique id (game, challenge, series).
    pub fn new_id(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id()? + 1)
    }

    pub fn game(&self, channel: u64) -> Result<Option<LiveGame>, StoreError> {
        self.games
            .get(channel.to_be_bytes())?
            .map(|b| decode("game", &b))
            .transpose()
    }

    pub fn challenge(&self, channel: u64) -> Result<Option<Challenge>, StoreError> {
        self.challenges
            .get(channel.to_be_bytes())?
            .map(|b| decode("challenge", &b))
            .transpose()
    }

    pub fn archived(&self, id: u64) -> Result<Option<ArchivedGame>, StoreError> {
        self.archive
            .get(id.to_be_bytes())?
            .map(|b| decode("archive", &b))
            .transpose()
    }

    /// The last finished game in a channel.
    pub fn last_finished(&self, channel: u64) -> Result<Option<ArchivedGame>, StoreError> {
        match self.last.get(channel.to_be_bytes())? {
            Some(id) => self.archived(u64::from_be_bytes(id.as_ref().try_into().unwrap_or([0; 8]))),
            None => Ok(None),
        }
    }

    /// A user's finished games, newest first.
    pub fn history(&self, user: u64, limit: usize) -> Result<Vec<ArchivedGame>, StoreError> {
        let mut out = Vec::new();
        for entry in self.history.scan_prefix(user.to_be_bytes()).rev() {
            let (key, _) = entry?;
            let id = u64::from_be_bytes(key[8..16].try_into().expect("history keys are 16 bytes"));
            if let Some(g) = self.archived(id)? {
                out.push(g);
            }
            if out.len() == limit {
                break;
            }
        }
        Ok(out)
    }

    /// A player's record in one game on one board size of one server.
    pub fn player(
        &self,
        guild: u64,
        user: u64,
        game: Kind,
        size: usize,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        self.players
            .get(player_key(guild, user, game, size))?
            .map(|b| decode("player", &b))
            .transpose()
    }

    /// The records of one game in a server, every size.
    pub fn players(&self, guild: u64, game: Kind) -> Result<Vec<PlayerRecord>, StoreError> {
        let mut players: Vec<PlayerRecord> = self
            .players
            .scan_prefix(guild.to_be_bytes())
            .map(|e| decode("player", &e?.1))
            .collect::<Result<_, _>>()?;
        players.retain(|p| p.game == game);
        Ok(players)
    }

    /// Every live game in this store (this process's shards).
    pub fn all_live_games(&self) -> Result<Vec<LiveGame>, StoreError> {
        self.games.iter().map(|e| decode("game", &e?.1)).collect()
    }

    /// Live games in a server.
    pub fn live_games(&self, guild: u64) -> Result<Vec<LiveGame>, StoreError> {
        let mut games = self.all_live_games()?;
        games.retain(|g| g.guild == guild);
        Ok(games)
    }

    pub fn live_game_count(&self) -> usize {
        self.games.len()
    }

    pub fn settings(&self, guild: u64) -> Result<GuildSettings, StoreError> {
        Ok(self
            .settings
            .get(guild.to_be_bytes())?
            .map(|b| decode("settings", &b))
            .transpose()?
            .unwrap_or_default())
    }

    /// Every finished game, oldest first.
    pub fn archived_games(&self) -> Result<Vec<ArchivedGame>, StoreError> {
        self.archive
            .iter()
            .map(|e| decode("archive", &e?.1))
            .collect()
    }

    /// The servers that post a daily puzzle, with their settings.
    pub fn puzzle_servers(&self) -> Result<Vec<(u64, GuildSettings)>, StoreError> {
        let mut out = Vec::new();
        for entry in self.settings.iter() {
            let (k, v) = entry?;
            let s: GuildSettings = decode("settings", &v)?;
            if let (Some(_), Ok(key)) = (s.puzzle_channel, <[u8; 8]>::try_from(&k[..])) {
                out.push((u64::from_be_bytes(key), s));
            }
        }
        Ok(out)
    }

    pub fn put_settings(&self, guild: u64, settings: &GuildSettings) -> Result<(), StoreError> {
        self.settings
            .insert(guild.to_be_bytes(), encode(settings))?;
        Ok(())
    }

    /// The newest message showing the board of the game in `channel`.
    pub fn board_message(&self, channel: u64) -> Result<Option<u64>, StoreError> {
        self.boards
            .get(channel.to_be_bytes())?
            .map(|b| decode("boards", &b))
            .transpose()
    }

    pub fn put_board_message(&self, channel: u64, message: u64) -> Result<(), StoreError> {
        self.boards
            .insert(channel.to_be_bytes(), encode(&message))?;
        Ok(())
    }

    pub fn prefs(&self, user: u64) -> Result<PlayerPrefs, StoreError> {
        Ok(self
            .prefs
            .get(user.to_be_bytes())?
            .map(|b| decode("prefs", &b))
            .transpose()?
            .unwrap_or_default())
    }

    pub fn vacation(&self, guild: u64, user: u64) -> Result<Option<Vacation>, StoreError> {
        self.vacations
            .get(key2(guild, user))?
            .map(|b| decode("vacation", &b))
            .transpose()
    }

    pub fn put_vacation(&self, v: &Vacation) -> Result<(), StoreError> {
        self.vacations.insert(key2(v.guild, v.user.id), encode(v))?;
        Ok(())
    }

    pub fn put_prefs(&self, user: u64, prefs: &PlayerPrefs) -> Result<(), StoreError> {
        self.prefs.insert(user.to_be_bytes(), encode(prefs))?;
        Ok(())
    }

    /// The open challenges `user` made in `guild`.
    pub fn challenges_by(&self, guild: u64, user: u64) -> Result<usize, StoreError> {
        let mut count = 0;
        for entry in self.challenges.iter() {
            let c: Challenge = decode("challenge", &entry?.1)?;
            count += usize::from(c.guild == guild && c.challenger.id == user);
        }
        Ok(count)
    }

    /// Expired challenges (for the timer loop).
    pub fn challenges_expired(&self, now_ms: i64) -> Result<Vec<Challenge>, StoreError> {
        let mut out = Vec::new();
        for entry in self.challenges.iter() {
            let c: Challenge = decode("challenge", &entry?.1)?;
            if c.expires_ms <= now_ms {
                out.push(c);
            }
        }
        Ok(out)
    }

    /// Timers due at `now_ms`: (channel, kind, due).
    pub fn due_timers(&self, now_ms: i64) -> Result<Vec<(u64, TimerKind, i64)>, StoreError> {
        let end = timer_key(now_ms + 1, 0, TimerKind::Reminder);
        let mut out = Vec::new();
        for entry in self.timers.range(..end) {
            let (k, _) = entry?;
            let due =
                u64::from_be_bytes(k[..8].try_into().expect("timer keys are 17 bytes")) as i64;
            let channel = u64::from_be_bytes(k[8..16].try_into().expect("timer keys are 17 bytes"));
            let kind = if k[16] == TimerKind::Timeout as u8 {
                TimerKind::Timeout
            } else {
                TimerKind::Reminder
            };
            out.push((channel, kind, due));
        }
        Ok(out)
    }

    /// Applies a change atomically, or nothing if its expectations do not hold.
    pub fn commit(&self, change: &Change) -> Result<(), CommitError> {
        let trees = (
            &self.games,
            &self.challenges,
            &self.archive,
            &self.last,
            &self.history,
            &self.players,
            &self.timers,
            &self.wallets,
            &self.tournaments,
            &self.outbox,
            &self.puzzles,
        );
        let result = trees.transaction(
            |(
                games,
                challenges,
                archive,
                last,
                history,
                players,
                timers,
                wallets,
                tournaments,
                outbox,
                puzzles,
            )| {
                Self::apply(
                    change, games, challenges, archive, last, history, players, timers,
                )?;
                Self::move_coins(&change.coins, wallets)?;
                Self::put_tournament(change, tournaments)?;
                for letter in &change.letters {
                    outbox.insert(&letter.id.to_be_bytes(), encode(letter))?;
                }
                puzzles::apply(&change.puzzle, puzzles)
            },
        );
        match result {
            Ok(()) => Ok(()),
            Err(TransactionError::Abort(TxAbort::Conflict)) => Err(CommitError::Conflict),
            Err(TransactionError::Abort(TxAbort::Broke(who, has))) => {
                Err(CommitError::Broke(who, has))
            }
            Err(TransactionError::Abort(TxAbort::Store(e))) => Err(CommitError::Store(e)),
            Err(TransactionError::Storage(e)) => Err(CommitError::Store(e.into())),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn apply(
        change: &Change,
        games: &TransactionalTree,
        challenges: &TransactionalTree,
        archive: &TransactionalTree,
        last: &TransactionalTree,
        history: &TransactionalTree,
        players: &TransactionalTree,
        timers: &TransactionalTree,
    ) -> TxResult<()> {
        let channel = change.channel.to_be_bytes();
        let old: Option<LiveGame> = match games.get(channel)? {
            Some(b) => Some(tx_decode("game", &b)?),
            None => None,
        };
        if old.as_ref().map(|g| g.seq) != change.expect_seq {
            return abort(TxAbort::Conflict);
        }
        let current_challenge: Option<Challenge> = match challenges.get(channel)? {
            Some(b) => Some(tx_decode("challenge", &b)?),
            None => None,
        };
        if let Some(id) = change.take_challenge {
            if current_challenge.as_ref().map(|c| c.id) != Some(id) {
                return abort(TxAbort::Conflict);
            }
            challenges.remove(&channel)?;
        }
        if let Some(c) = &change.put_challenge {
            if old.is_some() || (current_challenge.is_some() && change.take_challenge.is_none()) {
                return abort(TxAbort::Conflict);
            }
            challenges.insert(&channel, encode(c))?;
        }
        if let Some(g) = &old {
            for key in timers_of(g) {
                timers.remove(&key)?;
            }
        }
        match &change.game {
            Some(g) => {
                games.insert(&channel, encode(g))?;
                for key in timers_of(g) {
                    timers.insert(&key, &g.seq.to_be_bytes())?;
                }
            }
            None => {
                games.remove(&channel)?;
            }
        }
        if let Some(a) = &change.archive {
            archive.insert(&a.id.to_be_bytes(), encode(a))?;
            last.insert(&channel, &a.id.to_be_bytes())?;
            for p in &a.players {
                history.insert(&key2(p.id, a.id), &a.guild.to_be_bytes())?;
            }
        }
        for p in &change.players {
            players.insert(&player_key(p.guild, p.user.id, p.game, p.size), encode(p))?;
        }
        Ok(())
    }

    fn put_tournament(change: &Change, tournaments: &TransactionalTree) -> TxResult<()> {
        if let Some((t, expect_seq)) = &change.tournament {
            let key = t.id.to_be_bytes();
            let stored = match tournaments.get(key)? {
                Some(b) => Some(tx_decode::<Tournament>("tournament", &b)?.seq),
                None => None,
            };
            if stored != *expect_seq {
                return abort(TxAbort::Conflict);
            }
            tournaments.insert(&key, encode(t))?;
        }
        for (fixture, result) in &change.results {
            tournaments.insert(&result_key(fixture), encode(result))?;
        }
        Ok(())
    }

    pub fn tournament(&self, id: u64) -> Result<Option<Tournament>, StoreError> {
        self.tournaments
            .get(id.to_be_bytes())?
            .map(|b| decode("tournament", &b))
            .transpose()
    }

    /// Every tournament in this store, oldest first.
    pub fn tournaments(&self) -> Result<Vec<Tournament>, StoreError> {
        let mut out = Vec::new();
        for entry in self.tournaments.iter() {
            let (k, v) = entry?;
            if k.len() == 8 {
                out.push(decode("tournament", &v)?);
            }
        }
        Ok(out)
    }

    /// The results of a tournament's pairings, by (round, board).
    pub fn results(&self, id: u64) -> Result<Results, StoreError> {
        let mut out = Results::new();
        for entry in self.tournaments.scan_prefix(id.to_be_bytes()) {
            let (k, v) = entry?;
            if k.len() == 16 {
                let round = u32::from_be_bytes(k[8..12].try_into().expect("4 bytes"));
                let board = u32::from_be_bytes(k[12..16].try_into().expect("4 bytes"));
                out.insert((round, board), decode("result", &v)?);
            }
        }
        Ok(out)
    }

    fn move_coins(coins: &[CoinChange], wallets: &TransactionalTree) -> TxResult<()> {
        for c in coins {
            let key = key2(c.guild, c.user.id);
            let balance = match wallets.get(key)? {
                Some(b) => tx_decode::<Wallet>("wallet", &b)?.balance,
                None => c.start,
            };
            if balance + c.delta < 0 {
                return abort(TxAbort::Broke(c.user.clone(), balance));
            }
            let wallet = Wallet {
                guild: c.guild,
                user: c.user.clone(),
                balance: balance + c.delta,
            };
            wallets.insert(&key, encode(&wallet))?;
        }
        Ok(())
    }

    /// `user`'s coins in `guild`: `start` (the server's starting balance) until they have a wallet.
    pub fn coins(&self, guild: u64, user: u64, start: i64) -> Result<i64, StoreError> {
        match self.wallets.get(key2(guild, user))? {
            Some(b) => Ok(decode::<Wallet>("wallet", &b)?.balance),
            None => Ok(start),
        }
    }

    /// Every wallet of `guild`, richest first.
    pub fn wallets(&self, guild: u64) -> Result<Vec<Wallet>, StoreError> {
        let mut out = Vec::new();
        for entry in self.wallets.scan_prefix(guild.to_be_bytes()) {
            let (_, v) = entry?;
            out.push(decode::<Wallet>("wallet", &v)?);
        }
        out.sort_by(|a, b| {
            b.balance
                .cmp(&a.balance)
                .then(a.user.name.cmp(&b.user.name))
        });
        Ok(out)
    }

    /// Every letter not yet delivered, oldest first.
    pub fn letters(&self) -> Result<Vec<Letter>, StoreError> {
        self.outbox
            .iter()
            .map(|e| decode("outbox", &e?.1))
            .collect()
    }

    /// Every letter not yet delivered, oldest first, without its body.
    pub fn letter_heads(&self) -> Result<Vec<LetterHead>, StoreError> {
        self.outbox
            .iter()
            .map(|e| decode("outbox", &e?.1))
            .collect()
    }

    pub fn letter(&self, id: u64) -> Result<Option<Letter>, StoreError> {
        self.outbox
            .get(id.to_be_bytes())?
            .map(|b| decode("outbox", &b))
            .transpose()
    }

    /// Stores what was delivered of a letter so far (only while it is still owed).
    pub fn put_letter(&self, letter: &Letter) -> Result<(), StoreError> {
        let key = letter.id.to_be_bytes();
        let old = self.outbox.get(key)?;
        if old.is_some() {
            let _ = self
                .outbox
                .compare_and_swap(key, old, Some(encode(letter)))?;
        }
        Ok(())
    }

    /// A delivered letter leaves the outbox, durably.
    pub fn remove_letter(&self, id: u64) -> Result<(), StoreError> {
        self.outbox.remove(id.to_be_bytes())?;
        self.flush()
    }

    /// Writes every tree to a file (`bredon backup`), readable by `Store::restore`.
    pub fn backup(&self, file: &Path) -> Result<usize, StoreError> {
        let mut out = serde_json::Map::new();
        let mut count = 0;
        for name in self.db.tree_names() {
            let tree = self.db.open_tree(&name)?;
            let mut rows = Vec::new();
            for entry in tree.iter() {
                let (k, v) = entry?;
                let value = match std::str::from_utf8(&v) {
                    Ok(text) => serde_json::json!({ "text": text }),
                    Err(_) => serde_json::json!({ "hex": hex(&v) }),
                };
                rows.push(serde_json::json!([hex(&k), value]));
                count += 1;
            }
            out.insert(
                String::from_utf8_lossy(&name).into_owned(),
                serde_json::Value::Array(rows),
            );
        }
        let doc = serde_json::json!({ "bredon_backup": SCHEMA, "trees": out });
        std::fs::write(
            file,
            serde_json::to_vec_pretty(&doc).expect("json serializes"),
        )
        .map_err(|e| StoreError::Io(format!("cannot write {}: {e}", file.display())))?;
        Ok(count)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
