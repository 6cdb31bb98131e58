//! A process as the system knows it, without calling into it: its creation time (the half of
//! its identity a recycled pid cannot fake), its executable, and whether it runs at a higher
//! integrity level than deskpilot (UIPI then hides its tree and drops input sent to it).

use windows::Win32::Foundation::{CloseHandle, FILETIME, HANDLE};
use windows::Win32::Security::{
    GetSidSubAuthority, GetSidSubAuthorityCount, GetTokenInformation, TOKEN_MANDATORY_LABEL,
    TOKEN_QUERY, TokenIntegrityLevel,
};
use windows::Win32::System::Threading::{
    GetCurrentProcess, GetProcessTimes, OpenProcess, OpenProcessToken, PROCESS_NAME_WIN32,
    PROCESS_QUERY_LIMITED_INFORMATION, QueryFullProcessImageNameW,
};
use windows::core::PWSTR;

use super::com_error;
use crate::raw::{RawProcess, Rights, UiaError};

/// A handle closed when dropped.
struct Owned(HANDLE);

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: a handle this module opened, closed once.
        unsafe {
            let _ = CloseHandle(self.0);
        }
    }
}

/// Process `pid`, read from the system.
pub fn process(pid: u32) -> Result<RawProcess, UiaError> {
    // SAFETY: queries that only read, on a handle opened for querying and closed after.
    unsafe {
        let handle =
            Owned(OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, pid).map_err(com_error)?);
        let (mut created, mut exited, mut kernel, mut user) = (
            FILETIME::default(),
            FILETIME::default(),
            FILETIME::default(),
            FILETIME::default(),
        );
        GetProcessTimes(handle.0, &mut created, &mut exited, &mut kernel, &mut user)
            .map_err(com_error)?;
        let path = image_path(handle.0)?;
        let exe = path.rsplit(['\\', '/']).next().unwrap_or(&path).to_owned();
        let rights = match (integrity(handle.0), integrity(GetCurrentProcess())) {
            (Some(theirs), Some(ours)) if theirs > ours => Rights::Above,
            (Some(_), _) => Rights::Within,
            (None, _) => Rights::Unreadable,
        };
        Ok(RawProcess {
            pid,
            started: (u64::from(created.dwHighDateTime) << 32) | u64::from(created.dwLowDateTime),
            exe,
            description: None,
            rights,
        })
    }
}

/// The process's image path, however long (`image_path.rs`).
fn image_path(process: HANDLE) -> Result<String, UiaError> {
    let read = |path: &mut [u16]| {
        let mut size = path.len() as u32;
        // SAFETY: the buffer holds `size` units; the call writes at most that many.
        unsafe {
            QueryFullProcessImageNameW(
                process,
                PROCESS_NAME_WIN32,
                PWSTR(path.as_mut_ptr()),
                &mut size,
            )
        }
        .map(|()| size as usize)
    };
    crate::image_path::read_path(read).map_err(com_error)
}

/// The integrity level (the mandatory label's last sub-authority) of a process.
fn integrity(process: HANDLE) -> Option<u32> {
    // SAFETY: the label is read into a buffer of the size the first call asks for, and its
    // SID points into that buffer.
    unsafe {
        let mut token = HANDLE::default();
        OpenProcessToken(process, TOKEN_QUERY, &mut token).ok()?;
        let token = Owned(token);
        let mut size = 0u32;
        let _ = GetTokenInformation(token.0, TokenIntegrityLevel, None, 0, &mut size);
        let mut buffer = vec![0u64; (size as usize).div_ceil(8)];
        GetTokenInformation(
            token.0,
            TokenIntegrityLevel,
            Some(buffer.as_mut_ptr().cast()),
            size,
            &mut size,
        )
        .ok()?;
        let label = &*(buffer.as_ptr() as *const TOKEN_MANDATORY_LABEL);
        let count = *GetSidSubAuthorityCount(label.Label.Sid);
        Some(*GetSidSubAuthority(
            label.Label.Sid,
            u32::from(count.checked_sub(1)?),
        ))
    }
}
