//! The legacy era's tree subscriptions (`resources/subscribe`): the task pushing each
//! subscribed URI's updates, stopped by `resources/unsubscribe` or when the server goes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::task::JoinHandle;

/// The legacy era's subscriptions: the task pushing each subscribed URI's updates.
#[derive(Clone, Default)]
pub struct Subscriptions(Arc<Mutex<HashMap<String, JoinHandle<()>>>>);

impl Drop for Subscriptions {
    fn drop(&mut self) {
        if Arc::strong_count(&self.0) == 1 {
            for (_, task) in self.0.lock().expect("subscriptions").drain() {
                task.abort();
            }
        }
    }
}

impl Subscriptions {
    /// Keeps `task` as `uri`'s, stopping the one it replaces.
    pub fn replace(&self, uri: &str, task: JoinHandle<()>) {
        if let Some(old) = self.lock().insert(uri.to_owned(), task) {
            old.abort();
        }
    }

    /// Stops `uri`'s task, if any.
    pub fn stop(&self, uri: &str) {
        if let Some(task) = self.lock().remove(uri) {
            task.abort();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, JoinHandle<()>>> {
        self.0.lock().expect("subscriptions")
    }
}
