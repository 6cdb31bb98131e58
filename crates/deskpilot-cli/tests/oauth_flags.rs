//! `deskpilot mcp --http` with the OAuth flags, as a person writes them: the metadata they
//! describe, the 401's challenge, and the flags that exclude each other. No desktop needed.
//! The tokens themselves: deskpilot-mcp's `tests/oauth.rs`.

use std::process::Command;

use serde_json::json;

#[path = "support/http.rs"]
mod http;
use http::{call, raw, start, status};

const ISSUER: &str = "https://id.example.com/realms/desk";
const AUDIENCE: &str = "https://desk.example.com/mcp";
/// On loopback, taking the issuer's tokens for the audience.
const OAUTH: [&str; 6] = [
    "--http",
    "127.0.0.1:0",
    "--oauth-issuer",
    ISSUER,
    "--oauth-audience",
    AUDIENCE,
];

#[test]
fn the_oauth_flags_publish_metadata_and_challenge_without_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let jwks = dir.path().join("jwks.json");
    std::fs::write(&jwks, r#"{"keys": []}"#).unwrap();
    let jwks = jwks.to_str().unwrap();
    let args = [&OAUTH[..], &["--oauth-jwks", jwks]].concat();
    let served = start("mcp", &args, &[]).unwrap();
    let addr = served.addr;
    let request = format!(
        "GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n"
    );
    let metadata = raw(addr, &request);
    assert_eq!(status(&metadata), "200", "{metadata}");
    let body = metadata.split("\r\n\r\n").nth(1).unwrap();
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["resource"], AUDIENCE);
    assert_eq!(body["authorization_servers"], json!([ISSUER]));
    let challenge = "www-authenticate: Bearer resource_metadata=\"https://desk.example.com/.well-known/oauth-protected-resource/mcp\"";
    let refused = call(addr, &[], "list_apps", json!({}));
    assert_eq!(status(&refused), "401", "{refused}");
    assert!(refused.contains(&format!("{challenge}\r\n")), "{refused}");
    let bad = call(
        addr,
        &[("authorization", "Bearer a.b.c")],
        "list_apps",
        json!({}),
    );
    assert_eq!(status(&bad), "401", "{bad}");
    assert!(
        bad.contains(&format!("{challenge}, error=\"invalid_token\"")),
        "{bad}"
    );
}

/// `deskpilot mcp ARGS` that must refuse to start: what it said.
fn refused(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_deskpilot"))
        .arg("mcp")
        .args(args)
        .env_remove("DESKPILOT_TOKEN")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(!out.status.success(), "it started with {args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn oauth_and_bearer_tokens_exclude_each_other_and_bad_flags_say_why() {
    let with_file = [&OAUTH[..], &["--token-file", "/dev/null"]].concat();
    assert!(refused(&with_file, &[]).contains("cannot be used with"));
    let with_env = refused(&OAUTH, &[("DESKPILOT_TOKEN", "a-token-of-sixteen-chars")]);
    assert!(with_env.contains("choose one"), "{with_env}");
    let no_audience = refused(&["--http", "8931", "--oauth-issuer", ISSUER], &[]);
    assert!(no_audience.contains("--oauth-audience"), "{no_audience}");
    let plain = [
        "--http",
        "127.0.0.1:0",
        "--oauth-issuer",
        "http://id.example.com",
    ];
    let plain = refused(&[&plain[..], &["--oauth-audience", AUDIENCE]].concat(), &[]);
    assert!(plain.contains("is not an https URL"), "{plain}");
    let opaque = [
        "--http",
        "127.0.0.1:0",
        "--oauth-issuer",
        ISSUER,
        "--oauth-audience",
        "desk",
    ];
    assert!(refused(&opaque, &[]).contains("--oauth-resource"));
}
