//! Gateway events that matter to games (presses and forms, threads archived, channels deleted,
//! Bredon removed from a server) and the framework's errors, answered so users know what to do.

use super::blocking::blocking;
use super::delivery::failure::{classify, describe, Failure};
use super::delivery::posting::Undelivered;
use super::delivery::replies::{self, refuse, Asked};
use super::delivery::threads::ThreadState;
use super::post::{escape, Post};
use super::press::{on_move_modal, on_press};
use super::typed::on_message;
use super::visibility;
use super::{Context, Data, Error};
use crate::service::Refusal;
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// Gateway events: button presses, and the channel changes that matter to games (a thread
/// archived, a channel deleted, Bredon removed from a server, who may see a channel).
pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => {
            seen_in(data, press.context, press.channel_id);
            on_press(press, data).await
        }
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Modal(submit),
        } => on_move_modal(submit, data).await,
        serenity::FullEvent::Message { new_message } => {
            on_message(ctx, new_message, data).await;
            Ok(())
        }
        serenity::FullEvent::GuildCreate { guild, .. } => {
            reopen_archived_threads(guild, data).await;
            visibility::tell(ctx, data, guild.id).await;
            Ok(())
        }
        serenity::FullEvent::ThreadUpdate { new, .. } => {
            if let Some(thread) = ThreadState::of(new) {
                on_thread_update(thread, data).await;
            }
            visibility::tell(ctx, data, new.guild_id).await;
            Ok(())
        }
        // Who may see a channel or thread changed, perhaps: the web pages follow.
        serenity::FullEvent::ChannelCreate { channel }
        | serenity::FullEvent::ThreadCreate {
            thread: channel, ..
        } => {
            visibility::tell(ctx, data, channel.guild_id).await;
            Ok(())
        }
        // A permission given back in that server, perhaps: what waits there is tried now (not
        // in every server: each refused try counts towards Discord's invalid requests), the
        // channel itself outside its server's probes.
        serenity::FullEvent::ChannelUpdate { new, .. } => {
            data.publisher.wake_changed(new.id.get());
            data.publisher.wake_guild(new.guild_id.get());
            visibility::tell(ctx, data, new.guild_id).await;
            Ok(())
        }
        serenity::FullEvent::GuildRoleUpdate { new, .. } => {
            data.publisher.wake_guild(new.guild_id.get());
            visibility::tell(ctx, data, new.guild_id).await;
            Ok(())
        }
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            gone(data, channel.id.get()).await;
            Ok(())
        }
        serenity::FullEvent::ThreadDelete { thread, .. } => {
            gone(data, thread.id.get()).await;
            Ok(())
        }
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            // Removed from the server (an outage sets `unavailable`): its games stop their
            // timers; the records stay, in case Bredon is invited back.
            let (service, guild) = (Arc::clone(&data.service), incomplete.id.get());
            let stopped = blocking(&service, move |s| s.guild_gone(guild)).await;
            tracing::info!(guild, ?stopped, "removed from a server");
            Ok(())
        }
        _ => Ok(()),
    }
}

async fn gone(data: &Data, channel: u64) {
    let service = Arc::clone(&data.service);
    if let Ok(true) = blocking(&service, move |s| s.channel_gone(channel)).await {
        tracing::info!(channel, "channel deleted; its game's timers stop");
    }
}

/// Users cannot run commands in an archived thread (topics/threads, "Active & Archived
/// Threads"), so a thread with a game or challenge is unarchived at once, unless a moderator
/// locked it: then what the game owes the thread waits, its clocks running, until a moderator
/// unlocks it. A thread open again is tried at once.
async fn on_thread_update(thread: ThreadState, data: &Data) {
    let channel = thread.id;
    if !thread.archived {
        data.publisher.wake(channel);
        return;
    }
    let busy = blocking(&data.service, move |s| s.holds_game_or_challenge(channel)).await;
    if busy != Ok(true) {
        return;
    }
    if thread.locked {
        tracing::info!(
            channel,
            "game thread locked by a moderator; what Bredon owes it waits until it is unlocked, \
             and the game's clocks run"
        );
        return;
    }
    if let Err(e) = data.publisher.unarchive(channel).await {
        tracing::warn!(channel, error = %describe(&e), "could not unarchive a game thread");
        // Only a thread that no longer exists ends the game's timers: one Bredon may not reopen
        // (403) is still played in when a moderator reopens it, and its clocks still run.
        if classify(&e) == Failure::Gone {
            gone(data, channel).await;
        }
    }
}

/// Game threads archived while Bredon was away (offline, or the server unavailable) send no
/// THREAD_UPDATE it could hear. GUILD_CREATE lists the server's channels and its active threads
/// only (topics/gateway-events, "Guild Create"), so a live game's channel in neither is an
/// archived thread or a deleted channel: Bredon looks at it and treats it as if it had just
/// changed.
async fn reopen_archived_threads(guild: &serenity::Guild, data: &Data) {
    let id = guild.id.get();
    let Ok(live) = blocking(&data.service, move |s| s.live_channels(id)).await else {
        return;
    };
    let listed = |c: u64| {
        let c = serenity::ChannelId::new(c);
        guild.channels.contains_key(&c) || guild.threads.iter().any(|t| t.id == c)
    };
    for channel in live.into_iter().filter(|&c| !listed(c)) {
        match data.publisher.look_at_thread(channel).await {
            Ok(Some(thread)) => on_thread_update(thread, data).await,
            Ok(None) => {}
            Err(e) if classify(&e) == Failure::Gone => gone(data, channel).await,
            Err(e) => {
                tracing::info!(channel, error = %describe(&e), "could not look at a game's channel")
            }
        }
    }
}

/// What a user whose command failed on the way out should know: what became of it.
fn after_failure(command: &str) -> &'static str {
    let root = command.split(' ').next().unwrap_or(command);
    match root {
        "move" | "undo" | "draw" | "resign" | "abort" | "challenge" | "Challenge to Tak"
        | "accept" | "decline" | "cancel" | "rematch" | "bid" | "vacation" => {
            "If it was stored, Bredon announces it here as soon as Discord takes its messages \
             again; /board shows the game as it stands."
        }
        "tournament" => {
            "If it was stored, its news follow here; /tournament standings shows the event."
        }
        "settings" | "notify" => "Run it again without options to see what is set now.",
        _ => "Nothing was changed; try again in a minute.",
    }
}

/// An autocomplete request carries a focused option.
fn is_autocomplete(interaction: &serenity::CommandInteraction) -> bool {
    interaction.data.options.iter().any(|o| {
        matches!(
            o.value,
            serenity::CommandDataOptionValue::Autocomplete { .. }
        )
    })
}

/// The framework's check before every command: one that needs Bredon in a server that never
/// added it is refused, saying where Bredon plays (the check told the user; `on_error` then
/// says nothing more).
pub async fn command_check(ctx: Context<'_>) -> Result<bool, Error> {
    if let Context::Application(app) = ctx {
        seen_in(
            ctx.data(),
            app.interaction.context,
            app.interaction.channel_id,
        );
    }
    if !super::checks::needs_bredon_in_the_server(ctx) {
        return Ok(true);
    }
    let why = "Bredon is not in this server, so it cannot keep a game here: play in your DM with \
               Bredon or in a DM or group DM with friends (your install works there), or ask the \
               server's moderators to add Bredon";
    refuse(ctx, Refusal(why.into())).await?;
    Ok(false)
}

/// An interaction seen in `channel`, in `context`: a DM with Bredon is remembered as one where
/// Bredon posts (`delivery/tokens.rs`).
pub fn seen_in(
    data: &Data,
    context: Option<serenity::InteractionContext>,
    channel: serenity::ChannelId,
) {
    if context == Some(serenity::InteractionContext::BotDm) {
        data.publisher.answers.in_bot_dm(channel.get());
    }
}

pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    let outdated = "Discord still shows an older version of this command; reload Discord \
                    (Ctrl+R, or restart the app) and try again";
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            if error.downcast_ref::<Undelivered>().is_some() {
                // Stored, and the outbox posts it: nothing went wrong that the user must know.
                tracing::info!(command = ctx.command().name, %error, "answer left to the outbox");
                return;
            }
            let command = ctx.command().qualified_name.clone();
            tracing::warn!(%command, %error, "command failed");
            let text = format!(
                "✋ Bredon could not answer /{command}: Discord did not take its message. {}",
                after_failure(&command)
            );
            // Private, also after a deferral (a follow-up then). The first response is left as
            // it is: it may be an answer already shown (a deferral's own refusal path deletes
            // its "thinking").
            let _ = replies::reply(ctx, Post::text(text), true).await;
        }
        poise::FrameworkError::UnknownInteraction {
            ctx, interaction, ..
        } => {
            // A command Bredon no longer has (Discord's command list was not updated yet).
            let (http, asked) = (ctx.http.as_ref(), Asked::command(interaction));
            let answered = match is_autocomplete(interaction) {
                true => replies::offer_no_choices(http, asked).await,
                false => {
                    let text = format!(
                        "✋ Bredon has no /{} command any more. {outdated}; /help lists the commands.",
                        escape(&interaction.data.name)
                    );
                    replies::answer_at_once(http, asked, Post::text(text), true).await
                }
            };
            if let Err(e) = answered {
                tracing::warn!(error = %e, "could not answer an unknown command");
            }
        }
        poise::FrameworkError::ArgumentParse { ctx, error, .. } => {
            let text = format!(
                "✋ Bredon could not read the options of /{}: {}. {outdated}.",
                ctx.command().name,
                escape(&crate::tak::quote(&error.to_string()))
            );
            let _ = replies::reply(ctx, Post::text(text), true).await;
        }
        poise::FrameworkError::CommandStructureMismatch {
            ctx, description, ..
        } => {
            tracing::info!(
                command = ctx.command.name,
                description,
                "outdated command options"
            );
            let text = format!(
                "✋ The options of /{} have changed. {outdated}.",
                ctx.command.name
            );
            let _ = replies::reply(poise::Context::Application(ctx), Post::text(text), true).await;
        }
        // Refused by the check itself, which told the user why.
        poise::FrameworkError::CommandCheckFailed { error: None, .. } => {}
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "error while handling an error");
            }
        }
    }
}
