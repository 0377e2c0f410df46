//! A player's web page, as plain data: their ratings per size with the history the archived
//! games' rating changes give, their newest results and their record against each opponent,
//! all of one server. A player is found by an opaque key: an HMAC-SHA256 of their user id
//! under the server's random web secret (kept in its settings, never shown, renewed with the
//! pages' address), so a key neither is nor reveals the id, and one server's key opens nothing
//! on another.

use super::*;
use crate::game::Ending;
use crate::ratings;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The newest results a player's page lists.
const RESULTS_SHOWN: usize = 30;

/// Hex digits of a player's key: 64 bits of the HMAC.
const KEY_DIGITS: usize = 16;

/// One rated size of a player: as the leaderboard shows it, and how it went, oldest first
/// (the first point is the rating before the first rated game counted here).
#[derive(Clone, Debug, PartialEq)]
pub struct WebRating {
    pub board: String,
    pub rating: f64,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub history: Vec<(i64, f64)>,
}

/// One finished game, from the player's side.
#[derive(Clone, Debug, PartialEq)]
pub struct WebPlayerResult {
    pub number: u64,
    pub board: String,
    /// "White" or "Black": the side the player had.
    pub side: &'static str,
    pub opponent: String,
    pub opponent_key: String,
    /// "won", "lost", "drew" or "abandoned".
    pub outcome: &'static str,
    pub code: String,
    pub how: String,
    pub finished_ms: i64,
    pub rating_change: Option<f64>,
}

/// The player's record against one opponent, over every finished game of the server.
#[derive(Clone, Debug, PartialEq)]
pub struct WebRival {
    pub name: String,
    pub key: String,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A player's page.
#[derive(Clone, Debug, PartialEq)]
pub struct WebPlayerPage {
    pub name: String,
    pub ratings: Vec<WebRating>,
    pub results: Vec<WebPlayerResult>,
    pub rivals: Vec<WebRival>,
}

/// The key of `user`'s page in a server whose web secret is `secret`.
pub(super) fn player_key(secret: &str, user: u64) -> String {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(b"bredon web player ");
    mac.update(&user.to_be_bytes());
    mac.finalize().into_bytes()[..KEY_DIGITS / 2]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Service {
    /// The secret a server's player keys are made with, if its pages have one.
    pub(super) fn web_secret(&self, guild: u64) -> Result<Option<String>, Refusal> {
        Ok(self.store.settings(guild)?.web_secret)
    }

    /// The page of the player whose key in this server is `key`, if one has it.
    pub fn web_player_page(&self, guild: u64, key: &str) -> Result<Option<WebPlayerPage>, Refusal> {
        let well_formed =
            key.len() == KEY_DIGITS && key.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let Some(secret) = self.web_secret(guild)?.filter(|_| well_formed) else {
            return Ok(None);
        };
        let mut records = Vec::new();
        for kind in Kind::ALL {
            records.extend(self.store.players(guild, kind)?);
        }
        let Some(user) = records
            .iter()
            .map(|r| r.user.clone())
            .find(|u| player_key(&secret, u.id) == key)
        else {
            return Ok(None);
        };
        records.retain(|r| r.user.id == user.id);
        let mut games = self.store.history(user.id, usize::MAX)?;
        let hidden = self.hidden_channels(guild)?;
        games.retain(|g| g.guild == guild && !hidden.contains(&g.channel));
        let ratings = web_ratings(&records, &games, user.id);
        let seat = |g: &ArchivedGame| usize::from(g.players[1].id == user.id);
        let results = games
            .iter()
            .take(RESULTS_SHOWN)
            .map(|g| player_result(g, seat(g), &secret))
            .collect();
        Ok(Some(WebPlayerPage {
            name: games
                .first()
                .map_or(user.name.clone(), |g| g.players[seat(g)].name.clone()),
            ratings,
            results,
            rivals: rivals(&games, user.id, &secret),
        }))
    }
}

/// The player's Tak ratings of the sizes the leaderboards rank, each with its history worked
/// back from the rating now through the changes the archived games keep.
fn web_ratings(records: &[PlayerRecord], games: &[ArchivedGame], user: u64) -> Vec<WebRating> {
    let mut rated: Vec<&PlayerRecord> = records
        .iter()
        .filter(|r| r.game == Kind::Tak && r.rated_games > 0)
        .filter(|r| ratings::rated_size(Kind::Tak, r.size))
        .collect();
    rated.sort_by_key(|r| r.size);
    rated
        .into_iter()
        .map(|r| {
            let mut rating = r.rating;
            let mut history = Vec::new();
            let mut first_start = None;
            for g in games
                .iter()
                .filter(|g| g.settings.game == Kind::Tak && g.settings.size == r.size)
            {
                let Some(changes) = g.rating_changes else {
                    continue;
                };
                history.push((g.finished_ms, rating));
                rating -= changes[usize::from(g.players[1].id == user)];
                first_start = Some(g.started_ms);
            }
            if let Some(start) = first_start {
                history.push((start, rating));
            }
            history.reverse();
            WebRating {
                board: Kind::Tak.board(r.size),
                rating: r.rating,
                wins: r.wins,
                losses: r.losses,
                draws: r.draws,
                history,
            }
        })
        .collect()
}

/// "won", "lost", "drew" or "abandoned", for the player in seat `seat`.
fn outcome(result: &Ending, seat: usize) -> &'static str {
    match result.winner() {
        _ if result.is_abandoned() => "abandoned",
        None => "drew",
        Some(w) if w.index() == seat => "won",
        Some(_) => "lost",
    }
}

fn player_result(g: &ArchivedGame, seat: usize, secret: &str) -> WebPlayerResult {
    let opponent = &g.players[1 - seat];
    WebPlayerResult {
        number: g.shown_number(),
        board: g.settings.game.board(g.settings.size),
        side: ["White", "Black"][seat],
        opponent: opponent.name.clone(),
        opponent_key: player_key(secret, opponent.id),
        outcome: outcome(&g.result, seat),
        code: g.result.code().to_string(),
        how: g.result.how().to_string(),
        finished_ms: g.finished_ms,
        rating_change: g.rating_changes.map(|c| c[seat]),
    }
}

/// Wins, losses and draws against each opponent (abandoned games count for nothing), the most
/// played first; each opponent under the name of their newest game.
fn rivals(games: &[ArchivedGame], user: u64, secret: &str) -> Vec<WebRival> {
    let mut rivals: Vec<(u64, WebRival)> = Vec::new();
    for g in games.iter().filter(|g| !g.result.is_abandoned()) {
        let seat = usize::from(g.players[1].id == user);
        let opponent = &g.players[1 - seat];
        let at = match rivals.iter().position(|(id, _)| *id == opponent.id) {
            Some(at) => at,
            None => {
                rivals.push((
                    opponent.id,
                    WebRival {
                        name: opponent.name.clone(),
                        key: player_key(secret, opponent.id),
                        wins: 0,
                        losses: 0,
                        draws: 0,
                    },
                ));
                rivals.len() - 1
            }
        };
        let rival = &mut rivals[at].1;
        match outcome(&g.result, seat) {
            "won" => rival.wins += 1,
            "lost" => rival.losses += 1,
            _ => rival.draws += 1,
        }
    }
    let mut rivals: Vec<WebRival> = rivals.into_iter().map(|(_, r)| r).collect();
    rivals.sort_by(|a, b| {
        let games = |r: &WebRival| r.wins + r.losses + r.draws;
        games(b).cmp(&games(a)).then(a.name.cmp(&b.name))
    });
    rivals
}
