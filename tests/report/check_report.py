#!/usr/bin/env python3
"""Parses a fabperf-report page as HTML5 (html5lib, strict: any parse error fails) and evaluates
a Python expression over it.

  check_report.py PAGE EXPRESSION

Names in EXPRESSION:
  rows(ID)      rows of the table with that id: dicts with "attrs" (the <tr>'s attributes),
                "cells" (texts) and "links" (hrefs in the row)
  ids           every id in the page (HTML and SVG)
  attrs(ID)     the attributes of the element with that id (HTML or SVG), {} when none
  classed(CLS)  the attributes of every element of that class, in page order
  classed_text(CLS)  the text of every element of that class, in page order
  fragments     every href="#..." target in the page, without the '#'
  images        src/href of every <img> and SVG <image>
  external      every src/href that is not a fragment or a data: URI (must stay empty)
  text          the page's text
  svgs          number of <svg> elements
  svg_texts     the text of each <svg>, in page order
  config(LABEL, PROGRAM)  the id of that configuration's section (cN), from the summary table
  badges        every verdict or status element (class "v"), in page order: dicts with "cls" (its
                classes but "v"), "text", "href", "row" (the attributes of the <tr> around it, {}
                outside a table), "table" (the id of the table around it) and "owner" (the id of
                the nearest element around it that has one)
Exit status: 0 the expression is true, 1 it is false or the page is not valid HTML5.
"""

import re
import sys
import types

try:
    import html5lib
except ImportError:
    print("  python3-html5lib is missing (scripts/install-deps.sh installs it)")
    sys.exit(1)

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"


def parse(path):
    with open(path, "rb") as f:
        data = f.read()
    parser = html5lib.HTMLParser(strict=True, tree=html5lib.getTreeBuilder("etree"))
    try:
        return parser.parse(data)
    except html5lib.html5parser.ParseError as e:
        print(f"  {path} is not valid HTML5: {e}")
        sys.exit(1)


def text_of(element):
    return " ".join(" ".join(element.itertext()).split())


def make_names(root):
    for parent in list(root.iter()):  # the page's text, without its style sheet and script
        for child in list(parent):
            if child.tag in (XHTML + "style", XHTML + "script"):
                parent.remove(child)
    tables = {t.get("id"): t for t in root.iter(XHTML + "table")}

    def rows(ident):
        body = tables[ident].find(XHTML + "tbody")
        out = []
        for tr in body.findall(XHTML + "tr"):
            out.append({"attrs": dict(tr.attrib),
                        "cells": [text_of(td) for td in tr.findall(XHTML + "td")],
                        "links": [a.get("href") for a in tr.iter(XHTML + "a")]})
        return out

    def config(label, program):
        return next(r["links"][0][1:] for r in rows("summary-all-launches")
                    if (r["attrs"]["data-config"], r["attrs"]["data-program"]) == (label, program))

    every = list(root.iter())
    parent = {child: p for p in every for child in p}

    def around(element):
        while element in parent:
            element = parent[element]
            yield element

    badges = []
    for e in every:
        classes = (e.get("class") or "").split()
        if "v" not in classes:
            continue
        up = list(around(e))
        tr = next((a for a in up if a.tag == XHTML + "tr"), None)
        tab = next((a for a in up if a.tag == XHTML + "table"), None)
        badges.append({"cls": [c for c in classes if c != "v"], "text": text_of(e), "href": e.get("href"),
                       "row": dict(tr.attrib) if tr is not None else {},
                       "table": tab.get("id") if tab is not None else None,
                       "owner": next((a.get("id") for a in up if a.get("id")), None)})
    refs = [e.get("href") or e.get("src") for e in every if e.get("href") or e.get("src")]
    return {
        "rows": rows,
        "config": config,
        "ids": {e.get("id") for e in every if e.get("id")},
        "attrs": lambda ident: next((dict(e.attrib) for e in every if e.get("id") == ident), {}),
        "classed": lambda cls: [dict(e.attrib) for e in every if cls in (e.get("class") or "").split()],
        "classed_text": lambda cls: [text_of(e) for e in every if cls in (e.get("class") or "").split()],
        "fragments": [r[1:] for r in refs if r.startswith("#")],
        "images": [e.get("src") or e.get("href") for e in every
                   if e.tag in (XHTML + "img", SVG + "image")],
        "external": [r for r in refs if not r.startswith(("#", "data:"))],
        "text": text_of(root),
        "svgs": sum(1 for e in every if e.tag == SVG + "svg"),
        "svg_texts": [text_of(e) for e in every if e.tag == SVG + "svg"],
        "badges": badges,
        "re": re,
    }


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 1
    names = make_names(parse(argv[0]))
    try:
        ok = eval("(" + argv[1] + "\n)", names)  # the tests' own expressions
    except Exception as e:  # a missing table or row is a failed check
        print(f"  {argv[1]}: {type(e).__name__}: {e}")
        return 1
    if isinstance(ok, types.GeneratorType):  # "(X for ...)" is always true: say all() or any()
        print(f"  {argv[1]}: a generator, not a truth value (wrap it in all() or any())")
        return 1
    if not ok:
        print(f"  does not hold: {argv[1]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
