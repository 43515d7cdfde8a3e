//! The building blocks shared by encoder and decoder: linear layers, layer
//! norm, multi-head attention and the MLP with the exact (erf) GELU that
//! the original uses; Candle's whisper uses the tanh approximation.

use super::weights::Weights;
use crate::error::Result;
use candle_core::quantized::QMatMul;
use candle_core::{Module, Tensor};

pub struct Linear {
    weight: QMatMul,
    bias: Option<Tensor>,
}

impl Linear {
    pub fn load(w: &Weights, input: usize, output: usize, bias: bool) -> Result<Self> {
        Ok(Self {
            weight: w.matrix(output, input, "weight")?,
            bias: if bias {
                Some(w.tensor(output, "bias")?)
            } else {
                None
            },
        })
    }

    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let y = self.weight.forward(x)?;
        Ok(match &self.bias {
            Some(b) => y.broadcast_add(b)?,
            None => y,
        })
    }
}

pub struct LayerNorm(candle_nn::LayerNorm);

impl LayerNorm {
    pub fn load(w: &Weights, size: usize) -> Result<Self> {
        Ok(Self(candle_nn::LayerNorm::new(
            w.tensor(size, "weight")?,
            w.tensor(size, "bias")?,
            1e-5,
        )))
    }

    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        Ok(self.0.forward(x)?)
    }
}

/// Attention scores (elements) computed in one product; above this, head
/// by head.
const SCORES_AT_ONCE: usize = 1 << 20;

pub struct Attention {
    query: Linear,
    key: Linear,
    value: Linear,
    out: Linear,
    heads: usize,
}

impl Attention {
    pub fn load(w: &Weights, size: usize, heads: usize) -> Result<Self> {
        Self::load_with_keys_values(w, w, size, heads)
    }

    /// Cross-attention: its keys and values are projected once per
    /// utterance over every audio position (hundreds of rows), so their
    /// matrices are f32 even in a quantized model (see [`Weights::dense`]);
    /// queries and output, one row a step, stay as stored.
    pub fn load_cross(w: &Weights, size: usize, heads: usize) -> Result<Self> {
        Self::load_with_keys_values(w, &w.dense(), size, heads)
    }

    fn load_with_keys_values(w: &Weights, kv: &Weights, size: usize, heads: usize) -> Result<Self> {
        Ok(Self {
            query: Linear::load(&w.pp("q_proj"), size, size, true)?,
            key: Linear::load(&kv.pp("k_proj"), size, size, false)?,
            value: Linear::load(&kv.pp("v_proj"), size, size, true)?,
            out: Linear::load(&w.pp("out_proj"), size, size, true)?,
            heads,
        })
    }

    /// Keys and values of `x` (`[1, t, d]`), split into heads (`[1, h, t, dh]`).
    pub fn keys_values(&self, x: &Tensor) -> Result<(Tensor, Tensor)> {
        Ok((
            self.split_heads(&self.key.forward(x)?)?,
            self.split_heads(&self.value.forward(x)?)?,
        ))
    }

    /// Attention of the queries from `x` over `keys`/`values`, with an
    /// additive `mask` (`[t_q, t_k]`) where positions must not look ahead.
    pub fn attend(
        &self,
        x: &Tensor,
        keys: &Tensor,
        values: &Tensor,
        mask: Option<&Tensor>,
    ) -> Result<Tensor> {
        let (batch, time, size) = x.dims3()?;
        let head_size = size / self.heads;
        let query = (self.split_heads(&self.query.forward(x)?)? * (head_size as f64).powf(-0.5))?;
        let attend = |query: &Tensor, keys: &Tensor, values: &Tensor| -> Result<Tensor> {
            let mut scores = query.matmul(&keys.t()?)?;
            if let Some(mask) = mask {
                scores = scores.broadcast_add(mask)?;
            }
            Ok(candle_nn::ops::softmax_last_dim(&scores)?.matmul(values)?)
        };
        let scores = self.heads * time * keys.dim(2)?;
        let mixed = if scores > SCORES_AT_ONCE {
            // The 30-s encoder's scores are 1500 x 1500 per head (54 MB
            // for tiny's 6 heads, twice over through the softmax): one head
            // at a time keeps a worker's peak memory down, at no cost in
            // speed at that size.
            let heads = (0..self.heads)
                .map(|h| {
                    attend(
                        &query.narrow(1, h, 1)?,
                        &keys.narrow(1, h, 1)?,
                        &values.narrow(1, h, 1)?,
                    )
                })
                .collect::<Result<Vec<_>>>()?;
            Tensor::cat(&heads, 1)?
        } else {
            attend(&query, keys, values)?
        };
        let mixed = mixed.transpose(1, 2)?.reshape((batch, time, size))?;
        self.out.forward(&mixed)
    }

    fn split_heads(&self, x: &Tensor) -> Result<Tensor> {
        let (batch, time, size) = x.dims3()?;
        Ok(x.reshape((batch, time, self.heads, size / self.heads))?
            .transpose(1, 2)?
            .contiguous()?)
    }
}

pub struct Mlp {
    up: Linear,
    down: Linear,
}

impl Mlp {
    pub fn load(w: &Weights, size: usize) -> Result<Self> {
        Ok(Self {
            up: Linear::load(&w.pp("fc1"), size, 4 * size, true)?,
            down: Linear::load(&w.pp("fc2"), 4 * size, size, true)?,
        })
    }

    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        self.down.forward(&self.up.forward(x)?.gelu_erf()?)
    }
}

/// Whisper's sinusoidal position table (`[length, channels]`), used when
/// a file leaves the encoder's positions out.
pub fn sinusoids(length: usize, channels: usize) -> Result<Tensor> {
    let half = channels / 2;
    let increment = (10_000f64).ln() / (half as f64 - 1.0);
    let mut table = vec![0f32; length * channels];
    for t in 0..length {
        for i in 0..half {
            let angle = t as f64 * (-increment * i as f64).exp();
            table[t * channels + i] = angle.sin() as f32;
            table[t * channels + half + i] = angle.cos() as f32;
        }
    }
    Ok(Tensor::from_vec(
        table,
        (length, channels),
        &candle_core::Device::Cpu,
    )?)
}

/// Log-softmax of a row of logits, in f32 as the original computes it.
pub fn log_softmax(logits: &[f32]) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|&l| (l - max).exp()).sum();
    let log_sum = sum.ln() + max;
    logits.iter().map(|&l| l - log_sum).collect()
}

/// Index of the largest value, the first on ties (as torch's argmax).
pub fn argmax(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}
