//! Whisper on candle-core / candle-nn, written to agree with openai-whisper
//! (erf GELU, the original's mel) and to be fast on one wasm thread (a
//! key/value cache, cross-attention computed once, logits only where they
//! are read, an optionally quantized output projection).

mod decoder;
mod encoder;
mod layers;
mod weights;

pub use candle_transformers::models::whisper::Config;
pub use decoder::DecoderState;
pub use layers::{argmax, log_softmax};
pub use weights::{gguf_alignment, Stored, Weights};

use crate::error::{Error, Result};
use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Tensor};

/// How the output projection (hidden state → 51,865 logits, the biggest
/// read of every step) is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Projection {
    /// With the weights as stored: exact, and what parity needs.
    Exact,
    /// Through a q8_0 copy of the embedding: a quarter of the f32 reads
    /// per token, at a small cost in logit precision.
    Quantized,
}

pub struct Whisper {
    pub config: Config,
    encoder: encoder::Encoder,
    decoder: decoder::Decoder,
    projection: QMatMul,
}

impl Whisper {
    pub fn load(weights: &Weights, config: Config, projection: Projection) -> Result<Self> {
        validate(&config)?;
        let encoder = encoder::Encoder::load(&weights.pp("model.encoder").dense(), &config)?;
        let decoder = decoder::Decoder::load(&weights.pp("model.decoder"), &config)?;
        // The output projection is the embedding table (tied weights).
        let projection = match (projection, decoder.embedding()) {
            // A quantized file's table is used as it is, either way.
            (_, Stored::Quantized(table)) => QMatMul::from_arc(table.clone())?,
            (Projection::Exact, Stored::Dense(table)) => QMatMul::Tensor(table.clone()),
            (Projection::Quantized, Stored::Dense(table)) => {
                let quantized = QTensor::quantize(table, GgmlDType::Q8_0)
                    .map_err(|e| Error::model(format!("cannot quantize the projection: {e}")))?;
                QMatMul::from_qtensor(quantized)?
            }
        };
        Ok(Self {
            config,
            encoder,
            decoder,
            projection,
        })
    }

    /// Audio features `[1, frames / 2, d]` of a mel `[n_mels, frames]`.
    pub fn encode(&self, mel: &[f32], frames: usize) -> Result<Tensor> {
        let mel = Tensor::from_slice(mel, (1, self.config.num_mel_bins, frames), &Device::Cpu)?;
        self.encoder.forward(&mel)
    }

    pub fn start(&self, audio_features: &Tensor) -> Result<DecoderState> {
        self.decoder.start(audio_features)
    }

    /// Cross-attention keys and values of audio features, per decoder
    /// block (kept for the silence tail: see [`Whisper::start_with_tail`]).
    pub fn cross_keys_values(&self, audio_features: &Tensor) -> Result<Vec<(Tensor, Tensor)>> {
        self.decoder.cross_keys_values(audio_features)
    }

    /// Starts decoding short features followed by a tail of another
    /// encoding's keys and values (the silence of a 30-s window).
    pub fn start_with_tail(
        &self,
        audio_features: &Tensor,
        tail: &[(Tensor, Tensor)],
    ) -> Result<DecoderState> {
        self.decoder.start_with_tail(audio_features, tail)
    }

    /// Hidden states `[n, d]` of `tokens` fed after the state's.
    pub fn feed(&self, state: &mut DecoderState, tokens: &[u32]) -> Result<Tensor> {
        self.decoder.forward(state, tokens)
    }

    /// One step of a beam (see [`decoder::Decoder::forward_beam`]): each
    /// row's hidden state `[k, d]` after its token.
    pub fn feed_beam(&self, state: &mut DecoderState, tokens: &[u32]) -> Result<Tensor> {
        self.decoder.forward_beam(state, tokens)
    }

    /// The logits of one position's hidden state (`[d]`).
    pub fn logits(&self, hidden: &Tensor) -> Result<Vec<f32>> {
        Ok(self
            .projection
            .forward(&hidden.unsqueeze(0)?)?
            .squeeze(0)?
            .to_vec1()?)
    }

    /// The logits of several positions' hidden states (`[k, d]`), a row
    /// each: one read of the projection's weights serves them all, where
    /// [`Whisper::logits`] row by row would read them `k` times.
    pub fn logits_rows(&self, hidden: &Tensor) -> Result<Vec<Vec<f32>>> {
        Ok(self.projection.forward(hidden)?.to_vec2()?)
    }

    pub fn max_tokens(&self) -> usize {
        self.config.max_target_positions
    }
}

/// Whether a config describes a Whisper this engine can build.
pub fn validate(config: &Config) -> Result<()> {
    let heads_divide = |heads: usize| heads > 0 && config.d_model.is_multiple_of(heads);
    if config.d_model == 0
        || !heads_divide(config.encoder_attention_heads)
        || !heads_divide(config.decoder_attention_heads)
    {
        return Err(Error::model(format!(
            "config.json: d_model {} does not split into {} / {} heads",
            config.d_model, config.encoder_attention_heads, config.decoder_attention_heads
        )));
    }
    if config.num_mel_bins == 0 || config.max_source_positions == 0 {
        return Err(Error::model("config.json: no mel bins or audio positions"));
    }
    // Checked before anything is allocated from them: a hostile config
    // must be an error, not an allocation that aborts the worker. The
    // bounds are well above every Whisper (large-v3: 128 mel bins,
    // d_model 1280, 32 layers, 20 heads, 51866 tokens).
    let bounds = [
        ("num_mel_bins", config.num_mel_bins, 256),
        ("d_model", config.d_model, 4096),
        ("encoder_layers", config.encoder_layers, 64),
        ("decoder_layers", config.decoder_layers, 64),
        (
            "encoder_attention_heads",
            config.encoder_attention_heads,
            64,
        ),
        (
            "decoder_attention_heads",
            config.decoder_attention_heads,
            64,
        ),
        ("max_source_positions", config.max_source_positions, 1500),
        ("max_target_positions", config.max_target_positions, 4096),
        ("vocab_size", config.vocab_size, 200_000),
    ];
    for (name, value, most) in bounds {
        if value > most {
            return Err(Error::model(format!(
                "config.json: {name} {value} is beyond any Whisper model (at most {most})"
            )));
        }
    }
    Ok(())
}
