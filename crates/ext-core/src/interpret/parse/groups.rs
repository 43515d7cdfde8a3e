//! Tab groups: new groups and adding to one, renaming, recoloring,
//! collapsing and expanding, ungrouping.

use super::intent::{Destination, GroupWhich, Intent, Scope, Target};
use super::target::{target, target_or_active};
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "group",
    "ungroup",
    "dissolve",
    "disband",
    "collapse",
    "fold",
    "expand",
    "unfold",
    "uncollapse",
    "hide",
    "minimize",
    "rename",
    "retitle",
    "call",
    "name",
    "color",
    "colour",
    "paint",
    "make",
    "put",
    "bundle",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "ungroup the {group} group",
    "ungroup everything",
    "collapse the {group} group",
    "expand the {group} group",
    "close the {group} group",
    "make the {group} group {color}",
    "put the {tab} tab in the {group} group",
    "put this tab in the {group} group",
    "remove this tab from its group",
];

pub fn parse(w: Words) -> Parsed {
    Ok(groups(w))
}

/// "remove jira from the docs group", "take this tab out of its group":
/// `what` out of the group `from` says ("out of the docs group"), if it
/// names one.
fn out_of_group(what: Words, from: Words) -> Intent {
    let tabs = if what.is_empty() {
        Target::active()
    } else {
        target(what)
    };
    const NAME_NO_GROUP: &[&str] = &[
        "out", "of", "from", "the", "a", "its", "their", "my", "group", "tab", "tabs",
    ];
    let named = from.iter().any(|x| !NAME_NO_GROUP.contains(&x.as_str()));
    let from = strip_leading(from, &["out", "of", "from"]);
    Intent::UngroupTabs(tabs, named.then(|| group_which(from)))
}

/// "the docs group", "group docs", "this group".
pub(super) fn group_which(w: Words) -> GroupWhich {
    // "the news and docs groups", "the news group and the docs group" (not
    // "the news and weather group", which may be one group's title).
    let parts: Vec<&[String]> = w.split(|x| x == "and").collect();
    let each_a_group = parts.iter().all(|p| p.iter().any(|x| x == "group"));
    let plural = w.last().is_some_and(|x| x == "groups");
    if parts.len() > 1 && (plural || each_a_group) && parts.iter().all(|p| !p.is_empty()) {
        return GroupWhich::Several(parts.into_iter().map(group_which).collect());
    }
    let w = strip_articles(w);
    let words: Vec<String> = w
        .iter()
        .filter(|x| !["group", "groups", "tab", "tabs", "called", "named"].contains(&x.as_str()))
        .cloned()
        .collect();
    let this = ["current", "this", "one", "it", "its", "that", "them"];
    let all = |w: &[String]| {
        w.iter()
            .all(|x| ["all", "every", "everything", "each", "the", "my"].contains(&x.as_str()))
    };
    // "the other groups", "all groups except docs", "every group but this one".
    if matches!(words.as_slice(), [x] if x == "other" || x == "others") {
        return GroupWhich::AllBut(Box::new(GroupWhich::Current));
    }
    let except = ["except", "but", "besides", "excluding"];
    if let Some(at) = words.iter().position(|x| except.contains(&x.as_str())) {
        let kept = strip_leading(&words[at + 1..], &["for", "the"]);
        if all(&words[..at]) && !kept.is_empty() {
            return GroupWhich::AllBut(Box::new(group_which(kept)));
        }
    }
    // "make the groups red": plural, with nothing more, is every group.
    if words.is_empty() && w.iter().any(|x| x == "groups") {
        return GroupWhich::All;
    }
    if words.iter().all(|x| this.contains(&x.as_str())) {
        GroupWhich::Current
    } else if words
        .iter()
        .all(|x| ["all", "every", "everything", "each", "both", "the", "my"].contains(&x.as_str()))
        && words
            .iter()
            .any(|x| ["all", "every", "everything", "each", "both"].contains(&x.as_str()))
    {
        GroupWhich::All
    } else {
        GroupWhich::Named(words)
    }
}

/// "open a new tab in the docs group", "add a new tab to the design
/// group", "open bbc.com in the news group": a fresh tab in a group. "open
/// the jira tab in the news group" is no fresh tab: that tab joins it.
fn open_in_group(w: Words) -> Option<Intent> {
    // "new tab in the docs group" says no verb: it opens.
    let (lead, rest) = match w[0].as_str() {
        "new" => ("open", w),
        lead @ ("open" | "add" | "create" | "put") => (lead, &w[1..]),
        _ => return None,
    };
    if rest.last().is_none_or(|x| x != "group") {
        return None;
    }
    let at = rest
        .iter()
        .rposition(|x| ["in", "into", "to", "inside"].contains(&x.as_str()))?;
    let (what, place) = (&rest[..at], &rest[at + 1..]);
    let blank = what.iter().any(|x| x == "tab")
        && all_in(
            what,
            &["a", "new", "blank", "empty", "fresh", "another", "tab"],
        );
    let address = super::url_in(what).is_some();
    if !blank && what.iter().any(|x| x == "tab" || x == "tabs") && lead == "open" {
        // "open the jira tab in the news group": that tab, put there.
        let put: Vec<String> = std::iter::once("put".to_string())
            .chain(rest.iter().cloned())
            .collect();
        return groups(&put);
    }
    if !blank && !address && (lead != "open" || what.is_empty()) {
        return None;
    }
    let open = super::open::opened_fresh("open", what)?;
    Some(Intent::OpenInGroup {
        open: Box::new(open),
        group: group_which(place),
    })
}

/// "the end of the news group", "the start of its group": a place in a
/// group, not a group called "end of the news".
fn group_edge(dest: Words) -> Option<Destination> {
    let dest = strip_articles(dest);
    let (edge, group) = dest.split_first()?;
    let end = match edge.as_str() {
        "end" | "back" | "bottom" => true,
        "start" | "beginning" | "front" | "top" => false,
        _ => return None,
    };
    let group = group.strip_prefix(&["of".to_string()][..])?;
    let last = group.last()?;
    (last == "group").then(|| Destination::GroupEdge {
        group: group_which(group),
        end,
    })
}

/// "close the news group but keep the tabs", "delete the docs group and
/// keep its tabs": the group goes and its tabs stay, as Firefox's
/// "Ungroup tabs" does (closing a group closes its tabs).
fn ungroup_keeping_the_tabs(w: Words) -> Option<Intent> {
    let rest = verb(w, &[&["close"], &["delete"], &["remove"]])?;
    let g = rest.iter().position(|x| x == "group")?;
    let (named, after) = (&rest[..g], &rest[g + 1..]);
    let after = strip_leading(after, &["but", "and", ","]);
    let kept = verb(after, &[&["keep"], &["leave"]])?;
    let kept = ends(kept, &["open"]).unwrap_or(kept);
    let tabs = ["the", "its", "their", "tabs", "them", "all", "of"];
    let keeps_tabs = kept.iter().any(|x| x == "tabs" || x == "them")
        && kept.iter().all(|x| tabs.contains(&x.as_str()));
    let mut said = named.to_vec();
    said.push("group".into());
    keeps_tabs.then(|| Intent::Ungroup(group_which(&said)))
}

/// "merge the news and docs groups", "combine the news group with the
/// docs group", "merge the docs group into the news group", "merge all
/// my groups": the groups in the order that the first (or the one after
/// "into") is the one kept.
fn merge_groups(w: Words) -> Option<Intent> {
    let rest = verb(
        w,
        &[
            &["merge"],
            &["combine"],
            &["join"],
            &["consolidate"],
            &["unite"],
        ],
    )?;
    if !rest.iter().any(|x| x == "group" || x == "groups") {
        return None;
    }
    let rest = ends(rest, &["together"]).unwrap_or(rest);
    let into_one = [
        &["into", "one"][..],
        &["into", "one", "group"],
        &["into", "a", "single", "group"],
    ];
    let rest = into_one.iter().find_map(|e| ends(rest, e)).unwrap_or(rest);
    let split = |at: &str| {
        let i = find(rest, at)?;
        let (before, after) = (&rest[..i], &rest[i + 1..]);
        (!before.is_empty() && !after.is_empty()).then_some((before, after))
    };
    let which = if let Some((from, into)) = split("into") {
        GroupWhich::Several(vec![group_which(into), group_which(from)])
    } else if let Some((first, second)) = split("with") {
        GroupWhich::Several(vec![group_which(first), group_which(second)])
    } else {
        group_which(rest)
    };
    Some(Intent::MergeGroups(which))
}

fn groups(w: Words) -> Option<Intent> {
    if let Some(intent) = (open_in_group(w))
        .or_else(|| ungroup_keeping_the_tabs(w))
        .or_else(|| merge_groups(w))
    {
        return Some(intent);
    }
    let mentions_group = w.iter().any(|x| x == "group" || x == "groups");
    // Ungroup.
    if let Some(rest) = verb(
        w,
        &[&["ungroup"], &["dissolve"], &["disband"], &["break", "up"]],
    ) {
        if rest.is_empty() {
            // "ungroup" alone: the group of the tab in front.
            return Some(Intent::Ungroup(GroupWhich::Current));
        }
        if all_in(
            rest,
            &[
                "all",
                "everything",
                "every",
                "the",
                "tabs",
                "groups",
                "my",
                "of",
            ],
        ) {
            return Some(Intent::Ungroup(GroupWhich::All));
        }
        if rest.iter().any(|x| x == "group" || x == "groups") {
            return Some(Intent::Ungroup(group_which(rest)));
        }
        return Some(Intent::UngroupTabs(target(rest), None));
    }
    if let Some(rest) = verb(w, &[&["remove"], &["take"]]) {
        if let Some(i) = find_seq(rest, &["out", "of"]).or_else(|| find(rest, "from")) {
            if rest[i..].iter().any(|x| x == "group") {
                return Some(out_of_group(&rest[..i], &rest[i..]));
            }
        }
    }
    // "move this tab out of its group", "get the github tab out of the
    // news group": out of a group and nowhere else.
    if let Some(rest) = verb(w, &[&["move"], &["get"], &["pull"]]) {
        if let Some(i) = find_seq(rest, &["out", "of"]) {
            if rest.last().is_some_and(|x| x == "group") {
                return Some(out_of_group(&rest[..i], &rest[i..]));
            }
        }
    }
    // Collapse / expand: "fold the docs group", "expand all groups".
    let collapse = verb(
        w,
        &[
            &["collapse"],
            &["fold", "up"],
            &["fold"],
            &["minimize"],
            &["minimise"],
            &["hide"],
            &["shrink"],
        ],
    );
    let expand = verb(
        w,
        &[
            &["expand"],
            &["unfold"],
            &["uncollapse"],
            &["unhide"],
            &["open"],
            &["show"],
        ],
    );
    // Only groups fold; "open" and "show" mean a group when they say so.
    let group_verb = !["open", "show"].contains(&w[0].as_str());
    if let Some((rest, collapsed)) = collapse.map(|r| (r, true)).or(expand.map(|r| (r, false))) {
        if mentions_group || group_verb {
            return Some(Intent::CollapseGroup(group_which(rest), collapsed));
        }
    }
    // Rename: "call the news group Reading", "rename the news group to
    // Reading", "rename news to reading" (only groups have names to change).
    let renaming = &[
        &["rename"][..],
        &["retitle"],
        &["change", "the", "name", "of"],
        &["change", "the", "title", "of"],
    ];
    if let Some(rest) = verb(w, renaming) {
        if find(rest, "group").is_none() {
            if let Some(t) = rest.iter().rposition(|x| x == "to" || x == "as") {
                let (which, name) = (&rest[..t], &rest[t + 1..]);
                if !which.is_empty() && !name.is_empty() {
                    return Some(Intent::RenameGroup(group_which(which), title_case(name)));
                }
            }
        }
    }
    if let Some(rest) = verb(w, renaming).or_else(|| verb(w, &[&["call"], &["name"]])) {
        if let Some(g) = find(rest, "group") {
            let mut name = &rest[g + 1..];
            let mut which = &rest[..g];
            if which.is_empty() || is(strip_articles(which), &[]) {
                // "rename group news to reading"
                if let Some(t) = find(name, "to") {
                    which = &name[..t];
                    name = &name[t + 1..];
                }
            }
            let name = starts(name, &["to"])
                .or_else(|| starts(name, &["as"]))
                .unwrap_or(name);
            if !name.is_empty() {
                return Some(Intent::RenameGroup(group_which(which), title_case(name)));
            }
        }
    }
    // Recolor: "make the news group blue", "color the docs group red", "change the news group color to green".
    if let Some(rest) = verb(
        w,
        &[
            &["make"],
            &["color"],
            &["colour"],
            &["turn"],
            &["paint"],
            &["change"],
            &["set"],
        ],
    ) {
        // "make the news group red", "make all groups red".
        if let Some(g) = rest.iter().position(|x| x == "group" || x == "groups") {
            let colour_at = rest[g + 1..].iter().rposition(|x| color(x).is_some());
            if let Some(at) = colour_at.map(|at| g + 1 + at) {
                let c = color(&rest[at]).expect("found as a colour");
                // "change the color of the news group to red"
                // With "group(s)": "the groups" is every group; and what
                // is left out after it: "all groups except this one".
                let left_out = &rest[g + 1..at];
                let which: Vec<String> = if mentions(left_out, &["except", "but", "besides"]) {
                    rest[..at].to_vec()
                } else {
                    rest[..=g].to_vec()
                };
                let which = &which[..];
                let which = [["color", "of"], ["colour", "of"]]
                    .iter()
                    .find_map(|p| starts(strip_articles(which), p))
                    .unwrap_or(which);
                if !which.iter().any(|x| x == "a" || x == "new") {
                    return Some(Intent::RecolorGroup(group_which(which), c));
                }
            }
        }
    }
    // "color it red", "paint news blue": only groups have colors.
    if let Some(rest) = verb(w, &[&["color"], &["colour"], &["paint"]]) {
        if let Some((last, which)) = rest.split_last() {
            if let (Some(c), false) = (color(last), which.is_empty()) {
                return Some(Intent::RecolorGroup(group_which(which), c));
            }
        }
    }
    // "… and make it purple", "turn them red": the group just named.
    if let Some([it, last]) = verb(w, &[&["make"], &["turn"]]) {
        if let (Some(c), true) = (color(last), it == "it" || it == "them") {
            return Some(Intent::RecolorGroup(GroupWhich::Current, c));
        }
    }
    // New group: "put my Jira and Confluence tabs in a group called Sprint",
    // "make a purple group named Travel with the flights tab", "group youtube tabs".
    let named = |w: Words| -> (Option<String>, usize) {
        // "group jira and confluence and call it Sprint"
        let call_it = w.windows(2).position(|p| {
            ["call", "name", "title", "label"].contains(&p[0].as_str())
                && ["it", "them"].contains(&p[1].as_str())
        });
        if let Some(i) = call_it {
            let at = if i > 0 && w[i - 1] == "and" { i - 1 } else { i };
            let name = title_case(&w[i + 2..]);
            return (Some(name).filter(|n| !n.is_empty()), at);
        }
        match w.iter().position(|x| NAMED_BY.contains(&x.as_str())) {
            Some(i) => {
                let end = w[i + 1..]
                    .iter()
                    .position(|x| ["with", "for", "containing"].contains(&x.as_str()))
                    .map(|j| i + 1 + j)
                    .unwrap_or(w.len());
                let name: Vec<String> = w[i + 1..end]
                    .iter()
                    .filter(|x| color(x).is_none() || end - i - 1 == 1)
                    .cloned()
                    .collect();
                (Some(title_case(&name)).filter(|n| !n.is_empty()), i)
            }
            None => (None, w.len()),
        }
    };
    if let Some(rest) = verb(w, &[&["make"], &["create"], &["start"], &["new"]]) {
        if mentions_group && says_nothing_more(rest) {
            let g = find(rest, "group").unwrap_or(0);
            let color_word = rest[..g]
                .iter()
                .find_map(|x| color(x))
                .or_else(|| rest.iter().find_map(|x| color(x)));
            let (name, _) = named(rest);
            let name = name.or_else(|| {
                // "make a travel group with the flights tab"
                let before: Vec<String> = strip_articles(&rest[..g])
                    .iter()
                    .filter(|x| color(x).is_none() && *x != "new" && *x != "tab")
                    .cloned()
                    .collect();
                Some(title_case(&before)).filter(|n| !n.is_empty())
            });
            let with = rest.iter().position(|x| WITH_TABS.contains(&x.as_str()));
            let target = match with {
                Some(i) => target(&rest[i + 1..]),
                None => Target::active(),
            };
            return Some(Intent::Group {
                target,
                name,
                color: color_word,
            });
        }
    }
    if let Some(rest) = verb(
        w,
        &[
            &["put"],
            &["move"],
            &["add"],
            &["stick"],
            &["place"],
            &["throw"],
        ],
    ) {
        // "put this tab at the end of the docs group": a place in it.
        let at_edge = (rest.iter().enumerate())
            .filter(|(_, x)| ["to", "at", "in", "into"].contains(&x.as_str()))
            .find_map(|(i, _)| Some((i, group_edge(&rest[i + 1..])?)));
        if let Some((i, edge)) = at_edge {
            return Some(Intent::Move(target_or_active(&rest[..i]), edge));
        }
        if let Some(i) = rest
            .iter()
            .position(|x| x == "in" || x == "into" || x == "to")
            .filter(|i| rest[*i + 1..].iter().any(|x| x == "group"))
        {
            let what = &rest[..i];
            let dest = &rest[i + 1..];
            let g = find(dest, "group").unwrap_or(0);
            // "move slack into a group with jira": jira joins it too.
            let with = (dest.iter().position(|x| x == "with")).filter(|w| *w > g);
            let (what, dest): (Vec<String>, &[String]) = match with {
                Some(w) if !what.is_empty() => {
                    let both = [what, &["and".to_string()], &dest[w + 1..]].concat();
                    (both, &dest[..w])
                }
                _ => (what.to_vec(), dest),
            };
            let (name, _) = named(dest);
            let color_word = dest.iter().find_map(|x| color(x));
            let target = if what.is_empty() {
                Target::active()
            } else {
                target(&what)
            };
            // "put this in the docs group": an existing group, by name;
            // not "in its own group", "in a separate group".
            let existing = !dest[..g]
                .iter()
                .any(|x| ["a", "new", "own", "separate"].contains(&x.as_str()))
                && name.is_none();
            if existing {
                let which = group_which(&dest[..g]);
                return Some(Intent::Group {
                    target,
                    name: match which {
                        GroupWhich::Named(n) => Some(title_case(&n)),
                        _ => None,
                    },
                    color: color_word,
                });
            }
            return Some(Intent::Group {
                target,
                name,
                color: color_word,
            });
        }
    }
    // "give this tab its own group", "give the youtube tabs a group".
    if let Some(rest) = verb(w, &[&["give"]]) {
        let own = [
            &["its", "own", "group"][..],
            &["their", "own", "group"],
            &["a", "group"],
        ]
        .iter()
        .find_map(|e| ends(rest, e));
        if let Some(what) = own {
            return Some(Intent::Group {
                target: target_or_active(what),
                name: None,
                color: None,
            });
        }
    }
    if let Some(rest) = verb(w, &[&["group"], &["bundle"], &["cluster"]]) {
        if rest.is_empty() {
            return Some(Intent::GroupBySite(Scope::Everywhere));
        }
        let (name, at) = named(rest);
        let color_word = rest[at.min(rest.len())..].iter().find_map(|x| color(x));
        // "group everything in this window": "in" leads the window there.
        let what = super::window_scope::without_scope(&rest[..at]);
        let scope = super::window_scope::scope_of(&rest[..at]);
        // "group this tab with jira": "with" lists, like "and".
        let what: Vec<String> = what
            .iter()
            .filter(|x| !["together", "in", "into", "a", "group"].contains(&x.as_str()))
            .map(|x| {
                if x == "with" {
                    "and".to_string()
                } else {
                    x.clone()
                }
            })
            .collect();
        let mut target = match (what.is_empty(), scope) {
            // "group the tabs in this window".
            (true, Some(_)) => Target::of(super::intent::Selector::All),
            (true, None) => Target::active(),
            (false, _) => target(&what),
        };
        if let Some(scope) = scope {
            target.scope = scope;
        }
        return Some(Intent::Group {
            target,
            name,
            color: color_word,
        });
    }
    None
}

/// Words that start a new group's name: "a group called Work".
const NAMED_BY: &[&str] = &["called", "named", "titled", "labelled", "labeled", "as"];
/// Words that start a new group's tabs: "a group with the flights tab".
const WITH_TABS: &[&str] = &["with", "for", "containing", "from", "of"];

/// Whether a new group's words end where a group's description can:
/// after "group", only its name ("called …"), its tabs ("with …") or its
/// color. "make the news group ride" (said "red") is not "make the news
/// group" with a word to spare: that added the tab in front to it.
fn says_nothing_more(rest: Words) -> bool {
    let Some(g) = find(rest, "group") else {
        return true;
    };
    let after = &rest[g + 1..];
    after
        .first()
        .is_none_or(|x| NAMED_BY.contains(&x.as_str()) || WITH_TABS.contains(&x.as_str()))
        || after.iter().all(|x| color(x).is_some())
}
