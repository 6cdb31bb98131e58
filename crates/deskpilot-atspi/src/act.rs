//! The semantic rung on AT-SPI: actions by name, EditableText, Value, Selection (or a table's
//! row selection), GrabFocus, ScrollTo. Each call's boolean answer is checked: `false` means
//! the app declined, which is not an effect.

use deskpilot_platform::model::ElementId;
use deskpilot_platform::{BackendError, NativeOp};
use zbus::zvariant::Value;

use crate::error::to_backend;
use crate::proto::{
    ACCESSIBLE, ACTION, COMPONENT, PROPERTIES, Proto, ROOT_PATH, TABLE, TABLE_CELL, TEXT, VALUE,
};

const EDITABLE_TEXT: &str = "org.a11y.atspi.EditableText";
const SELECTION: &str = "org.a11y.atspi.Selection";
/// AT-SPI ScrollType ANYWHERE: the least scrolling that shows the element.
const SCROLL_ANYWHERE: u32 = 6;

fn declined(id: &ElementId, what: &str) -> BackendError {
    BackendError::Unsupported {
        id: id.clone(),
        what: format!("{what} (the app declined)"),
    }
}

/// Does `op` on `id`.
pub async fn perform(proto: &Proto, id: &ElementId, op: &NativeOp) -> Result<(), BackendError> {
    let fail = |e: zbus::Error, what: &str| to_backend(e, id, what, proto.timeout());
    let accepted = match op {
        NativeOp::DefaultAction => proto
            .call::<_, bool>(id, ACTION, "DoAction", &(0i32,))
            .await
            .map_err(|e| fail(e, "Action.DoAction"))?,
        NativeOp::Named(_)
        | NativeOp::Press
        | NativeOp::Toggle
        | NativeOp::Expand
        | NativeOp::Collapse
        | NativeOp::Choose => {
            let wanted: Vec<&str> = match op {
                NativeOp::Named(name) => vec![name.as_str()],
                verb => crate::mapping::names_of(verb).to_vec(),
            };
            let index = action_index(proto, id, &wanted)
                .await
                .map_err(|e| fail(e, "Action"))?
                .ok_or_else(|| BackendError::Unsupported {
                    id: id.clone(),
                    what: format!("action {:?}", wanted.join("/")),
                })?;
            proto
                .call::<_, bool>(id, ACTION, "DoAction", &(index,))
                .await
                .map_err(|e| fail(e, "Action.DoAction"))?
        }
        NativeOp::SetText(text) => proto
            .call::<_, bool>(id, EDITABLE_TEXT, "SetTextContents", &(text.expose(),))
            .await
            .map_err(|e| fail(e, "EditableText.SetTextContents"))?,
        NativeOp::SetNumber(n) => {
            proto
                .call::<_, ()>(
                    id,
                    PROPERTIES,
                    "Set",
                    &(VALUE, "CurrentValue", Value::from(*n)),
                )
                .await
                .map_err(|e| fail(e, "Value.CurrentValue"))?;
            true
        }
        NativeOp::Focus => proto
            .call::<_, bool>(id, COMPONENT, "GrabFocus", &())
            .await
            .map_err(|e| fail(e, "Component.GrabFocus"))?,
        NativeOp::CaretToEnd => {
            let count = proto
                .character_count(id)
                .await
                .map_err(|e| fail(e, "Text.CharacterCount"))?;
            proto
                .call::<_, bool>(id, TEXT, "SetCaretOffset", &(count,))
                .await
                .map_err(|e| fail(e, "Text.SetCaretOffset"))?
        }
        NativeOp::AppendText(text) => {
            let count = proto
                .character_count(id)
                .await
                .map_err(|e| fail(e, "Text.CharacterCount"))?;
            // ATK's bridge takes the length in UTF-8 bytes (a character count cut
            // "ünïcode ✓" short in Writer); Qt's takes UTF-16 units, never more than bytes.
            let length = text.expose().len() as i32;
            let inserted = proto
                .call::<_, bool>(
                    id,
                    EDITABLE_TEXT,
                    "InsertText",
                    &(count, text.expose(), length),
                )
                .await
                .map_err(|e| fail(e, "EditableText.InsertText"))?;
            // The caret ends after the text, as typing leaves it (a key pressed next acts
            // there); an app that refuses it keeps the text all the same.
            if inserted {
                let end = count.saturating_add(text.chars() as i32);
                let caret = (end,);
                let _ = proto
                    .call::<_, bool>(id, TEXT, "SetCaretOffset", &caret)
                    .await;
            }
            inserted
        }
        NativeOp::ScrollIntoView => proto
            .call::<_, bool>(id, COMPONENT, "ScrollTo", &(SCROLL_ANYWHERE,))
            .await
            .map_err(|e| fail(e, "Component.ScrollTo"))?,
        NativeOp::Select | NativeOp::AddToSelection | NativeOp::Deselect => {
            return select(proto, id, op).await;
        }
        NativeOp::ChooseAt(index) => proto
            .call::<_, bool>(id, SELECTION, "SelectChild", &(*index as i32,))
            .await
            .map_err(|e| fail(e, "Selection.SelectChild"))?,
    };
    if accepted {
        Ok(())
    } else {
        Err(declined(id, &format!("{op:?}")))
    }
}

/// The index of the first of `wanted` the element offers (case-insensitive, in the order of
/// `wanted`), asked name by name: never index 0 by default.
async fn action_index(proto: &Proto, id: &ElementId, wanted: &[&str]) -> zbus::Result<Option<i32>> {
    let count = proto.action_count(id).await?;
    let mut names = Vec::new();
    for i in 0..count.min(64) {
        if let Ok(name) = proto.call::<_, String>(id, ACTION, "GetName", &(i,)).await {
            if wanted.first().is_some_and(|w| name.eq_ignore_ascii_case(w)) {
                return Ok(Some(i)); // the first choice: nothing to compare with
            }
            names.push((i, name));
        }
    }
    Ok(wanted.iter().find_map(|w| {
        names
            .iter()
            .find(|(_, name)| name.eq_ignore_ascii_case(w))
            .map(|(i, _)| *i)
    }))
}

/// Selects or deselects `id` in its container: the parent's Selection interface, or, for a
/// table cell, the table's row selection (GTK 3 tables decline `SelectChild`).
async fn select(proto: &Proto, id: &ElementId, op: &NativeOp) -> Result<(), BackendError> {
    let fail = |e: zbus::Error, what: &str| to_backend(e, id, what, proto.timeout());
    // The element and its container; a part of a GTK 3 cell (its text renderer) is selected
    // as the cell that holds it.
    let mut child = id.clone();
    let mut parent;
    let mut interfaces;
    let mut climbed = 0;
    loop {
        parent = proto
            .parent(&child)
            .await
            .map_err(|e| fail(e, "Parent"))?
            .filter(|p| p.object != ROOT_PATH)
            .ok_or_else(|| declined(id, "selection: it has no container"))?;
        interfaces = proto
            .interfaces(&parent)
            .await
            .map_err(|e| fail(e, "GetInterfaces"))?;
        let selects = interfaces.iter().any(|i| i == TABLE || i == SELECTION);
        if selects || climbed == 1 || !interfaces.iter().any(|i| i == TABLE_CELL) {
            break;
        }
        child = parent;
        climbed += 1;
    }
    let index: i32 = proto
        .call(&child, ACCESSIBLE, "GetIndexInParent", &())
        .await
        .map_err(|e| fail(e, "GetIndexInParent"))?;
    let has = |name: &str| interfaces.iter().any(|i| i == name);
    let accepted = if has(TABLE) {
        let row: i32 = proto
            .call(&parent, TABLE, "GetRowAtIndex", &(index,))
            .await
            .map_err(|e| fail(e, "Table.GetRowAtIndex"))?;
        let method = match op {
            NativeOp::Deselect => "RemoveRowSelection",
            _ => "AddRowSelection",
        };
        proto
            .call::<_, bool>(&parent, TABLE, method, &(row,))
            .await
            .map_err(|e| fail(e, "Table row selection"))?
    } else if has(SELECTION) {
        match op {
            NativeOp::Deselect => {
                // DeselectChild takes the child's index among the container's children.
                proto
                    .call::<_, bool>(&parent, SELECTION, "DeselectChild", &(index,))
                    .await
                    .map_err(|e| fail(e, "Selection.DeselectChild"))?
            }
            _ => {
                if *op == NativeOp::Select {
                    let selected: i32 = {
                        let v: zbus::zvariant::OwnedValue = proto
                            .call(
                                &parent,
                                PROPERTIES,
                                "Get",
                                &(SELECTION, "NSelectedChildren"),
                            )
                            .await
                            .map_err(|e| fail(e, "Selection"))?;
                        i32::try_from(v).unwrap_or(0)
                    };
                    if selected > 1 {
                        let _: bool = proto
                            .call(&parent, SELECTION, "ClearSelection", &())
                            .await
                            .map_err(|e| fail(e, "Selection.ClearSelection"))?;
                    }
                }
                proto
                    .call::<_, bool>(&parent, SELECTION, "SelectChild", &(index,))
                    .await
                    .map_err(|e| fail(e, "Selection.SelectChild"))?
            }
        }
    } else {
        return Err(BackendError::Unsupported {
            id: id.clone(),
            what: "selection (its container has neither Selection nor Table)".into(),
        });
    };
    if accepted {
        Ok(())
    } else {
        Err(declined(id, &format!("{op:?}")))
    }
}

/// The top-level window (a child of the app root) that holds `id`; the window itself when
/// `id` is one.
pub async fn toplevel(proto: &Proto, id: &ElementId) -> Result<ElementId, BackendError> {
    let mut current = id.clone();
    for _ in 0..128 {
        let parent = proto
            .parent(&current)
            .await
            .map_err(|e| to_backend(e, id, "Parent", proto.timeout()))?;
        match parent {
            Some(p) if p.object == ROOT_PATH => return Ok(current),
            Some(p) => current = p,
            None => break,
        }
    }
    // A parent chain that ends short of the app: an element the app dropped says so.
    let states = proto
        .state(id)
        .await
        .map_err(|e| to_backend(e, id, "GetState", proto.timeout()))?;
    let states = crate::mapping::map_states(states, crate::mapping::StateReporting::Complete);
    if states.is(deskpilot_platform::model::State::Defunct) {
        return Err(BackendError::Defunct { id: id.clone() });
    }
    Err(BackendError::Unsupported {
        id: id.clone(),
        what: "finding its window (no top-level ancestor)".into(),
    })
}
