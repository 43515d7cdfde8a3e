//! What a clause asks for ([`Intent`]), with the tabs, groups, places
//! and times it refers to, still unresolved: the grammar's output and the
//! planner's input.

use crate::tab_state::Color;
use crate::tools::args::BrowseAction;

/// Which tabs a command is about.
#[derive(Clone, Debug, PartialEq)]
pub enum Selector {
    /// "this", "the current tab".
    Active,
    /// "it": after a clause that acted on tabs ("pin the sourdough tab
    /// and close it", "move gmail to window 2 and go to it"), those tabs;
    /// otherwise, as "this", the active tab.
    It,
    /// "all", "every tab", "everything".
    All,
    /// "the other tabs": the focused window's tabs but the active one.
    Others,
    /// "the rest", "everything else": what the previous clause did not touch.
    Rest,
    /// "tab 3", "the last two tabs": positions in the focused window.
    Positions(Vec<Position>),
    /// "the one that's playing".
    Audible,
    /// "the tab I was on", "go back to the last tab": the one used before
    /// the active tab (Firefox's Ctrl+Tab order), in any window.
    Recent,
    Muted,
    Pinned,
    /// "the tabs in groups", "all groups" (`grouped`); "the ungrouped
    /// tabs", "every tab not in a group".
    Grouped {
        grouped: bool,
    },
    /// "the other groups": the tabs of every group but the one the tab in
    /// front is in (every group when it is in none).
    OtherGroups,
    /// "them" after a clause that acted on tabs ("move the youtube tabs to
    /// a new window and mute them"): those tabs; on its own, every tab.
    Them,
    /// "these tabs", "the selected tabs": the tabs selected together
    /// (Ctrl/Shift-click) in this window; without such a selection, the
    /// tab in front, or with `all` ("all these tabs") the window's tabs.
    Highlighted {
        all: bool,
    },
    /// Names of sites, words of titles: "youtube", "the flights tab".
    Named(Vec<Vec<String>>),
    /// The tabs of a group: "the docs group".
    InGroup(Vec<String>),
    /// Places among a group's tabs: "the last tab of the docs group", "the
    /// first two tabs in the news group".
    InGroupAt {
        group: Vec<String>,
        positions: Vec<Position>,
    },
    /// "all tabs from this site": the tabs of the active tab's site.
    ThisSite,
    /// "the tabs to the right": beside the active tab in its window (only
    /// the next one when one tab is meant: "the tab on the left").
    Side {
        right: bool,
        /// "the two tabs to the right", "the next 3 tabs": the nearest so
        /// many.
        nearest: Option<usize>,
    },
    /// "the second youtube tab", "the last jira tab": one of the tabs a
    /// name matches, in tab-strip order (`nth` -1: the last). `words` are
    /// the whole name, ordinal included, in case a title has it ("First
    /// Republic").
    NthOf {
        nth: i64,
        words: Vec<String>,
    },
    /// "the tabs to the right of figma": beside a named tab, in its window.
    SideOf {
        right: bool,
        tab: Box<Target>,
        /// "the two tabs left of reddit": the nearest so many.
        nearest: Option<usize>,
    },
    /// "the tabs between slack and reddit": those strictly between two
    /// tabs of one window.
    Between(Box<Target>, Box<Target>),
    /// "the tabs I haven't used in a week", "youtube tabs older than a
    /// day": of those `of` means, the ones not selected for `ms`
    /// (lastAccessed), never a window's selected tab.
    Idle {
        of: Box<Selector>,
        ms: f64,
    },
    /// "the newest tab", "the tab I opened last", "the three latest tabs":
    /// the tabs opened last (Firefox gives tabs ids in opening order);
    /// 0 when how many is not said ("the tabs I just opened").
    Newest(usize),
    /// "the oldest tab", "the tab I opened first", "the two oldest tabs":
    /// the tabs opened first; 0 when how many is not said.
    Oldest(usize),
    /// "the least recently used tab", "the tab I haven't used the
    /// longest": the tabs last in front longest ago, never a window's
    /// tab in front; 0 when how many is not said.
    Stalest(usize),
    /// Every tab of a window: "this window", "the other window".
    WholeWindow,
    /// Several kinds at once: "this tab and jira".
    Union(Vec<Selector>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Position {
    /// 1-based.
    Nth(i64),
    Last,
    /// The first n / the last n.
    First(i64),
    LastN(i64),
    Range(i64, i64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scope {
    Everywhere,
    ThisWindow,
    OtherWindows,
    /// "window 2", "the second window": windows counted in the order
    /// Firefox opened them, from 1 (as `Destination::Window`).
    Window(i64),
    /// "everything except window 2": the tabs of every other window.
    OutsideWindow(i64),
    /// "windows 2 and 3", "window 1 and window 3": two numbered windows.
    Windows(i64, i64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub selector: Selector,
    pub except: Option<Selector>,
    pub scope: Scope,
    /// "the X tab": one tab is meant.
    pub singular: bool,
    /// "the two youtube tabs", "both": how many tabs the person expects.
    pub count: Option<usize>,
}

impl Target {
    pub fn of(selector: Selector) -> Self {
        Target {
            selector,
            except: None,
            scope: Scope::Everywhere,
            singular: false,
            count: None,
        }
    }
    pub fn active() -> Self {
        Target {
            singular: true,
            ..Target::of(Selector::Active)
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Destination {
    OtherWindow,
    /// The focused window: "to this window".
    ThisWindow,
    /// "to a new window".
    NewWindow,
    /// "there", "to that window": the window the clause before moved tabs
    /// to or acted on; with none before, this window.
    There,
    Window(i64),
    Start,
    End,
    Left,
    Right,
    /// "two places to the left", "3 spots right": so many places along
    /// the tab strip (one place is `Left` or `Right`).
    Places {
        right: bool,
        n: i64,
    },
    Position(i64),
    /// "next to gmail", "after jira", "before the maps tab".
    Beside {
        tab: Box<Target>,
        after: bool,
    },
    /// "between youtube and jira": right after the one of the two further
    /// left (they are one window's).
    Between(Box<Target>, Box<Target>),
    /// "together", "next to each other": after the first of them.
    Together,
    /// "to the end of the news group", "to the start of its group": first
    /// or last in the group, joining it if not in it.
    GroupEdge {
        group: GroupWhich,
        end: bool,
    },
    /// "swap gmail and slack", "swap this tab with the next one": the
    /// moving tab and this one trade places; none: the target is both
    /// ("swap these two tabs").
    SwapWith(Option<Box<Target>>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum GroupWhich {
    /// "ungroup all".
    All,
    /// "the docs group".
    Named(Vec<String>),
    /// "this group": the active tab's group.
    Current,
    /// "the other groups", "all groups but docs": every group but one.
    AllBut(Box<GroupWhich>),
    /// "the news and docs groups", "the news group and the docs group".
    Several(Vec<GroupWhich>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSpan {
    Today,
    Yesterday,
    ThisMorning,
    ThisAfternoon,
    Tonight,
    ThisWeek,
    LastWeek,
    LastMonth,
    /// The last n milliseconds.
    Recent(f64),
}

/// What tabs are sorted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    Title,
    Address,
    /// The tab used last first.
    LastUsed,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    Close(Target),
    /// "close duplicate tabs"; with `of` ("close the duplicate youtube
    /// tabs"), only copies among those tabs.
    CloseDuplicates {
        scope: Scope,
        of: Option<Target>,
    },
    Switch(Target),
    /// A bare name ("jira", "tab 3"): switch to it if it is a tab, else
    /// the words were not understood.
    Bare(Target),
    /// "switch to the other window", "go to window 2".
    SwitchWindow(WindowRef),
    /// "open gmail": switch to it if open, else open the site.
    Open(Vec<String>),
    OpenUrl(String),
    /// "open bbc.com next to this one", "open a new tab beside jira": what
    /// `open` opens, in a new tab right after a tab.
    OpenBeside {
        open: Box<Intent>,
        beside: Target,
    },
    /// "open a new tab in the docs group", "open bbc.com in the news
    /// group": what `open` opens, in a new tab of that group.
    OpenInGroup {
        open: Box<Intent>,
        group: GroupWhich,
    },
    /// "open youtube in the other window", "open bbc.com in window 2": what
    /// `open` opens, in a new tab of that window.
    OpenInWindow {
        open: Box<Intent>,
        window: WindowRef,
    },
    /// "open reddit in a new tab", "open netflix in the background", "open
    /// gmail in a new window": the site, address, bookmark or tab's page in
    /// a fresh tab, even if one is open.
    OpenNew {
        words: Vec<String>,
        active: bool,
        /// In a new window of its own.
        window: bool,
    },
    /// "open my candle docs bookmark" (the best match); "open all my
    /// cooking bookmarks", "open the cooking folder" (`all`: every match).
    OpenBookmark {
        words: Vec<String>,
        all: bool,
    },
    NewTab,
    Mute(Target, bool),
    /// "pause the video" (`play` false), "resume youtube" (true); no
    /// target: whatever plays (pause) or the tab in front (play).
    Media {
        target: Option<Target>,
        play: bool,
    },
    Pin(Target, bool),
    Reload(Target, bool),
    Discard(Target),
    Duplicate(Target),
    /// "duplicate jira twice", "open three new tabs": a command that makes
    /// tabs, this many times.
    Repeat(Box<Intent>, i64),
    Group {
        target: Target,
        name: Option<String>,
        color: Option<Color>,
    },
    GroupBySite(Scope),
    /// "sort my tabs alphabetically", "sort the tabs by address"; with a
    /// group ("sort the docs group by title"), that group's tabs.
    Sort {
        scope: Scope,
        by: SortKey,
        group: Option<GroupWhich>,
    },
    /// "sort the groups by name": each window's groups in order of their
    /// titles, each whole; said by anything else (`by_name` false), not
    /// done.
    SortGroups {
        scope: Scope,
        by_name: bool,
    },
    GroupByTopic(Scope),
    RenameGroup(GroupWhich, String),
    RecolorGroup(GroupWhich, Color),
    CollapseGroup(GroupWhich, bool),
    Ungroup(GroupWhich),
    /// "merge the news and docs groups", "merge the docs group into the
    /// news group": the first group said (after "into", that one) takes
    /// the others' tabs.
    MergeGroups(GroupWhich),
    /// Tabs out of their groups; with a group ("remove jira from the
    /// docs group"), only out of that one.
    UngroupTabs(Target, Option<GroupWhich>),
    Move(Target, Destination),
    Search {
        query: String,
        engine: Option<String>,
    },
    /// "search this site for async": the default engine, kept to the
    /// site of the tab in front.
    SearchThisSite(String),
    Bookmark {
        target: Target,
        folder: Option<String>,
        /// "bookmark this as lasagne": the bookmark's name (one tab).
        title: Option<String>,
    },
    FindBookmarks(String),
    /// "what's in my cooking folder", "show my rust bookmarks": the
    /// folder so named, else a search for the words.
    BookmarkFolder(String),
    /// "show my recent bookmarks", "what did I bookmark last": this many
    /// of the bookmarks added last, newest first.
    RecentBookmarks(usize),
    /// "is this page bookmarked", "have I bookmarked the jira tab".
    IsBookmarked(Target),
    History {
        query: String,
        span: Option<TimeSpan>,
    },
    /// "open the article about webgpu from yesterday": the newest page of
    /// history that matches (the snapshot holds them, see
    /// `interpret::history_wanted`).
    OpenFromHistory {
        query: String,
        span: Option<TimeSpan>,
    },
    /// "how many tabs", "how many youtube tabs are open in this window".
    Count(Target),
    /// "stop listening", "turn off the microphone": the voice stops.
    StopListening,
    /// "how many bookmarks do I have", "how many bookmarks are in my
    /// cooking folder" (the folder's title words).
    CountBookmarks {
        folder: Option<Vec<String>>,
    },
    CountWindows,
    /// "how many youtube tabs are in each window": those tabs, window by
    /// window.
    CountEachWindow(Target),
    /// "which window has the most tabs" (`most`), "… the fewest".
    BusiestWindow {
        most: bool,
    },
    /// "which window is netflix in", "what window am I in".
    WhichWindow(Target),
    /// "which group is this tab in", "what group is gmail in".
    WhichGroup(Target),
    ListTabs(Target),
    /// "is gmail open", "do I have a jira tab": yes (which) or no.
    IsOpen(Target),
    /// "when did I last use gmail": when the tab was last in front.
    LastUsed(Target),
    /// "are there any duplicate tabs": the pages open more than once.
    ListDuplicates {
        scope: Scope,
    },
    ListGroups,
    /// "what color is the news group", "is the design group collapsed":
    /// that group's look.
    DescribeGroup(GroupWhich),
    /// "which search engines do I have".
    ListEngines,
    Browse(BrowseAction, Option<f64>),
    /// "help", "what can you do": examples of what to say.
    Help,
    Undo,
    /// "undo the last two changes": the newest n changes, newest first.
    UndoSeveral(usize),
    /// "reopen the tab I just closed": undo the newest close, whatever
    /// changed since.
    Reopen,
    /// "what was the last tab I closed": what "reopen" would bring back.
    LastClosed,
    Yes,
    No,
}

/// A window named in a command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WindowRef {
    Other,
    /// 1-based, in the order of window ids.
    Nth(i64),
}

/// Why a clause was not understood.
#[derive(Clone, Debug, PartialEq)]
pub struct NotUnderstood(pub String);
