//! Texel's method for the evaluation's weights: take the quiet positions of finished games,
//! label each with its game's result, and fit the weights so that a logistic curve of the
//! evaluation predicts the results (logistic regression on the features). `bredon tune` runs it
//! on PTN files and prints the weights for `eval::WEIGHTS`. A result says little about any one
//! position on the way to it, so positions may also carry a teacher engine's chance for them
//! (`Labelled`, written by `bredon label`), and the fit aims at a blend of the two.

use super::eval::{
    features, square_kind, Weights, FEATURES, FLATS_ENDGAME, FLATS_OPENING, FLAT_SQUARE, WEIGHTS,
};
use crate::tak::tps::tps_size;
use crate::tak::{Game, Komi, Position, Setup, Square};

/// A position's features and the result for its side to move: 1 won, 0.5 drawn, 0 lost.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: [f32; FEATURES],
    pub result: f32,
}

/// The quiet positions (no road in one for either side) of `game` after its first `skip` plies,
/// labelled with its result; nothing from a game without a result.
pub fn samples(game: &Game, skip: usize, out: &mut Vec<Sample>) {
    each_quiet_position(game, skip, |pos, result| {
        out.push(Sample {
            features: features(pos),
            result,
        })
    });
}

/// Calls `visit` with each quiet position of `game` after its first `skip` plies and the result
/// for its side to move: 1 won, 0.5 drawn, 0 lost. Never for a game without a result.
pub fn each_quiet_position(game: &Game, skip: usize, mut visit: impl FnMut(&Position, f32)) {
    let Some(winner) = game.result().map(|r| r.winner()) else {
        return;
    };
    let mut pos: Position = game.start().clone();
    for (i, played) in game.plies().iter().enumerate() {
        let me = pos.to_move();
        if i >= skip && !pos.is_tak(me) && !pos.is_tak(me.opponent()) {
            let result = match winner {
                Some(w) if w == me => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            visit(&pos, result);
        }
        pos.play_unchecked(played.undo.ply);
    }
}

/// Whether game number `game` is one of the one in ten held out of the fit.
pub fn is_held_out(game: usize) -> bool {
    game % 10 == 9
}

/// A quiet position labelled twice, by its game's result and by a teacher engine's chance for
/// the side to move: one line of `bredon label`, read back by `bredon tune --labels`.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    /// The game's number in the labelled files (one game in ten is held out by it).
    pub game: usize,
    pub result: f32,
    pub teacher: f32,
    pub komi: Komi,
    pub tps: String,
}

impl Labelled {
    /// `game result teacher komi tps`, tab-separated.
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{:.4}\t{}\t{}",
            self.game, self.result, self.teacher, self.komi, self.tps
        )
    }

    pub fn parse(line: &str) -> Result<Labelled, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [game, result, teacher, komi, tps] = fields[..] else {
            return Err(format!(
                "`{line}` is not `game result teacher komi tps`, tab-separated"
            ));
        };
        let number = |text: &str| {
            text.parse::<f32>()
                .ok()
                .filter(|x| (0.0..=1.0).contains(x))
                .ok_or_else(|| format!("`{text}` is not a chance from 0 to 1"))
        };
        Ok(Labelled {
            game: game
                .parse()
                .map_err(|_| format!("`{game}` is not a game number"))?,
            result: number(result)?,
            teacher: number(teacher)?,
            komi: Komi::parse(komi)?,
            tps: tps.to_string(),
        })
    }

    /// The board size (from the TPS) and komi the position is played with.
    pub fn setup(&self) -> Result<Setup, String> {
        Ok(Setup::new(tps_size(&self.tps)?)?.with_komi(self.komi))
    }

    /// The labelled position itself.
    pub fn position(&self) -> Result<Position, String> {
        Position::from_tps_with(&self.tps, self.setup()?)
    }

    /// The label to fit: the result and the teacher blended, `teacher_share` of the teacher.
    pub fn target(&self, teacher_share: f32) -> f32 {
        teacher_share * self.teacher + (1.0 - teacher_share) * self.result
    }

    /// The sample to fit the linear weights to.
    pub fn sample(&self, teacher_share: f32) -> Result<Sample, String> {
        Ok(Sample {
            features: features(&self.position()?),
            result: self.target(teacher_share),
        })
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(features: &[f32; FEATURES], weights: &[f64; FEATURES]) -> f64 {
    features
        .iter()
        .zip(weights)
        .map(|(&f, w)| f as f64 * w)
        .sum()
}

/// Mean squared error of the predictions `sigmoid(scale * (features · weights))`.
pub fn error(samples: &[Sample], weights: &[f64; FEATURES], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (s.result as f64 - sigmoid(scale * dot(&s.features, weights))).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale that best turns `weights`' evaluation into results (a coarse then a fine scan).
pub fn best_scale(samples: &[Sample], weights: &[f64; FEATURES]) -> f64 {
    let mut k = 0.01;
    for step in [0.002, 0.0002] {
        let mut best = (error(samples, weights, k), k);
        for i in -10..=10 {
            let c = (k + i as f64 * step).max(0.0001);
            let e = error(samples, weights, c);
            if e < best.0 {
                best = (e, c);
            }
        }
        k = best.1;
    }
    k
}

/// What a flat on top is worth on 6x6 halfway to the flat race, averaged over the squares.
fn flat_worth(w: &[f64; FEATURES]) -> f64 {
    let on_squares: f64 = Square::all(6)
        .map(|sq| w[FLAT_SQUARE + square_kind(sq.file(), sq.rank(), 6)])
        .sum::<f64>()
        / 36.0;
    (w[FLATS_OPENING] + w[FLATS_ENDGAME]) / 2.0 + on_squares
}

/// What a fit found.
pub struct Fit {
    /// In hundredths of a flat: a flat on top in the middle of the game is worth 100.
    pub weights: Weights,
    /// Mean squared errors on the held-out positions, then on the fitted ones: the weights
    /// played today (at their best scale) and the fitted ones.
    pub held_out_before: f64,
    pub held_out_after: f64,
    pub train_before: f64,
    pub train_after: f64,
}

/// Fits the weights by Adam on the cross-entropy of the logistic model, with a little L2
/// (`decay`) so that rare features stay near zero, from zero; then scales them so that a flat's
/// mid-game worth is 100.
pub fn fit(train: &[Sample], held_out: &[Sample], rounds: usize, decay: f64) -> Option<Fit> {
    let current: [f64; FEATURES] = WEIGHTS.map(f64::from);
    let today_scale = best_scale(train, &current);
    let held_out_before = error(held_out, &current, today_scale);
    let train_before = error(train, &current, today_scale);
    let mut w = [0.0f64; FEATURES];
    let (b1, b2, rate) = (0.9, 0.999, 0.02);
    let mut m = [0.0; FEATURES];
    let mut v = [0.0; FEATURES];
    let n = train.len().max(1) as f64;
    for t in 1..=rounds {
        let mut grad = [0.0f64; FEATURES];
        for s in train {
            let p = sigmoid(dot(&s.features, &w));
            let common = (p - s.result as f64) / n;
            for (g, &f) in grad.iter_mut().zip(&s.features) {
                *g += common * f as f64;
            }
        }
        for i in 0..FEATURES {
            grad[i] += 2.0 * decay * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-9);
        }
    }
    let flat = flat_worth(&w);
    if flat <= 0.0 {
        return None;
    }
    let scale = flat / 100.0;
    Some(Fit {
        weights: w.map(|x| (x / scale) as f32),
        held_out_before,
        held_out_after: error(held_out, &w, 1.0),
        train_before,
        train_after: error(train, &w, 1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose only difference is the flat count, won by the side with more flats.
    fn flat_race(n: usize) -> Vec<Sample> {
        (0..n)
            .map(|i| {
                let lead = (i % 7) as f32 - 3.0;
                let mut features = [0.0; FEATURES];
                features[FLATS_OPENING] = lead;
                features[FLATS_ENDGAME] = lead;
                let result = match lead {
                    l if l > 0.0 => 1.0,
                    l if l < 0.0 => 0.0,
                    _ => 0.5,
                };
                Sample { features, result }
            })
            .collect()
    }

    #[test]
    fn the_fit_learns_what_decides_games_and_puts_flats_at_100() {
        let train = flat_race(700);
        let fit = fit(&train, &flat_race(70), 300, 1e-5).expect("flats are worth something");
        assert!(fit.held_out_after < 0.05, "{}", fit.held_out_after);
        let worth = (fit.weights[FLATS_OPENING] + fit.weights[FLATS_ENDGAME]) / 2.0;
        assert!((worth - 100.0).abs() < 0.5, "{worth}");
        // A feature that never varies is left at zero.
        assert_eq!(fit.weights[FLAT_SQUARE + 3], 0.0);
    }

    #[test]
    fn a_labelled_line_reads_back_and_blends_teacher_and_result() {
        let line = Labelled {
            game: 7,
            result: 1.0,
            teacher: 0.25,
            komi: Komi::parse("2.5").unwrap(),
            tps: "x6/x6/x2,1,2,x2/x2,2,1,x2/x6/x6 1 3".into(),
        };
        assert_eq!(Labelled::parse(&line.line()), Ok(line.clone()));
        let sample = line.sample(0.75).unwrap();
        assert_eq!(sample.result, 0.4375);
        let start = Position::from_tps_with(&line.tps, Setup::new(6).unwrap().with_komi(line.komi));
        assert_eq!(sample.features, features(&start.unwrap()));
        for bad in [
            "7\t1\t0.25\t2",
            "x\t1\t0.25\t2\tx6/x6/x6/x6/x6/x6 1 1",
            "7\t1\t1.5\t2\tx6/x6/x6/x6/x6/x6 1 1",
        ] {
            assert!(Labelled::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_game_gives_its_quiet_positions_labelled_from_the_movers_view() {
        // White builds a1..e1 while Black plays elsewhere; White's f1 ends it.
        let game = Game::from_ptn(
            "[Size \"6\"]\n\n1. f6 a1 2. b1 f5 3. c1 f4 4. d1 f3 5. e1 e6 6. f1 R-0\n",
        )
        .unwrap();
        let mut out = Vec::new();
        samples(&game, 0, &mut out);
        // Eleven positions before the eleven plies; after 5. e1 White has a road in one, so
        // the last two are not quiet.
        assert_eq!(game.plies().len(), 11);
        assert_eq!(out.len(), 9);
        let white_to_move = out.iter().filter(|s| s.result == 1.0).count();
        let black_to_move = out.iter().filter(|s| s.result == 0.0).count();
        assert_eq!(white_to_move + black_to_move, out.len());
        assert!(white_to_move > 0 && black_to_move > 0);
        let mut none = Vec::new();
        samples(
            &Game::from_ptn("[Size \"6\"]\n\n1. a1 f6\n").unwrap(),
            0,
            &mut none,
        );
        assert!(none.is_empty(), "an unfinished game teaches nothing");
    }
}
