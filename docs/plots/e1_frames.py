"""E1 §6: torque about, and velocity of, reference points along the x axis (scene e1-frames)."""
import csv
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"]) / "e1-frames.csv"
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e1_frames.png"
rows = list(csv.DictReader(open(data)))
x = [float(r["x_m"]) for r in rows]
tau = [float(r["tau_z_Nm"]) for r in rows]
vy = [float(r["v_y_mps"]) for r in rows]

fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.4))
a.plot(x, tau, color="tab:blue", lw=3, alpha=0.6, label="engine")
# analytic: tau_z(x) = ((P - x) x f)_z = (0.2 - x) 10 N m for f = (0, 10, 0) N at P = (0.2, 0, 0) m
a.plot(x, [(0.2 - xi) * 10 for xi in x], "k--", lw=1, label="analytic (0.2 - x) 10")
a.legend(fontsize=8, loc="upper right")
a.axhline(0, color="0.7", lw=0.8)
a.plot([0], [2], "o", color="tab:blue")
a.annotate("COM: (0, 0, 2) N m", (0, 2), textcoords="offset points", xytext=(8, 4))
a.plot([0.2], [0], "s", color="tab:red")
a.annotate("P: 0", (0.2, 0), textcoords="offset points", xytext=(6, 6))
a.set_xlabel("reference point x [m]")
a.set_ylabel("torque z [N m]")
a.set_title("f = (0, 10, 0) N at P = (0.2, 0, 0) m")
b.plot(x, vy, color="tab:green", lw=3, alpha=0.6, label="engine")
# analytic: v(x) = v_C + omega x (x - c) with the COM c at the origin at rest: v_y = 2 x m/s
b.plot(x, [2 * xi for xi in x], "k--", lw=1, label="analytic 2 x")
b.legend(fontsize=8, loc="upper left")
b.axhline(0, color="0.7", lw=0.8)
b.plot([-0.1], [-0.2], "o", color="tab:green")
b.annotate("origin of exercise 3: -0.2 m/s", (-0.1, -0.2), textcoords="offset points", xytext=(8, -4))
b.set_xlabel("point x [m]")
b.set_ylabel("velocity y [m/s]")
b.set_title("omega = (0, 0, 2) rad/s, COM at rest")
fig.tight_layout()
fig.savefig(out, dpi=130)
