//! OAuth access tokens over HTTP, in process on the fake desktop, against an authorization
//! server the tests make themselves (tests/support/issuer.rs: its own CA, HTTPS, keys). The
//! oracles: each answer's status and `WWW-Authenticate`, the issuer's count of key fetches,
//! and which caller a deskpilot session answers.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use deskpilot_mcp::http::OAuthOptions;
use serde_json::{Value, json};

#[path = "support/http.rs"]
mod http_support;
#[path = "support/issuer.rs"]
mod issuer;
mod support;
use http_support::*;
use issuer::{Signer, TestIssuer, now_plus};

const AUDIENCE: &str = "https://desk.test/mcp";
const METADATA: &str = "https://desk.test/.well-known/oauth-protected-resource/mcp";

/// A server taking `issuer`'s tokens for `AUDIENCE`, with `tune`'s options.
async fn served(issuer: &TestIssuer, tune: impl FnOnce(&mut OAuthOptions)) -> Served {
    let mut oauth = OAuthOptions::new(issuer.url.clone(), AUDIENCE.into());
    oauth.ca_file = Some(issuer.ca_file.clone());
    tune(&mut oauth);
    serve(|o| {
        o.tokens = None;
        o.oauth = Some(oauth);
    })
    .await
}

/// A stateless tools/list with `token`: the status and the `WWW-Authenticate` header.
async fn try_token(served: &Served, token: &str) -> (u16, String) {
    let reply = stateless(served.addr, token, ("tools/list", None), &[], json!({})).await;
    let challenge = reply.header("www-authenticate").unwrap_or("").to_owned();
    (reply.status, challenge)
}

/// The challenge of a refused token, with its reason.
fn refused(reason: &str) -> String {
    format!(
        "Bearer resource_metadata=\"{METADATA}\", error=\"invalid_token\", error_description=\"{reason}\""
    )
}

#[tokio::test]
async fn a_valid_token_is_taken_and_its_subject_owns_its_sessions() {
    let (alice_key, bob_key) = (Signer::ec("alice-key"), Signer::rsa("bob-key"));
    let issuer = TestIssuer::start(&[&alice_key, &bob_key]).await;
    let served = served(&issuer, |_| {}).await;
    let alice = alice_key.sign(&issuer.claims("alice", AUDIENCE));
    let connected = call_stateless(served.addr, &alice, "connect", json!({"app": "Editor"})).await;
    let session = connected["session"].as_str().unwrap().to_owned();
    // Another of Alice's tokens (issued later) is Alice: her session answers it.
    let mut later = issuer.claims("alice", AUDIENCE);
    later["iat"] = (now_plus(0) + 5).into();
    let alice_again = alice_key.sign(&later);
    assert_ne!(alice_again, alice);
    let snapshot = call_stateless(
        served.addr,
        &alice_again,
        "snapshot",
        json!({"session": session}),
    )
    .await;
    assert!(
        snapshot["tree"].as_str().unwrap().contains("Notify"),
        "{snapshot}"
    );
    // Bob (an RS256 token) is not: the session is unknown to him.
    let bob = bob_key.sign(&issuer.claims("bob", AUDIENCE));
    let refused = call_stateless(served.addr, &bob, "snapshot", json!({"session": session})).await;
    assert_eq!(refused["code"], "unknown_session", "{refused}");
    // A 2025-11-25 MCP session opened by Alice is not Bob's either.
    let mcp = initialize(served.addr, &alice).await;
    let auth = bearer(&bob);
    let reply = post(
        served.addr,
        &[
            ("authorization", &auth),
            ("mcp-session-id", &mcp),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    )
    .await;
    assert_eq!(reply.status, 404, "{}", reply.body);
    // The key set was fetched once for all these tokens.
    assert_eq!(issuer.key_fetches(), 1);
}

#[tokio::test]
async fn each_refused_token_gets_a_401_that_says_why() {
    let key = Signer::ec("k1");
    let issuer = TestIssuer::start(&[&key]).await;
    let served = served(&issuer, |_| {}).await;
    let claims = issuer.claims("alice", AUDIENCE);
    let with = |field: &str, value: Value| {
        let mut claims = claims.clone();
        claims[field] = value;
        key.sign(&claims)
    };
    let without = |field: &str| {
        let mut claims = claims.clone();
        claims.as_object_mut().unwrap().remove(field);
        key.sign(&claims)
    };
    // The same key id, another key: the signature fails.
    let impostor = Signer::ec("k1").sign(&claims);
    let unsigned = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"none","kid":"k1"}"#),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    // HS256 with the public key as its secret (the key-confusion attack).
    let public = serde_json::to_vec(&key.jwk).unwrap();
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = Some("k1".into());
    let confused = jsonwebtoken::encode(
        &header,
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(&public).unwrap(),
    )
    .unwrap();
    let cases = [
        (with("exp", now_plus(-3600).into()), "the token has expired"),
        (
            with("nbf", now_plus(3600).into()),
            "the token is not valid yet",
        ),
        (
            with("aud", "https://other.test/mcp".into()),
            "the token is for another audience",
        ),
        (
            with("iss", "https://other-issuer.test".into()),
            "the token is from another issuer",
        ),
        (without("sub"), "the token lacks exp, iss, aud or sub"),
        (without("exp"), "the token lacks exp, iss, aud or sub"),
        (impostor, "the token's signature does not verify"),
        (unsigned, "the token's algorithm is not one its key allows"),
        (confused, "the token's algorithm is not one its key allows"),
        (
            Signer::ec("k9").sign(&claims),
            "the token is signed by no key the issuer publishes",
        ),
        (
            "an-opaque-token-0123456789".to_owned(),
            "the token is not a JWT",
        ),
    ];
    for (token, reason) in cases {
        assert_eq!(
            try_token(&served, &token).await,
            (401, refused(reason)),
            "{reason}"
        );
    }
    // Within the leeway (60 s), a token just expired or nearly valid passes.
    let edge = [
        with("exp", now_plus(-30).into()),
        with("nbf", now_plus(30).into()),
    ];
    for token in edge {
        assert_eq!(try_token(&served, &token).await.0, 200);
    }
    // No token: where to get one, and no error (RFC 6750 §3.1).
    let reply = send(served.addr, "POST", "/mcp", &[], "{}").await;
    assert_eq!(reply.status, 401);
    let challenge = reply.header("www-authenticate").unwrap();
    assert_eq!(
        challenge,
        format!("Bearer resource_metadata=\"{METADATA}\"")
    );
}

#[tokio::test]
async fn the_metadata_names_the_issuer_without_a_token() {
    let key = Signer::ec("k1");
    let issuer = TestIssuer::start(&[&key]).await;
    let served = served(&issuer, |_| {}).await;
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = send(served.addr, "GET", path, &[], "").await;
        assert_eq!(reply.status, 200, "{path}");
        let metadata: Value = serde_json::from_str(&reply.body).unwrap();
        assert_eq!(metadata["resource"], AUDIENCE);
        assert_eq!(metadata["authorization_servers"], json!([issuer.url]));
        assert_eq!(metadata["bearer_methods_supported"], json!(["header"]));
    }
    // A server of bearer token files has none.
    let plain = serve(|_| {}).await;
    let reply = send(
        plain.addr,
        "GET",
        "/.well-known/oauth-protected-resource",
        &[],
        "",
    )
    .await;
    assert_eq!(reply.status, 404);
}

#[tokio::test]
async fn a_rotated_key_is_fetched_when_a_token_names_it() {
    let (old, new) = (Signer::ec("2026-11"), Signer::ec("2026-12"));
    let issuer = TestIssuer::start(&[&old]).await;
    let served = served(&issuer, |_| {}).await;
    let claims = issuer.claims("alice", AUDIENCE);
    assert_eq!(try_token(&served, &old.sign(&claims)).await.0, 200);
    issuer.publish(&[&new]);
    assert_eq!(try_token(&served, &new.sign(&claims)).await.0, 200);
    assert_eq!(issuer.key_fetches(), 2);
    // The old key, gone from the set, no longer signs anything taken.
    let (status, challenge) = try_token(&served, &old.sign(&claims)).await;
    assert_eq!(
        (status, challenge),
        (
            401,
            refused("the token is signed by no key the issuer publishes")
        )
    );
}

#[tokio::test]
async fn an_issuer_that_does_not_answer_gets_its_tokens_refused() {
    let key = Signer::ec("k1");
    let issuer = TestIssuer::start(&[&key]).await;
    issuer.stop_answering();
    let served = served(&issuer, |o| o.fetch_timeout = Duration::from_millis(500)).await;
    let token = key.sign(&issuer.claims("alice", AUDIENCE));
    let unavailable = refused("the issuer's keys could not be fetched; try again later");
    assert_eq!(try_token(&served, &token).await, (401, unavailable.clone()));
    assert_eq!(issuer.unanswered(), 1);
    // Asked again at once, it does not wait for the issuer a second time.
    assert_eq!(try_token(&served, &token).await, (401, unavailable));
    assert_eq!(issuer.unanswered(), 1);
}

#[tokio::test]
async fn a_key_set_file_serves_an_air_gapped_server() {
    let key = Signer::ec("k1");
    let issuer = TestIssuer::start(&[]).await;
    issuer.stop_answering();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("jwks.json");
    std::fs::write(&file, json!({"keys": [key.jwk]}).to_string()).unwrap();
    let served = served(&issuer, |o| o.jwks_file = Some(file.clone())).await;
    let token = key.sign(&issuer.claims("alice", AUDIENCE));
    assert_eq!(try_token(&served, &token).await.0, 200);
    // A key added to the file is read when a token names it.
    let added = Signer::rsa("k2");
    std::fs::write(&file, json!({"keys": [key.jwk, added.jwk]}).to_string()).unwrap();
    let token = added.sign(&issuer.claims("alice", AUDIENCE));
    assert_eq!(try_token(&served, &token).await.0, 200);
}
