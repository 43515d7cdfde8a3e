//! The audio encoder: two convolutions, positions, then self-attention
//! blocks, over however many mel frames it is given (3000 for 30 s, fewer
//! when `audio_ctx` trims the padding away).

use super::layers::{sinusoids, Attention, LayerNorm, Mlp};
use super::weights::Weights;
use crate::error::{Error, Result};
use candle_core::Tensor;
use candle_transformers::models::whisper::Config;

struct Block {
    attention: Attention,
    attention_norm: LayerNorm,
    mlp: Mlp,
    mlp_norm: LayerNorm,
}

impl Block {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let normed = self.attention_norm.forward(x)?;
        let (keys, values) = self.attention.keys_values(&normed)?;
        let x = (x + self.attention.attend(&normed, &keys, &values, None)?)?;
        Ok((&x + self.mlp.forward(&self.mlp_norm.forward(&x)?)?)?)
    }
}

struct Conv {
    kernel: Tensor,
    bias: Tensor,
    stride: usize,
}

impl Conv {
    fn load(w: &Weights, input: usize, output: usize, stride: usize) -> Result<Self> {
        Ok(Self {
            kernel: w.tensor((output, input, 3), "weight")?,
            bias: w.tensor(output, "bias")?.reshape((1, output, 1))?,
            stride,
        })
    }

    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        Ok(x.conv1d(&self.kernel, 1, self.stride, 1, 1)?
            .broadcast_add(&self.bias)?)
    }
}

pub struct Encoder {
    conv1: Conv,
    conv2: Conv,
    positions: Tensor,
    blocks: Vec<Block>,
    norm: LayerNorm,
}

impl Encoder {
    pub fn load(w: &Weights, config: &Config) -> Result<Self> {
        let (size, heads) = (config.d_model, config.encoder_attention_heads);
        let positions = if w.contains("embed_positions.weight") {
            w.tensor(
                (config.max_source_positions, size),
                "embed_positions.weight",
            )?
        } else {
            sinusoids(config.max_source_positions, size)?
        };
        let blocks = (0..config.encoder_layers)
            .map(|i| {
                let w = w.pp(format!("layers.{i}"));
                Ok(Block {
                    attention: Attention::load(&w.pp("self_attn"), size, heads)?,
                    attention_norm: LayerNorm::load(&w.pp("self_attn_layer_norm"), size)?,
                    mlp: Mlp::load(&w, size)?,
                    mlp_norm: LayerNorm::load(&w.pp("final_layer_norm"), size)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Self {
            conv1: Conv::load(&w.pp("conv1"), config.num_mel_bins, size, 1)?,
            conv2: Conv::load(&w.pp("conv2"), size, size, 2)?,
            positions,
            blocks,
            norm: LayerNorm::load(&w.pp("layer_norm"), size)?,
        })
    }

    /// Audio features `[1, frames / 2, d]` of a mel `[1, n_mels, frames]`.
    pub fn forward(&self, mel: &Tensor) -> Result<Tensor> {
        let x = self.conv1.forward(mel)?.gelu_erf()?;
        let x = self.conv2.forward(&x)?.gelu_erf()?.transpose(1, 2)?;
        let length = x.dim(1)?;
        if length > self.positions.dim(0)? {
            return Err(Error::args(format!(
                "{length} audio positions is more than the model's {}",
                self.positions.dim(0)?
            )));
        }
        let mut x = x.broadcast_add(&self.positions.narrow(0, 0, length)?)?;
        for block in &self.blocks {
            x = block.forward(&x)?;
        }
        self.norm.forward(&x)
    }
}
