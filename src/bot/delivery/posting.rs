//! One message posted once, in a channel or a direct-message channel, whatever Discord does on
//! the way. A post carries a nonce that makes Discord return the first message when it is
//! repeated after a lost answer, but only "in the past few minutes" (resources/message, "Create
//! Message", `enforce_nonce`): a letter older than that is looked for among the channel's
//! messages before it is posted again. Discord's JSON codes decide what a refusal means
//! (`failure.rs`): a channel gone drops what it was owed and stops its game's clocks; a
//! permission taken away keeps it (clocks running) until it is given back; a picture Bredon may
//! not attach is replaced by its description.

use super::failure::{classify, code, describe, discord_code, first_time, Failure};
use crate::bot::blocking::in_store;
use crate::bot::data::Publisher;
use crate::bot::post::Post;
use crate::clock::now_ms;
use crate::service::{event_id, Outcome, Part, FIRST_EPOCH};
use crate::store::records::Lacking;
use poise::serenity_prelude as serenity;
use std::sync::atomic::Ordering;

/// Why an outcome is not (wholly) delivered.
#[derive(Debug)]
pub enum Undelivered {
    /// Worth another try soon (Discord failed, or its answer was lost): the outbox keeps it.
    Later(String),
    /// Bredon may not post there for now (Missing Access, Missing Permissions): the outbox keeps
    /// it and tries again after longer waits; the game's clocks keep running.
    NotAllowed(String),
    /// The channel is gone: the outcome was dropped, its game's timers stop.
    Gone,
    /// Parked: kept, but not for a permission: a moderator's lock, or a refusal Bredon has no
    /// row for (`Failure::Unknown`); tried again after the same long waits.
    Parked(String),
    /// Another process took the letter over (this one's lease lapsed): it delivers the rest,
    /// and this one stops without writing.
    Fenced,
    /// Discord refuses Bredon's token: nothing can be delivered until it is replaced; every
    /// letter is kept and the process stops.
    TokenReset,
}

impl std::fmt::Display for Undelivered {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Undelivered::Later(why) => write!(f, "{why}; the outbox tries again"),
            Undelivered::NotAllowed(why) => {
                write!(f, "{why}; kept until Bredon may post there again")
            }
            Undelivered::Parked(why) => write!(f, "{why}; parked and tried again later"),
            Undelivered::Fenced => f.write_str("another process took the letter over"),
            Undelivered::Gone => f.write_str("the channel is gone"),
            Undelivered::TokenReset => f.write_str("Discord refuses Bredon's token"),
        }
    }
}

impl std::error::Error for Undelivered {}

/// What a stored letter's delivery needs to know of it: which letter, since when it is owed (a
/// try older than the nonce's window is looked for before a post is repeated), and its server
/// (told where Discord refuses Bredon; 0 for none).
#[derive(Clone, Copy, Debug)]
pub struct Owed {
    pub letter: Option<u64>,
    pub since_ms: i64,
    pub guild: u64,
    /// The epoch of this process's lease on the letter: every note is written under it.
    pub epoch: u64,
    /// Until when the lease surely runs, as this process knows it (0: unknown): a request
    /// that fits in it needs no renewal first.
    pub lease_until_ms: i64,
    /// Owed to a channel outside servers, where Bredon may only answer (`answers.rs`): a
    /// game's letter written there (its server 0; a letter in a reader's queue has none
    /// either, but is owed to no channel).
    pub outside: bool,
}

impl Owed {
    /// The letter of an outcome its handler is delivering now, under the lease its change
    /// gave this process.
    pub fn fresh(outcome: &Outcome) -> Owed {
        Owed {
            letter: outcome.letter,
            guild: outcome.guild,
            since_ms: now_ms(),
            epoch: FIRST_EPOCH,
            lease_until_ms: outcome.lease_until_ms,
            outside: written_outside(outcome),
        }
    }

    /// Whether a request starting at `now_ms` may run past the lease as this process knows it
    /// (its whole budget, and a margin for clocks): then the lease is renewed first.
    fn lease_runs_short(self, now_ms: i64, request_budget: std::time::Duration) -> bool {
        now_ms + request_budget.as_millis() as i64 + super::waits::LEASE_MARGIN_MS
            > self.lease_until_ms
    }

    /// Whether a post of this letter may have been tried longer ago than Discord keeps a nonce.
    pub(super) fn past_nonce_window(self, now_ms: i64) -> bool {
        self.letter.is_some() && now_ms - self.since_ms > NONCE_TRUSTED_MS
    }
}

/// Whether `outcome`'s letter was written for a channel outside servers.
pub fn written_outside(outcome: &Outcome) -> bool {
    outcome.letter.is_some() && outcome.guild == 0 && !outcome.is_direct_alone()
}

/// How long after a letter was stored a repeated post may rely on its nonce alone: Discord
/// keeps a nonce "in the past few minutes"; Bredon counts on one.
const NONCE_TRUSTED_MS: i64 = 60_000;

/// How many pages of 100 messages a look reads at most (an outage of hours in a busy channel).
const LOOK_PAGES: usize = 5;

/// Discord's epoch in Unix milliseconds (reference, "Snowflakes").
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// When Discord made what has the id `id` (reference, "Snowflakes": milliseconds since
/// Discord's epoch above bit 22).
pub(in crate::bot) fn created_ms(id: u64) -> i64 {
    (id >> 22) as i64 + DISCORD_EPOCH_MS
}

/// The smallest id Discord could give something made at `ms`.
fn snowflake_at(ms: i64) -> u64 {
    (ms.saturating_sub(DISCORD_EPOCH_MS).max(1) as u64) << 22
}

/// What Bredon says when Discord refuses its token.
pub(super) const TOKEN_RESET: &str =
    "Discord no longer accepts DISCORD_TOKEN (401 Unauthorized): the bot's \
    token was reset. Copy the new one from the Developer Portal (your application, Bot, Reset \
    Token) into DISCORD_TOKEN and start Bredon again; every message still owed is kept and goes \
    out then";

impl Publisher {
    /// Posts one part of an outcome in `channel`, once: past the nonce's window, only if a look
    /// finds no earlier copy (`found_earlier`). Without Attach Files, the post goes out with its
    /// picture's description instead of the picture; a post Discord refuses as it is
    /// (`Failure::Malformed`) goes again as text alone.
    pub(super) async fn post(
        &self,
        channel: u64,
        owed: Owed,
        part: Part,
        post: Post,
    ) -> Result<Option<u64>, Undelivered> {
        if let Some(id) = self.found_earlier(channel, owed, &post).await? {
            return Ok(Some(id));
        }
        self.post_unseen(channel, owed, part, post).await
    }

    /// An earlier copy of `post` in `channel`, when the letter is past the nonce's window (its
    /// earlier try may have gone through): `None` within it, when the look finds none, or when
    /// no look is possible (as without Read Message History).
    pub(super) async fn found_earlier(
        &self,
        channel: u64,
        owed: Owed,
        post: &Post,
    ) -> Result<Option<u64>, Undelivered> {
        // Outside servers no channel can be read: its answers are not looked for.
        if !owed.past_nonce_window(now_ms()) || self.outside_servers(channel, owed) {
            return Ok(None);
        }
        match self.posted_since(channel, owed.since_ms, post).await {
            Ok(found) => Ok(found),
            Err(e)
                if matches!(
                    classify(&e),
                    Failure::Malformed | Failure::Impossible | Failure::Unknown
                ) =>
            {
                Ok(None)
            }
            Err(e) => self.failed(channel, owed, e).await,
        }
    }

    /// `post` with no look first: the caller looked (`found_earlier`) and found no copy.
    pub(super) async fn post_unseen(
        &self,
        channel: u64,
        owed: Owed,
        part: Part,
        post: Post,
    ) -> Result<Option<u64>, Undelivered> {
        if self.outside_servers(channel, owed) {
            return self.answer_outside(channel, owed, part, post).await;
        }
        // The posts run inside the lease, renewed after the look (which posts nothing).
        self.renew(owed).await?;
        let nonce = nonce_of(owed.letter, part, channel);
        let without_files = (!post.files.is_empty()).then(|| post.without_files());
        let plain = post.text_only();
        let text_only = post.has_more_than_text().then(|| plain.clone());
        let mut instead = None;
        let mut with_picture = without_files.is_some();
        let mut posted = self.create(channel, &nonce, post).await;
        if let (Err(e), Some(without_files)) = (&posted, without_files) {
            let refused = discord_code(e);
            if matches!(
                refused,
                Some(code::MISSING_PERMISSIONS | code::UPLOADS_LIMITED)
            ) {
                // Perhaps only Attach Files is missing: the text still tells what happened.
                posted = self.create(channel, &nonce, without_files).await;
                with_picture = false;
                if posted.is_ok() {
                    tracing::info!(
                        channel,
                        "posted without its file: Bredon may not attach files there"
                    );
                    // Uploads limited for the whole server is no channel's permission to give.
                    if refused == Some(code::MISSING_PERMISSIONS) {
                        self.refused(owed.guild, channel, Lacking::Files).await;
                    }
                }
            }
        }
        if let Err(e) = &posted {
            // Kept for later if refused with a code Bredon does not know, but not for ever.
            let letter_since = owed.letter.map(|_| owed.since_ms);
            if self.unheard.parked_too_long(channel, letter_since, e) {
                instead = Some(super::unheard::instead(&plain, owed.guild, channel, e));
            }
        }
        if let (Err(e), Some(text_only)) = (&posted, text_only) {
            if classify(e) == Failure::Malformed || instead.is_some() {
                // Refused, so not made: the same nonce is free for the text alone.
                let (code, why) = (discord_code(e).unwrap_or(0), describe(e));
                if first_time("malformed", code) {
                    tracing::error!(channel, code, error = %why, "Discord refused a message as it was, and it goes as text alone (without picture, buttons or reply); said once per code");
                } else {
                    tracing::info!(channel, code, error = %why, "again as text alone");
                }
                posted = self.create(channel, &nonce, text_only).await;
                with_picture = false;
            }
        }
        match (posted, instead) {
            (Ok(id), _) => {
                self.unheard.heard(channel);
                self.went_through(owed.guild, channel, with_picture).await;
                Ok(Some(id))
            }
            (Err(e), Some(instead)) if classify(&e) == Failure::Unknown => {
                super::unheard::passed_over(channel, plain.mentions.len(), &e);
                self.passed_over(channel, owed, part, &plain.mentions, instead)
                    .await
            }
            (Err(e), _) => {
                self.let_go_if_held_back(owed).await;
                let failure = classify(&e);
                let kept = self.failed(channel, owed, e).await;
                if matches!(failure, Failure::NotAllowed | Failure::Locked) {
                    self.meanwhile_by_dm(channel, owed, part, &plain, failure)
                        .await;
                }
                kept
            }
        }
    }

    /// A post that pings players, refused in `channel` for a known reason (`failure`) for
    /// `UNTOLD_MS` since its letter was written: each player it pings is told by direct
    /// message meanwhile, once (the post itself stays owed to the channel). A failed direct
    /// message is tried again at the channel's next try.
    async fn meanwhile_by_dm(
        &self,
        channel: u64,
        owed: Owed,
        part: Part,
        text: &Post,
        failure: Failure,
    ) {
        let Some(letter) = owed.letter else {
            return;
        };
        if now_ms() - owed.since_ms < super::unheard::UNTOLD_MS {
            return;
        }
        let told = super::unheard::meanwhile(text, owed.guild, channel, failure);
        for &user in &text.mentions {
            if self.unheard.was_told(letter, &part.key(), user) {
                continue;
            }
            match self
                .direct_post(channel, user, owed, part, told.clone())
                .await
            {
                Ok(()) => {
                    tracing::info!(
                        channel,
                        user,
                        "a turn the channel refuses told by direct message"
                    );
                    self.unheard.told(letter, &part.key(), user);
                }
                Err(why) => tracing::info!(
                    channel,
                    user,
                    ?why,
                    "a turn the channel refuses not told yet"
                ),
            }
        }
    }

    /// A post `channel` refused too long with a code Bredon does not know (`unheard.rs`),
    /// passed over: each player it pinged gets `instead` by direct message.
    async fn passed_over(
        &self,
        channel: u64,
        owed: Owed,
        part: Part,
        mentions: &[u64],
        instead: Post,
    ) -> Result<Option<u64>, Undelivered> {
        for &user in mentions {
            self.direct_post(channel, user, owed, part, instead.clone())
                .await?;
        }
        Ok(None)
    }

    /// Lets go of the letter's lease when Discord holds this process back, so that another
    /// process takes it at once rather than when the lease lapses.
    pub(super) async fn let_go_if_held_back(&self, owed: Owed) {
        if let (Some(letter), true) = (owed.letter, self.held_back()) {
            self.let_go(letter, owed.epoch).await;
        }
    }

    /// Lets go of this process's lease on `letter` (taken as `epoch`) after a failed try, so
    /// that any process may take it next (one Discord does not hold back, perhaps).
    pub(super) async fn let_go(&self, letter: u64, epoch: u64) {
        let released = in_store(&self.service, move |s| s.release_letter(letter, epoch)).await;
        if !matches!(released, Ok(Ok(()))) {
            tracing::info!(letter, "a letter's lease was not let go; it lapses");
        }
    }

    pub(super) async fn create(
        &self,
        channel: u64,
        nonce: &str,
        post: Post,
    ) -> serenity::Result<u64> {
        let message = post
            .message()
            .nonce(serenity::Nonce::String(nonce.to_string()))
            .enforce_nonce(true);
        let sent = self
            .within_budget(serenity::ChannelId::new(channel).send_message(&self.http, message))
            .await?;
        Ok(sent.id.get())
    }

    /// `request`, given up past its budget (`Waits::request_budget`, as a failure whose effect
    /// is unknown: the nonce, or a look, settles it on the next try). Discord then holds this
    /// process back: for `Waits::held_back_ms` its outbox leaves letters to the others.
    async fn within_budget<T>(
        &self,
        request: impl std::future::Future<Output = serenity::Result<T>>,
    ) -> serenity::Result<T> {
        let waits = self.waits;
        match tokio::time::timeout(waits.request_budget, request).await {
            Ok(done) => done,
            Err(_) => {
                let until = now_ms() + waits.held_back_ms;
                self.held_back_until_ms.fetch_max(until, Ordering::SeqCst);
                tracing::warn!(budget_ms = waits.request_budget.as_millis() as u64, held_back_ms = waits.held_back_ms, "Discord kept a request waiting past its budget (a rate limit?): given up inside the letter's lease, and this process's outbox leaves letters to the others meanwhile");
                Err(serenity::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "held back past the request's budget",
                )))
            }
        }
    }

    /// Whether Discord holds this process's requests back now: a request given up past its
    /// budget (`within_budget`), or a global 429 the gate waits out.
    pub(super) fn held_back(&self) -> bool {
        let until = self.held_back_until_ms.load(Ordering::SeqCst);
        until.max(self.gate.held_back_until_ms()) > now_ms()
    }

    /// Renews this process's lease on the letter before a part's requests: they then run
    /// inside it (`Waits::request_budget`). `Fenced` when another process took the letter over.
    pub(super) async fn renew(&self, owed: Owed) -> Result<(), Undelivered> {
        let Some(letter) = owed.letter else {
            return Ok(());
        };
        if !owed.lease_runs_short(now_ms(), self.waits.request_budget) {
            return Ok(());
        }
        let epoch = owed.epoch;
        let renewed = in_store(&self.service, move |s| {
            s.renew_letter(letter, epoch, now_ms())
        })
        .await;
        match renewed {
            Ok(Ok(true)) => Ok(()),
            Ok(Ok(false)) => Err(Undelivered::Fenced),
            Ok(Err(why)) => Err(Undelivered::Later(why.0)),
            Err(e) => Err(Undelivered::Later(e.to_string())),
        }
    }

    /// What a failed post in `channel` means for its letter.
    pub(super) async fn failed(
        &self,
        channel: u64,
        owed: Owed,
        error: serenity::Error,
    ) -> Result<Option<u64>, Undelivered> {
        let why = describe(&error);
        match classify(&error) {
            Failure::Uncertain | Failure::RateLimited | Failure::TokenExpired => {
                Err(Undelivered::Later(why))
            }
            Failure::NotAllowed => {
                tracing::warn!(channel, error = %why, "Bredon may not post there for now; what it owes is kept and the game's clocks run");
                self.note_refused(owed.guild, channel);
                self.refused(owed.guild, channel, Lacking::Posting).await;
                Err(Undelivered::NotAllowed(why))
            }
            Failure::Locked => {
                tracing::info!(channel, error = %why, "a moderator locked the thread; what it is owed waits for it to be unlocked, and the game's clocks run");
                Err(Undelivered::Parked(why))
            }
            Failure::Gone => {
                tracing::warn!(channel, error = %why, "channel gone; its game's timers stop");
                let letter = owed.letter;
                let dropped = in_store(&self.service, move |s| {
                    if let Err(e) = s.channel_gone(channel) {
                        tracing::warn!(channel, error = %e, "a gone channel's timers could not be stopped");
                    }
                    letter.map_or(Ok(()), |letter| s.delivered(letter))
                })
                .await;
                match dropped {
                    Ok(Ok(())) => Err(Undelivered::Gone),
                    // Still stored: tried again after a wait, never in a loop.
                    _ => Err(Undelivered::Later(why)),
                }
            }
            Failure::TokenReset => {
                self.fatal.raise(TOKEN_RESET.into());
                Err(Undelivered::TokenReset)
            }
            Failure::Malformed | Failure::Impossible => {
                tracing::error!(channel, error = %why, "Discord refused a message, also as text alone; passed over");
                Ok(None)
            }
            Failure::Unknown => {
                self.unknown_refusal(&error, &why);
                Err(Undelivered::Parked(why))
            }
        }
    }

    /// A refusal with a code Bredon has no row for: the operator hears of each code once.
    pub(super) fn unknown_refusal(&self, error: &serenity::Error, why: &str) {
        let code = discord_code(error).unwrap_or(0);
        if first_time("unknown", code) {
            tracing::error!(code, error = %why, "Discord refused a message with a code Bredon does not know: what is owed is kept and tried again after long waits; if this lasts, tell Bredon's developers the code");
        } else {
            tracing::info!(code, error = %why, "refused again with an unknown code; kept");
        }
    }

    /// The message Bredon posted in `channel` since `since_ms` with `post`'s text (or its text
    /// without files, or alone), if there is one: whether a try whose answer was lost went through. The
    /// nonce is not kept with a message, so the text and the author tell. Without Read Message
    /// History Discord lists no messages (resources/message, "Get Channel Messages"), and the
    /// post is made.
    pub(super) async fn posted_since(
        &self,
        channel: u64,
        since_ms: i64,
        post: &Post,
    ) -> serenity::Result<Option<u64>> {
        let me = self.engine.me.id;
        let texts = [
            post.content.trim().to_string(),
            post.without_files().content,
            post.text_only().content,
        ];
        let mut after = serenity::MessageId::new(snowflake_at(since_ms - 5_000));
        for _ in 0..LOOK_PAGES {
            let page = serenity::GetMessages::new().after(after).limit(100);
            let page = serenity::ChannelId::new(channel)
                .messages(&self.http, page)
                .await?;
            let mine = |m: &&serenity::Message| {
                m.author.id.get() == me && texts.iter().any(|t| t.trim() == m.content.trim())
            };
            if let Some(found) = page.iter().find(mine) {
                tracing::info!(
                    channel,
                    message = found.id.get(),
                    "an earlier try went through"
                );
                return Ok(Some(found.id.get()));
            }
            match page.iter().map(|m| m.id).max() {
                Some(last) if page.len() == 100 => after = last,
                _ => return Ok(None),
            }
        }
        Ok(None)
    }
}

/// The nonce of a part going to `place`: from its letter and the place, or (for a message no
/// change owes, like an engine's failure) from where and when it is posted.
pub(super) fn nonce_of(letter: Option<u64>, part: Part, place: u64) -> String {
    match letter {
        Some(letter) => part.nonce(letter, place),
        None => event_id(place, 6, now_ms() as u64).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tokens::token_lives;
    use super::*;

    #[test]
    fn a_letter_trusts_its_nonce_and_its_request_its_token_only_while_young() {
        let owed = Owed {
            letter: Some(7),
            since_ms: 1_000_000,
            guild: 1,
            epoch: FIRST_EPOCH,
            lease_until_ms: 1_000_000 + crate::service::LEASE_MS,
            outside: false,
        };
        assert!(!owed.past_nonce_window(1_000_000 + NONCE_TRUSTED_MS));
        assert!(owed.past_nonce_window(1_000_001 + NONCE_TRUSTED_MS));
        let unowed = Owed {
            letter: None,
            ..owed
        };
        assert!(
            !unowed.past_nonce_window(i64::MAX / 2),
            "nothing stored, nothing to look for"
        );
        // The lease given with the change covers a request made within its first half minute.
        let budget = super::super::waits::Waits::PRODUCTION.request_budget;
        assert!(!owed.lease_runs_short(1_000_000 + 30_000, budget));
        assert!(owed.lease_runs_short(1_000_001 + 30_000, budget));
        assert!(token_lives(1_000_000, 1_000_000 + 13 * 60_000));
        assert!(!token_lives(1_000_000, 1_000_000 + 15 * 60_000));
    }

    #[test]
    fn snowflakes_order_by_time() {
        let at = 1_700_000_000_000;
        assert_eq!(snowflake_at(at) >> 22, (at - DISCORD_EPOCH_MS) as u64);
        assert_eq!(created_ms(snowflake_at(at)), at);
        assert!(snowflake_at(at) < snowflake_at(at + 1));
        assert_eq!(snowflake_at(0), 1 << 22, "never before Discord's epoch");
    }
}
