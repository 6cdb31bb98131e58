//! What `std` does not say of an open file on Windows: how many names it has.

use std::os::windows::io::AsRawHandle;

use windows::Win32::Foundation::HANDLE;
use windows::Win32::Storage::FileSystem::{BY_HANDLE_FILE_INFORMATION, GetFileInformationByHandle};

/// How many names (hard links) the open file has.
pub fn link_count(file: &std::fs::File) -> std::io::Result<u32> {
    let mut info = BY_HANDLE_FILE_INFORMATION::default();
    // SAFETY: a query on a handle the file owns, into a structure of the right type.
    unsafe { GetFileInformationByHandle(HANDLE(file.as_raw_handle()), &mut info) }
        .map_err(|e| std::io::Error::from_raw_os_error(e.code().0))?;
    Ok(info.nNumberOfLinks)
}
