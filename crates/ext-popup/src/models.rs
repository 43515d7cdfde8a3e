//! The options page's speech models, as plain Rust: which of the files a
//! person picked are the model's config, tokenizer and weights, and what a
//! download's progress event shows.

use serde_json::Value;

/// Positions, in the picked files, of a model's three files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportFiles {
    pub config: usize,
    pub tokenizer: usize,
    pub weights: usize,
}

/// Finds `config.json`, `tokenizer.json` and the weights (`.safetensors`,
/// `.gguf`, or a faster-whisper `model.bin`) among the picked files' names, or says what is missing.
pub fn import_files(names: &[String]) -> Result<ImportFiles, String> {
    let find = |wanted: &dyn Fn(&str) -> bool| {
        let found: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(_, n)| wanted(&n.to_ascii_lowercase()))
            .map(|(i, _)| i)
            .collect();
        found
    };
    let config = find(&|n| n == "config.json");
    let tokenizer = find(&|n| n == "tokenizer.json");
    let weights =
        find(&|n| n.ends_with(".safetensors") || n.ends_with(".gguf") || n == "model.bin");
    let mut missing = Vec::new();
    if config.is_empty() {
        missing.push("config.json");
    }
    if tokenizer.is_empty() {
        missing.push("tokenizer.json");
    }
    if weights.is_empty() {
        missing.push("the weights (.safetensors, .gguf or model.bin)");
    }
    if !missing.is_empty() {
        return Err(format!(
            "Choose the model's config.json, tokenizer.json and weights together; missing: {}.",
            missing.join(", ")
        ));
    }
    if weights.len() > 1 {
        return Err(
            "Choose one weights file (.safetensors, .gguf or model.bin), not several.".into(),
        );
    }
    Ok(ImportFiles {
        config: config[0],
        tokenizer: tokenizer[0],
        weights: weights[0],
    })
}

/// What a `progress` event shows: bytes so far, the file's size when the
/// server said it, and the percentage (when known).
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressView {
    pub file: String,
    pub loaded: f64,
    pub total: Option<f64>,
    pub percent: Option<u32>,
}

pub fn progress_view(event: &Value) -> Option<ProgressView> {
    if event["type"] != "progress" {
        return None;
    }
    let loaded = event["loaded"].as_f64()?;
    let total = event["total"].as_f64().filter(|t| *t > 0.0);
    Some(ProgressView {
        file: event["file"].as_str().unwrap_or_default().to_string(),
        loaded,
        total,
        percent: total.map(|t| ((loaded / t) * 100.0).clamp(0.0, 100.0).floor() as u32),
    })
}

/// Bytes as a person reads them: "740 KB", "39.2 MB".
pub fn size(bytes: f64) -> String {
    if bytes >= 1e6 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.0} KB", (bytes / 1e3).ceil())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_three_files_are_found_in_any_order_and_case() {
        let picked = names(&["model-q8_0.GGUF", "tokenizer.json", "Config.json"]);
        assert_eq!(
            import_files(&picked),
            Ok(ImportFiles {
                config: 2,
                tokenizer: 1,
                weights: 0
            })
        );
    }

    #[test]
    fn a_faster_whisper_directory_is_a_model_too() {
        let picked = names(&[
            "vocabulary.txt",
            "config.json",
            "model.bin",
            "tokenizer.json",
        ]);
        assert_eq!(
            import_files(&picked),
            Ok(ImportFiles {
                config: 1,
                tokenizer: 3,
                weights: 2
            })
        );
    }

    #[test]
    fn missing_or_doubled_files_are_named() {
        let e = import_files(&names(&["config.json", "model.safetensors"])).unwrap_err();
        assert!(
            e.contains("tokenizer.json") && !e.contains("config.json;"),
            "{e}"
        );
        let e = import_files(&names(&[])).unwrap_err();
        assert!(
            e.contains("config.json, tokenizer.json, the weights"),
            "{e}"
        );
        let e = import_files(&names(&[
            "config.json",
            "tokenizer.json",
            "a.safetensors",
            "b.gguf",
        ]))
        .unwrap_err();
        assert!(e.contains("one weights file"), "{e}");
    }

    #[test]
    fn progress_shows_a_percentage_only_when_the_size_is_known() {
        let p = progress_view(&json!({"type": "progress", "file": "model.safetensors",
            "loaded": 500, "total": 2000}))
        .unwrap();
        assert_eq!(p.percent, Some(25));
        assert_eq!(p.file, "model.safetensors");
        let p = progress_view(&json!({"type": "progress", "loaded": 500, "total": null})).unwrap();
        assert_eq!((p.total, p.percent), (None, None));
        assert_eq!(progress_view(&json!({"type": "level", "db": -3})), None);
        assert_eq!(size(39_200_000.0), "39.2 MB");
        assert_eq!(size(740_000.0), "740 KB");
    }
}
