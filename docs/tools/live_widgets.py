"""Sphinx extension: the book's live widgets, placed at the chapters' anchors.

For every registered calculator (`impulse formulas --json`, calculator true) whose ID is an anchor
of a chapter (`(E3.4-xpbd-pn)=`), a live form is placed at the end of the anchored section (or
after the anchored paragraph), with the item's C++ function beside it, extracted at build time from
the source by its @formula tag (formula_sources.py). Every exercise (`impulse exercises list
--json`) gets an answer checker at its anchor, or at the end of its chapter's exercise page when it
has none. The widgets are empty boxes filled in the page by docs/static/live.js through the one
JavaScript API (docs/static/impulse.js) over the browser module; nothing of an answer key or a
worked solution is written into the page (the checker asks the module, which releases them).

Reads IMPULSE_BIN (the impulse command, for the lists). Without it the book builds without widgets.
"""
import html
import json
import os
import pathlib
import subprocess
import sys

from docutils import nodes
from sphinx.errors import ExtensionError

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from formula_sources import formula_sources  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The scenes run in the chapters: page -> (scene, x column, y columns, 3D view: "bodies" (the shapes
# the scene's session reports), "slide:COLUMNS" (boxes at x = those columns) or "").
SCENES = {
    "chapters/e3/10-whole-chain": [("e3-box-drop", "t_s", "support_N,mg_N", "bodies")],
    "chapters/e3/06-xpbd-step": [("e3-pyramid", "t_s", "ground_over_mg,top_over_mg", "bodies"),
                                 ("e3-bounce", "t_s", "z_m,vz_mps", "bodies")],
    "chapters/e3/05-xpbd-contact": [("e3-platform", "t_s", "left_over_mg,right_over_mg", "bodies")],
    "chapters/e3/07-other-solvers": [("e3-solver-compare", "t_s",
                                      "x_xpbd_m,x_semi_implicit_m,x_featherstone_m,x_padmm_m,x_vbd_m,x_coulomb_m",
                                      "slide:x_xpbd_m,x_semi_implicit_m,x_featherstone_m,x_padmm_m,x_vbd_m")],
    "chapters/st/01-impulses-and-complementarity": [("st-bounce", "t_s", "q_m,v_mps", "bodies")],
    "chapters/st/04-experiments": [("st-rod", "t_s", "y_m,energy_J", "bodies")],
}
# The Lemke pivot stepper on an LCP the reader edits: page -> the LCP it starts with (the 2 x 2 of
# ST_3_lemke_lexicographic.GoldenTwoByTwoPivotPathByHand, in the format of `impulse lcp`).
LCP_WIDGETS = {"chapters/st/02-lemke": "# n, then the rows of M, then q\n2\n2 1\n1 2\n-5 -6\n"}
EXERCISE_PAGES = {"E1": "chapters/e1/11-exercises", "E3": "chapters/e3/12-pitfalls-and-exercises",
                  "ST": "chapters/st/index"}


def load(app):
    app.env.impulse_live = {"calc": {}, "ex": [], "src": {}}
    exe = os.environ.get("IMPULSE_BIN")
    if not exe:
        return
    formulas = json.loads(subprocess.run([exe, "formulas", "--json"], check=True, capture_output=True, text=True).stdout)
    exercises = json.loads(subprocess.run([exe, "exercises", "list", "--json"], check=True, capture_output=True,
                                          text=True).stdout)
    app.env.impulse_live = {
        "calc": {f["id"]: f for f in formulas if f["calculator"]},
        "ex": [e["id"] for e in exercises],
        "src": formula_sources(ROOT / "lib"),
    }


def source_html(item, sources):
    found = sources.get(item["id"], [])
    if not found:
        return (f'<p class="impulse-source">Computed by <code>{html.escape(item["function"])}</code> '
                f'(the registry entry of {html.escape(item["id"])}).</p>')
    parts = []
    for s in found:
        parts.append(f'<details class="impulse-source"><summary>The C++ function: <code>{html.escape(s["file"])}'
                     f':{s["line"]}</code></summary><pre><code>{html.escape(s["code"])}</code></pre></details>')
    return "".join(parts)


def widget_calc(item, sources):
    i = html.escape(item["id"])
    return (f'<div class="impulse-live impulse-calc" data-id="{i}"><p class="impulse-live-wait">'
            f'Live calculator {i}: the engine loads in this page.</p></div>' + source_html(item, sources))


def widget_check(ident, edition):
    i = html.escape(ident)
    return (f'<div class="impulse-live impulse-check" data-id="{i}" data-edition="{edition}">'
            f'<p class="impulse-live-wait">Answer checker for {i}: the engine loads in this page.</p></div>')


def widget_scene(scene, x, y, view):
    return (f'<div class="impulse-live impulse-scene" data-scene="{scene}" data-x="{x}" data-y="{y}"'
            f' data-view="{view}"><p class="impulse-live-wait">Live scene {scene}: the engine loads in this page.'
            '</p></div>')


def insertion_point(doctree, labelid):
    """(parent, index) just after the anchored paragraph, or at the end of the anchored section's
    own text (before its first subsection)."""
    node = doctree.ids.get(labelid)
    if node is None:
        return None
    if isinstance(node, nodes.section):
        idx = len(node.children)
        for k, child in enumerate(node.children):
            if isinstance(child, nodes.section):
                idx = k
                break
        return node, idx
    parent = node.parent
    k = parent.index(node)
    while k + 1 < len(parent.children) and isinstance(parent.children[k + 1], nodes.target):
        k += 1
    return parent, min(len(parent.children), k + 2)


def insert(app, doctree, docname):
    live = getattr(app.env, "impulse_live", None)
    if not live or not live["calc"]:
        return
    labels = app.env.get_domain("std").labels
    edition = "instructor" if app.tags.has("instructor") else "student"
    at = {}  # id(parent) -> (parent, {index: [html]})
    placed_ex = set()

    def add(labelkey, text):
        entry = labels.get(labelkey.lower())
        if not entry or entry[0] != docname:
            return False
        point = insertion_point(doctree, entry[1])
        if point is None:
            return False
        parent, idx = point
        at.setdefault(id(parent), (parent, {}))[1].setdefault(idx, []).append(text)
        return True

    for ident, item in live["calc"].items():
        add(ident, widget_calc(item, live["src"]))
    for ident in live["ex"]:
        if add(ident, widget_check(ident, edition)):
            placed_ex.add(ident)
    for parent, spots in at.values():
        for idx in sorted(spots, reverse=True):
            parent.insert(idx, nodes.raw("", "".join(spots[idx]), format="html"))
    if docname in LCP_WIDGETS:
        sec = next(iter(doctree.findall(nodes.section)), doctree)
        sec.append(nodes.raw("", '<div class="impulse-live impulse-lcp"><textarea class="impulse-lcp-text" rows="6"'
                             f' spellcheck="false">{html.escape(LCP_WIDGETS[docname])}</textarea></div>', format="html"))
    if docname in SCENES:
        sec = next(iter(doctree.findall(nodes.section)), doctree)
        sec.append(nodes.raw("", "".join(widget_scene(*w) for w in SCENES[docname]), format="html"))
    # Exercises without an anchor: at the end of their chapter's exercise page.
    rest = [e for e in live["ex"] if e not in placed_ex and EXERCISE_PAGES.get(e.split(".")[0]) == docname
            and not (labels.get(e.lower()) and labels[e.lower()][0] in app.env.all_docs)]
    if rest:
        sec = next(iter(doctree.findall(nodes.section)), doctree)
        sec.append(nodes.raw("", "".join(widget_check(e, edition) for e in rest), format="html"))


def pages_exist(app, env):
    """Every page named above is a page of the book: a renamed chapter must not silently lose its
    scenes, its Lemke stepper or its exercises' checkers."""
    live = getattr(env, "impulse_live", None)
    if not live or not live["calc"]:
        return
    for page in list(SCENES) + list(LCP_WIDGETS) + list(EXERCISE_PAGES.values()):
        if page not in env.found_docs:
            raise ExtensionError(f"live_widgets.py names page {page}, which the book does not have (renamed?)")


def setup(app):
    app.connect("builder-inited", load)
    app.connect("env-updated", pages_exist)
    app.connect("doctree-resolved", insert)
    app.add_js_file("three.min.js")
    app.add_js_file("OrbitControls.js")
    app.add_js_file("chart.min.js")
    app.add_js_file("impulse.js")
    app.add_js_file("live.js")
    app.add_css_file("live.css")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
