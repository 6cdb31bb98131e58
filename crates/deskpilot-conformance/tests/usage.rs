//! The fixtures' server says how to run it when run wrong. This test also makes `cargo test
//! --workspace` build the binary, which `cargo xtask test` then serves to the conformance suite
//! without building it again.

use std::process::Command;

#[test]
fn without_an_address_it_says_its_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_deskpilot-conformance"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("usage: deskpilot-conformance --http ADDRESS"),
        "{said}"
    );
}
