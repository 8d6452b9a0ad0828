"""Sphinx extension: Debian's Furo made to work from a folder (file://, any static server).

Debian's packaging of the theme leaves two things that only a web server with Debian's
/javascript/ alias serves: furo.js is an ES module importing gumshoe-patched.js (a page opened
from file:// may not load modules, and logs a SyntaxError), and furo.css imports
/javascript/normalize.css/normalize.css by absolute path. After the build, furo.js becomes one
classic script (gumshoe's UMD build, which defines window.Gumshoe, then furo.js without its import
line), and normalize.css is copied beside furo.css and imported by relative path.
"""
import pathlib
import re

NORMALIZE = pathlib.Path("/usr/share/javascript/normalize.css/normalize.css")


def patch(app, exception):
    if exception or app.builder.format != "html":
        return
    static = pathlib.Path(app.outdir) / "_static"
    furo_js, gumshoe = static / "scripts" / "furo.js", static / "scripts" / "gumshoe-patched.js"
    if furo_js.exists() and gumshoe.exists():
        text = furo_js.read_text(encoding="utf-8")
        if re.search(r'^import Gumshoe from "\./gumshoe-patched\.js";', text, re.M):
            body = re.sub(r'^import Gumshoe from "\./gumshoe-patched\.js";\n', "", text, flags=re.M)
            furo_js.write_text(gumshoe.read_text(encoding="utf-8") + "\n" + body, encoding="utf-8")
    furo_css = static / "styles" / "furo.css"
    if furo_css.exists() and NORMALIZE.exists():
        css = furo_css.read_text(encoding="utf-8")
        if "/javascript/normalize.css/normalize.css" in css:
            (static / "styles" / "normalize.css").write_text(NORMALIZE.read_text(encoding="utf-8"), encoding="utf-8")
            furo_css.write_text(css.replace("url(/javascript/normalize.css/normalize.css)", "url(normalize.css)"),
                                encoding="utf-8")


def setup(app):
    app.connect("build-finished", patch)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
