//! Traces: every step of a test (what was asked, the engine's report or the failure, timing)
//! with the app's compact tree and a labelled screenshot before and after, written when the
//! desktop goes away as one self-contained HTML file (no server: open it in a browser) and a
//! JSON lines log. `DESKPILOT_TRACE=on` keeps every test's trace, `retain-on-failure` only
//! those with a failed step (or a panic), `off` (the default) records nothing. Secret text
//! never enters a trace: steps name it by length, and the engine never reads a password.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use base64::Engine as _;

use crate::secrets::Secrets;
use deskpilot_core::capture::{Region, ShotRequest};
use deskpilot_core::{Action, Engine, SnapshotRequest, present};
use serde::Serialize;

/// When traces are kept.
///
/// ```
/// use deskpilot_test::TraceMode;
/// // `Desktop::with_trace(TraceMode::RetainOnFailure)`: a trace only for a failed test.
/// let mode = TraceMode::RetainOnFailure;
/// assert_ne!(mode, TraceMode::Off);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceMode {
    /// Nothing recorded.
    Off,
    /// Every test's trace written.
    On,
    /// Recorded always, written only for a test with a failed step or a panic.
    RetainOnFailure,
}

impl TraceMode {
    /// From `DESKPILOT_TRACE` (`on`, `retain-on-failure`; anything else is off).
    ///
    /// ```
    /// // DESKPILOT_TRACE=retain-on-failure cargo test
    /// let mode = deskpilot_test::TraceMode::from_env();
    /// println!("tracing: {mode:?}"); // Off unless DESKPILOT_TRACE says otherwise
    /// ```
    pub fn from_env() -> Self {
        match std::env::var("DESKPILOT_TRACE").as_deref() {
            Ok("on") => TraceMode::On,
            Ok("retain-on-failure") => TraceMode::RetainOnFailure,
            _ => TraceMode::Off,
        }
    }
}

/// The app as it looked at one moment.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Capture {
    tree: String,
    /// The screenshot's file name in the trace directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    screenshot: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct Step {
    title: String,
    at_ms: u128,
    duration_ms: u128,
    ok: bool,
    outcome: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<Capture>,
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<Capture>,
}

/// One test's trace.
pub(crate) struct Trace {
    mode: TraceMode,
    dir: PathBuf,
    test: String,
    started: Instant,
    steps: Mutex<Vec<Step>>,
    failed: AtomicBool,
    shots: AtomicUsize,
}

/// A step being recorded: what it was and how the app looked before.
pub(crate) struct Started {
    title: String,
    at: Instant,
    before: Option<Capture>,
}

impl Trace {
    /// A trace for the test running on this thread, in `target/deskpilot-traces/<test>`, or
    /// none when traces are off.
    pub(crate) fn for_this_test(mode: TraceMode) -> Option<Trace> {
        if mode == TraceMode::Off {
            return None;
        }
        let test = std::thread::current()
            .name()
            .unwrap_or("test")
            .replace("::", "-");
        let root = std::env::var_os("DESKPILOT_TRACE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| target_dir().join("deskpilot-traces"));
        let dir = root.join(&test);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).ok()?;
        Some(Trace {
            mode,
            dir,
            test,
            started: Instant::now(),
            steps: Mutex::new(Vec::new()),
            failed: AtomicBool::new(false),
            shots: AtomicUsize::new(0),
        })
    }

    /// The trace's directory.
    pub(crate) fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// Reads the app's tree and takes a labelled screenshot of its window.
    pub(crate) async fn capture(
        &self,
        engine: &Engine,
        session: &str,
        secrets: &Secrets,
    ) -> Capture {
        let handle = engine.session(session);
        let read = async { handle.clone()?.snapshot(&SnapshotRequest::default()).await };
        let tree = match read.await {
            Ok(snapshot) => secrets.redact(&present::snapshot(&snapshot).joined()),
            Err(e) => format!("# no tree: {}", crate::error::failure(&e)),
        };
        if secrets.on_screen() {
            // A secret went into a field that shows its text: no picture of the screen.
            return Capture {
                tree,
                screenshot: None,
            };
        }
        let request = ShotRequest {
            region: Region::Window,
            annotate: true,
            max_side: 1024,
        };
        let shot = async { handle?.screenshot(&request).await };
        let screenshot = match shot.await {
            Ok(shot) => {
                let n = self.shots.fetch_add(1, Ordering::Relaxed);
                let name = format!("shot-{n:03}.png");
                std::fs::write(self.dir.join(&name), &shot.png)
                    .ok()
                    .map(|_| name)
            }
            Err(_) => None,
        };
        Capture { tree, screenshot }
    }

    pub(crate) async fn start(
        &self,
        title: String,
        engine: &Engine,
        session: &str,
        secrets: &Secrets,
    ) -> Started {
        let at = Instant::now();
        let before = Some(self.capture(engine, session, secrets).await);
        Started { title, at, before }
    }

    /// Ends a step: its outcome, and how the app looked after.
    pub(crate) async fn finish_step(
        &self,
        started: Started,
        outcome: Result<String, String>,
        engine: &Engine,
        session: &str,
        secrets: &Secrets,
    ) {
        let duration = started.at.elapsed();
        let after = Some(self.capture(engine, session, secrets).await);
        let ok = outcome.is_ok();
        if !ok {
            self.failed.store(true, Ordering::Relaxed);
        }
        let step = Step {
            title: started.title,
            at_ms: started.at.duration_since(self.started).as_millis(),
            duration_ms: duration.as_millis(),
            ok,
            outcome: outcome.unwrap_or_else(|e| e),
            before: started.before,
            after,
        };
        self.steps.lock().expect("trace steps").push(step);
    }

    /// Counts the test as failed (a soft expectation failed).
    pub(crate) fn mark_failed(&self) {
        self.failed.store(true, Ordering::Relaxed);
    }

    /// Writes the trace (or removes it, for a passing test when only failures are kept).
    pub(crate) fn write(&self) {
        let failed = self.failed.load(Ordering::Relaxed) || std::thread::panicking();
        if self.mode == TraceMode::RetainOnFailure && !failed {
            let _ = std::fs::remove_dir_all(&self.dir);
            return;
        }
        let steps = self.steps.lock().expect("trace steps").clone();
        let mut jsonl = String::new();
        for step in &steps {
            jsonl.push_str(&serde_json::to_string(step).unwrap_or_default());
            jsonl.push('\n');
        }
        let _ = std::fs::write(self.dir.join("trace.jsonl"), jsonl);
        let _ = std::fs::write(self.dir.join("trace.html"), self.html(&steps, failed));
    }

    fn html(&self, steps: &[Step], failed: bool) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title><style>\
             body{{font:14px sans-serif;margin:1em 2em}} .step{{border:1px solid #ccc;margin:1em 0;padding:.5em}}\
             .fail{{border-color:#c00;background:#fff4f4}} pre{{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em}}\
             .pair{{display:flex;gap:1em}} .pair>div{{flex:1;min-width:0}} img{{max-width:100%;border:1px solid #999}}\
             </style></head><body><h1>{title}</h1><p>{verdict}, {n} steps</p>",
            title = escape_html(&self.test),
            verdict = if failed { "failed" } else { "passed" },
            n = steps.len()
        );
        for (i, step) in steps.iter().enumerate() {
            let _ = write!(
                out,
                "<div class=\"step{cls}\"><h2>{i}. {title}</h2><p>at {at} ms, took {took} ms</p><pre>{outcome}</pre><div class=\"pair\">",
                cls = if step.ok { "" } else { " fail" },
                i = i + 1,
                title = escape_html(&step.title),
                at = step.at_ms,
                took = step.duration_ms,
                outcome = escape_html(&step.outcome),
            );
            for (label, capture) in [("before", &step.before), ("after", &step.after)] {
                let _ = write!(out, "<div><h3>{label}</h3>");
                if let Some(capture) = capture {
                    if let Some(name) = &capture.screenshot
                        && let Ok(png) = std::fs::read(self.dir.join(name))
                    {
                        let data = base64::engine::general_purpose::STANDARD.encode(png);
                        let _ = write!(
                            out,
                            "<img alt=\"{label}\" src=\"data:image/png;base64,{data}\">"
                        );
                    }
                    let _ = write!(out, "<pre>{}</pre>", escape_html(&capture.tree));
                }
                out.push_str("</div>");
            }
            out.push_str("</div></div>");
        }
        out.push_str("</body></html>\n");
        out
    }
}

/// An action in a trace's words: the verb, and text only when it is not secret.
pub(crate) fn describe(action: &Action) -> String {
    match action {
        Action::TypeText(text) if !text.is_secret() => format!("type {:?}", text.expose()),
        Action::SetValue(deskpilot_core::ValueInput::Text(text)) if !text.is_secret() => {
            format!("fill {:?}", text.expose())
        }
        Action::SetValue(deskpilot_core::ValueInput::Text(text)) => {
            format!("fill a secret of {text}")
        }
        Action::TypeText(text) => format!("type a secret of {text}"),
        Action::PressKey(chord) => format!("press {chord}"),
        other => other.verb().to_owned(),
    }
}

/// The workspace's `target` directory (where cargo put this test binary), else `target`.
fn target_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("CARGO_TARGET_DIR") {
        return PathBuf::from(dir);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            exe.ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "target"))
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| PathBuf::from("target"))
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}
