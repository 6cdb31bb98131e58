//! The desktop a test runs on: a private headless one (torn down when dropped, also when the
//! test panics) or the person's own, and the apps started on it or attached to.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::{Code, ConnectTarget, Engine};
use deskpilot_packs::resolve::{mismatch, recognises};

use crate::app::App;
use crate::error::{Result, TestError};
use crate::packs::Packs;
use crate::secrets::Secrets;
use crate::session::{Session, SoftFailures};
use crate::slots::{Slot, Slots};
use crate::trace::{Trace, TraceMode};
use deskpilot_desktop::{Private, PrivateDisplay, Reach};

/// A desktop with deskpilot's engine on it.
///
/// ```no_run
/// # async fn demo() -> deskpilot_test::Result<()> {
/// let desktop = deskpilot_test::Desktop::for_test().await?;
/// let calc = desktop.launch(["gnome-calculator"]).await?;
/// drop(desktop); // the desktop and gnome-calculator are stopped
/// # Ok(()) }
/// ```
pub struct Desktop {
    /// This test's trace (`DESKPILOT_TRACE`), written when the desktop goes away.
    trace: Option<Arc<Trace>>,
    engine: Arc<Engine>,
    /// The private desktop, when this one is headless (dropped last: its teardown stops every
    /// process started on it).
    headless: Option<Private>,
    _slot: Option<Slot>,
    /// How long locators and expectations wait by default.
    timeout: Duration,
    /// Soft expectations that failed; the test fails with them when the desktop goes away.
    soft: SoftFailures,
    /// Every action through this desktop's locators must be confirmed.
    confirmed_only: bool,
    /// What the test typed as secret.
    secrets: Secrets,
    /// The app packs its locators name controls of, and the roots of the test's own.
    packs: Arc<Packs>,
    pack_roots: Vec<PathBuf>,
}

impl Desktop {
    /// A private headless desktop (Xvfb, its own D-Bus session and accessibility bus, a window
    /// manager) for this test alone; at most `DESKPILOT_TEST_DESKTOPS` (default 2) run at once
    /// for this user, under `cargo test` or `cargo nextest` alike (a lock file per slot).
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// let desktop = deskpilot_test::Desktop::headless().await?;
    /// let app = desktop.launch(["mousepad"]).await?;
    /// # Ok(()) }
    /// ```
    pub async fn headless() -> Result<Desktop> {
        Desktop::headless_on(PrivateDisplay::X11).await
    }

    /// A private headless desktop on the display server chosen: `Wayland` runs headless sway,
    /// `Gnome` headless GNOME Shell, each with apps native on Wayland.
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// use deskpilot_test::{Desktop, PrivateDisplay};
    /// let desktop = Desktop::headless_on(PrivateDisplay::Wayland).await?;
    /// let app = desktop.launch(["mousepad"]).await?;
    /// # Ok(()) }
    /// ```
    pub async fn headless_on(display: PrivateDisplay) -> Result<Desktop> {
        let slot = Slots::for_user().acquire().await?;
        let (engine, headless) = deskpilot_desktop::private_on(display)
            .await
            .map_err(desktop_missing)?;
        Ok(Desktop::on(engine, Some(headless), Some(slot)))
    }

    /// A desktop over `engine`, with the defaults every desktop starts with.
    fn on(engine: Engine, headless: Option<Private>, slot: Option<Slot>) -> Desktop {
        Desktop {
            trace: Trace::for_this_test(TraceMode::from_env()).map(Arc::new),
            engine: Arc::new(engine),
            headless,
            _slot: slot,
            timeout: Duration::from_secs(5),
            soft: SoftFailures::default(),
            confirmed_only: false,
            secrets: Secrets::default(),
            packs: crate::packs::shipped_packs(),
            pack_roots: Vec::new(),
        }
    }

    /// The desktop a test runs on: a private headless one, or with `DESKPILOT_HEADED=1` the
    /// one this process runs on, to watch the test drive the app.
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// // DESKPILOT_HEADED=1 cargo test -- --nocapture   (on your own desktop)
    /// let desktop = deskpilot_test::Desktop::for_test().await?;
    /// # Ok(()) }
    /// ```
    pub async fn for_test() -> Result<Desktop> {
        if std::env::var("DESKPILOT_HEADED").as_deref() == Ok("1") {
            Desktop::current().await
        } else {
            Desktop::headless().await
        }
    }

    /// The desktop this process runs on (`DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`): for watching
    /// a test, or testing an app already open. Nothing is torn down.
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// let desktop = deskpilot_test::Desktop::current().await?; // yours: nothing torn down
    /// let mousepad = desktop.attach("mousepad").await?;
    /// # Ok(()) }
    /// ```
    pub async fn current() -> Result<Desktop> {
        let engine = deskpilot_desktop::this_desktop(Reach::default()).await;
        Ok(Desktop::on(engine.map_err(desktop_missing)?, None, None))
    }

    /// Records this test's trace whatever `DESKPILOT_TRACE` says (`TraceMode::On`: always
    /// written; `RetainOnFailure`: written when a step failed or the test panicked).
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// use deskpilot_test::{Desktop, TraceMode};
    /// let desktop = Desktop::headless().await?.with_trace(TraceMode::RetainOnFailure);
    /// # Ok(()) }
    /// ```
    pub fn with_trace(mut self, mode: TraceMode) -> Self {
        self.trace = Trace::for_this_test(mode).map(Arc::new);
        self
    }

    /// Where this test's trace is written (`trace.html`, `trace.jsonl`, the screenshots), when
    /// it is traced.
    ///
    /// ```no_run
    /// # async fn demo(desktop: deskpilot_test::Desktop) -> deskpilot_test::Result<()> {
    /// if let Some(dir) = desktop.trace_dir() {
    ///     println!("open {}", dir.join("trace.html").display());
    /// }
    /// # Ok(()) }
    /// ```
    pub fn trace_dir(&self) -> Option<&std::path::Path> {
        self.trace.as_deref().map(Trace::dir)
    }

    /// Strict effects: every action through this desktop's locators must be `confirmed`
    /// (read back); `unverified` or `noop` fails the step.
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// let desktop = deskpilot_test::Desktop::headless().await?.confirmed_only();
    /// let app = desktop.launch(["mousepad"]).await?; // its clicks must be read back
    /// # Ok(()) }
    /// ```
    pub fn confirmed_only(mut self) -> Self {
        self.confirmed_only = true;
        self
    }

    /// The same desktop with another default timeout for its locators and expectations.
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// use std::time::Duration;
    /// let desktop = deskpilot_test::Desktop::headless().await?;
    /// let desktop = desktop.with_timeout(Duration::from_secs(15)); // a slow app
    /// # Ok(()) }
    /// ```
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The app packs under `root` (each of its directories with a `manifest.json` is one)
    /// beside the packs shipped with deskpilot, whose ids they may take over: for
    /// [`Desktop::launch_pack`] and for locators that name a control, `@pack/control`. A pack
    /// with an error fails here, every error listed. Roots add up; one id in two of them is
    /// an error naming both.
    ///
    /// ```no_run
    /// # async fn demo() -> deskpilot_test::Result<()> {
    /// let desktop = deskpilot_test::Desktop::headless().await?.with_packs("tests/packs")?;
    /// let app = desktop.launch_pack("my-editor").await?;
    /// app.locator("@my-editor/save_button").click().await?;
    /// # Ok(()) }
    /// ```
    pub fn with_packs(mut self, root: impl Into<PathBuf>) -> Result<Self> {
        self.pack_roots.push(root.into());
        self.packs = crate::packs::with_roots(self.pack_roots.clone())?;
        Ok(self)
    }

    /// Starts the app of pack `id` as its profile says: the program its `path_env` variable
    /// names, else its programs in order, with its arguments. Waits for its window, and
    /// checks that the app is the pack's (`pack_mismatch` when another app came up).
    ///
    /// ```no_run
    /// # async fn demo(desktop: deskpilot_test::Desktop) -> deskpilot_test::Result<()> {
    /// let mousepad = desktop.launch_pack("mousepad").await?; // a pack shipped with deskpilot
    /// mousepad.locator("@mousepad/textbox").type_text("Dear diary,").await?;
    /// # Ok(()) }
    /// ```
    pub async fn launch_pack(&self, id: &str) -> Result<App> {
        let what = format!("launch pack {id:?}");
        let no_pack = |message: String| {
            let hint = "ship the pack in a root given to `Desktop::with_packs`";
            TestError::engine(
                &what,
                deskpilot_core::Error::new(Code::UnknownPack, message, hint),
            )
        };
        let pack = self
            .packs
            .app(id)
            .ok_or_else(|| no_pack(format!("no app pack {id:?}")))?;
        let launch =
            pack.profile.launch.as_ref().ok_or_else(|| {
                no_pack(format!("pack {id:?} does not say how its app is started"))
            })?;
        let mut last = None;
        for argv in launch.command_lines(|name| std::env::var(name).ok()) {
            match self.launch(&argv).await {
                Err(TestError::Engine { error, .. }) if error.code == Code::NotFound => {
                    last = Some(error);
                }
                Ok(app) if !recognises(&pack.profile.main_window, app.app_info()) => {
                    let error = mismatch(id, app.name());
                    return Err(TestError::engine(&what, error));
                }
                other => return other,
            }
        }
        let message = format!("pack {id:?} names no program found here");
        let error = last.unwrap_or_else(|| {
            deskpilot_core::Error::new(Code::NotFound, message, "install the app")
        });
        Err(TestError::engine(&what, error))
    }

    /// Starts a program (no shell) and waits until it shows a window; returns a handle on all
    /// its windows.
    ///
    /// ```no_run
    /// # async fn demo(desktop: deskpilot_test::Desktop) -> deskpilot_test::Result<()> {
    /// let app = desktop.launch(["mousepad", "/tmp/note.txt"]).await?;
    /// # Ok(()) }
    /// ```
    pub async fn launch<S: AsRef<str>>(&self, argv: impl IntoIterator<Item = S>) -> Result<App> {
        let argv: Vec<String> = argv.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let what = format!("launch {argv:?}");
        let launched = self
            .engine
            .launch_app(&argv, Duration::from_secs(60))
            .await
            .map_err(|e| TestError::engine(&what, e))?;
        let target = match launched.app.pid {
            Some(pid) => ConnectTarget::Pid(pid),
            None => ConnectTarget::AppName(launched.app.name.clone()),
        };
        self.connect(&target, &what).await
    }

    /// An app already running, by its name as the accessibility bus lists it, or its pid.
    ///
    /// ```no_run
    /// # async fn demo(desktop: deskpilot_test::Desktop) -> deskpilot_test::Result<()> {
    /// let calc = desktop.attach("gnome-calculator").await?; // by name
    /// if let Some(pid) = calc.pid() {
    ///     let same = desktop.attach(pid).await?; // or by pid
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn attach(&self, app: impl Into<AppRef>) -> Result<App> {
        let target = match app.into() {
            AppRef::Name(name) => ConnectTarget::AppName(name),
            AppRef::Pid(pid) => ConnectTarget::Pid(pid),
        };
        self.connect(&target, "attach").await
    }

    async fn connect(&self, target: &ConnectTarget, what: &str) -> Result<App> {
        let session = self
            .engine
            .connect(target)
            .await
            .map_err(|e| TestError::engine(what, e))?;
        // Tests judge with expectations: an action need not read the whole tree again to say
        // what changed (the MCP server's and the CLI's sessions do).
        if let Ok(handle) = self.engine.session(&session.id) {
            let _ = handle.follow_tree(false);
        }
        Ok(App::new(Arc::new(Session {
            engine: self.engine.clone(),
            info: session,
            timeout: self.timeout,
            trace: self.trace.clone(),
            soft: self.soft.clone(),
            confirmed_only: self.confirmed_only,
            secrets: self.secrets.clone(),
            packs: self.packs.clone(),
        })))
    }

    /// Takes the soft expectations that failed so far (they then no longer fail the test).
    ///
    /// ```no_run
    /// # use deskpilot_test::{App, Desktop, expect, Result}; async fn demo(desktop: Desktop, app: App) -> Result<()> {
    /// expect(&app.get_by_name("Bold")).soft().to_be_checked().await?;
    /// let failed = desktop.take_soft_failures(); // they no longer fail the test at drop
    /// assert!(failed.is_empty(), "{failed:?}");
    /// # Ok(()) }
    /// ```
    pub fn take_soft_failures(&self) -> Vec<String> {
        std::mem::take(&mut *self.soft.lock().expect("soft failures"))
    }

    /// The engine underneath, for what the locators do not cover.
    ///
    /// ```no_run
    /// # async fn demo(desktop: deskpilot_test::Desktop) -> deskpilot_test::Result<()> {
    /// let apps = desktop.engine().apps().await.expect("the bus lists its apps");
    /// for app in &apps {
    ///     println!("{} (pid {:?})", app.name, app.pid);
    /// }
    /// # Ok(()) }
    /// ```
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// A command for `program` that runs on this desktop (its display, session bus and, when
    /// headless, its environment): for oracles that read the app from outside, such as a
    /// second accessibility client.
    ///
    /// ```no_run
    /// # fn demo(desktop: deskpilot_test::Desktop) {
    /// let out = desktop.command("xprop").args(["-root", "_NET_ACTIVE_WINDOW"]).output();
    /// let active = String::from_utf8_lossy(&out.expect("xprop runs").stdout).into_owned();
    /// # }
    /// ```
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        match &self.headless {
            Some(headless) => headless.command(program),
            None => std::process::Command::new(program),
        }
    }

    /// The headless desktop's display (`:N`), when this one is headless.
    ///
    /// ```no_run
    /// # fn demo(desktop: deskpilot_test::Desktop) {
    /// if let Some(display) = desktop.display() {
    ///     println!("to watch: x11vnc -display {display}");
    /// }
    /// # }
    /// ```
    pub fn display(&self) -> Option<&str> {
        self.headless
            .as_ref()
            .map(|h| h.display())
            .filter(|d| !d.is_empty())
    }

    /// The headless desktop's working directory (logs, and a place for test files).
    ///
    /// ```no_run
    /// # async fn demo(desktop: deskpilot_test::Desktop) -> deskpilot_test::Result<()> {
    /// let note = desktop.dir().expect("a headless desktop").join("note.txt");
    /// std::fs::write(&note, "hello").expect("the desktop's directory is writable");
    /// let app = desktop.launch(["mousepad", &note.to_string_lossy()]).await?;
    /// # Ok(()) }
    /// ```
    pub fn dir(&self) -> Option<&std::path::Path> {
        self.headless.as_ref().map(|h| h.dir())
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        // Before the desktop's teardown: the trace's last captures are already on disk.
        let soft = self.take_soft_failures();
        if let Some(trace) = &self.trace {
            if !soft.is_empty() {
                trace.mark_failed();
            }
            trace.write();
        }
        if !soft.is_empty() && !std::thread::panicking() {
            panic!(
                "{} soft expectation(s) failed:\n{}",
                soft.len(),
                soft.join("\n")
            );
        }
    }
}

/// An app by name or pid.
///
/// ```no_run
/// # async fn demo(desktop: deskpilot_test::Desktop) -> deskpilot_test::Result<()> {
/// use deskpilot_test::AppRef;
/// let calc = desktop.attach(AppRef::Name("gnome-calculator".into())).await?; // or the &str
/// let by_pid = AppRef::Pid(4242); // or the u32 itself
/// # Ok(()) }
/// ```
pub enum AppRef {
    /// The app's name on the accessibility bus (exact, else contained, any case).
    Name(String),
    /// The app's process id.
    Pid(u32),
}

impl From<&str> for AppRef {
    fn from(name: &str) -> Self {
        AppRef::Name(name.to_owned())
    }
}

impl From<u32> for AppRef {
    fn from(pid: u32) -> Self {
        AppRef::Pid(pid)
    }
}

fn desktop_missing(missing: deskpilot_desktop::Missing) -> TestError {
    TestError::Desktop(missing.why)
}
