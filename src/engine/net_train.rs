//! Training the 6x6 network (`net`): minibatch Adam on the cross-entropy of its chance against
//! each position's label, the inputs normalised by the training set's spread while it learns
//! and the normalising folded into the weights at the end. `bredon tune --net` runs it.

use super::net::{Net, HIDDEN, INPUTS};

const N: usize = INPUTS;

/// A position's inputs and its label for the side to move (a chance from 0 to 1).
pub struct NetSample {
    pub x: [f32; N],
    pub target: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the network's chances.
pub fn net_error(net: &Net, samples: &[NetSample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| ((s.target - sigmoid(net.logit(&s.x))) as f64).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The network while it learns: rows of the first layer, reading normalised inputs.
struct Training {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    linear: Vec<f32>,
    bias: f32,
}

impl Training {
    /// The logit, leaving each hidden unit's sum in `z`.
    fn forward(&self, x: &[f32; N], z: &mut [f32; HIDDEN]) -> f32 {
        let mut out = self.bias + dot(&self.linear, x);
        for (j, zj) in z.iter_mut().enumerate() {
            *zj = self.b1[j] + dot(&self.w1[j * N..(j + 1) * N], x);
            if *zj > 0.0 {
                out += self.w2[j] * *zj;
            }
        }
        out
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A small deterministic generator for the initial weights and the shuffles.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        super::xorshift(&mut self.0)
    }
    fn uniform(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
    fn step(&mut self, w: &mut [f32], g: &[f32], rate: f32, t: i32, decay: f32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..w.len() {
            let gi = g[i] + decay * w[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * gi;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * gi * gi;
            w[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// How the network learns.
pub struct Schedule {
    pub epochs: usize,
    /// Adam's rate at the start, falling along a half cosine to 0 at the end.
    pub rate: f32,
    /// L2 decay on the weights (not the biases).
    pub decay: f32,
    /// Logit per hundredth of a flat, written into the network (`Net::scale`).
    pub scale: f32,
}

/// Trains a network by minibatch Adam on the cross-entropy, inputs normalised by the training
/// set's spread; `report` hears each epoch's number and held-out error.
pub fn train(
    train: &[NetSample],
    held_out: &[NetSample],
    schedule: &Schedule,
    mut report: impl FnMut(usize, f64),
) -> Net {
    let (mean, inv) = spread(train);
    let norm = |s: &NetSample| NetSample {
        x: std::array::from_fn(|i| (s.x[i] - mean[i]) * inv[i]),
        target: s.target,
    };
    let tr: Vec<NetSample> = train.iter().map(norm).collect();
    let ho: Vec<NetSample> = held_out.iter().map(norm).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let spread_in = (2.0 / N as f32).sqrt();
    let mut net = Training {
        w1: (0..HIDDEN * N)
            .map(|_| (rng.uniform() * 2.0 - 1.0) * spread_in)
            .collect(),
        b1: vec![0.0; HIDDEN],
        w2: (0..HIDDEN)
            .map(|_| (rng.uniform() * 2.0 - 1.0) * 0.1)
            .collect(),
        linear: vec![0.0; N],
        bias: 0.0,
    };
    let mut adam = [
        Adam::new(HIDDEN * N),
        Adam::new(HIDDEN),
        Adam::new(HIDDEN),
        Adam::new(N),
        Adam::new(1),
    ];
    let mut order: Vec<usize> = (0..tr.len()).collect();
    let mut t = 0;
    for epoch in 0..schedule.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        let progress = epoch as f32 / schedule.epochs as f32;
        let rate = schedule.rate * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
        for batch in order.chunks(256) {
            let g = gradient(&net, batch.iter().map(|&k| &tr[k]), batch.len() as f32);
            t += 1;
            let d = schedule.decay;
            adam[0].step(&mut net.w1, &g.w1, rate, t, d);
            adam[1].step(&mut net.b1, &g.b1, rate, t, 0.0);
            adam[2].step(&mut net.w2, &g.w2, rate, t, d);
            adam[3].step(&mut net.linear, &g.linear, rate, t, d);
            adam[4].step(std::slice::from_mut(&mut net.bias), &[g.bias], rate, t, 0.0);
        }
        report(
            epoch,
            net_error(&fold(&net, &[0.0; N], &[1.0; N], 1.0), &ho),
        );
    }
    fold(&net, &mean, &inv, schedule.scale)
}

/// Each input's mean and the inverse of its spread (0 for an input that never changes).
fn spread(samples: &[NetSample]) -> ([f32; N], [f32; N]) {
    let n = samples.len().max(1) as f64;
    let mut mean = [0.0f64; N];
    let mut var = [0.0f64; N];
    for s in samples {
        for (m, x) in mean.iter_mut().zip(&s.x) {
            *m += *x as f64 / n;
        }
    }
    for s in samples {
        for ((v, m), x) in var.iter_mut().zip(&mean).zip(&s.x) {
            *v += (*x as f64 - m).powi(2) / n;
        }
    }
    let inv = var.map(|v| {
        if v > 1e-9 {
            (1.0 / v.sqrt()) as f32
        } else {
            0.0
        }
    });
    (mean.map(|m| m as f32), inv)
}

/// The cross-entropy's gradient, averaged over a batch.
fn gradient<'a>(net: &Training, batch: impl Iterator<Item = &'a NetSample>, n: f32) -> Training {
    let mut g = Training {
        w1: vec![0.0; HIDDEN * N],
        b1: vec![0.0; HIDDEN],
        w2: vec![0.0; HIDDEN],
        linear: vec![0.0; N],
        bias: 0.0,
    };
    let mut z = [0.0f32; HIDDEN];
    for s in batch {
        let d = (sigmoid(net.forward(&s.x, &mut z)) - s.target) / n;
        g.bias += d;
        for (gl, x) in g.linear.iter_mut().zip(&s.x) {
            *gl += d * x;
        }
        for (j, &zj) in z.iter().enumerate() {
            if zj > 0.0 {
                g.w2[j] += d * zj;
                let dh = d * net.w2[j];
                g.b1[j] += dh;
                for (gw, x) in g.w1[j * N..(j + 1) * N].iter_mut().zip(&s.x) {
                    *gw += dh * x;
                }
            }
        }
    }
    g
}

/// The playing network: the normalising (`(x - mean) * inv`) folded into the weights.
fn fold(net: &Training, mean: &[f32; N], inv: &[f32; N], scale: f32) -> Net {
    let mut bias = net.bias;
    let mut linear = [0.0; N];
    let mut hidden_bias: [f32; HIDDEN] = net.b1.clone().try_into().unwrap_or_default();
    let mut columns = vec![[0.0; HIDDEN]; N];
    for i in 0..N {
        linear[i] = net.linear[i] * inv[i];
        bias -= linear[i] * mean[i];
        for j in 0..HIDDEN {
            columns[i][j] = net.w1[j * N + i] * inv[i];
            hidden_bias[j] -= columns[i][j] * mean[i];
        }
    }
    Net {
        scale,
        bias,
        linear,
        columns,
        hidden_bias,
        out: net.w2.clone().try_into().unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs whose label is high when exactly one of two inputs is 1 (exclusive or): the best
    /// logistic function of the inputs says 0.5 everywhere, a mean squared error of 0.16; one
    /// hidden layer fits it.
    fn exclusive_or(n: usize) -> Vec<NetSample> {
        let mut rng = Rng(7);
        (0..n)
            .map(|_| {
                let mut x = [0.0; N];
                x[0] = (rng.next() % 2) as f32;
                x[1] = (rng.next() % 2) as f32;
                x[2] = rng.uniform();
                let target = if x[0] != x[1] { 0.9 } else { 0.1 };
                NetSample { x, target }
            })
            .collect()
    }

    #[test]
    fn the_network_learns_what_no_linear_function_can() {
        let data = exclusive_or(4000);
        let (train, held_out) = data.split_at(3000);
        let schedule = Schedule {
            epochs: 30,
            rate: 0.01,
            decay: 0.0,
            scale: 0.01,
        };
        let mut errors = Vec::new();
        let net = train_net(train, held_out, &schedule, &mut errors);
        let error = net_error(&net, held_out);
        assert!(error < 0.005, "held-out error {error}");
        assert_eq!(errors.len(), 30);
        assert!(errors[29] < errors[0]);
        assert_eq!(net.scale, 0.01);
    }

    fn train_net(tr: &[NetSample], ho: &[NetSample], s: &Schedule, errors: &mut Vec<f64>) -> Net {
        train(tr, ho, s, |_, e| errors.push(e))
    }
}
