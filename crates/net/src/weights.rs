//! The weights file: safetensors (the format burn, candle and PyTorch all
//! read), every tensor `f32`, named as below. Loading checks that every
//! tensor is there with a shape that fits the others, that nothing else is,
//! that every value is finite, and (when given) the file's SHA-256.
//!
//! | name | shape |
//! | --- | --- |
//! | `stem.weight`, `stem.bias` | `[C, PLANES, 3, 3]`, `[C]` (a net of 11 planes, from before fog of war's unknown plane, is read with that plane's weights zero) |
//! | `blocks.{i}.conv1.weight` / `.conv2.weight`, and `.bias` | `[C, C, 3, 3]`, `[C]` |
//! | `policy.weight`, `policy.bias` | `[1, C, 1, 1]`, `[1]` |
//! | `value.conv.weight`, `value.conv.bias` | `[V, C, 1, 1]`, `[V]` |
//! | `value.fc1.weight`, `value.fc1.bias` | `[H, V]`, `[H]` |
//! | `value.fc2.weight`, `value.fc2.bias` | `[1, H]`, `[1]` |

use std::collections::BTreeMap;
use std::path::Path;

use ndarray::{Array1, Array2};
use safetensors::tensor::{Dtype, TensorView};
use safetensors::SafeTensors;
use sha2::{Digest, Sha256};

use crate::network::{Block, Config, Conv, Linear, Network, ValueHead};
use crate::planes::PLANES;

/// Why a weights file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("cannot read the weights file {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error(
        "the weights file's SHA-256 is {found}, not {expected}: it is another or a damaged file"
    )]
    Hash { expected: String, found: String },
    #[error("the weights file is not a safetensors file: {0}")]
    Format(String),
    #[error("the weights file has no tensor '{0}'")]
    Missing(String),
    #[error("tensor '{name}' has shape {found:?}, expected {expected:?}")]
    Shape {
        name: String,
        expected: Vec<usize>,
        found: Vec<usize>,
    },
    #[error("tensor '{name}' holds {dtype}, expected F32")]
    Dtype { name: String, dtype: String },
    #[error("tensor '{0}' holds a value that is not finite")]
    NotFinite(String),
    #[error("the weights file has a tensor this net does not use: '{0}'")]
    Unknown(String),
    #[error("the net has no channels: '{0}' is empty")]
    Empty(String),
    #[error("{path} is not a weights file: {why}")]
    NotAFile { path: String, why: String },
}

/// The largest weights file read (a net of 256 channels and 40 blocks is
/// about 190 MB).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The bytes of the weights file at `path`: a regular file of at most
/// [`MAX_FILE_BYTES`] (a device or a pipe would never end).
pub fn read_file(path: &Path) -> Result<Vec<u8>, NetError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|source| NetError::Io {
        path: shown.clone(),
        source,
    })?;
    if !meta.is_file() {
        return Err(NetError::NotAFile {
            path: shown,
            why: "not a regular file".into(),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(NetError::NotAFile {
            path: shown,
            why: format!(
                "{} bytes, more than the {MAX_FILE_BYTES} allowed",
                meta.len()
            ),
        });
    }
    std::fs::read(path).map_err(|source| NetError::Io {
        path: shown,
        source,
    })
}

/// The SHA-256 of `bytes`, in hex.
pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Network {
    /// Reads a weights file; with `expected`, its SHA-256 (hex) must match.
    pub fn load(path: &Path, expected: Option<&str>) -> Result<Network, NetError> {
        let bytes = read_file(path)?;
        if let Some(expected) = expected {
            let found = sha256(&bytes);
            if !found.eq_ignore_ascii_case(expected.trim()) {
                return Err(NetError::Hash {
                    expected: expected.trim().to_string(),
                    found,
                });
            }
        }
        Network::from_bytes(&bytes)
    }

    /// Reads weights from the bytes of a safetensors file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let file = SafeTensors::deserialize(bytes).map_err(|e| NetError::Format(e.to_string()))?;
        let mut reader = Reader {
            file: &file,
            used: Vec::new(),
        };
        let stem_w = reader.tensor("stem.weight")?;
        let channels = *stem_w.0.first().unwrap_or(&0);
        if channels == 0 {
            return Err(NetError::Empty("stem.weight".into()));
        }
        // A net from before fog of war reads 11 planes: it is given the
        // unknown plane with weights of zero, and so reads a view as the
        // whole board with its hidden cells empty.
        let stem = match stem_w.0.get(1) {
            Some(&planes) if planes == PLANES - 1 => {
                widened(reader.conv("stem", channels, planes, 3)?, PLANES)
            }
            _ => reader.conv("stem", channels, PLANES, 3)?,
        };
        let mut blocks = Vec::new();
        while file
            .tensor(&format!("blocks.{}.conv1.weight", blocks.len()))
            .is_ok()
        {
            let i = blocks.len();
            blocks.push(Block {
                conv1: reader.conv(&format!("blocks.{i}.conv1"), channels, channels, 3)?,
                conv2: reader.conv(&format!("blocks.{i}.conv2"), channels, channels, 3)?,
            });
        }
        let policy = reader.conv("policy", 1, channels, 1)?;
        let value_channels = *reader.tensor("value.conv.weight")?.0.first().unwrap_or(&0);
        if value_channels == 0 {
            return Err(NetError::Empty("value.conv.weight".into()));
        }
        let conv = reader.conv("value.conv", value_channels, channels, 1)?;
        let value_hidden = *reader.tensor("value.fc1.weight")?.0.first().unwrap_or(&0);
        if value_hidden == 0 {
            return Err(NetError::Empty("value.fc1.weight".into()));
        }
        let value = ValueHead {
            conv,
            fc1: reader.linear("value.fc1", value_hidden, value_channels)?,
            fc2: reader.linear("value.fc2", 1, value_hidden)?,
        };
        if let Some(name) = file
            .names()
            .into_iter()
            .find(|n| !reader.used.iter().any(|u| u == n))
        {
            return Err(NetError::Unknown(name.to_string()));
        }
        Ok(Network {
            config: Config {
                channels,
                blocks: blocks.len(),
                value_channels,
                value_hidden,
            },
            stem,
            blocks,
            policy,
            value,
        })
    }

    /// The file an older build wrote of this net, when it does not read the
    /// unknown plane (its weights there all zero): the same net with 11
    /// input planes, as written before fog of war. Runs started then keep
    /// such a file and its hash.
    pub fn to_bytes_before_fog(&self) -> Option<Vec<u8>> {
        let kk = self.stem.k * self.stem.k;
        let old = PLANES - 1;
        let unknown = self.stem.weight.slice(ndarray::s![.., old * kk..]);
        if unknown.iter().any(|&w| w != 0.0) {
            return None;
        }
        let mut narrow = self.clone();
        narrow.stem.weight = self
            .stem
            .weight
            .slice(ndarray::s![.., ..old * kk])
            .to_owned();
        Some(narrow.to_bytes())
    }

    /// The weights as the bytes of a safetensors file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut tensors: BTreeMap<String, (Vec<usize>, Vec<u8>)> = BTreeMap::new();
        let mut conv = |name: &str, c: &Conv| {
            let (out, flat) = c.weight.dim();
            let shape = vec![out, flat / (c.k * c.k), c.k, c.k];
            tensors.insert(format!("{name}.weight"), (shape, le_bytes(c.weight.iter())));
            tensors.insert(format!("{name}.bias"), (vec![out], le_bytes(c.bias.iter())));
        };
        conv("stem", &self.stem);
        for (i, b) in self.blocks.iter().enumerate() {
            conv(&format!("blocks.{i}.conv1"), &b.conv1);
            conv(&format!("blocks.{i}.conv2"), &b.conv2);
        }
        conv("policy", &self.policy);
        conv("value.conv", &self.value.conv);
        for (name, l) in [
            ("value.fc1", &self.value.fc1),
            ("value.fc2", &self.value.fc2),
        ] {
            let shape = vec![l.weight.nrows(), l.weight.ncols()];
            tensors.insert(format!("{name}.weight"), (shape, le_bytes(l.weight.iter())));
            tensors.insert(
                format!("{name}.bias"),
                (vec![l.bias.len()], le_bytes(l.bias.iter())),
            );
        }
        let views: Vec<(String, TensorView<'_>)> = tensors
            .iter()
            .map(|(name, (shape, data))| {
                let view = TensorView::new(Dtype::F32, shape.clone(), data)
                    .expect("the shape fits the data written for it");
                (name.clone(), view)
            })
            .collect();
        safetensors::serialize(views, None).expect("f32 tensors serialize")
    }
}

/// `c` reading `planes` input planes, the ones it did not read with weights
/// of zero (they are the last).
fn widened(c: Conv, planes: usize) -> Conv {
    let (out, flat) = c.weight.dim();
    let kk = c.k * c.k;
    let mut weight = Array2::<f32>::zeros((out, planes * kk));
    weight.slice_mut(ndarray::s![.., ..flat]).assign(&c.weight);
    Conv { weight, ..c }
}

fn le_bytes<'a>(values: impl Iterator<Item = &'a f32>) -> Vec<u8> {
    values.flat_map(|v| v.to_le_bytes()).collect()
}

struct Reader<'a, 'b> {
    file: &'a SafeTensors<'b>,
    used: Vec<String>,
}

impl Reader<'_, '_> {
    /// A tensor's shape and values.
    fn tensor(&mut self, name: &str) -> Result<(Vec<usize>, Vec<f32>), NetError> {
        let t = self
            .file
            .tensor(name)
            .map_err(|_| NetError::Missing(name.to_string()))?;
        if t.dtype() != Dtype::F32 {
            return Err(NetError::Dtype {
                name: name.to_string(),
                dtype: format!("{:?}", t.dtype()),
            });
        }
        let values: Vec<f32> = t
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err(NetError::NotFinite(name.to_string()));
        }
        if !self.used.iter().any(|u| u == name) {
            self.used.push(name.to_string());
        }
        Ok((t.shape().to_vec(), values))
    }

    fn shaped(&mut self, name: &str, expected: &[usize]) -> Result<Vec<f32>, NetError> {
        let (shape, values) = self.tensor(name)?;
        if shape != expected {
            return Err(NetError::Shape {
                name: name.to_string(),
                expected: expected.to_vec(),
                found: shape,
            });
        }
        Ok(values)
    }

    fn conv(&mut self, name: &str, out: usize, inp: usize, k: usize) -> Result<Conv, NetError> {
        let w = self.shaped(&format!("{name}.weight"), &[out, inp, k, k])?;
        let b = self.shaped(&format!("{name}.bias"), &[out])?;
        Ok(Conv {
            weight: Array2::from_shape_vec((out, inp * k * k), w).expect("shape checked"),
            bias: Array1::from_vec(b),
            k,
        })
    }

    fn linear(&mut self, name: &str, out: usize, inp: usize) -> Result<Linear, NetError> {
        let w = self.shaped(&format!("{name}.weight"), &[out, inp])?;
        let b = self.shaped(&format!("{name}.bias"), &[out])?;
        Ok(Linear {
            weight: Array2::from_shape_vec((out, inp), w).expect("shape checked"),
            bias: Array1::from_vec(b),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
