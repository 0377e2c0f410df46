//! The ground every handler stands on: the shared data and the framework's types.

use crate::service::{EngineOpponent, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What every outgoing path needs: Discord, the service, Bredon as a player, and the outbox's
/// claims and schedule.
pub struct Publisher {
    pub http: Arc<serenity::Http>,
    pub service: Arc<Service>,
    pub engine: Arc<EngineOpponent>,
    /// Which letters a handler of this process delivers itself (`delivery/claims.rs`).
    pub claims: Arc<super::delivery::claims::Claims>,
    /// The outbox's channels and servers: busy, waiting, probed (`delivery/schedule.rs`).
    pub schedule: Arc<std::sync::Mutex<super::delivery::schedule::Schedule>>,
    /// Direct-message channels by user, as Discord opened them.
    pub dm_channels: std::sync::Mutex<std::collections::HashMap<u64, serenity::ChannelId>>,
    /// Raised when Bredon cannot go on (Discord refuses its token): the process stops.
    pub fatal: Arc<Fatal>,
    /// The servers and channels Bredon is in, as the gateway told them (system channels).
    pub cache: Arc<serenity::Cache>,
    /// Channels where Discord refuses Bredon something, as this process knows (`delivery/refused.rs`).
    pub refused: std::sync::Mutex<std::collections::HashMap<u64, crate::store::records::Lacking>>,
    /// The web pages' public address (`BREDON_WEB_URL`): outcomes with a page link to it.
    pub web_url: Option<String>,
    /// Channels where a task takes Bredon's turns now, each with whether another action
    /// asked for a turn meanwhile (`delivery/publish.rs`, `spawn_turn`): one search per game at a time.
    pub turns: std::sync::Mutex<std::collections::HashMap<u64, bool>>,
    /// Until when Discord holds this process's requests back (a request given up past its
    /// budget, `delivery/posting.rs`): meanwhile its outbox takes no letter, leaving them to processes
    /// Discord does not hold back.
    pub held_back_until_ms: std::sync::atomic::AtomicI64,
    /// The one way to Discord's REST API (`gate`): its limits and its count of invalid requests.
    pub gate: Arc<super::delivery::gate::Gate>,
    /// Each channel's sends in turn, and the letters delivered (`delivery/order.rs`).
    pub order: super::delivery::order::ChannelOrder,
    /// The interactions that carry what channels outside servers are owed (`delivery/tokens.rs`).
    pub answers: super::delivery::tokens::Answers,
    /// How long delivery waits for what it cannot hurry (`delivery/waits.rs`).
    pub waits: super::delivery::waits::Waits,
    /// Channels refusing Bredon's posts with a code it has no row for, since when
    /// (`delivery/unheard.rs`).
    pub unheard: super::delivery::unheard::Unheard,
}

/// Why the bot has to stop (a start-up that failed, a token Discord no longer takes); set once,
/// read after the gateway closed.
#[derive(Default)]
pub struct Fatal {
    reason: std::sync::Mutex<Option<String>>,
    pub raised: tokio::sync::Notify,
}

impl Fatal {
    pub fn raise(&self, reason: String) {
        tracing::error!(%reason, "Bredon stops");
        *self.reason.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason);
        self.raised.notify_one();
    }

    pub fn reason(&self) -> Option<String> {
        self.reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
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
    /// The analyses running in each server.
    pub analyses: AnalysisSlots,
    /// PlayTak's API, for games named by their PlayTak number.
    pub playtak: crate::playtak::Api,
    /// Which messages this process reads as plies.
    pub typed_plies: super::TypedPlies,
    /// The web pages' public address (`BREDON_WEB_URL`), for the links Bredon gives.
    pub web_url: Option<String>,
}

/// The analyses running in each server, at most [`AnalysisSlots::EACH`] at a time (the Tiltak
/// bot's limit): each holds a slot until it ends. A server is one shard's, so this process
/// counts all of them.
#[derive(Clone, Default)]
pub struct AnalysisSlots(Arc<std::sync::Mutex<std::collections::HashMap<u64, usize>>>);

/// One running analysis's slot, given back when dropped.
pub struct AnalysisSlot {
    slots: AnalysisSlots,
    guild: u64,
}

impl AnalysisSlots {
    pub const EACH: usize = 2;

    /// A slot in `guild`, unless its analyses already fill them all.
    pub fn take(&self, guild: u64) -> Option<AnalysisSlot> {
        let mut running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = running.entry(guild).or_default();
        if *count >= Self::EACH {
            return None;
        }
        *count += 1;
        Some(AnalysisSlot {
            slots: self.clone(),
            guild,
        })
    }
}

impl Drop for AnalysisSlot {
    fn drop(&mut self) {
        let mut running = self.slots.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = running.get_mut(&self.guild) {
            *count -= 1;
            if *count == 0 {
                running.remove(&self.guild);
            }
        }
    }
}

/// The slash command behind a context (every command here is a slash command).
pub fn interaction<'a>(ctx: Context<'a>) -> Option<&'a serenity::CommandInteraction> {
    match ctx {
        poise::Context::Application(app) => Some(app.interaction),
        poise::Context::Prefix(_) => None,
    }
}

/// Rung whenever an outcome touches a tournament, so its news and new games follow at once
/// instead of at the next tick.
pub static TOURNAMENT_NEWS: tokio::sync::Notify = tokio::sync::Notify::const_new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_analyses_run_at_a_time_in_a_server_and_a_slot_frees_when_one_ends() {
        let slots = AnalysisSlots::default();
        let first = slots.take(1).unwrap();
        let second = slots.take(1).unwrap();
        assert!(slots.take(1).is_none(), "a third in the same server");
        let elsewhere = slots.take(2);
        assert!(elsewhere.is_some(), "another server counts apart");
        drop(first);
        let again = slots.take(1);
        assert!(again.is_some(), "an ended analysis frees its slot");
        drop((second, again, elsewhere));
        assert!(
            slots.0.lock().unwrap().is_empty(),
            "no server is kept when idle"
        );
    }
}
