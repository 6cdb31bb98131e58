//! At most `DESKPILOT_TEST_DESKTOPS` (default 2) headless desktops at once for this user on
//! this machine, whatever runs the tests: `cargo test` runs a file's tests on threads of one
//! process, `cargo nextest` each test in a process of its own. One lock file per slot; a
//! desktop holds one (an advisory `flock`, released by the kernel when the process ends, even
//! by a crash).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Result, TestError};

/// How many desktops run at once unless `DESKPILOT_TEST_DESKTOPS` says otherwise (each costs
/// an X server, a D-Bus daemon and its apps; two cores here).
const DEFAULT_DESKTOPS: usize = 2;

/// A held slot; dropping it lets the next desktop start.
pub(crate) struct Slot {
    _file: File,
}

/// Where the slots are and how many.
pub(crate) struct Slots {
    dir: PathBuf,
    count: usize,
}

impl Slots {
    /// This user's slots (`DESKPILOT_TEST_DESKTOPS` of them).
    pub(crate) fn for_user() -> Slots {
        let count = std::env::var("DESKPILOT_TEST_DESKTOPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|n| *n > 0)
            .unwrap_or(DEFAULT_DESKTOPS);
        let uid = user_id();
        let dir = std::env::temp_dir().join(format!("deskpilot-test-slots-{uid}"));
        Slots { dir, count }
    }

    fn open(&self, i: usize) -> Result<File> {
        let path = self.dir.join(format!("slot-{i}.lock"));
        std::fs::create_dir_all(&self.dir)
            .and_then(|()| {
                OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&path)
            })
            .map_err(|e| TestError::Desktop(format!("{}: {e}", path.display())))
    }

    /// Takes a free slot, or waits for one.
    pub(crate) async fn acquire(&self) -> Result<Slot> {
        for i in 0..self.count {
            let file = self.open(i)?;
            match file.try_lock() {
                Ok(()) => return Ok(Slot { _file: file }),
                Err(TryLockError::WouldBlock) => continue,
                Err(TryLockError::Error(e)) => return Err(TestError::Desktop(e.to_string())),
            }
        }
        // All taken: wait on every slot at once (a thread each, since a lock waits blocking);
        // the first lock taken is kept, and any taken after it is given back at once.
        let (sender, mut receiver) = tokio::sync::mpsc::channel(1);
        let claimed = Arc::new(AtomicBool::new(false));
        for i in 0..self.count {
            let file = self.open(i)?;
            let (sender, claimed) = (sender.clone(), claimed.clone());
            std::thread::spawn(move || {
                if file.lock().is_ok() && !claimed.swap(true, Ordering::SeqCst) {
                    // Refused only when the waiter went away: the file, dropped, unlocks.
                    let _ = sender.blocking_send(file);
                }
            });
        }
        drop(sender);
        let file = receiver
            .recv()
            .await
            .ok_or_else(|| TestError::Desktop("no desktop slot could be locked".into()))?;
        Ok(Slot { _file: file })
    }
}

/// The user's id where slots are shared by the machine's users (`/proc/self`'s owner).
#[cfg(unix)]
fn user_id() -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map_or(0, |m| m.uid())
}

/// Elsewhere the temporary directory is the user's own.
#[cfg(not(unix))]
fn user_id() -> u32 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Slots are exclusive across open files (as across processes): with every slot held, a
    /// third acquire waits until one is dropped, whichever it is (each slot freed twice, so a
    /// waiter that waits on one slot only is caught whatever slot it picks).
    #[tokio::test]
    async fn a_waiter_gets_whichever_slot_is_freed() {
        for (round, freed) in [0, 0, 1, 1].into_iter().enumerate() {
            let dir =
                std::env::temp_dir().join(format!("slots-test-{}-{round}", std::process::id()));
            let slots = Arc::new(Slots { dir, count: 2 });
            let mut held = [
                Some(slots.acquire().await.unwrap()),
                Some(slots.acquire().await.unwrap()),
            ];
            let waiting = slots.clone();
            let mut third = tokio::spawn(async move { waiting.acquire().await });
            let waited = tokio::time::timeout(Duration::from_millis(300), &mut third).await;
            assert!(
                waited.is_err(),
                "a third slot was given while two were held"
            );
            held[freed] = None;
            let third = tokio::time::timeout(Duration::from_secs(10), third).await;
            assert!(
                matches!(third, Ok(Ok(Ok(_)))),
                "no slot after slot {freed} was freed"
            );
            let _ = std::fs::remove_dir_all(&slots.dir);
        }
    }
}
