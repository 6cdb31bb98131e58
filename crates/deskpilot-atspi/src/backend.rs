//! `AtspiBackend`: the engine's `Backend` over AT-SPI2.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use deskpilot_core::model::{ElementId, Node, Tree};
use deskpilot_core::{AppInfo, Backend, BackendError, WalkLimits};

use crate::apps::{list_apps, read_app};
use crate::bus::{ConnectOptions, connect_a11y_bus};
use crate::error::to_backend;
use crate::proto::{Proto, ROOT_PATH};
use crate::read::{AppTraits, read_node};
use crate::walk::walk;

/// The AT-SPI backend, connected to the accessibility bus of one D-Bus session.
pub struct AtspiBackend {
    proto: Proto,
    a11y_address: String,
    /// Per app (bus name): how it reports states, learnt once.
    traits: Mutex<HashMap<String, AppTraits>>,
}

impl AtspiBackend {
    pub async fn connect(options: ConnectOptions) -> Result<Self, BackendError> {
        let (conn, a11y_address) = connect_a11y_bus(&options).await?;
        Ok(AtspiBackend {
            proto: Proto::new(conn, options.call_timeout),
            a11y_address,
            traits: Mutex::new(HashMap::new()),
        })
    }

    /// The address of the accessibility bus in use.
    pub fn a11y_address(&self) -> &str {
        &self.a11y_address
    }

    async fn traits_of(&self, app: &str) -> AppTraits {
        if let Some(traits) = self.traits.lock().expect("traits lock").get(app) {
            return *traits;
        }
        let read = read_app(&self.proto, &ElementId::new(app, ROOT_PATH)).await;
        if read.info.responding {
            self.remember(app, read.traits);
        }
        read.traits
    }

    fn remember(&self, app: &str, traits: AppTraits) {
        self.traits
            .lock()
            .expect("traits lock")
            .insert(app.to_owned(), traits);
    }
}

#[async_trait]
impl Backend for AtspiBackend {
    async fn apps(&self) -> Result<Vec<AppInfo>, BackendError> {
        let apps = list_apps(&self.proto).await?;
        Ok(apps
            .into_iter()
            .map(|app| {
                if app.info.responding {
                    self.remember(&app.info.id.app, app.traits);
                }
                app.info
            })
            .collect())
    }

    async fn snapshot(&self, root: &ElementId, limits: &WalkLimits) -> Result<Tree, BackendError> {
        let traits = self.traits_of(&root.app).await;
        walk(&self.proto, root, limits, traits).await
    }

    async fn node(&self, id: &ElementId) -> Result<Node, BackendError> {
        let traits = self.traits_of(&id.app).await;
        read_node(&self.proto, id, traits, false)
            .await
            .map_err(|e| to_backend(e, id, "read", self.proto.timeout()))
    }
}
