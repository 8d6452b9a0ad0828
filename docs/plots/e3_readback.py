"""E3 §7: XPBD force readback of a box dropped 2 cm on a plane, for two steps and three iteration counts
(scene e3-readback)."""
import csv
import os
import pathlib
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"]) / "e3-readback.csv"
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_readback.png"
runs = defaultdict(list)
for r in csv.DictReader(open(data)):
    runs[(float(r["h_s"]), int(r["iterations"]))].append((float(r["t_s"]), float(r["Fz_over_mg"])))

steps = sorted({h for h, _ in runs}, reverse=True)
fig, axes = plt.subplots(1, len(steps), figsize=(9, 3.4), sharey=False)
for ax, h in zip(axes, steps):
    for (hh, iters), pts in sorted(runs.items()):
        if hh != h:
            continue
        t = [p[0] for p in pts if p[0] <= 0.25]
        f = [p[1] for p in pts if p[0] <= 0.25]
        ax.step(t, f, where="post", label=f"{iters} iteration{'s' if iters > 1 else ''}")
    ax.axhline(1, color="0.6", lw=0.8, ls="--")
    ax.set_title(f"h = 1/{round(1 / h)} s")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("readback F_z / (m g)")
    ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out, dpi=130)
