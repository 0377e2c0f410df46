//! The one way out: every outcome leaves Bredon through [`Publisher::send`], whatever carried it
//! (a slash command, a button, the Move form, a timer, Bredon's own ply, a tournament). It posts
//! the announcement the way its carrier allows ([`Via`]), remembers the board's message, sends
//! the direct messages players asked for, and posts the record of a finished game.
//! [`Publisher::publish`] is `send` followed by Bredon's turn in the channel, if it has one.

use super::data::{interaction, Publisher, TOURNAMENT_NEWS};
use super::opponent::take_turn;
use super::post::{jump_link, record, Post};
use super::{Context, Error};
use crate::service::{Outcome, Prompt};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// An outcome with its announcement drawn (the picture is the slow part, so a slash command
/// draws it before deciding whether to defer).
pub struct Ready {
    pub outcome: Outcome,
    pub post: Post,
}

impl Ready {
    pub async fn draw(outcome: Outcome) -> Ready {
        let post = super::post::announce(&outcome).await;
        Ready { outcome, post }
    }
}

/// How an outcome reaches Discord.
pub enum Via<'a> {
    /// The first response to a slash command.
    Reply(Context<'a>),
    /// A slash command answered "thinking" first: that message is edited into the outcome and
    /// the pings follow as a new message (an edit notifies no one).
    Deferred(Context<'a>),
    /// A follow-up to an acknowledged button press.
    Followup(&'a serenity::ComponentInteraction),
    /// The response to the Move form.
    Form(&'a serenity::ModalInteraction),
    /// A new message in the channel, retried; `nonce` makes a retried post arrive once.
    Channel { nonce: u64 },
}

impl Publisher {
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
    /// undo, may make it Bredon's move, so a few steps at most.
    pub fn spawn_turn(self: &Arc<Self>, channel: u64) {
        let me = Arc::clone(self);
        tokio::spawn(async move {
            for _ in 0..4 {
                let Some(turn) = take_turn(&me.engine, &me.service, channel).await else {
                    return;
                };
                let via = Via::Channel { nonce: turn.nonce };
                let ready = Ready::draw(turn.outcome).await;
                if let Err(e) = me.send(channel, ready, via).await {
                    tracing::warn!(channel, error = %e, "Bredon's action was not posted");
                }
                if turn.failed {
                    return;
                }
            }
        });
    }

    /// Posts an outcome in `channel`: the announcement, the board's message remembered, the
    /// direct messages, then a finished game's record.
    pub async fn send(&self, channel: u64, ready: Ready, via: Via<'_>) -> Result<(), Error> {
        let Ready { outcome, post } = ready;
        if outcome.tournament.is_some() {
            TOURNAMENT_NEWS.notify_one();
        }
        let message = self.announce(channel, &outcome, post, &via).await?;
        self.after_post(channel, &outcome, message).await;
        if let Some(record) = record(&outcome).await {
            self.post_more(channel, record, &via).await?;
        }
        tracing::debug!(channel, "outcome posted");
        Ok(())
    }

    /// Posts the announcement; the id of its message, when something needs it.
    async fn announce(
        &self,
        channel: u64,
        outcome: &Outcome,
        post: Post,
        via: &Via<'_>,
    ) -> Result<Option<u64>, Error> {
        let http = &self.http;
        let wants_id = wants_message_id(outcome);
        match via {
            Via::Reply(ctx) => {
                let handle = ctx.send(post.reply()).await?;
                // The response's id costs one more request: only if used.
                Ok(match wants_id {
                    true => handle.message().await.ok().map(|m| m.id.get()),
                    false => None,
                })
            }
            Via::Deferred(ctx) => {
                let Some(interaction) = interaction(*ctx) else {
                    return Ok(None);
                };
                let pings = post.mentions.clone();
                let mut edit = serenity::EditInteractionResponse::new()
                    .content(post.content.clone())
                    .components(post.components.clone())
                    .allowed_mentions(serenity::CreateAllowedMentions::new());
                for file in post.files {
                    edit = edit.new_attachment(file);
                }
                let edited = interaction.edit_response(http, edit).await?;
                if !pings.is_empty() {
                    let ping = Post::pinging(pings, "see Bredon's answer above.");
                    ctx.send(ping.reply()).await?;
                }
                Ok(Some(edited.id.get()))
            }
            Via::Followup(press) => {
                let posted = press.create_followup(http, post.followup()).await?;
                Ok(Some(posted.id.get()))
            }
            Via::Form(submit) => {
                let response = serenity::CreateInteractionResponseMessage::new()
                    .allowed_mentions(post.allowed_mentions())
                    .content(post.content)
                    .add_files(post.files)
                    .components(post.components);
                submit
                    .create_response(http, serenity::CreateInteractionResponse::Message(response))
                    .await?;
                Ok(match wants_id {
                    true => submit.get_response(http).await.ok().map(|m| m.id.get()),
                    false => None,
                })
            }
            Via::Channel { nonce } => match self.deliver(channel, post, *nonce).await {
                Some(message) => Ok(Some(message)),
                None => Err(format!("the post in channel {channel} was given up").into()),
            },
        }
    }

    /// A further message after the announcement (a finished game's record), the same way.
    async fn post_more(&self, channel: u64, post: Post, via: &Via<'_>) -> Result<(), Error> {
        match via {
            Via::Reply(ctx) | Via::Deferred(ctx) => {
                ctx.send(post.reply()).await?;
            }
            Via::Followup(press) => {
                press.create_followup(&self.http, post.followup()).await?;
            }
            Via::Form(submit) => {
                submit.create_followup(&self.http, post.followup()).await?;
            }
            Via::Channel { nonce } => {
                self.deliver(channel, post, nonce.wrapping_add(1)).await;
            }
        }
        Ok(())
    }

    /// After an outcome was posted in `channel` as `message`: remember the message if it shows a
    /// live game's board (for the jump links of /games and /mygames), and send the direct
    /// messages players asked for (`/notify dm:on`). A closed DM is logged and passed over.
    async fn after_post(&self, channel: u64, outcome: &Outcome, message: Option<u64>) {
        let shows_board = matches!(outcome.prompt, Some(Prompt::Board { .. }));
        let direct = outcome.direct.clone();
        if direct.is_empty() && !(shows_board && message.is_some()) {
            return;
        }
        let s = Arc::clone(&self.service);
        let wants_dm = !direct.is_empty();
        let guild = tokio::task::spawn_blocking(move || {
            if let (true, Some(id)) = (shows_board, message) {
                s.board_posted(channel, id)?;
            }
            // The server is needed only for the DM's jump link.
            match wants_dm {
                true => s.guild_of(channel),
                false => Ok(0),
            }
        })
        .await;
        let guild = match guild {
            Ok(Ok(guild)) => guild,
            _ => return,
        };
        let http = &self.http;
        for player in direct {
            let text = format!(
                "It is your move in <#{channel}>: {}",
                jump_link(guild, channel, message)
            );
            let sent = async {
                let dm = serenity::UserId::new(player.id)
                    .create_dm_channel(http)
                    .await?;
                dm.id.send_message(http, Post::text(text).message()).await
            };
            if let Err(e) = sent.await {
                tracing::info!(user = player.id, error = %describe(&e), "no direct message");
            }
        }
    }

    /// Posts `post` in `channel`, retrying transient failures with backoff. The nonce makes
    /// Discord return the first message instead of creating a second when a retry follows a post
    /// whose answer was lost (message resource, "Create Message": `enforce_nonce`). A channel
    /// that is gone or closed to Bredon stops its game's timers, logged once. The message, if
    /// the post arrived.
    async fn deliver(&self, channel: u64, post: Post, nonce: u64) -> Option<u64> {
        let mut wait = RETRY_FIRST;
        for attempt in 1..=TRIES {
            let message = post
                .clone()
                .message()
                .nonce(serenity::Nonce::String(nonce.to_string()))
                .enforce_nonce(true);
            let error = match serenity::ChannelId::new(channel)
                .send_message(&self.http, message)
                .await
            {
                Ok(message) => return Some(message.id.get()),
                Err(e) => e,
            };
            match classify(&error) {
                Failure::Transient if attempt < TRIES => {
                    tracing::info!(channel, attempt, error = %describe(&error), "post failed; retrying");
                    tokio::time::sleep(wait).await;
                    wait *= 2;
                }
                Failure::Gone => {
                    tracing::warn!(channel, error = %describe(&error), "channel gone or closed to Bredon; its game's timers stop");
                    let s = Arc::clone(&self.service);
                    let _ = tokio::task::spawn_blocking(move || s.channel_gone(channel)).await;
                    return None;
                }
                _ => {
                    tracing::warn!(channel, error = %describe(&error), "post given up");
                    return None;
                }
            }
        }
        None
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

/// Tries before a post is given up; waits between them double from `RETRY_FIRST`.
const TRIES: u32 = 5;
const RETRY_FIRST: Duration = Duration::from_millis(250);
