//! An app under test: every window of it, the locators that search them, and keys sent to the
//! one that is active.

use std::sync::Arc;

use deskpilot_core::model::Role;
use deskpilot_core::{Action, ActionReport, Chord, InputText, SnapshotRequest, present};

use crate::error::{Result, TestError};
use crate::locator::Locator;
use crate::selector_text::quote;
use crate::session::Session;

/// An app on the desktop (all its windows, dialogs included). Cheap to clone.
///
/// ```no_run
/// # async fn demo() -> deskpilot_test::Result<()> {
/// use deskpilot_test::{Desktop, Role, expect};
/// let desktop = Desktop::headless().await?;
/// let app = desktop.launch(["mousepad"]).await?;
/// app.press("ctrl+s").await?; // the Save As dialog is one of its windows too
/// expect(&app.get_by_role(Role::Button).name("Cancel")).to_be_visible().await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct App {
    inner: Arc<Session>,
}

impl App {
    pub(crate) fn new(session: Arc<Session>) -> Self {
        App { inner: session }
    }

    /// The engine's session on this app.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Desktop}; fn demo(desktop: Desktop, app: App) {
    /// let session = desktop.engine().session(app.session()).expect("the session is open");
    /// let info = session.info().expect("the session is open");
    /// assert_eq!(info.app.name, app.name());
    /// # }
    /// ```
    pub fn session(&self) -> &str {
        &self.inner.info.id
    }

    /// The app's name on the accessibility bus.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Desktop, Result}; async fn demo(desktop: Desktop, app: App) -> Result<()> {
    /// let again = desktop.attach(app.name()).await?; // the same app, by its bus name
    /// # Ok(()) }
    /// ```
    pub fn name(&self) -> &str {
        &self.inner.info.app.name
    }

    /// What the bus said of the app when the session was opened.
    pub(crate) fn app_info(&self) -> &deskpilot_core::AppInfo {
        &self.inner.info.app
    }

    /// The app's process id, when the bus knows it.
    ///
    /// ```no_run
    /// # use deskpilot_test::App; fn demo(app: App) {
    /// let pid = app.pid().expect("the bus knows the pid");
    /// assert!(std::path::Path::new(&format!("/proc/{pid}")).exists());
    /// # }
    /// ```
    pub fn pid(&self) -> Option<u32> {
        self.inner.info.app.pid
    }

    /// Elements of a role: `app.get_by_role(Role::Button).name("Save")`.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::MenuItem).name("Quit").click().await?;
    /// # Ok(()) }
    /// ```
    pub fn get_by_role(&self, role: Role) -> Locator {
        Locator::new(self.inner.clone(), role.name().to_owned())
    }

    /// Elements named exactly `name`, whatever their role.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_name("Save").click().await?; // a button, a menu item: whichever is visible
    /// # Ok(()) }
    /// ```
    pub fn get_by_name(&self, name: &str) -> Locator {
        Locator::new(self.inner.clone(), format!("*[name={}]", quote(name)))
    }

    /// Elements whose name contains `text` (any case): a label's, a button's, a cell's text.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_text("42")).to_be_visible().await?;
    /// # Ok(()) }
    /// ```
    pub fn get_by_text(&self, text: &str) -> Locator {
        Locator::new(self.inner.clone(), format!("*[name*={}]", quote(text)))
    }

    /// The element with this accessible id (where the toolkit sets ids).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_id("save-button").click().await?;
    /// # Ok(()) }
    /// ```
    pub fn get_by_id(&self, id: &str) -> Locator {
        Locator::new(self.inner.clone(), format!("*[id={}]", quote(id)))
    }

    /// Elements a selector matches (the grammar of `docs/selectors.md`).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// app.locator(r#"dialog[name="Save As"] >> button[name="Save"]"#).click().await?;
    /// # Ok(()) }
    /// ```
    pub fn locator(&self, selector: &str) -> Locator {
        Locator::new(self.inner.clone(), selector.to_owned())
    }

    /// Presses a key or chord (`Enter`, `ctrl+s`) in the app's active window.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// app.press("ctrl+s").await?;
    /// # Ok(()) }
    /// ```
    pub async fn press(&self, key: &str) -> Result<ActionReport> {
        let chord: Chord = key
            .parse()
            .map_err(|e: deskpilot_core::act::KeyError| TestError::Desktop(e.to_string()))?;
        self.on_window(Action::PressKey(chord), key).await
    }

    /// Types text into whatever has the focus in the app's active window.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::TextBox).focus().await?;
    /// app.type_text("Dear diary,").await?;
    /// # Ok(()) }
    /// ```
    pub async fn type_text(&self, text: &str) -> Result<ActionReport> {
        let action = Action::TypeText(InputText::plain(text));
        self.on_window(action, "typing").await
    }

    async fn on_window(&self, action: Action, what: &str) -> Result<ActionReport> {
        let title = || format!("{} in {}", crate::trace::describe(&action), self.name());
        let body = async {
            let acted = async { self.inner.handle()?.act_on_window(&action).await };
            acted
                .await
                .map_err(|e| TestError::engine(format!("{} ({what})", self.name()), e))
        };
        self.inner.traced(title, body, present::action).await
    }

    /// The app's active window as the compact tree a model reads (the others folded).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// println!("{}", app.snapshot().await?); // `- button "Save" [ref=e5]`, one line each
    /// # Ok(()) }
    /// ```
    pub async fn snapshot(&self) -> Result<String> {
        let read = async {
            self.inner
                .handle()?
                .snapshot(&SnapshotRequest::default())
                .await
        };
        let snapshot = read.await.map_err(|e| TestError::engine(self.name(), e))?;
        Ok(present::snapshot(&snapshot).joined())
    }
}
