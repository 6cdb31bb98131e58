//! sway's IPC (`SWAYSOCK`): a request is the magic string, the payload's length and the
//! message type (native-endian u32s), then the payload; the reply has the same header and a
//! JSON body (sway-ipc(7)).

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
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
    pub fn command(&self, command: &str) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixListener;

    /// A sway that reads one request and answers `reply`, handing back what it read.
    fn fake_sway(reply: &'static str) -> (SwayIpc, std::thread::JoinHandle<(u32, String)>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sway-ipc.sock");
        let listener = UnixListener::bind(&path).unwrap();
        let server = std::thread::spawn(move || {
            let _dir = dir;
            let (mut stream, _) = listener.accept().unwrap();
            let mut header = [0u8; 14];
            stream.read_exact(&mut header).unwrap();
            assert_eq!(&header[..6], MAGIC);
            let len = u32::from_ne_bytes(header[6..10].try_into().unwrap()) as usize;
            let kind = u32::from_ne_bytes(header[10..14].try_into().unwrap());
            let mut payload = vec![0u8; len];
            stream.read_exact(&mut payload).unwrap();
            let mut answer = MAGIC.to_vec();
            answer.extend((reply.len() as u32).to_ne_bytes());
            answer.extend(kind.to_ne_bytes());
            answer.extend(reply.as_bytes());
            stream.write_all(&answer).unwrap();
            (kind, String::from_utf8(payload).unwrap())
        });
        (SwayIpc::new(path, Duration::from_secs(2)), server)
    }

    #[test]
    fn a_command_is_framed_as_sway_ipc_7_says_and_its_failure_kept() {
        let (ipc, server) = fake_sway(r#"[{"success":false,"error":"No matching node"}]"#);
        let error = ipc.command("[con_id=9] focus").unwrap_err();
        assert!(error.contains("No matching node"), "{error}");
        assert_eq!(
            server.join().unwrap(),
            (RUN_COMMAND, "[con_id=9] focus".to_owned())
        );
    }

    #[test]
    fn a_tree_comes_back_as_json() {
        let (ipc, server) = fake_sway(r#"{"id":1,"nodes":[]}"#);
        let tree = ipc.request(GET_TREE, "").unwrap();
        assert_eq!(tree["id"], 1);
        assert_eq!(server.join().unwrap().0, GET_TREE);
    }
}
