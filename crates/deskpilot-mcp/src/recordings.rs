//! Each recorded session's log as an MCP resource (`deskpilot://session/<id>/recording`),
//! listed and readable by the client that owns the session while it runs, as its tree is.

use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents};

use crate::DeskpilotServer;
use crate::clients::Client;

use crate::resources::{session_in, session_uri};

const SUFFIX: &str = "/recording";

/// The URI of a session's recording.
pub fn recording_uri(session: &str) -> String {
    session_uri(session, SUFFIX)
}

/// The session a recording URI names.
pub fn session_of(uri: &str) -> Option<&str> {
    session_in(uri, SUFFIX)
}

impl DeskpilotServer {
    /// The recordings of `client`'s sessions.
    pub(crate) fn recording_resources(&self, client: &Client) -> Vec<Resource> {
        let Some(recorder) = self.recorder() else {
            return Vec::new();
        };
        recorder
            .sessions()
            .into_iter()
            .filter(|session| client.owns(session))
            .map(|session| {
                let mut resource =
                    Resource::new(recording_uri(&session), format!("{session} recording"))
                        .with_description(format!(
                            "What session {session} did so far, as JSON lines (docs/recording.md)"
                        ));
                resource.mime_type = Some("application/jsonl".into());
                resource
            })
            .collect()
    }

    /// The session resource `uri` names, its tree or its recording, for `client`.
    pub(crate) async fn read_session_resource(
        &self,
        client: &Client,
        uri: &str,
    ) -> Result<ReadResourceResult, ErrorData> {
        match session_of(uri) {
            Some(_) => self.read_recording(client, uri),
            None => self.read_tree(client, uri).await,
        }
    }

    /// A recording, for the client that owns its session; any other is told it is not there.
    pub(crate) fn read_recording(
        &self,
        client: &Client,
        uri: &str,
    ) -> Result<ReadResourceResult, ErrorData> {
        let not_found = || crate::resources::not_found(uri);
        let session = session_of(uri).ok_or_else(not_found)?;
        if !client.owns(session) {
            return Err(not_found());
        }
        let text = self
            .recorder()
            .and_then(|r| r.text(session))
            .ok_or_else(not_found)?;
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).with_ttl_ms(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recording_uris_name_their_session() {
        assert_eq!(recording_uri("s3"), "deskpilot://session/s3/recording");
        assert_eq!(session_of("deskpilot://session/s3/recording"), Some("s3"));
        assert_eq!(session_of("deskpilot://session/s3/tree"), None);
        assert_eq!(session_of("deskpilot://session//recording"), None);
    }
}
