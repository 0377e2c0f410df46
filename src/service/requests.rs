//! The questions one player puts to the other in a game, undo and draw: asked with buttons,
//! answered yes or no (by a button while the question is open, or by the command), and what an
//! answer does.

use super::*;

/// A ply taken back this soon after it was made, before any answer, is taken back without
/// asking (takBot's habit for slips): Discord does not say whether the opponent has read it,
/// and a correspondence answer rarely comes within a minute.
const UNSEEN_MS: i64 = 60_000;

impl Service {
    /// How many plies an undo for `requester` takes back: their last ply and any reply since
    /// (so 1 if they moved last, 2 if the opponent has answered). `None` if they have no ply yet.
    fn undo_count(g: &Match, requester: Color) -> Option<usize> {
        let last_mover = g.to_move().opponent();
        let count = if last_mover == requester { 1 } else { 2 };
        (g.ply_count() >= count).then_some(count)
    }

    pub fn request_undo(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        if game.purse.is_some() {
            return refuse(
                "plies cannot be taken back in a University game: coins have moved with them",
            );
        }
        let Some(count) = Self::undo_count(&Self::rebuild(&game)?, seat) else {
            return refuse("you have no ply to take back yet");
        };
        if game.undo_request == Some(ctx.user.id) {
            return refuse("you already asked; your opponent can accept or decline");
        }
        if game.undo_request.is_some() {
            return self.answer_undo(ctx, true);
        }
        if count == 1 && ctx.now_ms - game.last_ply_ms <= UNSEEN_MS {
            let lead = format!(
                "{} took back their ply within a minute, before it was answered:",
                ctx.user.name
            );
            return self.take_back(ctx, game, seat, lead);
        }
        game.undo_request = Some(ctx.user.id);
        // The version this change stores: its buttons carry it.
        game.asked_at.undo = Some(game.seq + 1);
        self.update_announcing(ctx, &mut game, Vec::new(), |game| {
            let other = game.players[seat.opponent().index()].clone();
            let plies = game.plies[game.plies.len() - count..].join(" ");
            let text = format!(
                "{} asks to take back {plies}. {}, do you agree?",
                ctx.user.name, other.name
            );
            Ok(ask(game, other, text, |game, seq| Prompt::Undo {
                game,
                seq,
            }))
        })
    }

    /// The opponent's answer to an undo request.
    pub fn answer_undo(&self, ctx: &Ctx, accept: bool) -> Result<Outcome, Refusal> {
        self.answer_request(ctx, self.live(ctx)?, Request::Undo, accept)
    }

    /// The opponent's answer to a draw offer.
    pub fn answer_draw(&self, ctx: &Ctx, accept: bool) -> Result<Outcome, Refusal> {
        self.answer_request(ctx, self.live(ctx)?, Request::Draw, accept)
    }

    /// Answers the request open in `game`, as read; the change applies only to that version.
    pub(super) fn answer_request(
        &self,
        ctx: &Ctx,
        game: LiveGame,
        request: Request,
        accept: bool,
    ) -> Result<Outcome, Refusal> {
        Self::player_seat(&game, ctx)?;
        match request {
            Request::Undo => self.undo_reply(ctx, game, accept),
            Request::Draw => self.draw_reply(ctx, game, accept),
        }
    }

    fn undo_reply(&self, ctx: &Ctx, mut game: LiveGame, accept: bool) -> Result<Outcome, Refusal> {
        let requester = match game.undo_request {
            None => return refuse("nobody asked to undo; ask with /undo"),
            Some(u) if u == ctx.user.id => {
                return refuse("your opponent has to answer your undo request")
            }
            Some(u) => u,
        };
        game.undo_request = None;
        if accept {
            let seat = Self::seat_of(&game, requester).expect("only players ask");
            return self.take_back(ctx, game, seat, format!("{} agreed:", ctx.user.name));
        }
        let g = Self::rebuild(&game)?;
        self.announce_turn(
            ctx,
            game,
            g,
            format!("{} declined the undo.", ctx.user.name),
        )
    }

    /// Takes back the plies `seat` asked for: "`lead` e2 e3 taken back."
    fn take_back(
        &self,
        ctx: &Ctx,
        mut game: LiveGame,
        seat: Color,
        lead: String,
    ) -> Result<Outcome, Refusal> {
        let mut g = Self::rebuild(&game)?;
        let count = Self::undo_count(&g, seat).unwrap_or(0);
        for _ in 0..count {
            g.undo();
        }
        let undone = game.plies.split_off(game.plies.len() - count).join(" ");
        game.ply_ms.truncate(game.plies.len());
        game.conditional.clear();
        let next = game.players[g.to_move().index()].id;
        self.set_timers(&mut game, next, ctx.now_ms)?;
        self.announce_turn(ctx, game, g, format!("{lead} {undone} taken back."))
    }

    /// Stores `game` (now `g`) and tells the player to move, after `text`.
    fn announce_turn(
        &self,
        ctx: &Ctx,
        mut game: LiveGame,
        g: Match,
        text: String,
    ) -> Result<Outcome, Refusal> {
        self.update_announcing(ctx, &mut game, Vec::new(), |game| {
            let next = game.players[g.to_move().index()].clone();
            Ok(Outcome {
                text: format!("{text} {} to move.", next.name),
                direct: self.wants_direct(&next)?,
                ping: vec![next],
                deadline_ms: game.timeout_due_ms,
                prompt: Self::board_prompt(game),
                board: Self::shown(game, g, ctx.now_ms),
                ..Outcome::default()
            })
        })
    }

    pub fn offer_draw(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let mut game = self.live(ctx)?;
        let seat = Self::player_seat(&game, ctx)?;
        match game.draw_offer {
            Some(u) if u == ctx.user.id => {
                return refuse("you already offered a draw; it stands until a ply is made")
            }
            Some(_) => return self.answer_draw(ctx, true),
            None => {}
        }
        game.draw_offer = Some(ctx.user.id);
        game.asked_at.draw = Some(game.seq + 1);
        self.update_announcing(ctx, &mut game, Vec::new(), |game| {
            let other = game.players[seat.opponent().index()].clone();
            let text = format!(
                "{} offers a draw. {}, accept or decline (the offer lapses when a ply is made).",
                ctx.user.name, other.name
            );
            Ok(ask(game, other, text, |game, seq| Prompt::Draw {
                game,
                seq,
            }))
        })
    }

    fn draw_reply(&self, ctx: &Ctx, mut game: LiveGame, accept: bool) -> Result<Outcome, Refusal> {
        let offerer = match game.draw_offer {
            None => return refuse("there is no draw offer to answer; offer one with /draw"),
            Some(u) if u == ctx.user.id => {
                return refuse("your opponent has to answer your draw offer")
            }
            Some(u) => u,
        };
        if accept {
            let g = Self::rebuild(&game)?;
            return self.decided(ctx, game, g, Decision::DrawAgreed);
        }
        game.draw_offer = None;
        // The offer's answer is news to the one who made it: they are pinged.
        let offerer = game.players.iter().find(|p| p.id == offerer).cloned();
        self.update_announcing(ctx, &mut game, Vec::new(), |_| {
            Ok(Outcome {
                text: format!("{} declined the draw.", ctx.user.name),
                ping: offerer.into_iter().collect(),
                ..Outcome::default()
            })
        })
    }
}

/// A question for `other` about `game` as stored now (an undo request, a draw offer), answered
/// with its buttons.
fn ask(game: &LiveGame, other: PlayerRef, text: String, prompt: fn(u64, u64) -> Prompt) -> Outcome {
    Outcome {
        text,
        ping: vec![other],
        prompt: Some(prompt(game.id, game.seq)),
        ..Outcome::default()
    }
}

/// A question one player puts to the other in a game, answered yes or no.
#[derive(Clone, Copy)]
pub(super) enum Request {
    Undo,
    Draw,
}
