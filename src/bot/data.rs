//! The ground every handler stands on: the shared data and the framework's types.

use crate::service::{EngineOpponent, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What every outgoing path needs: Discord, the service, Bredon as a player, and the outbox's
/// claims.
pub struct Publisher {
    pub http: Arc<serenity::Http>,
    pub service: Arc<Service>,
    pub engine: Arc<EngineOpponent>,
    pub claims: Arc<Claims>,
    /// Direct-message channels by user, as Discord opened them.
    pub dm_channels: std::sync::Mutex<std::collections::HashMap<u64, serenity::ChannelId>>,
}

/// Who delivers which stored outcome: a handler that just made one delivers it itself (its
/// claim), and the outbox loop takes what no handler holds. A claim dropped before its outcome
/// was delivered (a failed request, an early return) rings the outbox at once.
#[derive(Default)]
pub struct Claims {
    held: std::sync::Mutex<std::collections::HashSet<u64>>,
    /// Letters a handler gave up on: the outbox takes them without waiting for them to age.
    released: std::sync::Mutex<std::collections::HashSet<u64>>,
    pub bell: tokio::sync::Notify,
}

impl Claims {
    /// Claims `letter`, unless someone holds it already.
    pub fn claim(self: &Arc<Self>, letter: u64) -> Option<Claim> {
        let fresh = self.held.lock().expect("claims").insert(letter);
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

/// The right to deliver one stored outcome, given back when dropped.
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
            .held
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

/// Shared by every command.
pub struct Data {
    pub service: Arc<Service>,
    /// The one way out for outcomes, with Bredon itself as a player (engine games).
    pub publisher: Arc<Publisher>,
    /// An answer not ready after this long is deferred.
    pub defer_after: Duration,
    /// `/analyze`'s thinking time per position.
    pub analysis_per_position: Duration,
    /// Which messages this process reads as plies.
    pub typed_plies: super::TypedPlies,
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
