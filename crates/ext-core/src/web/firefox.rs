//! [`Browser`] on Firefox's WebExtension APIs.

use super::bindings::*;
use crate::browser::{Browser, BrowserError, BrowserResult};
use crate::tab_state::{
    Bookmark, Group, GroupChange, HistoryItem, HistoryQuery, NewTab, PageScript, PageText,
    SearchEngine, Tab, Window, NO_GROUP,
};
use serde::Deserialize;
use serde_json::{json, Map, Value};

pub struct FirefoxBrowser;

/// How long a page action (scrolling, stop) may wait for the page.
const PAGE_SCRIPT_LIMIT_MS: i32 = 5_000;

/// A tab as `browser.tabs` describes it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FirefoxTab {
    id: i64,
    window_id: i64,
    index: i64,
    #[serde(default)]
    url: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    active: bool,
    #[serde(default)]
    pinned: bool,
    #[serde(default)]
    audible: bool,
    #[serde(default)]
    discarded: bool,
    group_id: Option<i64>,
    #[serde(default)]
    last_accessed: f64,
    #[serde(default)]
    highlighted: bool,
    muted_info: Option<MutedInfo>,
    #[serde(default)]
    incognito: bool,
}

/// A window as `browser.windows.create` answers it.
#[derive(Deserialize)]
struct NewWindow {
    id: i64,
    #[serde(default)]
    tabs: Vec<FirefoxTab>,
}

/// Mutes a new tab if asked (`tabs.create` has no `muted`).
async fn finish_new_tab(tab: FirefoxTab, spec: &NewTab) -> BrowserResult<Tab> {
    let mut tab: Tab = tab.into();
    if spec.muted {
        run(tabs_update(tab.id as f64, &js(json!({ "muted": true })))).await?;
        tab.muted = true;
    }
    Ok(tab)
}

#[derive(Deserialize)]
struct MutedInfo {
    muted: bool,
}

impl From<FirefoxTab> for Tab {
    fn from(t: FirefoxTab) -> Tab {
        Tab {
            id: t.id,
            window_id: t.window_id,
            index: t.index,
            url: t.url,
            title: t.title,
            active: t.active,
            pinned: t.pinned,
            muted: t.muted_info.is_some_and(|m| m.muted),
            audible: t.audible,
            discarded: t.discarded,
            group_id: t.group_id.unwrap_or(NO_GROUP),
            last_accessed: t.last_accessed,
            highlighted: t.highlighted,
            incognito: t.incognito,
        }
    }
}

#[derive(Deserialize)]
struct BookmarkNode {
    id: String,
    #[serde(rename = "parentId")]
    parent_id: Option<String>,
    #[serde(default)]
    title: String,
    url: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    /// A folder's contents, as `bookmarks.getTree` answers.
    #[serde(default)]
    children: Vec<BookmarkNode>,
}

/// Bookmarks (folders and separators left out) with their folders' titles.
async fn with_folders(nodes: Vec<BookmarkNode>) -> BrowserResult<Vec<Bookmark>> {
    let nodes: Vec<BookmarkNode> = nodes.into_iter().filter(|n| n.url.is_some()).collect();
    let mut parents: Vec<String> = nodes.iter().filter_map(|n| n.parent_id.clone()).collect();
    parents.sort();
    parents.dedup();
    let folders: Vec<BookmarkNode> = if parents.is_empty() {
        Vec::new()
    } else {
        call(bookmarks_get(&js(json!(parents)))).await?
    };
    Ok(nodes
        .into_iter()
        .map(|n| Bookmark {
            folder: folders
                .iter()
                .find(|f| Some(&f.id) == n.parent_id.as_ref())
                .map(|f| f.title.clone())
                .unwrap_or_default(),
            id: n.id,
            title: n.title,
            url: n.url.unwrap_or_default(),
        })
        .collect())
}

/// The bookmarks right in the folders of `node` (itself included) whose
/// titles are in `titles`, lowercased.
fn bookmarks_in(node: BookmarkNode, titles: &[String], found: &mut Vec<Bookmark>) {
    let wanted = titles.contains(&node.title.to_lowercase());
    for child in node.children {
        match &child.url {
            Some(url) if wanted => found.push(Bookmark {
                id: child.id.clone(),
                title: child.title.clone(),
                url: url.clone(),
                folder: node.title.clone(),
            }),
            Some(_) => {}
            None => bookmarks_in(child, titles, found),
        }
    }
}

fn js(v: Value) -> wasm_bindgen::JsValue {
    to_js(&v)
}

/// Page actions run as a one-line content script that answers `scrollY`.
/// Gathers what a page shows for [`PageText`]: rendered text only
/// (`innerText`, and elements `checkVisibility` finds visible), the body
/// capped at 200,000 characters. What to keep of it is decided in Rust
/// (`page`).
const READ_PAGE: &str = r#"(() => {
  const seen = e => !e.checkVisibility || e.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const texts = s => Array.from(document.querySelectorAll(s)).filter(seen).map(e => e.innerText);
  return {
    meta: Array.from(document.querySelectorAll('meta[name],meta[property]'),
                     m => [m.getAttribute('name') || m.getAttribute('property'), m.content || '']),
    json_ld: Array.from(document.querySelectorAll('script[type="application/ld+json"]'), s => s.textContent),
    breadcrumbs: texts('[aria-label~="breadcrumb" i],[aria-label~="breadcrumbs" i],.breadcrumb,.breadcrumbs'),
    headings: Array.from(document.querySelectorAll('h1,h2')).filter(seen).map(h => [h.tagName, h.innerText]),
    main: texts('main,article,[role=main]'),
    body: document.body ? document.body.innerText.slice(0, 200000) : '',
    boilerplate: texts('nav,header,footer,aside,[role=navigation],[role=banner],[role=contentinfo],[role=complementary]'),
  };
})()"#;

/// Pauses what plays in a frame, marking it (an expando of the content
/// script's own, unseen by the page) so that "play" resumes just that.
const PAUSE_MEDIA: &str = r#"(() => {
  let n = 0;
  for (const m of MEDIA()) {
    if (!m.paused) { m.pause(); m.pausedByTabWhisperer = true; n++; }
  }
  return n;
})()"#;

/// Plays what PAUSE_MEDIA paused, else (unless RESUME_ONLY) the frame's
/// first paused media. A play the autoplay policy refuses leaves the
/// element paused, and so uncounted.
const PLAY_MEDIA: &str = r#"(() => {
  const paused = MEDIA().filter(m => m.paused && !m.ended);
  const ours = paused.filter(m => m.pausedByTabWhisperer);
  // Only the page itself falls back to its first media, not every embed.
  const first = RESUME_ONLY || window !== window.top ? [] : paused.filter(m => m.currentSrc).slice(0, 1);
  let n = 0;
  for (const m of ours.length ? ours : first) {
    m.pausedByTabWhisperer = false;
    m.play().catch(() => {});
    if (!m.paused) n++;
  }
  return n;
})()"#;

/// The frame's audio and video elements, those inside shadow roots too
/// (players built as web components keep theirs there).
const MEDIA: &str = r#"(() => {
  const found = [];
  const walk = root => {
    found.push(...root.querySelectorAll('video,audio'));
    for (const el of root.querySelectorAll('*')) {
      const shadow = el.openOrClosedShadowRoot;
      if (shadow) walk(shadow);
    }
  };
  walk(document);
  return found;
})"#;

fn page_code(script: PageScript) -> String {
    let action = match script {
        PageScript::PauseMedia => return PAUSE_MEDIA.replace("MEDIA()", &format!("{MEDIA}()")),
        PageScript::PlayMedia { resume_only } => {
            return PLAY_MEDIA
                .replace("MEDIA()", &format!("{MEDIA}()"))
                .replace("RESUME_ONLY", &resume_only.to_string())
        }
        PageScript::ScrollBy(dy) => format!("window.scrollBy({{top: {dy}, behavior: 'instant'}})"),
        PageScript::ScrollPages(n) => format!(
            "window.scrollBy({{top: {n} * Math.round(window.innerHeight * 0.9), behavior: 'instant'}})"
        ),
        PageScript::Top => "window.scrollTo({top: 0, behavior: 'instant'})".to_string(),
        PageScript::Bottom => {
            "window.scrollTo({top: document.documentElement.scrollHeight, behavior: 'instant'})"
                .to_string()
        }
        PageScript::Stop => "window.stop()".to_string(),
        PageScript::HistoryGo(n) => format!("history.go({n})"),
    };
    format!("{action}; window.scrollY;")
}

/// When a page script may run. The default, document_idle, may wait until
/// the page's load event (MDN; Firefox ESR 153 was seen not to wait for a
/// stalled image), and "stop" must act at once on a page still loading:
/// it runs at document_start; scrolling needs only the DOM.
fn run_at(script: PageScript) -> &'static str {
    match script {
        // Media: a loaded frame runs it at once, and a frame still loading
        // (a stalled ad) does not hold up the others.
        PageScript::Stop | PageScript::PauseMedia | PageScript::PlayMedia { .. } => {
            "document_start"
        }
        _ => "document_end",
    }
}

/// Media plays in frames too (an embedded video): those scripts run in
/// every frame and their answers add up. Scrolling is the top frame's.
fn in_all_frames(script: PageScript) -> bool {
    matches!(
        script,
        PageScript::PauseMedia | PageScript::PlayMedia { .. }
    )
}

impl Browser for FirefoxBrowser {
    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn tz_offset_minutes(&self) -> i32 {
        -(js_sys::Date::new_0().get_timezone_offset() as i32)
    }

    async fn sleep_ms(&self, ms: u32) {
        sleep(ms.min(i32::MAX as u32) as i32).await
    }

    async fn windows(&self) -> BrowserResult<Vec<Window>> {
        call(windows_get_all(&js(json!({ "windowTypes": ["normal"] })))).await
    }

    async fn tabs(&self) -> BrowserResult<Vec<Tab>> {
        let tabs: Vec<FirefoxTab> =
            call(tabs_query(&js(json!({ "windowType": "normal" })))).await?;
        let mut tabs: Vec<Tab> = tabs.into_iter().map(Tab::from).collect();
        tabs.sort_by_key(|t| (t.window_id, t.index));
        Ok(tabs)
    }

    async fn activate_tab(&self, tab_id: i64) -> BrowserResult<()> {
        run(tabs_update(tab_id as f64, &js(json!({ "active": true })))).await
    }

    async fn focus_window(&self, window_id: i64) -> BrowserResult<()> {
        run(windows_update(
            window_id as f64,
            &js(json!({ "focused": true })),
        ))
        .await
    }

    async fn close_window(&self, window_id: i64) -> BrowserResult<()> {
        run(windows_remove(window_id as f64)).await
    }

    async fn close_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        run(tabs_remove(&js(json!(tab_ids)))).await
    }

    async fn create_tab(&self, spec: &NewTab) -> BrowserResult<Tab> {
        let mut info = Map::new();
        if let Some(url) = &spec.url {
            info.insert("url".into(), json!(url));
        }
        if let Some(w) = spec.window_id {
            info.insert("windowId".into(), json!(w));
        }
        if let Some(i) = spec.index {
            info.insert("index".into(), json!(i));
        }
        info.insert("active".into(), json!(spec.active));
        info.insert("pinned".into(), json!(spec.pinned));
        if spec.discarded {
            info.insert("discarded".into(), json!(true));
            if let Some(title) = &spec.title {
                info.insert("title".into(), json!(title));
            }
        }
        let tab: FirefoxTab = call(tabs_create(&js(Value::Object(info)))).await?;
        finish_new_tab(tab, spec).await
    }

    async fn create_window(&self, spec: &NewTab) -> BrowserResult<Tab> {
        let mut info = json!({ "type": "normal" });
        if spec.incognito {
            info["incognito"] = json!(true);
        }
        if let Some(url) = &spec.url {
            info["url"] = json!(url);
        }
        let window: NewWindow = call(windows_create(&js(info))).await?;
        let tab = window
            .tabs
            .into_iter()
            .next()
            .ok_or_else(|| BrowserError("the new window has no tab".into()))?;
        if spec.pinned {
            run(tabs_update(tab.id as f64, &js(json!({ "pinned": true })))).await?;
        }
        finish_new_tab(tab, spec).await
    }

    async fn move_to_new_window(&self, tab_id: i64) -> BrowserResult<i64> {
        // Firefox makes the window private or not as the tab is.
        let info = json!({ "type": "normal", "tabId": tab_id });
        let window: NewWindow = call(windows_create(&js(info))).await?;
        Ok(window.id)
    }

    async fn move_tab(&self, tab_id: i64, window_id: Option<i64>, index: i64) -> BrowserResult<()> {
        let mut info = json!({ "index": index });
        if let Some(w) = window_id {
            info["windowId"] = json!(w);
        }
        run(tabs_move(tab_id as f64, &js(info))).await
    }

    async fn set_pinned(&self, tab_id: i64, pinned: bool) -> BrowserResult<()> {
        run(tabs_update(tab_id as f64, &js(json!({ "pinned": pinned })))).await
    }

    async fn set_muted(&self, tab_id: i64, muted: bool) -> BrowserResult<()> {
        run(tabs_update(tab_id as f64, &js(json!({ "muted": muted })))).await
    }

    async fn reload_tab(&self, tab_id: i64, bypass_cache: bool) -> BrowserResult<()> {
        run(tabs_reload(
            tab_id as f64,
            &js(json!({ "bypassCache": bypass_cache })),
        ))
        .await
    }

    async fn discard_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        run(tabs_discard(&js(json!(tab_ids)))).await
    }

    async fn duplicate_tab(&self, tab_id: i64, index: i64) -> BrowserResult<Tab> {
        let info = js(json!({ "index": index, "active": true }));
        let tab: FirefoxTab = call(tabs_duplicate(tab_id as f64, &info)).await?;
        Ok(tab.into())
    }

    async fn group_tabs(
        &self,
        tab_ids: &[i64],
        group_id: Option<i64>,
        window_id: Option<i64>,
    ) -> BrowserResult<i64> {
        let mut info = json!({ "tabIds": tab_ids });
        if let Some(g) = group_id {
            info["groupId"] = json!(g);
        } else if let Some(w) = window_id {
            info["createProperties"] = json!({ "windowId": w });
        }
        call(tabs_group(&js(info))).await
    }

    async fn ungroup_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        run(tabs_ungroup(&js(json!(tab_ids)))).await
    }

    async fn groups(&self) -> BrowserResult<Vec<Group>> {
        call(tab_groups_query(&js(json!({})))).await
    }

    async fn update_group(&self, group_id: i64, change: &GroupChange) -> BrowserResult<()> {
        let mut info = Map::new();
        if let Some(t) = &change.title {
            info.insert("title".into(), json!(t));
        }
        if let Some(c) = change.color {
            info.insert("color".into(), json!(c));
        }
        if let Some(c) = change.collapsed {
            info.insert("collapsed".into(), json!(c));
        }
        run(tab_groups_update(group_id as f64, &js(Value::Object(info)))).await
    }

    async fn search_engines(&self) -> BrowserResult<Vec<SearchEngine>> {
        call(search_get()).await
    }

    async fn search(&self, query: &str, engine: Option<&str>, tab_id: i64) -> BrowserResult<()> {
        let mut info = json!({ "query": query, "tabId": tab_id });
        if let Some(e) = engine {
            info["engine"] = json!(e);
        }
        run(search_search(&js(info))).await
    }

    async fn search_bookmarks(&self, query: &str) -> BrowserResult<Vec<Bookmark>> {
        let nodes: Vec<BookmarkNode> = call(bookmarks_search(&js(json!(query)))).await?;
        with_folders(nodes).await
    }

    async fn bookmarks_at(&self, url: &str) -> BrowserResult<Vec<Bookmark>> {
        // A string query is matched word by word; `{url}` is the address.
        let nodes: Vec<BookmarkNode> = call(bookmarks_search(&js(json!({ "url": url })))).await?;
        with_folders(nodes).await
    }

    async fn recent_bookmarks(&self, count: usize) -> BrowserResult<Vec<Bookmark>> {
        let nodes: Vec<BookmarkNode> = call(bookmarks_get_recent(count.max(1) as f64)).await?;
        with_folders(nodes).await
    }

    async fn bookmarks_in_folders(&self, titles: &[String]) -> BrowserResult<Vec<Bookmark>> {
        // `bookmarks.search` matches a bookmark's own title and address, not
        // its folder's, so the tree is read (one call, made only when a
        // command opens, lists or counts bookmarks).
        let roots: Vec<BookmarkNode> = call(bookmarks_get_tree()).await?;
        let titles: Vec<String> = titles.iter().map(|t| t.to_lowercase()).collect();
        let mut found = Vec::new();
        for root in roots {
            bookmarks_in(root, &titles, &mut found);
        }
        Ok(found)
    }

    async fn bookmark_count(&self) -> BrowserResult<usize> {
        fn count(node: &BookmarkNode) -> usize {
            usize::from(node.url.is_some()) + node.children.iter().map(count).sum::<usize>()
        }
        let roots: Vec<BookmarkNode> = call(bookmarks_get_tree()).await?;
        Ok(roots.iter().map(count).sum())
    }

    async fn find_bookmark_folder(&self, title: &str) -> BrowserResult<Option<String>> {
        let nodes: Vec<BookmarkNode> =
            call(bookmarks_search(&js(json!({ "title": title })))).await?;
        let exact = nodes
            .iter()
            .find(|n| n.kind.as_deref() == Some("folder"))
            .map(|n| n.id.clone());
        if exact.is_some() {
            return Ok(exact);
        }
        // `{title}` matches exactly; fall back to any case.
        let nodes: Vec<BookmarkNode> = call(bookmarks_search(&js(json!(title)))).await?;
        Ok(nodes
            .into_iter()
            .find(|n| n.kind.as_deref() == Some("folder") && n.title.eq_ignore_ascii_case(title))
            .map(|n| n.id))
    }

    async fn create_bookmark_folder(&self, title: &str) -> BrowserResult<String> {
        let node: BookmarkNode = call(bookmarks_create(&js(
            json!({ "title": title, "type": "folder" }),
        )))
        .await?;
        Ok(node.id)
    }

    async fn create_bookmark(
        &self,
        folder_id: Option<&str>,
        title: &str,
        url: &str,
    ) -> BrowserResult<Bookmark> {
        let mut info = json!({ "title": title, "url": url });
        if let Some(f) = folder_id {
            info["parentId"] = json!(f);
        }
        let node: BookmarkNode = call(bookmarks_create(&js(info))).await?;
        let folder = match &node.parent_id {
            Some(p) => {
                let parents: Vec<BookmarkNode> = call(bookmarks_get(&js(json!(p)))).await?;
                parents
                    .into_iter()
                    .next()
                    .map(|f| f.title)
                    .unwrap_or_default()
            }
            None => String::new(),
        };
        Ok(Bookmark {
            id: node.id,
            title: node.title,
            url: node.url.unwrap_or_default(),
            folder,
        })
    }

    async fn remove_bookmark(&self, id: &str) -> BrowserResult<()> {
        run(bookmarks_remove(id)).await
    }

    async fn search_history(&self, q: &HistoryQuery) -> BrowserResult<Vec<HistoryItem>> {
        let mut info = json!({ "text": q.text, "maxResults": q.max_results });
        if let Some(t) = q.start_time {
            info["startTime"] = json!(t);
        }
        if let Some(t) = q.end_time {
            info["endTime"] = json!(t);
        }
        call(history_search(&js(info))).await
    }

    async fn go_back(&self, tab_id: i64) -> BrowserResult<()> {
        run(tabs_go_back(tab_id as f64)).await
    }

    async fn go_forward(&self, tab_id: i64) -> BrowserResult<()> {
        run(tabs_go_forward(tab_id as f64)).await
    }

    async fn run_page_script(&self, tab_id: i64, script: PageScript) -> BrowserResult<f64> {
        // A page still loading may never reach document_end: give up
        // sooner than other calls, and say why.
        let results: Vec<Value> = call_within(
            tabs_execute_script(
                tab_id as f64,
                &js(json!({
                    "code": page_code(script),
                    "runAt": run_at(script),
                    "allFrames": in_all_frames(script),
                })),
            ),
            PAGE_SCRIPT_LIMIT_MS,
        )
        .await
        .map_err(|e| {
            BrowserError(format!(
                "the page did not respond ({e}); it may still be loading"
            ))
        })?;
        if in_all_frames(script) {
            // A frame that could not run it (another origin's sandbox)
            // answers nothing: it had nothing we could reach.
            return Ok(results.iter().filter_map(Value::as_f64).sum());
        }
        results
            .first()
            .and_then(Value::as_f64)
            .ok_or_else(|| BrowserError("the page did not answer".into()))
    }

    async fn read_page(&self, tab_id: i64) -> BrowserResult<PageText> {
        let results: Vec<PageText> = call_within(
            tabs_execute_script(
                tab_id as f64,
                &js(json!({ "code": READ_PAGE, "runAt": "document_end" })),
            ),
            PAGE_SCRIPT_LIMIT_MS,
        )
        .await
        .map_err(|e| BrowserError(format!("the page could not be read ({e})")))?;
        results
            .into_iter()
            .next()
            .ok_or_else(|| BrowserError("the page did not answer".into()))
    }

    async fn zoom(&self, tab_id: i64) -> BrowserResult<f64> {
        call(tabs_get_zoom(tab_id as f64)).await
    }

    async fn set_zoom(&self, tab_id: i64, factor: f64) -> BrowserResult<()> {
        run(tabs_set_zoom(tab_id as f64, factor)).await
    }

    async fn toggle_reader_view(&self, tab_id: i64) -> BrowserResult<()> {
        run(tabs_toggle_reader_mode(tab_id as f64)).await
    }
}
