//! Turns at Discord's gateway: every process sharing a store IDENTIFYs in its own turn, spaced
//! past Discord's 5 s window (events/gateway, "Rate Limiting"), and a process restarted in a
//! loop waits for its turn too. One record: when the next turn may start.

use super::tx::Tree;
use super::{encode, tx_decode, Store, StoreError, TxAbort};

const NEXT: [u8; 1] = [0];

impl Store {
    /// Reserves `count` IDENTIFYs `spacing_ms` apart, starting at `now_ms` or, if another
    /// process reserved later ones, after the last of them: when the first may be sent.
    pub fn gateway_turn(
        &self,
        count: u32,
        now_ms: i64,
        spacing_ms: i64,
    ) -> Result<i64, StoreError> {
        let start = self
            .kv
            .transaction(&[Tree::Gateway], |tx| {
                let next: i64 = match tx.get(Tree::Gateway, &NEXT)? {
                    Some(b) => tx_decode("gateway", &b)?,
                    None => 0,
                };
                let start = now_ms.max(next);
                let after = start + i64::from(count.max(1)) * spacing_ms;
                tx.insert(Tree::Gateway, &NEXT, &encode(&after))?;
                Ok(start)
            })
            .map_err(TxAbort::into_store_error)?;
        self.flush()?;
        Ok(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_follow_each_other_and_a_late_start_takes_the_next_free_one() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.gateway_turn(2, 1_000, 6_000).unwrap(), 1_000);
        assert_eq!(
            store.gateway_turn(1, 1_500, 6_000).unwrap(),
            13_000,
            "after two turns"
        );
        assert_eq!(store.gateway_turn(1, 2_000, 6_000).unwrap(), 19_000);
        assert_eq!(
            store.gateway_turn(1, 60_000, 6_000).unwrap(),
            60_000,
            "nothing reserved then: at once"
        );
    }
}
