//! The backend read through `FakeUia`: mapping, walking, secrets, failures, and the engine
//! on top of it.

mod acting;
mod engine;
mod events;
mod faults;
mod hosted;
mod reading;

use std::sync::Arc;
use std::time::Duration;

use deskpilot_platform::model::{ElementId, Tree};
use deskpilot_platform::{Backend, WalkLimits};

use crate::{FakeUia, WindowsBackend};

/// Two apps: a Notepad, and a console that runs elevated.
pub const DESKTOP: &str = r#"
process "notepad.exe" pid=4242 started=1d9f0c
  Window "Untitled - Notepad" hwnd=0x1000 class=Notepad framework=Win32 patterns=Window,LegacyIAccessible bounds=0,0,800,600
    MenuBar "Application" patterns=LegacyIAccessible
      MenuItem "File" patterns=ExpandCollapse,LegacyIAccessible expand=collapsed default=Open
    Edit "Text editor" id=15 patterns=Value,Text,LegacyIAccessible value="hello" bounds=10,40,780,500 focused
    Button "Save" patterns=Invoke,LegacyIAccessible default=Press bounds=700,560,80,30
process "admin.exe" pid=9 started=5 elevated
  Window "Administrator: Console" hwnd=0x3000 patterns=Window
    Edit "Command" patterns=Value value="secret stuff"
"#;

/// A sign-in form: a password field, a check box, a virtualized list, a data grid, a slider.
pub const SIGNIN: &str = r#"
process "signin.exe" pid=77 started=abc description="Sign in"
  Window "Sign in" hwnd=0x2000 framework=WPF patterns=Window bounds=100,100,400,300
    Edit "User" patterns=Value,Text value="ada" bounds=120,140,200,20 caret=2 selection=0:2
    Edit "Password" password patterns=Value,Text value="hunter2" bounds=120,170,200,20 caret=7
      Text "hunter2" value="hunter2"
    CheckBox "Remember me" patterns=Toggle toggle=on
    List "Recent" patterns=Selection,ItemContainer
      ListItem "one" patterns=SelectionItem,ScrollItem sizeofset=10000 selected
      ListItem "two" patterns=SelectionItem,ScrollItem sizeofset=10000
    DataGrid "People" patterns=Grid,Table grid=3:2
      Header "header"
        HeaderItem "Name"
        HeaderItem "Age"
      DataItem "row 1"
        Text "Ada" patterns=GridItem
        Text "36" patterns=GridItem
      DataItem "row 2"
        Text "Alan" patterns=GridItem
        Text "41" patterns=GridItem
      DataItem "row 3"
        Text "Grace" patterns=GridItem
        Text "85" patterns=GridItem
    Slider "Volume" patterns=RangeValue range=3:0:10:1
"#;

pub fn backend(text: &str) -> (Arc<FakeUia>, WindowsBackend<FakeUia>) {
    let fake = Arc::new(FakeUia::new(text));
    let backend = WindowsBackend::new(fake.clone(), Duration::from_secs(2));
    (fake, backend)
}

/// The root of the app with this pid.
pub async fn root_of(backend: &WindowsBackend<FakeUia>, pid: u32) -> ElementId {
    let apps = backend.apps().await.unwrap();
    apps.into_iter()
        .find(|a| a.pid == Some(pid))
        .expect("app listed")
        .id
}

pub async fn tree_of(backend: &WindowsBackend<FakeUia>, pid: u32) -> Tree {
    let root = root_of(backend, pid).await;
    backend
        .snapshot(&root, &WalkLimits::default())
        .await
        .unwrap()
}

/// The node named `name` in `tree`.
pub fn named<'t>(tree: &'t Tree, name: &str) -> &'t deskpilot_platform::model::Node {
    &tree
        .nodes
        .iter()
        .find(|n| n.node.name == name)
        .unwrap_or_else(|| panic!("no {name:?}"))
        .node
}
