//! What the words of a `bredon local` line mean: options, numbers, names, channels.

use crate::game::Kind;
use crate::service::{ChallengeOptions, Refusal};
use crate::store::records::{PlayerRef, Seat};
use crate::tak::Opening;

/// A player by name: a stable id per name (FNV-1a), so games and stats follow a name across
/// sessions.
pub(super) fn user(name: &str) -> PlayerRef {
    let id = crate::service::fnv1a(name.to_lowercase().bytes());
    PlayerRef {
        id,
        name: name.to_string(),
    }
}

/// The highest picture number among the files in `out` (`local-007.png`, `local-008-game.gif`).
pub(super) fn last_picture_number(out: &std::path::Path) -> u32 {
    let Ok(entries) = std::fs::read_dir(out) else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.split('.').next()?.to_string();
            stem.rsplit('-')
                .filter(|part| part.len() == 3 && part.bytes().all(|b| b.is_ascii_digit()))
                .find_map(|part| part.parse::<u32>().ok())
        })
        .max()
        .unwrap_or(0)
}

/// Commands that take no words after them.
pub(super) const BARE_COMMANDS: [&str; 7] = [
    "accept", "decline", "cancel", "rematch", "resign", "abort", "moves",
];

/// The finished game a command names by its number in `history` (`ptn 12`, `board #12`).
pub(super) fn game_number(words: &[String]) -> Result<Option<u64>, Refusal> {
    match words {
        [] => Ok(None),
        [n] => match n.trim_start_matches('#').parse() {
            Ok(id) => Ok(Some(id)),
            Err(_) => Err(Refusal(format!(
                "`{}` is not a game number: `history` lists them (#12), so write `ptn 12`",
                shortened(n)
            ))),
        },
        _ => Err(Refusal(format!(
            "name one game by its number, not `{}`",
            shortened(&words.join(" "))
        ))),
    }
}

/// What the user typed, cut to 40 characters for an answer that repeats it.
pub(super) fn shortened(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// A channel's name from its id (local channels are named; their ids are hashes of the names).
/// Channel names used by earlier runs, one a line, in the data folder.
pub(super) const CHANNELS_FILE: &str = "local-channels.txt";

pub(super) fn known_channels(data: &std::path::Path) -> Vec<String> {
    let mut names = vec!["local".to_string()];
    let kept = std::fs::read_to_string(data.join(CHANNELS_FILE)).unwrap_or_default();
    for name in kept.lines().map(str::trim).filter(|n| !n.is_empty()) {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// A length of time as the terminal says it: "3 h 05 min" (never below zero).
pub(super) fn span(ms: i64) -> String {
    let minutes = (ms.max(0) + 30_000) / 60_000;
    format!("{} h {:02} min", minutes / 60, minutes % 60)
}

/// Where `wait` keeps how far the clock was moved on, so a restart does not turn it back.
pub(super) const CLOCK_FILE: &str = "local-clock.txt";

/// How far an earlier run moved the clock on (milliseconds), or 0.
pub(super) fn kept_offset(data: &std::path::Path) -> i64 {
    let kept = std::fs::read_to_string(data.join(CLOCK_FILE)).unwrap_or_default();
    kept.trim().parse().unwrap_or(0)
}

pub(super) fn channel_name(id: u64, names: &[String]) -> String {
    names
        .iter()
        .find(|n| user(n).id == id)
        .cloned()
        .unwrap_or_else(|| id.to_string())
}

/// A word that starts like a ply: a count (any digit: `99a1>` is a ply that breaks a rule, not
/// a command), a square, a piece letter and a square, or a full-width letter or digit (typed
/// with an East Asian keyboard): the rules then say what is wrong with it.
pub(super) fn looks_like_ply(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    let b = lower.as_bytes();
    let square = |i: usize| {
        matches!(b.get(i), Some(b'a'..=b'h')) && matches!(b.get(i + 1), Some(b'1'..=b'8'))
    };
    let full_width = |c: char| ('\u{FF10}'..='\u{FF5A}').contains(&c);
    b.first().is_some_and(u8::is_ascii_digit)
        || square(0)
        || (matches!(b.first(), Some(b'f' | b's' | b'c')) && square(1))
        || word.chars().next().is_some_and(full_width)
}

/// `game=takat` among a command's words (Tak without it).
pub(super) fn game_option(words: &[String]) -> Result<Kind, Refusal> {
    match words.iter().find_map(|w| w.strip_prefix("game=")) {
        Some(name) => Kind::parse(name).map_err(Refusal),
        None => Ok(Kind::Tak),
    }
}

/// `key=N` among `words`, read as a number; `what` says what N must be when it is not one.
pub(super) fn number_option<T: std::str::FromStr>(
    words: &[String],
    key: &str,
    what: &str,
) -> Result<Option<T>, Refusal> {
    let prefix = format!("{key}=");
    words
        .iter()
        .find_map(|w| w.strip_prefix(&prefix))
        .map(|v| {
            v.parse()
                .map_err(|_| Refusal(format!("{key}={v} is not {what}")))
        })
        .transpose()
}

/// `key=on` or `key=off` (a bare `key` counts as on); anything else is refused, never taken
/// as off.
pub(super) fn on_off(key: &str, value: &str) -> Result<bool, Refusal> {
    match value {
        "" | "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        other => Err(Refusal(format!(
            "{key}={}: write {key}=on or {key}=off (yes/no and true/false work too)",
            shortened(other)
        ))),
    }
}

pub(super) fn challenge_options(words: &[String]) -> Result<ChallengeOptions, Refusal> {
    let mut o = ChallengeOptions::default();
    for w in words {
        let (key, value) = w.split_once('=').unwrap_or((w.as_str(), ""));
        match key {
            "size" => {
                o.size = Some(
                    value
                        .parse()
                        .map_err(|_| Refusal(format!("size={value} is not a number 3..8")))?,
                )
            }
            "komi" => o.komi = Some(value.into()),
            "game" => o.game = Kind::parse(value).map_err(Refusal)?,
            "seat" => {
                o.seat = match value {
                    "white" => Seat::White,
                    "black" => Seat::Black,
                    "random" => Seat::Random,
                    _ => {
                        return Err(Refusal(format!(
                            "seat={value}: choose white, black or random"
                        )))
                    }
                }
            }
            "opening" => o.opening = Opening::parse(value).map_err(Refusal)?,
            "rated" => o.rated = on_off("rated", value)?,
            "blind" => o.blind = on_off("blind", value)?,
            "time" => o.time_limit = Some(value.into()),
            "reminder" => o.reminder = Some(value.into()),
            "theme" => o.theme = Some(value.into()),
            "tps" => o.tps = Some(value.into()),
            // A PTN file's main line, as `/challenge tps:` takes a pasted PTN.
            "ptn" => {
                let text = std::fs::read_to_string(value)
                    .map_err(|e| Refusal(format!("cannot read {value}: {e}")))?;
                o.tps = Some(text);
            }
            "reserves" => o.reserves = Some(crate::service::parse_reserves(value)?),
            "hide" => o.hide = Some(value.into()),
            "tray" => o.tray = Some(on_off("tray", value)?),
            "open" => o.opponent = None,
            "level" => o.engine = Some(value.into()),
            "stakes" => o.stakes = crate::service::parse_stakes(value)?,
            name if value.is_empty() && o.opponent.is_none() => {
                o.opponent = Some(user(name.trim_start_matches('@')))
            }
            _ => {
                return Err(Refusal(format!(
                    "`{w}` is not a challenge option; type `help`"
                )))
            }
        }
    }
    // Challenging Bredon, or giving a level, is a game against the engine; a level with a
    // person is refused, as on Discord, rather than quietly playing Bredon instead.
    let named_bredon = o
        .opponent
        .as_ref()
        .is_some_and(|p| p.name.eq_ignore_ascii_case("bredon"));
    if let (Some(person), Some(_), false) = (&o.opponent, &o.engine, named_bredon) {
        return Err(Refusal(format!(
            "a level sets Bredon's strength, so it needs Bredon as the opponent: leave the level \
             out to challenge {0}, or write `challenge bredon level=...` to play Bredon",
            person.name
        )));
    }
    if named_bredon || o.engine.is_some() {
        o.opponent = Some(user("Bredon"));
        o.engine.get_or_insert_with(|| "medium".into());
    }
    Ok(o)
}

/// A channel name from a thread name: "Spring Cup R1: alice vs bob" → "spring-cup-r1-alice-vs-bob".
pub(super) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// `name=".." format=swiss rounds=3 limit=8 start=..` and the games' challenge options.
pub(super) fn tournament_options(
    words: &[String],
) -> Result<crate::service::TournamentOptions, Refusal> {
    let get = |k: &str| words.iter().find_map(|w| w.strip_prefix(&format!("{k}=")));
    let rounds = number_option(words, "rounds", "a number")?;
    let limit = number_option(words, "limit", "a number")?;
    let own = ["name", "format", "rounds", "limit", "start", "vacations"];
    let game: Vec<String> = words
        .iter()
        .filter(|w| !own.contains(&w.split('=').next().unwrap_or("")))
        .cloned()
        .collect();
    Ok(crate::service::TournamentOptions {
        name: get("name").unwrap_or("").to_string(),
        format: crate::service::parse_format(get("format").unwrap_or("round-robin"), rounds)?,
        game: challenge_options(&game)?,
        limit,
        start: get("start").map(str::to_string),
        no_vacations: !get("vacations")
            .map(|v| on_off("vacations", v))
            .transpose()?
            .unwrap_or(true),
    })
}

/// The service's words for the terminal: its answers name Discord's commands (`/premove
/// clear:True`, `/ptn game:12 notes:True`, the Move form), which read here as this session's
/// lines (`premove clear`, `ptn 12 notes`, `move PLY then LINE`).
pub(super) fn for_terminal(text: &str) -> String {
    let text = text.replace("the Move form", "`move PLY then LINE`");
    let mut out = String::with_capacity(text.len());
    // Inside a command's words, and whether its next word may still be a subcommand.
    let (mut in_command, mut subcommand) = (false, false);
    for (i, piece) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let lead = piece.len() - piece.trim_start_matches(['`', '(', '"']).len();
        let word = &piece[lead..];
        if let Some(command) = word.strip_prefix('/').filter(|c| starts_command(c)) {
            out.push_str(&piece[..lead]);
            out.push_str(command);
            in_command = !command.ends_with(['`', ')', ',', '.', ';', ':']);
            subcommand = in_command;
            continue;
        }
        match in_command.then(|| option_for_terminal(piece)).flatten() {
            Some((option, ends)) => {
                out.push_str(&option);
                in_command = !ends;
            }
            None => {
                out.push_str(piece);
                // `/tournament standings`: one plain word right after the command goes on
                // with it; any other ends it.
                in_command &= subcommand && piece.bytes().all(|b| b.is_ascii_lowercase());
            }
        }
        subcommand = false;
    }
    out
}

/// Whether `word` (after its `/`) begins with the name of a command.
fn starts_command(word: &str) -> bool {
    let name: String = word
        .chars()
        .take_while(|c| c.is_ascii_lowercase())
        .collect();
    SESSION_COMMANDS.contains(&name.as_str())
}

/// The commands a session's line may name (those the service's answers speak of).
const SESSION_COMMANDS: [&str; 30] = [
    "abort",
    "accept",
    "analyze",
    "bid",
    "board",
    "cancel",
    "challenge",
    "decline",
    "draw",
    "games",
    "history",
    "leaderboard",
    "move",
    "moves",
    "mygames",
    "note",
    "notify",
    "position",
    "premove",
    "ptn",
    "puzzle",
    "rematch",
    "resign",
    "rules",
    "settings",
    "stats",
    "tournament",
    "undo",
    "vacation",
    "wallet",
];

/// A Discord option (`clear:True`, `game:12`, `text:`, `size:6`) as this session writes it,
/// and whether the command ends with it (a closing mark follows).
fn option_for_terminal(piece: &str) -> Option<(String, bool)> {
    let (name, rest) = piece.split_once(':')?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
        return None;
    }
    let value_len = rest.find(['`', ')', ',', ';', '"']).unwrap_or(rest.len());
    let value = rest[..value_len].trim_end_matches(['.', ':']);
    let tail = &rest[value.len()..];
    let written = match (name, value) {
        (_, "True" | "true") => name.to_string(),
        (_, "False" | "false") => format!("{name}=off"),
        ("game" | "coins" | "days", v) if !v.is_empty() => v.to_string(),
        ("text" | "line" | "ply", "") => name.to_uppercase(),
        (_, "") => format!("{name}=…"),
        (_, v) => format!("{name}={v}"),
    };
    Some((format!("{written}{tail}"), !tail.is_empty()))
}
