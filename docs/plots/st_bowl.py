"""Stewart-Trinkle chapter: energy of a bead in a circular bowl under three treatments of the gap.

Reads st-bowl.csv (impulse run st-bowl) from $IMPULSE_BOOK_DATA; writes st_bowl.png.
"""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = os.environ["IMPULSE_BOOK_DATA"]
figures = os.environ["IMPULSE_BOOK_FIGURES"]

with open(os.path.join(data, "st-bowl.csv"), newline="") as f:
    bowl = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]

t = [r["t_s"] for r in bowl]
e0 = bowl[0]["energy_linearised_J"]
fig, ax = plt.subplots(figsize=(6.4, 3.6))
for key, label in [
    ("energy_linearised_J", "linearised gap only"),
    ("energy_frozen_normals_J", "§3.6 true gap, normals at $q_k$"),
    ("energy_iterate_normals_J", "§3.6 true gap, normals at the iterate"),
]:
    ax.plot(t, [r[key] - e0 for r in bowl], label=label, lw=1.2)
ax.axhline(0, color="k", lw=0.6, ls=":")
ax.set_xlabel("t [s]")
ax.set_ylabel("$E - E_0$ [J]")
ax.set_title("Bead in a 1 m bowl, h = 0.02 s: above 0 is energy made up")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(figures, "st_bowl.png"), dpi=150)
