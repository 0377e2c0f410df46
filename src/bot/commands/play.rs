//! Playing: `/move`, `/premove`, `/note`, `/board`, `/undo`, `/draw`, `/resign`.

use crate::bot::choices::autocomplete_ply;
use crate::bot::delivery::replies::refuse;
use crate::bot::respond::{act, act_asking, act_on, act_privately};
use crate::bot::{Context, Error};
use crate::service::Refusal;

/// Play a ply in this channel's game (PTN: a1, Sb2, Cc3, 3c3>12).
#[poise::command(slash_command, rename = "move")]
pub(super) async fn play(
    ctx: Context<'_>,
    #[description = "Your ply in PTN, e.g. c3, Sd4, 3c3>12"]
    #[autocomplete = "autocomplete_ply"]
    ply: String,
) -> Result<(), Error> {
    act_asking(ctx, move |s, c, tell_private| {
        s.play_then(c, &ply, None, tell_private)
    })
    .await
}

/// Answers you leave in advance to the replies you expect (only you see them).
#[poise::command(slash_command)]
pub(super) async fn premove(
    ctx: Context<'_>,
    #[description = "Their reply, your answer, and on (e3 d3 f3 d4); none: list your lines"]
    #[max_length = 200]
    line: Option<String>,
    #[description = "Drop every line you set in this game"] clear: Option<bool>,
) -> Result<(), Error> {
    act_privately(ctx, move |s, c| match (line, clear) {
        (Some(_), Some(true)) => Err(Refusal(
            "give either line: (to add one) or clear:True (to drop them all), not both".into(),
        )),
        (_, Some(true)) => s.clear_conditional(c),
        (Some(line), _) => s.add_conditional(c, &line),
        (None, _) => s.conditional_list(c),
    })
    .await
}

/// Keep a private note on your game here (only you ever see your notes).
#[poise::command(slash_command)]
pub(super) async fn note(
    ctx: Context<'_>,
    #[description = "Your plan, kept after the plies played so far; none: list your notes"]
    #[max_length = 300]
    text: Option<String>,
) -> Result<(), Error> {
    act_privately(ctx, move |s, c| match text {
        Some(text) => s.add_note(c, &text),
        None => s.note_list(c),
    })
    .await
}

/// Show this channel's board (or a finished game's, here or on PlayTak).
#[poise::command(slash_command)]
pub(super) async fn board(
    ctx: Context<'_>,
    #[description = "Which finished game of this server (its number in /history)"]
    #[min = 1]
    game: Option<u64>,
    #[description = "A finished PlayTak game instead, by its number on playtak.com"]
    #[min = 1]
    playtak: Option<u64>,
    #[description = "A finished game's position after this many plies (0: the start) instead of its end"]
    #[min = 0]
    ply: Option<usize>,
) -> Result<(), Error> {
    match (game, playtak) {
        (Some(_), Some(_)) => {
            let both = "name one game: `game:` for a game of this server or `playtak:` for a \
                        PlayTak game, not both";
            refuse(ctx, Refusal(both.into())).await
        }
        (None, Some(id)) => {
            let api = ctx.data().playtak.clone();
            let fetch = async move { api.ptn(id).await.map_err(|e| Refusal(e.to_string())) };
            let title = format!("PlayTak game #{id}");
            act_on(ctx, fetch, move |s, c, ptn| {
                s.view_record(c, &title, &ptn, ply)
            })
            .await
        }
        (Some(id), None) => act(ctx, move |s, c| s.view_finished(c, id, ply)).await,
        (None, None) if ply.is_some() => {
            let which = "`ply:` shows a finished game's position: name the game with `game:` \
                         (its number in /history) or `playtak:`";
            refuse(ctx, Refusal(which.into())).await
        }
        (None, None) => act(ctx, move |s, c| s.view(c)).await,
    }
}

/// Ask to take back the last ply (your opponent confirms).
#[poise::command(slash_command)]
pub(super) async fn undo(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.request_undo(c)).await
}

/// Offer a draw (your opponent accepts or declines).
#[poise::command(slash_command)]
pub(super) async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.offer_draw(c)).await
}

/// Resign this channel's game.
#[poise::command(slash_command)]
pub(super) async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.resign(c)).await
}
