"""Subscribes to a session's tree with the official MCP Python SDK (PyPI `mcp`), in both
protocol eras, while the Rust test changes the app between steps.

Usage: python sdk_subscriptions.py <deskpilot binary> <session bus address> <display> <window title>

Prints a step line when the test should change the app ("legacy-subscribed" -> set the name
field to "Sub 1"; "modern-listening" -> "Sub 2"; "modern-quit" -> quit the app), then one JSON
object with what it saw. Exits non-zero on any failure.
"""

import asyncio
import json
import sys
import time

import anyio
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TIMEOUT = 10


def step(name):
    print(name, flush=True)


async def legacy(params, window, report):
    updated = asyncio.Event()
    seen = []

    async def handler(message):
        if getattr(message, "method", None) == "notifications/resources/updated":
            seen.append(str(message.params.uri))
            updated.set()

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, message_handler=handler) as session:
            init = await session.initialize()
            report["legacy_protocol"] = str(init.protocol_version)
            caps = init.capabilities.resources
            report["legacy_subscribe_capability"] = bool(caps and caps.subscribe)
            connected = await session.call_tool("connect", {"window": window})
            sid = connected.structured_content["session"]
            listed = await session.list_resources()
            uris = [str(r.uri) for r in listed.resources]
            uri = f"deskpilot://session/{sid}/tree"
            report["legacy_listed"] = uri in uris
            first = await session.read_resource(uri)
            report["legacy_first_read_whole"] = "the whole tree" in first.contents[0].text
            await session.subscribe_resource(uri)
            started = time.monotonic()
            step("legacy-subscribed")
            with anyio.fail_after(TIMEOUT):
                await updated.wait()
            report["legacy_notified_ms"] = round((time.monotonic() - started) * 1000)
            report["legacy_notified_uri"] = seen[0] == uri
            changed = await session.read_resource(uri)
            text = changed.contents[0].text
            report["legacy_read_is_diff"] = " since v" in text.splitlines()[0]
            report["legacy_read_has_change"] = '"Sub 1"' in text
            report["legacy_read"] = text
            await session.unsubscribe_resource(uri)


async def modern(params, window, report):
    async with Client(params) as client:
        report["modern_protocol"] = client.protocol_version
        connected = await client.call_tool("connect", {"window": window})
        sid = connected.structured_content["session"]
        uri = f"deskpilot://session/{sid}/tree"
        await client.read_resource(uri)
        events = []
        async with client.listen(resource_subscriptions=[uri]) as sub:
            report["modern_honored"] = list(sub.honored.resource_subscriptions or [])
            step("modern-listening")
            with anyio.fail_after(TIMEOUT):
                async for event in sub:
                    events.append(str(event.uri))
                    break
            changed = await client.read_resource(uri)
            text = changed.contents[0].text
            report["modern_read_has_change"] = '"Sub 2"' in text
            report["modern_read"] = text
            step("modern-quit")
            ended = "open"
            try:
                with anyio.fail_after(TIMEOUT):
                    async for event in sub:
                        events.append(str(event.uri))
                ended = "graceful"
            except TimeoutError:
                ended = "still open"
            except Exception as e:  # SubscriptionLost: dropped without a graceful close
                ended = f"lost: {type(e).__name__}"
            report["modern_ended"] = ended
        report["modern_events"] = len(events)
        report["modern_event_uri"] = bool(events) and events[0] == uri


async def main(binary, bus, display, window):
    params = StdioServerParameters(
        command=binary, args=["mcp", "--bus", bus, "--display", display], env={}
    )
    report = {}
    await legacy(params, window, report)
    await modern(params, window, report)
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
