//! A game's own thread: an action (a challenge, a puzzle) started in a new thread. Opening a
//! thread is a create Discord cannot repeat safely (a lost answer may have made one), so an
//! empty thread an earlier try left is taken before another is opened (`delivery/threads.rs`).

use super::blocking::blocking;
use super::checks::{may_post, member_may_open_threads, thread_home};
use super::data::interaction;
use super::delivery::failure::{classify, describe, Failure};
use super::delivery::publish::Via;
use super::delivery::replies::{self, refuse};
use super::delivery::threads::{MadeThread, WantedThread};
use super::post::Post;
use super::respond::service_ctx;
use super::{Context, Error};
use crate::clock::now_ms;
use crate::service::{Ctx, Outcome, Refusal, Service};
use poise::serenity_prelude as serenity;

/// An action in a new thread that stays listed for a week, under this channel or, from a
/// thread, under its parent: `check` first (so a refusal leaves no empty thread behind), then
/// the thread, then `start` in it; its outcome is posted there, and the answer points at it
/// (`why` starts the answer, `what` names what the outcome started).
pub async fn act_in_thread(
    ctx: Context<'_>,
    name: String,
    check: impl FnOnce(&Service, &Ctx) -> Result<(), Refusal> + Send + 'static,
    start: impl FnOnce(&Service, &Ctx) -> Result<Outcome, Refusal> + Send + 'static,
    why: &str,
    what: fn(&Outcome) -> &'static str,
) -> Result<(), Error> {
    if ctx.guild_id().is_none() {
        let why = "threads belong to servers, and a DM or group DM holds none: leave out `thread`";
        return refuse(ctx, Refusal(why.into())).await;
    }
    if let Some(refusal) = may_post(ctx, true) {
        return refuse(ctx, refusal).await;
    }
    if !member_may_open_threads(ctx) {
        let why = "a thread would be opened for this, and you may not open threads here \
                   (Create Public Threads): use a channel without a game, or ask a moderator";
        return refuse(ctx, Refusal(why.into())).await;
    }
    let (home, kind) = match thread_home(ctx) {
        Ok(home) => home,
        Err(refusal) => return refuse(ctx, refusal).await,
    };
    let sctx = service_ctx(ctx);
    if let Err(refusal) = blocking(&ctx.data().service, move |s| check(s, &sctx)).await {
        return refuse(ctx, refusal).await;
    }
    let Some(interaction) = interaction(ctx) else {
        return Ok(());
    };
    // Creating a thread is a round trip to Discord: answer "thinking" first.
    replies::defer(ctx, false).await?;
    let http = ctx.data().publisher.http.as_ref();
    let wanted = WantedThread {
        guild: ctx.guild_id().map_or(0, |g| g.get()),
        home,
        name: &name,
        kind,
    };
    let thread = match game_thread(ctx, &wanted).await {
        Ok(thread) => thread,
        Err(e) => {
            replies::delete_answer(http, &interaction.token).await?;
            let why = match classify(&e) {
                Failure::Uncertain | Failure::RateLimited => format!(
                    "Discord did not say whether the game's thread opened ({}); try again: \
                     Bredon takes the thread if it did",
                    describe(&e)
                ),
                _ => format!(
                    "Discord refused to open the game's thread ({}): challenge in a channel \
                     without a game, or ask a moderator",
                    describe(&e)
                ),
            };
            return refuse(ctx, Refusal(why)).await;
        }
    };
    let mut sctx = service_ctx(ctx);
    sctx.channel = thread;
    // The outcome is announced in the thread, not in the answer to the command.
    sctx.request = None;
    match blocking(&ctx.data().service, move |s| start(s, &sctx)).await {
        Err(refusal) => {
            replies::delete_answer(http, &interaction.token).await?;
            refuse(ctx, refusal).await
        }
        Ok(outcome) => {
            let what = what(&outcome);
            let channel = thread;
            let publisher = &ctx.data().publisher;
            let ready = publisher.ready(outcome).await;
            // Stored: if the thread's post fails, the outbox makes it, and the user is told
            // where it went all the same.
            if let Err(e) = publisher.publish(channel, ready, Via::Channel).await {
                tracing::info!(channel, error = %e, "the new thread's first post waits for the outbox");
            }
            let answer = Post::text(format!("{why}{what} in <#{thread}>."));
            replies::edit_answer(http, &interaction.token, answer).await?;
            Ok(())
        }
    }
}

/// How long an empty thread a try left stays Bredon's to take for the same game.
const EMPTY_THREAD_KEPT_MS: i64 = 15 * 60_000;

/// The thread for a game (`wanted`): an empty one an earlier try left (its answer lost, its game
/// refused, its process stopped) within `EMPTY_THREAD_KEPT_MS`, or a new one.
async fn game_thread(ctx: Context<'_>, wanted: &WantedThread<'_>) -> serenity::Result<u64> {
    let publisher = &ctx.data().publisher;
    // An empty thread of Bredon's that holds no game or challenge yet.
    let left_empty = |made: MadeThread| async move {
        if !made.empty_and_bredons {
            return false;
        }
        let id = made.id;
        let taken = blocking(&publisher.service, move |s| s.holds_game_or_challenge(id));
        !taken.await.unwrap_or(true)
    };
    let since_ms = now_ms() - EMPTY_THREAD_KEPT_MS;
    match publisher.thread_made(wanted, since_ms, left_empty).await {
        Ok(Some(thread)) => {
            tracing::info!(
                thread,
                "a game's thread left empty by an earlier try is taken"
            );
            return Ok(thread);
        }
        Ok(None) => {}
        // Not known: a new thread all the same (at worst an empty one stays behind).
        Err(e) => tracing::info!(error = %describe(&e), "cannot list the active threads"),
    }
    publisher.open_thread(wanted, left_empty).await
}
