//! Playing: `/move`, `/board`, `/undo`, `/draw`, `/resign`.

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

/// Show this channel's board (or a finished game's last).
#[poise::command(slash_command, guild_only)]
pub(super) async fn board(
    ctx: Context<'_>,
    #[description = "Which finished game of this server (its number in /history)"]
    #[min = 1]
    game: Option<u64>,
) -> Result<(), Error> {
    act(ctx, move |s, c| match game {
        Some(id) => s.view_finished(c, id, None),
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
