//! The one way out: every outcome leaves Bredon through [`Publisher::send`], whatever carried it
//! (a slash command, a button, the Move form, a timer, Bredon's own ply, a tournament). An outcome
//! of a change was stored with it (the outbox letter); the handler that made it claims it and
//! delivers it the way its carrier allows ([`Via`]), part by part (the announcement, the pings
//! of a deferred answer, the direct messages (each handed over to a letter in its reader's queue),
//! the record of a finished game), and tells the store what it did in one step at the end
//! (`Progress`, `Service::settle`), or before a failure is handed back.
//! Whatever it could not deliver, the outbox loop (`outbox.rs`) delivers as channel messages
//! (outside servers as follow-ups or direct messages, `answers.rs`).
//! [`Publisher::publish`] is `send` followed by Bredon's turn in the channel, if it has one.

use super::answers::Original;
use super::claims::Claim;
use super::failure::{classify, describe};
use super::posting::{created_ms, written_outside, Owed, Undelivered};
use super::replies::{self, Asked};
use super::tokens::token_lives;
use crate::bot::blocking::{counting_store_steps, in_store, store_steps};
use crate::bot::data::Publisher;
use crate::bot::post::{announce, digest_text, jump_link, record, Post};
use crate::bot::{Context, Error};
use crate::clock::now_ms;
use crate::service::{Fenced, FollowUp, Handed, Outcome, Part, Progress, Prompt};
use crate::store::records::Lacking;
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// An outcome with its announcement drawn (the picture is the slow part, so a slash command
/// draws it before deciding whether to defer), and the claim on its letter.
pub struct Ready {
    pub outcome: Outcome,
    pub post: Post,
    claim: Option<Claim>,
    /// What the service says follows the outcome.
    pub(super) follow_ups: Vec<FollowUp>,
}

/// How an outcome's announcement reaches Discord.
pub enum Via<'a> {
    /// The first response to a slash command.
    Reply(Context<'a>),
    /// An interaction (by its token) answered "thinking" first: that message is edited into the
    /// outcome and the pings follow as a new message (an edit notifies no one). `marked` when
    /// the letter says so from its making (`Deferral`); if not (deferred after the letter was
    /// written), the "thinking" message goes and the announcement is a channel message.
    Deferred {
        token: &'a str,
        issued_ms: i64,
        marked: bool,
    },
    /// The response to the Move form.
    Form(&'a serenity::ModalInteraction),
    /// A new message in the channel (a nonce makes a repeated post arrive once).
    Channel,
    /// A follow-up to an acknowledged button press (by its token), for a private answer.
    Followup(&'a str),
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

    /// Posts an outcome in `channel`: the announcement, the board's message remembered, the
    /// direct messages, then a finished game's record; the letter leaves the outbox when all
    /// went out. On an error, what is left stays for the outbox.
    pub async fn send(&self, channel: u64, ready: Ready, via: Via<'_>) -> Result<(), Error> {
        counting_store_steps(self.send_counted(channel, ready, via)).await
    }

    async fn send_counted(&self, channel: u64, ready: Ready, via: Via<'_>) -> Result<(), Error> {
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
        let refused_here =
            self.known_refusal(channel) == Some(Lacking::Posting) || self.suspect(owed.guild);
        if matches!(via, Via::Channel) && claim.is_some() && refused_here {
            // Each refused try counts towards Discord's invalid requests: the outbox tries the
            // channel when its server's probe says Bredon may post there.
            let why = format!("Discord refused Bredon posts in channel {channel}'s server");
            return Err(Undelivered::NotAllowed(why).into());
        }
        // In turn with this process's other sends in the channel: a letter still in a handler's
        // hands when this one was written is delivered first.
        let turn = match claim {
            Some(_) => self.turn_after(channel, &outcome.behind, &via).await,
            None => None,
        };
        if claim.is_some() && turn.is_none() {
            // A post now would overtake what the channel is owed from before: the outbox
            // delivers them in order, and the asker is told so privately.
            tracing::info!(channel, letter = ?outcome.letter, "an answer waits behind its channel's earlier letters");
            // Left to the outbox, which is no failure: the asker was told, and hears no more.
            self.wait_behind(via).await;
            let why = format!("channel {channel} is owed earlier messages: posted after them");
            return Err(Undelivered::Later(why).into());
        }
        let mut progress = Progress::default();
        if outcome.is_direct_alone() {
            // A digest is its direct message alone.
            self.rest(channel, owed, &outcome, None, &[], progress)
                .await?;
            if let Some(claim) = claim {
                claim.delivered();
            }
            return Ok(());
        }
        let message = match via {
            Via::Channel => self.post(channel, owed, Part::Announcement, post).await?,
            via => {
                let answering = answering(&via);
                let answered = self.answer(channel, &outcome, post, via, &mut progress);
                let message = answered.await?;
                // Outside servers, what follows (the record, Bredon's ply) is written into this answer.
                if let Some((token, issued_ms)) = answering {
                    self.acknowledged_outside(channel, &outcome, &token, issued_ms);
                }
                message
            }
        };
        note(&mut progress, Part::Announcement, message);
        self.rest(channel, owed, &outcome, message, &[], progress)
            .await?;
        if let Some(claim) = claim {
            claim.delivered();
        }
        // A handler's action took one step into the store before: with these, its crossings.
        tracing::debug!(channel, store_steps = store_steps(), "outcome posted");
        Ok(())
    }

    /// An answer for the asker alone (a private puzzle's): ephemeral, and owed to no one else,
    /// so a lost one is only asked again. After a public deferral, the "thinking" message goes
    /// and the answer follows privately.
    pub(super) async fn answer_privately(&self, post: Post, via: Via<'_>) -> Result<(), Error> {
        let http = self.http.as_ref();
        match via {
            Via::Reply(ctx) => replies::reply(ctx, post, true).await?,
            Via::Deferred { token, .. } => {
                replies::delete_answer(http, token).await?;
                replies::follow_privately(http, token, post).await?;
            }
            Via::Form(submit) => {
                replies::answer_at_once(http, Asked::form(submit), post, true).await?;
            }
            Via::Followup(token) => replies::follow_privately(http, token, post).await?,
            Via::Channel => tracing::warn!("a private answer has no one to answer; not posted"),
        }
        Ok(())
    }

    /// Delivers what `letter` still owes (the outbox loop has its claim): the announcement as
    /// a channel message, unless the interaction it answered shows it went out already. The
    /// interaction's token is used only while it surely lives; after that, the channel path
    /// alone, which looks before it repeats a post.
    pub async fn deliver(&self, letter: u64, epoch: u64, claim: Claim) -> Result<(), Undelivered> {
        counting_store_steps(self.deliver_counted(letter, epoch, claim)).await
    }

    async fn deliver_counted(
        &self,
        letter: u64,
        epoch: u64,
        claim: Claim,
    ) -> Result<(), Undelivered> {
        let now = now_ms();
        let found = in_store(&self.service, move |s| s.delivery(letter, now)).await;
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
        // In turn with this process's handlers in the channel: one that waits for this letter
        // then knows it delivered.
        let _turn = self.order.turn(channel, REQUEST_TURN_WAIT).await;
        let owed = Owed {
            letter: Some(letter),
            since_ms: d.letter.created_ms,
            guild: d.letter.guild,
            epoch,
            // Renewed before each post, as the time the outbox took it is not kept here.
            lease_until_ms: 0,
            // The outcome read carries its letter and the letter's server.
            outside: written_outside(&d.outcome),
        };
        // The token's life runs from the interaction (a letter written before that was known
        // counts from itself).
        let issued_ms = d.letter.request_at_ms.unwrap_or(d.letter.created_ms);
        let token = d
            .letter
            .request
            .as_deref()
            .filter(|_| token_lives(issued_ms, now_ms()));
        let mut progress = Progress::default();
        let mut pinged = d.has_sent(Part::Pings);
        let mut deferred = d.has_sent(Part::Deferred);
        let message = match d.has_sent(Part::Announcement) || d.outcome.is_direct_alone() {
            true => d.letter.message,
            false => {
                let post = announce(&d.outcome, self.web_url.as_deref()).await;
                let mut message = None;
                if let Some(token) = token {
                    let original = self.original(token, &post.content).await?;
                    message = match original {
                        Original::Carries(id) => Some(id),
                        // The "thinking" message still stands: it becomes the announcement
                        // (pinged below).
                        Original::Thinking => {
                            deferred = true;
                            self.edit_thinking(token, post.clone()).await?
                        }
                        // Never answered (the deferral failed), or answered otherwise.
                        Original::Other | Original::Missing => None,
                    };
                    // Outside servers, what follows is written into this answer too.
                    if message.is_some() {
                        self.acknowledged_outside(channel, &d.outcome, token, issued_ms);
                    }
                }
                if message.is_none() {
                    message = self.found_earlier(channel, owed, &post).await?;
                    // A channel post pings by itself, even for a deferred answer. Found by a
                    // look, a deferred answer edited before a restart (its token dead since)
                    // still owes its pings: an edit notifies no one.
                    let pinged_itself = match message {
                        Some(_) => !deferred,
                        None => {
                            let part = Part::Announcement;
                            message = self.post_unseen(channel, owed, part, post).await?;
                            true
                        }
                    };
                    if pinged_itself {
                        note(&mut progress, Part::Pings, None);
                        pinged = true;
                    }
                }
                note(&mut progress, Part::Announcement, message);
                message
            }
        };
        if deferred && !pinged {
            let outcome = &d.outcome;
            self.pings(channel, owed, outcome, message, &mut progress)
                .await?;
        }
        self.rest(channel, owed, &d.outcome, message, &d.letter.sent, progress)
            .await?;
        claim.delivered();
        tracing::debug!(
            channel,
            letter,
            store_steps = store_steps(),
            "owed outcome delivered"
        );
        Ok(())
    }

    /// The interaction with `token` (made at `issued_ms`) answered `outcome`: if its letter is
    /// owed to a channel outside servers, what follows is written into its answer from now on.
    fn acknowledged_outside(&self, channel: u64, outcome: &Outcome, token: &str, issued_ms: i64) {
        if written_outside(outcome) {
            self.answers.acknowledged(channel, token, issued_ms);
        }
    }

    /// An outcome as it leaves: pinging its players but never Bredon itself (its turn in an
    /// engine game needs no notification).
    fn for_players(&self, mut outcome: Outcome) -> Outcome {
        outcome.ping.retain(|p| p.id != self.engine.me.id);
        outcome
    }

    /// The announcement as the interaction's answer. A failed answer whose effect is unknown
    /// (5xx, a dropped connection) is looked for before it is left to the outbox.
    async fn answer(
        &self,
        channel: u64,
        outcome: &Outcome,
        post: Post,
        via: Via<'_>,
        progress: &mut Progress,
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
            Via::Deferred {
                token,
                marked: false,
                ..
            } => {
                // Deferred after its letter was written, which cannot say so: an edit of the
                // "thinking" message would need its pings noted apart (a crash between them
                // would lose them). It goes, and the announcement is a channel message, which
                // pings by itself.
                if let Err(e) = replies::delete_answer(http, token).await {
                    tracing::info!(error = %describe(&e), "a \"thinking\" message stays");
                }
                let owed = Owed::fresh(outcome);
                let message = self.post(channel, owed, Part::Announcement, post).await?;
                note(progress, Part::Pings, None);
                return Ok(message);
            }
            Via::Deferred {
                token, issued_ms, ..
            } => {
                let owed = Owed::fresh(outcome);
                match replies::edit_answer(http, token, post).await {
                    Ok(edited) => {
                        let id = Some(edited);
                        note(progress, Part::Announcement, id);
                        // Outside servers the pings go by direct message, after this answer.
                        self.acknowledged_outside(channel, outcome, token, issued_ms);
                        self.pings(channel, owed, outcome, id, progress).await?;
                        Ok(id)
                    }
                    Err(e) => Err(e),
                }
            }
            Via::Form(submit) => {
                let sent = replies::answer_at_once(http, Asked::form(submit), post, false).await;
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
        // Whether it went out after all, the outbox asks the interaction (`original`): so for
        // every failure the table names, 40060 (an earlier answer went out) included.
        let failure = classify(&error);
        tracing::info!(channel, ?failure, error = %describe(&error), "the answer failed; the outbox looks at it and posts what is missing");
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
        progress: &mut Progress,
    ) -> Result<(), Undelivered> {
        let mentions: Vec<u64> = outcome.ping.iter().map(|p| p.id).collect();
        if !mentions.is_empty() {
            let text = format!(
                "see Bredon's answer above: {}",
                jump_link(outcome.guild, channel, message)
            );
            let ping = Post::pinging(mentions, &text);
            let posted = self.post(channel, owed, Part::Pings, ping).await;
            self.settled_if_failed(owed, progress, posted).await?;
        }
        note(progress, Part::Pings, None);
        Ok(())
    }

    /// After the announcement (posted as `message`): the direct messages and the record not
    /// yet `sent`, then what the delivery did (`progress`) is told to the store in one step:
    /// the letter done, the direct messages handed over to letters in their readers' queues,
    /// and the board's message remembered (for the jump links of /games and /mygames).
    async fn rest(
        &self,
        channel: u64,
        owed: Owed,
        outcome: &Outcome,
        message: Option<u64>,
        sent: &[String],
        mut progress: Progress,
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
                let sent = self.direct(told_in, player.id, owed, text).await;
                self.settled_if_failed(owed, &mut progress, sent).await?;
                note(&mut progress, Part::Direct(player.id), None);
            }
        } else {
            let link = jump_link(outcome.guild, channel, message);
            for player in wanted {
                // A DM or group DM cannot be mentioned: its link alone names it.
                let text = match outcome.guild {
                    0 => format!("It is your move in your game: {link}"),
                    _ => format!("It is your move in <#{channel}>: {link}"),
                };
                match owed.letter {
                    // A direct message kept waiting long must never keep the game's channel waiting.
                    Some(_) => progress.handed.push(Handed {
                        about: channel,
                        reader: player,
                        text,
                    }),
                    None => self.direct(channel, player.id, owed, text).await?,
                }
            }
        }
        if !sent.contains(&Part::Record.key()) {
            if let Some(record) = record(outcome, self.web_url.as_deref()).await {
                let posted = self.post(channel, owed, Part::Record, record).await;
                self.settled_if_failed(owed, &mut progress, posted).await?;
            }
        }
        progress.done = owed.letter.is_some();
        progress.board = match (outcome.prompt, message) {
            (Some(Prompt::Board { .. }), Some(id)) => Some((channel, id)),
            _ => None,
        };
        self.settle(owed, progress).await
    }

    /// A part's result; when it failed, what the delivery did before it (`progress`) is told to
    /// the store first, so the outbox neither repeats those parts nor loses a handed-over
    /// direct message.
    async fn settled_if_failed<T>(
        &self,
        owed: Owed,
        progress: &mut Progress,
        result: Result<T, Undelivered>,
    ) -> Result<T, Undelivered> {
        if result.is_err() && !progress.is_empty() {
            let done = Progress {
                durably: true,
                ..std::mem::take(progress)
            };
            match self.settle(owed, done).await {
                Ok(()) => tracing::debug!(
                    letter = owed.letter,
                    "a part failed: what went out before it is noted"
                ),
                Err(Undelivered::Fenced) => return Err(Undelivered::Fenced),
                Err(_) => {}
            }
        }
        result
    }

    /// Tells the store what a delivery did with the letter `owed` (`Service::settle`), under
    /// this process's lease, and rings the outbox for the direct messages handed over:
    /// `Fenced` when another process took the letter over (this one stops), `Later` when the
    /// store failed (what went out may go again, by its nonce or after a look: never silently
    /// lost).
    async fn settle(&self, owed: Owed, progress: Progress) -> Result<(), Undelivered> {
        if progress.is_empty() {
            return Ok(());
        }
        let letter = owed.letter.map(|letter| (letter, owed.epoch));
        let done = owed.letter.filter(|_| progress.done);
        let settled = in_store(&self.service, move |s| s.settle(letter, progress, now_ms()));
        match settled.await {
            Ok(Ok(Ok(own))) => {
                self.claims.release(&own);
                if let Some(letter) = done {
                    self.order.delivered(letter);
                }
                Ok(())
            }
            Ok(Ok(Err(Fenced))) => Err(Undelivered::Fenced),
            Ok(Err(why)) => Err(Undelivered::Later(why.0)),
            Err(e) => Err(Undelivered::Later(e.to_string())),
        }
    }
}

/// How long the outbox waits for a handler's send in the same channel before delivering anyway
/// (the letters are in order in the store; the turn only tells the handler what was delivered).
const REQUEST_TURN_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Notes in `progress` that `part` went out (as `message`), once.
fn note(progress: &mut Progress, part: Part, message: Option<u64>) {
    if !progress.sent.iter().any(|(p, _)| *p == part) {
        progress.sent.push((part, message));
    }
}

/// Whether anything needs the id of an outcome's message: a live board (jump links) or a DM.
fn wants_message_id(outcome: &Outcome) -> bool {
    matches!(outcome.prompt, Some(Prompt::Board { .. })) || !outcome.direct.is_empty()
}

/// The token of the interaction `via` answers, and when it was made.
fn answering(via: &Via<'_>) -> Option<(String, i64)> {
    match via {
        Via::Reply(ctx) => {
            crate::bot::data::interaction(*ctx).map(|i| (i.token.clone(), created_ms(i.id.get())))
        }
        Via::Deferred {
            token, issued_ms, ..
        } => Some((token.to_string(), *issued_ms)),
        Via::Form(submit) => Some((submit.token.clone(), created_ms(submit.id.get()))),
        Via::Channel | Via::Followup(_) => None,
    }
}
