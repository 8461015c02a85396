//! Training (cargo feature `train`): the same net on candle, whose autograd
//! gives the gradients, with the loss of AlphaZero-style training: cross
//! entropy of the policy against the search's visit distribution (over the
//! legal cells only), plus the squared error of the value against the
//! game's result. Weights move between the two as a [`Network`], so what is
//! trained is exactly what the inference code plays with (a test checks
//! that both give the same outputs).

use candle_core::{DType, Device, Tensor, Var, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use ndarray::{Array1, Array2};

mod im2col;

use crate::network::{Block, Config, Conv, Linear, Network, ValueHead};
use crate::planes::{Input, PLANES};
use im2col::Im2col;

/// Why a training step failed (candle's error, as text).
#[derive(Debug, thiserror::Error)]
#[error("training: {0}")]
pub struct TrainError(String);

impl From<candle_core::Error> for TrainError {
    fn from(e: candle_core::Error) -> Self {
        TrainError(e.to_string())
    }
}

/// One training example: a position's planes, the search's visit shares
/// over its cells (summing to 1 over legal cells), and the result for the
/// side to move (−1, 0 or 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub input: Input,
    pub policy: Vec<f32>,
    pub value: f32,
}

/// The net's parameters as candle variables, and an optimizer over them.
pub struct Trainer {
    config: Config,
    /// In the order of [`names`].
    vars: Vec<Var>,
    shapes: Vec<Vec<usize>>,
    optimizer: AdamW,
    device: Device,
}

/// The tensors of a net of `blocks` blocks, by name, in a fixed order.
fn names(blocks: usize) -> Vec<String> {
    let mut n = vec!["stem.weight".to_string(), "stem.bias".to_string()];
    for i in 0..blocks {
        for c in ["conv1", "conv2"] {
            n.push(format!("blocks.{i}.{c}.weight"));
            n.push(format!("blocks.{i}.{c}.bias"));
        }
    }
    for h in ["policy", "value.conv", "value.fc1", "value.fc2"] {
        n.push(format!("{h}.weight"));
        n.push(format!("{h}.bias"));
    }
    n
}

/// A convolution of `x` `[C, B, H, W]` (channels first, the layout training
/// keeps throughout) by `weight` `[O, C, k, k]` into `[O, B, H, W]`, with
/// `k` 3 (zero padding) or 1, as the inference code computes it: the 3×3
/// neighbourhoods as columns ([`Im2col`]), then one matrix product over the
/// whole batch. candle's own CPU conv2d gives wrong results for some shapes
/// in 0.9 (candle issue #3404).
fn convolve(x: &Tensor, weight: &Tensor, three: bool) -> Result<Tensor, TrainError> {
    let (c, b, h, w) = x.dims4()?;
    let out = weight.dim(0)?;
    let cols = if three {
        x.contiguous()?.apply_op1(Im2col)?
    } else {
        x.reshape((c, b * h * w))?
    };
    // [O, C·k²] × [C·k², B·H·W].
    let flat = weight.reshape((out, ()))?;
    Ok(flat.matmul(&cols)?.reshape((out, b, h, w))?)
}

/// A network's tensors with their shapes, in the order of [`names`].
fn tensors(net: &Network) -> Vec<(Vec<usize>, Vec<f32>)> {
    let conv = |c: &Conv| {
        let (out, flat) = c.weight.dim();
        [
            (
                vec![out, flat / (c.k * c.k), c.k, c.k],
                c.weight.iter().copied().collect(),
            ),
            (vec![out], c.bias.to_vec()),
        ]
    };
    let linear = |l: &Linear| {
        [
            (
                vec![l.weight.nrows(), l.weight.ncols()],
                l.weight.iter().copied().collect(),
            ),
            (vec![l.bias.len()], l.bias.to_vec()),
        ]
    };
    let mut t: Vec<(Vec<usize>, Vec<f32>)> = conv(&net.stem).into();
    for b in &net.blocks {
        t.extend(conv(&b.conv1));
        t.extend(conv(&b.conv2));
    }
    t.extend(conv(&net.policy));
    t.extend(conv(&net.value.conv));
    t.extend(linear(&net.value.fc1));
    t.extend(linear(&net.value.fc2));
    t
}

impl Trainer {
    /// Trains `net` (on the CPU) with AdamW at learning rate `lr` and
    /// weight decay `decay`.
    pub fn new(net: &Network, lr: f64, decay: f64) -> Result<Trainer, TrainError> {
        let device = Device::Cpu;
        let mut vars = Vec::new();
        let mut shapes = Vec::new();
        for (shape, data) in tensors(net) {
            let t = Tensor::from_vec(data, shape.as_slice(), &device)?;
            vars.push(Var::from_tensor(&t)?);
            shapes.push(shape);
        }
        let optimizer = AdamW::new(
            vars.clone(),
            ParamsAdamW {
                lr,
                weight_decay: decay,
                ..ParamsAdamW::default()
            },
        )?;
        Ok(Trainer {
            config: net.config,
            vars,
            shapes,
            optimizer,
            device,
        })
    }

    fn var(&self, k: usize) -> &Tensor {
        self.vars[k].as_tensor()
    }

    /// Policy logits `[B, cells]` and values `[B]` of a batch `[B, PLANES, H, W]`.
    pub fn forward(&self, xs: &Tensor) -> Result<(Tensor, Tensor), TrainError> {
        let conv = |x: &Tensor, k: usize, pad: usize| -> Result<Tensor, TrainError> {
            let y = convolve(x, self.var(k), pad == 1)?;
            let b = self.var(k + 1).reshape(((), 1, 1, 1))?;
            Ok(y.broadcast_add(&b)?)
        };
        let (b, _, h, w) = xs.dims4()?;
        // Channels first from here on: [C, B, H, W].
        let xs = xs.transpose(0, 1)?.contiguous()?;
        let mut k = 0;
        let mut t = conv(&xs, k, 1)?.relu()?;
        k += 2;
        for _ in 0..self.config.blocks {
            let u = conv(&t, k, 1)?.relu()?;
            let v = conv(&u, k + 2, 1)?;
            t = (v + &t)?.relu()?;
            k += 4;
        }
        let policy = conv(&t, k, 0)?.reshape((b, h * w))?;
        k += 2;
        let v = conv(&t, k, 0)?.relu()?;
        k += 2;
        let pooled = v.mean((2, 3))?.t()?.contiguous()?;
        let hidden = pooled
            .matmul(&self.var(k).t()?)?
            .broadcast_add(self.var(k + 1))?
            .relu()?;
        k += 2;
        let out = hidden
            .matmul(&self.var(k).t()?)?
            .broadcast_add(self.var(k + 1))?
            .tanh()?
            .reshape(b)?;
        Ok((policy, out))
    }

    /// The batch's tensors: planes, target policies, legal masks, values.
    /// All examples must share one board size.
    fn batch(&self, examples: &[Example]) -> Result<[Tensor; 4], TrainError> {
        let first = &examples[0].input;
        let (w, h) = (first.width, first.height);
        if let Some(e) = examples
            .iter()
            .find(|e| e.input.width != w || e.input.height != h)
        {
            return Err(TrainError(format!(
                "a batch holds one board size: {w}x{h} and {}x{}",
                e.input.width, e.input.height
            )));
        }
        let n = examples.len();
        let cells = w * h;
        let planes: Vec<f32> = examples
            .iter()
            .flat_map(|e| e.input.data.iter().copied())
            .collect();
        let policy: Vec<f32> = examples
            .iter()
            .flat_map(|e| e.policy.iter().copied())
            .collect();
        // The legal cells are input plane 4: illegal ones get no share.
        let mask: Vec<f32> = examples
            .iter()
            .flat_map(|e| {
                e.input.data[4 * cells..5 * cells]
                    .iter()
                    .map(|v| if *v > 0.5 { 0.0 } else { -1e9 })
            })
            .collect();
        let values: Vec<f32> = examples.iter().map(|e| e.value).collect();
        Ok([
            Tensor::from_vec(planes, (n, PLANES, h, w), &self.device)?,
            Tensor::from_vec(policy, (n, cells), &self.device)?,
            Tensor::from_vec(mask, (n, cells), &self.device)?,
            Tensor::from_vec(values, n, &self.device)?,
        ])
    }

    /// The loss of a batch: (policy cross entropy, value squared error).
    pub fn loss(&self, examples: &[Example]) -> Result<(f32, f32), TrainError> {
        let (p, v) = self.losses(examples)?;
        Ok((p.to_scalar::<f32>()?, v.to_scalar::<f32>()?))
    }

    fn losses(&self, examples: &[Example]) -> Result<(Tensor, Tensor), TrainError> {
        let [xs, target, mask, z] = self.batch(examples)?;
        let (logits, values) = self.forward(&xs)?;
        let logp = candle_nn::ops::log_softmax(&(logits + mask)?, D::Minus1)?;
        let policy = (target * logp)?.sum(D::Minus1)?.neg()?.mean_all()?;
        let value = (values - z)?.sqr()?.mean_all()?;
        Ok((policy, value))
    }

    /// One optimizer step on a batch; the losses before it.
    pub fn step(&mut self, examples: &[Example]) -> Result<(f32, f32), TrainError> {
        let (p, v) = self.losses(examples)?;
        let total = (&p + &v)?;
        self.optimizer.backward_step(&total)?;
        Ok((p.to_scalar::<f32>()?, v.to_scalar::<f32>()?))
    }

    /// The weights as they are now.
    pub fn network(&self) -> Result<Network, TrainError> {
        let mut values = Vec::new();
        for var in &self.vars {
            values.push(
                var.as_tensor()
                    .flatten_all()?
                    .to_dtype(DType::F32)?
                    .to_vec1::<f32>()?,
            );
        }
        let mut it = values.into_iter().zip(self.shapes.iter());
        let mut conv = || -> Conv {
            let (w, shape) = it.next().expect("a weight for each conv");
            let (b, _) = it.next().expect("a bias for each conv");
            let k = shape[2];
            Conv {
                weight: Array2::from_shape_vec((shape[0], shape[1] * k * k), w)
                    .expect("shape kept"),
                bias: Array1::from_vec(b),
                k,
            }
        };
        let stem = conv();
        let blocks = (0..self.config.blocks)
            .map(|_| Block {
                conv1: conv(),
                conv2: conv(),
            })
            .collect();
        let policy = conv();
        let value_conv = conv();
        let mut linear = || -> Linear {
            let (w, shape) = it.next().expect("a weight for each linear layer");
            let (b, _) = it.next().expect("a bias for each linear layer");
            Linear {
                weight: Array2::from_shape_vec((shape[0], shape[1]), w).expect("shape kept"),
                bias: Array1::from_vec(b),
            }
        };
        let value = ValueHead {
            conv: value_conv,
            fc1: linear(),
            fc2: linear(),
        };
        Ok(Network {
            config: self.config,
            stem,
            blocks,
            policy,
            value,
        })
    }

    /// Names of the parameters, in order (for logs).
    pub fn parameter_names(&self) -> Vec<String> {
        names(self.config.blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planes::encode;
    use crate::weights::tests::random_network;
    use virus_wars_rules::{Preset, Symmetry};

    fn positions() -> Vec<virus_wars_rules::AnyPosition> {
        let mut p = Preset::Korobkov.variant().start().unwrap();
        let mut out = vec![p];
        for k in 0..6usize {
            let steps = p.legal_steps();
            p.play(steps[(k * 7) % steps.len()]).unwrap();
            out.push(p);
        }
        out
    }

    #[test]
    fn candle_and_the_inference_code_agree() {
        let net = random_network(8, 2, 21);
        let trainer = Trainer::new(&net, 1e-3, 0.0).unwrap();
        let inputs: Vec<Input> = positions()
            .iter()
            .map(|p| encode(p, Symmetry::Identity))
            .collect();
        let (w, h) = (inputs[0].width, inputs[0].height);
        let data: Vec<f32> = inputs.iter().flat_map(|i| i.data.iter().copied()).collect();
        let xs = Tensor::from_vec(data, (inputs.len(), PLANES, h, w), &Device::Cpu).unwrap();
        let (logits, values) = trainer.forward(&xs).unwrap();
        let logits = logits.to_vec2::<f32>().unwrap();
        let values = values.to_vec1::<f32>().unwrap();
        for (k, input) in inputs.iter().enumerate() {
            let out = net.forward(input);
            assert!((out.value - values[k]).abs() < 1e-4, "value {k}");
            for (a, b) in out.policy.iter().zip(&logits[k]) {
                assert!((a - b).abs() < 1e-3, "policy {k}: {a} vs {b}");
            }
        }
        assert_eq!(
            trainer.network().unwrap(),
            net,
            "the weights come back unchanged"
        );
    }

    #[test]
    fn training_lowers_the_loss_on_a_batch() {
        let net = random_network(8, 1, 5);
        let mut trainer = Trainer::new(&net, 1e-2, 0.0).unwrap();
        let examples: Vec<Example> = positions()
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let input = encode(p, Symmetry::Identity);
                let legal: Vec<usize> = (0..input.cells())
                    .filter(|&c| input.data[4 * input.cells() + c] > 0.5)
                    .collect();
                let mut policy = vec![0.0; input.cells()];
                policy[legal[k % legal.len()]] = 1.0;
                Example {
                    input,
                    policy,
                    value: if k % 2 == 0 { 1.0 } else { -1.0 },
                }
            })
            .collect();
        let (p0, v0) = trainer.loss(&examples).unwrap();
        for _ in 0..200 {
            trainer.step(&examples).unwrap();
        }
        let (p1, v1) = trainer.loss(&examples).unwrap();
        assert!(p1 < p0 * 0.5, "policy loss {p0} -> {p1}");
        assert!(v1 < v0 * 0.5, "value loss {v0} -> {v1}");
        // What was trained plays: the inference code's net agrees with candle's.
        let trained = trainer.network().unwrap();
        let out = trained.forward(&examples[0].input);
        assert!(
            out.value > 0.0,
            "the first example's value was learnt: {}",
            out.value
        );
    }
}
