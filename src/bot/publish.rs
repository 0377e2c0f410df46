//! The one way out: every outcome leaves Bredon through [`Publisher::send`], whatever carried it
//! (a slash command, a button, the Move form, a timer, Bredon's own ply, a tournament). An outcome
//! of a change was stored with it (the outbox letter); the handler that made it claims it and
//! delivers it the way its carrier allows ([`Via`]), part by part (the announcement, the pings
//! of a deferred answer, the direct messages, the record of a finished game), noting each part.
//! Whatever it could not deliver, the outbox loop (`outbox.rs`) delivers as channel messages.
//! [`Publisher::publish`] is `send` followed by Bredon's turn in the channel, if it has one.

use super::data::{now_ms, Claim, Publisher, TOURNAMENT_NEWS};
use super::opponent::take_turn;
use super::post::{announce, jump_link, record, Post};
use super::{Context, Error};
use crate::service::{event_id, Delivery, Outcome, Part, Prompt};
use poise::serenity_prelude as serenity;
use serenity::builder::Builder;
use std::sync::Arc;

/// An outcome with its announcement drawn (the picture is the slow part, so a slash command
/// draws it before deciding whether to defer), and the claim on its letter.
pub struct Ready {
    pub outcome: Outcome,
    pub post: Post,
    claim: Option<Claim>,
}

/// How an outcome's announcement reaches Discord.
pub enum Via<'a> {
    /// The first response to a slash command.
    Reply(Context<'a>),
    /// An interaction (by its token) answered "thinking" first: that message is edited into the
    /// outcome and the pings follow as a new message (an edit notifies no one).
    Deferred(&'a str),
    /// The response to the Move form.
    Form(&'a serenity::ModalInteraction),
    /// A new message in the channel (a nonce makes a repeated post arrive once).
    Channel,
    /// A follow-up to an acknowledged button press (by its token), for a private answer.
    Followup(&'a str),
}

/// A post as the first response to an interaction (the Move form's).
fn response_message(post: Post) -> serenity::CreateInteractionResponseMessage {
    serenity::CreateInteractionResponseMessage::new()
        .allowed_mentions(post.allowed_mentions())
        .content(post.content)
        .add_files(post.files)
        .components(post.components)
}

/// A post as an ephemeral follow-up to an interaction.
fn private_followup(post: Post) -> serenity::CreateInteractionResponseFollowup {
    serenity::CreateInteractionResponseFollowup::new()
        .allowed_mentions(post.allowed_mentions())
        .content(post.content)
        .add_files(post.files)
        .components(post.components)
        .ephemeral(true)
}

/// Why an outcome is not (wholly) delivered.
#[derive(Debug)]
pub enum Undelivered {
    /// Worth another try later: the outbox keeps it.
    Later(String),
    /// The channel is gone or closed to Bredon: the outcome was dropped, its game's timers stop.
    Gone,
}

impl std::fmt::Display for Undelivered {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Undelivered::Later(why) => write!(f, "{why}; the outbox tries again"),
            Undelivered::Gone => f.write_str("the channel is gone or closed to Bredon"),
        }
    }
}

impl std::error::Error for Undelivered {}

impl Publisher {
    /// Claims the outcome's letter (the outbox leaves it to this handler) and draws it.
    pub async fn ready(&self, outcome: Outcome) -> Ready {
        self.claims.release(&outcome.elsewhere);
        let claim = outcome.letter.and_then(|id| self.claims.claim(id));
        let outcome = self.for_players(outcome);
        let post = announce(&outcome).await;
        Ready {
            outcome,
            post,
            claim,
        }
    }

    /// Sends the outcome, then lets Bredon act in the channel (its ply, an answer to an undo or a
    /// draw, accepting a rematch) whether or not Discord took the message: the action is stored.
    pub async fn publish(
        self: &Arc<Self>,
        channel: u64,
        ready: Ready,
        via: Via<'_>,
    ) -> Result<(), Error> {
        let sent = self.send(channel, ready, via).await;
        self.spawn_turn(channel);
        sent
    }

    /// Bredon's turns in `channel`, on a task of their own: accepting a rematch, or answering an
    /// undo, may make it Bredon's move, so a few steps at most. Each is stored before it is
    /// posted, so a failed post is the outbox's to repeat, never a reason to stop.
    pub fn spawn_turn(self: &Arc<Self>, channel: u64) {
        let me = Arc::clone(self);
        tokio::spawn(async move {
            for _ in 0..4 {
                let Some(turn) = take_turn(&me.engine, &me.service, channel).await else {
                    return;
                };
                let ready = me.ready(turn.outcome).await;
                if let Err(e) = me.send(channel, ready, Via::Channel).await {
                    tracing::info!(channel, error = %e, "Bredon's action is not posted yet");
                }
                if turn.failed {
                    return;
                }
            }
        });
    }

    /// Posts an outcome in `channel`: the announcement, the board's message remembered, the
    /// direct messages, then a finished game's record; the letter leaves the outbox when all
    /// went out. On an error, what is left stays for the outbox.
    pub async fn send(&self, channel: u64, ready: Ready, via: Via<'_>) -> Result<(), Error> {
        let Ready {
            outcome,
            post,
            claim,
        } = ready;
        if outcome.private {
            return self.answer_privately(post, via).await;
        }
        if outcome.letter.is_some() && claim.is_none() {
            // The outbox is delivering it already.
            return Ok(());
        }
        if outcome.tournament.is_some() {
            TOURNAMENT_NEWS.notify_one();
        }
        let letter = outcome.letter;
        let message = match via {
            Via::Channel => self.post(channel, letter, Part::Announcement, post).await?,
            via => self.answer(channel, &outcome, post, via).await?,
        };
        self.note(letter, Part::Announcement, message).await;
        self.rest(channel, &outcome, message, &[]).await?;
        if let Some(claim) = claim {
            claim.delivered();
        }
        tracing::debug!(channel, "outcome posted");
        Ok(())
    }

    /// An answer for the asker alone (a private puzzle's): ephemeral, and owed to no one else,
    /// so a lost one is only asked again. After a public deferral, the "thinking" message goes
    /// and the answer follows privately.
    async fn answer_privately(&self, post: Post, via: Via<'_>) -> Result<(), Error> {
        let http = self.http.as_ref();
        match via {
            Via::Reply(ctx) => {
                ctx.send(post.reply().ephemeral(true)).await?;
            }
            Via::Deferred(token) => {
                http.delete_original_interaction_response(token).await?;
                private_followup(post).execute(http, (None, token)).await?;
            }
            Via::Form(submit) => {
                let response = response_message(post).ephemeral(true);
                let response = serenity::CreateInteractionResponse::Message(response);
                submit.create_response(http, response).await?;
            }
            Via::Followup(token) => {
                private_followup(post).execute(http, (None, token)).await?;
            }
            Via::Channel => tracing::warn!("a private answer has no one to answer; not posted"),
        }
        Ok(())
    }

    /// Delivers what `letter` still owes (the outbox loop holds its claim): the announcement as
    /// a channel message, unless the interaction it answered shows it went out already.
    pub async fn deliver(&self, letter: u64, claim: Claim) -> Result<(), Undelivered> {
        let s = Arc::clone(&self.service);
        let found = tokio::task::spawn_blocking(move || s.delivery(letter)).await;
        let Ok(Ok(Some(mut d))) = found else {
            claim.delivered();
            return Ok(());
        };
        d.outcome = self.for_players(d.outcome);
        let channel = d.letter.channel;
        let mut pinged = d.has_sent(Part::Pings);
        let message = match d.has_sent(Part::Announcement) {
            true => d.letter.message,
            false => {
                let post = announce(&d.outcome).await;
                let mut message = self.answered(&d, &post.content).await?;
                if message.is_none() && d.has_sent(Part::Deferred) {
                    // The "thinking" message still stands: it becomes the announcement (pinged
                    // below), while its interaction's token lives (15 minutes).
                    message = self.edit_thinking(&d, post.clone()).await?;
                }
                if message.is_none() {
                    message = self
                        .post(channel, Some(letter), Part::Announcement, post)
                        .await?;
                    // A channel post pings by itself, even for a deferred answer.
                    self.note(Some(letter), Part::Pings, None).await;
                    pinged = true;
                }
                self.note(Some(letter), Part::Announcement, message).await;
                message
            }
        };
        if d.has_sent(Part::Deferred) && !pinged {
            self.pings(channel, Some(letter), &d.outcome).await?;
        }
        self.rest(channel, &d.outcome, message, &d.letter.sent)
            .await?;
        claim.delivered();
        tracing::debug!(channel, letter, "owed outcome delivered");
        Ok(())
    }

    /// An outcome as it leaves: pinging its players but never Bredon itself (its turn in an
    /// engine game needs no notification).
    fn for_players(&self, mut outcome: Outcome) -> Outcome {
        outcome.ping.retain(|p| p.id != self.engine.me.id);
        outcome
    }

    /// The message an interaction's answer made, if it carried this announcement: after a lost
    /// answer or a restart, `@original` tells whether it went out (for 15 minutes).
    async fn answered(&self, d: &Delivery, content: &str) -> Result<Option<u64>, Undelivered> {
        let Some(token) = &d.letter.request else {
            return Ok(None);
        };
        match self.http.get_original_interaction_response(token).await {
            Ok(m) if m.content.trim() == content.trim() => Ok(Some(m.id.get())),
            Ok(_) => Ok(None),
            Err(e) => match classify(&e) {
                Failure::Transient => Err(Undelivered::Later(describe(&e))),
                // Unknown or expired: the answer never went out, or can no longer be seen.
                _ => Ok(None),
            },
        }
    }

    /// Edits a deferred answer's "thinking" message into the announcement; `None` when its
    /// interaction can no longer be answered.
    async fn edit_thinking(&self, d: &Delivery, post: Post) -> Result<Option<u64>, Undelivered> {
        let Some(token) = &d.letter.request else {
            return Ok(None);
        };
        match thinking_edit(post).execute(self.http.as_ref(), token).await {
            Ok(edited) => Ok(Some(edited.id.get())),
            Err(e) => match classify(&e) {
                Failure::Transient => Err(Undelivered::Later(describe(&e))),
                _ => Ok(None),
            },
        }
    }

    /// The announcement as the interaction's answer. A failed answer whose effect is unknown
    /// (5xx, a dropped connection) is looked for before it is left to the outbox.
    async fn answer(
        &self,
        channel: u64,
        outcome: &Outcome,
        post: Post,
        via: Via<'_>,
    ) -> Result<Option<u64>, Undelivered> {
        let http = &self.http;
        let wants_id = wants_message_id(outcome);
        let answered = match via {
            Via::Reply(ctx) => match ctx.send(post.reply()).await {
                // The response's id costs one more request: only if used.
                Ok(handle) if wants_id => Ok(handle.message().await.ok().map(|m| m.id.get())),
                Ok(_) => Ok(None),
                Err(e) => Err(e),
            },
            Via::Deferred(token) => {
                self.note_durably(outcome.letter, Part::Deferred).await;
                match thinking_edit(post).execute(http.as_ref(), token).await {
                    Ok(edited) => {
                        self.pings(channel, outcome.letter, outcome).await?;
                        Ok(Some(edited.id.get()))
                    }
                    Err(e) => Err(e),
                }
            }
            Via::Form(submit) => {
                let response = response_message(post);
                let sent = submit
                    .create_response(http, serenity::CreateInteractionResponse::Message(response))
                    .await;
                match sent {
                    Ok(()) if wants_id => {
                        Ok(submit.get_response(http).await.ok().map(|m| m.id.get()))
                    }
                    Ok(()) => Ok(None),
                    Err(e) => Err(e),
                }
            }
            Via::Channel | Via::Followup(_) => {
                unreachable!("channel posts and private follow-ups do not come here")
            }
        };
        let error = match answered {
            Ok(message) => return Ok(message),
            Err(e) => e,
        };
        // Whether it went out after all, the outbox asks the interaction (`answered`).
        tracing::info!(channel, error = %describe(&error), "the answer failed; the outbox posts it");
        Err(Undelivered::Later(describe(&error)))
    }

    /// A deferred announcement's pings, as a message of their own.
    async fn pings(
        &self,
        channel: u64,
        letter: Option<u64>,
        outcome: &Outcome,
    ) -> Result<(), Undelivered> {
        let mentions: Vec<u64> = outcome.ping.iter().map(|p| p.id).collect();
        if !mentions.is_empty() {
            let ping = Post::pinging(mentions, "see Bredon's answer above.");
            self.post(channel, letter, Part::Pings, ping).await?;
        }
        self.note(letter, Part::Pings, None).await;
        Ok(())
    }

    /// After the announcement (posted as `message`): the board's message remembered, the direct
    /// messages and the record not yet `sent`, then the letter is done.
    async fn rest(
        &self,
        channel: u64,
        outcome: &Outcome,
        message: Option<u64>,
        sent: &[String],
    ) -> Result<(), Undelivered> {
        let letter = outcome.letter;
        self.board_posted(channel, outcome, message).await;
        let wanted: Vec<_> = outcome
            .direct
            .iter()
            .filter(|p| !sent.contains(&Part::Direct(p.id).key()))
            .cloned()
            .collect();
        for player in wanted {
            let text = format!(
                "It is your move in <#{channel}>: {}",
                jump_link(outcome.guild, channel, message)
            );
            self.direct(channel, player.id, letter, text).await?;
            self.note(letter, Part::Direct(player.id), None).await;
        }
        if !sent.contains(&Part::Record.key()) {
            if let Some(record) = record(outcome).await {
                self.post(channel, letter, Part::Record, record).await?;
            }
        }
        if let Some(letter) = letter {
            let s = Arc::clone(&self.service);
            let done = tokio::task::spawn_blocking(move || s.delivered(letter)).await;
            if !matches!(done, Ok(Ok(()))) {
                return Err(Undelivered::Later("the outbox could not be written".into()));
            }
        }
        Ok(())
    }

    /// Remembers the message showing a live game's board (for the jump links of /games and
    /// /mygames).
    async fn board_posted(&self, channel: u64, outcome: &Outcome, message: Option<u64>) {
        if let (Some(Prompt::Board { .. }), Some(id)) = (outcome.prompt, message) {
            let s = Arc::clone(&self.service);
            let _ = tokio::task::spawn_blocking(move || s.board_posted(channel, id)).await;
        }
    }

    /// A direct message a player asked for (`/notify dm:on`), from a post in `channel`. A
    /// transient failure is tried again later; DMs the player's settings close (50007) turn the
    /// wish off, and the player is told once in the channel; other refusals are logged.
    async fn direct(
        &self,
        channel: u64,
        user: u64,
        letter: Option<u64>,
        text: String,
    ) -> Result<(), Undelivered> {
        let http = &self.http;
        let nonce = nonce_of(letter, Part::Direct(user), user);
        let sent = async {
            let dm = self.dm_channel(user).await?;
            let message = Post::text(text)
                .message()
                .nonce(serenity::Nonce::String(nonce))
                .enforce_nonce(true);
            dm.send_message(http, message).await
        };
        let error = match sent.await {
            Ok(_) => return Ok(()),
            Err(e) => e,
        };
        if let Failure::Transient = classify(&error) {
            return Err(Undelivered::Later(describe(&error)));
        }
        tracing::info!(user, error = %describe(&error), "no direct message");
        if discord_code(&error) == Some(CANNOT_MESSAGE_USER) {
            let s = Arc::clone(&self.service);
            let closed = tokio::task::spawn_blocking(move || s.direct_messages_closed(user)).await;
            if let Ok(Ok(true)) = closed {
                let text = "Bredon cannot send you direct messages (your privacy settings for \
                            this server close them), so it stopped trying. Open them and use \
                            /notify dm:true to have them again.";
                let told = Post::pinging(vec![user], text);
                self.post(channel, letter, Part::Direct(user), told).await?;
            }
        }
        Ok(())
    }

    /// The direct-message channel with `user`: asked of Discord once, then remembered (a DM
    /// channel's id never changes), so a player's turns cost one request each, not two.
    async fn dm_channel(&self, user: u64) -> Result<serenity::ChannelId, serenity::Error> {
        if let Some(&id) = self.dm_channels.lock().expect("dm channels").get(&user) {
            return Ok(id);
        }
        let dm = serenity::UserId::new(user)
            .create_dm_channel(&self.http)
            .await?;
        self.dm_channels
            .lock()
            .expect("dm channels")
            .insert(user, dm.id);
        Ok(dm.id)
    }

    /// Posts one part of an outcome in `channel`, once: the nonce makes Discord return the first
    /// message instead of creating a second when a post is repeated after its answer was lost
    /// (message resource, "Create Message": `enforce_nonce`). A channel that is gone or closed
    /// to Bredon drops the outcome and stops its game's timers, logged once; a post Discord
    /// refuses as wrong is logged and passed over (repeating it cannot help).
    async fn post(
        &self,
        channel: u64,
        letter: Option<u64>,
        part: Part,
        post: Post,
    ) -> Result<Option<u64>, Undelivered> {
        let message = post
            .message()
            .nonce(serenity::Nonce::String(nonce_of(letter, part, channel)))
            .enforce_nonce(true);
        let error = match serenity::ChannelId::new(channel)
            .send_message(&self.http, message)
            .await
        {
            Ok(message) => return Ok(Some(message.id.get())),
            Err(e) => e,
        };
        match classify(&error) {
            Failure::Transient => Err(Undelivered::Later(describe(&error))),
            Failure::Gone => {
                tracing::warn!(channel, error = %describe(&error), "channel gone or closed to Bredon; its game's timers stop");
                let s = Arc::clone(&self.service);
                let _ = tokio::task::spawn_blocking(move || {
                    s.channel_gone(channel)?;
                    match letter {
                        Some(letter) => s.delivered(letter),
                        None => Ok(()),
                    }
                })
                .await;
                Err(Undelivered::Gone)
            }
            Failure::Refused => {
                tracing::warn!(channel, error = %describe(&error), "Discord refused a post; passed over");
                Ok(None)
            }
        }
    }

    /// Notes that `part` of `letter` went out.
    async fn note(&self, letter: Option<u64>, part: Part, message: Option<u64>) {
        if let Some(letter) = letter {
            let s = Arc::clone(&self.service);
            let _ = tokio::task::spawn_blocking(move || s.part_sent(letter, part, message, false))
                .await;
        }
    }

    /// `note`, on disk before anything else happens.
    async fn note_durably(&self, letter: Option<u64>, part: Part) {
        if let Some(letter) = letter {
            let s = Arc::clone(&self.service);
            let _ =
                tokio::task::spawn_blocking(move || s.part_sent(letter, part, None, true)).await;
        }
    }
}

/// A deferred answer's "thinking" message made into `post`. An edit notifies no one, so it
/// allows no mention: the pings follow as a message of their own.
fn thinking_edit(post: Post) -> serenity::EditInteractionResponse {
    let mut edit = serenity::EditInteractionResponse::new()
        .content(post.content)
        .components(post.components)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    for file in post.files {
        edit = edit.new_attachment(file);
    }
    edit
}

/// The nonce of a part: from its letter, or (for a message no change owes, like an engine's
/// failure) from where and when it is posted.
fn nonce_of(letter: Option<u64>, part: Part, place: u64) -> String {
    match letter {
        Some(letter) => part.nonce(letter),
        None => event_id(place, 6, now_ms() as u64).to_string(),
    }
}

/// Discord's JSON error code 50007, "Cannot send messages to this user"
/// (topics/opcodes-and-status-codes).
const CANNOT_MESSAGE_USER: isize = 50007;

/// The JSON error code of a Discord error, if it has one.
fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// Whether anything needs the id of an outcome's message: a live board (jump links) or a DM.
fn wants_message_id(outcome: &Outcome) -> bool {
    matches!(outcome.prompt, Some(Prompt::Board { .. })) || !outcome.direct.is_empty()
}

/// What Discord's answer to a request means for retrying it.
pub enum Failure {
    /// Worth another try: a 5xx, a 429, a broken connection.
    Transient,
    /// The channel is gone or closed to Bredon (403, 404): stop posting there.
    Gone,
    /// The request itself is wrong (other 4xx): retrying cannot help.
    Refused,
}

pub fn classify(error: &serenity::Error) -> Failure {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            match r.status_code.as_u16() {
                403 | 404 => Failure::Gone,
                429 | 500..=599 => Failure::Transient,
                _ => Failure::Refused,
            }
        }
        serenity::Error::Http(serenity::HttpError::Request(_)) | serenity::Error::Io(_) => {
            Failure::Transient
        }
        _ => Failure::Refused,
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
