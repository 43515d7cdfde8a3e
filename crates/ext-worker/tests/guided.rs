//! Hearing guided to a list of phrases, on the random-weight test model:
//! which phrase wins means nothing here (real speech is tested in ext-cli's
//! real_speech and in Firefox), but what comes out is always what the
//! phrase tree says (a phrase, or two joined, maybe after the wake
//! phrase), with a finite score; and with no phrases nothing comes out.

use ext_worker::guided::PhraseTree;
use ext_worker::{audio, AudioCtx, Engine, ModelFiles, Projection, TranscribeOptions};
use std::path::Path;

fn engine() -> Engine {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/models/tiny-random.en");
    Engine::load(&ModelFiles::from_dir(&dir).unwrap(), Projection::Exact).unwrap()
}

fn speech() -> Vec<f32> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/audio/speech.wav"
    );
    audio::to_16k(&audio::read_wav(&std::fs::read(path).unwrap()).unwrap()).unwrap()
}

#[test]
fn hearing_guided_says_one_of_the_phrases_or_nothing() {
    let engine = engine();
    let phrases: Vec<String> = ["close the YouTube tab", "switch to GitHub", "undo"]
        .map(String::from)
        .to_vec();
    let tree = PhraseTree::new(engine.tokenizer(), &phrases, Some("hey fox"));
    assert!(!tree.is_empty());
    for ctx in [AudioCtx::Full, AudioCtx::Tail(0)] {
        let heard = engine
            .hear_guided(&speech(), &tree, ctx)
            .unwrap()
            .expect("a phrase");
        assert!(
            tree.says(&engine.tokenizer().encode(&heard.text).unwrap()),
            "{heard:?} is none of {phrases:?}"
        );
        for logprob in [heard.avg_logprob, heard.end_logprob] {
            assert!(logprob.is_finite() && logprob <= 0.0, "{heard:?}");
        }
    }

    let none = PhraseTree::new(engine.tokenizer(), &[String::new(), "  ".into()], None);
    assert!(none.is_empty());
    assert_eq!(
        engine
            .hear_guided(&speech(), &none, AudioCtx::Full)
            .unwrap(),
        None
    );
}

/// Hearing guided reuses the encoding of the utterance just transcribed,
/// and only of that utterance: the answer is the same as from an engine
/// that never transcribed anything, whatever was transcribed before.
#[test]
fn hearing_guided_answers_the_same_with_the_last_encoding_kept() {
    let phrases: Vec<String> = ["close the YouTube tab", "switch to GitHub", "undo"]
        .map(String::from)
        .to_vec();
    let speech = speech();
    let other = &speech[..speech.len() / 2];
    for ctx in [AudioCtx::Full, AudioCtx::Tail(0)] {
        let fresh = engine();
        let tree = PhraseTree::new(fresh.tokenizer(), &phrases, None);
        let expected = fresh.hear_guided(&speech, &tree, ctx).unwrap();
        assert!(expected.is_some());

        let engine = engine();
        let options = TranscribeOptions {
            audio_ctx: ctx,
            max_tokens: Some(4),
            ..Default::default()
        };
        engine.transcribe(&speech, &options).unwrap();
        assert_eq!(engine.hear_guided(&speech, &tree, ctx).unwrap(), expected);
        engine.transcribe(other, &options).unwrap();
        assert_eq!(engine.hear_guided(&speech, &tree, ctx).unwrap(), expected);
        assert_ne!(engine.hear_guided(other, &tree, ctx).unwrap(), expected);
    }
}

/// A beam's rows fed together give each row what feeding it alone gives:
/// the first step from one row into three, the next from two of those.
#[test]
fn a_beam_fed_together_matches_each_row_fed_alone() {
    let engine = engine();
    let model = engine.model();
    let (mel, frames) = engine.mel(&speech(), AudioCtx::Full).unwrap();
    let features = model.encode(&mel, frames).unwrap();
    let mut started = model.start(&features).unwrap();
    model
        .feed(&mut started, &engine.tokenizer().start_sequence())
        .unwrap();
    let alone = |tokens: &[u32]| {
        let mut state = started.clone();
        let hidden = model.feed(&mut state, tokens).unwrap();
        hidden
            .get(tokens.len() - 1)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap()
    };
    let close = |a: Vec<f32>, b: Vec<f32>| {
        let worst = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max);
        assert!(worst < 1e-3, "rows differ by {worst}");
    };
    let (a, b, c, d, e) = (400, 2000, 3000, 500, 600);

    let mut beam = started.rows(&[0, 0, 0]).unwrap();
    let hidden = model.feed_beam(&mut beam, &[a, b, c]).unwrap();
    assert_eq!(hidden.dims(), [3, engine.config().d_model]);
    for (row, token) in [a, b, c].into_iter().enumerate() {
        close(hidden.get(row).unwrap().to_vec1().unwrap(), alone(&[token]));
    }

    let mut beam = beam.rows(&[2, 0]).unwrap();
    let hidden = model.feed_beam(&mut beam, &[d, e]).unwrap();
    close(hidden.get(0).unwrap().to_vec1().unwrap(), alone(&[c, d]));
    close(hidden.get(1).unwrap().to_vec1().unwrap(), alone(&[a, e]));
    assert_eq!(beam.length, started.length + 2);
}

/// Two commands may be heard in one breath, joined by " and", but not the
/// same command twice (Whisper's favourite way to fill audio it cannot
/// make out), nor three.
#[test]
fn hearing_guided_may_join_two_different_commands() {
    let engine = engine();
    let tokenizer = engine.tokenizer();
    let phrases: Vec<String> = [
        "mute YouTube",
        "pin Slack",
        "group Jira and Confluence",
        "go to the top of the page",
    ]
    .map(String::from)
    .to_vec();
    let tree = PhraseTree::new(tokenizer, &phrases, Some("hey fox"));
    let says = |text: &str| tree.says(&tokenizer.encode(text).unwrap());
    for text in [
        " Mute YouTube",
        " Mute YouTube and pin Slack.",
        " Hey fox, mute YouTube and pin Slack",
        " group Jira and Confluence and pin Slack",
        " Pin Slack and group Jira and Confluence.",
    ] {
        assert!(says(text), "{text:?} should be said");
    }
    for text in [
        " Mute",
        " Mute YouTube and",
        " Mute YouTube and mute YouTube",
        " Go to the top of the page and go to the top of the page.",
        " Mute YouTube and pin Slack and go to the top of the page",
        " Mute YouTube and Pin Slack",
        " Hey fox and pin Slack",
    ] {
        assert!(!says(text), "{text:?} should not be said");
    }
}
