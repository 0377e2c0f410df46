//! The outbox loop: delivers every stored outcome no handler is delivering (one whose handler
//! failed, was killed, or never existed, as after a restart), a channel's outcomes in the order
//! they were made, each channel on a task of its own. A channel whose post failed waits before
//! the next try, twice as long after each try that delivered nothing (`backoff.rs`), up to half
//! a minute (`OUTBOX_AFTER_FAILURE`): an outage of hours costs a try every half minute per
//! channel and loses nothing, and once Discord is back, each try that gets something through
//! starts the waits again from the first. A channel where Bredon may not post for now (a
//! permission taken away) waits up to five minutes between tries (`OUTBOX_NOT_ALLOWED`), since
//! each refused try counts towards Discord's limit of invalid requests (topics/rate-limits), and
//! is tried at once when Discord says a channel or a role changed in its server
//! (`Publisher::wake_guild`). Waits run on the bot's clock (`now_ms`).
//! Processes sharing one store (PostgreSQL) each run this loop: a letter is delivered by the
//! process that holds its lease in the store (given with the change to the process that made
//! it; taken with the next epoch once it lapsed, `Service::lease_letter`), the others leave it
//! alone until the lease lapses or is let go after a failed try. Every note of a part is
//! written under the lease's epoch, and each request runs inside the lease (`posting.rs`), so a
//! process whose lease lapsed can neither note nor post what another delivers.

use super::backoff::{OUTBOX_AFTER_FAILURE, OUTBOX_NOT_ALLOWED};
use super::posting::Undelivered;
use super::schedule::{Schedule, Wait};
use crate::bot::blocking::in_store;
use crate::bot::data::Publisher;
use crate::clock::now_ms;
use crate::service::LEASE_MS;
use crate::store::records::LetterHead;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

/// How often the refusals the servers were told are read again (other processes sharing the
/// store tell and clear them too).
const REFUSALS_READ: Duration = Duration::from_secs(60);
/// A letter this young belongs to the handler that made it, unless it gave it up.
const YOUNG_MS: i64 = 10_000;
/// How many of a server's channels are delivered to at once (the timers post as many).
pub(in crate::bot) const AT_ONCE_PER_SERVER: usize = 4;
/// Invalid requests (401, 403, 429) in Discord's window of 10 minutes past which this process
/// tries no refused channel: well under a tenth of the 10,000 that get a bot's address banned
/// for an hour (topics/rate-limits, "Invalid Request Limit"), leaving room below 1,000 for what
/// handlers and timers try first (500 servers each refusing, with typed plies: 950 at 1,000).
const INVALID_BUDGET: usize = 800;

pub async fn outbox_loop(publisher: Arc<Publisher>) {
    let schedule = Arc::clone(&publisher.schedule);
    // The first sweep at once: what a stopped process left owed goes out now.
    let mut first = true;
    let mut refusals_read: Option<std::time::Instant> = None;
    loop {
        if !std::mem::take(&mut first) {
            tokio::select! {
                _ = publisher.claims.bell.notified() => {}
                _ = tokio::time::sleep(publisher.waits.outbox_sweep) => {}
            }
        }
        if publisher.fatal.reason().is_some() {
            return;
        }
        if publisher.held_back() {
            // Discord holds this process back: other processes deliver meanwhile.
            continue;
        }
        if refusals_read.is_none_or(|at| at.elapsed() >= REFUSALS_READ) {
            publisher.reload_refusals().await;
            refusals_read = Some(std::time::Instant::now());
        }
        let owed = match in_store(&publisher.service, |s| s.owed()).await {
            Ok(Ok(owed)) => owed,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "the outbox cannot be read");
                continue;
            }
            Err(e) => {
                tracing::error!(error = %e, "reading the outbox failed");
                continue;
            }
        };
        let mut by_channel: BTreeMap<u64, Vec<LetterHead>> = BTreeMap::new();
        for head in owed {
            by_channel.entry(head.channel).or_default().push(head);
        }
        let swept = by_channel.len();
        for (channel, owed, probe) in due(&publisher, by_channel) {
            let guild = owed.first().map_or(0, |head| head.guild);
            let (publisher, schedule) = (Arc::clone(&publisher), Arc::clone(&schedule));
            tokio::spawn(async move {
                let (delivered, result) = deliver_in_order(&publisher, owed).await;
                let mut c = schedule.lock().expect("outbox schedule");
                c.busy.remove(&channel);
                if let Some(busy) = c.busy_in.get_mut(&guild) {
                    *busy -= 1;
                    if *busy == 0 {
                        c.busy_in.remove(&guild);
                    }
                }
                if c.capped.remove(&guild) {
                    // The server's other channels wait for a place: the next sweep now.
                    publisher.claims.bell.notify_one();
                }
                if probe {
                    c.probing.remove(&guild);
                }
                after_try(&mut c, channel, guild, probe, delivered, result);
            });
        }
        // What a test waits for instead of sleeping through a sweep's period.
        tracing::debug!(channels = swept, "outbox swept");
    }
}

impl Publisher {
    fn schedule(&self) -> std::sync::MutexGuard<'_, Schedule> {
        self.schedule.lock().expect("outbox schedule")
    }

    /// Discord says a channel or a role of server `guild` changed (a permission given back,
    /// perhaps): every channel of that server waiting after a failure is due at its next
    /// sweep, the refused ones one probe at a time (below). Bredon does not keep which
    /// channels a role or a parent's overrides open (a thread's permissions are its parent's),
    /// so all of the server's are; the count of failed tries stays, so the waits after a
    /// refusal keep growing.
    pub fn wake_guild(&self, guild: u64) {
        let woken = self.schedule().wake_guild(guild, now_ms());
        if woken > 0 {
            tracing::info!(
                guild,
                channels = woken,
                "Discord says something changed in a server; what is owed there is tried again"
            );
            self.claims.bell.notify_one();
        }
    }

    /// Discord says `channel` is open again, or changed (a thread unlocked or reopened, its
    /// overrides edited): what it is owed is tried now, without waiting for its server's probe.
    pub fn wake(&self, channel: u64) {
        let waited = self.schedule().wake(channel);
        if let Some(wait) = waited {
            tracing::info!(
                channel,
                tries = wait.tries,
                "a channel open again: what it is owed is tried now"
            );
            self.claims.bell.notify_one();
        }
    }

    /// Discord says `channel`'s overrides changed (a permission given back there, perhaps): it
    /// is tried at its next sweep outside its server's probes, but not twice in half a minute.
    pub fn wake_changed(&self, channel: u64) {
        let woken = self.schedule().wake_changed(channel, now_ms());
        if woken {
            self.claims.bell.notify_one();
        }
    }

    /// Discord refused Bredon a post in `channel` of server `guild`, on any path: the channel
    /// waits as refused, and from now on the server's refused channels are tried one probe
    /// at a time (below), until a probe goes through.
    pub(super) fn note_refused(&self, guild: u64, channel: u64) {
        if guild != 0 {
            self.schedule().note_refused(guild, channel, now_ms());
        }
    }

    /// Whether Discord refused Bredon a post in server `guild` since a post there last went
    /// through (its channels are then the outbox's probes').
    pub(super) fn suspect(&self, guild: u64) -> bool {
        self.schedule().probe_after.contains_key(&guild)
    }
}

/// The channels to deliver to at this sweep (each marked busy), with whether it is its
/// server's probe. A channel waits out its wait after a failed try. A server where Discord
/// refused Bredon a post is suspect (`Publisher::note_refused`) until a post there goes through:
/// meanwhile its channels are tried one at a time (its probe: the channel tried longest ago,
/// one never tried first), the next not before the server's own wait, which grows with each
/// failed probe, and no more at a sweep than this process's invalid requests leave room for
/// below `INVALID_BUDGET`. A
/// probe that goes through clears the server and wakes its channels; a server that is not
/// suspect has at most `AT_ONCE_PER_SERVER` channels tried at once. So a role taken from
/// Bredon in a server of hundreds of games costs one refused request per wait, not one per
/// game; a channel Discord says changed (`Publisher::wake`) is tried at once all the same.
fn due(
    publisher: &Publisher,
    by_channel: BTreeMap<u64, Vec<LetterHead>>,
) -> Vec<(u64, Vec<LetterHead>, bool)> {
    let now = now_ms();
    // Each probe may be refused: a sweep probes no more servers than the budget has room for.
    let mut room = INVALID_BUDGET.saturating_sub(publisher.gate.invalid_in_window());
    let mut c = publisher.schedule.lock().expect("outbox schedule");
    let mut due = Vec::new();
    // Each suspect server's probe so far: when it was last tried, the channel, what it owes.
    let mut probes: HashMap<u64, (i64, u64, Vec<LetterHead>)> = HashMap::new();
    for (channel, owed) in by_channel {
        let guild = owed.first().map_or(0, |head| head.guild);
        let wait = c.waiting.get(&channel).copied();
        if wait.is_some_and(|w| w.at_ms > now) || c.busy.contains(&channel) {
            continue;
        }
        let server = c.probe_after.get(&guild).copied();
        let Some(server) = server.filter(|_| !c.woken.contains(&channel)) else {
            // A few of a server's channels at a time: if Discord refuses Bredon there, the
            // server turns suspect before the rest are tried (after a restart, say).
            let busy = c.busy_in.get(&guild).copied().unwrap_or(0);
            if guild != 0 && busy >= AT_ONCE_PER_SERVER {
                c.capped.insert(guild);
                continue;
            }
            *c.busy_in.entry(guild).or_default() += 1;
            due.push((channel, owed, false));
            continue;
        };
        if room == 0 || server.at_ms > now || c.probing.contains(&guild) {
            continue;
        }
        let tried = wait.map_or(i64::MIN, |w| w.tried_ms);
        match probes.get(&guild) {
            None => {
                room -= 1;
                probes.insert(guild, (tried, channel, owed));
            }
            Some((best, ..)) if tried < *best => {
                probes.insert(guild, (tried, channel, owed));
            }
            Some(_) => {}
        }
    }
    for (guild, (_, channel, owed)) in probes {
        c.probing.insert(guild);
        *c.busy_in.entry(guild).or_default() += 1;
        due.push((channel, owed, true));
    }
    for (channel, ..) in &due {
        c.busy.insert(*channel);
        c.woken.remove(channel);
    }
    due
}

/// What a try at `channel` leaves: its wait, and for a probe its server's.
fn after_try(
    c: &mut Schedule,
    channel: u64,
    guild: u64,
    probe: bool,
    delivered: usize,
    result: Result<(), Undelivered>,
) {
    let now = now_ms();
    let backoff = match &result {
        // A probe that stopped before trying (its letter claimed by a handler, or leased by another
        // process) says nothing of the server.
        Ok(()) if probe && delivered == 0 => return,
        Ok(()) => {
            if let Some(Wait { tries, .. }) = c.waiting.remove(&channel) {
                tracing::info!(channel, tries, "owed messages delivered");
            }
            if probe && c.probe_after.remove(&guild).is_some() {
                tracing::info!(
                    guild,
                    "Bredon may post in a server again: its other channels are tried now"
                );
                c.wake_guild(guild, now);
            }
            return;
        }
        Err(Undelivered::NotAllowed(_) | Undelivered::Parked(_)) => OUTBOX_NOT_ALLOWED,
        Err(_) => OUTBOX_AFTER_FAILURE,
    };
    let before = match delivered {
        0 => c.waiting.get(&channel).map_or(0, |w| w.tries),
        _ => 0,
    };
    let tries = before + 1;
    let wait = backoff.wait_ms(tries);
    let refused = matches!(result, Err(Undelivered::NotAllowed(_)));
    if let Err(why) = result {
        tracing::info!(channel, tries, wait_ms = wait, %why, "an owed message waits");
    }
    let waiting = Wait {
        guild,
        tries,
        tried_ms: now,
        at_ms: now + wait,
        refused,
    };
    c.waiting.insert(channel, waiting);
    if let Some(server) = c.probe_after.get_mut(&guild).filter(|_| probe) {
        server.tries += 1;
        server.tried_ms = now;
        server.at_ms = now + backoff.wait_ms(server.tries);
    }
}

/// Delivers a channel's owed outcomes oldest first, stopping at one a handler claimed (or may be
/// about to claim) and at the first failure, so they never arrive out of order. How many were
/// delivered, and whether all were.
async fn deliver_in_order(
    publisher: &Publisher,
    owed: Vec<LetterHead>,
) -> (usize, Result<(), Undelivered>) {
    let mut delivered = 0;
    for head in owed {
        let letter = head.id;
        let released = publisher.claims.take_released(letter);
        let now = now_ms();
        if !released && now - head.created_ms < YOUNG_MS
            || publisher.service.leased_elsewhere(&head, now)
        {
            break;
        }
        let Some(claim) = publisher.claims.claim(letter) else {
            break;
        };
        let leased = in_store(&publisher.service, move |s| {
            s.lease_letter(letter, now, LEASE_MS)
        })
        .await;
        let epoch = match leased {
            Ok(Ok(Some(epoch))) => epoch,
            Ok(Ok(None)) => break,
            Ok(Err(e)) => return (delivered, Err(Undelivered::Later(e.to_string()))),
            Err(e) => return (delivered, Err(Undelivered::Later(e.to_string()))),
        };
        match publisher.deliver(letter, epoch, claim).await {
            Ok(()) | Err(Undelivered::Gone) => delivered += 1,
            // Another process delivers it, and the channel's later letters after it.
            Err(Undelivered::Fenced) => break,
            Err(undelivered) => {
                publisher.let_go(letter, epoch).await;
                return (delivered, Err(undelivered));
            }
        }
    }
    (delivered, Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_probes_grow_their_servers_wait_and_one_that_goes_through_wakes_the_server() {
        let mut c = Schedule::default();
        let refused = || Err(Undelivered::NotAllowed("403".into()));
        let now = now_ms();
        let suspect = Wait {
            guild: 7,
            tries: 1,
            tried_ms: now - 60_000,
            at_ms: now,
            refused: true,
        };
        c.probe_after.insert(7, suspect);
        // Two channels of server 7 refused, one of server 8.
        after_try(&mut c, 1, 7, false, 0, refused());
        after_try(&mut c, 2, 7, false, 0, refused());
        after_try(&mut c, 3, 8, false, 0, refused());
        assert!(c.waiting.values().all(|w| w.refused && w.tries == 1));
        assert_eq!(
            c.probe_after[&7].tries, 1,
            "only probes count for the server"
        );
        for probe in 2..=4 {
            after_try(&mut c, 1, 7, true, 0, refused());
            let server = c.probe_after[&7];
            assert_eq!(server.tries, probe);
            let wait = OUTBOX_NOT_ALLOWED.wait_ms(probe);
            assert_eq!(server.at_ms - server.tried_ms, wait);
        }
        after_try(&mut c, 2, 7, true, 0, Ok(()));
        assert_eq!(
            c.probe_after[&7].tries, 4,
            "a probe that tried nothing tells nothing"
        );
        // Channel 1 was tried just now: woken, but not before the gap between wakes.
        c.waiting.get_mut(&1).unwrap().tried_ms = now - 60_000;
        after_try(&mut c, 2, 7, true, 1, Ok(()));
        assert!(!c.probe_after.contains_key(&7), "the server is open again");
        assert!(!c.waiting.contains_key(&2));
        assert!(
            c.waiting[&1].at_ms <= now_ms(),
            "woken: {:?}",
            c.waiting[&1]
        );
        assert!(
            c.waiting[&3].at_ms > now_ms(),
            "another server's wait stands"
        );
        after_try(
            &mut c,
            1,
            7,
            false,
            0,
            Err(Undelivered::Later("503".into())),
        );
        assert!(!c.waiting[&1].refused, "an outage is no refusal");
    }
}
