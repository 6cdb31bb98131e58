"""An agent's session on three apps through `deskpilot mcp --allow input,launch --record DIR`
with the official MCP Python SDK (PyPI `mcp`), each element found first and acted on by its
ref, as agents do:

- Mousepad: types into its text box.
- The GTK 3 fixture (started by its script, so that it writes its oracle into the desktop's
  state directory): fills the name, checks a checkbox, clicks a button. Then, in a second
  session on it, types a password into its password field, not saying it is secret.
- GNOME Calculator: 6 × 7 =, the × first tried under a wrong name (a call that failed).

The Rust test judges each with an oracle that is not deskpilot and exports the recordings.

Usage: python sdk_record.py <deskpilot> <record dir> <text> <password> <fixture script>

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


async def call(session, tool, args):
    result = await session.call_tool(tool, args)
    return [result.is_error, content(result).get("effect"), content(result)]


async def ref(session, sid, selector):
    found = content(await session.call_tool("find", {"session": sid, "selector": selector}))
    return found["matches"][0]["ref"]


async def launched(session, argv):
    started = content(await session.call_tool("launch_app", {"argv": argv}))
    opened = content(await session.call_tool("connect", {"pid": started["pid"]}))
    return opened["session"], started["pid"]


async def mousepad(session, report, text):
    sid, _ = await launched(session, ["mousepad"])
    box = await ref(session, sid, "textbox")
    report["typed"] = (await call(session, "type_text", {"session": sid, "target": box,
                                                          "text": text}))[:2]
    listed = await session.list_resources()
    uri = f"deskpilot://session/{sid}/recording"
    report["resource"] = any(str(r.uri) == uri for r in listed.resources)


async def fixture(session, report, script, password):
    sid, pid = await launched(session, ["/usr/bin/python3", script])
    done = []
    name = await ref(session, sid, "textbox[name=Name]")
    done.append(await call(session, "set_value", {"session": sid, "target": name,
                                                   "value": "Ada Lovelace"}))
    check = await ref(session, sid, "checkbox[name=\"Enable notifications\"]")
    done.append(await call(session, "act", {"session": sid, "target": check, "verb": "check"}))
    count = await ref(session, sid, "button[name=Count]")
    done.append(await call(session, "click", {"session": sid, "target": count}))
    report["fixture"] = [d[:2] for d in done]
    # A second session on the same app: its own log.
    other = content(await session.call_tool("connect", {"pid": pid}))["session"]
    typed = await call(session, "type_text", {"session": other, "target": "password",
                                              "text": password})
    report["password"] = typed[:2]


async def calculator(session, report):
    sid, _ = await launched(session, ["gnome-calculator"])
    done = []
    for label in ["6", "*", "×", "7", "="]:
        found = content(await session.call_tool(
            "find", {"session": sid, "selector": f"button[name=\"{label}\"]"}))
        target = found["matches"][0]["ref"] if found.get("matches") else f"button[name=\"{label}\"]"
        done.append((await call(session, "click", {"session": sid, "target": target}))[:2])
    report["calculator"] = done


async def main(binary, record, text, password, script):
    params = StdioServerParameters(
        command=binary,
        args=["mcp", "--allow", "input,launch", "--record", record],
        env=dict(os.environ),
    )
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await mousepad(session, report, text)
            await fixture(session, report, script, password)
            await calculator(session, report)
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:6])
