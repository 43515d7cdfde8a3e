//! Opening a site, an address or a bookmark; a name that is already open
//! switches to it instead.

use super::{not_found, one_call, one_tab, title, Refusal, Step};
use crate::interpret::parse::{Selector, Target};
use crate::interpret::resolve::{match_bookmarks, match_tabs, View};
use crate::interpret::sites;
use crate::log::Call;
use crate::tab_state::Tab;
use crate::text::clip;
use crate::tools::args::{CreateTabArgs, TabIdArgs};
use crate::tools::{self, ToolCall};

pub fn open(view: &View, words: &[String]) -> Result<Step, Refusal> {
    let state = view.state;
    let tabs: Vec<&Tab> = state.tabs.iter().collect();
    let mut step = Step::default();
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
    let joined = words.join(" ");
    if let Some(site) = sites::by_name(&joined).or_else(|| sites::by_name(&words.concat())) {
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
    Err(not_found(format!(
        "No tab, site or bookmark matches '{joined}'. Say 'search for {joined}' to search the web."
    )))
}

/// "open reddit in a new tab", "open the flights tab in the background":
/// a fresh tab at the site, bookmark or open tab's page.
pub fn open_new(view: &View, words: &[String], active: bool) -> Result<Step, Refusal> {
    let state = view.state;
    let joined = words.join(" ");
    let site = sites::by_name(&joined).or_else(|| sites::by_name(&words.concat()));
    let (url, name) = if let Some(site) = site {
        (
            format!("https://{}", site.places[0]),
            site.display.to_string(),
        )
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
        let id = one_tab(view, &target, false).map_err(|_| {
            not_found(format!(
                "No site, bookmark or tab matches '{joined}'. Say 'search for {joined}' to search the web."
            ))
        })?;
        let tab = view.tab(id).ok_or_else(|| not_found("That tab is gone."))?;
        (tab.url.clone(), format!("'{}'", clip(&tab.title, 60)))
    };
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
