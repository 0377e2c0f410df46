//! The outbox tree: letters (messages an outcome owes) read, leased to the process delivering
//! them, noted part by part and removed once delivered, each write under the lease's epoch. A
//! change's new letters are written by `Store::commit` inside its transaction, with the lease
//! of the process that made them.

use super::records::{Lease, Letter, LetterHead};
use super::tx::Tree;
use super::{decode_all, encode, tx_decode, Store, StoreError, TxAbort};

/// What a delivery tells the store of a letter in one step (`Store::settle_letter`): the parts
/// that went out (the announcement with its message), the parts handed over to letters of
/// their own (a direct message into its reader's queue, keyed by the part), and whether the
/// letter is done.
#[derive(Clone, Debug, Default)]
pub struct Settlement {
    pub sent: Vec<(String, Option<u64>)>,
    pub handed: Vec<(String, Letter)>,
    pub done: bool,
}

/// What `Store::settle_letter` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Written; the ids of the letters handed over now (one handed over before is not
    /// written twice).
    Now(Vec<u64>),
    /// Another process took the letter over since (or it is gone, for a letter not done):
    /// nothing is written.
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

    /// Writes what a delivery did with letter `id` (`settlement`) in one transaction that reads
    /// the letter afresh, only under the lease `holder` took as `epoch`: its parts noted (the
    /// first message kept), its handed-over parts noted with their letters written, and the
    /// letter removed if done, so a part is noted or handed over once whatever fails. `Fenced`
    /// when another process took the letter over since: nothing is written. A done letter
    /// already gone is settled.
    pub fn settle_letter(
        &self,
        id: u64,
        holder: u64,
        epoch: u64,
        settlement: &Settlement,
    ) -> Result<Settled, StoreError> {
        let key = id.to_be_bytes();
        self.kv
            .transaction(&[Tree::Outbox], |tx| {
                let Some(bytes) = tx.get(Tree::Outbox, &key)? else {
                    return Ok(match settlement.done {
                        true => Settled::Now(Vec::new()),
                        false => Settled::Fenced,
                    });
                };
                let mut letter: Letter = tx_decode("outbox", &bytes)?;
                if !Lease::is(letter.lease, holder, epoch) {
                    return Ok(Settled::Fenced);
                }
                let mut handed_now = Vec::new();
                for (part, own) in &settlement.handed {
                    if !letter.sent.contains(part) {
                        tx.insert(Tree::Outbox, &own.id.to_be_bytes(), &encode(own))?;
                        handed_now.push(own.id);
                    }
                }
                let parts = settlement.sent.iter().map(|(part, _)| part);
                for part in parts.chain(settlement.handed.iter().map(|(part, _)| part)) {
                    if !letter.sent.contains(part) {
                        letter.sent.push(part.clone());
                    }
                }
                let message = settlement.sent.iter().find_map(|(_, message)| *message);
                letter.message = letter.message.or(message);
                match settlement.done {
                    true => tx.remove(Tree::Outbox, &key)?,
                    false => tx.insert(Tree::Outbox, &key, &encode(&letter))?,
                }
                Ok(Settled::Now(handed_now))
            })
            .map_err(TxAbort::into_store_error)
    }

    /// Gives `holder` the right to deliver letter `id` until `until_ms`, unless another holder's
    /// right runs past `now_ms`: the epoch of its lease, always the next one (a delivery
    /// the same process started under the earlier epoch is fenced, so two of its tasks never
    /// both write), or `None` (leased elsewhere, or gone). A holder is one process start
    /// (`Service::of_process`): two processes never share one, so a lease that has not lapsed
    /// is only ever taken again by the process it was given to, which knows (its claims) that no
    /// task of its own still delivers the letter.
    pub fn lease_letter(
        &self,
        id: u64,
        holder: u64,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Option<u64>, StoreError> {
        let mut epoch = None;
        let cell = std::sync::Mutex::new(&mut epoch);
        self.change_letter(id, |letter| {
            let leased = letter.lease;
            let next = match leased {
                Some(h) if h.holder != holder && h.until_ms > now_ms => return false,
                other => other.map_or(1, |h| h.epoch + 1),
            };
            letter.lease = Some(Lease {
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
            let ours = Lease::is(letter.lease, holder, epoch);
            if ours {
                letter.lease = Some(Lease {
                    holder,
                    until_ms,
                    epoch,
                });
            }
            ours
        })
    }

    /// Lets every lease on the outbox's letters lapse now, their epochs kept (the next holder
    /// takes the next one): for a process that is the store's only one (sled locks its folder),
    /// so every earlier holder is a process that stopped. How many leases lapsed.
    pub fn lapse_leases(&self) -> Result<usize, StoreError> {
        let mut lapsed = 0;
        for head in self.letter_heads()? {
            if head.lease.is_none_or(|h| h.until_ms == i64::MIN) {
                continue;
            }
            let changed = self.change_letter(head.id, |letter| match &mut letter.lease {
                Some(lease) if lease.until_ms != i64::MIN => {
                    lease.until_ms = i64::MIN;
                    true
                }
                _ => false,
            })?;
            lapsed += usize::from(changed);
        }
        if lapsed > 0 {
            self.flush()?;
        }
        Ok(lapsed)
    }

    /// A delivered letter leaves the outbox, durably.
    pub fn remove_letter(&self, id: u64) -> Result<(), StoreError> {
        self.kv.remove(Tree::Outbox, &id.to_be_bytes())?;
        self.flush()
    }
}
