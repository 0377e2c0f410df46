//! The `puzzles` tree: attempts by seat, players' puzzle records per server, the puzzles' own
//! ratings and each server's daily puzzles. Every key starts with a kind byte, so one tree holds
//! them all and a change writes them in its one transaction.

use super::change::PuzzleChange;
use super::records::*;
use super::tx::{abort, Tree, Tx, TxResult};
use super::{decode, decode_all, encode, tx_decode, Store, StoreError, TxAbort};

fn attempt_key(seat: PuzzleSeat) -> [u8; 10] {
    let (kind, id) = match seat {
        PuzzleSeat::Channel(id) => (0, id),
        PuzzleSeat::Private(id) => (1, id),
    };
    let mut k = [b'a', kind, 0, 0, 0, 0, 0, 0, 0, 0];
    k[2..].copy_from_slice(&id.to_be_bytes());
    k
}

/// `kind` ++ guild ++ `id`: a server's records of one kind sort together (its prefix is the
/// first 9 bytes).
fn guild_key(kind: u8, guild: u64, id: u64) -> [u8; 17] {
    let mut k = [kind; 17];
    k[1..9].copy_from_slice(&guild.to_be_bytes());
    k[9..].copy_from_slice(&id.to_be_bytes());
    k
}

fn player_key(guild: u64, user: u64) -> [u8; 17] {
    guild_key(b'p', guild, user)
}

fn rating_key(puzzle: u32) -> [u8; 5] {
    let mut k = [b'r'; 5];
    k[1..].copy_from_slice(&puzzle.to_be_bytes());
    k
}

fn daily_key(guild: u64, day: i64) -> [u8; 17] {
    guild_key(b'd', guild, day.max(0) as u64)
}

impl Store {
    pub(super) fn apply_puzzles(change: &PuzzleChange, tx: &dyn Tx) -> TxResult<()> {
        if let Some((seat, attempt, expect_seq)) = &change.attempt {
            let key = attempt_key(*seat);
            let stored = match tx.get(Tree::Puzzles, &key)? {
                Some(b) => Some(tx_decode::<PuzzleAttempt>("puzzles", &b)?.seq),
                None => None,
            };
            if stored != *expect_seq {
                return abort(TxAbort::Conflict);
            }
            match attempt {
                Some(a) => tx.insert(Tree::Puzzles, &key, &encode(a))?,
                None => tx.remove(Tree::Puzzles, &key)?,
            };
        }
        if let Some(p) = &change.player {
            tx.insert(Tree::Puzzles, &player_key(p.guild, p.player.id), &encode(p))?;
        }
        if let Some(r) = &change.rating {
            tx.insert(Tree::Puzzles, &rating_key(r.puzzle), &encode(r))?;
        }
        if let Some(d) = &change.new_daily {
            let key = daily_key(d.guild, d.day);
            if tx.get(Tree::Puzzles, &key)?.is_some() {
                return abort(TxAbort::Conflict);
            }
            tx.insert(Tree::Puzzles, &key, &encode(d))?;
        }
        if let Some((guild, day, player, ms)) = &change.daily_solver {
            let key = daily_key(*guild, *day);
            if let Some(b) = tx.get(Tree::Puzzles, &key)? {
                let mut daily: DailyPuzzle = tx_decode("puzzles", &b)?;
                if !daily.solvers.iter().any(|(p, _)| p.id == player.id) {
                    daily.solvers.push((player.clone(), *ms));
                    tx.insert(Tree::Puzzles, &key, &encode(&daily))?;
                }
            }
        }
        Ok(())
    }
}

impl Store {
    fn puzzle_record<T: serde::de::DeserializeOwned>(
        &self,
        key: &[u8],
    ) -> Result<Option<T>, StoreError> {
        self.get(Tree::Puzzles, key)
    }

    pub fn puzzle_attempt(&self, seat: PuzzleSeat) -> Result<Option<PuzzleAttempt>, StoreError> {
        self.puzzle_record(&attempt_key(seat))
    }

    pub fn puzzle_player(&self, guild: u64, user: u64) -> Result<Option<PuzzlePlayer>, StoreError> {
        self.puzzle_record(&player_key(guild, user))
    }

    /// Every puzzle record of a server's players.
    pub fn puzzle_players(&self, guild: u64) -> Result<Vec<PuzzlePlayer>, StoreError> {
        decode_all(
            "puzzles",
            self.kv.scan(Tree::Puzzles, &player_key(guild, 0)[..9])?,
        )
    }

    pub fn puzzle_rating(&self, puzzle: u32) -> Result<Option<PuzzleRating>, StoreError> {
        self.puzzle_record(&rating_key(puzzle))
    }

    pub fn daily_puzzle(&self, guild: u64, day: i64) -> Result<Option<DailyPuzzle>, StoreError> {
        self.puzzle_record(&daily_key(guild, day))
    }

    /// A server's newest daily puzzle.
    pub fn last_daily_puzzle(&self, guild: u64) -> Result<Option<DailyPuzzle>, StoreError> {
        match self
            .kv
            .scan(Tree::Puzzles, &daily_key(guild, 0)[..9])?
            .pop()
        {
            Some((_, v)) => Ok(Some(decode("puzzles", &v)?)),
            None => Ok(None),
        }
    }
}
