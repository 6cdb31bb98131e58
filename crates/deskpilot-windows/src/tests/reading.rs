//! Reading: apps, the walk, values and secrets, properties, text, tables, hit tests, parents.

use deskpilot_platform::model::{Capability, NodeValue, Realization, Role, State};
use deskpilot_platform::{Backend, NativeOp, NativeRoutes, Secrecy, WalkLimits};

use super::{DESKTOP, SIGNIN, backend, named, root_of, tree_of};
use crate::raw::RuntimeKey;

/// Apps are processes: named by executable or description, their toolkit the windows'
/// `FrameworkId`, their windows with their handles; an elevated one is listed too.
#[tokio::test]
async fn apps_are_processes_with_their_windows() {
    let (_, backend) = backend(DESKTOP);
    let apps = backend.apps().await.unwrap();
    let names: Vec<&str> = apps.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["notepad", "admin"]);
    let notepad = &apps[0];
    assert_eq!(notepad.id.app, "w:4242:1d9f0c");
    assert_eq!(notepad.pid, Some(4242));
    assert_eq!(notepad.toolkit.as_deref(), Some("Win32"));
    assert_eq!(notepad.windows[0].title, "Untitled - Notepad");
    assert_eq!(notepad.windows[0].role, Role::Window);
    assert_eq!(notepad.windows[0].system_id.map(|w| w.0), Some(0x1000));
    let (_, signin) = super::backend(SIGNIN);
    assert_eq!(signin.apps().await.unwrap()[0].name, "Sign in");
}

/// A dialog names the window that owns it, as the system's window list says.
#[tokio::test]
async fn a_dialog_names_its_owner() {
    use crate::system_windows::{RawWindow, SystemWindows};
    use deskpilot_platform::WindowId;
    let fake = std::sync::Arc::new(crate::FakeUia::new(
        r#"
process "notepad.exe" pid=4242 started=1
  Window "Untitled - Notepad" hwnd=0x1000 patterns=Window
  Window "Save As" hwnd=0x1001 patterns=Window dialog
"#,
    ));
    let listed = |hwnd, owner| RawWindow {
        hwnd,
        pid: 4242,
        client: deskpilot_platform::model::Rect::new(0, 0, 100, 100),
        visible: true,
        owner,
        ..RawWindow::default()
    };
    let windows = crate::FakeWindows::new(vec![listed(0x1000, None), listed(0x1001, Some(0x1000))]);
    let system = SystemWindows::new(
        std::sync::Arc::new(windows),
        std::time::Duration::from_secs(1),
    );
    let backend = crate::WindowsBackend::new(fake, std::time::Duration::from_secs(2))
        .with_window_system(std::sync::Arc::new(system));
    let apps = backend.apps().await.unwrap();
    let windows = &apps[0].windows;
    assert_eq!(windows[1].role, Role::Dialog);
    assert_eq!(windows[1].transient_for, Some(WindowId(0x1000)));
    assert_eq!(windows[0].transient_for, None);
    let app = backend.app(&apps[0].id).await.unwrap();
    assert_eq!(app.windows[1].transient_for, Some(WindowId(0x1000)));
}

/// A snapshot of an app: an application over its windows, control types as roles, names,
/// states, a value where no secret is; no named action anywhere.
#[tokio::test]
async fn an_app_reads_as_an_application_over_its_windows() {
    let (fake, backend) = backend(DESKTOP);
    let tree = tree_of(&backend, 4242).await;
    let roles: Vec<Role> = tree.nodes.iter().map(|n| n.node.role).collect();
    assert_eq!(
        roles,
        [
            Role::Application,
            Role::Window,
            Role::MenuBar,
            Role::MenuItem,
            Role::TextBox,
            Role::Button
        ]
    );
    assert_eq!(tree.nodes[0].node.name, "notepad");
    let editor = named(&tree, "Text editor");
    assert_eq!(
        editor.value,
        Some(NodeValue::Text {
            text: "hello".into()
        })
    );
    assert!(editor.states.is(State::Focused) && editor.states.is(State::Editable));
    assert_eq!(editor.accessible_id.as_deref(), Some("15"));
    let file = named(&tree, "File");
    assert!(file.states.is(State::Collapsed));
    assert!(tree.nodes.iter().all(|n| n.node.actions.is_empty()));
    assert_eq!(
        named(&tree, "Save").default_action.as_deref(),
        Some("Press")
    );
    // One cache request per container for its children, none per leaf (its parent counted
    // it childless); one for the values of the window's.
    assert_eq!(fake.calls("children"), 3);
    assert_eq!(fake.calls("values_below"), 1);
}

/// A password field's value is never requested, nor anything inside it; its name shows,
/// its value is redacted, what is inside it has no name.
#[tokio::test]
async fn a_password_value_is_never_requested() {
    let (fake, backend) = backend(SIGNIN);
    let tree = tree_of(&backend, 77).await;
    let password = named(&tree, "Password");
    assert_eq!(password.role, Role::Password);
    assert_eq!(password.value, Some(NodeValue::Redacted { chars: None }));
    let inside = tree
        .nodes
        .iter()
        .find(|n| {
            n.parent
                .is_some_and(|p| tree.nodes[p].node.name == "Password")
        })
        .unwrap();
    assert!(inside.node.inside_secret && inside.node.name.is_empty());
    let requested = fake.value_requests();
    assert_eq!(requested.len(), 1, "{requested:?}");
    assert_eq!(
        named(&tree, "User").value,
        Some(NodeValue::Text { text: "ada".into() })
    );
    let rendered = format!("{tree:?}");
    assert!(!rendered.contains("hunter2"), "{rendered}");
    // Read on its own, a password field's value is not asked either.
    let id = password.id.clone();
    let node = backend.node(&id, Secrecy::Plain).await.unwrap();
    assert_eq!(node.value, Some(NodeValue::Redacted { chars: None }));
    assert!(backend.text(&id, 0, None).await.is_err());
    assert_eq!(fake.value_requests().len(), 1);
}

/// Values are read a subtree at a time only where the walk saw the whole subtree and no
/// password field in it. UI Automation's condition leaves a password field out, not what is
/// inside it: a form holding one is read container by container.
#[tokio::test]
async fn a_subtree_holding_a_password_field_is_read_container_by_container() {
    let (fake, backend) = backend(
        r#"
process "form.exe" pid=8 started=1
  Window "Form" patterns=Window
    Group "Account"
      Edit "User" patterns=Value value="ada"
      Edit "PIN" password patterns=Value value="1234"
        Text "Digits" patterns=Value value="1234"
    Group "Address"
      Edit "Street" patterns=Value value="Main"
      Edit "Town" patterns=Value value="Ely"
"#,
    );
    let tree = tree_of(&backend, 8).await;
    let value = |name: &str| named(&tree, name).value.clone();
    assert_eq!(value("Town"), Some(NodeValue::Text { text: "Ely".into() }));
    let digits = tree.nodes.iter().find(|n| n.node.role == Role::Label);
    assert!(digits.is_some_and(|n| n.node.value.is_none()));
    assert_eq!(fake.value_requests().len(), 3, "User, Street, Town alone");
    assert_eq!(fake.calls("values_below"), 2);
}

/// An element whose listing failed (gone, or refused) was not seen whole: a subtree holding
/// it is read container by container, so a password field inside it is never reached by a
/// search of the subtree's values.
#[tokio::test]
async fn a_subtree_not_listed_whole_is_read_container_by_container() {
    let (fake, backend) = backend(
        r#"
process "form.exe" pid=8 started=1
  Window "Form" patterns=Window
    Group "Account"
      Edit "User" patterns=Value value="ada"
      Pane "Broken" hresult=80040201
        Edit "PIN" password patterns=Value value="1234"
          Text "Digits" patterns=Value value="1234"
    Group "Address"
      Edit "Street" patterns=Value value="Main"
      Edit "Town" patterns=Value value="Ely"
"#,
    );
    let tree = tree_of(&backend, 8).await;
    assert_eq!(
        named(&tree, "Town").value,
        Some(NodeValue::Text { text: "Ely".into() })
    );
    assert_eq!(fake.value_requests().len(), 3, "User, Street, Town alone");
}

/// A virtualized list is partly realized (its logical count from `SizeOfSet`), a check box
/// toggles, a grid is a table, a slider a number.
#[tokio::test]
async fn lists_grids_toggles_and_ranges() {
    let (_, backend) = backend(SIGNIN);
    let tree = tree_of(&backend, 77).await;
    let at = |name: &str| tree.nodes.iter().position(|n| n.node.name == name).unwrap();
    let recent = &tree.nodes[at("Recent")];
    assert_eq!(recent.node.role, Role::ListBox);
    assert!(recent.node.states.is(State::ManagesDescendants));
    assert_eq!(
        recent.realization,
        Realization::Partial {
            realized: 2,
            logical: Some(10000)
        }
    );
    assert!(named(&tree, "one").states.is(State::Selected));
    let remember = named(&tree, "Remember me");
    assert!(remember.states.is(State::Checked) && remember.states.is(State::Checkable));
    let people = named(&tree, "People");
    assert_eq!(people.role, Role::Table);
    assert!(people.capabilities.contains(Capability::Table));
    assert_eq!(named(&tree, "row 1").role, Role::Row);
    assert_eq!(named(&tree, "Name").role, Role::ColumnHeader);
    assert!(matches!(
        named(&tree, "Volume").value,
        Some(NodeValue::Number { current, max: Some(max), .. }) if current == 3.0 && max == 10.0
    ));
}

/// A list that cannot say how many items it has is partial with an unknown count.
#[tokio::test]
async fn a_virtualized_list_without_a_count_says_it_does_not_know() {
    let (_, backend) = backend(
        r#"
process "files.exe" pid=5 started=1
  Window "Files" patterns=Window
    List "Files" patterns=Selection,ItemContainer
      ListItem "a.txt" patterns=SelectionItem
"#,
    );
    let tree = tree_of(&backend, 5).await;
    let list = tree
        .nodes
        .iter()
        .find(|n| n.node.role == Role::ListBox)
        .unwrap();
    assert_eq!(
        list.realization,
        Realization::Partial {
            realized: 1,
            logical: None
        }
    );
}

/// Budgets cut honestly: the node budget keeps the unread ids for the next page, the depth
/// budget stops below it, a grid of more cells than the child budget is never enumerated,
/// a container of more children keeps what the budget allows.
#[tokio::test]
async fn budgets_cut_honestly() {
    let (fake, backend) = backend(SIGNIN);
    let root = root_of(&backend, 77).await;
    let limits = WalkLimits {
        max_nodes: 4,
        ..WalkLimits::default()
    };
    let tree = backend.snapshot(&root, &limits).await.unwrap();
    assert_eq!(tree.len(), 4);
    let window = tree
        .nodes
        .iter()
        .position(|n| n.node.role == Role::Window)
        .unwrap();
    assert!(matches!(
        tree.nodes[window].realization,
        Realization::Cut { .. }
    ));
    let pending = tree.pending.iter().find(|p| p.parent == window).unwrap();
    assert_eq!(pending.unread.len(), 4);
    let shallow = WalkLimits {
        max_depth: 1,
        ..WalkLimits::default()
    };
    let tree = backend.snapshot(&root, &shallow).await.unwrap();
    assert_eq!(tree.len(), 2);
    let asked = fake.calls("children");
    let small = WalkLimits {
        max_children: 5,
        ..WalkLimits::default()
    };
    let tree = backend.snapshot(&root, &small).await.unwrap();
    let people = tree.nodes.iter().find(|n| n.node.name == "People").unwrap();
    assert_eq!(
        people.realization,
        Realization::NotRealized { logical: Some(3) }
    );
    assert!(people.children.is_empty());
    let window = tree
        .nodes
        .iter()
        .find(|n| n.node.role == Role::Window)
        .unwrap();
    assert_eq!(
        window.realization,
        Realization::Partial {
            realized: 5,
            logical: Some(6)
        }
    );
    // The window and its children but the grid and the slider past the child budget (a
    // window holding a grid is not counted), the password field's lone child: never the
    // grid's rows, nor a list item its list counted childless.
    assert_eq!(fake.calls("children") - asked, 6);
}

/// Properties show the patterns as the platform's own names and the control type; routes
/// come from the patterns a read found.
#[tokio::test]
async fn properties_show_patterns_and_routes_follow_them() {
    let (_, backend) = backend(DESKTOP);
    let tree = tree_of(&backend, 4242).await;
    let save = named(&tree, "Save").clone();
    let props = backend.properties(&save.id, Secrecy::Plain).await.unwrap();
    assert_eq!(props.platform_interfaces, ["Invoke", "LegacyIAccessible"]);
    assert_eq!(
        props.attributes.get("control_type").map(String::as_str),
        Some("Button")
    );
    let route = backend.native_route(&save, &NativeOp::Press).unwrap();
    assert_eq!(route.how, "Invoke.Invoke");
    assert!(backend.native_route(&save, &NativeOp::Toggle).is_err());
    let unseen = deskpilot_platform::model::Node::new(
        crate::identity::element_id("w:4242:1d9f0c", &RuntimeKey(vec![42, 99])),
        Role::Button,
    );
    assert!(backend.native_route(&unseen, &NativeOp::Press).is_err());
}

/// Text pages by characters; a table pages with its headers; a hit test gives the chain
/// below the root; a top-level window's parent is the app.
#[tokio::test]
async fn text_tables_hit_tests_and_parents() {
    let (_, backend) = backend(SIGNIN);
    let tree = tree_of(&backend, 77).await;
    let user = named(&tree, "User").id.clone();
    let slice = backend.text(&user, 1, None).await.unwrap();
    assert_eq!(
        (slice.text.as_str(), slice.start, slice.end, slice.total),
        ("da", 1, 3, 3)
    );
    let people = named(&tree, "People").id.clone();
    let page = backend.table(&people, 1, 5).await.unwrap();
    assert_eq!(page.headers, ["Name", "Age"]);
    assert_eq!(page.rows, [["Alan", "41"], ["Grace", "85"]]);
    assert_eq!((page.row_count, page.column_count), (3, 2));
    let root = tree.nodes[0].node.id.clone();
    let path = backend.hit_test(&root, 130, 175).await.unwrap();
    let names: Vec<&str> = path.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["Sign in", "Password"]);
    let window = tree.nodes[1].node.id.clone();
    assert_eq!(backend.parent(&window).await.unwrap(), Some(root.clone()));
    assert_eq!(backend.parent(&user).await.unwrap(), Some(window.clone()));
    assert_eq!(backend.toplevel(&user).await.unwrap(), window);
    assert_eq!(backend.parent(&root).await.unwrap(), None);
}

/// The caret and selection of a field, in characters; a password field's caret is never
/// asked (finding it reads the text before it). A grid's cells by row, with ids.
#[tokio::test]
async fn carets_and_cells_by_row() {
    let (fake, backend) = backend(SIGNIN);
    let tree = tree_of(&backend, 77).await;
    let user = named(&tree, "User").id.clone();
    assert_eq!(
        backend.caret(&user).await.unwrap(),
        Some(deskpilot_platform::Caret {
            offset: 2,
            selection: Some((0, 2))
        })
    );
    let password = named(&tree, "Password").id.clone();
    assert_eq!(backend.caret(&password).await.unwrap(), None);
    assert_eq!(fake.calls("caret"), 1);
    let people = named(&tree, "People").id.clone();
    let cells = backend.table_cell_names(&people, 1, 5).await.unwrap();
    assert_eq!((cells.row_count, cells.next_row), (3, 3));
    let names: Vec<&str> = cells.cells.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["Alan", "41", "Grace", "85"]);
    assert_eq!(cells.cells[0].0, named(&tree, "Alan").id);
}

/// A Win32 edit reports its line breaks as CRLF; they read as LF in walks, single reads and
/// text pages, as a typed `\n` (Enter) is expected back (review F2).
#[tokio::test]
async fn line_breaks_read_as_line_feeds() {
    let (_, backend) = backend(
        r#"
process "notes.exe" pid=5 started=1
  Window "Notes" hwnd=0x6000 patterns=Window bounds=0,0,400,300
    Edit "Body" patterns=Value,Text value="one\r\ntwo" text="one\r\ntwo" bounds=10,10,300,200
"#,
    );
    let lf = Some(NodeValue::Text {
        text: "one\ntwo".into(),
    });
    let tree = tree_of(&backend, 5).await;
    let body = named(&tree, "Body");
    assert_eq!(body.value, lf);
    let read = backend.properties(&body.id, Secrecy::Plain).await.unwrap();
    assert_eq!(read.value, lf);
    let page = backend.text(&body.id, 0, None).await.unwrap();
    assert_eq!(page.text, "one\ntwo");
}
