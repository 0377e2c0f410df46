//! A game of Takat: start, plies, repetition, results, and the game record.

use super::position::{Ply, PlyError, Position};
use super::result::{Color, Ending};
use std::collections::HashMap;

/// What a ply did, for announcements.
#[derive(Clone, Debug)]
pub struct Played {
    pub ply: Ply,
    pub text: String,
    /// Sentences that apply after the ply ("White threatens a stack of six").
    pub notes: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// The position before each ply, and the ply.
    history: Vec<(Position, Ply)>,
    position: Position,
    result: Option<Ending>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            start,
            history: Vec::new(),
            position: start,
            result: None,
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Every position of the game so far, the current one last.
    pub fn positions(&self) -> Vec<Position> {
        let mut all: Vec<Position> = self.history.iter().map(|(p, _)| *p).collect();
        all.push(self.position);
        all
    }

    pub fn plies(&self) -> impl Iterator<Item = Ply> + '_ {
        self.history.iter().map(|(_, p)| *p)
    }

    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    pub fn last(&self) -> Option<Ply> {
        self.history.last().map(|(_, p)| *p)
    }

    pub fn result(&self) -> Option<Ending> {
        self.result
    }

    /// How often the current position (with the player to move and the just-moved piece) has
    /// occurred, this time included.
    fn occurrences(&self) -> usize {
        1 + self
            .history
            .iter()
            .filter(|(p, _)| p.repeats(&self.position))
            .count()
    }

    pub fn play_text(&mut self, text: &str) -> Result<Played, PlyError> {
        let ply = self.position.parse_ply(text)?;
        self.play(ply)
    }

    pub fn play(&mut self, ply: Ply) -> Result<Played, PlyError> {
        if let Some(r) = self.result {
            return Err(PlyError(format!(
                "the game is over ({}); no more plies",
                r.code()
            )));
        }
        let before = self.position;
        self.position.play(ply)?;
        self.history.push((before, ply));
        self.result = self
            .position
            .end()
            .or_else(|| (self.occurrences() >= 3).then_some(Ending::Repetition));
        Ok(Played {
            ply,
            text: before.name(ply),
            notes: if self.result.is_none() {
                threats(&self.position)
            } else {
                Vec::new()
            },
        })
    }

    /// Takes back the last ply (and any result it made).
    pub fn undo(&mut self) -> Option<Ply> {
        let (before, ply) = self.history.pop()?;
        self.position = before;
        self.result = None;
        Some(ply)
    }

    /// Ends the game by resignation, time-out, agreement or abort.
    pub fn decide(&mut self, ending: Ending) -> Result<(), String> {
        if let Some(r) = self.result {
            return Err(format!("the game is already over ({})", r.code()));
        }
        self.result = Some(ending);
        Ok(())
    }

    /// The game record: PTN's shape with `[Game "Takat"]` and `[Size "7"]`.
    pub fn to_record(&self, tags: &[(&str, String)]) -> String {
        self.to_record_commented(tags, &[])
    }

    /// `to_record` with a player's own comments: `said[0]` before the first ply, `said[i]`
    /// after ply `i`. Comments lose their braces.
    pub fn to_record_commented(&self, tags: &[(&str, String)], said: &[Vec<String>]) -> String {
        let comments = |i: usize| -> String {
            said.get(i)
                .into_iter()
                .flatten()
                .map(|c| format!(" {{{}}}", c.replace(['{', '}'], "")))
                .collect()
        };
        let mut out = String::new();
        let start = self.start.to_text();
        let mut all: Vec<(&str, String)> = vec![
            ("Game", "Takat".into()),
            ("Size", self.start.board().len().to_string()),
        ];
        all.extend(tags.iter().cloned());
        if start
            != Position::new(self.start.board().len())
                .expect("size")
                .to_text()
        {
            all.push(("TPS", start));
        }
        if let Some(r) = self.result {
            all.push(("Result", r.code().into()));
        }
        for (k, v) in all {
            out.push_str(&format!("[{k} \"{}\"]\n", crate::tak::ptn::tag_value(&v)));
        }
        out.push('\n');
        let mut pos = self.start;
        let mut line = String::new();
        for (i, ply) in self.plies().enumerate() {
            if i == 0 || pos.to_move() == Color::White {
                if !line.is_empty() {
                    out.push_str(line.trim_end());
                    out.push('\n');
                }
                line = format!("{}.", pos.move_number());
                if pos.to_move() == Color::Black {
                    line.push_str(" --");
                }
                if i == 0 {
                    line.push_str(&comments(0));
                }
            }
            line.push(' ');
            line.push_str(&pos.name(ply));
            line.push_str(&comments(i + 1));
            pos.apply(ply);
        }
        if let Some(r) = self.result {
            line.push_str(&format!(
                " {} {{{}}}",
                r.code(),
                r.describe_with(["White", "Black"])
            ));
        }
        if !line.is_empty() {
            out.push_str(line.trim_start());
            out.push('\n');
        }
        out
    }

    /// Reads a game record written by [`Game::to_record`] (or by hand in that shape).
    pub fn from_record(text: &str) -> Result<Game, String> {
        let mut tags = HashMap::new();
        let mut moves = String::new();
        for line in text.trim_start_matches('\u{feff}').lines() {
            let t = line.trim();
            if let Some(inner) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                if let Some((k, v)) = inner.split_once(' ') {
                    tags.insert(
                        k.to_ascii_lowercase(),
                        v.trim().trim_matches('"').to_string(),
                    );
                }
            } else {
                moves.push_str(t);
                moves.push(' ');
            }
        }
        if tags.get("game").map(|g| g.to_ascii_lowercase()) != Some("takat".into()) {
            return Err("this is not a Takat record: it needs the tag [Game \"Takat\"]".into());
        }
        let start = match tags.get("tps") {
            Some(tps) => Position::from_text(tps)?,
            None => {
                let size = tags
                    .get("size")
                    .and_then(|s| s.parse().ok())
                    .ok_or("the Size tag is missing or not a number (7 or 19)")?;
                Position::new(size)?
            }
        };
        let mut game = Game::new(start);
        let mut comment = false;
        let mut written = tags.get("result").cloned();
        for token in moves.split_whitespace() {
            if comment || token.starts_with('{') {
                comment = !token.ends_with('}');
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "0-0"].contains(&token) {
                written = Some(token.to_string());
                continue;
            }
            let is_number = token.ends_with('.') && token[..token.len() - 1].parse::<u32>().is_ok();
            if is_number || token == "--" || token == "*" {
                continue;
            }
            game.play_text(token)
                .map_err(|e| format!("ply {} ({token}): {e}", game.ply_count() + 1))?;
        }
        // A result the plies do not reach was decided by the players: a resignation, an
        // agreed draw, or an abandoned game.
        if game.result.is_none() {
            game.result = match written.as_deref() {
                Some("1-0") => Some(Ending::Resignation {
                    winner: Color::White,
                }),
                Some("0-1") => Some(Ending::Resignation {
                    winner: Color::Black,
                }),
                Some("1/2-1/2") => Some(Ending::DrawAgreed),
                Some("0-0") => Some(Ending::Abandoned),
                _ => None,
            };
        }
        Ok(game)
    }
}

/// What the player who just moved threatens, as Tak! does: a win on their next ply if the
/// opponent did nothing about it. White threatens a stack of six; either side threatens to
/// immobilise the other.
pub fn threats(p: &Position) -> Vec<String> {
    let mover = p.to_move().opponent();
    let mut again = *p;
    again.pass();
    let mut plies = Vec::new();
    again.legal_plies(&mut plies);
    let after = |ply| {
        let mut q = again;
        q.apply(ply);
        q
    };
    let mut notes = Vec::new();
    if mover == Color::White
        && plies
            .iter()
            .any(|&ply| after(ply).sixes() >= p.board().sixes_to_win())
    {
        notes.push("White threatens a stack of six".into());
    }
    if plies.iter().any(|&ply| !after(ply).has_legal_ply()) {
        notes.push(format!(
            "{} threatens to immobilise {}",
            mover.name(),
            mover.opponent().name()
        ));
    }
    notes
}

/// Leaves at `depth` plies from `p` (a finished position has no children; repetition is not
/// tracked, as in Tak's perft).
pub fn perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if p.sixes() >= p.board().sixes_to_win() {
        return 0;
    }
    let mut plies = Vec::new();
    p.legal_plies(&mut plies);
    if depth == 1 {
        return plies.len() as u64;
    }
    plies
        .into_iter()
        .map(|ply| {
            let mut q = *p;
            q.apply(ply);
            perft(&q, depth - 1)
        })
        .sum()
}
