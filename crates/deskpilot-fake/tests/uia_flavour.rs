//! The fake in UI Automation's words cannot pass by speaking AT-SPI: no element lists a named
//! action or one of AT-SPI's interfaces. (Its route texts, beside the AT-SPI flavour's, are
//! in `tests/cases/ladder.case`.)

use std::sync::Arc;

use deskpilot_core::{Backend, Secrecy, WalkLimits};
use deskpilot_fake::{FakeBackend, Flavour};

const FORM: &str = r#"
application "Form" pid=7
  window "Main" bounds=0,0,400,400
    checkbox "Plain" actions=click bounds=10,10,100,20
    button "Go" actions=click bounds=10,180,80,20
    textbox "Name" value=Ann interfaces=text,editable_text bounds=10,210,100,20
    spinbutton "Qty" range=5,0,10 interfaces=value bounds=10,240,100,20
    link "Home" actions=jump interfaces=hyperlink bounds=10,270,100,20
    list "Fruits" interfaces=selection bounds=10,300,100,40
      listitem "Apple" [selectable] actions=click bounds=10,300,100,20
"#;

#[tokio::test]
async fn the_uia_flavour_speaks_no_atspi() {
    const ATSPI_ONLY: &[&str] = &[
        "Action",
        "Component",
        "EditableText",
        "TableCell",
        "Hypertext",
        "Hyperlink",
        "Collection",
    ];
    let backend = Arc::new(FakeBackend::with_flavour(Flavour::Uia));
    backend.add_app(FORM);
    let root = backend.apps().await.unwrap()[0].id.clone();
    let tree = backend
        .snapshot(&root, &WalkLimits::default())
        .await
        .unwrap();
    assert!(tree.nodes.len() > 5, "{tree:?}");
    for tn in &tree.nodes {
        let node = backend
            .properties(&tn.node.id, Secrecy::Plain)
            .await
            .unwrap();
        assert!(node.actions.is_empty(), "{:?} names actions", node.name);
        assert!(
            !node
                .platform_interfaces
                .iter()
                .any(|p| ATSPI_ONLY.contains(&p.as_str())),
            "{:?}: {:?}",
            node.name,
            node.platform_interfaces
        );
    }
}
