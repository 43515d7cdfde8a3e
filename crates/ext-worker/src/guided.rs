//! Decoding guided to a list of phrases, in the spirit of whisper.cpp's
//! guided command mode: the decoder may only say one of the commands that
//! make sense for the open tabs ("close the Jira tab", "switch to GitHub"),
//! and a small beam search over their tokens finds the one the audio most
//! likely says. What was heard freely stays first; hearing guided is for
//! when that means nothing ("Pinsage Shratab"), and its log-probability
//! tells a near miss from speech that says none of the phrases. It is a
//! second hearing of the same audio, not a guess at what words meant: it
//! runs only if the audio itself says the command convincingly.

use crate::error::Result;
use crate::tokenizer::WhisperTokenizer;
use crate::whisper::{log_softmax, DecoderState, Whisper};
use std::collections::HashMap;

/// Hypotheses kept at each step.
const BEAM: usize = 5;

/// The phrases as a tree of tokens, each spelled as Whisper writes a
/// sentence start (" Close the …", " close the …"), with or without a
/// final full stop, and with or without the wake phrase before it.
#[derive(Debug, Default)]
pub struct PhraseTree {
    nodes: Vec<Node>,
}

#[derive(Debug, Default)]
struct Node {
    children: Vec<(u32, usize)>,
    /// A phrase may end here.
    end: bool,
}

impl PhraseTree {
    pub fn new(tokenizer: &WhisperTokenizer, phrases: &[String], wake: Option<&str>) -> Self {
        let mut tree = PhraseTree {
            nodes: vec![Node::default()],
        };
        let mut words = Words::new(tokenizer);
        let stops: Vec<Vec<u32>> = [".", "?"]
            .iter()
            .filter_map(|p| tokenizer.encode(p).ok())
            .collect();
        let mut starts = vec![Vec::new()];
        if let Some(wake) = wake.map(str::trim).filter(|w| !w.is_empty()) {
            for spelled in spellings(wake) {
                for joint in ["", ","] {
                    starts.extend(words.encode(&format!("{spelled}{joint}")));
                }
            }
        }
        for phrase in phrases.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
            // After the wake phrase the command goes on as written.
            let Some(after) = words.encode(phrase) else {
                continue;
            };
            for spelled in spellings(phrase) {
                let Some(first) = words.encode(&spelled) else {
                    continue;
                };
                for start in &starts {
                    let body = if start.is_empty() { &first } else { &after };
                    let tokens: Vec<u32> = start.iter().chain(body).copied().collect();
                    tree.insert(&tokens);
                    for stop in &stops {
                        let ended: Vec<u32> = tokens.iter().chain(stop).copied().collect();
                        tree.insert(&ended);
                    }
                }
            }
        }
        tree
    }

    pub fn is_empty(&self) -> bool {
        self.nodes[0].children.is_empty()
    }

    fn insert(&mut self, tokens: &[u32]) {
        let mut at = 0;
        for &token in tokens {
            at = match self.nodes[at].children.iter().find(|(t, _)| *t == token) {
                Some(&(_, child)) => child,
                None => {
                    self.nodes.push(Node::default());
                    let child = self.nodes.len() - 1;
                    self.nodes[at].children.push((token, child));
                    child
                }
            };
        }
        self.nodes[at].end = true;
    }
}

/// Text as tokens, word by word: Whisper's byte-level pre-tokenizer never
/// joins two words, so " close the tab" is the tokens of " close", " the"
/// and " tab", and each word is encoded once however many phrases use it
/// (the tree is rebuilt whenever the tabs change).
struct Words<'a> {
    tokenizer: &'a WhisperTokenizer,
    known: HashMap<String, Vec<u32>>,
}

impl<'a> Words<'a> {
    fn new(tokenizer: &'a WhisperTokenizer) -> Self {
        Self {
            tokenizer,
            known: HashMap::new(),
        }
    }

    /// The tokens of " {text}"; None if a word cannot be encoded.
    fn encode(&mut self, text: &str) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        for word in text.split_whitespace() {
            if !self.known.contains_key(word) {
                let tokens = self.tokenizer.encode(&format!(" {word}")).ok()?;
                self.known.insert(word.to_string(), tokens);
            }
            out.extend(&self.known[word]);
        }
        Some(out)
    }
}

/// A phrase as given, and as Whisper starts a sentence: capitalized.
fn spellings(phrase: &str) -> Vec<String> {
    let mut chars = phrase.chars();
    let capital: String = chars
        .next()
        .map(|f| f.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    let mut out = vec![phrase.to_string(), capital];
    out.dedup();
    out
}

/// The phrase the audio most likely says.
#[derive(Debug, Clone, PartialEq)]
pub struct Guided {
    pub tokens: Vec<u32>,
    /// Summed log-probability of its tokens and the end of text.
    pub logprob: f32,
    /// `logprob` over tokens + 1, comparable with free decoding's.
    pub avg_logprob: f32,
}

/// One row of the beam: where in the tree it is, and what it said.
struct Hypothesis {
    node: usize,
    tokens: Vec<u32>,
    logprob: f32,
}

/// Beam search through `tree` from a started decoder state. Scores come
/// from the unfiltered distribution, so a phrase the audio does not say
/// scores low however the search was pruned. The hypotheses are the rows
/// of one decoder state, fed a token each per step together.
pub fn guided(
    model: &Whisper,
    tokenizer: &WhisperTokenizer,
    mut state: DecoderState,
    tree: &PhraseTree,
) -> Result<Option<Guided>> {
    if tree.is_empty() {
        return Ok(None);
    }
    let start = tokenizer.start_sequence();
    let hidden = model.feed(&mut state, &start)?;
    let eot = tokenizer.specials.eot as usize;
    // Row i's hidden state after its last token, `[rows, d]`.
    let mut last = hidden.narrow(0, start.len() - 1, 1)?;
    let mut alive = vec![Hypothesis {
        node: 0,
        tokens: Vec::new(),
        logprob: 0.0,
    }];
    let mut best: Option<Guided> = None;
    while !alive.is_empty() && start.len() + alive[0].tokens.len() < model.max_tokens() {
        // (row, token, child node, log-probability with it)
        let mut next: Vec<(usize, u32, usize, f32)> = Vec::new();
        for ((k, h), logits) in alive.iter().enumerate().zip(model.logits_rows(&last)?) {
            let logprobs = log_softmax(&logits);
            let node = &tree.nodes[h.node];
            if node.end {
                let logprob = h.logprob + logprobs[eot];
                let avg_logprob = logprob / (h.tokens.len() + 1) as f32;
                // Per token, as openai-whisper ranks its beams: a short
                // phrase ("no") must not win for ending early.
                if best.as_ref().is_none_or(|b| avg_logprob > b.avg_logprob) {
                    best = Some(Guided {
                        tokens: h.tokens.clone(),
                        logprob,
                        avg_logprob,
                    });
                }
            }
            for &(token, child) in &node.children {
                next.push((k, token, child, h.logprob + logprobs[token as usize]));
            }
        }
        next.sort_by(|a, b| b.3.total_cmp(&a.3));
        next.truncate(BEAM);
        if next.is_empty() {
            break;
        }
        let parents: Vec<u32> = next.iter().map(|&(k, ..)| k as u32).collect();
        let tokens: Vec<u32> = next.iter().map(|&(_, token, ..)| token).collect();
        state = state.rows(&parents)?;
        last = model.feed_beam(&mut state, &tokens)?;
        alive = next
            .into_iter()
            .map(|(k, token, child, logprob)| {
                let mut tokens = alive[k].tokens.clone();
                tokens.push(token);
                Hypothesis {
                    node: child,
                    tokens,
                    logprob,
                }
            })
            .collect();
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::spellings;

    #[test]
    fn a_phrase_is_spelled_as_given_and_capitalized() {
        assert_eq!(
            spellings("switch to GitHub"),
            ["switch to GitHub", "Switch to GitHub"]
        );
        assert_eq!(spellings("YouTube"), ["YouTube"]);
    }
}
