//! The vocabulary both backends speak: the trees, one key and value, and a transaction's reads
//! and writes with the ways it can stop.

use super::error::{StoreError, TxAbort};

/// The trees (sled trees; the `tree` column in PostgreSQL).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Tree {
    Games,
    Challenges,
    Archive,
    Last,
    History,
    Players,
    Timers,
    Settings,
    Boards,
    Prefs,
    Wallets,
    Tournaments,
    Outbox,
    Vacations,
    Puzzles,
    Gateway,
    Numbers,
    Notes,
    Analyses,
}

impl Tree {
    pub(super) const ALL: [Tree; 19] = [
        Tree::Games,
        Tree::Challenges,
        Tree::Archive,
        Tree::Last,
        Tree::History,
        Tree::Players,
        Tree::Timers,
        Tree::Settings,
        Tree::Boards,
        Tree::Prefs,
        Tree::Wallets,
        Tree::Tournaments,
        Tree::Outbox,
        Tree::Vacations,
        Tree::Puzzles,
        Tree::Gateway,
        Tree::Numbers,
        Tree::Notes,
        Tree::Analyses,
    ];

    /// What one of its records is called in messages ("a game record ...").
    pub(super) fn record(self) -> &'static str {
        match self {
            Tree::Games => "game",
            Tree::Challenges => "challenge",
            Tree::Players => "player",
            Tree::Wallets => "wallet",
            Tree::Tournaments => "tournament",
            Tree::Vacations => "vacation",
            other => other.name(),
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Tree::Games => "games",
            Tree::Challenges => "challenges",
            Tree::Archive => "archive",
            Tree::Last => "last",
            Tree::History => "history",
            Tree::Players => "players",
            Tree::Timers => "timers",
            Tree::Settings => "settings",
            Tree::Boards => "boards",
            Tree::Prefs => "prefs",
            Tree::Wallets => "wallets",
            Tree::Tournaments => "tournaments",
            Tree::Outbox => "outbox",
            Tree::Vacations => "vacations",
            Tree::Puzzles => "puzzles",
            Tree::Gateway => "gateway",
            Tree::Numbers => "numbers",
            Tree::Notes => "notes",
            Tree::Analyses => "analyses",
        }
    }
}

/// Why a transaction's body stopped.
pub(super) enum TxFail {
    /// The change must not happen (its expectations do not hold, or a wallet would go broke).
    Abort(TxAbort),
    /// The backend saw a concurrent writer: the body runs again on fresh reads.
    Retry,
    Storage(StoreError),
}

pub(super) type TxResult<T> = Result<T, TxFail>;

pub(super) fn abort<T>(why: TxAbort) -> TxResult<T> {
    Err(TxFail::Abort(why))
}

/// Reads and writes inside one transaction: all of them happen, or none.
pub(super) trait Tx {
    fn get(&self, tree: Tree, key: &[u8]) -> TxResult<Option<Vec<u8>>>;
    fn insert(&self, tree: Tree, key: &[u8], value: &[u8]) -> TxResult<()>;
    fn remove(&self, tree: Tree, key: &[u8]) -> TxResult<()>;
}

/// One key and its value.
pub(super) type Row = (Vec<u8>, Vec<u8>);
