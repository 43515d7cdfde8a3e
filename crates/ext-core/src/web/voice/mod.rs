//! Voice in the background page, the browser's side of it: the speech
//! workers' lifecycle, the microphone (or a sound file, for tests and
//! demos) through an AudioWorklet into the listening worker, model
//! requests, and carrying out the [`Effect`]s that the pure
//! [`Coordinator`] decides on. The workers' lifecycle is in `workers`,
//! the audio graph in `listening`, model requests in `model_requests`.

use super::bindings::{self, to_js};
use super::firefox::FirefoxBrowser;
use super::speech_worker::SpeechWorker;
use super::storage::LocalStorage;
use crate::background::{Background, Heard};
use crate::voice::{Coordinator, Effect};
use ext_protocol::answer::{
    to_json as answer_json, Failure, MicrophoneProcessing, MicrophoneSettings, VoiceSourceAnswer,
};
use ext_protocol::port::ToPage;
use ext_protocol::request::{Request, VoiceSource};
use ext_protocol::settings::Settings;
use ext_protocol::worker::{FromWorker, ToWorker, WorkerRole};
use ext_protocol::Error;
use js_sys::Reflect;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{AudioContext, AudioWorkletNode, MediaStream};

mod listening;
mod model_requests;
mod workers;

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

    /// Something voice needed failed: the coordinator tells the pages.
    fn report_failure(self: &Rc<Self>, error: &Error) {
        let effects = self
            .coordinator
            .borrow_mut()
            .failed(&error.to_json(), js_sys::Date::now());
        self.apply(effects);
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
                    me.report_failure(&e);
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
