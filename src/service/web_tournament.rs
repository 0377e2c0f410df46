//! What the web pages show of a server's tournaments, as plain data: the list on the server's
//! page, and one tournament's page built from the same view `/tournament standings` and
//! `/tournament pairings` use (its standings rows, crosstable cells and round lines), so the
//! page and Discord cannot disagree. Display names only.

use super::*;
use crate::render::crosstable::CrosstableText;

/// A tournament as the server's page lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct WebTournamentLine {
    pub id: u64,
    pub name: String,
    pub state: String,
}

/// One pairing of a round: White, the score between the names ("vs" while played), Black
/// (`None`: a bye), and its game's number in the server once it started.
#[derive(Clone, Debug, PartialEq)]
pub struct WebPairing {
    pub white: String,
    pub score: String,
    pub black: Option<String>,
    pub number: Option<u64>,
}

/// One tournament's page.
#[derive(Clone, Debug, PartialEq)]
pub struct WebTournament {
    pub name: String,
    /// "round robin", "Swiss, 3 rounds".
    pub format: String,
    /// Its games' settings: "Tak on 5x5, komi 0, rated, 1 day per move".
    pub settings: String,
    /// "round 2 of 3", "finished", "taking entries; ...".
    pub state: String,
    pub entrants: Vec<String>,
    /// The tie-breaks' column names after the points.
    pub tiebreaks: Vec<&'static str>,
    pub standings: Vec<StandingRow>,
    pub crosstable: CrosstableText,
    /// Every round paired so far, first to last.
    pub rounds: Vec<Vec<WebPairing>>,
}

impl Service {
    /// The server's tournaments, newest first.
    pub fn web_tournaments(&self, guild: u64) -> Result<Vec<WebTournamentLine>, Refusal> {
        let hidden = self.hidden_channels(guild)?;
        let mut theirs: Vec<Tournament> = self
            .store
            .tournaments()?
            .into_iter()
            .filter(|t| t.guild == guild && !hidden.contains(&t.channel))
            .collect();
        theirs.sort_by_key(|t| std::cmp::Reverse((t.created_ms, t.id)));
        theirs
            .into_iter()
            .map(|t| {
                Ok(WebTournamentLine {
                    id: t.id,
                    name: t.name.clone(),
                    state: self.with_results(t)?.state(),
                })
            })
            .collect()
    }

    /// Tournament `id` if it is the server's.
    pub fn web_tournament(&self, guild: u64, id: u64) -> Result<Option<WebTournament>, Refusal> {
        let hidden = self.hidden_channels(guild)?;
        let found = self.store.tournament(id)?;
        let Some(t) = found.filter(|t| t.guild == guild && !hidden.contains(&t.channel)) else {
            return Ok(None);
        };
        let view = self.with_results(t)?;
        let t = &view.tournament;
        let rounds = (0..t.rounds.len())
            .map(|r| {
                view.round_lines(r)
                    .into_iter()
                    .map(|line| WebPairing {
                        score: line.score(),
                        white: line.white.name,
                        black: line.black.map(|b| b.name),
                        number: line.number,
                    })
                    .collect()
            })
            .collect();
        Ok(Some(WebTournament {
            name: t.name.clone(),
            format: t.format.describe(),
            settings: describe_settings(&t.settings),
            state: view.state(),
            entrants: t.entrants.iter().map(|e| e.player.name.clone()).collect(),
            tiebreaks: view.tiebreak_names().to_vec(),
            standings: view.standing_rows(),
            crosstable: view.crosstable_cells(),
            rounds,
        }))
    }
}

/// A tournament's game settings in words, as its announcement gives them and then some.
fn describe_settings(s: &GameSettings) -> String {
    let mut parts = vec![describe_game(s)];
    parts.push(if s.rated { "rated" } else { "unrated" }.into());
    if s.game == Kind::Tak && s.opening == crate::tak::Opening::NoSwap {
        parts.push("no swap".into());
    }
    if let Some(t) = s.time_limit_secs {
        parts.push(format!("{} per move", options::describe_secs(t)));
    }
    parts.join(", ")
}
