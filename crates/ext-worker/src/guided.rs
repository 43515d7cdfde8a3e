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
/// final full stop, and with or without the wake phrase before it. A
/// phrase may go on with " and" and a second phrase as written ("Mute
/// YouTube and pin Slack"), as people join two commands in one breath:
/// the tree's second half is shared by every first phrase, so joining
/// costs one more set of nodes, not every pair of phrases.
#[derive(Debug, Default)]
pub struct PhraseTree {
    nodes: Vec<Node>,
}

/// Where every phrase starts.
const ROOT: usize = 0;
/// Where the second of two joined phrases starts.
const JOINED: usize = 1;

/// A hypothesis that joined a second command is dropped once its mean
/// log-probability falls this far below the best phrase heard so far:
/// when the audio has ended, " and …" is improbable from its first token,
/// and following it to the end would double the time guided hearing
/// takes.
const JOINED_MARGIN: f32 = 1.0;

#[derive(Debug, Default)]
struct Node {
    children: Vec<(u32, usize)>,
    /// A phrase may end here.
    end: bool,
    /// The phrase's first word ends here (its index in `leads`). Joined
    /// commands must start differently: else Whisper's urge to repeat
    /// itself hears "go to the top of the page and go to the top of the
    /// page" in anything.
    lead: Option<u16>,
}

impl PhraseTree {
    pub fn new(tokenizer: &WhisperTokenizer, phrases: &[String], wake: Option<&str>) -> Self {
        let mut tree = PhraseTree::default();
        tree.add_node();
        let joined = tree.add_node();
        debug_assert_eq!((ROOT, JOINED), (0, joined));
        let mut words = Words::new(tokenizer);
        let stops: Vec<Vec<u32>> = [".", "?"]
            .iter()
            .filter_map(|p| tokenizer.encode(p).ok())
            .collect();
        // The second phrase after " and" is as written, and ends the tree.
        let mut firsts = Vec::new();
        let mut leads: HashMap<String, u16> = HashMap::new();
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
            let Some(lead_len) = words.first_word_len(phrase) else {
                continue;
            };
            let lead_word = phrase.split_whitespace().next().unwrap_or_default();
            let known = leads.len() as u16;
            let lead = *leads.entry(lead_word.to_lowercase()).or_insert(known);
            tree.insert(joined, &after, (lead_len, lead));
            for stop in &stops {
                let ended: Vec<u32> = after.iter().chain(stop).copied().collect();
                tree.insert(joined, &ended, (lead_len, lead));
            }
            for spelled in spellings(phrase) {
                let Some(first) = words.encode(&spelled) else {
                    continue;
                };
                let Some(spelled_len) = words.first_word_len(&spelled) else {
                    continue;
                };
                for start in &starts {
                    let (body, len) = if start.is_empty() {
                        (&first, spelled_len)
                    } else {
                        (&after, lead_len)
                    };
                    let tokens: Vec<u32> = start.iter().chain(body).copied().collect();
                    let lead_at = (start.len() + len, lead);
                    firsts.push(tree.insert(ROOT, &tokens, lead_at));
                    for stop in &stops {
                        let ended: Vec<u32> = tokens.iter().chain(stop).copied().collect();
                        tree.insert(ROOT, &ended, lead_at);
                    }
                }
            }
        }
        // Added last, so that no phrase is inserted through a join.
        if let Some(and) = words.encode("and").filter(|t| t.len() == 1) {
            firsts.sort_unstable();
            firsts.dedup();
            for end in firsts {
                tree.nodes[end].children.push((and[0], joined));
            }
        }
        tree
    }

    pub fn is_empty(&self) -> bool {
        self.nodes
            .first()
            .is_none_or(|root| root.children.is_empty())
    }

    /// Whether hearing guided may say `tokens` as a whole (the tokens of
    /// one phrase, or of two joined by " and" that start differently).
    pub fn says(&self, tokens: &[u32]) -> bool {
        !self.nodes.is_empty() && self.says_from(ROOT, tokens, &mut Vec::new())
    }

    /// A node may have two children for one token (" and" going on within
    /// a phrase, and joining a second), so every path is tried.
    fn says_from(&self, at: usize, tokens: &[u32], leads: &mut Vec<u16>) -> bool {
        let Some((&token, rest)) = tokens.split_first() else {
            return self.nodes[at].end;
        };
        self.nodes[at].children.iter().any(|&(t, child)| {
            if t != token || self.repeats_lead(child, leads) {
                return false;
            }
            let lead = self.nodes[child].lead;
            leads.extend(lead);
            let says = self.says_from(child, rest, leads);
            if lead.is_some() {
                leads.pop();
            }
            says
        })
    }

    /// Entering `child` would start a second command the way a command
    /// said already started (see [`Node::lead`]).
    fn repeats_lead(&self, child: usize, leads: &[u16]) -> bool {
        self.nodes[child].lead.is_some_and(|l| leads.contains(&l))
    }

    fn add_node(&mut self) -> usize {
        self.nodes.push(Node::default());
        self.nodes.len() - 1
    }

    /// Inserts `tokens` below `from`, marking where their first word
    /// (`lead.0` tokens long) ends; the node where they end.
    fn insert(&mut self, from: usize, tokens: &[u32], lead: (usize, u16)) -> usize {
        let mut at = from;
        for (i, &token) in tokens.iter().enumerate() {
            at = match self.nodes[at].children.iter().find(|(t, _)| *t == token) {
                Some(&(_, child)) => child,
                None => {
                    let child = self.add_node();
                    self.nodes[at].children.push((token, child));
                    child
                }
            };
            if i + 1 == lead.0 {
                self.nodes[at].lead = Some(lead.1);
            }
        }
        self.nodes[at].end = true;
        at
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

    /// How many tokens the first word of `text` takes.
    fn first_word_len(&mut self, text: &str) -> Option<usize> {
        self.encode(text.split_whitespace().next()?)
            .map(|t| t.len())
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

/// [`Guided`] as words.
#[derive(Debug, Clone, PartialEq)]
pub struct GuidedReading {
    pub text: String,
    /// See [`Guided::avg_logprob`].
    pub avg_logprob: f32,
    /// See [`Guided::end_logprob`].
    pub end_logprob: f32,
}

/// The phrase the audio most likely says.
#[derive(Debug, Clone, PartialEq)]
pub struct Guided {
    pub tokens: Vec<u32>,
    /// Summed log-probability of its tokens and the end of text.
    pub logprob: f32,
    /// `logprob` over tokens + 1, comparable with free decoding's.
    pub avg_logprob: f32,
    /// The log-probability of the end of text after it: low when the
    /// audio goes on past the phrase.
    pub end_logprob: f32,
}

/// One row of the beam: where in the tree it is, and what it said.
struct Hypothesis {
    node: usize,
    /// The first word of each command said so far.
    leads: Vec<u16>,
    /// It said " and" after a whole phrase.
    joined: bool,
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
        leads: Vec::new(),
        joined: false,
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
                        end_logprob: logprobs[eot],
                    });
                }
            }
            for &(token, child) in &node.children {
                if tree.repeats_lead(child, &h.leads) {
                    continue;
                }
                let logprob = h.logprob + logprobs[token as usize];
                let mean = logprob / (h.tokens.len() + 2) as f32;
                // Joining is for audio that goes on: " and" must be more
                // likely than the end of the text.
                if child == JOINED && logprobs[token as usize] < logprobs[eot] {
                    continue;
                }
                let joined = h.joined || child == JOINED;
                if joined
                    && best
                        .as_ref()
                        .is_some_and(|b| mean < b.avg_logprob - JOINED_MARGIN)
                {
                    continue;
                }
                next.push((k, token, child, logprob));
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
                let mut leads = alive[k].leads.clone();
                leads.extend(tree.nodes[child].lead);
                Hypothesis {
                    node: child,
                    leads,
                    joined: alive[k].joined || child == JOINED,
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
