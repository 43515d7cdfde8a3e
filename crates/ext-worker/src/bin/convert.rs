//! convert --model SRC_DIR --out DIR [--type f32|q8_0]
//!
//! Converts a faster-whisper (CTranslate2) model directory (`model.bin`,
//! `tokenizer.json`; its `config.json` is not needed) to the layout the
//! extension and `transcribe` load: a Hugging Face `config.json`, the
//! `tokenizer.json`, and `model.safetensors` (f32, the default) or
//! `model-<type>.gguf` (quantized matrices, like `quantize` writes).
//! Prints the weights' path.

use ext_worker::convert::parse_dtype;
use ext_worker::ctranslate2;
use ext_worker::WeightFile;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: convert --model SRC_DIR --out DIR [--type f32|q8_0|q4_0|…]";

fn run(mut args: impl Iterator<Item = String>) -> Result<PathBuf, String> {
    let (mut model, mut dtype, mut out) = (None, String::from("f32"), None);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--model" => model = Some(PathBuf::from(value()?)),
            "--type" => dtype = value()?.to_ascii_lowercase(),
            "--out" => out = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    let model = model.ok_or(format!("--model is required\n{USAGE}"))?;
    let out = out.ok_or(format!("--out is required\n{USAGE}"))?;
    let quantize = match dtype.as_str() {
        "f32" => None,
        other => Some(parse_dtype(other).map_err(|e| e.to_string())?),
    };
    let read = |file: &str| {
        std::fs::read(model.join(file)).map_err(|e| format!("{}: {e}", model.join(file).display()))
    };
    let files = ctranslate2::convert(&read("model.bin")?, read("tokenizer.json")?, quantize)
        .map_err(|e| format!("{}: {e}", model.join("model.bin").display()))?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let write = |file: &str, bytes: &[u8]| {
        std::fs::write(out.join(file), bytes)
            .map_err(|e| format!("{}: {e}", out.join(file).display()))
    };
    write("config.json", &files.config)?;
    write("tokenizer.json", &files.tokenizer)?;
    let (file, bytes) = match &files.weights {
        WeightFile::Safetensors(bytes) => ("model.safetensors".to_string(), bytes),
        WeightFile::Gguf(bytes) => (format!("model-{dtype}.gguf"), bytes),
    };
    write(&file, bytes)?;
    Ok(out.join(file))
}

fn main() -> ExitCode {
    match run(std::env::args().skip(1)) {
        Ok(path) => {
            println!("{}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("convert: {e}");
            ExitCode::FAILURE
        }
    }
}
