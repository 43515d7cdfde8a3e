//! The voice activity detector on real speech (espeak-ng's "hey fox close
//! the youtube tabs", from the reference audio), as the worker meets it:
//! silence, the phrase, silence, in AudioWorklet-sized blocks.

use ext_worker::audio;
use ext_worker::vad::{Vad, VadConfig, VadEvent};

fn speech() -> Vec<f32> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/audio/speech.wav"
    );
    let wav = audio::read_wav(&std::fs::read(path).unwrap()).unwrap();
    audio::to_16k(&wav).unwrap()
}

#[test]
fn a_spoken_command_is_one_utterance_holding_all_of_it() {
    let speech = speech();
    let silence = vec![0.0005f32; 16_000];
    let audio = [silence.clone(), speech.clone(), silence].concat();
    let mut vad = Vad::new(VadConfig::ACTIVE);
    let events: Vec<VadEvent> = audio.chunks(128).flat_map(|b| vad.push(b)).collect();
    let utterances: Vec<&Vec<f32>> = events
        .iter()
        .filter_map(|e| match e {
            VadEvent::Utterance(u) => Some(u),
            _ => None,
        })
        .collect();
    assert_eq!(utterances.len(), 1, "{} events", events.len());
    let heard = utterances[0];
    // All the speech (2.17 s) is in it, with at most pre-roll and the
    // 700-ms tail besides.
    assert!(
        heard.len() >= speech.len() - 1_600,
        "{} of {}",
        heard.len(),
        speech.len()
    );
    assert!(
        heard.len() <= speech.len() + 16_000,
        "{} of {}",
        heard.len(),
        speech.len()
    );
}
