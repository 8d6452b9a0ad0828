"""E3 §2: broad-phase time against the number of shapes.

Timings are not scene output (scene files stay reproducible byte for byte): this script sweeps
`impulse bench e3-broadphase` over N for each mode and layout when the book is built, and states
the machine and the date under the plot. Measured, never asserted.
"""
import datetime
import json
import math
import os
import pathlib
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

binary = os.environ["IMPULSE_BIN"]
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_broadphase.png"
SERIES = [("nxn", 0, 4000), ("sap", 0, 32000), ("sap", 64, 32000)]  # (mode, shapes per world, largest N)


def bench(mode, per_world, n):
    r = subprocess.run([binary, "bench", "e3-broadphase", "--mode", mode, "--per-world", str(per_world),
                        "--n", str(n), "--repeat", "5", "--json"],
                       capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    return json.loads(r.stdout)["metrics"]["seconds_per_broad_phase"]["value"]


def cpu_model():
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


# The expected growth of each series (E3 §2): nxn tests every pair, N^2; one-world SAP sweeps a
# slab holding N^(2/3) boxes for each of N boxes, N^(5/3); SAP over worlds of fixed size, N.
EXPECTED = {("nxn", 0): (2.0, "N^2"), ("sap", 0): (5 / 3, "N^(5/3)"), ("sap", 64): (1.0, "N")}
fig, ax = plt.subplots(figsize=(6.5, 4.3))
for mode, per_world, top in SERIES:
    n_values, t_values = [], []
    n = 250
    while n <= top:
        n_values.append(n)
        t_values.append(bench(mode, per_world, n))
        n *= 2
    # growth exponent: least-squares slope of log t against log N over the points with N >= 1000
    xs = [math.log(a) for a, b in zip(n_values, t_values) if a >= 1000 and b > 0]
    ys = [math.log(b) for a, b in zip(n_values, t_values) if a >= 1000 and b > 0]
    mx, my = sum(xs) / max(len(xs), 1), sum(ys) / max(len(ys), 1)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")
    layout = f"{per_world} per world" if per_world else "one world"
    line, = ax.loglog(n_values, t_values, "o-", label=f"{mode}, {layout} (slope {slope:.2f})")
    # the expected slope, drawn through the series' own point at N = 1000
    k, name = EXPECTED[(mode, per_world)]
    t1000 = t_values[n_values.index(1000)]
    ax.loglog([1000, top], [t1000 * (x / 1000) ** k for x in (1000, top)], ":", color=line.get_color(),
              lw=1.2, label=f"expected {name}")
ax.set_xlabel("shapes N")
ax.set_ylabel("broad phase time [s] (best of 5)")
when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
threads = os.environ.get("OMP_NUM_THREADS", str(os.cpu_count()))
ax.set_title(f"{cpu_model()}, {threads} OpenMP threads, "
             f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}, {when}", fontsize=7)
ax.legend(fontsize=7)
ax.grid(True, which="both", alpha=0.3)
fig.tight_layout()
fig.savefig(out, dpi=150)
