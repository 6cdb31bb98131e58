//! Reading one node: two pipelined rounds of calls (identity first, then what its interfaces
//! allow), never asking an element for an interface it lacks.

use deskpilot_platform::model::{Capability, ElementId, Node, NodeValue, Rect, Role, State};

use crate::mapping::{StateReporting, map_interfaces, map_role, map_states};
use crate::proto::{ActionList, Proto, prop_f64, prop_i32, prop_string};

/// The most text read for a node's value in a snapshot.
const MAX_VALUE_CHARS: i32 = 1000;

/// What is known about the app a node belongs to, that changes how its nodes are read.
#[derive(Debug, Clone, Copy, Default)]
pub struct AppTraits {
    pub reporting: StateReporting,
    /// GTK 4.8 answers `GetExtents(SCREEN)` relative to the window: add the window's origin.
    pub window_relative_extents: bool,
    pub pid: Option<u32>,
    /// The app's bridge answers `Properties.GetAll` (ATK-based bridges do; Qt's crashes).
    pub bulk_properties: bool,
    /// GTK 4.8 names unnamed widgets after their class ("GtkButton"): such names are no names.
    pub class_names_as_names: bool,
    /// The bridge sends an event for every name, state and property change: ATK's bridge (GTK
    /// 3, LibreOffice's GTK 3 plugin), GTK 4 but for scrolls, Gecko and Chromium but for
    /// layouts (`layout.rs`). What was read of a quiet app can be reused, and patched where
    /// events named something.
    pub complete_events: bool,
    /// GTK 4 and Qt send no event when an area scrolls: a kept tree's scrolled content is
    /// asked where it is at every reuse (`scrolls.rs`).
    pub silent_scrolls: SilentScrolls,
    /// Qt rebuilds a list, or gives a cell new text, with no event: each item view's items
    /// are listed and named again at every reuse of a kept tree (`rebuilds.rs`).
    pub silent_rebuilds: bool,
    /// Qt changes a window's title, a tab bar's name, a menu item's states and a container's
    /// children with no event: they are asked again at each reuse (`unannounced.rs`).
    pub silent_changes: bool,
    /// Qt's events name a menu that shows, not its items, which show with it: a patch walks
    /// each element its events named whole (`patch.rs`).
    pub silent_descendants: bool,
    /// How the app's action names may be asked.
    pub action_list: ActionList,
    /// Gecko: text offsets count UTF-16 units, and the text it gives marks the second unit of
    /// each character outside the Basic Multilingual Plane with a U+FEFF, which is no text.
    pub marks_surrogates: bool,
    /// The toolkit runs a menu item's handler inside the action call (GTK 3: the item's
    /// `activate-current`): a modal dialog it opens (gtk_dialog_run) holds the reply, and the
    /// bridge answers nothing else until the dialog closes.
    pub menu_actions_block: bool,
    /// Gecko answers `EditableText` calls on its text fields with success and does nothing
    /// (its callbacks return early for text roles): the interface is not offered.
    pub inert_editable_text: bool,
    /// Gecko selects a web page's option through `Selection` without the page's `change`
    /// event (its handlers never run), and the option's own "select" action does nothing.
    pub silent_option_selection: bool,
    /// GTK 4 before 4.10 names a button by its label said twice ("Save Save").
    pub doubled_names: bool,
    /// Qt lists no popup (a context menu) among its app's children; it only says it shows.
    pub unlisted_popups: bool,
    /// Qt triggers a showing menu's item on its "Press" action but leaves the menu open,
    /// holding the keyboard: what is typed next goes to the menu.
    pub open_menus_stay_open: bool,
}

/// How an app's scrolls are known, where no event announces them (`scrolls.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SilentScrolls {
    /// Announced (a scroll bar's value), or no tree is kept.
    #[default]
    Announced,
    /// GTK 4: each scroll pane's content is asked where it is.
    PaneContent,
    /// Qt, whose scroll areas are no scroll panes: each element larger than its parent.
    OverflowingContent,
    /// Web pages (Gecko, Chromium) move under a style change or a scroll with no event: each
    /// element asked (`layout.rs`).
    Layout,
}

impl AppTraits {
    /// Whether what was read of the app may be kept while its events say nothing changed: it
    /// announces every change, or what it does not is checked (Qt: `silent_rebuilds` and the
    /// checks beside it).
    pub fn keeps_trees(&self) -> bool {
        self.complete_events || self.silent_rebuilds
    }
}

/// Text as the app means it: Gecko's U+FEFF after a character outside the BMP removed.
pub fn unmark_surrogates(text: String, traits: AppTraits) -> String {
    if !traits.marks_surrogates || !text.contains('\u{feff}') {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut previous_astral = false;
    for c in text.chars() {
        if c == '\u{feff}' && previous_astral {
            previous_astral = false;
            continue;
        }
        previous_astral = u32::from(c) > 0xFFFF;
        out.push(c);
    }
    out
}

/// True for a GTK class name standing in for a missing name.
fn is_class_name(name: &str) -> bool {
    name.strip_prefix("Gtk").is_some_and(|rest| {
        rest.starts_with(|c: char| c.is_ascii_uppercase())
            && rest.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// `x` when `name` is `x x` (GTK 4.8 names a button by its label, then the label again).
fn said_twice(name: &str) -> Option<&str> {
    let half = name.len().checked_sub(1)? / 2;
    let (first, rest) = (name.get(..half)?, name.get(half..)?);
    (!first.trim().is_empty() && rest.strip_prefix(' ') == Some(first)).then_some(first)
}

/// The first round of a node: what decides everything else. Comes from four calls, or from
/// one `Cache.GetItems` answer for the whole app.
#[derive(Debug, Clone)]
pub struct Identity {
    pub role: u32,
    pub states: u64,
    pub interfaces: Vec<String>,
    pub name: String,
    pub description: String,
    /// `None` when the source did not say (the cache has no accessible ids).
    pub accessible_id: Option<String>,
    pub child_count: i32,
    /// Action names already known: `None` from a fresh read or the cache; a kept identity (an
    /// app whose events say nothing changed) carries the names its last snapshot read.
    pub actions: Option<Vec<String>>,
}

/// Reads a node's identity with four calls in flight at once.
pub async fn read_identity(
    proto: &Proto,
    id: &ElementId,
    traits: AppTraits,
) -> zbus::Result<Identity> {
    let (role, state, interfaces, props) = tokio::join!(
        proto.role(id),
        proto.state(id),
        proto.interfaces(id),
        proto.accessible_props(id, traits.bulk_properties),
    );
    let props = props?;
    Ok(Identity {
        role: role?,
        states: state?,
        interfaces: interfaces?,
        name: prop_string(&props, "Name"),
        description: prop_string(&props, "Description"),
        accessible_id: Some(prop_string(&props, "AccessibleId")),
        child_count: prop_i32(&props, "ChildCount").unwrap_or(0),
        actions: None,
    })
}

/// Reads one node: identity, then what its interfaces allow.
pub async fn read_node(
    proto: &Proto,
    id: &ElementId,
    traits: AppTraits,
    inside_secret: bool,
) -> zbus::Result<Node> {
    let identity = read_identity(proto, id, traits).await?;
    complete_node(proto, id, identity, traits, inside_secret).await
}

/// The second round: bounds, actions, value, text and label, as the interfaces allow, all in
/// flight at once.
pub async fn complete_node(
    proto: &Proto,
    id: &ElementId,
    identity: Identity,
    traits: AppTraits,
    inside_secret: bool,
) -> zbus::Result<Node> {
    let states = map_states(identity.states, traits.reporting);
    let (role, raw_role) = map_role(identity.role, states.is(State::Editable));
    let mut interfaces = map_interfaces(&identity.interfaces);
    if traits.inert_editable_text {
        interfaces.remove(Capability::TakesText);
    }
    let mut node = Node::new(id.clone(), role);
    node.raw_role = raw_role;
    node.states = states;
    node.capabilities = interfaces;
    node.name = identity.name;
    if traits.class_names_as_names && is_class_name(&node.name) {
        node.name.clear();
    }
    if traits.doubled_names
        && matches!(role, Role::Button | Role::ToggleButton | Role::MenuButton)
        && let Some(once) = said_twice(&node.name).map(str::to_owned)
    {
        node.raw_name = Some(std::mem::replace(&mut node.name, once));
    }
    node.description = identity.description;
    let known_id = identity.accessible_id;
    node.child_count = identity.child_count.max(0) as u32;

    node.inside_secret = inside_secret;
    let secret = node.is_secret();
    let wants_text = interfaces.contains(Capability::Text)
        && (secret
            || matches!(role, Role::TextBox | Role::ComboBox)
            || (role.is_text() && node.name.is_empty() && role != Role::Label));
    // An unnamed control is named by the label that labels it, as a screen reader reads it.
    let wants_label = node.name.is_empty()
        && (role.is_interactive()
            || matches!(
                role,
                Role::Table | Role::TreeTable | Role::Tree | Role::List | Role::ListBox
            ));
    // A hidden element has no place on screen: what toolkits answer for one is a leftover or
    // a sentinel (LibreOffice: INT_MIN or 0x0 for the ~1750 items of its closed menus), and
    // asking would be most of a Writer walk's calls. Read where showing is on or unknown.
    let placed = interfaces.contains(Capability::Bounds) && !states.is_not(State::Showing);
    let (extents, actions, value, text, label) = tokio::join!(
        optional(placed, proto.extents(id)),
        optional(
            interfaces.contains(Capability::Actions) && identity.actions.is_none(),
            proto.action_names(id, traits.action_list)
        ),
        optional(
            // Only range widgets have a meaningful value (LibreOffice gives all its menu items
            // the Value interface: 860 calls a Writer walk would spend on zeros).
            interfaces.contains(Capability::Number) && (role.is_range() || role == Role::Unknown),
            proto.value_props(id)
        ),
        optional(wants_text, read_value_text(proto, id, secret, traits)),
        optional(wants_label, read_label(proto, id, traits)),
    );
    // The cache has no ids, and ids are set on few elements (2 of Writer's 1940 nodes): a
    // call per node would be a quarter of a walk's calls. Unread ids are read when a selector
    // asks for one.
    match known_id {
        Some(known) => node.accessible_id = (!known.is_empty()).then_some(known),
        None => node.accessible_id_unread = true,
    }
    node.derived_name = label?.flatten();
    if let Some((x, y, w, h)) = extents? {
        node.bounds = Some(Rect::new(x, y, w, h));
    }
    node.actions = match identity.actions {
        Some(known) => known,
        None => actions?.unwrap_or_default(),
    };
    // AT-SPI's first action is the element's default one.
    node.default_action = node.actions.first().cloned();
    if let Some(text) = text? {
        node.value = Some(text);
    } else if let Some(props) = value? {
        node.value = Some(number(&props));
    }
    Ok(node)
}

/// A range widget's value as its `Value` interface's properties say.
pub(crate) fn number(props: &crate::proto::Props) -> NodeValue {
    NodeValue::Number {
        current: prop_f64(props, "CurrentValue").unwrap_or(0.0),
        min: prop_f64(props, "MinimumValue"),
        max: prop_f64(props, "MaximumValue"),
        step: prop_f64(props, "MinimumIncrement"),
    }
}

/// Runs `call` only when `wanted`. A failure that says the app or the element is gone or not
/// answering is passed on; any other (an interface it does not really support, a method that
/// errs, as GTK 4.8 labels do for the 8 actions they claim) reads as absent.
pub(crate) async fn optional<T>(
    wanted: bool,
    call: impl std::future::Future<Output = zbus::Result<T>>,
) -> zbus::Result<Option<T>> {
    use crate::error::{Failure, classify};
    if !wanted {
        return Ok(None);
    }
    match call.await {
        Ok(value) => Ok(Some(value)),
        Err(e) => match classify(&e) {
            Failure::Timeout | Failure::AppGone | Failure::ObjectGone => Err(e),
            Failure::Unsupported | Failure::Other => {
                tracing::trace!(error = %e, "optional read failed");
                Ok(None)
            }
        },
    }
}

/// The name of the first element that labels `id`, if any.
async fn read_label(
    proto: &Proto,
    id: &ElementId,
    traits: AppTraits,
) -> zbus::Result<Option<String>> {
    for label in proto.labelled_by(id).await? {
        let name = proto.name(&label).await?;
        let placeholder = traits.class_names_as_names && is_class_name(&name);
        if !name.is_empty() && !placeholder {
            return Ok(Some(name));
        }
    }
    Ok(None)
}

/// The text of an editable element, or only its length for a secret (a password field's text
/// is never requested: GTK 4.8 would hand out the plaintext).
async fn read_value_text(
    proto: &Proto,
    id: &ElementId,
    secret: bool,
    traits: AppTraits,
) -> zbus::Result<NodeValue> {
    let count = proto.character_count(id).await?.max(0);
    if secret {
        return Ok(NodeValue::Redacted {
            chars: Some(count as u32),
        });
    }
    let text = if count == 0 {
        String::new()
    } else {
        let text = proto.text(id, 0, count.min(MAX_VALUE_CHARS)).await?;
        unmark_surrogates(text, traits)
    };
    Ok(NodeValue::Text { text })
}

#[cfg(test)]
mod tests {
    #[test]
    fn gecko_surrogate_markers_are_no_text() {
        let gecko = super::AppTraits {
            marks_surrogates: true,
            ..Default::default()
        };
        let read = "Genève ⛰ 🇨\u{feff}🇭\u{feff} 😀\u{feff}x \u{feff}a".to_owned();
        assert_eq!(
            super::unmark_surrogates(read.clone(), gecko),
            "Genève ⛰ 🇨🇭 😀x \u{feff}a"
        );
        assert_eq!(
            super::unmark_surrogates(read.clone(), super::AppTraits::default()),
            read
        );
    }

    #[test]
    fn class_names() {
        for name in ["GtkButton", "GtkListItemWidget", "GtkColumnViewCell"] {
            assert!(super::is_class_name(name), "{name}");
        }
        for name in [
            "Gtk",
            "Gtk fixture",
            "GtkButton 2",
            "Count",
            "gtkButton",
            "",
        ] {
            assert!(!super::is_class_name(name), "{name}");
        }
    }

    #[test]
    fn names_said_twice() {
        assert_eq!(super::said_twice("7 7"), Some("7"));
        assert_eq!(super::said_twice("Save Save"), Some("Save"));
        assert_eq!(super::said_twice("× ×"), Some("×"));
        for name in ["7", "7 8", "Save As", "", " ", "a  a", "ab ba"] {
            assert_eq!(super::said_twice(name), None, "{name}");
        }
    }
}
