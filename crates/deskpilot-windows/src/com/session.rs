//! The facts of deskpilot's own session, read from the system (`session.rs` judges them).

use windows::Win32::System::RemoteDesktop::ProcessIdToSessionId;
use windows::Win32::System::StationsAndDesktops::{
    CloseDesktop, DESKTOP_CONTROL_FLAGS, DESKTOP_READOBJECTS, OpenInputDesktop,
};
use windows::Win32::System::Threading::GetCurrentProcessId;

use crate::session::SessionFacts;

/// This process's session, and whether its input desktop opens.
pub fn facts() -> SessionFacts {
    // SAFETY: queries that fill a local, and a desktop handle closed at once.
    unsafe {
        let mut own = 0u32;
        let own = ProcessIdToSessionId(GetCurrentProcessId(), &mut own)
            .ok()
            .map(|()| own);
        let input_desktop =
            match OpenInputDesktop(DESKTOP_CONTROL_FLAGS(0), false, DESKTOP_READOBJECTS) {
                Ok(desktop) => {
                    let _ = CloseDesktop(desktop);
                    true
                }
                Err(_) => false,
            };
        SessionFacts { own, input_desktop }
    }
}
