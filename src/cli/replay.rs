use super::Failure;
use crate::tak::Game;
use std::io::Read;

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object with the position and Tak flag after every ply.
    #[arg(long)]
    json: bool,
    /// The PTN file, or `-` for standard input.
    file: String,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let text = if args.file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| Failure::new(1, format!("cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(&args.file)
            .map_err(|e| Failure::new(1, format!("cannot read {}: {e}", args.file)))?
    };
    let game = Game::from_ptn(&text).map_err(|e| Failure::new(1, e.to_string()))?;
    if args.json {
        println!("{}", replay_json(&game));
    } else {
        println!("{}", game.position().to_tps());
        println!("{}", game.result().map_or("*", |r| r.ptn()));
    }
    Ok(())
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
