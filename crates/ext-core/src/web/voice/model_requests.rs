//! Model requests from the popup and the options page: install, import,
//! remove and list.

use super::{failure, unexpected, Voice};
use ext_protocol::answer::{to_json as answer_json, ModelLoaded, ModelsAnswer};
use ext_protocol::models;
use ext_protocol::settings::Settings;
use ext_protocol::worker::{FromWorker, ToWorker, WorkerRole};
use ext_protocol::Error;
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

impl Voice {
    /// Downloads (or finds) a model, loads it and makes it the one used
    /// for commands (in the command model's worker when there are two).
    pub(super) async fn install(
        self: &Rc<Self>,
        model: &str,
        url: Option<String>,
        quantize: Option<bool>,
    ) -> Value {
        let _turn = self.models.lock().await;
        let (settings, role) = match self.command_worker(model).await {
            Ok(found) => found,
            Err(e) => return failure(e),
        };
        let quantize = quantize.unwrap_or(settings.speech_quantized);
        let answer = self.load(role, model, url, quantize).await;
        self.select(answer).await
    }

    /// The settings, and the worker that will transcribe commands with
    /// `model`: the second one when they name a different wake-word model.
    async fn command_worker(self: &Rc<Self>, model: &str) -> Result<(Settings, WorkerRole), Error> {
        let settings = self.settings().await?;
        self.start_worker(WorkerRole::Listen).await?;
        if settings.wake_model().is_some_and(|wake| wake != model) {
            self.start_worker(WorkerRole::Command).await?;
            return Ok((settings, WorkerRole::Command));
        }
        Ok((settings, WorkerRole::Listen))
    }

    /// A loaded model becomes the settings' speech model.
    pub(super) async fn select(self: &Rc<Self>, answer: Result<ModelLoaded, Error>) -> Value {
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
    pub(super) async fn import(
        self: &Rc<Self>,
        model: &str,
        quantize: bool,
        message: JsValue,
    ) -> Value {
        let _turn = self.models.lock().await;
        let role = match self.command_worker(model).await {
            Ok((_, role)) => role,
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

    pub(super) async fn remove(self: &Rc<Self>, model: &str) -> Value {
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

    pub(super) async fn list(self: &Rc<Self>) -> Value {
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
}
