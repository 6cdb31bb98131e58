//! Each session's tree as an MCP resource (`deskpilot://session/<id>/tree`), listed and
//! readable, with updates pushed from the app's events (debounced in core: `live/updates.rs`)
//! in both protocol eras: `resources/subscribe` (2025-11-25; one task per subscribed URI,
//! stopped by `resources/unsubscribe`) and `subscriptions/listen` (2026-07-28; the stream ends
//! gracefully once every subscribed session's app is gone). Reading a tree gives the changes
//! since the session last saw it (the whole tree the first time), and moves that baseline,
//! as an action's result does.

use std::time::Duration;

use deskpilot_core::present;
use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    ListResourcesResult, ReadResourceResult, Resource, ResourceContents,
    ResourceUpdatedNotificationParam, SubscriptionFilter,
};
use rmcp::service::{Peer, SubscriptionContext};
use tokio::task::JoinSet;

use crate::DeskpilotServer;
use crate::clients::Client;

const PREFIX: &str = "deskpilot://session/";
const SUFFIX: &str = "/tree";
/// How long reading a tree for a subscriber may take.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The URI of a session's tree.
pub fn tree_uri(session: &str) -> String {
    session_uri(session, SUFFIX)
}

/// The session a tree URI names.
pub fn session_of(uri: &str) -> Option<&str> {
    session_in(uri, SUFFIX)
}

/// The URI of a session's resource that ends in `suffix` (`/tree`).
pub(crate) fn session_uri(session: &str, suffix: &str) -> String {
    format!("{PREFIX}{session}{suffix}")
}

/// The session a resource URI ending in `suffix` names.
pub(crate) fn session_in<'u>(uri: &'u str, suffix: &str) -> Option<&'u str> {
    uri.strip_prefix(PREFIX)?
        .strip_suffix(suffix)
        .filter(|s| !s.is_empty() && !s.contains('/'))
}

impl DeskpilotServer {
    /// The trees of `client`'s sessions.
    pub(crate) fn tree_resources(&self, client: &Client) -> ListResourcesResult {
        let resources = self
            .engine()
            .sessions_open()
            .into_iter()
            .filter(|info| client.owns(&info.id))
            .map(|info| {
                let what = match &info.window {
                    Some(title) => format!("window {}", present::quoted(title, 80)),
                    None => format!("app {}", present::quoted(&info.app.name, 80)),
                };
                let mut resource = Resource::new(tree_uri(&info.id), format!("{} tree", info.id))
                    .with_description(format!(
                        "The tree of session {} ({what}): the changes since it was last read",
                        info.id
                    ));
                resource.mime_type = Some("text/plain".into());
                resource
            })
            .collect();
        ListResourcesResult::with_all_items(resources)
    }

    pub(crate) async fn read_tree(
        &self,
        client: &Client,
        uri: &str,
    ) -> Result<ReadResourceResult, ErrorData> {
        let session = self.known_session(uri)?;
        if !client.owns(session) {
            return Err(not_found(uri));
        }
        let read = async {
            self.engine()
                .session(session)?
                .snapshot_since_last(READ_TIMEOUT)
                .await
        };
        let text = match read.await {
            Ok(snapshot) => present::snapshot(&snapshot).joined(),
            // A failure is data here too: the text a tool would give.
            Err(e) => present::failure(&e),
        };
        Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri)]).with_ttl_ms(0))
    }

    fn known_session<'u>(&self, uri: &'u str) -> Result<&'u str, ErrorData> {
        session_of(uri)
            .filter(|s| self.engine().session(s).is_ok())
            .ok_or_else(|| not_found(uri))
    }

    /// `resources/subscribe`: pushes `notifications/resources/updated` for `uri` until
    /// unsubscribed; when the session's app quits, one last update (a read then answers
    /// `app_gone`) and the task ends.
    pub(crate) async fn subscribe_tree(
        &self,
        client: &Client,
        uri: &str,
        peer: Peer<RoleServer>,
    ) -> Result<(), ErrorData> {
        let session = self.known_session(uri)?.to_owned();
        if !client.owns(&session) {
            return Err(not_found(uri));
        }
        let engine = self.engine_arc();
        let updates = async { engine.session(&session)?.tree_updates().await };
        let mut updates = updates.await.ok().flatten().ok_or_else(|| {
            ErrorData::invalid_params(
                "this app's events are not watched: read the tree to see its changes",
                None,
            )
        })?;
        let owned = uri.to_owned();
        let task = tokio::spawn(async move {
            let updated = || ResourceUpdatedNotificationParam::new(owned.clone());
            while updates.next(&engine).await.is_some() {
                if peer.notify_resource_updated(updated()).await.is_err() {
                    return;
                }
            }
            let _ = peer.notify_resource_updated(updated()).await;
        });
        self.subscriptions().replace(uri, task);
        Ok(())
    }

    /// `resources/unsubscribe`.
    pub(crate) fn unsubscribe_tree(&self, uri: &str) {
        self.subscriptions().stop(uri);
    }

    /// What `subscriptions/listen` accepts of a request: any session's tree URI (whether it
    /// is open, and whose, is not said here: `listen_trees` sends only its client's).
    pub(crate) fn acceptable(&self, requested: &SubscriptionFilter) -> SubscriptionFilter {
        let uris: Vec<String> = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| session_of(uri).is_some())
            .cloned()
            .collect();
        SubscriptionFilter::builder()
            .resource_subscriptions(uris)
            .build()
    }

    /// One `subscriptions/listen` stream: every accepted tree's updates, until the client
    /// cancels or every app is gone (then the stream ends gracefully). Another client's trees
    /// send nothing (acceptance cannot ask whose a request is).
    pub(crate) async fn listen_trees(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let engine = self.engine_arc();
        let client = self.client_of(context.request_context());
        // A listening client is not idle: its sessions stay open while it listens.
        let _busy = client.busy();
        let mut tasks = JoinSet::new();
        for uri in context.accepted().resource_subscriptions.iter().flatten() {
            let Some(session) = session_of(uri).filter(|s| client.owns(s)) else {
                continue;
            };
            let updates = async { engine.session(session)?.tree_updates().await };
            let Ok(Some(mut updates)) = updates.await else {
                continue;
            };
            let (engine, sink, uri) = (engine.clone(), context.sink().clone(), uri.clone());
            tasks.spawn(async move {
                while updates.next(&engine).await.is_some() {
                    if sink.notify_resource_updated(uri.clone()).await.is_err() {
                        return;
                    }
                }
                let _ = sink.notify_resource_updated(uri).await;
            });
        }
        tokio::select! {
            () = context.cancelled() => tasks.abort_all(),
            () = async { while tasks.join_next().await.is_some() {} } => {}
        }
        Ok(())
    }
}

pub(crate) fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("no such resource: {uri} (resources/list names your sessions' resources)"),
        Some(serde_json::json!({ "uri": uri })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_uris_name_their_session() {
        assert_eq!(tree_uri("s3"), "deskpilot://session/s3/tree");
        assert_eq!(session_of("deskpilot://session/s3/tree"), Some("s3"));
        assert_eq!(session_of("deskpilot://session//tree"), None);
        assert_eq!(session_of("deskpilot://session/s3/x/tree"), None);
        assert_eq!(session_of("file:///s3/tree"), None);
    }
}
