//! Channels where Discord refuses Bredon what it needs (a moderator's override, a raid
//! lock-down): the server is told once, in a channel where Bredon can post, and not again until
//! a post goes through there. The games in such a channel go on, clocks running; what Bredon
//! owes it stays in the outbox until it may post again.

use super::*;
use crate::store::records::{Lacking, RefusedChannel};
use crate::store::RefusalNote;

impl Service {
    /// Stores a notice for `guild`, to be posted in `notice_channel` (its system channel), that
    /// Bredon lacks `lacking` in `channel`: the letter and the note in one change, so it is
    /// posted once. The notice's letter (`None` when the server was told as much already), and
    /// what the server has now been told Bredon lacks there.
    pub fn refused_in(
        &self,
        guild: u64,
        channel: u64,
        lacking: Lacking,
        notice_channel: u64,
        now_ms: i64,
    ) -> Result<(Option<u64>, Lacking), Refusal> {
        let told = self
            .store
            .settings(guild)?
            .refused
            .into_iter()
            .find(|r| r.channel == channel && r.lacking >= lacking);
        if let Some(told) = told {
            return Ok((None, told.lacking));
        }
        let ctx = Ctx::of_bredon(guild, notice_channel, now_ms);
        let change = Change {
            refusal: Some(RefusalNote::Refused {
                guild,
                channel,
                lacking,
            }),
            ..Change::default()
        };
        let outcome = Outcome {
            about: Some(channel),
            text: notice(lacking).into(),
            ..Outcome::default()
        };
        Ok((self.commit(&ctx, change, outcome)?.letter, lacking))
    }

    /// A post went through in `channel` (`with_picture`: one with a picture): what the server
    /// was told of it is over, and a new refusal will be told again.
    pub fn allowed_in(&self, guild: u64, channel: u64, with_picture: bool) -> Result<(), Refusal> {
        let change = Change {
            refusal: Some(RefusalNote::Allowed {
                guild,
                channel,
                with_picture,
            }),
            ..Change::default()
        };
        self.durable(&change)
    }

    /// Every channel a server was told Bredon is refused in, with its server.
    pub fn refused_channels(&self) -> Result<Vec<(u64, RefusedChannel)>, Refusal> {
        Ok(self.store.refused_channels()?)
    }
}

/// What the server is told, after the channel's mention.
fn notice(lacking: Lacking) -> &'static str {
    match lacking {
        Lacking::Posting => {
            "Discord no longer lets Bredon post there. Its games there go on and their clocks keep \
             running; every move, reminder and result Bredon owes that channel is kept, and posted \
             as soon as Bredon may post there again (View Channel and Send Messages, or Send \
             Messages in Threads for a thread)."
        }
        Lacking::Files => {
            "Discord no longer lets Bredon attach pictures there (Attach Files), so its games \
             there are announced as text, each board described in words. A moderator can give \
             Bredon Attach Files in that channel to bring the pictures back."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_told_once_until_a_post_goes_through() {
        let dir = tempfile::tempdir().unwrap();
        let s = Service::new(crate::store::Store::open(dir.path()).unwrap());
        let (guild, channel, system) = (1, 10, 11);
        let tell = |lacking, at| s.refused_in(guild, channel, lacking, system, at).unwrap();
        let (first, _) = tell(Lacking::Files, 0);
        assert!(first.is_some(), "told");
        assert_eq!(tell(Lacking::Files, 1), (None, Lacking::Files), "told once");
        let (worse, _) = tell(Lacking::Posting, 2);
        assert!(worse.is_some(), "a worse refusal is told");
        assert_eq!(
            tell(Lacking::Files, 3),
            (None, Lacking::Posting),
            "a lesser one after it is not, and the worse one is what stands"
        );
        let letter = s.store.letter(worse.unwrap()).unwrap().unwrap();
        assert_eq!(letter.channel, system, "told in the system channel");
        s.allowed_in(guild, channel, false).unwrap();
        assert!(s.refused_channels().unwrap().is_empty(), "posting is back");
        tell(Lacking::Files, 4);
        s.allowed_in(guild, channel, false).unwrap();
        assert_eq!(
            s.refused_channels().unwrap(),
            vec![(
                guild,
                RefusedChannel {
                    channel,
                    lacking: Lacking::Files
                }
            )],
            "a post without its picture does not show pictures are back"
        );
        s.allowed_in(guild, channel, true).unwrap();
        assert!(s.refused_channels().unwrap().is_empty());
        assert!(
            tell(Lacking::Files, 5).0.is_some(),
            "a new refusal is told again"
        );
        // A moderator's settings, read before a note and written after it, keep it.
        let read_before = s.store.settings(guild).unwrap();
        tell(Lacking::Posting, 6);
        s.store.put_settings(guild, &read_before).unwrap();
        assert_eq!(
            tell(Lacking::Posting, 7),
            (None, Lacking::Posting),
            "still told"
        );
    }
}
