//! Who plays whom in a round: round robin by the circle method, Swiss by score groups (players of
//! equal score paired top half against bottom half, never twice, colours balanced).

use super::standings::Standing;
use super::{Pair, Seed};
use std::collections::HashSet;

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
