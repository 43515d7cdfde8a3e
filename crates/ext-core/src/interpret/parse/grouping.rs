//! Grouping many tabs at once: "group my tabs by site", "sort the tabs in
//! this window into topics", "group similar tabs together".

use super::intent::{GroupWhich, Intent, Scope, SortKey};
use super::window_scope::{scope_of, without_scope};
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "group", "sort", "organize", "organise", "arrange", "cluster", "tidy",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "group my tabs by site",
    "group my tabs by topic",
    "group the {tab} tabs",
    "group {tab} and {tab}",
    "organize my tabs",
];

pub fn parse(w: Words) -> Parsed {
    Ok(sorted_groups(w).or_else(|| group_by(w)))
}

const SORT: &[&[&str]] = &[
    &["sort"],
    &["order"],
    &["arrange"],
    &["organize"],
    &["organise"],
];

/// "sort the groups by name", "order my tab groups alphabetically": the
/// groups among themselves, by title (the one thing that names them).
fn sorted_groups(w: Words) -> Option<Intent> {
    let rest = verb(w, SORT)?;
    // "groups", not the tabs in them ("the tabs in the groups").
    let tabs_said = (rest.iter().enumerate()).any(|(i, x)| {
        ["tab", "tabs"].contains(&x.as_str()) && rest.get(i + 1).is_none_or(|n| n != "groups")
    });
    if !mentions(rest, &["groups"]) || tabs_said {
        return None;
    }
    let by = find(rest, "by").map(|i| without_scope(&rest[i + 1..]));
    const BY_NAME: &[&str] = &[
        "title", "titles", "name", "names", "their", "the", "its", "in", "all", "every", "each",
        "both", "windows",
    ];
    let every_window =
        mentions(rest, &["windows"]) && mentions(rest, &["all", "every", "each", "both"]);
    Some(Intent::SortGroups {
        scope: match every_window {
            true => Scope::Everywhere,
            false => scope_of(w).unwrap_or(Scope::ThisWindow),
        },
        by_name: by.is_none_or(|by| all_in(&by, BY_NAME)),
    })
}

/// "group my tabs by site", "sort the tabs in this window into topics",
/// "group similar tabs together".
fn group_by(w: Words) -> Option<Intent> {
    const LEADS: &[&str] = &[
        "group",
        "sort",
        "organize",
        "organise",
        "arrange",
        "cluster",
        "put",
        "split",
        "divide",
        "bundle",
        "order",
        "tidy",
        "clean",
        "declutter",
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
    if let Some(intent) = sort(w) {
        return Some(intent);
    }
    let by = mentions(w, &["by", "into", "per", "according"]);
    let scope = scope_of(w).unwrap_or(Scope::Everywhere);
    if by && mentions(w, SITE) {
        return Some(Intent::GroupBySite(scope));
    }
    let similar = mentions(w, &["similar", "related"]);
    if (by && mentions(w, TOPIC)) || similar {
        return Some(Intent::GroupByTopic(scope));
    }
    tidy(w).then_some(Intent::GroupBySite(scope))
}

/// "sort my tabs alphabetically", "order the tabs by title", "sort tabs
/// by address": an order, not groups. This window unless "all windows".
fn sort(w: Words) -> Option<Intent> {
    let rest = verb(w, SORT)?;
    // "by site name", "by domain": grouping by site, as before.
    if mentions(
        rest,
        &[
            "site", "sites", "website", "websites", "domain", "domains", "host",
        ],
    ) {
        return None;
    }
    let by_title = mentions(rest, &["alphabetically", "alphabetical", "abc"])
        || find_seq(rest, &["a", "to", "z"]).is_some()
        || (mentions(rest, &["by"]) && mentions(rest, &["title", "titles", "name", "names"]));
    let by_address = mentions(rest, &["by"])
        && mentions(
            rest,
            &["url", "urls", "address", "addresses", "link", "links"],
        );
    // "by recent", "by last used", "by when I used them", "most recent first".
    let by_use = (mentions(rest, &["by"])
        && mentions(
            rest,
            &["recent", "recently", "used", "use", "usage", "accessed"],
        ))
        || find_seq(rest, &["most", "recent", "first"]).is_some()
        || find_seq(rest, &["recently", "used", "first"]).is_some();
    let group = sorted_group(rest);
    let by = match (by_title, by_address, by_use) {
        (_, true, _) => SortKey::Address,
        (true, false, _) => SortKey::Title,
        (false, false, true) => SortKey::LastUsed,
        // "sort the news group": a group is sorted by title unless said.
        (false, false, false) if group.is_some() => SortKey::Title,
        (false, false, false) => return None,
    };
    let every_window =
        mentions(rest, &["windows"]) && mentions(rest, &["all", "every", "each", "both"]);
    let scope = if every_window {
        Scope::Everywhere
    } else {
        scope_of(w).unwrap_or(Scope::ThisWindow)
    };
    Some(Intent::Sort { scope, by, group })
}

/// The group whose tabs are sorted: "the docs group", "the tabs in this
/// group" (the words from the last "in" or "of" before "group").
fn sorted_group(w: Words) -> Option<GroupWhich> {
    let at = w.iter().position(|x| x == "group")?;
    let from = w[..at]
        .iter()
        .rposition(|x| x == "in" || x == "of")
        .map_or(0, |i| i + 1);
    Some(super::groups::group_which(&w[from..=at]))
}

/// "organize my tabs", "tidy up the tabs in this window", "declutter":
/// sorted by site, the one way that needs no guess (and undo puts back).
fn tidy(w: Words) -> bool {
    let Some(rest) = verb(
        w,
        &[
            &["organize"],
            &["organise"],
            &["sort"],
            &["arrange"],
            &["tidy", "up"],
            &["tidy"],
            &["clean", "up"],
            &["declutter"],
        ],
    ) else {
        return false;
    };
    // "tidy up", "declutter", "clean up please": said of the tabs.
    if all_in(rest, &["please", "a", "bit", "things", "now"]) && w[0] != "sort" {
        return true;
    }
    // "clean up this window", "organize window 2": a window's tabs.
    const WINDOW_SAID: &[&str] = &[
        "my", "the", "all", "up", "this", "current", "same", "other", "window", "windows", "tabs",
        "in", "of",
    ];
    if scope_of(rest).is_some() && all_in(&without_scope(rest), WINDOW_SAID) {
        return true;
    }
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    // "organize my tab": the plural's "s" is often not heard.
    let tabs_at = rest
        .iter()
        .position(|x| ["tabs", "tab", "everything"].contains(x));
    tabs_at.is_some_and(|i| {
        rest[..i]
            .iter()
            .all(|x| ["my", "the", "all", "these", "those", "of", "open", "up"].contains(x))
            && (i + 1 == rest.len() || scope_of(&w[w.len() - (rest.len() - i - 1)..]).is_some())
    })
}
