//! MCP over streamable HTTP: rmcp's service (both protocol eras: 2025-11-25 sessions with
//! `Mcp-Session-Id` and SSE, 2026-07-28 stateless requests) behind deskpilot's front door
//! (`front.rs`). There `/healthz` and `/readyz` (`ready.rs`) need no token; `/mcp` is past
//! the gate (`gate.rs`: Host, Origin, a bearer token or an OAuth access token, `oauth/`), a
//! body limit and read timeouts. Each MCP session gets its own server, whose
//! client owns what it opens; stateless requests belong to their token's client.

mod front;
mod gate;
mod oauth;
mod ready;
mod tokens;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::Engine;
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

pub use gate::{Auth, Gate};
pub use oauth::OAuthOptions;
pub use ready::Readiness;
pub use tokens::{TokenIndex, Tokens, token_dir};

use crate::clients::TokenClients;
use crate::limit::CallLimit;
use crate::{DeskpilotServer, Grants, ServeError, Setup};

/// Connections served at once; more wait in the listen queue.
const MAX_CONNECTIONS: usize = 64;
/// The kernel's send buffer of each connection (Linux doubles it), instead of one that grows
/// to megabytes for a client that reads nothing (mcp_http's never-reading client keeps it).
const SEND_BUFFER: u32 = 128 << 10;
/// Connections waiting to be accepted.
const BACKLOG: u32 = 1024;

/// How an HTTP server listens and whom it lets in.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub addr: SocketAddr,
    /// `None`: no token asked for (loopback only).
    pub tokens: Option<Tokens>,
    /// OAuth access tokens asked for instead of `tokens`.
    pub oauth: Option<OAuthOptions>,
    /// Host names clients reach the server by, beyond IP literals and `localhost`.
    pub hosts: Vec<String>,
    /// Browser origins allowed (and answered with CORS headers).
    pub origins: Vec<String>,
    /// A client idle this long is ended and its sessions closed (docs/http.md).
    pub idle: Duration,
    /// The largest request body read.
    pub body_limit: usize,
    /// How long a client may take to send a request's headers, and its body.
    pub read_timeout: Duration,
    /// How long a client may take nothing of what is sent to it (an event stream it does not
    /// read) before its connection is dropped.
    pub send_timeout: Duration,
    /// Which desktop this server serves, as `/healthz` says it.
    pub desktop: String,
    /// On a non-loopback address, `launch` and `files` may be granted (remote code execution;
    /// files on a disk the client cannot read).
    pub remote_launch: bool,
    /// Where the server's app packs come from.
    pub packs: crate::packs::set::Sources,
    /// Where each session's calls are recorded (`docs/recording.md`), when they are.
    pub record: Option<std::path::PathBuf>,
    /// The tool calls in flight allowed across all clients; one more is `busy`.
    pub max_calls: Option<usize>,
    /// What `/readyz` says, besides a full server.
    pub readiness: Readiness,
}

impl HttpOptions {
    /// The defaults (docs/http.md lists them) at `addr`, with `tokens`.
    pub fn new(addr: SocketAddr, tokens: Option<Tokens>, desktop: String) -> Self {
        HttpOptions {
            addr,
            tokens,
            oauth: None,
            hosts: Vec::new(),
            origins: Vec::new(),
            idle: Duration::from_secs(30 * 60),
            body_limit: 4 << 20,
            read_timeout: Duration::from_secs(10),
            send_timeout: Duration::from_secs(30),
            desktop,
            remote_launch: false,
            packs: crate::packs::set::Sources::shipped_only(),
            record: None,
            max_calls: None,
            readiness: Readiness::ready(),
        }
    }
}

/// A bound HTTP server, not yet serving.
pub struct HttpServer<S = DeskpilotServer> {
    listener: TcpListener,
    front: Arc<front::Front<S>>,
    clients: Arc<TokenClients>,
    idle: Duration,
    read_timeout: Duration,
    send_timeout: Duration,
}

impl HttpServer {
    /// deskpilot's server, bound to `options.addr`. A non-loopback address without tokens is
    /// refused.
    pub async fn bind(
        engine: Arc<Engine>,
        grants: Grants,
        options: HttpOptions,
    ) -> Result<Self, ServeError> {
        Self::bind_wrapped(engine, grants, options, |server| server).await
    }
}

impl<S: rmcp::ServerHandler + Send + 'static> HttpServer<S> {
    /// deskpilot's server inside another handler (`wrap` makes one per client), bound to
    /// `options.addr`.
    pub async fn bind_wrapped(
        engine: Arc<Engine>,
        grants: Grants,
        options: HttpOptions,
        wrap: impl Fn(DeskpilotServer) -> S + Send + Sync + 'static,
    ) -> Result<Self, ServeError> {
        let auth = auth(&options)?;
        if matches!(auth, Auth::Open) && !options.addr.ip().is_loopback() {
            return Err(ServeError(format!(
                "{} is not a loopback address: serving it needs a token (--token-file or DESKPILOT_TOKEN)",
                options.addr.ip()
            )));
        }
        if !options.addr.ip().is_loopback() && !options.remote_launch {
            let risky: Vec<&str> = [
                (
                    grants.launch,
                    "launch (it runs programs: remote code execution)",
                ),
                (
                    grants.files.is_some(),
                    "files (they land on this machine's disk, which a remote client cannot read)",
                ),
            ]
            .into_iter()
            .filter_map(|(granted, what)| granted.then_some(what))
            .collect();
            if !risky.is_empty() {
                return Err(ServeError(format!(
                    "on a non-loopback address, --allow {} needs --allow-remote-launch",
                    risky.join(" and ")
                )));
            }
        }
        let listener = listen(options.addr)
            .map_err(|e| ServeError(format!("cannot listen on {}: {e}", options.addr)))?;
        let bound = listener
            .local_addr()
            .map_err(|e| ServeError(e.to_string()))?;
        let clients = TokenClients::new(engine.clone(), options.idle);
        let limit = options.max_calls.map(CallLimit::new);
        let setup = Setup {
            packs: options.packs.clone(),
            record: options.record.clone(),
            limit: limit.clone(),
        };
        let template = DeskpilotServer::set_up(engine, grants, setup);
        let factory_clients = clients.clone();
        let mut sessions = SessionConfig::default();
        sessions.keep_alive = Some(options.idle);
        let mut manager = LocalSessionManager::default();
        manager.session_config = sessions;
        // Host and Origin are the gate's to check, once, before the token.
        let config = StreamableHttpServerConfig::default().disable_allowed_hosts();
        let mcp = StreamableHttpService::new(
            move || Ok(wrap(template.for_another_client(&factory_clients))),
            Arc::new(manager),
            config,
        );
        let gate = Gate {
            auth,
            hosts: options.hosts.clone(),
            origins: options.origins.clone(),
            bound,
        };
        let front = front::Front::new(gate, mcp, &options, limit);
        Ok(HttpServer {
            listener,
            front: Arc::new(front),
            clients,
            idle: options.idle,
            read_timeout: options.read_timeout,
            send_timeout: options.send_timeout,
        })
    }

    /// Where it listens.
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// Serves until the listener fails.
    pub async fn serve(self) -> Result<(), ServeError> {
        let clients = self.clients.clone();
        let sweep_every = (self.idle / 4).max(Duration::from_millis(100));
        let sweeper = tokio::spawn(async move {
            loop {
                tokio::time::sleep(sweep_every).await;
                clients.sweep();
            }
        });
        let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let result = loop {
            let (stream, _) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) if is_transient(&e) => continue,
                Err(e) => break Err(ServeError(format!("accepting a connection: {e}"))),
            };
            // Full: the connection is closed at once rather than left waiting.
            let Ok(permit) = permits.clone().try_acquire_owned() else {
                drop(stream);
                continue;
            };
            let front = self.front.clone();
            let (read_timeout, send_timeout) = (self.read_timeout, self.send_timeout);
            // A write that stays pending this long (the client reads nothing) ends the connection.
            let mut stream = TimeoutStream::new(stream);
            stream.set_write_timeout(Some(send_timeout));
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request| {
                    let front = front.clone();
                    async move { Ok::<_, std::convert::Infallible>(front.handle(request).await) }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(read_timeout)
                    .serve_connection(TokioIo::new(Box::pin(stream)), service);
                match connection.await {
                    Err(e) if is_stalled(&e) => tracing::info!(
                        "dropped a client that took nothing sent to it for {send_timeout:?}"
                    ),
                    Err(e) => tracing::debug!(error = %e, "HTTP connection ended"),
                    Ok(()) => {}
                }
                drop(permit);
            });
        };
        sweeper.abort();
        result
    }
}

/// How the server's clients prove who they are: OAuth or tokens, never both.
fn auth(options: &HttpOptions) -> Result<Auth, ServeError> {
    match (&options.oauth, &options.tokens) {
        (Some(_), Some(_)) => Err(ServeError(
            "OAuth and bearer tokens were both given: choose one".into(),
        )),
        (Some(oauth), None) => Ok(Auth::OAuth(
            oauth::Verifier::new(oauth).map_err(ServeError)?,
        )),
        (None, Some(tokens)) => Ok(Auth::Tokens(tokens.clone())),
        (None, None) => Ok(Auth::Open),
    }
}

/// A listener on `addr` whose connections have a bounded send buffer (`SEND_BUFFER`).
fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server binds its port at once.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    // An accepted connection inherits its listener's buffer sizes.
    socket.set_send_buffer_size(SEND_BUFFER)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Whether a connection ended because a write to it timed out.
fn is_stalled(error: &hyper::Error) -> bool {
    let io = std::error::Error::source(error).and_then(|e| e.downcast_ref::<std::io::Error>());
    io.is_some_and(|e| e.kind() == std::io::ErrorKind::TimedOut)
}

/// Errors `accept` may return for one connection while the listener stays good.
fn is_transient(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        error.kind(),
        ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    )
}
