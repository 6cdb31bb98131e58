//! The LibreOffice Calc guard: Calc's sheet reports 2^31 - 1 children (MANAGES_DESCENDANTS);
//! one `GetChildren` on it grew soffice to 15 GB in two minutes. A snapshot must leave it
//! unrealized and leave the app's memory alone. Calc runs under `prlimit --as`, so a
//! regression fails here instead of taking the machine down.

use std::time::{Duration, Instant};

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::model::{ElementId, Realization};
use deskpilot_core::{Backend, WalkLimits};
use deskpilot_linux::headless::procs::{Memory, memory_kb};
use deskpilot_testkit::VirtualDesktop;

fn rss_mb(pid: u32) -> f64 {
    let kb = memory_kb(pid, Memory::Resident).expect("the process runs");
    kb as f64 / 1024.0
}

async fn calc_window(backend: &AtspiBackend) -> (ElementId, u32) {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let apps = backend.apps().await.unwrap_or_default();
        let found = apps.iter().find_map(|a| {
            a.windows
                .iter()
                .find(|w| w.title.contains("LibreOffice Calc"))
                .map(|w| (w.id.clone(), a.pid.unwrap()))
        });
        if let Some(found) = found {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "Calc showed no window: {apps:#?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_calc_snapshot_never_enumerates_the_sheet() {
    let desktop = VirtualDesktop::start().unwrap();
    let _calc = desktop
        .launch_libreoffice(&["--calc"], Some(8_000_000_000))
        .unwrap();
    let backend = AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
        .await
        .unwrap();
    let (window, pid) = calc_window(&backend).await;
    let before = rss_mb(pid);
    let tree = backend
        .snapshot(&window, &WalkLimits::default())
        .await
        .unwrap();
    let after = rss_mb(pid);
    let sheet = tree
        .nodes
        .iter()
        .find(|n| n.node.child_count >= i32::MAX as u32)
        .expect("the sheet, with its 2^31 - 1 children");
    assert_eq!(
        sheet.realization,
        Realization::NotRealized {
            logical: Some(i32::MAX as u32)
        }
    );
    assert!(sheet.children.is_empty());
    assert!(
        tree.len() > 100,
        "the rest of Calc was read: {} nodes",
        tree.len()
    );
    assert!(
        after - before < 100.0,
        "Calc grew from {before:.0} MB to {after:.0} MB during a snapshot"
    );
}
