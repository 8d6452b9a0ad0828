"""The Measurements page's section on the engine in the page (measure.py --web DIR).

Opens a page holding only impulse.js and the browser module (impulse-wasm.js) from file:// in
headless Chromium with the network off (check_live.py's DevTools pipe) and measures, beside the
native command line on the same scenes, one thread each:
  - the module's size, and the time from opening the page to the first calculator result;
  - e3-pyramid --steps 4500: the whole run (both weightings, its CSV table made in memory) in the
    page against `impulse run` (process start and CSV files included), as steps per second; and the
    same run stepped live as the book's scene widget steps it (impulse.open, step(64) until done,
    the new rows and every step's poses handed to JavaScript). Page and native runs alternate,
    REPEATS of each, and the fastest of each is reported (the machine is shared; the fastest run is
    the one least disturbed);
  - e3-spheres, N = 1000, XPBD: seconds per step from the scene's own bench function, which
    `impulse.bench` and `impulse bench --json` both call.
Measured, never asserted.
"""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import time

from check_live import Browser, Page
from check_rendered import chromium_binary, network_off_prefix

HARNESS = """<!DOCTYPE html><html><head><meta charset="utf-8"><script src="impulse.js"></script></head><body><script>
window.measured = impulse.calc("E3.4-xpbd-pn", {d: -0.002, h: 0.001, w: 2, relaxation: 0.8})
  .then(() => ({usable_s: performance.now() / 1000}));
</script></body></html>"""
SPHERES = ["--n", "1000", "--steps", "20", "--solver", "xpbd"]
REPEATS = 3
# 4500 frames per weighting, 9000 steps: long enough that starting the native process is a small part.
PYRAMID_STEPS = "4500"
PAGE_RUN = ("(() => { const t0 = performance.now(); return impulse.run('e3-pyramid', {steps: " + PYRAMID_STEPS + "}).then(r =>"
            " ({s: (performance.now() - t0) / 1000, rows: impulse.csv(r.tables['e3-pyramid.csv']).rows.length})); })()")
PAGE_LIVE = ("(() => { const t0 = performance.now(); return impulse.open('e3-pyramid', {steps: " + PYRAMID_STEPS + "}).then(s => {"
             " let n = 0, r; do { r = s.step(64); n += r.taken; } while (!r.done); s.close();"
             " return {s: (performance.now() - t0) / 1000, steps: n}; }); })()")


def measure(impulse, web_dir, static_dir):
    with tempfile.TemporaryDirectory(prefix="impulse-measure-") as d:
        d = pathlib.Path(d)
        shutil.copy(pathlib.Path(web_dir) / "impulse-wasm.js", d)
        shutil.copy(pathlib.Path(static_dir) / "impulse.js", d)
        (d / "index.html").write_text(HARNESS, encoding="utf-8")
        profile = d / "profile"
        b = Browser(chromium_binary(), network_off_prefix(), str(profile))
        try:
            page = Page(b, (d / "index.html").as_uri())
            deadline = time.time() + 60
            while page.eval("typeof window.measured") != "object" and time.time() < deadline:
                time.sleep(0.05)
            usable = page.eval("window.measured")["usable_s"]
            env = dict(os.environ, OMP_NUM_THREADS="1")
            page_s, live_s, native_s = [], [], []
            for _ in range(REPEATS):
                pyr = page.eval(PAGE_RUN)
                page_s.append(pyr["s"])
                live = page.eval(PAGE_LIVE)
                live_s.append(live["s"])
                t0 = time.perf_counter()
                subprocess.run([impulse, "run", "e3-pyramid", "--steps", PYRAMID_STEPS, "--out", str(d / "native")], check=True,
                               capture_output=True, env=env)
                native_s.append(time.perf_counter() - t0)
            sph = page.eval("impulse.bench('e3-spheres', {n: 1000, steps: 20, solver: 'xpbd'})"
                            ".then(j => j.metrics.seconds_per_step.value)")
        finally:
            b.close()
        r = subprocess.run([impulse, "bench", "e3-spheres", *SPHERES, "--json"], check=True, capture_output=True,
                           text=True, env=env)
        native_sph = json.loads(r.stdout)["metrics"]["seconds_per_step"]["value"]
    return {"bytes": (pathlib.Path(web_dir) / "impulse-wasm.js").stat().st_size, "usable_s": usable,
            "pyramid_steps": pyr["rows"], "pyramid_page_s": min(page_s), "pyramid_live_s": min(live_s),
            "pyramid_live_steps": live["steps"], "pyramid_native_s": min(native_s),
            "spheres_page_s": sph, "spheres_native_s": native_sph}


def browser_lines(impulse, web_dir, static_dir):
    if not web_dir or not (pathlib.Path(web_dir) / "impulse-wasm.js").exists() or not chromium_binary():
        return ["## The engine in the page", "", "Not measured: the browser module or Chromium is missing.", ""]
    m = measure(impulse, web_dir, static_dir)
    pyr_page = m["pyramid_steps"] / m["pyramid_page_s"]
    pyr_native = m["pyramid_steps"] / m["pyramid_native_s"]
    pyr_live = m["pyramid_live_steps"] / m["pyramid_live_s"]
    return [
        "## The engine in the page",
        "",
        "The book's browser module (the engine and the course compiled by Debian's emscripten, one",
        "thread, WebAssembly's own exceptions) in headless Chromium from `file://`, beside the native",
        "command line with one OpenMP thread on the same scenes (`docs/tools/browser_section.py`; page",
        f"and native runs alternate, the fastest of {REPEATS} each; measured, never asserted).",
        "",
        "| what | in the page | native | page / native |",
        "|---|---:|---:|---:|",
        f"| module `_static/impulse-wasm.js` | {m['bytes'] / 1e6:.2f} MB | | |",
        f"| from opening the page to the first calculator result | {m['usable_s']:.2f} s | | |",
        f"| `e3-pyramid`, whole run ({m['pyramid_steps']} steps, table included) | {pyr_page:.0f} steps/s | "
        f"{pyr_native:.0f} steps/s | {pyr_native / pyr_page:.2f}x the time |",
        f"| `e3-pyramid` stepped live as the scene widget does (`impulse.open`, 64 steps a call, rows and "
        f"poses to JavaScript) | {pyr_live:.0f} steps/s | {pyr_native:.0f} steps/s | {pyr_native / pyr_live:.2f}x the time |",
        f"| `e3-spheres` N = 1000, XPBD, per step | {m['spheres_page_s'] * 1e3:.2f} ms | "
        f"{m['spheres_native_s'] * 1e3:.2f} ms | {m['spheres_page_s'] / m['spheres_native_s']:.2f}x |",
        "",
        "The native pyramid time includes starting the process and writing the CSV file; the page's",
        "includes making the same table as text. The book's live scene draws while it steps: each",
        "animation frame takes as many steps as fit in 12 ms, the rest of the frame is for drawing, so",
        "at 60 frames per second it steps at most 12 / 16.7 of the live figure above (`check_live.py`",
        "prints the rate each scene reached).",
        "",
    ]
