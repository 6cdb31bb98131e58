//! Writing a granted file without following links: a link placed at the name could otherwise
//! send the bytes anywhere the server's user may write.

/// Whether this platform can write a file without following links. Windows cannot yet: it
/// needs a reparse-point check (`FILE_FLAG_OPEN_REPARSE_POINT`) in place of `O_NOFOLLOW`.
pub const NO_FOLLOW: bool = cfg!(unix);

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

/// Never writes: no grant lets a file be written here (`NO_FOLLOW` is false).
#[cfg(not(unix))]
pub fn write_no_follow(_path: &std::path::Path, _bytes: &[u8]) -> std::io::Result<()> {
    Err(std::io::Error::other(
        "files cannot be written on this platform without following links",
    ))
}
