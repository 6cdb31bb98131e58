"""Drives `deskpilot mcp` with the official MCP Python SDK (PyPI `mcp`), as a real host would.

Usage: python sdk_client.py <deskpilot binary> <session bus address> <display> <window title>
Prints one JSON object with what it saw; exits non-zero on any failure.
"""

import asyncio
import json
import sys

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(binary, bus, display, window):
    params = StdioServerParameters(
        command=binary, args=["mcp", "--bus", bus, "--display", display], env={}
    )
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            report["protocol"] = str(init.protocol_version)
            report["server"] = init.server_info.name
            tools = await session.list_tools()
            report["tools"] = sorted(t.name for t in tools.tools)
            report["output_schemas"] = all(
                (t.output_schema or {}).get("type") == "object" for t in tools.tools
            )
            connected = await session.call_tool("connect", {"window": window})
            assert not connected.is_error, connected
            sid = connected.structured_content["session"]
            snap = await session.call_tool("snapshot", {"session": sid})
            assert not snap.is_error, snap
            report["tree_has_count"] = 'button "Count"' in snap.structured_content["tree"]
            report["text_block_has_tree"] = snap.content[0].text.startswith(
                snap.structured_content["tree"]
            )
            bad = await session.call_tool("find", {"session": sid, "selectr": "button"})
            report["misspelled"] = [bad.is_error, bad.structured_content.get("code")]
    # The SDK's high-level client probes `server/discover` and speaks 2026-07-28 when it can.
    async with Client(params) as client:
        report["modern_protocol"] = client.protocol_version
        connected = await client.call_tool("connect", {"window": window})
        sid = connected.structured_content["session"]
        snap = await client.call_tool("snapshot", {"session": sid})
        report["modern_tree_has_count"] = 'button "Count"' in snap.structured_content["tree"]
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
