//! Opening a site, an address or a bookmark; a name that is already open
//! switches to it instead.

use super::{not_found, one_call, one_tab, title, Refusal, Step};
use crate::interpret::parse::url_in;
use crate::interpret::parse::GroupWhich;
use crate::interpret::parse::{Destination, Intent, Selector, Target, WindowRef};
use crate::interpret::resolve::{find_group, match_bookmarks, match_tabs, no_window, View};
use crate::interpret::sites;
use crate::interpret::Options;
use crate::log::Call;
use crate::tab_state::Tab;
use crate::text::clip;
use crate::tools::args::{CreateTabArgs, TabIdArgs};
use crate::tools::{self, ToolCall};

pub fn open(view: &View, words: &[String]) -> Result<Step, Refusal> {
    let state = view.state;
    let tabs: Vec<&Tab> = state.tabs.iter().collect();
    let mut step = Step::default();
    // "open the wikipedia page about ownership": a tab that is one, if
    // open; else (below) a search of that site.
    let said = words.join(" ");
    let about = site_and_subject(words);
    let content: Vec<String> = match &about {
        Some((site, subject)) => [vec![site.clone()], subject.clone()].concat(),
        None => words.to_vec(),
    };
    let words = content.as_slice();
    let found = match_tabs(words, &tabs);
    if !found.is_empty() {
        let target = Target {
            singular: true,
            ..Target::of(Selector::Named(vec![words.to_vec()]))
        };
        let id = one_tab(view, &target, false)?;
        step.calls.push(Call::switch_tab(TabIdArgs { tab_id: id }));
        step.reply = format!("Switched to '{}'.", title(view, id));
        return Ok(step);
    }
    if let Some(site) = sites::by_words(words) {
        let place = site.places[0];
        step.calls.push(Call::create_tab(CreateTabArgs {
            url: Some(format!("https://{place}")),
            ..Default::default()
        }));
        step.reply = format!("Opened {}.", site.display);
        return Ok(step);
    }
    if let Some(b) = match_bookmarks(words, &state.bookmarks).first() {
        step.calls.push(Call::create_tab(CreateTabArgs {
            url: Some(b.url.clone()),
            ..Default::default()
        }));
        step.reply = format!("Opened your bookmark '{}'.", clip(&b.title, 60));
        return Ok(step);
    }
    if let Some((site, subject)) = about {
        if let Ok(step) = super::search::search(view, &subject.join(" "), Some(&site)) {
            return Ok(step);
        }
    }
    Err(not_found(format!(
        "No tab, site or bookmark matches '{said}'. Say 'search for {said}' to search the web."
    )))
}

/// "wikipedia about ownership", "wikipedia article on rust", "youtube
/// videos about sourdough": a site, then what the page is about.
fn site_and_subject(words: &[String]) -> Option<(String, Vec<String>)> {
    const KIND: &[&str] = &[
        "article", "articles", "entry", "page", "pages", "video", "videos", "results", "post",
        "posts",
    ];
    let at = words
        .iter()
        .position(|x| ["about", "on", "regarding", "for"].contains(&x.as_str()))?;
    let site: Vec<&String> = words[..at]
        .iter()
        .filter(|x| !KIND.contains(&x.as_str()))
        .collect();
    let subject = words[at + 1..].to_vec();
    match (site.as_slice(), subject.is_empty()) {
        ([site], false) => Some((site.to_string(), subject)),
        _ => None,
    }
}

/// "open reddit in a new tab", "open the flights tab in the background",
/// "open gmail in a new window": a fresh tab at the site, address, bookmark
/// or open tab's page.
pub fn open_new(
    view: &View,
    words: &[String],
    active: bool,
    window: bool,
) -> Result<Step, Refusal> {
    let state = view.state;
    let joined = words.join(" ");
    let site = sites::by_words(words);
    let (url, name) = if words.is_empty() {
        // A blank tab: Firefox's new tab page.
        return Ok(one_call(
            Call::create_tab(CreateTabArgs {
                active: (!active).then_some(false),
                ..Default::default()
            }),
            if active {
                "Opened a new tab.".into()
            } else {
                "Opened a new tab in the background.".into()
            },
            vec![],
        ));
    } else if let Some(site) = site {
        (
            format!("https://{}", site.places[0]),
            site.display.to_string(),
        )
    } else if let Some(url) = url_in(words) {
        let url = tools::normalize_url(&url)?;
        (url.clone(), url)
    } else if let Some(b) = match_bookmarks(words, &state.bookmarks).first() {
        (
            b.url.clone(),
            format!("your bookmark '{}'", clip(&b.title, 60)),
        )
    } else {
        let target = Target {
            singular: true,
            ..Target::of(Selector::Named(vec![words.to_vec()]))
        };
        let id = one_tab(view, &target, false).map_err(|e| match e.code {
            crate::error::ErrorCode::NotFound => not_found(format!(
                "No site, bookmark or tab matches '{joined}'. Say 'search for {joined}' to search the web."
            )),
            _ => e,
        })?;
        if window {
            // "open the jira tab in a new window": the tab itself moves
            // there, as Firefox's "Move to New Window" does.
            return super::move_tabs::move_tabs(view, &target, &Destination::NewWindow);
        }
        let tab = view.tab(id).ok_or_else(|| not_found("That tab is gone."))?;
        (tab.url.clone(), format!("'{}'", clip(&tab.title, 60)))
    };
    if window {
        return Ok(one_call(
            Call::create_tab(CreateTabArgs {
                url: Some(url),
                new_window: Some(true),
                ..Default::default()
            }),
            format!("Opened {name} in a new window."),
            vec![],
        ));
    }
    let where_ = if active { "" } else { " in the background" };
    Ok(one_call(
        Call::create_tab(CreateTabArgs {
            url: Some(url),
            active: (!active).then_some(false),
            ..Default::default()
        }),
        format!("Opened {name} in a new tab{where_}."),
        vec![],
    ))
}

/// "open github.com", "open bbc dot co dot uk".
/// "open bbc.com next to this one": what `open` plans, its new tab placed
/// right after `beside` (the tab resolved before anything opens, so "this
/// one" is the tab in front now). A site already open is switched to, as
/// "open" does, and stays where it is.
pub fn open_beside(
    view: &View,
    open: &Intent,
    beside: &Target,
    options: &Options,
) -> Result<Step, Refusal> {
    let reference = super::one_tab(view, beside, false)?;
    let tab = view
        .tab(reference)
        .ok_or_else(|| super::not_found("No tab matches that."))?;
    let place = format!(" after '{}'", super::title(view, reference));
    let fields = [
        ("index", (tab.index + 1).into()),
        ("windowId", tab.window_id.into()),
    ];
    opened_there(view, open, options, &fields, &place)
}

/// A fresh tab in a group: a site or tab name opens anew rather than
/// switching to the tab that has it, which would be in another group.
pub fn open_in_group(
    view: &View,
    open: &Intent,
    which: &GroupWhich,
    options: &Options,
) -> Result<Step, Refusal> {
    let group = find_group(view.state, which, view).map_err(not_found)?;
    let place = format!(" in {}", super::group_said(group));
    opened_anew(view, open, options, &[("groupId", group.id.into())], &place)
}

/// A fresh tab in another window, as in a group: a site or tab name
/// opens anew there rather than switching to the tab that has it.
pub fn open_in_window(
    view: &View,
    open: &Intent,
    window: WindowRef,
    options: &Options,
) -> Result<Step, Refusal> {
    let others: Vec<i64> = (view.window_order().into_iter())
        .filter(|w| *w != view.focused_window)
        .collect();
    let (window_id, place) = match window {
        WindowRef::Other => match others.as_slice() {
            [] => return Err(not_found("There is no other window.")),
            [one] => (*one, " in the other window".to_string()),
            _ => {
                return Err(super::refused(
                    "There are several other windows; say which: 'open it in window 3'.",
                ))
            }
        },
        WindowRef::Nth(n) => match view.numbered_window(n) {
            Some(id) => (id, format!(" in window {n}")),
            None => return Err(not_found(no_window(view, n))),
        },
    };
    opened_anew(
        view,
        open,
        options,
        &[("windowId", window_id.into())],
        &place,
    )
}

/// As [`opened_there`], a site or tab name opened anew rather than
/// switched to: the tab that has it is elsewhere (another group, another
/// window).
fn opened_anew(
    view: &View,
    open: &Intent,
    options: &Options,
    fields: &[(&str, serde_json::Value)],
    place: &str,
) -> Result<Step, Refusal> {
    let fresh = match open {
        Intent::Open(words) => Intent::OpenNew {
            words: words.clone(),
            active: true,
            window: false,
        },
        other => other.clone(),
    };
    opened_there(view, &fresh, options, fields, place)
}

/// What `open` plans, with `fields` set on the tabs it creates and the
/// reply saying where (`place`, before its full stop). What it switches to
/// rather than opens stays where it is.
fn opened_there(
    view: &View,
    open: &Intent,
    options: &Options,
    fields: &[(&str, serde_json::Value)],
    place: &str,
) -> Result<Step, Refusal> {
    let mut step = match open {
        // A blank tab is Firefox's new-tab page, opened as any tab here.
        Intent::NewTab => one_call(
            Call::create_tab(CreateTabArgs::default()),
            "Opened a new tab.".into(),
            vec![],
        ),
        other => super::plan_intent(other, view, options)?,
    };
    let mut placed = false;
    for call in step.calls.iter_mut().filter(|c| c.tool == "create_tab") {
        for (field, value) in fields {
            call.args[*field] = value.clone();
        }
        placed = true;
    }
    if placed {
        if let Some(stop) = step.reply.rfind('.') {
            step.reply.insert_str(stop, place);
        }
    }
    Ok(step)
}

pub fn open_url(url: &str) -> Result<Step, Refusal> {
    let url = tools::normalize_url(url)?;
    Ok(one_call(
        Call::create_tab(CreateTabArgs {
            url: Some(url.clone()),
            ..Default::default()
        }),
        format!("Opened {url}."),
        vec![],
    ))
}
