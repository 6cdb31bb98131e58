// Connects to `deskpilot mcp` as a host built on the official TypeScript SDK does unless told
// otherwise: its stdio transport's default environment (HOME, LOGNAME, PATH, SHELL, TERM,
// USER only). Prints the list_apps result as one JSON line.
// Usage: node default_spawn.mjs v1|v2 SERVER [ARGS...]
const [era, command, ...args] = process.argv.slice(2);
const sdk =
  era === "v1"
    ? {
        client: "@modelcontextprotocol/sdk/client/index.js",
        stdio: "@modelcontextprotocol/sdk/client/stdio.js",
      }
    : {
        client: "@modelcontextprotocol/client",
        stdio: "@modelcontextprotocol/client/stdio",
      };
const { Client } = await import(sdk.client);
const { StdioClientTransport } = await import(sdk.stdio);
const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
const client = new Client({ name: "deskpilot-default-spawn", version: "1.0.0" });
await client.connect(transport);
const listed = await client.callTool({ name: "list_apps", arguments: {} });
console.log(JSON.stringify(listed));
await client.close();
