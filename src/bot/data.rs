//! The ground every handler stands on: the shared data and the framework's types.

use crate::service::{EngineOpponent, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What every outgoing path needs: Discord, the service, and Bredon as a player.
pub struct Publisher {
    pub http: Arc<serenity::Http>,
    pub service: Arc<Service>,
    pub engine: Arc<EngineOpponent>,
}

/// Shared by every command.
pub struct Data {
    pub service: Arc<Service>,
    /// The one way out for outcomes, with Bredon itself as a player (engine games).
    pub publisher: Arc<Publisher>,
    /// An answer not ready after this long is deferred.
    pub defer_after: Duration,
    /// `/analyze`'s thinking time per position.
    pub analysis_per_position: Duration,
}

/// The slash command behind a context (every command here is a slash command).
pub fn interaction<'a>(ctx: Context<'a>) -> Option<&'a serenity::CommandInteraction> {
    match ctx {
        poise::Context::Application(app) => Some(app.interaction),
        poise::Context::Prefix(_) => None,
    }
}

/// The wall clock in milliseconds since 1970, as the service counts time.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Rung whenever an outcome touches a tournament, so its news and new games follow at once
/// instead of at the next tick.
pub static TOURNAMENT_NEWS: tokio::sync::Notify = tokio::sync::Notify::const_new();
