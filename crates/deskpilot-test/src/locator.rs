//! Locators: lazy, strict descriptions of an element, re-resolved at every use. An action waits
//! until exactly one visible element matches and can take it (enabled; editable for text),
//! then runs the engine's verified action on that element.

use std::time::Duration;

use deskpilot_core::act::NotReady;
pub(crate) use deskpilot_core::act::{Needs, Still};
use deskpilot_core::model::State;
use deskpilot_core::{
    Action, ActionReport, Effect, FindResult, Match, Selector, Target, ValueInput, present,
};

use std::sync::Arc;

use deskpilot_packs::named;
use deskpilot_packs::resolve::{Resolution, Resolved, resolve};

use crate::error::{Result, TestError};
use crate::selector_text::quote;
use crate::session::Session;

/// Marks a step whose last match is meant; replaced by `:nth(count - 1)` at every use.
const LAST: &str = ":last";

/// Elements of an app, described by a selector built step by step. Nothing is searched until
/// the locator is used; every use searches afresh.
///
/// ```no_run
/// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
/// let save = app.get_by_role(Role::Button).name("Save"); // nothing searched yet
/// save.click().await?; // searched now, and again at every use
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Locator {
    pub(crate) session: Arc<Session>,
    /// Selector steps, joined by ` >> ` (each step searches within the previous one's matches).
    steps: Vec<String>,
    timeout: Duration,
    pub(crate) confirmed_only: bool,
}

impl Locator {
    pub(crate) fn new(session: Arc<Session>, step: String) -> Self {
        let (timeout, confirmed_only) = (session.timeout, session.confirmed_only);
        Locator {
            session,
            steps: vec![step],
            timeout,
            confirmed_only,
        }
    }

    fn with_last(mut self, criterion: String) -> Self {
        if let Some(last) = self.steps.last_mut() {
            // A criterion after `last()` still narrows the step `last()` counts in.
            match last.strip_suffix(LAST) {
                Some(base) if criterion != LAST => *last = format!("{base}{criterion}{LAST}"),
                _ => last.push_str(&criterion),
            }
        }
        self
    }

    /// Only elements named exactly `name`.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Button).name("Save").click().await?; // exactly: not "Save As"
    /// # Ok(()) }
    /// ```
    pub fn name(self, name: &str) -> Self {
        self.with_last(format!("[name={}]", quote(name)))
    }

    /// Only elements whose name contains `text` (any case).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::MenuItem).name_contains("save as").click().await?;
    /// # Ok(()) }
    /// ```
    pub fn name_contains(self, text: &str) -> Self {
        self.with_last(format!("[name*={}]", quote(text)))
    }

    /// Only elements with `state` known on.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, State, expect, Result}; async fn demo(app: App) -> Result<()> {
    /// expect(&app.get_by_role(Role::Checkbox).with_state(State::Checked)).to_have_count(2).await?;
    /// # Ok(()) }
    /// ```
    pub fn with_state(self, state: State) -> Self {
        self.with_last(format!("[{}]", state.name()))
    }

    /// The `n`-th match (0-based, exact matches first, then document order). Picking by
    /// position is a smell: it breaks when the app adds an element; prefer a name or `within`.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Row).nth(2).select().await?; // a smell: prefer .name("notes.txt")
    /// # Ok(()) }
    /// ```
    pub fn nth(self, n: usize) -> Self {
        self.with_last(format!(":nth({n})"))
    }

    /// The first match (a smell, as `nth` is).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Tab).first().select().await?; // a smell, as `nth` is
    /// # Ok(()) }
    /// ```
    pub fn first(self) -> Self {
        self.nth(0)
    }

    /// The last match, counted afresh at every use (a smell, as `nth` is).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Tab).last().select().await?; // the newest tab, counted at each use
    /// # Ok(()) }
    /// ```
    pub fn last(self) -> Self {
        self.with_last(LAST.to_owned())
    }

    /// Elements of `role` inside this locator's matches.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::Dialog).get_by_role(Role::Button).name("OK").click().await?;
    /// # Ok(()) }
    /// ```
    pub fn get_by_role(&self, role: deskpilot_core::model::Role) -> Locator {
        self.clone().locator(role.name())
    }

    /// Elements `selector` matches inside this locator's matches.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_role(Role::MenuBar).locator(r#"menuitem[name="File"]"#).click().await?;
    /// # Ok(()) }
    /// ```
    pub fn locator(mut self, selector: &str) -> Self {
        self.steps.push(selector.to_owned());
        self
    }

    /// This locator's elements, searched only inside `container`'s.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_name("Save").within(&app.get_by_role(Role::Dialog)).click().await?;
    /// # Ok(()) }
    /// ```
    pub fn within(mut self, container: &Locator) -> Self {
        let mut steps = container.steps.clone();
        steps.append(&mut self.steps);
        self.steps = steps;
        self
    }

    /// Waits up to `timeout` (instead of the desktop's default) for actionability.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> { use std::time::Duration;
    /// app.get_by_name("Export").timeout(Duration::from_secs(30)).click().await?; // a slow one
    /// # Ok(()) }
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Every action through this locator must be `confirmed`; `unverified` or `noop` fails.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_name("Save").confirmed_only().click().await?; // read back, or Err
    /// # Ok(()) }
    /// ```
    pub fn confirmed_only(mut self) -> Self {
        self.confirmed_only = true;
        self
    }

    /// The selector text (what messages show).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role}; fn demo(app: App) {
    /// assert_eq!(app.get_by_role(Role::Button).name("Save").selector(), r#"button[name="Save"]"#);
    /// # }
    /// ```
    pub fn selector(&self) -> String {
        self.steps.join(" >> ")
    }

    pub(crate) fn default_timeout(&self) -> Duration {
        self.timeout
    }

    pub(crate) fn session(&self) -> &Session {
        &self.session
    }

    /// What the locator matches now (no waiting).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// println!("{} visible", app.get_by_role(Role::Button).find().await?.visible); // no waiting
    /// # Ok(()) }
    /// ```
    pub async fn find(&self) -> Result<FindResult> {
        let steps = self.positioned_steps().await?;
        self.find_steps(&steps).await
    }

    async fn find_steps(&self, steps: &[String]) -> Result<FindResult> {
        let (selector, _) = self.parsed(steps.join(" >> ")).await?;
        let found = async { self.session.handle()?.find(&selector, None, 50).await };
        found
            .await
            .map_err(|e| TestError::engine(self.selector(), e))
    }

    /// `text` parsed, the controls it names (`@pack/control`) resolved now in the app.
    async fn parsed(&self, text: String) -> Result<(Selector, Vec<Resolved>)> {
        let Resolution { text, controls } = if named::named(&text).is_empty() {
            Resolution {
                text,
                controls: Vec::new(),
            }
        } else {
            let packs = &self.session.packs;
            let resolved = async {
                let handle = self.session.handle()?;
                resolve(&handle, |id| packs.app(id), &text).await
            };
            resolved
                .await
                .map_err(|e| TestError::engine(self.selector(), e))?
        };
        let selector = Selector::parse(&text).map_err(|e| invalid_selector(&text, e))?;
        Ok((selector, controls))
    }

    /// The selector as it is meant now (`last()` counted), for the engine.
    pub(crate) async fn positioned_selector(&self) -> Result<Selector> {
        Ok(self.positioned().await?.0)
    }

    /// The selector as it is meant now, and the controls it names as they were resolved.
    async fn positioned(&self) -> Result<(Selector, Vec<Resolved>)> {
        let steps = self.positioned_steps().await?;
        self.parsed(steps.join(" >> ")).await
    }

    /// Which selector each control this locator names (`@pack/control`) is found by now: a
    /// later one than the control's first means its pack has drifted from the app.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// for control in app.locator("@mousepad/textbox").controls().await? {
    ///     assert_eq!(control.candidate, 1, "{control:?}"); // the pack's first selector
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn controls(&self) -> Result<Vec<Resolved>> {
        Ok(self.positioned().await?.1)
    }

    /// The selector as meant now, once every control it names is found (waiting up to the
    /// timeout; then the control's first selector, which the wait reports as not found).
    async fn positioned_waiting(&self) -> Result<(Selector, Vec<Resolved>)> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        let mut wake = None;
        loop {
            let (selector, controls) = self.positioned().await?;
            let found = controls.iter().all(|c| c.found);
            if found || tokio::time::Instant::now() >= deadline {
                return Ok((selector, controls));
            }
            let wake = match &mut wake {
                Some(wake) => wake,
                None => wake.insert(self.session.wake().await),
            };
            wake.next(deadline).await;
        }
    }

    /// The steps with every `last()` replaced by the position of the last match now.
    async fn positioned_steps(&self) -> Result<Vec<String>> {
        let mut steps = self.steps.clone();
        for i in 0..steps.len() {
            if let Some(base) = steps[i].strip_suffix(LAST) {
                steps[i] = base.to_owned();
                let total = self.find_steps(&steps[..=i]).await?.total;
                steps[i].push_str(&format!(":nth({})", total.saturating_sub(1)));
            }
        }
        Ok(steps)
    }

    /// How many elements match now, visible ones and hidden ones.
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
    /// let tabs = app.get_by_role(Role::Tab).count().await?; // now, hidden ones too, no waiting
    /// # Ok(()) }
    /// ```
    pub async fn count(&self) -> Result<usize> {
        Ok(self.find().await?.total)
    }

    /// Waits until exactly one visible element matches and meets `needs` (the engine's
    /// actionability rule, the same as the MCP tools' and the CLI's); several visible matches
    /// fail at once (strict).
    pub(crate) async fn actionable(&self, needs: Needs) -> Result<(Match, Vec<Resolved>)> {
        let started = tokio::time::Instant::now();
        let (selector, controls) = self.positioned_waiting().await?;
        let target = Target::Selector(selector);
        let left = self.timeout.saturating_sub(started.elapsed());
        let ready = match self.session.handle() {
            Ok(handle) => handle.actionable(&target, needs, left).await,
            Err(e) => Err(NotReady::Failed(e)),
        };
        match ready {
            Ok(m) => Ok((m, controls)),
            Err(NotReady::Failed(e)) => Err(TestError::engine(self.selector(), e)),
            Err(NotReady::Ambiguous(found)) => Err(TestError::Ambiguous {
                locator: self.selector(),
                count: found.visible,
                lines: found
                    .matches
                    .iter()
                    .filter(|m| m.visible || needs.hidden_too)
                    .map(present::element)
                    .collect::<Vec<_>>()
                    .join("\n"),
            }),
            Err(NotReady::TimedOut { wanted, found, .. }) => {
                // A control by name that none of its selectors found says so first.
                let notes = controls.iter().filter_map(Resolved::note);
                let seen = notes
                    .chain([self.session.seen(&found).await])
                    .collect::<Vec<_>>()
                    .join("; ");
                Err(TestError::NotActionable {
                    locator: self.selector(),
                    wanted,
                    timeout_ms: self.timeout.as_millis(),
                    seen,
                })
            }
        }
    }

    pub(crate) async fn act(&self, needs: Needs, action: Action) -> Result<Acted> {
        let title = || format!("{} {}", crate::trace::describe(&action), self.selector());
        let body = self.act_untraced(needs, &action);
        self.session
            .traced(title, body, |acted| present::action(&acted.report))
            .await
    }

    /// An action's report as the locator's result: a failure when it must be confirmed and is not.
    pub(crate) fn acted(&self, report: ActionReport, controls: Vec<Resolved>) -> Result<Acted> {
        let acted = Acted {
            report,
            controls,
            locator: self.selector(),
        };
        if self.confirmed_only {
            acted.expect_confirmed()
        } else {
            Ok(acted)
        }
    }

    async fn act_untraced(&self, needs: Needs, action: &Action) -> Result<Acted> {
        let (element, controls) = self.actionable(needs).await?;
        let secret = match action {
            Action::TypeText(text) | Action::SetValue(ValueInput::Text(text)) => {
                text.is_secret().then(|| text.expose().to_owned())
            }
            _ => None,
        };
        if let Some(secret) = secret {
            // Kept out of traces and messages from now on; a field that shows its text also
            // keeps the screen out of traces.
            let shown = element.node.role != deskpilot_core::model::Role::Password;
            self.session.secrets.add(&secret, shown);
        }
        let acted = async {
            self.session
                .handle()?
                .act(&Target::Ref(element.reference.clone()), action)
                .await
        };
        let report = acted
            .await
            .map_err(|e| TestError::engine(self.selector(), e))?;
        self.acted(report, controls)
    }
}

impl std::fmt::Display for Locator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.selector())
    }
}

/// An action done, with its report (route, rungs skipped, effect, what changed).
///
/// ```no_run
/// # use deskpilot_test::{App, Role, Result}; async fn demo(app: App) -> Result<()> {
/// let acted = app.get_by_role(Role::Button).name("Save").click().await?;
/// println!("{:?} via {:?}", acted.effect, acted.route); // `Deref`s to its report
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Acted {
    /// The engine's report: the route taken, the rungs skipped, the effect read back.
    pub report: ActionReport,
    /// The controls the locator names (`@pack/control`), each with the selector that found
    /// it: a later one than the first means the pack has drifted.
    pub controls: Vec<Resolved>,
    pub(crate) locator: String,
}

impl Acted {
    /// The report, or a failure when its effect was not confirmed (read back).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Result}; async fn demo(app: App) -> Result<()> {
    /// app.get_by_name("Save").click().await?.expect_confirmed()?; // unverified or noop: Err
    /// # Ok(()) }
    /// ```
    pub fn expect_confirmed(self) -> Result<Acted> {
        if self.report.effect == Effect::Confirmed {
            Ok(self)
        } else {
            Err(TestError::NotConfirmed {
                locator: self.locator,
                report: present::action(&self.report),
            })
        }
    }
}

impl std::ops::Deref for Acted {
    type Target = ActionReport;

    fn deref(&self) -> &ActionReport {
        &self.report
    }
}

/// A selector that does not parse, as a test failure.
fn invalid_selector(text: &str, e: deskpilot_core::SelectorError) -> TestError {
    TestError::engine(
        text,
        deskpilot_core::Error::new(
            deskpilot_core::Code::InvalidSelector,
            e.to_string(),
            "see docs/selectors.md",
        ),
    )
}
