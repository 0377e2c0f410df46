//! Tournaments as plain data: who plays whom in each round (round robin by the circle method,
//! Swiss by score groups) and the standings with their tie-breaks. Players are seeds: indices
//! into the entry list, in the order they joined. Nothing here knows of games, storage or Discord.
//!
//! Scores are kept in half points (a win is 2, a draw 1) so that every sum is exact.

use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A player's place in the entry list.
pub type Seed = usize;

/// How a tournament pairs its rounds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Format {
    RoundRobin,
    /// Everyone meets everyone twice, colours reversed the second time.
    DoubleRoundRobin,
    /// This many rounds of Swiss pairing.
    Swiss(u32),
}

impl Format {
    /// How many rounds `players` entrants play.
    pub fn rounds(self, players: usize) -> usize {
        let cycle = players + players % 2 - 1;
        match self {
            Format::RoundRobin => cycle,
            Format::DoubleRoundRobin => 2 * cycle,
            Format::Swiss(n) => n as usize,
        }
    }

    pub fn describe(self) -> String {
        match self {
            Format::RoundRobin => "round robin".into(),
            Format::DoubleRoundRobin => "double round robin".into(),
            Format::Swiss(n) => format!("Swiss, {n} rounds"),
        }
    }

    fn is_swiss(self) -> bool {
        matches!(self, Format::Swiss(_))
    }
}

/// The result of a pairing.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Points {
    White,
    Black,
    Draw,
}

/// One pairing of a round: `black` is `None` for a bye (scored as a win for `white`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pair {
    pub white: Seed,
    pub black: Option<Seed>,
}

/// A pairing with its result, if it has one yet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Played {
    pub pair: Pair,
    pub result: Option<Points>,
}

/// Round `round` (from 0) of a round robin of `players`, by the circle method: the last seat
/// (a "bye" seat when the count is odd) stays, the others turn one place a round. Colours
/// alternate for every player from round to round, except once around their game with the
/// fixed seat; so everyone's whites and blacks differ by at most one. A double round robin's
/// second cycle repeats the first with colours reversed.
pub fn round_robin(players: usize, round: usize) -> Vec<Pair> {
    let m = players + players % 2;
    if m < 2 {
        return Vec::new();
    }
    let turning = m - 1;
    let (r, reversed) = (round % turning, (round / turning) % 2 == 1);
    let at = |offset: isize| ((r as isize + offset).rem_euclid(turning as isize)) as usize;
    let mut seats = vec![(at(0), turning, r % 2 == 0)];
    for k in 1..m / 2 {
        let (plus, minus) = (at(k as isize), at(-(k as isize)));
        seats.push((plus, minus, k % 2 == 1));
    }
    let mut pairs: Vec<Pair> = seats
        .into_iter()
        .map(|(a, b, a_white)| {
            let (white, black) = if a_white != reversed { (a, b) } else { (b, a) };
            match (white < players, black < players) {
                (true, true) => Pair {
                    white,
                    black: Some(black),
                },
                // The seat past the last player is the bye.
                _ => Pair {
                    white: white.min(black),
                    black: None,
                },
            }
        })
        .collect();
    // Byes last, so boards number the games played.
    pairs.sort_by_key(|p| p.black.is_none());
    pairs
}

/// What Swiss pairing needs to know of a player.
#[derive(Clone, Debug)]
pub struct Entry {
    pub seed: Seed,
    /// Half points so far.
    pub score: u32,
    /// Colours so far, oldest first (true: White); byes add none.
    pub colours: Vec<bool>,
    pub had_bye: bool,
}

impl Entry {
    /// A player's line of the standings, as Swiss pairing reads it.
    pub fn of(s: &Standing) -> Entry {
        let games = s.games.iter().flatten();
        Entry {
            seed: s.seed,
            score: s.score,
            colours: games
                .clone()
                .filter(|g| g.opponent.is_some())
                .map(|g| g.white)
                .collect(),
            had_bye: games.clone().any(|g| g.opponent.is_none()),
        }
    }
}

/// The next Swiss round for `entries` (players still in, any order), never repeating a pairing
/// in `met` if that can be helped. Algorithm (a simplified Dutch system):
/// 1. Rank by score, then seed.
/// 2. With an odd count, the bye goes to the lowest-ranked player who has not had one yet (if
///    nobody is left without one, the lowest-ranked player), trying the next one up if the rest
///    cannot be paired without a rematch.
/// 3. The highest-ranked unpaired player meets, in order of preference: the player half a score
///    group below them (top half against bottom half), the rest of their score group below and
///    then above that, then lower groups from the top (a "float"). Depth-first with backtracking,
///    skipping anyone already met; if no pairing without rematches exists, rematches are allowed.
/// 4. Colours: the player with more blacks than whites gets White; if equal, the one who had
///    Black last; if still equal, the higher-ranked player on odd boards (1, 3, ...) of odd
///    rounds and even boards of even rounds.
pub fn swiss(entries: &[Entry], met: &HashSet<(Seed, Seed)>, round: usize) -> Vec<Pair> {
    let mut ranked: Vec<&Entry> = entries.iter().collect();
    ranked.sort_by(|a, b| b.score.cmp(&a.score).then(a.seed.cmp(&b.seed)));
    let has_met = |a: Seed, b: Seed| met.contains(&(a.min(b), a.max(b)));
    let mut bye = None;
    let mut order: Vec<&Entry> = ranked.clone();
    let mut pairs = None;
    if ranked.len() % 2 == 1 {
        let mut candidates: Vec<usize> = (0..ranked.len())
            .rev()
            .filter(|&i| !ranked[i].had_bye)
            .collect();
        if candidates.is_empty() {
            candidates.push(ranked.len() - 1);
        }
        // One search budget for every candidate, so a hopeless round gives up in time.
        let mut tries = 0;
        for &i in &candidates {
            let mut rest = ranked.clone();
            rest.remove(i);
            if let Some(p) = pair_group(&rest, &has_met, &mut tries) {
                bye = Some(ranked[i].seed);
                pairs = Some(p);
                order = rest;
                break;
            }
        }
        if bye.is_none() {
            let i = candidates[0];
            bye = Some(ranked[i].seed);
            order.remove(i);
        }
    } else {
        pairs = pair_group(&order, &has_met, &mut 0);
    }
    let pairs =
        pairs.unwrap_or_else(|| pair_group(&order, &|_, _| false, &mut 0).unwrap_or_default());
    let by_seed = |s: Seed| {
        entries
            .iter()
            .find(|e| e.seed == s)
            .expect("paired players entered")
    };
    let rank = |s: Seed| {
        ranked
            .iter()
            .position(|e| e.seed == s)
            .unwrap_or(usize::MAX)
    };
    let mut out: Vec<Pair> = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| {
            let (high, low) = if rank(a) < rank(b) { (a, b) } else { (b, a) };
            let high_white = white_first(
                by_seed(high),
                by_seed(low),
                (board + round).is_multiple_of(2),
            );
            let (white, black) = if high_white { (high, low) } else { (low, high) };
            Pair {
                white,
                black: Some(black),
            }
        })
        .collect();
    if let Some(seed) = bye {
        out.push(Pair {
            white: seed,
            black: None,
        });
    }
    out
}

/// Whether `high` (the higher-ranked of the two) should take White against `low`.
fn white_first(high: &Entry, low: &Entry, tie: bool) -> bool {
    let due = |e: &Entry| {
        let whites = e.colours.iter().filter(|&&w| w).count() as i64;
        e.colours.len() as i64 - 2 * whites
    };
    match due(high).cmp(&due(low)) {
        std::cmp::Ordering::Greater => return true,
        std::cmp::Ordering::Less => return false,
        std::cmp::Ordering::Equal => {}
    }
    match (high.colours.last(), low.colours.last()) {
        (Some(false), Some(true)) => true,
        (Some(true), Some(false)) => false,
        _ => tie,
    }
}

/// Tries before the search for a pairing without rematches gives up.
const SEARCH_LIMIT: u32 = 200_000;

/// Pairs `players` (ranked) depth-first; `None` if it cannot be done without a pair `forbidden`
/// allows, or the search ran too long.
fn pair_group(
    players: &[&Entry],
    forbidden: &dyn Fn(Seed, Seed) -> bool,
    tries: &mut u32,
) -> Option<Vec<(Seed, Seed)>> {
    let Some((top, rest)) = players.split_first() else {
        return Some(Vec::new());
    };
    *tries += 1;
    if *tries > SEARCH_LIMIT {
        return None;
    }
    let group = rest.iter().take_while(|e| e.score == top.score).count();
    let half = group.div_ceil(2);
    // Indices into `rest`: the bottom half of the group from its top, then the top half from
    // its bottom, then the lower groups.
    let order = (half.saturating_sub(1)..group)
        .chain((0..half.saturating_sub(1)).rev())
        .chain(group..rest.len());
    for i in order {
        let other = rest[i];
        if forbidden(top.seed, other.seed) {
            continue;
        }
        let mut remaining: Vec<&Entry> = rest.to_vec();
        remaining.remove(i);
        if let Some(mut pairs) = pair_group(&remaining, forbidden, tries) {
            pairs.insert(0, (top.seed, other.seed));
            return Some(pairs);
        }
    }
    None
}

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
        // A bye scores with its round, not when the round is paired.
        let scored = round
            .iter()
            .all(|p| p.pair.black.is_none() || p.result.is_some());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_meets_everyone_once_with_balanced_colours() {
        for n in 2..=16 {
            let rounds = Format::RoundRobin.rounds(n);
            let mut met = HashSet::new();
            let mut whites = vec![0i32; n];
            let mut byes = vec![0; n];
            for r in 0..rounds {
                let pairs = round_robin(n, r);
                let mut seen = HashSet::new();
                for p in &pairs {
                    assert!(seen.insert(p.white), "n={n} r={r}: twice in a round");
                    match p.black {
                        Some(b) => {
                            assert!(seen.insert(b));
                            assert!(
                                met.insert((p.white.min(b), p.white.max(b))),
                                "n={n}: rematch"
                            );
                            whites[p.white] += 1;
                            whites[b] -= 1;
                        }
                        None => byes[p.white] += 1,
                    }
                }
                assert_eq!(seen.len(), n, "n={n} r={r}: everyone plays or has the bye");
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n={n}: every pair meets");
            assert!(
                whites.iter().all(|w| w.abs() <= 1),
                "n={n}: colours {whites:?}"
            );
            assert!(
                byes.iter().all(|&b| b == n % 2),
                "n={n}: one bye each when odd"
            );
        }
    }

    #[test]
    fn double_round_robin_reverses_the_colours() {
        for n in [4, 5] {
            let cycle = Format::RoundRobin.rounds(n);
            for r in 0..cycle {
                for (a, b) in round_robin(n, r).iter().zip(round_robin(n, r + cycle)) {
                    match a.black {
                        Some(black) => assert_eq!((b.white, b.black), (black, Some(a.white))),
                        None => assert_eq!(*a, b),
                    }
                }
            }
        }
    }

    fn entry(seed: Seed, score: u32) -> Entry {
        Entry {
            seed,
            score,
            colours: Vec::new(),
            had_bye: false,
        }
    }

    #[test]
    fn swiss_pairs_top_half_against_bottom_half_and_gives_the_lowest_the_bye() {
        let entries: Vec<Entry> = (0..7).map(|s| entry(s, 0)).collect();
        let pairs = swiss(&entries, &HashSet::new(), 0);
        let as_sets: Vec<(Seed, Option<Seed>)> = pairs
            .iter()
            .map(|p| match p.black {
                Some(b) => (p.white.min(b), Some(p.white.max(b))),
                None => (p.white, None),
            })
            .collect();
        assert_eq!(
            as_sets,
            vec![(0, Some(3)), (1, Some(4)), (2, Some(5)), (6, None)]
        );
    }

    #[test]
    fn swiss_avoids_rematches_and_repeated_byes() {
        // After a round: 0 beat 3, 1 beat 4, 2 beat 5, 6 had the bye.
        let mut entries: Vec<Entry> = (0..7).map(|s| entry(s, 0)).collect();
        for s in [0, 1, 2, 6] {
            entries[s].score = 2;
        }
        entries[6].had_bye = true;
        let met: HashSet<(Seed, Seed)> = [(0, 3), (1, 4), (2, 5)].into_iter().collect();
        let pairs = swiss(&entries, &met, 1);
        let bye = pairs.iter().find(|p| p.black.is_none()).unwrap().white;
        assert_eq!(bye, 5, "the lowest-ranked player without a bye");
        for p in &pairs {
            if let Some(b) = p.black {
                assert!(
                    !met.contains(&(p.white.min(b), p.white.max(b))),
                    "{p:?} is a rematch"
                );
            }
        }
        // The winners' group {0, 1, 2, 6}: 0-2 (top half vs bottom half: 0 meets the third).
        assert!(pairs.iter().any(|p| p.black.is_some()
            && p.white.min(p.black.unwrap()) == 0
            && p.white.max(p.black.unwrap()) == 2));
    }

    #[test]
    fn a_swiss_as_long_as_a_round_robin_still_pairs_everyone_every_round() {
        // 8 players, 7 rounds: late rounds have few pairings left without a rematch, and one
        // may not exist; everyone is still paired, with rematches only as the last resort.
        let mut rounds: Vec<Vec<Played>> = Vec::new();
        let mut met = HashSet::new();
        for r in 0..7 {
            let table = standings(8, &rounds, Format::Swiss(7));
            let entries: Vec<Entry> = table.iter().map(Entry::of).collect();
            let pairs = swiss(&entries, &met, r);
            assert_eq!(pairs.len(), 4, "round {r}: everyone plays");
            let mut seen = HashSet::new();
            for p in &pairs {
                assert!(seen.insert(p.white) && seen.insert(p.black.unwrap()));
                met.insert((p.white.min(p.black.unwrap()), p.white.max(p.black.unwrap())));
            }
            rounds.push(
                pairs
                    .iter()
                    .map(|&pair| Played {
                        pair,
                        result: Some(Points::White),
                    })
                    .collect(),
            );
        }
    }

    #[test]
    fn swiss_colours_go_to_who_is_due() {
        let mut a = entry(0, 2);
        a.colours = vec![true];
        let mut b = entry(1, 2);
        b.colours = vec![false];
        let pairs = swiss(&[a, b], &HashSet::new(), 1);
        assert_eq!(
            pairs,
            vec![Pair {
                white: 1,
                black: Some(0)
            }]
        );
    }

    #[test]
    fn sonneborn_berger_counts_beaten_and_half_the_drawn() {
        // 0 beats 1, 0 draws 2, 1 beats 2.
        let played = |w, b, r| Played {
            pair: Pair {
                white: w,
                black: Some(b),
            },
            result: Some(r),
        };
        let rounds = vec![
            vec![played(0, 1, Points::White)],
            vec![played(2, 0, Points::Draw)],
            vec![played(1, 2, Points::White)],
        ];
        let table = standings(3, &rounds, Format::RoundRobin);
        assert_eq!(
            table.iter().map(|s| s.seed).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        // 0: 1½ points; SB = score(1) + ½ score(2) = 1 + ¼ = 1.25 → 5 quarters.
        assert_eq!((table[0].score, table[0].first_tiebreak), (3, 5));
        assert_eq!(quarters(5), "1.25");
        assert_eq!(halves(3), "1½");
    }

    #[test]
    fn a_swiss_table_mid_event_counts_finished_games_and_scored_byes_only() {
        // alice 0, bob 1, carol 2, dave 3, eve 4. Round 1: alice beat carol, bob beat dave, eve
        // had the bye. Round 2 is paired and unplayed: alice-bob, eve-carol, dave's bye.
        let pair = |white, black| Pair { white, black };
        let round1 = vec![
            Played {
                pair: pair(0, Some(2)),
                result: Some(Points::White),
            },
            Played {
                pair: pair(1, Some(3)),
                result: Some(Points::White),
            },
            Played {
                pair: pair(4, None),
                result: None,
            },
        ];
        let round2 = vec![
            Played {
                pair: pair(0, Some(1)),
                result: None,
            },
            Played {
                pair: pair(4, Some(2)),
                result: None,
            },
            Played {
                pair: pair(3, None),
                result: None,
            },
        ];
        let table = standings(5, &[round1.clone(), round2.clone()], Format::Swiss(3));
        let line = |seed: Seed| table.iter().find(|s| s.seed == seed).unwrap().clone();
        // Half points: winners and eve's scored bye 2; dave's round-2 bye waits for its round.
        let scores: Vec<u32> = (0..5).map(|s| line(s).score).collect();
        assert_eq!(scores, vec![2, 2, 0, 0, 2]);
        // Buchholz over finished games: bob's one opponent (dave) has 0, carol's (alice) 1.
        assert_eq!(line(1).first_tiebreak, 0);
        assert_eq!(line(2).first_tiebreak, 2);
        assert_eq!(line(3).first_tiebreak, 2);
        assert_eq!(
            line(3).games[1].unwrap().score,
            None,
            "the bye is not scored yet"
        );
        // Round 2 is played out: now dave's bye counts.
        let mut done = round2;
        done[0].result = Some(Points::Draw);
        done[1].result = Some(Points::Black);
        let table = standings(5, &[round1, done], Format::Swiss(3));
        let dave = table.iter().find(|s| s.seed == 3).unwrap();
        assert_eq!(dave.score, 2);
    }
}
