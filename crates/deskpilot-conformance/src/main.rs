//! `deskpilot-conformance --http ADDRESS`: deskpilot's MCP server over HTTP without a token
//! (loopback only), with the conformance suite's fixtures beside its tools. It says where it
//! serves on stderr, as `deskpilot mcp --http` does.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, bail};
use deskpilot_conformance::Fixtures;
use deskpilot_desktop::Reach;
use deskpilot_mcp::Grants;
use deskpilot_mcp::http::{HttpOptions, HttpServer};

#[tokio::main]
async fn main() -> anyhow::Result<ExitCode> {
    let mut args = std::env::args().skip(1);
    let (Some(flag), Some(addr), None) = (args.next(), args.next(), args.next()) else {
        bail!("usage: deskpilot-conformance --http ADDRESS");
    };
    if flag != "--http" {
        bail!("usage: deskpilot-conformance --http ADDRESS");
    }
    let addr: SocketAddr = addr.parse().context("the address")?;
    let engine = match deskpilot_desktop::this_desktop(Reach::default()).await {
        Ok(engine) => engine,
        Err(missing) => missing.engine(),
    };
    let options = HttpOptions::new(addr, None, "conformance fixtures".to_owned());
    let server = HttpServer::bind_wrapped(
        Arc::new(engine),
        Grants::read_only(),
        options,
        Fixtures::new,
    )
    .await?;
    eprintln!(
        "deskpilot: serving MCP at http://{}/mcp",
        server.local_addr()
    );
    server.serve().await?;
    Ok(ExitCode::SUCCESS)
}
