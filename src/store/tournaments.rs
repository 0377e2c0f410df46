//! Tournaments and their pairings' results, which sit under the tournament's id (id → the
//! tournament, id ++ round ++ board → a result) so a tournament's records stay together.

use super::records::Tournament;
use super::tx::{abort, Tree, Tx, TxResult};
use super::Results;
use super::{
    decode, decode_all, encode, result_key, tx_decode, Change, Store, StoreError, TxAbort,
};

impl Store {
    pub(super) fn put_tournament(change: &Change, tx: &dyn Tx) -> TxResult<()> {
        if let Some((t, expect_seq)) = &change.tournament {
            let key = t.id.to_be_bytes();
            let stored = match tx.get(Tree::Tournaments, &key)? {
                Some(b) => Some(tx_decode::<Tournament>("tournament", &b)?.seq),
                None => None,
            };
            if stored != *expect_seq {
                return abort(TxAbort::Conflict);
            }
            tx.insert(Tree::Tournaments, &key, &encode(t))?;
        }
        for (fixture, result) in &change.results {
            tx.insert(Tree::Tournaments, &result_key(fixture), &encode(result))?;
        }
        Ok(())
    }

    pub fn tournament(&self, id: u64) -> Result<Option<Tournament>, StoreError> {
        self.get(Tree::Tournaments, &id.to_be_bytes())
    }

    /// Every tournament in this store, oldest first.
    pub fn tournaments(&self) -> Result<Vec<Tournament>, StoreError> {
        let mut rows = self.kv.scan(Tree::Tournaments, &[])?;
        rows.retain(|(k, _)| k.len() == 8);
        decode_all("tournament", rows)
    }

    /// The results of a tournament's pairings, by (round, board).
    pub fn results(&self, id: u64) -> Result<Results, StoreError> {
        let mut out = Results::new();
        for (k, v) in self.kv.scan(Tree::Tournaments, &id.to_be_bytes())? {
            if k.len() == 16 {
                let round = u32::from_be_bytes(k[8..12].try_into().expect("4 bytes"));
                let board = u32::from_be_bytes(k[12..16].try_into().expect("4 bytes"));
                out.insert((round, board), decode("result", &v)?);
            }
        }
        Ok(out)
    }
}
