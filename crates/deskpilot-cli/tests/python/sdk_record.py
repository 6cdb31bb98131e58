"""An agent's session on Mousepad through `deskpilot mcp --allow input,launch --record DIR`
with the official MCP Python SDK (PyPI `mcp`): the server starts Mousepad, the agent finds
its text box and types into it by the ref it found. Then, in the GTK 3 fixture, it types a
password into its password field, not saying it is secret. The Rust test judges the typing
with pyatspi and the fixture's oracle, and exports the recordings.

Usage: python sdk_record.py <deskpilot> <record dir> <text> <password>

Prints one JSON object with what it saw; exits non-zero on any failure.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def content(result):
    return result.structured_content or {}


async def main(binary, record, text, password):
    params = StdioServerParameters(
        command=binary,
        args=["mcp", "--allow", "input,launch", "--record", record],
        env=dict(os.environ),
    )
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            launched = content(await session.call_tool("launch_app", {"argv": ["mousepad"]}))
            opened = content(await session.call_tool("connect", {"pid": launched["pid"]}))
            sid = opened["session"]
            found = content(await session.call_tool("find", {"session": sid, "selector": "textbox"}))
            box = found["matches"][0]["ref"]
            typed = await session.call_tool("type_text", {"session": sid, "target": box, "text": text})
            report["typed"] = [typed.is_error, content(typed).get("effect")]
            listed = await session.list_resources()
            uri = f"deskpilot://session/{sid}/recording"
            report["resource"] = any(str(r.uri) == uri for r in listed.resources)
            fixture = content(await session.call_tool("connect", {"app": "deskpilot-gtk3-fixture"}))
            typed = await session.call_tool("type_text", {"session": fixture["session"],
                                                          "target": "password", "text": password})
            report["password"] = [typed.is_error, content(typed).get("effect")]
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:5])
