//! Writing selector text from a locator's parts: values quoted as the grammar wants.

/// `text` as a quoted selector value (`"..."` with `\"`, `\\` and `\n` escaped).
///
/// ```no_run
/// # fn demo(app: deskpilot_test::App) {
/// // What `App::get_by_name` and `Locator::name` write:
/// assert_eq!(app.get_by_name(r#"Save "draft""#).selector(), r#"*[name="Save \"draft\""]"#);
/// # }
/// ```
pub fn quote(text: &str) -> String {
    deskpilot_core::selector::quote(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskpilot_core::Selector;

    #[test]
    fn quoted_values_parse_back_to_themselves() {
        for text in [
            "Save",
            "Save \"as\"",
            "a\\b",
            "two\nlines",
            "[ref=e1]",
            "Zoë 😀",
        ] {
            let selector = Selector::parse(&format!("button[name={}]", quote(text))).unwrap();
            let mut node = deskpilot_core::model::Node::new(
                deskpilot_core::model::ElementId::new(":1.1", "/b"),
                deskpilot_core::model::Role::Button,
            );
            node.name = text.to_owned();
            let tree = deskpilot_core::model::Tree {
                nodes: vec![deskpilot_core::model::TreeNode {
                    node,
                    parent: None,
                    children: Vec::new(),
                    depth: 0,
                    realization: deskpilot_core::model::Realization::Complete,
                }],
                ..Default::default()
            };
            assert_eq!(selector.select(&tree).len(), 1, "{text:?}");
        }
    }
}
