//! faster-whisper (CTranslate2) models: a `model.bin` written here from the
//! committed random tiny.en (q, k and v fused as CTranslate2 fuses them,
//! the projection an alias of the embedding) converts back to exactly the
//! model it came from; corrupt, truncated and non-Whisper files are clear
//! errors; and a faster-whisper `tokenizer.json` (no timestamp tokens, a
//! lost first merge) loads. Real weights are tested in the root crate's
//! `speech` tests.

use candle_core::{DType, Device, Tensor};
use ext_worker::ctranslate2::{self, Ct2Model};
use ext_worker::tokenizer::WhisperTokenizer;
use ext_worker::{audio, Engine, ErrorCode, ModelFiles, Projection, TranscribeOptions, WeightFile};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

fn reference() -> ModelFiles {
    ModelFiles::from_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/models/tiny-random.en"),
    )
    .unwrap()
}

fn tensors(files: &ModelFiles) -> HashMap<String, Tensor> {
    let WeightFile::Safetensors(bytes) = &files.weights else {
        unreachable!("the reference model is safetensors")
    };
    candle_core::safetensors::load_buffer(bytes, &Device::Cpu).unwrap()
}

fn speech() -> Vec<f32> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/audio/speech.wav"
    );
    audio::to_16k(&audio::read_wav(&std::fs::read(path).unwrap()).unwrap()).unwrap()
}

/// A `model.bin` writer, the inverse of the converter: CTranslate2's names,
/// fused attention projections, settings as rank-0 variables.
struct Writer {
    variables: Vec<(String, Vec<usize>, u8, Vec<u8>)>,
    half: bool,
}

impl Writer {
    fn tensor(&mut self, name: &str, t: &Tensor) {
        let values: Vec<f32> = t.flatten_all().unwrap().to_vec1().unwrap();
        let (code, bytes) = if self.half {
            let b = values
                .iter()
                .flat_map(|v| half::f16::from_f32(*v).to_le_bytes())
                .collect();
            (4, b)
        } else {
            (0, values.iter().flat_map(|v| v.to_le_bytes()).collect())
        };
        self.variables
            .push((name.into(), t.dims().to_vec(), code, bytes));
    }

    fn scalar(&mut self, name: &str, value: i16) {
        self.variables
            .push((name.into(), vec![], 2, value.to_le_bytes().to_vec()));
    }

    fn bytes(mut self) -> Vec<u8> {
        self.variables.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out = Vec::new();
        let string = |out: &mut Vec<u8>, s: &str| {
            out.extend(((s.len() + 1) as u16).to_le_bytes());
            out.extend(s.as_bytes());
            out.push(0);
        };
        out.extend(6u32.to_le_bytes());
        string(&mut out, "WhisperSpec");
        out.extend(3u32.to_le_bytes());
        out.extend((self.variables.len() as u32).to_le_bytes());
        for (name, shape, code, data) in &self.variables {
            string(&mut out, name);
            out.push(shape.len() as u8);
            for d in shape {
                out.extend((*d as u32).to_le_bytes());
            }
            out.push(*code);
            out.extend((data.len() as u32).to_le_bytes());
            out.extend(data);
        }
        out.extend(1u32.to_le_bytes());
        string(&mut out, "decoder/projection/weight");
        string(&mut out, "decoder/embeddings/weight");
        out
    }
}

fn model_bin(half: bool) -> Vec<u8> {
    let files = reference();
    let config: Value = serde_json::from_slice(&files.config).unwrap();
    let t = tensors(&files);
    let get = |n: &str| t[n].to_dtype(DType::F32).unwrap();
    let d = config["d_model"].as_u64().unwrap() as usize;
    let mut w = Writer {
        variables: vec![],
        half,
    };
    w.scalar(
        "encoder/num_heads",
        config["encoder_attention_heads"].as_i64().unwrap() as i16,
    );
    w.scalar(
        "decoder/num_heads",
        config["decoder_attention_heads"].as_i64().unwrap() as i16,
    );
    w.tensor("encoder/conv1/weight", &get("model.encoder.conv1.weight"));
    w.tensor("encoder/conv1/bias", &get("model.encoder.conv1.bias"));
    w.tensor("encoder/conv2/weight", &get("model.encoder.conv2.weight"));
    w.tensor("encoder/conv2/bias", &get("model.encoder.conv2.bias"));
    w.tensor(
        "encoder/position_encodings/encodings",
        &get("model.encoder.embed_positions.weight"),
    );
    w.tensor(
        "decoder/embeddings/weight",
        &get("model.decoder.embed_tokens.weight"),
    );
    w.tensor(
        "decoder/position_encodings/encodings",
        &get("model.decoder.embed_positions.weight"),
    );
    for side in ["encoder", "decoder"] {
        w.tensor(
            &format!("{side}/layer_norm/gamma"),
            &get(&format!("model.{side}.layer_norm.weight")),
        );
        w.tensor(
            &format!("{side}/layer_norm/beta"),
            &get(&format!("model.{side}.layer_norm.bias")),
        );
        let layers = config[format!("{side}_layers")].as_u64().unwrap();
        for i in 0..layers {
            let hf = |n: &str| get(&format!("model.{side}.layers.{i}.{n}"));
            let ct2 = |n: &str| format!("{side}/layer_{i}/{n}");
            let zeros = Tensor::zeros(d, DType::F32, &Device::Cpu).unwrap();
            let fused = Tensor::cat(
                &[
                    hf("self_attn.q_proj.weight"),
                    hf("self_attn.k_proj.weight"),
                    hf("self_attn.v_proj.weight"),
                ],
                0,
            )
            .unwrap();
            let fused_bias = Tensor::cat(
                &[
                    hf("self_attn.q_proj.bias"),
                    zeros.clone(),
                    hf("self_attn.v_proj.bias"),
                ],
                0,
            )
            .unwrap();
            w.tensor(&ct2("self_attention/linear_0/weight"), &fused);
            w.tensor(&ct2("self_attention/linear_0/bias"), &fused_bias);
            w.tensor(
                &ct2("self_attention/linear_1/weight"),
                &hf("self_attn.out_proj.weight"),
            );
            w.tensor(
                &ct2("self_attention/linear_1/bias"),
                &hf("self_attn.out_proj.bias"),
            );
            w.tensor(
                &ct2("self_attention/layer_norm/gamma"),
                &hf("self_attn_layer_norm.weight"),
            );
            w.tensor(
                &ct2("self_attention/layer_norm/beta"),
                &hf("self_attn_layer_norm.bias"),
            );
            if side == "decoder" {
                w.tensor(
                    &ct2("attention/linear_0/weight"),
                    &hf("encoder_attn.q_proj.weight"),
                );
                w.tensor(
                    &ct2("attention/linear_0/bias"),
                    &hf("encoder_attn.q_proj.bias"),
                );
                let kv = Tensor::cat(
                    &[
                        hf("encoder_attn.k_proj.weight"),
                        hf("encoder_attn.v_proj.weight"),
                    ],
                    0,
                )
                .unwrap();
                let kv_bias =
                    Tensor::cat(&[zeros.clone(), hf("encoder_attn.v_proj.bias")], 0).unwrap();
                w.tensor(&ct2("attention/linear_1/weight"), &kv);
                w.tensor(&ct2("attention/linear_1/bias"), &kv_bias);
                w.tensor(
                    &ct2("attention/linear_2/weight"),
                    &hf("encoder_attn.out_proj.weight"),
                );
                w.tensor(
                    &ct2("attention/linear_2/bias"),
                    &hf("encoder_attn.out_proj.bias"),
                );
                w.tensor(
                    &ct2("attention/layer_norm/gamma"),
                    &hf("encoder_attn_layer_norm.weight"),
                );
                w.tensor(
                    &ct2("attention/layer_norm/beta"),
                    &hf("encoder_attn_layer_norm.bias"),
                );
            }
            w.tensor(&ct2("ffn/linear_0/weight"), &hf("fc1.weight"));
            w.tensor(&ct2("ffn/linear_0/bias"), &hf("fc1.bias"));
            w.tensor(&ct2("ffn/linear_1/weight"), &hf("fc2.weight"));
            w.tensor(&ct2("ffn/linear_1/bias"), &hf("fc2.bias"));
            w.tensor(&ct2("ffn/layer_norm/gamma"), &hf("final_layer_norm.weight"));
            w.tensor(&ct2("ffn/layer_norm/beta"), &hf("final_layer_norm.bias"));
        }
    }
    w.bytes()
}

/// The tokenizer as faster-whisper ships it: no timestamp tokens.
fn faster_whisper_tokenizer() -> Vec<u8> {
    let mut json: Value = serde_json::from_slice(&reference().tokenizer).unwrap();
    json["added_tokens"]
        .as_array_mut()
        .unwrap()
        .retain(|t| !t["content"].as_str().unwrap().contains('.'));
    serde_json::to_vec(&json).unwrap()
}

fn transcribe(files: ModelFiles) -> Vec<u32> {
    let engine = Engine::load_owned(files, Projection::Exact).unwrap();
    let options = TranscribeOptions {
        max_tokens: Some(12),
        ..TranscribeOptions::default()
    };
    engine.transcribe(&speech(), &options).unwrap().tokens
}

#[test]
fn a_model_bin_converts_back_to_exactly_the_model_it_came_from() {
    let bin = model_bin(false);
    assert!(ctranslate2::is_model_bin(&bin));
    let converted = ctranslate2::convert(&bin, faster_whisper_tokenizer(), None).unwrap();
    // Every tensor, bit for bit.
    let original = tensors(&reference());
    let back = tensors(&converted);
    let mut names: Vec<&String> = original.keys().collect();
    names.sort();
    let mut back_names: Vec<&String> = back.keys().collect();
    back_names.sort();
    assert_eq!(names, back_names);
    for name in names {
        let a: Vec<f32> = original[name]
            .to_dtype(DType::F32)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        let b: Vec<f32> = back[name].flatten_all().unwrap().to_vec1().unwrap();
        assert_eq!(a, b, "{name}");
    }
    let config: Value = serde_json::from_slice(&converted.config).unwrap();
    let reference_config: Value = serde_json::from_slice(&reference().config).unwrap();
    for key in [
        "d_model",
        "encoder_layers",
        "decoder_layers",
        "encoder_attention_heads",
        "decoder_attention_heads",
        "encoder_ffn_dim",
        "vocab_size",
        "num_mel_bins",
        "max_source_positions",
        "max_target_positions",
    ] {
        assert_eq!(config[key], reference_config[key], "{key}");
    }
    // And it hears what the original hears, with faster-whisper's tokenizer.
    assert_eq!(transcribe(converted), transcribe(reference()));
}

#[test]
fn half_precision_weights_and_a_quantized_target_load() {
    let bin = model_bin(true);
    let f32_files = ctranslate2::convert(&bin, reference().tokenizer, None).unwrap();
    assert!(!transcribe(f32_files).is_empty());
    let q8 = ctranslate2::convert(
        &bin,
        reference().tokenizer,
        Some(candle_core::quantized::GgmlDType::Q8_0),
    )
    .unwrap();
    assert!(matches!(q8.weights, WeightFile::Gguf(_)));
    assert!(!transcribe(q8).is_empty());
}

#[test]
fn a_faster_whisper_directory_loads_like_any_other() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tw-ct2");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("model.bin"), model_bin(false)).unwrap();
    std::fs::write(dir.join("tokenizer.json"), faster_whisper_tokenizer()).unwrap();
    std::fs::write(dir.join("config.json"), br#"{"suppress_ids": [1, 2]}"#).unwrap();
    let files = ModelFiles::from_dir(&dir).unwrap();
    assert_eq!(transcribe(files), transcribe(reference()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corrupt_truncated_and_foreign_files_are_clear_errors() {
    let bin = model_bin(false);
    let error = |bytes: &[u8]| match Ct2Model::parse(bytes) {
        Ok(model) => model.tensors().err().or(model.config().err()),
        Err(e) => Some(e),
    };
    let says = |bytes: &[u8], words: &str| {
        let e = error(bytes).unwrap_or_else(|| panic!("no error for {words}"));
        assert_eq!(e.code, ErrorCode::ModelInvalid, "{e}");
        assert!(e.message.contains(words), "{words}: {}", e.message);
    };
    // Cut anywhere: truncated, never a panic.
    for cut in [0, 3, 10, 20, 30, 100, bin.len() / 2, bin.len() - 1] {
        says(&bin[..cut], "truncated");
    }
    // Not a CTranslate2 file at all, or another kind of model.
    says(b"GGUF and then some bytes", "not a CTranslate2 model");
    let mut other = bin.clone();
    other[6..17].copy_from_slice(b"LlamaSpec\0\0");
    says(&other, "not a Whisper one");
    // Absurd counts and types.
    let mut absurd = bin.clone();
    absurd[22..26].copy_from_slice(&u32::MAX.to_le_bytes());
    says(&absurd, "corrupt");
    // A variable whose size does not fit its shape: the first one's byte
    // size is after its name, rank, dimensions and type.
    let mut wrong = bin.clone();
    let first_name = 26 + 2;
    let name_len = u16::from_le_bytes([bin[26], bin[27]]) as usize;
    let rank = bin[first_name + name_len] as usize;
    let size_at = first_name + name_len + 1 + 4 * rank + 1;
    wrong[size_at..size_at + 4].copy_from_slice(&7u32.to_le_bytes());
    says(&wrong, "corrupt");
    let mut bad_type = bin.clone();
    bad_type[size_at - 1] = 9;
    says(&bad_type, "unknown type");
    // A Whisper spec with half the variables missing.
    let model = Ct2Model::parse(&bin).unwrap();
    assert!(model.variables.len() > 40);
    let Err(e) = ctranslate2::convert(b"", vec![], None) else {
        panic!("an empty model.bin converted");
    };
    assert_eq!(e.code, ErrorCode::ModelInvalid);
}

#[test]
fn a_tokenizer_without_timestamps_or_its_first_merge_still_loads_right() {
    let original = WhisperTokenizer::from_bytes(&reference().tokenizer).unwrap();
    let plain = WhisperTokenizer::from_bytes(&faster_whisper_tokenizer()).unwrap();
    assert_eq!(
        plain.specials.timestamp_begin,
        original.specials.timestamp_begin
    );
    assert_eq!(plain.vocab_size(), original.vocab_size());
    let text = " the tabs to the right";
    let mut json: Value = serde_json::from_slice(&faster_whisper_tokenizer()).unwrap();
    let merges = json["model"]["merges"].as_array_mut().unwrap();
    merges.retain(|m| m != &serde_json::json!(["Ġ", "t"]));
    let lost = WhisperTokenizer::from_bytes(&serde_json::to_vec(&json).unwrap()).unwrap();
    assert_eq!(lost.encode(text).unwrap(), original.encode(text).unwrap());
}
