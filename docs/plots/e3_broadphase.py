"""E3 §2: broad-phase time against the number of shapes (scene e3-broadphase-scaling)."""
import csv
import math
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"]) / "e3-broadphase-scaling.csv"
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_broadphase.png"
rows = list(csv.DictReader(open(data)))
series = {}
for r in rows:
    series.setdefault((r["mode"], r["layout"]), []).append((int(r["n"]), float(r["seconds"])))

fig, ax = plt.subplots(figsize=(6.5, 4))
for (mode, layout), pts in series.items():
    pts.sort()
    n = [p[0] for p in pts]
    t = [p[1] for p in pts]
    # growth exponent: least-squares slope of log t against log N over the points with N >= 1000
    xs = [math.log(a) for a, b in zip(n, t) if a >= 1000 and b > 0]
    ys = [math.log(b) for a, b in zip(n, t) if a >= 1000 and b > 0]
    mx, my = sum(xs) / max(len(xs), 1), sum(ys) / max(len(ys), 1)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")
    ax.loglog(n, t, "o-", label=f"{mode}, {layout} (slope {slope:.2f})")
ax.set_xlabel("shapes N")
ax.set_ylabel("broad phase time [s] (best of 3, this machine)")
ax.legend(fontsize=8)
ax.grid(True, which="both", alpha=0.3)
fig.tight_layout()
fig.savefig(out, dpi=150)
