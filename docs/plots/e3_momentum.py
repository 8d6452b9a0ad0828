"""E3 §4: momentum under contact-count weighting (scene e3-momentum) and the ground readback under a
3-2-1 pyramid with weighting on and off (scene e3-pyramid)."""
import csv
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

base = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"])
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_momentum.png"
mom = list(csv.DictReader(open(base / "e3-momentum.csv")))
pyr = list(csv.DictReader(open(base / "e3-pyramid.csv")))

fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.4))
for w, label in (("1", "weighting on"), ("0", "weighting off")):
    r = [x for x in mom if x["weighting"] == w]
    a.plot([int(x["step"]) for x in r], [float(x["pz_kgmps"]) for x in r], marker=".", label=label)
r = [x for x in pyr if x["weighting"] == "0"]
t = [float(x["t_s"]) for x in r]
g = [float(x["ground_over_mg"]) for x in r]
b.plot(t, g, lw=0.5, color="tab:orange", alpha=0.35, label="weighting off, per step")
win = 120  # steps: a 0.2 s running mean
mean = [sum(g[max(0, i - win + 1) : i + 1]) / len(g[max(0, i - win + 1) : i + 1]) for i in range(len(g))]
b.plot(t[win:], mean[win:], color="tab:orange", lw=1.5, label="weighting off, 0.2 s mean")
r = [x for x in pyr if x["weighting"] == "1"]
b.plot([float(x["t_s"]) for x in r], [float(x["ground_over_mg"]) for x in r], color="tab:blue", lw=1.5,
       label="weighting on")
a.axhline(0, color="0.4", ls="--", lw=0.8, label="conserved: 0 (no external force)")
a.set_xlabel("step")
a.set_ylabel("total p_z [kg m/s]")
a.set_title("three cubes, no gravity, no ground")
a.legend(fontsize=8)
b.axhline(6, color="0.4", ls="--", lw=0.8, label="statics: 6 m g")
b.set_xlabel("t [s]")
b.set_ylabel("ground readback / (m g)")
b.set_title("3-2-1 pyramid")
b.set_ylim(0, 12)
b.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out, dpi=130)
