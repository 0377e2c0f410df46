//! How the store fails: what callers are told (`StoreError`, `CommitError`), and why a
//! transaction's body stopped (`TxAbort`), shared by both backends.

use super::records::{PlayerRef, OLDEST_SCHEMA, SCHEMA};
use std::fmt;

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

/// Why a change was not stored.
#[derive(Debug)]
pub enum CommitError {
    /// Someone changed the channel since it was read: nothing was written.
    Conflict,
    Store(StoreError),
    /// A wallet would go below zero: whose, and what it holds.
    Broke(PlayerRef, i64),
    /// The game it starts carries a number another game of its server took meanwhile: nothing
    /// was written, and the start may be tried again with the server's next number.
    NumberTaken,
}

impl From<StoreError> for CommitError {
    fn from(e: StoreError) -> CommitError {
        CommitError::Store(e)
    }
}

pub(super) enum TxAbort {
    Conflict,
    Store(StoreError),
    Broke(PlayerRef, i64),
    NumberTaken,
}

impl TxAbort {
    /// For transactions that check nothing: only a storage error can stop them.
    pub(super) fn into_store_error(self) -> StoreError {
        match self {
            TxAbort::Store(e) => e,
            TxAbort::Conflict | TxAbort::Broke(..) | TxAbort::NumberTaken => {
                StoreError::Io("a transaction that checks nothing was refused".into())
            }
        }
    }
}
