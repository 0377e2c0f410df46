//! Slash commands and buttons. Each one builds a service context, calls the service on a blocking
//! thread, and answers: refusals ephemerally, outcomes publicly (deferred, then the picture).

use super::reply::{self, Buttons};
use super::{Context, Data, Error};
use crate::service::{ChallengeOptions, Ctx, Outcome, Refusal, Service};
use crate::store::records::{PlayerRef, Seat};
use crate::tak::{Opening, Ply};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge(),
        play(),
        board(),
        undo(),
        draw(),
        resign(),
        rematch(),
        ptn(),
        history(),
        games(),
        stats(),
        leaderboard(),
        settings(),
        abort(),
        position(),
        rules(),
        help(),
    ]
}

/// A moderator may abort games and change settings: Manage Messages or Manage Server.
fn is_moderator(permissions: Option<serenity::Permissions>) -> bool {
    permissions.is_some_and(|p| p.manage_messages() || p.manage_guild() || p.administrator())
}

fn player_ref(user: &serenity::User, member: Option<&serenity::Member>) -> PlayerRef {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    PlayerRef {
        id: user.id.get(),
        name,
    }
}

fn service_ctx(ctx: Context<'_>) -> Ctx {
    let (member, permissions) = match ctx {
        poise::Context::Application(app) => {
            let member = app.interaction.member.as_deref();
            (member.cloned(), member.and_then(|m| m.permissions))
        }
        poise::Context::Prefix(_) => (None, None),
    };
    Ctx {
        guild: ctx.guild_id().map_or(0, |g| g.get()),
        channel: ctx.channel_id().get(),
        user: player_ref(ctx.author(), member.as_ref()),
        now_ms: reply::now_ms(),
        moderator: is_moderator(permissions),
    }
}

async fn blocking<T: Send + 'static>(
    service: &Arc<Service>,
    f: impl FnOnce(&Service) -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    let s = Arc::clone(service);
    tokio::task::spawn_blocking(move || f(&s))
        .await
        .unwrap_or_else(|e| {
            Err(Refusal(format!(
                "Bredon failed inside ({e}); nothing was changed"
            )))
        })
}

async fn refuse(ctx: Context<'_>, refusal: Refusal) -> Result<(), Error> {
    ctx.send(
        poise::CreateReply::default()
            .content(format!("✋ {refusal}"))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// Runs a service action and answers it.
async fn act(
    ctx: Context<'_>,
    buttons: Buttons,
    f: impl FnOnce(&Service, &Ctx) -> Result<Outcome, Refusal> + Send + 'static,
) -> Result<(), Error> {
    let sctx = service_ctx(ctx);
    match blocking(&ctx.data().service, move |s| f(s, &sctx)).await {
        Err(refusal) => refuse(ctx, refusal).await,
        Ok(outcome) => {
            // The change is durable already; drawing may take a moment.
            ctx.defer().await?;
            let p = reply::parts(outcome, buttons).await;
            let mut r = poise::CreateReply::default()
                .content(p.content)
                .components(p.components);
            for f in p.files {
                r = r.attachment(f);
            }
            ctx.send(r).await?;
            ctx.data().opponent.spawn_turn(
                Arc::clone(&ctx.serenity_context().http),
                ctx.channel_id().get(),
            );
            Ok(())
        }
    }
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum LevelChoice {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum SeatChoice {
    #[name = "white (move first)"]
    White,
    #[name = "black"]
    Black,
    #[name = "random"]
    Random,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum OpeningChoice {
    #[name = "swap (rulebook)"]
    Swap,
    #[name = "no-swap"]
    NoSwap,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum ThemeChoice {
    #[name = "dark"]
    Dark,
    #[name = "light"]
    Light,
    #[name = "colorblind"]
    Colorblind,
}

impl ThemeChoice {
    fn name(&self) -> &'static str {
        match self {
            ThemeChoice::Dark => "dark",
            ThemeChoice::Light => "light",
            ThemeChoice::Colorblind => "colorblind",
        }
    }
}

/// Challenge someone (or anyone) to a game of Tak in this channel.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play; leave out for an open challenge"] opponent: Option<
        serenity::User,
    >,
    #[description = "Board size"]
    #[min = 3]
    #[max = 8]
    size: Option<u8>,
    #[description = "Komi for Black, -4.5 to 4.5 in half steps"] komi: Option<String>,
    #[description = "Your seat"] seat: Option<SeatChoice>,
    #[description = "Opening"] opening: Option<OpeningChoice>,
    #[description = "Time limit per move: 1d .. 2w"] time: Option<String>,
    #[description = "Remind the player to move after: 1h .. 2w, or off"] reminder: Option<String>,
    #[description = "Rated game"] rated: Option<bool>,
    #[description = "Start from this position (TPS)"] tps: Option<String>,
    #[description = "Board theme"] theme: Option<ThemeChoice>,
    #[description = "Open a thread for the game"] thread: Option<bool>,
    #[description = "Play against Bredon at this level (or pick Bredon as opponent)"] level: Option<
        LevelChoice,
    >,
) -> Result<(), Error> {
    let me = ctx.data().opponent.engine.me.clone();
    let against_engine = level.is_some() || opponent.as_ref().is_some_and(|u| u.id.get() == me.id);
    if !against_engine && opponent.as_ref().is_some_and(|u| u.bot) {
        let why =
            "other bots cannot play: challenge a person, Bredon itself, or leave the opponent out";
        return refuse(ctx, Refusal(why.into())).await;
    }
    let engine = against_engine.then_some(match level {
        Some(LevelChoice::Easy) => "easy",
        Some(LevelChoice::Hard) => "hard",
        _ => "medium",
    });
    let options = ChallengeOptions {
        opponent: if against_engine {
            Some(me.clone())
        } else {
            opponent.as_ref().map(|u| player_ref(u, None))
        },
        size: size.map(usize::from),
        komi,
        seat: match seat {
            Some(SeatChoice::White) => Seat::White,
            Some(SeatChoice::Black) => Seat::Black,
            Some(SeatChoice::Random) | None => Seat::Random,
        },
        opening: match opening {
            Some(OpeningChoice::NoSwap) => Opening::NoSwap,
            _ => Opening::Swap,
        },
        reserves: None,
        tps,
        rated: rated.unwrap_or(false),
        reminder,
        time_limit: time,
        theme: theme.map(|t| t.name().to_string()),
        engine: engine.map(String::from),
    };
    if against_engine {
        // Bredon accepts at once; if it has White, its first ply follows.
        return act(ctx, Buttons::None, move |s, c| {
            s.challenge(c, &options)?;
            s.accept(&Ctx {
                user: me,
                ..c.clone()
            })
        })
        .await;
    }
    if thread == Some(true) {
        // Check first, so a refused challenge leaves no empty thread behind.
        let check = options.clone();
        let sctx = service_ctx(ctx);
        if let Err(r) = blocking(&ctx.data().service, move |s| {
            s.settings(sctx.guild)
                .and_then(|d| check.settings(&d).map(|_| ()))
        })
        .await
        {
            return refuse(ctx, r).await;
        }
        let name = format!(
            "Tak: {} vs {}",
            ctx.author().name,
            opponent.as_ref().map_or("anyone", |u| u.name.as_str())
        );
        let thread = ctx
            .channel_id()
            .create_thread(
                ctx,
                serenity::CreateThread::new(name).kind(serenity::ChannelType::PublicThread),
            )
            .await?;
        let mut sctx = service_ctx(ctx);
        sctx.channel = thread.id.get();
        return match blocking(&ctx.data().service, move |s| s.challenge(&sctx, &options)).await {
            Err(r) => refuse(ctx, r).await,
            Ok(outcome) => {
                let p = reply::parts(outcome, Buttons::Challenge).await;
                thread
                    .id
                    .send_message(
                        ctx,
                        serenity::CreateMessage::new()
                            .content(p.content)
                            .components(p.components),
                    )
                    .await?;
                ctx.send(
                    poise::CreateReply::default()
                        .content(format!("Challenge posted in <#{}>.", thread.id)),
                )
                .await?;
                Ok(())
            }
        };
    }
    act(ctx, Buttons::Challenge, move |s, c| {
        s.challenge(c, &options)
    })
    .await
}

async fn autocomplete_ply(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let channel = ctx.channel_id().get();
    let typed = partial.trim().to_string();
    let plies = blocking(&ctx.data().service, move |s| s.legal_plies(channel))
        .await
        .unwrap_or_default();
    rank_plies(plies, &typed)
}

/// Up to 25 legal plies matching what was typed: the exact ply first, then plies on or from the
/// typed square (placements before moves), then the rest; shorter before longer.
pub fn rank_plies(plies: Vec<String>, typed: &str) -> Vec<String> {
    // The square and what follows: `Sc3` and `2c3>11` both start at `c3`.
    fn core(p: &str) -> String {
        p.trim_start_matches(['S', 'C', 'F'])
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .to_ascii_lowercase()
    }
    fn kind(p: &str) -> u8 {
        match p.as_bytes().first() {
            Some(b'a'..=b'h') if p.len() == 2 => 0,
            Some(b'S') => 1,
            Some(b'C') => 2,
            _ => 3,
        }
    }
    let typed_lower = typed.to_ascii_lowercase();
    let typed_core = core(typed);
    let mut matching: Vec<String> = plies
        .into_iter()
        .filter(|p| p.to_ascii_lowercase().contains(&typed_lower))
        .collect();
    matching.sort_by_key(|p| {
        (
            p != typed,
            !core(p).starts_with(&typed_core),
            kind(p),
            p.len(),
            p.clone(),
        )
    });
    matching.truncate(25);
    matching
}

/// Play a ply in this channel's game (PTN: a1, Sb2, Cc3, 3c3>12).
#[poise::command(slash_command, guild_only, rename = "move")]
async fn play(
    ctx: Context<'_>,
    #[description = "Your ply in PTN, e.g. c3, Sd4, 3c3>12"]
    #[autocomplete = "autocomplete_ply"]
    ply: String,
) -> Result<(), Error> {
    act(ctx, Buttons::None, move |s, c| s.play(c, &ply)).await
}

/// Show this channel's board.
#[poise::command(slash_command, guild_only)]
async fn board(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, Buttons::None, |s, c| s.view(c)).await
}

/// Ask to take back the last ply (your opponent confirms).
#[poise::command(slash_command, guild_only)]
async fn undo(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, Buttons::Undo, |s, c| s.request_undo(c)).await
}

/// Offer a draw (your opponent accepts or declines).
#[poise::command(slash_command, guild_only)]
async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, Buttons::Draw, |s, c| s.offer_draw(c)).await
}

/// Resign this channel's game.
#[poise::command(slash_command, guild_only)]
async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, Buttons::None, |s, c| s.resign(c)).await
}

/// Challenge your last opponent again, seats swapped.
#[poise::command(slash_command, guild_only)]
async fn rematch(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, Buttons::Challenge, |s, c| s.rematch(c)).await
}

/// End this channel's game without result (moderators).
#[poise::command(slash_command, guild_only)]
async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, Buttons::None, |s, c| s.abort(c)).await
}

/// The PTN of this channel's game, as a file and a PTN Ninja link.
#[poise::command(slash_command, guild_only)]
async fn ptn(ctx: Context<'_>) -> Result<(), Error> {
    let sctx = service_ctx(ctx);
    match blocking(&ctx.data().service, move |s| s.ptn(&sctx)).await {
        Err(r) => refuse(ctx, r).await,
        Ok((text, link)) => {
            let file = serenity::CreateAttachment::bytes(text.into_bytes(), "game.ptn");
            ctx.send(
                poise::CreateReply::default()
                    .content(format!("Open in PTN Ninja: <{link}>"))
                    .attachment(file),
            )
            .await?;
            Ok(())
        }
    }
}

/// Runs `f` on a blocking thread and posts the text it returns; refusals go out ephemeral.
async fn say(
    ctx: Context<'_>,
    ephemeral: bool,
    f: impl FnOnce(&Service, &Ctx) -> Result<String, Refusal> + Send + 'static,
) -> Result<(), Error> {
    let sctx = service_ctx(ctx);
    match blocking(&ctx.data().service, move |s| f(s, &sctx)).await {
        Err(r) => refuse(ctx, r).await,
        Ok(text) => {
            let reply = poise::CreateReply::default()
                .content(text)
                .ephemeral(ephemeral);
            ctx.send(reply).await?;
            Ok(())
        }
    }
}

/// Someone's finished games in this server.
#[poise::command(slash_command, guild_only)]
async fn history(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| player_ref(u, None));
    say(ctx, false, move |s, c| {
        let who = who.unwrap_or_else(|| c.user.clone());
        let games = s.history(c, who.id)?;
        if games.is_empty() {
            return Err(Refusal(format!(
                "{} has no finished games in this server yet",
                who.name
            )));
        }
        let lines: Vec<String> = games
            .iter()
            .map(|g| {
                let (size, ptn) = (g.settings.size, g.result.ptn());
                format!(
                    "{} vs {}, {size}x{size}: **{ptn}** ({} plies)",
                    g.players[0].name,
                    g.players[1].name,
                    g.plies.len()
                )
            })
            .collect();
        Ok(format!("Last games of {}:\n{}", who.name, lines.join("\n")))
    })
    .await
}

/// Games being played in this server.
#[poise::command(slash_command, guild_only)]
async fn games(ctx: Context<'_>) -> Result<(), Error> {
    say(ctx, false, |s, c| {
        let list = s.live_games(c)?;
        if list.is_empty() {
            return Err(Refusal(
                "no games are running in this server: start one with /challenge".into(),
            ));
        }
        let lines: Vec<String> = list
            .iter()
            .map(|g| {
                let size = g.settings.size;
                format!(
                    "<#{}>: {} vs {}, {size}x{size}, ply {}",
                    g.channel,
                    g.players[0].name,
                    g.players[1].name,
                    g.plies.len()
                )
            })
            .collect();
        Ok(lines.join("\n"))
    })
    .await
}

/// A player's results and rating in this server.
#[poise::command(slash_command, guild_only)]
async fn stats(
    ctx: Context<'_>,
    #[description = "Whose stats (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| player_ref(u, None));
    say(ctx, false, move |s, c| {
        let st = s.stats(c, &who.unwrap_or_else(|| c.user.clone()))?;
        let p = &st.player;
        let rank = st
            .rank
            .map_or("unrated".to_string(), |r| format!("rank #{r}"));
        Ok(format!(
            "{}: {} wins, {} losses, {} draws. Rating {:.0} ± {:.0} ({rank}).",
            p.user.name,
            p.wins,
            p.losses,
            p.draws,
            p.rating,
            2.0 * p.deviation
        ))
    })
    .await
}

/// The best rated players in this server.
#[poise::command(slash_command, guild_only)]
async fn leaderboard(ctx: Context<'_>) -> Result<(), Error> {
    say(ctx, false, |s, c| {
        let list = s.leaderboard(c)?;
        if list.is_empty() {
            return Err(Refusal(
                "nobody has finished a rated game here yet: try /challenge rated:true".into(),
            ));
        }
        let lines: Vec<String> = list
            .iter()
            .take(15)
            .enumerate()
            .map(|(i, p)| {
                format!(
                    "{}. {} — {:.0} ({}-{}-{})",
                    i + 1,
                    p.user.name,
                    p.rating,
                    p.wins,
                    p.losses,
                    p.draws
                )
            })
            .collect();
        Ok(lines.join("\n"))
    })
    .await
}

/// Server defaults (moderators): theme, board size, reminder interval.
#[poise::command(slash_command, guild_only)]
async fn settings(
    ctx: Context<'_>,
    #[description = "Default theme"] theme: Option<ThemeChoice>,
    #[description = "Default board size"]
    #[min = 3]
    #[max = 8]
    size: Option<u8>,
    #[description = "Default reminder: 1h .. 2w, or off"] reminder: Option<String>,
) -> Result<(), Error> {
    say(ctx, true, move |s, c| {
        let st = if theme.is_none() && size.is_none() && reminder.is_none() {
            s.settings(c.guild)?
        } else {
            s.set_settings(
                c,
                theme.as_ref().map(ThemeChoice::name),
                size.map(usize::from),
                reminder.as_deref(),
            )?
        };
        let reminder = st
            .reminder_secs
            .map_or("off".to_string(), |r| format!("{} h", r / 3600));
        Ok(format!(
            "Server defaults: theme {}, size {}x{}, reminder {reminder}.",
            st.theme, st.size, st.size
        ))
    })
    .await
}

/// Draw any position (TPS or a PTN game) without starting a game.
#[poise::command(slash_command)]
async fn position(
    ctx: Context<'_>,
    #[description = "A position in TPS"] tps: Option<String>,
    #[description = "A PTN game (its final position is drawn)"] ptn: Option<String>,
    #[description = "Board theme"] theme: Option<ThemeChoice>,
) -> Result<(), Error> {
    let theme = theme.map_or("dark", |t| t.name()).to_string();
    let drawn = tokio::task::spawn_blocking(move || -> Result<(Vec<u8>, String), String> {
        let theme = crate::render::Theme::named(&theme)?;
        let game = match (tps, ptn) {
            (Some(tps), None) => crate::tak::Game::new(crate::tak::Position::from_tps(&tps)?),
            (None, Some(ptn)) => crate::tak::Game::from_ptn(&ptn).map_err(|e| e.to_string())?,
            _ => return Err("give exactly one of tps or ptn".into()),
        };
        let scene = crate::render::Scene::of_game(&game, ["Player 1", "Player 2"]);
        let scene = if game.plies().is_empty() {
            crate::render::Scene::of_position(game.position(), None, ["Player 1", "Player 2"])
        } else {
            scene
        };
        Ok((
            crate::render::render_png(&scene, &theme),
            crate::render::alt_text(&scene),
        ))
    })
    .await
    .unwrap_or_else(|e| Err(e.to_string()));
    match drawn {
        Err(why) => refuse(ctx, Refusal(why)).await,
        Ok((png, alt)) => {
            ctx.send(poise::CreateReply::default().attachment(
                serenity::CreateAttachment::bytes(png, "position.png").description(alt),
            ))
            .await?;
            Ok(())
        }
    }
}

const RULES: &str = "**Tak in one minute.** Make a *road*: a line of your flats or capstone joining opposite edges (no diagonals). \
Each turn, place a piece from your reserve on an empty square — a **flat**, a **wall** (blocks roads, cannot be stacked on) or your **capstone** \
(counts for roads, and alone flattens a wall) — or move a stack you control: pick up to the board size from the top and drop at least one on each square in a straight line. \
On the first turn each player places the **opponent's** flat. If the board fills or a player runs out of pieces, most flats on top wins (komi goes to Black). \
\"Tak!\" means a road is one ply away. Full rules: <https://ustak.org/play-beautiful-game-tak/>";

/// A short illustrated summary of the rules.
#[poise::command(slash_command)]
async fn rules(ctx: Context<'_>) -> Result<(), Error> {
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
    ctx.send(
        poise::CreateReply::default()
            .content(RULES)
            .attachment(file),
    )
    .await?;
    Ok(())
}

/// How to use Bredon.
#[poise::command(slash_command)]
async fn help(ctx: Context<'_>) -> Result<(), Error> {
    let text = "**Bredon** hosts correspondence Tak, one game per channel or thread.\n\
`/challenge [opponent]` start (size, komi, seat, time limit, rated, thread…) · `/move` play (autocompletes legal plies) · `/board` show the game\n\
`/undo` `/draw` ask your opponent · `/resign` · `/rematch` · `/ptn` export · `/history` `/stats` `/leaderboard` `/games`\n\
`/position` draw any TPS or PTN · `/rules` the rules in short · `/settings` server defaults (moderators) · `/abort` (moderators)";
    ctx.send(poise::CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// Buttons under challenges, undo requests, draw offers and finished games.
pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    else {
        return Ok(());
    };
    let Some(action) = press.data.custom_id.strip_prefix("bredon:") else {
        return Ok(());
    };
    let sctx = Ctx {
        guild: press.guild_id.map_or(0, |g| g.get()),
        channel: press.channel_id.get(),
        user: player_ref(&press.user, press.member.as_ref()),
        now_ms: reply::now_ms(),
        moderator: is_moderator(press.member.as_ref().and_then(|m| m.permissions)),
    };
    let action = action.to_string();
    let (buttons, result) = {
        let a = action.clone();
        let buttons = if a == "rematch" {
            Buttons::Challenge
        } else {
            Buttons::None
        };
        let result = blocking(&data.service, move |s| match a.as_str() {
            "accept" => s.accept(&sctx),
            "decline" => s.decline(&sctx),
            "cancel" => s.cancel(&sctx),
            "undo-yes" => s.answer_undo(&sctx, true),
            "undo-no" => s.answer_undo(&sctx, false),
            "draw-yes" => s.answer_draw(&sctx, true),
            "draw-no" => s.answer_draw(&sctx, false),
            "rematch" => s.rematch(&sctx),
            other => Err(Refusal(format!("unknown button `{other}`"))),
        })
        .await;
        (buttons, result)
    };
    let response = match result {
        Err(refusal) => serenity::CreateInteractionResponseMessage::new()
            .content(format!("✋ {refusal}"))
            .ephemeral(true),
        Ok(outcome) => {
            let p = reply::parts(outcome, buttons).await;
            serenity::CreateInteractionResponseMessage::new()
                .content(p.content)
                .add_files(p.files)
                .components(p.components)
        }
    };
    press
        .create_response(ctx, serenity::CreateInteractionResponse::Message(response))
        .await?;
    data.opponent
        .spawn_turn(Arc::clone(&ctx.http), press.channel_id.get());
    Ok(())
}

pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::warn!(command = ctx.command().name, %error, "command failed");
            let _ = ctx
                .send(poise::CreateReply::default().content("✋ Something went wrong talking to Discord; if your ply was accepted, /board shows it.").ephemeral(true))
                .await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!(error = %e, "error while handling an error");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autocomplete_puts_matches_and_placements_first() {
        let plies: Vec<String> = ["c3>", "Sc3", "c3", "Cc3", "2c3>11", "a1", "c3<"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            rank_plies(plies.clone(), "c3"),
            vec!["c3", "Sc3", "Cc3", "c3<", "c3>", "2c3>11"]
        );
        assert_eq!(
            rank_plies(plies.clone(), ""),
            vec!["a1", "c3", "Sc3", "Cc3", "c3<", "c3>", "2c3>11"]
        );
        let many: Vec<String> = (0..100).map(|i| format!("a{i}")).collect();
        assert_eq!(rank_plies(many, "a").len(), 25);
    }

    #[test]
    fn moderators_need_manage_permissions() {
        assert!(!is_moderator(None));
        assert!(!is_moderator(Some(serenity::Permissions::SEND_MESSAGES)));
        assert!(is_moderator(Some(serenity::Permissions::MANAGE_MESSAGES)));
        assert!(is_moderator(Some(serenity::Permissions::ADMINISTRATOR)));
    }
}
