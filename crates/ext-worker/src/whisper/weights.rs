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
