//! The front door: routes `/healthz`, `/readyz`, `/mcp` and the OAuth metadata, refuses what the gate refuses, reads a body
//! whole only within its limit and time, answers configured origins' CORS, and hands the rest
//! to rmcp.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::Mutex;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;

use super::HttpOptions;
use super::gate::{Gate, Refusal};
use super::oauth::METADATA_PATH;
use super::ready::{Answer, Readiness, answer};
use crate::DeskpilotServer;
use crate::clients::Caller;
use crate::limit::CallLimit;

type Body = BoxBody<Bytes, Infallible>;

/// Where MCP is served.
pub const MCP_PATH: &str = "/mcp";
/// Where a client or a supervisor asks whether the server is up.
pub const HEALTH_PATH: &str = "/healthz";
/// Where a supervisor asks whether the server should be sent work now.
pub const READY_PATH: &str = "/readyz";

/// The header naming a 2025-11-25 MCP session.
const MCP_SESSION: &str = "mcp-session-id";

/// The headers a browser client may send, for CORS preflights.
const CORS_HEADERS: &str = "authorization, content-type, accept, last-event-id, mcp-session-id, \
mcp-protocol-version, mcp-method, mcp-name";

/// MCP sessions remembered with the token that opened them, at most this many (the oldest
/// go first).
const REMEMBERED_SESSIONS: usize = 10_000;

/// Which caller opened each MCP session: a session is its opener's only.
#[derive(Default)]
struct SessionTokens {
    tokens: HashMap<String, Option<Caller>>,
    order: VecDeque<String>,
}

impl SessionTokens {
    fn opened(&mut self, session: &str, token: Option<Caller>) {
        if self.tokens.insert(session.to_owned(), token).is_none() {
            self.order.push_back(session.to_owned());
        }
        while self.order.len() > REMEMBERED_SESSIONS {
            if let Some(oldest) = self.order.pop_front() {
                self.tokens.remove(&oldest);
            }
        }
    }

    fn ended(&mut self, session: &str) {
        if self.tokens.remove(session).is_some() {
            self.order.retain(|s| s != session);
        }
    }

    /// Whether `token` may use `session` (one not remembered is rmcp's to refuse).
    fn allows(&self, session: &str, token: &Option<Caller>) -> bool {
        self.tokens
            .get(session)
            .is_none_or(|opener| opener == token)
    }
}

pub struct Front<S = DeskpilotServer> {
    gate: Gate,
    sessions: Mutex<SessionTokens>,
    mcp: StreamableHttpService<S, LocalSessionManager>,
    body_limit: usize,
    read_timeout: Duration,
    health: Bytes,
    readiness: Readiness,
    limit: Option<std::sync::Arc<CallLimit>>,
}

impl<S: rmcp::ServerHandler + Send + 'static> Front<S> {
    pub fn new(
        gate: Gate,
        mcp: StreamableHttpService<S, LocalSessionManager>,
        options: &HttpOptions,
        limit: Option<std::sync::Arc<CallLimit>>,
    ) -> Self {
        let health = serde_json::json!({
            "ok": true,
            "server": "deskpilot",
            "version": env!("CARGO_PKG_VERSION"),
            "desktop": options.desktop,
            "mcp": MCP_PATH,
        });
        Front {
            gate,
            sessions: Mutex::default(),
            mcp,
            body_limit: options.body_limit,
            read_timeout: options.read_timeout,
            health: Bytes::from(health.to_string()),
            readiness: options.readiness.clone(),
            limit,
        }
    }

    pub async fn handle(&self, request: Request<Incoming>) -> Response<Body> {
        if let Err(refused) = self.gate.check_place(request.headers()) {
            return self.refusal(refused);
        }
        let path = request.uri().path();
        if path == METADATA_PATH || path.starts_with(&format!("{METADATA_PATH}/")) {
            return self.resource_metadata(request.method());
        }
        match path {
            HEALTH_PATH if request.method() == Method::GET => {
                let mut response = text(StatusCode::OK, self.health.clone());
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                response
            }
            READY_PATH if request.method() == Method::GET => self.ready(),
            HEALTH_PATH | READY_PATH => text(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed"),
            MCP_PATH => {
                let cors = self.cors_origin(request.headers());
                let mut response = self.mcp(request, cors.is_some()).await;
                if let Some(origin) = cors {
                    allow_origin(&mut response, origin);
                }
                response
            }
            _ => text(StatusCode::NOT_FOUND, "Not Found: MCP is served at /mcp"),
        }
    }

    /// 200 when ready; 503 while starting, or while full (come back in a second).
    fn ready(&self) -> Response<Body> {
        let now = answer(&self.readiness, self.limit.as_deref());
        let status = match now {
            Answer::Ready => StatusCode::OK,
            Answer::Starting(_) | Answer::Full { .. } => StatusCode::SERVICE_UNAVAILABLE,
        };
        let mut response = text(status, now.body().to_string());
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if let Answer::Full { .. } = now {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }

    async fn mcp(&self, request: Request<Incoming>, cors: bool) -> Response<Body> {
        if request.method() == Method::OPTIONS {
            return preflight(cors);
        }
        let token = match self.gate.caller(request.headers()).await {
            Ok(caller) => caller,
            Err(refused) => return self.refusal(refused),
        };
        let session = request
            .headers()
            .get(MCP_SESSION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let Some(session) = &session
            && !self.sessions().allows(session, &token)
        {
            // Another token's MCP session: as if it did not exist.
            return text(StatusCode::NOT_FOUND, "Not Found: no such MCP session");
        }
        let ending = request.method() == Method::DELETE;
        let (mut parts, body) = request.into_parts();
        if let Some(token) = token.clone() {
            parts.extensions.insert(token);
        }
        let body = match self.read_body(&parts.headers, body).await {
            Ok(body) => body,
            Err(response) => return response,
        };
        // Kept (a shared buffer, not a copy) in case rmcp refuses it.
        let sent = body.clone();
        let response = self
            .mcp
            .handle(Request::from_parts(parts, Full::new(body)))
            .await;
        if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
            && let Err(reply) = message_check(&sent)
        {
            // rmcp answers a body that is no JSON-RPC message with 415 and plain text.
            return jsonrpc_error(reply);
        }
        let opened = response
            .headers()
            .get(MCP_SESSION)
            .and_then(|v| v.to_str().ok());
        match (&session, opened) {
            (Some(session), _) if ending || response.status() == StatusCode::NOT_FOUND => {
                self.sessions().ended(session);
            }
            (None, Some(opened)) => self.sessions().opened(opened, token),
            _ => {}
        }
        response
    }

    /// RFC 9728's document, where OAuth tokens are asked for.
    fn resource_metadata(&self, method: &Method) -> Response<Body> {
        let Some(metadata) = self.gate.resource_metadata() else {
            return text(
                StatusCode::NOT_FOUND,
                "Not Found: this server takes no OAuth tokens",
            );
        };
        if method != Method::GET {
            return text(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
        }
        let mut response = text(StatusCode::OK, metadata.to_string());
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }

    fn refusal(&self, refused: Refusal) -> Response<Body> {
        let mut response = text(refused.status(), refused.message());
        if let Some(challenge) = self.gate.challenge(refused)
            && let Ok(value) = HeaderValue::from_str(&challenge)
        {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, SessionTokens> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The whole body, if it is within the limit and arrives in time.
    async fn read_body(
        &self,
        headers: &http::HeaderMap,
        body: Incoming,
    ) -> Result<Bytes, Response<Body>> {
        let too_large = || {
            text(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("Payload Too Large: the limit is {} bytes", self.body_limit),
            )
        };
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|len| len > self.body_limit as u64) {
            return Err(too_large());
        }
        let read = Limited::new(body, self.body_limit).collect();
        match tokio::time::timeout(self.read_timeout, read).await {
            Ok(Ok(collected)) => Ok(collected.to_bytes()),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
            Ok(Err(e)) => Err(text(StatusCode::BAD_REQUEST, format!("Bad Request: {e}"))),
            Err(_) => Err(text(
                StatusCode::REQUEST_TIMEOUT,
                "Request Timeout: the body did not arrive in time",
            )),
        }
    }

    /// The request's Origin, when it is one configured for CORS.
    fn cors_origin(&self, headers: &http::HeaderMap) -> Option<HeaderValue> {
        let origin = headers.get(header::ORIGIN)?;
        self.gate
            .is_configured_origin(origin.to_str().ok()?)
            .then(|| origin.clone())
    }
}

/// `Ok` for a body that is one JSON-RPC message, else JSON-RPC's error for it.
fn message_check(body: &[u8]) -> Result<(), Value> {
    let text = std::str::from_utf8(body).map_err(|e| {
        crate::jsonrpc::error_reply(Value::Null, -32700, &format!("Parse error: {e}"))
    })?;
    crate::jsonrpc::check(text)
}

/// A JSON-RPC error reply as a 400.
fn jsonrpc_error(reply: Value) -> Response<Body> {
    let mut response = text(StatusCode::BAD_REQUEST, reply.to_string());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// A CORS preflight's answer: allowed for a configured origin, else no CORS at all.
fn preflight(cors: bool) -> Response<Body> {
    if !cors {
        return text(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed");
    }
    let mut response = text(StatusCode::NO_CONTENT, "");
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, DELETE"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(CORS_HEADERS),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    response
}

fn allow_origin(response: &mut Response<Body>, origin: HeaderValue) {
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("mcp-session-id"),
    );
    headers.append(header::VARY, HeaderValue::from_static("Origin"));
}

fn text(status: StatusCode, body: impl Into<Bytes>) -> Response<Body> {
    let mut response = Response::new(Full::new(body.into()).boxed());
    *response.status_mut() = status;
    response
}
