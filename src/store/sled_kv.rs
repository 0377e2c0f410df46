//! The trees in a sled folder: the default store, for one process.

use super::error::{StoreError, TxAbort};
use super::tx::{Row, Tree, Tx, TxFail, TxResult};
use sled::transaction::{
    ConflictableTransactionError, TransactionError, TransactionalTree, UnabortableTransactionError,
};
use sled::Transactional;
use std::path::Path;

pub(in crate::store) struct SledKv {
    db: sled::Db,
    /// Indexed by `Tree as usize`.
    trees: Vec<sled::Tree>,
}

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> StoreError {
        StoreError::Io(e.to_string())
    }
}

impl From<UnabortableTransactionError> for TxFail {
    fn from(e: UnabortableTransactionError) -> TxFail {
        match e {
            UnabortableTransactionError::Conflict => TxFail::Retry,
            UnabortableTransactionError::Storage(e) => TxFail::Storage(e.into()),
        }
    }
}

fn rows(
    iter: impl Iterator<Item = sled::Result<(sled::IVec, sled::IVec)>>,
) -> Result<Vec<Row>, StoreError> {
    iter.map(|e| {
        e.map(|(k, v)| (k.to_vec(), v.to_vec()))
            .map_err(StoreError::from)
    })
    .collect()
}

impl SledKv {
    pub(in crate::store) fn open(path: &Path) -> Result<SledKv, StoreError> {
        let db = sled::Config::new().path(path).open().map_err(|e| match e {
            sled::Error::Io(io) if io.to_string().contains("could not acquire lock") => {
                StoreError::Locked(path.display().to_string())
            }
            other => StoreError::Io(format!("cannot open {}: {other}", path.display())),
        })?;
        let trees = Tree::ALL
            .iter()
            .map(|t| db.open_tree(t.name()))
            .collect::<Result<_, _>>()?;
        Ok(SledKv { db, trees })
    }

    fn tree(&self, tree: Tree) -> &sled::Tree {
        &self.trees[tree as usize]
    }

    pub(super) fn get(&self, tree: Tree, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tree(tree).get(key)?.map(|v| v.to_vec()))
    }

    pub(super) fn insert(&self, tree: Tree, key: &[u8], value: &[u8]) -> Result<(), StoreError> {
        self.tree(tree).insert(key, value)?;
        Ok(())
    }

    pub(super) fn remove(&self, tree: Tree, key: &[u8]) -> Result<(), StoreError> {
        self.tree(tree).remove(key)?;
        Ok(())
    }

    pub(super) fn scan(&self, tree: Tree, prefix: &[u8]) -> Result<Vec<Row>, StoreError> {
        rows(self.tree(tree).scan_prefix(prefix))
    }

    pub(super) fn below(&self, tree: Tree, end: &[u8]) -> Result<Vec<Row>, StoreError> {
        rows(self.tree(tree).range(..end))
    }

    pub(super) fn len(&self, tree: Tree) -> usize {
        self.tree(tree).len()
    }

    pub(super) fn transaction<T>(
        &self,
        trees: &[Tree],
        body: impl Fn(&dyn Tx) -> TxResult<T>,
    ) -> Result<T, TxAbort> {
        let chosen: Vec<sled::Tree> = trees.iter().map(|t| self.tree(*t).clone()).collect();
        let result = chosen[..].transaction(|views| {
            let tx = SledTx { trees, views };
            body(&tx).map_err(|fail| match fail {
                TxFail::Abort(why) => ConflictableTransactionError::Abort(why),
                TxFail::Retry => ConflictableTransactionError::Conflict,
                TxFail::Storage(e) => ConflictableTransactionError::Abort(TxAbort::Store(e)),
            })
        });
        match result {
            Ok(v) => Ok(v),
            Err(TransactionError::Abort(why)) => Err(why),
            Err(TransactionError::Storage(e)) => Err(TxAbort::Store(e.into())),
        }
    }

    pub(super) fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    pub(super) fn new_id(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id()? + 1)
    }

    /// sled's id counter only counts up: ids are taken until it is past `id` (ids are game
    /// numbers, so thousands, not billions).
    pub(super) fn ids_above(&self, id: u64) -> Result<(), StoreError> {
        while self.new_id()? <= id {}
        Ok(())
    }

    pub(super) fn dump(&self) -> Result<Vec<(String, Vec<Row>)>, StoreError> {
        let mut out = Vec::new();
        for name in self.db.tree_names() {
            let tree = self.db.open_tree(&name)?;
            out.push((
                String::from_utf8_lossy(&name).into_owned(),
                rows(tree.iter())?,
            ));
        }
        Ok(out)
    }
}

struct SledTx<'a> {
    trees: &'a [Tree],
    views: &'a [TransactionalTree],
}

impl SledTx<'_> {
    fn view(&self, tree: Tree) -> &TransactionalTree {
        let at = self
            .trees
            .iter()
            .position(|t| *t == tree)
            .expect("a transaction names every tree it touches");
        &self.views[at]
    }
}

impl Tx for SledTx<'_> {
    fn get(&self, tree: Tree, key: &[u8]) -> TxResult<Option<Vec<u8>>> {
        Ok(self.view(tree).get(key)?.map(|v| v.to_vec()))
    }

    fn insert(&self, tree: Tree, key: &[u8], value: &[u8]) -> TxResult<()> {
        self.view(tree).insert(key, value)?;
        Ok(())
    }

    fn remove(&self, tree: Tree, key: &[u8]) -> TxResult<()> {
        self.view(tree).remove(key)?;
        Ok(())
    }
}
