//! quantize --model DIR --type q8_0 --out DIR
//!
//! Writes a copy of a Whisper model directory (config.json, tokenizer.json,
//! model.safetensors) whose weights are one GGUF file with quantized
//! matrices (`model-<type>.gguf`), which `transcribe` and the extension
//! load like the original.

use ext_worker::convert::{parse_dtype, safetensors_to_gguf};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: quantize --model DIR --type f16|q8_0|q4_0|q4_1|q5_0|q5_1|q2k..q6k --out DIR";

fn run(mut args: impl Iterator<Item = String>) -> Result<PathBuf, String> {
    let (mut model, mut dtype, mut out) = (None, None, None);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--model" => model = Some(PathBuf::from(value()?)),
            "--type" => dtype = Some(value()?),
            "--out" => out = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    let model = model.ok_or(format!("--model is required\n{USAGE}"))?;
    let name = dtype.ok_or(format!("--type is required\n{USAGE}"))?;
    let out = out.ok_or(format!("--out is required\n{USAGE}"))?;
    let dtype = parse_dtype(&name).map_err(|e| e.to_string())?;
    let read = |file: &str| {
        std::fs::read(model.join(file)).map_err(|e| format!("{}: {e}", model.join(file).display()))
    };
    let gguf =
        safetensors_to_gguf(&read("model.safetensors")?, dtype).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let write = |file: &str, bytes: &[u8]| {
        std::fs::write(out.join(file), bytes)
            .map_err(|e| format!("{}: {e}", out.join(file).display()))
    };
    write("config.json", &read("config.json")?)?;
    write("tokenizer.json", &read("tokenizer.json")?)?;
    let file = format!("model-{}.gguf", name.to_ascii_lowercase());
    write(&file, &gguf)?;
    Ok(out.join(file))
}

fn main() -> ExitCode {
    match run(std::env::args().skip(1)) {
        Ok(path) => {
            println!("{}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("quantize: {e}");
            ExitCode::FAILURE
        }
    }
}
