//! Channels where Discord refuses Bredon (a permission taken away): the server is told once, in
//! its system channel, through the outbox (`Service::refused_in` stores the notice with the
//! note that it was told); a post that goes through there again ends it, so a later refusal is
//! told again. What this process knows is kept in `Publisher::refused`, so a post costs no read
//! of the store.

use crate::bot::blocking::in_store;
use crate::bot::data::Publisher;
use crate::clock::now_ms;
use crate::store::records::Lacking;
use poise::serenity_prelude as serenity;

impl Publisher {
    /// Discord refused Bredon `lacking` in `channel` of `guild` (0: no server, a DM).
    pub(super) async fn refused(&self, guild: u64, channel: u64, lacking: Lacking) {
        if guild == 0 || self.known_refusal(channel).is_some_and(|l| l >= lacking) {
            return;
        }
        // The server as the gateway told it; one this process has not heard of (another
        // process's shard, or not yet in after a start) is told at a later refusal.
        let Some(system) = self
            .cache
            .guild(serenity::GuildId::new(guild))
            .map(|g| g.system_channel_id.map(|c| c.get()))
        else {
            tracing::debug!(
                guild,
                channel,
                "a refusal in a server this process has not heard of"
            );
            return;
        };
        let Some(system) = system.filter(|&c| c != channel) else {
            tracing::warn!(
                guild,
                channel,
                ?lacking,
                "Discord refuses Bredon in a channel, and the server has no system channel where Bredon could say so"
            );
            self.remember_refusal(channel, Some(lacking));
            return;
        };
        let told = in_store(&self.service, move |s| {
            s.refused_in(guild, channel, lacking, system, now_ms())
        })
        .await;
        match told {
            Ok(Ok((letter, stands))) => {
                self.claims.release(&Vec::from_iter(letter));
                self.remember_refusal(channel, Some(stands));
            }
            // Another process told it at the same moment (a conflict), or the store failed:
            // the next refusal looks again.
            Ok(Err(why)) => tracing::info!(guild, channel, %why, "a refusal was not noted"),
            Err(e) => tracing::warn!(guild, channel, error = %e, "a refusal was not noted"),
        }
    }

    /// A post went through in `channel` (`with_picture`: with its picture): what the server was
    /// told of it is over.
    pub(super) async fn went_through(&self, guild: u64, channel: u64, with_picture: bool) {
        let ends = match self.known_refusal(channel) {
            Some(Lacking::Posting) => true,
            Some(Lacking::Files) => with_picture,
            None => false,
        };
        if !ends || guild == 0 {
            return;
        }
        let noted = in_store(&self.service, move |s| {
            s.allowed_in(guild, channel, with_picture)
        })
        .await;
        if matches!(noted, Ok(Ok(()))) {
            tracing::info!(channel, with_picture, "Bredon may post there again");
            let left = (!with_picture).then_some(Lacking::Files);
            let left = left.filter(|_| self.known_refusal(channel) == Some(Lacking::Files));
            self.remember_refusal(channel, left);
        }
    }

    /// What the store says the servers were told, for this process to go by: read at start and
    /// again now and then, since processes sharing a store tell and clear refusals apart.
    pub(super) async fn reload_refusals(&self) {
        if let Ok(Ok(all)) = in_store(&self.service, |s| s.refused_channels()).await {
            *self.refused.lock().expect("refused channels") = all
                .into_iter()
                .map(|(_, r)| (r.channel, r.lacking))
                .collect();
        }
    }

    pub(super) fn known_refusal(&self, channel: u64) -> Option<Lacking> {
        self.refused
            .lock()
            .expect("refused channels")
            .get(&channel)
            .copied()
    }

    fn remember_refusal(&self, channel: u64, lacking: Option<Lacking>) {
        let mut known = self.refused.lock().expect("refused channels");
        match lacking {
            Some(l) => known.insert(channel, l),
            None => known.remove(&channel),
        };
    }
}
