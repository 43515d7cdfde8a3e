//! Whisper's tokenizer from a hub `tokenizer.json` (the `tokenizers` crate),
//! with the special tokens and the suppression set that openai-whisper's
//! decoding uses.

use crate::error::{Error, Result};
use std::collections::BTreeSet;

/// The special tokens decoding needs. Ids differ between multilingual and
/// English-only vocabularies, so they are looked up by name.
#[derive(Debug, Clone)]
pub struct Specials {
    pub eot: u32,
    pub sot: u32,
    pub sot_prev: u32,
    pub sot_lm: u32,
    pub transcribe: u32,
    pub translate: u32,
    pub no_timestamps: u32,
    /// `<|nospeech|>`, called `<|nocaptions|>` by older hub tokenizers.
    pub no_speech: Option<u32>,
    /// `<|en|>`, present only in multilingual vocabularies.
    pub english: Option<u32>,
    /// `<|0.00|>`: this and every id above it are timestamps.
    pub timestamp_begin: u32,
}

/// Vocabulary size of the multilingual models; English-only ones have one
/// token fewer.
pub const MULTILINGUAL_VOCAB: usize = 51_865;

pub struct WhisperTokenizer {
    inner: tokenizers::Tokenizer,
    pub specials: Specials,
    /// Ids in all, timestamps included (derived where the file has none).
    size: usize,
}

/// Timestamp tokens `<|0.00|>` … `<|30.00|>`.
pub const TIMESTAMPS: usize = 1_501;

impl WhisperTokenizer {
    /// A hub or faster-whisper `tokenizer.json`. Timestamp tokens may be
    /// missing (faster-whisper and older hub revisions leave them out):
    /// they follow `<|notimestamps|>`. A byte-level BPE that lost GPT-2's
    /// first merge (`Ġ t`, as one published base tokenizer did) gets it
    /// back, so prompts encode as openai-whisper's tiktoken does.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let repaired = with_first_merge(bytes);
        let inner = tokenizers::Tokenizer::from_bytes(repaired.as_deref().unwrap_or(bytes))
            .map_err(|e| Error::tokenizer(format!("tokenizer.json does not load: {e}")))?;
        let id = |name: &str| inner.token_to_id(name);
        let need = |name: &str| {
            id(name).ok_or_else(|| Error::tokenizer(format!("tokenizer.json has no {name} token")))
        };
        let no_timestamps = need("<|notimestamps|>")?;
        let timestamp_begin = id("<|0.00|>").unwrap_or(no_timestamps + 1);
        let size = inner
            .get_vocab_size(true)
            .max(timestamp_begin as usize + TIMESTAMPS);
        // openai-whisper's rule (`n_vocab >= 51865`): hub tokenizers of the
        // English-only models still list the language tokens, so their
        // presence says nothing.
        let multilingual = size >= MULTILINGUAL_VOCAB;
        let specials = Specials {
            eot: need("<|endoftext|>")?,
            sot: need("<|startoftranscript|>")?,
            sot_prev: need("<|startofprev|>")?,
            sot_lm: need("<|startoflm|>")?,
            transcribe: need("<|transcribe|>")?,
            translate: need("<|translate|>")?,
            no_timestamps,
            no_speech: id("<|nospeech|>").or_else(|| id("<|nocaptions|>")),
            english: id("<|en|>").filter(|_| multilingual),
            timestamp_begin,
        };
        Ok(Self {
            inner,
            specials,
            size,
        })
    }

    pub fn is_multilingual(&self) -> bool {
        self.specials.english.is_some()
    }

    /// Number of ids, special and timestamp tokens included (must equal
    /// the model's).
    pub fn vocab_size(&self) -> usize {
        self.size
    }

    /// Ids of plain text, no special tokens added.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>> {
        let encoding = self
            .inner
            .encode(text, false)
            .map_err(|e| Error::tokenizer(format!("cannot encode {text:?}: {e}")))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// Text of ids; timestamps and other special tokens are left out, as in
    /// openai-whisper's `decode`.
    pub fn decode(&self, ids: &[u32]) -> Result<String> {
        let text: Vec<u32> = ids
            .iter()
            .copied()
            .filter(|&t| t < self.specials.eot)
            .collect();
        self.inner
            .decode(&text, false)
            .map_err(|e| Error::tokenizer(format!("cannot decode: {e}")))
    }

    /// The start of every transcription: `<|startoftranscript|>`, then for
    /// multilingual models `<|en|><|transcribe|>`, then `<|notimestamps|>`.
    pub fn start_sequence(&self) -> Vec<u32> {
        let s = &self.specials;
        let mut seq = vec![s.sot];
        if let Some(english) = s.english {
            seq.extend([english, s.transcribe]);
        }
        seq.push(s.no_timestamps);
        seq
    }

    /// openai-whisper's `suppress_tokens="-1"` set: its non-speech symbols
    /// plus the task and start tokens and `<|nospeech|>`, sorted.
    pub fn suppressed(&self) -> Result<Vec<u32>> {
        let mut set = self.non_speech_tokens()?;
        let s = &self.specials;
        set.extend([s.transcribe, s.translate, s.sot, s.sot_prev, s.sot_lm]);
        set.extend(s.no_speech);
        Ok(set.into_iter().collect())
    }

    /// Tokens that are symbols rather than speech, as openai-whisper's
    /// `Tokenizer.non_speech_tokens` computes them.
    fn non_speech_tokens(&self) -> Result<BTreeSet<u32>> {
        let mut symbols: Vec<String> = "\"#()*+/:;<=>@[\\]^_`{|}~「」『』"
            .chars()
            .map(String::from)
            .collect();
        symbols.extend(
            "<< >> <<< >>> -- --- -( -[ (' (\" (( )) ((( ))) [[ ]] {{ }} ♪♪ ♪♪♪"
                .split(' ')
                .map(String::from),
        );
        // U+2640..U+267F symbols share their first UTF-8 bytes, so the first
        // token is safe to suppress even when a symbol takes several tokens.
        let miscellaneous: Vec<String> = "♩♪♫♬♭♮♯".chars().map(String::from).collect();
        let first = |text: &str| -> Result<Option<u32>> { Ok(self.encode(text)?.first().copied()) };
        let mut result = BTreeSet::new();
        // Hyphens and single quotes between words stay allowed.
        result.extend(first(" -")?);
        result.extend(first(" '")?);
        for (symbol, misc) in symbols
            .iter()
            .map(|s| (s, false))
            .chain(miscellaneous.iter().map(|s| (s, true)))
        {
            for text in [symbol.clone(), format!(" {symbol}")] {
                let ids = self.encode(&text)?;
                if ids.len() == 1 || (misc && !ids.is_empty()) {
                    result.insert(ids[0]);
                }
            }
        }
        Ok(result)
    }
}

/// The tokenizer.json with GPT-2's first BPE merge (`Ġ t`) put back, if
/// its vocabulary has `Ġt` but its merges lost it; None if nothing to mend.
fn with_first_merge(bytes: &[u8]) -> Option<Vec<u8>> {
    // Most files have it: a byte search spares parsing 2 MB of JSON.
    let has = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    if has("\"Ġ t\"") || has("[\"Ġ\",\"t\"]") || has("[\"Ġ\", \"t\"]") {
        return None;
    }
    let mut json: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let model = json.get_mut("model")?;
    model.get("vocab")?.get("Ġt")?;
    let merges = model.get_mut("merges")?.as_array_mut()?;
    let is_first = |m: &serde_json::Value| match m {
        serde_json::Value::String(s) => s == "Ġ t",
        serde_json::Value::Array(pair) => pair.len() == 2 && pair[0] == "Ġ" && pair[1] == "t",
        _ => false,
    };
    if merges.is_empty() || merges.iter().any(is_first) {
        return None;
    }
    let first = match merges[0] {
        serde_json::Value::Array(_) => serde_json::json!(["Ġ", "t"]),
        _ => serde_json::json!("Ġ t"),
    };
    merges.insert(0, first);
    serde_json::to_vec(&json).ok()
}
