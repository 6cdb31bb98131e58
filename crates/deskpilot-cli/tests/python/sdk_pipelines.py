"""Runs pipelines through `deskpilot mcp --allow input` with the official MCP Python SDK (PyPI
`mcp`), on the GTK 3 fixture and two third-party apps, while the Rust test judges every
effect by an oracle that is not deskpilot (the fixture's event file, the file Mousepad
writes, pyatspi reading gnome-calculator).

Usage: python sdk_pipelines.py <deskpilot> <bus> <display> <fixture window> <diary path>

Prints "cancelled" once a run was cancelled and the server has read the cancel (the test
then lets the run's slow step end), then one JSON object with what it saw. Exits non-zero on
any failure.
"""

import json
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CHECK = "checkbox[name*=notif]"
NAME = "textbox[name=Name]"


def content(result):
    return result.structured_content or {}


async def connected(session, app):
    """Waits until `app` is listed with a window (it may still be starting)."""
    deadline = time.monotonic() + 60
    while True:
        apps = content(await session.call_tool("list_apps", {}))["apps"]
        if any(a["name"] == app and a.get("windows") for a in apps):
            return
        assert time.monotonic() < deadline, f"{app} never listed"
        await anyio.sleep(0.25)


async def fixture(session, window, report):
    open_step = {"id": "open", "tool": "connect", "args": {"window": window}}
    sid = "${open.session}"
    # A failure in the middle: the checkbox turned on, then a wait that never holds; the
    # checkbox is put back and read back, and finally still runs.
    failed = await session.call_tool("run_steps", {
        "steps": [
            open_step,
            {"id": "on", "tool": "act",
             "args": {"session": sid, "target": CHECK, "verb": "toggle", "ensure": "on"},
             "capture_before": {"target": CHECK}},
            {"id": "never", "tool": "wait_for",
             "args": {"session": sid, "selector": "dialog[name=Never]", "timeout_ms": 500}},
            {"id": "skipped", "tool": "set_value",
             "args": {"session": sid, "target": NAME, "value": "not reached"}},
        ],
        "finally": [{"id": "look", "tool": "get_focus", "args": {"session": sid}}],
    })
    run = content(failed)
    report["restore"] = {
        "is_error": failed.is_error,
        "code": run.get("code"),
        "failed_step": run.get("failed_step"),
        "statuses": [s["status"] for s in run["steps"]],
        "restore": [run["restores"][0]["status"], run["restores"][0]["verified"]],
        "finally": [s["status"] for s in run["finally"]],
    }
    # An unsafe retry: refused by the validator, and by run_steps before its first step.
    unsafe = {"steps": [open_step, {"id": "press", "tool": "click", "retry": 3,
                                    "args": {"session": sid, "target": "button[name=Count]"}}]}
    checked = content(await session.call_tool("validate_steps", unsafe))
    refused = content(await session.call_tool("run_steps", unsafe))
    report["unsafe_retry"] = {
        "problems": [[p.get("step"), p["problem"]] for p in checked["problems"]],
        "run_code": refused.get("code"),
    }
    # Background mode: a step that sends keys is refused before the first step.
    background = content(await session.call_tool("run_steps", {
        "mode": "background",
        "steps": [open_step,
                  {"id": "on", "tool": "act", "args": {"session": sid, "target": CHECK, "verb": "toggle"}},
                  {"id": "keys", "tool": "press_key", "args": {"session": sid, "key": "Escape"}}],
    }))
    report["background"] = [background.get("code"), "keys" in background.get("message", "")]
    # A cancelled run: cancelled after its first step; the slow step ends (the test sets the
    # label it waits for), the next never runs, finally does.
    progressed = anyio.Event()

    async def on_progress(progress, total, message):
        if progress >= 2:
            progressed.set()

    async def cancellable(scope):
        with scope:
            await session.call_tool("run_steps", {
                "steps": [
                    open_step,
                    {"id": "name", "tool": "set_value", "args": {"session": sid, "target": NAME, "value": "before the cancel"}},
                    {"id": "slow", "tool": "wait_for", "args": {"session": sid, "selector": "label[name=\"Go on\"]", "timeout_ms": 20000}},
                    {"id": "after", "tool": "act", "args": {"session": sid, "target": CHECK, "verb": "toggle"}},
                ],
                "finally": [{"id": "cleanup", "tool": "set_value", "args": {"session": sid, "target": NAME, "value": "cleaned up"}}],
            }, progress_callback=on_progress)

    scope = anyio.CancelScope()
    async with anyio.create_task_group() as group:
        group.start_soon(cancellable, scope)
        with anyio.fail_after(20):
            await progressed.wait()
        scope.cancel()
    # Answered after the cancel: the server has read it (messages are read in order).
    mine = content(await session.call_tool("connect", {"window": window}))["session"]
    print("cancelled", flush=True)
    deadline = time.monotonic() + 20
    while True:
        props = content(await session.call_tool("get_properties", {"session": mine, "target": NAME}))
        if props.get("value") == "cleaned up":
            break
        assert time.monotonic() < deadline, f"finally never ran: {props}"
        await anyio.sleep(0.2)
    report["cancelled"] = True


async def mousepad(session, path, report):
    await connected(session, "mousepad")
    chooser = "filechooser >> textbox[name=\"Name:\"]"
    save = "filechooser >> button[name=Save]"
    sid = "${open.session}"
    first = await session.call_tool("run_steps", {"steps": [
        {"id": "open", "tool": "connect", "args": {"app": "mousepad"}, "output": True},
        {"id": "type", "tool": "type_text", "args": {"session": sid, "text": "Dear diary"}},
        {"id": "chooser", "tool": "wait_for", "args": {"session": sid, "selector": chooser, "timeout_ms": 1500}},
        {"id": "name", "tool": "set_value", "args": {"session": sid, "target": chooser, "value": path}},
        {"id": "ready", "tool": "wait_for", "args": {"session": sid, "selector": save, "state": "enabled", "timeout_ms": 20000}},
        {"id": "save", "tool": "click", "args": {"session": sid, "target": save}},
    ]})
    run = content(first)
    report["mousepad_first"] = [run.get("failed_step"), run.get("code")]
    # The agent opens the chooser itself, then continues the run from its failed step.
    session_id = run["steps"][0]["output"]["session"]
    for target in ["menu[name=File]", "menuitem[name*=\"Save As\"]"]:
        clicked = await session.call_tool("click", {"session": session_id, "target": target})
        assert not clicked.is_error, clicked
    continued = await session.call_tool("continue_run", {"run_id": run["run_id"]})
    run = content(continued)
    report["mousepad_continued"] = [continued.is_error, [s["status"] for s in run["steps"]]]


async def calculator(session, report):
    await connected(session, "gnome-calculator")
    sid = "${open.session}"
    steps = [{"id": "open", "tool": "connect", "args": {"app": "gnome-calculator"}}]
    for n, label in enumerate(["6", "×", "7", "="]):
        steps.append({"id": f"b{n}", "tool": "click",
                      "args": {"session": sid, "target": f"button[name=\"{label}\"]"}})
    result = await session.call_tool("run_steps", {"mode": "background", "steps": steps})
    run = content(result)
    report["calculator"] = [result.is_error, run.get("interaction", []),
                            [s["status"] for s in run["steps"]]]


async def main(binary, bus, display, window, path):
    params = StdioServerParameters(
        command=binary, args=["mcp", "--bus", bus, "--display", display, "--allow", "input"],
        env={},
    )
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await fixture(session, window, report)
            await mousepad(session, path, report)
            await calculator(session, report)
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:6])
