//! What a user and Bredon may do where: moderators, server managers, and the permissions Bredon
//! needs in a channel to carry a game there (`app_permissions` of the interaction).

use super::data::interaction;
use super::Context;
use crate::service::Refusal;
use poise::serenity_prelude as serenity;

/// A moderator may abort games: Manage Messages, Manage Server or Administrator.
pub fn is_moderator(permissions: Option<serenity::Permissions>) -> bool {
    permissions.is_some_and(|p| p.manage_messages() || p.manage_guild() || p.administrator())
}

/// Server-wide settings need Manage Server (or Administrator).
pub fn is_server_manager(permissions: Option<serenity::Permissions>) -> bool {
    permissions.is_some_and(|p| p.manage_guild() || p.administrator())
}

pub fn member_permissions(ctx: Context<'_>) -> Option<serenity::Permissions> {
    interaction(ctx)
        .and_then(|i| i.member.as_deref())
        .and_then(|m| m.permissions)
}

/// Whether the member may have Bredon open a public thread for them: they could open one
/// themselves (Create Public Threads), or they moderate. Bredon acts on their behalf, so it
/// does not open threads where the member could not (topics/permissions).
pub fn member_may_open_threads(ctx: Context<'_>) -> bool {
    let member = member_permissions(ctx);
    is_moderator(member) || member.is_some_and(|p| p.create_public_threads())
}

pub fn is_thread(kind: Option<serenity::ChannelType>) -> bool {
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
pub fn missing_permissions(
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

/// Commands a user's install may use in a server that never added Bredon: Bredon can only
/// answer there, so only what is all answer (no game, no record, nothing owed later).
const ANSWERED_ANYWHERE: [&str; 3] = ["rules", "help", "position"];

/// Whether a command was used through a user's install in a server that never added Bredon
/// (the interaction authorized by no server install), and is more than an answer: Bredon could
/// never post a game's plies or reminders there.
pub fn needs_bredon_in_the_server(ctx: Context<'_>) -> bool {
    let Some(i) = interaction(ctx) else {
        return false;
    };
    let by_server = i
        .authorizing_integration_owners
        .0
        .iter()
        .any(|o| matches!(o, serenity::AuthorizingIntegrationOwner::GuildInstall(_)));
    let answered = ANSWERED_ANYWHERE.contains(&ctx.command().name.as_str());
    ctx.guild_id().is_some() && !by_server && !answered
}

pub fn channel_kind(ctx: Context<'_>) -> Option<serenity::ChannelType> {
    interaction(ctx)
        .and_then(|i| i.channel.as_ref())
        .map(|c| c.kind)
}

/// Where a new game's thread opens, and of which kind: in the command's channel, or from inside
/// a thread in that thread's parent (a thread cannot hold threads); an announcement channel takes
/// announcement threads (resources/channel, "Start Thread without Message"). Voice and stage
/// chats hold no threads.
pub fn thread_home(ctx: Context<'_>) -> Result<(u64, serenity::ChannelType), Refusal> {
    use serenity::ChannelType::{News, NewsThread, PrivateThread, PublicThread, Text};
    let Some(channel) = interaction(ctx).and_then(|i| i.channel.as_ref()) else {
        return Ok((ctx.channel_id().get(), PublicThread));
    };
    let parent = || {
        channel.parent_id.map(|p| p.get()).ok_or_else(|| {
            Refusal("Bredon cannot tell which channel this thread belongs to; challenge in that channel instead".into())
        })
    };
    match channel.kind {
        Text => Ok((channel.id.get(), PublicThread)),
        News => Ok((channel.id.get(), NewsThread)),
        PublicThread | PrivateThread => Ok((parent()?, PublicThread)),
        NewsThread => Ok((parent()?, NewsThread)),
        _ => Err(Refusal(
            "a game's thread opens in a text or announcement channel, and this chat cannot hold \
             threads: challenge without `thread`, or in a text channel"
                .into(),
        )),
    }
}

/// Whether Bredon may attach files to its answer here (Attach Files, or an administrator; a
/// context that says nothing is taken at its word).
pub fn may_attach(ctx: Context<'_>) -> bool {
    interaction(ctx)
        .and_then(|i| i.app_permissions)
        .is_none_or(|p| p.administrator() || p.attach_files())
}

/// What Bredon lacks to carry a game here. Outside servers it answers, in a DM with Bredon
/// or in a private channel where it is no member: no channel permission is needed for that.
pub fn may_post(ctx: Context<'_>, opens_thread: bool) -> Option<Refusal> {
    ctx.guild_id()?;
    let have = interaction(ctx).and_then(|i| i.app_permissions);
    missing_permissions(have, is_thread(channel_kind(ctx)), opens_thread)
}

#[cfg(test)]
mod tests {
    use super::*;

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
