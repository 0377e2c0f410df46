//! PTN written: tags PTN Ninja reads, numbered movetext with Tak marks, an analysis's notes, and
//! a file's own comments and branches kept around them, as PTN Ninja writes branches.

use super::branches::{self, Stretch};
use super::game::{Game, Played};
use super::ply::Color;
use super::position::Position;
use super::ptn::{tag_value, Line, PtnFile};
use super::result::GameResult;
use super::setup::Reserve;

/// An annotation of one ply: a mark written after it (`!`, `?`, `??`...) and a comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtnNote {
    pub mark: &'static str,
    pub comment: Option<String>,
}

impl Game {
    /// Writes the game as PTN: `tags` first (players, date, site...), then the setup tags,
    /// numbered movetext with Tak marks, and the result.
    pub fn to_ptn(&self, tags: &[(&str, String)]) -> String {
        self.to_ptn_annotated(tags, &[])
    }

    /// `to_ptn` with `notes[i]` after ply `i` (plies past the end of `notes` have none). Comments
    /// lose their braces, the only characters a PTN comment cannot hold.
    pub fn to_ptn_annotated(&self, tags: &[(&str, String)], notes: &[PtnNote]) -> String {
        self.write_ptn(tags, notes, &[])
    }

    /// `to_ptn` with a player's own comments: `said[0]` before the first ply, `said[i]` after
    /// ply `i`. Comments lose their braces.
    pub fn to_ptn_commented(&self, tags: &[(&str, String)], said: &[Vec<String>]) -> String {
        self.write_ptn(tags, &[], said)
    }

    fn write_ptn(
        &self,
        tags: &[(&str, String)],
        notes: &[PtnNote],
        said: &[Vec<String>],
    ) -> String {
        let said: Vec<Vec<String>> = said
            .iter()
            .map(|c| c.iter().map(|t| t.replace(['{', '}'], "")).collect())
            .collect();
        let said_at = |i: usize| -> Vec<&str> {
            said.get(i)
                .map(|c| c.iter().map(String::as_str).collect())
                .unwrap_or_default()
        };
        let mut out = header(tags, self.start(), self.result());
        let words: Vec<String> = self
            .plies()
            .iter()
            .enumerate()
            .map(|(i, played)| ply_text(played, notes.get(i), &said_at(i + 1)))
            .collect();
        let start = self.start();
        let black_first = start.to_move() == Color::Black;
        movetext(
            &mut out,
            start.move_number(),
            black_first,
            &said_at(0),
            &words,
        );
        if let Some(r) = self.result() {
            out.push_str(r.ptn());
            out.push('\n');
        }
        out
    }
}

impl PtnFile {
    /// This file written back with an analysis of one of its lines: `game` is line `branch`
    /// (`""`: the main line) replayed, with `notes[i]` after its ply `i`. The player's comments
    /// stay at their plies and every branch follows the main line, as PTN Ninja writes them.
    pub fn annotated(
        &self,
        game: &Game,
        branch: &str,
        tags: &[(&str, String)],
        notes: &[PtnNote],
    ) -> String {
        let analysis = Analysed {
            game,
            notes,
            stretches: branches::stretches(
                &self.branches,
                self.plies.len(),
                branch,
                self.first_move(),
            )
            .unwrap_or_default(),
        };
        let main = match branch {
            "" => Some(game.clone()),
            _ => self.replay().ok(),
        };
        let mut out = header(tags, game.start(), main.as_ref().and_then(Game::result));
        let start = game.start();
        let first = (start.move_number(), start.to_move() == Color::Black);
        self.write_line(&mut out, None, first, main.as_ref(), &analysis);
        for (b, branch) in self.branches.iter().enumerate() {
            // A blank line, then the name: PTN Ninja's branch.
            out.push_str(&format!("\n{{{}}}\n", branch.name));
            let replayed = self.replay_branch(&branch.name).ok().map(|(g, _)| g);
            let first = (branch.move_number, branch.black_first);
            self.write_line(&mut out, Some(b), first, replayed.as_ref(), &analysis);
        }
        out
    }

    /// One line's movetext from move `first` (Black's ply first if so) and its result: its
    /// plies from the analysed game where they are the analysed line's, else from the line
    /// `replayed`, else as written; the player's comments at their plies.
    fn write_line(
        &self,
        out: &mut String,
        line: Line,
        (number, black_first): (u32, bool),
        replayed: Option<&Game>,
        analysis: &Analysed,
    ) {
        let start = self.before(line);
        let comments = self.comments_in(line);
        let said = |after: usize| -> Vec<&str> {
            comments
                .iter()
                .filter(|c| c.after == after)
                .map(|c| c.text.as_str())
                .collect()
        };
        let words: Vec<String> = self
            .own_plies(line)
            .iter()
            .enumerate()
            .map(|(j, (written, _))| {
                let analysed = analysis.ply(line, j);
                let played = replayed.and_then(|g| g.plies().get(start + j));
                match (analysed, played) {
                    (Some((played, note)), _) => ply_text(played, note, &said(j + 1)),
                    (None, Some(played)) => ply_text(played, None, &said(j + 1)),
                    (None, None) => with_comments(written.clone(), &said(j + 1)),
                }
            })
            .collect();
        movetext(out, number, black_first, &said(0), &words);
        let result = match replayed {
            Some(game) => game.result().map(|r| r.ptn().to_string()),
            None => self.written_result(line).clone(),
        };
        if let Some(result) = result {
            out.push_str(&result);
            out.push('\n');
        }
    }
}

/// The analysis being written: its game, its notes, and the stretches of the file's lines its
/// plies come from.
struct Analysed<'a> {
    game: &'a Game,
    notes: &'a [PtnNote],
    stretches: Vec<Stretch>,
}

impl Analysed<'_> {
    /// Own ply `j` of `line` as the analysed game played it, with its note, if it is one of the
    /// analysed line's.
    fn ply(&self, line: Line, j: usize) -> Option<(&Played, Option<&PtnNote>)> {
        let i = self
            .stretches
            .iter()
            .find(|s| s.line == line && j < s.count)
            .map(|s| s.from + j)?;
        Some((self.game.plies().get(i)?, self.notes.get(i)))
    }
}

/// The tags: `tags` first, then the setup's, and the result (PTN Ninja's Result tag format has
/// no `0-0`: an abandoned game says so in its movetext).
fn header(tags: &[(&str, String)], start: &Position, result: Option<GameResult>) -> String {
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
    if let Some(r) = result.filter(|r| *r != GameResult::Abandoned) {
        tag("Result", r.ptn());
    }
    out.push('\n');
    out
}

/// A played ply as written: its PTN with Tak marks, the analysis's mark or the player's
/// annotation, the player's comments, then the analysis's comment. A ply carries one mark: where
/// the analysis puts its own on a ply the player marked otherwise, the player's is kept in a
/// comment ("Marked !! in the record"), not lost.
fn ply_text(played: &Played, note: Option<&PtnNote>, said: &[&str]) -> String {
    let mut text = match note {
        Some(note) if !note.mark.is_empty() => {
            let mut text = played.ptn_with_marks() + note.mark;
            if let Some(own) = played.annotation.filter(|&own| own != note.mark) {
                text.push_str(&format!(" {{Marked {own} in the record}}"));
            }
            text
        }
        _ => played.ptn_annotated(),
    };
    text = with_comments(text, said);
    if let Some(comment) = note.and_then(|n| n.comment.as_ref()) {
        text.push_str(&format!(" {{{}}}", comment.replace(['{', '}'], "")));
    }
    text
}

fn with_comments(mut text: String, said: &[&str]) -> String {
    for comment in said {
        text.push_str(&format!(" {{{comment}}}"));
    }
    text
}

/// Numbered movetext from move `number`, its first ply Black's if `black_first` (after `--`):
/// `words[i]` is ply `i` with what is written after it, `before` comments before the first.
fn movetext(
    out: &mut String,
    mut number: u32,
    black_first: bool,
    before: &[&str],
    words: &[String],
) {
    let mut line = String::new();
    if black_first || !before.is_empty() {
        line = format!("{number}.");
    }
    if black_first {
        line.push_str(" --");
    }
    line = with_comments(line, before);
    let mut white = !black_first;
    for word in words {
        if line.is_empty() {
            line = format!("{number}.");
        }
        line.push(' ');
        line.push_str(word);
        if !white {
            out.push_str(&line);
            out.push('\n');
            line.clear();
            number += 1;
        }
        white = !white;
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
}
