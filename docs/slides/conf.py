# Sphinx configuration of the lecture decks (sphinx-revealjs, builder "revealjs").
# ./run book --slides stages build/book/slides-src: one folder per chapter (a link to
# chapters/<chapter>/slides/), figures/ (the book's figures at 16:9, docs/tools/slides.py) and an
# index written by docs/tools/slide_index.py; the decks land in the book's slides/ folder.
import os
import sys

# The MathJax setting shared with the book (docs/mathjax_settings.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from mathjax_settings import MATHJAX_PATH, mathjax2_config  # noqa: E402

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

mathjax_path = MATHJAX_PATH
myst_update_mathjax = False
mathjax2_config = mathjax2_config(automatic_line_breaks=False)
