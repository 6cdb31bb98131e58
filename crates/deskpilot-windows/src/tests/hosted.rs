//! Content another process draws (review D1): a UWP app's, inside `ApplicationFrameHost`'s
//! frame, is the app, listed under its own process; a WebView2's, inside its host's window,
//! is the host's. Their elements are read, hit, climbed and watched as the app's own.

use deskpilot_platform::{Backend, Secrecy};

use super::{backend, named, root_of, tree_of};
use crate::events::UiaEvent;

/// Calculator in its frame, and Outlook with a WebView2.
const HOSTED: &str = r#"
process "ApplicationFrameHost.exe" pid=300 started=1
  Window "Calculator" hwnd=0x5000 class=ApplicationFrameWindow framework=Win32 patterns=Window bounds=0,0,400,600
    TitleBar "Calculator" bounds=0,0,400,30
    Window "Calculator" hwnd=0x5001 class=Windows.UI.Core.CoreWindow framework=XAML pid=301 bounds=0,30,400,570
      Button "One" id=num1Button patterns=Invoke bounds=10,400,50,50
process "CalculatorApp.exe" pid=301 started=2 description="Calculator"
process "olk.exe" pid=400 started=3 description="Outlook"
  Window "Inbox - Outlook" hwnd=0x6000 class=Olk framework=Win32 patterns=Window bounds=500,0,800,600
    Pane "Mail" hwnd=0x6001 framework=Chrome pid=401 bounds=500,0,800,600
      Button "New mail" patterns=Invoke bounds=510,10,100,30
process "msedgewebview2.exe" pid=401 started=4
"#;

/// A UWP app is listed as its content's process with its frame as its window, never as
/// "ApplicationFrameHost"; what is inside is read, hit, climbed and read again as its own.
#[tokio::test]
async fn a_uwp_app_is_its_contents_process() {
    let (fake, backend) = backend(HOSTED);
    let apps = backend.apps().await.unwrap();
    let names: Vec<(&str, Option<u32>)> = apps.iter().map(|a| (a.name.as_str(), a.pid)).collect();
    assert_eq!(names, [("Calculator", Some(301)), ("Outlook", Some(400))]);
    assert_eq!(apps[0].windows[0].title, "Calculator");
    let root = root_of(&backend, 301).await;
    let tree = tree_of(&backend, 301).await;
    let one = named(&tree, "One").id.clone();
    let path = backend.hit_test(&root, 30, 420).await.unwrap();
    let names: Vec<&str> = path.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["Calculator", "Calculator", "One"]);
    let content = backend.parent(&one).await.unwrap().unwrap();
    let frame = backend.toplevel(&one).await.unwrap();
    assert_eq!(backend.parent(&content).await.unwrap(), Some(frame.clone()));
    assert_eq!(backend.parent(&frame).await.unwrap(), Some(root.clone()));
    assert_eq!(
        backend.node(&one, Secrecy::Plain).await.unwrap().name,
        "One"
    );
    // A walk from the frame never takes the frame host's events for the app's.
    backend.app(&root).await.unwrap();
    let changes = backend.events().changes(&root).await.unwrap();
    let before = *changes.borrow();
    let limits = deskpilot_platform::WalkLimits::default();
    backend.snapshot(&frame, &limits).await.unwrap();
    fake.emit(UiaEvent::Changed {
        pid: 300,
        key: None,
    });
    fake.emit(UiaEvent::Changed {
        pid: 301,
        key: None,
    });
    assert_eq!(*changes.borrow(), before + 1, "the app's own event alone");
}

/// A WebView2's content, another process inside the host's window, is the host's: read,
/// hit, climbed, and its events count as the host's changes.
#[tokio::test]
async fn webview_content_is_its_hosts() {
    let (fake, backend) = backend(HOSTED);
    let root = root_of(&backend, 400).await;
    let tree = tree_of(&backend, 400).await;
    let new_mail = named(&tree, "New mail").id.clone();
    let path = backend.hit_test(&root, 520, 20).await.unwrap();
    let names: Vec<&str> = path.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["Inbox - Outlook", "Mail", "New mail"]);
    let mail = backend.parent(&new_mail).await.unwrap().unwrap();
    assert_eq!(named(&tree, "Mail").id, mail);
    assert_eq!(
        backend.toplevel(&new_mail).await.unwrap(),
        tree.nodes[1].node.id
    );
    assert_eq!(
        backend.node(&new_mail, Secrecy::Plain).await.unwrap().name,
        "New mail"
    );
    backend.app(&root).await.unwrap();
    let changes = backend.events().changes(&root).await.unwrap();
    let before = *changes.borrow();
    fake.emit(UiaEvent::Changed {
        pid: 401,
        key: None,
    });
    assert_eq!(
        *changes.borrow(),
        before + 1,
        "the WebView2's event is the host's"
    );
}
