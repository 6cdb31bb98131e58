//! A process's image path, however long: read into a buffer of 1,024 units first, then of
//! the longest path Windows has (32,767 units and the terminator, "Maximum Path Length
//! Limitation"). Plain Rust over the system call (`com/process.rs`), so tested here.

/// The buffer sizes tried, in UTF-16 units.
pub const BUFFERS: [usize; 2] = [1024, 32_768];

/// The path `read` gives: it fills a buffer and says how many units it wrote, or fails
/// (too small for the path, or for good); the last failure is the answer.
pub fn read_path<E>(mut read: impl FnMut(&mut [u16]) -> Result<usize, E>) -> Result<String, E> {
    let mut failure = None;
    for units in BUFFERS {
        let mut path = vec![0u16; units];
        match read(&mut path) {
            Ok(written) => return Ok(String::from_utf16_lossy(&path[..written.min(units)])),
            Err(e) => failure = Some(e),
        }
    }
    Err(failure.expect("tried at least once"))
}

#[cfg(test)]
mod tests {
    use super::read_path;

    /// A system call that fails when the buffer cannot hold `path` and its terminator, as
    /// `QueryFullProcessImageNameW` does.
    fn system(path: &str) -> impl FnMut(&mut [u16]) -> Result<usize, &'static str> + '_ {
        move |buffer| {
            let units: Vec<u16> = path.encode_utf16().collect();
            if units.len() + 1 > buffer.len() {
                return Err("ERROR_INSUFFICIENT_BUFFER");
            }
            buffer[..units.len()].copy_from_slice(&units);
            Ok(units.len())
        }
    }

    /// A path past `MAX_PATH` (260) and past the first buffer is read whole (review F3); one
    /// past Windows' longest fails with the system's error.
    #[test]
    fn long_image_paths_are_read_whole() {
        let long = format!(r"\\?\C:\{}\app.exe", "deep\\".repeat(400));
        assert_eq!(read_path(system(&long)), Ok(long.clone()));
        assert_eq!(
            read_path(system(r"C:\Windows\notepad.exe")).unwrap().len(),
            22
        );
        let too_long = "x".repeat(40_000);
        assert_eq!(
            read_path(system(&too_long)),
            Err("ERROR_INSUFFICIENT_BUFFER")
        );
    }
}
