//! What a failed request to Discord means, decided by Discord's JSON error code first
//! (topics/opcodes-and-status-codes, "JSON Error Codes") and by the HTTP status only where no
//! code says more: a 403 may be a channel closed for an hour (50013) or one Bredon can no longer
//! see (50001), and neither is a channel that is gone (10003).

use poise::serenity_prelude as serenity;

/// Discord's JSON error codes Bredon acts on (topics/opcodes-and-status-codes).
pub mod code {
    /// Unknown Channel: deleted, or a thread deleted with its parent.
    pub const UNKNOWN_CHANNEL: isize = 10003;
    /// Unknown Webhook: an interaction's token that Discord no longer knows.
    pub const UNKNOWN_WEBHOOK: isize = 10015;
    /// Missing Access: Bredon cannot see the channel (View Channel taken away).
    pub const MISSING_ACCESS: isize = 50001;
    /// Cannot send messages to this user: their privacy settings close direct messages.
    pub const CANNOT_MESSAGE_USER: isize = 50007;
    /// Send messages has been temporarily disabled.
    pub const SENDING_DISABLED: isize = 40004;
    /// Access to file uploads has been limited for this guild.
    pub const UPLOADS_LIMITED: isize = 400001;
    /// Missing Permissions: Send Messages, Attach Files, ... taken away.
    pub const MISSING_PERMISSIONS: isize = 50013;
    /// The interaction has hit the maximum number of follow up messages (5 for a user-installed
    /// app outside its servers: interactions/receiving-and-responding, "Create Followup Message").
    pub const MOST_FOLLOW_UPS: isize = 40094;
    /// Interaction has already been acknowledged: a first answer sent again after its reply
    /// was lost; the earlier one went out (`@original` shows it).
    pub const ALREADY_ACKNOWLEDGED: isize = 40060;
    /// Invalid Webhook Token: an interaction's token past its 15 minutes.
    pub const INVALID_WEBHOOK_TOKEN: isize = 50027;
    /// An operation on an archived thread: a post in a thread a moderator locked and archived
    /// (a locked thread reopens for Manage Threads only; topics/threads).
    pub const ARCHIVED_THREAD: isize = 50083;
    /// A reply (`message_reference`) needs Read Message History (resources/message, "Create
    /// Message", limitations).
    pub const REPLY_WITHOUT_HISTORY: isize = 160002;
}

/// What a failed request means for the message it carried.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Failure {
    /// It may have taken effect or not: a 5xx, a time-out, a dropped connection. A channel post
    /// is tried again with its nonce, or, past the nonce's window, after a look.
    Uncertain,
    /// Refused by a rate limit (429, a slow mode): it had no effect; tried again after a wait.
    RateLimited,
    /// The channel is gone for good (10003): what it was owed is dropped, its game's clocks stop.
    Gone,
    /// Bredon may not do this there for now (50001, 50013; sending disabled for a while, 40004;
    /// uploads limited in the server, 400001): a moderator's override, a raid lock-down. What
    /// is owed is kept and tried again; clocks keep running.
    NotAllowed,
    /// A moderator locked the thread (50083, 160005): kept until it is unlocked, clocks
    /// running, and no server told (the moderator knows).
    Locked,
    /// The interaction's token no longer works (50027, 10015, 10062) or carries no more
    /// follow-ups (40094): the channel takes over.
    TokenExpired,
    /// Discord refuses Bredon's own token (401 without a webhook's code): it was reset.
    TokenReset,
    /// Discord refuses this message as it is (its form, its size, a link, a reply, a filter):
    /// the same text goes again alone, without files, buttons or reply, and is passed over only
    /// if that is refused too.
    Malformed,
    /// Nothing of this kind can ever go there (a channel that takes no messages, a user who
    /// no longer exists): passed over, and the log says so.
    Impossible,
    /// A refusal Bredon has no row for: kept and tried again after the long waits for a bounded
    /// time, then passed over with its players told by direct message (`unheard.rs`); the
    /// operator told once per code.
    Unknown,
}

/// Discord's JSON error codes (topics/opcodes-and-status-codes, "JSON Error Codes") that a
/// message, an interaction's answer or follow-up, a thread or a direct message can meet, and
/// what each means. A code not here falls to its HTTP status (`by_status`).
pub const CODES: &[(isize, Failure, &str)] = &[
    (code::UNKNOWN_CHANNEL, Failure::Gone, "Unknown channel"),
    (10004, Failure::Gone, "Unknown guild"),
    (
        10008,
        Failure::Malformed,
        "Unknown message: a reply's or an edit's message is gone",
    ),
    (10013, Failure::Impossible, "Unknown user"),
    (
        code::UNKNOWN_WEBHOOK,
        Failure::TokenExpired,
        "Unknown webhook",
    ),
    (10062, Failure::TokenExpired, "Unknown interaction"),
    (
        20009,
        Failure::Malformed,
        "Explicit content cannot be sent to the desired recipients",
    ),
    (20001, Failure::Impossible, "Bots cannot use this endpoint"),
    (20016, Failure::RateLimited, "Slowmode rate limit"),
    (20022, Failure::RateLimited, "Announcement rate limit"),
    (
        20028,
        Failure::RateLimited,
        "The channel has hit the write rate limit",
    ),
    (
        20029,
        Failure::RateLimited,
        "The server has hit the write rate limit",
    ),
    (
        20031,
        Failure::Malformed,
        "Words not allowed (a thread's or a channel's name)",
    ),
    (
        30015,
        Failure::Malformed,
        "Maximum number of attachments in a message reached",
    ),
    (
        30046,
        Failure::RateLimited,
        "Maximum number of edits to messages older than 1 hour reached; try again later",
    ),
    (
        40003,
        Failure::RateLimited,
        "Opening direct messages too fast",
    ),
    (
        code::SENDING_DISABLED,
        Failure::NotAllowed,
        "Send messages has been temporarily disabled",
    ),
    (40005, Failure::Malformed, "Request entity too large"),
    (
        40006,
        Failure::RateLimited,
        "This feature has been temporarily disabled server-side",
    ),
    (
        code::MOST_FOLLOW_UPS,
        Failure::TokenExpired,
        "The interaction has hit the maximum number of follow up messages",
    ),
    (
        code::ALREADY_ACKNOWLEDGED,
        Failure::Uncertain,
        "Interaction has already been acknowledged: an earlier answer went out",
    ),
    (
        40062,
        Failure::RateLimited,
        "Service resource is being rate limited",
    ),
    (
        40058,
        Failure::Impossible,
        "Cannot send a message in a forum channel",
    ),
    (code::MISSING_ACCESS, Failure::NotAllowed, "Missing access"),
    (50006, Failure::Impossible, "Cannot send an empty message"),
    (
        code::CANNOT_MESSAGE_USER,
        Failure::Impossible,
        "Cannot send messages to this user",
    ),
    (
        50008,
        Failure::Impossible,
        "Cannot send messages in a non-text channel",
    ),
    (
        code::MISSING_PERMISSIONS,
        Failure::NotAllowed,
        "Missing permissions",
    ),
    (
        50021,
        Failure::Impossible,
        "Cannot execute action on a system message",
    ),
    (
        50024,
        Failure::Impossible,
        "Cannot execute action on this channel type",
    ),
    (
        code::INVALID_WEBHOOK_TOKEN,
        Failure::TokenExpired,
        "Invalid webhook token",
    ),
    (50033, Failure::Impossible, "Invalid recipients"),
    (50035, Failure::Malformed, "Invalid form body"),
    (
        50045,
        Failure::Malformed,
        "File uploaded exceeds the maximum size",
    ),
    (50046, Failure::Malformed, "Invalid file uploaded"),
    (
        50109,
        Failure::Malformed,
        "The request body contains invalid JSON",
    ),
    (
        code::ARCHIVED_THREAD,
        Failure::Locked,
        "Operation cannot be performed on an archived thread",
    ),
    (
        code::REPLY_WITHOUT_HISTORY,
        Failure::Malformed,
        "Replying needs Read Message History",
    ),
    (160005, Failure::Locked, "Thread is locked"),
    (
        160006,
        Failure::NotAllowed,
        "Maximum number of active threads reached",
    ),
    (
        160007,
        Failure::NotAllowed,
        "Maximum number of active announcement threads reached",
    ),
    (200000, Failure::Malformed, "Message blocked by AutoMod"),
    (200001, Failure::Malformed, "Title blocked by AutoMod"),
    (
        240000,
        Failure::Malformed,
        "Message blocked by the harmful links filter",
    ),
    (
        130000,
        Failure::RateLimited,
        "API resource is currently overloaded; try again a little later",
    ),
    (
        code::UPLOADS_LIMITED,
        Failure::NotAllowed,
        "Access to file uploads has been limited for this guild",
    ),
];

/// What an answer means when its code has no row: by the HTTP status alone.
fn by_status(status: u16) -> Failure {
    match status {
        401 => Failure::TokenReset,
        // Any other 403 is Discord saying "not now": kept, never dropped.
        403 => Failure::NotAllowed,
        413 => Failure::Malformed,
        429 => Failure::RateLimited,
        408 | 500..=599 => Failure::Uncertain,
        _ => Failure::Unknown,
    }
}

pub fn classify(error: &serenity::Error) -> Failure {
    use serenity::{Error, HttpError};
    match error {
        Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            classify_answer(r.status_code.as_u16(), r.error.code)
        }
        Error::Http(HttpError::Request(_)) | Error::Io(_) => Failure::Uncertain,
        // Discord's answer could not be read: the request may have taken effect.
        Error::Json(_) | Error::Http(HttpError::InvalidHeader(_)) => Failure::Uncertain,
        // serenity refused to send it (too long, too many parts): as Discord would have.
        Error::Model(_) => Failure::Malformed,
        _ => Failure::Unknown,
    }
}

/// The meaning of Discord's answer `status` with JSON error `code`: the code's row first.
pub fn classify_answer(status: u16, code: isize) -> Failure {
    match CODES.iter().find(|(c, ..)| *c == code) {
        Some((_, failure, _)) => *failure,
        None => by_status(status),
    }
}

/// Whether the operator has not yet been told of `what` with this `code` (in this process):
/// the first call for a pair says so, the later ones do not.
pub fn first_time(what: &'static str, code: isize) -> bool {
    static TOLD: std::sync::Mutex<std::collections::BTreeSet<(&str, isize)>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    TOLD.lock().expect("refusals told").insert((what, code))
}

/// The JSON error code of a Discord error, if it has one.
pub fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// A Discord error with Discord's own explanation (status, code, message, field errors).
pub fn describe(error: &serenity::Error) -> String {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            // The route alone: the address before it is the gate's, with its secret path.
            let route = r
                .url
                .find("/api/")
                .map_or(r.url.as_str(), |at| &r.url[at..]);
            let mut text = format!(
                "Discord answered {} to {} {route}: {} (code {})",
                r.status_code, r.method, r.error.message, r.error.code
            );
            for e in &r.error.errors {
                text.push_str(&format!("; {}: {}", e.path, e.message));
            }
            text
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_table_decides_whatever_the_status() {
        for &(code, failure, name) in CODES {
            for status in [400, 403, 404, 413, 429, 500] {
                assert_eq!(classify_answer(status, code), failure, "{code} {name}");
            }
        }
        let mut codes: Vec<isize> = CODES.iter().map(|(c, ..)| *c).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), CODES.len(), "one row per code");
    }

    #[test]
    fn a_code_without_a_row_falls_to_its_status_and_is_held() {
        assert_eq!(classify_answer(401, 0), Failure::TokenReset);
        assert_eq!(classify_answer(429, 0), Failure::RateLimited);
        assert_eq!(classify_answer(503, 0), Failure::Uncertain);
        assert_eq!(classify_answer(408, 0), Failure::Uncertain);
        assert_eq!(classify_answer(413, 0), Failure::Malformed);
        // A 403 or 404 without a code Bredon knows is no reason to stop a game's clocks, and a
        // 403 is kept; any other 4xx without a row is parked, not dropped.
        assert_eq!(classify_answer(403, 29999), Failure::NotAllowed);
        assert_eq!(classify_answer(404, 0), Failure::Unknown);
        assert_eq!(classify_answer(400, 99999), Failure::Unknown);
        assert_eq!(classify_answer(404, 10003), Failure::Gone);
        assert_eq!(classify_answer(401, 50027), Failure::TokenExpired);
        assert_eq!(classify_answer(400, 50083), Failure::Locked);
        // A refusal that says "not now" is tried again; one that says an answer went out is
        // looked for, never made again blindly.
        assert_eq!(classify_answer(400, 40003), Failure::RateLimited);
        assert_eq!(classify_answer(503, 130000), Failure::RateLimited);
        assert_eq!(classify_answer(400, 40060), Failure::Uncertain);
        assert_eq!(classify_answer(400, 200001), Failure::Malformed);
    }

    #[test]
    fn the_operator_hears_of_each_refusal_once() {
        assert!(first_time("test", -7));
        assert!(!first_time("test", -7));
        assert!(first_time("test", -8));
        assert!(first_time("another test", -7));
    }
}
