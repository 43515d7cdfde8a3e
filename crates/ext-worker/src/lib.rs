//! The speech worker: audio front end and Whisper on Candle. Pure logic
//! here builds and tests natively; `web` binds it to a dedicated Worker.
//! [`pipeline::Pipeline`] is its one front door: the worker's message loop,
//! the wasm test class and the native tests all go through it.

pub mod audio;
pub mod bench;
pub mod clock;
pub mod convert;
pub mod ctranslate2;
pub mod decode;
pub mod engine;
pub mod error;
pub mod guided;
pub mod listener;
pub mod loudness;
pub mod mel;
pub mod models;
pub mod pipeline;
pub mod random;
pub mod session;
pub mod tokenizer;
pub mod vad;
pub mod whisper;

pub use engine::{
    AudioCtx, Decoding, DecodingFlags, Engine, ModelFiles, TranscribeOptions, Transcript,
    WeightFile,
};
pub use error::{Error, ErrorCode};
pub use whisper::Projection;
mod service;
#[cfg(target_arch = "wasm32")]
pub mod web;
