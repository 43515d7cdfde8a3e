//! The browser's state as the tools see it: tabs, windows, groups,
//! bookmarks, history and search engines. These are also the STATE schema
//! that `twctl` reads and writes, so field names are camelCase and times are
//! milliseconds since the epoch.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `groupId` of a tab that is in no group (Firefox uses the same value).
pub const NO_GROUP: i64 = -1;

fn no_group() -> i64 {
    NO_GROUP
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tab {
    pub id: i64,
    pub window_id: i64,
    pub index: i64,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub active: bool,
    #[serde(default)]
    pub pinned: bool,
    #[serde(default)]
    pub muted: bool,
    #[serde(default)]
    pub audible: bool,
    #[serde(default)]
    pub discarded: bool,
    #[serde(default = "no_group")]
    pub group_id: i64,
    #[serde(default)]
    pub last_accessed: f64,
    /// Selected with the active tab (Ctrl/Shift-click): "close these tabs".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub highlighted: bool,
    /// In a private window: never logged, and only touched by commands
    /// given in a private window (see [`crate::scope`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incognito: bool,
}

impl Tab {
    pub fn is_grouped(&self) -> bool {
        self.group_id != NO_GROUP
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub id: i64,
    #[serde(default)]
    pub focused: bool,
    /// A private window.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incognito: bool,
}

/// The tab-group colors Firefox offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Grey,
    Blue,
    Red,
    Yellow,
    Green,
    Pink,
    Purple,
    Cyan,
    Orange,
}

impl Color {
    pub const ALL: [Color; 9] = [
        Color::Blue,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Purple,
        Color::Cyan,
        Color::Orange,
        Color::Pink,
        Color::Grey,
    ];

    /// The name Firefox and people give it: "blue".
    pub fn name(self) -> &'static str {
        match self {
            Color::Grey => "grey",
            Color::Blue => "blue",
            Color::Red => "red",
            Color::Yellow => "yellow",
            Color::Green => "green",
            Color::Pink => "pink",
            Color::Purple => "purple",
            Color::Cyan => "cyan",
            Color::Orange => "orange",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    pub id: i64,
    pub window_id: i64,
    #[serde(default)]
    pub title: String,
    pub color: Color,
    #[serde(default)]
    pub collapsed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bookmark {
    pub id: String,
    #[serde(default)]
    pub title: String,
    pub url: String,
    /// Title of the folder that holds it.
    #[serde(default)]
    pub folder: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryItem {
    pub url: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub last_visit_time: f64,
    #[serde(default)]
    pub visit_count: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchEngine {
    pub name: String,
    #[serde(default)]
    pub is_default: bool,
}

/// A snapshot of everything the tools can see (the STATE schema).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    #[serde(default)]
    pub now: f64,
    #[serde(default)]
    pub windows: Vec<Window>,
    #[serde(default)]
    pub tabs: Vec<Tab>,
    #[serde(default)]
    pub groups: Vec<Group>,
    #[serde(default)]
    pub bookmarks: Vec<Bookmark>,
    #[serde(default)]
    pub history: Vec<HistoryItem>,
    #[serde(default)]
    pub search_engines: Vec<SearchEngine>,
    /// What some tabs' pages say about their topic (description, keywords,
    /// first headings), by tab id: read for "group by topic".
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub pages: std::collections::BTreeMap<i64, String>,
    /// Tabs whose media Tab Whisperer paused and nothing has played again
    /// since: what a bare "resume" plays (Firefox does not tell).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paused_media: Vec<i64>,
    /// How many bookmarks there are, read for "how many bookmarks do I
    /// have" (`bookmarks` holds only those a command is about).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bookmark_count: Option<usize>,
}

/// What `create_tab` asks of the browser.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewTab {
    pub url: Option<String>,
    pub window_id: Option<i64>,
    pub index: Option<i64>,
    pub active: bool,
    pub pinned: bool,
    pub muted: bool,
    /// Opened without loading (Firefox's lazy tab); it loads when selected.
    /// Firefox refuses it for active, pinned and about: tabs.
    pub discarded: bool,
    /// The title a discarded tab shows until it loads.
    pub title: Option<String>,
    /// A new window is private (`create_window` only).
    pub incognito: bool,
}

/// A change to a group's look; `None` leaves that property alone.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupChange {
    pub title: Option<String>,
    pub color: Option<Color>,
    pub collapsed: Option<bool>,
}

impl GroupChange {
    /// Every property of a group's look: to give another group the same.
    pub fn look_of(g: &Group) -> Self {
        GroupChange {
            title: Some(g.title.clone()),
            color: Some(g.color),
            collapsed: Some(g.collapsed),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct HistoryQuery {
    pub text: String,
    pub start_time: Option<f64>,
    pub end_time: Option<f64>,
    pub max_results: u32,
}

/// The text a page shows, as its tab's content script reads it (rendered
/// text only: hidden elements are left out); [`crate::page`] makes
/// what the model reads of it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct PageText {
    /// `<meta>` tags: name (or property) and content.
    pub meta: Vec<(String, String)>,
    /// The text of each `application/ld+json` script.
    pub json_ld: Vec<String>,
    pub breadcrumbs: Vec<String>,
    /// `("H1", text)`, `("H2", text)` in page order.
    pub headings: Vec<(String, String)>,
    /// `<main>`, `<article>` and `role=main` elements' text.
    pub main: Vec<String>,
    pub body: String,
    /// Navigation, header, footer and sidebar blocks' text.
    pub boilerplate: Vec<String>,
}

/// Something done inside the page of a tab (needs a content script).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PageScript {
    ScrollBy(i64),
    ScrollPages(i64),
    Top,
    Bottom,
    Stop,
    /// So many entries through the tab's history at once (negative: back).
    /// `tabs.goBack` twice in a row goes back once: the second call lands
    /// before the first navigation commits.
    HistoryGo(i64),
    /// Pause the page's playing audio and video; answers how many paused.
    PauseMedia,
    /// Play again what `PauseMedia` paused, else (unless `resume_only`,
    /// as undo asks) the page's first paused media; answers how many play.
    PlayMedia {
        resume_only: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::Color;

    /// `Color::name` says each color as the tools' JSON (Firefox's
    /// `tabGroups` names) does.
    #[test]
    fn color_names_are_the_serialized_ones() {
        for c in Color::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.name(), "{c:?}");
        }
    }
}
