//! Grouping many tabs at once: "group my tabs by site", "sort the tabs in
//! this window into topics", "group similar tabs together".

use super::intent::{Intent, Scope};
use super::target::scope_of;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "group", "sort", "organize", "organise", "arrange", "cluster",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "group my tabs by site",
    "group my tabs by topic",
    "group the {tab} tabs",
    "group {tab} and {tab}",
];

pub fn parse(w: Words) -> Parsed {
    Ok(group_by(w))
}

/// "group my tabs by site", "sort the tabs in this window into topics",
/// "group similar tabs together".
fn group_by(w: Words) -> Option<Intent> {
    const LEADS: &[&str] = &[
        "group", "sort", "organize", "organise", "arrange", "cluster", "put", "split", "divide",
        "bundle", "order",
    ];
    const SITE: &[&str] = &[
        "site", "sites", "website", "websites", "domain", "domains", "host", "hosts",
    ];
    const TOPIC: &[&str] = &[
        "topic",
        "topics",
        "subject",
        "subjects",
        "theme",
        "themes",
        "content",
        "category",
        "categories",
    ];
    if !LEADS.contains(&w[0].as_str()) {
        return None;
    }
    let by = mentions(w, &["by", "into", "per", "according"]);
    let scope = scope_of(w).unwrap_or(Scope::Everywhere);
    if by && mentions(w, SITE) {
        return Some(Intent::GroupBySite(scope));
    }
    let similar = mentions(w, &["similar", "related"]);
    ((by && mentions(w, TOPIC)) || similar).then_some(Intent::GroupByTopic(scope))
}
