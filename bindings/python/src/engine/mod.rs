//! `xiangqi.engine`, the one engine API (python-chess's `chess.engine`
//! shape) for external engines and the built-in search alike; the
//! python-chess-like `SimpleEngine` over it is pure Python
//! (`python/xiangqi/engine.py`). One module per job: [`score`] the score
//! types, [`info`] what a search reports, [`limit`] reading its arguments,
//! [`wait`] waiting with the GIL released, [`client`] the engine handle,
//! [`review`] game reviews (`annotate`), [`analysis`] a search whose
//! lines stream in while it runs (`engine.analysis`). The logic (protocols, our search behind the
//! same interface, reviews) is `xiangqi-engine-client`'s.

mod analysis;
mod client;
mod info;
mod limit;
mod review;
mod score;
mod wait;

pub use analysis::PyAnalysis;
pub use client::PyEngineClient;
pub use info::{PyEngineInfo, PyEngineResult};
pub use limit::check_limit;
pub use review::{annotate, PyMoveReview};
pub use score::{PyPovScore, PyScore};
