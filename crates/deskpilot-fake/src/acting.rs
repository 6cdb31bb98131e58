//! What fake apps do when acted on: native operations change the tree like a toolkit would
//! (unless the node is `inert`: it accepts and does nothing, like a provider that lies), and
//! `FakeInput` applies synthetic clicks, keys and text to what they would reach (unless the
//! node is `deaf`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use deskpilot_platform::model::{ActionName, ElementId, NodeValue, Role, State};
use deskpilot_platform::{
    BackendError, Chord, Direction, InputDevice, InputError, InputText, Key, MouseButton, NamedKey,
    NativeOp, Performed, WindowAction, WindowId, WindowState,
};
use deskpilot_platform::{ClientWindow, WindowError, WindowSystem};

use crate::{FakeBackend, FakeNode};

/// The effect of a click (or Space) on a node, as most toolkits have it.
pub(crate) fn click_effect(node: &mut FakeNode) {
    let n = &mut node.node;
    if n.states.get(State::Checked).is_some()
        && matches!(
            n.role,
            Role::Checkbox | Role::ToggleButton | Role::Switch | Role::Radio
        )
    {
        let now = n.states.is(State::Checked);
        n.states.set(State::Checked, !now);
    } else if n.role == Role::Menu {
        n.states.set(State::Expanded, true);
    } else if n.states.get(State::Selectable) == Some(true) {
        n.states.set(State::Selected, true);
    }
}

/// Applies a native operation to `node` (already known not inert). `Err` when the node does
/// not offer it.
pub(crate) fn apply(node: &mut FakeNode, op: &NativeOp) -> Result<(), BackendError> {
    let id = node.node.id.clone();
    let unsupported = |what: &str| BackendError::Unsupported {
        id: id.clone(),
        what: what.to_owned(),
    };
    let n = &mut node.node;
    match op {
        NativeOp::Named(name) => {
            if !n.offers(&ActionName::Named(name.clone())) {
                return Err(unsupported(&format!("action {name:?}")));
            }
            if name == "expand" {
                n.states.set(State::Expanded, true);
            } else if name == "collapse" {
                n.states.set(State::Expanded, false);
            } else {
                click_effect(node);
            }
        }
        NativeOp::Press | NativeOp::Toggle | NativeOp::DefaultAction => click_effect(node),
        NativeOp::Expand => n.states.set(State::Expanded, true),
        NativeOp::Collapse => n.states.set(State::Expanded, false),
        NativeOp::SetText(text) => {
            n.value = Some(if n.role == Role::Password {
                NodeValue::Redacted {
                    chars: Some(text.chars() as u32),
                }
            } else {
                NodeValue::Text {
                    text: text.expose().to_owned(),
                }
            });
        }
        NativeOp::SetNumber(wanted) => match &mut n.value {
            Some(NodeValue::Number {
                current, min, max, ..
            }) => {
                *current = wanted
                    .max(min.unwrap_or(f64::MIN))
                    .min(max.unwrap_or(f64::MAX));
            }
            _ => return Err(unsupported("Value")),
        },
        NativeOp::AppendText(more) => match &mut n.value {
            Some(NodeValue::Text { text }) => text.push_str(more.expose()),
            _ => return Err(unsupported("EditableText")),
        },
        NativeOp::Select | NativeOp::AddToSelection => n.states.set(State::Selected, true),
        NativeOp::Choose => click_effect(node),
        NativeOp::ChooseAt(index) => {
            // A combo box: its options are the selectable nodes below it, in order.
            let mut options = Vec::new();
            collect_selectable(node, &mut options);
            let Some(chosen) = options.get(*index as usize).cloned() else {
                return Err(unsupported(&format!("SelectChild({index})")));
            };
            set_selected_only(node, &chosen);
        }
        NativeOp::Deselect => n.states.set(State::Selected, false),
        NativeOp::ScrollIntoView => n.states.set(State::Showing, true),
        NativeOp::Focus | NativeOp::CaretToEnd => {}
    }
    Ok(())
}

fn collect_selectable(node: &FakeNode, out: &mut Vec<ElementId>) {
    for child in &node.children {
        if child.node.states.get(State::Selectable) == Some(true) {
            out.push(child.node.id.clone());
        }
        collect_selectable(child, out);
    }
}

/// Selects `chosen` among the selectable nodes under `node`, deselecting the others.
fn set_selected_only(node: &mut FakeNode, chosen: &ElementId) {
    for child in &mut node.children {
        if child.node.states.get(State::Selectable) == Some(true) {
            child
                .node
                .states
                .set(State::Selected, child.node.id == *chosen);
        }
        set_selected_only(child, chosen);
    }
}

fn clear_focus(node: &mut FakeNode) {
    if node.node.states.is(State::Focused) {
        node.node.states.set(State::Focused, false);
    }
    node.children.iter_mut().for_each(clear_focus);
}

fn focused(node: &mut FakeNode) -> Option<&mut FakeNode> {
    if node.node.states.is(State::Focused) {
        return Some(node);
    }
    node.children.iter_mut().find_map(focused)
}

/// The deepest, topmost node at (x, y) under `node`.
fn at_point(node: &mut FakeNode, x: i32, y: i32) -> Option<&mut FakeNode> {
    let index = node
        .children
        .iter()
        .rposition(|c| c.node.bounds.is_some_and(|b| b.contains(x, y)))?;
    let child = &mut node.children[index];
    if child
        .children
        .iter()
        .any(|c| c.node.bounds.is_some_and(|b| b.contains(x, y)))
    {
        at_point(child, x, y)
    } else {
        Some(child)
    }
}

impl FakeBackend {
    /// Every native operation asked for so far, in order.
    pub fn performed(&self) -> Vec<(ElementId, NativeOp)> {
        self.performed.lock().unwrap().clone()
    }

    pub(crate) fn perform_native(
        &self,
        id: &ElementId,
        op: &NativeOp,
    ) -> Result<Performed, BackendError> {
        self.with_app_mut(id, |app| {
            self.performed
                .lock()
                .unwrap()
                .push((id.clone(), op.clone()));
            if *op == NativeOp::Focus {
                let inert = crate::find(&app.root, id)
                    .ok_or_else(|| BackendError::Defunct { id: id.clone() })?
                    .inert;
                if !inert {
                    clear_focus(&mut app.root);
                    let node = crate::find_mut(&mut app.root, id).expect("found above");
                    node.node.states.set(State::Focused, true);
                }
                return Ok(Performed::Answered);
            }
            let node = crate::find_mut(&mut app.root, id)
                .ok_or_else(|| BackendError::Defunct { id: id.clone() })?;
            if node.inert {
                return Ok(Performed::Answered);
            }
            if node.declines {
                return Err(BackendError::Unsupported {
                    id: id.clone(),
                    what: format!("{op:?} (declined)"),
                });
            }
            apply(node, op)?;
            Ok(if node.modal {
                Performed::Running {
                    why: "it opened a modal dialog".into(),
                }
            } else {
                Performed::Answered
            })
        })
    }

    pub(crate) fn toplevel_of(&self, id: &ElementId) -> Result<ElementId, BackendError> {
        let apps = self.apps.lock().unwrap();
        let window = apps
            .iter()
            .filter(|a| a.root.node.id.app == id.app)
            .flat_map(|a| &a.root.children)
            .find(|w| crate::find(w, id).is_some())
            .ok_or_else(|| BackendError::Defunct { id: id.clone() })?;
        if crate::find(window, id).is_some_and(|n| n.orphan) {
            return Err(BackendError::Unsupported {
                id: id.clone(),
                what: "finding its window (no top-level ancestor)".into(),
            });
        }
        Ok(window.node.id.clone())
    }

    /// Runs `f` on the topmost window's deepest node at (x, y), if any.
    fn at(&self, x: i32, y: i32, f: impl FnOnce(&mut FakeNode)) {
        let mut apps = self.apps.lock().unwrap();
        for app in apps.iter_mut().rev() {
            if let Some(node) = at_point(&mut app.root, x, y) {
                f(node);
                return;
            }
        }
    }

    fn on_focused(&self, f: impl FnOnce(&mut FakeNode)) {
        let mut apps = self.apps.lock().unwrap();
        if let Some(node) = apps.iter_mut().find_map(|a| focused(&mut a.root)) {
            f(node);
        }
    }
}

/// The window-system id a fake window gets: its app's number times 16 plus its index.
pub fn fake_window_id(app: &ElementId, window_index: usize) -> WindowId {
    let n: u64 = app
        .app
        .rsplit('.')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    WindowId(0x100 + n * 16 + window_index as u64)
}

/// Synthetic input into fake apps, with a log of what was sent.
pub struct FakeInput {
    backend: Arc<FakeBackend>,
    sent: Mutex<Vec<String>>,
    active: Mutex<Option<WindowId>>,
    refuse_activation: AtomicBool,
    windows: Mutex<std::collections::HashMap<WindowId, Option<WindowState>>>,
    /// Typing stops after this many characters (as a timed-out typing job does).
    typing_limit: Mutex<Option<usize>>,
    /// Where the pointer is.
    pointer_at: Mutex<(i32, i32)>,
}

impl FakeInput {
    pub fn new(backend: Arc<FakeBackend>) -> Self {
        FakeInput {
            backend,
            sent: Mutex::new(Vec::new()),
            active: Mutex::new(None),
            refuse_activation: AtomicBool::new(false),
            windows: Mutex::new(std::collections::HashMap::new()),
            typing_limit: Mutex::new(None),
            pointer_at: Mutex::new((0, 0)),
        }
    }

    /// Typing stops after `limit` characters with `InputError::Incomplete` (None: no limit).
    pub fn limit_typing(&self, limit: Option<usize>) {
        *self.typing_limit.lock().unwrap() = limit;
    }

    /// Everything sent so far (`click left 10,20`, `key space`, `text 5 chars`,
    /// `activate 0x111`).
    pub fn sent(&self) -> Vec<String> {
        self.sent.lock().unwrap().clone()
    }

    /// Makes window activation fail (a window that will not come to the front).
    pub fn refuse_activation(&self, refuse: bool) {
        self.refuse_activation.store(refuse, Ordering::SeqCst);
    }

    fn log(&self, line: String) {
        self.sent.lock().unwrap().push(line);
    }
}

#[async_trait]
impl InputDevice for FakeInput {
    async fn click(
        &self,
        x: i32,
        y: i32,
        button: MouseButton,
        double: bool,
    ) -> Result<(), InputError> {
        self.log(format!(
            "click {button:?} {x},{y}{}",
            if double { " double" } else { "" }
        ));
        *self.pointer_at.lock().unwrap() = (x, y);
        if button == MouseButton::Left {
            self.backend.at(x, y, |node| {
                if !node.deaf {
                    click_effect(node);
                }
            });
        }
        Ok(())
    }

    async fn pointer(&self) -> Result<Option<(i32, i32)>, InputError> {
        Ok(Some(*self.pointer_at.lock().unwrap()))
    }

    async fn move_pointer(&self, x: i32, y: i32) -> Result<(), InputError> {
        self.log(format!("move {x},{y}"));
        *self.pointer_at.lock().unwrap() = (x, y);
        Ok(())
    }

    async fn scroll(
        &self,
        x: i32,
        y: i32,
        direction: Direction,
        clicks: u32,
    ) -> Result<(), InputError> {
        self.log(format!("scroll {direction:?} {clicks} at {x},{y}"));
        *self.pointer_at.lock().unwrap() = (x, y);
        Ok(())
    }

    async fn press(&self, chord: &Chord) -> Result<(), InputError> {
        self.log(format!("key {chord}"));
        if chord.modifiers.is_empty() && chord.key == Key::Named(NamedKey::Space) {
            self.backend.on_focused(|node| {
                if !node.deaf {
                    click_effect(node);
                }
            });
        }
        Ok(())
    }

    async fn type_text(&self, text: &InputText) -> Result<(), InputError> {
        self.log(format!("text {} chars", text.chars()));
        let limit = *self.typing_limit.lock().unwrap();
        let total = text.chars();
        let sent = limit.unwrap_or(total).min(total);
        self.backend.on_focused(|node| {
            if node.deaf {
                return;
            }
            let mut text: String = text.expose().chars().take(sent).collect();
            if node.garbles {
                text.pop();
            }
            match &mut node.node.value {
                Some(NodeValue::Text { text: now }) => now.push_str(&text),
                Some(NodeValue::Redacted { chars: Some(n) }) => *n += text.chars().count() as u32,
                _ => {}
            }
        });
        if sent < total {
            return Err(InputError::Incomplete {
                sent,
                total,
                why: "the fake's typing limit".into(),
            });
        }
        Ok(())
    }

    /// What a press and release do on their own, as toolkits have it: the source takes
    /// focus and is selected where it can be. Nothing is dropped anywhere.
    async fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), InputError> {
        self.log(format!("drag {},{} -> {},{}", from.0, from.1, to.0, to.1));
        *self.pointer_at.lock().unwrap() = to;
        self.backend.at(from.0, from.1, |node| {
            if !node.deaf {
                node.node.states.set(State::Focused, true);
                if node.node.states.get(State::Selectable) == Some(true) {
                    node.node.states.set(State::Selected, true);
                }
            }
        });
        Ok(())
    }
}

/// The fake window manager: windows are known by `fake_window_id`; it lists none of its own.
#[async_trait]
impl WindowSystem for FakeInput {
    async fn client_windows(&self) -> Result<Vec<ClientWindow>, WindowError> {
        Ok(Vec::new())
    }

    async fn active_window(&self) -> Result<Option<WindowId>, WindowError> {
        Ok(*self.active.lock().unwrap())
    }

    async fn window_action(&self, xid: WindowId, action: WindowAction) -> Result<(), WindowError> {
        self.log(format!(
            "window {xid} {}",
            format!("{action:?}").to_lowercase()
        ));
        let mut states = self.windows.lock().unwrap();
        let state = states.entry(xid).or_insert(Some(WindowState {
            minimized: false,
            maximized: false,
        }));
        if let Some(s) = state {
            match action {
                WindowAction::Minimize => s.minimized = true,
                WindowAction::Maximize => s.maximized = true,
                WindowAction::Restore => {
                    *s = WindowState {
                        minimized: false,
                        maximized: false,
                    }
                }
                WindowAction::Activate => s.minimized = false,
                WindowAction::Close => *state = None,
            }
        }
        if action == WindowAction::Activate {
            *self.active.lock().unwrap() = Some(xid);
        }
        Ok(())
    }

    async fn window_state(&self, xid: WindowId) -> Result<Option<WindowState>, WindowError> {
        Ok(*self
            .windows
            .lock()
            .unwrap()
            .entry(xid)
            .or_insert(Some(WindowState {
                minimized: false,
                maximized: false,
            })))
    }

    async fn activate_window(&self, xid: WindowId) -> Result<(), WindowError> {
        self.log(format!("activate {xid}"));
        if self.refuse_activation.load(Ordering::SeqCst) {
            return Err(WindowError::NotForeground {
                window: xid,
                why: "the fake window manager said no".into(),
            });
        }
        *self.active.lock().unwrap() = Some(xid);
        Ok(())
    }
}
