//! Puzzles: one of the starter set shown in a channel or privately, the solver's plies checked
//! by the Tinuë solver (any ply that keeps the road forced counts, not only the stored line),
//! Bredon's defence, hints, giving up, and ratings for players (per server) and for puzzles
//! (everywhere), as chess puzzle sites keep them.

mod daily;
mod gaelet;
mod help;
mod ratings;
mod survive;

use super::*;
use crate::engine::forced::{longest_defence, Shortest};
use crate::engine::puzzles::{
    starter_set, winning_line, Difficulty, Puzzle, PuzzleKind, CHECK_NODES, LINE_NODES,
};
use crate::engine::tinue::{ptn_line, solve, solve_defence, Verdict};
use crate::store::PuzzleChange;
use crate::tak::GameResult;

/// What a won game says in a solved puzzle.
fn won(end: GameResult) -> &'static str {
    match end {
        GameResult::Road { .. } => "a road!",
        _ => "a win on flats!",
    }
}

/// The budget for Bredon's longest defence after each ply (past it, the solver's defence).
const DEFENCE_NODES: usize = 50_000;

const PUZZLE_CHANGED: &str = "the puzzle changed while this was being done (another answer \
     came first); look at the newest board and try again";

/// What `/puzzle start` asks for; every part may be left out.
#[derive(Clone, Copy, Default, Debug)]
pub struct PuzzleChoice {
    pub id: Option<u32>,
    pub size: Option<usize>,
    pub difficulty: Option<Difficulty>,
    /// Which kind of puzzle (chosen ones only: a number names any kind).
    pub kind: PuzzleKind,
}

/// A puzzle attempt and the game it stands at.
struct Standing {
    attempt: PuzzleAttempt,
    puzzle: &'static Puzzle,
    game: crate::tak::Game,
}

impl Service {
    /// A new puzzle for `ctx.user`: in this channel for all to see, or privately.
    pub fn start_puzzle(
        &self,
        ctx: &Ctx,
        choice: PuzzleChoice,
        private: bool,
    ) -> Result<Outcome, Refusal> {
        let seat = match private {
            true => PuzzleSeat::Private(ctx.user.id),
            false => PuzzleSeat::Channel(ctx.channel),
        };
        if !private && self.store.game(ctx.channel)?.is_some() {
            return refuse(
                "this channel has a game: start the puzzle in a thread of its own, or with \
                 private:true",
            );
        }
        let id = match choice.id {
            Some(id) => puzzle_given(id).map(|_| id)?,
            None => self.choose_puzzle(ctx, choice)?,
        };
        self.begin_puzzle(ctx, seat, id, None)
    }

    /// Whether `start_puzzle` could find a puzzle for this choice (before a thread opens for it).
    pub fn check_puzzle_choice(&self, ctx: &Ctx, choice: PuzzleChoice) -> Result<(), Refusal> {
        match choice.id {
            Some(id) => puzzle_given(id).map(|_| ()),
            None => self.choose_puzzle(ctx, choice).map(|_| ()),
        }
    }

    /// Today's daily puzzle of this server, to solve privately.
    pub fn start_daily_puzzle(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let settings = self.store.settings(ctx.guild)?;
        if settings.puzzle_channel.is_none() {
            return refuse(
                "this server has no daily puzzle: a moderator can post one every day with \
                 /settings puzzle_channel:",
            );
        }
        let day = puzzle_day(ctx.now_ms, settings.puzzle_hour);
        let Some(daily) = self.store.daily_puzzle(ctx.guild, day)? else {
            return refuse(format!(
                "today's puzzle is not posted yet: it comes at {:02}:00 UTC",
                settings.puzzle_hour
            ));
        };
        if daily.solvers.iter().any(|(p, _)| p.id == ctx.user.id) {
            return refuse("you solved today's puzzle already; try /puzzle start for another");
        }
        self.begin_puzzle(
            ctx,
            PuzzleSeat::Private(ctx.user.id),
            daily.puzzle,
            Some(day),
        )
    }

    fn begin_puzzle(
        &self,
        ctx: &Ctx,
        seat: PuzzleSeat,
        id: u32,
        daily: Option<i64>,
    ) -> Result<Outcome, Refusal> {
        let old = self.store.puzzle_attempt(seat)?;
        if let Some(old) = old.as_ref().filter(|a| a.solver.id != ctx.user.id) {
            return refuse(format!(
                "{} is solving puzzle #{} here: wait, or start yours with private:true",
                old.solver.name, old.puzzle
            ));
        }
        let seen = self
            .store
            .puzzle_player(ctx.guild, ctx.user.id)?
            .is_some_and(|p| p.seen.contains(&id));
        let attempt = PuzzleAttempt {
            puzzle: id,
            seat,
            guild: ctx.guild,
            solver: ctx.user.clone(),
            plies: Vec::new(),
            started_ms: ctx.now_ms,
            hints: 0,
            slips: 0,
            rated: seen,
            daily,
            seq: old.as_ref().map_or(0, |a| a.seq + 1),
        };
        let standing = self.standing(attempt)?;
        let (puzzle, rating) = (standing.puzzle, self.puzzle_glicko(id)?.rating);
        let to_move = standing.game.position().to_move();
        let (side, other) = (side_name(to_move), side_name(to_move.opponent()));
        let task = match puzzle.kind {
            PuzzleKind::Win => format!(
                "{side} to play and win. Force a road with threats alone (Tak after Tak) \
                 whatever {other} replies; Bredon defends. Play with /move; /puzzle hint gives \
                 a hint, /puzzle give_up the solution."
            ),
            PuzzleKind::Survive => format!(
                "{side} to play and survive. {other} threatens to force a road (Tinuë): find \
                 the ply after which no road is forced; stopping a road in one may not be \
                 enough. Play with /move; /puzzle hint gives a hint, /puzzle give_up the answer."
            ),
            PuzzleKind::Gaelet => format!(
                "{side} to play and win on flats within {}. The game can end soon (a reserve or \
                 the board runs out): force it to end with {side} ahead on flats, komi counted, \
                 whatever {other} replies; Bredon defends. Play with /move; /puzzle hint gives a \
                 hint, /puzzle give_up the solution.",
                crate::words::count(puzzle.plies as u32, "ply")
            ),
        };
        let mut text = format!(
            "Puzzle #{id} · {}x{} · {} ({rating:.0}): {task}",
            puzzle.size,
            puzzle.size,
            Difficulty::of(rating).name(),
        );
        if seen {
            text.push_str(" You have had this puzzle before, so it does not move your rating.");
        }
        if let Some(old) = &old {
            text.push_str(&format!(" (Puzzle #{} was left unsolved.)", old.puzzle));
        }
        let change = PuzzleChange {
            attempt: Some((seat, Some(standing.attempt.clone()), old.map(|a| a.seq))),
            ..PuzzleChange::default()
        };
        self.puzzle_outcome(ctx, &standing, change, text)
    }

    /// The attempt `ctx.user` plays here: this channel's, if it is theirs, else their private one.
    fn attempt_of(&self, ctx: &Ctx) -> Result<Option<PuzzleAttempt>, Refusal> {
        if let Some(a) = self
            .store
            .puzzle_attempt(PuzzleSeat::Channel(ctx.channel))?
        {
            if a.solver.id == ctx.user.id {
                return Ok(Some(a));
            }
        }
        Ok(self
            .store
            .puzzle_attempt(PuzzleSeat::Private(ctx.user.id))?)
    }

    /// Whether a ply here goes to a puzzle of `ctx.user` rather than to the channel's game.
    pub(super) fn plays_puzzle(&self, ctx: &Ctx) -> Result<Option<PuzzleAttempt>, Refusal> {
        if let Some(game) = self.store.game(ctx.channel)? {
            if Self::seat_of(&game, ctx.user.id).is_some() {
                return Ok(None);
            }
        }
        self.attempt_of(ctx)
    }

    /// Whether `ctx.user`'s puzzle here is still puzzle `puzzle` at version `seq` (a button's).
    pub(super) fn puzzle_asks(&self, ctx: &Ctx, puzzle: u32, seq: u64) -> Result<bool, Refusal> {
        Ok(self
            .attempt_of(ctx)?
            .is_some_and(|a| a.puzzle == puzzle && a.seq == seq))
    }

    /// `ctx.user`'s puzzle here, telling `tell_private` whether it is a private one.
    fn current(&self, ctx: &Ctx, tell_private: impl FnOnce(bool)) -> Result<Standing, Refusal> {
        match self.attempt_of(ctx)? {
            Some(attempt) => {
                tell_private(attempt.seat.is_private());
                self.standing(attempt)
            }
            None => refuse("you have no puzzle under way: start one with /puzzle start"),
        }
    }

    fn standing(&self, attempt: PuzzleAttempt) -> Result<Standing, Refusal> {
        let puzzle = puzzle_by_number(attempt.puzzle)?;
        let start = puzzle.position().map_err(Refusal)?;
        let mut game = crate::tak::Game::new(start);
        for (i, text) in attempt.plies.iter().enumerate() {
            let ply = crate::tak::Ply::parse(text).map_err(Refusal)?;
            game.play(ply.ply).map_err(|e| {
                Refusal(format!("stored puzzle ply {} does not replay: {e}", i + 1))
            })?;
        }
        Ok(Standing {
            attempt,
            puzzle,
            game,
        })
    }

    /// A ply of the solver: kept with Bredon's answer if the road stays forced, told as wrong
    /// with the reply that refutes it otherwise (the position stays as it was).
    pub(super) fn puzzle_ply(
        &self,
        ctx: &Ctx,
        attempt: PuzzleAttempt,
        text: &str,
    ) -> Result<Outcome, Refusal> {
        let mut s = self.standing(attempt)?;
        match s.puzzle.kind {
            PuzzleKind::Survive => return self.survival_ply(ctx, s, text),
            PuzzleKind::Gaelet => return self.gaelet_ply(ctx, s, text),
            PuzzleKind::Win => {}
        }
        let attacker = s.game.position().to_move();
        let before = s.game.position().clone();
        let (ply, ptn, tak) = s.play(text)?;
        let after = s.game.position().clone();
        if let Some(end) = after.end() {
            if end.winner() == Some(attacker) {
                let played = format!("{} played {ptn}", s.attempt.solver.name);
                return self.solved(ctx, s, played, won(end));
            }
            let why = format!(
                "{ptn} ends the game without your road ({})",
                end.describe(after.setup().komi)
            );
            return self.wrong(ctx, s, &why);
        }
        let judged = solve_defence(&after, CHECK_NODES);
        // A ply the solver cannot decide within its budget is still proven when it starts the
        // quickest forced line, the one hints and giving up show.
        let verdict = match judged.verdict {
            Verdict::Unknown => match winning_line(&before) {
                Some(line) if line.first() == Some(&ply) => Verdict::Tinue(line[1..].to_vec()),
                _ => Verdict::Unknown,
            },
            known => known,
        };
        match verdict {
            Verdict::Tinue(line) => {
                let defence = match longest_defence(&after, line.len(), DEFENCE_NODES).shortest {
                    Shortest::Line(longest) => longest[0],
                    _ => line[0],
                };
                let answer = after.ptn(defence);
                s.game.play(defence).map_err(|e| Refusal(e.to_string()))?;
                if let Some(end) = s.game.position().end() {
                    // Every reply loses, and the one left ends the game itself.
                    let played = format!(
                        "{} played {ptn}; every reply loses, and Bredon's {answer} ends the game",
                        s.attempt.solver.name
                    );
                    return self.solved(ctx, s, played, won(end));
                }
                let mark = if tak { " Tak!" } else { "" };
                let text = format!(
                    "{} played {ptn}.{mark} Bredon answers {answer}. The road is still forced: \
                     your move.",
                    s.attempt.solver.name
                );
                self.answered(ctx, s, [ptn, answer], text)
            }
            Verdict::NoTinue => {
                let reply = judged.escape.map(|r| after.ptn(r));
                let why = match (tak, reply) {
                    (false, Some(r)) => format!(
                        "{ptn} is not Tak, so Bredon has a free ply: {r}, and the road is no \
                         longer forced"
                    ),
                    (true, Some(r)) => {
                        format!(
                            "{ptn} is Tak, but Bredon answers {r} and the road is no longer forced"
                        )
                    }
                    (_, None) => format!("{ptn} does not force the road"),
                };
                self.wrong(ctx, s, &why)
            }
            Verdict::Unknown => refuse(format!(
                "Bredon could not decide within its budget whether {ptn} forces the road; \
                 nothing was changed: try the ply you are surest of"
            )),
        }
    }

    /// The solver's ply and Bredon's answer kept: the attempt goes on at its next version.
    fn answered(
        &self,
        ctx: &Ctx,
        mut s: Standing,
        plies: [String; 2],
        text: String,
    ) -> Result<Outcome, Refusal> {
        s.attempt.plies.extend(plies);
        let seq = s.attempt.seq;
        s.attempt.seq += 1;
        let change = PuzzleChange {
            attempt: Some((s.attempt.seat, Some(s.attempt.clone()), Some(seq))),
            ..PuzzleChange::default()
        };
        self.puzzle_outcome(ctx, &s, change, text)
    }

    /// The puzzle solved: `played` says by what ("alice played c3"), `how` what it did ("a
    /// road!").
    fn solved(
        &self,
        ctx: &Ctx,
        s: Standing,
        played: String,
        how: &str,
    ) -> Result<Outcome, Refusal> {
        let a = &s.attempt;
        let took = describe_took(ctx.now_ms - a.started_ms);
        let mut text = format!("{played}: {how} Puzzle #{} solved in {took}.", a.puzzle);
        let mut change = PuzzleChange {
            attempt: Some((a.seat, None, Some(a.seq))),
            ..PuzzleChange::default()
        };
        if !a.rated {
            text.push(' ');
            text.push_str(&self.rate(ctx, a, true, &mut change)?);
        }
        // The daily puzzle names those who solved it cleanly, had they met it before or not.
        if let (Some(day), 0, 0) = (a.daily, a.hints, a.slips) {
            let ms = ctx.now_ms - a.started_ms;
            change.daily_solver = Some((a.guild, day, a.solver.clone(), ms));
        }
        self.puzzle_outcome(ctx, &s, change, text)
    }

    /// A wrong ply: told with its refutation; the attempt counts as failed once and goes on.
    fn wrong(&self, ctx: &Ctx, mut s: Standing, why: &str) -> Result<Outcome, Refusal> {
        s.attempt.slips += 1;
        let mut text = format!("✗ {why}. Try again from the same position");
        let mut change = PuzzleChange::default();
        let rated = s.attempt.rated;
        let failed = self.failed_once(ctx, &s.attempt, &mut change)?;
        match (rated, failed) {
            (false, Some(line)) => {
                text.push_str(" (this puzzle no longer counts for your rating). ");
                text.push_str(&line);
            }
            _ => text.push('.'),
        }
        self.goes_on(ctx, s.attempt, change, text)
    }

    /// Counts the attempt as failed for the ratings if it has not counted yet: how the solver's
    /// rating moved, or `None`.
    fn failed_once(
        &self,
        ctx: &Ctx,
        a: &PuzzleAttempt,
        change: &mut PuzzleChange,
    ) -> Result<Option<String>, Refusal> {
        match a.rated {
            true => Ok(None),
            false => self.rate(ctx, a, false, change).map(Some),
        }
    }

    /// The attempt, rated now whatever it was, goes on at its next version; `text` says why.
    fn goes_on(
        &self,
        ctx: &Ctx,
        mut a: PuzzleAttempt,
        mut change: PuzzleChange,
        text: String,
    ) -> Result<Outcome, Refusal> {
        a.rated = true;
        let seq = a.seq;
        a.seq += 1;
        change.attempt = Some((a.seat, Some(a.clone()), Some(seq)));
        self.puzzle_text(ctx, &a, change, text)
    }

    /// A puzzle's position as an outcome: in its channel (stored with the change, so it is
    /// delivered), or privately to the solver (answered at once, nothing owed).
    fn puzzle_outcome(
        &self,
        ctx: &Ctx,
        s: &Standing,
        change: PuzzleChange,
        text: String,
    ) -> Result<Outcome, Refusal> {
        let outcome = Outcome {
            board: Some(self.puzzle_board(s)?),
            ..Outcome::default()
        };
        self.puzzle_answer(ctx, &s.attempt, change, text, outcome)
    }

    fn puzzle_text(
        &self,
        ctx: &Ctx,
        a: &PuzzleAttempt,
        change: PuzzleChange,
        text: String,
    ) -> Result<Outcome, Refusal> {
        self.puzzle_answer(ctx, a, change, text, Outcome::default())
    }

    fn puzzle_answer(
        &self,
        ctx: &Ctx,
        a: &PuzzleAttempt,
        puzzle: PuzzleChange,
        text: String,
        mut outcome: Outcome,
    ) -> Result<Outcome, Refusal> {
        outcome.text = text;
        // The buttons of an attempt that goes on, at its new version.
        if let Some((_, Some(next), _)) = &puzzle.attempt {
            outcome.prompt = Some(Prompt::Puzzle {
                puzzle: next.puzzle,
                seq: next.seq,
            });
        }
        // Channel 0 holds no game: the change touches the puzzle only (its `seq` is checked).
        let change = Change {
            puzzle,
            ..Change::default()
        };
        match a.seat {
            PuzzleSeat::Private(_) => {
                self.durable_or(&change, PUZZLE_CHANGED)?;
                outcome.private = true;
                Ok(outcome)
            }
            PuzzleSeat::Channel(_) => {
                outcome.ping = vec![a.solver.clone()];
                self.commit_or(ctx, change, outcome, PUZZLE_CHANGED)
            }
        }
    }

    fn puzzle_board(&self, s: &Standing) -> Result<Board, Refusal> {
        let settings = self.store.settings(s.attempt.guild)?;
        let bredon = PlayerRef {
            id: 0,
            name: "Bredon".into(),
        };
        let first_mover = s.game.start().to_move();
        let players = match first_mover {
            Color::White => [s.attempt.solver.clone(), bredon],
            Color::Black => [bredon, s.attempt.solver.clone()],
        };
        Ok(Board::of(
            &Match::Tak(s.game.clone()),
            players,
            settings.theme,
            None,
            settings.display,
        ))
    }

    /// The game of `ctx.user`'s puzzle, if they play one here rather than the channel's game.
    pub(super) fn puzzle_match(&self, ctx: &Ctx) -> Result<Option<Match>, Refusal> {
        match self.plays_puzzle(ctx)? {
            Some(a) => Ok(Some(Match::Tak(self.standing(a)?.game))),
            None => Ok(None),
        }
    }
}

impl Standing {
    /// The solver's ply `text` played on the puzzle's game: the ply, its PTN and whether it
    /// made Tak.
    fn play(&mut self, text: &str) -> Result<(crate::tak::Ply, String, bool), Refusal> {
        let parsed = crate::tak::Ply::parse(text).map_err(Refusal)?;
        let played = self
            .game
            .play(parsed.ply)
            .map_err(|e| Refusal(e.to_string()))?;
        Ok((parsed.ply, played.ptn.clone(), played.tak))
    }
}

/// The starter puzzle numbered `id` (from 1).
pub(super) fn puzzle_by_number(id: u32) -> Result<&'static Puzzle, Refusal> {
    let set = starter_set();
    match (id as usize).checked_sub(1).and_then(|i| set.get(i)) {
        Some(p) => Ok(p),
        None => refuse(format!(
            "there is no puzzle #{id}: they are numbered 1 to {}",
            set.len()
        )),
    }
}

/// The starter puzzle numbered `id`, if it is still given (an attempt under way on a retired one
/// goes on through `puzzle_by_number`).
fn puzzle_given(id: u32) -> Result<&'static Puzzle, Refusal> {
    let puzzle = puzzle_by_number(id)?;
    match &puzzle.retired {
        Some(why) => refuse(format!(
            "puzzle #{id} is retired ({why}); /puzzle start without a number gives another"
        )),
        None => Ok(puzzle),
    }
}

/// How long a solve took: "40 s", "3 min 5 s", "2 h 10 min".
pub(super) fn describe_took(ms: i64) -> String {
    let secs = ms.max(0) / 1000;
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min {} s", secs / 60, secs % 60),
        _ => format!("{} h {} min", secs / 3600, secs % 3600 / 60),
    }
}

/// The day a daily puzzle belongs to: days since 1970-01-01, each starting at `hour` UTC.
pub(super) fn puzzle_day(now_ms: i64, hour: u32) -> i64 {
    (now_ms - hour as i64 * 3_600_000).div_euclid(86_400_000)
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The square a ply places on or moves from.
fn first_square(ply: crate::tak::Ply) -> crate::tak::Square {
    match ply {
        crate::tak::Ply::Place { square, .. } => square,
        crate::tak::Ply::Spread { from, .. } => from,
    }
}
