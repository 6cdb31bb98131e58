"""The pyatspi side of `cargo xtask bench snapshot`.

Walks the window whose title contains argv[1] with pyatspi (Debian's python3-pyatspi, run by
/usr/bin/python3), reading for every node what the other two contenders read: role, name,
states, interfaces, child count, extents (of elements not known to be hidden: like deskpilot,
it does not ask a hidden element where it is; GTK 4 reports no `showing`, so all of its elements
count as maybe shown) and action names. Prints one JSON line:
{"nodes": N, "ms": [t1, ..., tR]} for R timed runs after one warm-up.
"""

import json
import sys
import time

import pyatspi

title, runs = sys.argv[1], int(sys.argv[2])


def find_window():
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is None:
            continue
        for window in app:
            if window is not None and title in (window.name or ""):
                return window
    raise SystemExit(f"no window with {title!r}")


def attempt(read):
    """A read that fails (GTK 4.8 labels claim actions they do not have) counts as done."""
    try:
        return read()
    except Exception:  # noqa: BLE001 - pyatspi raises several kinds
        return None


def reports_showing(window):
    app = window.getApplication()
    return not (app.toolkitName == "GTK" and app.toolkitVersion.startswith("4."))


def walk(node):
    count = 1
    attempt(node.getRole)
    attempt(lambda: node.name)
    states = attempt(node.getState)
    interfaces = attempt(lambda: pyatspi.listInterfaces(node)) or []
    n = attempt(lambda: node.childCount) or 0
    hidden = SHOWS_HIDDEN and states is not None and not states.contains(pyatspi.STATE_SHOWING)
    if "Component" in interfaces and not hidden:
        attempt(lambda: node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS))
    if "Action" in interfaces:
        action = attempt(node.queryAction)
        if action is not None:
            for i in range(attempt(lambda: action.nActions) or 0):
                attempt(lambda: action.getName(i))
    # The same guard as deskpilot: never enumerate a huge or on-demand container.
    managed = attempt(lambda: node.getState().contains(pyatspi.STATE_MANAGES_DESCENDANTS))
    if n > 10000 or (n > 1000 and managed):
        return count
    for i in range(n):
        child = attempt(lambda: node.getChildAtIndex(i))
        if child is not None:
            count += walk(child)
    return count


window = find_window()
SHOWS_HIDDEN = reports_showing(window)
walk(window)
times = []
nodes = 0
for _ in range(runs):
    start = time.perf_counter()
    nodes = walk(window)
    times.append((time.perf_counter() - start) * 1000.0)
print(json.dumps({"nodes": nodes, "ms": times}))
