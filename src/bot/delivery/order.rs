//! A channel's order within this process: a handler's letter is posted only after the letters
//! its channel was owed when it was written (`Outcome::behind`). Sends in one channel take
//! turns, so a letter still in a handler's hands when the next was written is delivered (and
//! known here as delivered) before the next one looks; a letter still owed after that is the
//! outbox's, which delivers a channel's letters in order (`behind.rs`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::OwnedMutexGuard;

/// How many delivered letters are remembered: far more than a process delivers while the next
/// letter of a channel waits for its turn.
const REMEMBERED: usize = 1024;

#[derive(Default)]
pub struct ChannelOrder {
    turns: Mutex<HashMap<u64, Arc<tokio::sync::Mutex<()>>>>,
    delivered: Mutex<VecDeque<u64>>,
}

impl ChannelOrder {
    /// `channel`'s turn, once this process's earlier sends there ended, waiting at most `wait`
    /// (an interaction's answer cannot wait long): `None` past it.
    pub async fn turn(&self, channel: u64, wait: Duration) -> Option<OwnedMutexGuard<()>> {
        let turn = {
            let mut turns = self.turns.lock().expect("turns");
            Arc::clone(turns.entry(channel).or_default())
        };
        tokio::time::timeout(wait, turn.lock_owned()).await.ok()
    }

    /// `letter` was delivered by this process.
    pub fn delivered(&self, letter: u64) {
        let mut delivered = self.delivered.lock().expect("delivered");
        if delivered.len() == REMEMBERED {
            delivered.pop_front();
        }
        delivered.push_back(letter);
    }

    /// Whether this process delivered every one of `letters`.
    pub fn all_delivered(&self, letters: &[u64]) -> bool {
        let delivered = self.delivered.lock().expect("delivered");
        letters.iter().all(|letter| delivered.contains(letter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_channels_sends_take_turns_and_its_delivered_letters_are_known() {
        let order = ChannelOrder::default();
        let first = order.turn(5, Duration::from_millis(10)).await;
        assert!(first.is_some());
        let wait = Duration::from_millis(10);
        assert!(order.turn(5, wait).await.is_none(), "the first still sends");
        assert!(
            order.turn(6, wait).await.is_some(),
            "another channel's turn"
        );
        order.delivered(41);
        drop(first);
        assert!(order.turn(5, wait).await.is_some(), "the first ended");
        assert!(order.all_delivered(&[41]));
        assert!(!order.all_delivered(&[41, 42]), "42 is still owed");
        assert!(order.all_delivered(&[]));
    }
}
