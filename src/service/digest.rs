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
        let readers: Vec<u64> = self
            .store
            .digest_readers()?
            .into_iter()
            .filter(|(_, prefs)| prefs.digest_hour.map(i64::from) == Some(hour))
            .map(|(user, _)| user)
            .collect();
        if readers.is_empty() {
            return Ok(Vec::new());
        }
        let games = self.store.all_live_games()?;
        let mut events = Vec::new();
        for user in readers {
            if self
                .store
                .last_digest(user)?
                .is_some_and(|last| last >= day)
            {
                continue;
            }
            let waiting = self.waiting_for(user, &games)?;
            let Some((player, first)) = waiting.first().map(|(p, g)| (p.clone(), g.clone())) else {
                continue;
            };
            let outcome = Outcome {
                text: format!(
                    "Daily digest: your move in {}.",
                    crate::words::count(waiting.len() as u64, "game")
                ),
                direct: vec![player],
                digest: waiting.into_iter().map(|(_, g)| g).collect(),
                ..Outcome::default()
            };
            let change = Change {
                digest: Some(DigestSent { user, day }),
                ..Change::default()
            };
            // The letter waits in the channel of the longest-waiting game (where a player
            // whose direct messages are closed is told so).
            let ctx = Ctx::of_bredon(first.guild, first.channel, now_ms);
            // A conflict: another process sent today's digest first.
            if let Ok(outcome) = self.commit(&ctx, change, outcome) {
                events.push(TimerEvent {
                    guild: first.guild,
                    channel: first.channel,
                    outcome,
                });
            }
        }
        Ok(events)
    }

    /// The games among `games` where it is `user`'s move, the longest waiting first, with the
    /// player as those games name them.
    fn waiting_for(
        &self,
        user: u64,
        games: &[LiveGame],
    ) -> Result<Vec<(PlayerRef, DigestGame)>, Refusal> {
        let mut waiting = Vec::new();
        for game in games {
            let g = Self::rebuild(game)?;
            let to_move = g.to_move();
            if game.players[to_move.index()].id != user || g.result().is_some() {
                continue;
            }
            let opponent = &game.players[to_move.opponent().index()];
            let line = DigestGame {
                guild: game.guild,
                channel: game.channel,
                opponent: opponent.name.clone(),
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
