//! Information: `/position`, `/rules`, `/help`.

use crate::bot::checks::may_attach;
use crate::bot::choices::{GameChoice, ThemeChoice};
use crate::bot::post::{escape, fit};
use crate::bot::respond::refuse;
use crate::bot::{Context, Error};
use crate::game::{Kind, Match};
use crate::service::Refusal;
use crate::tak::Ply;
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
    let drawn = tokio::task::spawn_blocking(move || -> Result<(Vec<u8>, String), String> {
        let theme = crate::render::Theme::named(&theme)?;
        let names = ["Player 1", "Player 2"];
        let game = match (tps, ptn) {
            (Some(tps), None) => match crate::tak::Position::from_tps(&tps) {
                Ok(p) => {
                    // A lone position: Tak and results come from the position itself.
                    let scene = crate::render::Scene::of_position(&p, None, names);
                    return Ok((
                        crate::render::render_png(&scene, &theme),
                        crate::render::alt_text(&scene),
                    ));
                }
                // Not TPS: perhaps Takat; if not, Tak's reason is the one to show.
                Err(why) => crate::takat::Position::from_text(&tps)
                    .map(|p| Match::Takat(crate::takat::Game::new(p)))
                    .map_err(|_| why)?,
            },
            (None, Some(ptn)) => Match::from_record(&ptn)?,
            _ => return Err("give exactly one of tps or ptn".into()),
        };
        Ok((game.png(names, &theme, None), game.alt_text(names)))
    })
    .await
    .unwrap_or_else(|e| Err(e.to_string()));
    match drawn {
        Err(why) => refuse(ctx, Refusal(why)).await,
        Ok((png, alt)) => {
            let reply = match may_attach(ctx) {
                true => poise::CreateReply::default().attachment(
                    serenity::CreateAttachment::bytes(png, "position.png").description(alt),
                ),
                // Where Bredon may not attach files, the picture's description stands in.
                false => poise::CreateReply::default().content(fit(escape(&alt))),
            };
            ctx.send(reply).await?;
            Ok(())
        }
    }
}

const RULES: &str = "**Tak in one minute.** Make a *road*: a line of your flats or capstone joining opposite edges (no diagonals). \
Each turn, place a piece from your reserve on an empty square — a **flat**, a **wall** (blocks roads, cannot be stacked on) or your **capstone** \
(counts for roads, and alone flattens a wall) — or move a stack you control: pick up to the board size from the top and drop at least one on each square in a straight line. \
On the first turn each player places the **opponent's** flat. If the board fills or a player runs out of pieces, most flats on top wins (komi goes to Black). \
\"Tak!\" means a road is one ply away. Full rules: <https://ustak.org/play-beautiful-game-tak/>";

const TAKAT_RULES: &str = "**Takat in one minute.** A hexagonal board of 7 circles (or 19). White has 6 pieces \
and wins with a **stack of six** (any colours, whoever builds it); Black has 15 and wins when White **cannot move** (either side \
who cannot move loses). Each turn, **enter** one of your pieces on an empty circle (never the centre), or **move** the top piece of any \
stack, of either colour, to a neighbouring circle whose stack is at most one higher than the stack it leaves. No stack over six; \
you may not move the piece your opponent just moved; Black must enter while it has fewer pieces on the board than White. \
Two of a colour on top: only that player may move the top piece (gold lock); three on a red circle: nobody may (lock on red). \
Two neighbouring stacks of four or more may not both have safe tops of one colour. The third repetition draws.";

/// A short illustrated summary of the rules.
#[poise::command(slash_command)]
pub(super) async fn rules(
    ctx: Context<'_>,
    #[description = "Which game (default Tak)"] game: Option<GameChoice>,
) -> Result<(), Error> {
    if GameChoice::kind(game) == Kind::Takat {
        let png = tokio::task::spawn_blocking(|| {
            let p = crate::takat::Position::from_text("1222,11/2,1212,x/21,22 1 b2 8")
                .expect("a valid sample");
            let scene = crate::render::hex::TakatScene {
                position: &p,
                last: p.parse_ply("c2-b2").ok(),
                players: ["White", "Black"],
                result: None,
                notes: Vec::new(),
                clock: None,
            };
            crate::render::encode_png(&crate::render::hex::render_takat(
                &scene,
                &crate::render::Theme::default(),
            ))
        })
        .await?;
        let file = serenity::CreateAttachment::bytes(png, "rules.png").description(
            "A Takat board of 7 circles: stacks with their heights, safe tops locked, Black just moved c2 onto b2.",
        );
        ctx.send(illustrated(ctx, TAKAT_RULES, file)).await?;
        return Ok(());
    }
    let png = tokio::task::spawn_blocking(|| {
        let p = crate::tak::Position::from_tps("x5/x2,2S,x2/1,1,1C,1,x/x,2,21,x2/x5 2 8")
            .expect("a valid sample");
        let last = Ply::parse("d3").ok().map(|p| p.ply);
        crate::render::render_png(
            &crate::render::Scene::of_position(&p, last, ["White", "Black"]),
            &crate::render::Theme::default(),
        )
    })
    .await?;
    let file = serenity::CreateAttachment::bytes(png, "rules.png")
        .description("A 5x5 board where White threatens a road along rank 3: Tak.");
    ctx.send(illustrated(ctx, RULES, file)).await?;
    Ok(())
}

/// Text with its picture, or the text alone where Bredon may not attach files.
fn illustrated(
    ctx: Context<'_>,
    text: &str,
    picture: serenity::CreateAttachment,
) -> poise::CreateReply {
    let reply = poise::CreateReply::default().content(text);
    match may_attach(ctx) {
        true => reply.attachment(picture),
        false => reply,
    }
}

/// How to use Bredon.
#[poise::command(slash_command)]
pub(super) async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let text = "**Bredon** hosts correspondence Tak (and Takat: `/challenge game:Takat`), one game per channel or thread.\n\
`/challenge [opponent]` start (game, size, komi, seat, time limit, rated, thread…), answered with its buttons or `/accept` `/decline` `/cancel` · `/move` play (autocompletes legal plies) · `/board` show the game\n\
`/undo` `/draw` ask your opponent · `/resign` · `/rematch` · `/ptn` export · `/analyze` the last game · `/history` `/stats` `/leaderboard` `/games`\n\
`/challenge stakes:university` plays for coins (the rulebook's University rules): `/bid` for the first move, `/wallet` your coins\n\
`/tournament create` a round robin or Swiss in this channel (games in threads) · `/tournament join` `standings` `pairings` `withdraw`\n\
`/position` draw any TPS or PTN · `/rules [game]` the rules in short · `/settings` server defaults (Manage Server) · `/abort` (moderators)";
    ctx.send(poise::CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}
