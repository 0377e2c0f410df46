//! PTN files: tag pairs, numbered movetext, comments and results.

use super::game::{Game, GameResult};
use super::ply::{Color, Ply, PtnPly};
use super::position::Position;
use super::setup::{Komi, Opening, Reserve, Setup};
use super::tps::tps_size;
use std::fmt;

/// A PTN file as written, before its plies are checked against the rules.
#[derive(Clone, Debug, Default)]
pub struct PtnFile {
    pub tags: Vec<(String, String)>,
    /// Each ply's text as written, parsed.
    pub plies: Vec<(String, PtnPly)>,
    /// The result token at the end of the movetext (or the Result tag).
    pub result: Option<String>,
}

/// A ply that cannot be read or played, by its number in the game (1 = first ply).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReplayError {
    pub ply_number: usize,
    pub text: String,
    pub reason: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.ply_number == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(
                f,
                "ply {} (`{}`): {}",
                self.ply_number, self.text, self.reason
            )
        }
    }
}

impl std::error::Error for ReplayError {}

const RESULTS: [&str; 8] = ["R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0"];

fn header_error(reason: String) -> ReplayError {
    ReplayError {
        ply_number: 0,
        text: String::new(),
        reason,
    }
}

impl PtnFile {
    /// Reads the structure of a PTN file; a ply that is not PTN is an error naming its number.
    pub fn parse(text: &str) -> Result<PtnFile, ReplayError> {
        let mut file = PtnFile::default();
        let mut chars = text.char_indices().peekable();
        while let Some(&(start, c)) = chars.peek() {
            match c {
                c if c.is_whitespace() => {
                    chars.next();
                }
                '[' => {
                    let end = find_closing(text, start, ']', true)
                        .ok_or_else(|| header_error("a tag `[` is never closed with `]`".into()))?;
                    file.tags.push(parse_tag(&text[start + 1..end])?);
                    while chars.peek().is_some_and(|&(i, _)| i <= end) {
                        chars.next();
                    }
                }
                '{' => {
                    let end = find_closing(text, start, '}', false).ok_or_else(|| {
                        header_error("a comment `{` is never closed with `}`".into())
                    })?;
                    while chars.peek().is_some_and(|&(i, _)| i <= end) {
                        chars.next();
                    }
                }
                _ => {
                    let mut end = text.len();
                    while let Some(&(i, ch)) = chars.peek() {
                        if ch.is_whitespace() || ch == '{' || ch == '[' {
                            end = i;
                            break;
                        }
                        chars.next();
                    }
                    file.token(&text[start..end])?;
                }
            }
        }
        if file.result.is_none() {
            file.result = file
                .tag("Result")
                .filter(|r| RESULTS.contains(r))
                .map(str::to_string);
        }
        Ok(file)
    }

    fn token(&mut self, token: &str) -> Result<(), ReplayError> {
        let number = self.plies.len() + 1;
        if let Some(r) = &self.result {
            return Err(ReplayError {
                ply_number: number,
                text: token.into(),
                reason: format!("there is text after the result {r}"),
            });
        }
        if RESULTS.contains(&token) {
            self.result = Some(token.to_string());
            return Ok(());
        }
        // A move number (`12.`), possibly glued to the ply that follows (`12.a1`).
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let rest = if digits > 0 && token[digits..].starts_with('.') {
            token[digits..].trim_start_matches('.')
        } else {
            token
        };
        if rest.is_empty() || rest == "--" || rest == "..." {
            return Ok(());
        }
        let ply = Ply::parse(rest).map_err(|reason| ReplayError {
            ply_number: number,
            text: rest.into(),
            reason,
        })?;
        self.plies.push((rest.to_string(), ply));
        Ok(())
    }

    /// The value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The game's setup from its tags (Size or TPS, Komi, Opening, Flats/Caps per player).
    pub fn setup(&self) -> Result<Setup, ReplayError> {
        let tps = self.tag("TPS").filter(|t| !t.trim().is_empty());
        let size = match (self.tag("Size"), tps) {
            (Some(s), _) => s.trim().parse::<usize>().map_err(|_| {
                header_error(format!("the Size tag `{s}` is not a number from 3 to 8"))
            })?,
            (None, Some(t)) => tps_size(t).map_err(header_error)?,
            (None, None) => return Err(header_error("the PTN has no [Size \"N\"] tag".into())),
        };
        let mut setup = Setup::new(size).map_err(header_error)?;
        if let Some(k) = self.tag("Komi") {
            setup = setup.with_komi(Komi::parse(k).map_err(header_error)?);
        }
        if let Some(o) = self.tag("Opening") {
            setup = setup.with_opening(Opening::parse(o).map_err(header_error)?);
        }
        for color in [Color::White, Color::Black] {
            let n = color.number();
            let mut r = setup.reserves[color.index()];
            let number = |name: &str| -> Result<Option<u8>, ReplayError> {
                self.tag(name)
                    .map(|v| {
                        v.trim().parse().map_err(|_| {
                            header_error(format!("the {name} tag `{v}` is not a number of pieces"))
                        })
                    })
                    .transpose()
            };
            // A per-player tag (Flats1) overrides the shared one (Flats).
            for name in ["Flats".to_string(), format!("Flats{n}")] {
                r.stones = number(&name)?.unwrap_or(r.stones);
            }
            for name in ["Caps".to_string(), format!("Caps{n}")] {
                r.caps = number(&name)?.unwrap_or(r.caps);
            }
            if r != setup.reserves[color.index()] {
                setup = setup.with_reserve(color, r).map_err(header_error)?;
            }
        }
        Ok(setup)
    }

    /// Replays every ply; the first illegal one is an error with its number and the reason.
    /// A result written in the file must agree with the final position.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let setup = self.setup()?;
        let start = match self.tag("TPS").filter(|t| !t.trim().is_empty()) {
            Some(tps) => Position::from_tps_with(tps, setup).map_err(header_error)?,
            None => Position::new(setup),
        };
        let mut game = Game::new(start);
        for (i, (text, ply)) in self.plies.iter().enumerate() {
            game.play_ptn(ply).map_err(|e| ReplayError {
                ply_number: i + 1,
                text: text.clone(),
                reason: e.to_string(),
            })?;
        }
        if let Some(written) = &self.result {
            check_result(&mut game, written)?;
        }
        Ok(game)
    }
}

/// Agrees a written result with the position: road and flat results must be what the rules give;
/// a decision (resignation, time, agreed draw, abandonment) is recorded on a game still running.
fn check_result(game: &mut Game, written: &str) -> Result<(), ReplayError> {
    let mismatch = |found: &str| {
        header_error(format!(
            "the file says the result is {written}, but the final position gives {found}"
        ))
    };
    if let Some(r) = game.result() {
        let same_draw = written == "1/2-1/2" && r.ptn() == "1/2-1/2";
        return if r.ptn() == written || same_draw {
            Ok(())
        } else {
            Err(mismatch(r.ptn()))
        };
    }
    // PTN does not tell resignation from time-out: `1-0` / `0-1` are recorded as resignations.
    let decided = match written {
        "1-0" => GameResult::Resignation {
            winner: Color::White,
        },
        "0-1" => GameResult::Resignation {
            winner: Color::Black,
        },
        "1/2-1/2" => GameResult::DrawAgreed,
        "0-0" => GameResult::Abandoned,
        _ => {
            return Err(mismatch(
                "no road and no flat count (the game is still running)",
            ))
        }
    };
    game.decide(decided)
        .map_err(|e| header_error(e.to_string()))
}

fn find_closing(text: &str, start: usize, close: char, quotes: bool) -> Option<usize> {
    let mut in_quotes = false;
    let mut escaped = false;
    for (i, c) in text[start + 1..].char_indices() {
        if quotes {
            if escaped {
                escaped = false;
                continue;
            }
            match c {
                '\\' if in_quotes => escaped = true,
                '"' => in_quotes = !in_quotes,
                _ => {}
            }
        }
        if c == close && !in_quotes {
            return Some(start + 1 + i);
        }
    }
    None
}

fn parse_tag(inner: &str) -> Result<(String, String), ReplayError> {
    let inner = inner.trim();
    let (name, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    let value = value.trim();
    let unquoted = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| {
            header_error(format!(
                "the tag [{inner}] needs its value in quotes, like [Size \"6\"]"
            ))
        })?;
    if name.is_empty() {
        return Err(header_error(format!("the tag [{inner}] has no name")));
    }
    Ok((
        name.to_string(),
        unquoted.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

impl Game {
    /// Reads and replays a PTN file.
    pub fn from_ptn(text: &str) -> Result<Game, ReplayError> {
        PtnFile::parse(text)?.replay()
    }

    /// Writes the game as PTN: `tags` first (players, date, site...), then the setup tags,
    /// numbered movetext with Tak marks, and the result.
    pub fn to_ptn(&self, tags: &[(&str, String)]) -> String {
        let start = self.start();
        let setup = start.setup();
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            let v = value.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{name} \"{v}\"]\n"));
        };
        for (name, value) in tags {
            tag(name, value);
        }
        tag("Size", &setup.size.to_string());
        tag("Komi", &setup.komi.to_string());
        tag("Opening", setup.opening.ptn());
        if !setup.is_standard_reserve() {
            let [w, b]: [Reserve; 2] = setup.reserves;
            tag("Flats1", &w.stones.to_string());
            tag("Caps1", &w.caps.to_string());
            tag("Flats2", &b.stones.to_string());
            tag("Caps2", &b.caps.to_string());
        }
        if *start != Position::new(*setup) {
            tag("TPS", &start.to_tps());
        }
        if let Some(r) = self.result() {
            tag("Result", r.ptn());
        }
        out.push('\n');
        let mut line = String::new();
        let mut move_number = start.move_number();
        let mut white_turn = start.to_move() == Color::White;
        if !white_turn {
            line = format!("{move_number}. --");
        }
        for played in self.plies() {
            if white_turn {
                line = format!("{move_number}. {}", played.ptn_with_marks());
            } else {
                line.push(' ');
                line.push_str(&played.ptn_with_marks());
                out.push_str(&line);
                out.push('\n');
                line.clear();
                move_number += 1;
            }
            white_turn = !white_turn;
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        if let Some(r) = self.result() {
            out.push_str(r.ptn());
            out.push('\n');
        }
        out
    }
}
