//! `/tournament` and its subcommands.

use crate::bot::checks::{channel_kind, is_thread, may_post};
use crate::bot::choices::{autocomplete_komi, autocomplete_start, autocomplete_time, FormatChoice};
use crate::bot::delivery::replies::refuse;
use crate::bot::post::escape;
use crate::bot::respond::{act, option_player, say};
use crate::bot::{Context, Error};
use crate::service::{parse_format, ChallengeOptions, Refusal, TournamentOptions, MOST_ENTRANTS};
use crate::tak::Opening;
use poise::serenity_prelude as serenity;

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
pub(super) async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open a tournament in this channel (moderators, or anyone if the server allows it).
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
pub(super) async fn create(
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
    #[description = "Let players' vacations stop the games' clocks (default: yes)"]
    vacations: Option<bool>,
) -> Result<(), Error> {
    let kind = channel_kind(ctx);
    if is_thread(kind) {
        let why = "a tournament is made in a text channel, not a thread: its games open threads \
                   under that channel, and a thread cannot hold threads";
        return refuse(ctx, Refusal(why.into())).await;
    }
    if kind.is_some_and(|k| k != serenity::ChannelType::Text) {
        let why = "a tournament is made in a text channel: its news are posted there and its \
                   games open public threads under it, which this channel cannot hold";
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
        no_vacations: vacations == Some(false),
    };
    act(ctx, move |s, c| s.create_tournament(c, &options)).await
}

/// Join the tournament taking entries in this channel.
#[poise::command(slash_command, guild_only)]
pub(super) async fn join(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.join_tournament(c)).await
}

/// Leave a tournament before it starts.
#[poise::command(slash_command, guild_only)]
pub(super) async fn leave(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.leave_tournament(c)).await
}

/// Start the tournament now (its organizer or a moderator).
#[poise::command(slash_command, guild_only)]
pub(super) async fn start(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.start_tournament(c)).await
}

/// The standings: a table and the crosstable picture.
#[poise::command(slash_command, guild_only)]
pub(super) async fn standings(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.tournament_standings(c)).await
}

/// Every round's pairings, with their threads and results.
#[poise::command(slash_command, guild_only)]
pub(super) async fn pairings(ctx: Context<'_>) -> Result<(), Error> {
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
pub(super) async fn withdraw(
    ctx: Context<'_>,
    #[description = "Who withdraws (default: you)"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let who = player.as_ref().map(|u| option_player(ctx, u));
    act(ctx, move |s, c| s.withdraw(c, who.as_ref())).await
}

/// Cancel the tournament (its organizer or a moderator); running games are aborted.
#[poise::command(slash_command, guild_only)]
pub(super) async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.cancel_tournament(c)).await
}
