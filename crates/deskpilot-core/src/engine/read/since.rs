//! The session's tree read again as its last view was (filter, window, node budget), with
//! the changes since that view: what an action result and a subscriber's read show.

use crate::engine::Engine;
use crate::error::Result;
use crate::live::Since;
use crate::read::results::{Snapshot, SnapshotRequest};
use std::time::Duration;

impl Engine {}

impl crate::engine::Session<'_> {
    /// Reads the session's tree as its last view was read and answers with the changes since
    /// it (the whole tree, saying why, when the session saw none yet). The read is the
    /// session's new version.
    pub async fn snapshot_since_last(&self, timeout: Duration) -> Result<Snapshot> {
        let session = self.id();
        let request = match self.engine.sessions().view(session, Since::Last) {
            Some(last) => SnapshotRequest {
                filter: last.filter,
                window: last.window.clone(),
                max_nodes: last.max_nodes,
                timeout,
                since: Some(Since::Version(last.version)),
                ..SnapshotRequest::default()
            },
            None => SnapshotRequest {
                timeout,
                since: Some(Since::Last),
                ..SnapshotRequest::default()
            },
        };
        self.snapshot(&request).await
    }
}
