//! Every failure code is documented where the failure shape is: the README's "Failures"
//! section (for people) and the instructions the server gives a model.

use deskpilot_core::Code;

fn failures_section() -> String {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("\n## Failures")
        .expect("the README has a Failures section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    rest[..end].to_owned()
}

#[test]
fn every_code_is_documented_in_the_readme_and_the_instructions() {
    let section = failures_section();
    let instructions = deskpilot_mcp::instructions();
    for code in Code::ALL {
        let name = format!("`{}`", code.name());
        assert!(section.contains(&name), "README Failures lacks {name}");
        assert!(
            instructions.contains(code.name()),
            "the instructions lack {name}"
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
