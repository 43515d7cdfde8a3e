//! A local HTTP server with pages for the tests, on `127.0.0.1` only.
//!
//! | path | page |
//! |---|---|
//! | `/page/<anything>?title=T` | `<title>T</title>`, body text T |
//! | `/long?title=T` | a 10000 px tall page (scroll tests) |
//! | `/article?title=T` | an article Firefox offers reader view for |
//! | `/audio?title=T` | an `<audio autoplay loop>` of `/tone.wav`, so the tab becomes audible |
//! | `/tone.wav` | 1 s of a 440 Hz tone, 16-bit mono PCM |
//! | `/synth?title=T` | a Web Audio oscillator: audible, with no `<audio>` or `<video>` to pause |
//! | `/search?q=Q` | title `Search: Q`, echoes Q |
//!
//! | any path given to [`PageServer::with_files`] | that file |
//!
//! Anything else is a 404.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::Result;

/// The running server; stops when dropped.
pub struct PageServer {
    server: Arc<tiny_http::Server>,
    port: u16,
    thread: Option<JoinHandle<()>>,
    cut: CutServer,
}

impl PageServer {
    /// Binds `127.0.0.1` on a free port and serves on a background thread.
    pub fn start() -> Result<PageServer> {
        Self::with_files(Vec::new())
    }

    /// Also serves `files` (path, bytes) as they are, and cut short from
    /// [`PageServer::cut_url`] (a download that breaks off).
    pub fn with_files(files: Vec<(String, Vec<u8>)>) -> Result<PageServer> {
        let server = tiny_http::Server::http("127.0.0.1:0")
            .map_err(|e| super::Error::Io(format!("page server: cannot bind: {e}")))?;
        let port = server
            .server_addr()
            .to_ip()
            .map(|a| a.port())
            .ok_or_else(|| super::Error::Io("page server: not an IP listener".into()))?;
        let server = Arc::new(server);
        let serving = Arc::clone(&server);
        let cut = CutServer::start(files.clone())?;
        let thread = std::thread::Builder::new()
            .name("page-server".into())
            .spawn(move || {
                let wav = tone_wav(440.0, 1.0, 44_100);
                // Requests for /never are held unanswered until the server
                // goes, so a page that asks for one never finishes loading.
                let mut never_answered = Vec::new();
                // Ends when `unblock` is called on drop.
                for request in serving.incoming_requests() {
                    if request.url().starts_with("/never") {
                        never_answered.push(request);
                        continue;
                    }
                    let url = request.url().to_string();
                    if let Some((_, bytes)) = files.iter().find(|(p, _)| *p == url) {
                        // With its length announced, as model hosts do
                        // (tiny_http would send large bodies chunked).
                        let response = tiny_http::Response::from_data(bytes.clone())
                            .with_chunked_threshold(usize::MAX);
                        // Pages a test writes are pages; the rest downloads.
                        let kind = if url.ends_with(".html") {
                            "text/html; charset=utf-8"
                        } else {
                            "application/octet-stream"
                        };
                        let _ = request.respond(with_type(response, kind));
                        continue;
                    }

                    let response = respond(request.url(), &wav);
                    let _ = request.respond(response);
                }
            })?;
        Ok(PageServer {
            server,
            port,
            thread: Some(thread),
            cut,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT{path}`; `path` should start with `/`.
    pub fn url(&self, path: &str) -> String {
        let slash = if path.starts_with('/') { "" } else { "/" };
        format!("http://127.0.0.1:{}{slash}{path}", self.port)
    }

    /// `path` of the files given to [`PageServer::with_files`], from a
    /// server that sends half of it and hangs up.
    pub fn cut_url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.cut.port)
    }

    /// A page whose title and text are `title` (a distinct URL per title).
    pub fn page(&self, title: &str) -> String {
        let slug: String = title
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        self.url(&format!("/page/{slug}?title={}", encode_component(title)))
    }

    /// A 10000 px tall page titled `title`.
    pub fn long_page(&self, title: &str) -> String {
        self.url(&format!("/long?title={}", encode_component(title)))
    }

    /// An article titled `title`, long enough for Firefox's reader view.
    pub fn article_page(&self, title: &str) -> String {
        self.url(&format!("/article?title={}", encode_component(title)))
    }

    /// A page titled `title` whose parsing never ends (a script that never arrives).
    pub fn unparsed_page(&self, title: &str) -> String {
        self.url(&format!("/unparsed?title={}", encode_component(title)))
    }

    /// A page titled `title` that loops an audible tone.
    pub fn audio_page(&self, title: &str) -> String {
        self.url(&format!("/audio?title={}", encode_component(title)))
    }

    /// A page whose sound is a Web Audio oscillator: nothing to pause.
    pub fn synth_page(&self, title: &str) -> String {
        self.url(&format!("/synth?title={}", encode_component(title)))
    }

    /// A page that never finishes loading (for "stop").
    pub fn stalled_page(&self, title: &str) -> String {
        self.url(&format!("/stalled?title={}", encode_component(title)))
    }

    /// The search echo page for `query`.
    pub fn search_url(&self, query: &str) -> String {
        self.url(&format!("/search?q={}", encode_component(query)))
    }
}

impl Drop for PageServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A second listener whose every answer breaks off: it announces a file
/// whole, sends half, and closes the connection (tiny_http keeps
/// connections open, so this is plain TCP).
struct CutServer {
    port: u16,
    stop: Arc<std::sync::atomic::AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl CutServer {
    fn start(files: Vec<(String, Vec<u8>)>) -> Result<CutServer> {
        use std::io::{BufRead, BufReader, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("cut-server".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if stopping.load(std::sync::atomic::Ordering::SeqCst) {
                        break;
                    }
                    let Ok(mut stream) = stream else { continue };
                    let mut line = String::new();
                    let mut reader = BufReader::new(stream.try_clone().expect("a socket clones"));
                    let _ = reader.read_line(&mut line);
                    let path = line.split_whitespace().nth(1).unwrap_or_default().to_string();
                    // The rest of the request head.
                    loop {
                        let mut header = String::new();
                        if reader.read_line(&mut header).unwrap_or(0) <= 2 {
                            break;
                        }
                    }
                    // /huge/…: announces 3 GB, sends a little and stops.
                    // /gzip/…: the whole file, gzip-encoded (its
                    // Content-Length is the compressed size).
                    // /trickle/…: an endless body, a byte at a time.
                    // /sha/…: the whole file, its SHA-256 as the ETag (as
                    // the Hugging Face hub does); /badsha/…: another
                    // file's SHA-256 as the ETag. Else: the file's length
                    // announced, half of it sent.
                    let (mode, file_path) = if let Some(rest) = path.strip_prefix("/huge") {
                        ("huge", rest.to_string())
                    } else if let Some(rest) = path.strip_prefix("/gzip") {
                        ("gzip", rest.to_string())
                    } else if let Some(rest) = path.strip_prefix("/sha") {
                        ("sha", rest.to_string())
                    } else if let Some(rest) = path.strip_prefix("/badsha") {
                        ("badsha", rest.to_string())
                    } else if path.starts_with("/trickle") {
                        // An endless body at 4 bytes a second, no length
                        // announced, until the client gives up.
                        let _ = stream.write_all(
                            b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n",
                        );
                        std::thread::spawn(move || {
                            for _ in 0..480 {
                                if stream.write_all(b"{").and_then(|_| stream.flush()).is_err() {
                                    break;
                                }
                                std::thread::sleep(std::time::Duration::from_millis(250));
                            }
                        });
                        continue;
                    } else {
                        ("cut", path.clone())
                    };
                    let bytes = files
                        .iter()
                        .find(|(p, _)| *p == file_path)
                        .map(|(_, b)| b.clone())
                        .unwrap_or_default();
                    let sha256 = |b: &[u8]| {
                        use sha2::Digest;
                        let hex = ext_worker::models::hex(&sha2::Sha256::digest(b));
                        format!("ETag: \"{hex}\"\r\n")
                    };
                    let (length, encoding, body) = match mode {
                        "huge" => (3_000_000_000usize, String::new(), bytes[..bytes.len().min(1000)].to_vec()),
                        "sha" => (bytes.len(), sha256(&bytes), bytes.clone()),
                        "badsha" => (bytes.len(), sha256(b"another file"), bytes.clone()),
                        "gzip" => {
                            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
                            let _ = gz.write_all(&bytes);
                            let body = gz.finish().unwrap_or_default();
                            (body.len(), "Content-Encoding: gzip\r\n".to_string(), body)
                        }
                        _ => (bytes.len(), String::new(), bytes[..bytes.len() / 2].to_vec()),
                    };
                    let head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nAccess-Control-Allow-Origin: *\r\n{encoding}Content-Length: {length}\r\nConnection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(head.as_bytes());
                    let _ = stream.write_all(&body);
                    let _ = stream.flush();
                    let _ = stream.shutdown(std::net::Shutdown::Both);
                }
            })?;
        Ok(CutServer {
            port,
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for CutServer {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = std::net::TcpStream::connect(("127.0.0.1", self.port));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

type Response = tiny_http::Response<std::io::Cursor<Vec<u8>>>;

fn respond(url: &str, wav: &[u8]) -> Response {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let param = |name: &str| {
        query.split('&').find_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode_component(k) == name).then(|| decode_component(v))
        })
    };
    let title = param("title");
    match path {
        "/tone.wav" => with_type(tiny_http::Response::from_data(wav.to_vec()), "audio/wav"),
        "/long" => html(
            title.as_deref().unwrap_or("Long page"),
            r#"<div id="top">top</div><div style="height:10000px"></div><div id="bottom">bottom</div>"#,
        ),
        // Firefox's readability check wants several long paragraphs.
        "/article" => {
            let title = title.as_deref().unwrap_or("Article");
            let paragraph = "<p>Tabs pile up over a working week: mail, tickets, \
                 documents, a video left half watched, a map of somewhere to go. \
                 Each was opened for a reason, and most of the reasons have passed, \
                 yet closing them by hand means reading every title again and \
                 remembering why it mattered. Speaking to the browser turns that \
                 chore into a sentence, and an undo that puts everything back \
                 makes the sentence safe to say.</p>";
            html(
                title,
                &format!(
                    "<article><h1>{}</h1>{}</article>",
                    escape(title),
                    paragraph.repeat(8)
                ),
            )
        }
        // Its image never arrives: the page stays loading until stopped.
        "/stalled" => html(
            title.as_deref().unwrap_or("Stalled page"),
            r#"<img src="/never.png" alt="">"#,
        ),
        // A script that never arrives blocks the parser: the page never
        // reaches DOMContentLoaded (a content script at document_end waits).
        "/unparsed" => html(
            title.as_deref().unwrap_or("Unparsed page"),
            r#"<script src="/never.js"></script><p>never parsed</p>"#,
        ),
        "/audio" => html(
            title.as_deref().unwrap_or("Audio page"),
            r#"<audio src="/tone.wav" autoplay loop></audio>"#,
        ),
        "/synth" => html(
            title.as_deref().unwrap_or("Synth page"),
            "<script>const c = new AudioContext(); const o = c.createOscillator(); \
             const g = c.createGain(); g.gain.value = 0.1; \
             o.connect(g).connect(c.destination); o.start(); \
             const show = () => document.documentElement.dataset.audio = c.state; \
             c.onstatechange = show; show();</script>",
        ),
        "/search" => {
            let q = param("q").unwrap_or_default();
            html(
                &format!("Search: {q}"),
                &format!("<p id=\"q\">{}</p>", escape(&q)),
            )
        }
        _ if path.starts_with("/page/") => {
            let fallback = decode_component(&path["/page/".len()..]);
            let title = title.unwrap_or(fallback);
            html(&title, &format!("<p>{}</p>", escape(&title)))
        }
        _ => with_type(
            tiny_http::Response::from_data(b"not found".to_vec()).with_status_code(404),
            "text/plain; charset=utf-8",
        ),
    }
}

fn html(title: &str, body: &str) -> Response {
    let title = escape(title);
    let page = format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\n\
         <body><h1>{title}</h1>\n{body}\n</body></html>\n"
    );
    with_type(
        tiny_http::Response::from_data(page.into_bytes()),
        "text/html; charset=utf-8",
    )
}

fn with_type(response: Response, content_type: &str) -> Response {
    let header = tiny_http::Header::from_bytes("Content-Type", content_type).expect("valid header");
    response.with_header(header)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
pub fn encode_component(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%XX` escapes and `+` (as a space).
pub fn decode_component(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(hi), Some(lo)) => {
                        out.push((hi * 16 + lo) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A mono 16-bit PCM WAV file of a sine tone.
pub fn tone_wav(freq: f64, seconds: f64, sample_rate: u32) -> Vec<u8> {
    let samples = (seconds * sample_rate as f64).round() as u32;
    let data_len = samples * 2;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&sample_rate.to_le_bytes());
    wav.extend_from_slice(&(sample_rate * 2).to_le_bytes()); // byte rate
    wav.extend_from_slice(&2u16.to_le_bytes()); // block align
    wav.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    for n in 0..samples {
        let t = n as f64 / sample_rate as f64;
        let s = (2.0 * std::f64::consts::PI * freq * t).sin() * 0.3 * i16::MAX as f64;
        wav.extend_from_slice(&(s.round() as i16).to_le_bytes());
    }
    wav
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_round_trip() {
        let text = "YouTube - cats & dogs/ü?=+%";
        assert_eq!(decode_component(&encode_component(text)), text);
        assert_eq!(decode_component("a+b%20c%zz%4"), "a b c%zz%4");
    }

    #[test]
    fn serves_pages() {
        let server = PageServer::start().unwrap();
        // Boxed: clippy's `result_large_err` objects to the 272-byte ureq::Error.
        let get = |url: &str| ureq::get(url).call().map_err(Box::new);
        let body = get(&server.page("Team <Wiki>"))
            .unwrap()
            .into_string()
            .unwrap();
        assert!(body.contains("<title>Team &lt;Wiki&gt;</title>"), "{body}");
        let body = get(&server.search_url("rust async"))
            .unwrap()
            .into_string()
            .unwrap();
        assert!(body.contains("<title>Search: rust async</title>"), "{body}");
        let wav = get(&server.url("/tone.wav")).unwrap();
        assert_eq!(wav.content_type(), "audio/wav");
        match get(&server.url("/nope")) {
            Err(error) if matches!(*error, ureq::Error::Status(404, _)) => {}
            other => panic!("expected 404, got {other:?}"),
        }
    }

    #[test]
    fn tone_is_one_second_of_pcm() {
        let wav = tone_wav(440.0, 1.0, 44_100);
        assert_eq!(wav.len(), 44 + 44_100 * 2);
        assert_eq!(&wav[..4], b"RIFF");
    }
}
