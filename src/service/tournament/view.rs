//! How a tournament is shown: standings, the table, the crosstable and each round's lines.

use super::*;

/// A tournament with its results, as `/tournament standings` and `pairings` show it.
#[derive(Clone, Debug)]
pub struct TournamentView {
    pub tournament: Tournament,
    pub results: HashMap<(u32, u32), PairingResult>,
}

impl TournamentView {
    fn played(&self) -> Vec<Vec<Played>> {
        self.tournament
            .rounds
            .iter()
            .enumerate()
            .map(|(r, round)| {
                round
                    .iter()
                    .enumerate()
                    .map(|(b, p)| Played {
                        pair: Pair {
                            white: p.white,
                            black: p.black,
                        },
                        result: self.results.get(&(r as u32, b as u32)).map(|x| x.points),
                    })
                    .collect()
            })
            .collect()
    }

    pub fn standings(&self) -> Vec<Standing> {
        let t = &self.tournament;
        pairing::standings(t.entrants.len(), &self.played(), t.format)
    }

    fn name(&self, seed: usize) -> &str {
        &self.tournament.entrants[seed].player.name
    }

    /// The tie-breaks after the points, in the order both tables show them: Buchholz and
    /// median-Buchholz in a Swiss tournament, Sonneborn-Berger in a round robin.
    pub fn tiebreak_names(&self) -> &'static [&'static str] {
        match self.tournament.format {
            Format::Swiss(_) => &["Bu", "mBu"],
            _ => &["SB"],
        }
    }

    /// The standings as rows of text, best first: what `/tournament standings` sets in its
    /// table and the web page in its own.
    pub fn standing_rows(&self) -> Vec<StandingRow> {
        let t = &self.tournament;
        let swiss = matches!(t.format, Format::Swiss(_));
        self.standings()
            .iter()
            .enumerate()
            .map(|(i, s)| StandingRow {
                rank: i + 1,
                seed: s.seed,
                name: self.name(s.seed).to_string(),
                withdrawn: t.entrants[s.seed].withdrawn,
                points: pairing::halves(s.score),
                tiebreaks: if swiss {
                    vec![
                        pairing::halves(s.first_tiebreak),
                        pairing::halves(s.second_tiebreak),
                    ]
                } else {
                    vec![pairing::quarters(s.first_tiebreak)]
                },
            })
            .collect()
    }

    /// The standings as a fixed-width table (for a code block), at most `rows` rows.
    pub fn table_text(&self, rows: usize) -> String {
        // Each tie-break's column width: the Buchholz pair, or Sonneborn-Berger's quarters.
        let widths: &[usize] = match self.tiebreak_names() {
            [_, _] => &[5, 5],
            _ => &[6],
        };
        let mut out = format!("{:>2}  {:<16} {:>4}", "#", "Player", "Pts");
        for (name, width) in self.tiebreak_names().iter().zip(widths) {
            out.push_str(&format!(" {name:>width$}"));
        }
        out.push('\n');
        let table = self.standing_rows();
        for row in table.iter().take(rows) {
            let mut name: String = row.name.chars().take(16).collect();
            if row.withdrawn {
                name = format!("{}(w)", name.chars().take(13).collect::<String>());
            }
            let pad = 16usize.saturating_sub(name.chars().count());
            let name = format!("{name}{}", " ".repeat(pad));
            out.push_str(&format!("{:>2}  {name} {:>4}", row.rank, row.points));
            for (value, width) in row.tiebreaks.iter().zip(widths) {
                out.push_str(&format!(" {value:>width$}"));
            }
            out.push('\n');
        }
        if table.len() > rows {
            out.push_str(&format!(
                "… and {} more (see the picture)\n",
                table.len() - rows
            ));
        }
        out
    }

    /// A Swiss bye of the round being played, which the table does not count yet (it scores
    /// with its round): "dave has the bye in round 1: 1 point once the round's games end."
    fn bye_to_score(&self) -> Option<String> {
        let t = &self.tournament;
        if !t.format.is_swiss() || t.phase != Phase::Running {
            return None;
        }
        let played = self.played();
        let round = played.last().filter(|round| !pairing::played_out(round))?;
        let bye = round.iter().find(|p| p.pair.black.is_none())?;
        Some(format!(
            "{} has the bye in round {}: 1 point once the round's games end.",
            self.name(bye.pair.white),
            played.len()
        ))
    }

    /// Where the tournament stands, in words: "round 2 of 3", "finished".
    pub fn state(&self) -> String {
        let t = &self.tournament;
        match t.phase {
            Phase::Open => format!("taking entries; {}", describe_start(t.start)),
            Phase::Running => format!(
                "round {} of {}",
                t.rounds.len(),
                t.format.rounds(t.entrants.len())
            ),
            Phase::Finished => "finished".into(),
            Phase::Cancelled => "cancelled".into(),
        }
    }

    /// The crosstable as posted: in the games' theme, with its description.
    pub fn crosstable(&self) -> crate::service::Picture {
        let t = &self.tournament;
        crate::service::Picture {
            file: "crosstable.png".into(),
            png: self.crosstable_png(&Theme::named(&t.settings.theme).unwrap_or_default()),
            alt: format!("Crosstable of {}", t.name),
        }
    }

    /// The crosstable picture in `theme`.
    pub fn crosstable_png(&self, theme: &Theme) -> Vec<u8> {
        self.with_crosstable(|table| crate::render::encode_png(&render_crosstable(table, theme)))
    }

    /// The crosstable as text, cell by cell, as the picture draws it (for the web page).
    pub fn crosstable_cells(&self) -> CrosstableText {
        self.with_crosstable(CrosstableText::of)
    }

    fn with_crosstable<R>(&self, work: impl FnOnce(&Crosstable) -> R) -> R {
        let t = &self.tournament;
        let names: Vec<String> = t.entrants.iter().map(|e| e.player.name.clone()).collect();
        let withdrawn: Vec<bool> = t.entrants.iter().map(|e| e.withdrawn).collect();
        let table = self.standings();
        work(&Crosstable {
            title: &format!("{} · {}", t.name, t.format.describe()),
            names: &names,
            withdrawn: &withdrawn,
            standings: &table,
            format: t.format,
            rounds: t.format.rounds(t.entrants.len()),
        })
    }

    /// The round's pairings, one line each: (board, white, black or none, thread, result).
    pub fn round_lines(&self, round: usize) -> Vec<RoundLine> {
        let t = &self.tournament;
        let Some(pairings) = t.rounds.get(round) else {
            return Vec::new();
        };
        pairings
            .iter()
            .enumerate()
            .map(|(b, p)| RoundLine {
                white: t.entrants[p.white].player.clone(),
                black: p.black.map(|s| t.entrants[s].player.clone()),
                channel: p.channel,
                number: p.number,
                result: self.results.get(&(round as u32, b as u32)).copied(),
            })
            .collect()
    }
}

/// A line of the standings (see [`TournamentView::standing_rows`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StandingRow {
    pub rank: usize,
    pub seed: usize,
    pub name: String,
    pub withdrawn: bool,
    pub points: String,
    /// In the order of [`TournamentView::tiebreak_names`].
    pub tiebreaks: Vec<String>,
}

/// A pairing as `/tournament pairings` lists it.
#[derive(Clone, Debug)]
pub struct RoundLine {
    pub white: PlayerRef,
    pub black: Option<PlayerRef>,
    pub channel: Option<u64>,
    /// Its game's number in the server, once started.
    pub number: Option<u64>,
    pub result: Option<PairingResult>,
}

impl RoundLine {
    /// Between the names: "vs" while it is played, "1-0", "0-1", "½-½", "1-0 (forfeit)".
    pub fn score(&self) -> String {
        match self.result.map(|r| (r.points, r.how)) {
            None => "vs".to_string(),
            Some((p, how)) => {
                let s = match p {
                    Points::White => "1-0",
                    Points::Black => "0-1",
                    Points::Draw => "½-½",
                };
                if how == How::Forfeit {
                    format!("{s} (forfeit)")
                } else {
                    s.to_string()
                }
            }
        }
    }

    /// "alice 1-0 bob (game #12)", "carol ½-½ dave", "erin vs frank", "gina: bye": the game's
    /// number once it started.
    pub fn describe(&self) -> String {
        let Some(black) = &self.black else {
            return format!("{}: bye", self.white.name);
        };
        let score = self.score();
        let number = self
            .number
            .map(|n| format!(" (game #{n})"))
            .unwrap_or_default();
        format!("{} {score} {}{number}", self.white.name, black.name)
    }
}

impl Service {
    /// A tournament with its pairings' results, as every view shows it.
    pub(in crate::service) fn with_results(
        &self,
        t: Tournament,
    ) -> Result<TournamentView, Refusal> {
        let results = self.store.results(t.id)?;
        Ok(TournamentView {
            tournament: t,
            results,
        })
    }

    /// The tournament of this channel (or of the pairing played here) with its results.
    pub fn tournament_view(&self, ctx: &Ctx) -> Result<TournamentView, Refusal> {
        let t = self.tournament_here(ctx)?;
        self.with_results(t)
    }

    /// Standings as an outcome: the table as text and the crosstable picture.
    pub fn tournament_standings(&self, ctx: &Ctx) -> Result<Outcome, Refusal> {
        let view = self.tournament_view(ctx)?;
        let t = &view.tournament;
        if t.entrants.is_empty() {
            return refuse(format!("nobody has joined {} yet", t.name));
        }
        let state = view.state();
        let mut text = format!("{} ({}, {state}).", t.name, t.format.describe());
        if let Some(bye) = view.bye_to_score() {
            text.push_str(&format!(" {bye}"));
        }
        Ok(Outcome {
            text,
            table: Some(view.table_text(25)),
            image: Some(view.crosstable()),
            page: self.web_path(t.guild, WebPage::Tournament(t.id))?,
            ..Outcome::default()
        })
    }
}
