//! `bredon local`'s puzzle lines: `puzzle`, `puzzle hint`, `puzzle give up`, `puzzle daily`,
//! `leaderboard puzzles`, and the daily puzzle's settings.

use crate::engine::puzzles::{Difficulty, PuzzleKind};
use crate::service::{Ctx, Outcome, PuzzleChoice, Refusal, Service};

pub const HELP: &str = "\
  puzzle [number=N] [size=N] [difficulty=easy|medium|hard] [kind=win|survive|flats] [private] | puzzle hint | puzzle give up
         | puzzle daily   (plies with `move PLY` or `PLY`; a puzzle near your puzzle rating)
  leaderboard puzzles | settings puzzle_channel=NAME [puzzle_hour=0..23] | settings daily_puzzle=off
  settings puzzle_mining=off   (this server's finished games are never mined for puzzles)";

/// `NAME puzzle ...`: starts, hints at, gives up or starts today's daily puzzle.
pub fn command(sv: &Service, ctx: &Ctx, rest: &[String]) -> Result<Outcome, Refusal> {
    let words: Vec<&str> = rest.iter().map(String::as_str).collect();
    match words[..] {
        ["hint"] => sv.puzzle_hint(ctx, |_| ()),
        ["give", "up"] | ["give_up"] | ["giveup"] => sv.give_up_puzzle(ctx, |_| ()),
        ["daily"] => sv.start_daily_puzzle(ctx),
        _ => {
            let (choice, private) = choice(&words)?;
            sv.start_puzzle(ctx, choice, private)
        }
    }
}

fn choice(words: &[&str]) -> Result<(PuzzleChoice, bool), Refusal> {
    let mut choice = PuzzleChoice::default();
    let mut private = false;
    for w in words {
        let (key, value) = w.split_once('=').unwrap_or((w, ""));
        match key {
            "number" | "id" => choice.id = Some(number(key, value, "a puzzle's number")?),
            "size" => choice.size = Some(number(key, value, "a board size")?),
            "difficulty" => {
                choice.difficulty = Some(match value {
                    "easy" => Difficulty::Easy,
                    "medium" => Difficulty::Medium,
                    "hard" => Difficulty::Hard,
                    _ => return Err(Refusal("difficulty= takes easy, medium or hard".into())),
                })
            }
            "kind" => {
                choice.kind = match value {
                    "win" => PuzzleKind::Win,
                    "survive" => PuzzleKind::Survive,
                    "flats" => PuzzleKind::Gaelet,
                    _ => return Err(Refusal("kind= takes win, survive or flats".into())),
                }
            }
            "private" => private = true,
            _ => {
                return Err(Refusal(format!(
                    "`{w}` is not a puzzle option: number=N, size=N, difficulty=easy|medium|hard, \
                     kind=win|survive|flats, private, or hint, give up, daily"
                )))
            }
        }
    }
    Ok((choice, private))
}

fn number<T: std::str::FromStr>(key: &str, value: &str, what: &str) -> Result<T, Refusal> {
    value
        .parse()
        .map_err(|_| Refusal(format!("{key}= takes {what}, like {key}=5")))
}

/// `leaderboard puzzles`.
pub fn leaderboard(sv: &Service, ctx: &Ctx) -> Result<(), Refusal> {
    let players = sv.puzzle_leaderboard(ctx)?;
    println!("Puzzle solvers:");
    if players.is_empty() {
        println!("  nobody has finished a puzzle yet");
    }
    for (i, p) in players.iter().take(10).enumerate() {
        println!(
            "{}. {} {:.0} ({} solved, {} not)",
            i + 1,
            p.player.name,
            p.rating.rating,
            p.solved,
            p.failed
        );
    }
    Ok(())
}

/// The daily puzzle's settings among `settings` words; `channel_id` turns a name into its id.
pub fn settings(
    sv: &Service,
    ctx: &Ctx,
    rest: &[String],
    channel_id: impl Fn(&str) -> u64,
) -> Result<(), Refusal> {
    let get = |k: &str| rest.iter().find_map(|w| w.strip_prefix(&format!("{k}=")));
    let channel = get("puzzle_channel").map(|n| channel_id(n.trim_start_matches('#')));
    let hour = match get("puzzle_hour") {
        Some(h) => Some(
            h.parse()
                .map_err(|_| Refusal("puzzle_hour= takes an hour, 0 to 23".into()))?,
        ),
        None => None,
    };
    if let Some(on) = get("puzzle_mining") {
        sv.set_puzzle_mining(ctx, super::words::on_off("puzzle_mining", on)?)?;
    }
    // As on Discord, daily_puzzle=on changes nothing (a channel starts the puzzles).
    let off = get("daily_puzzle")
        .map(|v| super::words::on_off("daily_puzzle", v))
        .transpose()?
        == Some(false);
    if channel.is_some() || hour.is_some() || off {
        sv.set_puzzle_channel(ctx, channel, hour, off)?;
    }
    Ok(())
}
