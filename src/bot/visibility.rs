//! Which of a server's channels everyone may see, read from the gateway's cache: a channel
//! @everyone may not view (its role's permissions, then the channel's overwrite for it;
//! topics/permissions, "Permission Overwrites"), a private thread, and a thread of such a
//! channel are hidden. The service is told, and the web pages leave their games out.

use super::blocking::blocking;
use super::data::Data;
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// Reads the channels of `guild` anew and tells the service, which stores them if they changed.
pub async fn tell(ctx: &serenity::Context, data: &Data, guild: serenity::GuildId) {
    let Some((hidden, known)) = read(&ctx.cache, guild) else {
        return;
    };
    let (service, id) = (Arc::clone(&data.service), guild.get());
    match blocking(&service, move |s| {
        s.set_hidden_channels(id, &hidden, &known)
    })
    .await
    {
        Ok(true) => tracing::info!(guild = id, "the channels not everyone sees changed"),
        Ok(false) => {}
        Err(e) => {
            tracing::warn!(guild = id, error = %e.0, "the channels not everyone sees are not stored")
        }
    }
}

/// The channels and threads of `guild` that @everyone may not view, and every one the cache
/// knows; `None` while the cache lacks the server or its @everyone role.
fn read(cache: &serenity::Cache, guild: serenity::GuildId) -> Option<(Vec<u64>, Vec<u64>)> {
    let g = cache.guild(guild)?;
    let everyone = serenity::RoleId::new(guild.get());
    let base = g.roles.get(&everyone)?.permissions;
    let sees = |c: &serenity::GuildChannel| everyone_sees(base, everyone, &c.permission_overwrites);
    let mut hidden = Vec::new();
    let mut known = Vec::new();
    for c in g.channels.values() {
        known.push(c.id.get());
        if !sees(c) {
            hidden.push(c.id.get());
        }
    }
    for t in &g.threads {
        known.push(t.id.get());
        let parent = t.parent_id.and_then(|p| g.channels.get(&p));
        let private = t.kind == serenity::ChannelType::PrivateThread;
        if private || !parent.is_some_and(sees) {
            hidden.push(t.id.get());
        }
    }
    Some((hidden, known))
}

/// Whether @everyone (`role`, with `base` permissions) may view a channel with `overwrites`.
fn everyone_sees(
    base: serenity::Permissions,
    role: serenity::RoleId,
    overwrites: &[serenity::PermissionOverwrite],
) -> bool {
    if base.administrator() {
        return true;
    }
    let mut allowed = base;
    for o in overwrites {
        if o.kind == serenity::PermissionOverwriteType::Role(role) {
            allowed = (allowed - o.deny) | o.allow;
        }
    }
    allowed.view_channel()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_sees_a_channel_unless_its_overwrite_or_the_role_denies_it() {
        type P = serenity::Permissions;
        let role = serenity::RoleId::new(7);
        let overwrite =
            |allow: P, deny: P, kind| serenity::PermissionOverwrite { allow, deny, kind };
        let everyone = serenity::PermissionOverwriteType::Role(role);
        let other = serenity::PermissionOverwriteType::Role(serenity::RoleId::new(8));
        let view = P::VIEW_CHANNEL | P::SEND_MESSAGES;
        assert!(everyone_sees(view, role, &[]));
        assert!(!everyone_sees(
            view,
            role,
            &[overwrite(P::empty(), P::VIEW_CHANNEL, everyone)]
        ));
        // Another role's overwrite says nothing of @everyone.
        assert!(everyone_sees(
            view,
            role,
            &[overwrite(P::empty(), P::VIEW_CHANNEL, other)]
        ));
        assert!(!everyone_sees(P::SEND_MESSAGES, role, &[]));
        assert!(everyone_sees(
            P::SEND_MESSAGES,
            role,
            &[overwrite(P::VIEW_CHANNEL, P::empty(), everyone)]
        ));
    }
}
