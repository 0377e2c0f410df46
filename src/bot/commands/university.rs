//! University rules: `/bid` and `/wallet`.

use crate::bot::blocking::blocking;
use crate::bot::checks::may_post;
use crate::bot::delivery::replies::{refuse, reply};
use crate::bot::post::{escape, Post};
use crate::bot::respond::{answer, option_player, say, service_ctx};
use crate::bot::{Context, Error};
use crate::service::{Bid, Refusal};
use poise::serenity_prelude as serenity;

/// Bid for the first move of this channel's University game (sealed: only you see your bid).
#[poise::command(slash_command, guild_only)]
pub(super) async fn bid(
    ctx: Context<'_>,
    #[description = "Coins you offer for moving first (paid only if you win the bid)"]
    #[min = 0]
    coins: i64,
) -> Result<(), Error> {
    if let Some(refusal) = may_post(ctx, false) {
        return refuse(ctx, refusal).await;
    }
    let sctx = service_ctx(ctx);
    match blocking(&ctx.data().service, move |s| s.bid(&sctx, coins)).await {
        Err(r) => refuse(ctx, r).await,
        Ok(Bid::Sealed(text)) => reply(ctx, Post::text(text), true).await,
        Ok(Bid::Settled(outcome)) => answer(ctx, *outcome).await,
    }
}

/// Coins for University games: yours, someone's, or the server's richest.
#[poise::command(slash_command, guild_only)]
pub(super) async fn wallet(
    ctx: Context<'_>,
    #[description = "Whose coins (default: yours)"] user: Option<serenity::User>,
    #[description = "The server's richest players instead"] top: Option<bool>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| option_player(ctx, u));
    say(ctx, !public.unwrap_or(false), move |s, c| {
        if top == Some(true) {
            let wallets = s.coin_leaderboard(c)?;
            if wallets.is_empty() {
                return Err(Refusal(
                    "nobody has played a University game in this server yet".into(),
                ));
            }
            let lines: Vec<String> = wallets
                .iter()
                .take(10)
                .enumerate()
                .map(|(i, w)| format!("{}. {} — {} coins", i + 1, escape(&w.user.name), w.balance))
                .collect();
            return Ok(format!("Richest players:\n{}", lines.join("\n")));
        }
        let who = who.unwrap_or_else(|| c.user.clone());
        let coins = s.wallet(c, who.id)?;
        Ok(format!("{} has {coins} coins.", escape(&who.name)))
    })
    .await
}
