//! sway's IPC (`SWAYSOCK`): a request is the magic string, the payload's length and the
//! message type (native-endian u32s), then the payload; the reply has the same header and a
//! JSON body (sway-ipc(7)).

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

const MAGIC: &[u8; 6] = b"i3-ipc";
pub(crate) const RUN_COMMAND: u32 = 0;
pub(crate) const GET_TREE: u32 = 4;

/// A sway instance's IPC socket.
#[derive(Debug, Clone)]
pub struct SwayIpc {
    socket: PathBuf,
    timeout: Duration,
}

impl SwayIpc {
    pub fn new(socket: impl Into<PathBuf>, timeout: Duration) -> Self {
        SwayIpc {
            socket: socket.into(),
            timeout,
        }
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// Sends one message and reads its reply (blocking, each read and write under the timeout).
    pub(crate) fn request(&self, kind: u32, payload: &str) -> Result<serde_json::Value, String> {
        let mut stream = UnixStream::connect(&self.socket)
            .map_err(|e| format!("sway IPC at {}: {e}", self.socket.display()))?;
        stream
            .set_read_timeout(Some(self.timeout))
            .map_err(|e| e.to_string())?;
        stream
            .set_write_timeout(Some(self.timeout))
            .map_err(|e| e.to_string())?;
        let mut message = MAGIC.to_vec();
        message.extend((payload.len() as u32).to_ne_bytes());
        message.extend(kind.to_ne_bytes());
        message.extend(payload.as_bytes());
        stream
            .write_all(&message)
            .map_err(|e| format!("sway IPC: {e}"))?;
        let mut header = [0u8; 14];
        stream
            .read_exact(&mut header)
            .map_err(|e| format!("sway IPC: {e}"))?;
        if &header[..6] != MAGIC {
            return Err("sway IPC: not an i3-ipc reply".into());
        }
        let len = u32::from_ne_bytes(header[6..10].try_into().expect("4 bytes")) as usize;
        let mut body = vec![0u8; len];
        stream
            .read_exact(&mut body)
            .map_err(|e| format!("sway IPC: {e}"))?;
        serde_json::from_slice(&body).map_err(|e| format!("sway IPC reply: {e}"))
    }

    /// Runs sway commands; the first that failed, with sway's error.
    pub(crate) fn command(&self, command: &str) -> Result<(), String> {
        let reply = self.request(RUN_COMMAND, command)?;
        let failed = reply
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["success"] != serde_json::Value::Bool(true));
        match failed {
            None => Ok(()),
            Some(r) => Err(format!("sway refused {command:?}: {}", r["error"])),
        }
    }
}
