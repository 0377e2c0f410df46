//! Bredon's own actions in a channel after an outcome (its ply, an answer to an undo or a draw,
//! accepting a rematch): one task per channel, so a search never runs twice beside itself, and
//! the follow-ups the service names for an outcome.

use super::publish::Via;
use crate::bot::data::{Publisher, TOURNAMENT_NEWS};
use crate::bot::opponent::take_turn;
use crate::service::FollowUp;
use std::sync::Arc;

impl Publisher {
    /// Runs the follow-ups of an outcome delivered in `channel`.
    pub(super) fn follow_up(self: &Arc<Self>, channel: u64, follow_ups: &[FollowUp]) {
        for follow_up in follow_ups {
            match follow_up {
                FollowUp::BredonActs => self.spawn_turn(channel),
                FollowUp::TournamentWork => TOURNAMENT_NEWS.notify_one(),
            }
        }
    }

    /// Bredon's turns in `channel`, on a task of their own, one task per channel: accepting a
    /// rematch, answering an undo, or a conditional line answering its plies may make it
    /// Bredon's move again, so the task goes on until Bredon has nothing to do there. An action
    /// asking for a turn while the task runs is noted, and the task looks once more before it
    /// ends, so no second search starts beside the first. Each turn is stored before it is
    /// posted, so a failed post is the outbox's to repeat, never a reason to stop.
    pub fn spawn_turn(self: &Arc<Self>, channel: u64) {
        {
            let mut turns = self.turns.lock().expect("turns");
            if let Some(again) = turns.get_mut(&channel) {
                *again = true;
                return;
            }
            turns.insert(channel, false);
        }
        let me = Arc::clone(self);
        tracing::info!(channel, "Bredon looks for its turn");
        tokio::spawn(async move {
            me.take_turns(channel).await;
            tracing::debug!(channel, "Bredon's turns here are over");
        });
    }

    /// Bredon's turns in `channel` until it has nothing more to do there (`spawn_turn`).
    async fn take_turns(self: &Arc<Self>, channel: u64) {
        loop {
            let Some(turn) = take_turn(&self.engine, &self.service, channel).await else {
                if self.turn_asked_again(channel) {
                    continue;
                }
                return;
            };
            let ready = self.ready(turn.outcome).await;
            let tournament = ready.follow_ups.contains(&FollowUp::TournamentWork);
            if let Err(e) = self.send(channel, ready, Via::Channel).await {
                tracing::info!(channel, error = %e, "Bredon's action is not posted yet");
            }
            // Bredon's own next step is this loop's; a tournament's work is the timers'.
            if tournament {
                TOURNAMENT_NEWS.notify_one();
            }
            if turn.failed {
                self.turns.lock().expect("turns").remove(&channel);
                return;
            }
        }
    }

    /// Whether an action asked for a turn in `channel` while its task ran (the task looks
    /// again); if not, the task ends, under the same lock, so no request falls between.
    fn turn_asked_again(&self, channel: u64) -> bool {
        let mut turns = self.turns.lock().expect("turns");
        match turns.get_mut(&channel) {
            Some(again) if *again => {
                *again = false;
                true
            }
            _ => {
                turns.remove(&channel);
                false
            }
        }
    }
}
