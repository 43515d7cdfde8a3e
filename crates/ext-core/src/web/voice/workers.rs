//! The speech workers' lifecycle: starting them (and again after a
//! failure), loading models into them, connecting the two, and what the
//! listening one is told of the tabs.

use super::{unexpected, Voice};
use crate::vocabulary;
use crate::web::bindings::{self, js_message, to_js};
use crate::web::speech_worker::SpeechWorker;
use ext_protocol::answer::ModelLoaded;
use ext_protocol::models;
use ext_protocol::settings::Settings;
use ext_protocol::worker::{FromWorker, LoadModel, State, ToWorker, WorkerRole};
use ext_protocol::{Error, ErrorCode};
use futures::future::Either;
use js_sys::{Array, Reflect};
use serde_json::json;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{AudioWorkletNode, MessageChannel};

/// The longest a heard command waits for the worker to hear it again
/// guided (it takes well under a second for tiny.en in Firefox).
const GUIDED_LIMIT_MS: i32 = 5_000;

impl Voice {
    /// `debug_worker_trap` (development installs only): the listening
    /// worker traps.
    pub fn debug_trap(&self) {
        self.listener.post(&ToWorker::DebugTrap);
    }

    /// A worker failed while listening: it starts again with its model
    /// (from the .xpi or the cache, no download) and, for the listening
    /// one, the microphone is handed to it again; the popup is told.
    pub(super) fn recover(self: &Rc<Self>, role: WorkerRole) {
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
    pub(super) async fn start_worker(self: &Rc<Self>, role: WorkerRole) -> Result<(), Error> {
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
    pub(super) async fn send_vocabulary(&self) {
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
    pub(super) async fn hear_guided_for(&self, text: &str) -> Option<String> {
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
    pub(super) async fn ensure_model(self: &Rc<Self>) -> Result<(), Error> {
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
    pub(super) async fn choose_bundled(self: &Rc<Self>) -> Result<Settings, Error> {
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
    pub(super) fn single_worker(&self) {
        self.commander.stop();
        self.coordinator
            .borrow_mut()
            .worker_stopped(WorkerRole::Command);
        self.listener.post(&ToWorker::Delegate { on: false });
    }

    /// A channel between the two workers: the listening one hands command
    /// utterances to the command model's one, not through this page.
    pub(super) fn connect_workers(&self) -> Result<(), Error> {
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

    pub(super) async fn load(
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
    pub(super) fn loaded(
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
                    second_opinion: status.second_opinion,
                })
            }
            other => Err(Error::failed(format!(
                "the speech worker answered '{}' to a load",
                other.kind()
            ))),
        }
    }
}

/// Gives the worklet a new channel to the listening worker: it posts its
/// blocks straight there, with no hop through the background.
pub(super) fn hand_port(node: &AudioWorkletNode, listener: &SpeechWorker) -> Result<(), JsValue> {
    let channel = MessageChannel::new()?;
    node.port()?
        .post_message_with_transferable(&channel.port1(), &Array::of1(&channel.port1()))?;
    let port_message = to_js(&ToWorker::Port.to_json());
    let _ = Reflect::set(&port_message, &"port".into(), &channel.port2());
    listener.post_transfer(&port_message, &channel.port2())
}
