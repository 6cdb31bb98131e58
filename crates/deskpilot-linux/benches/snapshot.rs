//! `cargo xtask bench snapshot`: deskpilot's snapshot against a pyatspi walk and against one
//! `Cache.GetItems` pass plus extents and actions (the floor), on the same apps in one run.
//!
//! Each app gets a fresh private desktop. Prints a table and writes
//! `target/bench/snapshot.json`. Also runs the LibreOffice Calc guard: a snapshot of Calc
//! (whose sheet reports 2^31 - 1 children) must not grow the app by 100 MB; Calc runs under
//! `prlimit --as` so that a regression cannot take the machine down.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::model::ElementId;
use deskpilot_core::{Backend, ConnectTarget, Engine, SnapshotRequest, WalkLimits};
use deskpilot_linux::headless::procs::{Memory, memory_kb};
use deskpilot_testkit::{
    App, Fixture, LaunchOptions, Registration, SYSTEM_PYTHON, VirtualDesktop, pyatspi_walks,
};
use futures_util::StreamExt;
use serde_json::json;
use zbus::zvariant::OwnedObjectPath;

const RUNS: usize = 5;

struct Subject {
    name: &'static str,
    /// A part of the main window's title.
    title: &'static str,
    launch: fn(&VirtualDesktop, &Path) -> App,
    /// The toolkit reports `showing` (GTK 4.8 does not: its elements all count as maybe shown).
    reports_showing: bool,
}

fn launch_with_env(
    desktop: &VirtualDesktop,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> App {
    let mut cmd = desktop.command(program);
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    desktop
        .launch_with(
            cmd,
            LaunchOptions {
                registration: Registration::Within(Duration::from_secs(60)),
            },
        )
        .unwrap_or_else(|e| panic!("{program}: {e}"))
}

fn subjects() -> Vec<Subject> {
    vec![
        Subject {
            name: "gtk3 fixture",
            title: "deskpilot GTK3 fixture",
            reports_showing: true,
            launch: |desktop, _| {
                desktop
                    .launch_fixture(Fixture::Gtk3)
                    .expect("gtk3 fixture")
                    .app
            },
        },
        Subject {
            name: "gtk4-widget-factory",
            title: "Widget Factory",
            reports_showing: false,
            launch: |desktop, _| launch_with_env(desktop, "gtk4-widget-factory", &[], &[]),
        },
        Subject {
            name: "libreoffice writer",
            title: "bench.fodt",
            reports_showing: true,
            launch: |desktop, inputs| {
                // A private copy: a lock file left by an earlier, killed run would make
                // LibreOffice ask a question instead of opening the document.
                let doc = desktop.dir().join("bench.fodt");
                std::fs::copy(inputs.join("bench.fodt"), &doc).unwrap();
                desktop
                    .launch_libreoffice(&["--writer", doc.to_str().unwrap()], None)
                    .expect("writer starts")
            },
        },
        Subject {
            name: "firefox esr",
            title: "deskpilot bench page",
            reports_showing: true,
            launch: |desktop, inputs| {
                let profile = desktop.dir().join("ff-profile");
                std::fs::create_dir_all(&profile).unwrap();
                let page = format!("file://{}", inputs.join("bench.html").display());
                launch_with_env(
                    desktop,
                    "firefox-esr",
                    &[
                        "--no-remote",
                        "--new-instance",
                        "--profile",
                        profile.to_str().unwrap(),
                        &page,
                    ],
                    &[("GNOME_ACCESSIBILITY", "1"), ("MOZ_ENABLE_WAYLAND", "0")],
                )
            },
        },
    ]
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[values.len() / 2]
}

/// Waits until the app shows a window with `title` and its tree stops growing.
async fn settled_window(backend: &AtspiBackend, pid: u32, title: &str) -> ElementId {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = 0;
    let mut stable = 0;
    loop {
        assert!(Instant::now() < deadline, "no settled window {title:?}");
        let apps = backend.apps().await.unwrap_or_default();
        let window = apps
            .iter()
            .filter(|a| {
                a.pid
                    .is_some_and(|p| deskpilot_testkit::procs::descends_from(p, pid))
            })
            .flat_map(|a| a.windows.iter())
            .find(|w| w.title.contains(title))
            .map(|w| w.id.clone());
        if let Some(window) = window {
            let nodes = backend
                .snapshot(&window, &limits())
                .await
                .map(|t| t.len())
                .unwrap_or(0);
            stable = if nodes == last && nodes > 1 {
                stable + 1
            } else {
                0
            };
            last = nodes;
            if stable >= 2 {
                return window;
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

fn limits() -> WalkLimits {
    WalkLimits {
        max_nodes: 50_000,
        ..WalkLimits::with_timeout(Duration::from_secs(60))
    }
}

async fn deskpilot_runs(backend: &AtspiBackend, window: &ElementId) -> (usize, Vec<f64>) {
    let mut times = Vec::new();
    let mut nodes = 0;
    // Warm up like a server that has been running: the first snapshot starts watching the
    // app's events, and a watch is trusted once the app has surely learnt of it.
    backend.snapshot(window, &limits()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    backend.snapshot(window, &limits()).await.unwrap();
    for _ in 0..RUNS {
        let start = Instant::now();
        let tree = backend.snapshot(window, &limits()).await.unwrap();
        times.push(start.elapsed().as_secs_f64() * 1000.0);
        nodes = tree.len();
    }
    (nodes, times)
}

fn pyatspi_runs(desktop: &VirtualDesktop, title: &str) -> (usize, Vec<f64>) {
    pyatspi_walks(desktop.command(SYSTEM_PYTHON), title, RUNS)
}

type Ref = (String, OwnedObjectPath);
type Item = (
    Ref,
    Ref,
    Ref,
    i32,
    i32,
    Vec<String>,
    String,
    u32,
    String,
    Vec<u32>,
);

/// The floor: one `Cache.GetItems` for the whole app, then extents (of items not known to be
/// hidden) and actions of every item, 64 calls in flight.
async fn getitems_runs(
    a11y: &zbus::Connection,
    app: &str,
    reports_showing: bool,
) -> Option<(usize, Vec<f64>)> {
    /// AT-SPI's SHOWING bit (in the first state word).
    const SHOWING: u32 = 1 << 25;
    let call = |dest: String, path: String, iface: &'static str, method: &'static str| {
        let conn = a11y.clone();
        async move {
            conn.call_method(Some(dest.as_str()), path.as_str(), Some(iface), method, &())
                .await
        }
    };
    // Makes GTK3-family apps expose their cache.
    let _ = call(
        app.into(),
        "/org/a11y/atspi/accessible/root".into(),
        "org.a11y.atspi.Application",
        "GetApplicationBusAddress",
    )
    .await;
    let mut times = Vec::new();
    let mut nodes = 0;
    for run in 0..=RUNS {
        let start = Instant::now();
        let reply = call(
            app.into(),
            "/org/a11y/atspi/cache".into(),
            "org.a11y.atspi.Cache",
            "GetItems",
        )
        .await
        .ok()?;
        let items: Vec<Item> = reply.body().deserialize().ok()?;
        let mut calls = Vec::new();
        for item in &items {
            let (name, path) = (item.0.0.clone(), item.0.1.to_string());
            // Like the other two: no extents of an element that says it is hidden.
            let hidden = reports_showing && item.9.first().is_some_and(|w| w & SHOWING == 0);
            if !hidden && item.5.iter().any(|i| i == "org.a11y.atspi.Component") {
                let conn = a11y.clone();
                let (n, p) = (name.clone(), path.clone());
                calls.push(Box::pin(async move {
                    let _ = conn
                        .call_method(
                            Some(n.as_str()),
                            p.as_str(),
                            Some("org.a11y.atspi.Component"),
                            "GetExtents",
                            &(0u32,),
                        )
                        .await;
                })
                    as std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>);
            }
            if item.5.iter().any(|i| i == "org.a11y.atspi.Action") {
                let conn = a11y.clone();
                calls.push(Box::pin(async move {
                    let _ = conn
                        .call_method(
                            Some(name.as_str()),
                            path.as_str(),
                            Some("org.a11y.atspi.Action"),
                            "GetActions",
                            &(),
                        )
                        .await;
                }));
            }
        }
        futures_util::stream::iter(calls)
            .buffer_unordered(64)
            .collect::<Vec<()>>()
            .await;
        if run > 0 {
            times.push(start.elapsed().as_secs_f64() * 1000.0);
        }
        nodes = items.len();
    }
    (nodes > 0).then_some((nodes, times))
}

async fn calc_guard(inputs: &Path) -> serde_json::Value {
    let _ = inputs;
    let desktop = VirtualDesktop::start().expect("desktop");
    let profile = format!(
        "-env:UserInstallation=file://{}/lo-profile",
        desktop.dir().display()
    );
    // A hard cap on the address space: a regression that enumerates the sheet's 2^31 cells
    // gets an allocation failure instead of the machine's memory.
    let mut cmd = desktop.command("prlimit");
    cmd.args([
        "--as=8000000000",
        "soffice",
        "--norestore",
        "--nologo",
        "--nofirststartwizard",
        &profile,
        "--calc",
    ])
    .env("SAL_USE_VCLPLUGIN", "gtk3");
    let app = desktop
        .launch_with(
            cmd,
            LaunchOptions {
                registration: Registration::Within(Duration::from_secs(60)),
            },
        )
        .expect("calc starts");
    let backend = AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
        .await
        .unwrap();
    let window = settled_window(&backend, app.pid(), "Calc").await;
    // The pid of the process that owns the window now: LibreOffice restarts itself once when
    // it creates a profile, so the launch's registration may be gone.
    let apps = backend.apps().await.unwrap();
    let pid = apps
        .iter()
        .find(|a| a.id.app == window.app)
        .and_then(|a| a.pid)
        .expect("Calc's pid");
    let before = memory_kb(pid, Memory::Resident).expect("Calc's memory is readable");
    let start = Instant::now();
    let tree = backend
        .snapshot(&window, &limits())
        .await
        .expect("calc snapshot");
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let after = memory_kb(pid, Memory::Resident).expect("Calc is still running");
    let grown_mb = (after.saturating_sub(before)) as f64 / 1024.0;
    let not_realized = tree
        .incomplete()
        .filter(|(_, r)| matches!(r, deskpilot_core::model::Realization::NotRealized { .. }))
        .count();
    println!(
        "\nLibreOffice Calc guard: snapshot {ms:.0} ms, {} nodes, {not_realized} containers not realized, app RSS {:.0} -> {:.0} MB (+{grown_mb:.1} MB, limit 100)",
        tree.len(),
        before as f64 / 1024.0,
        after as f64 / 1024.0
    );
    assert!(
        grown_mb < 100.0,
        "Calc grew by {grown_mb:.1} MB during a snapshot"
    );
    json!({"ms": ms, "nodes": tree.len(), "rss_before_mb": before as f64 / 1024.0, "rss_after_mb": after as f64 / 1024.0, "grown_mb": grown_mb, "not_realized": not_realized})
}

fn target_dir() -> PathBuf {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    dir.join("bench")
}

// The runtime deskpilot's binary uses.
#[tokio::main(flavor = "current_thread")]
async fn main() {
    // `cargo bench` passes `--bench`; a name filter selects subjects.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let out = target_dir();
    std::fs::create_dir_all(&out).unwrap();
    let inputs = out.join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    let status = Command::new(SYSTEM_PYTHON)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/make_inputs.py"))
        .arg(&inputs)
        .status()
        .unwrap();
    assert!(status.success());

    let mut results = Vec::new();
    println!(
        "{:<22} {:>6} {:>9} {:>9} {:>9} | {:>6} {:>9} {:>8} | {:>6} {:>9} | {:>7} {:>7} {:>8} | {:>6}",
        "app",
        "nodes",
        "dp ms",
        "cold ms",
        "dp n/s",
        "py n",
        "py ms",
        "py n/s",
        "gi n",
        "gi ms",
        "py/dp",
        "py/cold",
        "dp/gi",
        "tok/n"
    );
    println!(
        "(dp: repeated snapshots, an app's Cache.GetItems answer reused while it sent no event; cold: read every time)"
    );
    for subject in subjects() {
        if !filter.is_empty() && !filter.iter().any(|f| subject.name.contains(f.as_str())) {
            continue;
        }
        let desktop = VirtualDesktop::start().expect("desktop");
        let app = (subject.launch)(&desktop, &inputs);
        let backend = AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
            .await
            .unwrap();
        let window = settled_window(&backend, app.pid(), subject.title).await;
        // Cold first: once a watching backend has registered for events, apps also send
        // events while a walk creates their objects, which slows every later reader.
        let cold_backend = AtspiBackend::connect(ConnectOptions {
            reuse_quiet_cache: false,
            ..ConnectOptions::new(desktop.session_bus_address())
        })
        .await
        .unwrap();
        let (_, mut cold_ms) = deskpilot_runs(&cold_backend, &window).await;
        drop(cold_backend);
        let (dp_nodes, mut dp_ms) = deskpilot_runs(&backend, &window).await;
        let reads = backend.cache_reads();
        let (py_nodes, mut py_ms) = pyatspi_runs(&desktop, subject.title);
        let a11y = zbus::connection::Builder::address(desktop.a11y_bus_address())
            .unwrap()
            .method_timeout(Duration::from_secs(5))
            .build()
            .await
            .unwrap();
        let gi = getitems_runs(&a11y, &window.app, subject.reports_showing).await;
        let engine = Engine::new(Arc::new(backend));
        let session = engine
            .connect(&ConnectTarget::WindowTitle(subject.title.into()))
            .await
            .unwrap()
            .id;
        let snapshot = engine
            .session(&session)
            .unwrap()
            .snapshot(&SnapshotRequest::default())
            .await
            .unwrap();
        let tokens = snapshot.rendered.tokens_per_node();
        // What an agent reads, kept for inspection beside the numbers.
        let dump = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../target/bench")
            .join(format!("{}.txt", subject.name.replace(' ', "-")));
        let _ = std::fs::write(dump, &snapshot.rendered.text);

        let (dp, py) = (median(&mut dp_ms), median(&mut py_ms));
        let cold = median(&mut cold_ms);
        let (gi_nodes, gi_ms) = match gi {
            Some((n, mut t)) => (n, Some(median(&mut t))),
            None => (0, None),
        };
        let rate = |n: usize, ms: f64| n as f64 / (ms / 1000.0);
        println!(
            "{:<22} {:>6} {:>9.1} {:>9.1} {:>9.0} | {:>6} {:>9.1} {:>8.0} | {:>6} {:>9} | {:>6.1}x {:>6.1}x {:>8} | {:>6.2}",
            subject.name,
            dp_nodes,
            dp,
            cold,
            rate(dp_nodes, dp),
            py_nodes,
            py,
            rate(py_nodes, py),
            gi_nodes,
            gi_ms.map_or("-".into(), |m| format!("{m:.1}")),
            py / dp,
            py / cold,
            gi_ms.map_or("-".into(), |m| format!("{:.2}x", dp / m)),
            tokens
        );
        results.push(json!({
            "app": subject.name,
            "deskpilot": {"nodes": dp_nodes, "median_ms": dp, "nodes_per_s": rate(dp_nodes, dp), "runs_ms": dp_ms, "getitems_reads": reads},
            "deskpilot_cold": {"median_ms": cold, "runs_ms": cold_ms},
            "speedup_cold_vs_pyatspi": py / cold,
            "pyatspi": {"nodes": py_nodes, "median_ms": py, "nodes_per_s": rate(py_nodes, py), "runs_ms": py_ms},
            "getitems": {"nodes": gi_nodes, "median_ms": gi_ms},
            "speedup_vs_pyatspi": py / dp,
            "ratio_vs_getitems": gi_ms.map(|m| dp / m),
            "tokens_per_node": tokens,
            "rendered_nodes": snapshot.rendered.lines,
        }));
        drop(app);
        drop(desktop);
    }
    let calc = if filter.is_empty() || filter.iter().any(|f| "calc".contains(f.as_str())) {
        Some(calc_guard(&inputs).await)
    } else {
        None
    };
    let report = json!({"runs": RUNS, "subjects": results, "calc_guard": calc});
    let path = out.join("snapshot.json");
    std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    println!("\nwritten to {}", path.display());
}
