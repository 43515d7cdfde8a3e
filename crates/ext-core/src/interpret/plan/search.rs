//! Web searches, with a named installed engine or the default one.

use super::{not_found, one_call, Refusal, Step};
use crate::interpret::resolve::View;
use crate::log::Call;
use crate::tools::args::WebSearchArgs;
use crate::tools::ToolCall;

pub fn search(view: &View, query: &str, engine: Option<&str>) -> Result<Step, Refusal> {
    let state = view.state;
    if query.trim().is_empty() {
        return Err(Refusal::invalid("What should I search for?"));
    }
    let mut engine_name = state
        .search_engines
        .iter()
        .find(|e| e.is_default)
        .map(|e| e.name.clone());
    let mut named = None;
    if let Some(e) = engine {
        let found = state
            .search_engines
            .iter()
            .find(|x| x.name.to_lowercase() == e)
            .or_else(|| {
                state
                    .search_engines
                    .iter()
                    .find(|x| x.name.to_lowercase().starts_with(e))
            })
            .or_else(|| {
                state
                    .search_engines
                    .iter()
                    .find(|x| x.name.to_lowercase().replace(' ', "").contains(e))
            });
        match found {
            Some(x) => {
                named = Some(x.name.clone());
                engine_name = Some(x.name.clone());
            }
            None => {
                return Err(not_found(format!(
                    "No search engine called '{e}' is installed. Installed: {}.",
                    state
                        .search_engines
                        .iter()
                        .map(|x| x.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        }
    }
    let reply = match engine_name {
        Some(e) => format!("Searched {e} for '{query}'."),
        None => format!("Searched for '{query}'."),
    };
    Ok(one_call(
        Call::web_search(WebSearchArgs {
            query: query.to_string(),
            engine: named,
        }),
        reply,
        vec![],
    ))
}
