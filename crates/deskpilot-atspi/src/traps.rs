//! Semantic routes a toolkit answers but that would not do what a person's input does: core
//! skips them and takes the next rung (keys, or the pointer), saying why.

use deskpilot_platform::NativeOp;
use deskpilot_platform::model::{Node, Role, State};

use crate::read::AppTraits;

/// Why `op` on `node` must not be used, for an app with `traits`.
pub fn semantic_trap(node: &Node, op: &NativeOp, traits: AppTraits) -> Option<&'static str> {
    let menu_item = matches!(
        node.role,
        Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio
    );
    let named = matches!(op, NativeOp::Named(_));
    if menu_item && named && traits.menu_actions_block {
        return Some(
            "this toolkit runs a menu item's handler inside the call: a dialog it opens would freeze the app's accessibility until closed",
        );
    }
    if menu_item && named && traits.open_menus_stay_open && runs_in_open_menu(node) {
        return Some("Qt runs an open menu's item but leaves the menu open, holding the keyboard");
    }
    let option = matches!(node.role, Role::MenuItem | Role::ListItem);
    if option && traits.silent_option_selection {
        match op {
            NativeOp::Select => {
                return Some(
                    "Gecko selects a page's option without its change event: the page's handlers would not run",
                );
            }
            NativeOp::Named(name) if name == "select" => {
                return Some("Gecko's \"select\" action on a page's option does nothing");
            }
            _ => {}
        }
    }
    None
}

/// A showing item that runs a command. One that opens a submenu (a menubar's title too)
/// offers "ShowMenu" and is left be.
fn runs_in_open_menu(node: &Node) -> bool {
    node.states.is(State::Showing)
        && !node
            .actions
            .iter()
            .any(|a| a.eq_ignore_ascii_case("showmenu"))
}

#[cfg(test)]
mod tests {
    use deskpilot_platform::model::{ElementId, StateSet};

    use super::*;

    fn qt() -> AppTraits {
        crate::apps::traits_for(Some("Qt"), Some("5.15.8"))
    }

    fn item(showing: bool, actions: &[&str]) -> Node {
        let mut node = Node::new(ElementId::new(":1.9", "/item"), Role::MenuItem);
        node.states = StateSet::all_known(showing.then_some(State::Showing));
        node.actions = actions.iter().map(|a| a.to_string()).collect();
        node
    }

    fn press() -> NativeOp {
        NativeOp::Named("Press".into())
    }

    #[test]
    fn a_qt_item_of_an_open_menu_is_not_pressed() {
        assert!(semantic_trap(&item(true, &["Press"]), &press(), qt()).is_some());
    }

    #[test]
    fn a_qt_item_of_a_closed_menu_or_opening_a_submenu_is_pressed() {
        assert_eq!(
            semantic_trap(&item(false, &["Press"]), &press(), qt()),
            None
        );
        let title = item(true, &["Press", "ShowMenu"]);
        assert_eq!(semantic_trap(&title, &press(), qt()), None);
    }

    #[test]
    fn other_toolkits_press_open_menus_items() {
        let gtk4 = crate::apps::traits_for(Some("GTK"), Some("4.8.3"));
        assert_eq!(semantic_trap(&item(true, &["click"]), &press(), gtk4), None);
    }
}
