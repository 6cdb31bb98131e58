//! An action that ends its app: after input was sent, an app that stops answering and then
//! leaves within `EXIT_WAIT` exited, as a dialog's OK ends zenity. That is reported as such,
//! never as a retryable `app_not_responding` an agent would answer by acting again on
//! whatever is there next. An app still there after the wait is not responding, as before.

use crate::act::exited::*;
use crate::act::report::ActionReport;
use crate::engine::Engine;
use crate::error::{Code, Error};
use crate::model::ElementId;
use std::time::Duration;
use tokio::time::Instant;

/// How long an app that stopped answering after an action gets to leave before it is taken
/// for not responding: the read-back's own wait (docs/failures.md). Test
/// `an_ok_that_ends_its_program_is_confirmed_and_one_that_freezes_it_is_not`.
pub(crate) const EXIT_WAIT: Duration = Duration::from_millis(1500);

const EXIT_POLL: Duration = Duration::from_millis(50);

/// `error` from reading back (or sending) a rung: when the app stopped answering and
/// then left, the report of an action that ended its app; else `error`.
pub(crate) async fn unless_exited(
    engine: &Engine,
    app: &ElementId,
    sent: Sent<'_>,
    error: Error,
) -> Result<ActionReport, Error> {
    let silent = matches!(error.code, Code::AppNotResponding | Code::AppGone);
    if !silent || !left_within(engine, app, EXIT_WAIT).await {
        return Err(error);
    }
    Ok(exited(sent))
}

/// Whether `app` leaves within `wait`, asked of the system (never of the app).
async fn left_within(engine: &Engine, app: &ElementId, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    loop {
        match engine.backend().app_running(app).await {
            Some(false) => return true,
            None => return false,
            Some(true) if Instant::now() >= deadline => return false,
            Some(true) => tokio::time::sleep(EXIT_POLL).await,
        }
    }
}
