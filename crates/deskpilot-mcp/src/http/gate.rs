//! What a request must pass before MCP sees it. First a Host that no rebound DNS name can
//! forge, and an Origin that is the server's own or configured (DNS rebinding: a foreign
//! Origin is refused whatever token comes with it). Then a token: one configured, or an
//! OAuth access token.

use std::sync::Arc;

use http::HeaderMap;
use http::header::{AUTHORIZATION, HOST, ORIGIN};

use super::oauth::{Problem, Verifier};
use super::tokens::Tokens;
use crate::clients::Caller;

/// How a request proves who sends it.
#[derive(Debug, Clone)]
pub enum Auth {
    /// No token asked for (loopback only, when the user said so).
    Open,
    /// One of the configured bearer tokens.
    Tokens(Tokens),
    /// An OAuth access token from the configured issuer.
    OAuth(Arc<Verifier>),
}

/// Who may talk to the server.
#[derive(Debug, Clone)]
pub struct Gate {
    pub auth: Auth,
    /// Host names (beyond IP literals and `localhost`) clients reach the server by.
    pub hosts: Vec<String>,
    /// Browser origins allowed besides the server's own; they get CORS answers too.
    pub origins: Vec<String>,
    /// The address and port the server listens on.
    pub bound: std::net::SocketAddr,
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A Host header naming a host the server was not told it has (or none).
    ForeignHost,
    /// An Origin header that is neither the server's nor configured.
    ForeignOrigin,
    /// No bearer token, where one is asked for.
    NoToken,
    /// A bearer token that is not one of the server's.
    WrongToken,
    /// An OAuth access token refused, and why.
    BadToken(Problem),
}

impl Refusal {
    pub fn status(self) -> http::StatusCode {
        match self {
            Refusal::ForeignHost | Refusal::ForeignOrigin => http::StatusCode::FORBIDDEN,
            Refusal::NoToken | Refusal::WrongToken | Refusal::BadToken(_) => {
                http::StatusCode::UNAUTHORIZED
            }
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Refusal::ForeignHost => {
                "Forbidden: the Host header names no host this server answers to (--allow-host adds one)"
            }
            Refusal::ForeignOrigin => {
                "Forbidden: requests from this Origin are refused (--allow-origin adds one)"
            }
            Refusal::NoToken => "Unauthorized: send Authorization: Bearer <token>",
            Refusal::WrongToken => "Unauthorized: that token is not one of this server's",
            Refusal::BadToken(_) => {
                "Unauthorized: that access token is refused (WWW-Authenticate says why)"
            }
        }
    }
}

impl Gate {
    /// Whether the request's Host and Origin may reach this server at all.
    pub fn check_place(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| http::uri::Authority::try_from(h).ok())
            .ok_or(Refusal::ForeignHost)?;
        if !self.is_our_host(host.host()) {
            return Err(Refusal::ForeignHost);
        }
        match headers.get(ORIGIN) {
            None => Ok(()),
            Some(origin) => {
                let origin = origin.to_str().map_err(|_| Refusal::ForeignOrigin)?;
                if self.is_our_origin(origin) || self.is_configured_origin(origin) {
                    Ok(())
                } else {
                    Err(Refusal::ForeignOrigin)
                }
            }
        }
    }

    /// Who the request comes from, when a token is asked for.
    pub async fn caller(&self, headers: &HeaderMap) -> Result<Option<Caller>, Refusal> {
        if let Auth::Open = self.auth {
            return Ok(None);
        }
        let presented = headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(bearer)
            .ok_or(Refusal::NoToken)?;
        match &self.auth {
            Auth::Open => Ok(None),
            Auth::Tokens(tokens) => tokens
                .find(presented)
                .map(|t| Some(Caller::Token(t)))
                .ok_or(Refusal::WrongToken),
            Auth::OAuth(verifier) => match verifier.caller(presented).await {
                Ok(caller) => Ok(Some(caller)),
                Err(problem) => Err(Refusal::BadToken(problem)),
            },
        }
    }

    /// The `WWW-Authenticate` challenge a 401 carries (RFC 6750; with OAuth, RFC 9728's
    /// metadata URL too).
    pub fn challenge(&self, refused: Refusal) -> Option<String> {
        let problem = match refused {
            Refusal::NoToken => None,
            Refusal::WrongToken => Some(Problem::Signature),
            Refusal::BadToken(problem) => Some(problem),
            Refusal::ForeignHost | Refusal::ForeignOrigin => return None,
        };
        Some(match (&self.auth, problem) {
            (Auth::OAuth(verifier), _) => verifier.challenge(problem),
            (_, None) => "Bearer realm=\"deskpilot\"".to_owned(),
            (_, Some(_)) => "Bearer realm=\"deskpilot\", error=\"invalid_token\"".to_owned(),
        })
    }

    /// The protected-resource metadata, when OAuth tokens are asked for.
    pub fn resource_metadata(&self) -> Option<serde_json::Value> {
        match &self.auth {
            Auth::OAuth(verifier) => Some(verifier.metadata()),
            _ => None,
        }
    }

    /// `origin` exactly as configured (these get CORS answers).
    pub fn is_configured_origin(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/');
        self.origins
            .iter()
            .any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin))
    }

    /// A name no DNS answer can rebind: an IP literal, `localhost`, or one the user gave.
    fn is_our_host(&self, host: &str) -> bool {
        self.host_is(host, |_| true)
    }

    /// A name of this very server: loopback, the address it is bound to, or a given name.
    fn names_us(&self, host: &str) -> bool {
        self.host_is(host, |ip| ip.is_loopback() || ip == self.bound.ip())
    }

    /// `host` is `localhost`, a name given with `--allow-host`, or an address `ip_ok` takes.
    fn host_is(&self, host: &str, ip_ok: impl Fn(std::net::IpAddr) -> bool) -> bool {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        match bare.parse::<std::net::IpAddr>() {
            Ok(ip) => ip_ok(ip),
            Err(_) => {
                bare.eq_ignore_ascii_case("localhost")
                    || self.hosts.iter().any(|h| h.eq_ignore_ascii_case(bare))
            }
        }
    }

    /// A page served from this very server's host and port (it serves no page, so none).
    fn is_our_origin(&self, origin: &str) -> bool {
        let Ok(uri) = origin.parse::<http::Uri>() else {
            return false;
        };
        let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
            return false;
        };
        let default_port = match scheme {
            "http" => 80,
            "https" => 443,
            _ => return false,
        };
        self.names_us(authority.host())
            && authority.port_u16().unwrap_or(default_port) == self.bound.port()
    }
}

/// The token of an `Authorization: Bearer <token>` value.
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Gate {
        Gate {
            auth: Auth::Tokens(Tokens::parse("aaaaaaaaaaaaaaaa\nbbbbbbbbbbbbbbbb").unwrap()),
            hosts: vec!["desk.lan".into()],
            origins: vec!["https://console.example.com".into()],
            bound: "127.0.0.1:8931".parse().unwrap(),
        }
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                http::HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    #[test]
    fn hosts_a_rebound_name_cannot_forge_pass() {
        let gate = gate();
        for host in [
            "127.0.0.1:8931",
            "localhost:8931",
            "[::1]:8931",
            "10.0.0.5",
            "DESK.lan:8931",
        ] {
            assert_eq!(
                gate.check_place(&headers(&[("host", host)])),
                Ok(()),
                "{host}"
            );
        }
        for host in ["evil.example.com", "localhost.evil.com:8931", ""] {
            assert_eq!(
                gate.check_place(&headers(&[("host", host)])),
                Err(Refusal::ForeignHost),
                "{host}"
            );
        }
        assert_eq!(gate.check_place(&headers(&[])), Err(Refusal::ForeignHost));
    }

    #[test]
    fn only_our_own_or_configured_origins_pass() {
        let gate = gate();
        let with = |origin: &str| {
            gate.check_place(&headers(&[("host", "127.0.0.1:8931"), ("origin", origin)]))
        };
        assert_eq!(with("http://127.0.0.1:8931"), Ok(()));
        assert_eq!(with("http://localhost:8931"), Ok(()));
        assert_eq!(with("https://console.example.com"), Ok(()));
        assert_eq!(with("https://console.example.com/"), Ok(()));
        for foreign in [
            "http://evil.example.com",
            "http://127.0.0.1:9000",
            "http://10.0.0.5:8931",
            "http://localhost",
            "null",
            "file://",
            "https://console.example.com.evil.com",
        ] {
            assert_eq!(with(foreign), Err(Refusal::ForeignOrigin), "{foreign}");
        }
    }

    #[test]
    fn a_token_names_its_client() {
        use crate::clients::TokenIndex;
        let gate = gate();
        let caller = |value: &str| gate.caller_now(&headers(&[("authorization", value)]));
        let token = |i| Ok(Some(Caller::Token(TokenIndex(i))));
        assert_eq!(caller("Bearer aaaaaaaaaaaaaaaa"), token(0));
        assert_eq!(caller("bearer  bbbbbbbbbbbbbbbb "), token(1));
        assert_eq!(caller("Bearer cccccccccccccccc"), Err(Refusal::WrongToken));
        assert_eq!(caller("Basic aaaaaaaaaaaaaaaa"), Err(Refusal::NoToken));
        assert_eq!(caller("Bearer"), Err(Refusal::NoToken));
        assert_eq!(gate.caller_now(&headers(&[])), Err(Refusal::NoToken));
        let open = Gate {
            auth: Auth::Open,
            ..gate
        };
        assert_eq!(open.caller_now(&headers(&[])), Ok(None));
    }

    impl Gate {
        /// `caller`, for tokens that need no fetch.
        fn caller_now(&self, headers: &HeaderMap) -> Result<Option<Caller>, Refusal> {
            futures_util::FutureExt::now_or_never(self.caller(headers)).unwrap()
        }
    }
}
