"""Stewart-Trinkle chapter: the Table 1 analogue and the friction-cone study.

Reads st-balls-table.csv, st-cone.csv (impulse run st-balls) and st-bounce.csv (impulse run
st-bounce) from $IMPULSE_BOOK_DATA and writes st-convergence.png, st-cone.png and st-bounce.png
into $IMPULSE_BOOK_FIGURES.
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


table = rows("st-balls-table.csv")
h = [r["h_s"] for r in table]
fig, ax = plt.subplots(figsize=(6, 4))
ax.loglog(h, [r["velocity_error"] for r in table], "o-", label="velocity error (time integral)")
ax.loglog(h, [r["position_error_m"] for r in table], "s-", label="position error (max norm) [m]")
c = table[0]["position_error_m"] / (h[0] - 0.00125)
ax.loglog(h, [c * (x - 0.00125) for x in h], "k--", lw=0.8, label="C (h - h_ref): first order")
ax.set_xlabel("h [s]")
ax.set_title("Four balls (ours): error against h_ref = 0.00125 s")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(figures, "st-convergence.png"), dpi=150)

cone = rows("st-cone.csv")
fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
k = [r["k"] for r in cone]
axes[0].semilogy(k, [r["polygon_error"] for r in cone], "o-", label="1 - cos(pi/k)")
axes[0].semilogy(k, [r["direction_error_rad"] for r in cone], "s-", label="direction error [rad]")
axes[0].semilogy(k, [r["stop_distance_m"] / r["stop_distance_circle_m"] - 1 for r in cone], "^-",
                 label="extra slide / circle's")
axes[0].set_xlabel("friction directions k")
axes[0].legend(fontsize=8)
axes[1].plot(k, [r["lcp_size"] for r in cone], "o-", label="LCP size (7 contacts)")
axes[1].plot(k, [r["pivots"] for r in cone], "s-", label="Lemke pivots")
axes[1].set_xlabel("friction directions k")
axes[1].legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(figures, "st-cone.png"), dpi=150)

bounce = rows("st-bounce.csv")
fig, ax = plt.subplots(figsize=(6, 3.4))
t = [r["t_s"] for r in bounce]
ax.plot(t, [r["q_m"] for r in bounce], "o-", ms=3, label="q [m]")
ax2 = ax.twinx()
ax2.plot(t, [r["v_mps"] for r in bounce], "s-", ms=3, color="tab:red", label="v [m/s]")
ax.set_xlabel("t [s]")
ax.set_ylabel("q [m]")
ax2.set_ylabel("v [m/s]")
ax.set_title("Vertical point, h = 0.02 s: one contact step, then rest")
fig.tight_layout()
fig.savefig(os.path.join(figures, "st-bounce.png"), dpi=150)
