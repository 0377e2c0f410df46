//! Channels that refuse Bredon's posts with a code it has no row for (`Failure::Unknown`). Such
//! a refusal may mean anything, so what is owed is parked (kept and tried again after long
//! waits), but only for a bounded time: a channel answering so for `PARKED_AT_MOST_MS` would
//! keep everything after it waiting while the clocks run, and a player could lose on time never
//! told it was their turn. Past that, a post
//! goes once more as text alone, and if that is refused too it is passed over and each player
//! it pings is told by direct message instead; later posts in that channel are passed over the
//! same way after one try each, until one goes through. A channel that refuses for
//! a known reason (a permission taken away, a locked thread) keeps what it is owed until it
//! allows it again; a post there that pings players and has waited `UNTOLD_MS` goes to them by
//! direct message meanwhile, once.

use super::failure::{classify, discord_code, first_time, Failure};
use crate::bot::post::{fit_before, Post};
use crate::clock::now_ms;
use poise::serenity_prelude as serenity;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// How long a letter or a channel stays parked for a code Bredon does not know before it is
/// passed over: within the hour a turn's reminder usually gives.
pub const PARKED_AT_MOST_MS: i64 = 30 * 60_000;

/// How long a post that pings players waits in a channel refusing it for a known reason before
/// they are told by direct message: within the hour, as a reminder would.
pub const UNTOLD_MS: i64 = 60 * 60_000;

/// Since when each channel refuses with an unknown code, and the posts whose players were told
/// by direct message (this process's knowledge).
#[derive(Default)]
pub struct Unheard {
    since_ms: Mutex<HashMap<u64, i64>>,
    /// (letter, part's key, player): told by direct message.
    told: Mutex<HashSet<(u64, String, u64)>>,
}

impl Unheard {
    /// Whether `error`, met posting in `channel` for a letter owed since `letter_since_ms`
    /// (none: no letter), is an unknown code parked long enough (the letter or the channel):
    /// the post is then passed over. Notes the channel's first unknown refusal.
    pub fn parked_too_long(
        &self,
        channel: u64,
        letter_since_ms: Option<i64>,
        error: &serenity::Error,
    ) -> bool {
        if classify(error) != Failure::Unknown {
            return false;
        }
        let now = now_ms();
        let since = *self
            .since_ms
            .lock()
            .expect("unheard")
            .entry(channel)
            .or_insert(now);
        let letter_parked = letter_since_ms.is_some_and(|since| now - since >= PARKED_AT_MOST_MS);
        letter_parked || now - since >= PARKED_AT_MOST_MS
    }

    /// A post went through in `channel`: its unknown refusals are over.
    pub fn heard(&self, channel: u64) {
        self.since_ms.lock().expect("unheard").remove(&channel);
    }

    /// Whether `player` was told of `part` of `letter` by direct message (by this process: a
    /// repeat after a restart is found by the direct message's nonce or look).
    pub fn was_told(&self, letter: u64, part: &str, player: u64) -> bool {
        let key = (letter, part.to_string(), player);
        self.told.lock().expect("told").contains(&key)
    }

    /// `player` was told of `part` of `letter` by direct message.
    pub fn told(&self, letter: u64, part: &str, player: u64) {
        let key = (letter, part.to_string(), player);
        self.told.lock().expect("told").insert(key);
    }
}

/// What a player a post pings is told by direct message while `channel` refuses it for a
/// known reason (`failure`: not allowed, or a locked thread): the post's text, and why it is
/// not in the channel yet.
pub fn meanwhile(text: &Post, guild: u64, channel: u64, failure: Failure) -> Post {
    let place = place(guild, channel);
    let why = match failure {
        Failure::Locked => format!("a moderator locked {place}, so Bredon cannot post this there"),
        _ => format!("Bredon may not post in {place}: a permission it needs there was taken away"),
    };
    let note = format!("\n({why}. The game's clocks run, so it comes to you here; it is posted there once Bredon may again.)");
    Post {
        content: fit_before(text.content.clone(), &note),
        ..text.clone()
    }
}

/// A channel's link: in its server, or outside servers.
fn place(guild: u64, channel: u64) -> String {
    match guild {
        0 => format!("https://discord.com/channels/@me/{channel}"),
        _ => format!("https://discord.com/channels/{guild}/{channel}"),
    }
}

/// A post passed over in `channel` for `error`: the operator hears of each code once.
pub fn passed_over(channel: u64, players: usize, error: &serenity::Error) {
    let code = discord_code(error).unwrap_or(0);
    if first_time("passed over", code) {
        tracing::error!(channel, code, "a channel refused Bredon with a code it does not know for longer than it parks a post: passed over, and its players told by direct message; tell Bredon's developers the code");
    } else {
        tracing::warn!(channel, code, players, "a post parked past its bound for an unknown code: passed over, its players told by direct message");
    }
}

/// What a player a passed-over post pinged is told by direct message instead: the post's
/// text (`text`, as text alone), and where it could not go.
pub fn instead(text: &Post, guild: u64, channel: u64, error: &serenity::Error) -> Post {
    let code = discord_code(error).unwrap_or(0);
    let place = place(guild, channel);
    let note = format!("\n(Bredon cannot post this in {place}: Discord refuses it there, code {code}. It comes to you here instead.)");
    Post {
        content: fit_before(text.content.clone(), &note),
        ..text.clone()
    }
}
