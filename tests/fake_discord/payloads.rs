//! Discord's objects as JSON, complete as Discord sends them (serenity drops what it cannot
//! parse without a word): users, members, messages, interactions, channels, threads, servers.

use super::*;

/// Every custom id in a message's components.
pub fn custom_ids(components: &Value) -> Vec<String> {
    components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["custom_id"].as_str().map(String::from))
        .collect()
}

/// The addresses of the link buttons (style 5) in a message's components.
pub fn link_urls(components: &Value) -> Vec<String> {
    components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|b| b["style"].as_u64() == Some(5))
        .filter_map(|b| b["url"].as_str().map(String::from))
        .collect()
}

/// The names of the tests' users, by id.
pub fn test_name(id: u64) -> String {
    match id {
        111 => "alice".into(),
        222 => "bob".into(),
        333 => "carol".into(),
        444 => "dave".into(),
        555 => "erin".into(),
        666 => "frank".into(),
        777 => "gina".into(),
        BOT_ID => "Bredon".into(),
        _ => format!("user{id}"),
    }
}

#[derive(Clone)]
pub struct TestUser {
    pub id: u64,
    pub name: String,
    /// Discord permission bits of the member in the channel.
    pub permissions: u64,
}

impl TestUser {
    pub fn new(id: u64, name: &str) -> TestUser {
        TestUser {
            id,
            name: name.into(),
            // What @everyone may do in a new server (topics/permissions, default permissions).
            permissions: perms::VIEW_CHANNEL
                | perms::SEND_MESSAGES
                | perms::ATTACH_FILES
                | perms::CREATE_PUBLIC_THREADS
                | perms::SEND_MESSAGES_IN_THREADS,
        }
    }
}

pub fn user_json(id: u64, name: &str, bot: bool) -> Value {
    json!({ "id": id.to_string(), "username": name, "global_name": name, "discriminator": "0", "avatar": null, "bot": bot, "public_flags": 0 })
}

pub fn member_json(u: &TestUser) -> Value {
    json!({
        "user": user_json(u.id, &u.name, false), "nick": null, "avatar": null, "roles": [],
        "joined_at": "2026-01-01T00:00:00.000000+00:00", "premium_since": null, "deaf": false, "mute": false,
        "flags": 0, "pending": false, "permissions": u.permissions.to_string(), "communication_disabled_until": null
    })
}

pub fn message(id: u64, channel: u64, content: &str) -> Value {
    json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "guild_id": GUILD_ID.to_string(),
        "author": user_json(BOT_ID, "Bredon", true), "content": content,
        "timestamp": "2026-11-22T00:00:00.000000+00:00", "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
        "pinned": false, "type": 0, "flags": 0, "components": []
    })
}

/// An id made `ago_ms` ago by the wall clock, as Discord makes them: the milliseconds since
/// 2015-01-01 above bit 22, a counter below (reference, "Snowflakes").
pub(super) fn snowflake(ago_ms: i64, counter: u64) -> u64 {
    const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    (((now - ago_ms - DISCORD_EPOCH_MS) as u64) << 22) | (counter & 0x3F_FFFF)
}

pub fn interaction(
    id: u64,
    kind: u8,
    token: &str,
    user: &TestUser,
    channel: u64,
    data: Value,
    msg: Option<Value>,
) -> Value {
    let mut v = json!({
        "id": id.to_string(), "application_id": APP_ID.to_string(), "type": kind, "data": data,
        "guild_id": GUILD_ID.to_string(), "channel_id": channel.to_string(),
        "channel": { "id": channel.to_string(), "type": 0, "name": "tak", "permissions": perms::INVITE.to_string() },
        "member": member_json(user), "token": token, "version": 1,
        "app_permissions": perms::INVITE.to_string(), "locale": "en-US", "guild_locale": "en-US", "entitlements": [],
        "authorizing_integration_owners": { "0": GUILD_ID.to_string() }, "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT
    });
    if let Some(m) = msg {
        v["message"] = m;
    }
    v
}

pub(super) fn partial_channel(id: u64, c: &Channel) -> Value {
    let mut v = json!({ "id": id.to_string(), "type": c.kind, "name": "tak", "permissions": c.bot_permissions.to_string() });
    if is_thread(c.kind) {
        v["parent_id"] = json!(c.parent.unwrap_or(0).to_string());
        v["thread_metadata"] = thread_metadata(c);
    }
    v
}

pub(super) fn thread_metadata(c: &Channel) -> Value {
    json!({ "archived": c.archived, "auto_archive_duration": c.auto_archive_minutes,
            "archive_timestamp": "2026-11-22T00:00:00.000000+00:00", "locked": c.locked })
}

pub(super) fn thread_of(id: u64, c: &Channel) -> Value {
    let mut v = thread_json(id, c.parent.unwrap_or(0));
    v["type"] = json!(c.kind);
    v["thread_metadata"] = thread_metadata(c);
    v["guild_id"] = json!(c.guild.to_string());
    v["name"] = json!(c.name);
    v["message_count"] = json!(c.message_count);
    v["last_message_id"] = json!(c.last_message.map(|m| m.to_string()));
    v
}

/// A server's channel as GUILD_CREATE and CHANNEL_UPDATE bring it, with its overwrite for
/// @everyone (whose role has the server's id; topics/permissions, "Permission Overwrites").
pub(super) fn channel_json(id: u64, c: &Channel) -> Value {
    let mut v = text_channel_json(id);
    v["type"] = json!(c.kind);
    v["guild_id"] = json!(c.guild.to_string());
    if c.hidden_from_everyone {
        v["permission_overwrites"] = json!([{ "id": c.guild.to_string(), "type": 0,
            "allow": "0", "deny": perms::VIEW_CHANNEL.to_string() }]);
    }
    v
}

/// A server's @everyone role (its id the server's) with `bits` (topics/permissions, "Role
/// Object").
pub(super) fn everyone_role_json(guild: u64, bits: u64) -> Value {
    json!({
        "id": guild.to_string(), "name": "@everyone", "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false, "icon": null, "unicode_emoji": null, "position": 0,
        "permissions": bits.to_string(), "managed": false, "mentionable": false, "flags": 0,
    })
}

pub fn text_channel_json(id: u64) -> Value {
    json!({ "id": id.to_string(), "type": 0, "guild_id": GUILD_ID.to_string(), "name": "tak",
        "position": 0, "permission_overwrites": [], "nsfw": false, "rate_limit_per_user": 0 })
}

/// A direct-message channel with `recipient` (POST /users/@me/channels).
pub fn dm_channel_json(id: u64, recipient: u64) -> Value {
    json!({ "id": id.to_string(), "type": 1, "last_message_id": null,
        "recipients": [user_json(recipient, &test_name(recipient), false)] })
}

/// THREAD_DELETE's payload: the deleted thread, partly.
pub fn thread_delete_json(id: u64, parent: u64) -> Value {
    json!({ "id": id.to_string(), "guild_id": GUILD_ID.to_string(),
            "parent_id": parent.to_string(), "type": 11 })
}

/// GUILD_DELETE's payload when the bot was removed (no `unavailable`).
pub fn guild_delete_json() -> Value {
    json!({ "id": GUILD_ID.to_string() })
}

/// A public thread under `parent` as REST answers and THREAD_UPDATE carry it.
pub fn thread_update_json(id: u64, parent: u64, archived: bool, locked: bool) -> Value {
    let mut c = Channel::text();
    (c.kind, c.parent, c.archived, c.locked) = (11, Some(parent), archived, locked);
    c.auto_archive_minutes = 10080;
    thread_of(id, &c)
}

/// The `channel` of an interaction in a thread under `parent`.
pub fn interaction_thread_json(id: u64, parent: u64) -> Value {
    let mut c = Channel::text();
    (c.kind, c.parent, c.auto_archive_minutes) = (11, Some(parent), 1440);
    partial_channel(id, &c)
}

/// READY for `shard` of `total`, listing the servers of that shard (topics/gateway-events,
/// "Ready": `shard` is the pair the IDENTIFY sent).
pub fn ready(ws_url: &str, shard: u64, total: u64, guilds: &[u64]) -> Value {
    let guilds: Vec<Value> = guilds
        .iter()
        .map(|g| json!({ "id": g.to_string(), "unavailable": true }))
        .collect();
    json!({
        "v": 10, "user": bot_user_json(), "guilds": guilds,
        "session_id": format!("fake-session-{shard}-{total}"), "resume_gateway_url": ws_url,
        "shard": [shard, total], "application": { "id": APP_ID.to_string(), "flags": 0 }
    })
}

pub(super) fn bot_user_json() -> Value {
    json!({ "id": BOT_ID.to_string(), "username": "Bredon", "global_name": null, "discriminator": "0",
        "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0, "public_flags": 0 })
}

/// The test server as GUILD_CREATE brings it (topics/gateway-events, "Guild Create"): its
/// channels, and its *active* threads only ("All active threads in the guild that current user
/// has permission to view"): a thread archived meanwhile is in neither list.
pub(super) fn guild_create_json(guild: u64, state: &State) -> Value {
    let system_channel = state.system_channels.lock().unwrap().get(&guild).copied();
    let channels = &*state.channels.lock().unwrap();
    let live = channels
        .iter()
        .filter(|(_, c)| !c.deleted && c.guild == guild);
    let listed: Vec<Value> = live
        .clone()
        .filter(|(_, c)| !is_thread(c.kind))
        .map(|(id, c)| channel_json(*id, c))
        .collect();
    let everyone = state.role_permissions.lock().unwrap().get(&guild).copied();
    let roles = vec![everyone_role_json(guild, everyone.unwrap_or(perms::INVITE))];
    let threads: Vec<Value> = live
        .filter(|(_, c)| is_thread(c.kind) && !c.archived)
        .map(|(id, c)| thread_of(*id, c))
        .collect();
    json!({
        "id": guild.to_string(), "name": "Tak", "icon": null, "splash": null, "discovery_splash": null,
        "owner_id": "1", "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "roles": roles, "emojis": [], "features": [], "mfa_level": 0,
        "system_channel_id": system_channel.map(|c| c.to_string()),
        "system_channel_flags": 0, "premium_tier": 0, "preferred_locale": "en-US", "nsfw_level": 0,
        "stickers": [], "premium_progress_bar_enabled": false,
        "joined_at": "2026-11-01T00:00:00.000000+00:00", "large": false, "unavailable": false,
        "member_count": 4, "voice_states": [], "members": [], "channels": listed, "threads": threads,
        "presences": [], "stage_instances": [], "guild_scheduled_events": []
    })
}

pub fn thread_json(id: u64, parent: u64) -> Value {
    json!({ "id": id.to_string(), "type": 11, "guild_id": GUILD_ID.to_string(), "parent_id": parent.to_string(), "name": "Tak",
        "owner_id": BOT_ID.to_string(), "thread_metadata": { "archived": false, "auto_archive_duration": 1440, "archive_timestamp": "2026-11-22T00:00:00.000000+00:00", "locked": false },
        "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "position": 0, "permission_overwrites": [], "nsfw": false })
}
