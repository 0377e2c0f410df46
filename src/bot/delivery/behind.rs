//! A letter written while its channel was still owed earlier ones (`Outcome::behind`): it
//! goes in the channel's turn once they are delivered, the outbox given a moment for those a
//! restart or another process left; otherwise it is left to the outbox, behind them, and an
//! interaction's asker is told privately that the answer follows them.

use super::publish::Via;
use crate::bot::blocking::in_store;
use crate::bot::data::{interaction, Publisher};
use crate::bot::post::Post;
use crate::bot::respond::answer_time_left;
use std::time::Duration;

impl Publisher {
    /// `channel`'s turn once none of `behind` (the letters it was owed when the next was
    /// written) is owed any more, or `None` past the patience of `via`: this process's earlier
    /// sends there are waited for, and the store is asked only when a letter this process did
    /// not deliver is left (one a restart left, another process's, or one the action dropped
    /// itself); such a letter is waited for while the outbox delivers it.
    pub(super) async fn turn_after(
        &self,
        channel: u64,
        behind: &[u64],
        via: &Via<'_>,
    ) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        let patience = patience(via);
        let waited = tokio::time::Instant::now();
        let turn = self.order.turn(channel, patience).await?;
        if self.order.all_delivered(behind) {
            return Some(turn);
        }
        // The outbox takes the channel's turn to deliver them.
        drop(turn);
        let mut left = behind.to_vec();
        loop {
            let asked = left.clone();
            left = match in_store(&self.service, move |s| s.still_owed(&asked)).await {
                Ok(Ok(owed)) => owed,
                _ => return None,
            };
            let spent = waited.elapsed();
            if left.is_empty() {
                return self
                    .order
                    .turn(channel, patience.saturating_sub(spent))
                    .await;
            }
            if spent >= patience {
                return None;
            }
            // Not released to the outbox from here: a letter of this process may still be on its
            // way to its own handler, whose claim would then be lost with its answer.
            tokio::time::sleep(LOOK_AGAIN).await;
        }
    }

    /// An interaction whose announcement waits behind what its channel is owed from before: the
    /// asker is told privately (a public answer, even "thinking", would stand above the earlier
    /// messages), and the outbox posts the announcement in the channel in its turn.
    pub(super) async fn wait_behind(&self, via: Via<'_>) {
        let told = match via {
            Via::Channel | Via::Followup(_) => return,
            via => self.answer_privately(Post::text(WAITS_BEHIND), via).await,
        };
        if let Err(e) = told {
            tracing::info!(error = %e, "the asker was not told that the answer waits");
        }
    }
}

/// How long a send waits for its channel's earlier letters: an interaction's first answer is
/// due within 3 s of the interaction (a second at most, and never past what its window leaves
/// for the private note that it waits), a deferred answer's token lives 15 minutes, and a
/// channel message has no deadline.
fn patience(via: &Via<'_>) -> Duration {
    let first_answer = |id: u64| answer_time_left(id).min(Duration::from_secs(1));
    match via {
        Via::Reply(ctx) => interaction(*ctx).map_or(Duration::ZERO, |i| first_answer(i.id.get())),
        Via::Form(submit) => first_answer(submit.id.get()),
        Via::Deferred { .. } | Via::Channel | Via::Followup(_) => Duration::from_secs(10),
    }
}

/// How often a send waiting for the outbox asks the store again.
const LOOK_AGAIN: Duration = Duration::from_millis(150);

/// What the asker is told when the answer waits behind earlier messages of its channel.
const WAITS_BEHIND: &str = "Done, and stored. This channel is still owed earlier messages \
    (Discord has not taken them yet, or Bredon has not yet made sure it did); Bredon posts \
    the answer after them, in order.";
