//! Control pattern calls, each on a throwaway thread with a grace period: a control whose
//! handler opens a modal dialog does not return its call until the dialog closes (WinForms;
//! pywinauto and mcec met it), so after the grace the call is `Running` and the engine reads
//! back what it did.

use std::time::Duration;

use deskpilot_platform::Performed;
use windows::Win32::System::Com::{COINIT_MULTITHREADED, CoInitializeEx};
use windows::Win32::UI::Accessibility::*;
use windows::core::BSTR;

use super::com_error;
use super::uia::Uia;
use crate::mapping::routes::PatternOp;
use crate::raw::{RuntimeKey, UiaError};

/// How long a pattern call may take before it counts as still running.
const GRACE: Duration = Duration::from_millis(750);

/// A pattern moved to another thread of the multithreaded apartment, where UIA's client
/// objects may be used.
struct Moved<T>(T);

// SAFETY: UIA client objects live in the multithreaded apartment and may be called from any
// of its threads; the object is used by one thread at a time.
unsafe impl<T> Send for Moved<T> {}

/// Runs `call` on its own MTA thread: its answer within the grace, else `Running`.
fn with_grace(
    call: impl FnOnce() -> windows::core::Result<()> + Send + 'static,
) -> Result<Performed, UiaError> {
    let (answer, answered) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("uia-pattern".into())
        .spawn(move || {
            // SAFETY: this thread joins the multithreaded apartment before any COM call.
            let _ = unsafe { CoInitializeEx(None, COINIT_MULTITHREADED) };
            let _ = answer.send(call());
        })
        .map_err(|e| UiaError::Com {
            hresult: crate::error::hresult::E_OUTOFMEMORY,
            message: e.to_string(),
        })?;
    match answered.recv_timeout(GRACE) {
        Ok(Ok(())) => Ok(Performed::Answered),
        Ok(Err(e)) => Err(com_error(e)),
        Err(_) => Ok(Performed::Running {
            why: "the call has not returned: the app may be running a dialog it opened".into(),
        }),
    }
}

/// A pattern call to make on the grace thread.
type Call = Box<dyn FnOnce() -> windows::core::Result<()> + Send>;

/// `call` on `pattern`, moved to the grace thread.
fn on<P: 'static>(
    pattern: P,
    call: impl FnOnce(&P) -> windows::core::Result<()> + 'static,
) -> Call {
    let moved = Moved((pattern, call));
    Box::new(move || {
        let moved = moved;
        let (pattern, call) = moved.0;
        call(&pattern)
    })
}

impl Uia {
    /// Calls the pattern `op` names on the element, on the grace thread. Any pattern call may
    /// run a handler that opens a modal dialog (a WinForms `CheckedChanged` showing a message
    /// box): on the worker it would hold the app until UIA's transaction timeout.
    pub fn perform(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
        op: &PatternOp,
    ) -> Result<Performed, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: the patterns are fetched on this thread and called on the grace thread,
        // both in the multithreaded apartment.
        let call = unsafe { call_for(&element, op) }.map_err(com_error)?;
        with_grace(call)
    }
}

/// The call `op` makes on `element`, its pattern fetched now.
unsafe fn call_for(element: &IUIAutomationElement, op: &PatternOp) -> windows::core::Result<Call> {
    // SAFETY: COM calls on this thread's objects, the caller's apartment.
    unsafe {
        Ok(match op.clone() {
            PatternOp::Invoke => on(
                element.GetCurrentPatternAs::<IUIAutomationInvokePattern>(UIA_InvokePatternId)?,
                |p| p.Invoke(),
            ),
            PatternOp::DefaultAction(_) => on(
                element.GetCurrentPatternAs::<IUIAutomationLegacyIAccessiblePattern>(
                    UIA_LegacyIAccessiblePatternId,
                )?,
                |p| p.DoDefaultAction(),
            ),
            PatternOp::Toggle => on(
                element.GetCurrentPatternAs::<IUIAutomationTogglePattern>(UIA_TogglePatternId)?,
                |p| p.Toggle(),
            ),
            PatternOp::Expand => on(
                element.GetCurrentPatternAs::<IUIAutomationExpandCollapsePattern>(
                    UIA_ExpandCollapsePatternId,
                )?,
                |p| p.Expand(),
            ),
            PatternOp::Collapse => on(
                element.GetCurrentPatternAs::<IUIAutomationExpandCollapsePattern>(
                    UIA_ExpandCollapsePatternId,
                )?,
                |p| p.Collapse(),
            ),
            PatternOp::SetValue(text) => {
                let text = BSTR::from(text.expose());
                on(
                    element.GetCurrentPatternAs::<IUIAutomationValuePattern>(UIA_ValuePatternId)?,
                    move |p| p.SetValue(&text),
                )
            }
            PatternOp::SetRange(n) => on(
                element.GetCurrentPatternAs::<IUIAutomationRangeValuePattern>(
                    UIA_RangeValuePatternId,
                )?,
                move |p| p.SetValue(n),
            ),
            PatternOp::Focus => on(element.clone(), |e| e.SetFocus()),
            PatternOp::CaretToEnd => on(
                element.GetCurrentPatternAs::<IUIAutomationTextPattern>(UIA_TextPatternId)?,
                |p| {
                    let range = p.DocumentRange()?;
                    range.MoveEndpointByRange(
                        TextPatternRangeEndpoint_Start,
                        &range,
                        TextPatternRangeEndpoint_End,
                    )?;
                    range.Select()
                },
            ),
            PatternOp::ScrollIntoView => on(
                element.GetCurrentPatternAs::<IUIAutomationScrollItemPattern>(
                    UIA_ScrollItemPatternId,
                )?,
                |p| p.ScrollIntoView(),
            ),
            PatternOp::Select => on(selection_item(element)?, |p| p.Select()),
            PatternOp::AddToSelection => on(selection_item(element)?, |p| p.AddToSelection()),
            PatternOp::RemoveFromSelection => {
                on(selection_item(element)?, |p| p.RemoveFromSelection())
            }
        })
    }
}

/// The element's SelectionItem pattern.
unsafe fn selection_item(
    element: &IUIAutomationElement,
) -> windows::core::Result<IUIAutomationSelectionItemPattern> {
    // SAFETY: a COM call on this thread's object.
    unsafe {
        element.GetCurrentPatternAs::<IUIAutomationSelectionItemPattern>(UIA_SelectionItemPatternId)
    }
}
