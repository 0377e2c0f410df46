//! Before the shards connect: Discord allows a bot so many session starts (IDENTIFYs) a day,
//! 1,000 for most, and resets the token of one that spends them all (events/gateway, "Session
//! Start Limit"), as a supervisor restarting a failing Bredon in a loop would; and one IDENTIFY
//! per `max_concurrency` bucket per 5 seconds ("Rate Limiting"). serenity spaces its own shards'
//! IDENTIFYs 5 s apart within a process; the store spaces the processes sharing it.

use super::blocking::in_store;
use super::delivery::failure;
use super::Shards;
use crate::clock::wall_clock_ms;
use crate::service::Service;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// The longest wait for a turn: a turn reserved by a process whose clock ran ahead must not
/// keep the others from starting for good.
const LONGEST_TURN_WAIT_MS: i64 = 10 * 60_000;

/// Waits until this process may IDENTIFY: with a tenth or less of the day's session starts left,
/// until their count resets (saying why); then until its turn among the processes sharing the
/// store, a turn per shard, `spacing` apart (6 s unless a test shortens it: Discord's window
/// for one bucket, so it holds whatever `max_concurrency` is, as serenity's own spacing does,
/// and a second for one process taking longer than the other to connect before it IDENTIFYs). Through a gateway proxy (`proxied`) the proxy identifies,
/// and there is no turn to take. The turns space each process's first IDENTIFYs; serenity spaces
/// a process's later ones (after an invalid session) among its own shards only.
pub async fn wait_to_identify(
    http: &serenity::Http,
    service: &Arc<Service>,
    shards: Shards,
    proxied: bool,
    spacing: Duration,
) {
    let gateway = match http.get_bot_gateway().await {
        Ok(gateway) => Some(gateway),
        Err(e) => {
            tracing::warn!(error = %failure::describe(&e), "cannot read the session start limit");
            None
        }
    };
    if let Some(limit) = gateway.as_ref().map(|g| &g.session_start_limit) {
        if limit.remaining <= (limit.total / 10).max(1) {
            tracing::error!(
                remaining = limit.remaining,
                total = limit.total,
                wait_secs = limit.reset_after / 1000,
                "Discord allows few more session starts today: Bredon waits for their count to \
                 reset rather than risk its token being reset (is something restarting it in a \
                 loop?)"
            );
            tokio::time::sleep(Duration::from_millis(limit.reset_after)).await;
        }
    }
    if proxied {
        return;
    }
    let count = match shards {
        Shards::Auto => gateway.map_or(1, |g| g.shards),
        Shards::Range { first, last, .. } => last - first + 1,
    };
    let now = wall_clock_ms();
    let spacing_ms = spacing.as_millis() as i64;
    let turn = in_store(service, move |s| s.gateway_turn(count, now, spacing_ms)).await;
    match turn {
        Ok(Ok(start)) if start > now => {
            let wait_ms = (start - now).min(LONGEST_TURN_WAIT_MS);
            tracing::info!(
                wait_ms,
                "another process identifies at Discord's gateway: waiting for this one's turn"
            );
            tokio::time::sleep(Duration::from_millis(wait_ms as u64)).await;
        }
        Ok(Ok(_)) => {}
        Ok(Err(why)) => tracing::warn!(%why, "no turn at the gateway could be reserved"),
        Err(e) => tracing::warn!(error = %e, "no turn at the gateway could be reserved"),
    }
}
