//! One speech worker as the background page sees it: started on first use,
//! asked things (a reply is the first message naming the request), and
//! told which model it holds. There are one or two: the listening worker
//! (audio, detector, wake word, and commands too when it is alone) and,
//! with a separate wake-word model, the command model's worker.

use super::api::{self, error_answer, js_message, to_js, to_json};
use futures::channel::oneshot;
use js_sys::Array;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

fn failure(message: impl Into<String>) -> Value {
    error_answer("EXECUTION_FAILED", message)
}

pub struct SpeechWorker {
    /// "listen" or "command".
    pub role: &'static str,
    worker: RefCell<Option<Worker>>,
    /// Whether it said it started (its message loop is listening; what is
    /// posted before then would be lost).
    started: Cell<bool>,
    /// Replies awaited, by request name.
    waiters: RefCell<Vec<(String, oneshot::Sender<Value>)>>,
    /// The model it holds.
    pub loaded: RefCell<Option<String>>,
    /// Its wasm memory, as it last said.
    pub memory_bytes: Cell<Option<f64>>,
}

impl SpeechWorker {
    pub fn new(role: &'static str) -> Rc<Self> {
        Rc::new(Self {
            role,
            worker: RefCell::default(),
            started: Cell::new(false),
            waiters: RefCell::default(),
            loaded: RefCell::default(),
            memory_bytes: Cell::default(),
        })
    }

    pub fn is_running(&self) -> bool {
        self.worker.borrow().is_some()
    }

    pub fn holds(&self, model: &str) -> bool {
        self.loaded.borrow().as_deref() == Some(model)
    }

    /// Starts the worker (unless it runs) and waits for it to say so;
    /// answers whether this call started it. Each message it posts answers
    /// the request it names, then goes to `on_message`; if its script
    /// fails, every waiting request fails and `on_failure` hears why (it
    /// starts afresh on next use).
    pub async fn start(
        self: &Rc<Self>,
        on_message: impl Fn(Value) + 'static,
        on_failure: impl Fn(String) + 'static,
    ) -> Result<bool, Value> {
        if self.is_running() {
            if self.started.get() {
                return Ok(false);
            }
            // Another request is starting it: wait for the same answer.
            let answer = self
                .reply("started")
                .await
                .unwrap_or_else(|_| failure("the speech worker stopped"));
            return if answer["ok"] == false {
                Err(answer)
            } else {
                Ok(false)
            };
        }
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker =
            Worker::new_with_options(&api::runtime_url("worker.js"), &options).map_err(|e| {
                failure(format!(
                    "The speech worker did not start: {}",
                    js_message(&e)
                ))
            })?;
        let me = self.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            let message = to_json(&e.data()).unwrap_or(Value::Null);
            me.settle(&message);
            on_message(message);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let me = self.clone();
        let on_error =
            Closure::<dyn Fn(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                let message = format!("The speech worker failed: {}", e.message());
                me.stop();
                me.fail_all(&message);
                on_failure(message);
            });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_error.forget();
        let started = self.reply("started");
        *self.worker.borrow_mut() = Some(worker);
        let answer = started
            .await
            .unwrap_or_else(|_| failure("the speech worker stopped"));
        if answer["ok"] == false {
            return Err(answer);
        }
        self.started.set(true);
        Ok(true)
    }

    /// Ends the worker (its memory goes back to the browser).
    pub fn stop(&self) {
        if let Some(worker) = self.worker.borrow_mut().take() {
            worker.terminate();
        }
        self.started.set(false);
        self.loaded.borrow_mut().take();
        self.memory_bytes.set(None);
        self.fail_all("the speech worker was stopped");
    }

    pub fn post(&self, message: &Value) {
        if let Some(worker) = self.worker.borrow().as_ref() {
            let _ = worker.post_message(&to_js(message));
        }
    }

    /// Posts `message` handing over `transferable` (a MessagePort).
    pub fn post_transfer(&self, message: &JsValue, transferable: &JsValue) -> Result<(), JsValue> {
        match self.worker.borrow().as_ref() {
            Some(worker) => worker.post_message_with_transfer(message, &Array::of1(transferable)),
            None => Err("the speech worker is not running".into()),
        }
    }

    /// Posts `message` and waits for the reply to `request`.
    pub async fn ask(&self, request: &str, message: JsValue) -> Value {
        let reply = self.reply(request);
        match self.worker.borrow().as_ref() {
            Some(worker) => {
                if let Err(e) = worker.post_message(&message) {
                    return failure(js_message(&e));
                }
            }
            None => return failure("the speech worker is not running"),
        }
        reply
            .await
            .unwrap_or_else(|_| failure("the speech worker stopped"))
    }

    fn reply(&self, request: &str) -> oneshot::Receiver<Value> {
        let (tx, rx) = oneshot::channel();
        self.waiters.borrow_mut().push((request.to_string(), tx));
        rx
    }

    /// Answers whoever waits for the request `message` replies to.
    fn settle(&self, message: &Value) {
        if let Some(bytes) = message["memory_bytes"].as_f64() {
            self.memory_bytes.set(Some(bytes));
        }
        let request = match (message["type"].as_str(), message["state"].as_str()) {
            (Some("status"), Some("started")) => "started",
            _ => match message["request"].as_str() {
                Some(request) => request,
                None => return,
            },
        };
        let mut waiters = self.waiters.borrow_mut();
        let (done, rest): (Vec<_>, Vec<_>) = waiters.drain(..).partition(|(r, _)| r == request);
        *waiters = rest;
        drop(waiters);
        for (_, tx) in done {
            let _ = tx.send(message.clone());
        }
    }

    fn fail_all(&self, message: &str) {
        for (_, tx) in self.waiters.borrow_mut().drain(..) {
            let _ = tx.send(failure(message));
        }
    }
}
