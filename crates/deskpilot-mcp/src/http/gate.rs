//! What a request must pass before MCP sees it: a Host that no rebound DNS name can forge, an
//! Origin that is the server's own or configured (DNS rebinding: a foreign Origin is refused
//! whatever token comes with it), then a configured token. Pure functions of the headers.

use http::HeaderMap;
use http::header::{AUTHORIZATION, HOST, ORIGIN};

use super::tokens::{TokenIndex, Tokens};

/// Who may talk to the server.
#[derive(Debug, Clone)]
pub struct Gate {
    /// `None`: no token asked for (loopback only, when the user said so).
    pub tokens: Option<Tokens>,
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
}

impl Refusal {
    pub fn status(self) -> http::StatusCode {
        match self {
            Refusal::ForeignHost | Refusal::ForeignOrigin => http::StatusCode::FORBIDDEN,
            Refusal::NoToken | Refusal::WrongToken => http::StatusCode::UNAUTHORIZED,
        }
    }

    /// The `WWW-Authenticate` challenge a 401 carries (RFC 6750).
    pub fn challenge(self) -> Option<&'static str> {
        match self {
            Refusal::NoToken => Some("Bearer realm=\"deskpilot\""),
            Refusal::WrongToken => Some("Bearer realm=\"deskpilot\", error=\"invalid_token\""),
            _ => None,
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

    /// Which token the request carries, when tokens are asked for.
    pub fn check_token(&self, headers: &HeaderMap) -> Result<Option<TokenIndex>, Refusal> {
        let Some(tokens) = &self.tokens else {
            return Ok(None);
        };
        let presented = headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(bearer)
            .ok_or(Refusal::NoToken)?;
        tokens.find(presented).map(Some).ok_or(Refusal::WrongToken)
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
            tokens: Some(Tokens::parse("aaaaaaaaaaaaaaaa\nbbbbbbbbbbbbbbbb").unwrap()),
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
        let gate = gate();
        let with = |value: &str| gate.check_token(&headers(&[("authorization", value)]));
        assert_eq!(with("Bearer aaaaaaaaaaaaaaaa"), Ok(Some(TokenIndex(0))));
        assert_eq!(with("bearer  bbbbbbbbbbbbbbbb "), Ok(Some(TokenIndex(1))));
        assert_eq!(with("Bearer cccccccccccccccc"), Err(Refusal::WrongToken));
        assert_eq!(with("Basic aaaaaaaaaaaaaaaa"), Err(Refusal::NoToken));
        assert_eq!(with("Bearer"), Err(Refusal::NoToken));
        assert_eq!(gate.check_token(&headers(&[])), Err(Refusal::NoToken));
        let open = Gate {
            tokens: None,
            ..gate
        };
        assert_eq!(open.check_token(&headers(&[])), Ok(None));
    }
}
