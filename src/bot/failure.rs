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
    /// Refused by a rate limit (429): it had no effect; tried again after a wait.
    RateLimited,
    /// The channel is gone for good (10003): what it was owed is dropped, its game's clocks stop.
    Gone,
    /// Bredon may not do this there for now (50001, 50013; sending disabled for a while, 40004;
    /// uploads limited in the server, 400001): a moderator's override, a raid lock-down. What
    /// is owed is kept and tried again; clocks keep running.
    NotAllowed,
    /// A moderator locked the thread (50083): kept until it is unlocked, clocks running, and no
    /// server told (the moderator knows).
    Locked,
    /// The interaction's token no longer works (50027, 10015): the channel takes over.
    TokenExpired,
    /// Discord refuses Bredon's own token (401 without a webhook's code): it was reset.
    TokenReset,
    /// The request itself is wrong (another 4xx but 403 and 408): repeating it cannot help.
    Refused,
}

pub fn classify(error: &serenity::Error) -> Failure {
    use serenity::{Error, HttpError};
    match error {
        Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            classify_answer(r.status_code.as_u16(), r.error.code)
        }
        Error::Http(HttpError::Request(_)) | Error::Io(_) => Failure::Uncertain,
        _ => Failure::Refused,
    }
}

/// The meaning of Discord's answer `status` with JSON error `code`.
pub fn classify_answer(status: u16, code: isize) -> Failure {
    match (status, code) {
        (_, code::UNKNOWN_CHANNEL) => Failure::Gone,
        (
            _,
            code::MISSING_ACCESS
            | code::MISSING_PERMISSIONS
            | code::SENDING_DISABLED
            | code::UPLOADS_LIMITED,
        ) => Failure::NotAllowed,
        (_, code::ARCHIVED_THREAD) => Failure::Locked,
        (_, code::INVALID_WEBHOOK_TOKEN | code::UNKNOWN_WEBHOOK) => Failure::TokenExpired,
        (401, _) => Failure::TokenReset,
        // Any other 403 (a locked thread, 160005, ...) is Discord saying
        // "not now" too: kept, never dropped.
        (403, _) => Failure::NotAllowed,
        (429, _) => Failure::RateLimited,
        (408 | 500..=599, _) => Failure::Uncertain,
        _ => Failure::Refused,
    }
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
            let mut text = format!(
                "Discord answered {} to {} {}: {} (code {})",
                r.status_code, r.method, r.url, r.error.message, r.error.code
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
    fn codes_decide_before_statuses() {
        assert_eq!(classify_answer(404, 10003), Failure::Gone);
        assert_eq!(classify_answer(403, 50001), Failure::NotAllowed);
        assert_eq!(classify_answer(403, 50013), Failure::NotAllowed);
        assert_eq!(classify_answer(403, 40004), Failure::NotAllowed);
        assert_eq!(classify_answer(403, 400001), Failure::NotAllowed);
        assert_eq!(classify_answer(400, 50083), Failure::Locked);
        assert_eq!(classify_answer(401, 50027), Failure::TokenExpired);
        assert_eq!(classify_answer(404, 10015), Failure::TokenExpired);
        assert_eq!(classify_answer(401, 0), Failure::TokenReset);
        assert_eq!(classify_answer(429, 0), Failure::RateLimited);
        assert_eq!(classify_answer(503, 0), Failure::Uncertain);
        // A 403 or 404 without a code Bredon knows is no reason to stop a game's clocks, and a
        // 403 is kept.
        assert_eq!(classify_answer(403, 160005), Failure::NotAllowed);
        assert_eq!(classify_answer(403, 20001), Failure::NotAllowed);
        assert_eq!(classify_answer(404, 10008), Failure::Refused);
        assert_eq!(classify_answer(408, 0), Failure::Uncertain);
        assert_eq!(classify_answer(400, 50035), Failure::Refused);
    }
}
