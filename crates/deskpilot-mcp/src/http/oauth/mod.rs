//! deskpilot as an OAuth 2.1 resource server (MCP's authorization, RFC 9728): it publishes
//! its protected-resource metadata, and takes JWT access tokens (RFC 9068) signed by the
//! configured issuer's keys, for the configured audience, in date. A token's subject is the
//! client that owns what it opens.

mod check;
mod discovery;
mod fetch;
mod keys;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::clients::Caller;

/// Where the protected-resource metadata is served (RFC 9728 §3), with or without the
/// resource's path after it.
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// How an HTTP server checks OAuth access tokens.
#[derive(Debug, Clone)]
pub struct OAuthOptions {
    /// The authorization server whose tokens are taken (`iss`), an https URL.
    pub issuer: String,
    /// What a token must be for (`aud`): MCP asks for the server's own URL.
    pub audience: String,
    /// The resource's URL the metadata names; the audience when `None` (it must be a URL then).
    pub resource: Option<String>,
    /// A JWKS file read instead of the issuer's (an air-gapped cluster).
    pub jwks_file: Option<PathBuf>,
    /// A PEM file of certificate authorities trusted beside the system's, to reach the issuer.
    pub ca_file: Option<PathBuf>,
    /// How long the issuer may take to answer one request.
    pub fetch_timeout: Duration,
}

impl OAuthOptions {
    pub fn new(issuer: String, audience: String) -> Self {
        OAuthOptions {
            issuer,
            audience,
            resource: None,
            jwks_file: None,
            ca_file: None,
            fetch_timeout: Duration::from_secs(10),
        }
    }
}

/// Why an access token was refused (`error_description` of its 401).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Not a JWT deskpilot can read.
    Malformed,
    /// Its algorithm is `none`, unknown, or not its key's.
    Algorithm,
    /// Signed by no key the issuer publishes.
    UnknownKey,
    /// Its signature does not verify.
    Signature,
    Expired,
    NotYetValid,
    /// For another resource.
    Audience,
    /// From another issuer.
    Issuer,
    /// It lacks `exp`, `iss`, `aud` or `sub`.
    Claims,
    /// The issuer's keys could not be had (no answer, or no key in it).
    KeysUnavailable,
}

impl Problem {
    pub fn description(self) -> &'static str {
        match self {
            Problem::Malformed => "the token is not a JWT",
            Problem::Algorithm => "the token's algorithm is not one its key allows",
            Problem::UnknownKey => "the token is signed by no key the issuer publishes",
            Problem::Signature => "the token's signature does not verify",
            Problem::Expired => "the token has expired",
            Problem::NotYetValid => "the token is not valid yet",
            Problem::Audience => "the token is for another audience",
            Problem::Issuer => "the token is from another issuer",
            Problem::Claims => "the token lacks exp, iss, aud or sub",
            Problem::KeysUnavailable => "the issuer's keys could not be fetched; try again later",
        }
    }
}

/// Checks access tokens and describes the resource.
pub struct Verifier {
    issuer: String,
    audience: String,
    resource: http::Uri,
    keys: keys::Keys,
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Verifier({} for {})", self.issuer, self.audience)
    }
}

impl Verifier {
    pub fn new(options: &OAuthOptions) -> Result<Arc<Self>, String> {
        let issuer: http::Uri = options
            .issuer
            .parse()
            .map_err(|e| format!("--oauth-issuer {:?}: {e}", options.issuer))?;
        if issuer.scheme_str() != Some("https") || issuer.host().is_none() {
            return Err(format!(
                "--oauth-issuer {:?} is not an https URL",
                options.issuer
            ));
        }
        let resource = options.resource.as_deref().unwrap_or(&options.audience);
        let resource: http::Uri = resource
            .parse()
            .ok()
            .filter(|u: &http::Uri| {
                matches!(u.scheme_str(), Some("https" | "http")) && u.host().is_some()
            })
            .ok_or_else(|| {
                format!(
                    "the resource {resource:?} is not a URL: give --oauth-resource \
                     https://HOST/mcp (the server's URL, as clients reach it)"
                )
            })?;
        let source = match &options.jwks_file {
            Some(file) => keys::Source::File(file.clone()),
            None => keys::Source::Issuer {
                issuer: options.issuer.clone(),
                fetcher: fetch::Fetcher::new(options.ca_file.as_deref(), options.fetch_timeout)?,
            },
        };
        Ok(Arc::new(Verifier {
            issuer: options.issuer.clone(),
            audience: options.audience.clone(),
            resource,
            keys: keys::Keys::new(source),
        }))
    }

    /// The caller `token` names: its subject, once every check passes.
    pub async fn caller(&self, token: &str) -> Result<Caller, Problem> {
        let head = check::head(token)?;
        let keys = self.keys.for_kid(head.kid.as_deref()).await?;
        let expected = check::Expected {
            issuer: &self.issuer,
            audience: &self.audience,
        };
        let mut allowed = keys
            .iter()
            .filter(|k| check::algorithms_of(k).contains(&head.alg))
            .peekable();
        if allowed.peek().is_none() {
            return Err(Problem::Algorithm);
        }
        for key in allowed {
            match check::subject(token, head.alg, key, &expected) {
                Ok(subject) => return Ok(Caller::Subject(subject.into())),
                // Another key may be the one (a token that names none).
                Err(Problem::Signature) => continue,
                // Its key verified it: what its claims lack is the answer.
                Err(problem) => return Err(problem),
            }
        }
        Err(Problem::Signature)
    }

    /// The protected-resource metadata (RFC 9728 §2).
    pub fn metadata(&self) -> Value {
        json!({
            "resource": self.resource.to_string(),
            "authorization_servers": [self.issuer],
            "bearer_methods_supported": ["header"],
            "resource_name": "deskpilot",
        })
    }

    /// Where a client finds the metadata: the well-known path inserted before the resource's
    /// own (RFC 9728 §3.1).
    pub fn metadata_url(&self) -> String {
        let scheme = self.resource.scheme_str().unwrap_or("https");
        let authority = self.resource.authority().map_or("", |a| a.as_str());
        let path = self.resource.path().trim_end_matches('/');
        format!("{scheme}://{authority}{METADATA_PATH}{path}")
    }

    /// The `WWW-Authenticate` challenge of a 401 (RFC 6750 §3, RFC 9728 §5.1).
    pub fn challenge(&self, problem: Option<Problem>) -> String {
        let mut challenge = format!("Bearer resource_metadata=\"{}\"", self.metadata_url());
        if let Some(problem) = problem {
            challenge.push_str(&format!(
                ", error=\"invalid_token\", error_description=\"{}\"",
                problem.description()
            ));
        }
        challenge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verifier(audience: &str, resource: Option<&str>) -> Result<Arc<Verifier>, String> {
        let mut options = OAuthOptions::new("https://id.example.com".into(), audience.into());
        options.resource = resource.map(str::to_owned);
        options.jwks_file = Some("/nonexistent/jwks.json".into());
        Verifier::new(&options)
    }

    #[test]
    fn the_metadata_names_the_resource_and_where_it_is_served() {
        let v = verifier("https://desk.example.com/mcp", None).unwrap();
        assert_eq!(
            v.metadata_url(),
            "https://desk.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(v.metadata()["resource"], "https://desk.example.com/mcp");
        assert_eq!(
            v.metadata()["authorization_servers"][0],
            "https://id.example.com"
        );
        assert_eq!(
            v.challenge(Some(Problem::Expired)),
            "Bearer resource_metadata=\"https://desk.example.com/.well-known/oauth-protected-resource/mcp\", \
             error=\"invalid_token\", error_description=\"the token has expired\""
        );
        let other = verifier("api://desk", Some("http://10.0.0.5:8931/mcp")).unwrap();
        assert_eq!(
            other.metadata_url(),
            "http://10.0.0.5:8931/.well-known/oauth-protected-resource/mcp"
        );
        assert!(
            verifier("api://desk", None)
                .unwrap_err()
                .contains("--oauth-resource")
        );
    }
}
