//! The fixture-owned oracle: every state change a fixture app sees, one JSON line each, in a
//! file the test chose. Tests judge effects by this, never by what deskpilot reports.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::{DesktopError, Result};
use deskpilot_linux::headless::wait;

/// One line of a fixture's oracle: `{"widget": "<fixture id>", "prop": "checked", "value": true}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OracleEvent {
    pub widget: String,
    pub prop: String,
    pub value: serde_json::Value,
}

impl OracleEvent {
    pub fn is(&self, widget: &str, prop: &str) -> bool {
        self.widget == widget && self.prop == prop
    }
}

/// Reader of one oracle file.
#[derive(Debug, Clone)]
pub struct Oracle {
    path: PathBuf,
}

impl Oracle {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Oracle { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every complete event written so far, in order. A malformed line is an error: a fixture
    /// that writes garbage must not be mistaken for one that wrote nothing.
    pub fn events(&self) -> Result<Vec<OracleEvent>> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(DesktopError::Io {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        // The last line may still be being written: only newline-terminated lines count.
        let complete = match text.rfind('\n') {
            Some(end) => &text[..end],
            None => "",
        };
        complete
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                serde_json::from_str(line)
                    .map_err(|e| DesktopError::Oracle(format!("bad line {line:?}: {e}")))
            })
            .collect()
    }

    /// The latest value reported for `widget`.`prop`.
    pub fn last(&self, widget: &str, prop: &str) -> Result<Option<serde_json::Value>> {
        Ok(self
            .events()?
            .into_iter()
            .rev()
            .find(|e| e.is(widget, prop))
            .map(|e| e.value))
    }

    /// Waits until an event matching `pred` has been written (events already written count).
    /// On timeout the error lists the last events seen.
    pub fn wait_for(
        &self,
        timeout: Duration,
        pred: impl Fn(&OracleEvent) -> bool,
    ) -> Result<OracleEvent> {
        let found = wait::until(timeout, || match self.events() {
            Ok(events) => events.into_iter().find(|e| pred(e)).map(Ok),
            Err(e) => Some(Err(e)),
        });
        if let Some(result) = found {
            return result;
        }
        Err({
            let seen = self.events().unwrap_or_default();
            let tail: Vec<String> = seen
                .iter()
                .rev()
                .take(8)
                .rev()
                .map(|e| format!("{}.{}={}", e.widget, e.prop, e.value))
                .collect();
            DesktopError::Oracle(format!(
                "no matching event within {timeout:?}; last events: [{}]",
                tail.join(", ")
            ))
        })
    }

    /// Waits for `widget`.`prop` to be reported with exactly `value`.
    pub fn wait_value(
        &self,
        widget: &str,
        prop: &str,
        value: serde_json::Value,
        timeout: Duration,
    ) -> Result<OracleEvent> {
        self.wait_for(timeout, |e| e.is(widget, prop) && e.value == value)
    }
}
