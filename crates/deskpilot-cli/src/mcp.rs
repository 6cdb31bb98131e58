//! `deskpilot mcp`: the MCP server on stdio (the default) or over HTTP (`--http`), with the
//! capabilities it is given. `deskpilot serve` binds its HTTP server here too.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail};
use deskpilot_core::Engine;
use deskpilot_mcp::Grants;
use deskpilot_mcp::http::{HttpOptions, HttpServer, OAuthOptions, Readiness, Tokens, token_dir};

#[derive(clap::Args)]
pub struct McpArgs {
    /// What the server may do beyond reading, comma separated: input (act on apps), launch
    /// (start programs), files (write screenshots, under --files-dir), all.
    #[arg(long, value_name = "CAPABILITIES", value_delimiter = ',')]
    allow: Vec<String>,
    /// The directory `--allow files` writes in (and nowhere else).
    #[arg(long, value_name = "DIR")]
    files_dir: Option<PathBuf>,
    /// The old spelling of `--allow input,launch,files`, with files written anywhere.
    #[arg(long, conflicts_with_all = ["allow", "files_dir"])]
    allow_input: bool,
    /// Sessions may be opened on these apps only (their names as list_apps shows them).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    apps: Vec<String>,
    /// A directory of app packs, one per subdirectory (repeatable; before DESKPILOT_PACKS
    /// and the user's config directory's deskpilot/packs).
    #[arg(long = "packs", value_name = "DIR")]
    packs: Vec<PathBuf>,
    /// Record each session's calls in DIR, one JSON-lines log per session, for `deskpilot
    /// export` (docs/recording.md). DIR is made 0700; secret text is never written.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    #[command(flatten)]
    http: HttpArgs,
}

/// Serving over HTTP instead of stdio.
#[derive(clap::Args)]
struct HttpArgs {
    /// Serve MCP over streamable HTTP at this address (at /mcp; /healthz answers without a
    /// token): a port alone is on loopback (8931), else ADDR:PORT (0.0.0.0:8931). Without
    /// it, stdio.
    #[arg(long, value_name = "[ADDR:]PORT", value_parser = listen_address)]
    http: Option<SocketAddr>,
    /// A file of bearer tokens, one per line (one per agent); requests to /mcp must carry one.
    /// Also DESKPILOT_TOKEN (one token). On loopback without either, one is made.
    #[arg(long, value_name = "FILE", requires = "http")]
    token_file: Option<PathBuf>,
    /// Ask no token (loopback only): for clients that cannot send one.
    #[arg(long, requires = "http", conflicts_with = "token_file")]
    no_token: bool,
    #[command(flatten)]
    oauth: OAuthArgs,
    /// A host name clients reach the server by (IP addresses and localhost always pass).
    #[arg(long, value_name = "NAME", requires = "http")]
    allow_host: Vec<String>,
    /// A browser origin allowed to call the server (scheme://host[:port]); it gets CORS.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    allow_origin: Vec<String>,
    /// On a non-loopback address, let --allow grant launch and files.
    #[arg(long, requires = "http")]
    allow_remote_launch: bool,
    /// Seconds a client may stay idle before its MCP session ends and its sessions close.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 1800,
        requires = "http"
    )]
    idle_timeout: u64,
    /// Seconds a client may take nothing of what is sent to it (an event stream it does not
    /// read) before its connection is dropped.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    send_timeout: u64,
    /// At most N tool calls in flight across all clients: one more is refused at once with
    /// a retryable `busy`, and /readyz answers 503 (Retry-After) while it is full.
    #[arg(long, value_name = "N", requires = "http", value_parser = clap::value_parser!(u16).range(1..))]
    max_calls: Option<u16>,
}

/// OAuth 2.1 access tokens instead of bearer token files (docs/http.md).
#[derive(clap::Args)]
struct OAuthArgs {
    /// Take OAuth access tokens (JWTs) issued by this authorization server (an https URL):
    /// its keys come from its metadata's jwks_uri, and /.well-known/oauth-protected-resource
    /// names it to clients.
    #[arg(long, value_name = "URL", requires_all = ["http", "oauth_audience"], conflicts_with_all = ["token_file", "no_token"])]
    oauth_issuer: Option<String>,
    /// The audience (`aud`) a token must be for: this server's URL, as clients reach it
    /// (https://HOST/mcp).
    #[arg(long, value_name = "AUD", requires = "oauth_issuer")]
    oauth_audience: Option<String>,
    /// Read the issuer's keys from this JWKS file instead of fetching them (an air-gapped
    /// cluster); it is read again when a token names a key not in it.
    #[arg(long, value_name = "FILE", requires = "oauth_issuer")]
    oauth_jwks: Option<PathBuf>,
    /// The server's URL the metadata names, when the audience is not it.
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    oauth_resource: Option<String>,
    /// A PEM file of certificate authorities trusted to reach the issuer, beside the system's.
    #[arg(long, value_name = "FILE", requires = "oauth_issuer")]
    oauth_ca: Option<PathBuf>,
}

impl OAuthArgs {
    fn options(&self) -> Option<OAuthOptions> {
        let (issuer, audience) = (self.oauth_issuer.clone()?, self.oauth_audience.clone()?);
        let mut options = OAuthOptions::new(issuer, audience);
        options.jwks_file = self.oauth_jwks.clone();
        options.resource = self.oauth_resource.clone();
        options.ca_file = self.oauth_ca.clone();
        Some(options)
    }
}

pub async fn run(engine: Engine, args: McpArgs) -> anyhow::Result<ExitCode> {
    let engine = Arc::new(engine);
    if args.http.http.is_none() {
        let (grants, packs) = (args.grants()?, args.sources());
        deskpilot_mcp::serve_stdio(engine, grants, packs, args.record).await?;
        return Ok(ExitCode::SUCCESS);
    }
    let server = bind_http(engine, args, Readiness::ready()).await?;
    server.serve().await?;
    Ok(ExitCode::SUCCESS)
}

impl McpArgs {
    /// Whether it asks for HTTP (`--http`).
    pub fn over_http(&self) -> bool {
        self.http.http.is_some()
    }

    fn grants(&self) -> anyhow::Result<Grants> {
        let grants = if self.allow_input {
            Grants::legacy_allow_input()
        } else {
            Grants::parse(&self.allow, self.files_dir.as_deref()).map_err(|e| anyhow!(e))?
        };
        Ok(grants.only_apps(self.apps.clone()))
    }

    fn sources(&self) -> deskpilot_mcp::packs::set::Sources {
        deskpilot_mcp::packs::set::Sources::for_server(self.packs.clone())
    }
}

/// The HTTP server `args` asks for (`--http` given) on `engine`, bound and announced on
/// stderr; `/readyz` says `readiness`.
pub async fn bind_http(
    engine: Arc<Engine>,
    args: McpArgs,
    readiness: Readiness,
) -> anyhow::Result<HttpServer> {
    let (grants, packs) = (args.grants()?, args.sources());
    let http = args.http;
    let addr = http.http.ok_or_else(|| anyhow!("no --http address"))?;
    let oauth = http.oauth.options();
    let tokens = match oauth {
        Some(_) if std::env::var_os("DESKPILOT_TOKEN").is_some() => {
            bail!("DESKPILOT_TOKEN is set and OAuth was asked for: choose one")
        }
        Some(_) => None,
        None => tokens(&http, addr)?,
    };
    let desktop = engine
        .wiring()
        .name
        .as_deref()
        .unwrap_or("unnamed")
        .to_owned();
    let mut options = HttpOptions::new(addr, tokens, desktop);
    options.oauth = oauth;
    options.hosts = http.allow_host;
    options.origins = http.allow_origin;
    options.remote_launch = http.allow_remote_launch;
    options.idle = Duration::from_secs(http.idle_timeout);
    options.send_timeout = Duration::from_secs(http.send_timeout);
    options.packs = packs;
    options.record = args.record;
    options.max_calls = http.max_calls.map(usize::from);
    options.readiness = readiness;
    let server = HttpServer::bind(engine, grants, options).await?;
    eprintln!(
        "deskpilot: serving MCP at http://{}/mcp",
        server.local_addr()
    );
    Ok(server)
}

/// The tokens asked for: the file's, else DESKPILOT_TOKEN's, else none when told so, else
/// (on loopback) a new one in a file only this user may read.
fn tokens(http: &HttpArgs, addr: SocketAddr) -> anyhow::Result<Option<Tokens>> {
    if let Some(file) = &http.token_file {
        return Ok(Some(Tokens::read(file).map_err(|e| anyhow!(e))?));
    }
    if let Some(token) = std::env::var_os("DESKPILOT_TOKEN") {
        let token = token
            .into_string()
            .map_err(|_| anyhow!("DESKPILOT_TOKEN is not UTF-8"))?;
        return Ok(Some(
            Tokens::parse(&token).map_err(|e| anyhow!("DESKPILOT_TOKEN: {e}"))?,
        ));
    }
    if http.no_token {
        if !addr.ip().is_loopback() {
            bail!("--no-token serves loopback only; {} is not", addr.ip());
        }
        return Ok(None);
    }
    if !addr.ip().is_loopback() {
        bail!(
            "{} is not a loopback address: serving it needs --token-file or DESKPILOT_TOKEN",
            addr.ip()
        );
    }
    let (tokens, path) = Tokens::generate(&token_dir()).map_err(|e| anyhow!(e))?;
    eprintln!(
        "deskpilot: no token was given; one is in {} (send it as Authorization: Bearer <token>)",
        path.display()
    );
    Ok(Some(tokens))
}

/// `PORT` (on loopback), `localhost:PORT` or `ADDR:PORT`.
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        return listen_address(port);
    }
    text.parse()
        .map_err(|_| format!("{text:?} is not PORT or ADDR:PORT (e.g. 8931, 0.0.0.0:8931)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_alone_listens_on_loopback() {
        assert_eq!(
            listen_address("8931").unwrap().to_string(),
            "127.0.0.1:8931"
        );
        assert_eq!(
            listen_address("localhost:80").unwrap().to_string(),
            "127.0.0.1:80"
        );
        assert_eq!(
            listen_address("0.0.0.0:8931").unwrap().to_string(),
            "0.0.0.0:8931"
        );
        assert_eq!(listen_address("[::1]:9").unwrap().to_string(), "[::1]:9");
        assert!(listen_address("example.com:80").is_err());
        assert!(listen_address("99999").is_err());
    }
}
