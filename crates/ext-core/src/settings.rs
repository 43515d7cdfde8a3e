//! What a person can set on the options page, with defaults and limits:
//! defined once in [`ext_protocol::settings`], where the popup and the
//! speech worker read them too.

pub use ext_protocol::settings::*;
