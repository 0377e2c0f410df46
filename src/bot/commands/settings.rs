//! Settings, moderation and absence: `/settings`, `/notify`, `/vacation`, `/abort`.

use crate::bot::checks::{is_server_manager, member_permissions};
use crate::bot::choices::{
    autocomplete_hide, autocomplete_komi, autocomplete_reminder, MakersChoice, ThemeChoice,
};
use crate::bot::respond::{act, say};
use crate::bot::{Context, Error, TypedPlies};
use crate::service::Ctx;
use poise::serenity_prelude as serenity;

/// Server defaults (Manage Server): theme, board size, reminder interval.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only, default_member_permissions = "MANAGE_GUILD")]
pub(super) async fn settings(
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
    #[description = "Vacation days each player may take a year (0: none)"]
    #[min = 0]
    #[max = 365]
    vacation_days: Option<u32>,
    #[description = "Komi for challenges that name none, on komi_size (0: none)"]
    #[autocomplete = "autocomplete_komi"]
    komi: Option<String>,
    #[description = "The board size `komi` is for (default: the server's size)"]
    #[min = 3]
    #[max = 8]
    komi_size: Option<u8>,
    #[description = "Parts pictures leave out: some of flats, roads, heights, labels; or none"]
    #[autocomplete = "autocomplete_hide"]
    #[max_length = 60]
    hide: Option<String>,
    #[description = "Players may type plies as plain messages in their game's channel"]
    typed_plies: Option<bool>,
    #[description = "Pictures show each player's reserve under the board"] tray: Option<bool>,
    #[description = "Post a puzzle every day in this channel"]
    #[channel_types("Text")]
    puzzle_channel: Option<serenity::GuildChannel>,
    #[description = "The hour (UTC) the daily puzzle is posted at"]
    #[min = 0]
    #[max = 23]
    puzzle_hour: Option<u32>,
    #[description = "false: no more daily puzzles"] daily_puzzle: Option<bool>,
    #[description = "Finished games here may be mined for puzzles (default true)"]
    puzzle_mining: Option<bool>,
    #[description = "Read-only web pages of this server's games (default false)"] web: Option<bool>,
    #[description = "true: the web pages get a new address (the old one stops working)"]
    web_reset: Option<bool>,
    #[description = "Channels the web pages list though not everyone sees them: #mentions, or none"]
    #[max_length = 600]
    web_channels: Option<String>,
) -> Result<(), Error> {
    let puzzle_channel = puzzle_channel.map(|c| c.id.get());
    let manager = is_server_manager(member_permissions(ctx));
    let reading = ctx.data().typed_plies;
    let web_url = ctx.data().web_url.clone();
    say(ctx, true, move |s, c| {
        let c = &Ctx {
            moderator: manager,
            request: None,
            ..c.clone()
        };
        if let Some(n) = coins {
            s.set_starting_coins(c, n)?;
        }
        if let Some(h) = &hide {
            s.set_display(c, h)?;
        }
        if let Some(k) = &komi {
            s.set_server_komi(c, komi_size.map(usize::from), k)?;
        }
        if let Some(on) = tray {
            s.set_tray(c, on)?;
        }
        if let Some(on) = typed_plies {
            s.set_typed_plies(c, on)?;
        }
        if let Some(on) = puzzle_mining {
            s.set_puzzle_mining(c, on)?;
        }
        if let Some(on) = web {
            s.set_web(c, on)?;
        }
        if web_reset == Some(true) {
            s.reset_web(c)?;
        }
        if let Some(text) = &web_channels {
            s.set_web_channels(c, text)?;
        }
        let puzzles_off = daily_puzzle == Some(false);
        if puzzle_channel.is_some() || puzzle_hour.is_some() || puzzles_off {
            s.set_puzzle_channel(c, puzzle_channel, puzzle_hour, puzzles_off)?;
        }
        if let Some(days) = vacation_days {
            s.set_vacation_days(c, days)?;
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
            "Server defaults: theme {}, {}, size {}x{}, {}, reminder {reminder}, University \
             games start with {} coins, tournaments are created by {}, {} a year.",
            st.theme,
            st.describe_display(),
            st.size,
            st.size,
            st.describe_komi(),
            st.starting_coins,
            if st.open_tournaments {
                "anyone"
            } else {
                "moderators"
            },
            crate::words::count(st.vacation_days, "vacation day")
        ) + &describe_typed_plies(st.typed_plies, reading)
            + &describe_daily_puzzle(st.puzzle_channel, st.puzzle_hour)
            + match st.puzzle_mining {
                true => " Finished games may be mined for puzzles.",
                false => " Finished games are not mined for puzzles.",
            }
            + &describe_web(st.web_slug.as_deref(), web_url.as_deref())
            + &describe_web_channels(&st.web_channels))
    })
    .await
}

/// " Web pages: …", off, or where anyone with the address reads them.
fn describe_web(slug: Option<&str>, url: Option<&str>) -> String {
    match (slug, url) {
        (None, _) => " Web pages: off.".into(),
        (Some(slug), Some(url)) => format!(
            " Web pages: on, at <{}/s/{slug}> for anyone with the address (`web_reset:true` \
             gives a new one).",
            url.trim_end_matches('/')
        ),
        (Some(slug), None) => format!(
            " Web pages: on (address /s/{slug}), but this Bredon serves none: its operator sets \
             BREDON_WEB_ADDR and BREDON_WEB_URL."
        ),
    }
}

/// The channels the web pages list though not everyone sees them, if any.
fn describe_web_channels(channels: &[u64]) -> String {
    if channels.is_empty() {
        return String::new();
    }
    let named: Vec<String> = channels.iter().map(|c| format!("<#{c}>")).collect();
    format!(
        " Listed on the web pages though not everyone sees them: {} (`web_channels:none` \
         lists none).",
        named.join(", ")
    )
}

/// " Daily puzzle: …", where and when.
fn describe_daily_puzzle(channel: Option<u64>, hour: u32) -> String {
    match channel {
        Some(c) => {
            format!(" Daily puzzle: in <#{c}> at {hour:02}:00 UTC (solved with /puzzle daily).")
        }
        None => " Daily puzzle: off (a moderator sets puzzle_channel).".into(),
    }
}

/// " Typed plies: …", as this server set them and as this Bredon can read them.
fn describe_typed_plies(on: bool, reading: TypedPlies) -> String {
    let how = match (on, reading) {
        (false, _) => "off (moves are played with /move)",
        (true, TypedPlies::Plain) => "on: the player to move may type a ply (c3) as a message",
        (true, TypedPlies::Mention) => {
            "on, as a mention: the player to move types @Bredon c3 (this Bredon is not run to \
             read other messages)"
        }
        (true, TypedPlies::Off) => {
            "on, but this Bredon is not run to read messages: its operator sets \
             BREDON_TYPED_PLIES (see the README); until then, /move"
        }
    };
    format!(" Typed plies: {how}.")
}

/// Your notifications: a direct message when it is your move, reminders, a daily digest.
#[poise::command(slash_command)]
pub(super) async fn notify(
    ctx: Context<'_>,
    #[description = "A direct message when it becomes your move"] dm: Option<bool>,
    #[description = "Remind me after: 1h .. 2w, off, or game (as each game says)"]
    #[autocomplete = "autocomplete_reminder"]
    reminder: Option<String>,
    #[description = "One direct message a day at this hour (UTC, 0-23) listing your games to move; off"]
    #[max_length = 8]
    digest: Option<String>,
) -> Result<(), Error> {
    say(ctx, true, move |s, c| {
        let hour = digest
            .as_deref()
            .map(crate::service::digest_hour)
            .transpose()?;
        let mut prefs = s.set_prefs(c.user.id, dm, reminder.as_deref())?;
        if let Some(hour) = hour {
            prefs = s.set_digest(c.user.id, hour)?;
        }
        Ok(crate::service::describe_prefs(&prefs))
    })
    .await
}

/// Take days off: the clocks of all your games in this server stand still until you are back.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("vacation_start", "vacation_end")
)]
pub(super) async fn vacation(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Start a vacation of some days (your server's yearly allowance counts them).
#[poise::command(slash_command, guild_only, rename = "start")]
async fn vacation_start(
    ctx: Context<'_>,
    #[description = "How many days"]
    #[min = 1]
    #[max = 60]
    days: u32,
) -> Result<(), Error> {
    act(ctx, move |s, c| s.vacation_start(c, days)).await
}

/// Come back early: the days not taken are given back.
#[poise::command(slash_command, guild_only, rename = "end")]
async fn vacation_end(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.vacation_end(c)).await
}

/// End this channel's game without result (its players before the first ply; moderators always).
#[poise::command(slash_command, guild_only)]
pub(super) async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, |s, c| s.abort(c)).await
}
