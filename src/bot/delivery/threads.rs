//! Threads as Discord keeps them: a thread opened (a create Discord cannot repeat safely: no
//! nonce, and a lost answer may have made one), the look for one an earlier try made (its
//! answer lost), a thread unarchived, and a channel looked at. The one look serves a game's
//! thread (`bot/threads.rs`) and a tournament pairing's (`timers.rs`); what each takes of what
//! it finds is its own.

use crate::bot::data::Publisher;
use poise::serenity_prelude as serenity;
use std::future::Future;

/// A thread Bredon wants: named `name`, under channel `home` of server `guild`.
#[derive(Clone, Copy, Debug)]
pub struct WantedThread<'a> {
    pub guild: u64,
    pub home: u64,
    pub name: &'a str,
    /// A public thread, or an announcement channel's.
    pub kind: serenity::ChannelType,
}

/// A thread of the wanted name and home, as a look at the server's active threads saw it.
#[derive(Clone, Copy, Debug)]
pub struct MadeThread {
    pub id: u64,
    /// Opened by Bredon and never posted in: one a try made and left before its first post
    /// (its answer lost, or its game refused).
    pub empty_and_bredons: bool,
}

/// A thread as Bredon found it.
#[derive(Clone, Copy, Debug)]
pub struct ThreadState {
    pub id: u64,
    pub archived: bool,
    /// Locked by a moderator: only they may unarchive it.
    pub locked: bool,
}

impl ThreadState {
    /// What a channel from the gateway or a look says of itself as a thread; `None` for a
    /// channel that is no thread.
    pub fn of(channel: &serenity::GuildChannel) -> Option<ThreadState> {
        let meta = channel.thread_metadata?;
        Some(ThreadState {
            id: channel.id.get(),
            archived: meta.archived,
            locked: meta.locked,
        })
    }
}

/// How much earlier than a create's request a thread it made may say it was made (the clocks
/// of Bredon and Discord).
const CLOCKS_APART_MS: i64 = 5_000;

impl Publisher {
    /// Opens `wanted`, archived after a week without messages. A create whose answer was lost
    /// (`Failure::Uncertain`) is looked for once among the threads made since it was asked,
    /// and the newest that `fits` is taken; the error stands if none does.
    pub async fn open_thread<F: Future<Output = bool>>(
        &self,
        wanted: &WantedThread<'_>,
        fits: impl Fn(MadeThread) -> F,
    ) -> serenity::Result<u64> {
        let asked_ms = crate::clock::now_ms();
        let create = serenity::CreateThread::new(wanted.name)
            .kind(wanted.kind)
            .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
        let home = serenity::ChannelId::new(wanted.home);
        let error = match home.create_thread(&self.http, create).await {
            Ok(thread) => return Ok(thread.id.get()),
            Err(e) => e,
        };
        if super::failure::classify(&error) != super::failure::Failure::Uncertain {
            return Err(error);
        }
        match self
            .thread_made(wanted, asked_ms - CLOCKS_APART_MS, fits)
            .await
        {
            Ok(Some(thread)) => {
                tracing::info!(thread, "a thread whose create's answer was lost is found");
                Ok(thread)
            }
            _ => Err(error),
        }
    }

    /// The newest active thread of `wanted`'s name under its home made since `since_ms` that
    /// `fits`: one an earlier try made though its answer was lost, or left.
    pub async fn thread_made<F: Future<Output = bool>>(
        &self,
        wanted: &WantedThread<'_>,
        since_ms: i64,
        fits: impl Fn(MadeThread) -> F,
    ) -> serenity::Result<Option<u64>> {
        for made in self.threads_made(wanted, since_ms).await? {
            if fits(made).await {
                return Ok(Some(made.id));
            }
        }
        Ok(None)
    }

    /// The active threads of `wanted`'s name under its home made since `since_ms`, newest
    /// first (resources/guild, "List Active Guild Threads": ordered by id, descending).
    async fn threads_made(
        &self,
        wanted: &WantedThread<'_>,
        since_ms: i64,
    ) -> serenity::Result<Vec<MadeThread>> {
        let active = serenity::GuildId::new(wanted.guild)
            .get_active_threads(&self.http)
            .await?;
        let Ok(since) = serenity::Timestamp::from_millis(since_ms) else {
            return Ok(Vec::new());
        };
        let me = self.engine.me.id;
        Ok(active
            .threads
            .into_iter()
            .filter(|t| {
                t.parent_id.map(|c| c.get()) == Some(wanted.home)
                    && t.name == wanted.name
                    && *t.id.created_at() >= *since
            })
            .map(|t| MadeThread {
                id: t.id.get(),
                empty_and_bredons: t.owner_id.map(|o| o.get()) == Some(me)
                    && t.last_message_id.is_none()
                    && t.message_count.unwrap_or(0) == 0,
            })
            .collect())
    }

    /// Unarchives `thread`.
    pub async fn unarchive(&self, thread: u64) -> serenity::Result<()> {
        let open = serenity::EditThread::new().archived(false);
        serenity::ChannelId::new(thread)
            .edit_thread(&self.http, open)
            .await?;
        Ok(())
    }

    /// `channel` as Discord shows it now: a thread's state, or `None` for another channel.
    pub async fn look_at_thread(&self, channel: u64) -> serenity::Result<Option<ThreadState>> {
        let found = serenity::ChannelId::new(channel)
            .to_channel(&self.http)
            .await?;
        Ok(match found {
            serenity::Channel::Guild(channel) => ThreadState::of(&channel),
            _ => None,
        })
    }
}
