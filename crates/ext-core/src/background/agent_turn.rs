//! One agent turn: the model's tool calls run through the same tools and
//! safety rules as the interpreter's, under the lock, as one undoable
//! change, logged like any command.

use super::agent_request::stopped;
use super::{Background, Pending};
use crate::agent::provider::ModelCall;
use crate::agent::untrusted::{self, Fence};
use crate::agent::{self, RepeatGuard, MAX_ROUNDS};
use crate::browser::Browser;
use crate::error::ToolError;
use crate::interpret::Plan;
use crate::log::{Call, LogEntry, LoggedCall};
use crate::page;
use crate::storage::Storage;
use crate::tab_state::State;
use crate::text::clip;
use crate::tools;
use ext_protocol::answer::CommandAnswer;
use ext_protocol::port::AgentEvent;
use ext_protocol::ErrorCode;
use serde_json::{json, Value};

/// A turn stopped at a call that needs the user's "yes".
struct Paused<'c> {
    call: &'c ModelCall,
    question: String,
    performed: Vec<LoggedCall>,
    undo_steps: Vec<crate::undo::UndoStep>,
    time: f64,
}

impl<B: Browser, S: Storage> Background<B, S> {
    /// Hands the background the way to reach a language model (the web
    /// binding's fetch); without one, every request stays offline.
    pub fn set_transport(&self, transport: agent::Transport) {
        self.transport.replace(Some(transport));
    }

    /// Hands the background where to tell how a turn is going.
    pub fn set_progress(&self, progress: agent::Progress) {
        self.progress.replace(Some(progress));
    }

    fn tell(&self, event: AgentEvent) {
        let progress = self.progress.borrow().clone();
        if let Some(progress) = progress {
            progress(event);
        }
    }

    /// Whether a language model is chosen and can be reached: open-ended
    /// requests are then its to take.
    pub(super) fn model_set_up(&self) -> bool {
        self.settings.borrow().llm.provider != "off" && self.transport.borrow().is_some()
    }

    /// The words to give the language model, if this request goes to it:
    /// "ask the AI …", every request in "always" mode, and in "fallback"
    /// mode what the interpreter could not place.
    pub(super) fn for_model<'t>(&self, text: &'t str, plan: &Plan) -> Option<&'t str> {
        if !self.model_set_up() {
            return None;
        }
        let settings = self.settings.borrow();
        if let Some(rest) = agent::forced(text) {
            return Some(rest);
        }
        if plan.special.is_some() {
            return None;
        }
        let unplaced = plan.error == Some(ErrorCode::UnknownCommand);
        (settings.llm.mode == "always" || unplaced).then_some(text)
    }

    /// Runs the model's turn on `request`; `offline` is what the
    /// interpreter would answer, given with the reason when the model
    /// cannot be reached.
    pub(super) async fn run_agent(
        &self,
        text: &str,
        request: &str,
        state: &State,
        offline: Plan,
    ) -> CommandAnswer {
        let Some(transport) = self.transport.borrow().clone() else {
            return self
                .refuse(text, ToolError::invalid(offline.reply.clone()))
                .await;
        };
        self.in_turn.set(true);
        self.stop_requested.set(false);
        let answer = self
            .agent_turn(text, request, state, offline, transport)
            .await;
        self.in_turn.set(false);
        self.stop_requested.set(false);
        self.tell(AgentEvent::Done {
            reply: answer.reply.clone(),
        });
        answer
    }

    async fn agent_turn(
        &self,
        text: &str,
        request: &str,
        state: &State,
        offline: Plan,
        transport: agent::Transport,
    ) -> CommandAnswer {
        let (llm, threshold) = {
            let s = self.settings.borrow();
            (s.llm.clone(), s.confirm_threshold)
        };
        let time = self.browser.now_ms();
        let mut tools = tools::schemas();
        tools.push(page::schema());
        let browser = self.scoped();
        let fence = Fence::random();
        let context = agent::tab_context(state);
        // Data that reads like instructions, or any page read, makes every
        // outward call of the turn wait for the user.
        const INSTRUCTIONS: &str = "the tabs' text reads like instructions to it";
        let (mut messages, flagged) = agent::first_messages(request, &context, &fence);
        let mut caution = flagged.then_some(INSTRUCTIONS);
        let mut guard = RepeatGuard::default();
        let mut performed = Vec::new();
        let mut undo_steps = Vec::new();
        let mut outcome = Err(ToolError::failed(format!(
            "The language model did not finish in {MAX_ROUNDS} rounds."
        )));
        'rounds: for round in 1..=MAX_ROUNDS {
            self.tell(AgentEvent::Thinking { round });
            let reply = self.ask_model(&transport, &llm, &messages, &tools).await;
            let reply = match reply {
                Ok(reply) => reply,
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            };
            if reply.calls.is_empty() {
                outcome = Ok(reply.text.trim().to_string());
                break;
            }
            messages.push(agent::assistant_message(&reply.text, &reply.calls));
            for call in &reply.calls {
                if self.stop_requested.get() {
                    outcome = Err(stopped());
                    break 'rounds;
                }
                if !guard.allow(call) {
                    outcome = Err(ToolError::refused(format!(
                        "The language model kept asking for the same {}; stopped.",
                        call.name
                    )));
                    break 'rounds;
                }
                if let Some(question) = self.risky_call(&browser, call, threshold, caution).await {
                    let paused = Paused {
                        call,
                        question,
                        performed,
                        undo_steps,
                        time,
                    };
                    return self.ask_first(text, paused).await;
                }
                self.tell(AgentEvent::Call {
                    tool: call.name.clone(),
                    args: call.args.clone().unwrap_or(Value::Null),
                });
                let result = if call.name == page::TOOL {
                    caution = Some("it read what web pages say in this request");
                    self.read_pages(&browser, call, &mut performed).await
                } else {
                    self.run_model_call(&browser, call, &mut performed, &mut undo_steps)
                        .await
                };
                self.tell(AgentEvent::Result {
                    tool: call.name.clone(),
                    ok: result["ok"] == true,
                    error: result["error"]["message"]
                        .as_str()
                        .or(result["error"].as_str())
                        .map(|e| clip(e, 300)),
                });
                let (message, flagged) = agent::tool_message(call, &result, &fence);
                if flagged {
                    caution = caution.or(Some(INSTRUCTIONS));
                }
                messages.push(message);
            }
        }
        let undo_id = self.record_undo(&clip(text, 80), undo_steps, time).await;
        let stopped_by_user = self.stop_requested.get();
        let (ok, reply, error) = match outcome {
            _ if stopped_by_user => {
                let reply = if undo_id.is_none() {
                    "Stopped; nothing was changed."
                } else {
                    "Stopped; what was done can be undone."
                };
                (true, reply.to_string(), None)
            }
            Ok(reply) if reply.is_empty() => (true, "Done.".to_string(), None),
            Ok(reply) => (true, clip(&reply, 2_000), None),
            Err(e) if performed.is_empty() => {
                let reply = format!(
                    "{} (The language model could not help: {})",
                    offline.reply, e.message
                );
                (false, reply, Some(e))
            }
            Err(e) => (
                false,
                format!(
                    "Stopped part way: {} (what was done can be undone).",
                    e.message
                ),
                Some(e),
            ),
        };
        self.append_log(LogEntry {
            id: self.next_id("log"),
            time,
            command: Some(clip(text, 500)),
            calls: performed.clone(),
            reply: reply.clone(),
            error: error.clone(),
            undo_id: undo_id.clone(),
        })
        .await;
        CommandAnswer {
            ok,
            reply,
            calls: Some(performed),
            undo_id,
            error,
            cancelled: stopped_by_user.then_some(true),
            ..Default::default()
        }
    }

    /// The question to ask the user before `call` runs, if it is risky
    /// (see [`agent::risk`]), or acts outward (see [`agent::acts_outward`])
    /// in a turn that calls for `caution` (why).
    async fn risky_call(
        &self,
        browser: &impl Browser,
        call: &ModelCall,
        threshold: usize,
        caution: Option<&str>,
    ) -> Option<String> {
        let args = call.args.as_ref().ok()?;
        let outward = caution.filter(|_| agent::acts_outward(&call.name));
        if outward.is_none() && !matches!(call.name.as_str(), "close_tabs" | "discard_tabs") {
            return None;
        }
        let now = State {
            tabs: browser.tabs().await.unwrap_or_default(),
            ..State::default()
        };
        let reason = agent::risk(&call.name, args, &now, threshold)
            .or_else(|| outward.map(str::to_string))?;
        Some(format!(
            "The language model wants to {} ({reason}). Do it?",
            agent::describe_call(&call.name, args, &now)
        ))
    }

    /// Pauses the turn at a risky call: what was done so far is one undo
    /// step (and logged), and the call waits for "yes", after which it
    /// joins that undo step. Anything else cancels it; the model is not
    /// asked again.
    async fn ask_first(&self, text: &str, paused: Paused<'_>) -> CommandAnswer {
        let Paused {
            call,
            question,
            performed,
            undo_steps,
            time,
        } = paused;
        let undo_id = self.record_undo(&clip(text, 80), undo_steps, time).await;
        self.append_log(LogEntry {
            id: self.next_id("log"),
            time,
            command: Some(clip(text, 500)),
            calls: performed.clone(),
            reply: question.clone(),
            error: None,
            undo_id: undo_id.clone(),
        })
        .await;
        let args = call.args.clone().unwrap_or_default();
        let planned = vec![Call {
            tool: call.name.clone(),
            args,
        }];
        self.pending.replace(Some(Pending {
            text: text.to_string(),
            plan: Plan {
                calls: planned.clone(),
                reply: "Done, as the language model asked.".into(),
                needs_confirmation: false,
                question: None,
                error: None,
                special: None,
                undo_times: None,
                query: false,
                passable: Vec::new(),
                simulated: Vec::new(),
            },
            undo_into: undo_id.clone(),
        }));
        CommandAnswer {
            question: Some(question.clone()),
            needs_confirmation: Some(true),
            plan: Some(planned),
            calls: Some(performed),
            undo_id,
            ..CommandAnswer::replied(question)
        }
    }

    /// The model's `read_pages`: what each tab's page says, within the
    /// budget; pages that cannot be read get their title and address.
    /// Logged without the text.
    async fn read_pages(
        &self,
        browser: &impl Browser,
        call: &ModelCall,
        performed: &mut Vec<LoggedCall>,
    ) -> Value {
        let ids: Vec<i64> = match &call.args {
            Ok(args) => agent::tab_ids(args).into_iter().take(100).collect(),
            Err(e) => {
                return json!({ "ok": false, "error": format!("Bad arguments for read_pages: {e}") })
            }
        };
        if ids.is_empty() {
            return json!({ "ok": false, "error": "read_pages needs tabIds: a list of tab ids." });
        }
        let tabs = browser.tabs().await.unwrap_or_default();
        let budget = page::budget(ids.len());
        let mut pages = Vec::new();
        for id in &ids {
            let Some(tab) = tabs.iter().find(|t| t.id == *id) else {
                pages.push(json!({ "tabId": id, "error": "No such tab." }));
                continue;
            };
            let mut entry = json!({ "tabId": id, "title": clip(&untrusted::clean(&tab.title), 200),
                                    "url": clip(&tab.url, 300) });
            if !page::readable(&tab.url) {
                entry["note"] = json!("This page cannot be read (not a web page).");
            } else {
                match browser.read_page(*id).await {
                    Ok(text) => entry["text"] = json!(page::digest(&text, budget)),
                    Err(e) => entry["note"] = json!(format!("Not read: {e}")),
                }
            }
            pages.push(entry);
        }
        let read = pages.iter().filter(|p| p.get("text").is_some()).count();
        performed.push(LoggedCall::new(
            page::TOOL,
            &json!({ "tabIds": ids }),
            &json!({ "read": read }),
        ));
        json!({ "ok": true, "result": { "pages": pages } })
    }

    /// One call from the model: refused (as a tool error it can read) if
    /// its arguments are bad, else run.
    async fn run_model_call(
        &self,
        browser: &impl Browser,
        call: &ModelCall,
        performed: &mut Vec<LoggedCall>,
        undo_steps: &mut Vec<crate::undo::UndoStep>,
    ) -> Value {
        let args = match &call.args {
            Ok(args) => args,
            Err(e) => {
                return json!({ "ok": false, "error": format!("Bad arguments for {}: {e}", call.name) })
            }
        };
        match tools::run_tool(browser, &call.name, args).await {
            Ok(out) => {
                undo_steps.extend(out.undo);
                performed.push(LoggedCall::new(&call.name, args, &out.result));
                json!({ "ok": true, "result": out.result })
            }
            Err(e) => {
                performed.push(LoggedCall::new(&call.name, args, &Value::Null));
                json!({ "ok": false, "error": e })
            }
        }
    }
}
