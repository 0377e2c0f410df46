use super::ground::Failure;
use crate::game::Kind;
use crate::render::hex::{render_takat, render_takat_gif, takat_alt_text, TakatScene};
use crate::render::{
    alt_text, encode_png, render, render_gif, Display, Scene, Theme, PREVIEW_WIDTH,
};
use crate::tak::{tps::tps_size, Color, Game, GameResult, Komi, Ply, Position, Setup};
use crate::takat;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// tak (default) or takat.
    #[arg(long, default_value = "tak")]
    game: String,
    /// The position to draw (TPS, or a Takat position string).
    #[arg(long, required_unless_present = "gif", conflicts_with = "gif")]
    tps: Option<String>,
    /// The ply that led to the position, highlighted (PTN, e.g. `3c3>12`).
    #[arg(long, allow_hyphen_values = true)]
    last: Option<String>,
    /// dark (default), light, colorblind, colorblind-light, tritan, high-contrast, wood or slate.
    #[arg(long, default_value = "dark")]
    theme: String,
    /// Komi in half steps from -20.5 to 20.5.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    komi: String,
    #[arg(long, default_value = "Player 1")]
    player1: String,
    #[arg(long, default_value = "Player 2")]
    player2: String,
    /// Draw a whole game (PTN, or a Takat record) as an animated GIF instead.
    #[arg(long)]
    gif: Option<PathBuf>,
    /// Draw the game as lost on time by this player (white or black), to see that banner.
    #[arg(long, value_name = "PLAYER")]
    timeout: Option<String>,
    /// Print the alt text too.
    #[arg(long)]
    alt: bool,
    /// Also write a copy scaled to 400 px wide (as Discord previews it), next to the output
    /// with `-400` in its name.
    #[arg(long)]
    preview: bool,
    /// Leave parts out of a Tak picture: some of flats, roads, heights, labels (comma-separated).
    #[arg(long, default_value = "none")]
    hide: String,
    /// Show each player's reserve under the board (a Tak picture).
    #[arg(long)]
    tray: bool,
    /// Where to write the picture.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let theme = Theme::named(&args.theme).map_err(|e| Failure::new(2, e))?;
    let players = [args.player1.as_str(), args.player2.as_str()];
    let started = Instant::now();
    let takat = Kind::parse(&args.game).map_err(|e| Failure::new(2, e))? == Kind::Takat;
    let display = Display {
        tray: args.tray,
        ..Display::hiding(&args.hide).map_err(|e| Failure::new(2, format!("--hide: {e}")))?
    };
    let (bytes, alt) = match &args.gif {
        Some(path) if takat => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::new(1, format!("cannot read {}: {e}", path.display())))?;
            let game = takat::Game::from_record(&text).map_err(|e| Failure::new(1, e))?;
            let alt = takat_alt_text(&TakatScene::of_game(&game, players));
            (render_takat_gif(&game, players, &theme), alt)
        }
        None if takat => {
            let text = args.tps.as_deref().unwrap_or_default();
            let position = takat::Position::from_text(text).map_err(|e| Failure::new(2, e))?;
            let last = match &args.last {
                Some(ply) => Some(
                    position
                        .parse_ply(ply)
                        .map_err(|e| Failure::new(2, format!("--last: {e}")))?,
                ),
                None => None,
            };
            let scene = TakatScene {
                position: &position,
                last,
                players,
                result: position.end(),
                notes: takat::threats(&position),
                clock: None,
            };
            (
                encode_png(&render_takat(&scene, &theme)),
                takat_alt_text(&scene),
            )
        }
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::new(1, format!("cannot read {}: {e}", path.display())))?;
            let game = Game::from_ptn(&text).map_err(|e| Failure::new(1, e.to_string()))?;
            let alt = alt_text(&Scene::of_game(&game, players));
            (render_gif(&game, players, &theme, display), alt)
        }
        None => {
            let tps = args.tps.as_deref().unwrap_or_default();
            let komi = Komi::parse(&args.komi).map_err(|e| Failure::new(2, e))?;
            let setup = tps_size(tps)
                .and_then(Setup::new)
                .map_err(|e| Failure::new(2, e))?
                .with_komi(komi);
            let position = Position::from_tps_with(tps, setup).map_err(|e| Failure::new(2, e))?;
            let last = match &args.last {
                Some(text) => Some(last_ply(&position, text)?),
                None => None,
            };
            let mut scene = Scene::of_position(&position, last, players);
            scene.display = display;
            if let Some(loser) = &args.timeout {
                let winner = match loser.to_ascii_lowercase().as_str() {
                    "white" => Color::Black,
                    "black" => Color::White,
                    _ => {
                        return Err(Failure::new(
                            2,
                            "--timeout is white or black (who ran out of time)",
                        ))
                    }
                };
                scene.result = Some(GameResult::Timeout { winner });
                scene.tak = false;
                scene.tinue = false;
            }
            (encode_png(&render(&scene, &theme)), alt_text(&scene))
        }
    };
    let elapsed = started.elapsed();
    std::fs::write(&args.output, &bytes)
        .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", args.output.display())))?;
    println!(
        "wrote {} ({:.1} KB in {:.1} ms)",
        args.output.display(),
        bytes.len() as f64 / 1024.0,
        elapsed.as_secs_f64() * 1000.0
    );
    if args.alt {
        println!("{alt}");
    }
    if args.preview && args.gif.is_none() {
        let path = preview_path(&args.output);
        std::fs::write(&path, preview(&bytes)?)
            .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", path.display())))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn preview_path(output: &std::path::Path) -> PathBuf {
    let stem = output.file_stem().unwrap_or_default().to_string_lossy();
    output.with_file_name(format!("{stem}-{PREVIEW_WIDTH}.png"))
}

/// The picture scaled down as a chat client shows it.
fn preview(png: &[u8]) -> Result<Vec<u8>, Failure> {
    let img = image::load_from_memory(png)
        .map_err(|e| Failure::new(1, format!("cannot read the picture back: {e}")))?
        .into_rgb8();
    let height = img.height() * PREVIEW_WIDTH / img.width();
    let small = image::imageops::resize(
        &img,
        PREVIEW_WIDTH,
        height,
        image::imageops::FilterType::Triangle,
    );
    Ok(encode_png(&small))
}

/// The highlighted ply must be PTN and must fit the position: a placement ends on an occupied
/// square, a spread starts on the board and ends inside it.
fn last_ply(position: &Position, text: &str) -> Result<Ply, Failure> {
    let ply = Ply::parse(text)
        .map_err(|e| Failure::new(2, format!("--last: {e}")))?
        .ply;
    let size = position.size();
    let fits = match ply {
        Ply::Place { square, .. } => square.is_on_board(size) && !position.stack(square).is_empty(),
        Ply::Spread { from, dir, drops } => {
            let mut sq = Some(from).filter(|s| s.is_on_board(size));
            for _ in 0..drops.squares() {
                sq = sq.and_then(|s| s.step(dir, size));
            }
            sq.is_some_and(|s| !position.stack(s).is_empty())
        }
    };
    if !fits {
        return Err(Failure::new(2, format!("--last {text} cannot have led to this position: it ends on an empty square or off the board")));
    }
    Ok(ply)
}
