//! The text decoder, with a key/value cache: each step feeds only the new
//! tokens, and the cross-attention keys and values of the audio are
//! computed once per utterance. (Candle's whisper re-feeds the whole prefix
//! every step.)

use super::layers::{Attention, LayerNorm, Mlp};
use super::weights::{Stored, Weights};
use crate::error::{Error, Result};
use candle_core::{Device, Tensor};
use candle_transformers::models::whisper::Config;

struct Block {
    self_attention: Attention,
    self_norm: LayerNorm,
    cross_attention: Attention,
    cross_norm: LayerNorm,
    mlp: Mlp,
    mlp_norm: LayerNorm,
}

/// What one utterance's decoding keeps between steps. Cloning it is
/// cheap (tensors are shared) and lets decoding branch.
#[derive(Clone)]
pub struct DecoderState {
    /// Per block: the audio's keys and values for cross-attention.
    cross: Vec<(Tensor, Tensor)>,
    /// Per block: keys and values of every token fed so far.
    cache: Vec<Option<(Tensor, Tensor)>>,
    /// Tokens fed so far.
    pub length: usize,
}

pub struct Decoder {
    /// Quantized when the file is: rows are dequantized as they are looked
    /// up, so a q8_0 model never holds the 51,865-row table in f32 (80 MB
    /// for tiny, 106 MB for base).
    embedding: Stored,
    positions: Tensor,
    blocks: Vec<Block>,
    norm: LayerNorm,
}

impl Decoder {
    pub fn load(w: &Weights, config: &Config) -> Result<Self> {
        let (size, heads) = (config.d_model, config.decoder_attention_heads);
        let blocks = (0..config.decoder_layers)
            .map(|i| {
                let w = w.pp(format!("layers.{i}"));
                Ok(Block {
                    self_attention: Attention::load(&w.pp("self_attn"), size, heads)?,
                    self_norm: LayerNorm::load(&w.pp("self_attn_layer_norm"), size)?,
                    cross_attention: Attention::load_cross(&w.pp("encoder_attn"), size, heads)?,
                    cross_norm: LayerNorm::load(&w.pp("encoder_attn_layer_norm"), size)?,
                    mlp: Mlp::load(&w, size)?,
                    mlp_norm: LayerNorm::load(&w.pp("final_layer_norm"), size)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            embedding: w.stored((config.vocab_size, size), "embed_tokens.weight")?,
            positions: w.tensor(
                (config.max_target_positions, size),
                "embed_positions.weight",
            )?,
            blocks,
            norm: LayerNorm::load(&w.pp("layer_norm"), size)?,
        })
    }

    /// The token embedding table `[vocab, d]`, which is also the output
    /// projection.
    pub fn embedding(&self) -> &Stored {
        &self.embedding
    }

    pub fn max_length(&self) -> Result<usize> {
        Ok(self.positions.dim(0)?)
    }

    /// Starts an utterance: the cross-attention keys and values of its audio
    /// features (`[1, t, d]`).
    pub fn start(&self, audio: &Tensor) -> Result<DecoderState> {
        Ok(DecoderState {
            cross: self.cross_keys_values(audio)?,
            cache: vec![None; self.blocks.len()],
            length: 0,
        })
    }

    /// Per block, the cross-attention keys and values (`[1, h, t, dh]`) of
    /// audio features `[1, t, d]`.
    pub fn cross_keys_values(&self, audio: &Tensor) -> Result<Vec<(Tensor, Tensor)>> {
        self.blocks
            .iter()
            .map(|b| b.cross_attention.keys_values(audio))
            .collect()
    }

    /// [`Decoder::start`] over the features of a short window followed by
    /// `tail`'s positions from there on (keys and values of the encoded
    /// 30-s window of silence): the decoder attends to the whole 30 s it
    /// was trained on, while only the audio's own seconds were encoded.
    pub fn start_with_tail(
        &self,
        audio: &Tensor,
        tail: &[(Tensor, Tensor)],
    ) -> Result<DecoderState> {
        let own = self.cross_keys_values(audio)?;
        let from = audio.dim(1)?;
        let cross = own
            .into_iter()
            .zip(tail)
            .map(|((k, v), (tk, tv))| {
                let rest = tk.dim(2)?.saturating_sub(from);
                if rest == 0 {
                    return Ok((k, v));
                }
                Ok((
                    Tensor::cat(&[&k, &tk.narrow(2, from, rest)?], 2)?,
                    Tensor::cat(&[&v, &tv.narrow(2, from, rest)?], 2)?,
                ))
            })
            .collect::<Result<_>>()?;
        Ok(DecoderState {
            cross,
            cache: vec![None; self.blocks.len()],
            length: 0,
        })
    }

    /// Feeds `tokens` after those already fed; answers their final hidden
    /// states `[n, d]`.
    pub fn forward(&self, state: &mut DecoderState, tokens: &[u32]) -> Result<Tensor> {
        let (offset, count) = (state.length, tokens.len());
        if offset + count > self.max_length()? {
            return Err(Error::args(format!(
                "{} tokens is more than the model's {}",
                offset + count,
                self.max_length()?
            )));
        }
        let ids = Tensor::new(tokens, &Device::Cpu)?;
        let embedded = match &self.embedding {
            Stored::Dense(table) => table.index_select(&ids, 0)?,
            Stored::Quantized(table) => table.embedding(&ids)?,
        };
        let mut x = embedded
            .add(&self.positions.narrow(0, offset, count)?)?
            .unsqueeze(0)?;
        let mask = causal_mask(offset, count)?;
        for ((block, cache), (cross_keys, cross_values)) in self
            .blocks
            .iter()
            .zip(state.cache.iter_mut())
            .zip(&state.cross)
        {
            let normed = block.self_norm.forward(&x)?;
            let (keys, values) = block.self_attention.keys_values(&normed)?;
            let (keys, values) = match cache.take() {
                Some((k, v)) => (
                    Tensor::cat(&[&k, &keys], 2)?,
                    Tensor::cat(&[&v, &values], 2)?,
                ),
                None => (keys, values),
            };
            x = (&x
                + block
                    .self_attention
                    .attend(&normed, &keys, &values, mask.as_ref())?)?;
            *cache = Some((keys, values));
            let normed = block.cross_norm.forward(&x)?;
            x = (&x
                + block
                    .cross_attention
                    .attend(&normed, cross_keys, cross_values, None)?)?;
            x = (&x + block.mlp.forward(&block.mlp_norm.forward(&x)?)?)?;
        }
        state.length += count;
        self.norm.forward(&x.squeeze(0)?)
    }
}

impl DecoderState {
    /// The state of a beam whose rows continue these rows of this one
    /// (a row may go on in several, or in none): the audio stays shared,
    /// each row's tokens are its parent's.
    pub fn rows(&self, parents: &[u32]) -> Result<DecoderState> {
        let parents = Tensor::new(parents, &Device::Cpu)?;
        let cache = self
            .cache
            .iter()
            .map(|c| {
                c.as_ref()
                    .map(|(k, v)| Ok((k.index_select(&parents, 0)?, v.index_select(&parents, 0)?)))
                    .transpose()
            })
            .collect::<Result<_>>()?;
        Ok(DecoderState {
            cross: self.cross.clone(),
            cache,
            length: self.length,
        })
    }
}

impl Decoder {
    /// One step of a beam: `tokens[i]` fed after row `i`'s tokens (see
    /// [`DecoderState::rows`]); answers each row's hidden state `[k, d]`.
    /// The rows go through every layer together: one pass over the
    /// weights for the whole beam, where feeding them one by one would
    /// read them `k` times. Attention to the audio, the same for every
    /// row, takes the rows as `k` positions of one sequence.
    pub fn forward_beam(&self, state: &mut DecoderState, tokens: &[u32]) -> Result<Tensor> {
        let (offset, rows) = (state.length, tokens.len());
        if offset + 1 > self.max_length()? {
            return Err(Error::args(format!(
                "{} tokens is more than the model's {}",
                offset + 1,
                self.max_length()?
            )));
        }
        let ids = Tensor::new(tokens, &Device::Cpu)?;
        let embedded = match &self.embedding {
            Stored::Dense(table) => table.index_select(&ids, 0)?,
            Stored::Quantized(table) => table.embedding(&ids)?,
        };
        let size = embedded.dim(1)?;
        let mut x = embedded
            .broadcast_add(&self.positions.narrow(0, offset, 1)?)?
            .reshape((rows, 1, size))?;
        for ((block, cache), (cross_keys, cross_values)) in self
            .blocks
            .iter()
            .zip(state.cache.iter_mut())
            .zip(&state.cross)
        {
            let normed = block.self_norm.forward(&x)?;
            let (keys, values) = block.self_attention.keys_values(&normed)?;
            let (keys, values) = match cache.take() {
                Some((k, v)) => (
                    Tensor::cat(&[&k, &keys], 2)?,
                    Tensor::cat(&[&v, &values], 2)?,
                ),
                None => (keys, values),
            };
            x = (&x + block.self_attention.attend(&normed, &keys, &values, None)?)?;
            *cache = Some((keys, values));
            let normed = block.cross_norm.forward(&x)?.reshape((1, rows, size))?;
            let heard = block
                .cross_attention
                .attend(&normed, cross_keys, cross_values, None)?;
            x = (&x + heard.reshape((rows, 1, size))?)?;
            x = (&x + block.mlp.forward(&block.mlp_norm.forward(&x)?)?)?;
        }
        state.length += 1;
        self.norm.forward(&x.reshape((rows, size))?)
    }
}

/// Masks the future for `count` new tokens after `offset` cached ones; one
/// new token sees everything, so needs none.
fn causal_mask(offset: usize, count: usize) -> Result<Option<Tensor>> {
    if count <= 1 {
        return Ok(None);
    }
    let total = offset + count;
    let mask: Vec<f32> = (0..count)
        .flat_map(|i| {
            (0..total).map(move |j| {
                if j > offset + i {
                    f32::NEG_INFINITY
                } else {
                    0.0
                }
            })
        })
        .collect();
    Ok(Some(Tensor::from_vec(mask, (count, total), &Device::Cpu)?))
}
