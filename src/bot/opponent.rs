//! Engine games on Discord: when Bredon has something to do in a channel (its move, an undo or
//! draw answer), do it on a blocking thread, never holding up other games, and post it.

use super::reply::{self, Buttons};
use crate::service::{EngineOpponent, Service};
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
        // An undo answer may make it Bredon's move: a few steps at most.
        for _ in 0..3 {
            let me = Arc::clone(&self);
            let acted = tokio::task::spawn_blocking(move || {
                me.engine.act(&me.service, channel, reply::now_ms())
            })
            .await;
            let outcome = match acted {
                Ok(Ok(Some(outcome))) => outcome,
                Ok(Ok(None)) => return,
                Ok(Err(why)) => {
                    tracing::warn!(channel, %why, "engine turn failed");
                    let text = format!("✋ Bredon's engine failed ({why}). The game is kept; the engine restarts and moves on the next action here.");
                    let _ = serenity::ChannelId::new(channel)
                        .send_message(&http, serenity::CreateMessage::new().content(text))
                        .await;
                    return;
                }
                Err(e) => {
                    tracing::error!(channel, error = %e, "engine task failed");
                    return;
                }
            };
            let p = reply::parts(outcome, Buttons::None).await;
            let message = serenity::CreateMessage::new()
                .content(p.content)
                .add_files(p.files)
                .components(p.components);
            if let Err(e) = serenity::ChannelId::new(channel)
                .send_message(&http, message)
                .await
            {
                tracing::warn!(channel, error = %e, "could not post Bredon's ply");
            }
        }
    }
}
