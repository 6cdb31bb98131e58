//! Apps busy for seconds with one answer, told from frozen ones. GTK 3 builds its cache (at
//! the first `GetApplicationBusAddress`) and answers `Cache.GetItems` in time quadratic in a
//! container's children (9,300 labels: about 4 s each, docs/benchmarks.md), answering nothing
//! meanwhile. An app that answered a ping just before such a call outlasted its timeout is
//! busy, not frozen: it is waited for until the caller's deadline, and its cache is never
//! asked for again. A frozen app fails the ping: one timeout, as before.

use std::future::Future;
use std::time::Instant;

use crate::backend::AtspiBackend;
use crate::error::{Failure, classify};

impl AtspiBackend {
    /// Awaits `call`, one of `app`'s slow answers. When it outlasts its timeout although the
    /// app was answering (it answered a ping `just_pinged`, else one sent now), waits until
    /// the app answers again (or `deadline`) and gives `Ok(None)`: the answer came too late
    /// to be read.
    pub(crate) async fn patiently<T>(
        &self,
        app: &str,
        deadline: Instant,
        just_pinged: bool,
        call: impl Future<Output = zbus::Result<T>>,
    ) -> zbus::Result<Option<T>> {
        let answering = just_pinged || self.proto.answering(app).await;
        match call.await {
            Ok(answer) => Ok(Some(answer)),
            Err(e) if answering && classify(&e) == Failure::Timeout => {
                tracing::debug!(
                    app,
                    "busy with a slow answer: its cache is never asked again"
                );
                self.proto.stalls().busy(app);
                self.apps.update(app, |state| {
                    state.slow_cache = true;
                    state.identities = None;
                });
                let deadline = tokio::time::Instant::from_std(deadline);
                if self.proto.stalls().answered_by(app, deadline).await {
                    Ok(None)
                } else {
                    Err(e)
                }
            }
            Err(e) => Err(e),
        }
    }
}
