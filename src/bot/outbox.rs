//! The outbox loop: delivers every stored outcome no handler is delivering (one whose handler
//! failed, was killed, or never existed, as after a restart), a channel's outcomes in the order
//! they were made, each channel on a task of its own. A channel whose post failed waits before
//! the next try, twice as long after each try that delivered nothing, up to `MOST_WAIT`: an
//! outage of hours costs a try every half minute per channel and loses nothing, and once Discord
//! is back, each try that gets something through starts the waits again from `FIRST_WAIT`.
//! Processes sharing one store (PostgreSQL) each run this loop: a letter is delivered by the
//! process that holds it in the store (`Service::hold_letter`), the others leave it alone until
//! that hold runs out.

use super::data::{now_ms, Publisher};
use super::publish::Undelivered;
use crate::store::records::LetterHead;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the outbox is looked at when nothing rings.
const SWEEP: Duration = Duration::from_secs(1);
/// A letter this young belongs to the handler that made it, unless it gave it up.
const YOUNG_MS: i64 = 10_000;
/// The first wait after a failed post, and the longest.
const FIRST_WAIT: Duration = Duration::from_secs(1);
const MOST_WAIT: Duration = Duration::from_secs(30);
/// How long a process holds a letter it delivers: well past the few requests of a delivery
/// (each at most `HTTP_TIMEOUT`), so a process that dies holding one delays it by this at most.
const HOLD_MS: i64 = 120_000;

#[derive(Default)]
struct Channels {
    /// Channels a task is delivering to.
    busy: HashSet<u64>,
    /// Channels whose last post failed: how many times in a row, and when to try again.
    waiting: HashMap<u64, (u32, Instant)>,
}

pub async fn outbox_loop(publisher: Arc<Publisher>) {
    let channels = Arc::new(Mutex::new(Channels::default()));
    loop {
        tokio::select! {
            _ = publisher.claims.bell.notified() => {}
            _ = tokio::time::sleep(SWEEP) => {}
        }
        let s = Arc::clone(&publisher.service);
        let owed = match tokio::task::spawn_blocking(move || s.owed()).await {
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
        let now = Instant::now();
        for (channel, owed) in by_channel {
            {
                let mut c = channels.lock().expect("outbox channels");
                let waits = c.waiting.get(&channel).is_some_and(|(_, at)| *at > now);
                if waits || !c.busy.insert(channel) {
                    continue;
                }
            }
            let (publisher, channels) = (Arc::clone(&publisher), Arc::clone(&channels));
            tokio::spawn(async move {
                let (delivered, result) = deliver_in_order(&publisher, owed).await;
                let mut c = channels.lock().expect("outbox channels");
                c.busy.remove(&channel);
                match result {
                    Ok(()) => {
                        if let Some((tries, _)) = c.waiting.remove(&channel) {
                            tracing::info!(channel, tries, "owed messages delivered");
                        }
                    }
                    Err(why) => {
                        let before = match delivered {
                            0 => c.waiting.get(&channel).map_or(0, |(n, _)| *n),
                            _ => 0,
                        };
                        let tries = before + 1;
                        let wait = FIRST_WAIT
                            .saturating_mul(1 << (tries - 1).min(5))
                            .min(MOST_WAIT);
                        tracing::info!(channel, tries, ?wait, %why, "an owed message waits");
                        c.waiting.insert(channel, (tries, Instant::now() + wait));
                    }
                }
            });
        }
    }
}

/// Delivers a channel's owed outcomes oldest first, stopping at one a handler holds (or may be
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
            || publisher.service.held_elsewhere(&head, now)
        {
            break;
        }
        let Some(claim) = publisher.claims.claim(letter) else {
            break;
        };
        match publisher.service.hold_letter(letter, now, HOLD_MS) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return (delivered, Err(Undelivered::Later(e.to_string()))),
        }
        match publisher.deliver(letter, claim).await {
            Ok(()) | Err(Undelivered::Gone) => delivered += 1,
            Err(later) => return (delivered, Err(later)),
        }
    }
    (delivered, Ok(()))
}
