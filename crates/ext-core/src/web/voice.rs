//! Voice in the background page, the browser's side of it: the speech
//! workers' lifecycle, the microphone (or a sound file, for tests and
//! demos) through an AudioWorklet into the listening worker, model
//! requests, and carrying out the [`Effect`]s that the pure
//! [`Coordinator`] decides on.

use super::bindings::{self, js_message, to_js};
use super::firefox::FirefoxBrowser;
use super::speech_worker::SpeechWorker;
use super::storage::LocalStorage;
use crate::background::{Background, Heard};
use crate::vocabulary;
use crate::voice::{Coordinator, Effect};
use ext_protocol::answer::{
    to_json as answer_json, Failure, MicrophoneProcessing, MicrophoneSettings, ModelLoaded,
    ModelsAnswer, VoiceSourceAnswer,
};
use ext_protocol::models;
use ext_protocol::port::ToPage;
use ext_protocol::request::{Request, VoiceSource};
use ext_protocol::settings::Settings;
use ext_protocol::worker::{FromWorker, LoadModel, State, ToWorker, WorkerRole};
use ext_protocol::{Error, ErrorCode};
use futures::future::Either;
use js_sys::{Array, Reflect};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{
    AudioBuffer, AudioBufferSourceNode, AudioContext, AudioContextOptions, AudioWorkletNode,
    MediaStream, MediaStreamConstraints, MediaTrackConstraints, MessageChannel, Response,
};

pub type Bg = Rc<Background<FirefoxBrowser, LocalStorage>>;

/// The audio graph while listening.
struct Capture {
    context: AudioContext,
    stream: Option<MediaStream>,
    /// The worklet; also kept so the graph is not collected while it runs.
    node: AudioWorkletNode,
    _source: JsValue,
}

pub struct Voice {
    background: Bg,
    coordinator: RefCell<Coordinator>,
    /// Audio, detector and wake word (and commands, when it is alone).
    listener: Rc<SpeechWorker>,
    /// The command model's worker, with a separate wake-word model.
    commander: Rc<SpeechWorker>,
    /// Held while models are being chosen and loaded.
    models: futures::lock::Mutex<()>,
    capture: RefCell<Option<Capture>>,
    /// Open popups and options pages, with the names they connected as.
    ports: RefCell<Vec<(JsValue, String)>>,
    /// A sound file that listening plays instead of the microphone when it
    /// is started without one (`voice_source`): how tests and demos drive
    /// the mic button and the keyboard shortcut.
    source: RefCell<VoiceSource>,
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// What the add-on asked Firefox to do to the microphone's sound, and what
/// Firefox says it does.
fn microphone_settings(stream: &MediaStream) -> Option<MicrophoneSettings> {
    let track = stream.get_audio_tracks().get(0);
    let track = track.dyn_ref::<web_sys::MediaStreamTrack>()?;
    let processing = |of: &JsValue| {
        let flag = |key: &str| get(of, key).as_bool();
        MicrophoneProcessing {
            noise_suppression: flag("noiseSuppression"),
            auto_gain_control: flag("autoGainControl"),
            echo_cancellation: flag("echoCancellation"),
        }
    };
    let applied: JsValue = track.get_settings().into();
    Some(MicrophoneSettings {
        asked: processing(&track.get_constraints().into()),
        applied: processing(&applied),
        sample_rate: get(&applied, "sampleRate").as_f64(),
    })
}

fn failure(error: Error) -> Value {
    Failure::new(error).to_json()
}

impl Voice {
    pub fn new(background: Bg) -> Rc<Self> {
        Rc::new(Self {
            background,
            coordinator: RefCell::new(Coordinator::new()),
            listener: SpeechWorker::new(),
            commander: SpeechWorker::new(),
            models: futures::lock::Mutex::new(()),
            capture: RefCell::default(),
            ports: RefCell::default(),
            source: RefCell::default(),
        })
    }

    /// A voice or model request (`message` is the raw message: model files
    /// arrive as bytes beside the JSON).
    pub async fn handle(self: &Rc<Self>, request: Request, message: JsValue) -> Value {
        if let Request::VoiceStart(source)
        | Request::VoiceSource(source)
        | Request::VoiceTrigger(source)
        | Request::VoiceToggle(source) = &request
        {
            if let Err(e) = source.check_audio_url(&super::bindings::runtime_url("/")) {
                return Failure::new(e).to_json();
            }
        }
        match request {
            Request::VoiceStart(source) => self.start(&source).await,
            Request::VoiceSource(source) => {
                let url = source.audio_url.clone().filter(|u| !u.is_empty());
                *self.source.borrow_mut() = if url.is_some() {
                    source
                } else {
                    VoiceSource::default()
                };
                answer_json(&VoiceSourceAnswer {
                    ok: true,
                    audio_url: url,
                })
            }
            Request::VoiceStop => self.stop(),
            Request::VoiceTrigger(source) => self.trigger(&source).await,
            Request::VoiceToggle(source) => {
                if self.capture.borrow().is_some() {
                    self.stop()
                } else {
                    self.trigger(&source).await
                }
            }
            Request::VoiceStatus => self.status(),
            Request::ModelInstall {
                model,
                url,
                quantize,
            } => self.install(&model, url, quantize).await,
            Request::ModelImport { model, quantize } => {
                self.import(&model, quantize, message).await
            }
            Request::ModelRemove { model } => self.remove(&model).await,
            Request::ModelList => self.list().await,
            other => failure(Error::unknown(format!(
                "'{}' is not a voice request.",
                other.kind()
            ))),
        }
    }

    fn status(&self) -> Value {
        let mut status = self.coordinator.borrow().status();
        status.microphone = self
            .capture
            .borrow()
            .as_ref()
            .and_then(|capture| capture.stream.as_ref())
            .and_then(microphone_settings);
        answer_json(&status)
    }

    async fn settings(&self) -> Result<Settings, Error> {
        self.background.settings().await
    }

    fn worker(&self, role: WorkerRole) -> &Rc<SpeechWorker> {
        match role {
            WorkerRole::Listen => &self.listener,
            WorkerRole::Command => &self.commander,
        }
    }

    fn holds(&self, role: WorkerRole, model: &str) -> bool {
        self.coordinator.borrow().worker(role).loaded.as_deref() == Some(model)
    }

    // ---- effects ----

    /// Carries out what the coordinator decided.
    fn apply(self: &Rc<Self>, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Broadcast(message) => self.broadcast(&message),
                Effect::SetBadge(badge) => {
                    let (text, background, color) = badge.look();
                    spawn_local(async move {
                        let _ = bindings::run(bindings::set_badge_text(&to_js(
                            &json!({ "text": text }),
                        )))
                        .await;
                        let _ = bindings::run(bindings::set_badge_background(&to_js(
                            &json!({ "color": background }),
                        )))
                        .await;
                        let _ = bindings::run(bindings::set_badge_text_color(&to_js(
                            &json!({ "color": color }),
                        )))
                        .await;
                    });
                }
                Effect::SendVocabulary => {
                    let me = self.clone();
                    spawn_local(async move { me.send_vocabulary().await });
                }
                Effect::RunCommand {
                    text,
                    mut event,
                    wake_unsure,
                    by_wake_phrase,
                } => {
                    let me = self.clone();
                    spawn_local(async move {
                        let guided = me.hear_guided_for(&text).await;
                        if let Some(guided) = &guided {
                            event["guided"] = guided.as_str().into();
                        }
                        let heard = Heard {
                            guided: guided.as_deref(),
                            wake_unsure,
                            by_wake_phrase,
                        };
                        let answer = me.background.run_command_as(&text, Some(heard)).await;
                        let effects = me.coordinator.borrow_mut().command_answered(
                            event,
                            &answer,
                            js_sys::Date::now(),
                        );
                        me.apply(effects);
                        if answer.stop_listening == Some(true) {
                            me.stop();
                        }
                    });
                }
                Effect::Notify(text) => spawn_local(super::notify(text)),
                Effect::Post(role, message) => self.worker(role).post(&message),
            }
        }
    }

    fn on_worker(self: &Rc<Self>, role: WorkerRole, event: FromWorker) {
        let effects = self
            .coordinator
            .borrow_mut()
            .on_event(role, event, js_sys::Date::now());
        self.apply(effects);
    }

    /// Posts `message` to every connected page.
    pub fn broadcast(&self, message: &ToPage) {
        let message = to_js(&message.to_json());
        for (port, _) in self.ports.borrow().iter() {
            let _ = post_to(port, &message);
        }
    }

    /// Whether a page of this name (the popup, the options page) is open.
    pub fn has_page(&self, name: &str) -> bool {
        self.ports.borrow().iter().any(|(_, n)| n == name)
    }

    /// Settings changed: the workers follow at once.
    pub fn settings_changed(self: &Rc<Self>, settings: &Settings) {
        self.configure(settings);
        if settings.wake_model().is_none() && self.commander.is_running() {
            self.single_worker();
        }
        if self.capture.borrow().is_some() {
            // Listening: the models follow (loading only what changed).
            let me = self.clone();
            spawn_local(async move {
                if let Err(e) = me.ensure_model().await {
                    let effects = me
                        .coordinator
                        .borrow_mut()
                        .failed(&e.to_json(), js_sys::Date::now());
                    me.apply(effects);
                }
            });
        }
    }

    fn configure(&self, settings: &Settings) {
        let message = ToWorker::Configure {
            settings: settings.listen(),
        };
        self.listener.post(&message);
        self.commander.post(&message);
    }

    // ---- workers ----

    /// `debug_worker_trap` (development installs only): the listening
    /// worker traps.
    pub fn debug_trap(&self) {
        self.listener.post(&ToWorker::DebugTrap);
    }

    /// A worker failed while listening: it starts again with its model
    /// (from the .xpi or the cache, no download) and, for the listening
    /// one, the microphone is handed to it again; the popup is told.
    fn recover(self: &Rc<Self>, role: WorkerRole) {
        let due = self
            .coordinator
            .borrow_mut()
            .restart_due(role, js_sys::Date::now());
        if !due || self.capture.borrow().is_none() {
            return;
        }
        let me = self.clone();
        spawn_local(async move {
            let restarted = async {
                me.ensure_model().await?;
                me.send_vocabulary().await;
                if let Some(capture) = me.capture.borrow().as_ref() {
                    hand_port(&capture.node, &me.listener).map_err(|e| {
                        Error::failed(format!("Audio did not reconnect: {}", js_message(&e)))
                    })?;
                }
                Ok::<(), Error>(())
            }
            .await;
            let now = js_sys::Date::now();
            let effects = match restarted {
                Ok(()) => me.coordinator.borrow_mut().worker_restarted(role, now),
                Err(e) => me.coordinator.borrow_mut().failed(&e.to_json(), now),
            };
            me.apply(effects);
        });
    }

    /// Starts a worker unless it runs; a request arriving while it starts
    /// waits for it too.
    async fn start_worker(self: &Rc<Self>, role: WorkerRole) -> Result<(), Error> {
        let worker = self.worker(role).clone();
        let (me, failed) = (self.clone(), self.clone());
        let started = worker
            .start(
                move |event| me.on_worker(role, event),
                move |message| {
                    let effects = failed.coordinator.borrow_mut().worker_failed(
                        role,
                        &message,
                        js_sys::Date::now(),
                    );
                    failed.apply(effects);
                    failed.recover(role);
                },
            )
            .await?;
        if started {
            // A new worker knows no peer, and needs the settings.
            self.coordinator.borrow_mut().worker_started(role);
            worker.post(&ToWorker::Configure {
                settings: self.settings().await?.listen(),
            });
        }
        Ok(())
    }

    /// The open tabs' names, for Whisper's prompt, and the commands that
    /// make sense for them, for guided hearing (read straight from the browser: a
    /// tool call would land in the action log).
    async fn send_vocabulary(&self) {
        use crate::browser::Browser;
        use crate::scope::{focused_is_private, Scoped};
        // Only the tabs a command given now may touch (private ones only
        // from a private window).
        let inner = self.background.browser();
        let private = focused_is_private(inner).await.unwrap_or(false);
        let browser = Scoped::new(inner, private);
        let tabs = browser.tabs().await.unwrap_or_default();
        let groups = browser.groups().await.unwrap_or_default();
        let names = || tabs.iter().map(|t| (t.title.as_str(), t.url.as_str()));
        let prompt = vocabulary::command_prompt(names());
        let phrases = vocabulary::command_phrases(names(), groups.iter().map(|g| g.title.as_str()));
        self.listener
            .post(&ToWorker::Vocabulary { prompt, phrases });
    }

    /// When a heard command means nothing for the open tabs: the known
    /// command its audio most likely says, as the listening worker (which
    /// keeps the last command's audio) hears it guided to the commands.
    async fn hear_guided_for(&self, text: &str) -> Option<String> {
        if !self.background.needs_guided(text).await {
            return None;
        }
        // A worker busy elsewhere must not hold the command up: past the
        // limit it runs as heard.
        let ask = self.listener.ask(&ToWorker::HearGuided, None);
        let limit = bindings::sleep(GUIDED_LIMIT_MS);
        futures::pin_mut!(ask, limit);
        match futures::future::select(ask, limit).await {
            Either::Left((Ok(FromWorker::HeardGuided { command, said, .. }), _))
                if said == text =>
            {
                command
            }
            _ => None,
        }
    }

    /// Loads the models the settings name, unless they are loaded already:
    /// the command model in the listening worker, or, with a separate
    /// wake-word model, that one there and the command model in a second
    /// worker, connected to the first.
    async fn ensure_model(self: &Rc<Self>) -> Result<(), Error> {
        // One at a time, with the settings as they are once it is our turn:
        // two quick changes must not leave a worker on the older model.
        let _turn = self.models.lock().await;
        let mut settings = self.settings().await?;
        if settings.speech_model == models::NONE {
            // None chosen yet: the model that comes with the extension.
            settings = self.choose_bundled().await?;
        }
        let model = settings.speech_model.clone();
        let quantize = settings.speech_quantized;
        let Some(wake) = settings.wake_model().map(str::to_string) else {
            if self.commander.is_running() {
                self.single_worker();
            }
            self.start_worker(WorkerRole::Listen).await?;
            if !self.holds(WorkerRole::Listen, &model) {
                self.load(WorkerRole::Listen, &model, None, quantize)
                    .await?;
            }
            return Ok(());
        };
        self.start_worker(WorkerRole::Listen).await?;
        self.start_worker(WorkerRole::Command).await?;
        // The command model first: if it cannot load, the listening worker
        // keeps the model it takes commands with.
        if !self.holds(WorkerRole::Command, &model) {
            self.load(WorkerRole::Command, &model, None, quantize)
                .await?;
        }
        if !self.holds(WorkerRole::Listen, &wake) {
            self.load(WorkerRole::Listen, &wake, None, quantize).await?;
        }
        if !self.coordinator.borrow().is_peered() {
            self.connect_workers()?;
        }
        Ok(())
    }

    /// The first model bundled in the .xpi becomes the speech model (a
    /// first start needs no choice and no download); with none bundled,
    /// there is no model to listen with.
    async fn choose_bundled(self: &Rc<Self>) -> Result<Settings, Error> {
        let no_model = || Error::new(ErrorCode::NoModel, bindings::i18n_message("voiceNoModel"));
        self.start_worker(WorkerRole::Listen).await?;
        let bundled = match self.listener.ask(&ToWorker::Bundled, None).await? {
            FromWorker::Models { installed, .. } => installed,
            other => return Err(unexpected(&other)),
        };
        let Some(first) = bundled.into_iter().next() else {
            return Err(no_model());
        };
        let patch = json!({ "type": "set_settings", "settings": { "speechModel": first } });
        let saved = self.background.handle(patch).await;
        if saved["ok"] != true {
            return Err(no_model());
        }
        self.settings().await
    }

    /// Back to one worker: the command model's ends, and the listening one
    /// transcribes commands (and what was handed over) itself.
    fn single_worker(&self) {
        self.commander.stop();
        self.coordinator
            .borrow_mut()
            .worker_stopped(WorkerRole::Command);
        self.listener.post(&ToWorker::Delegate { on: false });
    }

    /// A channel between the two workers: the listening one hands command
    /// utterances to the command model's one, not through this page.
    fn connect_workers(&self) -> Result<(), Error> {
        let failed = |e: JsValue| {
            Error::failed(format!(
                "Connecting the speech workers failed: {}",
                js_message(&e)
            ))
        };
        let channel = MessageChannel::new().map_err(failed)?;
        for (worker, role, port) in [
            (&self.listener, WorkerRole::Listen, channel.port1()),
            (&self.commander, WorkerRole::Command, channel.port2()),
        ] {
            let message = to_js(&ToWorker::Peer { role }.to_json());
            let _ = Reflect::set(&message, &"port".into(), &port);
            worker.post_transfer(&message, &port).map_err(failed)?;
        }
        self.coordinator.borrow_mut().workers_connected();
        Ok(())
    }

    async fn load(
        self: &Rc<Self>,
        role: WorkerRole,
        model: &str,
        url: Option<String>,
        quantize: bool,
    ) -> Result<ModelLoaded, Error> {
        let request = ToWorker::Load(LoadModel {
            model: model.to_string(),
            url,
            quantize,
            fast: false,
        });
        let answer = self.worker(role).ask(&request, None).await;
        self.loaded(role, answer)
    }

    /// A worker's answer to a load or an import, as the message API's
    /// answer.
    fn loaded(
        self: &Rc<Self>,
        role: WorkerRole,
        answer: Result<FromWorker, Error>,
    ) -> Result<ModelLoaded, Error> {
        match answer? {
            FromWorker::Status(status) if status.state == State::Ready => {
                let model = status.model_id.clone();
                let ready = FromWorker::Status(status.clone()).to_json();
                let effects = self.coordinator.borrow_mut().model_loaded(
                    role,
                    model.clone(),
                    ready,
                    js_sys::Date::now(),
                );
                self.apply(effects);
                Ok(ModelLoaded {
                    ok: true,
                    model,
                    worker: Some(role),
                    source: status.source,
                    load_ms: status.load_ms,
                    shape: status.model,
                    memory_bytes: status.memory_bytes,
                })
            }
            other => Err(Error::failed(format!(
                "the speech worker answered '{}' to a load",
                other.kind()
            ))),
        }
    }

    // ---- listening ----

    /// Starts listening: the microphone, or `audio_url` (a sound file
    /// played through the same graph); `sample_rate` picks the
    /// AudioContext's rate (the device's by default).
    async fn start(self: &Rc<Self>, source: &VoiceSource) -> Value {
        if self.capture.borrow().is_some() {
            return self.status();
        }
        // The file given to `voice_source`, unless this start names one.
        let source = if source.audio_url.is_none() {
            source.or(&self.source.borrow())
        } else {
            source.clone()
        };
        if let Err(e) = self.ensure_model().await {
            let effects = self
                .coordinator
                .borrow_mut()
                .failed(&e.to_json(), js_sys::Date::now());
            self.apply(effects);
            return failure(e);
        }
        self.send_vocabulary().await;
        let audio = source.echo_audio.unwrap_or(false);
        self.listener.post(&ToWorker::Echo { audio });
        match self.open_audio(&source).await {
            Ok(capture) => {
                *self.capture.borrow_mut() = Some(capture);
                let effects = self
                    .coordinator
                    .borrow_mut()
                    .listening_started(js_sys::Date::now());
                self.apply(effects);
                self.status()
            }
            Err(e) => {
                let effects = self
                    .coordinator
                    .borrow_mut()
                    .failed(&e.to_json(), js_sys::Date::now());
                self.apply(effects);
                failure(e)
            }
        }
    }

    async fn open_audio(&self, source: &VoiceSource) -> Result<Capture, Error> {
        let failed = |e: JsValue| Error::failed(format!("Audio did not start: {}", js_message(&e)));
        let options = AudioContextOptions::new();
        if let Some(rate) = source.sample_rate {
            options.set_sample_rate(rate as f32);
        }
        let context = AudioContext::new_with_context_options(&options).map_err(failed)?;
        let worklet = context.audio_worklet().map_err(failed)?;
        JsFuture::from(
            worklet
                .add_module(&bindings::runtime_url("worklet.js"))
                .map_err(failed)?,
        )
        .await
        .map_err(failed)?;
        let node = AudioWorkletNode::new(&context, "tw-capture").map_err(failed)?;
        hand_port(&node, &self.listener).map_err(failed)?;
        let (source_node, stream): (JsValue, Option<MediaStream>) = match &source.audio_url {
            Some(url) => {
                let file = self.play_file(&context, url).await?;
                file.connect_with_audio_node(&node).map_err(failed)?;
                file.start().map_err(failed)?;
                (file.into(), None)
            }
            None => {
                let stream = self.microphone().await?;
                let mic = context
                    .create_media_stream_source(&stream)
                    .map_err(failed)?;
                mic.connect_with_audio_node(&node).map_err(failed)?;
                (mic.into(), Some(stream))
            }
        };
        // Connected to the output (it writes silence) so that the graph is
        // pulled and the worklet runs.
        node.connect_with_audio_node(&context.destination())
            .map_err(failed)?;
        if let Ok(p) = context.resume() {
            let _ = JsFuture::from(p).await;
        }
        Ok(Capture {
            context,
            stream,
            node,
            _source: source_node,
        })
    }

    async fn play_file(
        &self,
        context: &AudioContext,
        url: &str,
    ) -> Result<AudioBufferSourceNode, Error> {
        let failed = |e: JsValue| Error::invalid(format!("{url}: {}", js_message(&e)));
        let window = web_sys::window().ok_or_else(|| Error::failed("no window"))?;
        let response: Response = JsFuture::from(window.fetch_with_str(url))
            .await
            .map_err(failed)?
            .unchecked_into();
        let bytes = JsFuture::from(response.array_buffer().map_err(failed)?)
            .await
            .map_err(failed)?;
        let buffer: AudioBuffer = JsFuture::from(
            context
                .decode_audio_data(&bytes.unchecked_into())
                .map_err(failed)?,
        )
        .await
        .map_err(failed)?
        .unchecked_into();
        let source = context.create_buffer_source().map_err(failed)?;
        source.set_buffer(Some(&buffer));
        Ok(source)
    }

    /// The microphone; if Firefox has not allowed it to the extension yet,
    /// opens the page that asks once, and says so.
    async fn microphone(&self) -> Result<MediaStream, Error> {
        let unavailable = |e: &JsValue| Error::new(ErrorCode::MicUnavailable, js_message(e));
        let window = web_sys::window().ok_or_else(|| Error::failed("no window"))?;
        let devices = window
            .navigator()
            .media_devices()
            .map_err(|e| unavailable(&e))?;
        // Whisper hears the room's noise better than what Firefox's noise
        // suppression (WebRTC's, at "high") leaves of the speech, and the
        // automatic gain pumps that noise up in every pause. With both on
        // (Firefox's default) tiny.en did the right thing for 87.2% of the
        // corpus, with neither 91.3% (WebRTC's own processing, offline;
        // docs/speech.md). Echo cancellation stays: it changes nothing unless
        // something plays back, and then it helps.
        let audio = MediaTrackConstraints::new();
        audio.set_noise_suppression_bool(false);
        audio.set_auto_gain_control_bool(false);
        let constraints = MediaStreamConstraints::new();
        constraints.set_audio(&audio);
        let promise = devices
            .get_user_media_with_constraints(&constraints)
            .map_err(|e| unavailable(&e))?;
        match JsFuture::from(promise).await {
            Ok(stream) => Ok(stream.unchecked_into()),
            Err(e) => {
                let name = e
                    .dyn_ref::<web_sys::DomException>()
                    .map(|d| d.name())
                    .unwrap_or_default();
                if name == "NotAllowedError" || name == "SecurityError" {
                    let page = json!({ "url": bindings::runtime_url("permission.html") });
                    let _ = bindings::run(bindings::tabs_create(&to_js(&page))).await;
                    Err(Error::new(
                        ErrorCode::MicDenied,
                        bindings::i18n_message("voiceMicDenied"),
                    ))
                } else {
                    Err(Error::new(
                        ErrorCode::MicUnavailable,
                        format!(
                            "{} ({})",
                            bindings::i18n_message("voiceMicUnavailable"),
                            js_message(&e)
                        ),
                    ))
                }
            }
        }
    }

    pub(super) fn stop(self: &Rc<Self>) -> Value {
        let capture = self.capture.borrow_mut().take();
        let was_listening = capture.is_some();
        if let Some(capture) = capture {
            if let Some(stream) = capture.stream {
                for track in stream.get_tracks().iter() {
                    if let Ok(track) = track.dyn_into::<web_sys::MediaStreamTrack>() {
                        track.stop();
                    }
                }
            }
            let _ = capture.context.close();
        }
        let effects = self
            .coordinator
            .borrow_mut()
            .listening_stopped(was_listening, js_sys::Date::now());
        self.apply(effects);
        self.status()
    }

    /// The mic button or Alt+Shift+L: listen (if not yet) and take the next
    /// utterance as a command.
    async fn trigger(self: &Rc<Self>, source: &VoiceSource) -> Value {
        let answer = self.start(source).await;
        if answer["ok"] == true {
            let effects = self.coordinator.borrow_mut().triggered();
            self.apply(effects);
        }
        answer
    }

    // ---- models ----

    /// Downloads (or finds) a model, loads it and makes it the one used
    /// for commands (in the command model's worker when there are two).
    async fn install(
        self: &Rc<Self>,
        model: &str,
        url: Option<String>,
        quantize: Option<bool>,
    ) -> Value {
        let _turn = self.models.lock().await;
        let settings = match self.settings().await {
            Ok(settings) => settings,
            Err(e) => return failure(e),
        };
        let role = match self.command_worker(&settings, model).await {
            Ok(role) => role,
            Err(e) => return failure(e),
        };
        let quantize = quantize.unwrap_or(settings.speech_quantized);
        let answer = self.load(role, model, url, quantize).await;
        self.select(answer).await
    }

    /// The worker that will transcribe commands with `model`: the second
    /// one when the settings name a different wake-word model.
    async fn command_worker(
        self: &Rc<Self>,
        settings: &Settings,
        model: &str,
    ) -> Result<WorkerRole, Error> {
        self.start_worker(WorkerRole::Listen).await?;
        if settings.wake_model().is_some_and(|wake| wake != model) {
            self.start_worker(WorkerRole::Command).await?;
            return Ok(WorkerRole::Command);
        }
        Ok(WorkerRole::Listen)
    }

    /// A loaded model becomes the settings' speech model.
    async fn select(self: &Rc<Self>, answer: Result<ModelLoaded, Error>) -> Value {
        let loaded = match answer {
            Ok(loaded) => loaded,
            Err(e) => return failure(e),
        };
        let patch = json!({ "type": "set_settings", "settings": { "speechModel": loaded.model } });
        let saved = self.background.handle(patch).await;
        if saved["ok"] != true {
            return saved;
        }
        answer_json(&loaded)
    }

    /// Model files from the options page: `{model, config, tokenizer,
    /// weights}` as ArrayBuffers.
    async fn import(self: &Rc<Self>, model: &str, quantize: bool, message: JsValue) -> Value {
        let _turn = self.models.lock().await;
        let settings = match self.settings().await {
            Ok(settings) => settings,
            Err(e) => return failure(e),
        };
        let role = match self.command_worker(&settings, model).await {
            Ok(role) => role,
            Err(e) => return failure(e),
        };
        let request = ToWorker::Import {
            model: model.to_string(),
            quantize,
            fast: false,
        };
        let answer = self.worker(role).ask(&request, Some(&message)).await;
        let answer = self.loaded(role, answer);
        self.select(answer).await
    }

    async fn remove(self: &Rc<Self>, model: &str) -> Value {
        if let Err(e) = self.start_worker(WorkerRole::Listen).await {
            return failure(e);
        }
        let _turn = self.models.lock().await;
        // Removed from storage first: a model that cannot be (one bundled
        // in the .xpi) stays loaded and listening goes on.
        let request = ToWorker::Remove {
            model: model.to_string(),
        };
        let installed = match self.listener.ask(&request, None).await {
            Ok(FromWorker::Models { installed, .. }) => installed,
            Ok(other) => return failure(unexpected(&other)),
            Err(e) => return failure(e),
        };
        for role in [WorkerRole::Listen, WorkerRole::Command] {
            if self.holds(role, model) {
                self.stop();
                self.worker(role).post(&ToWorker::Unload);
                self.coordinator.borrow_mut().model_unloaded(role);
            }
        }
        let settings = match self.settings().await {
            Ok(settings) => settings,
            Err(e) => return failure(e),
        };
        for (key, value) in [
            ("speechModel", &settings.speech_model),
            ("speechWakeModel", &settings.speech_wake_model),
        ] {
            if value == model {
                let patch = json!({ "type": "set_settings", "settings": { key: models::NONE } });
                self.background.handle(patch).await;
            }
        }
        answer_json(&ModelsAnswer {
            ok: true,
            installed,
            ..Default::default()
        })
    }

    async fn list(self: &Rc<Self>) -> Value {
        if let Err(e) = self.start_worker(WorkerRole::Listen).await {
            return failure(e);
        }
        let installed = match self.listener.ask(&ToWorker::Installed, None).await {
            Ok(FromWorker::Models { installed, .. }) => installed,
            Ok(other) => return failure(unexpected(&other)),
            Err(e) => return failure(e),
        };
        let status = self.coordinator.borrow().status();
        answer_json(&ModelsAnswer {
            ok: true,
            installed,
            loaded: Some(status.model),
            wake_loaded: Some(status.wake_model),
        })
    }

    // ---- pages ----

    /// A popup or options page connected: it hears every voice event.
    pub fn connect(self: &Rc<Self>, port: JsValue) {
        let name = get(&port, "name").as_string().unwrap_or_default();
        self.ports.borrow_mut().push((port.clone(), name.clone()));
        let me = self.clone();
        let target = port.clone();
        let on_disconnect = Closure::<dyn Fn()>::new(move || {
            me.ports
                .borrow_mut()
                .retain(|(p, _)| !js_sys::Object::is(p, &target));
            me.coordinator.borrow_mut().page_disconnected(&name);
        });
        let event = get(&port, "onDisconnect");
        if let Ok(add) = get(&event, "addListener").dyn_into::<js_sys::Function>() {
            let _ = add.call1(&event, on_disconnect.as_ref());
        }
        on_disconnect.forget();
        let hello = {
            let name = get(&port, "name").as_string().unwrap_or_default();
            self.coordinator.borrow_mut().page_connected(&name)
        };
        let _ = post_to(&port, &to_js(&hello.to_json()));
    }
}

/// The longest a heard command waits for the worker to hear it again
/// guided (it takes well under a second for tiny.en in Firefox).
const GUIDED_LIMIT_MS: i32 = 5_000;

fn post_to(port: &JsValue, message: &JsValue) -> Result<(), JsValue> {
    let post: js_sys::Function = get(port, "postMessage").dyn_into()?;
    post.call1(port, message).map(|_| ())
}

fn unexpected(answer: &FromWorker) -> Error {
    Error::failed(format!(
        "the speech worker answered '{}' unexpectedly",
        answer.kind()
    ))
}

/// Gives the worklet a new channel to the listening worker: it posts its
/// blocks straight there, with no hop through the background.
fn hand_port(node: &AudioWorkletNode, listener: &SpeechWorker) -> Result<(), JsValue> {
    let channel = MessageChannel::new()?;
    node.port()?
        .post_message_with_transferable(&channel.port1(), &Array::of1(&channel.port1()))?;
    let port_message = to_js(&ToWorker::Port.to_json());
    let _ = Reflect::set(&port_message, &"port".into(), &channel.port2());
    listener.post_transfer(&port_message, &channel.port2())
}
