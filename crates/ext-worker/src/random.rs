//! Full-size Whisper models with seeded random weights, made in memory:
//! what `make bench` measures (the real weights cannot be downloaded here,
//! and speed depends on shapes, not values). Same tensor names and config
//! fields as the hub's models, so every loader takes them as they are.

use crate::error::{Error, Result};
use candle_core::{Device, Tensor};
use serde_json::json;

/// The shapes of one Whisper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dims {
    pub name: &'static str,
    pub d_model: usize,
    pub encoder_layers: usize,
    pub decoder_layers: usize,
    pub heads: usize,
    pub vocab: usize,
}

impl Dims {
    /// whisper-tiny (39 M parameters).
    pub const TINY: Dims = Dims {
        name: "tiny",
        d_model: 384,
        encoder_layers: 4,
        decoder_layers: 4,
        heads: 6,
        vocab: 51_865,
    };

    /// whisper-base (74 M parameters).
    pub const BASE: Dims = Dims {
        name: "base",
        d_model: 512,
        encoder_layers: 6,
        decoder_layers: 6,
        heads: 8,
        vocab: 51_865,
    };

    pub fn by_name(name: &str) -> Result<Dims> {
        match name {
            "tiny" => Ok(Self::TINY),
            "base" => Ok(Self::BASE),
            other => Err(Error::args(format!(
                "unknown model size {other:?}: say tiny or base"
            ))),
        }
    }

    /// `config.json` as the hub publishes it (the fields Candle reads).
    pub fn config_json(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(&json!({
            "model_type": "whisper",
            "num_mel_bins": 80,
            "max_source_positions": 1500,
            "max_target_positions": 448,
            "d_model": self.d_model,
            "encoder_attention_heads": self.heads,
            "decoder_attention_heads": self.heads,
            "encoder_layers": self.encoder_layers,
            "decoder_layers": self.decoder_layers,
            "encoder_ffn_dim": 4 * self.d_model,
            "decoder_ffn_dim": 4 * self.d_model,
            "vocab_size": self.vocab,
            "suppress_tokens": [],
        }))
        .expect("a config serializes")
    }

    /// Every tensor's name and shape, in the hub's naming.
    pub fn tensors(&self) -> Vec<(String, Vec<usize>)> {
        let d = self.d_model;
        let mut out = vec![
            ("model.encoder.conv1.weight".into(), vec![d, 80, 3]),
            ("model.encoder.conv1.bias".into(), vec![d]),
            ("model.encoder.conv2.weight".into(), vec![d, d, 3]),
            ("model.encoder.conv2.bias".into(), vec![d]),
            ("model.encoder.embed_positions.weight".into(), vec![1500, d]),
            ("model.encoder.layer_norm.weight".into(), vec![d]),
            ("model.encoder.layer_norm.bias".into(), vec![d]),
            (
                "model.decoder.embed_tokens.weight".into(),
                vec![self.vocab, d],
            ),
            ("model.decoder.embed_positions.weight".into(), vec![448, d]),
            ("model.decoder.layer_norm.weight".into(), vec![d]),
            ("model.decoder.layer_norm.bias".into(), vec![d]),
        ];
        let attention = |out: &mut Vec<(String, Vec<usize>)>, prefix: &str| {
            for p in ["q_proj", "k_proj", "v_proj", "out_proj"] {
                out.push((format!("{prefix}.{p}.weight"), vec![d, d]));
                if p != "k_proj" {
                    out.push((format!("{prefix}.{p}.bias"), vec![d]));
                }
            }
        };
        let norm = |out: &mut Vec<(String, Vec<usize>)>, prefix: &str| {
            out.push((format!("{prefix}.weight"), vec![d]));
            out.push((format!("{prefix}.bias"), vec![d]));
        };
        let mlp = |out: &mut Vec<(String, Vec<usize>)>, prefix: &str| {
            out.push((format!("{prefix}.fc1.weight"), vec![4 * d, d]));
            out.push((format!("{prefix}.fc1.bias"), vec![4 * d]));
            out.push((format!("{prefix}.fc2.weight"), vec![d, 4 * d]));
            out.push((format!("{prefix}.fc2.bias"), vec![d]));
        };
        for i in 0..self.encoder_layers {
            let l = format!("model.encoder.layers.{i}");
            attention(&mut out, &format!("{l}.self_attn"));
            norm(&mut out, &format!("{l}.self_attn_layer_norm"));
            mlp(&mut out, &l);
            norm(&mut out, &format!("{l}.final_layer_norm"));
        }
        for i in 0..self.decoder_layers {
            let l = format!("model.decoder.layers.{i}");
            attention(&mut out, &format!("{l}.self_attn"));
            norm(&mut out, &format!("{l}.self_attn_layer_norm"));
            attention(&mut out, &format!("{l}.encoder_attn"));
            norm(&mut out, &format!("{l}.encoder_attn_layer_norm"));
            mlp(&mut out, &l);
            norm(&mut out, &format!("{l}.final_layer_norm"));
        }
        out
    }

    pub fn parameters(&self) -> usize {
        self.tensors()
            .iter()
            .map(|(_, s)| s.iter().product::<usize>())
            .sum()
    }

    /// `model.safetensors` (f32) with weights drawn from a seeded generator:
    /// uniform with the standard deviation of a fan-in init, norms near 1.
    pub fn safetensors(&self, seed: u64) -> Result<Vec<u8>> {
        let mut rng = SplitMix64(seed);
        let tensors = self
            .tensors()
            .into_iter()
            .map(|(name, shape)| {
                let count: usize = shape.iter().product();
                let fan_in = if shape.len() > 1 {
                    shape[1..].iter().product()
                } else {
                    1
                };
                let (center, spread) = if name.ends_with("layer_norm.weight") {
                    (1.0, 0.1)
                } else if shape.len() == 1 {
                    (0.0, 0.1)
                } else {
                    (0.0, (fan_in as f32).powf(-0.5))
                };
                // Uniform on [-√3σ, √3σ] has standard deviation σ.
                let half_width = spread * 3f32.sqrt();
                let values: Vec<f32> = (0..count)
                    .map(|_| center + half_width * (2.0 * rng.unit() - 1.0))
                    .collect();
                Tensor::from_vec(values, shape, &Device::Cpu).map(|t| (name, t))
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        safetensors::serialize(tensors.iter().map(|(n, t)| (n.as_str(), t)), None)
            .map_err(|e| Error::model(format!("cannot write safetensors: {e}")))
    }
}

/// Voiced, speech-like test audio at 16 kHz: four harmonics of a pitch
/// that wobbles around 180 Hz, `seconds` long (what the benchmarks feed).
pub fn voiced(seconds: f32) -> Vec<f32> {
    (0..(seconds * 16_000.0) as usize)
        .map(|i| {
            let t = i as f32 / 16_000.0;
            let pitch = 180.0 + 40.0 * (2.0 * std::f32::consts::PI * 3.0 * t).sin();
            (1..5)
                .map(|h| (2.0 * std::f32::consts::PI * pitch * h as f32 * t).sin() / h as f32)
                .sum::<f32>()
                * 0.1
        })
        .collect()
}

/// A tiny, fast, seedable generator (Steele et al.'s SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_have_the_published_parameter_counts() {
        // whisper-tiny 37.8 M and whisper-base 72.6 M (tied output, with
        // both position tables) as the hub's safetensors hold them.
        let millions = |d: Dims| d.parameters() as f64 / 1e6;
        assert!(
            (millions(Dims::TINY) - 37.8).abs() < 0.1,
            "{}",
            millions(Dims::TINY)
        );
        assert!(
            (millions(Dims::BASE) - 72.6).abs() < 0.1,
            "{}",
            millions(Dims::BASE)
        );
    }

    #[test]
    fn same_seed_same_bytes_other_seed_other_bytes() {
        let small = Dims {
            name: "small-test",
            d_model: 8,
            encoder_layers: 1,
            decoder_layers: 1,
            heads: 2,
            vocab: 16,
        };
        let a = small.safetensors(7).unwrap();
        assert_eq!(a, small.safetensors(7).unwrap());
        assert_ne!(a, small.safetensors(8).unwrap());
        let loaded = safetensors::SafeTensors::deserialize(&a).unwrap();
        assert_eq!(loaded.len(), small.tensors().len());
        let config: crate::whisper::Config = serde_json::from_slice(&small.config_json()).unwrap();
        assert_eq!(config.d_model, 8);
    }
}
