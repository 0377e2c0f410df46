//! Playing: plies, the legal plies and their labels, the board, resignation and abort (the
//! questions a player puts to the other, undo and draw, are `requests.rs`).

use super::settings::WebPage;
use super::*;
use crate::game::Played;

impl Service {
    /// A message typed in a channel, read as a ply where the server allows it: played if it is
    /// written as a ply of the channel's game by the player to move (a refusal says why it
    /// cannot be played); anything else is talk, and `None`.
    pub fn typed_ply(&self, ctx: &Ctx, text: &str) -> Result<Option<Outcome>, Refusal> {
        let text = text.trim();
        if !self.store.settings(ctx.guild)?.typed_plies {
            return Ok(None);
        }
        let Some(game) = self.store.game(ctx.channel)? else {
            return Ok(None);
        };
        let g = Self::rebuild(&game)?;
        let to_move = &game.players[g.to_move().index()];
        if to_move.id != ctx.user.id || !reads_as_ply(game.settings.game, text) {
            return Ok(None);
        }
        self.play(ctx, text).map(Some)
    }

    /// A ply in this channel's game, or in the player's puzzle where they play none here.
    pub fn play(&self, ctx: &Ctx, text: &str) -> Result<Outcome, Refusal> {
        self.play_then(ctx, text, None, |_| ())
    }

    /// `play`, keeping `line` (conditional plies from the position after it, as `/premove`
    /// takes them) in the same change: the Move form's second field. `tell_private` learns,
    /// before Bredon's reply, whether the answer is for the player alone (a private puzzle's),
    /// so that a slow answer can be deferred where it will be.
    pub fn play_then(
        &self,
        ctx: &Ctx,
        text: &str,
        line: Option<&str>,
        tell_private: impl FnOnce(bool),
    ) -> Result<Outcome, Refusal> {
        let puzzle = self.plays_puzzle(ctx)?;
        tell_private(puzzle.as_ref().is_some_and(|a| a.seat.is_private()));
        if let Some(attempt) = puzzle {
            return self.puzzle_ply(ctx, attempt, text);
        }
        let mut game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        Self::refuse_while_bidding(&game)?;
        let mut g = Self::rebuild(&game)?;
        let to_move = g.to_move();
        if seat != to_move {
            return refuse(format!(
                "it is {}'s turn, not yours",
                game.players[to_move.index()].name
            ));
        }
        let mover = game.players[seat.index()].clone();
        let coins = self.before_ply(&mut game, &mover)?;
        let played = g.play(text).map_err(Refusal)?;
        let mut text = Self::record_ply(&mut game, &played, &mover.name, ctx.now_ms);
        let mut outcome = Outcome {
            tak: played.tak,
            tinue: played.tinue,
            ..Outcome::default()
        };
        if coins.lines.iter().any(|m| m.user == mover.id) {
            text.push_str(&format!(
                " ({} paid {TAK_FEE} coins for the Tak.)",
                mover.name
            ));
        }
        if played.tak && g.result().is_none() {
            if let Some(fee) = Self::after_tak(&mut game, &mover) {
                text.push(' ');
                text.push_str(&fee);
            }
        }
        if let (Some(line), None) = (line.filter(|l| !l.trim().is_empty()), g.result()) {
            // The ply and its line are one change: a refused line leaves the ply unplayed too.
            let kept = Self::lines_after_ply(&mut game, &g, mover.id, line).map_err(|why| {
                Refusal(format!(
                    "{} was not played, as the line given with it was refused: {}",
                    played.text, why.0
                ))
            })?;
            outcome.aside = Some(kept);
        }
        // Each answer may be foreseen in turn by the other player's lines.
        let mut last = played.text;
        while g.result().is_none() {
            let answer = Self::conditional_answer(&mut game, &mut g, &last, ctx.now_ms);
            let Some((sentence, answer)) = answer else {
                break;
            };
            outcome.tak = answer.tak;
            outcome.tinue = answer.tinue;
            text.push(' ');
            text.push_str(&sentence);
            last = answer.text;
        }
        let next = game.players[g.to_move().index()].id;
        self.set_timers(&mut game, next, ctx.now_ms)?;
        if let Some(result) = g.result() {
            let (finished, change) =
                self.finish(ctx, game.clone(), &g, result, game.seq, coins.changes)?;
            text.push(' ');
            text.push_str(&finished.reason);
            outcome.finished = Some(finished);
            outcome.tournament = game.fixture.map(|f| f.tournament);
            outcome.ping = game.players.to_vec();
            outcome.prompt = Self::rematch_prompt(&game);
            outcome.text = text;
            outcome.board = Some(Self::board(&game, g, ctx.now_ms));
            outcome.page = self.web_path(game.guild, WebPage::Game(game.shown_number()))?;
            return self.commit(ctx, change, outcome);
        }
        self.update_announcing(ctx, &mut game, coins.changes, |game| {
            let next = game.players[g.to_move().index()].clone();
            text.push_str(&format!(" {} to move.", next.name));
            outcome.direct = self.wants_direct(&next)?;
            outcome.ping = vec![next];
            outcome.deadline_ms = game.timeout_due_ms;
            outcome.prompt = Self::board_prompt(game);
            outcome.text = text;
            outcome.board = Self::shown(game, g, ctx.now_ms);
            Ok(outcome)
        })
    }

    /// Adds `played` to `game`'s record (open requests lapse with it): "alice played c3. Tak!".
    fn record_ply(game: &mut LiveGame, played: &Played, mover: &str, now_ms: i64) -> String {
        // Plies from before times were kept count as unknown (0).
        game.ply_ms.resize(game.plies.len(), 0);
        game.plies.push(played.text.clone());
        game.ply_ms.push(now_ms);
        game.last_ply_ms = now_ms;
        game.undo_request = None;
        game.draw_offer = None;
        let mut text = format!("{mover} played {}.", played.text);
        if played.tinue {
            text.push_str(" Tinuë!");
        } else if played.tak {
            text.push_str(" Tak!");
        }
        for note in &played.notes {
            text.push_str(&format!(" {note}!"));
        }
        text
    }

    /// The answer the player now to move left for the opponent's `played`, played at once
    /// (`None` if no line foresaw it; the lines that did not are dropped).
    fn conditional_answer(
        game: &mut LiveGame,
        g: &mut Match,
        played: &str,
        now_ms: i64,
    ) -> Option<(String, Played)> {
        let owner = game.players[g.to_move().index()].clone();
        let answer = conditional::follow(&mut game.conditional, owner.id, played)?;
        let Ok(answered) = g.play(&answer) else {
            // A line is checked when set and the position moves only along it; should one
            // still fail, nothing is played for the owner.
            game.conditional.clear();
            return None;
        };
        let sentence = Self::record_ply(game, &answered, &owner.name, now_ms).replacen(
            " played ",
            " answered with a conditional ply: ",
            1,
        );
        Some((sentence, answered))
    }

    /// The plies offered while `ctx.user` types `/move`, as (label, ply): their puzzle's where
    /// they play one here, else the channel's game's; `rank` picks and orders them.
    pub fn ply_choices(
        &self,
        ctx: &Ctx,
        rank: impl FnOnce(Vec<String>) -> Vec<String>,
    ) -> Result<Vec<(String, String)>, Refusal> {
        if let Some(game) = self.puzzle_match(ctx)? {
            let plies = rank(game.legal_plies());
            return Ok(plies.into_iter().map(|p| (game.label(&p), p)).collect());
        }
        let plies = rank(self.legal_plies(ctx.channel)?);
        let labels = self.label_plies(ctx.channel, &plies)?;
        Ok(labels.into_iter().zip(plies).collect())
    }

    /// The legal plies for the player to move, in canonical PTN (for autocomplete).
    pub fn legal_plies(&self, channel: u64) -> Result<Vec<String>, Refusal> {
        let Some(game) = self.store.game(channel)? else {
            return Ok(Vec::new());
        };
        if game.settings.blind {
            return refuse("this is a blind game: the legal plies would give the board away");
        }
        Ok(Self::rebuild(&game)?.legal_plies())
    }

    /// Labels for plies offered as choices: what each does in words, and whether it wins,
    /// makes Tak or Tinuë ("2c3>11 — two from c3 right, dropping 1, 1 (Tak!)"), at most 100
    /// characters (Discord's limit for a choice's name).
    pub fn label_plies(&self, channel: u64, plies: &[String]) -> Result<Vec<String>, Refusal> {
        let Some(game) = self.store.game(channel)? else {
            return Ok(plies.to_vec());
        };
        let g = Self::rebuild(&game)?;
        Ok(plies.iter().map(|text| g.label(text)).collect())
    }

    /// The final board of finished game `id` of this server, or its position after `ply` plies.
    pub fn view_finished(
        &self,
        ctx: &Ctx,
        id: u64,
        ply: Option<usize>,
    ) -> Result<Outcome, Refusal> {
        let game = self.archived_here(ctx, id)?;
        let names = [game.players[0].name.as_str(), game.players[1].name.as_str()];
        let lead = format!(
            "Game #{}, {} vs {}, {} on {}",
            game.shown_number(),
            names[0],
            names[1],
            game.settings.game.name(),
            game.settings.game.board(game.settings.size)
        );
        self.finished_view(&game, &lead, ply)
    }

    /// `lead`, how `game` ended, and its final board; or, with `ply`, its position then.
    fn finished_view(
        &self,
        game: &ArchivedGame,
        lead: &str,
        ply: Option<usize>,
    ) -> Result<Outcome, Refusal> {
        let g = Match::from_record(&game.ptn).map_err(Refusal)?;
        let names = [game.players[0].name.as_str(), game.players[1].name.as_str()];
        let (shown, after) = Self::at_ply(g, ply, names)?;
        let text = match after {
            Some(after) => format!("{lead}, {after}."),
            None => format!(
                "{lead}: {} ({}).",
                game.result.describe_with(game.settings.komi, names),
                game.result.code()
            ),
        };
        Ok(Outcome {
            text,
            board: Some(Board::of(
                &shown,
                game.players.clone(),
                game.settings.theme.clone(),
                None,
                game.settings.display,
            )),
            page: self
                .web_path(game.guild, WebPage::Game(game.shown_number()))?
                .map(|path| match ply {
                    Some(ply) => format!("{path}?ply={ply}"),
                    None => path,
                }),
            ..Outcome::default()
        })
    }

    pub fn view(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        if let Some(game) = self.store.game(ctx.channel)? {
            let g = Self::rebuild(&game)?;
            let to_move = &game.players[g.to_move().index()];
            let mut text = format!(
                "{} (White) vs {} (Black), {}, move {}. {} to move.",
                game.players[0].name,
                game.players[1].name,
                game.settings.game.name(),
                g.move_number(),
                to_move.name
            );
            if let Some(u) = game.undo_request {
                text.push_str(&format!(
                    " {} asked to undo the last ply.",
                    name_of(&game.players, u)
                ));
            }
            if let Some(u) = game.draw_offer {
                text.push_str(&format!(" {} offers a draw.", name_of(&game.players, u)));
            }
            if game.settings.blind {
                let ptn = g.record(&[]);
                let movetext = ptn
                    .split_once("\n\n")
                    .map_or(String::new(), |(_, m)| m.trim().replace('\n', " "));
                text.push_str(&format!(
                    " A blind game, so no picture; the plies so far: {}",
                    if movetext.is_empty() {
                        "none"
                    } else {
                        &movetext
                    }
                ));
            }
            return Ok(Outcome {
                text,
                deadline_ms: game.timeout_due_ms,
                prompt: Self::board_prompt(&game),
                board: Self::shown(&game, g, ctx.now_ms),
                page: self.web_path(game.guild, WebPage::Game(game.shown_number()))?,
                ..Outcome::default()
            });
        }
        if let Some(last) = self.store.last_finished(ctx.channel)? {
            return self.finished_view(&last, "No game is running here. The last one", None);
        }
        refuse("there is no game in this channel: start one with /challenge")
    }

    /// Refuses a button of an older board, or one pressed by someone not playing.
    /// Checks that `prompt` is the newest board and `ctx`'s user plays on it; which game it is.
    pub fn check_board(&self, ctx: &Ctx, prompt: Prompt) -> Result<Kind, Refusal> {
        if let Prompt::Puzzle { puzzle, seq } = prompt {
            return match self.puzzle_asks(ctx, puzzle, seq)? {
                true => Ok(Kind::Tak),
                false => refuse(
                    "this puzzle board is no longer the latest (or the puzzle is not yours); use \
                     the newest one, or /move, /puzzle hint and /puzzle give_up",
                ),
            };
        }
        let Prompt::Board { game, position } = prompt else {
            return refuse("that button does not belong to a board");
        };
        let live = self.store.game(ctx.channel)?;
        let Some(live) = live.filter(|g| g.id == game && fingerprint(&g.plies) == position) else {
            return refuse(
                "this board is no longer the latest; use the buttons under the newest board, or /board",
            );
        };
        Self::player_seat(&live, ctx).map(|_| live.settings.game)
    }

    pub fn resign(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        let g = Self::rebuild(&game)?;
        self.decided(
            ctx,
            game,
            g,
            Decision::Resignation {
                winner: seat.opponent(),
            },
        )
    }

    /// A moderator ends a game without result.
    /// A game ended without a result: by a moderator at any time, or by either player alone
    /// before the first ply (a challenge accepted by mistake costs nothing).
    pub fn abort(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let game = self.live(ctx)?;
        let player = Self::player_seat(&game, ctx).is_ok();
        let may_abort = ctx.moderator || (player && game.plies.is_empty());
        if !may_abort {
            return refuse(if player {
                "the first ply has been played, so the game can no longer be aborted by a player: \
                 /resign, or offer a /draw (a server moderator can still abort it)"
            } else {
                "only the game's players (before the first ply) or a server moderator (Manage \
                 Messages) can abort a game"
            });
        }
        if game.fixture.is_some() {
            return refuse("this is a tournament game: a moderator can withdraw a player (/tournament withdraw) or cancel the whole tournament (/tournament cancel), not abort one game");
        }
        let g = Self::rebuild(&game)?;
        self.decided(ctx, game, g, Decision::Abandoned)
    }
}

/// Whether a typed message is written as a ply of `game` (rather than talk): Tak's PTN, or
/// Takat's circle (`b1`) and move (`a1-b2`).
fn reads_as_ply(game: Kind, text: &str) -> bool {
    let circle = |t: &str| {
        let mut chars = t.chars();
        chars.next().is_some_and(|c| c.is_ascii_lowercase())
            && !chars.as_str().is_empty()
            && chars.all(|c| c.is_ascii_digit())
    };
    match game {
        Kind::Tak => crate::tak::Ply::parse(text).is_ok(),
        Kind::Takat => match text.split_once('-') {
            Some((from, to)) => circle(from) && circle(to),
            None => circle(text),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_are_told_from_talk() {
        for ply in ["a1", "Sd4", "Cb2", "3c3>12", "c3'", "d4!?", "c3>"] {
            assert!(reads_as_ply(Kind::Tak, ply), "{ply}");
        }
        for talk in [
            "ok", "gg", "hi", "lol", "a", "z9", "nice one", "a1 b2", "", "?",
        ] {
            assert!(!reads_as_ply(Kind::Tak, talk), "{talk}");
        }
        assert!(reads_as_ply(Kind::Takat, "b1"));
        assert!(reads_as_ply(Kind::Takat, "a1-b2"));
        for talk in ["gg", "b", "a1-", "-b2", "ok"] {
            assert!(!reads_as_ply(Kind::Takat, talk), "{talk}");
        }
    }
}
