//! Control pattern calls. Invoke and the default action run on a throwaway thread with a
//! grace period: a button that opens a modal dialog does not return its call until the
//! dialog closes (WinForms; pywinauto and mcec met it), so after the grace the call is
//! `Running` and the engine reads back what it did.

use std::time::Duration;

use deskpilot_platform::Performed;
use windows::Win32::System::Com::{COINIT_MULTITHREADED, CoInitializeEx};
use windows::Win32::UI::Accessibility::*;
use windows::core::BSTR;

use super::com_error;
use super::uia::Uia;
use crate::mapping::routes::PatternOp;
use crate::raw::{RuntimeKey, UiaError};

/// How long an Invoke may take before it counts as running a modal loop.
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
        .name("uia-invoke".into())
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
            why: "the call has not returned: the app runs a modal dialog it opened".into(),
        }),
    }
}

impl Uia {
    /// Calls the pattern `op` names on the element.
    pub fn perform(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
        op: &PatternOp,
    ) -> Result<Performed, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects (Invoke's on its own MTA thread).
        unsafe {
            let done = match op {
                PatternOp::Invoke => {
                    let pattern = Moved(
                        element
                            .GetCurrentPatternAs::<IUIAutomationInvokePattern>(UIA_InvokePatternId)
                            .map_err(com_error)?,
                    );
                    return with_grace(move || {
                        let pattern = pattern;
                        pattern.0.Invoke()
                    });
                }
                PatternOp::DefaultAction(_) => {
                    let pattern = Moved(
                        element
                            .GetCurrentPatternAs::<IUIAutomationLegacyIAccessiblePattern>(
                                UIA_LegacyIAccessiblePatternId,
                            )
                            .map_err(com_error)?,
                    );
                    return with_grace(move || {
                        let pattern = pattern;
                        pattern.0.DoDefaultAction()
                    });
                }
                PatternOp::Toggle => element
                    .GetCurrentPatternAs::<IUIAutomationTogglePattern>(UIA_TogglePatternId)
                    .and_then(|p| p.Toggle()),
                PatternOp::Expand | PatternOp::Collapse => element
                    .GetCurrentPatternAs::<IUIAutomationExpandCollapsePattern>(
                        UIA_ExpandCollapsePatternId,
                    )
                    .and_then(|p| match op {
                        PatternOp::Expand => p.Expand(),
                        _ => p.Collapse(),
                    }),
                PatternOp::SetValue(text) => element
                    .GetCurrentPatternAs::<IUIAutomationValuePattern>(UIA_ValuePatternId)
                    .and_then(|p| p.SetValue(&BSTR::from(text.expose()))),
                PatternOp::SetRange(n) => element
                    .GetCurrentPatternAs::<IUIAutomationRangeValuePattern>(UIA_RangeValuePatternId)
                    .and_then(|p| p.SetValue(*n)),
                PatternOp::Focus => element.SetFocus(),
                PatternOp::CaretToEnd => element
                    .GetCurrentPatternAs::<IUIAutomationTextPattern>(UIA_TextPatternId)
                    .and_then(|p| p.DocumentRange())
                    .and_then(|range| {
                        range.MoveEndpointByRange(
                            TextPatternRangeEndpoint_Start,
                            &range,
                            TextPatternRangeEndpoint_End,
                        )?;
                        range.Select()
                    }),
                PatternOp::ScrollIntoView => element
                    .GetCurrentPatternAs::<IUIAutomationScrollItemPattern>(UIA_ScrollItemPatternId)
                    .and_then(|p| p.ScrollIntoView()),
                PatternOp::Select | PatternOp::AddToSelection | PatternOp::RemoveFromSelection => {
                    element
                        .GetCurrentPatternAs::<IUIAutomationSelectionItemPattern>(
                            UIA_SelectionItemPatternId,
                        )
                        .and_then(|p| match op {
                            PatternOp::Select => p.Select(),
                            PatternOp::AddToSelection => p.AddToSelection(),
                            _ => p.RemoveFromSelection(),
                        })
                }
            };
            done.map_err(com_error)?;
        }
        Ok(Performed::Answered)
    }
}
