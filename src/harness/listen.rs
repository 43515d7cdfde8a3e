//! Speech played into the extension's voice pipeline: a recording served
//! locally goes through the real AudioContext, worklet and speech worker
//! (as a microphone's samples would), and what it came to is read from the
//! background page's voice events.

use super::firefox::Firefox;
use super::{wait_for, Result};
use serde_json::{json, Value};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How a recording is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listening {
    /// As after the mic button: the next utterance is a command.
    Active,
    /// Waiting for "hey fox".
    Passive,
}

/// What a recording came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// A command was taken: its voice event, with the background's answer
    /// (`text`, `answer.reply`, `answer.calls`, …).
    Command(Value),
    /// Everything heard was ignored as not meant for us; the voice events.
    Ignored(Vec<Value>),
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

impl Firefox {
    /// Plays `audio_url` (a WAV at `sample_rate`, played at that rate so
    /// the browser does not resample it) into the voice pipeline, waits up
    /// to `timeout` until the speech worker has judged it, and stops
    /// listening.
    pub fn hear(
        &self,
        audio_url: &str,
        sample_rate: u32,
        listening: Listening,
        timeout: Duration,
    ) -> Result<Heard> {
        let start = now_ms();
        let how = match listening {
            Listening::Active => "voice_trigger",
            Listening::Passive => "voice_start",
        };
        let answer =
            self.send(&json!({ "type": how, "audio_url": audio_url, "sample_rate": sample_rate }))?;
        if answer["ok"] != true {
            return Err(super::Error::Script(format!("{how} was refused: {answer}")));
        }
        let mut last_status = Value::Null;
        let heard = wait_for(timeout, &format!("what was heard in {audio_url}"), || {
            let status = self.send(&json!({ "type": "voice_status" }))?;
            last_status = status.clone();
            let events: Vec<Value> = status["events"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|e| e["at_ms"].as_f64().is_some_and(|t| t >= start))
                .cloned()
                .collect();
            if let Some(command) = events
                .iter()
                .find(|e| e["type"] == "command" && e["answer"].is_object())
            {
                return Ok(Some(Heard::Command(command.clone())));
            }
            // Back to waiting for the wake word with something ignored:
            // what was said was not for us.
            let ignored = events.iter().any(|e| e["ignored"] == true);
            Ok(
                (listening == Listening::Passive && ignored && status["mode"] == "passive")
                    .then_some(Heard::Ignored(events)),
            )
        });
        let _ = self.send(&json!({ "type": "voice_stop" }));
        // A timeout says what the pipeline was doing.
        heard.map_err(|e| match e {
            super::Error::Timeout(m) => {
                super::Error::Timeout(format!("{m}; voice status: {last_status}"))
            }
            other => other,
        })
    }
}
