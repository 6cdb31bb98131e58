//! One UI Automation client on its worker thread, with the elements it read, by `RuntimeId`:
//! an id is resolved to the element read under it, else found again (a window by its handle,
//! anything else by a search of its process's windows).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use windows::Win32::Foundation::{HWND, POINT};
use windows::Win32::System::Com::{
    CLSCTX_INPROC_SERVER, COINIT_MULTITHREADED, CoCreateInstance, CoInitializeEx,
};
use windows::Win32::UI::Accessibility::*;
use windows::Win32::UI::HiDpi::{
    DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2, SetThreadDpiAwarenessContext,
};
use windows::core::Interface;

use super::{com_error, props, variant};
use crate::kept::Kept;
use crate::raw::{RawElement, RuntimeKey, UiaError};
use crate::source::Below;

/// How many elements a worker keeps.
const MAX_KEPT: std::num::NonZeroUsize = std::num::NonZeroUsize::new(50_000).expect("not zero");

/// UIA's own bounds on a call into an app: how long to connect, and how long a whole
/// transaction may take before UIA gives up (the backend answers sooner, on its deadline).
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub connection: Duration,
    pub transaction: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            // Below the backend's call deadline (2 s): a listing that meets a hung window
            // still answers (review A3).
            connection: Duration::from_secs(1),
            transaction: Duration::from_secs(10),
        }
    }
}

pub struct Uia {
    pub(super) automation: IUIAutomation,
    pub(super) request: IUIAutomationCacheRequest,
    values: IUIAutomationCacheRequest,
    counts: IUIAutomationCacheRequest,
    /// Element reads with their children cached: a grid's row and its cells.
    pub(super) rows: IUIAutomationCacheRequest,
    view: IUIAutomationCondition,
    pub(super) walker: IUIAutomationTreeWalker,
    root: IUIAutomationElement,
    elements: Kept<IUIAutomationElement>,
    /// The desktop-wide handlers (focus, windows opened) are registered.
    desktop_watched: bool,
    /// The windows whose handlers are registered, by process: a second watch registers
    /// only windows opened since (handlers are never added twice, events never counted
    /// twice).
    watched: HashMap<u32, HashSet<RuntimeKey>>,
}

impl Drop for Uia {
    /// An app's worker ends with its app's windows: the handlers it registered go with it.
    fn drop(&mut self) {
        if !self.watched.is_empty() || self.desktop_watched {
            // SAFETY: a COM call on this thread's object, before it is released.
            let _ = unsafe { self.automation.RemoveAllEventHandlers() };
        }
    }
}

impl Uia {
    /// A client on this thread, in the multithreaded apartment, aware of each monitor's DPI
    /// (bounds and input in physical pixels).
    pub fn start(timeouts: Timeouts) -> Result<Uia, UiaError> {
        // SAFETY: COM set up once on this worker thread, before any other COM call on it.
        unsafe {
            CoInitializeEx(None, COINIT_MULTITHREADED)
                .ok()
                .map_err(com_error)?;
            let _ = SetThreadDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2);
            let automation: IUIAutomation =
                CoCreateInstance(&CUIAutomation8, None, CLSCTX_INPROC_SERVER).map_err(com_error)?;
            if let Ok(bounded) = automation.cast::<IUIAutomation2>() {
                let ms = |d: Duration| d.as_millis().min(u128::from(u32::MAX)) as u32;
                let _ = bounded.SetConnectionTimeout(ms(timeouts.connection));
                let _ = bounded.SetTransactionTimeout(ms(timeouts.transaction));
            }
            let request = props::element_request(&automation).map_err(com_error)?;
            let values = props::value_request(&automation).map_err(com_error)?;
            let counts = props::count_request(&automation).map_err(com_error)?;
            let rows = props::row_request(&automation).map_err(com_error)?;
            let view = automation.ControlViewCondition().map_err(com_error)?;
            // Wine has no view walkers, only walkers made from a condition.
            let walker = match automation.ControlViewWalker() {
                Ok(walker) => walker,
                Err(_) => automation.CreateTreeWalker(&view).map_err(com_error)?,
            };
            let root = automation.GetRootElement().map_err(com_error)?;
            Ok(Uia {
                automation,
                request,
                values,
                counts,
                rows,
                view,
                walker,
                root,
                elements: Kept::new(MAX_KEPT),
                desktop_watched: false,
                watched: HashMap::new(),
            })
        }
    }

    /// Reads a cached element and keeps it under its `RuntimeId`.
    pub(super) fn keep(&mut self, element: IUIAutomationElement) -> RawElement {
        let raw = with_content(props::raw(&element));
        // Past the bound the least recently used goes, one at a time: clearing them all at
        // once made every later resolve a search of the whole tree (review A7).
        self.elements.put(raw.key.clone(), element);
        raw
    }

    pub(super) fn all(
        array: IUIAutomationElementArray,
    ) -> Result<Vec<IUIAutomationElement>, UiaError> {
        // SAFETY: reads a local array UIA returned.
        unsafe {
            let count = array.Length().map_err(com_error)?;
            (0..count)
                .map(|i| array.GetElement(i).map_err(com_error))
                .collect()
        }
    }

    /// A window's element by its handle, its cache built (Wine has no
    /// `ElementFromHandleBuildCache`: the element, then its cache).
    fn window_element(&self, handle: HWND) -> windows::core::Result<IUIAutomationElement> {
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            match self
                .automation
                .ElementFromHandleBuildCache(handle, &self.request)
            {
                Ok(element) => Ok(element),
                Err(_) => self
                    .automation
                    .ElementFromHandle(handle)?
                    .BuildUpdatedCache(&self.request),
            }
        }
    }

    /// What a `FindAll` found: Wine answers success and no array when nothing matched.
    pub(super) fn found(
        found: windows::core::Result<IUIAutomationElementArray>,
    ) -> Result<Vec<IUIAutomationElement>, UiaError> {
        match found {
            Ok(array) => Self::all(array),
            Err(e) if e.code().is_ok() => Ok(Vec::new()),
            Err(e) => Err(com_error(e)),
        }
    }

    /// The element read under `key` in process `pid`.
    pub(super) fn resolve(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<IUIAutomationElement, UiaError> {
        if let Some(element) = self.elements.get(key) {
            return Ok(element.clone());
        }
        // SAFETY: COM calls on this thread's objects.
        let found = unsafe {
            match key.0.as_slice() {
                // A window's RuntimeId is UIA's HWND prefix and the handle.
                [42, hwnd] => self
                    .window_element(HWND(*hwnd as u32 as usize as *mut _))
                    .map_err(com_error)?,
                _ => {
                    let windows = self.app_windows(pid)?;
                    let id = variant::of_i32s(&key.0)?;
                    let by_id = self
                        .automation
                        .CreatePropertyCondition(UIA_RuntimeIdPropertyId, &id.0)
                        .map_err(com_error)?;
                    windows
                        .into_iter()
                        .find_map(|w| {
                            w.FindFirstBuildCache(TreeScope_Subtree, &by_id, &self.request)
                                .ok()
                        })
                        .ok_or(UiaError::Unknown)?
                }
            }
        };
        // Found under the app's own windows, or a window that is one of them or inside one:
        // the app's, whichever process draws it.
        let window = match key.0.as_slice() {
            [42, hwnd] => Some(*hwnd as u32 as u64),
            _ => None,
        };
        let theirs = window.is_some_and(|w| super::desktop::app_of_window(w) != Some(pid));
        let raw = self.keep(found.clone());
        if &raw.key != key || theirs {
            return Err(UiaError::Unknown);
        }
        Ok(found)
    }

    /// The cache request events are sent with: the sender's id and process.
    fn event_request(&self) -> Result<IUIAutomationCacheRequest, UiaError> {
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let request = self.automation.CreateCacheRequest().map_err(com_error)?;
            for property in [UIA_RuntimeIdPropertyId, UIA_ProcessIdPropertyId] {
                request.AddProperty(property).map_err(com_error)?;
            }
            Ok(request)
        }
    }

    /// Registers the event handlers of process `pid`'s windows (structure and watched
    /// properties, their whole subtrees), on the app's own worker: a hung app holds only its
    /// own watch (review E2). Windows the app opens later send their opening; a later watch
    /// adds their handlers, never a window's twice.
    pub fn watch_app(
        &mut self,
        pid: u32,
        log: std::sync::Arc<crate::events::EventLog>,
    ) -> Result<bool, UiaError> {
        let handler: IUIAutomationStructureChangedEventHandler =
            super::events::Handler { log }.into();
        let request = self.event_request()?;
        let windows = self.app_windows(pid)?;
        // SAFETY: COM calls on this thread's objects; the handler outlives its registration
        // (UIA holds a reference).
        unsafe {
            let property: IUIAutomationPropertyChangedEventHandler =
                handler.cast().map_err(com_error)?;
            let registered = self.watched.entry(pid).or_default();
            for window in windows {
                let key = props::key(&window);
                if registered.contains(&key) {
                    continue;
                }
                self.automation
                    .AddStructureChangedEventHandler(&window, TreeScope_Subtree, &request, &handler)
                    .map_err(com_error)?;
                self.automation
                    .AddPropertyChangedEventHandlerNativeArray(
                        &window,
                        TreeScope_Subtree,
                        &request,
                        &property,
                        super::events::WATCHED,
                    )
                    .map_err(com_error)?;
                registered.insert(key);
            }
        }
        Ok(true)
    }

    /// Registers the desktop's handlers (focus, windows opened) once, for every app: no
    /// app's provider is asked.
    pub fn watch_desktop(
        &mut self,
        log: std::sync::Arc<crate::events::EventLog>,
    ) -> Result<(), UiaError> {
        if self.desktop_watched {
            return Ok(());
        }
        let handler: IUIAutomationFocusChangedEventHandler = super::events::Handler { log }.into();
        let request = self.event_request()?;
        // SAFETY: COM calls on this thread's objects; the handler outlives its registration.
        unsafe {
            let opened: IUIAutomationEventHandler = handler.cast().map_err(com_error)?;
            self.automation
                .AddFocusChangedEventHandler(&request, &handler)
                .map_err(com_error)?;
            self.automation
                .AddAutomationEventHandler(
                    UIA_Window_WindowOpenedEventId,
                    &self.root,
                    TreeScope_Children,
                    &request,
                    &opened,
                )
                .map_err(com_error)?;
        }
        self.desktop_watched = true;
        Ok(())
    }

    /// The desktop's top-level windows: the root's children, or (where the root lists none,
    /// as under Wine) each window the system lists, by its handle.
    pub fn top_level(&mut self) -> Result<Vec<RawElement>, UiaError> {
        // SAFETY: COM calls on this thread's objects.
        let mut windows = Self::found(unsafe {
            self.root
                .FindAllBuildCache(TreeScope_Children, &self.view, &self.request)
        })?;
        if windows.is_empty() {
            windows = self.listed_windows(|_| true)?;
        }
        Ok(windows.into_iter().map(|w| self.keep(w)).collect())
    }

    /// Process `pid`'s top-level windows, frames showing its content included.
    pub fn windows_of(&mut self, pid: u32) -> Result<Vec<RawElement>, UiaError> {
        let windows = self.app_windows(pid)?;
        Ok(windows.into_iter().map(|w| self.keep(w)).collect())
    }

    /// The app's windows as elements: the system's window list (user32, no message sent),
    /// those of its process or showing its content, then each one's element by its handle.
    /// Only the app's own providers are asked: a search of the root with a condition on the
    /// process may ask every window's, and a hung one's costs the connection timeout.
    fn app_windows(&self, pid: u32) -> Result<Vec<IUIAutomationElement>, UiaError> {
        self.listed_windows(|hwnd| super::desktop::app_of_window(hwnd) == Some(pid))
    }

    /// The elements of the windows a person sees (`client_windows`) that `wanted` takes, by
    /// their handles; a window gone since it was listed is skipped.
    fn listed_windows(
        &self,
        wanted: impl Fn(u64) -> bool,
    ) -> Result<Vec<IUIAutomationElement>, UiaError> {
        use crate::system_windows::{WindowApi, client_windows};
        let listed = super::desktop::Win32Windows
            .windows()
            .map_err(|message| UiaError::Com {
                hresult: crate::error::hresult::E_FAIL,
                message,
            })?;
        let shown = client_windows(&listed);
        Ok(shown
            .iter()
            .filter(|w| wanted(w.id.0))
            .filter_map(|w| self.window_element(HWND(w.id.0 as usize as *mut _)).ok())
            .collect())
    }

    pub fn element(&mut self, pid: u32, key: &RuntimeKey) -> Result<RawElement, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM call on this thread's objects.
        let fresh = unsafe {
            element
                .BuildUpdatedCache(&self.request)
                .map_err(com_error)?
        };
        Ok(self.keep(fresh))
    }

    pub fn children(&mut self, pid: u32, key: &RuntimeKey) -> Result<Vec<RawElement>, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM call on this thread's objects.
        let children = Self::found(unsafe {
            element.FindAllBuildCache(TreeScope_Children, &self.view, &self.request)
        })?;
        Ok(children.into_iter().map(|c| self.keep(c)).collect())
    }

    /// How many children each child has: the children found with theirs cached, ids alone.
    pub fn child_counts(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<Vec<(RuntimeKey, u32)>, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: a COM call on this thread's objects.
        let children = Self::found(unsafe {
            element.FindAllBuildCache(TreeScope_Children, &self.view, &self.counts)
        })?;
        // SAFETY: reads each element's cache (no cross-process call).
        let count = |c: &IUIAutomationElement| match unsafe { c.GetCachedChildren() } {
            // SAFETY: reads a local array UIA returned.
            Ok(children) => unsafe { children.Length() }.ok().map(|n| n.max(0) as u32),
            // None cached answers success and no array, as `FindAll` does.
            Err(e) if e.code().is_ok() => Some(0),
            // Unknown: the walk asks the child itself.
            Err(_) => None,
        };
        Ok(children
            .iter()
            .filter_map(|c| Some((props::key(c), count(c)?)))
            .collect())
    }

    pub fn parent(&mut self, pid: u32, key: &RuntimeKey) -> Result<Option<RawElement>, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let parent = match self
                .walker
                .GetParentElementBuildCache(&element, &self.request)
            {
                Ok(parent) => parent,
                Err(_) => return Ok(None),
            };
            let top = self
                .automation
                .CompareElements(&parent, &self.root)
                .map_err(com_error)?;
            Ok((!top.as_bool()).then(|| self.keep(parent)))
        }
    }

    /// The values of the element's children or descendants that are not password fields:
    /// the condition leaves them out, so their values are never requested.
    pub fn values_below(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
        below: Below,
    ) -> Result<Vec<(RuntimeKey, String)>, UiaError> {
        let element = self.resolve(pid, key)?;
        let scope = match below {
            Below::Children => TreeScope_Children,
            Below::Descendants => TreeScope_Descendants,
        };
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let property = |id, on| {
                self.automation
                    .CreatePropertyCondition(id, &variant::of_bool(on).0)
                    .map_err(com_error)
            };
            let holds = self
                .automation
                .CreateAndCondition(
                    &property(UIA_IsPasswordPropertyId, false)?,
                    &property(UIA_IsValuePatternAvailablePropertyId, true)?,
                )
                .map_err(com_error)?;
            let condition = self
                .automation
                .CreateAndCondition(&self.view, &holds)
                .map_err(com_error)?;
            let found = Self::found(element.FindAllBuildCache(scope, &condition, &self.values))?;
            Ok(found
                .iter()
                .filter_map(|c| {
                    let value = props::cached(c, UIA_ValueValuePropertyId).string()?;
                    Some((props::key(c), value))
                })
                .collect())
        }
    }

    pub fn value(&mut self, pid: u32, key: &RuntimeKey) -> Result<Option<String>, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let pattern: IUIAutomationValuePattern = element
                .GetCurrentPatternAs(UIA_ValuePatternId)
                .map_err(com_error)?;
            Ok(Some(pattern.CurrentValue().map_err(com_error)?.to_string()))
        }
    }

    /// The chain at a screen point, from its top-level window down.
    pub fn element_at(&mut self, x: i32, y: i32) -> Result<Vec<RawElement>, UiaError> {
        let mut chain = Vec::new();
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let mut at = self
                .automation
                .ElementFromPointBuildCache(POINT { x, y }, &self.request)
                .map_err(com_error)?;
            for _ in 0..256 {
                let parent = self.walker.GetParentElementBuildCache(&at, &self.request);
                chain.push(self.keep(at));
                match parent {
                    Ok(parent)
                        if !self
                            .automation
                            .CompareElements(&parent, &self.root)
                            .map_err(com_error)?
                            .as_bool() =>
                    {
                        at = parent
                    }
                    _ => break,
                }
            }
        }
        chain.reverse();
        Ok(chain)
    }
}

/// `raw` with the process of the content it frames, where it is a UWP app's frame.
fn with_content(mut raw: RawElement) -> RawElement {
    if raw.class_name.as_deref() == Some(crate::raw::frame::FRAME_CLASS)
        && let Some(frame) = raw.hwnd
    {
        raw.content_pid = super::desktop::hosted_content(frame);
    }
    raw
}
