//! Messages: Discord's limits on what is posted, mentions and who they notify, threads woken
//! by a post, and the permissions a post needs.

use super::*;

/// Checks a message against Discord's limits.
pub(super) fn check_message(
    payload: &Value,
    files: &[(String, Vec<u8>)],
    size_limit: usize,
) -> Option<Answer> {
    if let Some(content) = payload["content"].as_str() {
        if content.chars().count() > 2000 {
            return Some(form_error(
                "content",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 2000 or fewer in length.",
            ));
        }
    }
    for (i, a) in payload["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if a["description"]
            .as_str()
            .is_some_and(|d| d.chars().count() > 1024)
        {
            return Some(form_error(
                &format!("attachments.{i}.description"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 1024 or fewer in length.",
            ));
        }
    }
    if files.iter().any(|(_, b)| b.len() > size_limit) {
        return Some(error(413, 40005, "Request entity too large"));
    }
    let rows = payload["components"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if rows.len() > 5 {
        return Some(form_error(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 5 or fewer in length.",
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        let buttons = row["components"].as_array().cloned().unwrap_or_default();
        if buttons.len() > 5 {
            return Some(form_error(
                "components.0.components",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 5 or fewer in length.",
            ));
        }
        for (i, b) in buttons.iter().enumerate() {
            if let Some(refused) = check_button_kind(b, &format!("components.{r}.components.{i}")) {
                return Some(refused);
            }
            if b["custom_id"].as_str().is_some_and(|c| c.len() > 100)
                || b["label"].as_str().is_some_and(|l| l.chars().count() > 80)
            {
                return Some(form_error(
                    "components.0.components.0",
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                ));
            }
        }
    }
    None
}

/// A button's kind (components/reference, "Button"): a link button (style 5) must have a `url`
/// of at most 512 characters whose scheme is `http`, `https` or `discord`, and cannot have a
/// `custom_id`; every other (non-premium) button
/// must have a `custom_id` and cannot have a `url`.
fn check_button_kind(button: &Value, at: &str) -> Option<Answer> {
    if button["type"].as_u64() != Some(2) {
        return None;
    }
    let link = button["style"].as_u64() == Some(5);
    let url = button["url"].as_str();
    let custom_id = button["custom_id"].as_str();
    let wrong = match (link, url, custom_id) {
        (true, None, _) => Some(("url", "BASE_TYPE_REQUIRED", "This field is required")),
        (true, Some(u), _) if u.chars().count() > 512 => Some((
            "url",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 512 or fewer in length.",
        )),
        (true, Some(u), _)
            if !["http://", "https://", "discord://"]
                .iter()
                .any(|scheme| u.to_ascii_lowercase().starts_with(scheme)) =>
        {
            Some((
                "url",
                "URL_TYPE_INVALID_SCHEME",
                "Scheme must be one of ('http', 'https', 'discord').",
            ))
        }
        (true, _, Some(_)) => Some((
            "custom_id",
            "COMPONENT_LINK_BUTTON_CUSTOM_ID",
            "A link button cannot have a custom id.",
        )),
        (false, _, None) => Some(("custom_id", "BASE_TYPE_REQUIRED", "This field is required")),
        (false, Some(_), _) => Some((
            "url",
            "COMPONENT_NON_LINK_BUTTON_URL",
            "Only link buttons can have a url.",
        )),
        _ => None,
    };
    wrong.map(|(field, code, message)| form_error(&format!("{at}.{field}"), code, message))
}

/// Mentions in content that Discord would render: `<@id>`, `<@!id>`, `<@&id>`, @everyone and
/// @here, except after a backslash.
pub(super) fn mentions(content: &str) -> (Vec<u64>, Vec<u64>, bool) {
    let (mut users, mut roles, mut everyone) = (Vec::new(), Vec::new(), false);
    let bytes = content.as_bytes();
    for (i, _) in content.match_indices("<@") {
        if i > 0 && bytes[i - 1] == b'\\' {
            continue;
        }
        let rest = &content[i + 2..];
        let (role, rest) = match rest.strip_prefix('&') {
            Some(r) => (true, r),
            None => (false, rest.strip_prefix('!').unwrap_or(rest)),
        };
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if rest[digits.len()..].starts_with('>') {
            if let Ok(id) = digits.parse() {
                if role {
                    roles.push(id);
                } else {
                    users.push(id);
                }
            }
        }
    }
    for word in ["@everyone", "@here"] {
        for (i, _) in content.match_indices(word) {
            if i == 0 || bytes[i - 1] != b'\\' {
                everyone = true;
            }
        }
    }
    (users, roles, everyone)
}

/// A new message: stored, and everyone its allowed mentions reach is notified (ephemeral
/// messages notify no one).
pub(super) fn create_message(
    state: &State,
    channel: u64,
    payload: &Value,
    files: &[(String, Vec<u8>)],
) -> Msg {
    let content = payload["content"].as_str().unwrap_or("").to_string();
    let ephemeral = flags(payload) & 64 != 0;
    let msg = Msg {
        id: state.new_snowflake(),
        channel,
        content: content.clone(),
        ephemeral,
        files: files.iter().map(|(n, _)| n.clone()).collect(),
        components: payload["components"].clone(),
        edits: 0,
        deleted: false,
        nonce: payload["nonce"].as_str().map(String::from),
        author: BOT_ID,
        created_ms: state.now_ms(),
    };
    state.messages.lock().unwrap().push(msg.clone());
    state.note_message(channel, msg.id);
    if !ephemeral {
        let allowed = &payload["allowed_mentions"];
        let parse: Vec<&str> = if allowed.is_object() {
            allowed["parse"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str())
                .collect()
        } else {
            vec!["users", "roles", "everyone"]
        };
        let listed = |key: &str, id: u64| {
            allowed[key]
                .as_array()
                .into_iter()
                .flatten()
                .any(|v| v.as_str() == Some(&id.to_string()))
        };
        let (users, roles, everyone) = mentions(&content);
        let mut notified = state.notifications.lock().unwrap();
        for u in users {
            if (parse.contains(&"users") || listed("users", u))
                && !notified.iter().any(|n| n.message == msg.id && n.user == u)
            {
                notified.push(Notification {
                    user: u,
                    message: msg.id,
                    channel,
                });
            }
        }
        let mut others = state.other_pings.lock().unwrap();
        for role in roles {
            if parse.contains(&"roles") || listed("roles", role) {
                others.push(format!("role {role}"));
            }
        }
        if everyone && parse.contains(&"everyone") {
            others.push("@everyone".into());
        }
    }
    msg
}

/// A message the bot adds to a thread: refused in a locked thread, and it unarchives it
/// (topics/threads: a locked thread is reopened by Manage Threads only). Locked and archived,
/// the refusal is 400 with 50083, "an operation on an archived thread" (topics/opcodes-and-
/// status-codes, "JSON Error Codes"), not a 403.
pub(super) fn thread_activity(state: &State, channel: u64) -> Option<Answer> {
    let (update, refused) = state.with_channel(channel, |c| {
        if c.kind != 11 {
            return (None, None);
        }
        if c.locked && c.bot_permissions & perms::MANAGE_THREADS == 0 {
            return match c.archived {
                true => (
                    None,
                    Some(error(
                        400,
                        50083,
                        "Operation cannot be performed on an archived thread.",
                    )),
                ),
                false => (None, Some(error(403, 50013, "Missing Permissions"))),
            };
        }
        c.last_activity_ms = state.now_ms();
        if c.archived {
            c.archived = false;
            return (Some(thread_of(channel, c)), None);
        }
        (None, None)
    });
    if refused.is_some() {
        return refused;
    }
    if let Some(thread) = update {
        state.dispatch("THREAD_UPDATE", thread);
    }
    None
}

/// What the bot may not do in `channel` to post a message (with files or not).
pub(super) fn post_refused(state: &State, channel: u64, with_files: bool) -> Option<Answer> {
    let (kind, have, deleted) =
        state.with_channel(channel, |c| (c.kind, c.bot_permissions, c.deleted));
    if deleted {
        return Some(error(404, 10003, "Unknown Channel"));
    }
    if have & perms::ADMINISTRATOR != 0 {
        return None;
    }
    if have & perms::VIEW_CHANNEL == 0 {
        return Some(error(403, 50001, "Missing Access"));
    }
    let send = if is_thread(kind) {
        perms::SEND_MESSAGES_IN_THREADS
    } else {
        perms::SEND_MESSAGES
    };
    if have & send == 0 || (with_files && have & perms::ATTACH_FILES == 0) {
        return Some(error(403, 50013, "Missing Permissions"));
    }
    None
}
