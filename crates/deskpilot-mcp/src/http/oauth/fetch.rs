//! GET of a JSON document over HTTPS (rustls, ring), for the issuer's metadata and keys: the
//! system's certificate authorities (and `SSL_CERT_FILE`'s) plus any the server was given,
//! under one timeout and a size limit, with the `max-age` its `Cache-Control` allows.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use serde_json::Value;

/// The largest document read: a key set is a few kilobytes.
const MAX_BODY: usize = 1 << 20;

/// A document and how long it may be kept (`None`: its answer did not say).
pub struct Fetched {
    pub json: Value,
    pub max_age: Option<Duration>,
}

/// Why a document could not be had.
#[derive(Debug)]
pub struct FetchError {
    pub message: String,
    /// The server answered, with a status other than 200.
    pub answered: bool,
}

impl FetchError {
    fn unanswered(message: String) -> Self {
        FetchError {
            message,
            answered: false,
        }
    }
}

pub struct Fetcher {
    client: Client<HttpsConnector<HttpConnector>, Empty<Bytes>>,
    timeout: Duration,
}

impl Fetcher {
    /// A client trusting the system's authorities and those in the PEM file `extra_roots`.
    pub fn new(extra_roots: Option<&Path>, timeout: Duration) -> Result<Self, String> {
        let mut roots = rustls::RootCertStore::empty();
        let native = rustls_native_certs::load_native_certs();
        roots.add_parsable_certificates(native.certs);
        if let Some(file) = extra_roots {
            let certs = CertificateDer::pem_file_iter(file)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| format!("cannot read certificates from {}: {e}", file.display()))?;
            if certs.is_empty() {
                return Err(format!("{} holds no PEM certificate", file.display()));
            }
            roots.add_parsable_certificates(certs);
        }
        if roots.is_empty() {
            return Err(
                "no certificate authority to trust: the system has none (install \
                ca-certificates) and none was given"
                    .into(),
            );
        }
        // ring has no post-quantum key exchange, hence its deprecation. What this fetches is
        // public (the issuer's metadata and public keys): a recording decrypted in years
        // reveals nothing. aws-lc, the other provider, would need NASM for Windows builds.
        #[allow(deprecated)]
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(config)
            .https_only()
            .enable_http1()
            .build();
        let client = Client::builder(hyper_util::rt::TokioExecutor::new()).build(connector);
        Ok(Fetcher { client, timeout })
    }

    /// The JSON document at `url` (HTTPS only), within the timeout.
    pub async fn get(&self, url: &str) -> Result<Fetched, FetchError> {
        let uri: http::Uri = url
            .parse()
            .map_err(|e| FetchError::unanswered(format!("{url} is no URL: {e}")))?;
        if uri.scheme_str() != Some("https") {
            return Err(FetchError::unanswered(format!("{url} is not an https URL")));
        }
        match tokio::time::timeout(self.timeout, self.get_within(uri)).await {
            Ok(result) => result.map_err(|e| FetchError {
                message: format!("{url}: {}", e.message),
                ..e
            }),
            Err(_) => Err(FetchError::unanswered(format!(
                "{url} did not answer within {:?}",
                self.timeout
            ))),
        }
    }

    async fn get_within(&self, uri: http::Uri) -> Result<Fetched, FetchError> {
        let response = self
            .client
            .get(uri)
            .await
            .map_err(|e| FetchError::unanswered(error_chain(&e)))?;
        if response.status() != http::StatusCode::OK {
            return Err(FetchError {
                message: format!("answered {}", response.status()),
                answered: true,
            });
        }
        let max_age = response
            .headers()
            .get(http::header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok())
            .and_then(max_age);
        let body = Limited::new(response.into_body(), MAX_BODY)
            .collect()
            .await
            .map_err(|e| FetchError::unanswered(format!("reading the answer: {e}")))?
            .to_bytes();
        let json = serde_json::from_slice(&body).map_err(|e| FetchError {
            message: format!("not JSON: {e}"),
            answered: true,
        })?;
        Ok(Fetched { json, max_age })
    }
}

/// How long a `Cache-Control` value lets an answer be kept: `max-age`, or nothing for
/// `no-store` and `no-cache` (kept the least time allowed).
pub fn max_age(cache_control: &str) -> Option<Duration> {
    let mut age = None;
    for directive in cache_control.split(',').map(str::trim) {
        let (name, value) = directive.split_once('=').unwrap_or((directive, ""));
        match name.to_ascii_lowercase().as_str() {
            "no-store" | "no-cache" => return Some(Duration::ZERO),
            "max-age" => {
                age = value
                    .trim_matches('"')
                    .parse()
                    .ok()
                    .map(Duration::from_secs)
            }
            _ => {}
        }
    }
    age
}

/// An error and its causes, in one line (hyper's own says only "client error").
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_control_gives_the_age_an_answer_may_be_kept() {
        let secs = |s: u64| Some(Duration::from_secs(s));
        assert_eq!(max_age("public, max-age=3600"), secs(3600));
        assert_eq!(max_age("max-age=\"60\", must-revalidate"), secs(60));
        assert_eq!(max_age("Max-Age=5"), secs(5));
        assert_eq!(max_age("no-cache"), secs(0));
        assert_eq!(max_age("max-age=600, no-store"), secs(0));
        assert_eq!(max_age("public"), None);
        assert_eq!(max_age("max-age=soon"), None);
    }
}
