//! The one way out: every outcome leaves Bredon through [`Publisher::send`], whatever carried it
//! (a slash command, a button, the Move form, a timer, Bredon's own ply, a tournament). An outcome
//! of a change was stored with it (the outbox letter); the handler that made it claims it and
//! delivers it the way its carrier allows ([`Via`]), part by part (the announcement, the pings
//! of a deferred answer, the direct messages (each handed over to a letter in its reader's queue),
//! the record of a finished game), noting each part.
//! Whatever it could not deliver, the outbox loop (`outbox.rs`) delivers as channel messages.
//! [`Publisher::publish`] is `send` followed by Bredon's turn in the channel, if it has one.

use super::failure::{classify, describe, Failure};
use super::posting::{token_lives, Owed, Undelivered};
use crate::bot::data::{now_ms, Claim, Publisher, TOURNAMENT_NEWS};
use crate::bot::opponent::take_turn;
use crate::bot::post::{announce, digest_text, jump_link, record, Post};
use crate::bot::{Context, Error};
use crate::service::{Fenced, FollowUp, Outcome, Part, Prompt};
use crate::store::records::{Lacking, PlayerRef};
use poise::serenity_prelude as serenity;
use serenity::builder::Builder;
use std::sync::Arc;

/// An outcome with its announcement drawn (the picture is the slow part, so a slash command
/// draws it before deciding whether to defer), and the claim on its letter.
pub struct Ready {
    pub outcome: Outcome,
    pub post: Post,
    claim: Option<Claim>,
    /// What the service says follows the outcome.
    follow_ups: Vec<FollowUp>,
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

impl Publisher {
    /// Claims the outcome's letter (the outbox leaves it to this handler) and draws it.
    pub async fn ready(&self, outcome: Outcome) -> Ready {
        self.claims.release(&outcome.elsewhere);
        let claim = outcome.letter.and_then(|id| self.claims.claim(id));
        let follow_ups = outcome.follow_ups(self.engine.me.id);
        let outcome = self.for_players(outcome);
        let post = announce(&outcome, self.web_url.as_deref()).await;
        Ready {
            outcome,
            post,
            claim,
            follow_ups,
        }
    }

    /// Sends the outcome, then runs what the service says follows it, whether or not Discord
    /// took the message (the action is stored): Bredon's action in the channel (its ply, an
    /// answer to an undo or a draw, accepting a rematch), the tournaments' work.
    pub async fn publish(
        self: &Arc<Self>,
        channel: u64,
        ready: Ready,
        via: Via<'_>,
    ) -> Result<(), Error> {
        let follow_ups = ready.follow_ups.clone();
        let sent = self.send(channel, ready, via).await;
        self.follow_up(channel, &follow_ups);
        sent
    }

    /// Runs the follow-ups of an outcome delivered in `channel`.
    fn follow_up(self: &Arc<Self>, channel: u64, follow_ups: &[FollowUp]) {
        for follow_up in follow_ups {
            match follow_up {
                FollowUp::BredonActs => self.spawn_turn(channel),
                FollowUp::TournamentWork => TOURNAMENT_NEWS.notify_one(),
            }
        }
    }

    /// Bredon's turns in `channel`, on a task of their own, one task per channel: accepting a
    /// rematch, answering an undo, or a conditional line answering its plies may make it
    /// Bredon's move again, so the task goes on until Bredon has nothing to do there. An action
    /// asking for a turn while the task runs is noted, and the task looks once more before it
    /// ends, so no second search starts beside the first. Each turn is stored before it is
    /// posted, so a failed post is the outbox's to repeat, never a reason to stop.
    pub fn spawn_turn(self: &Arc<Self>, channel: u64) {
        {
            let mut turns = self.turns.lock().expect("turns");
            if let Some(again) = turns.get_mut(&channel) {
                *again = true;
                return;
            }
            turns.insert(channel, false);
        }
        let me = Arc::clone(self);
        tracing::info!(channel, "Bredon looks for its turn");
        tokio::spawn(async move {
            loop {
                let Some(turn) = take_turn(&me.engine, &me.service, channel).await else {
                    if me.turn_asked_again(channel) {
                        continue;
                    }
                    return;
                };
                let ready = me.ready(turn.outcome).await;
                let tournament = ready.follow_ups.contains(&FollowUp::TournamentWork);
                if let Err(e) = me.send(channel, ready, Via::Channel).await {
                    tracing::info!(channel, error = %e, "Bredon's action is not posted yet");
                }
                // Bredon's own next step is this loop's; a tournament's work is the timers'.
                if tournament {
                    TOURNAMENT_NEWS.notify_one();
                }
                if turn.failed {
                    me.turns.lock().expect("turns").remove(&channel);
                    return;
                }
            }
        });
    }

    /// Whether an action asked for a turn in `channel` while its task ran (the task looks
    /// again); if not, the task ends, under the same lock, so no request falls between.
    fn turn_asked_again(&self, channel: u64) -> bool {
        let mut turns = self.turns.lock().expect("turns");
        match turns.get_mut(&channel) {
            Some(again) if *again => {
                *again = false;
                true
            }
            _ => {
                turns.remove(&channel);
                false
            }
        }
    }

    /// Posts an outcome in `channel`: the announcement, the board's message remembered, the
    /// direct messages, then a finished game's record; the letter leaves the outbox when all
    /// went out. On an error, what is left stays for the outbox.
    pub async fn send(&self, channel: u64, ready: Ready, via: Via<'_>) -> Result<(), Error> {
        let Ready {
            outcome,
            post,
            claim,
            ..
        } = ready;
        if outcome.private {
            return self.answer_privately(post, via).await;
        }
        if outcome.letter.is_some() && claim.is_none() {
            // The outbox is delivering it already.
            return Ok(());
        }
        let owed = Owed::fresh(&outcome);
        let refused_here = self.known_refusal(channel) == Some(Lacking::Posting)
            || self.claims.suspect(owed.guild);
        if matches!(via, Via::Channel) && claim.is_some() && refused_here {
            // Each refused try counts towards Discord's invalid requests: the outbox tries the
            // channel when its server's probe says Bredon may post there.
            return Err(format!(
                "Discord refused Bredon posts in channel {channel}'s server: kept for the outbox"
            )
            .into());
        }
        if let (Via::Channel, Some(letter)) = (&via, outcome.letter.filter(|_| claim.is_some())) {
            let s = Arc::clone(&self.service);
            let earlier = tokio::task::spawn_blocking(move || s.owes_before(channel, letter));
            if !matches!(earlier.await, Ok(Ok(false))) {
                // A post now would overtake (or might: the store did not say) what the channel
                // is owed from before; the outbox delivers them in order.
                return Err(format!(
                    "channel {channel} is owed earlier messages: kept for the outbox, after them"
                )
                .into());
            }
        }
        if outcome.is_direct_alone() {
            // A digest is its direct message alone.
            self.rest(channel, owed, &outcome, None, &[]).await?;
            if let Some(claim) = claim {
                claim.delivered();
            }
            return Ok(());
        }
        let message = match via {
            Via::Channel => self.post(channel, owed, Part::Announcement, post).await?,
            via => self.answer(channel, &outcome, post, via).await?,
        };
        if !outcome.direct.is_empty() || outcome.finished.is_some() {
            // More parts follow: if one fails, the outbox must know this one went out.
            self.note(owed, Part::Announcement, message).await?;
        }
        self.rest(channel, owed, &outcome, message, &[]).await?;
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
    /// a channel message, unless the interaction it answered shows it went out already. The
    /// interaction's token is used only while it surely lives; after that, the channel path
    /// alone, which looks before it repeats a post.
    pub async fn deliver(&self, letter: u64, epoch: u64, claim: Claim) -> Result<(), Undelivered> {
        let s = Arc::clone(&self.service);
        let now = now_ms();
        let found = tokio::task::spawn_blocking(move || s.delivery(letter, now)).await;
        let mut d = match found {
            Ok(Ok(Some(d))) => d,
            Ok(Ok(None)) => {
                claim.delivered();
                return Ok(());
            }
            // Not this build's to read, or the store failed: the channel waits, in order.
            Ok(Err(why)) => return Err(Undelivered::Later(why.0)),
            Err(e) => return Err(Undelivered::Later(e.to_string())),
        };
        d.outcome = self.for_players(d.outcome);
        let channel = d.letter.channel;
        let owed = Owed {
            letter: Some(letter),
            since_ms: d.letter.created_ms,
            guild: d.letter.guild,
            epoch,
        };
        // The token's life runs from the interaction (a letter written before that was known
        // counts from itself).
        let issued_ms = d.letter.request_at_ms.unwrap_or(d.letter.created_ms);
        let token = d
            .letter
            .request
            .as_deref()
            .filter(|_| token_lives(issued_ms, now_ms()));
        let mut pinged = d.has_sent(Part::Pings);
        let message = match d.has_sent(Part::Announcement) || d.outcome.is_direct_alone() {
            true => d.letter.message,
            false => {
                let post = announce(&d.outcome, self.web_url.as_deref()).await;
                let mut message = None;
                if let Some(token) = token {
                    message = self.answered(token, &post.content).await?;
                    if message.is_none() && d.has_sent(Part::Deferred) {
                        // The "thinking" message still stands: it becomes the announcement
                        // (pinged below).
                        message = self.edit_thinking(token, post.clone()).await?;
                    }
                }
                if message.is_none() {
                    message = self.post(channel, owed, Part::Announcement, post).await?;
                    // A channel post pings by itself, even for a deferred answer.
                    self.note(owed, Part::Pings, None).await?;
                    pinged = true;
                }
                self.note(owed, Part::Announcement, message).await?;
                message
            }
        };
        if d.has_sent(Part::Deferred) && !pinged {
            self.pings(channel, owed, &d.outcome, message).await?;
        }
        self.rest(channel, owed, &d.outcome, message, &d.letter.sent)
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
    /// answer or a restart, `@original` tells whether it went out.
    async fn answered(&self, token: &str, content: &str) -> Result<Option<u64>, Undelivered> {
        match self.http.get_original_interaction_response(token).await {
            Ok(m) if m.content.trim() == content.trim() => Ok(Some(m.id.get())),
            Ok(_) => Ok(None),
            Err(e) => match classify(&e) {
                Failure::Uncertain | Failure::RateLimited => Err(Undelivered::Later(describe(&e))),
                // Unknown or expired: the answer never went out, or can no longer be seen.
                _ => Ok(None),
            },
        }
    }

    /// Edits a deferred answer's "thinking" message into the announcement; `None` when its
    /// interaction can no longer be answered.
    async fn edit_thinking(&self, token: &str, post: Post) -> Result<Option<u64>, Undelivered> {
        match thinking_edit(post).execute(self.http.as_ref(), token).await {
            Ok(edited) => Ok(Some(edited.id.get())),
            Err(e) => match classify(&e) {
                Failure::Uncertain | Failure::RateLimited => Err(Undelivered::Later(describe(&e))),
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
                let owed = Owed::fresh(outcome);
                self.note_durably(owed, Part::Deferred, None).await?;
                match thinking_edit(post).execute(http.as_ref(), token).await {
                    Ok(edited) => {
                        // On disk before the pings: if they fail, the outbox must not post the
                        // announcement a second time once the token is past its life.
                        let id = Some(edited.id.get());
                        self.note_durably(owed, Part::Announcement, id).await?;
                        self.pings(channel, owed, outcome, id).await?;
                        Ok(id)
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

    /// A deferred announcement's pings, as a message of their own that links the announcement
    /// (`message`): no two letters' pings read alike, so a look for one never finds another.
    async fn pings(
        &self,
        channel: u64,
        owed: Owed,
        outcome: &Outcome,
        message: Option<u64>,
    ) -> Result<(), Undelivered> {
        let mentions: Vec<u64> = outcome.ping.iter().map(|p| p.id).collect();
        if !mentions.is_empty() {
            let text = format!(
                "see Bredon's answer above: {}",
                jump_link(outcome.guild, channel, message)
            );
            let ping = Post::pinging(mentions, &text);
            self.post(channel, owed, Part::Pings, ping).await?;
        }
        self.note(owed, Part::Pings, None).await
    }

    /// After the announcement (posted as `message`): the board's message remembered, the direct
    /// messages and the record not yet `sent`, then the letter is done.
    async fn rest(
        &self,
        channel: u64,
        owed: Owed,
        outcome: &Outcome,
        message: Option<u64>,
        sent: &[String],
    ) -> Result<(), Undelivered> {
        let wanted: Vec<_> = outcome
            .direct
            .iter()
            .filter(|p| !sent.contains(&Part::Direct(p.id).key()))
            .cloned()
            .collect();
        if outcome.is_direct_alone() {
            // A letter in its reader's queue: the direct message is all it owes. A reader
            // whose direct messages are closed is told in the game's channel (a digest's
            // longest-waiting game's).
            let told_in = match outcome.digest.first() {
                Some(game) => game.channel,
                None => outcome.about.unwrap_or(channel),
            };
            for player in wanted {
                let text = match outcome.digest.is_empty() {
                    true => outcome.text.clone(),
                    false => digest_text(&outcome.digest),
                };
                self.direct(told_in, player.id, owed, text).await?;
                self.note(owed, Part::Direct(player.id), None).await?;
            }
        } else {
            let link = jump_link(outcome.guild, channel, message);
            for player in wanted {
                let text = format!("It is your move in <#{channel}>: {link}");
                self.hand_over_direct(channel, owed, player, text).await?;
            }
        }
        if !sent.contains(&Part::Record.key()) {
            if let Some(record) = record(outcome, self.web_url.as_deref()).await {
                self.post(channel, owed, Part::Record, record).await?;
            }
        }
        // The letter done and the board's message remembered (for the jump links of /games and
        // /mygames), in one step.
        let board = match (outcome.prompt, message) {
            (Some(Prompt::Board { .. }), Some(id)) => Some((channel, id)),
            _ => None,
        };
        if owed.letter.is_none() && board.is_none() {
            return Ok(());
        }
        let s = Arc::clone(&self.service);
        let letter = owed.letter.map(|letter| (letter, owed.epoch));
        let done = tokio::task::spawn_blocking(move || s.delivered_showing(letter, board)).await;
        match done {
            Ok(Ok(true)) => Ok(()),
            Ok(Ok(false)) => Err(Undelivered::Fenced),
            _ => Err(Undelivered::Later("the outbox could not be written".into())),
        }
    }

    /// Hands a player's direct message from a game's letter (`owed`, posted in `channel`) over
    /// to a letter of its own in the player's queue, which the outbox delivers at once: a
    /// direct message held long never holds the game's channel. An outcome no letter holds
    /// sends it itself.
    async fn hand_over_direct(
        &self,
        channel: u64,
        owed: Owed,
        player: PlayerRef,
        text: String,
    ) -> Result<(), Undelivered> {
        let Some(letter) = owed.letter else {
            return self.direct(channel, player.id, owed, text).await;
        };
        let s = Arc::clone(&self.service);
        let now = now_ms();
        let handed = tokio::task::spawn_blocking(move || {
            s.hand_over_direct(letter, owed.epoch, channel, player, text, now)
        })
        .await;
        match handed {
            Ok(Ok(Ok(own))) => {
                self.claims.release(&Vec::from_iter(own));
                Ok(())
            }
            Ok(Ok(Err(Fenced))) => Err(Undelivered::Fenced),
            Ok(Err(e)) => Err(Undelivered::Later(e.0)),
            Err(e) => Err(Undelivered::Later(e.to_string())),
        }
    }

    /// Notes that `part` of the letter `owed` went out, under this process's lease: `Fenced`
    /// when another process took the letter over (this one stops), `Later` when the store
    /// failed (the part may go out again, by its nonce or after a look: never silently lost).
    async fn note(&self, owed: Owed, part: Part, message: Option<u64>) -> Result<(), Undelivered> {
        self.noted(owed, part, message, false).await
    }

    /// `note`, on disk before anything else happens.
    async fn note_durably(
        &self,
        owed: Owed,
        part: Part,
        message: Option<u64>,
    ) -> Result<(), Undelivered> {
        self.noted(owed, part, message, true).await
    }

    async fn noted(
        &self,
        owed: Owed,
        part: Part,
        message: Option<u64>,
        durably: bool,
    ) -> Result<(), Undelivered> {
        let Some(letter) = owed.letter else {
            return Ok(());
        };
        let (s, epoch) = (Arc::clone(&self.service), owed.epoch);
        let noted =
            tokio::task::spawn_blocking(move || s.part_sent(letter, epoch, part, message, durably))
                .await;
        match noted {
            Ok(Ok(true)) => Ok(()),
            Ok(Ok(false)) => Err(Undelivered::Fenced),
            Ok(Err(why)) => Err(Undelivered::Later(why.0)),
            Err(e) => Err(Undelivered::Later(e.to_string())),
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

/// Whether anything needs the id of an outcome's message: a live board (jump links) or a DM.
fn wants_message_id(outcome: &Outcome) -> bool {
    matches!(outcome.prompt, Some(Prompt::Board { .. })) || !outcome.direct.is_empty()
}
