//! The daily puzzle: each server that asks for one gets a puzzle a day in its puzzle channel,
//! posted exactly once (the day's record is stored with the post, and a second post of the same
//! day is refused by the store), solved privately (`/puzzle daily`), and the next day's post
//! names who solved it and the fastest.

use super::super::*;
use super::{describe_took, puzzle_by_number, puzzle_day};
use crate::engine::puzzles::{starter_set, Difficulty, PuzzleKind};
use crate::store::PuzzleChange;

impl Service {
    /// Posts the daily puzzle of every server whose posting hour has come and that has none
    /// for the day yet.
    pub(in crate::service) fn daily_puzzles(
        &self,
        now_ms: i64,
    ) -> Result<Vec<TimerEvent>, Refusal> {
        let mut events = Vec::new();
        for (guild, settings) in self.store.puzzle_servers()? {
            let Some(channel) = settings.puzzle_channel else {
                continue;
            };
            let day = puzzle_day(now_ms, settings.puzzle_hour);
            let due_ms = day * 86_400_000 + settings.puzzle_hour as i64 * 3_600_000;
            if due_ms < settings.puzzle_since_ms || self.store.daily_puzzle(guild, day)?.is_some() {
                continue;
            }
            let ctx = Ctx::of_bredon(guild, channel, now_ms);
            let daily = DailyPuzzle {
                guild,
                day,
                puzzle: daily_choice(day),
                channel,
                solvers: Vec::new(),
            };
            let outcome = self.daily_post(&daily, &settings)?;
            let change = Change {
                puzzle: PuzzleChange {
                    new_daily: Some(daily),
                    ..PuzzleChange::default()
                },
                ..Change::default()
            };
            // A conflict: another tick stored the day's puzzle first, and posts it.
            if let Ok(outcome) = self.commit(&ctx, change, outcome) {
                events.push(TimerEvent {
                    guild,
                    channel,
                    outcome,
                });
            }
        }
        Ok(events)
    }

    fn daily_post(&self, daily: &DailyPuzzle, s: &GuildSettings) -> Result<Outcome, Refusal> {
        let id = daily.puzzle;
        let puzzle = puzzle_by_number(id)?;
        let position = puzzle.position().map_err(Refusal)?;
        let rating = self.puzzle_glicko(id)?.rating;
        let date = super::finish::ptn_date(daily.day * 86_400_000).replace('.', "-");
        let side = match position.to_move() {
            Color::White => "White",
            Color::Black => "Black",
        };
        let mut text = format!(
            "Daily puzzle of {date}: puzzle #{id} · {}x{} · {}. {side} to play and win by \
             Tinuë. Solve it privately with /puzzle daily: only you see your plies, and the \
             fastest solvers are named tomorrow.",
            puzzle.size,
            puzzle.size,
            Difficulty::of(rating).name()
        );
        if let Some(before) = self.store.last_daily_puzzle(daily.guild)? {
            text.push(' ');
            text.push_str(&yesterday(&before));
        }
        Ok(Outcome {
            text,
            board: Some(Board::of(
                &Match::Tak(crate::tak::Game::new(position)),
                [
                    PlayerRef {
                        id: 0,
                        name: "White".into(),
                    },
                    PlayerRef {
                        id: 0,
                        name: "Black".into(),
                    },
                ],
                s.theme.clone(),
                None,
                s.display,
            )),
            ..Outcome::default()
        })
    }

    /// Where and when the daily puzzle is posted (`off`: no more daily puzzles); moderators
    /// only. The first is posted at the next posting hour.
    pub fn set_puzzle_channel(
        &self,
        ctx: &Ctx,
        channel: Option<u64>,
        hour: Option<u32>,
        off: bool,
    ) -> Result<GuildSettings, Refusal> {
        if hour.is_some_and(|h| h > 23) {
            return refuse("the puzzle hour is an hour of the day in UTC, 0 to 23");
        }
        self.change_settings(ctx, |s| {
            if off {
                s.puzzle_channel = None;
            } else if let Some(c) = channel {
                s.puzzle_channel = Some(c);
            }
            if let Some(h) = hour {
                s.puzzle_hour = h;
            }
            s.puzzle_since_ms = ctx.now_ms;
            Ok(())
        })
    }
}

impl Service {
    /// The channel a server's daily puzzle went to is gone: the setting is cleared, so the
    /// puzzle is not tried there every day in vain; `/settings` shows the daily puzzle off until
    /// a moderator names another channel. The server whose setting it was, if any.
    pub(in crate::service) fn puzzle_channel_gone(
        &self,
        channel: u64,
    ) -> Result<Option<u64>, Refusal> {
        for (guild, mut settings) in self.store.puzzle_servers()? {
            if settings.puzzle_channel == Some(channel) {
                settings.puzzle_channel = None;
                self.store.put_settings(guild, &settings)?;
                self.store.flush()?;
                tracing::warn!(guild, channel, "the daily puzzle's channel is gone; daily puzzles stop until a moderator names another");
                return Ok(Some(guild));
            }
        }
        Ok(None)
    }
}

impl Service {
    /// Whether this server's finished games may be mined for puzzles (moderators).
    pub fn set_puzzle_mining(&self, ctx: &Ctx, on: bool) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            s.puzzle_mining = on;
            Ok(())
        })
    }
}

/// The puzzle of day `day`, the same in every server: a "play and win" on 5x5 or larger and
/// not retired, spread over the set.
fn daily_choice(day: i64) -> u32 {
    let pool: Vec<u32> = starter_set()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == PuzzleKind::Win && p.size >= 5 && p.retired.is_none())
        .map(|(i, _)| i as u32 + 1)
        .collect();
    let pick = fnv1a(day.to_le_bytes()) % pool.len() as u64;
    pool[pick as usize]
}

/// "Puzzle #12, yesterday's, was solved by 2: alice (1 min 5 s, the fastest), bob (3 min)."
fn yesterday(d: &DailyPuzzle) -> String {
    if d.solvers.is_empty() {
        return format!("Nobody solved the last daily puzzle, #{}.", d.puzzle);
    }
    let mut solvers = d.solvers.clone();
    solvers.sort_by_key(|(_, ms)| *ms);
    let names: Vec<String> = solvers
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, (p, ms))| {
            let time = describe_took(*ms);
            match i {
                0 => format!("{} ({time}, the fastest)", p.name),
                _ => format!("{} ({time})", p.name),
            }
        })
        .collect();
    let more = solvers.len().saturating_sub(10);
    let tail = match more {
        0 => String::new(),
        n => format!(" and {}", crate::words::count(n as u32, "other")),
    };
    format!(
        "The last daily puzzle, #{}, was solved by {}: {}{tail}.",
        d.puzzle,
        crate::words::count(solvers.len() as u32, "player"),
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::puzzles::winning_line;

    /// The first day the walk below starts from: 2026-11-28, whose puzzle once failed a test
    /// whose own solver had a smaller budget than Bredon's.
    const FIRST_DAY: i64 = 1_795_824_000_000 / 86_400_000;

    /// The ply Bredon's own hint gives on the board an outcome shows.
    fn hinted_ply(shown: &Outcome) -> String {
        let board = shown.board.as_ref().expect("a board");
        let Ok(Match::Tak(game)) = Match::from_record(&board.record) else {
            panic!("no Tak board in {shown:?}");
        };
        let pos = game.position();
        let line = winning_line(pos).expect("Bredon finds the road within its budget");
        pos.ptn(line[0])
    }

    /// Every day's daily puzzle over a year (198 puzzles of the 274 a day can bring) is one
    /// Bredon solves within the budgets it answers with: a solver who plays its hint line, ply
    /// by ply against its defence, is told it is solved. No other test depends on the real day
    /// (each pins its own); this is the promise to players that any day's puzzle can be solved
    /// by following the hints. Minutes of solving:
    /// `cargo test --release --lib every_daily_puzzle -- --ignored`.
    #[test]
    #[ignore = "solves 198 puzzles (minutes)"]
    fn every_daily_puzzle_of_a_year_is_solved_by_bredons_own_line() {
        let days = FIRST_DAY..FIRST_DAY + 366;
        let mut chosen: Vec<u32> = days.map(daily_choice).collect();
        chosen.sort();
        chosen.dedup();
        let dir = tempfile::tempdir().unwrap();
        let s = Service::new(crate::store::Store::open(dir.path()).unwrap());
        let mut unsolved = Vec::new();
        for id in chosen {
            let solver = PlayerRef {
                id: id as u64,
                name: format!("solver{id}"),
            };
            let ctx = |t: i64| Ctx {
                guild: 1,
                channel: 10,
                user: solver.clone(),
                now_ms: t * 1000,
                moderator: false,
                request: None,
            };
            let choice = PuzzleChoice {
                id: Some(id),
                ..PuzzleChoice::default()
            };
            let mut shown = s.start_puzzle(&ctx(0), choice, true).unwrap();
            let solved = (1..=40).any(|t| {
                shown = match s.play(&ctx(t), &hinted_ply(&shown)) {
                    Ok(next) => next,
                    Err(refused) => panic!("#{id}: {}", refused.0),
                };
                shown.text.contains(&format!("Puzzle #{id} solved in "))
            });
            if !solved {
                unsolved.push(id);
            }
        }
        assert!(
            unsolved.is_empty(),
            "not solved by Bredon's line: {unsolved:?}"
        );
    }
}
