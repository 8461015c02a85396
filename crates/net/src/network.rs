//! The network: a stem convolution, a tower of residual blocks, and two
//! heads. All convolutions are 3×3 with zero padding (the heads' are 1×1),
//! so the net takes any board size.
//!
//! - stem: `PLANES → C`, ReLU;
//! - each block: conv `C → C`, ReLU, conv `C → C`, add the block's input, ReLU;
//! - policy head: 1×1 conv `C → 1`: one logit a cell (the next step);
//! - value head: 1×1 conv `C → V`, ReLU, mean over the board, linear `V → H`,
//!   ReLU, linear `H → 1`, tanh: the mover's outlook from −1 (loss) to 1 (win).

use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayView2};

use crate::planes::{Input, PLANES};

/// The net's shape, as its weights file implies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Channels of the tower.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the value head's 1×1 convolution.
    pub value_channels: usize,
    /// Width of the value head's hidden layer.
    pub value_hidden: usize,
}

/// A convolution: `weight` is `[out, in · k · k]` (the layout of
/// `[out, in, k, k]` flattened), `k` 1 or 3.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    pub weight: Array2<f32>,
    pub bias: Array1<f32>,
    pub k: usize,
}

/// A linear layer: `weight` is `[out, in]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    pub weight: Array2<f32>,
    pub bias: Array1<f32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub conv1: Conv,
    pub conv2: Conv,
}

/// The value head: a 1×1 convolution, pooled over the board, then two
/// linear layers down to one number.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueHead {
    pub conv: Conv,
    pub fc1: Linear,
    pub fc2: Linear,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub config: Config,
    pub stem: Conv,
    pub blocks: Vec<Block>,
    pub policy: Conv,
    pub value: ValueHead,
}

/// What the net says of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// One logit a cell of the input (rank-major, as the input's planes);
    /// only the legal cells' matter.
    pub policy: Vec<f32>,
    /// The side to move's outlook, −1 to 1.
    pub value: f32,
}

impl Output {
    /// The policy over `legal` (indices of the input), as probabilities.
    pub fn priors(&self, legal: &[usize]) -> Vec<f32> {
        let max = legal
            .iter()
            .map(|&k| self.policy[k])
            .fold(f32::NEG_INFINITY, f32::max);
        let exp: Vec<f32> = legal
            .iter()
            .map(|&k| (self.policy[k] - max).exp())
            .collect();
        let sum: f32 = exp.iter().sum();
        exp.into_iter().map(|e| e / sum).collect()
    }
}

impl Conv {
    /// `x` is `[in, boards · h·w]` (boards side by side, each rank-major);
    /// the answer `[out, boards · h·w]`.
    fn forward(&self, x: ArrayView2<f32>, width: usize, height: usize) -> Array2<f32> {
        let out = self.weight.nrows();
        let mut y = Array2::<f32>::zeros((out, x.ncols()));
        if self.k == 1 {
            general_mat_mul(1.0, &self.weight, &x, 0.0, &mut y);
        } else {
            let cols = im2col(x, width, height);
            general_mat_mul(1.0, &self.weight, &cols, 0.0, &mut y);
        }
        for (mut row, b) in y.rows_mut().into_iter().zip(self.bias.iter()) {
            row += *b;
        }
        y
    }
}

/// The 3×3 neighbourhoods of every cell as columns: `[in · 9, boards · h·w]`,
/// the row of channel `c` and offset `(dy, dx)` at `c · 9 + (dy+1) · 3 +
/// (dx+1)` (cells beyond a board's edge are 0; boards lie side by side and
/// never see each other). Rows of the input go up the ranks; the kernel's
/// `dy` follows them.
fn im2col(x: ArrayView2<f32>, width: usize, height: usize) -> Array2<f32> {
    let channels = x.nrows();
    let cells = width * height;
    let total = x.ncols();
    let boards = total / cells;
    // A neighbour's offset is one shift of the cell index, (dy − 1) · width
    // + dx − 1: each board's cells that have that neighbour are copied in one
    // piece, then the cells whose shifted index wrapped round into the next
    // or previous rank are put back to 0.
    let x = x.as_standard_layout();
    let src = x.as_slice().expect("a standard-layout array is one slice");
    let mut cols = vec![0f32; channels * 9 * total];
    for c in 0..channels {
        let plane = &src[c * total..(c + 1) * total];
        for dy in 0..3usize {
            // Ranks `y0..y1` have a neighbour rank `y + dy − 1`.
            let (y0, y1) = (usize::from(dy == 0), height - usize::from(dy == 2));
            for dx in 0..3usize {
                // Files `x0..x1` have a neighbour file `x + dx − 1`.
                let (x0, x1) = (usize::from(dx == 0), width - usize::from(dx == 2));
                if y0 >= y1 || x0 >= x1 {
                    continue;
                }
                let r = c * 9 + dy * 3 + dx;
                let row = &mut cols[r * total..(r + 1) * total];
                for b in 0..boards {
                    let base = b * cells;
                    let (first, last) = (base + y0 * width + x0, base + (y1 - 1) * width + x1);
                    let from = first + dy * width + dx - width - 1;
                    row[first..last].copy_from_slice(&plane[from..from + (last - first)]);
                    for y in y0..y1 {
                        if dx == 0 && y > y0 {
                            row[base + y * width] = 0.0;
                        }
                        if dx == 2 && y + 1 < y1 {
                            row[base + y * width + width - 1] = 0.0;
                        }
                    }
                }
            }
        }
    }
    Array2::from_shape_vec((channels * 9, total), cols).expect("sized for its shape")
}

fn relu(a: &mut Array2<f32>) {
    a.mapv_inplace(|v| v.max(0.0));
}

impl Network {
    /// A net of this shape with small random weights (He-scaled uniform,
    /// biases 0), from `seed`: where training starts.
    pub fn random(config: Config, seed: u64) -> Network {
        let mut rng = virus_wars_rules::rng::SplitMix64::new(seed);
        let mut uniform = |n: usize, fan_in: usize| -> Vec<f32> {
            let bound = (6.0 / fan_in as f32).sqrt();
            (0..n)
                .map(|_| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound)
                .collect()
        };
        let mut conv = |out: usize, inp: usize, k: usize| Conv {
            weight: Array2::from_shape_vec(
                (out, inp * k * k),
                uniform(out * inp * k * k, inp * k * k),
            )
            .expect("sized for its shape"),
            bias: Array1::zeros(out),
            k,
        };
        let c = config.channels;
        let stem = conv(c, PLANES, 3);
        let blocks = (0..config.blocks)
            .map(|_| Block {
                conv1: conv(c, c, 3),
                conv2: conv(c, c, 3),
            })
            .collect();
        let policy = conv(1, c, 1);
        let value_conv = conv(config.value_channels, c, 1);
        let mut linear = |out: usize, inp: usize| Linear {
            weight: Array2::from_shape_vec((out, inp), uniform(out * inp, inp))
                .expect("sized for its shape"),
            bias: Array1::zeros(out),
        };
        let value = ValueHead {
            conv: value_conv,
            fc1: linear(config.value_hidden, config.value_channels),
            fc2: linear(1, config.value_hidden),
        };
        Network {
            config,
            stem,
            blocks,
            policy,
            value,
        }
    }

    /// A net of this shape with every weight 0: uniform priors, value 0.
    pub fn zeros(config: Config) -> Network {
        let mut net = Network::random(config, 1);
        let mut convs: Vec<&mut Conv> = vec![&mut net.stem, &mut net.policy, &mut net.value.conv];
        for b in &mut net.blocks {
            convs.push(&mut b.conv1);
            convs.push(&mut b.conv2);
        }
        convs.into_iter().for_each(|c| c.weight.fill(0.0));
        net.value.fc1.weight.fill(0.0);
        net.value.fc2.weight.fill(0.0);
        net
    }

    /// The policy and value of one position.
    pub fn forward(&self, input: &Input) -> Output {
        self.forward_batch(std::slice::from_ref(input))
            .pop()
            .expect("one output for one input")
    }

    /// The policy and value of several positions on boards of one size, in
    /// one pass (each convolution one matrix product over all of them:
    /// cheaper a position than one at a time). Inputs of another size than
    /// the first's are answered one by one.
    pub fn forward_batch(&self, inputs: &[Input]) -> Vec<Output> {
        let Some(first) = inputs.first() else {
            return Vec::new();
        };
        let (w, h) = (first.width, first.height);
        if inputs.iter().any(|i| (i.width, i.height) != (w, h)) {
            return inputs.iter().map(|i| self.forward(i)).collect();
        }
        let cells = w * h;
        let boards = inputs.len();
        let mut data = Array2::<f32>::zeros((PLANES, boards * cells));
        for (b, input) in inputs.iter().enumerate() {
            let planes = ArrayView2::from_shape((PLANES, cells), &input.data)
                .expect("an input holds PLANES planes of its board");
            data.slice_mut(ndarray::s![.., b * cells..(b + 1) * cells])
                .assign(&planes);
        }
        let mut t = self.stem.forward(data.view(), w, h);
        relu(&mut t);
        for b in &self.blocks {
            let mut u = b.conv1.forward(t.view(), w, h);
            relu(&mut u);
            let mut v = b.conv2.forward(u.view(), w, h);
            v += &t;
            relu(&mut v);
            t = v;
        }
        let policy = self.policy.forward(t.view(), w, h);
        let mut v = self.value.conv.forward(t.view(), w, h);
        relu(&mut v);
        (0..boards)
            .map(|b| {
                let range = b * cells..(b + 1) * cells;
                let pooled = v
                    .slice(ndarray::s![.., range.clone()])
                    .mean_axis(ndarray::Axis(1))
                    .expect("a board has cells");
                let mut hidden = self.value.fc1.weight.dot(&pooled) + &self.value.fc1.bias;
                hidden.mapv_inplace(|v| v.max(0.0));
                let out = self.value.fc2.weight.dot(&hidden) + &self.value.fc2.bias;
                Output {
                    policy: policy.slice(ndarray::s![0, range]).to_vec(),
                    value: out[0].tanh(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planes::{cell_of, encode, index};
    use crate::weights::tests::random_network;
    use virus_wars_rules::{Preset, Symmetry};

    /// A direct 3×3 convolution, for comparison with im2col.
    fn direct(conv: &Conv, x: &Array2<f32>, w: usize, h: usize) -> Array2<f32> {
        let (out, inp) = (conv.weight.nrows(), x.nrows());
        let mut y = Array2::zeros((out, w * h));
        for o in 0..out {
            for yy in 0..h {
                for xx in 0..w {
                    let mut s = conv.bias[o];
                    for c in 0..inp {
                        for dy in 0..3 {
                            for dx in 0..3 {
                                let (sy, sx) = (yy as isize + dy - 1, xx as isize + dx - 1);
                                if sy >= 0 && sy < h as isize && sx >= 0 && sx < w as isize {
                                    let k = c * 9 + (dy * 3 + dx) as usize;
                                    s +=
                                        conv.weight[[o, k]] * x[[c, sy as usize * w + sx as usize]];
                                }
                            }
                        }
                    }
                    y[[o, yy * w + xx]] = s;
                }
            }
        }
        y
    }

    #[test]
    fn im2col_convolution_equals_the_direct_one() {
        let net = random_network(8, 1, 7);
        for (w, h) in [(3, 3), (5, 7), (10, 10)] {
            let x = Array2::from_shape_fn((PLANES, w * h), |(c, k)| {
                ((c * 31 + k * 17) % 13) as f32 / 7.0 - 0.8
            });
            let a = net.stem.forward(x.view(), w, h);
            let b = direct(&net.stem, &x, w, h);
            assert!(
                a.iter().zip(b.iter()).all(|(p, q)| (p - q).abs() < 1e-4),
                "{w}x{h}"
            );
        }
    }

    #[test]
    fn im2col_columns_are_each_cells_neighbourhood() {
        use ndarray::ShapeBuilder;
        for (w, h, boards) in [
            (3, 3, 1),
            (4, 6, 2),
            (11, 11, 3),
            (1, 5, 2),
            (5, 1, 2),
            (2, 2, 3),
            (1, 1, 4),
            (2, 7, 2),
        ] {
            let cells = w * h;
            // Column-major, so the copy into one slice is taken too.
            let x = Array2::from_shape_fn((2, boards * cells).f(), |(c, k)| (c * 1000 + k) as f32);
            let cols = im2col(x.view(), w, h);
            for c in 0..2 {
                for b in 0..boards {
                    for y in 0..h as isize {
                        for xx in 0..w as isize {
                            for dy in -1..=1isize {
                                for dx in -1..=1isize {
                                    let (sy, sx) = (y + dy, xx + dx);
                                    let inside = (0..h as isize).contains(&sy)
                                        && (0..w as isize).contains(&sx);
                                    let want = if inside {
                                        x[[c, b * cells + (sy * w as isize + sx) as usize]]
                                    } else {
                                        0.0
                                    };
                                    let r = c * 9 + ((dy + 1) * 3 + dx + 1) as usize;
                                    let k = b * cells + (y * w as isize + xx) as usize;
                                    assert_eq!(
                                        cols[[r, k]],
                                        want,
                                        "{w}x{h} c{c} b{b} ({xx},{y}) ({dx},{dy})"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_batch_answers_as_its_positions_one_by_one() {
        let net = random_network(8, 2, 5);
        let mut inputs = Vec::new();
        for preset in [Preset::Korobkov, Preset::Classic] {
            let mut p = preset.variant().start().unwrap();
            for k in 0..9usize {
                inputs.push(encode(&p, Symmetry::ALL[k % 8]));
                let steps = p.legal_steps();
                p.play(steps[(k * 7) % steps.len()]).unwrap();
            }
        }
        // One size, and sizes mixed (answered one by one).
        for batch in [&inputs[..9], &inputs[..]] {
            let together = net.forward_batch(batch);
            assert_eq!(together.len(), batch.len());
            for (input, out) in batch.iter().zip(&together) {
                let alone = net.forward(input);
                assert!((alone.value - out.value).abs() < 1e-5);
                assert_eq!(alone.policy.len(), out.policy.len());
                for (a, b) in alone.policy.iter().zip(&out.policy) {
                    assert!((a - b).abs() < 1e-4, "{a} {b}");
                }
            }
        }
        assert!(net.forward_batch(&[]).is_empty());
    }

    #[test]
    fn one_net_takes_every_board_size() {
        let net = random_network(8, 2, 3);
        for size in [3u8, 5, 8, 11, 19] {
            let mut v = Preset::Classic.variant();
            v.width = size;
            v.height = size;
            let p = v.start().unwrap();
            let out = net.forward(&encode(&p, Symmetry::Identity));
            assert_eq!(out.policy.len(), size as usize * size as usize);
            assert!(out.value > -1.0 && out.value < 1.0);
            let legal: Vec<usize> = p.legal_cells().iter().map(|c| index(*c, size)).collect();
            let priors = out.priors(&legal);
            assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn a_net_with_symmetric_kernels_sees_symmetric_positions_alike() {
        // Kernels symmetric under all eight symmetries make the whole net
        // equivariant: the policy moves with the board, the value stays.
        let mut net = random_network(8, 2, 11);
        let mut convs: Vec<&mut Conv> = vec![&mut net.stem];
        for b in &mut net.blocks {
            convs.push(&mut b.conv1);
            convs.push(&mut b.conv2);
        }
        for conv in convs {
            for mut row in conv.weight.rows_mut() {
                for c in 0..row.len() / 9 {
                    let k: Vec<f32> = (0..9).map(|j| row[c * 9 + j]).collect();
                    let corner = (k[0] + k[2] + k[6] + k[8]) / 4.0;
                    let edge = (k[1] + k[3] + k[5] + k[7]) / 4.0;
                    for j in 0..9 {
                        row[c * 9 + j] = match j {
                            4 => k[4],
                            0 | 2 | 6 | 8 => corner,
                            _ => edge,
                        };
                    }
                }
            }
        }
        let mut p = Preset::Korobkov.variant().start().unwrap();
        for k in [0usize, 3, 5, 2] {
            let steps = p.legal_steps();
            p.play(steps[k % steps.len()]).unwrap();
        }
        let (w, h) = (p.width(), p.height());
        let plain = net.forward(&encode(&p, Symmetry::Identity));
        for sym in Symmetry::ALL {
            let seen = net.forward(&encode(&p, sym));
            assert!((seen.value - plain.value).abs() < 1e-4, "{sym:?}");
            for k in 0..seen.policy.len() {
                let back = index(cell_of(k, sym, w, h), w);
                assert!(
                    (seen.policy[k] - plain.policy[back]).abs() < 1e-3,
                    "{sym:?} {k}"
                );
            }
        }
    }
}
