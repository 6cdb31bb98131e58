//! `AtspiBackend`: the engine's `Backend` over AT-SPI2.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use deskpilot_core::model::{ElementId, Node, Tree};
use deskpilot_core::window_system::window_for;
use deskpilot_core::{AppInfo, Backend, BackendError, WalkLimits, WindowSystem};

use crate::apps::{list_apps, read_app};
use crate::bus::{ConnectOptions, connect_a11y_bus};
use crate::cache::{CacheIndex, read_cache};
use crate::error::to_backend;
use crate::geometry::{client_windows, fix_window_relative, toplevel_of};
use crate::proto::{Proto, ROOT_PATH};
use crate::read::{AppTraits, read_node};
use crate::walk::walk;

/// The AT-SPI backend, connected to the accessibility bus of one D-Bus session.
pub struct AtspiBackend {
    proto: Proto,
    a11y_address: String,
    /// Per app (bus name): how it reports states, learnt once.
    traits: Mutex<HashMap<String, AppTraits>>,
    /// The display server's windows (X11), for window ids and window-relative extents.
    window_system: Option<Arc<dyn WindowSystem>>,
    use_cache: bool,
}

impl AtspiBackend {
    pub async fn connect(options: ConnectOptions) -> Result<Self, BackendError> {
        let (conn, a11y_address) = connect_a11y_bus(&options).await?;
        Ok(AtspiBackend {
            proto: Proto::new(conn, options.call_timeout),
            a11y_address,
            traits: Mutex::new(HashMap::new()),
            window_system: None,
            use_cache: options.use_cache,
        })
    }

    /// Uses `system` to map windows to window-system ids and to place window-relative extents.
    pub fn with_window_system(mut self, system: Arc<dyn WindowSystem>) -> Self {
        self.window_system = Some(system);
        self
    }

    fn client_windows(&self) -> Vec<deskpilot_core::ClientWindow> {
        client_windows(self.window_system.as_deref())
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

    /// The app's whole cache in one call, where its bridge is known to offer one. GTK3-family
    /// apps expose it only after `GetApplicationBusAddress` was asked once.
    async fn cache_of(&self, app: &str, traits: AppTraits) -> Option<CacheIndex> {
        if !self.use_cache || !traits.bulk_properties {
            return None;
        }
        if let Some(index) = read_cache(&self.proto, app).await {
            return Some(index);
        }
        let root = ElementId::new(app, ROOT_PATH);
        self.proto.application_bus_address(&root).await.ok()?;
        read_cache(&self.proto, app).await
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
        let windows = self.client_windows();
        Ok(apps
            .into_iter()
            .map(|app| {
                if app.info.responding {
                    self.remember(&app.info.id.app, app.traits);
                }
                let mut info = app.info;
                for window in &mut info.windows {
                    let size = window.bounds.map(|b| (b.width, b.height));
                    let client = window_for(&windows, info.pid, &window.title, size);
                    window.x11_window = client.map(|c| c.xid);
                    if app.traits.window_relative_extents
                        && let (Some(client), Some(bounds)) = (client, window.bounds)
                    {
                        window.bounds = Some(bounds.offset(client.bounds.x, client.bounds.y));
                    }
                }
                info
            })
            .collect())
    }

    async fn snapshot(&self, root: &ElementId, limits: &WalkLimits) -> Result<Tree, BackendError> {
        let traits = self.traits_of(&root.app).await;
        let cache = self.cache_of(&root.app, traits).await.map(Arc::new);
        let mut tree = walk(&self.proto, root, limits, traits, cache).await?;
        if traits.window_relative_extents {
            let root_is_window = tree.root().is_some_and(|r| {
                matches!(
                    r.node.role,
                    deskpilot_core::model::Role::Window
                        | deskpilot_core::model::Role::Dialog
                        | deskpilot_core::model::Role::Application
                )
            });
            let toplevel = if root_is_window {
                None
            } else {
                toplevel_of(&self.proto, root, traits).await
            };
            let toplevel = toplevel.as_ref().map(|(t, s)| (t.as_str(), *s));
            fix_window_relative(&mut tree, traits, &self.client_windows(), toplevel);
        }
        Ok(tree)
    }

    async fn node(&self, id: &ElementId) -> Result<Node, BackendError> {
        let traits = self.traits_of(&id.app).await;
        read_node(&self.proto, id, traits, false)
            .await
            .map_err(|e| to_backend(e, id, "read", self.proto.timeout()))
    }
}
