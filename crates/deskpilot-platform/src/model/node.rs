//! One element of an accessibility tree, as read from a backend.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Capabilities, Rect, Role, StateSet};

/// The identity of an element as its backend knows it: its app as the backend names apps, and
/// the element within that app. Two reads of the same element give equal ids; an id never
/// names another element while its app lives.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ElementId {
    /// The application, as its backend names it (a bus name, a process id and start time).
    pub app: String,
    /// The element within it, as its backend names it.
    pub object: String,
}

impl ElementId {
    pub fn new(app: impl Into<String>, object: impl Into<String>) -> Self {
        ElementId {
            app: app.into(),
            object: object.into(),
        }
    }
}

impl std::fmt::Display for ElementId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.app, self.object)
    }
}

/// The value of an element, when it has one. Equal values are the same value: a NaN number
/// equals a NaN (an app that reports NaN has not changed its value by reporting it again).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NodeValue {
    /// The text of an editable or text element.
    Text { text: String },
    /// A number within a range (sliders, spin buttons, progress bars). The bounds and the step
    /// are unknown (`None`) when the app cannot say (Chromium's sliders fail MinimumValue).
    Number {
        current: f64,
        min: Option<f64>,
        max: Option<f64>,
        step: Option<f64>,
    },
    /// A secret: its text was never read from the app; only its length may be known.
    Redacted { chars: Option<u32> },
}

impl PartialEq for NodeValue {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        let same_bound = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => same(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        match (self, other) {
            (NodeValue::Text { text: a }, NodeValue::Text { text: b }) => a == b,
            (
                NodeValue::Number {
                    current,
                    min,
                    max,
                    step,
                },
                NodeValue::Number {
                    current: current2,
                    min: min2,
                    max: max2,
                    step: step2,
                },
            ) => {
                same(*current, *current2)
                    && same_bound(*min, *min2)
                    && same_bound(*max, *max2)
                    && same_bound(*step, *step2)
            }
            (NodeValue::Redacted { chars: a }, NodeValue::Redacted { chars: b }) => a == b,
            _ => false,
        }
    }
}

/// One element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub id: ElementId,
    pub role: Role,
    /// The platform's own role name when `role` is `Unknown` (kept for debugging and selectors).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub raw_role: Option<String>,
    pub name: String,
    /// The name as the toolkit gave it, when `name` is read otherwise (GTK 4.8 says a
    /// button's label twice: "7 7").
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub raw_name: Option<String>,
    /// A name the element does not give itself but that a reader sees: the label that
    /// labels it (LABELLED_BY), or the text of its content (a list row's label). Shown and
    /// matched when `name` is empty; refs are checked against `name` alone.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub derived_name: Option<String>,
    /// The text of a label that stands beside (or above) an element with no name of its own
    /// and no label relation: inferred from the layout, shown as `(label "Name")`, matched by
    /// `[label=...]` only, never by `[name=...]` (docs/selectors.md has the rule).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub value: Option<NodeValue>,
    #[serde(default)]
    pub states: StateSet,
    /// The actions the platform names, in its order (`click`, `press`, `toggle`); empty
    /// where the platform names none.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub actions: Vec<String>,
    /// The element's default action, by the platform's name for it, when it has one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub default_action: Option<String>,
    #[serde(default)]
    pub capabilities: Capabilities,
    /// What the platform itself calls what the element implements (its interfaces or
    /// patterns), for people reading properties; only `Backend::properties` fills it in.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub platform_interfaces: Vec<String>,
    /// Bounds in screen coordinates, when the element has any: none while it is known not to be
    /// showing (what toolkits answer for a hidden element is a leftover or a sentinel).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub bounds: Option<Rect>,
    /// The toolkit's stable id for the element (AT-SPI AccessibleId), when set.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub accessible_id: Option<String>,
    /// The id was not read (a bulk read has none; ids are set on few elements): it is read on
    /// demand when a selector asks for one.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub accessible_id_unread: bool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub attributes: BTreeMap<String, String>,
    /// The number of children the element reports (may be far more than are realized).
    pub child_count: u32,
    /// The element is inside a password field: like the field itself, its text is never read.
    #[serde(skip)]
    pub inside_secret: bool,
}

impl Node {
    /// A node with only identity and role; everything else empty or unknown.
    pub fn new(id: ElementId, role: Role) -> Self {
        Node {
            id,
            role,
            raw_role: None,
            name: String::new(),
            raw_name: None,
            derived_name: None,
            label: None,
            description: String::new(),
            value: None,
            states: StateSet::unknown(),
            actions: Vec::new(),
            default_action: None,
            capabilities: Capabilities::default(),
            platform_interfaces: Vec::new(),
            bounds: None,
            accessible_id: None,
            accessible_id_unread: false,
            attributes: BTreeMap::new(),
            child_count: 0,
            inside_secret: false,
        }
    }

    /// The name a reader sees: the element's own, else the derived one.
    pub fn display_name(&self) -> &str {
        match &self.derived_name {
            Some(derived) if self.name.is_empty() => derived,
            _ => &self.name,
        }
    }

    /// True for a password field or anything inside one: its text must never be read or
    /// matched.
    pub fn is_secret(&self) -> bool {
        self.role == super::Role::Password || self.inside_secret
    }

    /// Whether the element offers this action: by name, or as its default.
    pub fn offers(&self, action: &ActionName) -> bool {
        match action {
            ActionName::Default => self.default_action.is_some(),
            ActionName::Named(name) => {
                self.actions.iter().any(|a| a == name) || self.default_action.as_ref() == Some(name)
            }
        }
    }
}

/// Which of an element's actions to run: its default one, or one the platform names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionName {
    Default,
    Named(String),
}

/// An element's action names for a message, escaped (they come from the app), or `none`.
pub fn action_list(actions: &[String]) -> String {
    if actions.is_empty() {
        return "none".to_owned();
    }
    actions
        .iter()
        .map(|a| crate::escape::escape(a, 40))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod value_tests {
    use super::NodeValue;

    #[test]
    fn a_nan_value_equals_itself_and_nothing_else() {
        let number = |current: f64| NodeValue::Number {
            current,
            min: Some(f64::NEG_INFINITY),
            max: Some(f64::NAN),
            step: None,
        };
        assert_eq!(number(f64::NAN), number(f64::NAN));
        assert_ne!(number(f64::NAN), number(1.0));
        assert_eq!(number(1.0), number(1.0));
        assert_ne!(number(1.0), NodeValue::Text { text: "1".into() });
    }
}
