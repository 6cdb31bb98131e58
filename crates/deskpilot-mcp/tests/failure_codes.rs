//! Every failure code is documented where the failure shape is: `docs/failures.md` (for
//! people) and the instructions the server gives a model.

use deskpilot_core::Code;

const FAILURES: &str = include_str!("../../../docs/failures.md");

#[test]
fn every_code_is_documented_in_the_failures_doc_and_the_instructions() {
    let instructions = deskpilot_mcp::instructions();
    for code in Code::ALL {
        let row = format!("| `{}` |", code.name());
        assert!(
            FAILURES.contains(&row),
            "docs/failures.md lacks a row {row}"
        );
        assert!(
            instructions.contains(code.name()),
            "the instructions lack `{}`",
            code.name()
        );
    }
}

#[test]
fn the_list_of_codes_is_complete() {
    // Every variant appears in Code::ALL once: a code added to the enum but not to the list
    // would go undocumented.
    let names: std::collections::HashSet<&str> = Code::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(names.len(), Code::ALL.len());
    let source = include_str!("../../deskpilot-core/src/error.rs");
    let enum_body = &source[source.find("pub enum Code {").unwrap()..];
    let enum_body = &enum_body[..enum_body.find("\n}").unwrap()];
    let variants = enum_body
        .lines()
        .map(str::trim)
        .filter(|l| l.ends_with(',') && !l.starts_with("//"))
        .count();
    assert_eq!(
        variants,
        Code::ALL.len(),
        "a Code variant is missing from Code::ALL"
    );
}
