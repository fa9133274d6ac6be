//! Adam (Kingma and Ba) over the network's four parameter groups, with the
//! bias-corrected step size. The moments live here so a checkpoint can
//! carry them.

use xiangqi_nnue::FloatNetwork;

use super::gradient::Gradient;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// First and second moments of every parameter, in the network's order
/// (feature weights, feature bias, output weights, output bias).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

impl Adam {
    pub(crate) fn new(net: &FloatNetwork) -> Adam {
        let n = parameter_count(net);
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
        }
    }

    /// One step with the mean gradient `grad` (summed, divided by its count).
    pub(crate) fn step(&mut self, net: &mut FloatNetwork, grad: &Gradient, learning_rate: f32) {
        self.steps += 1;
        let t = self.steps as i32;
        let rate = learning_rate * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        let scale = 1.0 / grad.count.max(1) as f32;
        let mut offset = 0;
        let mut update = |params: &mut [f32], grads: &[f32]| {
            let m = &mut self.m[offset..offset + params.len()];
            let v = &mut self.v[offset..offset + params.len()];
            for (((p, &g), m), v) in params.iter_mut().zip(grads).zip(m).zip(v) {
                let g = g * scale;
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *p -= rate * *m / (v.sqrt() + EPSILON);
            }
            offset += params.len();
        };
        update(&mut net.ft_weights, &grad.ft_weights);
        update(&mut net.ft_bias, &grad.ft_bias);
        update(&mut net.out_weights, &grad.out_weights);
        update(std::slice::from_mut(&mut net.out_bias), &[grad.out_bias]);
    }
}

/// Parameters of the network (the output bias counted once).
pub(crate) fn parameter_count(net: &FloatNetwork) -> usize {
    net.ft_weights.len() + net.ft_bias.len() + net.out_weights.len() + 1
}
