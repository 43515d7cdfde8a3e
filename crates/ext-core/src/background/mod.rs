//! The background page: the tools, the interpreter, the undo journal, the
//! action log and the settings behind the message API (see docs/tools.md).
//! [`Background::handle`] answers any JSON message and never panics,
//! whatever it is sent; [`Background::answer`] takes a typed
//! [`Request`].

mod agent_request;
mod agent_turn;
mod describe;
mod persistence;
mod snapshot;
mod undo;

pub use describe::describe;
use describe::summarize;

use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::interpret::{self, made_ids, Addressed, Plan, Special};
use crate::log::book;
use crate::log::{LogBook, LogEntry, LoggedCall};
use crate::scope::{self, Scoped};
use crate::settings::Settings;
use crate::storage::Storage;
use crate::stored;

use crate::text::clip;
use crate::tools;
use crate::undo::UndoJournal;
use ext_protocol::answer::{
    to_json, CommandAnswer, Done, Failure, LogAnswer, SchemasAnswer, SettingsAnswer, ToolAnswer,
};
use ext_protocol::Request;
use futures::lock::Mutex;
use serde_json::Value;
use std::cell::{Cell, RefCell};

const LOG_KEY: &str = book::INDEX_KEY;
const UNDO_KEY: &str = "undoJournal";
const SETTINGS_KEY: &str = "settings";
/// Longest command text accepted; longer text is refused, not cut.
pub const MAX_COMMAND_CHARS: usize = 10_000;

struct Pending {
    text: String,
    plan: Plan,
    /// The undo step the plan joins when it runs: what a language-model
    /// turn did before the call that needed the "yes".
    undo_into: Option<String>,
}

/// How a spoken command was heard, beyond its words.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heard<'a> {
    /// The known command the audio most likely says (the speech worker
    /// hearing it again guided to the commands that make sense), tried
    /// when the words mean nothing.
    pub guided: Option<&'a str>,
    /// The wake phrase was only likely (see
    /// [`ext_protocol::worker::CommandHeard::wake_unsure`]).
    pub wake_unsure: bool,
    /// Asked for by the wake phrase (see
    /// [`ext_protocol::worker::CommandHeard::by_wake_phrase`]).
    pub by_wake_phrase: bool,
}

pub struct Background<B, S> {
    browser: B,
    storage: S,
    log: RefCell<LogBook>,
    journal: RefCell<UndoJournal>,
    settings: RefCell<Settings>,
    /// A risky plan waiting for "yes".
    pending: RefCell<Option<Pending>>,
    loaded: Cell<bool>,
    seq: Cell<u64>,
    /// Changing work runs one message at a time, so that undo records and
    /// tab indices are never interleaved.
    busy: Mutex<()>,
    /// Held while what is stored is read: a request arriving meanwhile
    /// waits for it rather than seeing (and saving) the defaults.
    loading: Mutex<()>,
    /// The settings as stored, fields of a newer version included, so a
    /// save keeps them.
    settings_stored: RefCell<Value>,
    /// Stored keys that could not be read nor kept aside: never written,
    /// so that what they hold is not lost.
    frozen: RefCell<Vec<String>>,
    /// What the user should be told about stored data.
    notices: RefCell<Vec<String>>,
    /// The request being answered came from a private window: it sees
    /// only private tabs, and nothing of it is logged or stored.
    private: Cell<bool>,
    /// How to reach the optional language model (see `agent_turn`).
    transport: RefCell<Option<crate::agent::Transport>>,
    /// The token parameter each model (by server and name) took.
    token_params: RefCell<std::collections::HashMap<String, &'static str>>,
    /// Which model took each call of the last minute (`llm.rpm`).
    rotation: RefCell<crate::agent::rotation::Rotation>,
    /// A language-model turn is under way, and whether Stop was pressed.
    in_turn: Cell<bool>,
    stop_requested: Cell<bool>,
    /// Drops what the turn waits for (its request, a pause) on Stop.
    stopper: RefCell<Option<futures::future::AbortHandle>>,
    /// Where a turn's progress goes (the open pages).
    progress: RefCell<Option<crate::agent::Progress>>,
    /// Models (by server and name) that are asked without streaming: they
    /// refused it, or dropped tool calls in a stream.
    no_stream: RefCell<std::collections::HashSet<String>>,
    /// Tabs whose media a command paused (see `State::paused_media`).
    paused_media: RefCell<Vec<i64>>,
}

impl<B: Browser, S: Storage> Background<B, S> {
    pub fn new(browser: B, storage: S) -> Self {
        Background {
            browser,
            storage,
            log: RefCell::default(),
            journal: RefCell::default(),
            settings: RefCell::default(),
            pending: RefCell::default(),
            loaded: Cell::new(false),
            seq: Cell::new(0),
            busy: Mutex::new(()),
            loading: Mutex::new(()),
            settings_stored: RefCell::new(Value::Null),
            frozen: RefCell::default(),
            notices: RefCell::default(),
            private: Cell::new(false),
            transport: RefCell::default(),
            token_params: RefCell::default(),
            rotation: RefCell::default(),
            in_turn: Cell::new(false),
            stop_requested: Cell::new(false),
            stopper: RefCell::default(),
            progress: RefCell::default(),
            no_stream: RefCell::default(),
            paused_media: RefCell::default(),
        }
    }

    /// Panics while holding the lock that changing work takes, as a bug
    /// would (`debug_panic`, development installs only): the web binding's
    /// panic hook must restart the page.
    #[doc(hidden)]
    pub async fn panic_holding_the_lock(&self) {
        let _guard = self.busy.lock().await;
        panic!("debug_panic: a panic while the background holds its lock");
    }

    /// The browser and the storage back, as a restart would leave them.
    pub fn into_parts(self) -> (B, S) {
        (self.browser, self.storage)
    }

    pub fn browser(&self) -> &B {
        &self.browser
    }

    pub fn storage(&self) -> &S {
        &self.storage
    }

    /// Answers one message. Never fails: problems become `{ok: false, error}`.
    pub async fn handle(&self, msg: Value) -> Value {
        match Request::parse(&msg) {
            Ok(request) => self.answer(request).await,
            Err(e) => Failure::new(e).to_json(),
        }
    }

    /// Answers one request of the tools, the interpreter, the log or the
    /// settings (voice requests and `llm_test` need the browser: the
    /// bindings answer them).
    pub async fn answer(&self, request: Request) -> Value {
        if !matches!(request, Request::Schemas) {
            // Nothing runs on defaults while what is stored cannot be read:
            // a save would overwrite the user's settings, log and journal.
            if let Err(e) = self.ensure_loaded().await {
                return Failure::new(e).to_json();
            }
        }
        match request {
            Request::Schemas => to_json(&SchemasAnswer {
                ok: true,
                schemas: tools::schemas(),
            }),
            Request::Tool { name, args } => to_json(&self.run_tool(&name, &args).await),
            Request::Command {
                text,
                spoken,
                guided,
                wake_unsure,
                by_wake_phrase,
            } => {
                let heard = spoken.then_some(Heard {
                    guided: guided.as_deref(),
                    wake_unsure,
                    by_wake_phrase,
                });
                to_json(&self.run_command_as(&text, heard).await)
            }
            Request::Undo { undo_id } => to_json(&self.undo(undo_id.as_deref()).await),
            Request::Log { limit } => {
                let limit = limit.unwrap_or(self.settings.borrow().log_max_entries as u64) as usize;
                let entries = self.log.borrow().entries().iter().rev().take(limit).cloned().collect();
                to_json(&LogAnswer { ok: true, entries })
            }
            Request::Settings => to_json(&SettingsAnswer {
                notices: self.notices.borrow().clone(),
                ..SettingsAnswer::of(&self.settings.borrow())
            }),
            Request::SetSettings { settings: patch } => match self.set_settings(&patch).await {
                Ok(settings) => to_json(&SettingsAnswer {
                    notices: self.notices.borrow().clone(),
                    ..SettingsAnswer::of(&settings)
                }),
                Err(e) => Failure::new(e).to_json(),
            },
            // Not under the lock: the turn it stops holds it.
            Request::AgentStop => to_json(&self.stop_turn()),
            Request::ClearLog => {
                let _guard = self.busy.lock().await;
                let writes = self.log.borrow_mut().clear();
                self.write_log(writes).await;
                to_json(&Done { ok: true })
            }
            other => Failure::new(ToolError::unknown(format!(
                "'{}' needs the extension's speech worker or network: only the extension answers it.",
                other.kind()
            )))
            .to_json(),
        }
    }

    /// The settings in force (once what is stored has been read: never the
    /// defaults in its place).
    pub async fn settings(&self) -> ToolResult<Settings> {
        self.ensure_loaded().await?;
        Ok(self.settings.borrow().clone())
    }

    async fn set_settings(&self, patch: &Value) -> ToolResult<Settings> {
        let _guard = self.busy.lock().await;
        let settings = self.settings.borrow().merged(patch)?;
        if self.frozen.borrow().iter().any(|k| k == SETTINGS_KEY) {
            return Err(ToolError::failed(
                "Your saved settings could not be read nor kept aside, so they are not overwritten; \
                 check that Firefox can write its profile, then restart the extension.",
            ));
        }
        let value = serde_json::to_value(&settings).unwrap_or(Value::Null);
        let value = stored::with_unknown(&self.settings_stored.borrow(), &value);
        self.storage
            .save(SETTINGS_KEY, &value)
            .await
            .map_err(|e| ToolError::failed(format!("Could not save the settings: {e}")))?;
        *self.settings.borrow_mut() = settings.clone();
        *self.settings_stored.borrow_mut() = value;
        Ok(settings)
    }

    /// Reads whether the request being answered comes from a private
    /// window (one is focused); if that cannot be read, it is taken as a
    /// normal one, which sees no private tab either.
    async fn enter_scope(&self) {
        let private = scope::focused_is_private(&self.browser)
            .await
            .unwrap_or(false);
        self.private.set(private);
    }

    /// The browser as the request being answered may see it.
    fn scoped(&self) -> Scoped<'_, B> {
        Scoped::new(&self.browser, self.private.get())
    }

    fn next_id(&self, prefix: &str) -> String {
        let n = self.seq.get() + 1;
        self.seq.set(n);
        format!("{prefix}-{:x}-{n}", self.browser.now_ms() as u64)
    }

    /// Runs one tool, records its undo steps and logs it.
    pub async fn run_tool(&self, name: &str, args: &Value) -> ToolAnswer {
        let _guard = self.busy.lock().await;
        if let Err(e) = self.ensure_loaded().await {
            return ToolAnswer::failed(e);
        }
        self.enter_scope().await;
        let outcome = tools::run_tool(&self.scoped(), name, args).await;
        let time = self.browser.now_ms();
        match outcome {
            Ok(out) => {
                let undo_id = self.record_undo(name, out.undo, time).await;
                let reply = describe(name, &out.result);
                self.append_log(LogEntry {
                    id: self.next_id("log"),
                    time,
                    command: None,
                    calls: vec![LoggedCall::new(name, args, &out.result)],
                    reply,
                    error: None,
                    undo_id: undo_id.clone(),
                })
                .await;
                ToolAnswer {
                    ok: true,
                    result: Some(out.result),
                    undo_id,
                    error: None,
                }
            }
            Err(e) => {
                self.append_log(LogEntry {
                    id: self.next_id("log"),
                    time,
                    command: None,
                    calls: vec![LoggedCall::new(name, args, &Value::Null)],
                    reply: e.message.clone(),
                    error: Some(e.clone()),
                    undo_id: None,
                })
                .await;
                ToolAnswer::failed(e)
            }
        }
    }

    /// Whether a spoken command means nothing for the open tabs (see
    /// [`interpret::needs_guided`]): then the speech worker hears it again,
    /// guided to the commands that make sense.
    pub async fn needs_guided(&self, text: &str) -> bool {
        let _guard = self.busy.lock().await;
        if self.ensure_loaded().await.is_err() || text.chars().count() > MAX_COMMAND_CHARS {
            return false;
        }
        self.enter_scope().await;
        match self.snapshot(text).await {
            Ok(state) => interpret::needs_guided(text, &state, &self.options()),
            Err(_) => false,
        }
    }

    /// A typed or spoken command, run through the offline interpreter.
    /// Risky plans wait for "yes"; anything else cancels them.
    pub async fn run_command(&self, text: &str) -> CommandAnswer {
        self.run_command_as(text, None).await
    }

    /// A command as typed (`heard: None`) or as heard by the speech
    /// worker (what Whisper misheard may be mended, or replaced by what it
    /// heard guided; see [`interpret::plan_spoken`]).
    pub async fn run_command_as(&self, text: &str, heard: Option<Heard<'_>>) -> CommandAnswer {
        let _guard = self.busy.lock().await;
        if let Err(e) = self.ensure_loaded().await {
            return CommandAnswer::failed(e);
        }
        self.enter_scope().await;
        if text.chars().count() > MAX_COMMAND_CHARS {
            let e = ToolError::invalid(format!(
                "The command is longer than {MAX_COMMAND_CHARS} characters."
            ));
            return self.refuse(text, e).await;
        }
        let pending = self.pending.take();
        let state = match self.snapshot(text).await {
            Ok(s) => s,
            Err(e) => return self.refuse(text, e).await,
        };
        let plan = if let Some(heard) = heard {
            interpret::plan_spoken(text, heard.guided, &state, &self.options())
        } else {
            interpret::plan(text, &state, &self.options())
        };
        let room_talk = heard.is_some_and(|h| {
            let addressed = Addressed {
                wake_unsure: h.wake_unsure,
                by_wake_phrase: h.by_wake_phrase,
                model_set_up: self.model_set_up(),
            };
            plan.is_room_talk(text, &state, addressed)
        });
        if room_talk {
            // Room talk that only sounded as if it began with the wake
            // phrase, or named nothing of the tabs after it: as if unheard
            // (not logged, nothing cancelled, no notification).
            self.pending.replace(pending);
            return CommandAnswer::not_for_us();
        }
        match (plan.special, pending) {
            (Some(Special::Yes), Some(p)) => {
                return self.execute(&p.text, p.plan, p.undo_into).await
            }
            (Some(Special::Yes), None) => {
                return self
                    .refuse(text, ToolError::invalid("There is nothing to confirm."))
                    .await
            }
            // "stop listening" stops, and cancels what waits for "yes".
            (Some(Special::StopListening), waiting) => {
                let cancelled = if waiting.is_some() {
                    "Cancelled; nothing was changed. "
                } else {
                    ""
                };
                let reply = format!(
                    "{cancelled}Stopped listening. Press the mic button or Alt+Shift+L to listen again."
                );
                self.log_reply(text, &reply, None).await;
                return CommandAnswer {
                    stop_listening: Some(true),
                    cancelled: waiting.is_some().then_some(true),
                    ..CommandAnswer::replied(reply)
                };
            }
            // Anything but "yes" cancels a waiting plan.
            (_, Some(_)) => {
                let reply = "Cancelled; nothing was changed.".to_string();
                self.log_reply(text, &reply, None).await;
                return CommandAnswer {
                    cancelled: Some(true),
                    ..CommandAnswer::replied(reply)
                };
            }
            (Some(Special::No), None) => {
                let reply = "OK, nothing to do.".to_string();
                self.log_reply(text, &reply, None).await;
                return CommandAnswer::replied(reply);
            }
            (Some(Special::Undo), None) => {
                return self.undo_newest(plan.undo_times.unwrap_or(1)).await
            }
            (Some(Special::LastClosed), None) => {
                let reply = self.last_closed_reply();
                self.log_reply(text, &reply, None).await;
                return CommandAnswer::replied(reply);
            }
            (Some(Special::Reopen), None) => {
                let newest = self
                    .journal
                    .borrow_mut()
                    .split_newest_close(self.private.get());
                return match newest {
                    Some(id) => self.undo_locked(Some(&id)).await,
                    None => {
                        let e = ToolError::not_found("No tab closed here can be reopened: Tab Whisperer reopens only what it closed. Firefox's History menu has the others.");
                        self.refuse(text, e).await
                    }
                };
            }
            (None, None) => {}
        }
        if let Some(request) = self.for_model(text, &plan) {
            return self.run_agent(text, request, &state, plan).await;
        }
        if crate::agent::forced(text).is_some() {
            let e = ToolError::invalid(
                "No language model is set up: choose one on the options page (Language model).",
            );
            return self.refuse(text, e).await;
        }
        if let Some(code) = plan.error {
            return self
                .refuse(text, ToolError::new(code, plan.reply.clone()))
                .await;
        }
        if plan.needs_confirmation {
            let question = plan.question.clone().unwrap_or_default();
            let planned = plan.calls.clone();
            self.log_reply(text, &question, None).await;
            self.pending.replace(Some(Pending {
                text: text.to_string(),
                plan,
                undo_into: None,
            }));
            return CommandAnswer {
                question: Some(question.clone()),
                needs_confirmation: Some(true),
                plan: Some(planned),
                ..CommandAnswer::replied(question)
            };
        }
        self.execute(text, plan, None).await
    }

    /// "what was the last tab I closed": what "reopen" would bring back.
    fn last_closed_reply(&self) -> String {
        let journal = self.journal.borrow();
        let Some((time, tabs)) = journal.newest_closed(self.private.get()) else {
            return "Tab Whisperer has closed no tab it could reopen; Firefox's History menu \
                    lists recently closed tabs."
                .into();
        };
        let when = crate::text::ago(self.browser.now_ms() - time);
        let titles: Vec<String> = tabs
            .iter()
            .take(3)
            .map(|t| format!("'{}'", crate::text::clip(&t.title, 60)))
            .collect();
        let what = match tabs.len() {
            1 => titles.join(""),
            n if n <= 3 => format!("{n} tabs: {}", interpret::spoken_list(&titles)),
            n => format!("{n} tabs, among them {}", interpret::spoken_list(&titles)),
        };
        let again = if tabs.len() == 1 { "it" } else { "them" };
        format!("You last closed {what}, {when}. Say 'reopen {again}' to bring {again} back.")
    }

    /// Keeps `paused_media` up to date after a `browse` pause or play.
    fn note_media(&self, tool: &str, args: &Value, result: &Value) {
        let Some(tab) = result["tab"]["id"].as_i64() else {
            return;
        };
        let mut paused = self.paused_media.borrow_mut();
        match (tool, args["action"].as_str()) {
            ("browse", Some("pause_media")) if !paused.contains(&tab) => paused.push(tab),
            ("browse", Some("play_media")) => paused.retain(|id| *id != tab),
            _ => {}
        }
    }

    fn options(&self) -> interpret::Options {
        interpret::Options {
            tz_offset_minutes: self.browser.tz_offset_minutes(),
            confirm_threshold: self.settings.borrow().confirm_threshold,
        }
    }

    /// Runs a plan's calls in order, as one undoable change (part of the
    /// undo step `undo_into`, while it can still be undone).
    async fn execute(&self, text: &str, plan: Plan, undo_into: Option<String>) -> CommandAnswer {
        let time = self.browser.now_ms();
        let mut performed = Vec::new();
        let mut undo_steps = Vec::new();
        let mut failure = None;
        let mut summaries = Vec::new();
        let mut passed_over = Vec::new();
        // Ids earlier calls made in the simulation and in Firefox.
        let mut renamed = Vec::new();
        for (i, c) in plan.calls.iter().enumerate() {
            let args = made_ids::with_firefox_ids(&c.args, &renamed);
            match tools::run_tool(&self.scoped(), &c.tool, &args).await {
                Ok(out) => {
                    self.note_media(&c.tool, &args, &out.result);
                    undo_steps.extend(out.undo);
                    if plan.query {
                        summaries.extend(summarize(&c.tool, &out.result));
                    }
                    if let Some((_, simulated)) = plan.simulated.iter().find(|(at, _)| *at == i) {
                        renamed.extend(made_ids::renamed(simulated, &out.result));
                    }
                    performed.push(LoggedCall::new(&c.tool, &args, &out.result));
                }
                Err(e) => {
                    performed.push(LoggedCall::new(&c.tool, &args, &Value::Null));
                    if plan.passable.contains(&i) {
                        passed_over.push(e);
                        continue;
                    }
                    failure = Some(e);
                    break;
                }
            }
        }
        // A sweep that did nothing anywhere fails, saying why for each tab.
        let nothing_done =
            failure.is_none() && !passed_over.is_empty() && passed_over.len() == performed.len();
        if nothing_done {
            let why: Vec<&str> = passed_over.iter().map(|e| e.message.as_str()).collect();
            failure = passed_over.first().map(|e| ToolError {
                message: why.join(" "),
                ..e.clone()
            });
        }
        let undo_id = self
            .record_undo_into(undo_into, &clip(text, 80), undo_steps, time)
            .await;
        let (reply, error) = match &failure {
            None => {
                let mut reply = plan.reply.clone();
                for s in summaries
                    .iter()
                    .chain(passed_over.iter().map(|e| &e.message))
                {
                    reply.push(' ');
                    reply += s;
                }
                (reply, None)
            }
            Some(e) if performed.len() > 1 && !nothing_done => (
                format!(
                    "Stopped part way: {} (what was done can be undone).",
                    e.message
                ),
                Some(e.clone()),
            ),
            Some(e) => (e.message.clone(), Some(e.clone())),
        };
        let calls = performed.clone();
        self.append_log(LogEntry {
            id: self.next_id("log"),
            time,
            command: Some(clip(text, 500)),
            calls: performed,
            reply: reply.clone(),
            error: error.clone(),
            undo_id: undo_id.clone(),
        })
        .await;
        CommandAnswer {
            ok: failure.is_none(),
            reply,
            calls: Some(calls),
            // The whole plan too: a run that stopped part way shows what
            // it did not get to.
            plan: Some(plan.calls),
            needs_confirmation: Some(false),
            undo_id,
            error,
            ..Default::default()
        }
    }

    /// Answers a command that did nothing, and logs it.
    async fn refuse(&self, text: &str, e: ToolError) -> CommandAnswer {
        self.log_reply(text, &e.message, Some(e.clone())).await;
        CommandAnswer::refused(e)
    }

    async fn log_reply(&self, text: &str, reply: &str, error: Option<ToolError>) {
        self.append_log(LogEntry {
            id: self.next_id("log"),
            time: self.browser.now_ms(),
            command: Some(clip(text, 500)),
            calls: vec![],
            reply: reply.to_string(),
            error,
            undo_id: None,
        })
        .await;
    }
}

/// Whether the background page may restart itself after a panic, given
/// when it last did (ms since the epoch): not within a minute, so that a
/// panic while starting cannot make it reload over and over.
pub fn restart_due(last_restart: Option<f64>, now: f64) -> bool {
    last_restart.is_none_or(|t| now < t || now - t >= 60_000.0)
}

#[cfg(test)]
mod restart_tests {
    use super::restart_due;

    #[test]
    fn a_restart_after_a_panic_is_not_repeated_within_a_minute() {
        assert!(restart_due(None, 1_000_000.0));
        assert!(!restart_due(Some(1_000_000.0), 1_030_000.0));
        assert!(restart_due(Some(1_000_000.0), 1_060_000.0));
        assert!(
            restart_due(Some(2_000_000.0), 1_000_000.0),
            "a clock set back"
        );
    }
}
