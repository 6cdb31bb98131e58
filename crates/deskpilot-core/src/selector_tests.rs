//! Selector parsing and matching.

use crate::model::{Capability, ElementId, Node, NodeValue, Role, State, StateSet};
use crate::selector::{Selector, TextMatch};

fn node(role: Role, name: &str) -> Node {
    let mut n = Node::new(ElementId::new(":1.1", format!("/{name}")), role);
    n.name = name.to_owned();
    n.states = StateSet::all_known([State::Enabled]);
    n
}

fn step(text: &str) -> crate::selector::Step {
    let mut s = Selector::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(s.steps.len(), 1);
    s.steps.remove(0)
}

fn parse_error(text: &str) -> String {
    match Selector::parse(text) {
        Ok(s) => panic!("{text:?} parsed: {s:?}"),
        Err(e) => e.message,
    }
}

#[test]
fn role_and_exact_name() {
    let s = step(r#"button[name="Save"]"#);
    assert_eq!(s.role, Some(Role::Button));
    assert!(s.matches(&node(Role::Button, "Save")));
    assert!(!s.matches(&node(Role::Button, "Save as")));
    assert!(!s.matches(&node(Role::Checkbox, "Save")));
}

#[test]
fn contains_is_case_insensitive_and_regex_has_flags() {
    assert!(step("[name*=NOTIF]").matches(&node(Role::Checkbox, "Enable notifications")));
    let re = step("[name~=/^item 0\\d+$/i]");
    assert!(re.matches(&node(Role::Cell, "Item 042")));
    assert!(!re.matches(&node(Role::Cell, "Item x")));
    assert!(matches!(
        step("[name~=\"a.c\"]").name,
        Some(TextMatch::Regex(_))
    ));
}

#[test]
fn states_actions_capabilities() {
    let mut checked = node(Role::Checkbox, "A");
    checked.states.set(State::Checked, true);
    checked.actions = vec!["click".into()];
    checked.capabilities.insert(Capability::Actions);
    assert!(step("checkbox[checked]").matches(&checked));
    assert!(!step("checkbox[!checked]").matches(&checked));
    assert!(step("[action=click][interface=action]").matches(&checked));
    assert!(!step("[action=toggle]").matches(&checked));
    // A capability by its name or by its old interface name.
    assert!(step("[capability=actions]").matches(&checked));
    assert!(!step("[capability=takes_text]").matches(&checked));
    let mut field = node(Role::TextBox, "F");
    field.capabilities.insert(Capability::TakesText);
    assert!(step("[interface=editable_text]").matches(&field));
    assert!(step("[capability=takes_text]").matches(&field));
    assert!(parse_error("[capability=pattern]").contains("unknown capability"));
    // A platform that names only a default action (UI Automation) matches it by that name.
    let mut invokable = node(Role::Button, "I");
    invokable.default_action = Some("Press".into());
    assert!(step("[action=Press]").matches(&invokable));
    // Unknown is neither: [!enabled] does not match an element whose enabled state is unknown.
    let mut unknown = node(Role::Button, "B");
    unknown.states.forget(State::Enabled);
    assert!(!step("[!enabled]").matches(&unknown));
    assert!(!step("[enabled]").matches(&unknown));
}

#[test]
fn secrets_never_match_on_value() {
    let mut password = node(Role::Password, "Password");
    password.value = Some(NodeValue::Redacted { chars: Some(7) });
    assert!(!step("[value*=\"\"]").matches(&password));
    assert!(!step("[value~=/.*/]").matches(&password));
    assert!(step("password[name=Password]").matches(&password));
}

#[test]
fn chained_steps_and_nth() {
    let s = Selector::parse(r#"dialog[name="Confirm"] >> button[name="a >> b"]:nth(1)"#).unwrap();
    assert_eq!(s.steps.len(), 2);
    assert_eq!(s.steps[1].nth, Some(1));
    assert!(s.steps[1].matches(&node(Role::Button, "a >> b")));
}

#[test]
fn escapes_in_quoted_values() {
    let s = step(r#"[name="say \"hi\" \\ [x]"]"#);
    assert!(s.matches(&node(Role::Label, r#"say "hi" \ [x]"#)));
}

#[test]
fn malformed_selectors_are_errors_that_name_the_problem() {
    assert!(parse_error("").contains("empty"));
    assert!(parse_error("buton").contains("unknown role \"buton\""));
    assert!(parse_error("button[nmae=Save]").contains("unknown filter key \"nmae\""));
    assert!(parse_error("button[name=\"Save]").contains("unterminated"));
    assert!(parse_error("button[name=Save").contains("unclosed ["));
    assert!(parse_error("[checkd]").contains("unknown state \"checkd\""));
    assert!(parse_error("[name~=/(/]").contains("invalid regex"));
    assert!(parse_error("button >> ").contains(">>"));
    assert!(parse_error("button:nth(x)").contains("number"));
    assert!(parse_error("button[name=Save][name=Open]").contains("twice"));
    assert!(parse_error("*").contains("no criterion"));
    assert!(parse_error("[disabled]").contains("[!enabled]"));
    assert!(parse_error("[name=two words]").contains("quote"));
}

#[test]
fn contains_ignores_case_in_ascii_and_beyond() {
    let m = |text: &str| Selector::parse(text).unwrap().steps[0].clone();
    let mut node = node(Role::Button, "Save As…");
    assert!(m("button[name*=\"save as\"]").matches(&node));
    assert!(m("button[name*=\"AS…\"]").matches(&node));
    assert!(!m("button[name*=\"saved\"]").matches(&node));
    node.name = "Open File".into();
    assert!(m("button[name*=\"FILE\"]").matches(&node));
    assert!(!m("button[name*=\"files\"]").matches(&node));
    node.name = "ÉCRIRE".into();
    assert!(m("button[name*=\"écri\"]").matches(&node));
    assert!(m("button[name*=\"\"]").matches(&node));
}

/// A label inferred from the layout is matched by `[label=...]` alone, never by a name.
#[test]
fn an_inferred_label_is_matched_by_label_only() {
    let mut field = node(Role::TextBox, "");
    field.label = Some("Name".into());
    assert!(step("textbox[label=Name]").matches(&field));
    assert!(step("[label*=nam]").matches(&field));
    assert!(!step("textbox[name=Name]").matches(&field));
    assert!(!step("textbox[label=Name]").matches(&node(Role::TextBox, "Name")));
}
