//! The learned player's network, apart from any search: what it sees of a
//! position ([`planes`]), the network and its forward pass ([`network`]),
//! and its weights file ([`weights`]). The net is fully convolutional, so
//! one set of weights plays every board from 3×3 to 19×19.
//!
//! Inference runs on `ndarray` (a convolution is an im2col and one matrix
//! product): light enough for the default build. Training lives behind a
//! cargo feature of its own.

pub mod network;
pub mod planes;
#[cfg(feature = "train")]
pub mod train;
pub mod weights;

pub use network::{Config, Network, Output};
pub use planes::{encode, Input, PLANES};
pub use weights::{sha256, NetError};
