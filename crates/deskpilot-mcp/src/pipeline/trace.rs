//! What a run leaves for `continue_run`: the passed steps' results, the sessions it worked
//! in as they were, and where it stopped.

use std::collections::HashMap;

use deskpilot_core::model::ElementId;
use serde_json::Value;

/// A session a run worked in, as it was: `continue_run` goes on only while it still is.
#[derive(Debug, Clone)]
pub struct SeenSession {
    pub session: String,
    pub app: ElementId,
    /// The app's windows (and their titles) when the run first worked in the session.
    pub windows: Vec<(ElementId, String)>,
}

/// What a run leaves for `continue_run`.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Each passed step's result, by id, and the values the run was given (`given`).
    pub results: HashMap<String, Value>,
    /// The names of `results` the run was given, not made by a step (a workflow's
    /// `session` and `env`): steps refer to them, and a continued run keeps them.
    pub given: Vec<String>,
    pub sessions: Vec<SeenSession>,
    /// The first main step that did not pass (the steps' count when all did).
    pub next: usize,
}

impl Trace {
    /// A run's start, given `values` to refer to.
    pub fn given(values: Vec<(String, Value)>) -> Self {
        Trace {
            given: values.iter().map(|(name, _)| name.clone()).collect(),
            results: values.into_iter().collect(),
            ..Trace::default()
        }
    }

    /// The names steps may refer to beside earlier steps.
    pub fn bound(&self) -> Vec<&str> {
        self.given.iter().map(String::as_str).collect()
    }
}
