//! What the web pages show of a server's puzzles, as plain data: today's daily puzzle (its
//! position, whose move, who solved it) and the day before's, whose solution is shown only once
//! its day is over; and the puzzle solvers' leaderboard. Private puzzles are never read here:
//! only the daily puzzles the server's channel was shown and the ratings `/leaderboard` shows.

use super::puzzle::{describe_took, puzzle_by_number, puzzle_day};
use super::*;
use crate::engine::puzzles::Difficulty;

/// The puzzle solvers a server's page lists, best first.
const PUZZLERS_SHOWN: usize = 20;

/// A daily puzzle as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct WebDaily {
    /// `2026-11-26`: the day it was posted for.
    pub date: String,
    pub puzzle: u32,
    pub board: String,
    pub difficulty: &'static str,
    /// "White" or "Black": who is to play and win.
    pub to_move: &'static str,
    /// Who solved it without a hint or a wrong ply, the fastest first, with their times.
    pub solvers: Vec<(String, String)>,
    /// The winning line: only for a puzzle whose day is over (`None` while it runs).
    pub solution: Option<Vec<String>>,
}

/// A server's puzzle page.
#[derive(Clone, Debug, PartialEq)]
pub struct WebPuzzlePage {
    /// The hour (UTC) the daily puzzle is posted at, if the server posts one.
    pub posting_hour: Option<u32>,
    pub today: Option<WebDaily>,
    /// The day before's puzzle, its solution shown.
    pub yesterday: Option<WebDaily>,
}

/// One puzzle solver of a server's leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct WebPuzzler {
    pub name: String,
    pub rating: f64,
    pub solved: u32,
    pub failed: u32,
}

/// Today's daily puzzle's position, to draw.
pub struct WebPuzzlePicture {
    pub puzzle: u32,
    pub position: Match,
    pub theme: String,
    pub display: crate::render::Display,
}

impl Service {
    /// The server's puzzle page at `now_ms`.
    pub fn web_puzzle_page(&self, guild: u64, now_ms: i64) -> Result<WebPuzzlePage, Refusal> {
        let settings = self.store.settings(guild)?;
        let day = puzzle_day(now_ms, settings.puzzle_hour);
        let today = match self.store.daily_puzzle(guild, day)? {
            Some(d) => Some(self.web_daily(&d, false)?),
            None => None,
        };
        let yesterday = match self.store.daily_puzzle(guild, day - 1)? {
            Some(d) => Some(self.web_daily(&d, true)?),
            None => None,
        };
        Ok(WebPuzzlePage {
            posting_hour: settings.puzzle_channel.map(|_| settings.puzzle_hour),
            today,
            yesterday,
        })
    }

    /// `daily` as the page shows it: with its solution only if `over`.
    fn web_daily(&self, daily: &DailyPuzzle, over: bool) -> Result<WebDaily, Refusal> {
        let puzzle = puzzle_by_number(daily.puzzle)?;
        let position = puzzle.position().map_err(Refusal)?;
        let mut solvers = daily.solvers.clone();
        solvers.sort_by_key(|(_, ms)| *ms);
        Ok(WebDaily {
            date: ptn_date(daily.day * 86_400_000).replace('.', "-"),
            puzzle: daily.puzzle,
            board: Kind::Tak.board(puzzle.size),
            difficulty: Difficulty::of(self.puzzle_glicko(daily.puzzle)?.rating).name(),
            to_move: match position.to_move() {
                Color::White => "White",
                Color::Black => "Black",
            },
            solvers: solvers
                .into_iter()
                .map(|(p, ms)| (p.name, describe_took(ms)))
                .collect(),
            solution: over.then(|| puzzle.solution.clone()),
        })
    }

    /// Today's daily puzzle's position (the day before's if `day_before`), if the server has
    /// one that day.
    pub fn web_puzzle_picture(
        &self,
        guild: u64,
        now_ms: i64,
        day_before: bool,
    ) -> Result<Option<WebPuzzlePicture>, Refusal> {
        let settings = self.store.settings(guild)?;
        let day = puzzle_day(now_ms, settings.puzzle_hour) - i64::from(day_before);
        let Some(daily) = self.store.daily_puzzle(guild, day)? else {
            return Ok(None);
        };
        let position = puzzle_by_number(daily.puzzle)?
            .position()
            .map_err(Refusal)?;
        Ok(Some(WebPuzzlePicture {
            puzzle: daily.puzzle,
            position: Match::Tak(crate::tak::Game::new(position)),
            theme: settings.theme,
            display: settings.display,
        }))
    }

    /// The server's puzzle solvers, best rated first, as `/leaderboard` shows them.
    pub(super) fn web_puzzlers(&self, guild: u64) -> Result<Vec<WebPuzzler>, Refusal> {
        let mut players = self.store.puzzle_players(guild)?;
        players.sort_by(|a, b| {
            b.rating
                .rating
                .total_cmp(&a.rating.rating)
                .then(a.player.name.cmp(&b.player.name))
        });
        Ok(players
            .into_iter()
            .take(PUZZLERS_SHOWN)
            .map(|p| WebPuzzler {
                name: p.player.name,
                rating: p.rating.rating,
                solved: p.solved,
                failed: p.failed,
            })
            .collect())
    }
}
