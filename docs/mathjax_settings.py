# The one MathJax setting of the book and of the lecture decks (docs/conf.py, docs/slides/conf.py).
# Formulas are typeset by the MathJax 2 that Debian ships (libjs-mathjax), copied by ./run into
# _static/mathjax: nothing is fetched from the network. CommonHTML output with the TeX fonts.

MATHJAX_PATH = "mathjax/MathJax.js?config=TeX-AMS_CHTML"


def mathjax2_config(automatic_line_breaks):
    """Sphinx's mathjax2_config: \\( \\) inline and \\[ \\] display math, typeset only inside the
    math and notebook-output classes, no menu and no progress messages; automatic_line_breaks lets
    a long display formula wrap at the column width (the book; a slide has a fixed width)."""
    config = {
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
    if automatic_line_breaks:
        config["CommonHTML"] = {"linebreaks": {"automatic": True}}
    return config
