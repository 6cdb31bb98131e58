//! Writing a granted file without following links: a link placed at the name could otherwise
//! send the bytes anywhere the server's user may write.

/// Whether this platform can write a file without following links: `O_NOFOLLOW` on Unix,
/// `FILE_FLAG_OPEN_REPARSE_POINT` and a reparse-point check on Windows.
pub const NO_FOLLOW: bool = cfg!(any(unix, windows));

/// Writes `bytes` at `path`: the final name is opened without following links, and a file
/// with other hard links is refused.
#[cfg(unix)]
pub fn write_no_follow(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && (meta.file_type().is_symlink() || meta.nlink() > 1)
    {
        return Err(std::io::Error::other(
            "the name is a link (symbolic or hard); links are not followed",
        ));
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
        .open(path)?;
    file.write_all(bytes)
}

/// Writes `bytes` at `path` on Windows: the final name is opened as the reparse point it may
/// be (never followed), and refused if it is one (a symbolic link, a junction) or has other
/// hard links; only then is it emptied and written.
#[cfg(windows)]
pub fn write_no_follow(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::windows::fs::{MetadataExt as _, OpenOptionsExt as _};
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    const FILE_ATTRIBUTE_REPARSE_POINT: u32 = 0x0400;
    let link = || {
        std::io::Error::other(
            "the name is a link (symbolic, junction or hard); links are not followed",
        )
    };
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && (meta.file_type().is_symlink()
            || meta.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0)
    {
        return Err(link());
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)?;
    // A link put there since the check is opened as itself: refused before any byte goes.
    let attributes = file.metadata()?.file_attributes();
    if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 || deskpilot_desktop::link_count(&file)? > 1 {
        return Err(link());
    }
    file.set_len(0)?;
    file.write_all(bytes)
}

/// Never writes: no grant lets a file be written here (`NO_FOLLOW` is false).
#[cfg(not(any(unix, windows)))]
pub fn write_no_follow(_path: &std::path::Path, _bytes: &[u8]) -> std::io::Result<()> {
    Err(std::io::Error::other(
        "files cannot be written on this platform without following links",
    ))
}
