//! `twctl`: the interpreter, the tools and the voice path from the command
//! line, against a JSON snapshot of the browser (the STATE schema), built
//! from the same code as the extension.
//!
//!   twctl plan  --state STATE.json [--spoken] "utterance"          the plan; runs nothing
//!   twctl apply --state STATE.json [--yes] [--spoken] "utterance"  runs it on the in-memory browser
//!   twctl hear  --state STATE.json --model DIR --audio WAV [--listen passive|active]
//!               [--apply [--yes]] [--no-tab-prompt] [--guided|--no-guided]
//!               [--second-opinion DIR] [decoding flags]
//!
//! The decoding flags are `transcribe`'s (`DecodingFlags`), each over what
//! the extension ships for the model (`Decoding::shipped`).
//!
//! `hear` runs what the extension runs on a recording (resampling, voice
//! activity detection, the wake-word session, the open tabs' names as the
//! prompt, Whisper with the shipped decoding, the interpreter, and, when the
//! words mean nothing, the audio heard again guided to the commands that
//! make sense for the tabs) and prints
//! `{heard, wake, command, for_us, guided}` merged with what `plan` (or, with
//! `--apply`, `apply`) prints for the command. Speech without the wake word
//! while passive is not for us and changes nothing. `--second-opinion DIR`
//! checks unsure guided hearings with a second model, as the extension
//! does with the bundled tiny.en beside any other model.

use ext_cli::hear::{drop_room_talk, vocabulary_of, Ear, Listen};
use ext_cli::run;
use ext_core::State;
use ext_worker::{DecodingFlags, ModelFiles};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: twctl plan --state STATE.json [--spoken] \"utterance\"
       twctl apply --state STATE.json [--yes] [--spoken] \"utterance\"
       twctl hear --state STATE.json --model DIR --audio WAV [--listen passive|active]
                  [--apply [--yes]] [--no-tab-prompt] [--guided|--no-guided]
                  [--second-opinion DIR] [--audio-ctx full|auto|tail|tail:S|min:S] [--stop-loops|--no-stop-loops]
                  [--fallback|--no-fallback] [--guide BIAS]
(STATE.json may be - for standard input; without decoding flags, hear decodes
as the extension does)";

#[derive(Default)]
struct Args {
    command: String,
    state: String,
    yes: bool,
    apply: bool,
    utterance: String,
    model: Option<PathBuf>,
    /// A second model for unsure guided hearings.
    second_opinion: Option<PathBuf>,
    audio: Option<PathBuf>,
    listen: Option<Listen>,
    decoding: DecodingFlags,
    tab_prompt: bool,
    /// Hear again, guided to the commands that make sense for the tabs,
    /// when what was heard means nothing (as the extension does).
    guided: bool,
    /// Read the utterance as Whisper's transcript of a spoken command, with
    /// the mending of misheard words the extension applies to speech.
    spoken: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let command = args.next().ok_or("missing command")?;
    if !["plan", "apply", "hear"].contains(&command.as_str()) {
        return Err(format!("unknown command '{command}'"));
    }
    let mut a = Args {
        command,
        tab_prompt: true,
        guided: true,
        ..Args::default()
    };
    let (mut state, mut words) = (None, Vec::new());
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        if let Some(applied) = a.decoding.flag(&arg, &mut value) {
            applied?;
            continue;
        }
        match arg.as_str() {
            "--state" => state = Some(value()?),
            "--yes" => a.yes = true,
            "--apply" => a.apply = true,
            "--model" => a.model = Some(value()?.into()),
            "--audio" => a.audio = Some(value()?.into()),
            "--second-opinion" => a.second_opinion = Some(value()?.into()),
            "--listen" => {
                let v = value()?;
                a.listen =
                    Some(Listen::parse(&v).ok_or(format!("--listen {v}: say passive or active"))?);
            }
            "--no-tab-prompt" => a.tab_prompt = false,
            "--guided" => a.guided = true,
            "--no-guided" => a.guided = false,
            "--spoken" => a.spoken = true,
            "-h" | "--help" => return Err(String::new()),
            _ => words.push(arg),
        }
    }
    a.state = state.ok_or("--state is required")?;
    a.utterance = words.join(" ");
    if a.command == "hear" && (a.model.is_none() || a.audio.is_none()) {
        return Err("hear needs --model and --audio".into());
    }
    Ok(a)
}

fn read_state(path: &str) -> Result<State, String> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?
    };
    serde_json::from_str(&text).map_err(|e| format!("{path} is not a STATE snapshot: {e}"))
}

fn hear(args: &Args, state: State) -> Result<Value, String> {
    let model = args.model.as_ref().expect("checked");
    let files = ModelFiles::from_dir(model).map_err(|e| e.message)?;
    let mut ear = Ear::new(files, args.decoding)?;
    if let Some(dir) = &args.second_opinion {
        let files =
            ModelFiles::from_dir(dir).map_err(|e| format!("{}: {}", dir.display(), e.message))?;
        ear.set_second_opinion(files)?;
    }
    let audio = args.audio.as_ref().expect("checked");
    let wav = std::fs::read(audio).map_err(|e| format!("{}: {e}", audio.display()))?;
    let mut vocabulary = vocabulary_of(&state);
    if !args.tab_prompt {
        vocabulary.prompt.clear();
    }
    if !args.guided {
        vocabulary.phrases.clear();
    }
    let listen = args.listen.unwrap_or(Listen::Passive);
    let mut hearing = ear.hear_wav(&wav, listen, &vocabulary)?;
    if args.guided {
        ear.hear_guided_if_needed(&mut hearing, &state);
    }
    drop_room_talk(&mut hearing, &state);
    let guided = hearing.guided.as_deref();
    let mut out = match (&hearing.command, args.apply) {
        (Some(command), true) => run::apply(state, command, args.yes, Some(guided)),
        (Some(command), false) => run::plan(&state, command, Some(guided)),
        (None, true) => serde_json::to_value(&state).unwrap_or_else(|_| json!({})),
        (None, false) => json!({}),
    };
    let heard = serde_json::to_value(&hearing).unwrap_or(Value::Null);
    if let (Some(out), Some(heard)) = (out.as_object_mut(), heard.as_object()) {
        for (k, v) in heard {
            out.insert(k.clone(), v.clone());
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("twctl: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let state = match read_state(&args.state) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("twctl: {e}");
            return ExitCode::from(2);
        }
    };
    // Typed, or spoken without a guided hearing (that needs the audio).
    let spoken = args.spoken.then_some(None);
    let out = match args.command.as_str() {
        "plan" => run::plan(&state, &args.utterance, spoken),
        "apply" => run::apply(state, &args.utterance, args.yes, spoken),
        _ => match hear(&args, state) {
            Ok(out) => out,
            Err(e) => {
                eprintln!("twctl: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    ExitCode::SUCCESS
}
