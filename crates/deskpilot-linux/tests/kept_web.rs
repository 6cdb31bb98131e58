//! A browser's whole tree is kept between reads like a GTK app's: each change a page's own
//! script makes (text, values, states, rows, a dialog, a scroll, a layout shift, the title)
//! is read by the backend that keeps trees as by one that keeps nothing.

use deskpilot_core::model::Role;
use deskpilot_core::{Backend, NativeOp, WalkLimits};
use deskpilot_testkit::VirtualDesktop;

#[path = "support/reads.rs"]
mod reads;
use reads::{assert_same, backends, read, until_kept};

/// A page whose buttons each make one change from its own script.
const PAGE: &str = concat!(
    r#"<!doctype html><html><head><meta charset="utf-8">
<title>deskpilot kept</title></head><body>
<h1>Kept page</h1>
<p id="label">Waiting</p>
<label>Name <input id="name" type="text"></label>
<label><input id="check" type="checkbox"> Subscribe</label>
<label>Color <select id="color"><option>Red</option><option>Green</option></select></label>
<progress id="progress" max="10" value="2"></progress>
<div id="shift" style="height: 10px"></div>
<div id="dynamic" role="group" aria-label="Dynamic box"></div>
<ul id="fruits" aria-label="Fruits"><li>Apple</li><li>Banana</li><li>Cherry</li></ul>
<table id="table"><tr><th>Item</th><th>Count</th></tr><tr><td>Kiwi</td><td id="cell">7</td></tr></table>
<p id="hideme">Hide me</p>
<button id="renamed">Old name</button>
<button id="disabled">Sometimes off</button>
<button id="expander" aria-expanded="false" aria-controls="region">More</button>
<div id="region" hidden><p>More text</p><button>Hidden action</button></div>
<div id="marker"></div>
<div style="height: 2000px"></div>
<script>
const changes = {
  a: () => set('label', 'textContent', 'Kept'),
  b: () => set('name', 'value', 'Ada'),
  c: toggle,
  d: () => set('color', 'value', 'Green'),
  e: () => set('progress', 'value', 7),
  f: add,
  g: removeItem,
  h: reorder,
  i: () => set('cell', 'textContent', 'Changed cell'),
  j: () => { document.getElementById('hideme').style.display = 'none'; },
  k: () => document.getElementById('renamed').setAttribute('aria-label', 'New name'),
  l: () => { document.getElementById('disabled').disabled = true; },
  m: expand,
  n: () => { document.getElementById('shift').style.height = '60px'; },
  o: () => { document.title = 'deskpilot kept, retitled'; },
  p: openDialog,
  q: () => window.scrollBy(0, 150),
  r: () => document.getElementById('name').focus(),
  s: () => { location.href = 'second.html'; },
};
document.addEventListener('keydown', e => { if (changes[e.key]) changes[e.key](); });
function set(id, prop, value) { document.getElementById(id)[prop] = value; }
function toggle() { const c = document.getElementById('check'); c.checked = !c.checked; }
"#,
    include_str!("support/changes.js"),
    r#"function expand() {
  document.getElementById('expander').setAttribute('aria-expanded', 'true');
  document.getElementById('region').hidden = false;
}
function openDialog() {
  const d = document.createElement('div');
  d.setAttribute('role', 'dialog');
  d.setAttribute('aria-label', 'Confirm');
  d.textContent = 'Apply the changes?';
  document.getElementById('marker').before(d);
}
</script></body></html>"#
);

/// The keys typed, in order, each making one change by the page's script: no event comes
/// from deskpilot's acting, only from the change.
const STEPS: [(&str, &str); 19] = [
    ("a", "a label's text"),
    ("b", "a field's text"),
    ("c", "a checkbox checked"),
    ("d", "an option picked"),
    ("e", "a progress value"),
    ("f", "a button added"),
    ("g", "a button removed"),
    ("h", "a list rebuilt"),
    ("i", "a cell's text"),
    ("j", "a paragraph hidden"),
    ("k", "a button renamed"),
    ("l", "a button disabled"),
    ("m", "a region expanded"),
    ("n", "the content below shifted"),
    ("o", "the title"),
    ("p", "a dialog opened"),
    ("q", "the page scrolled"),
    ("r", "a field focused"),
    ("s", "another page opened"),
];

/// The page the last step opens.
const SECOND: &str = r#"<!doctype html><html><head><meta charset="utf-8">
<title>deskpilot second</title></head><body><h1>Second page</h1>
<p>Another document.</p><button>Back</button></body></html>"#;

/// Types each step's key into the page (focused once, before the first), then compares the
/// next read of the backend that keeps trees with a cold one's; gives the steps read as
/// patches.
async fn kept_reads_match_cold_ones(desktop: &VirtualDesktop, app_name: &str) -> Vec<&'static str> {
    use deskpilot_core::InputDevice;
    let (warm, cold) = backends(desktop).await;
    let root = reads::app_root(&warm, app_name).await;
    reads::until_shows(&cold, &root, "Kept page").await;
    let tree = cold.snapshot(&root, &WalkLimits::default()).await.unwrap();
    let document = tree.nodes.iter().find(|tn| tn.node.role == Role::Document);
    let document = document.expect("the page's document").node.id.clone();
    cold.perform(&document, &NativeOp::Focus).await.unwrap();
    let input = deskpilot_x11::X11Input::connect(desktop.display()).unwrap();
    let mut patched = Vec::new();
    for (key, change) in STEPS {
        until_kept(&warm, &root).await;
        let before = read(&cold, &root).await;
        input.press(&key.parse().unwrap()).await.unwrap();
        reads::settled(&cold, &root, change).await;
        let patches = warm.kept_patches();
        let warm_seen = read(&warm, &root).await;
        if warm.kept_patches() > patches {
            patched.push(change);
        }
        let cold_seen = read(&cold, &root).await;
        assert_ne!(before, cold_seen, "{change} did not show");
        assert_same(
            &warm_seen,
            &cold_seen,
            &format!("{app_name}, after {change}"),
        );
    }
    // A second AT-SPI client sees where the steps led: the second page.
    assert!(desktop.pyatspi_shows(app_name, "Another document."));
    patched
}

/// The page's address, its second page beside it, in `desktop`'s directory.
fn pages(desktop: &VirtualDesktop) -> String {
    let page = desktop.dir().join("kept.html");
    std::fs::write(&page, PAGE).unwrap();
    std::fs::write(desktop.dir().join("second.html"), SECOND).unwrap();
    format!("file://{}", page.display())
}

#[tokio::test]
async fn gecko_a_kept_tree_is_reused_only_while_nothing_changed() {
    let desktop = VirtualDesktop::start().unwrap();
    let _firefox = desktop.launch_firefox(&pages(&desktop)).unwrap();
    let patched = kept_reads_match_cold_ones(&desktop, "Firefox").await;
    // Most changes are patches, not walks afresh (17-18 of 19 here; a walk when the events
    // since named more than the patch takes).
    assert!(patched.len() >= 12, "patched only after {patched:?}");
}

#[tokio::test]
async fn chromium_a_kept_tree_is_reused_only_while_nothing_changed() {
    let desktop = VirtualDesktop::start().unwrap();
    let pages_on = deskpilot_testkit::ChromiumPages::Default;
    let _chromium = desktop.launch_chromium(&pages(&desktop), pages_on).unwrap();
    let patched = kept_reads_match_cold_ones(&desktop, "Chromium").await;
    // 13-16 of 19 here: a scroll, a list rebuilt or a text that moves others is walked.
    assert!(patched.len() >= 10, "patched only after {patched:?}");
}
