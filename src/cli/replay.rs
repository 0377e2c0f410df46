use super::ground::Failure;
use crate::tak::{Game, PtnFile};
use crate::takat;

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object with the position and Tak flag after every ply.
    #[arg(long)]
    json: bool,
    /// In a file with several games, replay only game N (1 = the first).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// The PTN file, or `-` for standard input.
    file: String,
}

/// Replays each game of the file (or the one `--game` picks): its final TPS and result, or its
/// JSON, one per game. What was passed over (variations, a result the moves do not reach) is
/// said on stderr.
pub fn run(args: Args) -> Result<(), Failure> {
    let text = super::ground::read_input(&args.file)?;
    if crate::game::is_takat_record(&text) {
        return replay_takat(&text, args.json);
    }
    let files = PtnFile::parse_all(&text).map_err(|e| Failure::new(1, e.to_string()))?;
    let picked: Vec<(usize, PtnFile)> = match args.game {
        None => files.into_iter().enumerate().collect(),
        Some(n) if (1..=files.len()).contains(&n) => {
            vec![(n - 1, files.into_iter().nth(n - 1).expect("in range"))]
        }
        Some(n) => {
            return Err(Failure::new(
                2,
                format!(
                    "--game {n}: this file holds {}; pick 1 to {}",
                    crate::words::count(files.len() as u64, "game"),
                    files.len()
                ),
            ))
        }
    };
    let several = picked.len() > 1;
    for (i, file) in picked {
        let which = if several {
            format!("game {}: ", i + 1)
        } else {
            String::new()
        };
        let (game, warnings) = file
            .replay_with_warnings()
            .map_err(|e| Failure::new(1, format!("{which}{e}")))?;
        for w in warnings {
            eprintln!("bredon: warning: {which}{w}");
        }
        print_game(&game, args.json, several && i > 0);
    }
    Ok(())
}

fn print_game(game: &Game, json: bool, blank_line_before: bool) {
    if json {
        println!("{}", replay_json(game));
        return;
    }
    if blank_line_before {
        println!();
    }
    println!("{}", game.position().to_tps());
    println!("{}", game.result().map_or("*", |r| r.ptn()));
}

/// The JSON of DESIGN.md: size, komi, result, final TPS, and each ply with the TPS after it.
pub fn replay_json(game: &Game) -> serde_json::Value {
    let mut position = game.start().clone();
    let mut plies = Vec::new();
    let count = game.plies().len();
    for (i, played) in game.plies().iter().enumerate() {
        position.play_unchecked(played.undo.ply);
        let result = if i + 1 == count {
            game.result().map(|r| r.ptn())
        } else {
            None
        };
        plies.push(serde_json::json!({
            "ptn": played.ptn,
            "tps": position.to_tps(),
            "tak": played.tak,
            "result": result,
        }));
    }
    let halves = game.start().setup().komi.halves();
    let komi = if halves % 2 == 0 {
        serde_json::json!(halves / 2)
    } else {
        serde_json::json!(halves as f64 / 2.0)
    };
    serde_json::json!({
        "size": game.start().size(),
        "komi": komi,
        "result": game.result().map(|r| r.ptn()),
        "tps": game.position().to_tps(),
        "plies": plies,
    })
}

/// A Takat record: its final position string and result, or the same JSON as Tak's with Takat
/// plies and position strings (`"game": "Takat"`, komi 0, no Tak flags).
fn replay_takat(text: &str, json: bool) -> Result<(), Failure> {
    let game = takat::Game::from_record(text).map_err(|e| Failure::new(1, e))?;
    let code = game.result().map(|r| r.code());
    if !json {
        println!("{}", game.position().to_text());
        println!("{}", code.unwrap_or("*"));
        return Ok(());
    }
    let mut position = *game.start();
    let count = game.ply_count();
    let plies: Vec<serde_json::Value> = game
        .plies()
        .enumerate()
        .map(|(i, ply)| {
            let name = position.name(ply);
            position.apply(ply);
            serde_json::json!({
                "ptn": name,
                "tps": position.to_text(),
                "tak": false,
                "result": if i + 1 == count { code } else { None },
            })
        })
        .collect();
    println!(
        "{}",
        serde_json::json!({
            "game": "Takat",
            "size": game.start().board().len(),
            "komi": 0,
            "result": code,
            "tps": game.position().to_text(),
            "plies": plies,
        })
    );
    Ok(())
}
