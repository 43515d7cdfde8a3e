//! The engine behind the [`crate::pipeline::Pipeline`]: a loaded model (or
//! none), the microphone front end, and how the next utterance is
//! transcribed (its prompt, and whether it is checked for the wake word
//! as it decodes). A failed request leaves the model that was there.

use crate::clock::now_ms;
use crate::engine::{AudioCtx, Decoding, Engine, ModelFiles, TranscribeOptions, Transcript};
use crate::error::{Error, ErrorCode, Result};
use crate::guided::{GuidedReading, PhraseTree};
use crate::listener::Listener;
use crate::session::could_start_with_wake;
use crate::vad::VadEvent;
use crate::whisper::Projection;
use serde_json::{json, Value};

/// Longest transcript of one utterance: commands are short, and a random
/// or confused model must not decode 224 tokens of noise.
pub const UTTERANCE_TOKENS: usize = 96;

/// Longest live transcript: it is redone every second while someone
/// speaks, so it must stay cheap.
const PARTIAL_TOKENS: usize = 32;

/// What a detector event comes to.
pub enum Heard {
    /// Speech began.
    Started,
    /// An utterance, transcribed; `early` when that was done while its
    /// end-of-command pause was still being waited out.
    Utterance { transcript: Transcript, early: bool },
    /// An utterance that could not be transcribed.
    Failed(Error),
}

/// A command heard early, at a [`VadEvent::Pausing`]: the samples,
/// prompt and wake phrase it was heard with, which the utterance must
/// have for this to stand for its transcription; and the transcription.
struct Early {
    pcm: Vec<f32>,
    prompt: Option<String>,
    wake_phrase: Option<String>,
    heard: Result<Transcript>,
}

#[derive(Default)]
pub struct Service {
    engine: Option<Engine>,
    listener: Listener,
    prompt: Option<String>,
    wake_phrase: Option<String>,
    /// A decoding chosen over the one shipped for the model (to compare).
    decoding: Option<Decoding>,
    /// The silences that end an utterance, passive and active (ms).
    end_silences: Option<(usize, usize)>,
    /// The commands that make sense for the open tabs, as tokens.
    phrases: PhraseTree,
    /// The command under way, heard while its pause went on.
    early: Option<Early>,
    /// A second model, asked when a guided hearing is unsure (see
    /// [`Service::second_free`]).
    second: Option<SecondModel>,
}

/// The second model and its phrases, as its own tokens.
struct SecondModel {
    engine: Engine,
    phrases: PhraseTree,
}

impl Service {
    pub fn is_loaded(&self) -> bool {
        self.engine.is_some()
    }

    /// The silences that end an utterance, waiting for the wake word and
    /// taking a command.
    pub fn set_end_silences(&mut self, passive_ms: usize, active_ms: usize) {
        self.end_silences = Some((passive_ms, active_ms));
        self.listener.set_end_silences(passive_ms, active_ms);
    }

    /// Forgets what was heard (a new recording), keeping the model and
    /// how to listen.
    pub fn reset_listener(&mut self, expects_command: bool) {
        self.listener = Listener::new();
        if let Some((passive, active)) = self.end_silences {
            self.listener.set_end_silences(passive, active);
        }
        self.listener.set_expects_command(expects_command);
        self.early = None;
    }

    /// How to take the next utterances: as a command (longer pauses) or
    /// while waiting for the wake word, and the prompt that conditions
    /// their transcription (the wake phrase, or the open tabs' names).
    /// While waiting for the wake word, transcription stops as soon as the
    /// text cannot start with it.
    pub fn listen(&mut self, expects_command: bool, prompt: &str, wake_phrase: Option<&str>) {
        self.listener.set_expects_command(expects_command);
        self.prompt = Some(prompt.to_string()).filter(|p| !p.trim().is_empty());
        self.wake_phrase = wake_phrase
            .map(str::to_string)
            .filter(|p| !p.trim().is_empty());
    }

    /// Whether an utterance is under way.
    pub fn in_speech(&self) -> bool {
        self.listener.in_speech()
    }

    /// How long the utterance under way has been quiet, in ms.
    pub fn quiet_ms(&self) -> usize {
        self.listener.quiet_ms()
    }

    /// The 16-kHz audio of the utterance under way (empty between them).
    pub fn current(&self) -> &[f32] {
        self.listener.current()
    }

    /// Loads a model; answers its shape. A failed load keeps the model
    /// that was there.
    pub fn load(&mut self, files: ModelFiles, fast: bool) -> Result<(Value, f64)> {
        let start = now_ms();
        let projection = if fast {
            Projection::Quantized
        } else {
            Projection::Exact
        };
        let engine = Engine::load_owned(files, projection)?;
        let config = engine.config();
        let shape = json!({
            "multilingual": engine.tokenizer().is_multilingual(),
            "vocab_size": config.vocab_size,
            "d_model": config.d_model,
            "encoder_layers": config.encoder_layers,
            "decoder_layers": config.decoder_layers,
        });
        self.engine = Some(engine);
        self.early = None;
        Ok((shape, now_ms() - start))
    }

    /// How utterances are decoded from now on: `None` for the decoding
    /// shipped for the model loaded.
    pub fn set_decoding(&mut self, decoding: Option<Decoding>) {
        self.decoding = decoding;
        self.early = None;
    }

    pub fn decoding(&self) -> Decoding {
        self.decoding.unwrap_or_else(|| {
            let multilingual = self
                .engine
                .as_ref()
                .is_some_and(|e| e.tokenizer().is_multilingual());
            Decoding::shipped(multilingual)
        })
    }

    pub fn unload(&mut self) {
        self.engine = None;
        self.second = None;
        self.early = None;
    }

    /// Loads a second model to check unsure guided hearings with (set the
    /// phrases again after). A failed load keeps the one that was there.
    pub fn load_second_opinion(&mut self, files: ModelFiles) -> Result<()> {
        let engine = Engine::load_owned(files, Projection::Exact)?;
        self.second = Some(SecondModel {
            engine,
            phrases: PhraseTree::default(),
        });
        Ok(())
    }

    /// No second model (its memory goes back to the browser).
    pub fn drop_second_opinion(&mut self) {
        self.second = None;
    }

    /// How the second model hears `pcm` freely, with its own shipped
    /// decoding and `prompt` (the first model's); None without a second
    /// model or if it fails (a second opinion is only ever a courtesy:
    /// without one, nothing more is taken).
    pub fn second_free(&self, pcm: &[f32], prompt: &str) -> Option<String> {
        let second = self.second.as_ref()?;
        let decoding = Decoding::shipped(second.engine.tokenizer().is_multilingual());
        let prompt = Some(prompt.to_string()).filter(|p| !p.trim().is_empty());
        let free = second
            .engine
            .transcribe(pcm, &decoding.options(prompt, UTTERANCE_TOKENS))
            .ok()?;
        Some(free.text)
    }

    /// How the second model hears `pcm` guided to the same phrases as the
    /// first; None without a second model, a reading, or if it fails.
    pub fn second_guided(&self, pcm: &[f32]) -> Option<GuidedReading> {
        let second = self.second.as_ref()?;
        let decoding = Decoding::shipped(second.engine.tokenizer().is_multilingual());
        second
            .engine
            .hear_guided(pcm, &second.phrases, decoding.audio_ctx)
            .ok()
            .flatten()
    }

    fn engine(&self) -> Result<&Engine> {
        self.engine
            .as_ref()
            .ok_or_else(|| Error::new(ErrorCode::NoModel, "no speech model is loaded"))
    }

    pub fn transcribe(&self, pcm: &[f32], options: &TranscribeOptions) -> Result<Transcript> {
        self.engine()?.transcribe(pcm, options)
    }

    pub fn score(&self, pcm: &[f32], phrase: &str, audio_ctx: AudioCtx) -> Result<f32> {
        self.engine()?.phrase_logprob(pcm, phrase, audio_ctx)
    }

    /// The commands guided hearing chooses among (see
    /// [`Service::hear_guided`]), with the wake phrase allowed before them;
    /// kept as tokens of the model loaded, so set again after a load.
    pub fn set_phrases(&mut self, phrases: &[String], wake_phrase: &str) {
        self.phrases = match &self.engine {
            Some(engine) => PhraseTree::new(engine.tokenizer(), phrases, Some(wake_phrase)),
            None => PhraseTree::default(),
        };
        if let Some(second) = &mut self.second {
            second.phrases = PhraseTree::new(second.engine.tokenizer(), phrases, Some(wake_phrase));
        }
    }

    /// The command among the phrases that `pcm` most likely says, if it
    /// says one convincingly; None without phrases or a model.
    pub fn hear_guided(&self, pcm: &[f32]) -> Option<GuidedReading> {
        let engine = self.engine().ok()?;
        let guided = engine.hear_guided(pcm, &self.phrases, self.decoding().audio_ctx);
        guided.ok().flatten()
    }

    /// A live transcript of the utterance under way. None between
    /// utterances or without a model: a live transcript is a courtesy, and
    /// the final one reports any error.
    pub fn partial(&self) -> Option<Transcript> {
        let mut pcm = self.listener.current().to_vec();
        if pcm.is_empty() {
            return None;
        }
        // Brought up as the utterance so far would be (the whole one's
        // gain may differ a little).
        crate::loudness::bring_up_quiet(&mut pcm);
        let options = self
            .decoding()
            .live()
            .options(self.prompt.clone(), PARTIAL_TOKENS);
        self.engine().ok()?.transcribe(&pcm, &options).ok()
    }

    /// The microphone stopped: the utterance under way (if long enough),
    /// not yet transcribed.
    pub fn flush(&mut self) -> Option<VadEvent> {
        self.listener.stop()
    }

    /// What the detector makes of a block of microphone audio; each event
    /// then goes through [`Service::event`] (which transcribes utterances),
    /// so that a caller can say "processing" before the wait.
    pub fn hear(&mut self, samples: &[f32], rate: u32) -> Result<Vec<VadEvent>> {
        self.listener.push(samples, rate)
    }

    /// A command's pause ([`VadEvent::Pausing`]): it is transcribed now,
    /// while the rest of the pause is waited out. Its utterance, if speech
    /// does not resume, is the same audio, and [`Service::event`] takes
    /// this transcription instead of waiting for one.
    pub fn hear_early(&mut self, pcm: Vec<f32>) {
        // Waiting for the wake word, pauses are short already, and most
        // of what is heard is not for us.
        if self.listener.expects_command() && self.engine.is_some() {
            let heard = self.transcribe_utterance(&pcm);
            self.early = Some(Early {
                pcm,
                prompt: self.prompt.clone(),
                wake_phrase: self.wake_phrase.clone(),
                heard,
            });
        }
    }

    /// A detector event, with utterances transcribed (or taken as heard
    /// early, see [`Service::hear_early`]); dropped sounds and pauses say
    /// nothing.
    pub fn event(&mut self, event: &VadEvent) -> Option<Heard> {
        match event {
            VadEvent::SpeechStarted => Some(Heard::Started),
            VadEvent::Dropped | VadEvent::Pausing(_) => None,
            VadEvent::Utterance(pcm) => {
                let early = self.early.take().filter(|e| {
                    e.pcm == *pcm && e.prompt == self.prompt && e.wake_phrase == self.wake_phrase
                });
                let (heard, early) = match early {
                    Some(e) => (e.heard, true),
                    None => (self.transcribe_utterance(pcm), false),
                };
                Some(match heard {
                    Ok(transcript) => Heard::Utterance { transcript, early },
                    Err(e) => Heard::Failed(e),
                })
            }
        }
    }

    /// An utterance transcribed with the prompt and wake phrase set by
    /// [`Service::listen`].
    fn transcribe_utterance(&self, pcm: &[f32]) -> Result<Transcript> {
        let options = self
            .decoding()
            .options(self.prompt.clone(), UTTERANCE_TOKENS);
        self.engine().and_then(|e| match &self.wake_phrase {
            Some(phrase) => {
                e.transcribe_while(pcm, &options, &|text| could_start_with_wake(text, phrase))
            }
            None => e.transcribe(pcm, &options),
        })
    }
}
