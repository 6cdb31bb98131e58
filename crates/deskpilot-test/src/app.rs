//! An app under test: every window of it, the locators that search them, and keys sent to the
//! one that is active.

use std::sync::Arc;

use deskpilot_core::model::Role;
use deskpilot_core::{Action, ActionReport, Chord, Engine, InputText, SnapshotRequest, present};

use crate::error::{Result, TestError};
use crate::locator::Locator;
use crate::selector_text::quote;
use crate::session::Session;

/// An app on the desktop (all its windows, dialogs included). Cheap to clone.
#[derive(Clone)]
pub struct App {
    inner: Arc<Session>,
}

impl App {
    pub(crate) fn new(session: Arc<Session>) -> Self {
        App { inner: session }
    }

    pub(crate) fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// The engine's session on this app.
    pub fn session(&self) -> &str {
        &self.inner.info.id
    }

    /// The app's name on the accessibility bus.
    pub fn name(&self) -> &str {
        &self.inner.info.app.name
    }

    /// The app's process id, when the bus knows it.
    pub fn pid(&self) -> Option<u32> {
        self.inner.info.app.pid
    }

    /// Elements of a role: `app.get_by_role(Role::Button).name("Save")`.
    pub fn get_by_role(&self, role: Role) -> Locator {
        Locator::new(self.inner.clone(), role.name().to_owned())
    }

    /// Elements named exactly `name`, whatever their role.
    pub fn get_by_name(&self, name: &str) -> Locator {
        Locator::new(self.inner.clone(), format!("*[name={}]", quote(name)))
    }

    /// Elements whose name contains `text` (any case): a label's, a button's, a cell's text.
    pub fn get_by_text(&self, text: &str) -> Locator {
        Locator::new(self.inner.clone(), format!("*[name*={}]", quote(text)))
    }

    /// The element with this accessible id (where the toolkit sets ids).
    pub fn get_by_id(&self, id: &str) -> Locator {
        Locator::new(self.inner.clone(), format!("*[id={}]", quote(id)))
    }

    /// Elements a selector matches (the grammar of `docs/selectors.md`).
    pub fn locator(&self, selector: &str) -> Locator {
        Locator::new(self.inner.clone(), selector.to_owned())
    }

    /// Presses a key or chord (`Enter`, `ctrl+s`) in the app's active window.
    pub async fn press(&self, key: &str) -> Result<ActionReport> {
        let chord: Chord = key
            .parse()
            .map_err(|e: deskpilot_core::act::KeyError| TestError::Desktop(e.to_string()))?;
        self.on_window(Action::PressKey(chord), key).await
    }

    /// Types text into whatever has the focus in the app's active window.
    pub async fn type_text(&self, text: &str) -> Result<ActionReport> {
        let action = Action::TypeText(InputText::plain(text));
        self.on_window(action, "typing").await
    }

    async fn on_window(&self, action: Action, what: &str) -> Result<ActionReport> {
        let title = || format!("{} in {}", crate::trace::describe(&action), self.name());
        let body = async {
            self.engine()
                .act_on_window(self.session(), &action)
                .await
                .map_err(|e| TestError::engine(format!("{} ({what})", self.name()), e))
        };
        self.inner.traced(title, body, present::action).await
    }

    /// The app's active window as the compact tree a model reads (the others folded).
    pub async fn snapshot(&self) -> Result<String> {
        let snapshot = self
            .engine()
            .snapshot(self.session(), &SnapshotRequest::default())
            .await
            .map_err(|e| TestError::engine(self.name(), e))?;
        Ok(present::snapshot(&snapshot).joined())
    }
}
