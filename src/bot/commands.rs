//! Slash commands and buttons. Each one checks that Bredon may post its answer in the channel,
//! calls the service on a blocking thread, and answers: refusals ephemerally, outcomes as a new
//! message with the picture (a new message is what notifies the player to move; an edit never
//! does), within Discord's 3 seconds.

use super::reply::{self, escape, Post};
use super::{Context, Data, Error};
use crate::game::{Kind, Match};
use crate::render::Theme;
use crate::service::analysis::analyze_ptn;
use crate::service::{Answer, Bid, ChallengeOptions, Ctx, Outcome, Prompt, Refusal, Service};
use crate::store::records::{PlayerRef, Seat, Stakes};
use crate::tak::{Opening, Ply};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge(),
        challenge_member(),
        accept(),
        decline(),
        cancel(),
        play(),
        board(),
        undo(),
        draw(),
        resign(),
        rematch(),
        ptn(),
        analyze(),
        bid(),
        wallet(),
        history(),
        games(),
        mygames(),
        notify(),
        stats(),
        leaderboard(),
        settings(),
        super::tournament::tournament(),
        abort(),
        position(),
        rules(),
        help(),
    ]
}

/// A moderator may abort games: Manage Messages, Manage Server or Administrator.
fn is_moderator(permissions: Option<serenity::Permissions>) -> bool {
    permissions.is_some_and(|p| p.manage_messages() || p.manage_guild() || p.administrator())
}

/// Server-wide settings need Manage Server (or Administrator).
fn is_server_manager(permissions: Option<serenity::Permissions>) -> bool {
    permissions.is_some_and(|p| p.manage_guild() || p.administrator())
}

pub(super) fn player_ref(user: &serenity::User, member: Option<&serenity::Member>) -> PlayerRef {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    PlayerRef {
        id: user.id.get(),
        name,
    }
}

/// The slash command behind a context (every command here is a slash command).
fn interaction<'a>(ctx: Context<'a>) -> Option<&'a serenity::CommandInteraction> {
    match ctx {
        poise::Context::Application(app) => Some(app.interaction),
        poise::Context::Prefix(_) => None,
    }
}

fn member_permissions(ctx: Context<'_>) -> Option<serenity::Permissions> {
    interaction(ctx)
        .and_then(|i| i.member.as_deref())
        .and_then(|m| m.permissions)
}

fn service_ctx(ctx: Context<'_>) -> Ctx {
    let member = interaction(ctx).and_then(|i| i.member.as_deref());
    Ctx {
        guild: ctx.guild_id().map_or(0, |g| g.get()),
        channel: ctx.channel_id().get(),
        user: player_ref(ctx.author(), member),
        now_ms: reply::now_ms(),
        moderator: is_moderator(member_permissions(ctx)),
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
                "Bredon failed inside ({e}); look at /board"
            )))
        })
}

fn refusal_text(refusal: &Refusal) -> String {
    reply::fit(format!("✋ {}", escape(&refusal.0)))
}

pub(super) async fn refuse(ctx: Context<'_>, refusal: Refusal) -> Result<(), Error> {
    ctx.send(
        poise::CreateReply::default()
            .content(refusal_text(&refusal))
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

// ---- Permissions --------------------------------------------------------------------------

pub(super) fn is_thread(kind: Option<serenity::ChannelType>) -> bool {
    use serenity::ChannelType::{NewsThread, PrivateThread, PublicThread};
    matches!(kind, Some(PublicThread | PrivateThread | NewsThread))
}

/// What Bredon must be allowed in a channel to carry a game there: see it, post in it (in a
/// thread that is Send Messages in Threads: topics/threads, "Permissions"), and attach the
/// picture (needed for follow-ups with files). `opens_thread`: also start a public thread.
fn needed(in_thread: bool, opens_thread: bool) -> Vec<(serenity::Permissions, &'static str)> {
    use serenity::Permissions as P;
    let mut needs = vec![(P::VIEW_CHANNEL, "View Channel")];
    if in_thread || opens_thread {
        needs.push((P::SEND_MESSAGES_IN_THREADS, "Send Messages in Threads"));
    } else {
        needs.push((P::SEND_MESSAGES, "Send Messages"));
    }
    if opens_thread {
        needs.push((P::CREATE_PUBLIC_THREADS, "Create Public Threads"));
    }
    needs.push((P::ATTACH_FILES, "Attach Files"));
    needs
}

/// A refusal naming what Bredon lacks in the channel (`app_permissions` of the interaction), if
/// anything. Administrators have every permission.
fn missing_permissions(
    have: Option<serenity::Permissions>,
    in_thread: bool,
    opens_thread: bool,
) -> Option<Refusal> {
    let have = have?;
    if have.administrator() {
        return None;
    }
    let missing: Vec<&str> = needed(in_thread, opens_thread)
        .into_iter()
        .filter(|(p, _)| !have.contains(*p))
        .map(|(_, name)| name)
        .collect();
    (!missing.is_empty()).then(|| {
        Refusal(format!(
            "Bredon is missing the {} permission{} here, so it could not post the game; nothing was \
             changed. Ask a moderator to grant {} to Bredon in this channel, then try again",
            missing.join(", "),
            if missing.len() > 1 { "s" } else { "" },
            if missing.len() > 1 { "them" } else { "it" },
        ))
    })
}

pub(super) fn channel_kind(ctx: Context<'_>) -> Option<serenity::ChannelType> {
    interaction(ctx)
        .and_then(|i| i.channel.as_ref())
        .map(|c| c.kind)
}

pub(super) fn may_post(ctx: Context<'_>, opens_thread: bool) -> Option<Refusal> {
    let have = interaction(ctx).and_then(|i| i.app_permissions);
    missing_permissions(have, is_thread(channel_kind(ctx)), opens_thread)
}

// ---- Answering ----------------------------------------------------------------------------

type Work = tokio::task::JoinHandle<Result<(Outcome, Post), Refusal>>;

/// Runs a service action (after checking Bredon may post here) and answers it.
pub(super) async fn act(
    ctx: Context<'_>,
    f: impl FnOnce(&Service, &Ctx) -> Result<Outcome, Refusal> + Send + 'static,
) -> Result<(), Error> {
    if let Some(refusal) = may_post(ctx, false) {
        return refuse(ctx, refusal).await;
    }
    let sctx = service_ctx(ctx);
    let service = Arc::clone(&ctx.data().service);
    let work: Work = tokio::spawn(async move {
        let outcome = blocking(&service, move |s| f(s, &sctx)).await?;
        let post = reply::announce(&outcome).await;
        Ok((outcome, post))
    });
    respond(ctx, work).await?;
    ctx.data().opponent.spawn_turn(
        Arc::clone(&ctx.serenity_context().http),
        ctx.channel_id().get(),
    );
    Ok(())
}

/// Answers with the work's outcome as a new message, so its pings notify. Work that takes longer
/// than `Data::defer_after` (1.5 s; Discord wants the first response within 3 s:
/// interactions/receiving-and-responding) is deferred; then the "thinking" message is edited into
/// the outcome and the pings follow as a new message (an edit notifies no one). A finished game's
/// record follows.
/// Whether anything needs the id of an outcome's message: a live board (jump links) or a DM.
fn wants_message_id(outcome: &Outcome) -> bool {
    matches!(outcome.prompt, Some(Prompt::Board { .. })) || !outcome.direct.is_empty()
}

async fn respond(ctx: Context<'_>, mut work: Work) -> Result<(), Error> {
    let defer_after = ctx.data().defer_after;
    let (done, deferred) = match tokio::time::timeout(defer_after, &mut work).await {
        Ok(done) => (done, false),
        Err(_) => {
            ctx.defer().await?;
            (work.await, true)
        }
    };
    let done = done.unwrap_or_else(|e| {
        Err(Refusal(format!(
            "Bredon failed inside ({e}); look at /board"
        )))
    });
    let Some(interaction) = interaction(ctx) else {
        return Ok(());
    };
    let http = &ctx.serenity_context().http;
    let channel = ctx.channel_id().get();
    let outcome = match (done, deferred) {
        (Err(refusal), false) => return refuse(ctx, refusal).await,
        (Err(refusal), true) => {
            // The public "thinking" message goes; the refusal is for the user alone.
            interaction.delete_response(http).await?;
            return refuse(ctx, refusal).await;
        }
        (Ok((outcome, post)), false) => {
            let handle = ctx.send(post.reply()).await?;
            // The response's id (for jump links and DMs) costs one more request: only if used.
            let message = match wants_message_id(&outcome) {
                true => handle.message().await.ok().map(|m| m.id.get()),
                false => None,
            };
            reply::after_post(http, &ctx.data().service, channel, &outcome, message).await;
            outcome
        }
        (Ok((outcome, post)), true) => {
            let pings = post.mentions.clone();
            let mut edit = serenity::EditInteractionResponse::new()
                .content(post.content.clone())
                .components(post.components.clone())
                .allowed_mentions(serenity::CreateAllowedMentions::new());
            for file in post.files {
                edit = edit.new_attachment(file);
            }
            let edited = interaction.edit_response(http, edit).await?;
            let message = Some(edited.id.get());
            reply::after_post(http, &ctx.data().service, channel, &outcome, message).await;
            if !pings.is_empty() {
                let ping = Post {
                    content: format!(
                        "{}: see Bredon's answer above.",
                        reply::mention_line(&pings)
                    ),
                    files: Vec::new(),
                    components: Vec::new(),
                    mentions: pings,
                };
                ctx.send(ping.reply()).await?;
            }
            outcome
        }
    };
    if let Some(record) = reply::record(&outcome).await {
        ctx.send(record.reply()).await?;
    }
    Ok(())
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum LevelChoice {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
    // Last, so the indices of the older choices stay what they were.
    #[name = "beginner"]
    Beginner,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum StakesChoice {
    #[name = "university (the rulebook's gambling rules)"]
    University,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum MakersChoice {
    #[name = "anyone"]
    Anyone,
    #[name = "moderators"]
    Moderators,
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

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum GameChoice {
    #[name = "Tak"]
    Tak,
    #[name = "Takat (hexagonal stacking game)"]
    Takat,
}

impl GameChoice {
    fn kind(choice: Option<GameChoice>) -> Kind {
        match choice {
            Some(GameChoice::Takat) => Kind::Takat,
            Some(GameChoice::Tak) | None => Kind::Tak,
        }
    }
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
    #[name = "colorblind-light"]
    ColorblindLight,
    #[name = "tritan"]
    Tritan,
    #[name = "high-contrast"]
    HighContrast,
    #[name = "wood"]
    Wood,
    #[name = "slate"]
    Slate,
}

impl ThemeChoice {
    fn name(&self) -> &'static str {
        match self {
            ThemeChoice::Dark => "dark",
            ThemeChoice::Light => "light",
            ThemeChoice::Colorblind => "colorblind",
            ThemeChoice::ColorblindLight => "colorblind-light",
            ThemeChoice::Tritan => "tritan",
            ThemeChoice::HighContrast => "high-contrast",
            ThemeChoice::Wood => "wood",
            ThemeChoice::Slate => "slate",
        }
    }
}

/// Challenge someone (or anyone) to a game of Tak (or Takat) in this channel.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
async fn challenge(
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
    #[description = "Start from this position (TPS, or a Takat position string)"] tps: Option<
        String,
    >,
    #[description = "Board theme"] theme: Option<ThemeChoice>,
    #[description = "Open a thread for the game"] thread: Option<bool>,
    #[description = "Blind game: no picture until the end, only the plies"] blind: Option<bool>,
    #[description = "Play against Bredon at this level (or pick Bredon as opponent)"] level: Option<
        LevelChoice,
    >,
    #[description = "Play for coins: University rules (antes, bids, Tak fees)"] stakes: Option<
        StakesChoice,
    >,
) -> Result<(), Error> {
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
        ..ChallengeOptions::default()
    };
    issue_challenge(ctx, opponent.as_ref(), level, options, thread == Some(true)).await
}

/// Right-click a member → Apps → "Challenge to Tak": a challenge with the server's defaults.
#[poise::command(context_menu_command = "Challenge to Tak", guild_only)]
async fn challenge_member(ctx: Context<'_>, member: serenity::User) -> Result<(), Error> {
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
    let me = ctx.data().opponent.engine.me.clone();
    let against_engine = level.is_some() || opponent.is_some_and(|u| u.id.get() == me.id);
    if !against_engine && opponent.is_some_and(|u| u.bot) {
        let why =
            "other bots cannot play: challenge a person, Bredon itself, or leave the opponent out";
        return refuse(ctx, Refusal(why.into())).await;
    }
    options.opponent = if against_engine {
        Some(me.clone())
    } else {
        opponent.map(|u| player_ref(u, None))
    };
    options.engine = against_engine.then(|| {
        match level {
            Some(LevelChoice::Beginner) => "beginner",
            Some(LevelChoice::Easy) => "easy",
            Some(LevelChoice::Hard) => "hard",
            _ => "medium",
        }
        .to_string()
    });
    let check = options.clone();
    // Against Bredon, it accepts at once; if it has White, its first ply follows.
    let start = move |s: &Service, c: &Ctx| -> Result<Outcome, Refusal> {
        let outcome = s.challenge(c, &options)?;
        if against_engine {
            return s.accept(&Ctx {
                user: me,
                ..c.clone()
            });
        }
        Ok(outcome)
    };
    // A channel holds one game: a challenge made where a game runs goes to a new thread.
    let channel = ctx.channel_id().get();
    let busy = blocking(&ctx.data().service, move |s| {
        Ok(s.store().game(channel)?.is_some())
    })
    .await
    .unwrap_or(false);
    if thread || busy {
        let name = format!(
            "Tak: {} vs {}",
            ctx.author().name,
            opponent.map_or("anyone", |u| u.name.as_str())
        );
        let why = if busy && !thread {
            "This channel already has a game, so this one starts in a new thread: "
        } else {
            ""
        };
        return challenge_in_thread(ctx, name, check, start, why).await;
    }
    act(ctx, start).await
}

/// A challenge (or an engine game) in a new public thread that stays listed for a week; `why`
/// starts the answer that points at the thread.
async fn challenge_in_thread(
    ctx: Context<'_>,
    name: String,
    check: ChallengeOptions,
    start: impl FnOnce(&Service, &Ctx) -> Result<Outcome, Refusal> + Send + 'static,
    why: &str,
) -> Result<(), Error> {
    if let Some(refusal) = may_post(ctx, true) {
        return refuse(ctx, refusal).await;
    }
    // Check first, so a refused challenge leaves no empty thread behind.
    let guild = service_ctx(ctx).guild;
    let checked = blocking(&ctx.data().service, move |s| {
        s.settings(guild)
            .and_then(|d| check.settings(&d).map(|_| ()))
    })
    .await;
    if let Err(refusal) = checked {
        return refuse(ctx, refusal).await;
    }
    let Some(interaction) = interaction(ctx) else {
        return Ok(());
    };
    // Creating a thread is a round trip to Discord: answer "thinking" first.
    ctx.defer().await?;
    let thread = ctx
        .channel_id()
        .create_thread(
            ctx,
            serenity::CreateThread::new(name)
                .kind(serenity::ChannelType::PublicThread)
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
        )
        .await?;
    let mut sctx = service_ctx(ctx);
    sctx.channel = thread.id.get();
    let http = &ctx.serenity_context().http;
    match blocking(&ctx.data().service, move |s| start(s, &sctx)).await {
        Err(refusal) => {
            interaction.delete_response(http).await?;
            refuse(ctx, refusal).await
        }
        Ok(outcome) => {
            let started = outcome.board.is_some();
            let post = reply::announce(&outcome).await;
            let posted = thread.id.send_message(http, post.message()).await?;
            let (channel, message) = (thread.id.get(), Some(posted.id.get()));
            reply::after_post(http, &ctx.data().service, channel, &outcome, message).await;
            let what = if started {
                "Game started"
            } else {
                "Challenge posted"
            };
            interaction
                .edit_response(
                    http,
                    serenity::EditInteractionResponse::new()
                        .content(format!("{why}{what} in <#{}>.", thread.id)),
                )
                .await?;
            ctx.data()
                .opponent
                .spawn_turn(Arc::clone(http), thread.id.get());
            Ok(())
        }
    }
}

/// Presets offered while typing a free-text option: (value, label). Anything else may be typed.
const KOMI_PRESETS: [(&str, &str); 6] = [
    ("0", "0 (none)"),
    ("1", "1"),
    ("1.5", "1.5"),
    ("2", "2 (usual on 6x6)"),
    ("2.5", "2.5"),
    ("3", "3"),
];
const TIME_PRESETS: [(&str, &str); 5] = [
    ("1d", "1 day per move"),
    ("2d", "2 days per move"),
    ("3d", "3 days per move"),
    ("1w", "1 week per move"),
    ("2w", "2 weeks per move"),
];
const REMINDER_PRESETS: [(&str, &str); 5] = [
    ("12h", "after 12 hours"),
    ("1d", "after 1 day"),
    ("2d", "after 2 days"),
    ("1w", "after 1 week"),
    ("off", "no reminders"),
];

/// The presets that start with what was typed, and what was typed itself when it is no preset.
pub(super) fn presets(
    presets: &[(&str, &str)],
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    let typed = partial.trim();
    let mut choices: Vec<serenity::AutocompleteChoice> = presets
        .iter()
        .filter(|(value, _)| value.starts_with(typed))
        .map(|(value, label)| serenity::AutocompleteChoice::new(*label, *value))
        .collect();
    if !typed.is_empty() && !presets.iter().any(|(value, _)| *value == typed) {
        let own: String = typed.chars().take(100).collect();
        choices.insert(0, serenity::AutocompleteChoice::new(own.clone(), own));
    }
    choices
}

pub(super) async fn autocomplete_komi(
    _ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    presets(&KOMI_PRESETS, partial)
}

pub(super) async fn autocomplete_time(
    _ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    presets(&TIME_PRESETS, partial)
}

async fn autocomplete_reminder(
    _ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    presets(&REMINDER_PRESETS, partial)
}

/// The legal plies that match what was typed, each with a label that says what it does and
/// marks the ones that win, make Tak or are Tinuë.
async fn autocomplete_ply(ctx: Context<'_>, partial: &str) -> Vec<serenity::AutocompleteChoice> {
    let channel = ctx.channel_id().get();
    let typed = partial.trim().to_string();
    blocking(&ctx.data().service, move |s| {
        let plies = rank_plies(s.legal_plies(channel)?, &typed);
        let labels = s.label_plies(channel, &plies)?;
        Ok(labels
            .into_iter()
            .zip(plies)
            .map(|(label, ply)| serenity::AutocompleteChoice::new(label, ply))
            .collect())
    })
    .await
    .unwrap_or_default()
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
    act(ctx, move |s, c| s.play(c, &ply)).await
}

/// Accept the challenge open in this channel (the same as its Accept button).
#[poise::command(slash_command, guild_only)]
async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.accept(c)).await
}

/// Decline the challenge made to you in this channel.
#[poise::command(slash_command, guild_only)]
async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.decline(c)).await
}

/// Cancel your challenge in this channel (moderators can cancel any).
#[poise::command(slash_command, guild_only)]
async fn cancel(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.cancel(c)).await
}

/// Show this channel's board.
#[poise::command(slash_command, guild_only)]
async fn board(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.view(c)).await
}

/// Ask to take back the last ply (your opponent confirms).
#[poise::command(slash_command, guild_only)]
async fn undo(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.request_undo(c)).await
}

/// Offer a draw (your opponent accepts or declines).
#[poise::command(slash_command, guild_only)]
async fn draw(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.offer_draw(c)).await
}

/// Resign this channel's game.
#[poise::command(slash_command, guild_only)]
async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.resign(c)).await
}

/// Challenge your last opponent again, seats swapped.
#[poise::command(slash_command, guild_only)]
async fn rematch(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.rematch(c)).await
}

/// End this channel's game without result (moderators).
#[poise::command(
    slash_command,
    guild_only,
    default_member_permissions = "MANAGE_MESSAGES"
)]
async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.abort(c)).await
}

/// The PTN of this channel's game, as a file and a PTN Ninja link.
#[poise::command(slash_command, guild_only)]
async fn ptn(ctx: Context<'_>) -> Result<(), Error> {
    let sctx = service_ctx(ctx);
    match blocking(&ctx.data().service, move |s| s.ptn(&sctx)).await {
        Err(r) => refuse(ctx, r).await,
        Ok(record) => {
            let mut post = Post::text(match &record.link {
                Some(link) => reply::link_line(link, 0),
                None => "The game record:".into(),
            });
            post.files.push(serenity::CreateAttachment::bytes(
                record.text.into_bytes(),
                record.file,
            ));
            ctx.send(post.reply()).await?;
            Ok(())
        }
    }
}

/// An analysis takes at most this long in all (Discord keeps an interaction's token for 15
/// minutes: interactions/receiving-and-responding); long games get less time per position.
const ANALYSIS_BUDGET: Duration = Duration::from_secs(300);
/// The "thinking" message shows the analysis's progress this often.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Analyse this channel's last finished game: mistakes marked, an evaluation chart, annotated PTN.
#[poise::command(slash_command, guild_only)]
async fn analyze(ctx: Context<'_>) -> Result<(), Error> {
    if let Some(refusal) = may_post(ctx, false) {
        return refuse(ctx, refusal).await;
    }
    let sctx = service_ctx(ctx);
    let record = match blocking(&ctx.data().service, move |s| s.finished_record(&sctx)).await {
        Ok(record) if crate::game::is_takat_record(&record) => {
            return refuse(
                ctx,
                Refusal("the last game here is Takat: analysis is for Tak games".into()),
            )
            .await
        }
        Ok(record) => record,
        Err(r) => return refuse(ctx, r).await,
    };
    ctx.defer().await?;
    let Some(interaction) = interaction(ctx) else {
        return Ok(());
    };
    let http = &ctx.serenity_context().http;
    // At most one position per word of the record (tags and move numbers make it fewer).
    let positions = record.split_whitespace().count().max(1) as u32;
    let per_position = ctx
        .data()
        .analysis_per_position
        .min(ANALYSIS_BUDGET / positions);
    let (progress, mut seen) = tokio::sync::watch::channel((0usize, 0usize));
    let mut work = tokio::task::spawn_blocking(move || {
        let limits = crate::engine::Limits {
            time: Some(per_position),
            ..Default::default()
        };
        analyze_ptn(&record, &limits, &Theme::default(), |done, total| {
            progress.send_replace((done, total));
        })
    });
    let report = loop {
        tokio::select! {
            done = &mut work => break done,
            _ = tokio::time::sleep(PROGRESS_EVERY) => {
                let (done, total) = *seen.borrow_and_update();
                let edit = serenity::EditInteractionResponse::new()
                    .content(format!("Analysing the game: position {done} of {total}…"))
                    .allowed_mentions(serenity::CreateAllowedMentions::new());
                interaction.edit_response(http, edit).await?;
            }
        }
    };
    let report = match report {
        Ok(Ok(report)) => report,
        Ok(Err(reason)) => {
            interaction.delete_response(http).await?;
            return refuse(
                ctx,
                Refusal(format!("the record cannot be analysed: {reason}")),
            )
            .await;
        }
        Err(e) => {
            interaction.delete_response(http).await?;
            return refuse(
                ctx,
                Refusal(format!("Bredon failed inside ({e}); try again")),
            )
            .await;
        }
    };
    let edit = serenity::EditInteractionResponse::new()
        .content(reply::analysis_text(&report))
        .allowed_mentions(serenity::CreateAllowedMentions::new())
        .new_attachment(serenity::CreateAttachment::bytes(
            report.chart,
            "evaluation.png",
        ))
        .new_attachment(serenity::CreateAttachment::bytes(
            report.ptn.into_bytes(),
            "analysis.ptn",
        ));
    interaction.edit_response(http, edit).await?;
    // An edit notifies no one: the one who asked is told in a new message.
    let asker = ctx.author().id.get();
    let ping = Post {
        content: format!(
            "{}: the analysis is ready (above).",
            reply::mention_line(&[asker])
        ),
        files: Vec::new(),
        components: Vec::new(),
        mentions: vec![asker],
    };
    ctx.send(ping.reply()).await?;
    Ok(())
}

/// Bid for the first move of this channel's University game (sealed: only you see your bid).
#[poise::command(slash_command, guild_only)]
async fn bid(
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
        Ok(Bid::Sealed(text)) => {
            ctx.send(Post::text(text).reply().ephemeral(true)).await?;
            Ok(())
        }
        Ok(Bid::Settled(outcome)) => {
            let outcome = *outcome;
            let work: Work = tokio::spawn(async move {
                let post = reply::announce(&outcome).await;
                Ok((outcome, post))
            });
            respond(ctx, work).await
        }
    }
}

/// Coins for University games: yours, someone's, or the server's richest.
#[poise::command(slash_command, guild_only)]
async fn wallet(
    ctx: Context<'_>,
    #[description = "Whose coins (default: yours)"] user: Option<serenity::User>,
    #[description = "The server's richest players instead"] top: Option<bool>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| player_ref(u, None));
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

/// Runs `f` on a blocking thread and posts the text it returns (already escaped where it holds
/// names); refusals go out ephemeral.
pub(super) async fn say(
    ctx: Context<'_>,
    ephemeral: bool,
    f: impl FnOnce(&Service, &Ctx) -> Result<String, Refusal> + Send + 'static,
) -> Result<(), Error> {
    let sctx = service_ctx(ctx);
    match blocking(&ctx.data().service, move |s| f(s, &sctx)).await {
        Err(r) => refuse(ctx, r).await,
        Ok(text) => {
            ctx.send(Post::text(text).reply().ephemeral(ephemeral))
                .await?;
            Ok(())
        }
    }
}

/// Someone's finished games in this server (only you see the answer, unless public).
#[poise::command(slash_command, guild_only)]
async fn history(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| player_ref(u, None));
    say(ctx, !public.unwrap_or(false), move |s, c| {
        let who = who.unwrap_or_else(|| c.user.clone());
        let games = s.history(c, who.id)?;
        if games.is_empty() {
            return Err(Refusal(format!(
                "{} has no finished games in this server yet",
                who.name
            )));
        }
        let name = |p: &PlayerRef| escape(&p.name);
        let lines: Vec<String> = games
            .iter()
            .map(|g| {
                format!(
                    "{} vs {}, {} on {}: **{}** ({} plies)",
                    name(&g.players[0]),
                    name(&g.players[1]),
                    g.settings.game.name(),
                    g.settings.game.board(g.settings.size),
                    g.result.code(),
                    g.plies.len()
                )
            })
            .collect();
        Ok(format!(
            "Last games of {}:\n{}",
            name(&who),
            lines.join("\n")
        ))
    })
    .await
}

/// Games per page of `/games` and `/mygames`: a line is at most ~210 characters (two names cut
/// to 24, a jump link), so 8 stay well below Discord's 2000.
const GAMES_PER_PAGE: usize = 8;

/// Games being played in this server, the longest waiting first.
#[poise::command(slash_command, guild_only)]
async fn games(
    ctx: Context<'_>,
    #[description = "Page of the list"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    list_games(ctx, page, false).await
}

/// Your games in this server: whose turn, since when, the deadline, and a link to the board.
#[poise::command(slash_command, guild_only)]
async fn mygames(
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

/// One game in a list: channel, players, whose turn, the last ply, the deadline, the board.
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
    let mut line = format!(
        "<#{}>: {who}, ply {} · {turn} · last ply <t:{}:R>",
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
        let link = reply::jump_link(c.guild, g.channel, g.board_message);
        line.push_str(&format!(" · [board]({link})"));
    }
    line
}

/// Your notifications: a direct message when it is your move, and how often to remind you.
#[poise::command(slash_command)]
async fn notify(
    ctx: Context<'_>,
    #[description = "A direct message when it becomes your move"] dm: Option<bool>,
    #[description = "Remind me after: 1h .. 2w, off, or game (as each game says)"]
    #[autocomplete = "autocomplete_reminder"]
    reminder: Option<String>,
) -> Result<(), Error> {
    say(ctx, true, move |s, c| {
        let prefs = s.set_prefs(c.user.id, dm, reminder.as_deref())?;
        let reminder = match prefs.reminder {
            crate::store::records::ReminderPref::Game => "as each game says".to_string(),
            crate::store::records::ReminderPref::Off => "never".to_string(),
            crate::store::records::ReminderPref::Every(secs) => {
                format!(
                    "after {} without a ply",
                    crate::service::describe_secs(secs)
                )
            }
        };
        Ok(format!(
            "Direct messages when it is your move: {}. Reminders: {reminder}.",
            if prefs.dm { "on" } else { "off" }
        ))
    })
    .await
}

/// A name cut to 24 characters for lists.
fn short(name: &str) -> String {
    let mut s: String = name.chars().take(24).collect();
    if name.chars().count() > 24 {
        s.push('…');
    }
    s
}

/// A player's results and rating in this server (only you see the answer, unless public).
#[poise::command(slash_command, guild_only)]
async fn stats(
    ctx: Context<'_>,
    #[description = "Whose stats (default: yours)"] user: Option<serenity::User>,
    #[description = "Which game (default Tak)"] game: Option<GameChoice>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let who = user.as_ref().map(|u| player_ref(u, None));
    let kind = GameChoice::kind(game);
    say(ctx, !public.unwrap_or(false), move |s, c| {
        let st = s.stats(c, &who.unwrap_or_else(|| c.user.clone()), kind)?;
        let p = &st.player;
        let rank = st
            .rank
            .map_or("unrated".to_string(), |r| format!("rank #{r}"));
        Ok(format!(
            "{} in {}: {} wins, {} losses, {} draws. Rating {:.0} ± {:.0} ({rank}).",
            escape(&p.user.name),
            kind.name(),
            p.wins,
            p.losses,
            p.draws,
            p.rating,
            2.0 * p.deviation
        ))
    })
    .await
}

/// The best rated players in this server (only you see the answer, unless public).
#[poise::command(slash_command, guild_only)]
async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which game (default Tak)"] game: Option<GameChoice>,
    #[description = "Show the answer to the channel"] public: Option<bool>,
) -> Result<(), Error> {
    let kind = GameChoice::kind(game);
    say(ctx, !public.unwrap_or(false), move |s, c| {
        let list = s.leaderboard(c, kind)?;
        if list.is_empty() {
            return Err(Refusal(format!(
                "nobody has finished a rated game of {} here yet: try /challenge rated:true",
                kind.name()
            )));
        }
        let lines: Vec<String> = list
            .iter()
            .take(15)
            .enumerate()
            .map(|(i, p)| {
                format!(
                    "{}. {} — {:.0} ({}-{}-{})",
                    i + 1,
                    escape(&short(&p.user.name)),
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

/// Server defaults (Manage Server): theme, board size, reminder interval.
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
async fn settings(
    ctx: Context<'_>,
    #[description = "Default theme"] theme: Option<ThemeChoice>,
    #[description = "Default board size"]
    #[min = 3]
    #[max = 8]
    size: Option<u8>,
    #[description = "Default reminder: 1h .. 2w, or off"]
    #[autocomplete = "autocomplete_reminder"]
    reminder: Option<String>,
    #[description = "Coins each player starts with for University games"]
    #[min = 10]
    #[max = 1000000]
    coins: Option<i64>,
    #[description = "Who may create tournaments"] tournaments: Option<MakersChoice>,
) -> Result<(), Error> {
    let manager = is_server_manager(member_permissions(ctx));
    say(ctx, true, move |s, c| {
        let c = &Ctx {
            moderator: manager,
            ..c.clone()
        };
        if let Some(n) = coins {
            s.set_starting_coins(c, n)?;
        }
        if let Some(who) = tournaments {
            s.set_tournament_makers(
                c,
                match who {
                    MakersChoice::Anyone => "anyone",
                    MakersChoice::Moderators => "moderators",
                },
            )?;
        }
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
            "Server defaults: theme {}, size {}x{}, reminder {reminder}, University games start \
             with {} coins, tournaments are created by {}.",
            st.theme,
            st.size,
            st.size,
            st.starting_coins,
            if st.open_tournaments {
                "anyone"
            } else {
                "moderators"
            }
        ))
    })
    .await
}

/// Draw any position (TPS or a PTN game; a Takat position string or record) without starting a
/// game.
#[poise::command(slash_command)]
async fn position(
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

const TAKAT_RULES: &str = "**Takat in one minute.** A hexagonal board of 7 circles (or 19). White has 6 pieces \
and wins with a **stack of six** (any colours, whoever builds it); Black has 15 and wins when White **cannot move** (either side \
who cannot move loses). Each turn, **enter** one of your pieces on an empty circle (never the centre), or **move** the top piece of any \
stack, of either colour, to a neighbouring circle whose stack is at most one higher than the stack it leaves. No stack over six; \
you may not move the piece your opponent just moved; Black must enter while it has fewer pieces on the board than White. \
Two of a colour on top: only that player may move the top piece (gold lock); three on a red circle: nobody may (lock on red). \
Two neighbouring stacks of four or more may not both have safe tops of one colour. The third repetition draws.";

/// A short illustrated summary of the rules.
#[poise::command(slash_command)]
async fn rules(
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
        ctx.send(
            poise::CreateReply::default()
                .content(TAKAT_RULES)
                .attachment(file),
        )
        .await?;
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

/// Gateway events: button presses, and the channel changes that matter to games (a thread
/// archived, a channel deleted, Bredon removed from a server).
pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(press),
        } => on_press(ctx, press, data).await,
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Modal(submit),
        } => on_move_modal(ctx, submit, data).await,
        serenity::FullEvent::ThreadUpdate { new, .. } => {
            on_thread_update(ctx, new, data).await;
            Ok(())
        }
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            gone(data, channel.id.get()).await;
            Ok(())
        }
        serenity::FullEvent::ThreadDelete { thread, .. } => {
            gone(data, thread.id.get()).await;
            Ok(())
        }
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            // Removed from the server (an outage sets `unavailable`): its games stop their
            // timers; the records stay, in case Bredon is invited back.
            let (service, guild) = (Arc::clone(&data.service), incomplete.id.get());
            let stopped = blocking(&service, move |s| s.guild_gone(guild)).await;
            tracing::info!(guild, ?stopped, "removed from a server");
            Ok(())
        }
        _ => Ok(()),
    }
}

async fn gone(data: &Data, channel: u64) {
    let service = Arc::clone(&data.service);
    if let Ok(true) = blocking(&service, move |s| s.channel_gone(channel)).await {
        tracing::info!(channel, "channel deleted; its game's timers stop");
    }
}

/// Users cannot run commands in an archived thread (topics/threads, "Active & Archived
/// Threads"), so a thread with a game or challenge is unarchived at once, unless a moderator
/// locked it: then the game stops posting there (kept, for a moderator's /abort).
async fn on_thread_update(ctx: &serenity::Context, thread: &serenity::GuildChannel, data: &Data) {
    let Some(meta) = thread.thread_metadata.filter(|m| m.archived) else {
        return;
    };
    let channel = thread.id.get();
    let store = data.service.store().clone();
    let busy = tokio::task::spawn_blocking(move || {
        Ok::<_, crate::store::StoreError>(
            store.game(channel)?.is_some() || store.challenge(channel)?.is_some(),
        )
    })
    .await;
    if !matches!(busy, Ok(Ok(true))) {
        return;
    }
    if meta.locked {
        tracing::info!(
            channel,
            "game thread locked by a moderator; posting there stops"
        );
        gone(data, channel).await;
        return;
    }
    let reopened = thread
        .id
        .edit_thread(&ctx.http, serenity::EditThread::new().archived(false))
        .await;
    if let Err(e) = reopened {
        tracing::warn!(channel, error = %reply::describe(&e), "could not unarchive a game thread");
        if matches!(reply::classify(&e), reply::Failure::Gone) {
            gone(data, channel).await;
        }
    }
}

/// An autocomplete request carries a focused option.
fn is_autocomplete(interaction: &serenity::CommandInteraction) -> bool {
    interaction.data.options.iter().any(|o| {
        matches!(
            o.value,
            serenity::CommandDataOptionValue::Autocomplete { .. }
        )
    })
}

/// Buttons whose ids an older Bredon wrote no longer say which request they answer.
const OLD_BUTTON: &str = "this button comes from an older version of Bredon and no longer works; \
     use /accept, /decline, /cancel, /undo, /draw or /rematch instead";

/// A button press: acknowledged at once (DEFERRED_UPDATE_MESSAGE: no loading state, and the
/// message's files stay, which serenity's UPDATE_MESSAGE would clear), answered by the service,
/// then the pressed message shows who pressed what with its buttons disabled, and the outcome
/// follows as a new message that pings.
async fn on_press(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
) -> Result<(), Error> {
    let Some((prompt, answer)) = reply::parse_custom_id(&press.data.custom_id) else {
        press
            .create_response(ctx, ephemeral(&Refusal(OLD_BUTTON.into())))
            .await?;
        return Ok(());
    };
    let in_thread = is_thread(press.channel.as_ref().map(|c| c.kind));
    if let Some(refusal) = missing_permissions(press.app_permissions, in_thread, false) {
        press.create_response(ctx, ephemeral(&refusal)).await?;
        return Ok(());
    }
    if let (Prompt::Board { .. }, Answer::Resign | Answer::Moves | Answer::Move) = (prompt, answer)
    {
        return answer_privately(ctx, press, data, prompt, answer).await;
    }
    press
        .create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
        .await?;
    let sctx = press_ctx(press);
    let who = sctx.user.name.clone();
    let outcome = match blocking(&data.service, move |s| s.answer(&sctx, prompt, answer)).await {
        Ok(outcome) => outcome,
        Err(refusal) => {
            let text = serenity::CreateInteractionResponseFollowup::new()
                .content(refusal_text(&refusal))
                .allowed_mentions(serenity::CreateAllowedMentions::new())
                .ephemeral(true);
            press.create_followup(ctx, text).await?;
            return Ok(());
        }
    };
    // A question's buttons are spent once answered; a board keeps its buttons until it is old.
    if !matches!(prompt, Prompt::Board { .. }) {
        let pressed = format!(
            "{}\n*{} pressed {}.*",
            press.message.content,
            escape(&who),
            reply::label(prompt, answer)
        );
        press
            .edit_response(
                ctx,
                serenity::EditInteractionResponse::new()
                    .content(reply::fit(pressed))
                    .components(reply::buttons(prompt, true))
                    .allowed_mentions(serenity::CreateAllowedMentions::new()),
            )
            .await?;
    }
    let posted = press
        .create_followup(ctx, reply::announce(&outcome).await.followup())
        .await?;
    let channel = press.channel_id.get();
    reply::after_post(
        &ctx.http,
        &data.service,
        channel,
        &outcome,
        Some(posted.id.get()),
    )
    .await;
    if let Some(record) = reply::record(&outcome).await {
        press.create_followup(ctx, record.followup()).await?;
    }
    data.opponent
        .spawn_turn(Arc::clone(&ctx.http), press.channel_id.get());
    Ok(())
}

fn press_ctx(press: &serenity::ComponentInteraction) -> Ctx {
    interaction_ctx(
        press.guild_id,
        press.channel_id,
        &press.user,
        press.member.as_ref(),
    )
}

/// The service context of an interaction outside poise (a button press, a form).
fn interaction_ctx(
    guild: Option<serenity::GuildId>,
    channel: serenity::ChannelId,
    user: &serenity::User,
    member: Option<&serenity::Member>,
) -> Ctx {
    Ctx {
        guild: guild.map_or(0, |g| g.get()),
        channel: channel.get(),
        user: player_ref(user, member),
        now_ms: reply::now_ms(),
        moderator: is_moderator(member.and_then(|m| m.permissions)),
    }
}

/// A private answer: a refusal only the presser sees.
fn ephemeral(refusal: &Refusal) -> serenity::CreateInteractionResponse {
    serenity::CreateInteractionResponse::Message(
        serenity::CreateInteractionResponseMessage::new()
            .content(refusal_text(refusal))
            .allowed_mentions(serenity::CreateAllowedMentions::new())
            .ephemeral(true),
    )
}

/// Board buttons whose answer is for the presser alone: the legal plies, "really resign?", or a
/// form to type a ply in.
async fn answer_privately(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    data: &Data,
    prompt: Prompt,
    answer: Answer,
) -> Result<(), Error> {
    let sctx = press_ctx(press);
    let checked = blocking(&data.service, move |s| {
        s.check_board(&sctx, prompt)?;
        match answer {
            Answer::Moves => s.legal_plies(sctx.channel).map(Some),
            _ => Ok(None),
        }
    })
    .await;
    if let (Ok(_), Answer::Move) = (&checked, answer) {
        let input = serenity::CreateInputText::new(
            serenity::InputTextStyle::Short,
            "Your ply (PTN)",
            "ply",
        )
        .placeholder("c3, Sd4, Cb2, 3c3>12")
        .max_length(32);
        let modal = serenity::CreateModal::new(reply::move_id(prompt), "Your move")
            .components(vec![serenity::CreateActionRow::InputText(input)]);
        press
            .create_response(ctx, serenity::CreateInteractionResponse::Modal(modal))
            .await?;
        return Ok(());
    }
    let message = serenity::CreateInteractionResponseMessage::new()
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    let message = match (checked, prompt) {
        (Err(refusal), _) => message.content(refusal_text(&refusal)),
        (Ok(Some(plies)), _) => message.content(reply::fit(plies_by_square(&plies))),
        (Ok(None), Prompt::Board { game, position }) => message
            .content("Resign this game? Your opponent wins; this cannot be taken back.")
            .components(reply::buttons(Prompt::Resign { game, position }, false)),
        (Ok(None), _) => message.content("✋ that button does not belong to a board"),
    };
    press
        .create_response(ctx, serenity::CreateInteractionResponse::Message(message))
        .await?;
    Ok(())
}

/// A ply typed in the Move form: played on the board the form was opened from, and answered like
/// `/move`, with a new message that pings the player to move.
async fn on_move_modal(
    ctx: &serenity::Context,
    submit: &serenity::ModalInteraction,
    data: &Data,
) -> Result<(), Error> {
    let typed = submit
        .data
        .components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(t) if t.custom_id == "ply" => t.value.clone(),
            _ => None,
        })
        .unwrap_or_default();
    let prompt = reply::parse_custom_id(&submit.data.custom_id)
        .map(|(prompt, _)| prompt)
        .filter(|p| matches!(p, Prompt::Board { .. }));
    let in_thread = is_thread(submit.channel.as_ref().map(|c| c.kind));
    let refused = match prompt {
        None => Some(Refusal(OLD_BUTTON.into())),
        Some(_) => missing_permissions(submit.app_permissions, in_thread, false),
    };
    let (Some(prompt), None) = (prompt, &refused) else {
        let refusal = refused.unwrap_or_else(|| Refusal(OLD_BUTTON.into()));
        submit.create_response(ctx, ephemeral(&refusal)).await?;
        return Ok(());
    };
    let sctx = interaction_ctx(
        submit.guild_id,
        submit.channel_id,
        &submit.user,
        submit.member.as_ref(),
    );
    let played = blocking(&data.service, move |s| {
        s.check_board(&sctx, prompt)?;
        s.play(&sctx, &typed)
    })
    .await;
    let outcome = match played {
        Err(refusal) => {
            submit.create_response(ctx, ephemeral(&refusal)).await?;
            return Ok(());
        }
        Ok(outcome) => outcome,
    };
    let post = reply::announce(&outcome).await;
    let response = serenity::CreateInteractionResponseMessage::new()
        .allowed_mentions(post.allowed_mentions())
        .content(post.content)
        .add_files(post.files)
        .components(post.components);
    submit
        .create_response(ctx, serenity::CreateInteractionResponse::Message(response))
        .await?;
    let message = match wants_message_id(&outcome) {
        true => submit.get_response(ctx).await.ok().map(|m| m.id.get()),
        false => None,
    };
    let channel = submit.channel_id.get();
    reply::after_post(&ctx.http, &data.service, channel, &outcome, message).await;
    if let Some(record) = reply::record(&outcome).await {
        submit.create_followup(ctx, record.followup()).await?;
    }
    data.opponent
        .spawn_turn(Arc::clone(&ctx.http), submit.channel_id.get());
    Ok(())
}

/// Legal plies grouped by the square they place on or move from, one line a square.
fn plies_by_square(plies: &[String]) -> String {
    let mut squares: Vec<(String, Vec<&str>)> = Vec::new();
    for ply in plies {
        let square: String = ply
            .trim_start_matches(['S', 'C'])
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .chars()
            .take(2)
            .collect();
        match squares.iter_mut().find(|(s, _)| *s == square) {
            Some((_, list)) => list.push(ply),
            None => squares.push((square, vec![ply])),
        }
    }
    squares.sort_by(|a, b| a.0.cmp(&b.0));
    let lines: Vec<String> = squares
        .iter()
        .map(|(square, list)| format!("**{square}**: {}", list.join(" ")))
        .collect();
    format!("{} legal plies:\n{}", plies.len(), lines.join("\n"))
}

pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    let outdated = "Discord still shows an older version of this command; reload Discord \
                    (Ctrl+R, or restart the app) and try again";
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::warn!(command = ctx.command().name, %error, "command failed");
            let _ = ctx
                .send(poise::CreateReply::default().content("✋ Something went wrong talking to Discord; if your ply was accepted, /board shows it.").ephemeral(true))
                .await;
        }
        poise::FrameworkError::UnknownInteraction {
            ctx, interaction, ..
        } => {
            // A command Bredon no longer has (Discord's command list was not updated yet).
            let response = if is_autocomplete(interaction) {
                serenity::CreateInteractionResponse::Autocomplete(
                    serenity::CreateAutocompleteResponse::new(),
                )
            } else {
                serenity::CreateInteractionResponse::Message(
                    serenity::CreateInteractionResponseMessage::new()
                        .content(format!(
                            "✋ Bredon has no /{} command any more. {outdated}; /help lists the commands.",
                            escape(&interaction.data.name)
                        ))
                        .ephemeral(true),
                )
            };
            if let Err(e) = interaction.create_response(ctx, response).await {
                tracing::warn!(error = %e, "could not answer an unknown command");
            }
        }
        poise::FrameworkError::ArgumentParse { ctx, error, .. } => {
            let text = format!(
                "✋ Bredon could not read the options of /{}: {}. {outdated}.",
                ctx.command().name,
                escape(&crate::tak::quote(&error.to_string()))
            );
            let _ = ctx.send(Post::text(text).reply().ephemeral(true)).await;
        }
        poise::FrameworkError::CommandStructureMismatch {
            ctx, description, ..
        } => {
            tracing::info!(
                command = ctx.command.name,
                description,
                "outdated command options"
            );
            let text = format!(
                "✋ The options of /{} have changed. {outdated}.",
                ctx.command.name
            );
            let _ = poise::Context::Application(ctx)
                .send(Post::text(text).reply().ephemeral(true))
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
        assert!(!is_server_manager(Some(
            serenity::Permissions::MANAGE_MESSAGES
        )));
        assert!(is_server_manager(Some(serenity::Permissions::MANAGE_GUILD)));
    }

    #[test]
    fn legal_plies_are_grouped_by_square() {
        let plies: Vec<String> = ["a1", "Sa1", "b2", "a1>", "2b2<11", "Cb2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            plies_by_square(&plies),
            "6 legal plies:\n**a1**: a1 Sa1 a1>\n**b2**: b2 2b2<11 Cb2"
        );
    }

    #[test]
    fn missing_permissions_are_named() {
        type P = serenity::Permissions;
        let post = P::VIEW_CHANNEL | P::SEND_MESSAGES | P::ATTACH_FILES;
        assert_eq!(missing_permissions(Some(post), false, false), None);
        assert_eq!(
            missing_permissions(None, false, false),
            None,
            "unknown: not refused"
        );
        let why = missing_permissions(Some(P::VIEW_CHANNEL | P::SEND_MESSAGES), false, false)
            .unwrap()
            .0;
        assert!(why.contains("the Attach Files permission here"), "{why}");
        let why = missing_permissions(Some(post), true, false).unwrap().0;
        assert!(why.contains("Send Messages in Threads"), "{why}");
        let why = missing_permissions(Some(post), false, true).unwrap().0;
        assert!(
            why.contains("Send Messages in Threads, Create Public Threads permissions"),
            "{why}"
        );
        assert_eq!(
            missing_permissions(Some(P::ADMINISTRATOR), true, true),
            None
        );
    }
}
