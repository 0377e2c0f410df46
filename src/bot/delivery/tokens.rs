//! The interactions acknowledged in channels outside servers, whose tokens carry what those
//! channels are owed as follow-ups (`answers.rs`).
//!
//! Invariant: a token is taken for a follow-up only once its interaction was acknowledged (a
//! follow-up cannot come before the first answer), only while it surely lives, and at most
//! `MOST_FOLLOW_UPS` times.

use crate::clock::now_ms;
use std::collections::HashMap;
use std::sync::Mutex;

/// The follow-ups Discord allows an interaction of a user-installed app outside its servers.
const MOST_FOLLOW_UPS: u8 = 5;

/// Whether the token of an interaction made at `issued_ms` may still be used at `now_ms`.
pub fn token_lives(issued_ms: i64, now_ms: i64) -> bool {
    now_ms - issued_ms < TOKEN_TRUSTED_MS
}

/// How long after a letter was stored its interaction's token is used: Discord's tokens live
/// 15 minutes from the interaction (interactions/receiving-and-responding), counted from its
/// id; the margin keeps every request well inside.
pub(super) const TOKEN_TRUSTED_MS: i64 = 14 * 60_000;

/// The interactions that may carry follow-ups, by channel outside a server, as this process saw
/// them acknowledged.
#[derive(Default)]
pub struct Answers(Mutex<HashMap<u64, Vec<Usable>>>);

struct Usable {
    token: String,
    issued_ms: i64,
    follow_ups: u8,
}

impl Answers {
    /// The interaction with `token`, made at `issued_ms` in `channel` outside a server, was
    /// acknowledged: follow-ups may use it from now on.
    pub fn acknowledged(&self, channel: u64, token: &str, issued_ms: i64) {
        let mut channels = self.0.lock().expect("answers");
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
                follow_ups: 0,
            });
        }
    }

    /// Whether an interaction outside a server was seen in `channel` lately.
    pub fn knows(&self, channel: u64) -> bool {
        self.0.lock().expect("answers").contains_key(&channel)
    }

    /// The newest live token in `channel` with a follow-up left, counted as taken.
    pub(super) fn take(&self, channel: u64) -> Option<String> {
        let mut channels = self.0.lock().expect("answers");
        let now = now_ms();
        let usable = channels.get_mut(&channel)?;
        let newest = usable
            .iter_mut()
            .filter(|u| token_lives(u.issued_ms, now) && u.follow_ups < MOST_FOLLOW_UPS)
            .max_by_key(|u| u.issued_ms)?;
        newest.follow_ups += 1;
        Some(newest.token.clone())
    }

    /// `token` can carry no more follow-ups.
    pub(super) fn spent(&self, channel: u64, token: &str) {
        if let Some(usable) = self.0.lock().expect("answers").get_mut(&channel) {
            usable.retain(|u| u.token != token);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follow_ups_take_the_newest_live_token_five_times_at_most() {
        let answers = Answers::default();
        assert!(!answers.knows(7));
        let now = now_ms();
        answers.acknowledged(7, "old", now - 60_000);
        answers.acknowledged(7, "new", now - 1_000);
        // Dead: past the 14 minutes a token is trusted.
        answers.acknowledged(7, "dead", now - 15 * 60_000);
        assert!(answers.knows(7) && !answers.knows(8));
        for _ in 0..MOST_FOLLOW_UPS {
            assert_eq!(answers.take(7).as_deref(), Some("new"));
        }
        assert_eq!(
            answers.take(7).as_deref(),
            Some("old"),
            "the newest is spent"
        );
        answers.spent(7, "old");
        assert_eq!(answers.take(7), None);
    }
}
