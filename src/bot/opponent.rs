//! Engine games on Discord: when Bredon has something to do in a channel (its move, an undo or
//! draw answer, accepting a rematch), do it on a blocking thread, never holding up other games,
//! and post it, retrying until Discord has it.

use super::reply;
use crate::service::{event_id, EngineOpponent, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

pub struct Opponent {
    pub service: Arc<Service>,
    pub engine: EngineOpponent,
}

impl Opponent {
    pub fn spawn_turn(self: &Arc<Self>, http: Arc<serenity::Http>, channel: u64) {
        let me = Arc::clone(self);
        tokio::spawn(async move { me.turns(http, channel).await });
    }

    async fn turns(self: Arc<Self>, http: Arc<serenity::Http>, channel: u64) {
        // Accepting a rematch, or an undo answer, may make it Bredon's move: a few steps at most.
        for _ in 0..4 {
            let me = Arc::clone(&self);
            let now = reply::now_ms();
            let acted =
                tokio::task::spawn_blocking(move || me.engine.act(&me.service, channel, now)).await;
            let outcome = match acted {
                Ok(Ok(Some(outcome))) => outcome,
                Ok(Ok(None)) => return,
                Ok(Err(why)) => {
                    tracing::warn!(channel, %why, "engine turn failed");
                    let text = format!("✋ Bredon's engine failed ({why}). The game is kept; the engine restarts and moves on the next action here.");
                    let post = reply::Post::text(reply::escape(&text));
                    reply::deliver(
                        &http,
                        &self.service,
                        channel,
                        post,
                        event_id(channel, 5, now as u64),
                    )
                    .await;
                    return;
                }
                Err(e) => {
                    tracing::error!(channel, error = %e, "engine task failed");
                    return;
                }
            };
            // The action is stored; its time makes the post's nonce unique and stable over retries.
            let id = event_id(channel, 4, now as u64);
            reply::deliver_outcome(&http, &self.service, channel, &outcome, id).await;
        }
    }
}
