//! Information: `/position`, `/rules`, `/help`.

use crate::bot::blocking::blocking;
use crate::bot::checks::may_attach;
use crate::bot::choices::{GameChoice, ThemeChoice};
use crate::bot::delivery::replies::{refuse, reply};
use crate::bot::post::{escape, Post};
use crate::bot::respond::service_ctx;
use crate::bot::{Context, Error};
use crate::game::{explain, Kind};
use crate::service::Refusal;
use poise::serenity_prelude as serenity;

/// Draw any position (TPS or a PTN game; a Takat position string or record) without starting a
/// game.
#[poise::command(slash_command)]
pub(super) async fn position(
    ctx: Context<'_>,
    #[description = "A position in TPS (or a Takat position string)"] tps: Option<String>,
    #[description = "A PTN game or Takat record (its final position is drawn)"] ptn: Option<String>,
    #[description = "Board theme"] theme: Option<ThemeChoice>,
) -> Result<(), Error> {
    let theme = theme.map_or("dark", |t| t.name()).to_string();
    let sctx = service_ctx(ctx);
    let (asked_tps, asked_ptn) = (tps.clone(), ptn.clone());
    let fair = blocking(&ctx.data().service, move |s| {
        s.refuse_rated_text(&sctx, asked_tps.as_deref(), asked_ptn.as_deref())
    });
    if let Err(refusal) = fair.await {
        return refuse(ctx, refusal).await;
    }
    let drawn = tokio::task::spawn_blocking(move || {
        explain::position_picture(tps.as_deref(), ptn.as_deref(), &theme)
    })
    .await
    .unwrap_or_else(|e| Err(e.to_string()));
    match drawn {
        Err(why) => refuse(ctx, Refusal(why)).await,
        Ok((png, alt)) => {
            let post = match may_attach(ctx) {
                true => Post {
                    files: vec![
                        serenity::CreateAttachment::bytes(png, "position.png").description(alt)
                    ],
                    ..Post::text("")
                },
                // Where Bredon may not attach files, the picture's description stands in.
                false => Post::text(escape(&alt)),
            };
            reply(ctx, post, false).await
        }
    }
}

/// A short illustrated summary of the rules.
#[poise::command(slash_command)]
pub(super) async fn rules(
    ctx: Context<'_>,
    #[description = "Which game (default Tak)"] game: Option<GameChoice>,
) -> Result<(), Error> {
    let kind = GameChoice::kind(game);
    let (png, alt) = tokio::task::spawn_blocking(move || explain::rules_picture(kind)).await?;
    let text = match kind {
        Kind::Tak => explain::TAK_RULES,
        Kind::Takat => explain::TAKAT_RULES,
    };
    let mut post = Post::text(text);
    // Where Bredon may not attach files, the text alone.
    if may_attach(ctx) {
        let picture = serenity::CreateAttachment::bytes(png, "rules.png").description(alt);
        post.files.push(picture);
    }
    reply(ctx, post, false).await
}

/// How to use Bredon.
#[poise::command(slash_command)]
pub(super) async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let text = "**Bredon** hosts correspondence Tak (and Takat: `/challenge game:Takat`), one game per channel or thread.\n\
`/challenge [opponent]` start (game, size, komi, seat, time limit, rated, thread…), answered with its buttons or `/accept` `/decline` `/cancel` · `/move` play (autocompletes legal plies) · `/board` show the game · `/premove` answers left in advance · `/note` your plans (both private)\n\
`/undo` `/draw` ask your opponent · `/resign` · `/rematch` · `/ptn` export · `/analyze` the last game (or `game:` from `/history`) · `/history` `/stats` `/leaderboard` `/games`\n\
`/vacation start days:` stops the clocks of all your games here · `/notify` DMs and reminders\n\
`/challenge stakes:university` plays for coins (the rulebook's University rules): `/bid` for the first move, `/wallet` your coins\n\
`/tournament create` a round robin or Swiss in this channel (games in threads) · `/tournament join` `standings` `pairings` `withdraw`\n\
`/position` draw any TPS or PTN · `/rules [game]` the rules in short · `/settings` server defaults (Manage Server) · `/abort` (players before the first ply; moderators)\n\
Added to your own account (Bredon's profile → Add App), Bredon plays in your DM with it and in DMs and group DMs with friends: `/challenge @friend` there, and they play on with the buttons.";
    reply(ctx, Post::text(text), true).await
}
