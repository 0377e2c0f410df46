//! What was played: game records, history, stats, the leaderboard and the live games.

use super::analysis::ToAnalyse;
use super::*;
use crate::ratings;
use crate::tak::PtnFile;

impl Service {
    /// The record of finished game `id` of this server, or else of the live game, or of the
    /// last finished one, with its PTN Ninja link.
    pub fn ptn(&self, ctx: &Ctx, id: Option<u64>) -> Result<Record, Refusal> {
        let (text, kind) = if let Some(id) = id {
            let game = self.archived_here(ctx, id)?;
            (game.ptn, game.settings.game)
        } else if let Some(game) = self.store.game(ctx.channel)? {
            let g = Self::rebuild(&game)?;
            (finish::ptn_text(&game.players, &g, ctx.now_ms), g.kind())
        } else if let Some(last) = self.store.last_finished(ctx.channel)? {
            (last.ptn, last.settings.game)
        } else {
            return refuse("there is no game in this channel yet: /history lists finished games with their numbers, for `game:`");
        };
        Ok(Record::new(text, kind))
    }

    /// Finished game `id` of this server, or the last finished game in this channel, for
    /// analysis. Never a game still being played: an analysis would help one side.
    pub fn finished_record(&self, ctx: &Ctx, id: Option<u64>) -> Result<ToAnalyse, Refusal> {
        let game =
            match id {
                Some(id) => self.archived_here(ctx, id)?,
                None => match self.store.last_finished(ctx.channel)? {
                    Some(last) => last,
                    None if self.store.game(ctx.channel)?.is_some() => return refuse(
                        "the game in this channel is still being played; /analyze works once it \
                         has ended (or name a finished one with `game:`, as /history numbers them)",
                    ),
                    None => {
                        return refuse(
                            "no game has finished in this channel yet: /analyze looks at the last \
                         one, or at the one `game:` names (/history numbers them)",
                        )
                    }
                },
            };
        Ok(ToAnalyse {
            game: game.id,
            record: game.ptn,
        })
    }

    /// A Tak game's record from elsewhere (a PlayTak game's PTN) titled `title`: its final
    /// board, or its position after `ply` plies, in this server's theme.
    pub fn view_record(
        &self,
        ctx: &Ctx,
        title: &str,
        record: &str,
        ply: Option<usize>,
    ) -> Result<Outcome, Refusal> {
        let unreadable = |e: String| Refusal(format!("{title} cannot be read: {e}"));
        let file = PtnFile::parse(record).map_err(|e| unreadable(e.to_string()))?;
        let game = file.replay().map_err(|e| unreadable(e.to_string()))?;
        // Players from elsewhere have no account here (id 0): the board shows their names.
        let player = |n: u8, seat: &str| PlayerRef {
            id: 0,
            name: file.tag(&format!("Player{n}")).unwrap_or(seat).to_string(),
        };
        let players = [player(1, "White"), player(2, "Black")];
        let names = [players[0].name.as_str(), players[1].name.as_str()];
        let board = Kind::Tak.board(game.position().size());
        let lead = format!("{title}, {} vs {}, Tak on {board}", names[0], names[1]);
        let komi = game.start().setup().komi;
        let result = game.result();
        let (shown, after) = Self::at_ply(Match::Tak(game), ply, names)?;
        let text = match (after, result) {
            (Some(after), _) => format!("{lead}, {after}."),
            (None, Some(r)) => format!("{lead}: {} ({}).", r.describe_with(komi, names), r.ptn()),
            (None, None) => format!("{lead}: its record gives no result."),
        };
        let settings = self.store.settings(ctx.guild)?;
        Ok(Outcome {
            text,
            board: Some(Board::of(
                &shown,
                players.clone(),
                settings.theme,
                None,
                settings.display,
            )),
            ..Outcome::default()
        })
    }

    /// `g` as it stood after `ply` plies, with the words saying so; `g` itself, and no words,
    /// at its end (no `ply`, or all of them).
    pub(super) fn at_ply(
        g: Match,
        ply: Option<usize>,
        names: [&str; 2],
    ) -> Result<(Match, Option<String>), Refusal> {
        let total = g.ply_count();
        match ply {
            None => Ok((g, None)),
            Some(n) if n == total => Ok((g, None)),
            Some(n) if n > total => refuse(format!(
                "the game ends after ply {total}: `ply:` goes from 0 (the start) to {total}"
            )),
            Some(n) => {
                let cut = g.after(n).map_err(Refusal)?;
                let to_move = names[cut.to_move().index()];
                Ok((
                    cut,
                    Some(format!("after ply {n} of {total}: {to_move} to move")),
                ))
            }
        }
    }

    /// The finished game of this server a player names by `typed`: the server's game of that
    /// number, or else (the server has no game of that number) the game whose id it is, as
    /// numbers were shown before servers numbered their games.
    pub(super) fn archived_here(&self, ctx: &Ctx, typed: u64) -> Result<ArchivedGame, Refusal> {
        let numbered = self.store.numbered_game(ctx.guild, typed)?;
        match self.store.archived(numbered.unwrap_or(typed))? {
            Some(game) if game.guild == ctx.guild => Ok(game),
            _ if numbered.is_some() => refuse(format!(
                "game #{typed} of this server has not finished yet: `game:` names a finished \
                 game (/history lists them; /games shows the games being played)"
            )),
            _ => refuse(format!(
                "there is no finished game #{typed} in this server: /history lists the games \
                 played here with their numbers"
            )),
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

    /// A player's record on every board size of `game` they have finished a game on.
    pub fn stats(&self, ctx: &Ctx, user: &PlayerRef, game: Kind) -> Result<Vec<Stats>, Refusal> {
        let everyone = self.store.players(ctx.guild, game)?;
        // Keys sort by player, then size: the user's records come smallest first.
        let records: Vec<PlayerRecord> = everyone
            .iter()
            .filter(|p| p.user.id == user.id)
            .cloned()
            .collect();
        if records.is_empty() {
            return refuse(format!(
                "{} has not finished a game of {} in this server yet",
                user.name,
                game.name()
            ));
        }
        Ok(records
            .into_iter()
            .map(|player| {
                let rank = ranked(&everyone, player.size)
                    .iter()
                    .position(|p| p.user.id == player.user.id)
                    .map(|i| i + 1);
                Stats { player, rank }
            })
            .collect())
    }

    /// Rated players of the server in one game on one board size: `size`, or else the size
    /// the asker has played most here (rated games first, then all), or else the server's.
    pub fn leaderboard(
        &self,
        ctx: &Ctx,
        game: Kind,
        size: Option<usize>,
    ) -> Result<Leaderboard, Refusal> {
        let everyone = self.store.players(ctx.guild, game)?;
        let (size, askers_size) = match size {
            Some(size) => (size, false),
            None => match most_played(&everyone, ctx.user.id) {
                Some(size) => (size, true),
                None => (
                    Some(game.default_size(self.store.settings(ctx.guild)?.size))
                        .filter(|&s| ratings::rated_size(game, s))
                        .unwrap_or(6),
                    false,
                ),
            },
        };
        if !ratings::rated_size(game, size) {
            return refuse(format!(
                "{size}x{size} games are never rated, so they have no leaderboard: ask for a \
                 size from {0}x{0} up",
                ratings::SMALLEST_RATED_TAK
            ));
        }
        let mut other_sizes: Vec<usize> = everyone
            .iter()
            .filter(|p| p.rated_games > 0 && p.size != size)
            .map(|p| p.size)
            .collect();
        other_sizes.sort_unstable();
        other_sizes.dedup();
        Ok(Leaderboard {
            game,
            size,
            askers_size,
            players: ranked(&everyone, size),
            other_sizes,
        })
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
            let (notes, newest_note) = match player {
                Some(p) => self.notes_on(&game, p)?,
                None => (0, None),
            };
            out.push(Summary {
                number: game.shown_number(),
                channel: game.channel,
                game: game.settings.game,
                size: game.settings.size,
                plies: game.plies.len(),
                to_move: game.players[g.to_move().index()].clone(),
                last_ply_ms: game.last_ply_ms,
                deadline_ms: game.timeout_due_ms,
                board_message: self.store.board_message(game.channel)?,
                players: game.players,
                notes,
                newest_note,
            });
        }
        out.sort_by_key(|s| (s.last_ply_ms, s.channel));
        Ok(out)
    }

    /// Remembers the newest message showing the board of `channel`'s game (for jump links).
    /// Not flushed: losing it in a crash only loses a link.
    pub(in crate::service) fn board_posted(
        &self,
        channel: u64,
        message: u64,
    ) -> Result<(), Refusal> {
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
}

/// The players rated on `size`, best first.
/// The rated size `user` has played most (rated games first, then all games; the larger size
/// on a tie), if any.
fn most_played(everyone: &[PlayerRecord], user: u64) -> Option<usize> {
    everyone
        .iter()
        .filter(|p| p.user.id == user && ratings::rated_size(p.game, p.size))
        .filter(|p| p.rated_games + p.wins + p.losses + p.draws > 0)
        .max_by_key(|p| (p.rated_games, p.wins + p.losses + p.draws, p.size))
        .map(|p| p.size)
}

pub(super) fn ranked(everyone: &[PlayerRecord], size: usize) -> Vec<PlayerRecord> {
    let mut players: Vec<PlayerRecord> = everyone
        .iter()
        .filter(|p| p.size == size && p.rated_games > 0)
        .cloned()
        .collect();
    players.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then(a.user.name.cmp(&b.user.name))
    });
    players
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
