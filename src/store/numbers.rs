//! Game numbers: each server numbers its games #1, #2, ... in the order they began, so players
//! read and type short numbers while ids (which sled makes in jumps and folders tag with their
//! shard) stay inside. The `numbers` tree holds per server the last number given (key: guild)
//! and which game has each number (guild ++ number → game id). A number is given inside the
//! transaction that starts its game, which checks that it is still the server's next, so two
//! processes sharing a database never give one twice; games stored before numbers are numbered
//! when the store opens.

use super::records::{ArchivedGame, LiveGame, Tournament};
use super::tx::{abort, Tree, Tx, TxResult};
use super::{decode, encode, key2, tx_decode, Store, StoreError, TxAbort};
use std::collections::HashMap;

/// The last number `guild` gave (0: none yet), read inside a transaction.
fn last_number(tx: &dyn Tx, guild: u64) -> TxResult<u64> {
    match tx.get(Tree::Numbers, &guild.to_be_bytes())? {
        Some(b) => tx_decode("numbers", &b),
        None => Ok(0),
    }
}

/// Records that game `id` is number `number` of `guild`, the last it gave.
fn give(tx: &dyn Tx, guild: u64, number: u64, id: u64) -> TxResult<()> {
    tx.insert(Tree::Numbers, &guild.to_be_bytes(), &encode(&number))?;
    tx.insert(Tree::Numbers, &key2(guild, number), &encode(&id))
}

/// A game stored before numbers, as it is numbered at open.
enum Unnumbered {
    Live(LiveGame),
    Archived(ArchivedGame),
}

impl Unnumbered {
    /// (server, start, id): the order numbers are given in.
    fn order(&self) -> (u64, i64, u64) {
        match self {
            Unnumbered::Live(g) => (g.guild, g.started_ms, g.id),
            Unnumbered::Archived(g) => (g.guild, g.started_ms, g.id),
        }
    }

    /// Stores the game with `number`.
    fn put(self, number: u64, tx: &dyn Tx) -> TxResult<()> {
        match self {
            Unnumbered::Live(mut g) => {
                g.number = Some(number);
                tx.insert(Tree::Games, &g.channel.to_be_bytes(), &encode(&g))
            }
            Unnumbered::Archived(mut g) => {
                g.number = Some(number);
                tx.insert(Tree::Archive, &g.id.to_be_bytes(), &encode(&g))
            }
        }
    }
}

impl Store {
    /// The number the next game to start in `guild` takes (unless another takes it first).
    pub fn next_game_number(&self, guild: u64) -> Result<u64, StoreError> {
        let last: Option<u64> = self.get(Tree::Numbers, &guild.to_be_bytes())?;
        Ok(last.unwrap_or(0) + 1)
    }

    /// The id of game `number` of `guild`, if the server has given that number.
    pub fn numbered_game(&self, guild: u64, number: u64) -> Result<Option<u64>, StoreError> {
        self.get(Tree::Numbers, &key2(guild, number))
    }

    /// Inside the change that starts `game`: its number must be its server's next, and is
    /// given; otherwise another game took it since it was read (`NumberTaken`).
    pub(super) fn take_number(game: &LiveGame, tx: &dyn Tx) -> TxResult<()> {
        let Some(number) = game.number else {
            return abort(TxAbort::Store(StoreError::Io(format!(
                "game {} starts without its number in its server",
                game.id
            ))));
        };
        if number != last_number(tx, game.guild)? + 1 {
            return abort(TxAbort::NumberTaken);
        }
        give(tx, game.guild, number, game.id)
    }

    /// Numbers the games stored before numbers, live and finished, in one transaction: per
    /// server in the order they began, after any number the server gave already, with the
    /// tournament pairings that play them. A record this build cannot read is left for the
    /// read that needs it to refuse; a game numbered meanwhile (another process opening the
    /// same database) keeps its number.
    pub(super) fn with_games_numbered(self) -> Result<Store, StoreError> {
        let live = self.unnumbered(Tree::Games)?;
        let archived = self.unnumbered(Tree::Archive)?;
        if live.is_empty() && archived.is_empty() {
            return Ok(self);
        }
        let tournaments: Vec<Vec<u8>> = self
            .kv
            .scan(Tree::Tournaments, &[])?
            .into_iter()
            .filter(|(k, _)| k.len() == 8)
            .map(|(k, _)| k)
            .collect();
        let trees = [Tree::Games, Tree::Archive, Tree::Numbers, Tree::Tournaments];
        let numbered = self
            .kv
            .transaction(&trees, |tx| {
                let numbers = number_games(tx, &live, &archived)?;
                number_pairings(tx, &tournaments, &numbers)?;
                Ok(numbers.len())
            })
            .map_err(TxAbort::into_store_error)?;
        tracing::info!(
            "games are numbered per server now: {numbered} games stored before numbers were \
             numbered in the order they began"
        );
        self.flush()?;
        Ok(self)
    }

    /// The keys of `tree`'s games without a number.
    fn unnumbered(&self, tree: Tree) -> Result<Vec<Vec<u8>>, StoreError> {
        #[derive(serde::Deserialize)]
        struct Head {
            #[serde(default)]
            number: Option<u64>,
        }
        Ok(self
            .kv
            .scan(tree, &[])?
            .into_iter()
            .filter(|(_, v)| matches!(decode(tree.record(), v), Ok(Head { number: None })))
            .map(|(k, _)| k)
            .collect())
    }
}

/// Numbers the games under `live` and `archived` still without one; their numbers by id.
fn number_games(
    tx: &dyn Tx,
    live: &[Vec<u8>],
    archived: &[Vec<u8>],
) -> TxResult<HashMap<u64, u64>> {
    let mut games = Vec::new();
    for key in live {
        if let Some(b) = tx.get(Tree::Games, key)? {
            let g: LiveGame = tx_decode("game", &b)?;
            if g.number.is_none() {
                games.push(Unnumbered::Live(g));
            }
        }
    }
    for key in archived {
        if let Some(b) = tx.get(Tree::Archive, key)? {
            let g: ArchivedGame = tx_decode("archive", &b)?;
            if g.number.is_none() {
                games.push(Unnumbered::Archived(g));
            }
        }
    }
    games.sort_by_key(Unnumbered::order);
    let mut last: HashMap<u64, u64> = HashMap::new();
    let mut numbers = HashMap::new();
    for game in games {
        let (guild, _, id) = game.order();
        let number = match last.get(&guild) {
            Some(n) => n + 1,
            None => last_number(tx, guild)? + 1,
        };
        last.insert(guild, number);
        give(tx, guild, number, id)?;
        game.put(number, tx)?;
        numbers.insert(id, number);
    }
    Ok(numbers)
}

/// Gives the pairings of the tournaments under `keys` the numbers of their games.
fn number_pairings(tx: &dyn Tx, keys: &[Vec<u8>], numbers: &HashMap<u64, u64>) -> TxResult<()> {
    for key in keys {
        let Some(b) = tx.get(Tree::Tournaments, key)? else {
            continue;
        };
        let mut t: Tournament = tx_decode("tournament", &b)?;
        let mut changed = false;
        for p in t.rounds.iter_mut().flatten() {
            if let (None, Some(n)) = (p.number, p.game.and_then(|id| numbers.get(&id))) {
                p.number = Some(*n);
                changed = true;
            }
        }
        if changed {
            // A change to the tournament read before this one conflicts instead of undoing it.
            t.seq += 1;
            tx.insert(Tree::Tournaments, key, &encode(&t))?;
        }
    }
    Ok(())
}
