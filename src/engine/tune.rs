//! Texel's method for the evaluation's weights: play games, keep their quiet positions labelled
//! with the final result, and fit the weights so that a logistic curve of the evaluation
//! predicts the results. `bredon tune` runs it and prints the weights for `eval::WEIGHTS`.

use super::eval::{difference, Weights, FEATURES, WEIGHTS};
use super::{search, Limits};
use crate::tak::{Game, Ply, Position, Setup};

/// A position's features (side to move minus opponent, plus 1 for the tempo) and the result
/// for the side to move: 1 won, 0.5 drawn, 0 lost.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: [f64; FEATURES + 1],
    pub result: f64,
}

/// Plays `games` games of the current engine against itself (`nodes` per ply) from `openings`
/// (each played once), and returns their quiet positions: no road in one for either side.
pub fn self_play(setup: Setup, openings: &[Vec<Ply>], nodes: u64, max_plies: usize) -> Vec<Sample> {
    let mut samples = Vec::new();
    for (g, opening) in openings.iter().enumerate() {
        let mut game = Game::new(Position::new(setup));
        for &ply in opening {
            if game.play(ply).is_err() {
                break;
            }
        }
        let mut positions = Vec::new();
        while game.result().is_none() && game.plies().len() < max_plies {
            let pos = game.position().clone();
            let quiet = !pos.is_tak(pos.to_move()) && !pos.is_tak(pos.to_move().opponent());
            if quiet {
                positions.push(pos.clone());
            }
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let Some(found) = search(&pos, limits, (g as u64) << 16 | game.plies().len() as u64)
            else {
                break;
            };
            if game.play(found.ply).is_err() {
                break;
            }
        }
        let winner = game.result().map(|r| r.winner());
        for pos in positions {
            let result = match winner {
                Some(Some(w)) if w == pos.to_move() => 1.0,
                Some(Some(_)) => 0.0,
                _ => 0.5,
            };
            samples.push(sample(&pos, result));
        }
    }
    samples
}

fn sample(pos: &Position, result: f64) -> Sample {
    let d = difference(pos);
    let mut features = [0.0; FEATURES + 1];
    for i in 0..FEATURES {
        features[i] = d[i] as f64;
    }
    features[FEATURES] = 1.0;
    Sample { features, result }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predictions `sigmoid(k * eval / 100)`.
pub fn error(samples: &[Sample], weights: &[f64; FEATURES + 1], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let eval: f64 = s.features.iter().zip(weights).map(|(f, w)| f * w).sum();
            (s.result - sigmoid(k * eval / 100.0)).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The fitted weights (the first, half a flat, stays 50: it is the unit) and the tempo, with
/// the error before and after.
pub struct Fit {
    pub weights: Weights,
    pub tempo: i32,
    pub error_before: f64,
    pub error_after: f64,
    pub k: f64,
}

/// Fits the weights by gradient descent from the current ones. The scale `k` is fitted first
/// with the current weights (so "hundredths of a flat" keeps its meaning), then held.
pub fn fit(samples: &[Sample], rounds: usize) -> Fit {
    let mut w = [0.0; FEATURES + 1];
    for i in 0..FEATURES {
        w[i] = WEIGHTS[i] as f64;
    }
    w[FEATURES] = super::eval::TEMPO as f64;
    // The scale: a coarse then a fine scan.
    let mut k = 1.0;
    for step in [0.1, 0.01] {
        let mut best = (error(samples, &w, k), k);
        for i in -10..=10 {
            let c = (k + i as f64 * step).max(0.001);
            let e = error(samples, &w, c);
            if e < best.0 {
                best = (e, c);
            }
        }
        k = best.1;
    }
    let error_before = error(samples, &w, k);
    // Adam on every weight but the unit.
    let (b1, b2, rate) = (0.9, 0.999, 0.5);
    let mut m = [0.0; FEATURES + 1];
    let mut v = [0.0; FEATURES + 1];
    let n = samples.len().max(1) as f64;
    for t in 1..=rounds {
        let mut grad = [0.0; FEATURES + 1];
        for s in samples {
            let eval: f64 = s.features.iter().zip(&w).map(|(f, w)| f * w).sum();
            let p = sigmoid(k * eval / 100.0);
            let common = -2.0 * (s.result - p) * p * (1.0 - p) * k / 100.0;
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += common * f / n;
            }
        }
        for i in 1..=FEATURES {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    let error_after = error(samples, &w, k);
    let mut weights = [0; FEATURES];
    for i in 0..FEATURES {
        weights[i] = w[i].round() as i32;
    }
    Fit {
        weights,
        tempo: w[FEATURES].round() as i32,
        error_before,
        error_after,
        k,
    }
}
