//! Challenges: `/challenge`, the member menu's "Challenge to Tak", `/accept`, `/decline`,
//! `/cancel` and `/rematch`.

use crate::bot::blocking::blocking;
use crate::bot::choices::{
    autocomplete_hide, autocomplete_komi, autocomplete_reminder, autocomplete_time, GameChoice,
    LevelChoice, OpeningChoice, SeatChoice, StakesChoice, ThemeChoice,
};
use crate::bot::delivery::replies::refuse;
use crate::bot::respond::{act, option_player, service_ctx};
use crate::bot::threads::act_in_thread;
use crate::bot::{Context, Error};
use crate::service::{ChallengeOptions, Ctx, Outcome, Refusal, Service};
use crate::store::records::{Seat, Stakes};
use crate::tak::Opening;
use poise::serenity_prelude as serenity;

/// Challenge someone (or anyone) to a game of Tak (or Takat) in this channel.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
pub(super) async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play; leave out for an open challenge"] opponent: Option<
        serenity::User,
    >,
    #[description = "Which game (default Tak)"] game: Option<GameChoice>,
    #[description = "Board size: 3-8 for Tak; 7 or 19 circles for Takat"]
    #[min = 3]
    #[max = 19]
    size: Option<u8>,
    #[description = "Komi for Black, -20.5 to 20.5 in half steps"]
    #[autocomplete = "autocomplete_komi"]
    komi: Option<String>,
    #[description = "Your seat"] seat: Option<SeatChoice>,
    #[description = "Opening"] opening: Option<OpeningChoice>,
    #[description = "Time limit per move: 1d .. 2w"]
    #[autocomplete = "autocomplete_time"]
    time: Option<String>,
    #[description = "Remind the player to move after: 1h .. 2w, or off"]
    #[autocomplete = "autocomplete_reminder"]
    reminder: Option<String>,
    #[description = "Rated game"] rated: Option<bool>,
    #[description = "Start from this position: TPS, a PTN (where its main line ends), or Takat's"]
    tps: Option<String>,
    #[description = "Board theme"] theme: Option<ThemeChoice>,
    #[description = "Open a thread for the game"] thread: Option<bool>,
    #[description = "Blind game: no picture until the end, only the plies"] blind: Option<bool>,
    #[description = "Play against Bredon at this level (or pick Bredon as opponent)"] level: Option<
        LevelChoice,
    >,
    #[description = "Play for coins: University rules (antes, bids, Tak fees)"] stakes: Option<
        StakesChoice,
    >,
    #[description = "Pieces: stones/capstones for White, then Black (e.g. 30/1,30/1)"]
    #[max_length = 20]
    reserves: Option<String>,
    #[description = "Parts the pictures leave out: some of flats, roads, heights, labels; or none"]
    #[autocomplete = "autocomplete_hide"]
    #[max_length = 60]
    hide: Option<String>,
    #[description = "Show each player's reserve under the board (default: the server's choice)"]
    tray: Option<bool>,
) -> Result<(), Error> {
    let reserves = match reserves.as_deref().map(crate::service::parse_reserves) {
        Some(Err(r)) => return refuse(ctx, r).await,
        Some(Ok(r)) => Some(r),
        None => None,
    };
    let options = ChallengeOptions {
        game: GameChoice::kind(game),
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
        tps,
        rated: rated.unwrap_or(false),
        reminder,
        time_limit: time,
        theme: theme.map(|t| t.name().to_string()),
        blind: blind.unwrap_or(false),
        stakes: stakes.map(|_| Stakes::University),
        reserves,
        hide,
        tray,
        ..ChallengeOptions::default()
    };
    issue_challenge(ctx, opponent.as_ref(), level, options, thread == Some(true)).await
}

/// Right-click a member → Apps → "Challenge to Tak": a challenge with the server's defaults.
#[poise::command(context_menu_command = "Challenge to Tak")]
pub(super) async fn challenge_member(
    ctx: Context<'_>,
    member: serenity::User,
) -> Result<(), Error> {
    issue_challenge(ctx, Some(&member), None, ChallengeOptions::default(), false).await
}

/// A challenge to `opponent` (or an open one), or a game against Bredon's engine when Bredon is
/// the opponent or a level is given.
async fn issue_challenge(
    ctx: Context<'_>,
    opponent: Option<&serenity::User>,
    level: Option<LevelChoice>,
    mut options: ChallengeOptions,
    thread: bool,
) -> Result<(), Error> {
    let me = ctx.data().publisher.engine.me.clone();
    let human = opponent.filter(|u| u.id.get() != me.id);
    if let (Some(_), Some(person)) = (&level, human) {
        let why = format!(
            "a level sets Bredon's strength, so it needs Bredon as the opponent: leave the level \
             out to challenge {}, or leave the opponent out (or pick Bredon) to play Bredon",
            option_player(ctx, person).name
        );
        return refuse(ctx, Refusal(why)).await;
    }
    let against_engine = level.is_some() || opponent.is_some_and(|u| u.id.get() == me.id);
    if !against_engine && opponent.is_some_and(|u| u.bot) {
        let why =
            "other bots cannot play: challenge a person, Bredon itself, or leave the opponent out";
        return refuse(ctx, Refusal(why.into())).await;
    }
    options.opponent = if against_engine {
        Some(me.clone())
    } else {
        opponent.map(|u| option_player(ctx, u))
    };
    options.engine = against_engine.then(|| {
        match level {
            Some(LevelChoice::Beginner) => "beginner",
            Some(LevelChoice::Easy) => "easy",
            Some(LevelChoice::Hard) => "hard",
            Some(LevelChoice::Strongest) => "strongest",
            _ => "medium",
        }
        .to_string()
    });
    let check = options.clone();
    // Against Bredon, it accepts at once; if it has White, its first ply follows.
    let start = move |s: &Service, c: &Ctx| -> Result<Outcome, Refusal> {
        match against_engine {
            true => s.challenge_engine(c, &options, &me),
            false => s.challenge(c, &options),
        }
    };
    // A channel holds one game: a challenge made where a game runs goes to a new thread.
    let channel = ctx.channel_id().get();
    let busy = blocking(&ctx.data().service, move |s| s.has_game(channel))
        .await
        .unwrap_or(false);
    if thread || busy {
        let name = format!(
            "Tak: {} vs {}",
            service_ctx(ctx).user.name,
            check
                .opponent
                .as_ref()
                .map_or("anyone", |p| p.name.as_str())
        );
        let why = if busy && !thread {
            "This channel already has a game, so this one starts in a new thread: "
        } else {
            ""
        };
        let guild = service_ctx(ctx).guild;
        let check = move |s: &Service, _: &Ctx| {
            s.settings(guild)
                .and_then(|d| check.settings(&d).map(|_| ()))
        };
        let what = |o: &Outcome| match o.board.is_some() {
            true => "Game started",
            false => "Challenge posted",
        };
        return act_in_thread(ctx, name, check, start, why, what).await;
    }
    act(ctx, start).await
}

/// Accept the challenge open in this channel (the same as its Accept button).
#[poise::command(slash_command)]
pub(super) async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.accept(c)).await
}

/// Decline the challenge made to you in this channel.
#[poise::command(slash_command)]
pub(super) async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.decline(c)).await
}

/// Cancel your challenge in this channel (moderators can cancel any).
#[poise::command(slash_command)]
pub(super) async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.cancel(c)).await
}

/// Challenge your last opponent again, seats swapped.
#[poise::command(slash_command)]
pub(super) async fn rematch(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.rematch(c)).await
}
