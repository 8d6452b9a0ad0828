"""E3 §6: one sliding box under four solvers, and the penalty spring on both sides of its bound
(scenes e3-solver-compare and e3-penalty-stability)."""
import csv
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"])
figures = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"])


def columns(name):
    # '#' lines are notes (e3-penalty-stability says there that one run diverges on purpose)
    rows = list(csv.DictReader(line for line in open(data / name) if not line.startswith("#")))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


cmp = columns("e3-solver-compare.csv")
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.6))
for solver, style in [("xpbd", "-."), ("semi_implicit", "-"), ("featherstone", "--"), ("padmm", "-"), ("vbd", ":")]:
    a.plot(cmp["t_s"], cmp[f"x_{solver}_m"], style, label=solver)
a.plot(cmp["t_s"], cmp["x_coulomb_m"], color="0.5", lw=0.8, label="Coulomb, v0^2/(2 mu g)")
a.set_xlabel("t [s]")
a.set_ylabel("box x [m]")
a.set_ylim(0, 0.12)
a.set_title("box launched at 1 m/s, mu = 0.5")
a.legend(fontsize=7)

st = columns("e3-penalty-stability.csv")
b.semilogy(st["step"], [abs(v) + 1e-12 for v in st["dz_below_m"]], label="h = 0.9 h_crit")
b.semilogy(st["step"], [abs(v) + 1e-12 for v in st["dz_above_m"]], label="h = 1.05 h_crit")
b.set_xlabel("step")
b.set_ylabel("|z - z_eq| [m]")
b.set_title("SemiImplicit sphere on a ke spring, kd = 0")
b.legend(fontsize=7)
fig.tight_layout()
fig.savefig(figures / "e3_solver_compare.png", dpi=130)
