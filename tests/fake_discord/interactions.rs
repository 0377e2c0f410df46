//! Interactions: responses and their deadlines, follow-ups and edits by token, registered
//! commands, autocomplete choices and forms.

use super::*;

pub(super) fn callback(state: &State, r: &Request, token: &str) -> Answer {
    let body = r.json();
    let kind = body["type"].as_u64().unwrap_or(0) as u8;
    let data = body["data"].clone();
    let now = state.now_ms();
    let (ixn_kind, channel, size_limit, pressed) = {
        let mut ixns = state.interactions.lock().unwrap();
        let Some(ixn) = ixns.get_mut(token) else {
            return error(404, 10062, "Unknown interaction");
        };
        if ixn.responded.is_some() {
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        if now - ixn.created_ms > DEADLINE_MS {
            return error(404, 10062, "Unknown interaction");
        }
        let allowed = match ixn.kind {
            2 => matches!(kind, 4 | 5 | 9),
            3 => matches!(kind, 4 | 5 | 6 | 7 | 9),
            4 => kind == 8,
            5 => (4..=7).contains(&kind),
            _ => false,
        };
        if !allowed {
            return form_error(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Invalid response type for this interaction",
            );
        }
        (
            ixn.kind,
            ixn.channel,
            ixn.attachment_size_limit,
            ixn.original,
        )
    };
    let files = r.files();
    if matches!(kind, 4 | 7) {
        if let Some(refused) = check_message(&data, &files, size_limit) {
            return refused;
        }
    }
    if kind == 8 && data["choices"].as_array().is_some_and(|c| c.len() > 25) {
        return form_error(
            "data.choices",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        );
    }
    if let Some(refused) = check_choices(&data).or_else(|| check_modal(kind, &data)) {
        return refused;
    }
    let mut original = pressed;
    let mut thinking = false;
    match kind {
        4 => {
            if flags(&data) & 64 == 0 {
                if let Some(refused) = thread_activity(state, channel) {
                    return refused;
                }
            }
            original = Some(create_message(state, channel, &data, &files).id);
        }
        5 => {
            let thinking_msg = json!({ "content": "", "flags": flags(&data) });
            original = Some(create_message(state, channel, &thinking_msg, &[]).id);
            thinking = true;
        }
        7 => edit_message(state, pressed, &data, &files),
        _ => {}
    }
    let _ = ixn_kind;
    let mut ixns = state.interactions.lock().unwrap();
    let ixn = ixns.get_mut(token).expect("checked above");
    ixn.responded = Some(kind);
    ixn.original = original;
    ixn.thinking = thinking;
    (204, None)
}

/// A command as Discord keeps it after a bulk overwrite: the fields sent, and those it adds.
pub(super) fn stored_command(id: u64, guild: Option<&str>, mut command: Value) -> Value {
    let added = json!({
        "id": id.to_string(), "application_id": APP_ID.to_string(), "version": id.to_string(),
        "type": 1, "description": "", "default_member_permissions": null, "nsfw": false, "dm_permission": true,
        "integration_types": [0], "guild_id": guild,
    });
    // A context menu command is sent without a description and kept with an empty one.
    for (key, value) in added.as_object().unwrap() {
        if command.get(key).is_none_or(Value::is_null) {
            command[key] = value.clone();
        }
    }
    if guild.is_none() {
        command.as_object_mut().unwrap().remove("guild_id");
    }
    command
}

/// Autocomplete choices (interactions/application-commands, "Application Command Option Choice
/// Structure"): a name of 1 to 100 characters, a string value of 1 to 100.
pub(super) fn check_choices(data: &Value) -> Option<Answer> {
    let choices = data["choices"].as_array()?;
    for (i, c) in choices.iter().enumerate() {
        for key in ["name", "value"] {
            let Some(text) = c[key].as_str() else {
                continue;
            };
            if !(1..=100).contains(&text.chars().count()) {
                return Some(form_error(
                    &format!("data.choices.{i}.{key}"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
        }
    }
    None
}

/// A modal (interactions/receiving-and-responding, "Modal"): a title of at most 45 characters,
/// between 1 and 5 components; its text inputs (message-components, "Text Input"): each alone in
/// its action row ("an Action Row can contain ... a single text input"), labels of at most 45,
/// custom ids of at most 100, placeholders of at most 100.
pub(super) fn check_modal(kind: u8, data: &Value) -> Option<Answer> {
    if kind != 9 {
        return None;
    }
    let too_long = |v: &Value, most: usize| v.as_str().is_some_and(|t| t.chars().count() > most);
    if too_long(&data["title"], 45) {
        return Some(form_error(
            "data.title",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 45 or fewer in length.",
        ));
    }
    let rows = data["components"].as_array().cloned().unwrap_or_default();
    if rows.is_empty() || rows.len() > 5 {
        return Some(form_error(
            "data.components",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 5 in length.",
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        let inputs = row["components"].as_array().cloned().unwrap_or_default();
        if inputs.len() != 1 {
            return Some(form_error(
                &format!("data.components.{r}.components"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be 1 in length.",
            ));
        }
        for (i, input) in inputs.iter().enumerate() {
            for (key, most) in [("label", 45), ("custom_id", 100), ("placeholder", 100)] {
                if too_long(&input[key], most) {
                    return Some(form_error(
                        &format!("data.components.{r}.components.{i}.{key}"),
                        "BASE_TYPE_MAX_LENGTH",
                        &format!("Must be {most} or fewer in length."),
                    ));
                }
            }
        }
    }
    None
}

pub(super) fn edit_message(
    state: &State,
    id: Option<u64>,
    payload: &Value,
    files: &[(String, Vec<u8>)],
) {
    let Some(id) = id else { return };
    for m in state
        .messages
        .lock()
        .unwrap()
        .iter_mut()
        .filter(|m| m.id == id)
    {
        if let Some(c) = payload["content"].as_str() {
            m.content = c.to_string();
        }
        if !payload["components"].is_null() {
            m.components = payload["components"].clone();
        }
        if payload["attachments"].is_array() {
            m.files = files.iter().map(|(n, _)| n.clone()).collect();
        }
        m.edits += 1;
    }
}

/// The interaction behind a webhook token, if its token still works.
pub(super) fn live_token(
    state: &State,
    token: &str,
) -> Result<(u64, Option<u64>, bool, usize), Answer> {
    let ixns = state.interactions.lock().unwrap();
    let Some(ixn) = ixns.get(token) else {
        return Err(error(404, 10015, "Unknown Webhook"));
    };
    // Tokens are valid for 15 minutes from the interaction (interactions/receiving-and-
    // responding), whether or not it was ever answered.
    if state.now_ms() - ixn.created_ms > TOKEN_LIFETIME_MS {
        return Err(error(401, 50027, "Invalid Webhook Token"));
    }
    if ixn.responded.is_none() {
        return Err(error(404, 10015, "Unknown Webhook"));
    }
    Ok((
        ixn.channel,
        ixn.original,
        ixn.thinking,
        ixn.attachment_size_limit,
    ))
}

pub(super) fn files_refused(
    state: &State,
    channel: u64,
    files: &[(String, Vec<u8>)],
) -> Option<Answer> {
    let have = state.with_channel(channel, |c| c.bot_permissions);
    (!files.is_empty() && have & (perms::ATTACH_FILES | perms::ADMINISTRATOR) == 0)
        .then(|| error(403, 50013, "Missing Permissions"))
}

/// A webhook message request (follow-up or edit), checked: the token still works, files are
/// allowed in the channel, and the message keeps Discord's limits.
pub(super) struct WebhookMessage {
    channel: u64,
    original: Option<u64>,
    thinking: bool,
    payload: Value,
    files: Vec<(String, Vec<u8>)>,
}

pub(super) fn webhook_message(
    state: &State,
    r: &Request,
    token: &str,
) -> Result<WebhookMessage, Answer> {
    let (channel, original, thinking, size_limit) = live_token(state, token)?;
    let (payload, files) = (r.json(), r.files());
    if let Some(refused) = files_refused(state, channel, &files) {
        return Err(refused);
    }
    if let Some(refused) = check_message(&payload, &files, size_limit) {
        return Err(refused);
    }
    Ok(WebhookMessage {
        channel,
        original,
        thinking,
        payload,
        files,
    })
}

/// Edits the interaction's `@original`; a deferral's "thinking" message is thinking no more.
pub(super) fn edit_original_message(state: &State, token: &str, m: &WebhookMessage) -> Answer {
    edit_message(state, m.original, &m.payload, &m.files);
    if let Some(ixn) = state.interactions.lock().unwrap().get_mut(token) {
        ixn.thinking = false;
    }
    (200, Some(message(m.original.unwrap_or(0), m.channel, "")))
}

pub(super) fn followup(state: &State, r: &Request, token: &str) -> Answer {
    let m = match webhook_message(state, r, token) {
        Ok(m) => m,
        Err(answer) => return answer,
    };
    // "Apps are limited to 5 followup messages per interaction if it was initiated from a
    // user-installed app and isn't installed in the server" (interactions/receiving-and-
    // responding, "Create Followup Message"); the code is 40094 (topics/opcodes-and-status-codes).
    if let Some(ixn) = state.interactions.lock().unwrap().get_mut(token) {
        if ixn.user_install_only && !m.thinking {
            if ixn.follow_ups >= 5 {
                return error(
                    400,
                    40094,
                    "This interaction has hit the maximum number of follow up messages",
                );
            }
            ixn.follow_ups += 1;
        }
    }
    if m.thinking {
        // Directly after a deferred response, a follow-up edits the "thinking" message (and
        // keeps its ephemeral state): no new message, no notification.
        return edit_original_message(state, token, &m);
    }
    if flags(&m.payload) & 64 == 0 {
        if let Some(refused) = thread_activity(state, m.channel) {
            return refused;
        }
    }
    let msg = create_message(state, m.channel, &m.payload, &m.files);
    (200, Some(message(msg.id, m.channel, &msg.content)))
}

pub(super) fn edit_original(state: &State, r: &Request, token: &str) -> Answer {
    match webhook_message(state, r, token) {
        Ok(m) => edit_original_message(state, token, &m),
        Err(answer) => answer,
    }
}

pub(super) fn channel_message(state: &State, r: &Request, channel: u64) -> Answer {
    let recipient = state
        .dms
        .lock()
        .unwrap()
        .iter()
        .find(|(_, id)| *id == channel)
        .map(|(user, _)| *user);
    if recipient.is_some_and(|u| state.closed_dms.lock().unwrap().contains(&u)) {
        return error(403, 50007, "Cannot send messages to this user");
    }
    let payload = r.json();
    let files = r.files();
    if let Some(refused) = post_refused(state, channel, !files.is_empty()) {
        return refused;
    }
    // resources/message, "Create Message": at least one of content, embeds, sticker_ids,
    // components, files or poll; else 50006 "Cannot send an empty message".
    let has = |key: &str| match &payload[key] {
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Null => false,
        _ => true,
    };
    let empty = files.is_empty()
        && !["content", "embeds", "sticker_ids", "components", "poll"]
            .iter()
            .any(|k| has(k));
    if empty {
        return error(400, 50006, "Cannot send an empty message");
    }
    if let Some(refused) = check_message(&payload, &files, ATTACHMENT_SIZE_LIMIT) {
        return refused;
    }
    if payload["enforce_nonce"] == true {
        if let Some(nonce) = payload["nonce"].as_str() {
            // "another message was created by the same author with the same nonce": the
            // author's, in any channel (every message with a nonce here is the bot's).
            let earlier = state
                .messages
                .lock()
                .unwrap()
                .iter()
                .find(|m| {
                    m.nonce.as_deref() == Some(nonce)
                        && state.now_ms() - m.created_ms < NONCE_WINDOW_MS
                })
                .cloned();
            if let Some(m) = earlier {
                return (200, Some(message(m.id, m.channel, &m.content)));
            }
        }
    }
    if let Some(refused) = thread_activity(state, channel) {
        return refused;
    }
    // A reply names a message of the same channel; one that does not exist is refused unless
    // `fail_if_not_exists` is false (resources/message, "Message Reference Structure").
    let reference = &payload["message_reference"];
    let history = state.with_channel(channel, |c| c.bot_permissions)
        & (perms::READ_MESSAGE_HISTORY | perms::ADMINISTRATOR);
    if reference["message_id"].is_string() && history == 0 {
        return error(
            403,
            160002,
            "Cannot reply without permission to read message history",
        );
    }
    if let Some(replied) = reference["message_id"].as_str() {
        let exists = state
            .messages
            .lock()
            .unwrap()
            .iter()
            .any(|m| m.id.to_string() == replied && m.channel == channel && !m.deleted);
        if !exists && reference["fail_if_not_exists"] != false {
            return form_error(
                "message_reference",
                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                "Unknown message",
            );
        }
    }
    let msg = create_message(state, channel, &payload, &files);
    (200, Some(message(msg.id, channel, &msg.content)))
}

/// resources/guild, "List Active Guild Threads": the server's threads that are not archived and
/// that Bredon can see, newest first, with the members Bredon has joined (none tracked here).
pub(super) fn active_threads(state: &State, guild: u64) -> Answer {
    let channels = state.channels.lock().unwrap();
    let visible =
        |c: &Channel| c.bot_permissions & (perms::VIEW_CHANNEL | perms::ADMINISTRATOR) != 0;
    let mut threads: Vec<(&u64, &Channel)> = channels
        .iter()
        .filter(|(_, c)| c.guild == guild && is_thread(c.kind) && !c.archived && !c.deleted)
        .filter(|(_, c)| visible(c))
        .collect();
    // "ordered by their id, in descending order".
    threads.sort_by_key(|(id, _)| std::cmp::Reverse(**id));
    let threads: Vec<Value> = threads.iter().map(|(id, c)| thread_of(**id, c)).collect();
    (
        200,
        Some(json!({ "threads": threads, "members": [], "has_more": false })),
    )
}

/// resources/message, "Get Channel Messages" (with `after` and `limit`; see the header).
pub(super) fn channel_messages(state: &State, path: &str, channel: u64) -> Answer {
    let (have, deleted) = state.with_channel(channel, |c| (c.bot_permissions, c.deleted));
    let is_dm = state
        .dms
        .lock()
        .unwrap()
        .iter()
        .any(|(_, id)| *id == channel);
    if deleted {
        return error(404, 10003, "Unknown Channel");
    }
    let admin = have & perms::ADMINISTRATOR != 0;
    if !is_dm && !admin && have & perms::VIEW_CHANNEL == 0 {
        return error(403, 50001, "Missing Access");
    }
    if !is_dm && !admin && have & perms::READ_MESSAGE_HISTORY == 0 {
        return (200, Some(json!([])));
    }
    let query = |key: &str| {
        path.split_once('?')
            .map_or("", |(_, q)| q)
            .split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{key}=")[..]))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let after = query("after").unwrap_or(0);
    let limit = query("limit").unwrap_or(50);
    if !(1..=100).contains(&limit) {
        return form_error(
            "limit",
            "NUMBER_TYPE_MAX",
            "int value should be between 1 and 100.",
        );
    }
    let mut listed: Vec<Msg> = state
        .messages
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.channel == channel && !m.deleted && !m.ephemeral && m.id > after)
        .cloned()
        .collect();
    listed.sort_by_key(|m| m.id);
    listed.truncate(limit as usize);
    listed.reverse();
    let json: Vec<Value> = listed
        .iter()
        .map(|m| {
            let mut v = message(m.id, channel, &m.content);
            if m.author != BOT_ID {
                v["author"] = user_json(m.author, &test_name(m.author), false);
            }
            v
        })
        .collect();
    (200, Some(Value::Array(json)))
}

pub(super) fn start_thread(state: &State, r: &Request, parent: u64) -> Answer {
    let (have, deleted) = state.with_channel(parent, |c| (c.bot_permissions, c.deleted));
    if deleted {
        return error(404, 10003, "Unknown Channel");
    }
    if have & perms::ADMINISTRATOR == 0 && have & perms::CREATE_PUBLIC_THREADS == 0 {
        return error(403, 50013, "Missing Permissions");
    }
    let body = r.json();
    // resources/channel, "Start Thread without Message": name, 1-100 characters.
    let name_length = body["name"].as_str().map_or(0, |n| n.chars().count());
    if !(1..=100).contains(&name_length) {
        return form_error(
            "name",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        );
    }
    // resources/channel, "Start Thread without Message": a thread opens in a text channel
    // (type 0: public 11 or private 12) or an announcement channel (type 5: announcement thread
    // 10); anywhere else, a thread in a thread included, Discord answers 50024 "Cannot execute
    // action on this channel type" (topics/opcodes-and-status-codes, JSON error codes).
    let (parent_kind, guild) = state.with_channel(parent, |c| (c.kind, c.guild));
    let kind = body["type"].as_u64().unwrap_or(12) as u8;
    let fits = matches!((parent_kind, kind), (0, 11 | 12) | (5, 10));
    if !fits {
        return error(400, 50024, "Cannot execute action on this channel type");
    }
    let id = state.new_snowflake();
    let thread = Channel {
        name: body["name"].as_str().unwrap_or_default().to_string(),
        guild,
        kind,
        parent: Some(parent),
        bot_permissions: have,
        deleted: false,
        archived: false,
        locked: false,
        // Without a duration, a thread takes the channel's default: a day.
        auto_archive_minutes: body["auto_archive_duration"].as_i64().unwrap_or(1440),
        last_activity_ms: state.now_ms(),
        last_message: None,
        message_count: 0,
        recipients: Vec::new(),
        hidden_from_everyone: false,
    };
    let json = thread_of(id, &thread);
    state.channels.lock().unwrap().insert(id, thread);
    // topics/gateway-events, "Thread Create": "Sent when a thread is created, relevant to the
    // current user".
    let mut event = json.clone();
    event["newly_created"] = json!(true);
    state.dispatch("THREAD_CREATE", event);
    (200, Some(json))
}

pub(super) fn edit_channel(state: &State, r: &Request, id: u64) -> Answer {
    let body = r.json();
    let answer = state.with_channel(id, |c| {
        if c.deleted {
            return Err(error(404, 10003, "Unknown Channel"));
        }
        // Unarchiving an unlocked thread needs Send Messages (resources/channel, "Modify
        // Channel", Thread), or Manage Threads.
        let may_unarchive = c.bot_permissions & (perms::SEND_MESSAGES | perms::MANAGE_THREADS) != 0;
        if body["archived"] == false && is_thread(c.kind) && !may_unarchive {
            return Err(error(403, 50013, "Missing Permissions"));
        }
        if body["archived"] == false && is_thread(c.kind) {
            c.archived = false;
            c.last_activity_ms = state.now_ms();
        }
        Ok(thread_of(id, c))
    });
    match answer {
        Ok(thread) => {
            state.dispatch("THREAD_UPDATE", thread.clone());
            (200, Some(thread))
        }
        Err(e) => e,
    }
}

/// Announcement, public and private threads (resources/channel, "Channel Types": 10, 11, 12).
pub(super) fn is_thread(kind: u8) -> bool {
    matches!(kind, 10..=12)
}
