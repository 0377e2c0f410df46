//! Ending a game: archive with PTN, series points, ratings and stats, all in one change.

use super::settings::WebPage;
use super::{Ctx, Finished, Outcome, Refusal, Service};
use crate::game::{Decision, Ending, Match};
use crate::ratings;
use crate::store::records::*;
use crate::store::Change;

/// The game as PTN with the tags of the archive.
pub fn ptn_text(players: &[PlayerRef; 2], game: &Match, now_ms: i64) -> String {
    ptn_text_commented(players, game, now_ms, &[])
}

/// `ptn_text` with a player's own comments (`said[i]` after ply `i`, `said[0]` before the first).
pub fn ptn_text_commented(
    players: &[PlayerRef; 2],
    game: &Match,
    now_ms: i64,
    said: &[Vec<String>],
) -> String {
    game.record_commented(
        &[
            ("Site", "Bredon on Discord".to_string()),
            ("Date", ptn_date(now_ms)),
            ("Player1", players[0].name.clone()),
            ("Player2", players[1].name.clone()),
        ],
        said,
    )
}

/// `YYYY.MM.DD` (UTC) for a time in milliseconds since 1970.
pub fn ptn_date(ms: i64) -> String {
    // Civil-from-days (Howard Hinnant's algorithm).
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!("{year:04}.{month:02}.{day:02}")
}

/// A PTN Ninja link that opens the game: the PTN compressed the way PTN Ninja's router reads it
/// (lz-string's `compressToEncodedURIComponent`, recognised by matching `^[A-Za-z0-9$+-]+$`).
/// About 8 plies per 10 characters, so even long games fit in a Discord message more often.
pub fn ninja_link(ptn: &str) -> String {
    format!(
        "https://ptn.ninja/{}",
        lz_str::compress_to_encoded_uri_component(ptn)
    )
}

impl Service {
    /// The end of `game` (whose record had `expect_seq`): what happened, and the change that
    /// stores it, with `coins` already moving in the same change (a Tak fee paid by the last
    /// ply); a University game also pays out its pot.
    pub(super) fn finish(
        &self,
        ctx: &Ctx,
        game: LiveGame,
        g: &Match,
        result: Ending,
        expect_seq: u64,
        mut coins: Vec<crate::store::CoinChange>,
    ) -> Result<(Finished, Change), Refusal> {
        let (payout, paid) = self.payout(&game, g, result, &coins)?;
        coins.extend(payout.changes);
        let ledger: Vec<CoinMove> = game
            .purse
            .iter()
            .flat_map(|p| p.ledger.iter().cloned())
            .chain(payout.lines)
            .collect();
        let ptn = ptn_text(&game.players, g, ctx.now_ms);
        let mut series = game.series.clone();
        let counted = !result.is_abandoned();
        if counted {
            series.games += 1;
        }
        // A tournament game is scored by its tournament, not as a series between two players.
        if let Some(winner) = result
            .winner()
            .filter(|_| counted && game.fixture.is_none())
        {
            let points = g.points(winner);
            let id = game.players[winner.index()].id;
            for entry in series.points.iter_mut().filter(|(u, _)| *u == id) {
                entry.1 += points;
            }
        }
        let (kind, size) = (game.settings.game, game.settings.size);
        let mut records = Vec::new();
        for p in &game.players {
            let mut record = self
                .store
                .player(game.guild, p.id, kind, size)?
                .unwrap_or_else(|| ratings::newcomer(game.guild, kind, size, p.clone()));
            record.user = p.clone();
            records.push(record);
        }
        let mut records: [PlayerRecord; 2] = records.try_into().expect("a game has two players");
        let plies = game.plies.len();
        let before = [records[0].rating, records[1].rating];
        let rating_changes = ratings::score(&mut records, result, game.settings.rated, plies);
        // A rated game decided too early says so, or players would wonder why nothing moved.
        let unrated_why = ratings::too_early_reason(plies)
            .filter(|_| game.settings.rated && ratings::rated_size(kind, size));
        let archive = ArchivedGame {
            id: game.id,
            number: game.number,
            guild: game.guild,
            channel: game.channel,
            players: game.players.clone(),
            settings: game.settings.clone(),
            plies: game.plies.clone(),
            result,
            ptn: ptn.clone(),
            started_ms: game.started_ms,
            finished_ms: ctx.now_ms,
            rating_changes,
            series: series.clone(),
            ledger,
            fixture: game.fixture,
            ply_ms: game.ply_ms.clone(),
            ratings_before: rating_changes.map(|_| before),
        };
        // A tournament game's result is stored with its end, so it is never lost or counted
        // twice; the tournament itself learns of it from `tournament_news`.
        let results = match (game.fixture, result.winner()) {
            (Some(f), winner) if counted => vec![(
                f,
                PairingResult {
                    points: match winner {
                        Some(crate::tak::Color::White) => crate::tournament::Points::White,
                        Some(crate::tak::Color::Black) => crate::tournament::Points::Black,
                        None => crate::tournament::Points::Draw,
                    },
                    how: How::Played,
                },
            )],
            _ => Vec::new(),
        };
        let change = Change {
            channel: game.channel,
            expect_seq: Some(expect_seq),
            game: None,
            archive: Some(archive),
            players: if counted {
                records.to_vec()
            } else {
                Vec::new()
            },
            coins,
            results,
            ..Change::default()
        };
        let mut reason = if counted {
            let names = [game.players[0].name.as_str(), game.players[1].name.as_str()];
            let mut reason = format!(
                "{} ({}).",
                result.describe_with(game.settings.komi, names),
                result.code()
            );
            for note in unrated_why
                .iter()
                .chain(Some(&paid).filter(|p| !p.is_empty()))
            {
                reason.push(' ');
                reason.push_str(note);
            }
            reason
        } else {
            format!(
                "{} aborted the game ({}); it does not count.{}{paid}",
                ctx.user.name,
                result.code(),
                if paid.is_empty() { "" } else { " " }
            )
        };
        // The number players type to see the game again (/board, /ptn, /analyze `game:`).
        reason.push_str(&format!(" Game #{}.", game.shown_number()));
        // In the series' own order (its first game's seats), so the line keeps its sides
        // while the players swap colours game by game.
        let score = |i: usize| {
            let (id, points) = series.points[i];
            let p = game.players.iter().find(|p| p.id == id);
            (p.unwrap_or(&game.players[i]).clone(), points)
        };
        let record = super::Record::new(ptn, game.settings.game);
        let finished = Finished {
            result,
            reason,
            link: record.link,
            file: record.file.into(),
            ptn: record.text,
            ratings: match rating_changes {
                Some(ch) => records
                    .iter()
                    .zip(ch)
                    .map(|(r, c)| (r.user.clone(), r.rating, c))
                    .collect(),
                None => Vec::new(),
            },
            rated_board: kind.board(size),
            series: [score(0), score(1)],
            series_games: series.games,
        };
        Ok((finished, change))
    }

    pub(super) fn decided(
        &self,
        ctx: &Ctx,
        game: LiveGame,
        mut g: Match,
        decision: Decision,
    ) -> Result<Outcome, Refusal> {
        let result = g.decide(decision).map_err(Refusal)?;
        let seq = game.seq;
        let (finished, change) = self.finish(ctx, game.clone(), &g, result, seq, Vec::new())?;
        let outcome = Outcome {
            tournament: game.fixture.map(|f| f.tournament),
            text: finished.reason.clone(),
            ping: game.players.to_vec(),
            prompt: Self::rematch_prompt(&game),
            board: Some(Self::board(&game, g, ctx.now_ms)),
            finished: Some(finished),
            page: self.web_path(game.guild, WebPage::Game(game.shown_number()))?,
            ..Outcome::default()
        };
        self.commit(ctx, change, outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(ptn_date(0), "1970.01.01");
        assert_eq!(ptn_date(951_782_400_000), "2000.02.29");
        assert_eq!(ptn_date(1_795_305_600_000), "2026.11.22");
    }

    #[test]
    fn links_hold_the_ptn_compressed_as_ptn_ninja_reads_it() {
        let ptn = "[Size \"5\"]\n[Player1 \"ålice\"]\n\n1. a1 e5\n2. 2c3>11' Sd4\n";
        let link = ninja_link(ptn);
        let tail = link.strip_prefix("https://ptn.ninja/").unwrap();
        assert!(
            tail.chars()
                .all(|c| c.is_ascii_alphanumeric() || "$+-".contains(c)),
            "PTN Ninja decompresses only text of this alphabet: {tail}"
        );
        let back = lz_str::decompress_from_encoded_uri_component(tail).unwrap();
        assert_eq!(String::from_utf16(&back).unwrap(), ptn);
    }
}
