//! What was played: game records, history, stats, the leaderboard and the live games.

use super::*;

impl Service {
    /// The record of the live game, or of the last finished one, with its PTN Ninja link.
    pub fn ptn(&self, ctx: &Ctx) -> Result<Record, Refusal> {
        let (text, kind) = if let Some(game) = self.store.game(ctx.channel)? {
            let g = Self::rebuild(&game)?;
            (finish::ptn_text(&game.players, &g, ctx.now_ms), g.kind())
        } else if let Some(last) = self.store.last_finished(ctx.channel)? {
            (last.ptn, last.settings.game)
        } else {
            return refuse("there is no game in this channel yet");
        };
        Ok(Record::new(text, kind))
    }

    /// The record of the last finished game in this channel, for analysis. Never a game still
    /// being played: an analysis would help one side.
    pub fn finished_record(&self, ctx: &Ctx) -> Result<String, Refusal> {
        match self.store.last_finished(ctx.channel)? {
            Some(last) => Ok(last.ptn),
            None if self.store.game(ctx.channel)?.is_some() => refuse(
                "the game in this channel is still being played; /analyze works once it has ended",
            ),
            None => {
                refuse("no game has finished in this channel yet: /analyze looks at the last one")
            }
        }
    }

    pub fn history(&self, ctx: &Ctx, user: u64) -> Result<Vec<ArchivedGame>, Refusal> {
        Ok(self
            .store
            .history(user, 50)?
            .into_iter()
            .filter(|g| g.guild == ctx.guild)
            .take(10)
            .collect())
    }

    pub fn stats(&self, ctx: &Ctx, user: &PlayerRef, game: Kind) -> Result<Stats, Refusal> {
        let Some(player) = self.store.player(ctx.guild, user.id, game)? else {
            return refuse(format!(
                "{} has not finished a game of {} in this server yet",
                user.name,
                game.name()
            ));
        };
        let board = self.leaderboard(ctx, game)?;
        let rank = board
            .iter()
            .position(|p| p.user.id == user.id)
            .map(|i| i + 1);
        Ok(Stats { player, rank })
    }

    /// Rated players of the server in one game, best first.
    pub fn leaderboard(&self, ctx: &Ctx, game: Kind) -> Result<Vec<PlayerRecord>, Refusal> {
        let mut players: Vec<PlayerRecord> = self
            .store
            .players(ctx.guild, game)?
            .into_iter()
            .filter(|p| p.rated_games > 0)
            .collect();
        players.sort_by(|a, b| {
            b.rating
                .total_cmp(&a.rating)
                .then(a.user.name.cmp(&b.user.name))
        });
        Ok(players)
    }

    pub fn live_games(&self, ctx: &Ctx) -> Result<Vec<LiveGame>, Refusal> {
        Ok(self.store.live_games(ctx.guild)?)
    }

    /// The server's live games (`player`'s only, if given), most urgent first: the oldest last
    /// ply first.
    pub fn summaries(&self, ctx: &Ctx, player: Option<u64>) -> Result<Vec<Summary>, Refusal> {
        let mut out = Vec::new();
        for game in self.store.live_games(ctx.guild)? {
            if player.is_some_and(|p| game.players.iter().all(|q| q.id != p)) {
                continue;
            }
            let g = Self::rebuild(&game)?;
            out.push(Summary {
                channel: game.channel,
                game: game.settings.game,
                size: game.settings.size,
                plies: game.plies.len(),
                to_move: game.players[g.to_move().index()].clone(),
                last_ply_ms: game.last_ply_ms,
                deadline_ms: game.timeout_due_ms,
                board_message: self.store.board_message(game.channel)?,
                players: game.players,
            });
        }
        out.sort_by_key(|s| (s.last_ply_ms, s.channel));
        Ok(out)
    }

    /// Remembers the newest message showing the board of `channel`'s game (for jump links).
    /// Not flushed: losing it in a crash only loses a link.
    pub fn board_posted(&self, channel: u64, message: u64) -> Result<(), Refusal> {
        Ok(self.store.put_board_message(channel, message)?)
    }

    /// Whether a game is being played in `channel`.
    pub fn has_game(&self, channel: u64) -> Result<bool, Refusal> {
        Ok(self.store.game(channel)?.is_some())
    }

    /// Whether `channel` holds a game or an open challenge (a thread worth keeping open).
    pub fn holds_game_or_challenge(&self, channel: u64) -> Result<bool, Refusal> {
        Ok(self.has_game(channel)? || self.store.challenge(channel)?.is_some())
    }

    /// The server of the game played in `channel` (0 if none is).
    pub fn guild_of(&self, channel: u64) -> Result<u64, Refusal> {
        Ok(self.store.game(channel)?.map_or(0, |g| g.guild))
    }
}

impl Record {
    pub fn new(text: String, kind: Kind) -> Record {
        Record {
            link: (kind == Kind::Tak).then(|| super::finish::ninja_link(&text)),
            file: kind.record_file(),
            text,
        }
    }
}
