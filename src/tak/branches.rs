//! PTN Ninja's branches as data: their names, where they depart, and the lines of play they
//! make; PTN's line numbers (`12.`, and the older branch-numbered `49-1.49.`).

use super::ply::PtnPly;

/// A comment of the player's: its text (inside the braces) and how many plies of its line come
/// before it (0: before the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtnComment {
    pub after: usize,
    pub text: String,
}

/// One of PTN Ninja's branches: another line of play that departs from a ply of its parent
/// line (the main line, or the branch its name starts with: `14b1/15b1` departs from `14b1`).
#[derive(Clone, Debug, Default)]
pub struct PtnBranch {
    /// The name PTN Ninja shows, segments joined by `/`.
    pub name: String,
    /// The move its first ply belongs to, and whether that ply is Black's (written after `--`).
    pub move_number: u32,
    pub black_first: bool,
    /// Its own plies as written, parsed.
    pub plies: Vec<(String, PtnPly)>,
    /// The result written after its last ply.
    pub result: Option<String>,
    pub comments: Vec<PtnComment>,
}

impl PtnBranch {
    /// The line it departs from: its name before the last `/`, or the main line ("").
    pub fn parent(&self) -> &str {
        self.name.rsplit_once('/').map_or("", |(parent, _)| parent)
    }

    /// How many plies of the game come before its first, for a game whose movetext starts at
    /// move `first` with White (side 0) or Black (1) to move; `None` if it departs before that.
    pub fn start(&self, (first, side): (u32, u32)) -> Option<usize> {
        let plies = 2 * i64::from(self.move_number) + i64::from(self.black_first)
            - 2 * i64::from(first)
            - i64::from(side);
        usize::try_from(plies).ok()
    }
}

/// A branch's name as PTN Ninja reads it: split at each `.` or `/` followed by a name or the
/// end, empty parts dropped, joined by `/` (`49-1.` is `49-1`, `14b1/15b1` stays).
pub fn branch_name(written: &str) -> String {
    let chars: Vec<char> = written.chars().collect();
    let mut parts = vec![String::new()];
    for (i, &c) in chars.iter().enumerate() {
        let separator = matches!(c, '.' | '/');
        let splits = separator && chars.get(i + 1).is_none_or(|n| !matches!(n, '.' | '/'));
        match splits {
            true => parts.push(String::new()),
            false => parts.last_mut().expect("one part at least").push(c),
        }
    }
    parts.retain(|p| !p.is_empty());
    parts.join("/")
}

/// The name PTN Ninja gives a branch it makes: move number, `w` or `b`, and its rank among the
/// alternatives to that ply (`14b1`).
pub fn default_name(move_number: u32, black: bool, rank: usize) -> String {
    format!("{move_number}{}{rank}", if black { 'b' } else { 'w' })
}

/// A line number at the start of a token: the branch it names in the older form (`49-1.49.`
/// names `49-1`), the move number, and the rest of the token (a ply glued to it: `12.a1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineNumber<'a> {
    pub branch: Option<String>,
    pub number: u32,
    pub rest: &'a str,
}

/// Reads a line number as PTN Ninja does (`([\d-]+\.+|/)*` then `\d+\.+`): the last group of
/// digits and dots is the move number, the groups before it name a branch.
pub fn line_number(token: &str) -> Option<LineNumber<'_>> {
    let mut at = 0;
    let mut found = None;
    let bytes = token.as_bytes();
    loop {
        if bytes.get(at) == Some(&b'/') {
            at += 1;
            continue;
        }
        let digits = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'-')
            .count();
        let dots = bytes[at + digits..]
            .iter()
            .take_while(|&&b| b == b'.')
            .count();
        if digits == 0 || dots == 0 {
            break;
        }
        let group = &token[at..at + digits];
        at += digits + dots;
        if let Ok(number) = group.parse::<u32>() {
            found = Some((group.len() + dots, at, number));
        }
    }
    let (length, end, number) = found?;
    let prefix = &token[..end - length];
    Some(LineNumber {
        branch: (!prefix.is_empty())
            .then(|| branch_name(prefix))
            .filter(|n| !n.is_empty()),
        number,
        rest: &token[end..],
    })
}

/// One stretch of a line of play: `count` plies of the main line (`None`) or of a branch (its
/// index), coming after `from` plies of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stretch {
    pub line: Option<usize>,
    pub from: usize,
    pub count: usize,
}

/// The stretches a branch's line is made of, the main line's first: its parent's line up to
/// where it departs, then its own plies. `main` is the main line's length; `first` as in
/// [`PtnBranch::start`].
pub fn stretches(
    branches: &[PtnBranch],
    main: usize,
    name: &str,
    first: (u32, u32),
) -> Result<Vec<Stretch>, String> {
    if name.is_empty() {
        return Ok(vec![Stretch {
            line: None,
            from: 0,
            count: main,
        }]);
    }
    let Some(index) = branches.iter().position(|b| b.name == name) else {
        return Err(no_branch(branches, name));
    };
    let branch = &branches[index];
    let parent = branch.parent();
    if !parent.is_empty() && !branches.iter().any(|b| b.name == parent) {
        return Err(format!(
            "branch `{name}` departs from branch `{parent}`, which the file does not have"
        ));
    }
    let start = branch.start(first).ok_or_else(|| {
        format!(
            "branch `{name}` starts at move {}, before the game does",
            branch.move_number
        )
    })?;
    let mut line = stretches(branches, main, parent, first)?;
    line.retain(|s| s.from < start);
    let end = line.last().map_or(0, |s| s.from + s.count);
    if end < start {
        return Err(format!(
            "branch `{name}` starts at move {}, after the line it departs from ends ({} plies)",
            branch.move_number, end
        ));
    }
    if let Some(last) = line.last_mut() {
        last.count = start - last.from;
    }
    line.retain(|s| s.count > 0);
    line.push(Stretch {
        line: Some(index),
        from: start,
        count: branch.plies.len(),
    });
    Ok(line)
}

/// The refusal of a branch name the file does not have, naming those it has.
fn no_branch(branches: &[PtnBranch], name: &str) -> String {
    if branches.is_empty() {
        return format!("the file has no branch `{name}`: it has no branches");
    }
    let names: Vec<String> = branches.iter().map(|b| format!("`{}`", b.name)).collect();
    format!(
        "the file has no branch `{name}`; its branches: {}",
        names.join(", ")
    )
}
