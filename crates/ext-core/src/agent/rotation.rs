//! Model rotation, as the original Tab Whisperer did it: `llm.models` is a
//! priority list and `llm.rpm` a per-model limit of calls a minute (free
//! tiers allow a few). Each call goes to the highest model with a spare
//! call in the last 60 s, else to the one whose window frees first, after
//! waiting for it.

use crate::settings::LlmSettings;
use std::collections::{HashMap, VecDeque};

/// The window the per-minute limit counts over.
pub const WINDOW_MS: f64 = 60_000.0;

/// The models to use, best first: `llm.models`, or `llm.model` alone.
pub fn models(llm: &LlmSettings) -> Vec<String> {
    let listed: Vec<String> = llm
        .models
        .iter()
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect();
    if listed.is_empty() {
        vec![llm.model.trim().to_string()]
    } else {
        listed
    }
}

/// When each model was called in the last minute.
#[derive(Debug, Default)]
pub struct Rotation {
    calls: HashMap<String, VecDeque<f64>>,
}

impl Rotation {
    /// The model for the next call, and how many milliseconds to wait
    /// before making it (`rpm` 0: no limit, the first model at once).
    pub fn choose(&mut self, models: &[String], rpm: u32, now: f64) -> (String, f64) {
        let Some(first) = models.first() else {
            return (String::new(), 0.0);
        };
        if rpm == 0 {
            return (first.clone(), 0.0);
        }
        let mut soonest: Option<(&String, f64)> = None;
        for model in models {
            let calls = self.calls.entry(model.clone()).or_default();
            while calls.front().is_some_and(|&t| t <= now - WINDOW_MS) {
                calls.pop_front();
            }
            if calls.len() < rpm as usize {
                return (model.clone(), 0.0);
            }
            // The call that leaves the window first makes room.
            let frees = calls[calls.len() - rpm as usize] + WINDOW_MS;
            if soonest.is_none_or(|(_, at)| frees < at) {
                soonest = Some((model, frees));
            }
        }
        let (model, at) = soonest.expect("models is not empty");
        (model.clone(), (at - now).max(0.0))
    }

    /// Counts a call to `model` made at `at`.
    pub fn record(&mut self, model: &str, at: f64) {
        self.calls
            .entry(model.to_string())
            .or_default()
            .push_back(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_list_or_the_single_model() {
        let mut llm = LlmSettings {
            model: " solo ".into(),
            ..LlmSettings::default()
        };
        assert_eq!(models(&llm), ["solo"]);
        llm.models = list(&["big", " ", "small "]);
        assert_eq!(models(&llm), ["big", "small"]);
    }

    #[test]
    fn calls_go_to_the_best_model_with_room_then_wait_for_the_first_window() {
        let models = list(&["big", "small"]);
        let mut r = Rotation::default();
        let mut take = |now: f64| {
            let (m, wait) = r.choose(&models, 2, now);
            r.record(&m, now + wait);
            (m, wait)
        };
        assert_eq!(take(0.0), ("big".into(), 0.0));
        assert_eq!(take(1_000.0), ("big".into(), 0.0));
        assert_eq!(take(2_000.0), ("small".into(), 0.0));
        assert_eq!(take(3_000.0), ("small".into(), 0.0));
        // Both full: big's first call leaves the window at 60 s.
        assert_eq!(take(4_000.0), ("big".into(), 56_000.0));
        // A minute after the first calls, big has room again.
        assert_eq!(take(61_500.0), ("big".into(), 0.0));
    }

    #[test]
    fn no_limit_means_the_first_model_always() {
        let models = list(&["big", "small"]);
        let mut r = Rotation::default();
        for t in 0..100 {
            let (m, wait) = r.choose(&models, 0, t as f64);
            r.record(&m, t as f64);
            assert_eq!((m.as_str(), wait), ("big", 0.0));
        }
    }
}
