//! The three rigs a case runs on: the fake in AT-SPI's words, the fake in UI Automation's,
//! and the Windows backend over its fake UIA source. Each has its own oracle: what its
//! provider was asked to do and what input reached it, read from the fake, not the report.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::{ConnectTarget, Engine, Wiring};
use deskpilot_fake::{FakeBackend, FakeInput, Flavour};
use deskpilot_windows::send_input::SendInputDevice;
use deskpilot_windows::system_windows::SystemWindows;
use deskpilot_windows::{FakeUia, WindowsBackend};

use super::script::Given;
use super::{to_uia, win_input};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RigKind {
    AtSpiFake,
    UiaFake,
    Windows,
}

impl RigKind {
    pub const ALL: [RigKind; 3] = [RigKind::AtSpiFake, RigKind::UiaFake, RigKind::Windows];

    pub fn name(self) -> &'static str {
        match self {
            RigKind::AtSpiFake => "fake at-spi",
            RigKind::UiaFake => "fake uia",
            RigKind::Windows => "windows",
        }
    }
}

/// An engine connected to a case's app, and what its oracle has shown so far.
pub struct Rig {
    pub engine: Engine,
    pub session: String,
    oracle: Oracle,
    /// How many of the provider's and the input's log lines were shown.
    shown: (usize, usize),
}

enum Oracle {
    Fake {
        backend: Arc<FakeBackend>,
        input: Option<Arc<FakeInput>>,
    },
    Uia {
        fake: Arc<FakeUia>,
        desk: Arc<win_input::Desk>,
    },
}

/// Every platform call's deadline on the Windows rig.
const TIMEOUT: Duration = Duration::from_secs(2);

/// What a rig says before its first step (the elements it left out), and the rig.
pub async fn build(kind: RigKind, app: &str, givens: &[Given]) -> (Vec<String>, Rig) {
    let (notes, engine, oracle) = match kind {
        RigKind::AtSpiFake => fake(Flavour::AtSpi, app, givens),
        RigKind::UiaFake => fake(Flavour::Uia, app, givens),
        RigKind::Windows => windows(app, givens),
    };
    let title = first_window(app);
    let session = engine
        .connect(&ConnectTarget::WindowTitle(title.clone()))
        .await
        .unwrap_or_else(|e| panic!("{}: connecting to {title:?}: {e:?}", kind.name()))
        .id;
    let rig = Rig {
        engine,
        session,
        oracle,
        shown: (0, 0),
    };
    (notes, rig)
}

fn fake(flavour: Flavour, app: &str, givens: &[Given]) -> (Vec<String>, Engine, Oracle) {
    let backend = Arc::new(FakeBackend::with_flavour(flavour));
    backend.add_app(app);
    let input = (!givens.contains(&Given::NoInput)).then(|| {
        let input = Arc::new(FakeInput::new(backend.clone()));
        input.refuse_activation(givens.contains(&Given::ActivationRefused));
        input
    });
    let wiring = match &input {
        Some(input) => Wiring {
            input: Some(input.clone()),
            windows: Some(input.clone()),
            ..Wiring::default()
        },
        None => Wiring::default(),
    };
    let engine = Engine::wired(backend.clone(), wiring);
    (Vec::new(), engine, Oracle::Fake { backend, input })
}

/// The Windows backend over `FakeUia`, its input and windows over `win_input::Desk`.
fn windows(app: &str, givens: &[Given]) -> (Vec<String>, Engine, Oracle) {
    let rewritten = to_uia::rewrite(app).unwrap_or_else(|e| panic!("{e}"));
    let fake = Arc::new(FakeUia::new(&rewritten.text));
    let backend = WindowsBackend::new(fake.clone(), TIMEOUT);
    let raw = win_input::windows(rewritten.pid, &rewritten.windows);
    let locked = givens.contains(&Given::ActivationRefused);
    let desk = Arc::new(win_input::Desk::new(raw, locked));
    let wiring = match givens.contains(&Given::NoInput) {
        true => Wiring::default(),
        false => Wiring {
            input: Some(Arc::new(SendInputDevice::new(desk.clone(), TIMEOUT))),
            windows: Some(Arc::new(SystemWindows::new(desk.clone(), TIMEOUT))),
            ..Wiring::default()
        },
    };
    let engine = Engine::wired(Arc::new(backend), wiring);
    let notes = rewritten
        .left_out
        .into_iter()
        .map(|what| format!("left out: {what}"))
        .collect();
    (notes, engine, Oracle::Uia { fake, desk })
}

fn first_window(app: &str) -> String {
    let app = deskpilot_fake::parse_app(app, ":1.1").unwrap_or_else(|e| panic!("{e}"));
    app.root.children[0].node.name.clone()
}

impl Rig {
    /// What the provider was asked and what input was sent since the last call, one line
    /// each.
    pub fn news(&mut self) -> Vec<String> {
        let (asked, sent) = self.oracle.logs();
        let (seen_asked, seen_sent) = self.shown;
        self.shown = (asked.len(), sent.len());
        let asked = asked[seen_asked..].iter().map(|a| format!("asked: {a}"));
        let sent = sent[seen_sent..].iter().map(|s| format!("sent: {s}"));
        asked.chain(sent).collect()
    }
}

impl Oracle {
    /// The provider's log of requests, and the input device's log.
    fn logs(&self) -> (Vec<String>, Vec<String>) {
        match self {
            Oracle::Fake { backend, input } => (
                backend
                    .performed()
                    .into_iter()
                    .map(|(_, op)| format!("{op:?}"))
                    .collect(),
                input.iter().flat_map(|i| i.sent()).collect(),
            ),
            Oracle::Uia { fake, desk } => (
                fake.performed().into_iter().map(|(_, how)| how).collect(),
                desk.log(),
            ),
        }
    }
}
