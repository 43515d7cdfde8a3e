//! Where speech models come from and how they are kept: bundled in the
//! .xpi under `models/<id>/`, downloaded (by default from the Hugging Face
//! hub's openai/whisper-<id>), or imported from files; kept in the Cache
//! API under made-up keys so a restart needs no download. Pure logic: the
//! worker's browser binding does the fetching and storing.

use crate::engine::WeightFile;
use crate::error::{Error, ErrorCode, Result};
use ext_protocol::worker::FromWorker;

pub const CONFIG: &str = "config.json";
pub const TOKENIZER: &str = "tokenizer.json";
pub const SAFETENSORS: &str = "model.safetensors";
/// What a model quantized on install is kept as.
pub const GGUF: &str = "model-q8_0.gguf";

/// The Cache API's name for the models' cache.
pub const CACHE_NAME: &str = "tab-whisperer-models";
/// Cache keys must look like http(s) URLs; this host is never fetched.
const KEY_ORIGIN: &str = "https://models.tab-whisperer.invalid/";

/// The names every model is known by, and where the known ones come from.
pub use ext_protocol::models::default_source;

/// A model id names a directory and a cache key: letters, digits, `.`,
/// `-`, `_`, at most 64, not starting with a dot.
pub fn check_id(id: &str) -> Result<()> {
    ext_protocol::models::check_id(id).map_err(Error::from)
}

/// The model that checks `loaded`'s unsure guided hearings (see
/// `pipeline::SECOND_OPINION_MIN_LOGPROB`): beside any model but a bundled
/// one, the first bundled model (tiny.en), which is always there; a
/// bundled model has none (it is the second opinion of the others).
pub fn second_opinion_for<'a>(loaded: &str, bundled: &'a [String]) -> Option<&'a str> {
    if bundled.iter().any(|b| b == loaded) {
        return None;
    }
    bundled.first().map(String::as_str)
}

/// `base` + `file`, with exactly one slash between them.
pub fn file_url(base: &str, file: &str) -> String {
    format!("{}/{file}", base.trim_end_matches('/'))
}

/// Where the .xpi keeps a bundled model's file.
pub fn bundled_url(id: &str, file: &str) -> String {
    format!("models/{id}/{file}")
}

pub fn cache_key(id: &str, file: &str) -> String {
    format!("{KEY_ORIGIN}{id}/{file}")
}

/// Where a new download or import of a model is kept until it has loaded:
/// never listed as installed, and a failed reinstall leaves the working
/// model alone.
const STAGING_ORIGIN: &str = "https://staging.models.tab-whisperer.invalid/";

pub fn staging_key(id: &str, file: &str) -> String {
    format!("{STAGING_ORIGIN}{id}/{file}")
}

/// Every file name a model may be kept under.
pub const FILES: [&str; 4] = [CONFIG, TOKENIZER, SAFETENSORS, GGUF];

/// The largest model file accepted (Whisper small in f32 is 967 MB; wasm32
/// memory could not hold much more beside the model being built).
pub const MAX_FILE_BYTES: u64 = 1_200_000_000;

/// A download that receives less than [`STALL_BYTES`] in this long (ms)
/// has stalled (a server that stopped, or trickles bytes for ever): it is
/// aborted rather than left holding the model lock.
pub const STALL_MS: i32 = 20_000;
pub const STALL_BYTES: usize = 64 * 1024;

/// Tells a stalled download from a slow one: bytes counted per window of
/// [`STALL_MS`].
#[derive(Debug, Clone, Copy)]
pub struct StallWatch {
    window_start_ms: f64,
    bytes: usize,
}

impl StallWatch {
    pub fn new(now_ms: f64) -> Self {
        StallWatch {
            window_start_ms: now_ms,
            bytes: 0,
        }
    }

    /// `bytes` arrived at `now_ms`: false once a whole window brought too
    /// little.
    pub fn arrived(&mut self, bytes: usize, now_ms: f64) -> bool {
        self.bytes += bytes;
        if now_ms - self.window_start_ms < f64::from(STALL_MS) {
            return true;
        }
        let moving = self.bytes >= STALL_BYTES;
        *self = StallWatch::new(now_ms);
        moving
    }
}

/// Models are downloaded over https, or from this computer.
pub fn check_source(url: &str) -> Result<()> {
    if url.starts_with("https://") || ext_protocol::settings::is_loopback(url) {
        Ok(())
    } else {
        Err(Error::new(
            ErrorCode::DownloadFailed,
            format!(
                "{url}: models are downloaded only over https:// (or from this computer), \
                 so that nobody on the way can change them"
            ),
        ))
    }
}

/// How many bytes a download should bring, from its headers; an error if
/// it announces more than any model file. With a `Content-Encoding` the
/// body arrives decoded and its length is not the header's: unknown.
pub fn expected_length(
    file: &str,
    content_length: Option<u64>,
    content_encoding: Option<&str>,
) -> Result<Option<u64>> {
    let encoded = content_encoding
        .map(str::trim)
        .is_some_and(|e| !e.is_empty() && !e.eq_ignore_ascii_case("identity"));
    match content_length {
        Some(n) if n > MAX_FILE_BYTES => Err(too_large(file, n)),
        Some(_) if encoded => Ok(None),
        other => Ok(other),
    }
}

pub fn too_large(file: &str, bytes: u64) -> Error {
    Error::new(
        ErrorCode::DownloadFailed,
        format!(
            "{file} is {bytes} bytes or more, larger than any speech model file \
             ({MAX_FILE_BYTES} at most): refused"
        ),
    )
}

/// The model id and file a cache key names.
pub fn parse_key(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix(KEY_ORIGIN)?;
    let (id, file) = rest.split_once('/')?;
    check_id(id).ok()?;
    Some((id.to_string(), file.to_string()))
}

/// The ids of the complete models among cache keys (config, tokenizer and
/// weights all present), sorted.
pub fn installed(keys: &[String]) -> Vec<String> {
    let mut files: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (id, file) in keys.iter().filter_map(|k| parse_key(k)) {
        files.entry(id).or_default().push(file);
    }
    files
        .into_iter()
        .filter(|(_, f)| {
            let has = |name: &str| f.iter().any(|x| x == name);
            has(CONFIG) && has(TOKENIZER) && (has(SAFETENSORS) || has(GGUF))
        })
        .map(|(id, _)| id)
        .collect()
}

/// The list of the models bundled in the .xpi, written by the packer
/// (an extension cannot list its own files).
pub const BUNDLED_INDEX: &str = "models/index.json";

/// The complete models among the .xpi's file paths (`models/<id>/<file>`),
/// sorted: what the packer writes to [`BUNDLED_INDEX`].
pub fn bundled_index(paths: &[String]) -> Vec<String> {
    let keys: Vec<String> = paths
        .iter()
        .filter_map(|p| p.strip_prefix("models/"))
        .map(|rest| format!("{KEY_ORIGIN}{rest}"))
        .collect();
    installed(&keys)
}

/// Imported weights, told apart by content: GGUF files start with "GGUF".
pub fn weight_file(bytes: Vec<u8>) -> WeightFile {
    if bytes.starts_with(b"GGUF") {
        WeightFile::Gguf(bytes)
    } else {
        WeightFile::Safetensors(bytes)
    }
}

/// The name a model's weights are kept under.
pub fn weight_name(weights: &WeightFile) -> &'static str {
    match weights {
        WeightFile::Gguf(_) => GGUF,
        WeightFile::Safetensors(_) => SAFETENSORS,
    }
}

/// A download that ended before the length the server announced is cut
/// short, not a model: say so rather than fail later as "corrupt".
pub fn check_complete(file: &str, received: u64, announced: Option<u64>) -> Result<()> {
    match announced {
        Some(total) if received != total => Err(Error::new(
            ErrorCode::DownloadFailed,
            format!("the download of {file} was interrupted: {received} of {total} bytes arrived"),
        )),
        _ if received == 0 => Err(Error::new(
            ErrorCode::DownloadFailed,
            format!("{file} downloaded empty"),
        )),
        _ => Ok(()),
    }
}

/// The response header a kept file records its SHA-256 in (lowercase
/// hex), so that it is checked again each time it is read back.
pub const SHA256_HEADER: &str = "x-tab-whisperer-sha256";

/// The SHA-256 a server announces for a file, if it does: the Hugging
/// Face hub's ETag (or `X-Linked-Etag` before a redirect) of an LFS file is
/// its SHA-256 in hex, quoted, sometimes weak (`W/"…"`). Other ETags say
/// nothing about the content and are ignored.
pub fn announced_sha256(etag: Option<&str>) -> Option<String> {
    let tag = etag?.trim();
    let tag = tag.strip_prefix("W/").unwrap_or(tag).trim_matches('"');
    (tag.len() == 64 && tag.bytes().all(|b| b.is_ascii_hexdigit())).then(|| tag.to_lowercase())
}

/// Lowercase hex of a digest.
pub fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A download whose bytes do not hash to what the server announced was
/// changed or damaged on the way: refused, nothing kept.
pub fn check_announced(file: &str, actual: &str, announced: Option<&str>) -> Result<()> {
    match announced {
        Some(expected) if expected != actual => Err(Error::new(
            ErrorCode::DownloadFailed,
            format!(
                "{file} arrived with SHA-256 {actual}, but the server announced {expected}: \
                 it was changed or damaged on the way, and is not kept"
            ),
        )),
        _ => Ok(()),
    }
}

/// A kept file whose bytes no longer hash to what was recorded when it was
/// installed is damaged (disk, profile or a hand edit): it is not loaded.
pub fn check_kept(id: &str, file: &str, actual: &str, recorded: Option<&str>) -> Result<()> {
    match recorded {
        Some(expected) if !expected.eq_ignore_ascii_case(actual) => Err(Error::new(
            ErrorCode::ModelInvalid,
            format!(
                "the kept copy of {id}'s {file} is damaged (its SHA-256 changed since it was \
                 installed); it was removed: download or import {id} again"
            ),
        )),
        _ => Ok(()),
    }
}

/// Reports a download's progress at most every 1/100 of the file (and at
/// its end), so a 150-MB model does not send 10,000 messages.
pub struct Progress {
    model: String,
    file: String,
    total: Option<u64>,
    received: u64,
    last_sent: u64,
}

impl Progress {
    pub fn new(model: &str, file: &str, total: Option<u64>) -> Self {
        Self {
            model: model.into(),
            file: file.into(),
            total,
            received: 0,
            last_sent: 0,
        }
    }

    /// `bytes` more arrived: the message to post, if it is time for one.
    pub fn advance(&mut self, bytes: u64) -> Option<FromWorker> {
        self.received += bytes;
        let step = self.total.map_or(1 << 20, |t| (t / 100).max(1));
        let done = self.total.is_some_and(|t| self.received >= t);
        (done || self.received - self.last_sent >= step).then(|| {
            self.last_sent = self.received;
            self.message()
        })
    }

    pub fn received(&self) -> u64 {
        self.received
    }

    pub fn message(&self) -> FromWorker {
        FromWorker::Progress {
            model: self.model.clone(),
            file: self.file.clone(),
            loaded: self.received,
            total: self.total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_not_bundled_has_the_first_bundled_one_as_its_second_opinion() {
        let bundled = vec!["tiny.en".to_string()];
        assert_eq!(second_opinion_for("base", &bundled), Some("tiny.en"));
        assert_eq!(second_opinion_for("my-import", &bundled), Some("tiny.en"));
        assert_eq!(second_opinion_for("tiny.en", &bundled), None);
        assert_eq!(second_opinion_for("base", &[]), None);
    }

    #[test]
    fn ids_that_could_escape_a_directory_or_a_key_are_refused() {
        for ok in ["tiny", "tiny.en", "base", "my-model_2"] {
            assert!(check_id(ok).is_ok(), "{ok}");
        }
        for bad in ["", "../x", ".hidden", "a/b", "a b", "x?y", &"a".repeat(65)] {
            assert_eq!(
                check_id(bad).unwrap_err().code,
                ErrorCode::InvalidArgs,
                "{bad}"
            );
        }
    }

    #[test]
    fn known_models_come_from_the_hub_and_others_need_an_address() {
        assert_eq!(
            file_url(&default_source("tiny.en").unwrap(), CONFIG),
            "https://huggingface.co/openai/whisper-tiny.en/resolve/main/config.json"
        );
        assert_eq!(default_source("tiny-random"), None);
        assert_eq!(
            file_url("http://127.0.0.1:8/m", CONFIG),
            "http://127.0.0.1:8/m/config.json"
        );
    }

    #[test]
    fn only_complete_models_count_as_installed() {
        let keys: Vec<String> = [
            cache_key("tiny.en", CONFIG),
            cache_key("tiny.en", TOKENIZER),
            cache_key("tiny.en", GGUF),
            cache_key("base", CONFIG),
            cache_key("base", SAFETENSORS),
            "https://elsewhere.example/tiny/config.json".into(),
        ]
        .into();
        assert_eq!(installed(&keys), ["tiny.en"]);
        assert_eq!(
            parse_key(&cache_key("base", SAFETENSORS)),
            Some(("base".into(), SAFETENSORS.into()))
        );
    }

    #[test]
    fn staged_files_are_never_installed() {
        let keys: Vec<String> = FILES.iter().map(|f| staging_key("tiny.en", f)).collect();
        assert!(installed(&keys).is_empty());
        assert!(parse_key(&staging_key("tiny.en", CONFIG)).is_none());
    }

    #[test]
    fn models_come_over_https_or_from_this_computer_and_within_a_size() {
        assert!(check_source("https://huggingface.co/openai/whisper-tiny.en/resolve/main").is_ok());
        assert!(check_source("http://127.0.0.1:8000/m").is_ok());
        assert!(check_source("http://localhost:8000/m").is_ok());
        for bad in [
            "http://huggingface.co/x",
            "ftp://x/y",
            "file:///tmp/m",
            "http://127.0.0.1.evil.com/m",
        ] {
            let e = check_source(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::DownloadFailed, "{bad}");
        }
        assert_eq!(expected_length(CONFIG, Some(900), None).unwrap(), Some(900));
        assert_eq!(
            expected_length(CONFIG, Some(900), Some("identity")).unwrap(),
            Some(900)
        );
        // Gzip: the body arrives decoded, longer than the header says.
        assert_eq!(
            expected_length(CONFIG, Some(900), Some("gzip")).unwrap(),
            None
        );
        let e = expected_length(SAFETENSORS, Some(3_000_000_000), None).unwrap_err();
        assert!(e.message.contains("larger than any"), "{e}");
        assert!(expected_length(SAFETENSORS, Some(3_000_000_000), Some("gzip")).is_err());
    }

    #[test]
    fn the_hubs_etag_is_the_sha256_to_check_and_others_are_ignored() {
        let sha = "3B1A7C5B0E1F2A3D4C5B6A798897A6B5C4D3E2F1A0B9C8D7E6F5A4B3C2D1E0F9";
        let lower = sha.to_lowercase();
        assert_eq!(
            announced_sha256(Some(&format!("\"{sha}\""))),
            Some(lower.clone())
        );
        assert_eq!(
            announced_sha256(Some(&format!("W/\"{sha}\""))),
            Some(lower.clone())
        );
        // A git blob's sha1, a CDN's md5 or a multipart tag: no content hash.
        for other in [
            "\"5d41402abc4b2a76b9719d911017c592\"",
            "\"a9f0e61a137d86aa9db53465e0801612-12\"",
            "W/\"1a-xyz\"",
            "",
        ] {
            assert_eq!(announced_sha256(Some(other)), None, "{other}");
        }
        assert_eq!(announced_sha256(None), None);
        assert!(check_announced("model.safetensors", &lower, Some(&lower)).is_ok());
        assert!(check_announced("model.safetensors", &lower, None).is_ok());
        let e = check_announced("model.safetensors", &"0".repeat(64), Some(&lower)).unwrap_err();
        assert_eq!(e.code, ErrorCode::DownloadFailed);
        assert!(e.message.contains("not kept"), "{}", e.message);
        assert!(check_kept("tiny", "config.json", &lower, Some(sha)).is_ok());
        assert!(check_kept("tiny", "config.json", &lower, None).is_ok());
        let e = check_kept("tiny", "config.json", &"0".repeat(64), Some(&lower)).unwrap_err();
        assert_eq!(e.code, ErrorCode::ModelInvalid);
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }

    #[test]
    fn a_download_that_trickles_is_a_stalled_one() {
        let mut watch = StallWatch::new(0.0);
        // 1 byte a second for ever: stalled after one window.
        let mut t = 0.0;
        let mut stalled_at = None;
        while t < 60_000.0 && stalled_at.is_none() {
            t += 1_000.0;
            if !watch.arrived(1, t) {
                stalled_at = Some(t);
            }
        }
        assert_eq!(stalled_at, Some(f64::from(STALL_MS)));
        // A slow but real download (100 kB/s) goes on.
        let mut watch = StallWatch::new(0.0);
        assert!((1..600).all(|s| watch.arrived(100_000, f64::from(s) * 1_000.0)));
    }

    #[test]
    fn a_short_or_empty_download_is_an_interrupted_one() {
        assert!(check_complete(CONFIG, 10, Some(10)).is_ok());
        assert!(check_complete(CONFIG, 10, None).is_ok());
        let e = check_complete(SAFETENSORS, 5, Some(10)).unwrap_err();
        assert_eq!(e.code, ErrorCode::DownloadFailed);
        assert!(
            e.message.contains("interrupted: 5 of 10 bytes"),
            "{}",
            e.message
        );
        assert_eq!(
            check_complete(CONFIG, 0, None).unwrap_err().code,
            ErrorCode::DownloadFailed
        );
    }

    #[test]
    fn progress_is_reported_in_hundredths_and_at_the_end() {
        let mut p = Progress::new("tiny", SAFETENSORS, Some(1000));
        let sent: Vec<u64> = (0..100)
            .filter_map(|_| p.advance(10))
            .map(|m| m.to_json()["loaded"].as_u64().unwrap())
            .collect();
        assert_eq!(sent.len(), 100);
        assert_eq!(sent.last(), Some(&1000));
        let mut p = Progress::new("tiny", SAFETENSORS, Some(1000));
        assert!(p.advance(5).is_none());
        assert_eq!(p.advance(995).unwrap().to_json()["total"], 1000);
    }

    #[test]
    fn the_bundled_index_lists_complete_models_only() {
        let paths: Vec<String> = [
            "models/tiny.en/config.json",
            "models/tiny.en/tokenizer.json",
            "models/tiny.en/model-q8_0.gguf",
            "models/base/config.json",
            "models/README.txt",
            "popup.html",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(bundled_index(&paths), vec!["tiny.en".to_string()]);
    }
}
