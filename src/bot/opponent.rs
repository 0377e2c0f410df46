//! Bredon as a player on Discord: when it has something to do in a channel (its move, an undo or
//! draw answer, accepting a rematch), it does it on a blocking thread, never holding up other
//! games. The publisher posts what it did.

use super::blocking::in_store;
use crate::clock::now_ms;
use crate::service::{EngineOpponent, Outcome, Service};
use std::sync::Arc;

/// One action of Bredon's, stored (with the outcome it owes), to post as a channel message.
pub struct Turn {
    pub outcome: Outcome,
    /// The engine failed: the outcome says so, and Bredon stops until the next action here.
    pub failed: bool,
}

/// Bredon's next action in `channel`, if it has one.
pub async fn take_turn(
    engine: &Arc<EngineOpponent>,
    service: &Arc<Service>,
    channel: u64,
) -> Option<Turn> {
    let e = Arc::clone(engine);
    let now = now_ms();
    let acted = in_store(service, move |s| e.act(s, channel, now)).await;
    match acted {
        Ok(Ok(Some(outcome))) => Some(Turn {
            outcome,
            failed: false,
        }),
        Ok(Ok(None)) => None,
        Ok(Err(why)) => {
            tracing::warn!(channel, %why, "engine turn failed");
            let text = format!("✋ Bredon's engine failed ({why}). The game is kept; the engine restarts and moves on the next action here.");
            Some(Turn {
                outcome: Outcome {
                    text,
                    ..Outcome::default()
                },
                failed: true,
            })
        }
        Err(e) => {
            tracing::error!(channel, error = %e, "engine task failed");
            None
        }
    }
}
