//! transcribe --model DIR --audio WAV [--json] [--prompt TEXT]
//!            [--max-tokens N] [--fast] [--audio-ctx full|auto|tail|tail:S|min:S]
//!            [--stop-loops|--no-stop-loops] [--fallback|--no-fallback] [--guide BIAS]
//!            [--live]
//!
//! Transcribes a WAV (any rate, any channels, 16-bit or float) with a
//! Whisper model directory (config.json, tokenizer.json, and
//! model.safetensors or a .gguf, or a faster-whisper model.bin), using the
//! same code and the same decoding as the extension's speech worker
//! (`--audio-ctx full --no-stop-loops` decodes as openai-whisper does).
//! `--live` decodes as the worker's live transcript does (see
//! `Decoding::live`), after any other decoding flag.
//! `--json` prints text, tokens, token_logprobs, no_speech_prob,
//! avg_logprob, timings (ms), looped and fell_back.

use ext_worker::{audio, Decoding, DecodingFlags, Engine, ModelFiles, Projection};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: transcribe --model DIR --audio WAV [--json] [--prompt TEXT] \
[--max-tokens N] [--fast] [--audio-ctx full|auto|tail|tail:S|min:S] \
[--stop-loops|--no-stop-loops] [--fallback|--no-fallback] [--guide BIAS] [--live]";

struct Args {
    model: PathBuf,
    audio: PathBuf,
    json: bool,
    fast: bool,
    live: bool,
    decoding: DecodingFlags,
    prompt: Option<String>,
    max_tokens: Option<usize>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut model, mut audio, mut json, mut fast, mut live) = (None, None, false, false, false);
    let (mut decoding, mut prompt, mut max_tokens) = (DecodingFlags::default(), None, None);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        if let Some(applied) = decoding.flag(&arg, &mut value) {
            applied?;
            continue;
        }
        match arg.as_str() {
            "--model" => model = Some(PathBuf::from(value()?)),
            "--audio" => audio = Some(PathBuf::from(value()?)),
            "--json" => json = true,
            "--fast" => fast = true,
            "--live" => live = true,
            "--prompt" => prompt = Some(value()?),
            "--max-tokens" => {
                let v = value()?;
                max_tokens = Some(
                    v.parse()
                        .map_err(|_| format!("--max-tokens {v}: not a number"))?,
                );
            }
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok(Args {
        model: model.ok_or(format!("--model is required\n{USAGE}"))?,
        audio: audio.ok_or(format!("--audio is required\n{USAGE}"))?,
        json,
        fast,
        live,
        decoding,
        prompt,
        max_tokens,
    })
}

fn run(args: Args) -> Result<String, String> {
    let files = ModelFiles::from_dir(&args.model).map_err(|e| e.to_string())?;
    let projection = if args.fast {
        Projection::Quantized
    } else {
        Projection::Exact
    };
    let engine = Engine::load_owned(files, projection).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(&args.audio).map_err(|e| format!("{}: {e}", args.audio.display()))?;
    let wav = audio::read_wav(&bytes).map_err(|e| format!("{}: {e}", args.audio.display()))?;
    let pcm = audio::to_16k(&wav).map_err(|e| e.to_string())?;
    let shipped = Decoding::shipped(engine.tokenizer().is_multilingual());
    let mut decoding = args.decoding.over(shipped);
    if args.live {
        decoding = decoding.live();
    }
    let mut options = decoding.options(args.prompt, 0);
    options.max_tokens = args.max_tokens;
    let transcript = engine
        .transcribe(&pcm, &options)
        .map_err(|e| e.to_string())?;
    Ok(if args.json {
        serde_json::to_string_pretty(&transcript).expect("a transcript serializes")
    } else {
        transcript.text.trim().to_string()
    })
}

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)).and_then(run) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("transcribe: {e}");
            ExitCode::FAILURE
        }
    }
}
