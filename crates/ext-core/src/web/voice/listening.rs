//! Listening: the microphone (or a sound file, for tests and demos)
//! through the AudioWorklet into the listening worker, and stopping.

use super::workers::hand_port;
use super::{failure, Capture, Voice};
use crate::web::bindings::{self, js_message, to_js};
use ext_protocol::request::VoiceSource;
use ext_protocol::worker::ToWorker;
use ext_protocol::{Error, ErrorCode};
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AudioBuffer, AudioBufferSourceNode, AudioContext, AudioContextOptions, AudioWorkletNode,
    MediaStream, MediaStreamConstraints, MediaTrackConstraints, Response,
};

impl Voice {
    /// Starts listening: the microphone, or `audio_url` (a sound file
    /// played through the same graph); `sample_rate` picks the
    /// AudioContext's rate (the device's by default).
    pub(super) async fn start(self: &Rc<Self>, source: &VoiceSource) -> Value {
        if self.capture.borrow().is_some() {
            return self.status();
        }
        // The file given to `voice_source`, unless this start names one.
        let source = if source.audio_url.is_none() {
            source.or(&self.source.borrow())
        } else {
            source.clone()
        };
        if let Err(e) = self.ensure_model().await {
            self.report_failure(&e);
            return failure(e);
        }
        self.send_vocabulary().await;
        let audio = source.echo_audio.unwrap_or(false);
        self.listener.post(&ToWorker::Echo { audio });
        match self.open_audio(&source).await {
            Ok(capture) => {
                *self.capture.borrow_mut() = Some(capture);
                let effects = self
                    .coordinator
                    .borrow_mut()
                    .listening_started(js_sys::Date::now());
                self.apply(effects);
                self.status()
            }
            Err(e) => {
                self.report_failure(&e);
                failure(e)
            }
        }
    }

    pub(super) async fn open_audio(&self, source: &VoiceSource) -> Result<Capture, Error> {
        let failed = |e: JsValue| Error::failed(format!("Audio did not start: {}", js_message(&e)));
        let options = AudioContextOptions::new();
        if let Some(rate) = source.sample_rate {
            options.set_sample_rate(rate as f32);
        }
        let context = AudioContext::new_with_context_options(&options).map_err(failed)?;
        let worklet = context.audio_worklet().map_err(failed)?;
        JsFuture::from(
            worklet
                .add_module(&bindings::runtime_url("worklet.js"))
                .map_err(failed)?,
        )
        .await
        .map_err(failed)?;
        let node = AudioWorkletNode::new(&context, "tw-capture").map_err(failed)?;
        hand_port(&node, &self.listener).map_err(failed)?;
        let (source_node, stream): (JsValue, Option<MediaStream>) = match &source.audio_url {
            Some(url) => {
                let file = self.play_file(&context, url).await?;
                file.connect_with_audio_node(&node).map_err(failed)?;
                file.start().map_err(failed)?;
                (file.into(), None)
            }
            None => {
                let stream = self.microphone().await?;
                let mic = context
                    .create_media_stream_source(&stream)
                    .map_err(failed)?;
                mic.connect_with_audio_node(&node).map_err(failed)?;
                (mic.into(), Some(stream))
            }
        };
        // Connected to the output (it writes silence) so that the graph is
        // pulled and the worklet runs.
        node.connect_with_audio_node(&context.destination())
            .map_err(failed)?;
        if let Ok(p) = context.resume() {
            let _ = JsFuture::from(p).await;
        }
        Ok(Capture {
            context,
            stream,
            node,
            _source: source_node,
        })
    }

    pub(super) async fn play_file(
        &self,
        context: &AudioContext,
        url: &str,
    ) -> Result<AudioBufferSourceNode, Error> {
        let failed = |e: JsValue| Error::invalid(format!("{url}: {}", js_message(&e)));
        let window = web_sys::window().ok_or_else(|| Error::failed("no window"))?;
        let response: Response = JsFuture::from(window.fetch_with_str(url))
            .await
            .map_err(failed)?
            .unchecked_into();
        let bytes = JsFuture::from(response.array_buffer().map_err(failed)?)
            .await
            .map_err(failed)?;
        let buffer: AudioBuffer = JsFuture::from(
            context
                .decode_audio_data(&bytes.unchecked_into())
                .map_err(failed)?,
        )
        .await
        .map_err(failed)?
        .unchecked_into();
        let source = context.create_buffer_source().map_err(failed)?;
        source.set_buffer(Some(&buffer));
        Ok(source)
    }

    /// The microphone; if Firefox has not allowed it to the extension yet,
    /// opens the page that asks once, and says so.
    pub(super) async fn microphone(&self) -> Result<MediaStream, Error> {
        let unavailable = |e: &JsValue| Error::new(ErrorCode::MicUnavailable, js_message(e));
        let window = web_sys::window().ok_or_else(|| Error::failed("no window"))?;
        let devices = window
            .navigator()
            .media_devices()
            .map_err(|e| unavailable(&e))?;
        // Whisper hears the room's noise better than what Firefox's noise
        // suppression (WebRTC's, at "high") leaves of the speech, and the
        // automatic gain pumps that noise up in every pause. With both on
        // (Firefox's default) tiny.en did the right thing for 87.2% of the
        // corpus, with neither 91.3% (WebRTC's own processing, offline;
        // docs/speech.md). Echo cancellation stays: it changes nothing unless
        // something plays back, and then it helps.
        let audio = MediaTrackConstraints::new();
        audio.set_noise_suppression_bool(false);
        audio.set_auto_gain_control_bool(false);
        let constraints = MediaStreamConstraints::new();
        constraints.set_audio(&audio);
        let promise = devices
            .get_user_media_with_constraints(&constraints)
            .map_err(|e| unavailable(&e))?;
        match JsFuture::from(promise).await {
            Ok(stream) => Ok(stream.unchecked_into()),
            Err(e) => {
                let name = e
                    .dyn_ref::<web_sys::DomException>()
                    .map(|d| d.name())
                    .unwrap_or_default();
                if name == "NotAllowedError" || name == "SecurityError" {
                    let page = json!({ "url": bindings::runtime_url("permission.html") });
                    let _ = bindings::run(bindings::tabs_create(&to_js(&page))).await;
                    Err(Error::new(
                        ErrorCode::MicDenied,
                        bindings::i18n_message("voiceMicDenied"),
                    ))
                } else {
                    Err(Error::new(
                        ErrorCode::MicUnavailable,
                        format!(
                            "{} ({})",
                            bindings::i18n_message("voiceMicUnavailable"),
                            js_message(&e)
                        ),
                    ))
                }
            }
        }
    }

    pub(in crate::web) fn stop(self: &Rc<Self>) -> Value {
        let capture = self.capture.borrow_mut().take();
        let was_listening = capture.is_some();
        if let Some(capture) = capture {
            if let Some(stream) = capture.stream {
                for track in stream.get_tracks().iter() {
                    if let Ok(track) = track.dyn_into::<web_sys::MediaStreamTrack>() {
                        track.stop();
                    }
                }
            }
            let _ = capture.context.close();
        }
        let effects = self
            .coordinator
            .borrow_mut()
            .listening_stopped(was_listening, js_sys::Date::now());
        self.apply(effects);
        self.status()
    }

    /// The mic button or Alt+Shift+L: listen (if not yet) and take the next
    /// utterance as a command.
    pub(super) async fn trigger(self: &Rc<Self>, source: &VoiceSource) -> Value {
        let answer = self.start(source).await;
        if answer["ok"] == true {
            let effects = self.coordinator.borrow_mut().triggered();
            self.apply(effects);
        }
        answer
    }
}
