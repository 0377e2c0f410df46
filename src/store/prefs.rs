//! The `prefs` tree: each player's notification wishes under their id (8 bytes), and beside
//! them the day of their last daily digest (the id and `DIGEST`), written only inside a change
//! with its letter, so a second digest of one day is a conflict.

use super::tx::{abort, Tree, Tx, TxResult};
use super::{decode, encode, tx_decode, DigestSent, Store, StoreError, TxAbort};
use crate::store::records::PlayerPrefs;

const DIGEST: &[u8] = b"digest";

fn digest_key(user: u64) -> Vec<u8> {
    [&user.to_be_bytes()[..], DIGEST].concat()
}

impl Store {
    pub fn prefs(&self, user: u64) -> Result<PlayerPrefs, StoreError> {
        Ok(self
            .get(Tree::Prefs, &user.to_be_bytes())?
            .unwrap_or_default())
    }

    pub fn put_prefs(&self, user: u64, prefs: &PlayerPrefs) -> Result<(), StoreError> {
        self.kv
            .insert(Tree::Prefs, &user.to_be_bytes(), &encode(prefs))
    }

    /// Every player who asked for a daily digest, with their wishes.
    pub fn digest_readers(&self) -> Result<Vec<(u64, PlayerPrefs)>, StoreError> {
        let mut readers = Vec::new();
        // Wishes sit under the bare id; the digest days' longer keys are passed over.
        for (key, value) in self.kv.scan(Tree::Prefs, &[])? {
            let Ok(id) = <[u8; 8]>::try_from(&key[..]) else {
                continue;
            };
            let prefs: PlayerPrefs = decode("prefs", &value)?;
            if prefs.digest_hour.is_some() {
                readers.push((u64::from_be_bytes(id), prefs));
            }
        }
        Ok(readers)
    }

    /// The digest day of `user`'s last digest.
    pub fn last_digest(&self, user: u64) -> Result<Option<i64>, StoreError> {
        self.get(Tree::Prefs, &digest_key(user))
    }

    pub(super) fn note_digest(digest: Option<DigestSent>, tx: &dyn Tx) -> TxResult<()> {
        let Some(DigestSent { user, day }) = digest else {
            return Ok(());
        };
        let key = digest_key(user);
        if let Some(bytes) = tx.get(Tree::Prefs, &key)? {
            let last: i64 = tx_decode("prefs", &bytes)?;
            if last >= day {
                return abort(TxAbort::Conflict);
            }
        }
        tx.insert(Tree::Prefs, &key, &encode(&day))
    }
}
