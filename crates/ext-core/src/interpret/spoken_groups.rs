//! Tab groups' names as Whisper writes them in spoken commands, turned
//! back into the names: the end of a one-word name runs into "group". And
//! a group's name said without "group", typed or spoken.

use super::parse::color;
use super::sounds::sound_distance;
use crate::tab_state::State;

/// "Make the new group red" for "the news group": the "s" of a one-word
/// group name runs into the "g" of "group", and Whisper writes a word that
/// names no group. "the <word> group", where the word is no group's name
/// but the word with an "s" is, names that group. So does a word that
/// sounds exactly like one group's one-word name ("the Redding group" for
/// the Reading group), where typed it would make a new group. A name's
/// "-ing" goes the same way, as a word of its own or glued to "group":
/// "the red in group", "the red and group", "the red ingroup" for the
/// Reading group.
pub fn group_names(words: &[String], state: &State) -> Vec<String> {
    let titles = group_titles(state);
    let is_group = |name: &str| titles.iter().any(|t| t == name);
    let one_word_title = |name: &str| -> Option<String> {
        if is_group(name) {
            return Some(name.to_string());
        }
        let mut alike = titles
            .iter()
            .filter(|t| !t.contains(' ') && sound_distance(name, t) == Some(0.0));
        let only = alike.next();
        only.filter(|_| alike.next().is_none()).cloned()
    };
    // "make a news group red" for "make the news group red": Whisper
    // often writes a short "the" as "a". Typed, that makes a new group
    // (or adds the tab in front to the one of that name); spoken, a
    // colour for a group that exists is what was said.
    let mut words = std::borrow::Cow::Borrowed(words);
    if let [make, article, name @ .., group, colour] = &*words {
        if make == "make"
            && ["a", "an"].contains(&article.as_str())
            && group == "group"
            && color(colour).is_some()
            && is_group(&name.join(" "))
        {
            words.to_mut()[1] = "the".to_string();
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        out.push(word.clone());
        i += 1;
        if word != "the" {
            continue;
        }
        let next = |k: usize| words.get(i + k).map(String::as_str);
        let Some(name) = next(0) else { break };
        let ending = match (next(1), next(2)) {
            (Some("ingroup" | "ungroup"), _) => Some(2),
            (Some("in" | "and" | "an" | "un"), Some("group")) => Some(3),
            _ => None,
        };
        let ing = ending
            .filter(|_| !is_group(name))
            .and_then(|n| Some((n, one_word_title(&format!("{name}ing"))?)));
        // "the red ink group" for the Reading group: a one-word name heard
        // as two words that, run together, sound exactly like it.
        let split = match (next(1), next(2)) {
            (Some(second), Some("group")) if !is_group(name) => {
                one_word_title(&format!("{name}{second}"))
                    .filter(|_| !is_group(&format!("{name} {second}")))
            }
            _ => None,
        };
        if let Some((taken, title)) = ing {
            out.extend([title, "group".to_string()]);
            i += taken;
        } else if let Some(title) = split {
            out.push(title);
            i += 2;
        } else if next(1) == Some("group") && !is_group(name) {
            let plural = format!("{name}s");
            if is_group(&plural) {
                out.push(plural);
                i += 1;
            } else if let Some(title) = one_word_title(name) {
                out.push(title);
                i += 1;
            }
        }
    }
    out
}

/// The groups' titles as words are compared with them: lower case.
pub fn group_titles(state: &State) -> Vec<String> {
    state
        .groups
        .iter()
        .map(|g| g.title.trim().to_lowercase())
        .collect()
}

/// "add the github tab to docs", "move this tab into news": a clause not
/// understood that puts tabs in a place named like a group that exists,
/// said without "group"; then it is that group ("… to the docs group").
pub fn group_without_the_word(clause: &[String], state: &State) -> Option<Vec<String>> {
    const PUT: &[&str] = &["add", "put", "move", "stick", "place", "throw", "drop"];
    if !PUT.contains(&clause.first()?.as_str()) || clause.iter().any(|w| w == "group") {
        return None;
    }
    let into = clause
        .iter()
        .rposition(|w| ["to", "into", "in", "inside"].contains(&w.as_str()))?;
    let mut name = &clause[into + 1..];
    while let [first, rest @ ..] = name {
        if !["the", "my", "our"].contains(&first.as_str()) {
            break;
        }
        name = rest;
    }
    let said = name.join(" ");
    let exists = state
        .groups
        .iter()
        .any(|g| !said.is_empty() && g.title.trim().eq_ignore_ascii_case(&said));
    exists.then(|| {
        let mut clause = clause.to_vec();
        clause.push("group".into());
        clause
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::text::words;

    fn state(title: &str) -> State {
        serde_json::from_value(serde_json::json!({
            "tabs": [{"id": 1, "windowId": 1, "index": 0, "url": "https://a.example/", "title": "A"}],
            "groups": [{"id": 7, "windowId": 1, "title": title, "color": "blue"}],
        }))
        .unwrap()
    }

    #[test]
    fn a_group_name_that_lost_its_s_is_the_group() {
        let w = |t: &str| group_names(&words(t), &state("News")).join(" ");
        assert_eq!(w("make the new group red"), "make the news group red");
        assert_eq!(
            w("put the github tab in the new group"),
            "put the github tab in the news group"
        );
        assert_eq!(
            w("put this tab in a new group"),
            "put this tab in a new group"
        );
        assert_eq!(w("make the blue group red"), "make the blue group red");
    }

    #[test]
    fn a_colour_for_a_group_heard_with_a_is_for_that_group() {
        let w = |t: &str| group_names(&words(t), &state("News")).join(" ");
        assert_eq!(w("make a news group red"), "make the news group red");
        // No group of that name, no colour, or more words: as heard.
        assert_eq!(w("make a sports group red"), "make a sports group red");
        assert_eq!(w("make a news group"), "make a news group");
        assert_eq!(
            w("make a news group red with this tab"),
            "make a news group red with this tab"
        );
    }

    #[test]
    fn a_word_that_sounds_exactly_like_a_group_is_the_group() {
        let state = state("Reading");
        let w = |t: &str| group_names(&words(t), &state).join(" ");
        assert_eq!(
            w("add the amazon tab to the redding group"),
            "add the amazon tab to the reading group"
        );
        assert_eq!(
            w("collapse the raiding group"),
            "collapse the reading group"
        );
        // Not a word that only sounds somewhat like it, nor "new".
        assert_eq!(w("make the red group blue"), "make the red group blue");
        assert_eq!(
            w("put this tab in the new group"),
            "put this tab in the new group"
        );
        assert_eq!(
            w("collapse the reading group"),
            "collapse the reading group"
        );
    }

    #[test]
    fn a_group_name_whose_ing_ran_into_group_is_the_group() {
        let state = state("Reading");
        let w = |t: &str| group_names(&words(t), &state).join(" ");
        let meant = "rename the reading group to later";
        assert_eq!(w("rename the red ingroup to later"), meant);
        assert_eq!(w("Rename the red ungroup to later"), meant);
        assert_eq!(w("rename the red and group to later"), meant);
        assert_eq!(w("rename the red in group to later"), meant);
        assert_eq!(w("rename the red ink group to later"), meant);
        // No such group, or a name that is a group already: as heard.
        assert_eq!(
            w("rename the blue in group to later"),
            "rename the blue in group to later"
        );
        let news = state_named("Reading", "Red");
        assert_eq!(
            group_names(&words("mute the red and group the rest"), &news).join(" "),
            "mute the red and group the rest"
        );
    }

    fn state_named(a: &str, b: &str) -> State {
        let mut s = state(a);
        let mut other = s.groups[0].clone();
        other.id = 8;
        other.title = b.into();
        s.groups.push(other);
        s
    }
}
