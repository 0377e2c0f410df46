//! The outbox tree: letters (messages an outcome owes) read, noted part by part, held by the
//! process delivering them, and removed once delivered. A change's new letters are written by
//! `Store::commit` inside its transaction.

use super::records::{Hold, Letter, LetterHead};
use super::tx::Tree;
use super::{decode_all, encode, tx_decode, Store, StoreError, TxAbort};

impl Store {
    /// Every letter not yet delivered, oldest first.
    pub fn letters(&self) -> Result<Vec<Letter>, StoreError> {
        decode_all("outbox", self.kv.scan(Tree::Outbox, &[])?)
    }

    /// Every letter not yet delivered, oldest first, without its body.
    pub fn letter_heads(&self) -> Result<Vec<LetterHead>, StoreError> {
        decode_all("outbox", self.kv.scan(Tree::Outbox, &[])?)
    }

    pub fn letter(&self, id: u64) -> Result<Option<Letter>, StoreError> {
        self.get(Tree::Outbox, &id.to_be_bytes())
    }

    /// Stores what was delivered of a letter so far (only while it is still owed).
    pub fn put_letter(&self, letter: &Letter) -> Result<(), StoreError> {
        let key = letter.id.to_be_bytes();
        self.kv
            .transaction(&[Tree::Outbox], |tx| {
                if tx.get(Tree::Outbox, &key)?.is_some() {
                    tx.insert(Tree::Outbox, &key, &encode(letter))?;
                }
                Ok(())
            })
            .map_err(TxAbort::into_store_error)
    }

    /// Gives `holder` the right to deliver letter `id` until `until_ms`, unless another holder's
    /// right runs past `now_ms`: whether it has it (`false` too when the letter is gone).
    pub fn hold_letter(
        &self,
        id: u64,
        holder: u64,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let key = id.to_be_bytes();
        self.kv
            .transaction(&[Tree::Outbox], |tx| {
                let Some(bytes) = tx.get(Tree::Outbox, &key)? else {
                    return Ok(false);
                };
                let mut letter: Letter = tx_decode("outbox", &bytes)?;
                if !Hold::lets(letter.hold, holder, now_ms) {
                    return Ok(false);
                }
                letter.hold = Some(Hold { holder, until_ms });
                tx.insert(Tree::Outbox, &key, &encode(&letter))?;
                Ok(true)
            })
            .map_err(TxAbort::into_store_error)
    }

    /// A delivered letter leaves the outbox, durably.
    pub fn remove_letter(&self, id: u64) -> Result<(), StoreError> {
        self.kv.remove(Tree::Outbox, &id.to_be_bytes())?;
        self.flush()
    }
}
