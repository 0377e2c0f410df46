//! Whole stores copied: into another store (`bredon migrate`) and into a backup file
//! (`bredon backup`).

use super::tx::Tree;
use super::{Store, StoreError, TxAbort, SCHEMA};
use std::path::Path;

impl Store {
    /// Copies every record into `target`, which must hold none, in one transaction; ids given
    /// by `target` afterwards are above every id this store gave. Returns each tree's count of
    /// records as counted again in `target` (`bredon migrate`).
    pub fn copy_into(&self, target: &Store) -> Result<Vec<(&'static str, usize)>, StoreError> {
        let mut trees = Vec::new();
        for tree in Tree::ALL {
            if target.kv.len(tree)? > 0 {
                return Err(StoreError::Io(format!(
                    "the target already holds {} records: records move into an empty store only",
                    tree.name()
                )));
            }
            trees.push((tree, self.kv.scan(tree, &[])?));
        }
        target
            .kv
            .transaction(&Tree::ALL, |tx| {
                for (tree, rows) in &trees {
                    for (k, v) in rows {
                        tx.insert(*tree, k, v)?;
                    }
                }
                Ok(())
            })
            .map_err(TxAbort::into_store_error)?;
        target.kv.ids_above(self.new_id()?)?;
        target.flush()?;
        let mut counts = Vec::new();
        for (tree, rows) in &trees {
            let there = target.kv.len(*tree)?;
            if there != rows.len() {
                return Err(StoreError::Io(format!(
                    "{}: {} records copied but {there} found in the target",
                    tree.name(),
                    rows.len()
                )));
            }
            counts.push((tree.name(), there));
        }
        Ok(counts)
    }

    /// Writes every tree to a file (`bredon backup`), readable by `Store::restore`.
    pub fn backup(&self, file: &Path) -> Result<usize, StoreError> {
        let mut out = serde_json::Map::new();
        let mut count = 0;
        for (name, rows) in self.kv.dump()? {
            let rows: Vec<_> = rows
                .iter()
                .map(|(k, v)| {
                    let value = match std::str::from_utf8(v) {
                        Ok(text) => serde_json::json!({ "text": text }),
                        Err(_) => serde_json::json!({ "hex": hex(v) }),
                    };
                    serde_json::json!([hex(k), value])
                })
                .collect();
            count += rows.len();
            out.insert(name, serde_json::Value::Array(rows));
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
