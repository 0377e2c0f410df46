//! The standings after any round: points, then the tie-breaks, each player's games by round.

use super::{Format, Played, Points, Seed};

/// One round's game from a player's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Game {
    /// `None`: a bye.
    pub opponent: Option<Seed>,
    pub white: bool,
    /// Half points scored: 2, 1 or 0; `None` while the game runs.
    pub score: Option<u32>,
}

/// A player's line in the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Standing {
    pub seed: Seed,
    /// Half points.
    pub score: u32,
    /// Round robin: Sonneborn-Berger, in quarter points. Swiss: Buchholz, in half points.
    pub first_tiebreak: u32,
    /// Swiss: median-Buchholz, in half points (0 in a round robin).
    pub second_tiebreak: u32,
    /// By round.
    pub games: Vec<Option<Game>>,
}

/// Whether every game of a round has its result: a bye scores with its round, not when the
/// round is paired.
pub fn played_out(round: &[Played]) -> bool {
    round
        .iter()
        .all(|p| p.pair.black.is_none() || p.result.is_some())
}

/// The games of every player, by round, from the rounds' pairings.
/// A bye scores a win in a Swiss tournament; in a round robin everyone sits out once with an odd
/// count, and the rest scores nothing.
fn games_by_player(
    players: usize,
    rounds: &[Vec<Played>],
    format: Format,
) -> Vec<Vec<Option<Game>>> {
    let bye = if format.is_swiss() { 2 } else { 0 };
    let mut games = vec![vec![None; rounds.len()]; players];
    for (r, round) in rounds.iter().enumerate() {
        let scored = played_out(round);
        for p in round {
            let score = |white: bool| {
                p.result.map(|res| match (res, white) {
                    (Points::Draw, _) => 1,
                    (Points::White, true) | (Points::Black, false) => 2,
                    _ => 0,
                })
            };
            match p.pair.black {
                None => {
                    games[p.pair.white][r] = Some(Game {
                        opponent: None,
                        white: true,
                        score: scored.then_some(bye),
                    })
                }
                Some(black) => {
                    games[p.pair.white][r] = Some(Game {
                        opponent: Some(black),
                        white: true,
                        score: score(true),
                    });
                    games[black][r] = Some(Game {
                        opponent: Some(p.pair.white),
                        white: false,
                        score: score(false),
                    });
                }
            }
        }
    }
    games
}

/// The standings after `rounds`, best first, counting finished games only (a round just paired
/// changes nothing). A bye scores a win in Swiss once the rest of its round is played, nothing in
/// a round robin (where everyone has one when the count is odd). Round robin: score, then Sonneborn-Berger (the
/// scores of the opponents beaten plus half those of the opponents drawn). Swiss: score, then
/// Buchholz (the sum of the opponents' scores, a bye counting as an opponent with none), then
/// median-Buchholz (Buchholz less the highest and the lowest of those, from three rounds on).
/// Then the seed (who joined first).
pub fn standings(players: usize, rounds: &[Vec<Played>], format: Format) -> Vec<Standing> {
    let games = games_by_player(players, rounds, format);
    let scores: Vec<u32> = games
        .iter()
        .map(|g| g.iter().flatten().filter_map(|g| g.score).sum())
        .collect();
    let mut table: Vec<Standing> = (0..players)
        .map(|seed| {
            let mine = &games[seed];
            let (first, second) = if format.is_swiss() {
                let opponents: Vec<u32> = mine
                    .iter()
                    .flatten()
                    .filter(|g| g.score.is_some())
                    .map(|g| g.opponent.map_or(0, |o| scores[o]))
                    .collect();
                let buchholz: u32 = opponents.iter().sum();
                let median = if opponents.len() >= 3 {
                    buchholz - opponents.iter().max().unwrap() - opponents.iter().min().unwrap()
                } else {
                    buchholz
                };
                (buchholz, median)
            } else {
                let sb = mine
                    .iter()
                    .flatten()
                    .filter_map(|g| Some(g.score? * scores[g.opponent?]))
                    .sum();
                (sb, 0)
            };
            Standing {
                seed,
                score: scores[seed],
                first_tiebreak: first,
                second_tiebreak: second,
                games: mine.clone(),
            }
        })
        .collect();
    table.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.first_tiebreak.cmp(&a.first_tiebreak))
            .then(b.second_tiebreak.cmp(&a.second_tiebreak))
            .then(a.seed.cmp(&b.seed))
    });
    table
}

/// Half points as a score: "2", "2½", "½".
pub fn halves(h: u32) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// Quarter points (Sonneborn-Berger): "3", "3.25", "3.5", "3.75".
pub fn quarters(q: u32) -> String {
    match q % 4 {
        0 => (q / 4).to_string(),
        r => format!("{}.{}", q / 4, ["", "25", "5", "75"][r as usize]),
    }
}
