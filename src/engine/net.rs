//! The 5x5 and 6x6 evaluations: a small network over the evaluation's features with the two
//! sides apart (`eval::split_features`), one layer of `HIDDEN` rectified units beside a linear
//! part, its output a logit of the side to move's chance. Trained by `bredon tune --net`
//! (`net_train`) on positions of Tiltak's games against itself on that size, labelled by
//! Tiltak: a size without a network (3x3, 4x4, 7x7, 8x8) keeps the linear weights.
//!
//! The hidden layer is summed input by input over the inputs that are not zero (most are
//! counts that are zero, or one-hot groups), a column of `HIDDEN` weights each.

use multiversion::multiversion;
use std::sync::LazyLock;

/// `eval::SPLIT_FEATURES`, which the evaluation checks at compile time.
pub const INPUTS: usize = 162;
pub const HIDDEN: usize = 32;

/// The network's numbers, reading raw features (any normalising is folded in).
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Logit per hundredth of a flat: the evaluation is `logit / scale`, so its unit is the
    /// linear evaluation's (a flat on top in mid-game is about 100).
    pub scale: f32,
    pub bias: f32,
    pub linear: [f32; INPUTS],
    /// The first layer by input: column `i` holds input `i`'s weight into every hidden unit.
    pub columns: Vec<[f32; HIDDEN]>,
    pub hidden_bias: [f32; HIDDEN],
    pub out: [f32; HIDDEN],
}

/// The network Bredon plays 6x6 with (docs/DEVELOPING.md gives the commands and the data).
pub static NET_6X6: LazyLock<Net> = LazyLock::new(|| {
    Net::from_text(include_str!("../../assets/engine/net-6x6.txt"))
        .expect("the committed network reads back")
});

/// The network Bredon plays 5x5 with (komi 0 in its games; komi is one of its inputs).
pub static NET_5X5: LazyLock<Net> = LazyLock::new(|| {
    Net::from_text(include_str!("../../assets/engine/net-5x5.txt"))
        .expect("the committed network reads back")
});

/// The network trained for boards of `size`, if there is one.
pub fn for_size(size: usize) -> Option<&'static Net> {
    match size {
        5 => Some(&NET_5X5),
        6 => Some(&NET_6X6),
        _ => None,
    }
}

impl Net {
    pub fn logit(&self, x: &[f32; INPUTS]) -> f32 {
        forward(self, x)
    }

    /// The evaluation in hundredths of a flat for the side to move.
    pub fn evaluate(&self, x: &[f32; INPUTS]) -> i32 {
        (self.logit(x) / self.scale).round() as i32
    }

    /// `inputs hidden scale bias`, then the linear weights, the columns, the hidden biases and
    /// the output weights: whitespace-separated numbers.
    pub fn to_text(&self) -> String {
        let mut text = format!("{INPUTS} {HIDDEN} {} {}\n", self.scale, self.bias);
        let mut line = |xs: &[f32]| {
            let words: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
            text.push_str(&words.join(" "));
            text.push('\n');
        };
        line(&self.linear);
        for col in &self.columns {
            line(col);
        }
        line(&self.hidden_bias);
        line(&self.out);
        text
    }

    pub fn from_text(text: &str) -> Result<Net, String> {
        let all: Vec<f32> = text
            .split_whitespace()
            .map(|t| t.parse().map_err(|_| format!("`{t}` is not a number")))
            .collect::<Result<_, _>>()?;
        let expected = 4 + INPUTS + INPUTS * HIDDEN + 2 * HIDDEN;
        if all.len() != expected || all[0] != INPUTS as f32 || all[1] != HIDDEN as f32 {
            return Err(format!(
                "a network of {INPUTS} inputs and {HIDDEN} hidden units has {expected} numbers, \
                 starting `{INPUTS} {HIDDEN}`"
            ));
        }
        if all[2] <= 0.0 {
            return Err("the scale must be above 0".into());
        }
        // The length is checked, so every chunk below is whole.
        let mut rows = all[4 + INPUTS..]
            .chunks_exact(HIDDEN)
            .map(|row| <[f32; HIDDEN]>::try_from(row).unwrap_or_default());
        Ok(Net {
            scale: all[2],
            bias: all[3],
            linear: all[4..4 + INPUTS].try_into().unwrap_or([0.0; INPUTS]),
            columns: rows.by_ref().take(INPUTS).collect(),
            hidden_bias: rows.next().unwrap_or_default(),
            out: rows.next().unwrap_or_default(),
        })
    }
}

/// The network's output for raw inputs `x`, compiled twice: for AVX2 too, chosen at run time
/// where the processor has it. Each input's additions wait on the last input's (the sums are a
/// chain), so they cost about the same for 16 units or, in registers twice as wide, for 32.
#[multiversion(targets("x86_64+avx2"))]
fn forward(net: &Net, x: &[f32; INPUTS]) -> f32 {
    let mut h = net.hidden_bias;
    let mut out = net.bias;
    for ((&xi, column), w) in x.iter().zip(&net.columns).zip(&net.linear) {
        if xi != 0.0 {
            out += xi * w;
            for (hk, wk) in h.iter_mut().zip(column) {
                *hk += xi * wk;
            }
        }
    }
    for (hj, wj) in h.iter().zip(&net.out) {
        out += hj.max(0.0) * wj;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_reads_back_what_it_wrote_and_refuses_a_wrong_shape() {
        for size in [5, 6] {
            let net = for_size(size).expect("a committed network");
            assert_eq!(Net::from_text(&net.to_text()).as_ref(), Ok(net));
        }
        let net = NET_6X6.clone();
        let short: String = net
            .to_text()
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(Net::from_text(&short).is_err());
        assert!(Net::from_text("154 16 x").is_err());
    }

    #[test]
    fn the_sums_over_the_inputs_that_are_not_0_match_the_whole_layer_summed_in_f64() {
        // Whichever copy of `forward` this processor runs, it must agree with the layer
        // written out in full: every input, zero or not, in double precision.
        let net = &*NET_6X6;
        let x: [f32; INPUTS] = std::array::from_fn(|i| match i % 3 {
            0 => 0.0,
            1 => 1.0,
            _ => (i as f32 * 0.37).sin() * 3.0,
        });
        let mut expected = f64::from(net.bias);
        for j in 0..HIDDEN {
            let mut h = f64::from(net.hidden_bias[j]);
            for (i, &xi) in x.iter().enumerate() {
                h += f64::from(xi) * f64::from(net.columns[i][j]);
            }
            expected += h.max(0.0) * f64::from(net.out[j]);
        }
        for (i, &xi) in x.iter().enumerate() {
            expected += f64::from(xi) * f64::from(net.linear[i]);
        }
        let got = f64::from(net.logit(&x));
        assert!(
            (got - expected).abs() < 1e-3 * expected.abs().max(1.0),
            "{got} against {expected}"
        );
    }
}
