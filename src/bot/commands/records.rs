//! Records: `/ptn`, `/history`, `/games`, `/mygames`, `/stats`, `/leaderboard`.

use crate::bot::blocking::blocking;
use crate::bot::checks::may_attach;
use crate::bot::choices::GameChoice;
use crate::bot::delivery::replies::{refuse, reply};
use crate::bot::post::{escape, jump_link, link_line, Post, MAX_CONTENT};
use crate::bot::respond::{option_player, say, service_ctx};
use crate::bot::{Context, Error};
use crate::service::{Ctx, Leaderboard, Refusal, Service};
use crate::store::records::PlayerRef;
use poise::serenity_prelude as serenity;

/// The PTN of this channel's game (or of a finished one), as a file and a PTN Ninja link.
#[poise::command(slash_command)]
pub(super) async fn ptn(
    ctx: Context<'_>,
    #[description = "Which finished game of this server (its number in /history)"]
    #[min = 1]
    game: Option<u64>,
    #[description = "Your private notes on the game as comments (only you see this answer)"]
    notes: Option<bool>,
) -> Result<(), Error> {
    // Where Bredon may not attach files: the link alone, or the record as text if it fits.
    let sctx = service_ctx(ctx);
    let private = notes.unwrap_or(false);
    let record = blocking(&ctx.data().service, move |s| match private {
        true => s.ptn_with_notes(&sctx, game),
        false => s.ptn(&sctx, game),
    });
    let record = match record.await {
        Err(r) => return refuse(ctx, r).await,
        Ok(record) => record,
    };
    let attach = may_attach(ctx);
    let mut post = Post::text(match (&record.link, attach) {
        (Some(link), true) => link_line(link, 0),
        (Some(link), false) => format!(
            "{} (Bredon may not attach files here, so no .ptn file.)",
            link_line(link, 60)
        ),
        (None, true) => "The game record:".into(),
        (None, false) if record.text.chars().count() < MAX_CONTENT - 10 => {
            format!("```\n{}```", record.text.replace('`', "'"))
        }
        (None, false) => "The record is too long for a message, and Bredon may not attach \
                          files here: a moderator can give it Attach Files."
            .into(),
    });
    if attach {
        post.files.push(serenity::CreateAttachment::bytes(
            record.text.into_bytes(),
            record.file,
        ));
    }
    reply(ctx, post, private).await
}

/// Someone's finished games in this server (only you see the answer, unless public).
#[poise::command(slash_command)]
pub(super) async fn history(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| option_player(ctx, u));
    say(ctx, !public.unwrap_or(false), move |s, c| {
        let who = who.unwrap_or_else(|| c.user.clone());
        let games = s.history(c, who.id)?;
        if games.is_empty() {
            return Err(Refusal(format!(
                "{} has no finished games in this server yet",
                who.name
            )));
        }
        // Names cut as in game lists, so ten games always fit in one message.
        let name = |p: &PlayerRef| escape(&short(&p.name));
        let lines: Vec<String> = games
            .iter()
            .map(|g| {
                format!(
                    "#{} {} vs {}, {} on {}: **{}** {} ({} plies)",
                    g.shown_number(),
                    name(&g.players[0]),
                    name(&g.players[1]),
                    g.settings.game.name(),
                    g.settings.game.board(g.settings.size),
                    g.result.code(),
                    g.result.how(),
                    g.plies.len()
                )
            })
            .collect();
        Ok(format!(
            "Last games of {} (`game:` of /board, /ptn and /analyze takes the number):\n{}",
            name(&who),
            lines.join("\n")
        ))
    })
    .await
}

/// Games per page of `/games` and `/mygames`: a line is at most ~230 characters (its number,
/// two names cut to 24, a jump link), so 8 stay below Discord's 2000.
const GAMES_PER_PAGE: usize = 8;

/// Games being played in this server, the longest waiting first.
#[poise::command(slash_command, guild_only)]
pub(super) async fn games(
    ctx: Context<'_>,
    #[description = "Page of the list"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    list_games(ctx, page, false).await
}

/// Your games in this server: whose turn, since when, the deadline, and a link to the board.
#[poise::command(slash_command)]
pub(super) async fn mygames(
    ctx: Context<'_>,
    #[description = "Page of the list"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    list_games(ctx, page, true).await
}

/// `/games` (public, everyone's) or `/mygames` (private, the user's).
async fn list_games(ctx: Context<'_>, page: Option<u32>, mine: bool) -> Result<(), Error> {
    let page = page.unwrap_or(1).max(1) as usize;
    let command = if mine { "mygames" } else { "games" };
    say(ctx, mine, move |s, c| {
        let list = s.summaries(c, mine.then_some(c.user.id))?;
        if list.is_empty() {
            let none = if mine {
                "you are not playing in this server: start a game with /challenge"
            } else {
                "no games are running in this server: start one with /challenge"
            };
            return Err(Refusal(none.into()));
        }
        let pages = list.len().div_ceil(GAMES_PER_PAGE);
        if page > pages {
            return Err(Refusal(format!(
                "there are {pages} pages of games; ask for page 1 to {pages}"
            )));
        }
        let mut lines: Vec<String> = list
            .iter()
            .skip((page - 1) * GAMES_PER_PAGE)
            .take(GAMES_PER_PAGE)
            .map(|g| game_line(g, c, mine))
            .collect();
        if pages > 1 {
            lines.push(format!(
                "Page {page} of {pages} ({} games); more with /{command} page:{}",
                list.len(),
                page % pages + 1
            ));
        }
        Ok(lines.join("\n"))
    })
    .await
}

/// One game in a list: number, channel, players, whose turn, the last ply, the deadline, the
/// board.
fn game_line(g: &crate::service::Summary, c: &Ctx, mine: bool) -> String {
    let name = |p: &PlayerRef| escape(&short(&p.name));
    let who = if mine {
        let other = g
            .players
            .iter()
            .find(|p| p.id != c.user.id)
            .unwrap_or(&g.players[0]);
        format!("vs {}", name(other))
    } else {
        format!(
            "{} vs {}, {} on {}",
            name(&g.players[0]),
            name(&g.players[1]),
            g.game.name(),
            g.game.board(g.size)
        )
    };
    let turn = if mine && g.to_move.id == c.user.id {
        "**your move**".to_string()
    } else {
        format!("{} to move", name(&g.to_move))
    };
    // A game with no ply yet counts from its start.
    let since = if g.plies == 0 { "started" } else { "last ply" };
    let mut line = format!(
        "Game #{} in <#{}>: {who}, ply {} · {turn} · {since} <t:{}:R>",
        g.number,
        g.channel,
        g.plies,
        g.last_ply_ms.div_euclid(1000)
    );
    if let Some(deadline) = g.deadline_ms {
        line.push_str(&format!(
            " · time runs out <t:{}:R>",
            deadline.div_euclid(1000)
        ));
    }
    if g.board_message.is_some() {
        let link = jump_link(c.guild, g.channel, g.board_message);
        line.push_str(&format!(" · [board]({link})"));
    }
    // Only the asker's own list holds their notes: the newest, cut as names are.
    if let (true, Some(newest)) = (mine, &g.newest_note) {
        let more = match g.notes {
            1 => String::new(),
            n => format!(" (+{} more)", n - 1),
        };
        line.push_str(&format!(
            " · your note: “{}”{more}",
            escape(&cut(newest, 40))
        ));
    }
    line
}

/// A name cut to 24 characters for lists.
fn short(name: &str) -> String {
    cut(name, 24)
}

/// `text` cut to `chars` characters, marked with `…` where it was cut.
fn cut(text: &str, chars: usize) -> String {
    let mut s: String = text.chars().take(chars).collect();
    if text.chars().count() > chars {
        s.push('…');
    }
    s
}

/// A player's results and ratings per board size (only you see the answer, unless public).
#[poise::command(slash_command)]
pub(super) async fn stats(
    ctx: Context<'_>,
    #[description = "Whose stats (default: yours)"] user: Option<serenity::User>,
    #[description = "Which game (default Tak)"] game: Option<GameChoice>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| option_player(ctx, u));
    let kind = GameChoice::kind(game);
    say(ctx, !public.unwrap_or(false), move |s, c| {
        let who = who.unwrap_or_else(|| c.user.clone());
        let sizes = s.stats(c, &who, kind)?;
        let mut lines = vec![format!("{} in {}:", escape(&who.name), kind.name())];
        lines.extend(sizes.iter().map(|st| format!("- {}", st.describe())));
        Ok(lines.join("\n"))
    })
    .await
}

/// The best rated players in this server on one board size (only you see the answer, unless
/// public).
#[poise::command(slash_command)]
pub(super) async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which game, or the puzzle solvers (default Tak)"] game: Option<RankingChoice>,
    #[description = "Board size (default: the server's); 3x3 and 4x4 are never rated"]
    #[min = 3]
    #[max = 19]
    size: Option<u8>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let kind = match game {
        Some(RankingChoice::Puzzles) => {
            return say(ctx, !public.unwrap_or(false), puzzle_leaderboard).await;
        }
        Some(RankingChoice::Takat) => GameChoice::kind(Some(GameChoice::Takat)),
        _ => GameChoice::kind(None),
    };
    say(ctx, !public.unwrap_or(false), move |s, c| {
        let board = s.leaderboard(c, kind, size.map(usize::from))?;
        let others = other_sizes(&board);
        if board.players.is_empty() {
            return Err(Refusal(format!(
                "nobody has finished a rated game of {} on {} here yet: try /challenge \
                 rated:true{others}",
                kind.name(),
                kind.board(board.size)
            )));
        }
        let mut lines = vec![format!(
            "{} on {}{}:",
            kind.name(),
            kind.board(board.size),
            if board.askers_size {
                " (the size you play most; `size:` shows another)"
            } else {
                ""
            }
        )];
        lines.extend(board.players.iter().take(15).enumerate().map(|(i, p)| {
            format!(
                "{}. {} — {:.0} ({}-{}-{})",
                i + 1,
                escape(&short(&p.user.name)),
                p.rating,
                p.wins,
                p.losses,
                p.draws
            )
        }));
        lines.push(others.trim_start_matches("; ").to_string());
        Ok(lines.join("\n").trim_end().to_string())
    })
    .await
}

/// What `/leaderboard` ranks: players of a game, or puzzle solvers.
#[derive(Debug, poise::ChoiceParameter)]
pub enum RankingChoice {
    Tak,
    #[name = "Takat"]
    Takat,
    #[name = "Puzzles (solvers' puzzle ratings)"]
    Puzzles,
}

/// The best puzzle solvers of this server.
fn puzzle_leaderboard(s: &Service, c: &Ctx) -> Result<String, Refusal> {
    let players = s.puzzle_leaderboard(c)?;
    if players.is_empty() {
        return Err(Refusal(
            "nobody here has finished a puzzle yet: try /puzzle start".into(),
        ));
    }
    let mut lines = vec!["Puzzle solvers:".to_string()];
    lines.extend(players.iter().take(15).enumerate().map(|(i, p)| {
        format!(
            "{}. {} — {:.0} ({} solved, {} not)",
            i + 1,
            escape(&short(&p.player.name)),
            p.rating.rating,
            p.solved,
            p.failed
        )
    }));
    Ok(lines.join("\n"))
}

/// "; other sizes rated here: 5x5 (size:5)", or nothing.
fn other_sizes(board: &Leaderboard) -> String {
    if board.other_sizes.is_empty() {
        return String::new();
    }
    let sizes: Vec<String> = board
        .other_sizes
        .iter()
        .map(|&n| format!("{} (`size:{n}`)", board.game.board(n)))
        .collect();
    format!("; other sizes rated here: {}", sizes.join(", "))
}
