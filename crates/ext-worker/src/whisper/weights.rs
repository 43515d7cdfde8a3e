//! Where the weights come from: Hugging Face safetensors (f32, f16, bf16)
//! or a GGUF file (q8_0, q4_0, k-quants, or plain floats), under the same
//! tensor names.

use crate::error::{Error, Result};
use candle_core::quantized::{QMatMul, QTensor};
use candle_core::{DType, Device, Shape, Tensor};
use candle_transformers::quantized_var_builder::VarBuilder as GgufBuilder;
use std::sync::Arc;

/// A tensor as read from a file.
#[derive(Clone)]
pub enum Stored {
    Dense(Tensor),
    Quantized(Arc<QTensor>),
}

#[derive(Clone)]
pub enum Weights {
    Safetensors(candle_nn::VarBuilder<'static>),
    Gguf(GgufBuilder),
    /// A GGUF file whose matrices are dequantized to f32 as they are read
    /// (see [`Weights::dense`]).
    DenseGguf(GgufBuilder),
}

impl Weights {
    /// Safetensors bytes; every tensor is converted to f32 as it is read.
    pub fn safetensors(bytes: Vec<u8>) -> Result<Self> {
        // Checked here so a corrupt file names itself instead of failing on
        // its first tensor.
        safetensors::SafeTensors::deserialize(&bytes)
            .map_err(|e| Error::model(format!("model.safetensors is not valid: {e}")))?;
        candle_nn::VarBuilder::from_buffered_safetensors(bytes, DType::F32, &Device::Cpu)
            .map(Self::Safetensors)
            .map_err(|e| Error::model(format!("model.safetensors is not valid: {e}")))
    }

    pub fn gguf(bytes: &[u8]) -> Result<Self> {
        // Candle divides by the declared alignment: 0 would trap, not fail.
        if gguf_alignment(bytes) == Some(0) {
            return Err(Error::model(
                "the GGUF file is not valid: its general.alignment is 0",
            ));
        }
        GgufBuilder::from_gguf_buffer(bytes, &Device::Cpu)
            .map(Self::Gguf)
            .map_err(|e| Error::model(format!("the GGUF file is not valid: {e}")))
    }

    pub fn pp(&self, prefix: impl ToString) -> Self {
        match self {
            Self::Safetensors(vb) => Self::Safetensors(vb.pp(prefix)),
            Self::Gguf(vb) => Self::Gguf(vb.pp(prefix)),
            Self::DenseGguf(vb) => Self::DenseGguf(vb.pp(prefix)),
        }
    }

    /// The same weights with every matrix in f32. For the encoder: its
    /// products have hundreds of rows, where f32 matrix multiplication (SIMD
    /// gemm) beats q8_0's row-by-row dot products (1.7x in wasm for tiny),
    /// while the decoder's one-row steps are faster quantized. Costs the
    /// encoder's matrices in f32 (28 MB for tiny, 76 MB for base).
    pub fn dense(&self) -> Self {
        match self {
            Self::Gguf(vb) | Self::DenseGguf(vb) => Self::DenseGguf(vb.clone()),
            other => other.clone(),
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        match self {
            Self::Safetensors(vb) => vb.contains_tensor(name),
            Self::Gguf(vb) | Self::DenseGguf(vb) => vb.contains_key(name),
        }
    }

    /// A tensor as f32 (quantized ones are dequantized).
    pub fn tensor(&self, shape: impl Into<Shape>, name: &str) -> Result<Tensor> {
        let shape = shape.into();
        match self {
            Self::Safetensors(vb) => vb.get(shape, name),
            Self::Gguf(vb) | Self::DenseGguf(vb) => {
                vb.get(shape, name).and_then(|q| q.dequantize(&Device::Cpu))
            }
        }
        .map_err(|e| Error::model(format!("weight {name}: {e}")))
    }

    /// A tensor as the file stores it: quantized from GGUF, f32 otherwise.
    pub fn stored(&self, shape: impl Into<Shape>, name: &str) -> Result<Stored> {
        match self {
            Self::Safetensors(_) | Self::DenseGguf(_) => {
                Ok(Stored::Dense(self.tensor(shape, name)?))
            }
            Self::Gguf(vb) => vb
                .get(shape, name)
                .map(Stored::Quantized)
                .map_err(|e| Error::model(format!("weight {name}: {e}"))),
        }
    }

    /// A `[rows, cols]` matrix for products, kept quantized when it is.
    pub fn matrix(&self, rows: usize, cols: usize, name: &str) -> Result<QMatMul> {
        match self {
            Self::Safetensors(_) | Self::DenseGguf(_) => {
                Ok(QMatMul::Tensor(self.tensor((rows, cols), name)?))
            }
            Self::Gguf(vb) => vb
                .get((rows, cols), name)
                .and_then(QMatMul::from_arc)
                .map_err(|e| Error::model(format!("weight {name}: {e}"))),
        }
    }
}

/// The `general.alignment` a GGUF file declares, if it declares one as an
/// unsigned or non-negative integer; `None` if it declares none or the
/// header is malformed (Candle then reports what is wrong). Reads only the
/// header's metadata, every length checked against the bytes there are.
pub fn gguf_alignment(bytes: &[u8]) -> Option<u64> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(4)? != b"GGUF" {
        return None;
    }
    let version = r.u32()?;
    let wide = version >= 2;
    let _tensors = if wide { r.u64()? } else { r.u32()? as u64 };
    let entries = if wide { r.u64()? } else { r.u32()? as u64 };
    for _ in 0..entries {
        let key_len = if wide { r.u64()? } else { r.u32()? as u64 };
        let key = r.take(key_len)?;
        let kind = r.u32()?;
        if key == b"general.alignment" {
            return match kind {
                0 => r.take(1).map(|b| b[0] as u64),
                2 => r.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]) as u64),
                4 => r.u32().map(u64::from),
                10 => r.u64(),
                // Signed: Candle uses them when not negative.
                1 => r.take(1).map(|b| (b[0] as i8).max(0) as u64),
                3 => r
                    .take(2)
                    .map(|b| i16::from_le_bytes([b[0], b[1]]).max(0) as u64),
                5 => r.u32().map(|v| (v as i32).max(0) as u64),
                _ => None,
            };
        }
        r.skip_value(kind, wide, 0)?;
    }
    None
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64) -> Option<&'a [u8]> {
        let end = self.at.checked_add(usize::try_from(n).ok()?)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Option<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Some(u64::from_le_bytes(a))
    }
    fn skip_value(&mut self, kind: u32, wide: bool, depth: u32) -> Option<()> {
        let fixed = match kind {
            0 | 1 | 7 => 1,
            2 | 3 => 2,
            4..=6 => 4,
            10..=12 => 8,
            8 => {
                let len = if wide {
                    self.u64()?
                } else {
                    self.u32()? as u64
                };
                self.take(len)?;
                return Some(());
            }
            9 if depth < 4 => {
                let inner = self.u32()?;
                let count = if wide {
                    self.u64()?
                } else {
                    self.u32()? as u64
                };
                for _ in 0..count {
                    self.skip_value(inner, wide, depth + 1)?;
                }
                return Some(());
            }
            _ => return None,
        };
        self.take(fixed).map(|_| ())
    }
}
