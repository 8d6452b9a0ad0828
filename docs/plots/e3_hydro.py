"""E3 route (c) (scene e3-hydro-consumers): the pressure over the contact surface of a hydroelastic
sphere resting on a nearly rigid box, its four reduced contacts with their forces, F_agg against
the closed form, and SemiImplicit beside XPBD on the same kind of record."""
import csv
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"])
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_hydro.png"


def table(name):
    return list(csv.DictReader(open(data / name)))


surf, red, force, run = (table(f"e3-hydro-{n}.csv") for n in ("surface", "reduced", "force", "consumers"))
fig, (a, b, c) = plt.subplots(1, 3, figsize=(12, 3.6))
sc = a.scatter([float(r["x_m"]) * 1e3 for r in surf], [float(r["y_m"]) * 1e3 for r in surf],
               c=[float(r["pressure_Pa"]) / 1e3 for r in surf], s=14, cmap="viridis")
fig.colorbar(sc, ax=a, label="pressure p_i [kPa]")
f = [float(r["force_N"]) for r in red]
a.scatter([float(r["x_m"]) * 1e3 for r in red], [float(r["y_m"]) * 1e3 for r in red], s=[60 * v / max(f) for v in f],
          facecolors="none", edgecolors="tab:red", linewidths=1.5, label="reduced contacts (size: k depth_j)")
for r, v in zip(red, f):
    a.annotate(f"{v:.1f} N", (float(r["x_m"]) * 1e3, float(r["y_m"]) * 1e3), fontsize=7, color="tab:red",
               xytext=(4, 4), textcoords="offset points")
a.set_aspect("equal")
a.set_xlabel("x [mm]")
a.set_ylabel("y [mm]")
a.set_title("surface samples and reduced contacts")
a.legend(loc="lower left", fontsize=7)
d = [float(r["depth_m"]) * 1e3 for r in force]
b.plot(d, [float(r["F_agg_N"]) for r in force], "o", color="tab:blue", label="F_agg (sampled surface)")
b.plot(d, [float(r["F_closed_form_N"]) for r in force], color="0.3", lw=0.9, label="(pi kh/3) e^2 (3R - 2e)")
b.set_xlabel("indentation e [mm]")
b.set_ylabel("force [N]")
b.set_title("sphere on a rigid half-space")
b.legend(fontsize=7)
t = [float(r["t_s"]) for r in run]
c.plot(t, [float(r["depth_semi_implicit_m"]) * 1e3 for r in run], color="tab:blue", label="SemiImplicit")
c.plot(t, [float(r["depth_xpbd_m"]) * 1e3 for r in run], color="tab:orange", label="XPBD")
c.axhline(float(run[0]["depth_closed_form_m"]) * 1e3, color="0.4", ls="--", lw=0.8, label="closed-form rest depth")
c.set_xlabel("t [s]")
c.set_ylabel("indentation [mm]")
c.set_title("same record, different response")
c.legend(fontsize=7)
fig.tight_layout()
fig.savefig(out, dpi=130)
