//! Interactions' answers after the first: what an answer shows (`@original`, after a lost
//! answer or a restart), a deferral's "thinking" message made into the announcement, and the
//! channels outside any server where Bredon only answers: DMs and group DMs between users where
//! a user installed Bredon (a DM with Bredon itself is a channel it posts in). There Bredon is
//! no member and speaks only in answers to interactions (interactions/application-commands,
//! "Installation Context"), so no part of what such a channel is owed is a channel message: it
//! is written into the answer of the latest interaction acknowledged there (`tokens.rs`), its
//! pings sent to their players by direct message, and without a live answer, it goes to each
//! player it pings as a direct message that links the channel. The next command there shows
//! the game as it stands.

use super::failure::{classify, describe, Failure};
use super::posting::{Owed, Undelivered};
use super::replies::edit_answer;
use crate::bot::data::Publisher;
use crate::bot::post::{fit_before, without_ninja_link, Post, MAX_CONTENT};
use crate::service::Part;
use poise::serenity_prelude as serenity;
use serenity::builder::Builder;

impl Publisher {
    /// What an interaction's answer is, as `@original` tells after a lost answer or a restart:
    /// whether it carried this announcement.
    pub(super) async fn original(
        &self,
        token: &str,
        content: &str,
    ) -> Result<Original, Undelivered> {
        match self.http.get_original_interaction_response(token).await {
            Ok(m) if m.content.trim() == content.trim() => Ok(Original::Carries(m.id.get())),
            Ok(m) if m.content.is_empty() && m.attachments.is_empty() => Ok(Original::Thinking),
            Ok(_) => Ok(Original::Other),
            Err(e) => match classify(&e) {
                Failure::Uncertain | Failure::RateLimited => Err(Undelivered::Later(describe(&e))),
                // Unknown or expired: the answer never went out, or can no longer be seen.
                _ => Ok(Original::Missing),
            },
        }
    }

    /// Edits a deferred answer's "thinking" message into the announcement; `None` when its
    /// interaction can no longer be answered.
    pub(super) async fn edit_thinking(
        &self,
        token: &str,
        post: Post,
    ) -> Result<Option<u64>, Undelivered> {
        match edit_answer(&self.http, token, post).await {
            Ok(edited) => Ok(Some(edited)),
            Err(e) => match classify(&e) {
                Failure::Uncertain | Failure::RateLimited => Err(Undelivered::Later(describe(&e))),
                _ => Ok(None),
            },
        }
    }

    /// Whether `channel`, owed `owed`, is one where Bredon only answers: outside any server (a
    /// letter written there says so; for a message no letter owes, an interaction seen there
    /// does), and not a DM with Bredon itself.
    pub(super) fn outside_servers(&self, channel: u64, owed: Owed) -> bool {
        (owed.outside || owed.letter.is_none() && self.answers.knows(channel))
            && !self.answers.is_bot_dm(channel)
    }

    /// Delivers `post`, a part of what `channel` (outside servers) is owed: added to the answer
    /// of its latest live interaction, or else as a direct message to each user it pings. A
    /// follow-up carries no nonce and no one can list an interaction's follow-ups, so a
    /// follow-up whose reply was lost could only be made again blindly: the part is written into
    /// the answer itself instead (`PATCH @original`, which a repeat leaves as it is), after a
    /// look at it (`GET @original`) says it is not there yet. An edit notifies no one, so the
    /// players a part pings hear of it by direct message (a nonce per part and player).
    pub(super) async fn answer_outside(
        &self,
        channel: u64,
        owed: Owed,
        part: Part,
        post: Post,
    ) -> Result<Option<u64>, Undelivered> {
        self.renew(owed).await?;
        let mut answer = None;
        if part != Part::Pings {
            while let Some(token) = self.answers.newest(channel) {
                match self.add_to_answer(&token, &post).await {
                    Ok(Some(message)) => {
                        answer = Some(message);
                        break;
                    }
                    // No room left in that answer: the next one, or direct messages.
                    Ok(None) => self.answers.spent(channel, &token),
                    Err(e) if classify(&e) == Failure::TokenExpired => {
                        tracing::info!(channel, error = %describe(&e), "an interaction's answer can no longer be edited");
                        self.answers.spent(channel, &token);
                    }
                    // What else it means, the one table says, as for a channel post.
                    Err(e) => return self.failed(channel, owed, e).await,
                }
            }
        }
        let link = format!("https://discord.com/channels/@me/{channel}");
        for &user in &post.mentions {
            let told = Post {
                content: fit_before(post.content.clone(), &format!("\n(your game in {link})")),
                components: Vec::new(),
                files: match answer {
                    // The picture stands in the game's channel.
                    Some(_) => Vec::new(),
                    None => post.files.clone(),
                },
                ..post.clone()
            };
            self.direct_post(channel, user, owed, part, told).await?;
        }
        Ok(answer)
    }

    /// `post` written into the answer of the interaction with `token`, below what it shows:
    /// its message, found there already or edited now; `None` when the two do not fit in one
    /// message. The post's picture and buttons, if it has any, replace the answer's (the board
    /// shown is the newest).
    async fn add_to_answer(&self, token: &str, post: &Post) -> serenity::Result<Option<u64>> {
        let answer = self.http.get_original_interaction_response(token).await?;
        // A post of files alone is written again: the same edit twice leaves one copy.
        let part = post.content.trim();
        let shown = |part: &str| !part.is_empty() && answer.content.contains(part);
        if shown(part) || shown(without_ninja_link(part).as_str()) {
            tracing::info!(message = answer.id.get(), "an earlier edit went through");
            return Ok(Some(answer.id.get()));
        }
        let joined = |part: &str| format!("{}\n\n{part}", answer.content.trim_end());
        let mut content = joined(part);
        if content.chars().count() > MAX_CONTENT {
            // A record's PTN Ninja link is what makes it long: the sentence instead of it.
            content = joined(&without_ninja_link(part));
        }
        if content.chars().count() > MAX_CONTENT {
            return Ok(None);
        }
        let mut edit = serenity::EditInteractionResponse::new()
            .content(content)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if !post.components.is_empty() {
            edit = edit.components(post.components.clone());
        }
        if !post.files.is_empty() {
            edit = edit.clear_attachments();
            for file in &post.files {
                edit = edit.new_attachment(file.clone());
            }
        }
        let edited = edit.execute(self.http.as_ref(), token).await?;
        Ok(Some(edited.id.get()))
    }
}

/// An interaction's answer as `@original` shows it.
pub(super) enum Original {
    /// The announcement, as this message.
    Carries(u64),
    /// A deferral's "thinking" message, still standing.
    Thinking,
    /// Another message.
    Other,
    /// None: never answered, or no longer to be seen.
    Missing,
}
