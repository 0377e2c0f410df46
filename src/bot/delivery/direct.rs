//! Direct messages: a player's turn told by DM (`/notify dm:on`), a post outside servers
//! with no live interaction to carry it, a passed-over post's pings. Each goes once: its nonce
//! is the letter's part and the user it goes to, and past the nonce's window the DM channel is
//! looked at first (Bredon reads its own DM channels), as a channel post is.

use super::failure::{classify, code, describe, discord_code, Failure};
use super::posting::{nonce_of, Owed, Undelivered, TOKEN_RESET};
use crate::bot::blocking::in_store;
use crate::bot::data::Publisher;
use crate::bot::post::Post;
use crate::clock::now_ms;
use crate::service::Part;
use poise::serenity_prelude as serenity;

impl Publisher {
    /// A direct message a player asked for (`/notify dm:on`), from a post in `channel`. A
    /// transient failure is tried again later; DMs the player's settings close (50007) turn the
    /// wish off, and the player is told once in the channel; other refusals are logged.
    pub(super) async fn direct(
        &self,
        channel: u64,
        user: u64,
        owed: Owed,
        text: String,
    ) -> Result<(), Undelivered> {
        let post = Post::text(text);
        self.direct_post(channel, user, owed, Part::Direct(user), post)
            .await
    }

    /// `post`, part `part` of what `channel` is owed, as a direct message to `user`: looked for
    /// past the nonce's window, as a channel post is.
    pub(super) async fn direct_post(
        &self,
        channel: u64,
        user: u64,
        owed: Owed,
        part: Part,
        post: Post,
    ) -> Result<(), Undelivered> {
        let nonce = nonce_of(owed.letter, part, user);
        let looked = async {
            let dm = self.dm_channel(user).await?;
            let found = owed.past_nonce_window(now_ms())
                && self
                    .posted_since(dm.get(), owed.since_ms, &post)
                    .await?
                    .is_some();
            Ok::<_, serenity::Error>((dm, found))
        };
        let sent = match looked.await {
            Ok((_, true)) => return Ok(()),
            Ok((dm, false)) => {
                // The post runs inside the lease, renewed after the look.
                self.renew(owed).await?;
                self.create(dm.get(), &nonce, post).await.map(drop)
            }
            Err(e) => Err(e),
        };
        let error = match sent {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        self.let_go_if_held_back(owed).await;
        match classify(&error) {
            Failure::Uncertain | Failure::RateLimited => {
                return Err(Undelivered::Later(describe(&error)))
            }
            Failure::TokenReset => {
                self.fatal.raise(TOKEN_RESET.into());
                return Err(Undelivered::TokenReset);
            }
            Failure::Unknown => {
                let why = describe(&error);
                self.unknown_refusal(&error, &why);
                return Err(Undelivered::Parked(why));
            }
            _ => {}
        }
        tracing::info!(user, error = %describe(&error), "no direct message");
        if discord_code(&error) == Some(code::CANNOT_MESSAGE_USER) {
            let closed = in_store(&self.service, move |s| s.direct_messages_closed(user)).await;
            if let Ok(Ok(true)) = closed {
                let text = "Bredon cannot send you direct messages (your privacy settings for \
                            this server close them), so it stopped sending them, the daily digest \
                            too. Open them and use /notify (dm:true, digest:) to have them again.";
                let told = Post::pinging(vec![user], text);
                // Told in the game's channel, outside servers as an answer if one is open.
                let owed = Owed {
                    outside: self.answers.knows(channel),
                    ..owed
                };
                // Boxed: outside servers a post may be a direct message itself.
                Box::pin(self.post(channel, owed, Part::Direct(user), told)).await?;
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
}
