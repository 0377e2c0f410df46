//! Glicko-2 ratings, kept per game and board size as PlayTak keeps them: a 5x5 win says nothing
//! about a player's 7x7. Tak's 3x3 and 4x4 are never rated: 3x3 is solved and 4x4 nearly so,
//! so a win there measures who moved first more than who plays better.

use crate::game::{Ending, Kind};
use crate::store::records::{ArchivedGame, Glicko, PlayerRecord, PlayerRef};
use crate::tak::Color;
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

pub const DEFAULT_RATING: f64 = 1500.0;

/// The smallest Tak board whose games are rated.
pub const SMALLEST_RATED_TAK: usize = 5;

/// Whether games of `game` on `size` (Tak's side, Takat's circles) can be rated.
pub fn rated_size(game: Kind, size: usize) -> bool {
    game == Kind::Takat || size >= SMALLEST_RATED_TAK
}

/// Why a rated game of this size cannot be asked for, if it cannot.
pub fn unrated_reason(game: Kind, size: usize) -> Option<String> {
    (!rated_size(game, size)).then(|| {
        format!(
            "{size}x{size} games are never rated ({}): leave rated off, or play on 5x5 to 8x8",
            if size == 3 {
                "3x3 is solved: the first player wins"
            } else {
                "4x4 is too small to tell strength from the first move"
            }
        )
    })
}

/// A player with no game of this size yet.
pub fn newcomer(guild: u64, game: Kind, size: usize, user: PlayerRef) -> PlayerRecord {
    PlayerRecord {
        guild,
        game,
        size,
        user,
        rating: DEFAULT_RATING,
        deviation: 350.0,
        volatility: 0.06,
        rated_games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
    }
}

/// Plies each player must have made before a game may move ratings. A game decided sooner (a
/// time-out on the second ply, a resignation at once, a draw agreed before the game began)
/// says nothing of strength: lichess aborts, unrated, a game decided before both players have
/// moved. Such a game's result still counts everywhere else (records, standings, series).
pub const PLIES_EACH_TO_RATE: usize = 3;

/// Whether a game decided after `plies` plies in all came too early to move ratings.
pub fn too_early_to_rate(plies: usize) -> bool {
    plies < 2 * PLIES_EACH_TO_RATE
}

/// Why a rated game decided after `plies` plies moves no rating, if it does not.
pub fn too_early_reason(plies: usize) -> Option<String> {
    too_early_to_rate(plies)
        .then(|| format!("Unrated: decided before each player made {PLIES_EACH_TO_RATE} plies."))
}

/// Counts `result` in the records of White and Black and, if `rated` and the game lasted
/// `plies` plies or more of [`PLIES_EACH_TO_RATE`] each, moves their ratings: the changes,
/// White's then Black's. An abandoned game counts for nothing.
pub fn score(
    records: &mut [PlayerRecord; 2],
    result: Ending,
    rated: bool,
    plies: usize,
) -> Option<[f64; 2]> {
    if result.is_abandoned() {
        return None;
    }
    for (i, r) in records.iter_mut().enumerate() {
        match result.winner() {
            None => r.draws += 1,
            Some(w) if w.index() == i => r.wins += 1,
            Some(_) => r.losses += 1,
        }
    }
    if !rated || too_early_to_rate(plies) || !rated_size(records[0].game, records[0].size) {
        return None;
    }
    let as_glicko = |r: &PlayerRecord| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let outcome = match result.winner() {
        Some(Color::White) => Outcomes::WIN,
        Some(Color::Black) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (w, b) = glicko2(
        &as_glicko(&records[0]),
        &as_glicko(&records[1]),
        &outcome,
        &Glicko2Config::new(),
    );
    let changes = [w.rating - records[0].rating, b.rating - records[1].rating];
    for (r, new) in records.iter_mut().zip([w, b]) {
        r.rating = new.rating;
        r.deviation = new.deviation;
        r.volatility = new.volatility;
        r.rated_games += 1;
    }
    Some(changes)
}

/// Every player record that `games` make, replayed in the order they finished: how records
/// kept before ratings were per size are rebuilt, each on the size it was earned on.
pub fn replay(mut games: Vec<ArchivedGame>) -> Vec<PlayerRecord> {
    games.sort_by_key(|g| (g.finished_ms, g.id));
    let mut records: std::collections::BTreeMap<(u64, u64, bool, usize), PlayerRecord> =
        Default::default();
    for g in games {
        let key = |p: &PlayerRef| {
            (
                g.guild,
                p.id,
                g.settings.game == Kind::Takat,
                g.settings.size,
            )
        };
        let mut pair = g.players.clone().map(|p| {
            let mut r = records
                .remove(&key(&p))
                .unwrap_or_else(|| newcomer(g.guild, g.settings.game, g.settings.size, p.clone()));
            r.user = p;
            r
        });
        score(&mut pair, g.result, g.settings.rated, g.plies.len());
        for r in pair {
            records.insert(key(&r.user), r);
        }
    }
    records.into_values().collect()
}

/// A puzzle attempt as a Glicko-2 game between the player and the puzzle: solving it is the
/// player's win. Both ratings move; the player's change is returned.
pub fn puzzle_result(player: &mut Glicko, puzzle: &mut Glicko, solved: bool) -> f64 {
    let as_glicko = |g: &Glicko| Glicko2Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    };
    let outcome = match solved {
        true => Outcomes::WIN,
        false => Outcomes::LOSS,
    };
    let (p, z) = glicko2(
        &as_glicko(player),
        &as_glicko(puzzle),
        &outcome,
        &Glicko2Config::new(),
    );
    let change = p.rating - player.rating;
    for (g, new) in [(player, p), (puzzle, z)] {
        *g = Glicko {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
        };
    }
    change
}

/// A first Glicko-2 rating: a newcomer's, or a puzzle's before anyone tried it, with the
/// volatility Glicko-2 starts everyone with.
pub fn first_glicko(rating: f64, deviation: f64) -> Glicko {
    Glicko {
        rating,
        deviation,
        volatility: 0.06,
    }
}
