//! Typed commands through the offline interpreter, on real tabs in real
//! Firefox. Every host name resolves to the local page server
//! (`network.dns.forceResolve`), so "youtube" is a real youtube.com tab
//! and nothing leaves this machine.

use crate::util::*;
use serde_json::{json, Value};
use tab_whisperer::harness::layouts::api;
use tab_whisperer::wait_for;

fn say(env: &Env, text: &str) -> Value {
    let answer = env.ff.command(text).expect("the background answers");
    assert_eq!(answer["ok"], true, "'{text}' → {answer}");
    answer
}

fn by_title(env: &Env, title: &str) -> Value {
    env.tabs()
        .into_iter()
        .find(|t| t["title"] == title)
        .unwrap_or_else(|| panic!("a tab titled {title}"))
}

#[test]
fn everyday_commands_change_real_tabs() {
    let env = start();
    let sites = [
        ("mail.google.com", "inbox", "Inbox - Gmail"),
        ("www.youtube.com", "cats", "Cats - YouTube"),
        ("www.youtube.com", "dogs", "Dogs - YouTube"),
        ("app.slack.com", "general", "general - Slack"),
        ("jira.acme.com", "board", "Sprint board - Jira"),
        ("confluence.acme.com", "design", "Design doc - Confluence"),
        ("www.reddit.com", "rust", "r/rust - Reddit"),
        ("www.kayak.com", "flights", "Flights to Paris - KAYAK"),
    ];
    let mut ids = Vec::new();
    for (host, slug, title) in sites {
        let r = env.ok(
            "create_tab",
            json!({ "url": env.on_host(host, slug, title), "active": false }),
        );
        ids.push(r["result"]["tab"]["id"].as_i64().unwrap());
    }
    let titles: Vec<&str> = sites.iter().map(|s| s.2).collect();
    env.wait_titles(&ids, &titles);
    let window = env.tab(ids[0])["windowId"].as_i64().unwrap();
    let count = env.tabs().len();

    // 0. tabs opened a moment ago, even in the background and never
    // selected, are not "unused for a day"
    let r = env
        .ff
        .command("close the tabs I haven't used in a day")
        .unwrap();
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    assert_eq!(env.tabs().len(), count);
    // 1. how many
    let r = say(&env, "how many tabs are open");
    assert!(
        r["reply"]
            .as_str()
            .unwrap()
            .contains(&format!("{count} tabs")),
        "{r}"
    );
    // 2. switch by site name, as speech recognition writes it
    say(&env, "hey fox, switch to slack please");
    assert_eq!(env.active_tab(window)["title"], "general - Slack");
    // 3. by position
    say(&env, "go to the second tab");
    assert_eq!(env.active_tab(window)["index"], 1);
    // 4. next
    say(&env, "next tab");
    assert_eq!(env.active_tab(window)["index"], 2);
    // 5-6. pin and unpin this
    say(&env, "pin this");
    let active = env.active_tab(window);
    assert_eq!(active["pinned"], true);
    say(&env, "unpin this");
    assert_eq!(env.tab(active["id"].as_i64().unwrap())["pinned"], false);
    // 7-8. mute all but this one, then unmute everything
    say(&env, "switch to gmail");
    say(&env, "mute all but this one");
    let tabs = env.tabs();
    assert!(
        tabs.iter()
            .all(|t| (t["title"] == "Inbox - Gmail") != (t["muted"] == true)),
        "{tabs:?}"
    );
    say(&env, "unmute everything");
    assert!(env.tabs().iter().all(|t| t["muted"] == false));
    // 9-13. a group, recolored, renamed, folded, unfolded
    say(
        &env,
        "put my jira and confluence tabs in a group called Sprint",
    );
    let groups = env.ok("list_groups", json!({}))["result"]["groups"].clone();
    assert_eq!(groups[0]["title"], "Sprint", "{groups}");
    assert_eq!(id_list(&groups[0]["tabIds"]), [ids[4], ids[5]]);
    say(&env, "make the sprint group purple");
    say(&env, "call the sprint group Work");
    say(&env, "fold the work group");
    let g = env.ok("list_groups", json!({}))["result"]["groups"][0].clone();
    assert_eq!(
        (
            g["title"].clone(),
            g["color"].clone(),
            g["collapsed"].clone()
        ),
        (json!("Work"), json!("purple"), json!(true))
    );
    say(&env, "expand the work group");
    assert_eq!(
        env.ok("list_groups", json!({}))["result"]["groups"][0]["collapsed"],
        false
    );
    // 14. a new group from a title word
    say(&env, "make a green group named Travel with the flights tab");
    let travel = env.ok("list_groups", json!({}))["result"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["title"] == "Travel")
        .cloned()
        .expect("a Travel group");
    assert_eq!(travel["color"], "green");
    assert_eq!(id_list(&travel["tabIds"]), [ids[7]]);
    // 15. ungroup all
    say(&env, "ungroup all");
    assert_eq!(env.ok("list_groups", json!({}))["result"]["count"], 0);
    // 16. group by site
    say(&env, "group my tabs by site");
    let groups = env.ok("list_groups", json!({}))["result"]["groups"].clone();
    let youtube = groups
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["title"] == "YouTube")
        .expect("a YouTube group");
    assert_eq!(id_list(&youtube["tabIds"]), [ids[1], ids[2]]);
    say(&env, "ungroup all");
    // 17-18. close a site, then undo
    say(&env, "close every reddit tab");
    assert!(env.tabs().iter().all(|t| t["id"] != ids[6]));
    say(&env, "undo that");
    env.wait_for_title("r/rust - Reddit");
    // 18b. "reopen" brings back the tab closed last, and keeps the
    // change made after it
    say(&env, "close every reddit tab");
    say(&env, "mute the slack tab");
    say(&env, "reopen the tab I just closed");
    env.wait_for_title("r/rust - Reddit");
    assert_eq!(by_title(&env, "general - Slack")["muted"], true);
    say(&env, "unmute everything");
    // 18c. back to the tab used before
    say(&env, "switch to gmail");
    say(&env, "switch to slack");
    say(&env, "go back to the tab I was on");
    assert_eq!(env.active_tab(window)["title"], "Inbox - Gmail");
    // 18d. a tab into a window of its own, and back on undo
    say(&env, "move the flights tab to a new window");
    let flights = by_title(&env, "Flights to Paris - KAYAK");
    assert_ne!(flights["windowId"], window, "{flights}");
    say(&env, "undo");
    assert_eq!(
        by_title(&env, "Flights to Paris - KAYAK")["windowId"],
        window
    );
    // 18e. beside a tab, as one block in order, then back
    say(&env, "move the youtube tabs after reddit");
    let strip: Vec<String> = env
        .tabs()
        .iter()
        .filter(|t| t["windowId"] == window)
        .map(|t| t["title"].as_str().unwrap_or_default().to_string())
        .collect();
    let reddit = strip.iter().position(|t| t == "r/rust - Reddit").unwrap();
    assert_eq!(
        strip[reddit + 1..reddit + 3],
        ["Cats - YouTube", "Dogs - YouTube"],
        "{strip:?}"
    );
    say(&env, "undo");
    // 18f. scattered tabs of a site put together after the first of them
    say(&env, "move the dogs video to the end");
    let strip = |env: &Env| -> Vec<String> {
        env.tabs()
            .iter()
            .filter(|t| t["windowId"] == window)
            .map(|t| t["title"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(strip(&env).last().unwrap(), "Dogs - YouTube");
    say(&env, "put the youtube tabs together");
    let after = strip(&env);
    let cats = after.iter().position(|t| t == "Cats - YouTube").unwrap();
    assert_eq!(after[cats + 1], "Dogs - YouTube", "{after:?}");
    say(&env, "undo");
    say(&env, "undo");
    // 19. ambiguity and no match do nothing
    let r = env.ff.command("close netflix").unwrap();
    assert_eq!(r["ok"], false);
    assert_eq!(r["error"]["code"], "NOT_FOUND");
    assert_eq!(env.tabs().len(), count);
    // 20. close duplicate tabs
    env.ok("create_tab", json!({ "url": env.on_host("app.slack.com", "general", "general - Slack"), "active": false }));
    wait_for(LOAD, "the copy to load", || {
        Ok((env
            .tabs()
            .iter()
            .filter(|t| t["title"] == "general - Slack")
            .count()
            == 2)
            .then_some(()))
    })
    .unwrap();
    say(&env, "close duplicate tabs");
    assert_eq!(
        env.tabs()
            .iter()
            .filter(|t| t["title"] == "general - Slack")
            .count(),
        1
    );
    // 21. a compound command: close youtube and mute the rest
    say(&env, "close youtube and mute the rest");
    let tabs = env.tabs();
    assert!(tabs
        .iter()
        .all(|t| !t["title"].as_str().unwrap().contains("YouTube")));
    assert!(tabs.iter().all(|t| t["muted"] == true), "{tabs:?}");
    say(&env, "unmute all");
    // 22. open a site by address
    let before = env.tabs().len();
    say(&env, "open bbc.co.uk");
    assert_eq!(env.tabs().len(), before + 1);
    // 23. bookmark this in a folder, then find it
    say(&env, "switch to the flights tab");
    say(&env, "bookmark this in Reading");
    let r = say(&env, "show bookmarks about paris");
    assert!(
        r["reply"].as_str().unwrap().contains("Flights to Paris"),
        "{r}"
    );
    // 24. web search with a named engine opens a results tab
    let engines = env.ok("list_search_engines", json!({}))["result"]["engines"].clone();
    let engine = engines.as_array().unwrap().last().unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    let first_word = engine.split_whitespace().next().unwrap().to_lowercase();
    let r = say(&env, &format!("search {first_word} for quokka habitat"));
    assert_eq!(r["calls"][0]["result"]["engine"], engine.as_str(), "{r}");
    // 25. close tabs two and three by position
    let in_window: Vec<Value> = env
        .tabs()
        .into_iter()
        .filter(|t| t["windowId"] == window)
        .collect();
    let (second, third) = (in_window[1]["id"].clone(), in_window[2]["id"].clone());
    say(&env, "close tabs two and three");
    assert!(env
        .tabs()
        .iter()
        .all(|t| t["id"] != second && t["id"] != third));
    // 26. by title word
    let jira = by_title(&env, "Sprint board - Jira")["id"]
        .as_i64()
        .unwrap();
    say(&env, "get rid of the sprint board tab");
    assert!(env.tabs().iter().all(|t| t["id"] != jira));
}

#[test]
fn risky_commands_ask_first_and_anything_else_cancels() {
    let env = start();
    let titles: Vec<String> = (1..=12).map(|i| format!("Article {i}")).collect();
    let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
    env.open(&refs);
    let count = env.tabs().len();

    let r = say(&env, "close all tabs");
    assert_eq!(r["needs_confirmation"], true, "{r}");
    assert!(r["question"].as_str().unwrap().contains("Say yes"), "{r}");
    assert_eq!(env.tabs().len(), count, "nothing closed before yes");
    let r = say(&env, "no");
    assert_eq!(r["cancelled"], true);
    assert_eq!(env.tabs().len(), count);
    let r = env.ff.command("yes").unwrap();
    assert_eq!(r["ok"], false, "{r}");
    assert!(
        r["reply"].as_str().unwrap().contains("nothing to confirm"),
        "{r}"
    );
    assert_eq!(
        env.tabs().len(),
        count,
        "yes without a question does nothing"
    );

    say(&env, "close all tabs");
    let r = say(&env, "yes");
    assert!(r["undo_id"].is_string(), "{r}");
    assert_eq!(env.tabs().len(), 1, "one tab always stays in the window");
    say(&env, "undo");
    wait_for(LOAD, "all tabs back", || {
        Ok((env.tabs().len() == count).then_some(()))
    })
    .unwrap();
}

#[test]
fn browsing_by_voice_on_the_active_tab() {
    let env = start();
    let url = env.pages.long_page("Long read");
    env.open_active(&url, "Long read");
    let y = || {
        env.ff
            .page_eval("/long", "return window.scrollY;")
            .unwrap()
            .as_f64()
            .unwrap()
    };
    say(&env, "scroll down");
    assert_eq!(y(), 400.0);
    say(&env, "scroll down a lot");
    assert!(y() > 1000.0);
    say(&env, "go to the top");
    assert_eq!(y(), 0.0);
    say(&env, "page down");
    assert!(y() > 0.0);
    say(&env, "zoom in");
    say(&env, "zoom in");
    let r = say(&env, "reset zoom");
    assert_eq!(r["calls"][0]["result"]["zoom"], 1.0, "{r}");
}

#[test]
fn these_tabs_are_the_ones_selected_together() {
    let env = start();
    let ids = env.open(&["Alpha notes", "Beta notes", "Gamma notes", "Delta notes"]);
    // Select Beta, then Ctrl-click Gamma, as a person would.
    let window = env.tab(ids[1])["windowId"].clone();
    let index = |id: i64| env.tab(id)["index"].clone();
    api(
        &env.ff,
        "await browser.tabs.highlight({ windowId: args[0], tabs: [args[1], args[2]] });",
        json!([window, index(ids[1]), index(ids[2])]),
    )
    .expect("tabs selected");
    wait_for(LOAD, "the selection", || {
        let selected: Vec<i64> = env
            .tabs()
            .iter()
            .filter(|t| t["highlighted"] == true)
            .filter_map(|t| t["id"].as_i64())
            .collect();
        Ok((selected == [ids[1], ids[2]]).then_some(()))
    })
    .unwrap();

    let r = say(&env, "group these tabs as notes");
    assert_eq!(r["reply"], "Grouped 2 tabs as 'Notes'.", "{r}");
    let grouped = |id: i64| env.tab(id)["groupId"].as_i64().unwrap_or(-1) >= 0;
    assert!(grouped(ids[1]) && grouped(ids[2]), "{r}");
    assert!(!grouped(ids[0]) && !grouped(ids[3]), "{r}");
}

#[test]
fn sorting_tabs_by_title_and_undoing_it() {
    let env = start();
    let titles = ["Delta notes", "Alpha notes", "Charlie notes", "Bravo notes"];
    let ids = env.open(&titles);
    let order = || -> Vec<i64> {
        let mut mine: Vec<Value> = env
            .tabs()
            .into_iter()
            .filter(|t| ids.contains(&t["id"].as_i64().unwrap_or(-1)))
            .collect();
        mine.sort_by_key(|t| t["index"].as_i64());
        mine.iter().filter_map(|t| t["id"].as_i64()).collect()
    };
    assert_eq!(order(), ids);

    let r = say(&env, "sort my tabs alphabetically");
    assert!(r["reply"].as_str().unwrap().contains("by title"), "{r}");
    assert_eq!(order(), [ids[1], ids[3], ids[2], ids[0]], "{r}");
    // Said again, nothing moves.
    let r = say(&env, "sort the tabs by title");
    assert!(
        r["reply"].as_str().unwrap().contains("already in order"),
        "{r}"
    );

    env.undo();
    assert_eq!(order(), ids);
}

#[test]
fn opening_in_a_new_window_and_undoing_it() {
    let env = start();
    let url = env.on_host("www.youtube.com", "cats", "Cats - YouTube");
    let cats = env.open_active(&url, "Cats - YouTube");
    let home = env.tab(cats)["windowId"].as_i64().unwrap();
    let window_ids = || -> Vec<i64> {
        let windows = env.windows().expect("windows.getAll");
        windows.iter().filter_map(|w| w["id"].as_i64()).collect()
    };
    let before = window_ids();
    let tabs_in = |window: i64| -> Vec<Value> {
        env.tabs()
            .into_iter()
            .filter(|t| t["windowId"] == window)
            .collect()
    };

    // A site opens in a window of its own, even with the site open here.
    let r = say(&env, "open youtube in a new window");
    assert!(r["reply"].as_str().unwrap().contains("new window"), "{r}");
    let now = window_ids();
    let opened: Vec<i64> = now.into_iter().filter(|w| !before.contains(w)).collect();
    assert_eq!(opened.len(), 1, "one new window: {r}");
    let there = tabs_in(opened[0]);
    assert_eq!(there.len(), 1, "{there:?}");
    assert!(
        there[0]["url"].as_str().unwrap().contains("youtube.com"),
        "{there:?}"
    );
    assert_eq!(env.tab(cats)["windowId"], home, "the open tab stays");
    env.undo();
    wait_for(LOAD, "the new window to close", || {
        Ok((window_ids() == before).then_some(()))
    })
    .unwrap();

    // An open tab named so moves there itself; undo brings it back.
    let index = env.tab(cats)["index"].clone();
    say(&env, "open the cats tab in a new window");
    let moved = env.tab(cats)["windowId"].as_i64().unwrap();
    assert!(!before.contains(&moved), "{moved}");
    assert_eq!(tabs_in(moved).len(), 1);
    env.undo();
    wait_for(LOAD, "the tab back in its window", || {
        let tab = env.tab(cats);
        Ok((tab["windowId"] == home && tab["index"] == index).then_some(()))
    })
    .unwrap();
    assert_eq!(window_ids(), before);
}

#[test]
fn questions_change_nothing_and_a_closed_page_comes_back_from_history() {
    let env = start();
    let spec_url = env.on_host("www.w3.org", "webgpu-spec", "WebGPU specification");
    let spec = env.open_active(&spec_url, "WebGPU specification");
    let inbox_url = env.on_host("mail.google.com", "inbox", "Inbox - Gmail");
    let inbox = env.open_active(&inbox_url, "Inbox - Gmail");
    let reply = |r: &Value| r["reply"].as_str().unwrap_or_default().to_string();

    // Questions answer from the tabs and leave them as they are ("is gmail
    // open" used to switch to it).
    say(&env, "switch to the webgpu tab");
    // What a question could change (not what a page does while loading).
    let layout = || -> Vec<String> {
        env.tabs()
            .iter()
            .map(|t| {
                format!(
                    "{} {} {} {} {}",
                    t["id"], t["windowId"], t["index"], t["active"], t["url"]
                )
            })
            .collect()
    };
    let before = layout();
    let r = say(&env, "is gmail open");
    assert!(reply(&r).starts_with("Yes, 'Inbox - Gmail' is open"), "{r}");
    let r = say(&env, "when did I last use gmail");
    assert!(
        reply(&r).starts_with("You last used 'Inbox - Gmail'"),
        "{r}"
    );
    let r = say(&env, "is the jira tab open");
    assert_eq!(reply(&r), "No, no Jira tab is open.", "{r}");
    assert_eq!(layout(), before, "questions change no tab");
    assert_eq!(env.tab(spec)["active"], true);
    assert_eq!(env.tab(inbox)["active"], false);

    // A page closed a moment ago comes back from Firefox's history.
    env.ok("close_tabs", json!({ "tabIds": [spec] }));
    let r = say(&env, "open the page about webgpu I read today");
    assert!(
        reply(&r).contains("'WebGPU specification' from your history"),
        "{r}"
    );
    let reopened = wait_for(LOAD, "the page open again", || {
        Ok(env
            .tabs()
            .into_iter()
            .find(|t| t["url"] == spec_url.as_str())
            .and_then(|t| t["id"].as_i64()))
    })
    .unwrap();
    assert_ne!(reopened, spec, "a new tab");
    env.undo();
    wait_for(LOAD, "undo to close it", || {
        Ok((!env.tabs().iter().any(|t| t["id"] == reopened)).then_some(()))
    })
    .unwrap();
}

/// "open github.com and pin it", "group alpha and bravo as work and
/// collapse it", "move alpha to a new window and move bravo there too":
/// the later clause is planned for the ids an in-memory
/// simulation gave the tab or group the first made. Firefox gives its own
/// (with a tab closed just before, its next tab id is not the one
/// simulated; a group's id is a timestamp; a group moved whole is made
/// again), and the later clause must still reach what was made, and
/// nothing else.
#[test]
fn what_a_command_makes_is_what_its_later_clauses_act_on() {
    let env = start();
    let ids = env.open(&["Alpha", "Bravo", "Charlie"]);
    env.ok("close_tabs", json!({ "tabIds": [ids[2]] }));
    let before = env.tabs();
    let r = say(&env, "open github.com and pin it");
    let opened: Vec<Value> = (env.tabs().into_iter())
        .filter(|t| before.iter().all(|b| b["id"] != t["id"]))
        .collect();
    assert_eq!(opened.len(), 1, "{r}");
    assert_eq!(opened[0]["pinned"], true, "{r}");
    for t in &before {
        assert_eq!(
            env.tab(t["id"].as_i64().unwrap())["pinned"],
            t["pinned"],
            "{r}"
        );
    }
    env.undo();
    let after: Vec<Value> = env.tabs();
    assert_eq!(after.len(), before.len(), "undo closes it: {after:?}");

    let work = |env: &Env| -> Value {
        let listed = env.ok("list_groups", json!({}))["result"]["groups"].clone();
        (listed.as_array().unwrap().iter())
            .find(|g| g["title"] == "Work")
            .cloned()
            .unwrap_or_default()
    };
    let r = say(&env, "group alpha and bravo as work and collapse it");
    let group = work(&env);
    assert_eq!(id_list(&group["tabIds"]), [ids[0], ids[1]], "{r}");
    assert_eq!(group["collapsed"], true, "{r}");
    let r = say(&env, "move the work group to the start and expand it");
    let group = work(&env);
    assert_eq!(id_list(&group["tabIds"]), [ids[0], ids[1]], "{r}");
    assert_eq!(group["collapsed"], false, "{r}");
    assert_eq!(env.tab(ids[0])["index"], 0, "{r}");

    // A window made by the first clause is where "there" is.
    let home = env.tab(ids[1])["windowId"].clone();
    let r = say(&env, "move alpha to a new window and move bravo there too");
    let window = env.tab(ids[0])["windowId"].clone();
    assert_ne!(window, home, "{r}");
    assert_eq!(env.tab(ids[1])["windowId"], window, "{r}");
}
