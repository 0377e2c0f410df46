//! `/tournament` and the tournament work of the timer loop: news posted in each tournament's
//! channel, and a public thread under it for every new pairing's game.

use super::commands::{
    act, autocomplete_komi, autocomplete_time, channel_kind, is_thread, may_post, player_ref,
    presets, refuse, say,
};
use super::reply::{self, escape, now_ms};
use super::{Context, Error};
use crate::service::{
    parse_format, ChallengeOptions, Refusal, Service, TournamentOptions, MOST_ENTRANTS,
};
use crate::tak::Opening;
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// Rung whenever an outcome touches a tournament, so its news and new games follow at once
/// instead of at the next tick.
pub static NEWS: tokio::sync::Notify = tokio::sync::Notify::const_new();

#[derive(Debug, poise::ChoiceParameter)]
pub enum FormatChoice {
    #[name = "round robin (everyone meets everyone)"]
    RoundRobin,
    #[name = "double round robin (twice, colours reversed)"]
    DoubleRoundRobin,
    #[name = "Swiss (give rounds)"]
    Swiss,
}

/// Tournaments in this channel: create one, join, start, see standings and pairings.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "leave",
        "start",
        "standings",
        "pairings",
        "withdraw",
        "cancel"
    )
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a tournament in this channel (moderators, or anyone if the server allows it).
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
async fn create(
    ctx: Context<'_>,
    #[description = "The tournament's name"]
    #[max_length = 50]
    name: String,
    #[description = "How rounds are paired"] format: FormatChoice,
    #[description = "Swiss only: how many rounds"]
    #[min = 1]
    #[max = 15]
    rounds: Option<u32>,
    #[description = "Board size (default: the server's)"]
    #[min = 3]
    #[max = 8]
    size: Option<u8>,
    #[description = "Komi: flats added to Black's count (0 to 4.5)"]
    #[autocomplete = "autocomplete_komi"]
    komi: Option<String>,
    #[description = "Time per move: 1d .. 2w (default: none)"]
    #[autocomplete = "autocomplete_time"]
    time: Option<String>,
    #[description = "Rated games"] rated: Option<bool>,
    #[description = "At most this many players"]
    #[min = 2]
    #[max = 32]
    limit: Option<u32>,
    #[description = "When: `when full`, a delay (2h, 1d), a UTC time (2026-12-01 18:00), or manual"]
    #[autocomplete = "autocomplete_start"]
    start: Option<String>,
    #[description = "No swap: the first plies place one's own colour"] no_swap: Option<bool>,
) -> Result<(), Error> {
    if is_thread(channel_kind(ctx)) {
        let why = "a tournament is made in a text channel, not a thread: its games open threads \
                   under that channel, and a thread cannot hold threads";
        return refuse(ctx, Refusal(why.into())).await;
    }
    // Its games open threads here: Bredon must be able to.
    if let Some(refusal) = may_post(ctx, true) {
        return refuse(ctx, refusal).await;
    }
    let format = match format {
        FormatChoice::RoundRobin => "round-robin",
        FormatChoice::DoubleRoundRobin => "double-round-robin",
        FormatChoice::Swiss => "swiss",
    };
    let format = match parse_format(format, rounds) {
        Ok(f) => f,
        Err(r) => return refuse(ctx, r).await,
    };
    let options = TournamentOptions {
        name,
        format,
        game: ChallengeOptions {
            size: size.map(usize::from),
            komi,
            time_limit: time,
            rated: rated.unwrap_or(false),
            opening: if no_swap == Some(true) {
                Opening::NoSwap
            } else {
                Opening::Swap
            },
            ..ChallengeOptions::default()
        },
        limit: limit.map(|n| (n as usize).min(MOST_ENTRANTS)),
        start,
    };
    act(ctx, move |s, c| s.create_tournament(c, &options)).await
}

/// Start presets offered while typing; any delay or UTC time may be typed instead.
async fn autocomplete_start(_ctx: Context<'_>, partial: &str) -> Vec<serenity::AutocompleteChoice> {
    const STARTS: [(&str, &str); 5] = [
        ("manual", "when the organizer says /tournament start"),
        ("when full", "when the entry limit is reached"),
        ("1h", "in an hour"),
        ("1d", "in a day"),
        ("1w", "in a week"),
    ];
    presets(&STARTS, partial)
}

/// Join the tournament taking entries in this channel.
#[poise::command(slash_command, guild_only)]
async fn join(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.join_tournament(c)).await
}

/// Leave a tournament before it starts.
#[poise::command(slash_command, guild_only)]
async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.leave_tournament(c)).await
}

/// Start the tournament now (its organizer or a moderator).
#[poise::command(slash_command, guild_only)]
async fn start(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.start_tournament(c)).await
}

/// The standings: a table and the crosstable picture.
#[poise::command(slash_command, guild_only)]
async fn standings(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.tournament_standings(c)).await
}

/// Every round's pairings, with their threads and results.
#[poise::command(slash_command, guild_only)]
async fn pairings(ctx: Context<'_>) -> Result<(), Error> {
    say(ctx, true, |s, c| {
        let view = s.tournament_view(c)?;
        let t = &view.tournament;
        if t.rounds.is_empty() {
            return Ok(format!(
                "{} has not started; {} joined.",
                escape(&t.name),
                t.entrants.len()
            ));
        }
        // Newest round first: it is the one people look for, and old rounds may be cut.
        let mut text = String::new();
        for r in (0..t.rounds.len()).rev() {
            text.push_str(&format!("**Round {}**\n", r + 1));
            for line in view.round_lines(r) {
                let place = line
                    .channel
                    .map(|c| format!(" in <#{c}>"))
                    .unwrap_or_default();
                text.push_str(&format!("{}{place}\n", escape(&line.describe())));
            }
        }
        // `say` posts through `Post::text`, which cuts to Discord's limit.
        Ok(text)
    })
    .await
}

/// Stop playing in a running tournament (your remaining games are forfeited).
///
/// The organizer or a moderator may withdraw someone else.
#[poise::command(slash_command, guild_only)]
async fn withdraw(
    ctx: Context<'_>,
    #[description = "Who withdraws (default: you)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let who = player.as_ref().map(|u| player_ref(u, None));
    act(ctx, move |s, c| s.withdraw(c, who.as_ref())).await
}

/// Cancel the tournament (its organizer or a moderator); running games are aborted.
#[poise::command(slash_command, guild_only)]
async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.cancel_tournament(c)).await
}

/// Posts tournament news in their channels and opens a thread for each new pairing. Called by
/// the timer loop only (one task), so a pairing is never opened twice by this process; the
/// service refuses a second opening anyway.
pub async fn work(http: &Arc<serenity::Http>, service: &Arc<Service>) {
    let s = Arc::clone(service);
    let news = tokio::task::spawn_blocking(move || s.tournament_news(now_ms())).await;
    match news {
        Ok(Ok(events)) => {
            for e in events {
                reply::deliver_outcome(http, service, e.channel, &e.outcome, e.id).await;
            }
        }
        Ok(Err(e)) => tracing::warn!(error = %e, "tournament news"),
        Err(e) => tracing::error!(error = %e, "tournament news failed"),
    }
    let s = Arc::clone(service);
    let pending = match tokio::task::spawn_blocking(move || s.pending_pairings()).await {
        Ok(Ok(p)) => p,
        _ => return,
    };
    for p in pending {
        let created = serenity::ChannelId::new(p.channel)
            .create_thread(
                http,
                serenity::CreateThread::new(p.name.clone())
                    .kind(serenity::ChannelType::PublicThread)
                    .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
            )
            .await;
        let thread = match created {
            Ok(t) => t.id.get(),
            Err(e) => {
                // Tried again at the next tick; a moderator sees why in the log.
                tracing::warn!(channel = p.channel, error = %reply::describe(&e), "cannot open a tournament game's thread");
                continue;
            }
        };
        let s = Arc::clone(service);
        let fixture = p.fixture;
        let started =
            tokio::task::spawn_blocking(move || s.start_pairing(fixture, thread, now_ms())).await;
        match started {
            Ok(Ok(Some(outcome))) => {
                let id = crate::service::event_id(thread, 5, fixture.tournament);
                reply::deliver_outcome(http, service, thread, &outcome, id).await;
            }
            Ok(Ok(None)) => {}
            Ok(Err(Refusal(why))) => tracing::warn!(%why, "a tournament game did not start"),
            Err(e) => tracing::error!(error = %e, "starting a tournament game failed"),
        }
    }
}
