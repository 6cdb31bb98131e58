//! One raw element to a model node: role, states, capabilities, a number's value, ids and
//! attributes. A text value is never mapped here: the walk fetches values afterwards, where
//! no secret is (`ValueAdmission`).

use deskpilot_platform::model::{Capabilities, Capability, ElementId, Node, NodeValue, Role};

use crate::identity::element_id;
use crate::ids::control as ct;
use crate::raw::{Pattern, RawElement};

/// `raw` as a node of app `app`. A password field's value shows as redacted, unread.
pub fn node(raw: &RawElement, app: &str) -> Node {
    let (role, raw_role) = super::role::role(raw);
    let mut node = Node::new(element_id(app, &raw.key), role);
    node.raw_role = raw_role;
    node.name = raw.name.clone();
    node.description = raw.help_text.clone().unwrap_or_default();
    node.states = super::state::states(raw, role);
    node.default_action = raw.default_action.clone().filter(|a| !a.is_empty());
    node.capabilities = capabilities(raw);
    node.bounds = raw.bounds.filter(|b| !b.is_empty());
    node.accessible_id = raw.automation_id.clone().filter(|id| !id.is_empty());
    node.value = match raw.range {
        Some(range) if raw.has(Pattern::RangeValue) => Some(NodeValue::Number {
            current: range.value,
            min: range.minimum.filter(|n| n.is_finite()),
            max: range.maximum.filter(|n| n.is_finite()),
            step: range.small_change.filter(|n| n.is_finite() && *n > 0.0),
        }),
        _ if role == Role::Password => Some(NodeValue::Redacted { chars: None }),
        _ => None,
    };
    for (key, value) in [
        ("class", &raw.class_name),
        ("framework", &raw.framework),
        ("aria-role", &raw.aria_role),
    ] {
        if let Some(value) = value.as_ref().filter(|v| !v.is_empty()) {
            node.attributes.insert(key.to_owned(), value.clone());
        }
    }
    if let Some(hwnd) = raw.hwnd.filter(|h| *h != 0) {
        node.attributes.insert("hwnd".into(), format!("{hwnd:#x}"));
    }
    node
}

/// The capabilities `raw`'s patterns and control type give.
pub fn capabilities(raw: &RawElement) -> Capabilities {
    let mut caps = Capabilities::default();
    let mut add = |on: bool, capability| {
        if on {
            caps.insert(capability);
        }
    };
    add(raw.bounds.is_some(), Capability::Bounds);
    add(
        raw.has(Pattern::Invoke)
            || raw.has(Pattern::Toggle)
            || raw.has(Pattern::ExpandCollapse)
            || raw.has(Pattern::SelectionItem)
            || raw.default_action.as_ref().is_some_and(|a| !a.is_empty()),
        Capability::Actions,
    );
    add(raw.has(Pattern::Text), Capability::Text);
    add(
        raw.has(Pattern::Value) && raw.read_only != Some(true),
        Capability::TakesText,
    );
    add(raw.has(Pattern::RangeValue), Capability::Number);
    add(raw.has(Pattern::Selection), Capability::SelectableChildren);
    add(
        raw.has(Pattern::Grid) || raw.has(Pattern::Table),
        Capability::Table,
    );
    add(
        raw.has(Pattern::GridItem) || raw.has(Pattern::TableItem),
        Capability::TableCell,
    );
    add(raw.control_type == ct::IMAGE, Capability::Image);
    add(raw.control_type == ct::DOCUMENT, Capability::Document);
    add(raw.control_type == ct::HYPERLINK, Capability::Link);
    caps
}

/// The patterns by UIA's names: what `get_properties` shows as the platform's own.
pub fn pattern_names(raw: &RawElement) -> Vec<String> {
    raw.patterns.iter().map(|p| p.name().to_owned()).collect()
}

/// The id of `raw` in `app`.
pub fn id_of(raw: &RawElement, app: &str) -> ElementId {
    element_id(app, &raw.key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raw::{Range, RuntimeKey};
    use deskpilot_platform::model::Rect;

    /// Patterns become neutral capabilities; a read-only value takes no text.
    #[test]
    fn patterns_become_capabilities() {
        let mut raw = RawElement {
            key: RuntimeKey(vec![42, 7]),
            control_type: ct::EDIT,
            patterns: [Pattern::Value, Pattern::Text].into_iter().collect(),
            read_only: Some(false),
            bounds: Some(Rect::new(-1920, 10, 300, 20)),
            ..RawElement::default()
        };
        let caps = capabilities(&raw);
        assert!(caps.contains(Capability::TakesText) && caps.contains(Capability::Text));
        assert!(caps.contains(Capability::Bounds) && !caps.contains(Capability::Actions));
        raw.read_only = Some(true);
        assert!(!capabilities(&raw).contains(Capability::TakesText));
        assert_eq!(pattern_names(&raw), ["Value", "Text"]);
    }

    /// A node carries no named action; a password field's value is redacted, never read; a
    /// range's non-finite bounds are unknown.
    #[test]
    fn nodes_name_no_action_and_redact_passwords() {
        let password = RawElement {
            control_type: ct::EDIT,
            password: Some(true),
            patterns: [Pattern::Value].into_iter().collect(),
            default_action: Some("Press".into()),
            automation_id: Some("pw".into()),
            ..RawElement::default()
        };
        let node = node(&password, "w:1:2");
        assert_eq!(node.role, Role::Password);
        assert!(node.actions.is_empty());
        assert_eq!(node.default_action.as_deref(), Some("Press"));
        assert_eq!(node.value, Some(NodeValue::Redacted { chars: None }));
        assert_eq!(node.accessible_id.as_deref(), Some("pw"));
        let slider = RawElement {
            control_type: ct::SLIDER,
            patterns: [Pattern::RangeValue].into_iter().collect(),
            range: Some(Range {
                value: 3.0,
                minimum: Some(0.0),
                maximum: Some(f64::INFINITY),
                small_change: Some(f64::NAN),
            }),
            ..RawElement::default()
        };
        assert_eq!(
            super::node(&slider, "w:1:2").value,
            Some(NodeValue::Number {
                current: 3.0,
                min: Some(0.0),
                max: None,
                step: None
            })
        );
    }
}
