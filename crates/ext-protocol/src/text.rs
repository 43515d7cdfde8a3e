//! Clipping echoed text, for every crate that writes messages.

/// At most `max` characters of `s`, with "…" when cut: for echoing user
/// input or untrusted text in a message.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max).collect();
        out.push('…');
        out
    }
}
