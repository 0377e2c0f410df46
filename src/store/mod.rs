//! Persistence: typed, versioned records, atomic changes, durability, in a sled folder (one
//! process) or PostgreSQL (several; `kv.rs`). Nothing else opens either.
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
//! and daily puzzles (`puzzles.rs`); `gateway` 0 → when the next IDENTIFY may be sent;
//! `numbers` guild → the last game number the server gave, and guild ++ number → game id
//! (`numbers.rs`).

mod analyses;
mod change;
mod dump;
mod error;
mod gateway;
mod kv;
pub mod layout;
mod notes;
mod numbers;
mod outbox;
mod postgres;
mod prefs;
mod puzzles;
pub mod records;
pub mod reshard;
mod settings;
mod sled_kv;
mod tournaments;
mod tx;
mod wallets;

pub use change::{Change, CoinChange, DigestSent, PuzzleChange, RefusalNote};
pub use error::{CommitError, StoreError};
pub use outbox::{Settled, Settlement};

use crate::game::Kind;
use error::TxAbort;
use kv::Backend;
use records::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;
use tx::{abort, Row, Tree, Tx, TxResult};

/// A tournament's results by (round, board).
pub type Results = std::collections::HashMap<(u32, u32), PairingResult>;

/// What a timer is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TimerKind {
    Reminder = 1,
    Timeout = 2,
}

/// Where every record is kept; cheap to clone (one store, shared).
#[derive(Clone)]
pub struct Store {
    kv: Arc<Backend>,
    /// What this folder's ids end with (`layout.rs`): `None` for a whole store or PostgreSQL.
    id_tag: Option<u64>,
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

fn tx_decode<T: DeserializeOwned>(tree: &'static str, bytes: &[u8]) -> TxResult<T> {
    decode(tree, bytes).or_else(|e| abort(TxAbort::Store(e)))
}

/// Decodes every value of `rows`.
fn decode_all<T: DeserializeOwned>(
    tree: &'static str,
    rows: Vec<Row>,
) -> Result<Vec<T>, StoreError> {
    rows.iter().map(|(_, v)| decode(tree, v)).collect()
}

impl Store {
    /// Opens (or creates) the database in the folder `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::over(Backend::Sled(sled_kv::SledKv::open(path)?), None)
    }

    /// Opens the folder `path` of a process serving `layout`'s servers: a folder made for
    /// other shards is refused (`layout::check`), and a new one records its layout.
    pub fn open_sharded(path: &Path, layout: layout::Layout) -> Result<Store, StoreError> {
        let kv = sled_kv::SledKv::open(path)?;
        layout::check(path, layout)?;
        Store::over(Backend::Sled(kv), layout.id_tag())
    }

    /// Connects to the PostgreSQL database at `url` (`BREDON_DATABASE_URL`), creating or
    /// updating its tables: one store for every process pointed at it.
    pub fn connect(url: &str) -> Result<Store, StoreError> {
        Store::over(Backend::Postgres(postgres::PgKv::connect(url)?), None)
    }

    /// Whether other processes may write this store too (PostgreSQL): what they change is seen
    /// only by reading it again.
    pub fn is_shared(&self) -> bool {
        matches!(*self.kv, Backend::Postgres(_))
    }

    /// PostgreSQL when `database_url` names one, else the sled folder `data` for `layout`.
    pub fn open_either(
        data: &Path,
        layout: layout::Layout,
        database_url: Option<&str>,
    ) -> Result<Store, StoreError> {
        match database_url {
            Some(url) => Store::connect(url),
            None => Store::open_sharded(data, layout),
        }
    }

    fn over(kv: Backend, id_tag: Option<u64>) -> Result<Store, StoreError> {
        Store {
            kv: Arc::new(kv),
            id_tag,
        }
        .with_players_per_size()?
        .with_games_numbered()
    }

    fn get<T: DeserializeOwned>(&self, tree: Tree, key: &[u8]) -> Result<Option<T>, StoreError> {
        self.kv
            .get(tree, key)?
            .map(|b| decode(tree.record(), &b))
            .transpose()
    }

    /// Rebuilds player records kept before ratings were per board size (keys without a size)
    /// by replaying the archive, in one transaction: each rating lands on the size it was
    /// earned on, and a store that is already per size is left as it is.
    fn with_players_per_size(self) -> Result<Store, StoreError> {
        let keys: Vec<Vec<u8>> = self
            .kv
            .scan(Tree::Players, &[])?
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        let old = keys.iter().filter(|k| k.len() != PLAYER_KEY).count();
        if old == 0 {
            return Ok(self);
        }
        let games: Vec<ArchivedGame> = decode_all("archive", self.kv.scan(Tree::Archive, &[])?)?;
        let records = crate::ratings::replay(games);
        tracing::info!(
            "player records are kept per board size now: {old} old records replaced by {} \
             rebuilt from the archive",
            records.len()
        );
        self.kv
            .transaction(&[Tree::Players], |tx| {
                for key in &keys {
                    tx.remove(Tree::Players, key)?;
                }
                for r in &records {
                    let key = player_key(r.guild, r.user.id, r.game, r.size);
                    tx.insert(Tree::Players, &key, &encode(r))?;
                }
                Ok(())
            })
            .map_err(TxAbort::into_store_error)?;
        self.flush()?;
        Ok(self)
    }

    /// Makes everything written so far durable. Concurrent callers share one disk flush.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.kv.flush()
    }

    /// A new unique id (game, challenge, series).
    pub fn new_id(&self) -> Result<u64, StoreError> {
        let count = self.kv.new_id()?;
        Ok(match self.id_tag {
            Some(tag) => count * layout::ID_TAGS + tag,
            None => count,
        })
    }

    pub fn game(&self, channel: u64) -> Result<Option<LiveGame>, StoreError> {
        self.get(Tree::Games, &channel.to_be_bytes())
    }

    pub fn challenge(&self, channel: u64) -> Result<Option<Challenge>, StoreError> {
        self.get(Tree::Challenges, &channel.to_be_bytes())
    }

    pub fn archived(&self, id: u64) -> Result<Option<ArchivedGame>, StoreError> {
        self.get(Tree::Archive, &id.to_be_bytes())
    }

    /// The last finished game in a channel.
    pub fn last_finished(&self, channel: u64) -> Result<Option<ArchivedGame>, StoreError> {
        match self.kv.get(Tree::Last, &channel.to_be_bytes())? {
            Some(id) => self.archived(u64::from_be_bytes(
                id.as_slice().try_into().unwrap_or([0; 8]),
            )),
            None => Ok(None),
        }
    }

    /// A user's finished games, newest first.
    pub fn history(&self, user: u64, limit: usize) -> Result<Vec<ArchivedGame>, StoreError> {
        let mut out = Vec::new();
        for (key, _) in self
            .kv
            .scan(Tree::History, &user.to_be_bytes())?
            .into_iter()
            .rev()
        {
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
        self.get(Tree::Players, &player_key(guild, user, game, size))
    }

    /// The records of one game in a server, every size.
    pub fn players(&self, guild: u64, game: Kind) -> Result<Vec<PlayerRecord>, StoreError> {
        let mut players: Vec<PlayerRecord> =
            decode_all("player", self.kv.scan(Tree::Players, &guild.to_be_bytes())?)?;
        players.retain(|p| p.game == game);
        Ok(players)
    }

    /// Every live game in this store.
    pub fn all_live_games(&self) -> Result<Vec<LiveGame>, StoreError> {
        decode_all("game", self.kv.scan(Tree::Games, &[])?)
    }

    /// Live games in a server.
    pub fn live_games(&self, guild: u64) -> Result<Vec<LiveGame>, StoreError> {
        let mut games = self.all_live_games()?;
        games.retain(|g| g.guild == guild);
        Ok(games)
    }

    pub fn live_game_count(&self) -> Result<usize, StoreError> {
        self.kv.len(Tree::Games)
    }

    /// Every finished game, oldest first.
    pub fn archived_games(&self) -> Result<Vec<ArchivedGame>, StoreError> {
        decode_all("archive", self.kv.scan(Tree::Archive, &[])?)
    }

    /// The newest message showing the board of the game in `channel`.
    pub fn board_message(&self, channel: u64) -> Result<Option<u64>, StoreError> {
        self.get(Tree::Boards, &channel.to_be_bytes())
    }

    pub fn put_board_message(&self, channel: u64, message: u64) -> Result<(), StoreError> {
        self.kv
            .insert(Tree::Boards, &channel.to_be_bytes(), &encode(&message))
    }

    pub fn vacation(&self, guild: u64, user: u64) -> Result<Option<Vacation>, StoreError> {
        self.get(Tree::Vacations, &key2(guild, user))
    }

    pub fn put_vacation(&self, v: &Vacation) -> Result<(), StoreError> {
        self.kv
            .insert(Tree::Vacations, &key2(v.guild, v.user.id), &encode(v))
    }

    fn all_challenges(&self) -> Result<Vec<Challenge>, StoreError> {
        decode_all("challenge", self.kv.scan(Tree::Challenges, &[])?)
    }

    /// The open challenges `user` made in `guild`.
    pub fn challenges_by(&self, guild: u64, user: u64) -> Result<usize, StoreError> {
        Ok(self
            .all_challenges()?
            .iter()
            .filter(|c| c.guild == guild && c.challenger.id == user)
            .count())
    }

    /// Expired challenges (for the timer loop).
    pub fn challenges_expired(&self, now_ms: i64) -> Result<Vec<Challenge>, StoreError> {
        let mut out = self.all_challenges()?;
        out.retain(|c| c.expires_ms <= now_ms);
        Ok(out)
    }

    /// Timers due at `now_ms`: (channel, kind, due).
    pub fn due_timers(&self, now_ms: i64) -> Result<Vec<(u64, TimerKind, i64)>, StoreError> {
        let end = timer_key(now_ms + 1, 0, TimerKind::Reminder);
        let mut out = Vec::new();
        for (k, _) in self.kv.below(Tree::Timers, &end)? {
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

    /// Whether the timers index is exactly the due times of the live games.
    pub fn timers_in_step(&self) -> Result<bool, StoreError> {
        let mut wanted: Vec<Vec<u8>> = Vec::new();
        for game in self.all_live_games()? {
            wanted.extend(timers_of(&game).map(|k| k.to_vec()));
        }
        wanted.sort();
        let held: Vec<Vec<u8>> = self
            .kv
            .scan(Tree::Timers, &[])?
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        Ok(held == wanted)
    }

    /// Applies a change atomically, or nothing if its expectations do not hold.
    pub fn commit(&self, change: &Change) -> Result<(), CommitError> {
        const TREES: [Tree; 15] = [
            Tree::Games,
            Tree::Challenges,
            Tree::Archive,
            Tree::Last,
            Tree::History,
            Tree::Players,
            Tree::Timers,
            Tree::Wallets,
            Tree::Tournaments,
            Tree::Outbox,
            Tree::Puzzles,
            Tree::Settings,
            Tree::Prefs,
            Tree::Numbers,
            Tree::Notes,
        ];
        let result = self.kv.transaction(&TREES, |tx| {
            Self::apply(change, tx)?;
            Self::move_coins(&change.coins, tx)?;
            Self::put_tournament(change, tx)?;
            for letter in &change.letters {
                tx.insert(Tree::Outbox, &letter.id.to_be_bytes(), &encode(letter))?;
            }
            Self::apply_puzzles(&change.puzzle, tx)?;
            Self::note_digest(change.digest, tx)?;
            Self::note_refusal(change.refusal, tx)
        });
        result.map_err(|why| match why {
            TxAbort::Conflict => CommitError::Conflict,
            TxAbort::Broke(who, has) => CommitError::Broke(who, has),
            TxAbort::Store(e) => CommitError::Store(e),
            TxAbort::NumberTaken => CommitError::NumberTaken,
        })
    }

    fn apply(change: &Change, tx: &dyn Tx) -> TxResult<()> {
        let channel = change.channel.to_be_bytes();
        let old: Option<LiveGame> = match tx.get(Tree::Games, &channel)? {
            Some(b) => Some(tx_decode("game", &b)?),
            None => None,
        };
        if old.as_ref().map(|g| g.seq) != change.expect_seq {
            return abort(TxAbort::Conflict);
        }
        let current_challenge: Option<Challenge> = match tx.get(Tree::Challenges, &channel)? {
            Some(b) => Some(tx_decode("challenge", &b)?),
            None => None,
        };
        if let Some(id) = change.take_challenge {
            if current_challenge.as_ref().map(|c| c.id) != Some(id) {
                return abort(TxAbort::Conflict);
            }
            tx.remove(Tree::Challenges, &channel)?;
        }
        if let Some(c) = &change.put_challenge {
            if old.is_some() || (current_challenge.is_some() && change.take_challenge.is_none()) {
                return abort(TxAbort::Conflict);
            }
            tx.insert(Tree::Challenges, &channel, &encode(c))?;
        }
        if let Some(g) = &old {
            for key in timers_of(g) {
                tx.remove(Tree::Timers, &key)?;
            }
        }
        match &change.game {
            Some(g) => {
                // A game stored where none was starts: it takes its server's next number.
                match &old {
                    None => Self::take_number(g, tx)?,
                    Some(old) => Self::keep_notes_on_plies_left(old, g, tx)?,
                }
                tx.insert(Tree::Games, &channel, &encode(g))?;
                for key in timers_of(g) {
                    tx.insert(Tree::Timers, &key, &g.seq.to_be_bytes())?;
                }
            }
            None => tx.remove(Tree::Games, &channel)?,
        }
        if let Some(a) = &change.archive {
            tx.insert(Tree::Archive, &a.id.to_be_bytes(), &encode(a))?;
            tx.insert(Tree::Last, &channel, &a.id.to_be_bytes())?;
            for p in &a.players {
                tx.insert(Tree::History, &key2(p.id, a.id), &a.guild.to_be_bytes())?;
            }
        }
        for p in &change.players {
            let key = player_key(p.guild, p.user.id, p.game, p.size);
            tx.insert(Tree::Players, &key, &encode(p))?;
        }
        Ok(())
    }
}
