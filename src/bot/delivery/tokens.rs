//! The interactions acknowledged in channels outside servers, whose answers carry what those
//! channels are owed, written into them (`answers.rs`).
//!
//! Invariant: a token is used only once its interaction was acknowledged (an answer cannot be
//! edited before it exists), and only while it surely lives.

use crate::clock::now_ms;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// Whether the token of an interaction made at `issued_ms` may still be used at `now_ms`.
pub fn token_lives(issued_ms: i64, now_ms: i64) -> bool {
    now_ms - issued_ms < TOKEN_TRUSTED_MS
}

/// How long after a letter was stored its interaction's token is used: Discord's tokens live
/// 15 minutes from the interaction (interactions/receiving-and-responding), counted from its
/// id; the margin keeps every request well inside.
pub(super) const TOKEN_TRUSTED_MS: i64 = 14 * 60_000;

/// The interactions whose answers may carry what is owed, by channel outside a server, as this process saw
/// them acknowledged.
#[derive(Default)]
pub struct Answers {
    usable: Mutex<HashMap<u64, Vec<Usable>>>,
    /// The DMs between a user and Bredon this process saw interactions in: Bredon posts there
    /// as in any channel.
    bot_dms: Mutex<HashSet<u64>>,
}

struct Usable {
    token: String,
    issued_ms: i64,
}

impl Answers {
    /// The interaction with `token`, made at `issued_ms` in `channel` outside a server, was
    /// acknowledged: its answer may carry what is owed from now on.
    pub fn acknowledged(&self, channel: u64, token: &str, issued_ms: i64) {
        let mut channels = self.usable.lock().expect("answers");
        let now = now_ms();
        for usable in channels.values_mut() {
            usable.retain(|u| token_lives(u.issued_ms, now));
        }
        channels.retain(|_, usable| !usable.is_empty());
        let usable = channels.entry(channel).or_default();
        if !usable.iter().any(|u| u.token == token) {
            usable.push(Usable {
                token: token.to_string(),
                issued_ms,
            });
        }
    }

    /// `channel` is a DM between a user and Bredon (the interaction's context says so).
    pub fn in_bot_dm(&self, channel: u64) {
        self.bot_dms.lock().expect("bot dms").insert(channel);
    }

    /// Whether `channel` is a DM with Bredon, where it posts as in a server's channel: the
    /// channels where it only answers are the DMs and group DMs between users.
    pub(super) fn is_bot_dm(&self, channel: u64) -> bool {
        self.bot_dms.lock().expect("bot dms").contains(&channel)
    }

    /// Whether an interaction outside a server was seen in `channel` lately.
    pub fn knows(&self, channel: u64) -> bool {
        self.usable.lock().expect("answers").contains_key(&channel)
    }

    /// The newest live token in `channel` not spent.
    pub(super) fn newest(&self, channel: u64) -> Option<String> {
        let channels = self.usable.lock().expect("answers");
        let now = now_ms();
        let newest = channels
            .get(&channel)?
            .iter()
            .filter(|u| token_lives(u.issued_ms, now))
            .max_by_key(|u| u.issued_ms)?;
        Some(newest.token.clone())
    }

    /// `token`'s answer can carry no more.
    pub(super) fn spent(&self, channel: u64, token: &str) {
        if let Some(usable) = self.usable.lock().expect("answers").get_mut(&channel) {
            usable.retain(|u| u.token != token);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_carry_what_is_owed_on_the_newest_live_token_until_it_is_spent() {
        let answers = Answers::default();
        assert!(!answers.knows(7));
        let now = now_ms();
        answers.acknowledged(7, "old", now - 60_000);
        answers.acknowledged(7, "new", now - 1_000);
        // Dead: past the 14 minutes a token is trusted.
        answers.acknowledged(7, "dead", now - 15 * 60_000);
        assert!(answers.knows(7) && !answers.knows(8));
        assert_eq!(answers.newest(7).as_deref(), Some("new"));
        assert_eq!(answers.newest(7).as_deref(), Some("new"), "not used up");
        answers.spent(7, "new");
        assert_eq!(answers.newest(7).as_deref(), Some("old"));
        answers.spent(7, "old");
        assert_eq!(answers.newest(7), None);
    }
}
