//! Playing: `/move`, `/premove`, `/board`, `/undo`, `/draw`, `/resign`.

use crate::bot::choices::autocomplete_ply;
use crate::bot::respond::act;
use crate::bot::{Context, Error};

/// Play a ply in this channel's game (PTN: a1, Sb2, Cc3, 3c3>12).
#[poise::command(slash_command, guild_only, rename = "move")]
pub(super) async fn play(
    ctx: Context<'_>,
    #[description = "Your ply in PTN, e.g. c3, Sd4, 3c3>12"]
    #[autocomplete = "autocomplete_ply"]
    ply: String,
) -> Result<(), Error> {
    act(ctx, move |s, c| s.play(c, &ply)).await
}

/// Answers you leave in advance to the replies you expect (only you see them).
#[poise::command(slash_command, guild_only)]
pub(super) async fn premove(
    ctx: Context<'_>,
    #[description = "Their reply, your answer, and on (e3 d3 f3 d4); none: list your lines"]
    #[max_length = 200]
    line: Option<String>,
    #[description = "Drop every line you set in this game"] clear: Option<bool>,
) -> Result<(), Error> {
    act(ctx, move |s, c| match (line, clear) {
        (Some(_), Some(true)) => Err(crate::service::Refusal(
            "give either line: (to add one) or clear:True (to drop them all), not both".into(),
        )),
        (_, Some(true)) => s.clear_conditional(c),
        (Some(line), _) => s.add_conditional(c, &line),
        (None, _) => s.conditional_list(c),
    })
    .await
}

/// Show this channel's board (or a finished game's last).
#[poise::command(slash_command, guild_only)]
pub(super) async fn board(
    ctx: Context<'_>,
    #[description = "Which finished game of this server (its number in /history)"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), Error> {
    act(ctx, move |s, c| match game {
        Some(id) => s.view_finished(c, id),
        None => s.view(c),
    })
    .await
}

/// Ask to take back the last ply (your opponent confirms).
#[poise::command(slash_command, guild_only)]
pub(super) async fn undo(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.request_undo(c)).await
}

/// Offer a draw (your opponent accepts or declines).
#[poise::command(slash_command, guild_only)]
pub(super) async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.offer_draw(c)).await
}

/// Resign this channel's game.
#[poise::command(slash_command, guild_only)]
pub(super) async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.resign(c)).await
}
