//! Properties of the parsers and the renderer, over many generated inputs (proptest; the
//! failures it ever found stay below as plain tests): no input makes a parser panic, a
//! quoted name selects exactly its element, a key chord reads back as written, and whatever
//! an app names an element, the rendered line parses back to that name, on one line, with no
//! ref but its own.

use deskpilot_core::filter::Filter;
use deskpilot_core::model::{ElementId, Node, NodeValue, Role, Tree};
use deskpilot_core::present::parse_tree;
use deskpilot_core::{Chord, Selector, escape, render};
use proptest::prelude::*;

/// Text an app might give: any character, weighted toward the ones that forge output.
fn app_text() -> impl Strategy<Value = String> {
    let hostile = prop::sample::select(vec![
        "\"",
        "\\",
        "[",
        "]",
        "[ref=e1]",
        "\n",
        "\r",
        "\t",
        "\u{202e}",
        "\u{200f}",
        "\u{301}",
        "\u{2028}",
        "\u{0}",
        "\u{1b}[31m",
        " >> ",
        "- button \"OK\"",
        "/",
        "*=",
        "~=",
        ":nth(0)",
    ]);
    prop::collection::vec(
        prop_oneof![3 => any::<char>().prop_map(String::from), 2 => hostile.prop_map(String::from)],
        0..24,
    )
    .prop_map(|parts| parts.concat())
}

/// `text` as a selector's quoted value: `\` and `"` escaped, a newline as `\n`.
fn selector_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn node(role: Role, name: &str) -> Node {
    let mut n = Node::new(ElementId::new(":1.1", "/n"), role);
    n.name = name.to_owned();
    n
}

fn one_node_tree(node: Node) -> Tree {
    let mut tree = Tree::default();
    tree.push(node, None);
    tree
}

proptest! {
    #[test]
    fn no_text_makes_the_selector_parser_panic(text in "\\PC{0,60}") {
        let _ = Selector::parse(&text);
    }

    #[test]
    fn no_selector_shaped_text_makes_it_panic(parts in prop::collection::vec(
        prop::sample::select(vec![
            "button", "*", "[", "]", "name", "=", "*=", "~=", "\"", "\\", "/", "/i", " >> ",
            ":nth(", ")", "1", "!", "checked", "x y", "[name=", "\"a\"", "[!focused]",
        ]),
        0..16,
    )) {
        let _ = Selector::parse(&parts.concat());
    }

    #[test]
    fn a_quoted_name_selects_exactly_that_name(name in app_text(), other in app_text()) {
        let text = format!("button[name={}]", selector_quoted(&name));
        let selector = Selector::parse(&text)
            .map_err(|e| TestCaseError::fail(format!("{text:?}: {}", e.message)))?;
        prop_assert_eq!(selector.steps.len(), 1, "{}", text);
        prop_assert!(selector.steps[0].matches(&node(Role::Button, &name)), "{}", text);
        prop_assert_eq!(
            selector.steps[0].matches(&node(Role::Button, &other)),
            name == other,
            "{} against {:?}", text, other
        );
    }

    #[test]
    fn no_text_makes_the_chord_parser_panic(text in "\\PC{0,24}") {
        let _ = text.parse::<Chord>();
    }

    #[test]
    fn a_chord_reads_back_as_written(
        modifiers in prop::sample::subsequence(vec!["ctrl", "shift", "alt", "super"], 0..=4),
        key in prop_oneof![
            prop::sample::select(vec![
                "Enter", "Tab", "Escape", "BackSpace", "Delete", "Home", "End", "PageUp",
                "PageDown", "Up", "Down", "Left", "Right", "space", "F1", "F12", "Insert",
            ]).prop_map(String::from),
            any::<char>().prop_filter("printable", |c| !c.is_control() && !c.is_whitespace()).prop_map(String::from),
        ],
    ) {
        let written = modifiers.iter().map(|m| format!("{m}+")).collect::<String>() + &key;
        let chord = written.parse::<Chord>()
            .map_err(|e| TestCaseError::fail(format!("{written:?}: {e}")))?;
        let again = chord.to_string().parse::<Chord>()
            .map_err(|e| TestCaseError::fail(format!("{chord} from {written:?}: {e}")))?;
        prop_assert_eq!(again, chord, "{}", written);
    }

    #[test]
    fn escaped_text_stays_on_one_line_and_forges_no_ref(text in app_text()) {
        let escaped = escape(&text, usize::MAX);
        prop_assert!(!escaped.contains('\n') && !escaped.contains('\r'), "{:?}", escaped);
        let separators = escaped.contains('\u{2028}') || escaped.contains('\u{2029}');
        prop_assert!(!separators, "{:?}", escaped);
        let unescaped_brackets = escaped.replace("\\\\", "").replace("\\[", "").replace("\\]", "");
        prop_assert!(!unescaped_brackets.contains('[') && !unescaped_brackets.contains(']'));
    }

    #[test]
    fn a_rendered_line_parses_back_to_its_name_and_value(
        name in app_text(),
        text in app_text(),
        role in prop::sample::select(vec![Role::Button, Role::TextBox, Role::Label, Role::Window]),
    ) {
        let mut node = node(role, &name);
        node.value = Some(NodeValue::Text { text: text.clone() });
        let shown = node.display_name().to_owned();
        let tree = one_node_tree(node);
        let rendered = render(&tree, Filter::All, &|_| Some("e7".to_owned()));
        prop_assert_eq!(rendered.text.lines().count(), 1, "{:?}", rendered.text);
        let lines = parse_tree(&rendered.text)
            .map_err(|e| TestCaseError::fail(format!("{:?}: {e}", rendered.text)))?;
        prop_assert_eq!(lines.len(), 1);
        let line = &lines[0];
        prop_assert_eq!(line.reference.as_deref(), Some("e7"), "{:?}", rendered.text);
        if shown.chars().count() <= 100 {
            prop_assert_eq!(line.name.clone().unwrap_or_default(), shown, "{:?}", rendered.text);
        }
        if !text.is_empty() && text != name && text.chars().count() <= 100 {
            prop_assert_eq!(line.value.as_deref(), Some(text.as_str()), "{:?}", rendered.text);
        }
    }
}
