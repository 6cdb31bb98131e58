//! The process behind an id, asked of the system (never of the app): checked before any call
//! reaches the app, and whether it still runs.

use deskpilot_platform::BackendError;
use deskpilot_platform::model::ElementId;

use super::{Resolved, WindowsBackend};
use crate::identity::parse;
use crate::source::UiaSource;

impl<S: UiaSource> WindowsBackend<S> {
    /// The process `id` names, checked: still the one that issued the id (not a recycled
    /// pid), and not elevated above deskpilot (its tree would be hidden and its input
    /// dropped: refused, never read as empty).
    pub(super) async fn resolve(&self, id: &ElementId) -> Result<Resolved, BackendError> {
        let (pid, started, named) =
            parse(id).ok_or_else(|| BackendError::Defunct { id: id.clone() })?;
        let gone = || BackendError::AppGone {
            app: id.app.clone(),
        };
        let process = self
            .calls
            .system(self.source().process(pid))
            .await
            .map_err(|_| gone())?;
        if process.started != started {
            return Err(gone());
        }
        if let Some(why) = process.rights.refusal() {
            return Err(BackendError::AccessDenied {
                app: id.app.clone(),
                why: format!("{} {why}", process.exe),
            });
        }
        self.apps.note_process(&process);
        Ok(Resolved { process, named })
    }

    /// Whether the process `app` names still runs: a frozen app does, an ended one or a
    /// recycled pid does not.
    pub(super) async fn process_running(&self, app: &ElementId) -> Option<bool> {
        let (pid, started, _) = parse(app)?;
        match self.calls.system(self.source().process(pid)).await {
            Ok(process) => Some(process.started == started),
            Err(_) => Some(false),
        }
    }
}
