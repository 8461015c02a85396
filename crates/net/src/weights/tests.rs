//! The weights file: round trips, old nets, and every way a file can be wrong.

use super::*;
use virus_wars_rules::rng::SplitMix64;

/// A net of `channels` and `blocks` with small random weights.
pub(crate) fn random_network(channels: usize, blocks: usize, seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed);
    let mut r = |n: usize, scale: f32| -> Vec<f32> {
        (0..n)
            .map(|_| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * scale)
            .collect()
    };
    let mut conv = |out: usize, inp: usize, k: usize| Conv {
        weight: Array2::from_shape_vec((out, inp * k * k), r(out * inp * k * k, 0.4)).unwrap(),
        bias: Array1::from_vec(r(out, 0.1)),
        k,
    };
    let stem = conv(channels, PLANES, 3);
    let blocks = (0..blocks)
        .map(|_| Block {
            conv1: conv(channels, channels, 3),
            conv2: conv(channels, channels, 3),
        })
        .collect();
    let policy = conv(1, channels, 1);
    let value_conv = conv(4, channels, 1);
    let mut linear = |out: usize, inp: usize| Linear {
        weight: Array2::from_shape_vec((out, inp), r(out * inp, 0.5)).unwrap(),
        bias: Array1::from_vec(r(out, 0.1)),
    };
    Network {
        config: Config {
            channels,
            blocks: 0,
            value_channels: 4,
            value_hidden: 8,
        },
        stem,
        blocks,
        policy,
        value: ValueHead {
            conv: value_conv,
            fc1: linear(8, 4),
            fc2: linear(1, 8),
        },
    }
    .with_block_count()
}

impl Network {
    fn with_block_count(mut self) -> Network {
        self.config.blocks = self.blocks.len();
        self
    }
}

#[test]
fn weights_round_trip_through_the_file() {
    let net = random_network(6, 2, 5);
    let bytes = net.to_bytes();
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.config.blocks, 2);
    assert_eq!(
        Network::from_bytes(&back.to_bytes()).unwrap().to_bytes(),
        bytes
    );
}

#[test]
fn a_net_from_before_the_unknown_plane_reads_views_as_whole_boards() {
    use crate::planes::{encode, UNKNOWN};
    use virus_wars_rules::{Preset, Symmetry};
    let mut net = random_network(6, 1, 7);
    // The same net written as it was before fog: 11 planes.
    let mut old = net.clone();
    old.stem.weight = net
        .stem
        .weight
        .slice(ndarray::s![.., ..UNKNOWN * 9])
        .to_owned();
    let bytes = old.to_bytes();
    let file = SafeTensors::deserialize(&bytes).unwrap();
    assert_eq!(file.tensor("stem.weight").unwrap().shape(), &[6, 11, 3, 3]);
    let read = Network::from_bytes(&bytes).unwrap();
    assert!(read
        .stem
        .weight
        .slice(ndarray::s![.., UNKNOWN * 9..])
        .iter()
        .all(|&w| w == 0.0));
    // The net with its unknown plane's weights zero, read from either.
    net.stem
        .weight
        .slice_mut(ndarray::s![.., UNKNOWN * 9..])
        .fill(0.0);
    assert_eq!(read, net);
    let mut input = encode(
        &Preset::Korobkov.variant().start().unwrap(),
        Symmetry::Identity,
    );
    let whole = read.forward(&input);
    let n = input.cells();
    input.data[UNKNOWN * n..].fill(1.0);
    assert_eq!(read.forward(&input), whole, "the unknown plane is not read");
    // The file it was read from is the one an older build wrote of it.
    assert_eq!(read.to_bytes_before_fog(), Some(bytes.clone()));
    assert_eq!(
        random_network(6, 1, 7).to_bytes_before_fog(),
        None,
        "reads the plane"
    );
    // Written again, it has 12 planes.
    let again = SafeTensors::deserialize(&read.to_bytes())
        .unwrap()
        .tensor("stem.weight")
        .unwrap()
        .shape()
        .to_vec();
    assert_eq!(again, [6, 12, 3, 3]);
}

#[test]
fn a_bad_file_says_what_is_wrong() {
    let net = random_network(6, 1, 5);
    let dir = std::env::temp_dir().join(format!("vw-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.safetensors");
    std::fs::write(&path, net.to_bytes()).unwrap();
    let good = sha256(&net.to_bytes());
    assert!(Network::load(&path, Some(&good)).is_ok());
    let e = Network::load(&path, Some(&"0".repeat(64)))
        .unwrap_err()
        .to_string();
    assert!(e.contains("SHA-256") && e.contains(&good), "{e}");
    let e = Network::load(&dir.join("missing"), None)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("cannot read the weights file"), "{e}");
    // A device or a folder is refused before a byte is read (/dev/zero
    // would never end).
    for odd in [Path::new("/dev/zero"), dir.as_path()] {
        let e = Network::load(odd, None).unwrap_err().to_string();
        assert!(
            e.contains("is not a weights file: not a regular file"),
            "{e}"
        );
    }
    let bytes = net.to_bytes();
    let e = Network::from_bytes(&bytes[..bytes.len() / 2])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("the weights file is not a safetensors file"),
        "{e}"
    );
    assert!(Network::from_bytes(b"").is_err());
    // A tensor of the wrong shape, one missing, one too many, a NaN.
    let mut wrong = net.clone();
    wrong.policy.weight = Array2::zeros((2, 6));
    wrong.policy.bias = Array1::zeros(2);
    let e = Network::from_bytes(&wrong.to_bytes())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "tensor 'policy.weight' has shape [2, 6, 1, 1], expected [1, 6, 1, 1]"
    );
    let file = SafeTensors::deserialize(&bytes).unwrap();
    let rebuild = |skip: &str, extra: bool| {
        let mut named: Vec<(String, TensorView<'_>)> = file
            .tensors()
            .into_iter()
            .filter(|(n, _)| n != skip)
            .collect();
        if extra {
            named.push(("head.extra".into(), file.tensor("policy.bias").unwrap()));
        }
        safetensors::serialize(named, None).unwrap()
    };
    let e = Network::from_bytes(&rebuild("value.fc2.bias", false))
        .unwrap_err()
        .to_string();
    assert_eq!(e, "the weights file has no tensor 'value.fc2.bias'");
    let e = Network::from_bytes(&rebuild("", true))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "the weights file has a tensor this net does not use: 'head.extra'"
    );
    let mut nan = net.clone();
    nan.stem.bias[0] = f32::NAN;
    let e = Network::from_bytes(&nan.to_bytes())
        .unwrap_err()
        .to_string();
    assert_eq!(e, "tensor 'stem.bias' holds a value that is not finite");
    std::fs::remove_dir_all(&dir).unwrap();
}
