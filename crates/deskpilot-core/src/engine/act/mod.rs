//! Acting: the route ladder over the app's semantics, focus and keys, and input at live bounds,
//! each rung read back (`act/` holds the verbs, plans and reports it works with).

pub(crate) mod acting;
pub(crate) mod actionable;
pub(crate) mod after;
pub(crate) mod announced;
pub(crate) mod choose;
pub(crate) mod deliver;
pub(crate) mod drag;
pub(crate) mod exited;
pub(crate) mod interaction;
pub(crate) mod keys_to;
pub(crate) mod ladder;
pub(crate) mod multiselection;
pub(crate) mod ready;
pub(crate) mod verify;
pub(crate) mod window;
