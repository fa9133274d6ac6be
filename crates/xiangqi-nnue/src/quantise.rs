//! From float weights to the integers inference runs on.

use crate::float::FloatNetwork;
use crate::network::{Network, QA, QB};

/// Rounds `value * scale` to the nearest integer and saturates it to
/// `[min, max]`, counting a saturation in `clipped`.
fn round_saturating(value: f32, scale: f32, min: i64, max: i64, clipped: &mut usize) -> i64 {
    let scaled = (f64::from(value) * f64::from(scale)).round();
    if scaled.is_nan() {
        *clipped += 1;
        return 0;
    }
    if scaled < min as f64 {
        *clipped += 1;
        min
    } else if scaled > max as f64 {
        *clipped += 1;
        max
    } else {
        scaled as i64
    }
}

/// The quantised network and how many values were saturated (a NaN counts as one, read as 0).
pub(crate) fn quantise(net: &FloatNetwork) -> (Network, usize) {
    if let Err(e) = net.check_shape() {
        panic!("{e}");
    }
    let mut clipped = 0;
    let mut to_i16 = |values: &[f32], scale: i32| -> Vec<i16> {
        values
            .iter()
            .map(|&v| {
                round_saturating(
                    v,
                    scale as f32,
                    i16::MIN.into(),
                    i16::MAX.into(),
                    &mut clipped,
                ) as i16
            })
            .collect()
    };
    let ft_weights = to_i16(&net.ft_weights, QA);
    let ft_bias = to_i16(&net.ft_bias, QA);
    let out_weights = to_i16(&net.out_weights, QB);
    let out_bias = round_saturating(
        net.out_bias,
        (QA * QB) as f32,
        i32::MIN.into(),
        i32::MAX.into(),
        &mut clipped,
    ) as i32;
    let network = Network::from_parts(net.hidden, ft_weights, ft_bias, out_weights, out_bias)
        .unwrap_or_else(|e| panic!("{e}"));
    (network, clipped)
}
