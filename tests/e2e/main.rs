//! End-to-end tests: the built `.xpi` in a real Firefox (ESR), driven by
//! geckodriver. Needs `--features e2e`; `make test` builds the add-on and
//! installs Firefox and geckodriver first.
//!
//! Each test starts its own browser with [`tab_whisperer::Firefox`]; one
//! module per area.

mod agent;
mod browse;
mod commands;
mod groups;
mod lookup;
mod popup;
mod privacy;
mod private;
mod safety;
mod settings;
mod smoke;
mod speech;
mod tabs;
mod twin;
mod undo;
mod util;
mod voice;
