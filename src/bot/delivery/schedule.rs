//! The outbox's schedule (`outbox.rs`): which channels it is delivering to, which wait after a
//! failed try and until when, the suspect servers and their probes; woken when Discord says a
//! channel, a thread or a role changed (a permission given back, perhaps), and told of a refusal
//! met on any path (`Publisher::wake_guild` and the rest, in `outbox.rs`).

use std::collections::{HashMap, HashSet};

#[derive(Default)]
pub struct Schedule {
    /// Channels a task is delivering to.
    pub busy: HashSet<u64>,
    /// Channels whose last post failed, and when to try again.
    pub waiting: HashMap<u64, Wait>,
    /// How many channels of each server are being delivered to (0, the DM queues: never capped).
    pub busy_in: HashMap<u64, usize>,
    /// Servers whose channels waited for a place at the last sweep: a try that ends there
    /// rings for the next sweep at once.
    pub capped: HashSet<u64>,
    /// Servers where a channel refused to Bredon is being tried now (their probe).
    pub probing: HashSet<u64>,
    /// Servers whose last probes were refused: their count, when the last was, and when the
    /// next may go.
    pub probe_after: HashMap<u64, Wait>,
    /// Refused channels Discord said changed: tried once without their server's probe.
    pub woken: HashSet<u64>,
}

/// A channel's wait after failed tries (`backoff.rs`), or a suspect server's before its next
/// probe.
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

impl Schedule {
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

    /// `channel` is tried at its next sweep outside its server's probes, but not twice in
    /// `WAKE_GAP_MS`; whether it was waiting.
    pub(super) fn wake_changed(&mut self, channel: u64, now_ms: i64) -> bool {
        let Some(wait) = self.waiting.get_mut(&channel) else {
            return false;
        };
        wait.at_ms = wait.at_ms.min(now_ms.max(wait.tried_ms + WAKE_GAP_MS));
        self.woken.insert(channel);
        true
    }

    /// `channel` is tried now, outside its server's probes: its wait, if it had one.
    pub(super) fn wake(&mut self, channel: u64) -> Option<Wait> {
        let waited = self.waiting.remove(&channel);
        if waited.is_some() {
            self.woken.insert(channel);
        }
        waited
    }

    /// A refused post in `channel` of `guild`: the channel waits as refused, and its server
    /// turns suspect (its refused channels tried one probe at a time).
    pub(super) fn note_refused(&mut self, guild: u64, channel: u64, now_ms: i64) {
        let refused = Wait {
            guild,
            tries: 1,
            tried_ms: now_ms,
            at_ms: now_ms + FIRST_PROBE_WAIT_MS,
            refused: true,
        };
        self.probe_after.entry(guild).or_insert(refused);
        self.waiting.entry(channel).or_insert(refused);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::now_ms;

    #[test]
    fn a_change_in_a_server_ends_its_waits_but_keeps_their_count() {
        let mut schedule = Schedule::default();
        let now = now_ms();
        let wait = |guild, tries, tried_ms| Wait {
            guild,
            tries,
            tried_ms,
            at_ms: now + 300_000,
            refused: true,
        };
        schedule.waiting.insert(1, wait(7, 4, now - 60_000));
        schedule.waiting.insert(2, wait(7, 9, now - 1_000));
        schedule.waiting.insert(3, wait(8, 2, now - 60_000));
        assert_eq!(schedule.wake_guild(7, now), 2);
        let waiting = &schedule.waiting;
        assert_eq!(
            waiting[&3].at_ms,
            now + 300_000,
            "another server's wait stands"
        );
        let (one, two) = (waiting[&1], waiting[&2]);
        assert!(one.at_ms <= now && one.tries == 4, "{one:?}");
        assert_eq!(
            two.at_ms,
            now - 1_000 + WAKE_GAP_MS,
            "not twice in {WAKE_GAP_MS} ms"
        );
        assert_eq!(two.tries, 9);
    }

    #[test]
    fn a_changed_channel_is_tried_outside_its_servers_probes_but_not_twice_in_the_gap() {
        let mut schedule = Schedule::default();
        let now = now_ms();
        let wait = |tried_ms| Wait {
            guild: 7,
            tries: 3,
            tried_ms,
            at_ms: now + 300_000,
            refused: true,
        };
        schedule.waiting.insert(1, wait(now - 60_000));
        schedule.waiting.insert(2, wait(now - 1_000));
        assert!(schedule.wake_changed(1, now));
        assert!(schedule.wake_changed(2, now));
        assert!(!schedule.wake_changed(3, now));
        assert!(
            schedule.waiting[&1].at_ms <= now,
            "{:?}",
            schedule.waiting[&1]
        );
        assert_eq!(schedule.waiting[&2].at_ms, now - 1_000 + WAKE_GAP_MS);
        assert!(schedule.woken.contains(&1) && schedule.woken.contains(&2));
        assert!(
            !schedule.woken.contains(&3),
            "a channel owed nothing is not kept"
        );
        assert_eq!(schedule.waiting[&1].tries, 3, "the count of tries stays");
    }
}
