//! `server.json`, deskpilot's entry for the official MCP registry: valid against the registry's
//! schema (packaging/schemas/), and true of this deskpilot, which the schema cannot say: its
//! version is the crates', its flags are ones `deskpilot serve` takes, its variables ones
//! deskpilot reads.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn read(path: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn server_json_is_valid_against_the_registry_schema() {
    let schema = read("packaging/schemas/mcp-registry-2025-12-11/server.schema.json");
    let entry = read("server.json");
    assert_eq!(
        entry["$schema"], schema["$id"],
        "server.json names another schema"
    );
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&entry)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "server.json: {errors:?}");
    // The validator refuses what breaks the schema's rules.
    let mut broken = entry.clone();
    broken["name"] = "no-namespace".into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn server_json_says_what_this_deskpilot_is() {
    let entry = read("server.json");
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(entry["version"], version);
    let package = &entry["packages"][0];
    assert!(
        package["identifier"]
            .as_str()
            .unwrap()
            .ends_with(&format!(":{version}"))
    );
    let help = Command::new(env!("CARGO_BIN_EXE_deskpilot"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for argument in package["packageArguments"].as_array().unwrap() {
        let flag = argument["name"].as_str().unwrap();
        assert!(
            help.contains(&format!("{flag} ")),
            "deskpilot serve has no {flag}"
        );
    }
    for variable in package["environmentVariables"].as_array().unwrap() {
        let name = variable["name"].as_str().unwrap();
        assert!(
            help.contains(name),
            "deskpilot serve --help never names {name}"
        );
    }
    let url = package["transport"]["url"].as_str().unwrap();
    assert!(
        url.ends_with(":8931/mcp"),
        "the image serves /mcp on 8931: {url}"
    );
}
