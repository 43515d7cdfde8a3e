//! Voice in the background page: the speech worker, the microphone (or a
//! sound file, for tests and demos) through an AudioWorklet into it, the
//! badge, and the commands the worker hears, run like typed ones.
//!
//! The worker owns the audio front end, Whisper and the wake-word session;
//! this side starts and feeds it, keeps the settings it needs in step, and
//! tells the popup (over `runtime.connect` ports) or a notification what
//! happened.

use super::api::{self, error_answer as error, js_message, to_js, to_json};
use super::firefox::FirefoxBrowser;
use super::speech_worker::SpeechWorker;
use super::storage::LocalStorage;
use crate::api::Background;
use crate::settings::merge;
use crate::vocabulary;
use js_sys::{Array, Reflect};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{
    AudioBuffer, AudioBufferSourceNode, AudioContext, AudioContextOptions, AudioWorkletNode,
    MediaStream, MediaStreamConstraints, MessageChannel, Response,
};

pub type Bg = Rc<Background<FirefoxBrowser, LocalStorage>>;

/// Events kept for `voice_status` (the popup's transcript when it opens).
const RECENT: usize = 30;

/// What the toolbar badge says.
#[derive(Clone, Copy, PartialEq)]
enum Badge {
    Idle,
    Listening,
    Processing,
    Error,
}

/// The audio graph while listening.
struct Capture {
    context: AudioContext,
    stream: Option<MediaStream>,
    // Kept so the graph is not collected while it runs.
    _node: AudioWorkletNode,
    _source: JsValue,
}

pub struct Voice {
    background: Bg,
    /// Audio, detector and wake word (and commands, when it is alone).
    listener: Rc<SpeechWorker>,
    /// The command model's worker, with a separate wake-word model.
    commander: Rc<SpeechWorker>,
    /// Whether the two are connected.
    peered: Cell<bool>,
    /// Held while models are being chosen and loaded.
    models: futures::lock::Mutex<()>,
    capture: RefCell<Option<Capture>>,
    recent: RefCell<VecDeque<Value>>,
    level: Cell<Option<f64>>,
    mode: RefCell<String>,
    badge: Cell<Option<Badge>>,
    /// Open popups and options pages.
    ports: RefCell<Vec<JsValue>>,
    /// A sound file that listening plays instead of the microphone when it
    /// is started without one (`voice_source`): how tests and demos drive
    /// the mic button and the keyboard shortcut.
    source: RefCell<Option<Value>>,
}

/// The separate wake-word model the settings name, if any (none, or the
/// command model itself, means one worker does both).
fn wake_model(settings: &Value) -> Option<String> {
    let wake = settings["speechWakeModel"].as_str().unwrap_or("none");
    (wake != "none" && settings["speechModel"] != wake).then(|| wake.to_string())
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

impl Voice {
    pub fn new(background: Bg) -> Rc<Self> {
        Rc::new(Self {
            background,
            listener: SpeechWorker::new("listen"),
            commander: SpeechWorker::new("command"),
            peered: Cell::new(false),
            models: futures::lock::Mutex::new(()),
            capture: RefCell::default(),
            recent: RefCell::default(),
            level: Cell::default(),
            mode: RefCell::new("passive".into()),
            badge: Cell::default(),
            ports: RefCell::default(),
            source: RefCell::default(),
        })
    }

    /// The messages this module answers (before the rest of the API sees
    /// them: model files arrive as bytes, which JSON would mangle).
    pub fn handles(kind: &str) -> bool {
        kind.starts_with("voice_") || kind.starts_with("model_")
    }

    pub async fn handle(self: &Rc<Self>, kind: &str, message: JsValue) -> Value {
        let msg = to_json(&message).unwrap_or(Value::Null);
        match kind {
            "voice_start" => self.start(&msg).await,
            "voice_source" => {
                let url = msg["audio_url"].as_str().filter(|u| !u.is_empty());
                *self.source.borrow_mut() = url.map(|_| msg.clone());
                json!({ "ok": true, "audio_url": url })
            }
            "voice_stop" => self.stop(),
            "voice_trigger" => self.trigger(&msg).await,
            "voice_toggle" => {
                if self.capture.borrow().is_some() {
                    self.stop()
                } else {
                    self.trigger(&msg).await
                }
            }
            "voice_status" => self.status(),
            "model_install" => self.install(&msg).await,
            "model_import" => self.import(message).await,
            "model_remove" => self.remove(&msg).await,
            "model_list" => self.list().await,
            other => error(
                "UNKNOWN_COMMAND",
                format!(
                    "Unknown message type '{}'. Voice types: voice_start, voice_stop, voice_trigger, \
                     voice_toggle, voice_status, voice_source, model_install, model_import, model_remove, model_list.",
                    crate::tools::clip(other, 40)
                ),
            ),
        }
    }

    /// Whether there are two workers, and the one that holds the command
    /// model.
    fn command_holder(&self) -> (bool, &SpeechWorker) {
        let two = self.commander.is_running();
        (two, if two { &self.commander } else { &self.listener })
    }

    fn status(&self) -> Value {
        let (two, command) = self.command_holder();
        json!({
            "ok": true,
            "listening": self.capture.borrow().is_some(),
            "mode": *self.mode.borrow(),
            "model": *command.loaded.borrow(),
            "wake_model": if two { self.listener.loaded.borrow().clone() } else { None },
            "workers": if two { 2 } else { 1 },
            "memory_bytes": {
                "listen": self.listener.memory_bytes.get(),
                "command": if two { self.commander.memory_bytes.get() } else { None },
            },
            "level_db": self.level.get(),
            "events": self.recent.borrow().iter().cloned().collect::<Vec<_>>(),
        })
    }

    async fn settings(&self) -> Value {
        let mut answer = self.background.handle(json!({ "type": "settings" })).await;
        answer["settings"].take()
    }

    /// Settings changed: the worker follows at once.
    pub fn settings_changed(self: &Rc<Self>, settings: &Value) {
        self.configure(settings);
        if wake_model(settings).is_none() && self.commander.is_running() {
            self.single_worker();
        }
        if self.capture.borrow().is_some() {
            // Listening: the models follow (loading only what changed).
            let me = self.clone();
            spawn_local(async move {
                if let Err(e) = me.ensure_model().await {
                    me.remember(json!({ "type": "error", "error": e["error"] }));
                    me.set_badge(Badge::Error);
                }
            });
        }
    }

    fn configure(&self, settings: &Value) {
        let mut message = settings.clone();
        message["type"] = "configure".into();
        self.listener.post(&message);
        self.commander.post(&message);
    }

    /// A message for the listening worker.
    fn post(&self, message: &Value) {
        self.listener.post(message);
    }

    /// The listening worker, started (and configured) on first use.
    async fn worker(self: &Rc<Self>) -> Result<(), Value> {
        self.start_worker(&self.listener).await
    }

    /// Starts `worker` unless it runs; a request arriving while it starts
    /// waits for it too.
    async fn start_worker(self: &Rc<Self>, worker: &Rc<SpeechWorker>) -> Result<(), Value> {
        let role = worker.role;
        let (me, failed) = (self.clone(), self.clone());
        let started = worker
            .start(
                move |message| me.on_worker(role, message),
                move |message| {
                    // Whichever failed, the two are no longer connected.
                    failed.peered.set(false);
                    if role == "command" {
                        // The listening worker transcribes commands itself
                        // (with the wake model) until the next start.
                        failed.post(&json!({ "type": "delegate", "on": false }));
                    }
                    failed.remember(json!({ "type": "error", "worker": role,
                        "error": { "code": "EXECUTION_FAILED", "message": message } }));
                    failed.set_badge(Badge::Error);
                },
            )
            .await?;
        if started {
            // A new worker knows no peer, and needs the settings.
            self.peered.set(false);
            let mut configure = self.settings().await;
            configure["type"] = "configure".into();
            worker.post(&configure);
        }
        Ok(())
    }

    fn on_worker(self: &Rc<Self>, role: &str, mut message: Value) {
        let kind = message["type"].as_str().unwrap_or_default().to_string();
        if role == "command" {
            // The command model's worker only loads and transcribes: its
            // loading, progress and errors are shown; listening states are
            // the listening worker's.
            let shown = match kind.as_str() {
                "progress" | "error" => true,
                "status" => matches!(
                    message["state"].as_str(),
                    Some("loading" | "quantizing" | "ready" | "unloaded")
                ),
                _ => false,
            };
            if !shown {
                return;
            }
            message["worker"] = role.into();
        }
        if let Some(bytes) = message["command_memory_bytes"].as_f64() {
            self.commander.memory_bytes.set(Some(bytes));
        }
        match kind.as_str() {
            "level" => {
                self.level.set(message["db"].as_f64());
                self.broadcast(&message);
            }
            "progress" => {
                // Kept once per file: its latest count.
                self.recent.borrow_mut().retain(|e| {
                    !(e["type"] == "progress"
                        && e["model"] == message["model"]
                        && e["file"] == message["file"])
                });
                self.remember(message);
            }
            "partial" => {
                // Only the latest live transcript is worth keeping.
                self.recent.borrow_mut().retain(|e| e["type"] != "partial");
                self.remember(message);
            }
            "status" => {
                match message["state"].as_str() {
                    Some("processing") => self.set_badge(Badge::Processing),
                    Some(mode @ ("passive" | "active")) => {
                        *self.mode.borrow_mut() = mode.into();
                        self.listening_badge();
                    }
                    _ => {}
                }
                self.remember(message);
            }
            "listening" => {
                self.listening_badge();
                self.broadcast(&message);
                // The tabs may have changed since the last utterance.
                let me = self.clone();
                spawn_local(async move { me.send_vocabulary().await });
            }
            "wake" => {
                *self.mode.borrow_mut() = "active".into();
                self.listening_badge();
                self.remember(message);
            }
            "command" => {
                *self.mode.borrow_mut() = "passive".into();
                let me = self.clone();
                spawn_local(async move { me.run(message).await });
            }
            "error" => {
                self.set_badge(Badge::Error);
                self.remember(message);
            }
            _ => self.remember(message),
        }
    }

    /// Runs what the worker heard like a typed command.
    async fn run(self: &Rc<Self>, mut message: Value) {
        let text = message["text"].as_str().unwrap_or_default().to_string();
        let answer = self
            .background
            .handle(json!({ "type": "command", "text": text }))
            .await;
        self.listening_badge();
        let reply = answer["reply"]
            .as_str()
            .or(answer["error"]["message"].as_str())
            .unwrap_or_default()
            .to_string();
        message["answer"] = answer;
        // Only an open popup shows the answer; an options page does not.
        let popup_open = self
            .ports
            .borrow()
            .iter()
            .any(|p| get(p, "name").as_string().as_deref() == Some("popup"));
        if !popup_open {
            super::notify(format!("“{text}”: {reply}")).await;
        }
        self.remember(message);
    }

    /// Keeps an event for `voice_status`, stamped with when it reached
    /// the background (ms since the epoch: `make bench` times the path from
    /// "processing" to the command's answer with it), and passes it on.
    fn remember(&self, mut event: Value) {
        event["at_ms"] = js_sys::Date::now().into();
        let mut recent = self.recent.borrow_mut();
        if recent.len() == RECENT {
            recent.pop_front();
        }
        recent.push_back(event.clone());
        drop(recent);
        self.broadcast(&event);
    }

    /// A popup or options page connected: it hears every voice event.
    pub fn connect(self: &Rc<Self>, port: JsValue) {
        self.ports.borrow_mut().push(port.clone());
        let me = self.clone();
        let target = port.clone();
        let on_disconnect = Closure::<dyn Fn()>::new(move || {
            me.ports
                .borrow_mut()
                .retain(|p| !js_sys::Object::is(p, &target));
        });
        let event = get(&port, "onDisconnect");
        if let Ok(add) = get(&event, "addListener").dyn_into::<js_sys::Function>() {
            let _ = add.call1(&event, on_disconnect.as_ref());
        }
        on_disconnect.forget();
        let _ = self.post_to(&port, &json!({ "type": "voice", "status": self.status() }));
    }

    fn post_to(&self, port: &JsValue, message: &Value) -> Result<(), JsValue> {
        let post: js_sys::Function = get(port, "postMessage").dyn_into()?;
        post.call1(port, &to_js(message)).map(|_| ())
    }

    fn broadcast(&self, event: &Value) {
        let message = json!({ "type": "voice", "event": event });
        for port in self.ports.borrow().iter() {
            let _ = self.post_to(port, &message);
        }
    }

    fn listening_badge(&self) {
        let listening = self.capture.borrow().is_some();
        self.set_badge(if listening {
            Badge::Listening
        } else {
            Badge::Idle
        });
    }

    fn set_badge(&self, badge: Badge) {
        if self.badge.replace(Some(badge)) == Some(badge) {
            return;
        }
        let (text, background, color) = match badge {
            Badge::Idle => ("", "#00000000", "#ffffff"),
            Badge::Listening => ("MIC", "#058b00", "#ffffff"),
            Badge::Processing => ("...", "#ffe900", "#000000"),
            Badge::Error => ("ERR", "#d70022", "#ffffff"),
        };
        spawn_local(async move {
            let _ = api::run(api::set_badge_text(&to_js(&json!({ "text": text })))).await;
            let _ = api::run(api::set_badge_background(&to_js(
                &json!({ "color": background }),
            )))
            .await;
            let _ = api::run(api::set_badge_text_color(&to_js(
                &json!({ "color": color }),
            )))
            .await;
        });
    }

    /// The open tabs' names, for Whisper's prompt (read straight from the
    /// browser: a tool call would land in the action log).
    async fn send_vocabulary(&self) {
        use crate::browser::Browser;
        let tabs = self.background.browser().tabs().await.unwrap_or_default();
        let prompt = vocabulary::prompt(tabs.iter().map(|t| (t.title.as_str(), t.url.as_str())));
        self.post(&json!({ "type": "vocabulary", "prompt": prompt }));
    }

    /// Loads the models the settings name, unless they are loaded already:
    /// the command model in the listening worker, or, with a separate
    /// wake-word model, that one there and the command model in a second
    /// worker, connected to the first.
    async fn ensure_model(self: &Rc<Self>) -> Result<(), Value> {
        // One at a time, with the settings as they are once it is our turn:
        // two quick changes must not leave a worker on the older model.
        let _turn = self.models.lock().await;
        let settings = &self.settings().await;
        let model = settings["speechModel"]
            .as_str()
            .unwrap_or("none")
            .to_string();
        if model == "none" {
            return Err(error("NO_MODEL", api::i18n_message("voiceNoModel")));
        }
        let quantize = settings["speechQuantized"].as_bool().unwrap_or(true);
        let loaded = |answer: Value| {
            if answer["ok"] == true {
                Ok(())
            } else {
                Err(answer)
            }
        };
        let Some(wake) = wake_model(settings) else {
            if self.commander.is_running() {
                self.single_worker();
            }
            self.worker().await?;
            if !self.listener.holds(&model) {
                loaded(self.load(&self.listener, &model, None, quantize).await)?;
            }
            return Ok(());
        };
        self.worker().await?;
        self.start_worker(&self.commander).await?;
        // The command model first: if it cannot load, the listening worker
        // keeps the model it takes commands with.
        if !self.commander.holds(&model) {
            loaded(self.load(&self.commander, &model, None, quantize).await)?;
        }
        if !self.listener.holds(&wake) {
            loaded(self.load(&self.listener, &wake, None, quantize).await)?;
        }
        if !self.peered.get() {
            self.connect_workers()?;
        }
        Ok(())
    }

    /// Back to one worker: the command model's ends, and the listening one
    /// transcribes commands (and what was handed over) itself.
    fn single_worker(&self) {
        self.commander.stop();
        self.peered.set(false);
        self.post(&json!({ "type": "delegate", "on": false }));
    }

    /// A channel between the two workers: the listening one hands command
    /// utterances to the command model's one, not through this page.
    fn connect_workers(&self) -> Result<(), Value> {
        let failed = |e: JsValue| {
            error(
                "EXECUTION_FAILED",
                format!("Connecting the speech workers failed: {}", js_message(&e)),
            )
        };
        let channel = MessageChannel::new().map_err(failed)?;
        for (worker, role, port) in [
            (&self.listener, "listen", channel.port1()),
            (&self.commander, "command", channel.port2()),
        ] {
            let message = js_sys::Object::new();
            let _ = Reflect::set(&message, &"type".into(), &"peer".into());
            let _ = Reflect::set(&message, &"role".into(), &role.into());
            let _ = Reflect::set(&message, &"port".into(), &port);
            worker.post_transfer(&message, &port).map_err(failed)?;
        }
        self.peered.set(true);
        Ok(())
    }

    async fn load(
        &self,
        worker: &SpeechWorker,
        model: &str,
        url: Option<&str>,
        quantize: bool,
    ) -> Value {
        let request = json!({ "type": "load", "model": model, "url": url, "quantize": quantize });
        let answer = worker.ask("load", to_js(&request)).await;
        self.loaded_answer(worker, answer)
    }

    /// The worker's answer to a load, as the message API's answer.
    fn loaded_answer(&self, worker: &SpeechWorker, answer: Value) -> Value {
        match answer["type"].as_str() {
            Some("status") if answer["state"] == "ready" => {
                let model = answer["model_id"].as_str().map(String::from);
                *worker.loaded.borrow_mut() = model.clone();
                let mut ready = answer.clone();
                ready["worker"] = worker.role.into();
                self.remember(ready);
                json!({
                    "ok": true,
                    "model": model,
                    "worker": worker.role,
                    "source": answer["source"],
                    "load_ms": answer["load_ms"],
                    "shape": answer["model"],
                    "memory_bytes": answer["memory_bytes"],
                })
            }
            _ if answer["ok"] == false => answer,
            _ => json!({ "ok": false, "error": answer["error"] }),
        }
    }

    /// Starts listening: the microphone, or `audio_url` (a sound file
    /// played through the same graph); `sample_rate` picks the
    /// AudioContext's rate (the device's by default).
    async fn start(self: &Rc<Self>, msg: &Value) -> Value {
        if self.capture.borrow().is_some() {
            return self.status();
        }
        let source = self.source.borrow().clone();
        let msg = &match source {
            // The file given to `voice_source`, unless this start names one.
            Some(mut source) if msg["audio_url"].is_null() => {
                merge(&mut source, msg);
                source
            }
            _ => msg.clone(),
        };
        if let Err(e) = self.ensure_model().await {
            self.set_badge(Badge::Error);
            return e;
        }
        self.send_vocabulary().await;
        let echo = msg["echo_audio"].as_bool().unwrap_or(false);
        self.post(&json!({ "type": "echo", "audio": echo }));
        match self.open_audio(msg).await {
            Ok(capture) => {
                *self.capture.borrow_mut() = Some(capture);
                self.set_badge(Badge::Listening);
                self.remember(json!({ "type": "status", "state": "listening" }));
                self.status()
            }
            Err(e) => {
                self.set_badge(Badge::Error);
                e
            }
        }
    }

    async fn open_audio(&self, msg: &Value) -> Result<Capture, Value> {
        let failed = |e: JsValue| {
            error(
                "EXECUTION_FAILED",
                format!("Audio did not start: {}", js_message(&e)),
            )
        };
        let options = AudioContextOptions::new();
        if let Some(rate) = msg["sample_rate"].as_f64() {
            options.set_sample_rate(rate as f32);
        }
        let context = AudioContext::new_with_context_options(&options).map_err(failed)?;
        let worklet = context.audio_worklet().map_err(failed)?;
        JsFuture::from(
            worklet
                .add_module(&api::runtime_url("worklet.js"))
                .map_err(failed)?,
        )
        .await
        .map_err(failed)?;
        let node = AudioWorkletNode::new(&context, "tw-capture").map_err(failed)?;
        // The worklet posts straight to the worker: no hop through here.
        let channel = MessageChannel::new().map_err(failed)?;
        node.port()
            .map_err(failed)?
            .post_message_with_transferable(&channel.port1(), &Array::of1(&channel.port1()))
            .map_err(failed)?;
        let port_message = js_sys::Object::new();
        let _ = Reflect::set(&port_message, &"type".into(), &"port".into());
        let _ = Reflect::set(&port_message, &"port".into(), &channel.port2());
        self.listener
            .post_transfer(&port_message, &channel.port2())
            .map_err(failed)?;
        let (source, stream): (JsValue, Option<MediaStream>) = match msg["audio_url"].as_str() {
            Some(url) => {
                let source = self.play_file(&context, url).await?;
                source.connect_with_audio_node(&node).map_err(failed)?;
                source.start().map_err(failed)?;
                (source.into(), None)
            }
            None => {
                let stream = self.microphone().await?;
                let source = context
                    .create_media_stream_source(&stream)
                    .map_err(failed)?;
                source.connect_with_audio_node(&node).map_err(failed)?;
                (source.into(), Some(stream))
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
            _node: node,
            _source: source,
        })
    }

    async fn play_file(
        &self,
        context: &AudioContext,
        url: &str,
    ) -> Result<AudioBufferSourceNode, Value> {
        let failed = |e: JsValue| error("INVALID_ARGS", format!("{url}: {}", js_message(&e)));
        let window = web_sys::window().ok_or_else(|| error("EXECUTION_FAILED", "no window"))?;
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
    async fn microphone(&self) -> Result<MediaStream, Value> {
        let window = web_sys::window().ok_or_else(|| error("EXECUTION_FAILED", "no window"))?;
        let devices = window
            .navigator()
            .media_devices()
            .map_err(|e| error("MIC_UNAVAILABLE", js_message(&e)))?;
        let constraints = MediaStreamConstraints::new();
        constraints.set_audio(&JsValue::TRUE);
        let promise = devices
            .get_user_media_with_constraints(&constraints)
            .map_err(|e| error("MIC_UNAVAILABLE", js_message(&e)))?;
        match JsFuture::from(promise).await {
            Ok(stream) => Ok(stream.unchecked_into()),
            Err(e) => {
                let name = e
                    .dyn_ref::<web_sys::DomException>()
                    .map(|d| d.name())
                    .unwrap_or_default();
                if name == "NotAllowedError" || name == "SecurityError" {
                    let page = json!({ "url": api::runtime_url("permission.html") });
                    let _ = api::run(api::tabs_create(&to_js(&page))).await;
                    Err(error("MIC_DENIED", api::i18n_message("voiceMicDenied")))
                } else {
                    Err(error(
                        "MIC_UNAVAILABLE",
                        format!(
                            "{} ({})",
                            api::i18n_message("voiceMicUnavailable"),
                            js_message(&e)
                        ),
                    ))
                }
            }
        }
    }

    fn stop(self: &Rc<Self>) -> Value {
        if let Some(capture) = self.capture.borrow_mut().take() {
            if let Some(stream) = capture.stream {
                for track in stream.get_tracks().iter() {
                    if let Ok(track) = track.dyn_into::<web_sys::MediaStreamTrack>() {
                        track.stop();
                    }
                }
            }
            let _ = capture.context.close();
            self.post(&json!({ "type": "stop" }));
            self.remember(json!({ "type": "status", "state": "stopped" }));
        }
        self.set_badge(Badge::Idle);
        self.status()
    }

    /// The mic button or Alt+Shift+L: listen (if not yet) and take the next
    /// utterance as a command.
    async fn trigger(self: &Rc<Self>, msg: &Value) -> Value {
        let answer = self.start(msg).await;
        if answer["ok"] == true {
            self.post(&json!({ "type": "trigger" }));
            *self.mode.borrow_mut() = "active".into();
        }
        answer
    }

    /// Downloads (or finds) a model, loads it and makes it the one used
    /// for commands (in the command model's worker when there are two).
    async fn install(self: &Rc<Self>, msg: &Value) -> Value {
        let Some(model) = msg["model"].as_str() else {
            return error("INVALID_ARGS", "model_install needs 'model', a model name.");
        };
        let _turn = self.models.lock().await;
        let settings = self.settings().await;
        let worker = match self.command_worker(&settings, model).await {
            Ok(worker) => worker,
            Err(e) => return e,
        };
        let quantize = msg["quantize"]
            .as_bool()
            .or(settings["speechQuantized"].as_bool())
            .unwrap_or(true);
        let answer = self
            .load(&worker, model, msg["url"].as_str(), quantize)
            .await;
        self.select(answer).await
    }

    /// The worker that will transcribe commands with `model`: the second
    /// one when the settings name a different wake-word model.
    async fn command_worker(
        self: &Rc<Self>,
        settings: &Value,
        model: &str,
    ) -> Result<Rc<SpeechWorker>, Value> {
        self.worker().await?;
        if wake_model(settings).is_some_and(|wake| wake != model) {
            self.start_worker(&self.commander).await?;
            return Ok(self.commander.clone());
        }
        Ok(self.listener.clone())
    }

    /// A loaded model becomes the settings' speech model.
    async fn select(self: &Rc<Self>, answer: Value) -> Value {
        if answer["ok"] == true {
            let patch =
                json!({ "type": "set_settings", "settings": { "speechModel": answer["model"] } });
            let saved = self.background.handle(patch).await;
            if saved["ok"] != true {
                return saved;
            }
        }
        answer
    }

    /// Model files from the options page: `{model, config, tokenizer,
    /// weights}` as ArrayBuffers.
    async fn import(self: &Rc<Self>, message: JsValue) -> Value {
        let model = Reflect::get(&message, &"model".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_default();
        let _turn = self.models.lock().await;
        let settings = self.settings().await;
        let worker = match self.command_worker(&settings, &model).await {
            Ok(worker) => worker,
            Err(e) => return e,
        };
        let _ = Reflect::set(&message, &"type".into(), &"import".into());
        let answer = worker.ask("import", message).await;
        let answer = self.loaded_answer(&worker, answer);
        self.select(answer).await
    }

    async fn remove(self: &Rc<Self>, msg: &Value) -> Value {
        let Some(model) = msg["model"].as_str() else {
            return error("INVALID_ARGS", "model_remove needs 'model', a model name.");
        };
        if let Err(e) = self.worker().await {
            return e;
        }
        let _turn = self.models.lock().await;
        // Removed from storage first: a model that cannot be (one bundled
        // in the .xpi) stays loaded and listening goes on.
        let answer = self
            .listener
            .ask(
                "remove",
                to_js(&json!({ "type": "remove", "model": model })),
            )
            .await;
        if answer["type"] != "models" {
            return json!({ "ok": false, "error": answer["error"] });
        }
        for worker in [&self.listener, &self.commander] {
            if worker.holds(model) {
                self.stop();
                worker.post(&json!({ "type": "unload" }));
                worker.loaded.borrow_mut().take();
            }
        }
        let settings = self.settings().await;
        for key in ["speechModel", "speechWakeModel"] {
            if settings[key] == model {
                let patch = json!({ "type": "set_settings", "settings": { key: "none" } });
                self.background.handle(patch).await;
            }
        }
        json!({ "ok": true, "installed": answer["installed"] })
    }

    async fn list(self: &Rc<Self>) -> Value {
        if let Err(e) = self.worker().await {
            return e;
        }
        let answer = self
            .listener
            .ask("installed", to_js(&json!({ "type": "installed" })))
            .await;
        if answer["type"] != "models" {
            return json!({ "ok": false, "error": answer["error"] });
        }
        let (two, command) = self.command_holder();
        json!({
            "ok": true,
            "installed": answer["installed"],
            "loaded": *command.loaded.borrow(),
            "wake_loaded": if two { self.listener.loaded.borrow().clone() } else { None },
        })
    }
}
