//! Hugging Face safetensors → GGUF with quantized matrices, under the same
//! tensor names, so one loader serves both. Used by the `quantize` binary
//! (to make q8_0 / q4_0 / k-quant models from published f32/f16 ones), by
//! the tests and by `make bench`.

use crate::error::{Error, Result};
use candle_core::quantized::{gguf_file, GgmlDType, QTensor};
use candle_core::{DType, Device, Tensor};

const TYPES: &str = "say f32, f16, q8_0, q4_0, q4_1, q5_0, q5_1 or q2k..q6k";

/// The quantized types offered, by the names llama.cpp and whisper.cpp use.
pub fn parse_dtype(name: &str) -> Result<GgmlDType> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "f32" => GgmlDType::F32,
        "f16" => GgmlDType::F16,
        "q8_0" => GgmlDType::Q8_0,
        "q4_0" => GgmlDType::Q4_0,
        "q4_1" => GgmlDType::Q4_1,
        "q5_0" => GgmlDType::Q5_0,
        "q5_1" => GgmlDType::Q5_1,
        "q2k" | "q2_k" => GgmlDType::Q2K,
        "q3k" | "q3_k" => GgmlDType::Q3K,
        "q4k" | "q4_k" => GgmlDType::Q4K,
        "q5k" | "q5_k" => GgmlDType::Q5K,
        "q6k" | "q6_k" => GgmlDType::Q6K,
        other => {
            return Err(Error::args(format!(
                "unknown weight type {other:?}: {TYPES}"
            )))
        }
    })
}

/// Whether a tensor is quantized: matrices only (weights of products and
/// the token embedding), and only when their rows split into whole blocks.
/// Biases, norms, convolution kernels and position tables stay f32, as
/// whisper.cpp keeps them.
fn quantizes(name: &str, shape: &[usize], dtype: GgmlDType) -> bool {
    shape.len() == 2
        && !name.contains("embed_positions")
        && shape[1].is_multiple_of(dtype.block_size())
}

/// Converts a `model.safetensors` to a GGUF file whose matrices are `dtype`.
pub fn safetensors_to_gguf(bytes: &[u8], dtype: GgmlDType) -> Result<Vec<u8>> {
    let tensors = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)
        .map_err(|e| Error::model(format!("model.safetensors is not valid: {e}")))?;
    tensors_to_gguf(&tensors, dtype)
}

/// Named tensors as a GGUF file whose matrices are `dtype`.
pub fn tensors_to_gguf(
    tensors: &std::collections::HashMap<String, Tensor>,
    dtype: GgmlDType,
) -> Result<Vec<u8>> {
    let mut names: Vec<&String> = tensors.keys().collect();
    names.sort();
    let quantized = names
        .iter()
        .map(|&name| {
            let tensor: &Tensor = &tensors[name];
            let tensor = tensor.to_dtype(DType::F32)?;
            let target = if quantizes(name, tensor.dims(), dtype) {
                dtype
            } else {
                GgmlDType::F32
            };
            QTensor::quantize(&tensor, target)
        })
        .collect::<candle_core::Result<Vec<_>>>()
        .map_err(|e| Error::model(format!("cannot quantize: {e}")))?;
    let pairs: Vec<(&str, &QTensor)> = names
        .iter()
        .map(|n| n.as_str())
        .zip(quantized.iter())
        .collect();
    let mut out = std::io::Cursor::new(Vec::new());
    gguf_file::write(&mut out, &[], &pairs)
        .map_err(|e| Error::model(format!("cannot write GGUF: {e}")))?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_block_matrices_are_quantized() {
        let q8 = GgmlDType::Q8_0;
        assert!(quantizes(
            "model.decoder.embed_tokens.weight",
            &[51865, 384],
            q8
        ));
        assert!(!quantizes(
            "model.decoder.embed_positions.weight",
            &[448, 384],
            q8
        ));
        assert!(!quantizes("model.encoder.conv1.weight", &[384, 80, 3], q8));
        assert!(!quantizes("model.decoder.layer_norm.bias", &[384], q8));
        // k-quants need rows of 256.
        assert!(!quantizes("x.weight", &[32, 32], GgmlDType::Q4K));
        assert!(quantizes("x.weight", &[512, 512], GgmlDType::Q4K));
    }

    #[test]
    fn names_parse_and_unknown_ones_are_refused() {
        assert_eq!(parse_dtype("Q8_0").unwrap(), GgmlDType::Q8_0);
        assert_eq!(parse_dtype("q4k").unwrap(), GgmlDType::Q4K);
        assert!(parse_dtype("q9").unwrap_err().message.contains("q8_0"));
    }
}
