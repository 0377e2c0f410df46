//! Interactions' answers after the first: what an answer shows (`@original`, after a lost
//! answer or a restart), a deferral's "thinking" message made into the announcement, and the
//! channels outside any server: a DM with Bredon, and DMs and group DMs between users where a
//! user installed Bredon. In a private channel Bredon is no member and speaks only in answers to
//! interactions (interactions/application-commands, "Installation Context"), so no part of what
//! such a channel is owed is a channel message: it goes out as a follow-up of the latest
//! interaction acknowledged there (`tokens.rs`), and without one, to each player it pings as a
//! direct message that links the channel. The next command there shows the game as it stands.

use super::failure::{classify, describe, Failure};
use super::posting::{Owed, Undelivered};
use crate::bot::data::Publisher;
use crate::bot::post::{fit_before, Post};
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
        match thinking_edit(post).execute(self.http.as_ref(), token).await {
            Ok(edited) => Ok(Some(edited.id.get())),
            Err(e) => match classify(&e) {
                Failure::Uncertain | Failure::RateLimited => Err(Undelivered::Later(describe(&e))),
                _ => Ok(None),
            },
        }
    }

    /// Whether `channel`, owed `owed`, is outside any server: a letter written there says so;
    /// for a message no letter owes, an interaction seen there does.
    pub(super) fn outside_servers(&self, channel: u64, owed: Owed) -> bool {
        owed.outside || owed.letter.is_none() && self.answers.knows(channel)
    }

    /// Delivers `post`, a part of what `channel` (outside servers) is owed: as a follow-up of
    /// its latest live interaction, or else as a direct message to each user it pings.
    pub(super) async fn answer_outside(
        &self,
        channel: u64,
        owed: Owed,
        part: Part,
        post: Post,
    ) -> Result<Option<u64>, Undelivered> {
        self.renew(owed).await?;
        while let Some(token) = self.answers.take(channel) {
            let follow_up = serenity::CreateInteractionResponseFollowup::new()
                .allowed_mentions(post.allowed_mentions())
                .content(post.content.clone())
                .add_files(post.files.clone())
                .components(post.components.clone());
            match follow_up.execute(self.http.as_ref(), (None, &token)).await {
                Ok(message) => return Ok(Some(message.id.get())),
                // Dead, or its follow-ups used up: the next one, or direct messages.
                Err(e) if classify(&e) == Failure::TokenExpired => {
                    tracing::info!(channel, error = %describe(&e), "an interaction can carry no more follow-ups");
                    self.answers.spent(channel, &token);
                }
                // What else it means, the one table says, as for a channel post.
                Err(e) => return self.failed(channel, owed, e).await,
            }
        }
        let link = format!("https://discord.com/channels/@me/{channel}");
        for &user in &post.mentions {
            let told = Post {
                content: fit_before(post.content.clone(), &format!("\n(your game in {link})")),
                components: Vec::new(),
                ..post.clone()
            };
            self.direct_post(channel, user, owed, part, told).await?;
        }
        Ok(None)
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

/// A deferred answer's "thinking" message made into `post`. An edit notifies no one, so it
/// allows no mention: the pings follow as a message of their own.
pub(super) fn thinking_edit(post: Post) -> serenity::EditInteractionResponse {
    let mut edit = serenity::EditInteractionResponse::new()
        .content(post.content)
        .components(post.components)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    for file in post.files {
        edit = edit.new_attachment(file);
    }
    edit
}
