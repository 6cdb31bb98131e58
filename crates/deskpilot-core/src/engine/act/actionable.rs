//! Actionability: whether an element can be acted on as it is shown, and where it is shown
//! (an open popup menu over its window). Used by the ladder before and while it sends input.

use crate::act::action::{Action, NativeOp};
use crate::act::subject::Subject;
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::model::{ElementId, Role, State};
use crate::platform::Secrecy;
use crate::session::format_ref;

/// An element that is not shown is not acted on: an item of a closed menu is refused
/// naming the menu to open; one scrolled out of view is scrolled into it first where the
/// toolkit can (the note says so), else refused `offscreen`.
pub(crate) async fn ensure_shown(
    engine: &Engine,
    subject: &mut Subject,
    action: &Action,
) -> Result<Option<String>> {
    let node = subject.node();
    if subject.window_level || *action == Action::ScrollIntoView || crate::visibility::shown(node) {
        return Ok(None);
    }
    let reference = subject.resolved.reference.clone();
    let what = format!(
        "{reference} ({} {})",
        node.role,
        crate::escape::quoted(node.display_name(), 100)
    );
    if let Some(menu) = closed_menu_of(engine, &subject.session, node).await {
        return Err(Error::new(
            Code::NotVisible,
            format!("{what} is in a closed menu: open {menu} first"),
            "`click` the menu (or `act` expand on it), then act on the item",
        ));
    }
    if node.states.is_not(State::Visible) {
        return Err(Error::new(
            Code::NotVisible,
            format!("{what} is hidden"),
            "show what contains it first (a tab, an expander, a dialog), then act on it",
        ));
    }
    let id = node.id.clone();
    if engine
        .backend()
        .perform(&id, &NativeOp::ScrollIntoView)
        .await
        .is_ok()
    {
        let fresh = engine.backend().node(&id, subject.secrecy()).await?;
        if crate::visibility::shown(&fresh) {
            subject.resolved.node = fresh;
            return Ok(Some("scrolled into view first".into()));
        }
    }
    Err(Error::new(
        Code::Offscreen,
        format!(
            "{what} is not shown (scrolled out of view, or inside something hidden), and the app did not scroll it into view"
        ),
        "look for a visible element instead (`find` lists visible matches first), or scroll or open what contains it, then retry",
    ))
}

/// For an element inside a menu that is not open: the outermost closed menu above it
/// (`menu "File" [ref=e5]`), the one to open first.
pub(crate) async fn closed_menu_of(
    engine: &Engine,
    session: &str,
    node: &crate::model::Node,
) -> Option<String> {
    let menu_like = |role: Role| matches!(role, Role::Menu | Role::MenuItem);
    let item =
        menu_like(node.role) || matches!(node.role, Role::MenuItemCheckbox | Role::MenuItemRadio);
    let mut outermost = None;
    let mut inside_menu = item;
    let mut id = node.id.clone();
    for _ in 0..12 {
        let Ok(Some(parent)) = engine.backend().parent(&id).await else {
            break;
        };
        let Ok(up) = engine.backend().node(&parent, Secrecy::NoText).await else {
            break;
        };
        if matches!(
            up.role,
            Role::MenuBar | Role::Window | Role::Dialog | Role::Application
        ) {
            break;
        }
        if menu_like(up.role) {
            inside_menu = true;
            if !up.display_name().is_empty() {
                outermost = Some(up.clone());
            }
        }
        id = parent;
    }
    if !inside_menu {
        return None;
    }
    Some(match outermost {
        Some(menu) => format!(
            "{} {}{}",
            menu.role,
            crate::escape::quoted(menu.display_name(), 100),
            engine
                .sessions()
                .issue(session, &menu)
                .ok()
                .map(format_ref)
                .map(|r| format!(" [ref={r}]"))
                .unwrap_or_default()
        ),
        None => "its menu".to_owned(),
    })
}

/// For a menu item: the nearest menu above it that is showing (an open popup).
pub(crate) async fn open_popup_of(engine: &Engine, subject: &Subject) -> Option<ElementId> {
    let node = subject.node();
    if !matches!(
        node.role,
        Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio
    ) {
        return None;
    }
    let mut id = node.id.clone();
    for _ in 0..8 {
        let parent = engine.backend().parent(&id).await.ok()??;
        let up = engine.backend().node(&parent, Secrecy::NoText).await.ok()?;
        if up.role == Role::Menu && up.states.is(State::Showing) {
            return Some(parent);
        }
        if matches!(up.role, Role::MenuBar | Role::Window | Role::Dialog) {
            return None;
        }
        id = parent;
    }
    None
}
