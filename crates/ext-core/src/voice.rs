//! The voice coordinator: what the background page does with what the
//! speech workers say, as pure logic. Each worker event, each listening
//! start and stop, each worker failure and each answered command goes in;
//! [`Effect`]s come out (post to the popup, set the badge, run a command,
//! notify, tell a worker something), which `web/voice/` carries out.
//! Keeping it here is what lets it be tested natively, event by event.
//!
//! There are one or two workers ([`WorkerRole`]): the listening one holds
//! the audio, the detector, the wake-word session and a model; with a
//! separate wake-word model, a second worker holds the command model and
//! the listening one hands it command utterances.

use ext_protocol::answer::{CommandAnswer, VoiceStatus, WorkerMemory};
use ext_protocol::port::ToPage;
use ext_protocol::worker::{CommandHeard, FromWorker, State, Status, ToWorker, WorkerRole};
use ext_protocol::Error;
use serde_json::{json, Value};
use std::collections::VecDeque;

/// Events kept for `voice_status` (the popup's transcript when it opens).
pub const RECENT: usize = 30;

/// What the toolbar badge says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Badge {
    Idle,
    /// "MIC"
    Listening,
    /// "..."
    Processing,
    /// "ERR"
    Error,
}

impl Badge {
    /// Text, background and text color.
    pub fn look(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Badge::Idle => ("", "#00000000", "#ffffff"),
            Badge::Listening => ("MIC", "#058b00", "#ffffff"),
            Badge::Processing => ("...", "#ffe900", "#000000"),
            Badge::Error => ("ERR", "#d70022", "#ffffff"),
        }
    }
}

/// Something the browser bindings do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// To every connected popup and options page.
    Broadcast(ToPage),
    SetBadge(Badge),
    /// Tell the listening worker the open tabs' names (they may have
    /// changed since the last utterance).
    SendVocabulary,
    /// Run what was heard like a typed command, then call
    /// [`Coordinator::command_answered`] with the answer.
    RunCommand {
        text: String,
        event: Value,
        /// See [`ext_protocol::worker::CommandHeard::wake_unsure`].
        wake_unsure: bool,
        /// See [`ext_protocol::worker::CommandHeard::by_wake_phrase`].
        by_wake_phrase: bool,
    },
    /// A desktop notification.
    Notify(String),
    Post(WorkerRole, ToWorker),
}

/// One worker as the coordinator knows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerView {
    pub running: bool,
    /// The model it holds.
    pub loaded: Option<String>,
    /// Its wasm memory, as it last said.
    pub memory_bytes: Option<f64>,
}

#[derive(Debug)]
pub struct Coordinator {
    listening: bool,
    /// "passive" or "active".
    mode: &'static str,
    level_db: Option<f64>,
    recent: VecDeque<Value>,
    badge: Option<Badge>,
    /// Open popups (options pages do not show answers).
    popups: usize,
    listen: WorkerView,
    command: WorkerView,
    /// Whether the two workers are connected.
    peered: bool,
    /// When each worker (listening, command) was last restarted after a
    /// failure, ms since the epoch.
    restarted_ms: [Option<f64>; 2],
}

impl Default for Coordinator {
    fn default() -> Self {
        Self::new()
    }
}

impl Coordinator {
    pub fn new() -> Self {
        Coordinator {
            listening: false,
            mode: "passive",
            level_db: None,
            recent: VecDeque::new(),
            badge: None,
            popups: 0,
            listen: WorkerView::default(),
            command: WorkerView::default(),
            peered: false,
            restarted_ms: [None, None],
        }
    }

    pub fn worker(&self, role: WorkerRole) -> &WorkerView {
        match role {
            WorkerRole::Listen => &self.listen,
            WorkerRole::Command => &self.command,
        }
    }

    fn worker_mut(&mut self, role: WorkerRole) -> &mut WorkerView {
        match role {
            WorkerRole::Listen => &mut self.listen,
            WorkerRole::Command => &mut self.command,
        }
    }

    pub fn is_listening(&self) -> bool {
        self.listening
    }

    pub fn is_peered(&self) -> bool {
        self.peered
    }

    /// Which worker holds the command model: the second one while it runs.
    pub fn command_holder(&self) -> WorkerRole {
        if self.command.running {
            WorkerRole::Command
        } else {
            WorkerRole::Listen
        }
    }

    /// Where listening stands (`voice_status` and friends).
    pub fn status(&self) -> VoiceStatus {
        let two = self.command.running;
        VoiceStatus {
            ok: true,
            listening: self.listening,
            mode: self.mode.to_string(),
            model: self.worker(self.command_holder()).loaded.clone(),
            wake_model: if two {
                self.listen.loaded.clone()
            } else {
                None
            },
            workers: if two { 2 } else { 1 },
            memory_bytes: WorkerMemory {
                listen: self.listen.memory_bytes,
                command: if two { self.command.memory_bytes } else { None },
            },
            level_db: self.level_db,
            // Filled in by the Firefox binding, which holds the track.
            microphone: None,
            events: self.recent.iter().cloned().collect(),
        }
    }

    /// The latest events, oldest first.
    pub fn recent(&self) -> impl Iterator<Item = &Value> {
        self.recent.iter()
    }

    // ---- workers ----

    /// A worker's message loop runs (it knows no peer yet).
    pub fn worker_started(&mut self, role: WorkerRole) {
        self.worker_mut(role).running = true;
        self.peered = false;
    }

    /// A worker was ended on purpose (back to one worker, a restart).
    pub fn worker_stopped(&mut self, role: WorkerRole) {
        *self.worker_mut(role) = WorkerView::default();
        self.peered = false;
    }

    /// The two workers were connected.
    pub fn workers_connected(&mut self) {
        self.peered = true;
    }

    /// A worker's script failed: it is gone (it starts afresh on next use).
    /// If it was the command model's, the listening one transcribes
    /// commands itself until the next start.
    pub fn worker_failed(&mut self, role: WorkerRole, message: &str, now_ms: f64) -> Vec<Effect> {
        *self.worker_mut(role) = WorkerView::default();
        self.peered = false;
        let mut effects = Vec::new();
        if role == WorkerRole::Command {
            effects.push(Effect::Post(
                WorkerRole::Listen,
                ToWorker::Delegate { on: false },
            ));
        }
        let event = json!({ "type": "error", "worker": role,
            "error": Error::failed(message) });
        effects.extend(self.remember(event, now_ms));
        effects.extend(self.set_badge(Badge::Error));
        effects
    }

    /// Whether a worker that failed while listening is restarted now (with
    /// its model, and the microphone handed to it again): not if it was
    /// restarted less than a minute ago, so a worker that keeps failing
    /// stays down and says so rather than failing over and over.
    pub fn restart_due(&mut self, role: WorkerRole, now_ms: f64) -> bool {
        if !self.listening {
            return false;
        }
        let last = &mut self.restarted_ms[role as usize];
        let due = last.is_none_or(|t| now_ms < t || now_ms - t >= 60_000.0);
        if due {
            *last = Some(now_ms);
        }
        due
    }

    /// A failed worker runs again, its model loaded: the popup is told,
    /// and the badge says listening again.
    pub fn worker_restarted(&mut self, role: WorkerRole, now_ms: f64) -> Vec<Effect> {
        let mut effects = self.set_badge(Badge::Listening);
        let event = json!({ "type": "status", "state": self.mode, "reason": "restarted",
            "worker": role, "model": self.worker(role).loaded });
        effects.extend(self.remember(event, now_ms));
        effects
    }

    /// A worker loaded a model (its `status` ready answer).
    pub fn model_loaded(
        &mut self,
        role: WorkerRole,
        model: Option<String>,
        mut ready: Value,
        now_ms: f64,
    ) -> Vec<Effect> {
        self.worker_mut(role).loaded = model;
        ready["worker"] = json!(role);
        self.remember(ready, now_ms)
    }

    /// A worker dropped its model (it was removed).
    pub fn model_unloaded(&mut self, role: WorkerRole) {
        self.worker_mut(role).loaded = None;
    }

    /// Something a worker said, as it arrived.
    pub fn on_event(&mut self, role: WorkerRole, event: FromWorker, now_ms: f64) -> Vec<Effect> {
        if let Some(bytes) = memory_of(&event) {
            self.worker_mut(role).memory_bytes = Some(bytes);
        }
        if let FromWorker::Command(c) = &event {
            if let Some(bytes) = c.command_memory_bytes {
                self.command.memory_bytes = Some(bytes);
            }
        }
        let mut message = event.to_json();
        if role == WorkerRole::Command {
            // The command model's worker only loads and transcribes: its
            // loading, progress and errors are shown; listening states
            // are the listening worker's.
            let shown = match &event {
                FromWorker::Progress { .. } | FromWorker::Error { .. } => true,
                FromWorker::Status(s) => matches!(
                    s.state,
                    State::Loading | State::Quantizing | State::Ready | State::Unloaded
                ),
                _ => false,
            };
            if !shown {
                return vec![];
            }
            message["worker"] = json!(role);
        }
        match event {
            FromWorker::Level { db, .. } => {
                self.level_db = Some(db);
                vec![Effect::Broadcast(ToPage::event(message))]
            }
            FromWorker::Progress { model, file, .. } => {
                // Kept once per file: its latest count.
                self.recent.retain(|e| {
                    !(e["type"] == "progress" && e["model"] == model && e["file"] == file)
                });
                self.remember(message, now_ms)
            }
            FromWorker::Partial { .. } => {
                // Only the latest live transcript is worth keeping.
                self.recent.retain(|e| e["type"] != "partial");
                self.remember(message, now_ms)
            }
            FromWorker::Status(status) => {
                let mut effects = match status.state {
                    State::Processing => self.set_badge(Badge::Processing),
                    State::Passive | State::Active => {
                        self.mode = if status.state == State::Active {
                            "active"
                        } else {
                            "passive"
                        };
                        self.listening_badge()
                    }
                    _ => vec![],
                };
                effects.extend(self.remember(message, now_ms));
                effects
            }
            FromWorker::Listening => {
                let mut effects = self.listening_badge();
                effects.push(Effect::Broadcast(ToPage::event(message)));
                effects.push(Effect::SendVocabulary);
                effects
            }
            FromWorker::Wake { .. } => {
                self.mode = "active";
                let mut effects = self.listening_badge();
                effects.extend(self.remember(message, now_ms));
                effects
            }
            FromWorker::Command(command) => {
                self.mode = "passive";
                vec![Effect::RunCommand {
                    text: command.text,
                    event: message,
                    wake_unsure: command.wake_unsure,
                    by_wake_phrase: command.by_wake_phrase,
                }]
            }
            FromWorker::Error { .. } => {
                let mut effects = self.set_badge(Badge::Error);
                effects.extend(self.remember(message, now_ms));
                effects
            }
            FromWorker::Models { .. }
            | FromWorker::HeardGuided { .. }
            | FromWorker::Transcribe { .. }
            | FromWorker::Transcribed(_) => self.remember(message, now_ms),
        }
    }

    /// A heard command ran: the popup shows the answer, or (no popup open)
    /// a notification does.
    pub fn command_answered(
        &mut self,
        mut event: Value,
        answer: &CommandAnswer,
        now_ms: f64,
    ) -> Vec<Effect> {
        let mut effects = self.listening_badge();
        if answer.not_for_us == Some(true) {
            // Shown as any utterance not meant for us is: what was heard,
            // ignored.
            let heard = serde_json::from_value::<CommandHeard>(event)
                .map(|c| c.heard)
                .ok();
            let ignored = FromWorker::Status(Status {
                ignored: Some(true),
                heard,
                ..Status::new(State::Passive)
            });
            effects.extend(self.remember(ignored.to_json(), now_ms));
            return effects;
        }
        let text = event["text"].as_str().unwrap_or_default().to_string();
        let reply = match (&answer.reply, &answer.error) {
            (reply, _) if !reply.is_empty() => reply.clone(),
            (_, Some(e)) => e.message.clone(),
            _ => String::new(),
        };
        event["answer"] = serde_json::to_value(answer).unwrap_or(Value::Null);
        if self.popups == 0 {
            effects.push(Effect::Notify(format!("“{text}”: {reply}")));
        }
        effects.extend(self.remember(event, now_ms));
        effects
    }

    // ---- listening ----

    pub fn listening_started(&mut self, now_ms: f64) -> Vec<Effect> {
        self.listening = true;
        let mut effects = self.set_badge(Badge::Listening);
        effects.extend(self.remember(json!({ "type": "status", "state": "listening" }), now_ms));
        effects
    }

    /// Listening stopped (`was_listening`: it had started).
    pub fn listening_stopped(&mut self, was_listening: bool, now_ms: f64) -> Vec<Effect> {
        self.listening = false;
        let mut effects = Vec::new();
        if was_listening {
            effects.push(Effect::Post(WorkerRole::Listen, ToWorker::Stop));
            effects.extend(self.remember(json!({ "type": "status", "state": "stopped" }), now_ms));
        }
        effects.extend(self.set_badge(Badge::Idle));
        effects
    }

    /// The mic button: the next utterance is a command.
    pub fn triggered(&mut self) -> Vec<Effect> {
        self.mode = "active";
        vec![Effect::Post(WorkerRole::Listen, ToWorker::Trigger)]
    }

    /// Something went wrong that the popup should hear of.
    pub fn failed(&mut self, error: &Value, now_ms: f64) -> Vec<Effect> {
        let mut effects = self.remember(json!({ "type": "error", "error": error }), now_ms);
        effects.extend(self.set_badge(Badge::Error));
        effects
    }

    // ---- pages ----

    /// A popup or options page connected: it hears where listening stands.
    pub fn page_connected(&mut self, name: &str) -> ToPage {
        if name == ext_protocol::port::POPUP {
            self.popups += 1;
        }
        ToPage::status(self.status())
    }

    pub fn page_disconnected(&mut self, name: &str) {
        if name == ext_protocol::port::POPUP {
            self.popups = self.popups.saturating_sub(1);
        }
    }

    // ---- helpers ----

    /// Keeps an event for `voice_status`, stamped with when it reached the
    /// background (ms since the epoch: `make bench` times the path from
    /// "processing" to the command's answer with it), and passes it on.
    fn remember(&mut self, mut event: Value, now_ms: f64) -> Vec<Effect> {
        event["at_ms"] = json!(now_ms);
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(event.clone());
        vec![Effect::Broadcast(ToPage::event(event))]
    }

    fn listening_badge(&mut self) -> Vec<Effect> {
        self.set_badge(if self.listening {
            Badge::Listening
        } else {
            Badge::Idle
        })
    }

    fn set_badge(&mut self, badge: Badge) -> Vec<Effect> {
        if self.badge.replace(badge) == Some(badge) {
            return vec![];
        }
        vec![Effect::SetBadge(badge)]
    }
}

/// The wasm memory a worker reports with an event.
fn memory_of(event: &FromWorker) -> Option<f64> {
    match event {
        FromWorker::Status(s) => s.memory_bytes,
        FromWorker::Command(c) => c.memory_bytes,
        FromWorker::Transcribed(t) => t.memory_bytes,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ext_protocol::worker::{CommandHeard, Status};

    fn broadcasts(effects: &[Effect]) -> Vec<Value> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Broadcast(ToPage::Voice {
                    event: Some(event), ..
                }) => Some(event.clone()),
                _ => None,
            })
            .collect()
    }

    fn status(state: State) -> FromWorker {
        FromWorker::Status(Status::new(state))
    }

    fn command(text: &str) -> FromWorker {
        FromWorker::Command(CommandHeard {
            text: text.into(),
            ..Default::default()
        })
    }

    #[test]
    fn a_heard_command_runs_and_its_answer_reaches_the_popup_or_a_notification() {
        let mut c = Coordinator::new();
        c.worker_started(WorkerRole::Listen);
        c.listening_started(1.0);
        let effects = c.on_event(WorkerRole::Listen, command("close youtube"), 2.0);
        let [Effect::RunCommand { text, event, .. }] = effects.as_slice() else {
            panic!("{effects:?}");
        };
        assert_eq!(text, "close youtube");
        let answer = CommandAnswer::replied("Closed 2 tabs.");
        // No popup open: a notification says what happened.
        let effects = c.command_answered(event.clone(), &answer, 3.0);
        assert!(effects.contains(&Effect::Notify("“close youtube”: Closed 2 tabs.".into())));
        let shown = broadcasts(&effects);
        assert_eq!(shown[0]["answer"]["reply"], "Closed 2 tabs.");
        assert_eq!(shown[0]["at_ms"], 3.0);
        // A popup open: it shows the answer, no notification.
        c.page_connected("popup");
        let effects = c.command_answered(event.clone(), &answer, 4.0);
        assert!(!effects.iter().any(|e| matches!(e, Effect::Notify(_))));
        c.page_disconnected("popup");
        assert!(c
            .command_answered(event.clone(), &answer, 5.0)
            .iter()
            .any(|e| matches!(e, Effect::Notify(_))));
        // An options page is no popup.
        c.page_connected("options");
        assert!(c
            .command_answered(event.clone(), &answer, 6.0)
            .iter()
            .any(|e| matches!(e, Effect::Notify(_))));
    }

    #[test]
    fn room_talk_after_a_likely_wake_phrase_is_shown_as_ignored_and_not_notified() {
        let mut c = Coordinator::new();
        c.worker_started(WorkerRole::Listen);
        c.listening_started(1.0);
        let mut heard = CommandHeard {
            text: "are you coming tonight".into(),
            wake_unsure: true,
            by_wake_phrase: true,
            ..Default::default()
        };
        heard.heard.heard = "Hey Philova, are you coming tonight?".into();
        let effects = c.on_event(WorkerRole::Listen, FromWorker::Command(heard), 2.0);
        let [Effect::RunCommand {
            event,
            wake_unsure,
            by_wake_phrase,
            ..
        }] = effects.as_slice()
        else {
            panic!("{effects:?}");
        };
        assert!(
            *wake_unsure,
            "the background is told the wake was only likely"
        );
        assert!(*by_wake_phrase, "and that it came by the wake phrase");
        let effects = c.command_answered(event.clone(), &CommandAnswer::not_for_us(), 3.0);
        assert!(!effects.iter().any(|e| matches!(e, Effect::Notify(_))));
        let shown = broadcasts(&effects);
        assert_eq!(shown[0]["type"], "status", "{shown:?}");
        assert_eq!(shown[0]["ignored"], true, "{shown:?}");
        assert_eq!(
            shown[0]["heard"], "Hey Philova, are you coming tonight?",
            "{shown:?}"
        );
        assert!(shown[0].get("answer").is_none(), "{shown:?}");
    }

    #[test]
    fn the_badge_follows_listening_processing_and_errors_and_is_set_once() {
        let mut c = Coordinator::new();
        assert_eq!(
            c.listening_started(0.0)[0],
            Effect::SetBadge(Badge::Listening)
        );
        let effects = c.on_event(WorkerRole::Listen, status(State::Processing), 1.0);
        assert_eq!(effects[0], Effect::SetBadge(Badge::Processing));
        let effects = c.on_event(WorkerRole::Listen, status(State::Active), 2.0);
        assert_eq!(effects[0], Effect::SetBadge(Badge::Listening));
        assert_eq!(c.status().mode, "active");
        // Unchanged: no effect.
        let effects = c.on_event(WorkerRole::Listen, status(State::Passive), 3.0);
        assert!(!effects.iter().any(|e| matches!(e, Effect::SetBadge(_))));
        assert_eq!(c.status().mode, "passive");
        let error = FromWorker::error(Error::failed("boom"), None);
        let effects = c.on_event(WorkerRole::Listen, error, 4.0);
        assert_eq!(effects[0], Effect::SetBadge(Badge::Error));
        let effects = c.listening_stopped(true, 5.0);
        assert_eq!(effects[0], Effect::Post(WorkerRole::Listen, ToWorker::Stop));
        assert_eq!(effects.last(), Some(&Effect::SetBadge(Badge::Idle)));
        assert!(!c.status().listening);
    }

    #[test]
    fn speech_starting_asks_for_the_tabs_names_and_the_level_is_only_passed_on() {
        let mut c = Coordinator::new();
        let effects = c.on_event(WorkerRole::Listen, FromWorker::Listening, 0.0);
        assert!(effects.contains(&Effect::SendVocabulary));
        let level = FromWorker::Level {
            db: -20.0,
            heard_ms: 100.0,
            dropped_ms: 0.0,
        };
        let effects = c.on_event(WorkerRole::Listen, level, 1.0);
        assert_eq!(broadcasts(&effects)[0]["db"], -20.0);
        assert_eq!(c.status().level_db, Some(-20.0));
        assert!(c.status().events.is_empty(), "levels are not kept");
    }

    #[test]
    fn the_command_workers_listening_states_stay_out_of_the_popup() {
        let mut c = Coordinator::new();
        c.worker_started(WorkerRole::Listen);
        c.worker_started(WorkerRole::Command);
        for state in [State::Passive, State::Active, State::Processing] {
            assert_eq!(c.on_event(WorkerRole::Command, status(state), 0.0), vec![]);
        }
        let effects = c.on_event(WorkerRole::Command, status(State::Loading), 1.0);
        assert_eq!(broadcasts(&effects)[0]["worker"], "command");
        let ready = json!({"type": "status", "state": "ready"});
        c.model_loaded(WorkerRole::Command, Some("base.en".into()), ready, 2.0);
        c.model_loaded(WorkerRole::Listen, Some("tiny.en".into()), json!({}), 2.0);
        let s = c.status();
        assert_eq!(
            (s.model.as_deref(), s.wake_model.as_deref(), s.workers),
            (Some("base.en"), Some("tiny.en"), 2)
        );
    }

    #[test]
    fn a_failed_command_worker_hands_commands_back_to_the_listening_one() {
        let mut c = Coordinator::new();
        c.worker_started(WorkerRole::Listen);
        c.worker_started(WorkerRole::Command);
        c.workers_connected();
        c.model_loaded(WorkerRole::Command, Some("base.en".into()), json!({}), 0.0);
        let effects = c.worker_failed(WorkerRole::Command, "out of memory", 1.0);
        assert_eq!(
            effects[0],
            Effect::Post(WorkerRole::Listen, ToWorker::Delegate { on: false })
        );
        assert_eq!(broadcasts(&effects)[0]["worker"], "command");
        assert!(effects.contains(&Effect::SetBadge(Badge::Error)));
        assert!(!c.is_peered());
        assert_eq!(c.command_holder(), WorkerRole::Listen);
        assert_eq!(c.status().workers, 1);
    }

    #[test]
    fn a_worker_failing_while_listening_is_restarted_at_most_once_a_minute() {
        let mut c = Coordinator::new();
        c.worker_started(WorkerRole::Listen);
        // Not listening: it starts again on next use, not now.
        c.worker_failed(WorkerRole::Listen, "RuntimeError: unreachable", 0.0);
        assert!(!c.restart_due(WorkerRole::Listen, 0.0));
        c.listening_started(1.0);
        c.worker_failed(WorkerRole::Listen, "RuntimeError: unreachable", 2.0);
        assert!(c.restart_due(WorkerRole::Listen, 3.0));
        c.worker_started(WorkerRole::Listen);
        c.model_loaded(WorkerRole::Listen, Some("tiny.en".into()), json!({}), 4.0);
        let effects = c.worker_restarted(WorkerRole::Listen, 5.0);
        assert!(effects.contains(&Effect::SetBadge(Badge::Listening)));
        let told = broadcasts(&effects);
        assert_eq!(told[0]["reason"], "restarted", "{told:?}");
        assert_eq!(told[0]["model"], "tiny.en");
        // Failing again within the minute: it stays down (and says so).
        c.worker_failed(WorkerRole::Listen, "RuntimeError: unreachable", 6.0);
        assert!(!c.restart_due(WorkerRole::Listen, 30_000.0));
        assert!(c.restart_due(WorkerRole::Listen, 61_000.0));
        // The other worker has its own minute.
        assert!(c.restart_due(WorkerRole::Command, 61_000.0));
    }

    #[test]
    fn progress_and_live_text_keep_only_their_latest_and_recent_is_bounded() {
        let mut c = Coordinator::new();
        for loaded in [1, 2, 3] {
            let p = FromWorker::Progress {
                model: "tiny.en".into(),
                file: "model.safetensors".into(),
                loaded,
                total: Some(3),
            };
            c.on_event(WorkerRole::Listen, p, loaded as f64);
        }
        for text in ["close", "close the"] {
            let partial = FromWorker::Partial {
                text: text.into(),
                tokens: vec![],
                seconds: 1.0,
                pcm: None,
            };
            c.on_event(WorkerRole::Listen, partial, 4.0);
        }
        let events = c.status().events;
        assert_eq!(events.len(), 2);
        assert_eq!(events[0]["loaded"], 3);
        assert_eq!(events[1]["text"], "close the");
        for i in 0..100 {
            c.on_event(WorkerRole::Listen, status(State::Passive), i as f64);
        }
        assert_eq!(c.status().events.len(), RECENT);
    }

    #[test]
    fn memory_is_tracked_per_worker() {
        let mut c = Coordinator::new();
        c.worker_started(WorkerRole::Listen);
        c.worker_started(WorkerRole::Command);
        let ready = FromWorker::Status(Status {
            state: State::Ready,
            memory_bytes: Some(100.0),
            ..Default::default()
        });
        c.on_event(WorkerRole::Listen, ready, 0.0);
        let heard = FromWorker::Command(CommandHeard {
            text: "x".into(),
            command_memory_bytes: Some(200.0),
            ..Default::default()
        });
        c.on_event(WorkerRole::Listen, heard, 1.0);
        let m = c.status().memory_bytes;
        assert_eq!((m.listen, m.command), (Some(100.0), Some(200.0)));
    }
}
