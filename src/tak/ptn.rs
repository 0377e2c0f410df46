//! PTN files: tag pairs, numbered movetext, comments, results, and PTN Ninja's branches, read
//! as PTN Ninja reads them.

use super::branches::{self, PtnBranch, PtnComment};
use super::ply::{Ply, PtnPly};
use super::setup::Setup;
use std::fmt;

/// A PTN file as written, before its plies are checked against the rules.
#[derive(Clone, Debug, Default)]
pub struct PtnFile {
    pub tags: Vec<(String, String)>,
    /// Each ply's text as written, parsed: the main line.
    pub plies: Vec<(String, PtnPly)>,
    /// The result written after the main line's last ply (or the Result tag); `*` (a game
    /// still running) is no result.
    pub result: Option<String>,
    /// The player's comments on the main line.
    pub comments: Vec<PtnComment>,
    /// PTN Ninja's branches (variations), in the order of the file.
    pub branches: Vec<PtnBranch>,
    /// Movetext seen (a ply, a move number or a result): tags after it start another game.
    movetext: bool,
    reading: Reading,
}

/// A line of a file: the main line (`None`) or a branch (its index).
pub(super) type Line = Option<usize>;

/// A comment just read: its line and place among that line's comments.
type Comment = Option<(Line, usize)>;

/// Where the reader is in the movetext.
#[derive(Clone, Debug, Default)]
struct Reading {
    /// The line the next ply goes to.
    line: Line,
    /// The line of the last ply read: comments and results after it are its (PTN Ninja's rule).
    last: Line,
    /// A comment after a blank line, before a line number, names the branch that starts there.
    named: Option<String>,
    /// The comment just read: it names a branch found by its move number.
    comment: Comment,
    /// A move number repeated on Black's turn (and the comment before it): a `--` next starts
    /// a branch at Black's ply.
    repeated: Option<(u32, Comment)>,
    /// What was passed over while reading (said by `replay_with_warnings`).
    warnings: Vec<String>,
}

/// A ply that cannot be read or played, by its number in the game (1 = first ply) and the
/// branch it is in (`None`: the main line).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReplayError {
    pub ply_number: usize,
    pub text: String,
    pub reason: String,
    pub branch: Option<String>,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(name) = &self.branch {
            write!(f, "branch `{name}`, ")?;
        }
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

/// A game abandoned without result (PlayTak's, and Bredon's own aborts).
pub(super) const ABANDONED: &str = "0-0";

/// The result of a game still running (PGN's and Tiltak's `*`).
const UNFINISHED: &str = "*";

pub(super) fn header_error(reason: String) -> ReplayError {
    ReplayError {
        ply_number: 0,
        text: String::new(),
        reason,
        branch: None,
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
        // Where the last item (tag, comment, token) ended: the space after it may hold a
        // blank line.
        let mut item_end = 0;
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
                    item_end = end + 1;
                }
                '{' => {
                    let end = find_closing(text, start, '}', false).ok_or_else(|| {
                        header_error("a comment `{` is never closed with `}`".into())
                    })?;
                    // PTN Ninja's branch name: a comment after a blank line, before a line
                    // number.
                    let names_branch = blank_line(&text[item_end..start])
                        && first_word(&text[end + 1..])
                            .is_some_and(|w| branches::line_number(w).is_some());
                    file.comment(&text[start + 1..end], names_branch);
                    while chars.peek().is_some_and(|&(i, _)| i <= end) {
                        chars.next();
                    }
                    item_end = end + 1;
                }
                _ => {
                    let word = first_word(&text[start..]).expect("not whitespace");
                    while chars.peek().is_some_and(|&(i, _)| i < start + word.len()) {
                        chars.next();
                    }
                    file.movetext = true;
                    file.token(word)?;
                    item_end = start + word.len();
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
    pub(super) fn first_move(&self) -> (u32, u32) {
        let tps = self.tag("TPS").unwrap_or("");
        let mut fields = tps.split_whitespace().skip(1);
        let side = u32::from(fields.next() == Some("2"));
        let number = fields.next().and_then(|n| n.parse().ok()).unwrap_or(1);
        (number.max(1), side)
    }

    /// What was passed over while reading the movetext.
    pub(super) fn read_warnings(&self) -> &[String] {
        &self.reading.warnings
    }

    /// The move the next ply of `line` belongs to, and whether it is Black's.
    fn next_ply_of(&self, line: Line) -> (u32, bool) {
        let (first, side) = self.first_move();
        let played = self.before(line) + self.own_plies(line).len();
        let at = side as usize + played;
        (first + (at / 2) as u32, at % 2 == 1)
    }

    /// How many plies of the game come before a line's own (its start).
    pub(super) fn before(&self, line: Line) -> usize {
        line.and_then(|b| self.branches[b].start(self.first_move()))
            .unwrap_or(0)
    }

    /// A line's own plies: the main line's (`None`) or a branch's.
    pub(super) fn own_plies(&self, line: Line) -> &Vec<(String, PtnPly)> {
        match line {
            None => &self.plies,
            Some(b) => &self.branches[b].plies,
        }
    }

    /// A line's comments.
    pub(super) fn comments_in(&self, line: Line) -> &[PtnComment] {
        match line {
            None => &self.comments,
            Some(b) => &self.branches[b].comments,
        }
    }

    /// A line's result as written.
    pub(super) fn written_result(&self, line: Line) -> &Option<String> {
        match line {
            None => &self.result,
            Some(b) => &self.branches[b].result,
        }
    }

    fn result_of(&mut self, line: Line) -> &mut Option<String> {
        match line {
            None => &mut self.result,
            Some(b) => &mut self.branches[b].result,
        }
    }

    fn comments_of(&mut self, line: Line) -> &mut Vec<PtnComment> {
        match line {
            None => &mut self.comments,
            Some(b) => &mut self.branches[b].comments,
        }
    }

    fn has_plies(&self) -> bool {
        !self.plies.is_empty() || self.branches.iter().any(|b| !b.plies.is_empty())
    }

    /// A comment is the last ply's (PTN Ninja's rule), or names the branch whose line number
    /// follows (after a blank line, once a ply was read).
    fn comment(&mut self, text: &str, names_branch: bool) {
        if names_branch && self.has_plies() {
            self.reading.named = Some(branches::branch_name(text));
            return;
        }
        let line = self.reading.last;
        let after = self.own_plies(line).len();
        let comments = self.comments_of(line);
        comments.push(PtnComment {
            after,
            text: text.to_string(),
        });
        self.reading.comment = Some((line, comments.len() - 1));
    }

    fn token(&mut self, token: &str) -> Result<(), ReplayError> {
        let comment = self.reading.comment.take();
        let named = self.reading.named.take();
        let repeated = self.reading.repeated.take();
        if RESULTS.contains(&token) {
            // The last ply's result, in whichever line it is (PTN Ninja's rule).
            *self.result_of(self.reading.last) = Some(token.to_string());
            return Ok(());
        }
        if token == UNFINISHED {
            return Ok(());
        }
        let (rest, repeated) = match branches::line_number(token) {
            Some(number) => {
                let repeats = self.line_number(&number, named, comment)?;
                (number.rest, repeats.map(|n| (n, comment)))
            }
            None => (token, repeated),
        };
        if rest.is_empty() {
            self.reading.repeated = repeated;
            return Ok(());
        }
        if rest == "--" {
            return self.placeholder(repeated);
        }
        if rest == "..." {
            return Ok(());
        }
        if !self.has_plies() {
            self.check_size()?;
        }
        let line = self.reading.line;
        let number = self.before(line) + self.own_plies(line).len() + 1;
        let ply = Ply::parse(rest).map_err(|reason| ReplayError {
            ply_number: number,
            text: rest.into(),
            reason,
            branch: line.map(|b| self.branches[b].name.clone()),
        })?;
        if let Some(result) = self.result_of(line).take() {
            let name = line.map_or("the main line".to_string(), |b| {
                format!("branch `{}`", self.branches[b].name)
            });
            self.reading.warnings.push(format!(
                "{name} goes on after its result {result} (ply {number}, {rest}): the plies \
                 are read and the result passed over, as PTN Ninja reads them"
            ));
        }
        match line {
            None => self.plies.push((rest.to_string(), ply)),
            Some(b) => self.branches[b].plies.push((rest.to_string(), ply)),
        }
        self.reading.last = line;
        Ok(())
    }

    /// A line number: a branch it names (older form, or the comment before it) is started or
    /// taken up again; else the line goes on, unless the number goes back (text whose blank
    /// lines were lost, as in a Discord option): that starts a branch, named by the comment
    /// just before it if there is one. Returns the number if it repeats the move whose White ply
    /// the line just played.
    /// A name a comment gives a second branch is refused: PTN Ninja would show one of them
    /// only, and merging them would make one line of two.
    fn line_number(
        &mut self,
        number: &branches::LineNumber,
        named: Option<String>,
        comment: Comment,
    ) -> Result<Option<u32>, ReplayError> {
        if let Some(name) = &named {
            self.refuse_taken(name)?;
        }
        if let Some(name) = number.branch.clone().or(named) {
            match self.branches.iter().position(|b| b.name == name) {
                Some(b) => self.reading.line = Some(b),
                None => self.start_branch(name, number.number, false),
            }
            return Ok(None);
        }
        let (current, black) = self.next_ply_of(self.reading.line);
        if number.number < current && self.has_plies() {
            let name = self.take_name(comment, number.number, false)?;
            self.start_branch(name, number.number, false);
        }
        let played = !self.own_plies(self.reading.line).is_empty();
        Ok((number.number == current && black && played).then_some(number.number))
    }

    /// Refuses `name` if a branch already has it.
    fn refuse_taken(&self, name: &str) -> Result<(), ReplayError> {
        if !self.branches.iter().any(|b| b.name == name) {
            return Ok(());
        }
        Err(ReplayError {
            branch: Some(name.to_string()),
            ..header_error(
                "two branches have this name: rename one (a branch's name is the comment just \
                 before its first move number)"
                    .to_string(),
            )
        })
    }

    /// `--` before a line's first ply: its first ply is Black's. After a move number repeated
    /// on Black's turn, it starts a branch at that Black ply (`5. e1 {5b1} 5. -- d2`).
    fn placeholder(&mut self, repeated: Option<(u32, Comment)>) -> Result<(), ReplayError> {
        if let Some((number, comment)) = repeated {
            let name = self.take_name(comment, number, true)?;
            self.start_branch(name, number, true);
            return Ok(());
        }
        if let Some(b) = self.reading.line {
            let branch = &mut self.branches[b];
            if branch.plies.is_empty() {
                branch.black_first = true;
            }
        }
        Ok(())
    }

    /// A branch's name: the comment just before its line number (taken out of the comments),
    /// or the name PTN Ninja would give it.
    fn take_name(
        &mut self,
        comment: Comment,
        number: u32,
        black: bool,
    ) -> Result<String, ReplayError> {
        if let Some((line, i)) = comment {
            let name = branches::branch_name(&self.comments_of(line)[i].text);
            if !name.is_empty() {
                self.refuse_taken(&name)?;
                self.comments_of(line).remove(i);
                return Ok(name);
            }
        }
        let taken = |name: &str| self.branches.iter().any(|b| b.name == name);
        Ok((1..)
            .map(|rank| branches::default_name(number, black, rank))
            .find(|name| !taken(name))
            .expect("a free name"))
    }

    fn start_branch(&mut self, name: String, move_number: u32, black_first: bool) {
        self.branches.push(PtnBranch {
            name,
            move_number,
            black_first,
            ..PtnBranch::default()
        });
        self.reading.line = Some(self.branches.len() - 1);
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
}
/// The first word of `text` (after its leading space): up to a space, a comment or a tag.
fn first_word(text: &str) -> Option<&str> {
    let text = text.trim_start();
    let end = text
        .find(|c: char| c.is_whitespace() || c == '{' || c == '[')
        .unwrap_or(text.len());
    (end > 0).then(|| &text[..end])
}

/// Whether the space between two items holds a blank line: two line breaks in a row, as PTN
/// Ninja tests it (`\r\n`, `\n` or `\r` each).
fn blank_line(space: &str) -> bool {
    space
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .contains("\n\n")
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
