//! The runs a server keeps for `continue_run`: the last 20, each for 10 minutes, with no
//! secret: a step's text marked `secret` is dropped when the run is kept, and must be given
//! again to continue through that step.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::packs::set::PackSet;
use crate::pipeline::spec::RunStepsArgs;
use crate::pipeline::trace::Trace;

/// Runs kept, and for how long (docs/failures.md `unknown_run` says so).
pub const KEPT_RUNS: usize = 20;
pub const KEPT_FOR: Duration = Duration::from_secs(600);

/// The arguments that hold a step's secret text.
const SECRET_ARGS: [&str; 2] = ["text", "value"];

/// A run as kept.
#[derive(Debug, Clone)]
pub struct KeptRun {
    /// The pipeline, its secret texts dropped.
    pub spec: RunStepsArgs,
    /// The steps whose secret text was dropped, with the argument that held it.
    pub secret_steps: Vec<(String, &'static str)>,
    pub trace: Trace,
    /// The app packs the run started with.
    pub packs: Arc<PackSet>,
    kept_at: Instant,
}

#[derive(Debug, Default)]
struct Kept {
    issued: u64,
    runs: VecDeque<(String, KeptRun)>,
}

/// The server's kept runs.
#[derive(Debug, Clone, Default)]
pub struct Runs(Arc<Mutex<Kept>>);

impl Runs {
    /// A new run's id.
    pub fn issue(&self) -> String {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.issued += 1;
        format!("run{}", kept.issued)
    }

    /// Keeps `spec`, `trace` and `packs` under `id` (replacing what it held), without
    /// secrets.
    pub fn keep(&self, id: &str, spec: &RunStepsArgs, trace: Trace, packs: Arc<PackSet>) {
        let mut spec = spec.clone();
        let mut secret_steps = Vec::new();
        for step in spec.steps.iter_mut().chain(spec.finally.iter_mut()) {
            // A reference holds no secret (`${env.PIN}` is resolved again when continued).
            let literal = |a: &str| {
                step.args
                    .get(a)
                    .is_some_and(|v| crate::pipeline::refs::whole_reference(v).is_none())
            };
            if step.secret()
                && let Some(arg) = SECRET_ARGS.into_iter().find(|a| literal(a))
            {
                step.args.remove(arg);
                secret_steps.push((step.id.clone(), arg));
            }
        }
        let run = KeptRun {
            spec,
            secret_steps,
            trace,
            packs,
            kept_at: Instant::now(),
        };
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.runs.retain(|(kept_id, _)| kept_id != id);
        kept.runs.push_back((id.to_owned(), run));
        while kept.runs.len() > KEPT_RUNS {
            kept.runs.pop_front();
        }
    }

    /// A continued run's new trace (its pipeline and secrets stay as kept).
    pub fn update(&self, id: &str, trace: Trace) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, run)) = kept.runs.iter_mut().find(|(kept_id, _)| kept_id == id) {
            run.trace = trace;
            run.kept_at = Instant::now();
        }
    }

    /// The run kept under `id`, unless it expired.
    pub fn get(&self, id: &str) -> Option<KeptRun> {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.runs
            .retain(|(_, run)| run.kept_at.elapsed() < KEPT_FOR);
        kept.runs
            .iter()
            .find(|(kept_id, _)| kept_id == id)
            .map(|(_, run)| run.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A kept run holds no secret text, and the store holds the last 20 runs.
    #[test]
    fn kept_runs_hold_no_secret_and_only_the_last_twenty() {
        let spec: RunStepsArgs = serde_json::from_value(json!({
            "steps": [
                {"id": "pin", "tool": "type_text", "args": {"session": "s", "text": "1234", "secret": true}},
                {"id": "name", "tool": "type_text", "args": {"session": "s", "text": "Ada"}}
            ]
        }))
        .unwrap();
        let runs = Runs::default();
        let id = runs.issue();
        runs.keep(&id, &spec, Trace::default(), Default::default());
        let kept = runs.get(&id).unwrap();
        assert_eq!(kept.secret_steps, [("pin".to_owned(), "text")]);
        let text = format!("{:?}", kept.spec);
        assert!(!text.contains("1234"), "{text}");
        assert!(text.contains("Ada"));
        for _ in 0..KEPT_RUNS {
            let other = runs.issue();
            runs.keep(&other, &spec, Trace::default(), Default::default());
        }
        assert!(runs.get(&id).is_none(), "the oldest run is dropped");
    }
}
