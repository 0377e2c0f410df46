//! Games as modules. Bredon knows its games at compile time, so a game is a variant of an enum
//! rather than a trait object: [`Match`] (a game being played) and [`Ending`] (how it ended)
//! dispatch to the pure rules modules (`tak`, `takat`), and everything above (service, bot,
//! CLI) speaks only these types. A third game is a new rules module plus one variant in each
//! `match` here; the compiler lists every place to fill in. Tak's own code is untouched by the
//! dispatch: its perft and search run on `tak` types directly.

pub mod explain;

use crate::render::hex::{render_takat, render_takat_gif, takat_alt_text, TakatScene};
use crate::render::{self, Display, Scene, Theme};
use crate::tak::{self, Color, Komi};
use crate::takat;
use serde::{Deserialize, Serialize};

/// Which game.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Kind {
    /// Records written before Bredon had a second game are Tak.
    #[default]
    Tak,
    Takat,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Tak, Kind::Takat];

    pub fn parse(text: &str) -> Result<Kind, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "tak" => Ok(Kind::Tak),
            "takat" => Ok(Kind::Takat),
            _ => Err(format!(
                "{} is not a game Bredon hosts: choose tak or takat",
                tak::quote(text)
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Tak => "Tak",
            Kind::Takat => "Takat",
        }
    }

    /// The board size when a challenge names none (Tak takes the server's default).
    pub fn default_size(self, server_default: usize) -> usize {
        match self {
            Kind::Tak => server_default,
            Kind::Takat => 7,
        }
    }

    /// The board in words: "6x6", "7 circles".
    pub fn board(self, size: usize) -> String {
        match self {
            Kind::Tak => format!("{size}x{size}"),
            Kind::Takat => format!("{size} circles"),
        }
    }

    /// The file name of a game record.
    pub fn record_file(self) -> &'static str {
        match self {
            Kind::Tak => "game.ptn",
            Kind::Takat => "game.takat.txt",
        }
    }
}

fn takat_color(c: takat::Color) -> Color {
    match c {
        takat::Color::White => Color::White,
        takat::Color::Black => Color::Black,
    }
}

fn from_seat(c: Color) -> takat::Color {
    match c {
        Color::White => takat::Color::White,
        Color::Black => takat::Color::Black,
    }
}

/// How a game ended. Stored in the archive: a Tak result keeps the form it had before Takat
/// (so old records read unchanged); a Takat one is wrapped as `{"takat": ...}`.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Ending {
    Tak(tak::GameResult),
    Takat { takat: takat::Ending },
}

/// A result that players or the clock decide, the same in every game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    Resignation { winner: Color },
    Timeout { winner: Color },
    DrawAgreed,
    Abandoned,
}

impl Ending {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Tak(r) => r.winner(),
            Ending::Takat { takat } => takat.winner().map(takat_color),
        }
    }

    /// The result as the record writes it: `R-0`, `0-F`, `1-0`, `1/2-1/2`, `0-0`.
    pub fn code(&self) -> &'static str {
        match self {
            Ending::Tak(r) => r.ptn(),
            Ending::Takat { takat } => takat.code(),
        }
    }

    /// How the game was decided, in a few words: "by road", "on time", "by agreement".
    pub fn how(&self) -> &'static str {
        match self {
            Ending::Tak(r) => r.how(),
            Ending::Takat { takat } => takat.how(),
        }
    }

    pub fn is_abandoned(&self) -> bool {
        matches!(
            self,
            Ending::Tak(tak::GameResult::Abandoned)
                | Ending::Takat {
                    takat: takat::Ending::Abandoned
                }
        )
    }

    /// A sentence with the players' names (komi matters only to Tak's flat counts).
    pub fn describe_with(&self, komi: Komi, names: [&str; 2]) -> String {
        match self {
            Ending::Tak(r) => r.describe_with(komi, names),
            Ending::Takat { takat } => takat.describe_with(names),
        }
    }
}

/// What a ply did.
#[derive(Clone, Debug)]
pub struct Played {
    /// The ply as the record writes it.
    pub text: String,
    /// Tak's road threat and one-move Tinuë.
    pub tak: bool,
    pub tinue: bool,
    /// Other announcements ("White threatens a stack of six").
    pub notes: Vec<String>,
}

/// A game being played, of any kind.
// Tak's game is the larger (its position holds a whole board); a request holds one `Match`
// and rarely moves it, so boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Match {
    Tak(tak::Game),
    Takat(takat::Game),
}

impl Match {
    pub fn kind(&self) -> Kind {
        match self {
            Match::Tak(_) => Kind::Tak,
            Match::Takat(_) => Kind::Takat,
        }
    }

    pub fn to_move(&self) -> Color {
        match self {
            Match::Tak(g) => g.position().to_move(),
            Match::Takat(g) => takat_color(g.position().to_move()),
        }
    }

    pub fn move_number(&self) -> u32 {
        match self {
            Match::Tak(g) => g.position().move_number(),
            Match::Takat(g) => g.position().move_number(),
        }
    }

    pub fn ply_count(&self) -> usize {
        match self {
            Match::Tak(g) => g.plies().len(),
            Match::Takat(g) => g.ply_count(),
        }
    }

    /// Reads and plays one ply; the refusal says what is wrong.
    pub fn play(&mut self, text: &str) -> Result<Played, String> {
        match self {
            Match::Tak(g) => {
                let parsed = tak::Ply::parse(text)?;
                let played = g.play_ptn(&parsed).map_err(|e| e.to_string())?;
                // The annotation stays with the stored ply, so the record keeps it.
                Ok(Played {
                    text: format!("{}{}", played.ptn, played.annotation.unwrap_or_default()),
                    tak: played.tak,
                    tinue: played.tinue,
                    notes: Vec::new(),
                })
            }
            Match::Takat(g) => {
                let played = g.play_text(text).map_err(|e| e.to_string())?;
                Ok(Played {
                    text: played.text,
                    tak: false,
                    tinue: false,
                    notes: played.notes,
                })
            }
        }
    }

    pub fn undo(&mut self) {
        match self {
            Match::Tak(g) => {
                g.undo();
            }
            Match::Takat(g) => {
                g.undo();
            }
        }
    }

    pub fn result(&self) -> Option<Ending> {
        match self {
            Match::Tak(g) => g.result().map(Ending::Tak),
            Match::Takat(g) => g.result().map(|takat| Ending::Takat { takat }),
        }
    }

    /// The position at the start and after each ply, as its notation writes it, with the
    /// pieces each player then has in hand (White's stones and capstones, then Black's; Takat
    /// counts every piece as a stone), replayed once.
    pub fn positions(&self) -> Result<Vec<(String, [u8; 4])>, String> {
        let mut shown = Vec::with_capacity(self.ply_count() + 1);
        match self {
            Match::Tak(g) => {
                let mut game = tak::Game::new(g.start().clone());
                let hands = |p: &tak::Position| {
                    let [w, b] = [Color::White, Color::Black].map(|c| p.reserve(c));
                    [w.stones, w.caps, b.stones, b.caps]
                };
                shown.push((game.position().to_tps(), hands(game.position())));
                for played in g.plies() {
                    game.play(played.undo.ply).map_err(|e| e.to_string())?;
                    shown.push((game.position().to_tps(), hands(game.position())));
                }
            }
            Match::Takat(g) => {
                let mut game = takat::Game::new(*g.start());
                let hands = |p: &takat::Position| {
                    let [w, b] = [takat::Color::White, takat::Color::Black].map(|c| p.reserve(c));
                    [w, 0, b, 0]
                };
                shown.push((game.position().to_text(), hands(game.position())));
                for ply in g.plies() {
                    game.play(ply).map_err(|e| e.to_string())?;
                    shown.push((game.position().to_text(), hands(game.position())));
                }
            }
        }
        Ok(shown)
    }

    /// The game as it stood after its first `plies` plies, replayed from its start (a result
    /// the players decided stays with the whole game).
    pub fn after(&self, plies: usize) -> Result<Match, String> {
        match self {
            Match::Tak(g) => {
                let mut cut = tak::Game::new(g.start().clone());
                for played in g.plies().iter().take(plies) {
                    cut.play(played.undo.ply).map_err(|e| e.to_string())?;
                }
                Ok(Match::Tak(cut))
            }
            Match::Takat(g) => {
                let mut cut = takat::Game::new(*g.start());
                for ply in g.plies().take(plies) {
                    cut.play(ply).map_err(|e| e.to_string())?;
                }
                Ok(Match::Takat(cut))
            }
        }
    }

    /// Ends the game by a decision; returns how it ended.
    pub fn decide(&mut self, d: Decision) -> Result<Ending, String> {
        match self {
            Match::Tak(g) => {
                let r = match d {
                    Decision::Resignation { winner } => tak::GameResult::Resignation { winner },
                    Decision::Timeout { winner } => tak::GameResult::Timeout { winner },
                    Decision::DrawAgreed => tak::GameResult::DrawAgreed,
                    Decision::Abandoned => tak::GameResult::Abandoned,
                };
                g.decide(r).map_err(|e| e.to_string())?;
            }
            Match::Takat(g) => {
                let r = match d {
                    Decision::Resignation { winner } => takat::Ending::Resignation {
                        winner: from_seat(winner),
                    },
                    Decision::Timeout { winner } => takat::Ending::Timeout {
                        winner: from_seat(winner),
                    },
                    Decision::DrawAgreed => takat::Ending::DrawAgreed,
                    Decision::Abandoned => takat::Ending::Abandoned,
                };
                g.decide(r)?;
            }
        }
        Ok(self.result().expect("just decided"))
    }

    /// The legal plies of the player to move, as they are typed.
    pub fn legal_plies(&self) -> Vec<String> {
        match self {
            Match::Tak(g) => {
                let mut plies = Vec::new();
                g.position().generate_plies(&mut plies);
                plies.into_iter().map(|p| g.position().ptn(p)).collect()
            }
            Match::Takat(g) => {
                let mut plies = Vec::new();
                g.position().legal_plies(&mut plies);
                plies.into_iter().map(|p| g.position().name(p)).collect()
            }
        }
    }

    /// A choice label: the ply, what it does in words, and whether it wins or threatens
    /// ("2c3>11 — two from c3 right, dropping 1, 1 (Tak!)", "b2-b1 — b2 onto b1 (wins!)").
    pub fn label(&self, text: &str) -> String {
        let mover = self.to_move();
        let mut trial = self.clone();
        let words = match self {
            Match::Tak(_) => match tak::Ply::parse(text) {
                Ok(p) => describe_ply(p.ply),
                Err(_) => return text.to_string(),
            },
            Match::Takat(g) => match g.position().parse_ply(text) {
                Ok(takat::Ply::Enter(c)) => format!("enter on {}", g.position().board().name(c)),
                Ok(takat::Ply::Move { from, to }) => {
                    let b = g.position().board();
                    let onto = g.position().stack(to).height();
                    match onto {
                        0 => format!("{} to the empty {}", b.name(from), b.name(to)),
                        h => format!("{} onto {} (making {})", b.name(from), b.name(to), h + 1),
                    }
                }
                Err(_) => return text.to_string(),
            },
        };
        let mark = match trial.play(text) {
            Err(_) => String::new(),
            Ok(p) if p.tinue => " (Tinuë!)".into(),
            Ok(p) if p.tak => " (Tak!)".into(),
            Ok(p) => match trial.result().map(|r| r.winner()) {
                Some(Some(w)) if w == mover => " (wins!)".into(),
                Some(Some(_)) => " (loses the game)".into(),
                Some(None) => " (draws)".into(),
                None if !p.notes.is_empty() => format!(" ({})", p.notes.join("; ")),
                None => String::new(),
            },
        };
        let label = format!("{text} — {words}{mark}");
        label.chars().take(100).collect()
    }

    /// The game record with these tags: PTN for Tak, Bredon's Takat record for Takat.
    pub fn record(&self, tags: &[(&str, String)]) -> String {
        match self {
            Match::Tak(g) => g.to_ptn(tags),
            Match::Takat(g) => g.to_record(tags),
        }
    }

    /// `record` with a player's own comments: `said[0]` before the first ply, `said[i]` after
    /// ply `i`.
    pub fn record_commented(&self, tags: &[(&str, String)], said: &[Vec<String>]) -> String {
        match self {
            Match::Tak(g) => g.to_ptn_commented(tags, said),
            Match::Takat(g) => g.to_record_commented(tags, said),
        }
    }

    /// Reads a record written by [`Match::record`].
    pub fn from_record(text: &str) -> Result<Match, String> {
        if is_takat_record(text) {
            takat::Game::from_record(text).map(Match::Takat)
        } else {
            tak::Game::from_record(text)
                .map(Match::Tak)
                .map_err(|e| e.to_string())
        }
    }

    /// The pieces the winner has left, for series points: the board's squares (or circles)
    /// plus the reserve, as the Tak rulebook scores a game.
    pub fn points(&self, winner: Color) -> u32 {
        match self {
            Match::Tak(g) => {
                let size = g.position().size() as u32;
                size * size + g.position().reserve(winner).total()
            }
            Match::Takat(g) => {
                let p = g.position();
                p.board().len() as u32 + p.reserve(from_seat(winner)) as u32
            }
        }
    }

    /// The picture; `clock` is the time the player to move has left, in words. Takat's
    /// pictures have no optional parts, so `display` is Tak's.
    pub fn png(
        &self,
        names: [&str; 2],
        theme: &Theme,
        clock: Option<String>,
        display: Display,
    ) -> Vec<u8> {
        match self {
            Match::Tak(g) => {
                let scene = Scene {
                    clock,
                    display,
                    ..Scene::of_game(g, names)
                };
                render::render_png(&scene, theme)
            }
            Match::Takat(g) => {
                let scene = TakatScene {
                    clock,
                    ..TakatScene::of_game(g, names)
                };
                render::encode_png(&render_takat(&scene, theme))
            }
        }
    }

    pub fn alt_text(&self, names: [&str; 2]) -> String {
        match self {
            Match::Tak(g) => render::alt_text(&Scene::of_game(g, names)),
            Match::Takat(g) => takat_alt_text(&TakatScene::of_game(g, names)),
        }
    }

    pub fn gif(&self, names: [&str; 2], theme: &Theme, display: Display) -> Vec<u8> {
        match self {
            Match::Tak(g) => render::render_gif(g, names, theme, display),
            Match::Takat(g) => render_takat_gif(g, names, theme),
        }
    }

    /// The position as its notation writes it (TPS, or a Takat position string).
    pub fn position_text(&self) -> String {
        match self {
            Match::Tak(g) => g.position().to_tps(),
            Match::Takat(g) => g.position().to_text(),
        }
    }
}

/// A ply in words: "wall on c3", "two from c3 right, dropping 1, 1".
pub fn describe_ply(ply: tak::Ply) -> String {
    const NUMBERS: [&str; 9] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
    ];
    match ply {
        tak::Ply::Place { square, role } => {
            let piece = match role {
                tak::Role::Flat => "flat",
                tak::Role::Wall => "wall",
                tak::Role::Cap => "capstone",
            };
            format!("{piece} on {square}")
        }
        tak::Ply::Spread { from, dir, drops } => {
            let way = match dir {
                tak::Dir::North => "up",
                tak::Dir::South => "down",
                tak::Dir::East => "right",
                tak::Dir::West => "left",
            };
            let carry = NUMBERS[drops.carry() as usize];
            let counts: Vec<String> = drops.counts().map(|n| n.to_string()).collect();
            if counts.len() > 1 {
                format!("{carry} from {from} {way}, dropping {}", counts.join(", "))
            } else {
                format!("{carry} from {from} {way}")
            }
        }
    }
}

/// A Takat record carries `[Game "Takat"]`.
pub fn is_takat_record(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim().to_ascii_lowercase();
        t.starts_with("[game ") && t.contains("\"takat\"")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_after_some_plies_is_replayed_from_its_start_without_its_decided_end() {
        let tak = Match::from_record("[Size \"3\"]\n\n1. a1 c3\n2. b2 1-0\n").unwrap();
        assert_eq!(tak.result().map(|r| r.code()), Some("1-0"));
        let cut = tak.after(2).unwrap();
        assert_eq!(
            (cut.ply_count(), cut.result(), cut.to_move()),
            (2, None, Color::White)
        );
        assert_eq!(tak.after(0).unwrap().ply_count(), 0);
        let takat = "[Game \"Takat\"]\n[Size \"7\"]\n\n1. a1 c2\n2. a1-a2 b3\n3. a2-b2 1-0\n";
        let cut = Match::from_record(takat).unwrap().after(3).unwrap();
        assert_eq!(
            (cut.ply_count(), cut.result(), cut.to_move()),
            (3, None, Color::Black)
        );
    }
}
