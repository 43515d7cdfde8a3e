//! One request of a turn to the language model: to the model the rotation
//! chooses, again after a pause while the server is busy, with the token
//! parameter it takes, streamed (its text shown as it comes) unless it
//! cannot be, and dropped at once when the user presses Stop.

use super::Background;
use crate::agent::provider::{self, ModelReply};
use crate::agent::retry::{self, Retry};
use crate::agent::stream::{self, StreamReader};
use crate::agent::{self, rotation};
use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::settings::LlmSettings;
use crate::storage::Storage;
use ext_protocol::answer::Stopped;
use ext_protocol::port::AgentEvent;
use futures::future::{AbortHandle, Abortable};
use serde_json::Value;
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

pub(super) fn stopped() -> ToolError {
    ToolError::refused("Stopped.")
}

impl<B: Browser, S: Storage> Background<B, S> {
    /// The popup's Stop: the turn under way ends at once; what it changed
    /// stays, as its undo step.
    pub(super) fn stop_turn(&self) -> Stopped {
        let running = self.in_turn.get();
        if running {
            self.stop_requested.set(true);
            if let Some(stopper) = self.stopper.borrow().as_ref() {
                stopper.abort();
            }
        }
        Stopped {
            ok: true,
            stopped: running,
        }
    }

    /// `future`'s output, unless Stop is pressed first.
    pub(super) async fn unless_stopped<T>(&self, future: impl Future<Output = T>) -> ToolResult<T> {
        if self.stop_requested.get() {
            return Err(stopped());
        }
        let (handle, registration) = AbortHandle::new_pair();
        self.stopper.replace(Some(handle));
        let output = Abortable::new(future, registration).await;
        self.stopper.take();
        output.map_err(|_| stopped())
    }

    /// One request to the model: to the model the rotation chooses, asked
    /// again after a pause while the server is busy, and once with the
    /// other token parameter on a 400 that refuses it (the one taken is
    /// remembered for the model).
    pub(super) async fn ask_model(
        &self,
        transport: &agent::Transport,
        llm: &LlmSettings,
        messages: &[Value],
        tools: &[Value],
    ) -> Result<ModelReply, ToolError> {
        let models = rotation::models(llm);
        let mut retries = 0;
        let mut swaps = 0;
        loop {
            let (model, wait) =
                self.rotation
                    .borrow_mut()
                    .choose(&models, llm.rpm, self.browser.now_ms());
            if wait > 0.0 {
                self.unless_stopped(self.browser.sleep_ms(wait.ceil() as u32))
                    .await?;
            }
            self.rotation
                .borrow_mut()
                .record(&model, self.browser.now_ms());
            let settings = LlmSettings {
                model,
                ..llm.clone()
            };
            let model_key = format!("{}|{}", settings.base_url.trim(), settings.model);
            let param = self
                .token_params
                .borrow()
                .get(&model_key)
                .copied()
                .unwrap_or(provider::TOKEN_PARAMS[0]);
            let streaming = !self.no_stream.borrow().contains(&model_key);
            let http = provider::chat_request(&settings, messages, tools, param, streaming)?;
            let url = http.url.clone();
            let ollama = settings.provider == "ollama";
            let on_chunk = self.live_text(ollama);
            let answer = self
                .unless_stopped(transport(http, on_chunk))
                .await?
                .map_err(|e| {
                    ToolError::failed(format!("Could not reach the language model at {url}: {e}"))
                })?;
            // A server that cannot stream with tools says so: ask it again
            // without, and remember.
            if streaming
                && answer.status >= 400
                && answer.body.to_ascii_lowercase().contains("stream")
            {
                self.no_stream.borrow_mut().insert(model_key);
                continue;
            }
            if swaps == 0
                && settings.provider == "openai"
                && provider::refuses_token_param(answer.status, &answer.body, param)
            {
                swaps += 1;
                let other = provider::TOKEN_PARAMS
                    .into_iter()
                    .find(|p| *p != param)
                    .unwrap_or(param);
                self.token_params.borrow_mut().insert(model_key, other);
                continue;
            }
            match retry::retry(&answer, retries, self.browser.now_ms()) {
                Retry::After(ms) => {
                    retries += 1;
                    self.unless_stopped(self.browser.sleep_ms(ms)).await?;
                    continue;
                }
                Retry::TooLong(seconds) => {
                    return Err(ToolError::failed(format!(
                        "The language-model server is busy and asks to wait {seconds} s; \
                         try again then."
                    )))
                }
                Retry::No => {}
            }
            if (200..300).contains(&answer.status) {
                self.token_params
                    .borrow_mut()
                    .insert(model_key.clone(), param);
                if streaming && stream::is_stream(&answer.body, ollama) {
                    let mut reader = StreamReader::new(ollama);
                    reader.push(&answer.body);
                    let streamed = reader.finish(&url)?;
                    if streamed.dropped_calls {
                        self.no_stream.borrow_mut().insert(model_key);
                        continue;
                    }
                    return Ok(streamed.reply);
                }
            }
            return provider::read_reply(&settings, &url, answer.status, &answer.body);
        }
    }

    /// Where a streamed answer's pieces go: its text so far, to the pages.
    fn live_text(&self, ollama: bool) -> agent::OnChunk {
        let progress = self.progress.borrow().clone();
        let reader = RefCell::new(StreamReader::new(ollama));
        Rc::new(move |chunk: &str| {
            let mut reader = reader.borrow_mut();
            let before = reader.text().len();
            reader.push(chunk);
            if let (Some(progress), true) = (&progress, reader.text().len() > before) {
                let text = reader.text();
                let tail: String = {
                    let n = text.chars().count();
                    text.chars().skip(n.saturating_sub(300)).collect()
                };
                progress(AgentEvent::Text { text: tail });
            }
        })
    }
}
