//! The outbox tree: letters (messages an outcome owes) read, leased to the process delivering
//! them, noted part by part and removed once delivered, each write under the lease's epoch. A
//! change's new letters are written by `Store::commit` inside its transaction, with the lease
//! of the process that made them.

use super::records::{Hold, Letter, LetterHead};
use super::tx::Tree;
use super::{decode_all, encode, tx_decode, Store, StoreError, TxAbort};

/// What `Store::hand_over_part` did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HandedOver {
    /// The part is noted and its letter written.
    Now,
    /// The part was handed over before: nothing is written.
    Before,
    /// Another process took the letter over since, or it is gone: nothing is written.
    Fenced,
}

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

    /// Writes `letter` over its stored self (only while it is still owed): for a letter as
    /// another build wrote it.
    pub fn put_letter(&self, letter: &Letter) -> Result<(), StoreError> {
        self.change_letter(letter.id, |stored| {
            *stored = letter.clone();
            true
        })
        .map(drop)
    }

    /// Changes letter `id` in one transaction that reads it afresh: `change` says whether it
    /// changed it (false: nothing is written). False too when the letter is gone.
    fn change_letter(
        &self,
        id: u64,
        change: impl Fn(&mut Letter) -> bool,
    ) -> Result<bool, StoreError> {
        let key = id.to_be_bytes();
        self.kv
            .transaction(&[Tree::Outbox], |tx| {
                let Some(bytes) = tx.get(Tree::Outbox, &key)? else {
                    return Ok(false);
                };
                let mut letter: Letter = tx_decode("outbox", &bytes)?;
                if !change(&mut letter) {
                    return Ok(false);
                }
                tx.insert(Tree::Outbox, &key, &encode(&letter))?;
                Ok(true)
            })
            .map_err(TxAbort::into_store_error)
    }

    /// Notes that part `part` of letter `id` went out (as `message`, the first such), only
    /// under the lease `holder` took as `epoch`: false when another process took the letter
    /// over since (or it is gone), and nothing is written.
    pub fn note_part(
        &self,
        id: u64,
        holder: u64,
        epoch: u64,
        part: &str,
        message: Option<u64>,
    ) -> Result<bool, StoreError> {
        self.change_letter(id, |letter| {
            if !Hold::is(letter.hold, holder, epoch) {
                return false;
            }
            if !letter.sent.iter().any(|p| p == part) {
                letter.sent.push(part.to_string());
            }
            letter.message = letter.message.or(message);
            true
        })
    }

    /// Hands part `part` of letter `id` over to `letter`, a letter of its own (a direct message
    /// into its reader's queue), only under the lease `holder` took as `epoch`: the part is
    /// noted and the new letter written in one transaction, so the part is handed over once
    /// whatever fails.
    pub fn hand_over_part(
        &self,
        id: u64,
        holder: u64,
        epoch: u64,
        part: &str,
        letter: &Letter,
    ) -> Result<HandedOver, StoreError> {
        let key = id.to_be_bytes();
        self.kv
            .transaction(&[Tree::Outbox], |tx| {
                let Some(bytes) = tx.get(Tree::Outbox, &key)? else {
                    return Ok(HandedOver::Fenced);
                };
                let mut from: Letter = tx_decode("outbox", &bytes)?;
                if !Hold::is(from.hold, holder, epoch) {
                    return Ok(HandedOver::Fenced);
                }
                if from.sent.iter().any(|p| p == part) {
                    return Ok(HandedOver::Before);
                }
                from.sent.push(part.to_string());
                tx.insert(Tree::Outbox, &key, &encode(&from))?;
                tx.insert(Tree::Outbox, &letter.id.to_be_bytes(), &encode(letter))?;
                Ok(HandedOver::Now)
            })
            .map_err(TxAbort::into_store_error)
    }

    /// Gives `holder` the right to deliver letter `id` until `until_ms`, unless another holder's
    /// right runs past `now_ms`: the epoch it holds it under (its own, renewed, if it held it
    /// and nobody took it since; the next one if it takes it), or `None` (held elsewhere, or
    /// gone).
    pub fn hold_letter(
        &self,
        id: u64,
        holder: u64,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Option<u64>, StoreError> {
        let mut epoch = None;
        let cell = std::sync::Mutex::new(&mut epoch);
        self.change_letter(id, |letter| {
            let held = letter.hold;
            let next = match held {
                Some(h) if h.holder == holder => h.epoch,
                Some(h) if h.until_ms > now_ms => return false,
                other => other.map_or(1, |h| h.epoch + 1),
            };
            letter.hold = Some(Hold {
                holder,
                until_ms,
                epoch: next,
            });
            **cell.lock().expect("epoch") = Some(next);
            true
        })?;
        Ok(epoch)
    }

    /// Renews the lease `holder` took on letter `id` as `epoch` until `until_ms`: false when
    /// another process took the letter over since, or it is gone.
    pub fn renew_letter(
        &self,
        id: u64,
        holder: u64,
        epoch: u64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        self.change_letter(id, |letter| {
            let ours = Hold::is(letter.hold, holder, epoch);
            if ours {
                letter.hold = Some(Hold {
                    holder,
                    until_ms,
                    epoch,
                });
            }
            ours
        })
    }

    /// A letter delivered under the lease `holder` took as `epoch` leaves the outbox, durably:
    /// false (and it stays) when another process took it over since.
    pub fn remove_held_letter(&self, id: u64, holder: u64, epoch: u64) -> Result<bool, StoreError> {
        let key = id.to_be_bytes();
        let removed = self
            .kv
            .transaction(&[Tree::Outbox], |tx| {
                let Some(bytes) = tx.get(Tree::Outbox, &key)? else {
                    return Ok(true);
                };
                let letter: LetterHead = tx_decode("outbox", &bytes)?;
                if !Hold::is(letter.hold, holder, epoch) {
                    return Ok(false);
                }
                tx.remove(Tree::Outbox, &key)?;
                Ok(true)
            })
            .map_err(TxAbort::into_store_error)?;
        self.flush()?;
        Ok(removed)
    }

    /// A delivered letter leaves the outbox, durably.
    pub fn remove_letter(&self, id: u64) -> Result<(), StoreError> {
        self.kv.remove(Tree::Outbox, &id.to_be_bytes())?;
        self.flush()
    }
}
