use super::ground::Failure;
use crate::engine::{choose, random_ply, tei, Level, Memory};
use crate::tak::{Color, Game, GameResult, Komi, Ply, Position, Setup};
use std::time::Duration;

#[derive(clap::Args)]
pub struct MatchArgs {
    /// First player: random, beginner, easy, medium, hard (strongest plays as hard here), or
    /// tei:PROGRAM (an external TEI engine).
    #[arg(long)]
    a: String,
    /// Second player, as --a.
    #[arg(long)]
    b: String,
    #[arg(long, default_value_t = 5)]
    size: usize,
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    komi: String,
    /// Games to play; colours alternate.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Thinking time per ply for `hard` and TEI engines, in milliseconds.
    #[arg(long, default_value_t = 500)]
    movetime: u64,
    /// Plies after which a game counts as a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Start games from this many distinct 4-ply openings (drawn with a fixed seed), each played
    /// twice with colours swapped, so games are independent; 0 starts every game empty.
    #[arg(long, default_value_t = 0)]
    openings: usize,
    /// Append every game, as PTN, to this file (games to mine for positions and puzzles).
    #[arg(long)]
    ptn: Option<std::path::PathBuf>,
    /// Start at this game (counting from 1), with its opening and colours: a long match split
    /// over several processes plays the same games as one.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    first_game: u32,
}

/// Plies in each opening of a match.
const OPENING_PLIES: usize = 4;

/// `count` distinct openings of `OPENING_PLIES` plies (distinct positions), random legal plies
/// drawn with a fixed seed, none of them ending the game.
pub fn openings(setup: Setup, count: usize) -> Vec<Vec<Ply>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut tries = 0;
    while out.len() < count && tries < count * 1000 {
        tries += 1;
        let mut game = Game::new(Position::new(setup));
        let mut line = Vec::new();
        while line.len() < OPENING_PLIES && game.result().is_none() {
            let Some(ply) = random_ply(game.position(), &mut state) else {
                break;
            };
            if game.play(ply).is_err() {
                break;
            }
            line.push(ply);
        }
        if line.len() == OPENING_PLIES
            && game.result().is_none()
            && seen.insert(game.position().to_tps())
        {
            out.push(line);
        }
    }
    out
}

enum Player {
    Random(u64),
    /// A level, with what its searches in the present game left.
    Level(Level, Box<Memory>),
    Tei(Box<tei::Client>),
}

impl Player {
    fn new(spec: &str) -> Result<Player, Failure> {
        if let Some(program) = spec.strip_prefix("tei:") {
            return spawn(program).map(|c| Player::Tei(Box::new(c)));
        }
        if spec == "random" {
            return Ok(Player::Random(0x2545F4914F6CDD1D));
        }
        Level::parse(spec)
            .map(|level| Player::Level(level, Box::default()))
            .map_err(|e| Failure::new(2, format!("{e}, random, or tei:PROGRAM")))
    }

    /// Forgets what the last game's searches left.
    fn new_game(&mut self) {
        if let Player::Level(_, memory) = self {
            **memory = Memory::default();
        }
    }

    fn ply(&mut self, game: &Game, movetime: Duration, seed: u64) -> Result<Ply, Failure> {
        let p = game.position();
        match self {
            Player::Random(s) => random_ply(p, s).ok_or_else(|| Failure::new(1, "no legal ply")),
            Player::Level(level, memory) => choose(*level, memory, p, movetime, seed)
                .ok_or_else(|| Failure::new(1, "no legal ply")),
            Player::Tei(client) => {
                let plies: Vec<String> = game.plies().iter().map(|x| x.ptn.clone()).collect();
                let tps = (game.start().ply_index() > 0).then(|| game.start().to_tps());
                let text = client
                    .best_ply(tps.as_deref(), game.start().setup(), &plies, movetime)
                    .map_err(|e| Failure::new(1, e))?;
                Ply::parse(&text)
                    .map(|p| p.ply)
                    .map_err(|e| Failure::new(1, format!("the engine sent {text}: {e}")))
            }
        }
    }
}

pub fn run_match(args: MatchArgs) -> Result<(), Failure> {
    let komi = Komi::parse(&args.komi).map_err(|e| Failure::new(2, e))?;
    let setup = Setup::new(args.size)
        .map_err(|e| Failure::new(2, e))?
        .with_komi(komi);
    let mut players = [Player::new(&args.a)?, Player::new(&args.b)?];
    let movetime = Duration::from_millis(args.movetime);
    let book = openings(setup, args.openings);
    if book.len() < args.openings {
        return Err(Failure::new(
            2,
            format!(
                "only {} distinct openings exist on {}x{}; ask for fewer",
                book.len(),
                args.size,
                args.size
            ),
        ));
    }
    let (mut wins, mut losses, mut draws) = (0u32, 0u32, 0u32);
    // Of those, the games decided by a road; a match's other decided games end on flats.
    let (mut road_wins, mut road_losses) = (0u32, 0u32);
    let first = args.first_game - 1;
    for g in first..first + args.games {
        // Game g: A plays White in even games.
        let a_color = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut game = Game::new(Position::new(setup));
        players.iter_mut().for_each(Player::new_game);
        // Games 2k and 2k+1 share opening k, with colours swapped.
        if let Some(opening) = book.get((g as usize / 2) % book.len().max(1)) {
            for &ply in opening {
                game.play(ply).map_err(|e| Failure::new(1, e.to_string()))?;
            }
        }
        while game.result().is_none() && game.plies().len() < args.max_plies {
            let mover = game.position().to_move();
            let who = if mover == a_color { 0 } else { 1 };
            let seed = (g as u64) << 32 | game.plies().len() as u64;
            let ply = players[who].ply(&game, movetime, seed)?;
            if let Err(e) = game.play(ply) {
                return Err(Failure::new(
                    1,
                    format!(
                        "{} played an illegal ply {ply}: {e}",
                        if who == 0 { &args.a } else { &args.b }
                    ),
                ));
            }
        }
        let result = game.result();
        if let Some(path) = &args.ptn {
            let names = [&args.a, &args.b];
            let (white, black) = match a_color {
                Color::White => (names[0], names[1]),
                Color::Black => (names[1], names[0]),
            };
            let tags = [("Player1", white.clone()), ("Player2", black.clone())];
            let text = game.to_ptn(&tags) + "\n";
            use std::io::Write;
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(text.as_bytes()))
                .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", path.display())))?;
        }
        let by_road = u32::from(matches!(result, Some(GameResult::Road { .. })));
        match result.and_then(|r| r.winner()) {
            Some(w) if w == a_color => {
                wins += 1;
                road_wins += by_road;
            }
            Some(_) => {
                losses += 1;
                road_losses += by_road;
            }
            None => draws += 1,
        }
        println!(
            "game {}: {} as {} — {} in {} plies",
            g + 1,
            args.a,
            a_color.name(),
            result.map_or("draw (ply limit)", |r| r.ptn()),
            game.plies().len()
        );
    }
    let score = wins as f64 + draws as f64 / 2.0;
    println!("{} vs {} on {}x{}: {} scored {score}/{} ({wins} wins, {losses} losses, {draws} draws), {:.0}%", args.a, args.b, args.size, args.size, args.a, args.games, 100.0 * score / args.games as f64);
    println!(
        "{} won {road_wins} by a road and {} on flats; lost {road_losses} by a road and {} on flats",
        args.a,
        wins - road_wins,
        losses - road_losses
    );
    let (elo, low, high) = elo_interval(wins, losses, draws);
    println!("Elo difference {elo:+.0}, 95% interval [{low:+.0}, {high:+.0}]");
    Ok(())
}

/// The Elo difference a match's score means, with its 95% interval (the score's normal
/// approximation from the games' own spread), each clamped to ±1,600 where a score of 0 or 1
/// has no finite Elo.
pub fn elo_interval(wins: u32, losses: u32, draws: u32) -> (f64, f64, f64) {
    let n = (wins + losses + draws).max(1) as f64;
    let score = (wins as f64 + draws as f64 / 2.0) / n;
    let spread = (wins as f64 * (1.0 - score).powi(2)
        + losses as f64 * score.powi(2)
        + draws as f64 * (0.5 - score).powi(2))
        / n;
    let margin = 1.96 * (spread / n).sqrt();
    let elo =
        |p: f64| (-400.0 * (1.0 / p.clamp(1e-4, 1.0 - 1e-4) - 1.0).log10()).clamp(-1600.0, 1600.0);
    (elo(score), elo(score - margin), elo(score + margin))
}

#[cfg(test)]
mod tests {
    use super::elo_interval;

    #[test]
    fn elo_is_zero_for_an_even_match_and_its_interval_narrows_with_games() {
        let (even, low, high) = elo_interval(10, 10, 0);
        assert_eq!(even.round(), 0.0);
        assert!(low < -100.0 && high > 100.0);
        let (_, low, high) = elo_interval(100, 100, 0);
        assert!(low > -60.0 && high < 60.0);
        // 3 of 4 points is +191 Elo.
        assert_eq!(elo_interval(3, 1, 0).0.round(), 191.0);
        assert!(
            elo_interval(5, 0, 0).0.round() >= 1600.0,
            "a clean sweep is the cap"
        );
    }
}

pub fn run_tei() -> Result<(), Failure> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    tei::serve(stdin, std::io::stdout());
    Ok(())
}

#[derive(clap::Args)]
pub struct TuneArgs {
    /// Finished games to learn from, as PTN (`bredon match --ptn` writes them); repeatable.
    #[arg(long, required_unless_present = "labels")]
    ptn: Vec<std::path::PathBuf>,
    /// Positions labelled by `bredon label` to learn from instead; repeatable.
    #[arg(long, conflicts_with = "ptn")]
    labels: Vec<std::path::PathBuf>,
    /// With --labels: how much of each label is the teacher's chance (the rest is the result).
    #[arg(long, default_value_t = 0.5)]
    teacher_share: f32,
    /// With --ptn: plies at the start of each game to leave out (a match's random opening).
    #[arg(long, default_value_t = 4)]
    skip: usize,
    /// Gradient steps.
    #[arg(long, default_value_t = 1500)]
    rounds: usize,
    /// L2 weight decay, in the logistic model's units [default: 1e-5, with --net 1e-4].
    #[arg(long)]
    decay: Option<f64>,
    /// With --labels (all of one board size): train that size's network instead of the linear
    /// weights, and write it here (Bredon plays `assets/engine/net-5x5.txt` and `net-6x6.txt`).
    #[arg(long, requires = "labels")]
    net: Option<std::path::PathBuf>,
    /// With --net: passes over the positions.
    #[arg(long, default_value_t = 24)]
    epochs: usize,
    /// With --net: Adam's rate at the start (it falls to 0 by the end).
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
}

/// Texel tuning: fit the evaluation's weights to the results of games, or to labelled positions
/// (a teacher's chances blended with the results); prints them. One game in ten is held out to
/// show whether the fit predicts games it has not seen.
pub fn run_tune(args: TuneArgs) -> Result<(), Failure> {
    use crate::engine::eval::feature_name;
    use crate::engine::tune::{fit, is_held_out, samples};
    let started = std::time::Instant::now();
    if let Some(path) = &args.net {
        return run_net(&args, path);
    }
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    let mut games = 0;
    for game in read_games(&args.ptn)? {
        let out = if is_held_out(games) {
            &mut held_out
        } else {
            &mut train
        };
        samples(&game, args.skip, out);
        games += 1;
    }
    each_labelled(&args.labels, |l| {
        let sample = l.sample(args.teacher_share)?;
        games = games.max(l.game + 1);
        if is_held_out(l.game) {
            held_out.push(sample);
        } else {
            train.push(sample);
        }
        Ok(())
    })?;
    println!(
        "{games} games, {} quiet positions to fit, {} held out ({:.0} s)",
        train.len(),
        held_out.len(),
        started.elapsed().as_secs_f64()
    );
    let decay = args.decay.unwrap_or(1e-5);
    let f = fit(&train, &held_out, args.rounds, decay).ok_or_else(|| {
        Failure::new(
            1,
            "the fit found flats worth nothing: more games are needed",
        )
    })?;
    println!(
        "mean squared error on held-out positions: {:.5} (today's weights) -> {:.5}; on the fitted ones {:.5} (today's weights) -> {:.5} ({:.0} s)",
        f.held_out_before,
        f.held_out_after,
        f.train_before,
        f.train_after,
        started.elapsed().as_secs_f64()
    );
    for (i, w) in f.weights.iter().enumerate() {
        println!("{w:>8.1}  {}", feature_name(i));
    }
    let list: Vec<String> = f.weights.iter().map(|w| format!("{w:.1}")).collect();
    println!("pub const WEIGHTS: Weights = [{}];", list.join(", "));
    Ok(())
}

/// Trains a network on labelled positions of one board size and writes it to `path`, reporting
/// its held-out error beside today's linear weights' and today's network's for that size.
fn run_net(args: &TuneArgs, path: &std::path::Path) -> Result<(), Failure> {
    use crate::engine::eval::{features, split_features, WEIGHTS};
    use crate::engine::net;
    use crate::engine::net_train::{net_error, train, NetSample, Schedule};
    use crate::engine::tune::{best_scale, error, is_held_out, Sample};
    let started = std::time::Instant::now();
    let (mut tr, mut ho, mut linear_tr, mut linear_ho) = (vec![], vec![], vec![], vec![]);
    let mut size = None;
    each_labelled(&args.labels, |l| {
        let pos = l.position()?;
        let first = *size.get_or_insert(pos.size());
        if first != pos.size() {
            let n = pos.size();
            return Err(format!(
                "a network is for one board size: a {n}x{n} position among {first}x{first} ones \
                 (train each size's labels apart)"
            ));
        }
        let target = l.target(args.teacher_share);
        let net = NetSample {
            x: split_features(&pos),
            target,
        };
        let linear = Sample {
            features: features(&pos),
            result: target,
        };
        if is_held_out(l.game) {
            ho.push(net);
            linear_ho.push(linear);
        } else {
            tr.push(net);
            linear_tr.push(linear);
        }
        Ok(())
    })?;
    // The network's unit is the linear weights' at their best scale on these labels, so the
    // search's margins (in flats) mean the same chances with either.
    let today = WEIGHTS.map(f64::from);
    let scale = best_scale(&linear_tr, &today);
    let size = size.unwrap_or(6);
    let today_net = match net::for_size(size) {
        Some(net) => format!("{:.5}", net_error(net, &ho)),
        None => "none".into(),
    };
    println!(
        "{} positions of {size}x{size} to fit, {} held out; mean squared error held out: {:.5} by \
         today's weights, {today_net} by today's network ({:.0} s)",
        tr.len(),
        ho.len(),
        error(&linear_ho, &today, scale),
        started.elapsed().as_secs_f64()
    );
    let schedule = Schedule {
        epochs: args.epochs,
        rate: args.rate,
        decay: args.decay.unwrap_or(1e-4) as f32,
        scale: scale as f32,
    };
    let net = train(&tr, &ho, &schedule, |epoch, e| {
        println!("epoch {}: held out {e:.5}", epoch + 1)
    });
    std::fs::write(path, net.to_text())
        .map_err(|e| Failure::new(1, format!("cannot write {}: {e}", path.display())))?;
    println!(
        "wrote {} ({:.0} s)",
        path.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Calls `visit` with every line of the label files, read back; a line that does not read, or
/// that `visit` refuses, stops with its file and line number.
fn each_labelled(
    paths: &[std::path::PathBuf],
    mut visit: impl FnMut(crate::engine::tune::Labelled) -> Result<(), String>,
) -> Result<(), Failure> {
    use crate::engine::tune::Labelled;
    for path in paths {
        for (n, line) in read(path)?.lines().enumerate() {
            Labelled::parse(line)
                .and_then(&mut visit)
                .map_err(|e| Failure::new(1, format!("{}:{}: {e}", path.display(), n + 1)))?;
        }
    }
    Ok(())
}

/// An external TEI engine from `PROGRAM [ARGS...]`.
pub(super) fn spawn(program: &str) -> Result<tei::Client, Failure> {
    let mut parts = program.split_whitespace();
    let prog = parts.next().unwrap_or_default();
    let args: Vec<String> = parts.map(String::from).collect();
    tei::Client::spawn(prog, &args).map_err(|e| Failure::new(1, e))
}

fn read(path: &std::path::Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::new(1, format!("cannot read {}: {e}", path.display())))
}

/// Every game in the PTN files, replayed.
pub(super) fn read_games(paths: &[std::path::PathBuf]) -> Result<Vec<Game>, Failure> {
    let mut games = Vec::new();
    for path in paths {
        let failed =
            |e: &dyn std::fmt::Display| Failure::new(1, format!("{}: {e}", path.display()));
        for file in crate::tak::PtnFile::parse_all(&read(path)?).map_err(|e| failed(&e))? {
            games.push(file.replay().map_err(|e| failed(&e))?);
        }
    }
    Ok(games)
}
