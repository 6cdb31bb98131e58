//! Whether an item belongs to a multi-selection list when it does not say so itself: then
//! its on/off is its selection (the control model's `Switch::Selected`).

use crate::act::subject::Subject;
use crate::engine::Engine;
use crate::model::State;
use crate::model::control;
use crate::platform::Secrecy;

/// Marks the subject `multiselectable` when its container is. Qt says it on each item;
/// GTK and UI Automation only on the list: one read of the parent, and only for a
/// selectable item with no check state of its own.
pub(crate) async fn note_multiselection(engine: &Engine, subject: &mut Subject) {
    let node = subject.node();
    let states = &node.states;
    if !control::is_item(node.role)
        || !states.is(State::Selectable)
        || states.is(State::Multiselectable)
        || control::switch(node, false).is_some()
    {
        return;
    }
    let Ok(Some(parent)) = engine.backend().parent(&node.id).await else {
        return;
    };
    let Ok(parent) = engine.backend().node(&parent, Secrecy::Plain).await else {
        return;
    };
    if parent.states.is(State::Multiselectable) {
        subject
            .resolved
            .node
            .states
            .set(State::Multiselectable, true);
    }
}
