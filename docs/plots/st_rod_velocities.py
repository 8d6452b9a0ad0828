"""Stewart-Trinkle chapter, Figs. 3-4 analogue: the rod's vertical and angular velocity for several h.

Reads st-rod-refine.csv (impulse run st-rod) from $IMPULSE_BOOK_DATA; writes st_rod_velocities.png.
"""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = os.environ["IMPULSE_BOOK_DATA"]
figures = os.environ["IMPULSE_BOOK_FIGURES"]


def rows(name):
    with open(os.path.join(data, name), newline="") as f:
        return [{k: float(v) if v else float("nan") for k, v in r.items()} for r in csv.DictReader(f)]


# Figs. 3-4 analogue: vertical and angular velocity for several h.
ref = rows("st-rod-refine.csv")
fig, axes = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
for h in sorted({r["h_s"] for r in ref}, reverse=True):
    rr = [r for r in ref if r["h_s"] == h]
    t = [r["t_s"] for r in rr]
    axes[0].plot(t, [r["vy_mps"] for r in rr], lw=1, label=f"h = {h:g} s")
    axes[1].plot(t, [r["omega_radps"] for r in rr], lw=1, label=f"h = {h:g} s")
axes[0].set_ylabel("vertical velocity [m/s]")
axes[1].set_ylabel("angular velocity [rad/s]")
axes[1].set_xlabel("t [s]")
axes[0].legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(figures, "st_rod_velocities.png"), dpi=150)
