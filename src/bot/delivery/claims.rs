//! Who delivers which stored letter within this process: a handler that just made one delivers
//! it itself (its claim), and the outbox loop takes what no handler claimed. A claim dropped
//! before its letter was delivered (a failed request, an early return) rings the outbox at once.
//! Across processes the store's lease decides (`outbox.rs`); a claim only keeps this process's
//! own handler and outbox apart.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

#[derive(Default)]
pub struct Claims {
    claimed: Mutex<HashSet<u64>>,
    /// Letters a handler gave up on: the outbox takes them without waiting for them to age.
    released: Mutex<HashSet<u64>>,
    /// Wakes the outbox loop (`outbox.rs`): a letter released, a channel woken.
    pub bell: tokio::sync::Notify,
}

impl Claims {
    /// Claims `letter`, unless someone claimed it already.
    pub fn claim(self: &Arc<Self>, letter: u64) -> Option<Claim> {
        let fresh = self.claimed.lock().expect("claims").insert(letter);
        fresh.then(|| Claim {
            claims: Arc::clone(self),
            letter,
            delivered: false,
        })
    }

    /// Hands letters no handler will deliver to the outbox at once.
    pub fn release(&self, letters: &[u64]) {
        if letters.is_empty() {
            return;
        }
        self.released
            .lock()
            .expect("claims")
            .extend(letters.iter().copied());
        self.bell.notify_one();
    }

    /// Whether a handler gave `letter` up (and forgets it).
    pub fn take_released(&self, letter: u64) -> bool {
        self.released.lock().expect("claims").remove(&letter)
    }
}

/// The right to deliver one stored letter within this process, given back when dropped.
pub struct Claim {
    claims: Arc<Claims>,
    pub letter: u64,
    delivered: bool,
}

impl Claim {
    pub fn delivered(mut self) {
        self.delivered = true;
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        self.claims
            .claimed
            .lock()
            .expect("claims")
            .remove(&self.letter);
        if !self.delivered {
            self.claims
                .released
                .lock()
                .expect("claims")
                .insert(self.letter);
            self.claims.bell.notify_one();
        }
    }
}
