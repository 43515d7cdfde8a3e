//! One agent turn: the model's tool calls run through the same tools and
//! safety rules as the interpreter's, under the lock, as one undoable
//! change, logged like any command.

use super::Background;
use crate::agent::provider::{self, ModelCall};
use crate::agent::{self, RepeatGuard, MAX_ROUNDS};
use crate::browser::Browser;
use crate::error::ToolError;
use crate::interpret::Plan;
use crate::log::{LogEntry, LoggedCall};
use crate::storage::Storage;
use crate::tab_state::State;
use crate::text::clip;
use crate::tools;
use ext_protocol::answer::CommandAnswer;
use ext_protocol::ErrorCode;
use serde_json::{json, Value};

impl<B: Browser, S: Storage> Background<B, S> {
    /// Hands the background the way to reach a language model (the web
    /// binding's fetch); without one, every request stays offline.
    pub fn set_transport(&self, transport: agent::Transport) {
        self.transport.replace(Some(transport));
    }

    /// The words to give the language model, if this request goes to it:
    /// "ask the AI …", every request in "always" mode, and in "fallback"
    /// mode what the interpreter could not place.
    pub(super) fn for_model<'t>(&self, text: &'t str, plan: &Plan) -> Option<&'t str> {
        let settings = self.settings.borrow();
        if settings.llm.provider == "off" || self.transport.borrow().is_none() {
            return None;
        }
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
        let (llm, threshold) = {
            let s = self.settings.borrow();
            (s.llm.clone(), s.confirm_threshold)
        };
        let time = self.browser.now_ms();
        let tools = tools::schemas();
        let browser = self.scoped();
        let mut messages = agent::first_messages(request, state);
        let mut guard = RepeatGuard::default();
        let mut performed = Vec::new();
        let mut undo_steps = Vec::new();
        let mut outcome = Err(ToolError::failed(format!(
            "The language model did not finish in {MAX_ROUNDS} rounds."
        )));
        let model_key = format!("{}|{}", llm.base_url.trim(), llm.model.trim());
        'rounds: for _ in 0..MAX_ROUNDS {
            let reply = self
                .ask_model(&transport, &llm, &model_key, &messages, &tools)
                .await;
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
                if !guard.allow(call) {
                    outcome = Err(ToolError::refused(format!(
                        "The language model kept asking for the same {}; stopped.",
                        call.name
                    )));
                    break 'rounds;
                }
                let result = self
                    .run_model_call(&browser, call, threshold, &mut performed, &mut undo_steps)
                    .await;
                messages.push(agent::tool_message(call, &result));
            }
        }
        let undo_id = self.record_undo(&clip(text, 80), undo_steps, time).await;
        let (ok, reply, error) = match outcome {
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
            ..Default::default()
        }
    }

    /// One request to the model; a 400 refusing the token parameter is
    /// tried once with the other one, which is remembered for the model.
    async fn ask_model(
        &self,
        transport: &agent::Transport,
        llm: &crate::settings::LlmSettings,
        model_key: &str,
        messages: &[Value],
        tools: &[Value],
    ) -> Result<provider::ModelReply, ToolError> {
        let mut param = self
            .token_params
            .borrow()
            .get(model_key)
            .copied()
            .unwrap_or(provider::TOKEN_PARAMS[0]);
        for attempt in 0..2 {
            let http = provider::chat_request(llm, messages, tools, param)?;
            let url = http.url.clone();
            let (status, body) = transport(http).await.map_err(|e| {
                ToolError::failed(format!("Could not reach the language model at {url}: {e}"))
            })?;
            if attempt == 0
                && llm.provider == "openai"
                && provider::refuses_token_param(status, &body, param)
            {
                param = provider::TOKEN_PARAMS
                    .into_iter()
                    .find(|p| *p != param)
                    .unwrap_or(param);
                continue;
            }
            if (200..300).contains(&status) {
                self.token_params
                    .borrow_mut()
                    .insert(model_key.to_string(), param);
            }
            return provider::read_reply(llm, &url, status, &body);
        }
        Err(ToolError::failed(
            "The language model refused both token parameters.",
        ))
    }

    /// One call from the model: refused (as a tool error it can read) if
    /// its arguments are bad or it needs the user's "yes", else run.
    async fn run_model_call(
        &self,
        browser: &impl Browser,
        call: &ModelCall,
        threshold: usize,
        performed: &mut Vec<LoggedCall>,
        undo_steps: &mut Vec<crate::undo::UndoStep>,
    ) -> Value {
        let args = match &call.args {
            Ok(args) => args,
            Err(e) => {
                return json!({ "ok": false, "error": format!("Bad arguments for {}: {e}", call.name) })
            }
        };
        if matches!(call.name.as_str(), "close_tabs" | "discard_tabs") {
            let tabs = browser.tabs().await.unwrap_or_default();
            let now = State {
                tabs,
                ..State::default()
            };
            if let Some(reason) = agent::risk(&call.name, args, &now, threshold) {
                return json!({ "ok": false, "error": format!(
                    "Not done: {reason} needs the user's confirmation. Say what you would do; \
                     the user can ask for it as a command.") });
            }
        }
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
