//! PTN files: tag pairs, numbered movetext, comments and results.

use super::game::{Game, GameError};
use super::ply::{Color, Ply, PtnPly};
use super::position::{PlyError, Position};
use super::result::GameResult;
use super::setup::{Komi, Opening, Reserve, Setup};
use super::tps::tps_size;
use std::fmt;

/// A PTN file as written, before its plies are checked against the rules.
#[derive(Clone, Debug, Default)]
pub struct PtnFile {
    pub tags: Vec<(String, String)>,
    /// Each ply's text as written, parsed: the main line.
    pub plies: Vec<(String, PtnPly)>,
    /// The result token at the end of the movetext (or the Result tag); `*` (a game still
    /// running) is no result.
    pub result: Option<String>,
    /// Variations (PTN Ninja's branches) after the main line were skipped.
    pub variations: bool,
    /// Movetext seen (a ply, a move number or a result): tags after it start another game.
    movetext: bool,
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

/// The result of a game still running (PGN's and Tiltak's `*`).
const UNFINISHED: &str = "*";

fn header_error(reason: String) -> ReplayError {
    ReplayError {
        ply_number: 0,
        text: String::new(),
        reason,
    }
}

impl PtnFile {
    /// Reads the structure of a file holding one PTN game; a file with several games is refused
    /// with their count.
    pub fn parse(text: &str) -> Result<PtnFile, ReplayError> {
        let mut games = PtnFile::parse_all(text)?;
        if games.len() > 1 {
            return Err(header_error(format!(
                "this file holds {} games; give one game at a time (bredon replay reads them \
                 all, or one with --game N)",
                games.len()
            )));
        }
        Ok(games.pop().unwrap_or_default())
    }

    /// Reads every game of a PTN file (tournament files hold several, each starting with its
    /// tags). A ply that is not PTN is an error naming its number.
    pub fn parse_all(text: &str) -> Result<Vec<PtnFile>, ReplayError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut games = Vec::new();
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
                    if file.movetext {
                        games.push(std::mem::take(&mut file).finish());
                    }
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
                    file.movetext = true;
                    file.token(&text[start..end])?;
                }
            }
        }
        if !file.tags.is_empty() || file.movetext || games.is_empty() {
            games.push(file.finish());
        }
        Ok(games)
    }

    fn finish(mut self) -> PtnFile {
        if self.result.is_none() {
            self.result = self
                .tag("Result")
                .filter(|r| RESULTS.contains(r))
                .map(str::to_string);
        }
        self
    }

    /// The move number and side (0 White, 1 Black) the movetext starts at: 1 White, or the
    /// TPS tag's.
    fn first_move(&self) -> (u32, u32) {
        let tps = self.tag("TPS").unwrap_or("");
        let mut fields = tps.split_whitespace().skip(1);
        let side = u32::from(fields.next() == Some("2"));
        let number = fields.next().and_then(|n| n.parse().ok()).unwrap_or(1);
        (number.max(1), side)
    }

    fn token(&mut self, token: &str) -> Result<(), ReplayError> {
        if self.variations {
            return Ok(());
        }
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
        if token == UNFINISHED {
            return Ok(());
        }
        // A move number (`12.`), possibly glued to the ply that follows (`12.a1`). PTN Ninja
        // writes branches after the main line, each starting at an earlier move number (after a
        // `{branch}` line, or as `48.48.` in its older form): the main line ends there.
        let (move_number, groups, rest) = move_number(token);
        if groups > 1 {
            self.variations = true;
            return Ok(());
        }
        if let Some(n) = move_number {
            let (first, side) = self.first_move();
            let current = first + (side + self.plies.len() as u32) / 2;
            if n < current {
                self.variations = true;
                return Ok(());
            }
        }
        if rest.is_empty() || rest == "--" || rest == "..." {
            return Ok(());
        }
        if self.plies.is_empty() {
            self.check_size()?;
        }
        let ply = Ply::parse(rest).map_err(|reason| ReplayError {
            ply_number: number,
            text: rest.into(),
            reason,
        })?;
        self.plies.push((rest.to_string(), ply));
        Ok(())
    }

    /// A Size tag Bredon cannot play is the file's first problem, before its plies.
    fn check_size(&self) -> Result<(), ReplayError> {
        let Some(size) = self.tag("Size") else {
            return Ok(());
        };
        let n: usize = size.trim().parse().map_err(|_| {
            header_error(format!(
                "the Size tag {} is not a number from 3 to 8",
                super::quote(size)
            ))
        })?;
        Setup::new(n)
            .map(|_| ())
            .map_err(|e| header_error(format!("the Size tag says {n}: {e}")))
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
    /// A result written in the file must agree with the final position (one the moves do not
    /// reach is dropped, see `replay_with_warnings`).
    pub fn replay(&self) -> Result<Game, ReplayError> {
        self.replay_with_warnings().map(|(game, _)| game)
    }

    /// Replays the game, with what was passed over: a road or flat result the moves end before
    /// (puzzle files keep the original game's result; the game loads as still running), and
    /// skipped variations.
    pub fn replay_with_warnings(&self) -> Result<(Game, Vec<String>), ReplayError> {
        let setup = self.setup()?;
        let start = match self.tag("TPS").filter(|t| !t.trim().is_empty()) {
            Some(tps) => Position::from_tps_with(tps, setup).map_err(header_error)?,
            None => Position::new(setup),
        };
        let mut game = Game::new(start);
        let mut warnings = Vec::new();
        for (i, (text, ply)) in self.plies.iter().enumerate() {
            let played = match game.play_ptn(ply) {
                // PTN Ninja reads a `*` that flattens nothing as a plain move: so does Bredon,
                // saying so.
                Err(GameError::Illegal(PlyError::NothingToFlatten(_))) => {
                    warnings.push(format!(
                        "ply {} ({text}) marks a flattening with `*` but flattens nothing; \
                         read as the plain move",
                        i + 1
                    ));
                    game.play_ptn(&PtnPly {
                        crush: false,
                        ..*ply
                    })
                    .map(drop)
                }
                other => other.map(drop),
            };
            played.map_err(|e| ReplayError {
                ply_number: i + 1,
                text: text.clone(),
                reason: e.to_string(),
            })?;
        }
        if self.variations {
            warnings.push("the file has variations; only its main line was read".to_string());
        }
        if let Some(written) = &self.result {
            if let Some(warning) = check_result(&mut game, written)? {
                warnings.push(warning);
            }
        }
        Ok((game, warnings))
    }
}

/// A move number at the start of a token: (its number, how many numbered groups it has —
/// `48.48.` has two —, and the rest of the token).
fn move_number(token: &str) -> (Option<u32>, usize, &str) {
    let mut rest = token;
    let mut groups = 0;
    let mut last = None;
    loop {
        let digits = rest
            .bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'-')
            .count();
        let dots = rest[digits..].bytes().take_while(|&b| b == b'.').count();
        if digits == 0 || dots == 0 || rest[..digits].starts_with('-') {
            return (last, groups, rest);
        }
        last = rest[..digits].parse().ok();
        groups += 1;
        rest = &rest[digits + dots..];
    }
}

/// Agrees a written result with the position: a road or flat result the moves give stands, and
/// a written result that contradicts it is passed over with a warning; a decision (resignation,
/// time, agreed draw, abandonment) is recorded on a game still running (an abandonment with a
/// warning: PTN Ninja shows it as unfinished). A road or flat result the moves do not reach,
/// and a win or draw on a file with no moves (a puzzle, a set-up), is passed over with a
/// warning, as PTN Ninja does.
fn check_result(game: &mut Game, written: &str) -> Result<Option<String>, ReplayError> {
    // PTN Ninja keeps the moves when the tag contradicts them: so does Bredon, saying so.
    if let Some(r) = game.result() {
        let same_draw = written == "1/2-1/2" && r.ptn() == "1/2-1/2";
        return Ok((r.ptn() != written && !same_draw).then(|| {
            format!(
                "the file says the result is {written}, but the moves give {}; the moves' result \
                 is kept",
                r.ptn()
            )
        }));
    }
    // Bredon writes 0-0 for a game aborted before its first ply: that one stands.
    if game.plies().is_empty() && written != "0-0" {
        return Ok(Some(format!(
            "the file says the result is {written}, but it has no moves (a puzzle or a set-up \
             position?); the position is loaded as still running"
        )));
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
            return Ok(Some(format!(
                "the file says the result is {written}, but the moves end before it; the game \
                 is loaded as still running"
            )))
        }
    };
    game.decide(decided)
        .map_err(|e| header_error(e.to_string()))?;
    Ok((decided == GameResult::Abandoned).then(|| {
        "the file says 0-0, PlayTak's mark of an abandoned game: it is read as abandoned (PTN \
         Ninja shows the game as unfinished)"
            .to_string()
    }))
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

/// A tag value PTN Ninja can read: its tag pattern has no escapes and its player tags refuse
/// `"`, `{` and `}`, so `"` becomes `''` (as PTN Ninja itself writes it) and braces become
/// parentheses; line breaks become spaces and backslashes slashes.
pub fn tag_value(value: &str) -> String {
    value
        .replace('"', "''")
        .replace('\\', "/")
        .replace('{', "(")
        .replace('}', ")")
        .replace(['\n', '\r'], " ")
}

/// An annotation of one ply: a mark written after it (`!`, `?`, `??`...) and a comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtnNote {
    pub mark: &'static str,
    pub comment: Option<String>,
}

impl Game {
    /// Reads and replays a PTN file.
    pub fn from_ptn(text: &str) -> Result<Game, ReplayError> {
        PtnFile::parse(text)?.replay()
    }

    /// Writes the game as PTN: `tags` first (players, date, site...), then the setup tags,
    /// numbered movetext with Tak marks, and the result.
    pub fn to_ptn(&self, tags: &[(&str, String)]) -> String {
        self.to_ptn_annotated(tags, &[])
    }

    /// `to_ptn` with `notes[i]` after ply `i` (plies past the end of `notes` have none). Comments
    /// lose their braces, the only characters a PTN comment cannot hold.
    pub fn to_ptn_annotated(&self, tags: &[(&str, String)], notes: &[PtnNote]) -> String {
        let start = self.start();
        let setup = start.setup();
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
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
        // PTN Ninja's Result tag format has no `0-0`: an abandoned game says so in its movetext.
        if let Some(r) = self.result().filter(|r| *r != GameResult::Abandoned) {
            tag("Result", r.ptn());
        }
        out.push('\n');
        let mut line = String::new();
        let mut move_number = start.move_number();
        let mut white_turn = start.to_move() == Color::White;
        if !white_turn {
            line = format!("{move_number}. --");
        }
        for (i, played) in self.plies().iter().enumerate() {
            // An analysis's mark takes the place of the player's own annotation.
            let mut text = match notes.get(i) {
                Some(note) if !note.mark.is_empty() => played.ptn_with_marks(),
                _ => played.ptn_annotated(),
            };
            if let Some(note) = notes.get(i) {
                text.push_str(note.mark);
                if let Some(comment) = &note.comment {
                    text.push_str(&format!(" {{{}}}", comment.replace(['{', '}'], "")));
                }
            }
            if white_turn {
                line = format!("{move_number}. {text}");
            } else {
                line.push(' ');
                line.push_str(&text);
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
