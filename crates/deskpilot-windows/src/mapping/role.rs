//! `ControlType` to role, refined by the element's own words (`AriaRole`, `IsPassword`,
//! `IsDialog`, its patterns, a custom control's `LocalizedControlType`): UIA's control types
//! are coarser than ARIA's roles.

use deskpilot_platform::model::Role;

use crate::ids::control as ct;
use crate::raw::{Pattern, RawElement};

/// The element's role, and the platform's own name when it maps to none.
pub fn role(raw: &RawElement) -> (Role, Option<String>) {
    if let Some(role) = raw.aria_role.as_deref().and_then(aria) {
        return (role, None);
    }
    let toggles = raw.has(Pattern::Toggle);
    let role = match raw.control_type {
        ct::BUTTON if toggles => Role::ToggleButton,
        ct::BUTTON if raw.has(Pattern::ExpandCollapse) => Role::MenuButton,
        ct::BUTTON => Role::Button,
        ct::SPLIT_BUTTON => Role::MenuButton,
        ct::CALENDAR => Role::Calendar,
        ct::CHECK_BOX => Role::Checkbox,
        ct::RADIO_BUTTON => Role::Radio,
        ct::COMBO_BOX => Role::ComboBox,
        ct::EDIT if raw.is_password() => Role::Password,
        ct::EDIT => Role::TextBox,
        ct::HYPERLINK => Role::Link,
        ct::IMAGE => Role::Image,
        ct::LIST if raw.has(Pattern::Selection) => Role::ListBox,
        ct::LIST => Role::List,
        ct::LIST_ITEM => Role::ListItem,
        ct::MENU => Role::Menu,
        ct::MENU_BAR => Role::MenuBar,
        ct::MENU_ITEM if toggles => Role::MenuItemCheckbox,
        ct::MENU_ITEM => Role::MenuItem,
        ct::PROGRESS_BAR => Role::ProgressBar,
        ct::SCROLL_BAR => Role::ScrollBar,
        ct::SLIDER => Role::Slider,
        ct::SPINNER => Role::SpinButton,
        ct::STATUS_BAR => Role::StatusBar,
        ct::TAB => Role::TabList,
        ct::TAB_ITEM => Role::Tab,
        ct::TEXT if raw.heading_level.is_some_and(|level| level > 0) => Role::Heading,
        ct::TEXT => Role::Label,
        ct::TOOL_BAR | ct::APP_BAR => Role::Toolbar,
        ct::TOOL_TIP => Role::Tooltip,
        ct::TREE => Role::Tree,
        ct::TREE_ITEM => Role::TreeItem,
        ct::GROUP => Role::Group,
        ct::DATA_GRID if raw.has(Pattern::Table) || raw.has(Pattern::Grid) => Role::Table,
        ct::DATA_GRID => Role::List,
        ct::TABLE => Role::Table,
        // A data grid's row, or an item of a details view: a row of cells.
        ct::DATA_ITEM => Role::Row,
        ct::DOCUMENT => Role::Document,
        ct::WINDOW if raw.is_dialog == Some(true) || raw.modal == Some(true) => Role::Dialog,
        ct::WINDOW => Role::Window,
        ct::PANE | ct::SEMANTIC_ZOOM | ct::THUMB => Role::Generic,
        ct::HEADER => Role::Row,
        ct::HEADER_ITEM => Role::ColumnHeader,
        ct::TITLE_BAR => Role::TitleBar,
        ct::SEPARATOR => Role::Separator,
        // A custom control may still say what it is in its localized type ("switch").
        _ => raw
            .localized_type
            .as_deref()
            .and_then(|t| Role::from_name(&t.to_lowercase()))
            .filter(|r| *r != Role::Unknown)
            .unwrap_or(Role::Unknown),
    };
    let raw_role = (role == Role::Unknown).then(|| {
        raw.localized_type
            .clone()
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| ct::name(raw.control_type))
    });
    (role, raw_role)
}

/// A role a provider states in ARIA's words (web content; a custom control that sets it).
fn aria(name: &str) -> Option<Role> {
    // ARIA's names are the model's where they exist; the few that differ are spelled here.
    let role = match name {
        "img" | "image" => Role::Image,
        "textbox" | "searchbox" => Role::TextBox,
        "status" => Role::StatusBar,
        "grid" => Role::Table,
        "gridcell" => Role::Cell,
        "option" => Role::ListItem,
        "region" => Role::Landmark,
        "banner" => Role::Header,
        "contentinfo" => Role::Footer,
        "" | "none" | "presentation" | "generic" => return None,
        other => Role::from_name(other)?,
    };
    Some(role)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raw::PatternSet;

    fn raw(control_type: i32, patterns: &[Pattern]) -> RawElement {
        RawElement {
            control_type,
            patterns: patterns.iter().copied().collect::<PatternSet>(),
            ..RawElement::default()
        }
    }

    /// Control types map to roles, refined by patterns and properties.
    #[test]
    fn control_types_refined_by_patterns_and_properties() {
        assert_eq!(role(&raw(ct::BUTTON, &[Pattern::Invoke])).0, Role::Button);
        assert_eq!(
            role(&raw(ct::BUTTON, &[Pattern::Toggle])).0,
            Role::ToggleButton
        );
        assert_eq!(
            role(&raw(ct::MENU_ITEM, &[Pattern::Toggle])).0,
            Role::MenuItemCheckbox
        );
        assert_eq!(role(&raw(ct::LIST, &[Pattern::Selection])).0, Role::ListBox);
        let mut password = raw(ct::EDIT, &[Pattern::Value]);
        assert_eq!(role(&password).0, Role::TextBox);
        password.password = Some(true);
        assert_eq!(role(&password).0, Role::Password);
        let mut dialog = raw(ct::WINDOW, &[Pattern::Window]);
        assert_eq!(role(&dialog).0, Role::Window);
        dialog.is_dialog = Some(true);
        assert_eq!(role(&dialog).0, Role::Dialog);
        let mut heading = raw(ct::TEXT, &[]);
        heading.heading_level = Some(2);
        assert_eq!(role(&heading).0, Role::Heading);
    }

    /// An ARIA role wins over the control type; a custom control's localized type names its
    /// role where it is one; an unmapped type keeps its localized name.
    #[test]
    fn aria_roles_win_and_unknown_types_keep_their_name() {
        let mut custom = raw(ct::CUSTOM, &[]);
        assert_eq!(role(&custom), (Role::Unknown, Some("Custom".into())));
        custom.localized_type = Some("ribbon".into());
        assert_eq!(role(&custom), (Role::Unknown, Some("ribbon".into())));
        custom.localized_type = Some("Switch".into());
        assert_eq!(role(&custom), (Role::Switch, None));
        custom.aria_role = Some("switch".into());
        assert_eq!(role(&custom), (Role::Switch, None));
        custom.aria_role = Some("gridcell".into());
        assert_eq!(role(&custom).0, Role::Cell);
        custom.aria_role = Some("presentation".into());
        custom.localized_type = Some("ribbon".into());
        assert_eq!(role(&custom).0, Role::Unknown);
    }
}
