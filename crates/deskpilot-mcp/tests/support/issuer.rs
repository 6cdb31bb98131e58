//! An OAuth authorization server made by the tests: its own certificate authority (rcgen), its
//! metadata and key set over HTTPS (rustls), keys to sign access tokens with, and switches to
//! rotate its keys or stop answering.
#![allow(dead_code)] // each test file uses some

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::rt::TokioIo;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// A key the issuer signs with, and its public half as a JWK.
pub struct Signer {
    pub kid: String,
    alg: Algorithm,
    key: EncodingKey,
    pub jwk: Value,
}

impl Signer {
    /// A new P-256 key (ES256).
    pub fn ec(kid: &str) -> Self {
        let pair = KeyPair::generate().unwrap();
        Self::new(
            kid,
            Algorithm::ES256,
            EncodingKey::from_ec_der(&pair.serialize_der()),
        )
    }

    /// The committed RSA test key (RS256): tests/oauth/README.md.
    pub fn rsa(kid: &str) -> Self {
        let pem = include_bytes!("../oauth/rsa-test-key.pem");
        Self::new(
            kid,
            Algorithm::RS256,
            EncodingKey::from_rsa_pem(pem).unwrap(),
        )
    }

    fn new(kid: &str, alg: Algorithm, key: EncodingKey) -> Self {
        let mut jwk = serde_json::to_value(Jwk::from_encoding_key(&key, alg).unwrap()).unwrap();
        jwk["kid"] = kid.into();
        jwk["use"] = "sig".into();
        Signer {
            kid: kid.to_owned(),
            alg,
            key,
            jwk,
        }
    }

    /// A token of `claims`, with this key's id and algorithm in its header.
    pub fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.key).unwrap()
    }
}

/// Seconds since the epoch, `offset` from now.
pub fn now_plus(offset: i64) -> i64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    now + offset
}

struct Shared {
    url: String,
    keys: Mutex<Vec<Value>>,
    answering: AtomicBool,
    key_fetches: AtomicUsize,
    unanswered: AtomicUsize,
}

/// The authorization server, serving until dropped with its runtime.
pub struct TestIssuer {
    pub url: String,
    /// The PEM file of its certificate authority (`--oauth-ca`).
    pub ca_file: PathBuf,
    _dir: tempfile::TempDir,
    shared: Arc<Shared>,
}

impl TestIssuer {
    /// Serving `keys` at `/jwks`, named by RFC 8414 metadata.
    pub async fn start(keys: &[&Signer]) -> Self {
        let ca_key = KeyPair::generate().unwrap();
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca_cert = ca.self_signed(&ca_key).unwrap();
        let ca = rcgen::Issuer::new(ca, ca_key);
        let server_key = KeyPair::generate().unwrap();
        let names = vec!["127.0.0.1".to_owned(), "localhost".to_owned()];
        let server_cert = CertificateParams::new(names)
            .unwrap()
            .signed_by(&server_key, &ca)
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let ca_file = dir.path().join("ca.pem");
        std::fs::write(&ca_file, ca_cert.pem()).unwrap();
        #[allow(deprecated)]
        // ring's provider, as the server's own client (src/http/oauth/fetch.rs)
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let private = PrivatePkcs8KeyDer::from(server_key.serialize_der());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                vec![server_cert.der().clone()],
                PrivateKeyDer::Pkcs8(private),
            )
            .unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("https://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Shared {
            url: url.clone(),
            keys: Mutex::new(keys.iter().map(|k| k.jwk.clone()).collect()),
            answering: AtomicBool::new(true),
            key_fetches: AtomicUsize::new(0),
            unanswered: AtomicUsize::new(0),
        });
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        tokio::spawn(serve(listener, acceptor, shared.clone()));
        TestIssuer {
            url,
            ca_file,
            _dir: dir,
            shared,
        }
    }

    /// From now on, its key set is `keys`.
    pub fn publish(&self, keys: &[&Signer]) {
        *self.shared.keys.lock().unwrap() = keys.iter().map(|k| k.jwk.clone()).collect();
    }

    /// From now on, it takes connections and never answers.
    pub fn stop_answering(&self) {
        self.shared.answering.store(false, Ordering::SeqCst);
    }

    /// How many times its key set was fetched.
    pub fn key_fetches(&self) -> usize {
        self.shared.key_fetches.load(Ordering::SeqCst)
    }

    /// How many connections it took and never answered.
    pub fn unanswered(&self) -> usize {
        self.shared.unanswered.load(Ordering::SeqCst)
    }

    /// Claims of a token valid for an hour, for `subject` at `audience`.
    pub fn claims(&self, subject: &str, audience: &str) -> Value {
        json!({
            "iss": self.url,
            "sub": subject,
            "aud": audience,
            "iat": now_plus(0),
            "exp": now_plus(3600),
        })
    }
}

async fn serve(listener: TcpListener, acceptor: tokio_rustls::TlsAcceptor, shared: Arc<Shared>) {
    let mut held = Vec::new();
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            return;
        };
        if !shared.answering.load(Ordering::SeqCst) {
            shared.unanswered.fetch_add(1, Ordering::SeqCst);
            held.push(stream);
            continue;
        }
        let (acceptor, shared) = (acceptor.clone(), shared.clone());
        tokio::spawn(async move {
            let Ok(tls) = acceptor.accept(stream).await else {
                return;
            };
            let service = hyper::service::service_fn(move |request| {
                let shared = shared.clone();
                async move { Ok::<_, std::convert::Infallible>(answer(&shared, &request)) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(tls), service)
                .await;
        });
    }
}

fn answer<B>(shared: &Shared, request: &http::Request<B>) -> http::Response<Full<Bytes>> {
    let (status, body) = match request.uri().path() {
        "/.well-known/oauth-authorization-server" => (
            200,
            json!({"issuer": shared.url, "jwks_uri": format!("{}/jwks", shared.url)}),
        ),
        "/jwks" => {
            shared.key_fetches.fetch_add(1, Ordering::SeqCst);
            (200, json!({"keys": *shared.keys.lock().unwrap()}))
        }
        _ => (404, json!({"error": "not found"})),
    };
    http::Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .header("cache-control", "public, max-age=300")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}
