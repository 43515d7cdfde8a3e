//! One speech worker as the background page sees it: started on first use,
//! asked things (a reply is the first message naming the request), and
//! told which model it holds. There are one or two: the listening worker
//! (audio, detector, wake word, and commands too when it is alone) and,
//! with a separate wake-word model, the command model's worker.

use super::bindings::{self, js_message, to_js, to_json};
use ext_protocol::worker::{FromWorker, ToWorker};
use ext_protocol::Error;
use futures::channel::oneshot;
use js_sys::Array;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

/// What a request to a worker comes to: its answer, or why there is none.
pub type Reply = Result<FromWorker, Error>;

/// The running worker's message and error handlers, kept until it stops.
type Handlers = (
    Closure<dyn Fn(MessageEvent)>,
    Closure<dyn Fn(web_sys::ErrorEvent)>,
);

pub struct SpeechWorker {
    worker: RefCell<Option<Worker>>,
    handlers: RefCell<Option<Handlers>>,
    /// Whether it said it started (its message loop is listening; what is
    /// posted before then would be lost).
    started: Cell<bool>,
    /// Replies awaited, by request name.
    waiters: RefCell<Vec<(String, oneshot::Sender<Reply>)>>,
}

impl SpeechWorker {
    pub fn new() -> Rc<Self> {
        Rc::new(Self {
            worker: RefCell::default(),
            handlers: RefCell::default(),
            started: Cell::new(false),
            waiters: RefCell::default(),
        })
    }

    pub fn is_running(&self) -> bool {
        self.worker.borrow().is_some()
    }

    /// Starts the worker (unless it runs) and waits for it to say so;
    /// answers whether this call started it. Each message it posts answers
    /// the request it names, then goes to `on_message`; if its script
    /// fails, every waiting request fails and `on_failure` hears why (it
    /// starts afresh on next use).
    pub async fn start(
        self: &Rc<Self>,
        on_message: impl Fn(FromWorker) + 'static,
        on_failure: impl Fn(String) + 'static,
    ) -> Result<bool, Error> {
        if self.is_running() {
            if self.started.get() {
                return Ok(false);
            }
            // Another request is starting it: wait for the same answer.
            return self.reply("started").await.map(|_| false);
        }
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(&bindings::runtime_url("worker.js"), &options)
            .map_err(|e| {
                Error::failed(format!(
                    "The speech worker did not start: {}",
                    js_message(&e)
                ))
            })?;
        let me = self.clone();
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            let message = read(&e.data());
            me.settle(&message);
            on_message(message);
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        let me = self.clone();
        let on_error =
            Closure::<dyn Fn(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                let message = format!("The speech worker failed: {}", e.message());
                me.stop();
                me.fail_all(&message);
                on_failure(message);
            });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.handlers.borrow_mut() = Some((on_message, on_error));
        let started = self.reply("started");
        *self.worker.borrow_mut() = Some(worker);
        started.await?;
        self.started.set(true);
        Ok(true)
    }

    /// Ends the worker (its memory goes back to the browser).
    pub fn stop(&self) {
        if let Some(worker) = self.worker.borrow_mut().take() {
            worker.set_onmessage(None);
            worker.set_onerror(None);
            worker.terminate();
        }
        // Its handlers go once the event under way is handled: stop may be
        // called from one of them (the error handler stops the worker),
        // and a closure must not be dropped while it runs.
        if let Some(handlers) = self.handlers.borrow_mut().take() {
            wasm_bindgen_futures::spawn_local(async move { drop(handlers) });
        }
        self.started.set(false);
        self.fail_all("the speech worker was stopped");
    }

    pub fn post(&self, message: &ToWorker) {
        if let Some(worker) = self.worker.borrow().as_ref() {
            let _ = worker.post_message(&to_js(&message.to_json()));
        }
    }

    /// Posts `message` handing over `transferable` (a MessagePort).
    pub fn post_transfer(&self, message: &JsValue, transferable: &JsValue) -> Result<(), JsValue> {
        match self.worker.borrow().as_ref() {
            Some(worker) => worker.post_message_with_transfer(message, &Array::of1(transferable)),
            None => Err("the speech worker is not running".into()),
        }
    }

    /// Posts `message` (JSON with payload fields beside it: model files)
    /// and waits for its answer: the worker's reply, or its `error`.
    pub async fn ask(&self, message: &ToWorker, payload: Option<&JsValue>) -> Reply {
        let request = message.kind();
        let reply = self.reply(request);
        let js = to_js(&message.to_json());
        if let Some(payload) = payload {
            for key in ext_protocol::worker::PAYLOAD_FIELDS {
                if let Ok(value) = js_sys::Reflect::get(payload, &(*key).into()) {
                    if !value.is_undefined() {
                        let _ = js_sys::Reflect::set(&js, &(*key).into(), &value);
                    }
                }
            }
        }
        match self.worker.borrow().as_ref() {
            Some(worker) => {
                if let Err(e) = worker.post_message(&js) {
                    return Err(Error::failed(js_message(&e)));
                }
            }
            None => return Err(Error::failed("the speech worker is not running")),
        }
        reply.await
    }

    fn reply(&self, request: &str) -> impl std::future::Future<Output = Reply> {
        let (tx, rx) = oneshot::channel();
        self.waiters.borrow_mut().push((request.to_string(), tx));
        async move {
            rx.await
                .unwrap_or_else(|_| Err(Error::failed("the speech worker stopped")))
        }
    }

    /// Answers whoever waits for the request `message` replies to.
    fn settle(&self, message: &FromWorker) {
        let Some(request) = message.answers() else {
            return;
        };
        let reply = match message {
            FromWorker::Error { error, .. } => Err(error.clone()),
            other => Ok(other.clone()),
        };
        let mut waiters = self.waiters.borrow_mut();
        let (done, rest): (Vec<_>, Vec<_>) = waiters.drain(..).partition(|(r, _)| r == request);
        *waiters = rest;
        drop(waiters);
        for (_, tx) in done {
            let _ = tx.send(reply.clone());
        }
    }

    fn fail_all(&self, message: &str) {
        for (_, tx) in self.waiters.borrow_mut().drain(..) {
            let _ = tx.send(Err(Error::failed(message)));
        }
    }
}

/// A worker's message, typed (one it should never send is an error).
fn read(data: &JsValue) -> FromWorker {
    let json = to_json(data).unwrap_or_default();
    serde_json::from_value(json).unwrap_or_else(|e| {
        FromWorker::error(
            Error::failed(format!("the speech worker said something unexpected: {e}")),
            None,
        )
    })
}
