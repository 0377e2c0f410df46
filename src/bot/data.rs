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

/// Who delivers which stored outcome: a handler that just made one delivers it itself (its
/// claim), and the outbox loop takes what no handler holds. A claim dropped before its outcome
/// was delivered (a failed request, an early return) rings the outbox at once.
#[derive(Default)]
pub struct Claims {
    held: std::sync::Mutex<std::collections::HashSet<u64>>,
    /// Letters a handler gave up on: the outbox takes them without waiting for them to age.
    released: std::sync::Mutex<std::collections::HashSet<u64>>,
    pub bell: tokio::sync::Notify,
    /// The outbox's channels: which it is delivering to, which wait after a failure.
    pub channels: Arc<std::sync::Mutex<Channels>>,
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

    /// Discord says a channel or a role of server `guild` changed (a permission given back,
    /// perhaps): every channel of that server waiting after a failure is due at its next
    /// sweep, the refused ones one probe at a time (`delivery/outbox.rs`). Bredon does not keep which
    /// channels a role or a parent's overrides open (a thread's permissions are its parent's),
    /// so all of the server's are; the count of failed tries stays, so the waits after a
    /// refusal keep growing.
    pub fn wake_guild(&self, guild: u64) {
        let woken = self
            .channels
            .lock()
            .expect("outbox channels")
            .wake_guild(guild, now_ms());
        if woken > 0 {
            tracing::info!(
                guild,
                channels = woken,
                "Discord says something changed in a server; what is owed there is tried again"
            );
            self.bell.notify_one();
        }
    }

    /// Discord says `channel` is open again, or changed (a thread unlocked or reopened, its
    /// overrides edited): what it is owed is tried now, without waiting for its server's probe.
    pub fn wake(&self, channel: u64) {
        let waited = {
            let mut c = self.channels.lock().expect("outbox channels");
            let waited = c.waiting.remove(&channel);
            if waited.is_some() {
                c.woken.insert(channel);
            }
            waited
        };
        if let Some(wait) = waited {
            tracing::info!(
                channel,
                tries = wait.tries,
                "a channel open again: what it is owed is tried now"
            );
            self.bell.notify_one();
        }
    }

    /// Discord refused Bredon a post in `channel` of server `guild`, on any path: the channel
    /// waits as refused, and from now on the server's refused channels are tried one probe
    /// at a time (`delivery/outbox.rs`), until a probe goes through.
    pub fn note_refused(&self, guild: u64, channel: u64) {
        if guild == 0 {
            return;
        }
        let now = now_ms();
        let refused = Wait {
            guild,
            tries: 1,
            tried_ms: now,
            at_ms: now + FIRST_PROBE_WAIT_MS,
            refused: true,
        };
        let mut c = self.channels.lock().expect("outbox channels");
        c.probe_after.entry(guild).or_insert(refused);
        c.waiting.entry(channel).or_insert(refused);
    }

    /// Discord says `channel`'s overrides changed (a permission given back there, perhaps): it
    /// is tried at its next sweep outside its server's probes, but not twice in `WAKE_GAP_MS`.
    pub fn wake_changed(&self, channel: u64) {
        let now = now_ms();
        let mut c = self.channels.lock().expect("outbox channels");
        let Some(wait) = c.waiting.get_mut(&channel) else {
            return;
        };
        wait.at_ms = wait.at_ms.min(now.max(wait.tried_ms + WAKE_GAP_MS));
        c.woken.insert(channel);
        drop(c);
        self.bell.notify_one();
    }

    /// Whether Discord refused Bredon a post in server `guild` since a post there last went
    /// through (its channels are then the outbox's probes').
    pub fn suspect(&self, guild: u64) -> bool {
        let c = self.channels.lock().expect("outbox channels");
        c.probe_after.contains_key(&guild)
    }

    /// Whether a handler gave `letter` up (and forgets it).
    pub fn take_released(&self, letter: u64) -> bool {
        self.released.lock().expect("claims").remove(&letter)
    }
}

#[derive(Default)]
/// The outbox's channels (`delivery/outbox.rs`).
pub struct Channels {
    /// Channels a task is delivering to.
    pub busy: std::collections::HashSet<u64>,
    /// Channels whose last post failed, and when to try again.
    pub waiting: std::collections::HashMap<u64, Wait>,
    /// How many channels of each server are being delivered to (0, the DM queues: never capped).
    pub busy_in: std::collections::HashMap<u64, usize>,
    /// Servers whose channels waited for a place at the last sweep: a try that ends there
    /// rings for the next sweep at once.
    pub capped: std::collections::HashSet<u64>,
    /// Servers where a channel refused to Bredon is being tried now (their probe).
    pub probing: std::collections::HashSet<u64>,
    /// Servers whose last probes were refused: their count, when the last was, and when the
    /// next may go.
    pub probe_after: std::collections::HashMap<u64, Wait>,
    /// Refused channels Discord said changed: tried once without their server's probe.
    pub woken: std::collections::HashSet<u64>,
}

/// A channel's wait after failed tries.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wait {
    /// The channel's server (0: none, a DM reader's queue).
    pub guild: u64,
    /// Failed tries in a row.
    pub tries: u32,
    /// When the last one failed, and when to try again.
    pub tried_ms: i64,
    pub at_ms: i64,
    /// The last try was refused (Bredon may not post there): tried again as its server's probe.
    pub refused: bool,
}

/// However often Discord says something changed, a waiting channel is tried again at most this
/// often for it: each refused try counts towards Discord's limit of invalid requests.
const WAKE_GAP_MS: i64 = 30_000;
/// The wait before a server's first probe after a refusal there.
const FIRST_PROBE_WAIT_MS: i64 = 1_000;

impl Channels {
    /// Every waiting channel of `guild` has its next try now, or `WAKE_GAP_MS` after its last
    /// one if that is later (and never later than it was); how many were waiting there.
    pub fn wake_guild(&mut self, guild: u64, now_ms: i64) -> usize {
        if let Some(probe) = self.probe_after.get_mut(&guild) {
            probe.at_ms = probe.at_ms.min(now_ms.max(probe.tried_ms + WAKE_GAP_MS));
        }
        let mut woken = 0;
        for wait in self.waiting.values_mut().filter(|w| w.guild == guild) {
            wait.at_ms = wait.at_ms.min(now_ms.max(wait.tried_ms + WAKE_GAP_MS));
            woken += 1;
        }
        woken
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

use crate::clock::now_ms;

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

    #[test]
    fn a_change_in_a_server_ends_its_waits_but_keeps_their_count() {
        let claims = Claims::default();
        let now = now_ms();
        let wait = |guild, tries, tried_ms| Wait {
            guild,
            tries,
            tried_ms,
            at_ms: now + 300_000,
            refused: true,
        };
        {
            let mut c = claims.channels.lock().unwrap();
            c.waiting.insert(1, wait(7, 4, now - 60_000));
            c.waiting.insert(2, wait(7, 9, now - 1_000));
            c.waiting.insert(3, wait(8, 2, now - 60_000));
        }
        claims.wake_guild(7);
        let c = claims.channels.lock().unwrap();
        assert_eq!(
            c.waiting[&3].at_ms,
            now + 300_000,
            "another server's wait stands"
        );
        let (one, two) = (c.waiting[&1], c.waiting[&2]);
        assert!(one.at_ms <= now_ms() && one.tries == 4, "{one:?}");
        assert_eq!(
            two.at_ms,
            now - 1_000 + WAKE_GAP_MS,
            "not twice in {WAKE_GAP_MS} ms"
        );
        assert_eq!(two.tries, 9);
    }

    #[test]
    fn a_changed_channel_is_tried_outside_its_servers_probes_but_not_twice_in_the_gap() {
        let claims = Claims::default();
        let now = now_ms();
        let wait = |tried_ms| Wait {
            guild: 7,
            tries: 3,
            tried_ms,
            at_ms: now + 300_000,
            refused: true,
        };
        {
            let mut c = claims.channels.lock().unwrap();
            c.waiting.insert(1, wait(now - 60_000));
            c.waiting.insert(2, wait(now - 1_000));
        }
        claims.wake_changed(1);
        claims.wake_changed(2);
        claims.wake_changed(3);
        let c = claims.channels.lock().unwrap();
        assert!(c.waiting[&1].at_ms <= now_ms(), "{:?}", c.waiting[&1]);
        assert_eq!(c.waiting[&2].at_ms, now - 1_000 + WAKE_GAP_MS);
        assert!(c.woken.contains(&1) && c.woken.contains(&2));
        assert!(!c.woken.contains(&3), "a channel owed nothing is not kept");
        assert_eq!(c.waiting[&1].tries, 3, "the count of tries stays");
    }
}
