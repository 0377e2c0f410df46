//! The daily digest (`/notify digest:`): one direct message a day, during the player's hour
//! (UTC), listing every game where it is their move. The day's record is stored with its letter
//! (a second of one day is a conflict), so it is sent once across processes and restarts; a
//! day with no game waiting sends nothing.

use super::*;
use crate::store::DigestSent;

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;

impl Service {
    /// The digests due at `now_ms`, each stored with its letter.
    pub(super) fn digests(&self, now_ms: i64) -> Result<Vec<TimerEvent>, Refusal> {
        let hour = now_ms.div_euclid(HOUR_MS).rem_euclid(24);
        let day = now_ms.div_euclid(DAY_MS);
        // Looked at every minute of the hour: those already sent today cost no game read.
        let mut readers = Vec::new();
        for (user, prefs) in self.store.digest_readers()? {
            let sent = self
                .store
                .last_digest(user)?
                .is_some_and(|last| last >= day);
            if prefs.digest_hour.map(i64::from) == Some(hour) && !sent {
                readers.push(user);
            }
        }
        if readers.is_empty() {
            return Ok(Vec::new());
        }
        let waiting = self.waiting_games()?;
        let mut events = Vec::new();
        for user in readers {
            let mine: Vec<&(PlayerRef, DigestGame)> =
                waiting.iter().filter(|(p, _)| p.id == user).collect();
            let Some((player, first)) = mine.first().map(|(p, g)| (p.clone(), g.clone())) else {
                continue;
            };
            let outcome = Outcome {
                text: format!(
                    "Daily digest: your move in {}.",
                    crate::words::count(mine.len() as u64, "game")
                ),
                direct: vec![player],
                digest: mine.into_iter().map(|(_, g)| g.clone()).collect(),
                ..Outcome::default()
            };
            let change = Change {
                digest: Some(DigestSent { user, day }),
                ..Change::default()
            };
            // The letter waits in a queue of its reader's (the reader's id stands for it:
            // Discord's ids are unique across users and channels), not behind a game channel's
            // messages, which a channel Bredon can no longer see would hold for good. A reader
            // whose direct messages are closed is told so in the longest-waiting game's channel.
            let ctx = Ctx::of_bredon(first.guild, user, now_ms);
            // A conflict: another process sent today's digest first.
            if let Ok(outcome) = self.commit(&ctx, change, outcome) {
                events.push(TimerEvent {
                    guild: first.guild,
                    channel: user,
                    outcome,
                });
            }
        }
        Ok(events)
    }

    /// Every live game with the player whose move it is, the longest waiting first.
    fn waiting_games(&self) -> Result<Vec<(PlayerRef, DigestGame)>, Refusal> {
        let mut waiting = Vec::new();
        for game in self.store.all_live_games()? {
            let g = Self::rebuild(&game)?;
            if g.result().is_some() {
                continue;
            }
            let to_move = g.to_move();
            let line = DigestGame {
                guild: game.guild,
                channel: game.channel,
                opponent: game.players[to_move.opponent().index()].name.clone(),
                last_ply: game.plies.last().cloned(),
                since_ms: game.last_ply_ms,
                deadline_ms: game.timeout_due_ms,
                board_message: self.store.board_message(game.channel)?,
            };
            waiting.push((game.players[to_move.index()].clone(), line));
        }
        waiting.sort_by_key(|(_, g)| (g.since_ms, g.channel));
        Ok(waiting)
    }
}
