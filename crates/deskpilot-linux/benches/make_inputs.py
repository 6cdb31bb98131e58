"""Generates the benchmark's documents: a multi-page Writer document (flat ODT) and a local
HTML page. Run by /usr/bin/python3 make_inputs.py <dir>; nothing generated is committed."""

import os
import sys

out = sys.argv[1]
lorem = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
         "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud "
         "exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.")

paras = []
for i in range(1, 201):
    if i % 25 == 1:
        paras.append(f'<text:h text:outline-level="1">Chapter {i // 25 + 1}</text:h>')
    paras.append(f"<text:p>Paragraph {i}. {lorem}</text:p>")
with open(os.path.join(out, "bench.fodt"), "w") as f:
    f.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" '
        'office:mimetype="application/vnd.oasis.opendocument.text">'
        f"<office:body><office:text>{''.join(paras)}</office:text></office:body></office:document>"
    )

rows = "".join(f"<tr><td>Item {i}</td><td>{i * 3}</td><td><a href='#r{i}'>details</a></td></tr>"
               for i in range(1, 61))
text = "".join(f"<h2>Section {i}</h2><p>{lorem} <a href='#s{i}'>more</a></p>" for i in range(1, 21))
with open(os.path.join(out, "bench.html"), "w") as f:
    f.write(
        "<!doctype html><html><head><title>deskpilot bench page</title></head><body>"
        "<h1>Order form</h1><form>"
        "<label>Name <input name='n'></label> <label>Password <input type='password'></label>"
        "<label><input type='checkbox'> Subscribe</label>"
        "<label>Color <select><option>Red</option><option>Green</option></select></label>"
        "<button type='button'>Submit</button></form>"
        f"<table><tr><th>Item</th><th>Quantity</th><th>Link</th></tr>{rows}</table>{text}"
        "</body></html>"
    )
