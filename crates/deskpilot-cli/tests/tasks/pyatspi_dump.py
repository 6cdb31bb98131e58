"""A second AT-SPI client, the task suite's oracle where no file or server can judge: prints
one JSON line per node of the app named on the command line (role, name, text, states), read
with pyatspi, independently of deskpilot. Password fields' text is never read."""
import json
import sys

import pyatspi


def text_of(node):
    try:
        text = node.queryText()
    except NotImplementedError:
        return None
    return text.getText(0, text.characterCount)


def walk(node, depth, out):
    if node is None or depth > 40:
        return
    role = node.getRoleName()
    states = [pyatspi.stateToString(s) for s in node.getState().getStates()]
    text = text_of(node)
    out.append({
        "role": role,
        "name": node.name,
        # A password's characters are never read, only how many there are.
        "text": None if role == "password text" else text,
        "chars": None if text is None else len(text),
        "states": states,
    })
    for i in range(min(node.childCount, 500)):
        walk(node.getChildAtIndex(i), depth + 1, out)


desktop = pyatspi.Registry.getDesktop(0)
nodes = []
for app in desktop:
    if app is not None and app.name == sys.argv[1]:
        walk(app, 0, nodes)
for node in nodes:
    print(json.dumps(node))
