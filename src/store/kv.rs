//! The two places the trees can be kept: a sled folder (one process) or a PostgreSQL database
//! (any number of processes). The records above see only `Backend` and `Tx` (`tx.rs`): ordered
//! byte keys per tree, and transactions that run again on a conflict.

use super::error::{StoreError, TxAbort};
use super::postgres::PgKv;
use super::sled_kv::SledKv;
use super::tx::{Row, Tree, Tx, TxResult};

pub(super) enum Backend {
    Sled(SledKv),
    Postgres(PgKv),
}

impl Backend {
    pub(super) fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        match self {
            Backend::Sled(kv) => kv.get(tree, key),
            Backend::Postgres(kv) => kv.get(tree, key),
        }
    }

    pub(super) fn insert(&self, tree: Tree, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        match self {
            Backend::Sled(kv) => kv.insert(tree, key, value),
            Backend::Postgres(kv) => kv.insert(tree, key, value),
        }
    }

    pub(super) fn remove(&self, tree: Tree, key: &[u8]) -> Result<(), StoreError> {
        match self {
            Backend::Sled(kv) => kv.remove(tree, key),
            Backend::Postgres(kv) => kv.remove(tree, key),
        }
    }

    /// The rows whose keys start with `prefix` (every row for an empty one), in key order.
    pub(super) fn scan(&self, tree: Tree, prefix: &[u8]) -> Result<Vec<Row>, StoreError> {
        match self {
            Backend::Sled(kv) => kv.scan(tree, prefix),
            Backend::Postgres(kv) => kv.scan(tree, prefix),
        }
    }

    /// The rows whose keys sort before `end`, in key order.
    pub(super) fn below(&self, tree: Tree, end: &[u8]) -> Result<Vec<Row>, StoreError> {
        match self {
            Backend::Sled(kv) => kv.below(tree, end),
            Backend::Postgres(kv) => kv.below(tree, end),
        }
    }

    pub(super) fn len(&self, tree: Tree) -> Result<usize, StoreError> {
        match self {
            Backend::Sled(kv) => Ok(kv.len(tree)),
            Backend::Postgres(kv) => kv.len(tree),
        }
    }

    /// Runs `body` as one transaction over `trees`, again as often as a concurrent writer
    /// forces; an abort leaves everything as it was.
    pub(super) fn transaction<T>(
        &self,
        trees: &[Tree],
        body: impl Fn(&dyn Tx) -> TxResult<T>,
    ) -> Result<T, TxAbort> {
        match self {
            Backend::Sled(kv) => kv.transaction(trees, body),
            Backend::Postgres(kv) => kv.transaction(body),
        }
    }

    pub(super) fn flush(&self) -> Result<(), StoreError> {
        match self {
            Backend::Sled(kv) => kv.flush(),
            // A committed PostgreSQL transaction is durable already (synchronous_commit).
            Backend::Postgres(_) => Ok(()),
        }
    }

    /// A new id, never given before by this store (nor, in PostgreSQL, by any process).
    pub(super) fn new_id(&self) -> Result<u64, StoreError> {
        match self {
            Backend::Sled(kv) => kv.new_id(),
            Backend::Postgres(kv) => kv.new_id(),
        }
    }

    /// Makes every id given from now on larger than `id`.
    pub(super) fn ids_above(&self, id: u64) -> Result<(), StoreError> {
        match self {
            Backend::Sled(kv) => kv.ids_above(id),
            Backend::Postgres(kv) => kv.ids_above(id),
        }
    }

    /// Every row of every tree, by tree name (`bredon backup`, `bredon migrate`).
    pub(super) fn dump(&self) -> Result<Vec<(String, Vec<Row>)>, StoreError> {
        match self {
            Backend::Sled(kv) => kv.dump(),
            Backend::Postgres(kv) => kv.dump(),
        }
    }
}
