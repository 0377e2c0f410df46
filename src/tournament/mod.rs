//! Tournaments as plain data: who plays whom in each round (round robin by the circle method,
//! Swiss by score groups) and the standings with their tie-breaks. Players are seeds: indices
//! into the entry list, in the order they joined. Nothing here knows of games, storage or Discord.
//!
//! Scores are kept in half points (a win is 2, a draw 1) so that every sum is exact.

mod pairings;
mod standings;

pub use pairings::{round_robin, swiss, Entry};
pub use standings::{halves, played_out, quarters, standings, Game, Standing};

use serde::{Deserialize, Serialize};

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

    pub fn is_swiss(self) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

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
