// Drives `deskpilot mcp --http` with the official TypeScript SDK's client over streamable
// HTTP, as a remote agent would, with a bearer token. Prints one JSON line of what it saw.
// Usage:
//   node http_client.mjs v1|v2 legacy|modern URL TOKEN task WINDOW
//     connect to WINDOW, snapshot, click its "Count" button, list resources
//   node http_client.mjs v1|v2 legacy|modern URL TOKEN steal SESSION
//     click "Count" in a session some other client opened
// v1 is @modelcontextprotocol/sdk (2025-11-25 only), v2 @modelcontextprotocol/client;
// modern pins the 2026-07-28 era (stateless requests), legacy the 2025-11-25 handshake.
const [sdk, era, url, token, job, what] = process.argv.slice(2);
const paths =
  sdk === "v1"
    ? {
        client: "@modelcontextprotocol/sdk/client/index.js",
        http: "@modelcontextprotocol/sdk/client/streamableHttp.js",
      }
    : { client: "@modelcontextprotocol/client", http: "@modelcontextprotocol/client" };
const { Client } = await import(paths.client);
const { StreamableHTTPClientTransport } = await import(paths.http);
const options = era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {};
const client = new Client({ name: "deskpilot-http-test", version: "1.0.0" }, options);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);
const report = {
  protocol: transport.protocolVersion ?? null,
  mcp_session: transport.sessionId ?? null,
};
if (job === "task") {
  const tools = await client.listTools();
  report.tools = tools.tools.length;
  const connected = await client.callTool({ name: "connect", arguments: { window: what } });
  const session = connected.structuredContent.session;
  report.session = session;
  const snap = await client.callTool({ name: "snapshot", arguments: { session } });
  const line = snap.structuredContent.tree.split("\n").find((l) => l.includes('button "Count"'));
  const ref = /\[ref=(e\d+)\]/.exec(line)[1];
  const clicked = await client.callTool({ name: "click", arguments: { session, target: ref } });
  report.clicked = !clicked.isError;
  const resources = await client.listResources();
  report.resources = resources.resources.map((r) => r.uri);
} else {
  const stolen = await client.callTool({
    name: "click",
    arguments: { session: what, target: "button[name=Count]" },
  });
  report.code = stolen.structuredContent?.code ?? null;
  const resources = await client.listResources();
  report.resources = resources.resources.map((r) => r.uri);
}
console.log(JSON.stringify(report));
await client.close();
