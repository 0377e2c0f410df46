//! Puzzles: `/puzzle start`, `hint`, `give_up`, `daily`. Plies are played with `/move`.

use crate::bot::blocking::blocking;
use crate::bot::checks::{channel_kind, is_thread};
use crate::bot::respond::{act, act_asking, act_privately, service_ctx};
use crate::bot::threads::act_in_thread;
use crate::bot::{Context, Error};
use crate::engine::puzzles::{Difficulty, PuzzleKind};
use crate::service::{Outcome, PuzzleChoice};

#[derive(Debug, poise::ChoiceParameter)]
pub enum DifficultyChoice {
    Easy,
    Medium,
    Hard,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum PuzzleKindChoice {
    #[name = "play and win (force a road)"]
    Win,
    #[name = "play and survive (escape a threatened Tinuë)"]
    Survive,
    #[name = "play and win on flats (a Gaelet, near the end)"]
    Flats,
}

/// Puzzles: play and win by Tinuë, play and survive a threatened one, or win on flats; Bredon
/// defends.
#[poise::command(
    slash_command,
    subcommands("start", "hint", "give_up", "daily"),
    subcommand_required
)]
pub(super) async fn puzzle(_: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// A puzzle near your puzzle rating, in a thread of its own (or only for you).
#[poise::command(slash_command)]
async fn start(
    ctx: Context<'_>,
    #[description = "Play and win (the default), play and survive, or win on flats"] kind: Option<
        PuzzleKindChoice,
    >,
    #[description = "How hard"] difficulty: Option<DifficultyChoice>,
    #[description = "Board size"]
    #[min = 4]
    #[max = 8]
    size: Option<u8>,
    #[description = "A puzzle by its number"]
    #[min = 1]
    number: Option<u32>,
    #[description = "Only you see the puzzle and your plies"] private: Option<bool>,
) -> Result<(), Error> {
    let choice = PuzzleChoice {
        id: number,
        size: size.map(usize::from),
        difficulty: difficulty.map(|d| match d {
            DifficultyChoice::Easy => Difficulty::Easy,
            DifficultyChoice::Medium => Difficulty::Medium,
            DifficultyChoice::Hard => Difficulty::Hard,
        }),
        kind: match kind {
            Some(PuzzleKindChoice::Survive) => PuzzleKind::Survive,
            Some(PuzzleKindChoice::Flats) => PuzzleKind::Gaelet,
            Some(PuzzleKindChoice::Win) | None => PuzzleKind::Win,
        },
    };
    if private == Some(true) {
        return act_privately(ctx, move |s, c| s.start_puzzle(c, choice, true)).await;
    }
    // A thread without a game holds the puzzle; anywhere else, a thread of its own opens.
    let channel = ctx.channel_id().get();
    let busy = blocking(&ctx.data().service, move |s| s.has_game(channel))
        .await
        .unwrap_or(true);
    if is_thread(channel_kind(ctx)) && !busy {
        return act(ctx, move |s, c| s.start_puzzle(c, choice, false)).await;
    }
    let name = format!("Puzzle for {}", service_ctx(ctx).user.name);
    let check = move |s: &crate::service::Service, c: &crate::service::Ctx| {
        s.check_puzzle_choice(c, choice)
    };
    let start = move |s: &crate::service::Service, c: &crate::service::Ctx| {
        s.start_puzzle(c, choice, false)
    };
    let what = |_: &Outcome| "The puzzle is";
    act_in_thread(ctx, name, check, start, "", what).await
}

/// A hint for your puzzle: where to look, then the ply (the puzzle then counts as unsolved).
#[poise::command(slash_command)]
async fn hint(ctx: Context<'_>) -> Result<(), Error> {
    act_asking(ctx, |s, c, tell_private| s.puzzle_hint(c, tell_private)).await
}

/// Give up your puzzle and see the road.
#[poise::command(slash_command)]
async fn give_up(ctx: Context<'_>) -> Result<(), Error> {
    act_asking(ctx, |s, c, tell_private| s.give_up_puzzle(c, tell_private)).await
}

/// Today's puzzle of this server, solved privately (your time is kept for tomorrow's post).
#[poise::command(slash_command)]
async fn daily(ctx: Context<'_>) -> Result<(), Error> {
    act_privately(ctx, |s, c| s.start_daily_puzzle(c)).await
}
