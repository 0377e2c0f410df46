//! The button router, on top of the features: a press names a question and its answer, and the
//! question must still be the open one.

use super::requests::Request;
use super::*;

impl Service {
    /// Answers the question `prompt` (a button under an older message, or a command), refusing
    /// if that question is no longer the open one.
    pub fn answer(&self, ctx: &Ctx, prompt: Prompt, answer: Answer) -> Result<Outcome, Refusal> {
        let stale = || refuse("this request is no longer open; /board shows the game as it is now");
        match (prompt, answer) {
            (Prompt::Challenge { id }, Answer::Accept | Answer::Decline | Answer::Cancel) => {
                let Some(c) = self.store.challenge(ctx.channel)?.filter(|c| c.id == id) else {
                    return stale();
                };
                match answer {
                    Answer::Accept => self.accept_challenge(ctx, c),
                    Answer::Decline => self.decline_challenge(ctx, c),
                    _ => self.cancel_challenge(ctx, c),
                }
            }
            (
                Prompt::Undo { game, seq } | Prompt::Draw { game, seq },
                Answer::Agree | Answer::Refuse,
            ) => {
                let request = match prompt {
                    Prompt::Undo { .. } => Request::Undo,
                    _ => Request::Draw,
                };
                let asked_then = |g: &LiveGame| match request {
                    Request::Undo => g.undo_request.is_some() && g.asked_at.undo == Some(seq),
                    Request::Draw => g.draw_offer.is_some() && g.asked_at.draw == Some(seq),
                };
                let Some(live) = self
                    .store
                    .game(ctx.channel)?
                    .filter(|g| g.id == game && (g.seq == seq || asked_then(g)))
                else {
                    return stale();
                };
                self.answer_request(ctx, live, request, answer == Answer::Agree)
            }
            (Prompt::Rematch { game }, Answer::Rematch) => {
                match self.store.last_finished(ctx.channel)? {
                    Some(last) if last.id == game => self.rematch(ctx),
                    _ => stale(),
                }
            }
            (Prompt::Puzzle { puzzle, seq }, Answer::Hint | Answer::GiveUp) => {
                self.check_board(ctx, Prompt::Puzzle { puzzle, seq })?;
                match answer {
                    // A press is acknowledged without "thinking": nothing to defer.
                    Answer::Hint => self.puzzle_hint(ctx, |_| ()),
                    _ => self.give_up_puzzle(ctx, |_| ()),
                }
            }
            (Prompt::Board { .. }, Answer::Undo) => {
                self.check_board(ctx, prompt)?;
                self.request_undo(ctx)
            }
            (Prompt::Board { .. }, Answer::Draw) => {
                self.check_board(ctx, prompt)?;
                self.offer_draw(ctx)
            }
            (Prompt::Board { .. }, Answer::Refresh) => {
                self.check_board(ctx, prompt)?;
                self.view(ctx)
            }
            (Prompt::Resign { game, position }, Answer::Agree) => {
                self.check_board(ctx, Prompt::Board { game, position })?;
                self.resign(ctx)
            }
            _ => refuse("that answer does not fit this request"),
        }
    }
}
