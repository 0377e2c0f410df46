//! The one backoff of delivery: after each failed try in a row, the wait before the next one
//! doubles, from a first wait up to a longest one, on the bot's clock (`crate::clock::now_ms`).
//! The outbox's channels and servers wait by it (`outbox.rs`), and so do the tournaments'
//! channels where Discord refused a pairing's thread (`timers.rs`). The gate has none of its
//! own: it waits what Discord's `Retry-After` says (`gate/`).

/// A wait that doubles after each failed try in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The wait after the first failed try.
    pub first_ms: i64,
    /// The longest wait, however many tries failed.
    pub longest_ms: i64,
}

impl Backoff {
    /// The wait after `tries` failed tries in a row (the first counts as one).
    pub fn wait_ms(self, tries: u32) -> i64 {
        let doublings = tries.saturating_sub(1).min(20);
        self.first_ms
            .saturating_mul(1 << doublings)
            .min(self.longest_ms)
    }
}

/// The outbox's channels after a failure Discord may mend soon (an outage, a lost answer):
/// an outage of hours costs a try every half minute per channel.
pub const OUTBOX_AFTER_FAILURE: Backoff = Backoff {
    first_ms: 1_000,
    longest_ms: 30_000,
};

/// The outbox's channels where Bredon may not post for now, or that are parked (a lock, a
/// code without a row): each refused try counts towards Discord's invalid requests.
pub const OUTBOX_NOT_ALLOWED: Backoff = Backoff {
    first_ms: 1_000,
    longest_ms: 300_000,
};

/// A tournament's channel where Discord refused to open a pairing's thread.
pub const THREAD_REFUSED: Backoff = Backoff {
    first_ms: 2_000,
    longest_ms: 600_000,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_longest() {
        let outage = OUTBOX_AFTER_FAILURE;
        assert_eq!(outage.wait_ms(1), 1_000);
        assert_eq!(outage.wait_ms(2), 2_000);
        assert_eq!(outage.wait_ms(5), 16_000);
        assert_eq!(outage.wait_ms(6), 30_000);
        assert_eq!(outage.wait_ms(40), 30_000);
        assert_eq!(OUTBOX_NOT_ALLOWED.wait_ms(9), 256_000);
        assert_eq!(OUTBOX_NOT_ALLOWED.wait_ms(40), 300_000);
        assert_eq!(THREAD_REFUSED.wait_ms(1), 2_000);
        assert_eq!(THREAD_REFUSED.wait_ms(10), 600_000);
        assert_eq!(THREAD_REFUSED.wait_ms(u32::MAX), 600_000);
    }
}
