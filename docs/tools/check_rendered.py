#!/usr/bin/env python3
"""Check the built book the way an offline reader sees it.

Every HTML page of the book is opened in headless Chromium with the network off (its own empty
network namespace when `unshare -n` is allowed, and in any case every host name resolving to
nothing and a dead proxy), MathJax is given virtual time to typeset, and the resulting DOM is
read back. A page fails when

  - text outside <script>, <style>, <pre> and <code> still holds a TeX delimiter: \\( \\) \\[ \\] $$
  - MathJax reported an error (a "Math Processing Error" or an <merror> node), or
  - the page had formulas in its source but none were typeset (MathJax did not load), or
  - the page loads a script or style sheet from the network.

With --edition student, a page also fails when it shows an instructor-only block: the answer
tables of the exercise pages (their header "Computed or shown by"), the self-test answers or the
worked solutions of the exercise sheets.

The pages are laid out at 1280 x 900 px, and a script added to a copy of each page measures the
result, once as shown and once with the print style sheet's rules on a 718 px column (A4 with
10 mm margins). A lecture deck (under slides/) fails when one of its slides is taller or wider than the
1280 x 720 px of a slide. A page of the book also fails when

  - a table is wider than the text column it stands in (it would be clipped or need scrolling),
  - a table cell breaks a word across lines inside a run of letters or digits (a break at a
    hyphen, underscore, dot, slash or between the words of a CamelCase name is fine), or
  - the page holds Chinese text and the book's CJK font ("impulse CJK", shipped in _static/fonts)
    did not load;

and a "slides for this section" link fails when the book was built with its slides/ folder and the
deck it points to is not there.

Usage: check_rendered.py HTML_DIR [--jobs N] [--edition student|instructor]
Exit 0 when every page passes, 1 when one fails, 2 when Chromium is missing.
"""
import argparse
import concurrent.futures
import html
import html.parser
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

DELIMITERS = ("\\(", "\\)", "\\[", "\\]", "$$")
SKIP_TEXT_IN = {"script", "style", "pre", "code", "noscript", "textarea"}


class VisibleText(html.parser.HTMLParser):
    """Collects the text a reader sees, and MathJax's typeset and error markers."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth_skipped = 0
        self.stack = []
        self.text = []
        self.typeset = 0
        self.errors = 0
        self.remote = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "mjx-chtml" in classes or "MathJax_CHTML" in classes:
            self.typeset += 1
        if tag == "merror" or "mjx-merror" in classes:
            self.errors += 1
        if tag == "script" and re.match(r"https?://", a.get("src") or ""):
            self.remote.append(a["src"])
        if tag == "link" and "stylesheet" in (a.get("rel") or "") and re.match(r"https?://", a.get("href") or ""):
            self.remote.append(a["href"])
        if tag in ("br", "img", "meta", "link", "input", "hr", "area", "base", "col", "embed", "source", "wbr"):
            return
        self.stack.append(tag)
        if tag in SKIP_TEXT_IN:
            self.depth_skipped += 1

    def handle_endtag(self, tag):
        if tag not in self.stack:
            return
        while self.stack:
            t = self.stack.pop()
            if t in SKIP_TEXT_IN:
                self.depth_skipped -= 1
            if t == tag:
                break

    def handle_data(self, data):
        if self.depth_skipped == 0:
            self.text.append(data)


def network_off_prefix():
    """`unshare -n` when this user may create a network namespace, else nothing (the flags remain)."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n"]
    return []


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


# Run in the page once it has loaded and MathJax has typeset: measures tables and the CJK font
# and writes what it found into <pre id="impulse-layout"> (one problem a line), for --dump-dom.
LAYOUT_JS = r"""
(function () {
  // the rules of @media print in the book's style sheets, applied as if printing
  var PRINT_CSS = "";
  Array.prototype.forEach.call(document.styleSheets, function (sheet) {
    try {
      Array.prototype.forEach.call(sheet.cssRules, function (r) {
        if (r.media && Array.prototype.indexOf.call(r.media, "print") >= 0)
          Array.prototype.forEach.call(r.cssRules, function (x) { PRINT_CSS += x.cssText + "\n"; });
      });
    } catch (e) {}
  });
  function tableProblems(out, where) {
    var art = document.querySelector("article") || document.body;
    var column = art.clientWidth;
    art.querySelectorAll("table").forEach(function (t, ti) {
      var head = (t.querySelector("th") || t).textContent.trim().replace(/\s+/g, " ").slice(0, 40);
      var w = t.getBoundingClientRect().width;
      if (w > column + 1) out.push(where + "table " + (ti + 1) + " ('" + head + "') is " + Math.round(w) +
                                   " px wide in a " + column + " px column");
      var broken = 0;
      t.querySelectorAll("td, th").forEach(function (c) {
        if (broken) return;
        var walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT), n, m;
        while (!broken && (n = walk.nextNode())) {
          var re = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;
          while ((m = re.exec(n.data)) && !broken) {
            if (m[0].length < 2) continue;
            var r = document.createRange();
            r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
            var tops = {};
            Array.prototype.forEach.call(r.getClientRects(), function (x) { if (x.width > 0) tops[Math.round(x.top)] = 1; });
            if (Object.keys(tops).length > 1) {
              broken = 1;
              out.push(where + "table " + (ti + 1) + " ('" + head + "'): the word '" + m[0] + "' is split across lines in the cell '" +
                       c.textContent.trim().replace(/\s+/g, " ").slice(0, 60) + "'");
            }
          }
        }
      });
    });
  }
  function report(out) {
    var pre = document.createElement("pre");
    pre.id = "impulse-layout";
    pre.textContent = out.join("\n");
    document.body.appendChild(pre);
  }
  function measure() {
    var out = [];
    tableProblems(out, "");
    // printed on A4 (190 mm of text at 96 px/in is 718 px): the print style sheet's column
    var print = document.createElement("style");
    print.textContent = PRINT_CSS + " article { width: 718px !important; max-width: 718px !important; padding: 0 !important; }";
    document.head.appendChild(print);
    tableProblems(out, "printed: ");
    print.remove();
    var cjk = /[\u3400-\u9fff]/.exec(document.body.innerText);
    if (!cjk) return report(out);
    document.fonts.load('16px "impulse CJK"', cjk[0]).then(function (faces) {
      if (!faces.length) out.push("the page has Chinese text but the book's CJK font (_static/fonts/impulse-cjk.woff) did not load");
      report(out);
    }, function () { out.push("the book's CJK font failed to load"); report(out); });
  }
  window.addEventListener("load", function () {
    if (window.MathJax && MathJax.Hub) MathJax.Hub.Queue(measure); else measure();
  });
})();
"""


# The same for a lecture deck (reveal.js, 1280 x 720): a slide whose content is taller or wider
# than the slide is cut off when shown.
DECK_JS = r"""
(function () {
  function measure() {
    var out = [];
    Reveal.getSlides().forEach(function (s, i) {
      var shown = s.style.display;
      s.style.display = "block";
      var h = s.scrollHeight, right = 0, box = s.getBoundingClientRect();
      s.querySelectorAll("*").forEach(function (e) { right = Math.max(right, e.getBoundingClientRect().right - box.left); });
      s.style.display = shown;
      var title = (s.querySelector("h1, h2") || s).textContent.trim().replace(/\s+/g, " ").slice(0, 50);
      if (h > 720) out.push("slide " + (i + 1) + " ('" + title + "') is " + h + " px tall, more than the 720 px of a slide");
      if (right > box.width + 1) out.push("slide " + (i + 1) + " ('" + title + "') reaches " + Math.round(right) +
                                          " px across, wider than the slide's " + Math.round(box.width) + " px");
    });
    var pre = document.createElement("pre");
    pre.id = "impulse-layout";
    pre.textContent = out.join("\n");
    document.body.appendChild(pre);
  }
  window.addEventListener("load", function () {
    function after() { if (window.Reveal && Reveal.isReady && !Reveal.isReady()) Reveal.on("ready", measure); else measure(); }
    if (window.MathJax && MathJax.Hub) MathJax.Hub.Queue(after); else after();
  });
})();
"""


def probe_copy(page, folder, script):
    """A copy of page in folder that loads everything from page's own folder (a <base>) and runs
    script."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"<head>", f'<head><base href="{page.as_uri()}">', text, count=1)
    text = text.replace("</body>", f"<script>{script}</script></body>", 1)
    copy = pathlib.Path(folder) / "probe.html"
    copy.write_text(text, encoding="utf-8")
    return copy


def render(browser, prefix, page, profile):
    cmd = prefix + [
        browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-extensions", "--disable-background-networking", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
        "--window-size=1280,900", "--allow-file-access-from-files",
        f"--user-data-dir={profile}", "--virtual-time-budget=30000", "--dump-dom", page.as_uri(),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if r.returncode != 0 or "<html" not in r.stdout:
        raise RuntimeError(f"chromium failed on {page} (exit {r.returncode}): {r.stderr.strip()[-300:]}")
    return r.stdout


INSTRUCTOR_ONLY = ("Computed or shown by", "Check the impulse, the state and the residuals", "Worked solution.")


def check_page(browser, prefix, root, page, edition):
    source = page.read_text(encoding="utf-8")
    had_math = 'class="math' in source
    deck = "slides" in page.relative_to(root).parts
    with tempfile.TemporaryDirectory(prefix="impulse-chromium-") as profile:
        dom = render(browser, prefix, probe_copy(page, profile, DECK_JS if deck else LAYOUT_JS), profile)
    layout = re.search(r'<pre id="impulse-layout">(.*?)</pre>', dom, re.S)
    v = VisibleText()
    v.feed(dom)
    text = "".join(v.text)
    problems = []
    for d in DELIMITERS:
        i = text.find(d)
        if i >= 0:
            around = text[max(0, i - 40): i + 40].replace("\n", " ")
            problems.append(f"raw {d} left: ...{around}...")
    if "Math Processing Error" in text or v.errors:
        problems.append(f"MathJax reported {max(v.errors, 1)} error(s)")
    if had_math and v.typeset == 0:
        problems.append("the page has formulas but MathJax typeset none (did it load?)")
    if edition == "student":
        flat = re.sub(r"\s+", " ", text)
        for marker in INSTRUCTOR_ONLY:
            if marker in flat:
                problems.append(f"the student edition shows an instructor-only answer ('{marker}')")
    for url in v.remote:
        problems.append(f"loads {url} from the network")
    if layout is None:
        problems.append("the layout check did not report (the page did not finish loading)")
    else:
        problems += [html.unescape(line) for line in layout.group(1).splitlines() if line.strip()]
    if (root / "slides").is_dir():
        for href in re.findall(r'class="slides-link">[^<]*<a href="([^"]+)"', source):
            if not (page.parent / href).resolve().is_file():
                problems.append(f"its slides link {href} leads to no deck")
    return str(page.relative_to(root)), had_math, v.typeset, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("html_dir")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--edition", choices=["student", "instructor"], default="student")
    a = ap.parse_args()
    root = pathlib.Path(a.html_dir).resolve()
    browser = chromium_binary()
    if not browser:
        print("check_rendered: chromium not found (Debian package chromium)", file=sys.stderr)
        return 2
    prefix = network_off_prefix()
    pages = sorted(p for p in root.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts)
    failed = 0
    formulas = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for name, had_math, typeset, problems in pool.map(lambda p: check_page(browser, prefix, root, p, a.edition), pages):
            formulas += typeset
            if problems:
                failed += 1
                for pr in problems[:5]:
                    print(f"check_rendered: {name}: {pr}", file=sys.stderr)
    net = "own network namespace" if prefix else "network blocked by flags"
    print(f"check_rendered: {len(pages)} pages, {formulas} formulas typeset offline ({net}), "
          f"{failed} page(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
