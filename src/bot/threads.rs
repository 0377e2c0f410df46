//! A game's own thread: an action (a challenge, a puzzle) started in a new thread, and the
//! opening of a thread, a create Discord cannot repeat safely (a lost answer may have made one),
//! so each caller looks for one an earlier try made before it makes another.

use super::blocking::blocking;
use super::checks::{may_post, member_may_open_threads, thread_home};
use super::data::interaction;
use super::delivery::failure::{classify, describe, Failure};
use super::delivery::publish::Via;
use super::respond::{refuse, service_ctx};
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
    ctx.defer().await?;
    let guild = ctx.guild_id().map_or(0, |g| g.get());
    let thread = match game_thread(ctx, guild, home, &name, kind).await {
        Ok(thread) => thread,
        Err(e) => {
            interaction.delete_response(ctx.http()).await?;
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
    let http = ctx.http();
    match blocking(&ctx.data().service, move |s| start(s, &sctx)).await {
        Err(refusal) => {
            interaction.delete_response(http).await?;
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
            let answer = format!("{why}{what} in <#{thread}>.");
            let edit = serenity::EditInteractionResponse::new().content(answer);
            interaction.edit_response(http, edit).await?;
            Ok(())
        }
    }
}

/// How long an empty thread a try left stays Bredon's to take for the same game.
const EMPTY_THREAD_KEPT_MS: i64 = 15 * 60_000;

/// The thread for a game named `name` under `home`: an empty one an earlier try left (its
/// answer lost, its game refused, its process stopped) within `EMPTY_THREAD_KEPT_MS`, or a new
/// one. A create whose answer is lost is looked for once more before it counts as failed.
async fn game_thread(
    ctx: Context<'_>,
    guild: u64,
    home: u64,
    name: &str,
    kind: serenity::ChannelType,
) -> serenity::Result<u64> {
    let http = ctx.http();
    let me = ctx.framework().bot_id.get();
    let left_empty = |since_ms: i64| async move {
        let made = made_since(http, guild, home, name, since_ms).await?;
        let mut left = None;
        for thread in made.into_iter().filter(|t| empty_and_made_by(t, me)) {
            let id = thread.id.get();
            let taken = blocking(&ctx.data().service, move |s| s.holds_game_or_challenge(id));
            if !taken.await.unwrap_or(true) {
                left = Some(id);
                break;
            }
        }
        serenity::Result::Ok(left)
    };
    match left_empty(now_ms() - EMPTY_THREAD_KEPT_MS).await {
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
    let asked_ms = now_ms();
    match open(http, home, name, kind).await {
        Ok(thread) => Ok(thread),
        Err(e) if matches!(classify(&e), Failure::Uncertain) => {
            match left_empty(asked_ms - 5_000).await {
                Ok(Some(thread)) => Ok(thread),
                _ => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// Opens a thread named `name` under `home`, archived after a week without messages.
pub async fn open(
    http: &serenity::Http,
    home: u64,
    name: &str,
    kind: serenity::ChannelType,
) -> serenity::Result<u64> {
    let thread = serenity::ChannelId::new(home)
        .create_thread(
            http,
            serenity::CreateThread::new(name)
                .kind(kind)
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
        )
        .await?;
    Ok(thread.id.get())
}

/// The active threads of `guild` under `home` named `name` and made since `since_ms`, newest
/// first (resources/guild, "List Active Guild Threads": ordered by id, descending).
pub async fn made_since(
    http: &serenity::Http,
    guild: u64,
    home: u64,
    name: &str,
    since_ms: i64,
) -> serenity::Result<Vec<serenity::GuildChannel>> {
    let active = serenity::GuildId::new(guild)
        .get_active_threads(http)
        .await?;
    let Ok(since) = serenity::Timestamp::from_millis(since_ms) else {
        return Ok(Vec::new());
    };
    Ok(active
        .threads
        .into_iter()
        .filter(|t| {
            t.parent_id.map(|c| c.get()) == Some(home)
                && t.name == name
                && *t.id.created_at() >= *since
        })
        .collect())
}

/// Whether `thread` was opened by `me` and nothing was ever posted in it: a thread a try made
/// and left before its first post (its answer lost, or its game refused).
pub fn empty_and_made_by(thread: &serenity::GuildChannel, me: u64) -> bool {
    thread.owner_id.map(|o| o.get()) == Some(me)
        && thread.last_message_id.is_none()
        && thread.message_count.unwrap_or(0) == 0
}
