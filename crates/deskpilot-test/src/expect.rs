//! Expectations that retry: `expect(&locator).to_be_checked().await?` looks again until the
//! condition holds or the timeout passes, then fails saying what it last saw.

use std::time::Duration;

use deskpilot_core::model::{NodeValue, State, control};
use deskpilot_core::present::strip_refs;
use deskpilot_core::{FindResult, Match, SnapshotRequest, Target};
use tokio::time::Instant;

use crate::error::{Result, TestError};
use crate::locator::Locator;
use crate::session::seen;
use crate::tree::{TreeMatch, compare};

const POLL: Duration = Duration::from_millis(50);

/// Waits until `check` gives a value (polled every 50 ms) or `timeout` passes; for what no
/// locator reads, such as a file the app saved. `what` names the condition in the failure.
///
/// ```no_run
/// # async fn demo() -> deskpilot_test::Result<()> {
/// use std::time::Duration;
/// let text = deskpilot_test::wait_until("the file saved", Duration::from_secs(10), || {
///     std::fs::read_to_string("/tmp/note.txt").ok()
/// })
/// .await?;
/// # Ok(()) }
/// ```
pub async fn wait_until<T>(
    what: &str,
    timeout: Duration,
    mut check: impl FnMut() -> Option<T>,
) -> Result<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = check() {
            return Ok(value);
        }
        if Instant::now() >= deadline {
            return Err(TestError::NotActionable {
                locator: what.to_owned(),
                wanted: "there".into(),
                timeout_ms: timeout.as_millis(),
                seen: "not yet".into(),
            });
        }
        tokio::time::sleep(POLL).await;
    }
}

/// An expectation on what `locator` matches.
///
/// ```no_run
/// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
/// let wrap = app.get_by_role(Role::Checkbox).name("Word wrap");
/// wrap.check().await?;
/// expect(&wrap).to_be_checked().await?; // looks again until it holds, up to the timeout
/// # Ok(()) }
/// ```
pub fn expect(locator: &Locator) -> Expect {
    Expect {
        locator: locator.clone(),
        negate: false,
        timeout: locator.default_timeout(),
        soft: false,
    }
}

/// A condition to wait for; see [`expect`].
///
/// ```no_run
/// # use deskpilot_test::{App, expect, Result}; async fn demo(app: App) -> Result<()> {
/// let saved = expect(&app.get_by_text("Saved")); // nothing is checked yet
/// saved.to_be_visible().await?; // looks until it holds, or fails after the timeout
/// # Ok(()) }
/// ```
#[must_use = "an expectation does nothing until awaited"]
pub struct Expect {
    locator: Locator,
    negate: bool,
    timeout: Duration,
    soft: bool,
}

/// What one look decides.
enum Look {
    Holds(bool),
    /// No element to judge (a condition on one element, and none is visible): neither the
    /// condition nor its negation holds yet.
    NoElement,
    /// Several visible elements where one is meant.
    Ambiguous,
}

impl Expect {
    /// The opposite condition (`expect(&x).not().to_be_visible()`), spelled as Playwright
    /// spells it.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::Dialog)).not().to_be_visible().await?; // waits for it to go
    /// # Ok(()) }
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn not(mut self) -> Self {
        self.negate = !self.negate;
        self
    }

    /// A soft expectation: a failure does not stop the test here; it is kept, and the test
    /// fails with every kept failure when its desktop goes away.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_name("Bold")).soft().to_be_checked().await?; // the test goes on
    /// # Ok(()) }
    /// ```
    pub fn soft(mut self) -> Self {
        self.soft = true;
        self
    }

    /// Waits up to `timeout` instead of the locator's.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// let done = expect(&app.get_by_text("Export complete"));
    /// done.timeout(std::time::Duration::from_secs(30)).to_be_visible().await?;
    /// # Ok(()) }
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Some matching element is visible.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::Dialog).name("Save As")).to_be_visible().await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_be_visible(self) -> Result<()> {
        self.until("visible", |found| Look::Holds(found.visible > 0))
            .await
    }

    /// No matching element is visible (none at all, or all hidden).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::Menu)).to_be_hidden().await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_be_hidden(self) -> Result<()> {
        self.until("hidden", |found| Look::Holds(found.visible == 0))
            .await
    }

    /// Exactly `n` elements match (visible or not).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::Tab)).to_have_count(2).await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_have_count(self, n: usize) -> Result<()> {
        let what = format!("matched by {n} elements");
        self.until(&what, move |found| Look::Holds(found.total == n))
            .await
    }

    /// The element is enabled (a toolkit that does not say counts as enabled).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::Button).name("Save")).to_be_enabled().await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_be_enabled(self) -> Result<()> {
        self.one("enabled", |m| !m.node.states.is_not(State::Enabled))
            .await
    }

    /// The element is known to be disabled.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::MenuItem).name("Undo")).to_be_disabled().await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_be_disabled(self) -> Result<()> {
        self.one("disabled", |m| m.node.states.is_not(State::Enabled))
            .await
    }

    /// The element is on: checked, pressed, or (an item of a multi-selection list with no
    /// check state of its own) selected.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::Checkbox).name("Word wrap")).to_be_checked().await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_be_checked(self) -> Result<()> {
        self.one("checked", |m| {
            control::switch(&m.node, false).and_then(|s| s.read(&m.node)) == Some(true)
        })
        .await
    }

    /// The element has `state` on (`.not()`: off or unknown): selected, expanded, pressed,
    /// any state the engine reads.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, State, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::TreeItem).name("Animals")).to_have_state(State::Expanded).await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_have_state(self, state: State) -> Result<()> {
        self.one(state.name(), |m| m.node.states.is(state)).await
    }

    /// The element has the keyboard focus.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::TextBox).name("Find")).to_be_focused().await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_be_focused(self) -> Result<()> {
        self.one("focused", |m| m.node.states.is(State::Focused))
            .await
    }

    /// The element's value is exactly `value` (a text, or a number as written).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// let width = app.get_by_role(Role::SpinButton).name("Tab width");
    /// expect(&width).to_have_value("4").await?; // a number as Rust writes it: 4.0 reads "4"
    /// # Ok(()) }
    /// ```
    pub async fn to_have_value(self, value: &str) -> Result<()> {
        let what = format!("holding {value:?}");
        let value = value.to_owned();
        self.one(&what, move |m| {
            value_of(m).as_deref() == Some(value.as_str())
        })
        .await
    }

    /// The element's text is exactly `text`: the text it holds (a text box's, a label's), or
    /// its name when it holds none (a button's label). Use `to_contain_text` for a part.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::TextBox)).to_have_text("Dear diary,").await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_have_text(self, text: &str) -> Result<()> {
        let what = format!("reading {text:?}");
        let text = text.to_owned();
        self.one(&what, move |m| text_of(m) == text).await
    }

    /// The element's name or value contains `text`.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::StatusBar)).to_contain_text("Line 1").await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_contain_text(self, text: &str) -> Result<()> {
        let what = format!("containing {text:?}");
        let text = text.to_owned();
        self.one(&what, move |m| {
            m.name.contains(&text) || value_of(m).is_some_and(|v| v.contains(&text))
        })
        .await
    }

    /// The element's subtree, as the compact tree shows it (refs aside), is `expected`:
    /// strictly (`TreeMatch::Strict`: every line, level and flag) or partially (the expected
    /// lines in order). A name written `/regex/` matches by regular expression.
    ///
    /// ```no_run
    /// # async fn demo(dialog: deskpilot_test::Locator) -> deskpilot_test::Result<()> {
    /// use deskpilot_test::{TreeMatch, expect};
    /// expect(&dialog)
    ///     .to_match_tree("- button \"Cancel\"\n- button /^(OK|Apply)$/", TreeMatch::Partial)
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_match_tree(self, expected: &str, mode: TreeMatch) -> Result<()> {
        let session = self.locator.session();
        let wanted = format!("{mode:?} match of the tree");
        let title = || format!("expect {} to match a tree", self.locator.selector());
        let body = self.tree_until(expected, mode, &wanted);
        let result = session.traced(title, body, |()| "met".to_owned()).await;
        self.softened(result)
    }

    /// `to_match_tree` against the tree kept in `path`; with `UPDATE_SNAPSHOTS=1` the file is
    /// (re)written from the app instead (refs aside) and the expectation holds.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, TreeMatch, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// // UPDATE_SNAPSHOTS=1 cargo test   (writes the file from the app)
    /// let dialog = app.get_by_role(Role::Dialog).name("Preferences");
    /// expect(&dialog).to_match_tree_file("tests/trees/preferences.txt", TreeMatch::Strict).await?;
    /// # Ok(()) }
    /// ```
    pub async fn to_match_tree_file(
        self,
        path: impl AsRef<std::path::Path>,
        mode: TreeMatch,
    ) -> Result<()> {
        let path = path.as_ref();
        if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
            let actual = self.subtree().await?;
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            return std::fs::write(path, strip_refs(&actual))
                .map_err(|e| TestError::Desktop(format!("{}: {e}", path.display())));
        }
        let expected = std::fs::read_to_string(path).map_err(|e| {
            TestError::Desktop(format!(
                "{}: {e} (run with UPDATE_SNAPSHOTS=1 to write it)",
                path.display()
            ))
        })?;
        self.to_match_tree(&expected, mode).await
    }

    /// The locator's element and what is under it, rendered.
    async fn subtree(&self) -> Result<String> {
        let session = self.locator.session();
        let selector = self.locator.positioned_selector().await?;
        let request = SnapshotRequest {
            within: Some(Target::Selector(selector)),
            ..SnapshotRequest::default()
        };
        let read = async { session.handle()?.snapshot(&request).await };
        let snapshot = read
            .await
            .map_err(|e| TestError::engine(self.locator.selector(), e))?;
        Ok(snapshot.rendered.text)
    }

    async fn tree_until(&self, expected: &str, mode: TreeMatch, wanted: &str) -> Result<()> {
        let deadline = Instant::now() + self.timeout;
        let mut wake = self.locator.session().wake().await;
        loop {
            let actual = self.subtree().await?;
            let verdict = compare(expected, &actual, mode);
            match verdict {
                Ok(()) if !self.negate => return Ok(()),
                Err(_) if self.negate => return Ok(()),
                _ if Instant::now() >= deadline => {
                    let why = verdict.err().unwrap_or_else(|| "it matches".into());
                    return Err(TestError::NotActionable {
                        locator: self.locator.selector(),
                        wanted: if self.negate {
                            format!("not a {wanted}")
                        } else {
                            wanted.to_owned()
                        },
                        timeout_ms: self.timeout.as_millis(),
                        seen: format!(
                            "{why}\n--- expected\n{}\n--- found\n{}",
                            expected.trim_end(),
                            strip_refs(&actual).trim_end()
                        ),
                    });
                }
                _ => {
                    wake.next(deadline).await;
                }
            }
        }
    }

    /// A condition on the one visible element the locator means (strict).
    async fn one(self, what: &str, holds: impl Fn(&Match) -> bool) -> Result<()> {
        self.until(what, |found| {
            let visible: Vec<&Match> = found.matches.iter().filter(|m| m.visible).collect();
            match visible.as_slice() {
                [] => Look::NoElement,
                [one] => Look::Holds(holds(one)),
                _ => Look::Ambiguous,
            }
        })
        .await
    }

    async fn until(self, what: &str, look: impl Fn(&FindResult) -> Look) -> Result<()> {
        let wanted = if self.negate {
            format!("not {what}")
        } else {
            what.to_owned()
        };
        let session = self.locator.session();
        let title = || format!("expect {} to be {wanted}", self.locator.selector());
        let body = self.look_until(&wanted, look);
        let result = session.traced(title, body, |()| "met".to_owned()).await;
        self.softened(result)
    }

    /// A soft expectation's failure is kept for the end of the test instead of returned.
    fn softened(&self, result: Result<()>) -> Result<()> {
        match result {
            Err(e) if self.soft => {
                self.locator.session().soft_failure(e.to_string());
                Ok(())
            }
            other => other,
        }
    }

    async fn look_until(&self, wanted: &str, look: impl Fn(&FindResult) -> Look) -> Result<()> {
        let deadline = Instant::now() + self.timeout;
        let mut wake = self.locator.session().wake().await;
        loop {
            let found = self.locator.find().await?;
            match look(&found) {
                Look::Holds(holds) if holds != self.negate => return Ok(()),
                Look::Ambiguous => {
                    return Err(TestError::Ambiguous {
                        locator: self.locator.selector(),
                        count: found.visible,
                        lines: seen(&found).trim_start().to_owned(),
                    });
                }
                Look::Holds(_) | Look::NoElement if Instant::now() >= deadline => {
                    return Err(TestError::NotActionable {
                        locator: self.locator.selector(),
                        wanted: wanted.to_owned(),
                        timeout_ms: self.timeout.as_millis(),
                        seen: self.locator.session().seen(&found).await,
                    });
                }
                Look::Holds(_) | Look::NoElement => {
                    wake.next(deadline).await;
                }
            }
        }
    }
}

/// What an element reads as: the text it holds, else its name.
fn text_of(m: &Match) -> String {
    match &m.node.value {
        Some(NodeValue::Text { text }) => text.clone(),
        _ => m.name.clone(),
    }
}

/// An element's value as text: a text as it is, a number as written.
fn value_of(m: &Match) -> Option<String> {
    match &m.node.value {
        Some(NodeValue::Text { text }) => Some(text.clone()),
        Some(NodeValue::Number { current, .. }) => Some(current.to_string()),
        _ => None,
    }
}
