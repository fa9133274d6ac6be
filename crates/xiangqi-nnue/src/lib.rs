//! NNUE evaluation for xiangqi: an efficiently updatable neural network.
//!
//! * [`features`]: the 1 260 piece-square inputs per perspective;
//! * [`FloatNetwork`]: the network in floating point, as trained, with the
//!   reference evaluation;
//! * [`Network`]: the quantised network inference runs on
//!   ([`FloatNetwork::quantise`]);
//! * [`file`]: the net file format, a header with the architecture and a
//!   payload hash, read with typed errors.
//!
//! The architecture is `(1260 -> H) x 2 -> 1` with SCReLU
//! (docs/engine.md, "NNUE evaluation").

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod file;
mod float;
mod network;
mod quantise;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack, MoveDelta};
pub use embedded::{embedded, EmbeddedNetError};
pub use file::{NetFileError, NetFileInfo};
pub use float::{screlu, FloatNetwork, ShapeError, SCALE};
pub use network::{check_hidden, Network, NetworkError, HIDDEN_STEP, MAX_HIDDEN, QA, QB};
pub use simd::Simd;
