//! The 3×3 neighbourhoods of every cell as columns, as one candle operation
//! with its own gradient. Built from candle's pads, slices and stacks, the
//! same columns cost nearly half of a training step: each of the nine slices
//! of the padded board sent a whole board's gradient back, and the nine were
//! added one by one. Here the forward pass is one copy and the backward pass one
//! sum into the board.

use candle_core::{CpuStorage, CustomOp1, Layout, Shape, Tensor};

/// `[C, B, H, W]` (channels first) into `[C·9, B·H·W]`: row `c·9 + 3·dy +
/// dx` holds, for each cell, channel `c` of the cell `dy − 1` ranks and
/// `dx − 1` files away (0 off the board), the order of a 3×3 kernel's
/// weights `[O, C, 3, 3]` laid flat.
pub(super) struct Im2col;

/// The gradient of [`Im2col`]: `[C·9, B·H·W]` back into `[C, B, H, W]`,
/// each column's nine entries summed into the cells they came from.
struct Col2im {
    dims: [usize; 4],
}

fn contiguous<'a>(
    op: &str,
    storage: &'a CpuStorage,
    layout: &Layout,
) -> candle_core::Result<&'a [f32]> {
    let CpuStorage::F32(data) = storage else {
        candle_core::bail!("{op}: f32 only");
    };
    match layout.contiguous_offsets() {
        Some((start, end)) => Ok(&data[start..end]),
        None => candle_core::bail!("{op}: a contiguous tensor only"),
    }
}

/// For a shift `d` (0, 1 or 2: one back, none, one on) along a line of
/// `n` cells: the first and one past the last destination index whose
/// source `i + d − 1` is on the line.
fn span(d: usize, n: usize) -> (usize, usize) {
    (usize::from(d == 0), if d == 2 { n - 1 } else { n })
}

/// Calls `f(row, dst, src, len)` for each run of cells that shift `row`
/// (`3·dy + dx`) copies: `len` cells from board index `src` to column index
/// `dst`, within one channel's `[B, H, W]` and its row of columns.
fn runs(b: usize, h: usize, w: usize, mut f: impl FnMut(usize, usize, usize, usize)) {
    if w == 0 || h == 0 {
        return;
    }
    for dy in 0..3 {
        let (y0, y1) = span(dy, h);
        for dx in 0..3 {
            let (x0, x1) = span(dx, w);
            if x0 >= x1 {
                continue;
            }
            for board in 0..b {
                for y in y0..y1 {
                    let dst = (board * h + y) * w + x0;
                    let src = (board * h + y + dy - 1) * w + x0 + dx - 1;
                    f(dy * 3 + dx, dst, src, x1 - x0);
                }
            }
        }
    }
}

impl CustomOp1 for Im2col {
    fn name(&self) -> &'static str {
        "im2col"
    }

    fn cpu_fwd(
        &self,
        storage: &CpuStorage,
        layout: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        let (c, b, h, w) = layout.shape().dims4()?;
        let x = contiguous("im2col", storage, layout)?;
        let cells = b * h * w;
        let mut out = vec![0f32; c * 9 * cells];
        for (board, cols) in x
            .chunks_exact(cells.max(1))
            .zip(out.chunks_exact_mut((9 * cells).max(1)))
            .take(c)
        {
            runs(b, h, w, |row, dst, src, len| {
                let at = row * cells + dst;
                cols[at..at + len].copy_from_slice(&board[src..src + len]);
            });
        }
        Ok((CpuStorage::F32(out), Shape::from((c * 9, cells))))
    }

    fn bwd(
        &self,
        arg: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> candle_core::Result<Option<Tensor>> {
        let (c, b, h, w) = arg.dims4()?;
        let grad = grad.contiguous()?;
        Ok(Some(grad.apply_op1_no_bwd(&Col2im { dims: [c, b, h, w] })?))
    }
}

impl CustomOp1 for Col2im {
    fn name(&self) -> &'static str {
        "col2im"
    }

    fn cpu_fwd(
        &self,
        storage: &CpuStorage,
        layout: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        let [c, b, h, w] = self.dims;
        let cells = b * h * w;
        if layout.shape().dims() != [c * 9, cells] {
            candle_core::bail!(
                "col2im: columns of shape {:?} for boards {:?}",
                layout.shape(),
                self.dims
            );
        }
        let g = contiguous("col2im", storage, layout)?;
        let mut out = vec![0f32; c * cells];
        for (cols, board) in g
            .chunks_exact((9 * cells).max(1))
            .zip(out.chunks_exact_mut(cells.max(1)))
            .take(c)
        {
            runs(b, h, w, |row, dst, src, len| {
                let at = row * cells + dst;
                for (o, v) in board[src..src + len].iter_mut().zip(&cols[at..at + len]) {
                    *o += v;
                }
            });
        }
        Ok((CpuStorage::F32(out), Shape::from((c, b, h, w))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    /// The columns the slow way: pads, nine slices and a stack, each with
    /// candle's own gradient.
    fn reference(x: &Tensor) -> Tensor {
        let (c, b, h, w) = x.dims4().unwrap();
        let padded = x
            .pad_with_zeros(2, 1, 1)
            .unwrap()
            .pad_with_zeros(3, 1, 1)
            .unwrap();
        let mut shifted = Vec::new();
        for dy in 0..3 {
            for dx in 0..3 {
                shifted.push(
                    padded
                        .narrow(2, dy, h)
                        .unwrap()
                        .narrow(3, dx, w)
                        .unwrap()
                        .contiguous()
                        .unwrap()
                        .reshape((c, b * h * w))
                        .unwrap(),
                );
            }
        }
        Tensor::stack(&shifted, 1)
            .unwrap()
            .reshape((c * 9, b * h * w))
            .unwrap()
    }

    #[test]
    fn columns_and_their_gradient_match_candles_own_operations() {
        let device = Device::Cpu;
        let mut seed = 3u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 40) as f32 / (1u64 << 24) as f32) - 0.5
        };
        for (c, b, h, w) in [
            (1, 1, 1, 1),
            (2, 1, 1, 5),
            (1, 2, 5, 1),
            (3, 2, 2, 2),
            (2, 3, 3, 3),
            (4, 2, 8, 8),
            (2, 1, 11, 10),
            (3, 2, 4, 7),
        ] {
            let data: Vec<f32> = (0..c * b * h * w).map(|_| next()).collect();
            let x = Var::from_vec(data, (c, b, h, w), &device).unwrap();
            let weights: Vec<f32> = (0..c * 9 * b * h * w).map(|_| next()).collect();
            let weights = Tensor::from_vec(weights, (c * 9, b * h * w), &device).unwrap();
            let fast = x.as_tensor().apply_op1(Im2col).unwrap();
            let slow = reference(x.as_tensor());
            assert_eq!(
                fast.to_vec2::<f32>().unwrap(),
                slow.to_vec2::<f32>().unwrap(),
                "columns of {c}x{b}x{h}x{w}"
            );
            // A loss that weighs every column entry differently, so that a
            // gradient sent to the wrong cell shows.
            let grad_of = |cols: &Tensor| {
                let loss = (cols * &weights).unwrap().sum_all().unwrap();
                let grads = loss.backward().unwrap();
                grads
                    .get(x.as_tensor())
                    .unwrap()
                    .flatten_all()
                    .unwrap()
                    .to_vec1::<f32>()
                    .unwrap()
            };
            let (g_fast, g_slow) = (grad_of(&fast), grad_of(&slow));
            for (k, (a, e)) in g_fast.iter().zip(&g_slow).enumerate() {
                assert!(
                    (a - e).abs() < 1e-5,
                    "gradient {k} of {c}x{b}x{h}x{w}: {a} vs {e}"
                );
            }
        }
    }
}
