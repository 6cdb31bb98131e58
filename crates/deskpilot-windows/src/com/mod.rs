//! UI Automation through COM: the `UiaSource` the backend reads on Windows. Every call runs
//! on a worker thread in the multithreaded apartment (`worker.rs`), one worker per app and
//! one for the desktop; the backend's deadline bounds each, and UIA's own connection and
//! transaction timeouts free a worker that a frozen app holds.

mod act;
mod content;
mod desktop;
mod events;
mod files;
mod input;
mod pixels;
mod process;
mod props;
mod session;
mod uia;
mod variant;
mod win_events;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

pub use desktop::Win32Windows;
pub use files::link_count;
pub use input::Win32Input;
pub use pixels::{GdiPixels, parent_of};
pub use uia::Timeouts;

use crate::raw::{RawElement, RawProcess, RuntimeKey, UiaError};
use crate::source::{Below, RawGrid, TextRead, UiaSource};
use crate::worker::Worker;
use uia::Uia;

/// This session's desktop: the backend over UI Automation, with the system's window list
/// (shared with the engine, which raises and asks windows through it).
pub struct SessionDesktop {
    pub backend: Arc<crate::WindowsBackend<ComSource>>,
    pub windows: Arc<dyn deskpilot_platform::WindowSystem>,
    pub input: Arc<dyn deskpilot_platform::InputDevice>,
    pub capture: Arc<dyn deskpilot_platform::ScreenCapture>,
    pub launcher: Arc<dyn deskpilot_platform::Launcher>,
}

/// The desktop of this session, or why there is none to work on.
pub fn session_desktop() -> Result<SessionDesktop, crate::session::Unavailable> {
    if let Some(why) = crate::session::missing_desktop(session::facts()) {
        return Err(crate::session::Unavailable::NoDesktop(why));
    }
    let windows: Arc<dyn deskpilot_platform::WindowSystem> = Arc::new(
        crate::system_windows::SystemWindows::new(Arc::new(Win32Windows), crate::CALL_TIMEOUT),
    );
    // Bounds, window areas and (later) input in physical pixels on every monitor; a
    // process already set keeps its own.
    // SAFETY: a process-wide setting, made before any window is read.
    #[allow(unsafe_code)]
    unsafe {
        let _ = windows::Win32::UI::HiDpi::SetProcessDpiAwarenessContext(
            windows::Win32::UI::HiDpi::DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2,
        );
    }
    let source = ComSource::new(Timeouts::default())?;
    let backend = crate::WindowsBackend::new(Arc::new(source), crate::CALL_TIMEOUT)
        .with_window_system(windows.clone());
    let input = Arc::new(crate::send_input::SendInputDevice::new(
        Arc::new(Win32Input),
        crate::CALL_TIMEOUT,
    ));
    let capture = Arc::new(crate::capture::GdiCapture::new(
        Arc::new(GdiPixels),
        crate::CALL_TIMEOUT,
    ));
    let launcher = Arc::new(crate::launch::WindowsLauncher::new(
        std::env::vars(),
        parent_of,
    ));
    Ok(SessionDesktop {
        backend: Arc::new(backend),
        windows,
        input,
        capture,
        launcher,
    })
}

/// A COM error as the seam's.
pub(crate) fn com_error(error: windows::core::Error) -> UiaError {
    UiaError::Com {
        hresult: error.code().0,
        message: error.message(),
    }
}

/// UI Automation on this desktop.
pub struct ComSource {
    timeouts: Timeouts,
    desktop: Worker<Uia>,
    /// Event handlers are added (and would be removed) on one thread, as UIA asks.
    events: Worker<Uia>,
    apps: Mutex<HashMap<u32, Arc<Worker<Uia>>>>,
}

impl ComSource {
    pub fn new(timeouts: Timeouts) -> Result<Self, UiaError> {
        Ok(ComSource {
            timeouts,
            desktop: Worker::spawn("uia-desktop".into(), move || Uia::start(timeouts))?,
            events: Worker::spawn("uia-events".into(), move || Uia::start(timeouts))?,
            apps: Mutex::default(),
        })
    }

    /// The worker of process `pid` (started on its first call).
    fn app(&self, pid: u32) -> Result<Arc<Worker<Uia>>, UiaError> {
        let mut apps = self.apps.lock().expect("uia workers");
        if let Some(worker) = apps.get(&pid) {
            return Ok(worker.clone());
        }
        let timeouts = self.timeouts;
        let worker = Worker::spawn(format!("uia-{pid}"), move || Uia::start(timeouts))?;
        let worker = Arc::new(worker);
        apps.insert(pid, worker.clone());
        Ok(worker)
    }
}

#[async_trait]
impl UiaSource for ComSource {
    async fn top_level(&self) -> Result<Vec<RawElement>, UiaError> {
        let top = self.desktop.run(|uia| uia.top_level()).await?;
        // Workers of processes with no window left end with their queues.
        let mut apps = self.apps.lock().expect("uia workers");
        apps.retain(|pid, _| top.iter().any(|w| w.owner() == *pid));
        Ok(top)
    }

    async fn windows_of(&self, pid: u32) -> Result<Vec<RawElement>, UiaError> {
        self.app(pid)?.run(move |uia| uia.windows_of(pid)).await
    }

    async fn watch(&self, pid: u32, log: Arc<crate::events::EventLog>) -> Result<bool, UiaError> {
        // WinEvents count what UIA's handlers may miss (native controls, windows opened
        // after the handlers were added).
        let hooked = match win_events::hook(pid, log.clone()) {
            Ok(()) => true,
            Err(why) => {
                tracing::warn!(pid, %why, "no WinEvent hook: UIA's handlers alone wake waits");
                false
            }
        };
        // The desktop's handlers on the events worker, once; the app's on its own worker.
        let desktop = log.clone();
        if let Err(why) = self.events.run(move |uia| uia.watch_desktop(desktop)).await {
            tracing::warn!(%why, "no focus or window-opened handlers");
        }
        let handled = self.app(pid)?.run(move |uia| uia.watch_app(pid, log)).await;
        match handled {
            Ok(watched) => Ok(watched || hooked),
            Err(_) if hooked => Ok(true),
            Err(e) => Err(e),
        }
    }

    async fn process(&self, pid: u32) -> Result<RawProcess, UiaError> {
        tokio::task::spawn_blocking(move || process::process(pid))
            .await
            .map_err(|e| UiaError::Com {
                hresult: crate::error::hresult::E_OUTOFMEMORY,
                message: e.to_string(),
            })?
    }

    async fn element(&self, pid: u32, key: &RuntimeKey) -> Result<RawElement, UiaError> {
        let key = key.clone();
        self.app(pid)?.run(move |uia| uia.element(pid, &key)).await
    }

    async fn children(&self, pid: u32, key: &RuntimeKey) -> Result<Vec<RawElement>, UiaError> {
        let key = key.clone();
        self.app(pid)?.run(move |uia| uia.children(pid, &key)).await
    }

    async fn child_counts(
        &self,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<Vec<(RuntimeKey, u32)>, UiaError> {
        let key = key.clone();
        self.app(pid)?
            .run(move |uia| uia.child_counts(pid, &key))
            .await
    }

    async fn parent(&self, pid: u32, key: &RuntimeKey) -> Result<Option<RawElement>, UiaError> {
        let key = key.clone();
        self.app(pid)?.run(move |uia| uia.parent(pid, &key)).await
    }

    async fn values_below(
        &self,
        pid: u32,
        key: &RuntimeKey,
        below: Below,
    ) -> Result<Vec<(RuntimeKey, String)>, UiaError> {
        let key = key.clone();
        self.app(pid)?
            .run(move |uia| uia.values_below(pid, &key, below))
            .await
    }

    async fn value(&self, pid: u32, key: &RuntimeKey) -> Result<Option<String>, UiaError> {
        let key = key.clone();
        self.app(pid)?.run(move |uia| uia.value(pid, &key)).await
    }

    async fn element_at(&self, pid: u32, x: i32, y: i32) -> Result<Vec<RawElement>, UiaError> {
        self.app(pid)?.run(move |uia| uia.element_at(x, y)).await
    }

    async fn text(
        &self,
        pid: u32,
        key: &RuntimeKey,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextRead, UiaError> {
        let key = key.clone();
        self.app(pid)?
            .run(move |uia| uia.text(pid, &key, start, end))
            .await
    }

    async fn perform(
        &self,
        pid: u32,
        key: &RuntimeKey,
        op: &crate::mapping::routes::PatternOp,
    ) -> Result<deskpilot_platform::Performed, UiaError> {
        let (key, op) = (key.clone(), op.clone());
        self.app(pid)?
            .run(move |uia| uia.perform(pid, &key, &op))
            .await
    }

    async fn caret(
        &self,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<Option<deskpilot_platform::Caret>, UiaError> {
        let key = key.clone();
        self.app(pid)?.run(move |uia| uia.caret(pid, &key)).await
    }

    async fn grid(&self, pid: u32, key: &RuntimeKey) -> Result<RawGrid, UiaError> {
        let key = key.clone();
        self.app(pid)?.run(move |uia| uia.grid(pid, &key)).await
    }

    async fn grid_row(
        &self,
        pid: u32,
        key: &RuntimeKey,
        row: u32,
    ) -> Result<Vec<RawElement>, UiaError> {
        let key = key.clone();
        self.app(pid)?
            .run(move |uia| uia.grid_row(pid, &key, row))
            .await
    }
}
