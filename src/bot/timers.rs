//! The timer loop: reminders, time-outs and expired challenges, and the tournaments' work (their
//! news and a thread for each new pairing's game). Everything it posts goes through the
//! publisher as channel messages.

use super::blocking::in_store;
use super::data::Publisher;
use super::data::TOURNAMENT_NEWS;
use super::delivery::backoff::THREAD_REFUSED;
use super::delivery::failure::{classify, describe, Failure};
use super::delivery::outbox::AT_ONCE_PER_SERVER;
use super::delivery::publish::Via;
use super::delivery::threads::WantedThread;
use crate::clock::now_ms;
use crate::service::{Outcome, PendingPairing, Refusal, TimerEvent};
use futures_util::StreamExt;
use poise::serenity_prelude as serenity;
use serenity::ChannelType::PublicThread;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// Posts reminders, time-outs and expired challenges, and does the tournaments' work (their news
/// and their new games' threads), at every tick and whenever an outcome touched a tournament.
/// Due times and pending pairings live in the store, so a restart picks up where the last
/// process stopped; each fires once (the service stores it first).
pub async fn timer_loop(publisher: Arc<Publisher>, every: Duration) {
    let mut interval = tokio::time::interval(every);
    let mut refused = Refused::default();
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = TOURNAMENT_NEWS.notified() => {}
        }
        let events = match in_store(&publisher.service, |s| s.tick(now_ms())).await {
            Ok(Ok(events)) => events,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "timers");
                continue;
            }
            Err(e) => {
                tracing::error!(error = %e, "timer task failed");
                continue;
            }
        };
        tracing::debug!(events = events.len(), "timers checked");
        let mut by_guild: HashMap<u64, Vec<TimerEvent>> = HashMap::new();
        for event in events {
            by_guild.entry(event.guild).or_default().push(event);
        }
        for (_, events) in by_guild {
            let publisher = Arc::clone(&publisher);
            // Each server on its own task, a few of its channels at a time: one slow retry
            // never holds up the others, and once Discord refuses Bredon a post there, the
            // server's other posts are left to the outbox's probe (`Publisher::send`) instead
            // of each meeting the refusal (topics/rate-limits, "Invalid Request Limit").
            tokio::spawn(async move {
                futures_util::stream::iter(events)
                    .for_each_concurrent(AT_ONCE_PER_SERVER, |event| post_event(&publisher, event))
                    .await;
            });
        }
        tournament_work(&publisher, &mut refused).await;
    }
}

/// Posts an event as a channel message.
async fn post_event(publisher: &Arc<Publisher>, event: TimerEvent) {
    post_outcome(publisher, event.channel, event.outcome).await;
}

async fn post_outcome(publisher: &Arc<Publisher>, channel: u64, outcome: Outcome) {
    let ready = publisher.ready(outcome).await;
    if let Err(e) = publisher.publish(channel, ready, Via::Channel).await {
        tracing::info!(channel, error = %e, "a timer's message is not posted yet");
    }
}

/// Tournament channels where Discord refused to open a thread: how many tries in a row, and when
/// to try again, on the bot's clock (`backoff::THREAD_REFUSED`).
#[derive(Default)]
struct Refused(HashMap<u64, (u32, i64)>);

impl Refused {
    fn waits(&self, channel: u64) -> bool {
        self.0
            .get(&channel)
            .is_some_and(|(_, at_ms)| *at_ms > now_ms())
    }

    fn failed(&mut self, channel: u64) {
        let tries = self.0.get(&channel).map_or(0, |(n, _)| *n) + 1;
        let wait_ms = THREAD_REFUSED.wait_ms(tries);
        self.0.insert(channel, (tries, now_ms() + wait_ms));
    }
}

/// Posts tournament news in their channels and opens a thread for each new pairing. Called by
/// the timer loop only (one task), so a pairing is never opened twice by this process; the
/// service refuses a second opening anyway.
async fn tournament_work(publisher: &Arc<Publisher>, refused: &mut Refused) {
    let service = &publisher.service;
    let news = in_store(service, |s| s.tournament_news(now_ms())).await;
    match news {
        Ok(Ok(events)) => {
            for event in events {
                post_event(publisher, event).await;
            }
        }
        Ok(Err(e)) => tracing::warn!(error = %e, "tournament news"),
        Err(e) => tracing::error!(error = %e, "tournament news failed"),
    }
    let pending = match in_store(service, |s| s.pending_pairings()).await {
        Ok(Ok(p)) => p,
        _ => return,
    };
    for p in pending {
        if refused.waits(p.channel) {
            continue;
        }
        let fixture = p.fixture;
        let leased = in_store(service, move |s| {
            s.lease_pairing_thread(fixture, now_ms(), THREAD_LEASE_MS)
        })
        .await;
        let Ok(Ok(Some(lease))) = leased else {
            continue;
        };
        let earlier_since_ms = (lease.tries > 1).then_some(lease.since_ms);
        let Some(thread) = pairing_thread(publisher, &p, earlier_since_ms, refused).await else {
            continue;
        };
        let fixture = p.fixture;
        let started = in_store(service, move |s| s.start_pairing(fixture, thread, now_ms())).await;
        match started {
            Ok(Ok(Some(outcome))) => post_outcome(publisher, thread, outcome).await,
            Ok(Ok(None)) => {}
            Ok(Err(Refusal(why))) => tracing::warn!(%why, "a tournament game did not start"),
            Err(e) => tracing::error!(error = %e, "starting a tournament game failed"),
        }
    }
}

/// How long a process's lease on opening a pairing's thread runs: well past a few requests' time
/// (each at most 30 s, and rate limits may keep one waiting), so one that dies leaves it to another in
/// minutes.
const THREAD_LEASE_MS: i64 = 300_000;

/// The thread of pairing `p`, looked for first when an earlier try since `earlier_since_ms`
/// may have made it (its answer lost), else opened; `None` when Discord refused or the look
/// failed (unknown whether an earlier try made it: no new thread before a look), and the
/// channel waits (`refused`).
async fn pairing_thread(
    publisher: &Arc<Publisher>,
    p: &PendingPairing,
    earlier_since_ms: Option<i64>,
    refused: &mut Refused,
) -> Option<u64> {
    let wanted = WantedThread {
        guild: p.guild,
        home: p.channel,
        name: &p.name,
        kind: PublicThread,
    };
    let any = |_| async { true };
    if let Some(since_ms) = earlier_since_ms {
        match publisher.thread_made(&wanted, since_ms - 5_000, any).await {
            Ok(Some(thread)) => {
                tracing::info!(thread, "a tournament game's thread made by an earlier try");
                refused.0.remove(&p.channel);
                return Some(thread);
            }
            Ok(None) => {}
            Err(e) => {
                tracing::info!(channel = p.channel, error = %describe(&e), "cannot list the active threads");
                refused.failed(p.channel);
                return None;
            }
        }
    }
    match publisher.open_thread(&wanted, any).await {
        Ok(thread) => {
            refused.0.remove(&p.channel);
            Some(thread)
        }
        Err(e) => {
            tracing::warn!(channel = p.channel, error = %describe(&e), "cannot open a tournament game's thread");
            refused.failed(p.channel);
            if !matches!(classify(&e), Failure::Uncertain | Failure::RateLimited) {
                tell_refused(publisher, p.fixture.tournament, p.channel, &e).await;
            }
            None
        }
    }
}

/// Tells the tournament's channel (once, until a thread opens) why its games cannot start.
async fn tell_refused(
    publisher: &Arc<Publisher>,
    tournament: u64,
    channel: u64,
    error: &serenity::Error,
) {
    let why = match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.error.message.clone()
        }
        other => other.to_string(),
    };
    let told = in_store(&publisher.service, move |s| {
        s.threads_refused(tournament, &why, now_ms())
    });
    if let Ok(Ok(Some(outcome))) = told.await {
        post_outcome(publisher, channel, outcome).await;
    }
}
