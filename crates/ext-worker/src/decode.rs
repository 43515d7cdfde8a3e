//! Greedy decoding as openai-whisper's `whisper.decode` does it with
//! `DecodingOptions(language="en", task="transcribe", temperature=0,
//! without_timestamps=True)`: the start sequence (after an optional
//! `<|startofprev|>` prompt), blank and end-of-text suppressed at the first
//! step, the non-speech and control tokens always, argmax until end of text
//! or `sample_len` tokens. Plus the wake-word score: the log-probability that
//! the audio says a given phrase.

use crate::error::{Error, Result};
use crate::tokenizer::WhisperTokenizer;
use crate::whisper::{argmax, log_softmax, DecoderState, Whisper};
use candle_core::Tensor;

#[derive(Debug, Clone, Default)]
pub struct DecodeOptions {
    /// Text the decoder is conditioned on, like the previous window's
    /// transcript: a wake word, or the sites of the open tabs.
    pub prompt: Option<String>,
    /// At most this many tokens (`sample_len`); half the text context
    /// when unset, as in the original.
    pub max_tokens: Option<usize>,
    /// Stop as soon as the text repeats itself (a block of tokens said
    /// again and again) and keep its first saying.
    pub stop_loops: bool,
    /// Tokens nudged up (by the amount, in logits) at every step: the
    /// words commands are made of and the tabs' names, so that a word
    /// half heard comes out as one of them.
    pub guide: Vec<(u32, f32)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The tokens after the start sequence, without end of text.
    pub tokens: Vec<u32>,
    /// Each token's log-probability under the filtered distribution.
    pub token_logprobs: Vec<f32>,
    /// Probability of `<|nospeech|>` at the start token, if the vocabulary
    /// has one.
    pub no_speech_prob: Option<f32>,
    /// Summed log-probability (end of text included) over tokens + 1.
    pub avg_logprob: f32,
    /// It repeated itself, or ran to the token cap without ending.
    pub looped: bool,
}

/// Tokens whose logits decoding sets to −∞, built once per model.
pub struct Suppression {
    always: Vec<u32>,
    at_start: Vec<u32>,
}

impl Suppression {
    pub fn new(tokenizer: &WhisperTokenizer) -> Result<Self> {
        let mut at_start = tokenizer.encode(" ")?;
        at_start.push(tokenizer.specials.eot);
        Ok(Self {
            always: tokenizer.suppressed()?,
            at_start,
        })
    }

    pub fn always(&self) -> &[u32] {
        &self.always
    }

    fn apply(&self, logits: &mut [f32], first_step: bool) {
        let extra = if first_step { &self.at_start[..] } else { &[] };
        for &t in self.always.iter().chain(extra) {
            if let Some(l) = logits.get_mut(t as usize) {
                *l = f32::NEG_INFINITY;
            }
        }
    }
}

/// The tokens decoding starts from, and where `<|startoftranscript|>` is.
pub fn initial_tokens(
    tokenizer: &WhisperTokenizer,
    prompt: Option<&str>,
    max_length: usize,
) -> Result<(Vec<u32>, usize)> {
    let start = tokenizer.start_sequence();
    let Some(prompt) = prompt.map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok((start, 0));
    };
    let prompt_tokens = tokenizer.encode(&format!(" {prompt}"))?;
    // The original keeps the last n_text_ctx/2 − 1 prompt tokens.
    let keep = (max_length / 2).saturating_sub(1);
    let prompt_tokens = &prompt_tokens[prompt_tokens.len().saturating_sub(keep)..];
    let mut tokens = vec![tokenizer.specials.sot_prev];
    tokens.extend_from_slice(prompt_tokens);
    let sot_index = tokens.len();
    tokens.extend(start);
    Ok((tokens, sot_index))
}

/// Greedy decoding from a started state (the audio's cross-attention);
/// `keep_going` sees the tokens so far after each one and can stop early
/// (the wake-word check gives up on speech that is not for us).
pub fn greedy(
    model: &Whisper,
    tokenizer: &WhisperTokenizer,
    suppression: &Suppression,
    mut state: DecoderState,
    options: &DecodeOptions,
    keep_going: &mut dyn FnMut(&[u32]) -> bool,
) -> Result<Decoded> {
    let max_length = model.max_tokens();
    let (initial, sot_index) = initial_tokens(tokenizer, options.prompt.as_deref(), max_length)?;
    let sample_len = options.max_tokens.unwrap_or(max_length / 2);
    let eot = tokenizer.specials.eot;

    let hidden = model.feed(&mut state, &initial)?;
    let no_speech_prob = match tokenizer.specials.no_speech {
        Some(id) => {
            let logits = model.logits(&hidden.get(sot_index)?)?;
            Some(log_softmax(&logits)[id as usize].exp())
        }
        None => None,
    };
    let mut last = hidden.get(initial.len() - 1)?;
    let (mut tokens, mut token_logprobs) = (Vec::new(), Vec::new());
    let mut sum_logprob = 0f32;
    let mut ended = false;
    let mut looped = false;
    while tokens.len() < sample_len {
        let mut logits = model.logits(&last)?;
        for &(token, boost) in &options.guide {
            if let Some(l) = logits.get_mut(token as usize) {
                *l += boost;
            }
        }
        suppression.apply(&mut logits, tokens.is_empty());
        let logprobs = log_softmax(&logits);
        let next = argmax(&logprobs) as u32;
        sum_logprob += logprobs[next as usize];
        if next == eot {
            ended = true;
            break;
        }
        tokens.push(next);
        token_logprobs.push(logprobs[next as usize]);
        if options.stop_loops {
            if let Some(keep) = repeated_tail(&tokens) {
                looped = true;
                tokens.truncate(keep);
                token_logprobs.truncate(keep);
                break;
            }
        }
        if state.length >= max_length || tokens.len() == sample_len || !keep_going(&tokens) {
            break;
        }
        last = model.feed(&mut state, &[next])?.get(0)?;
    }
    // Decoding to the cap without an end of text is a loop too.
    looped |= !ended && tokens.len() >= sample_len;
    Ok(Decoded {
        avg_logprob: sum_logprob / (tokens.len() + 1) as f32,
        tokens,
        token_logprobs,
        no_speech_prob,
        looped,
    })
}

/// If `tokens` end by saying the same block again (a block of 3 or more
/// tokens twice, a shorter one four times), how many to keep: up to the
/// end of its first saying.
pub fn repeated_tail(tokens: &[u32]) -> Option<usize> {
    let n = tokens.len();
    for len in 1..=n / 2 {
        let times = if len >= 3 { 2 } else { 4 };
        if len * times > n {
            continue;
        }
        let block = &tokens[n - len..];
        let repeated = (1..times).all(|k| &tokens[n - len * (k + 1)..n - len * k] == block);
        if repeated {
            return Some(n - len * (times - 1));
        }
    }
    None
}

/// The log-probability that the audio says `phrase` (as the first words
/// after the start sequence), teacher-forced, from the unfiltered logits.
pub fn phrase_logprob(
    model: &Whisper,
    tokenizer: &WhisperTokenizer,
    audio_features: &Tensor,
    phrase: &str,
) -> Result<f32> {
    let phrase = phrase.trim();
    if phrase.is_empty() {
        return Err(Error::args("the phrase to score is empty"));
    }
    let phrase_tokens = tokenizer.encode(&format!(" {phrase}"))?;
    let mut tokens = tokenizer.start_sequence();
    let first = tokens.len() - 1;
    tokens.extend(&phrase_tokens);
    if tokens.len() > model.max_tokens() {
        return Err(Error::args("the phrase to score is too long"));
    }
    let mut state = model.start(audio_features)?;
    // The last phrase token predicts nothing that is scored.
    let hidden = model.feed(&mut state, &tokens[..tokens.len() - 1])?;
    let mut total = 0f32;
    for (k, &token) in phrase_tokens.iter().enumerate() {
        let logits = model.logits(&hidden.get(first + k)?)?;
        total += log_softmax(&logits)[token as usize];
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::repeated_tail;

    #[test]
    fn a_block_said_again_is_cut_back_to_its_first_saying() {
        // "reload this tab reload this tab"
        assert_eq!(repeated_tail(&[1, 2, 3, 1, 2, 3]), Some(3));
        assert_eq!(repeated_tail(&[9, 1, 2, 3, 1, 2, 3]), Some(4));
        // Short blocks only after four sayings: "tab tab" may be meant.
        assert_eq!(repeated_tail(&[5, 5]), None);
        assert_eq!(repeated_tail(&[5, 5, 5, 5]), Some(1));
        assert_eq!(repeated_tail(&[1, 2, 1, 2, 1, 2, 1, 2]), Some(2));
        assert_eq!(repeated_tail(&[1, 2, 3, 4, 1, 2, 3]), None);
        assert_eq!(repeated_tail(&[]), None);
    }
}
