"""Runs the shipped app packs' workflows through `deskpilot mcp --allow input,launch` with the
official MCP Python SDK (PyPI `mcp`), while the Rust test judges every effect by an oracle
that is not deskpilot (the file Mousepad writes, pyatspi, the GTK 3 fixture's event file).

Usage: python sdk_packs.py <deskpilot> <diary path> <user pack root> <minutes path>

The server gets this process's environment (the test's headless desktop, a clean home), so
the apps it starts are the desktop's. Prints one JSON object with what it saw; exits
non-zero on any failure.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.client.stdio import stdio_client


def content(result):
    return result.structured_content or {}


def statuses(run):
    return [s["status"] for s in run.get("steps", [])]


async def run(client, pack, workflow, **fields):
    args = {"pack": pack, "workflow": workflow}
    args.update(fields)
    result = await client.call_tool("run_workflow", args)
    return result, content(result)


async def prompts(session, report):
    listed = await session.list_prompts()
    report["prompts"] = sorted(p.name for p in listed.prompts)
    save_as = next(p for p in listed.prompts if p.name == "mousepad.save_as")
    report["save_as_arguments"] = [[a.name, a.required] for a in save_as.arguments]
    got = await session.get_prompt("mousepad.save_as", {"path": "/tmp/x.txt"})
    report["prompt_text"] = got.messages[0].content.text
    try:
        await session.get_prompt("mousepad.save_as", {"path": "relative.txt"})
        report["prompt_refused"] = None
    except MCPError as e:
        report["prompt_refused"] = str(e)


async def mousepad(session, diary, report):
    # Not running: the server starts it (launch), waits for its window, opens a session.
    written, run_out = await run(session, "mousepad", "write", inputs={"text": "Dear diary"})
    report["write"] = [written.is_error, run_out.get("opened"), statuses(run_out)]
    sid = run_out["session"]
    refused, out = await run(session, "mousepad", "save_as", session=sid,
                             inputs={"path": "diary.txt"})
    report["save_as_refused"] = [refused.is_error, out.get("code"), out.get("message")]
    saved, out = await run(session, "mousepad", "save_as", session=sid, inputs={"path": diary})
    report["save_as"] = [saved.is_error, statuses(out)]
    new, out = await run(session, "mousepad", "new_document", session=sid)
    report["new_document"] = [new.is_error, statuses(out)]
    # A control of another app's pack is refused in Mousepad's session.
    wrong = await session.call_tool("click", {"session": sid, "target": "@gtk3-fixture/counter"})
    report["mismatch"] = [wrong.is_error, content(wrong).get("code")]


async def calculator(session, report):
    computed, out = await run(session, "gnome-calculator", "compute",
                              inputs={"expression": "6*7"})
    result = out["steps"][2].get("output", {}) if not computed.is_error else {}
    report["compute"] = [computed.is_error, out.get("opened"), statuses(out), result.get("value")]
    cleared, out = await run(session, "gnome-calculator", "clear", session=out["session"])
    report["clear"] = [cleared.is_error, statuses(out)]


async def writer(session, minutes, report):
    # Not running: the server starts LibreOffice Writer from its profile.
    typed, out = await run(session, "libreoffice-writer", "type_paragraph",
                           inputs={"text": "Minutes of the meeting."})
    report["type_paragraph"] = [typed.is_error, out.get("opened"), statuses(out)]
    sid = out["session"]
    refused, out = await run(session, "libreoffice-writer", "save_as", session=sid,
                             inputs={"path": minutes, "format": "PDF"})
    report["writer_refused"] = [refused.is_error, out.get("code")]
    saved, out = await run(session, "libreoffice-writer", "save_as", session=sid,
                           inputs={"path": minutes, "format": "Word 2007–365 (.docx)"})
    report["writer_save_as"] = [saved.is_error, statuses(out)]


async def fixture(session, report):
    filled, out = await run(session, "gtk3-fixture", "fill_form",
                            inputs={"name": "Ada", "notify": "on"})
    report["fill_form"] = [filled.is_error, out.get("opened"), statuses(out)]
    sid = out["session"]
    # No dialog is open: the run fails at its step; the agent opens the dialog (through a
    # user pack whose first selector has drifted) and continues the run.
    failed, out = await run(session, "gtk3-fixture", "apply_changes", session=sid)
    report["apply_failed"] = [failed.is_error, out.get("code"), out.get("failed_step")]
    opened = await session.call_tool("click", {"session": sid,
                                               "target": "@fixture-drifted/open_dialog"})
    used = content(opened).get("controls", [{}])[0]
    report["drifted"] = [opened.is_error, used.get("candidate"), used.get("found"),
                         "drifted" in opened.content[0].text]
    continued = await session.call_tool("continue_run", {"run_id": out["run_id"]})
    report["continued"] = [continued.is_error, statuses(content(continued))]


async def main(binary, diary, user_packs, minutes):
    params = StdioServerParameters(
        command=binary,
        args=["mcp", "--allow", "input,launch", "--packs", user_packs],
        env=dict(os.environ),
    )
    report = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await prompts(session, report)
            await fixture(session, report)
            await mousepad(session, diary, report)
            await calculator(session, report)
            await writer(session, minutes, report)
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:5])
