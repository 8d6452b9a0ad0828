# Sphinx configuration of the impulse book (MyST Markdown + Breathe over Doxygen XML).
# Built by `./run book`, which stages chapters/ and docs/guide/ with the generated pages into
# build/book/src and runs Sphinx with warnings as errors.
import os

project = "impulse"
author = "the impulse developers"
copyright = "2026, the impulse developers"
extensions = ["myst_parser", "breathe", "sphinx.ext.mathjax"]
source_suffix = {".md": "markdown"}
root_doc = "index"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
breathe_projects = {"impulse": os.environ.get("IMPULSE_DOXYGEN_XML", "../build/book/doxygen/xml")}
breathe_default_project = "impulse"
html_theme = "alabaster"
html_theme_options = {"page_width": "1100px", "sidebar_width": "260px"}
html_title = "impulse: the Newton course, made to run"
exclude_patterns = ["**/README.md"]
# MathJax is loaded from the page; the book reads fine without it (formulas stay as TeX).
mathjax_path = "https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js"
