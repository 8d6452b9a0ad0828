# Sphinx configuration of the lecture decks (sphinx-revealjs, builder "revealjs").
# ./run book --slides stages build/book/slides-src: one folder per chapter (a link to
# chapters/<chapter>/slides/), figures/ (the book's figures at 16:9, docs/tools/slides.py) and an
# index written by docs/tools/slide_index.py; the decks land in the book's slides/ folder.
import os

project = "impulse: lecture slides"
author = "the impulse developers"
copyright = "2026, the impulse developers"
extensions = ["myst_parser", "sphinx_revealjs", "sphinx.ext.mathjax"]
source_suffix = {".md": "markdown"}
root_doc = "index"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 2

revealjs_style_theme = "white"
# MathJax 2 and the CJK font subset staged by ./run (IMPULSE_MATHJAX_STATIC), and the decks' CSS.
revealjs_static_path = ["static", os.environ.get("IMPULSE_MATHJAX_STATIC", "../../build/book/mathjax-static")]
revealjs_css_files = ["slides.css"]
revealjs_script_conf = "{hash: true, slideNumber: 'c/t', center: false, width: 1280, height: 720, margin: 0.04}"
revealjs_script_plugins = [
    {"name": "RevealNotes", "src": "revealjs4/plugin/notes/notes.js"},
    {"name": "RevealHighlight", "src": "revealjs4/plugin/highlight/highlight.js"},
]

mathjax_path = "mathjax/MathJax.js?config=TeX-AMS_CHTML"
myst_update_mathjax = False
mathjax2_config = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": True,
        "processEnvironments": True,
        "ignoreClass": "document",
        "processClass": "math|output_area",
    },
    "showMathMenu": False,
    "messageStyle": "none",
}
