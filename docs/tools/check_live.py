#!/usr/bin/env python3
"""Check the book's live widgets in headless Chromium against the impulse command line.

Every page of the built book that holds a live widget is opened from file:// in headless Chromium
with the network off (as check_rendered.py does), driven over the DevTools protocol on a pipe, and

  - calculators: each form is computed with the course's defaults and with inputs scaled from them,
    and every result must equal `impulse calc ID --NAME VALUE ... --json` for the same inputs
    (relative 1e-12 per number; at least 30 inputs over the three chapters); one input per form is
    also set outside its domain and the page must show the command line's one-line message;
  - checkers: each exercise is answered wrong, malformed and right in the page and by
    `impulse exercises check ID ... --json` with a fresh tries file, and the verdicts (or the error
    line) must be the same data; the right answer is the key the command line reveals
    (--reveal), so this checker holds no key of its own;
  - no page may log a console error or throw;
  - screenshots of a calculator and of a checker after a wrong answer are saved (--screenshots).

Usage: check_live.py HTML_DIR --impulse BIN [--edition student|instructor] [--screenshots DIR]
Exit 0 when everything matches, 1 when something differs, 2 when Chromium is missing.
"""
import argparse
import base64
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from check_rendered import chromium_binary, network_off_prefix  # noqa: E402

REL = 1e-12
MIN_CALC_INPUTS = 30
MIN_EXERCISES = 8
# Scenes: the page's run and the command line's run are the same code compiled twice (emscripten's
# libc and libm against glibc's). The first steps, before contact has amplified a last-bit
# difference of sin/cos/sqrt, must agree to 1e-9; over a whole contact run such differences can grow
# (a contact that opens one step earlier), so the whole run is compared through each column's mean,
# which is insensitive to when a single event happens: to 1e-6 of the column's largest magnitude,
# plus 1e-12 for the columns that are rounding residuals by construction (an LCP's complementarity,
# about 1e-16 in both builds, whose means differ by half their size while every physical column
# of st-rod agrees to 3e-17 of its scale).
SCENE_ROWS = 50
SCENE_REL = 1e-9
SCENE_MEAN_REL = 1e-6
SCENE_MEAN_FLOOR = 1e-12
SHOT_CALCULATOR = "E3.4-xpbd-pn"  # the calculator shown on the page about the live book


class Browser:
    """Headless Chromium driven over --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-separated JSON)."""

    def __init__(self, binary, prefix, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            # moved out of the way first, so that neither lands on the other's slot
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        cmd = prefix + [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-extensions", "--disable-background-networking", "--disable-sync",
                        "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
                        "--window-size=1280,1600", "--allow-file-access-from-files",
                        f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(cmd, preexec_fn=fds, pass_fds=(3, 4),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        os.write(self.to_child, json.dumps(m).encode() + b"\0")
        while True:
            r = self._read()
            if r.get("id") == self.next_id:
                if "error" in r:
                    raise RuntimeError(f"{method}: {r['error']}")
                return r.get("result", {})
            self.events.append(r)

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        self.proc.wait(timeout=30)


class Page:
    def __init__(self, browser, url):
        self.b = browser
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.s = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for d in ("Runtime.enable", "Log.enable", "Page.enable"):
            browser.call(d, session=self.s)
        browser.events.clear()
        browser.call("Page.navigate", {"url": url}, session=self.s)

    def eval(self, expr):
        r = self.b.call("Runtime.evaluate", {"expression": expr, "awaitPromise": True, "returnByValue": True},
                        session=self.s)
        if "exceptionDetails" in r:
            raise RuntimeError(f"page script failed: {r['exceptionDetails'].get('text')} "
                               f"{r['exceptionDetails'].get('exception', {}).get('description', '')}")
        return r["result"].get("value")

    def wait_ready(self, timeout=60):
        t0 = time.time()
        while time.time() - t0 < timeout:
            if self.eval("document.readyState === 'complete' && document.documentElement.dataset.impulseLive") == "ready":
                return time.time() - t0
            time.sleep(0.1)
        raise RuntimeError("the live widgets did not become ready")

    def console_errors(self):
        out = []
        for e in self.b.events:
            if e.get("sessionId") != self.s:
                continue
            p = e.get("params", {})
            if e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif e.get("method") == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
            elif e.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(p["entry"].get("text", "") + " " + p["entry"].get("url", ""))
        return out

    def screenshot(self, selector, path):
        rect = self.eval(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.scrollIntoView();"
                         " const r = e.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; })()")
        x, y, w, h = rect
        shot = self.b.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                      "clip": {"x": x, "y": y, "width": max(w, 1), "height": max(h, 1),
                                                               "scale": 1}}, session=self.s)
        pathlib.Path(path).write_bytes(base64.b64decode(shot["data"]))


def cli_json(impulse, args, env=None):
    r = subprocess.run([impulse] + args, capture_output=True, text=True, env=env)
    if r.returncode == 2:
        return None, r.stderr.strip().removeprefix("impulse: error: ")
    return json.loads(r.stdout), None


def close(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or abs(a - b) <= REL * max(abs(a), abs(b))
    return a == b


def scaled(text, f):
    return ",".join(repr(float(x) * f) if x.strip() else x for x in text.split(","))


def check_calculators(page, impulse, problems, chapters, native_only):
    n = 0
    forms = page.eval("Array.from(document.querySelectorAll('.impulse-calc')).map(b => ({id: b.dataset.id,"
                      " inputs: Array.from(b.querySelectorAll('input[data-input]')).map(i => [i.name, i.value])}))")
    for k, form in enumerate(forms):
        ident = form["id"]
        if not form["inputs"]:
            continue
        variants = [dict(form["inputs"])]
        for f in (0.5, 1.25):
            variants.append({name: scaled(v, f) for name, v in form["inputs"]})
        for inputs in variants:
            got = page.eval(f"(() => {{ const b = document.querySelectorAll('.impulse-calc')[{k}];"
                            f" const v = {json.dumps(inputs)};"
                            " b.querySelectorAll('input[data-input]').forEach(i => i.value = v[i.name]);"
                            " return b.impulseCompute().then(() => ({result: b.dataset.result, error: b.dataset.error})); })()")
            args = ["calc", ident, "--json"]
            for name, v in inputs.items():
                args += [f"--{name}={v}"]
            want, err = cli_json(impulse, args)
            page_result = json.loads(got["result"]) if got["result"] else None
            if err is None and "is not in the browser build" in (got["error"] or ""):
                native_only.add(ident)  # the page said so in one line; the command line runs it
            elif err is not None or got["error"]:
                if err != got["error"]:
                    problems.append(f"{ident} {inputs}: page says '{got['error']}', command line '{err}'")
            elif not (page_result and page_result["inputs"].keys() == want["inputs"].keys() and
                      all(close(page_result["inputs"][q], want["inputs"][q]) for q in want["inputs"]) and
                      page_result["outputs"].keys() == want["outputs"].keys() and
                      all(close(page_result["outputs"][q]["value"], want["outputs"][q]["value"]) and
                          page_result["outputs"][q]["unit"] == want["outputs"][q]["unit"] for q in want["outputs"])):
                problems.append(f"{ident} {inputs}: page {page_result} != command line {want}")
            else:
                n += 1
                chapters.add(ident.split(".")[0])
        if ident in native_only:
            continue
        # one input outside its domain (1e13 is past every input's ceiling of 1e12)
        name = form["inputs"][0][0]
        bad = dict(form["inputs"])
        bad[name] = ",".join(["1e13"] * len(bad[name].split(",")))
        got = page.eval(f"(() => {{ const b = document.querySelectorAll('.impulse-calc')[{k}];"
                        f" const v = {json.dumps(bad)};"
                        " b.querySelectorAll('input[data-input]').forEach(i => i.value = v[i.name]);"
                        " return b.impulseCompute().then(() => b.dataset.error); })()")
        args = ["calc", ident] + [f"--{q}={v}" for q, v in bad.items()]
        _, err = cli_json(impulse, args)
        if err != (got or None):
            problems.append(f"{ident} --{name} 1e13: page says '{got}', command line '{err}'")
    return n


def check_exercises(page, impulse, problems, shots, edition):
    n = 0
    ids = page.eval("Array.from(document.querySelectorAll('.impulse-check')).map(b => b.dataset.id)")
    for k, ident in enumerate(ids):
        shape = json.loads(subprocess.run([impulse, "exercises", "show", ident, "--json"], capture_output=True,
                                          text=True, check=True).stdout)
        zeros = []
        for p in shape["answer"]:
            zeros += [p["options"][0].split(")")[0]] if p["kind"] == "choice" else ["0"] * p["size"]
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, IMPULSE_TRIES_FILE=os.path.join(d, "t.json"))
            revealed, _ = cli_json(impulse, ["exercises", "check", ident, *zeros, "--reveal", "--json"], env)
        right, wrong = [], []
        for p in revealed["parts"]:
            if p["kind"] == "choice":
                right.append(p["answer"])
                labels = [o.split(")")[0] for o in next(q for q in shape["answer"] if q["name"] == p["name"])["options"]]
                wrong.append(next(lb for lb in labels if lb != p["answer"]))
            else:
                right += [repr(x) for x in p["key"]]
                wrong += [repr(x * 1.5 + 1) for x in p["key"]]
        malformed = right[:-1] + ["abc"] if len(right) > 1 else ["1", "2"] + right
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, IMPULSE_TRIES_FILE=os.path.join(d, "t.json"))
            page.eval(f"localStorage.removeItem('impulse.tries')")
            for label, tokens in (("wrong", wrong), ("malformed", malformed), ("right", right)):
                extra = ["--reveal"] if edition == "instructor" else []
                want, err = cli_json(impulse, ["exercises", "check", ident, *tokens, *extra, "--json"], env)
                got = page.eval(f"(() => {{ const b = document.querySelectorAll('.impulse-check')[{k}];"
                                f" b.querySelector('input').value = {json.dumps(' '.join(tokens))};"
                                " return b.impulseCheck().then(() => ({verdict: b.dataset.verdict, error: b.dataset.error})); })()")
                page_v = json.loads(got["verdict"]) if got["verdict"] else None
                if err is not None or got["error"]:
                    if err != got["error"]:
                        problems.append(f"{ident} {label}: page says '{got['error']}', command line '{err}'")
                        continue
                elif page_v != want:
                    problems.append(f"{ident} {label}: page verdict {page_v} != command line {want}")
                    continue
                if label == "right" and not (page_v and page_v["correct"]):
                    problems.append(f"{ident}: the revealed key was not graded correct")
                    continue
                if label == "wrong" and page_v and page_v["correct"]:
                    problems.append(f"{ident}: a wrong answer was graded correct")
                    continue
                if label == "wrong" and shots is not None and not (shots / "checker-wrong.png").exists():
                    page.screenshot(f".impulse-check[data-id='{ident}']", shots / "checker-wrong.png")
        n += 1
    return n


def csv_rows(text):
    lines = [l for l in text.splitlines() if l and not l.startswith("#")]
    cols = lines[0].split(",")
    rows = []
    for l in lines[1:]:
        row = []
        for c in l.split(","):
            try:
                row.append(float(c))
            except ValueError:
                row.append(c)
        rows.append(row)
    return cols, rows


def rel_diff(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return 0.0 if a == b else float("inf")
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def check_scenes(page, impulse, problems, shots, stats):
    """Each scene's tables as the page ran them against `impulse run` with the same options: the
    first SCENE_ROWS rows to relative SCENE_REL, and the mean of every number column over the run to
    relative SCENE_MEAN_REL (reason at the constants)."""
    n = 0
    boxes = page.eval("Array.from(document.querySelectorAll('.impulse-scene')).map(b => ({scene: b.dataset.scene,"
                      " options: Object.fromEntries(Array.from(b.querySelectorAll('[data-option]')).map(i => [i.dataset.option, i.value]))}))")
    for k, box in enumerate(boxes):
        name = box["scene"]
        tables = page.eval(f"(() => {{ const b = document.querySelectorAll('.impulse-scene')[{k}];"
                           " return b.impulseRun().then(() => b.impulseTables || null); })()")
        if not tables:
            why = page.eval(f"document.querySelectorAll('.impulse-scene')[{k}].dataset.error")
            problems.append(f"scene {name}: the page made no tables ({why})")
            continue
        with tempfile.TemporaryDirectory() as d:
            args = [impulse, "run", name, "--out", d]
            for o, v in box["options"].items():
                args += [f"--{o}", v]
            subprocess.run(args, check=True, capture_output=True)
            for f in sorted(os.listdir(d)):
                if not f.endswith(".csv"):
                    continue
                want_cols, want = csv_rows((pathlib.Path(d) / f).read_text())
                if f not in tables:
                    problems.append(f"scene {name}: the page has no table {f}")
                    continue
                got_cols, got = csv_rows(tables[f])
                if got_cols != want_cols or len(got) != len(want):
                    problems.append(f"scene {name} {f}: {len(got)} rows of {got_cols} in the page, "
                                    f"{len(want)} of {want_cols} from impulse run")
                    continue
                first = max((rel_diff(x, y) for r, s in zip(got[:SCENE_ROWS], want[:SCENE_ROWS]) for x, y in zip(r, s)),
                            default=0.0)
                means = 0.0
                for c in range(len(want_cols)):
                    xs = [r[c] for r in want if isinstance(r[c], float)]
                    ys = [r[c] for r in got if isinstance(r[c], float)]
                    if xs and len(xs) == len(ys):
                        scale = max(abs(x) for x in xs + ys) + SCENE_MEAN_FLOOR / SCENE_MEAN_REL
                        means = max(means, abs(sum(xs) / len(xs) - sum(ys) / len(ys)) / scale)
                stats.append((name, f, first, means))
                if first > SCENE_REL:
                    problems.append(f"scene {name} {f}: the first {SCENE_ROWS} rows differ by {first:.3g} (relative; "
                                    f"allowed {SCENE_REL:g})")
                if means > SCENE_MEAN_REL:
                    problems.append(f"scene {name} {f}: a column's mean over the run differs by {means:.3g} of its scale "
                                    f"(allowed {SCENE_MEAN_REL:g} + {SCENE_MEAN_FLOOR:g})")
        rate = page.eval(f"document.querySelectorAll('.impulse-scene')[{k}].dataset.stepsPerSecond || ''")
        if rate:
            print(f"check_live: scene {name} stepped live at {rate} steps/s while drawing")
        if shots is not None:
            page.eval(f"(() => {{ const b = document.querySelectorAll('.impulse-scene')[{k}];"
                      " const s = b.querySelector('input[aria-label=\"recorded step\"]'); s.value = s.max;"
                      " s.dispatchEvent(new Event('input')); })()")
            page.screenshot(f".impulse-scene[data-scene='{name}']", shots / f"scene-{name}.png")
        n += 1
    return n


def check_lcp(page, impulse, problems):
    """The Lemke stepper: its LCP as shown, and a malformed edit, against `impulse lcp FILE --json --trace`."""
    n = 0
    count = page.eval("document.querySelectorAll('.impulse-lcp').length")
    for k in range(count):
        text = page.eval(f"document.querySelectorAll('.impulse-lcp')[{k}].querySelector('textarea').value")
        for label, lcp in (("as shown", text), ("malformed", text.replace("1 2\n", "1 2 3\n", 1))):
            got = page.eval(f"(() => {{ const b = document.querySelectorAll('.impulse-lcp')[{k}];"
                            f" b.querySelector('textarea').value = {json.dumps(lcp)};"
                            " return b.impulseSolve().then(() => ({result: b.dataset.result, error: b.dataset.error})); })()")
            with tempfile.TemporaryDirectory() as d:  # a file named lcp: the page names its text so
                (pathlib.Path(d) / "lcp").write_text(lcp)
                r = subprocess.run([impulse, "lcp", "lcp", "--json", "--trace"], capture_output=True, text=True, cwd=d)
            if r.returncode == 2:
                want, err = None, r.stderr.strip().removeprefix("impulse: error: ")
            else:
                want, err = json.loads(r.stdout), None
            page_v = json.loads(got["result"]) if got["result"] else None
            if (err or got["error"]) and err != got["error"]:
                problems.append(f"Lemke stepper {label}: page says '{got['error']}', command line '{err}'")
            elif not err and page_v != want:
                problems.append(f"Lemke stepper {label}: page {page_v} != command line {want}")
            else:
                n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("html_dir")
    ap.add_argument("--impulse", required=True)
    ap.add_argument("--edition", choices=["student", "instructor"], default="student")
    ap.add_argument("--screenshots")
    a = ap.parse_args()
    root = pathlib.Path(a.html_dir).resolve()
    a.impulse = str(pathlib.Path(a.impulse).resolve())
    binary = chromium_binary()
    if not binary:
        print("check_live: chromium not found (Debian package chromium)", file=sys.stderr)
        return 2
    shots = pathlib.Path(a.screenshots) if a.screenshots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    pages = sorted(p for p in root.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts
                   and 'class="impulse-live' in p.read_text(encoding="utf-8"))
    problems, calc_inputs, exercises, chapters, ready, native_only = [], 0, 0, set(), [], set()
    scenes, scene_stats, lcps = 0, [], 0
    with tempfile.TemporaryDirectory(prefix="impulse-live-") as profile:
        b = Browser(binary, network_off_prefix(), profile)
        try:
            for p in pages:
                name = str(p.relative_to(root))
                page_problems = []
                try:
                    page = Page(b, p.as_uri())
                    ready.append(page.wait_ready())
                    shot = f".impulse-calc[data-id='{SHOT_CALCULATOR}']"
                    if shots and page.eval(f"!!document.querySelector({json.dumps(shot)})"):
                        page.screenshot(shot, shots / "calculator.png")  # with the course's defaults
                    calc_inputs += check_calculators(page, a.impulse, page_problems, chapters, native_only)
                    exercises += check_exercises(page, a.impulse, page_problems, shots, a.edition)
                    scenes += check_scenes(page, a.impulse, page_problems, shots, scene_stats)
                    lcps += check_lcp(page, a.impulse, page_problems)
                    page_problems += [f"console error: {e}" for e in page.console_errors()]
                except RuntimeError as e:
                    page_problems.append(str(e))
                problems += [f"{name}: {x}" for x in page_problems]
        finally:
            b.close()
    if calc_inputs < MIN_CALC_INPUTS:
        problems.append(f"only {calc_inputs} calculator inputs matched the command line (at least {MIN_CALC_INPUTS})")
    if len(chapters) < 3:
        problems.append(f"calculators matched in chapters {sorted(chapters)} only (E1, E3 and ST expected)")
    if exercises < MIN_EXERCISES:
        problems.append(f"only {exercises} exercises checked (at least {MIN_EXERCISES})")
    for name, f, first, means in scene_stats:
        print(f"check_live: scene {name} {f}: first {SCENE_ROWS} rows within {first:.2g}, column means within {means:.2g}")
    for pr in problems[:40]:
        print(f"check_live: {pr}", file=sys.stderr)
    slowest = max(ready) if ready else 0
    print(f"check_live: {len(pages)} live pages, {calc_inputs} calculator inputs equal to `impulse calc --json` "
          f"(rel {REL:g}), {exercises} exercises graded as `impulse exercises check --json`, {scenes} scenes run as "
          f"`impulse run`, {lcps} LCPs solved or refused as `impulse lcp`, "
          f"slowest page ready in {slowest:.2f} s, {len(native_only)} calculators native-only (said so in the page: "
          f"{', '.join(sorted(native_only))}), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
