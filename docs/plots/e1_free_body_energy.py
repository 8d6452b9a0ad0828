"""E1 §10: energy and angular momentum of the minimal example's free body under the §10 predictor.

Reads e1-free-body.csv (impulse run e1-free-body --frames 120) from IMPULSE_BOOK_DATA and writes
e1_free_body_energy.png into IMPULSE_BOOK_FIGURES.
"""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = os.environ["IMPULSE_BOOK_DATA"]
out = os.environ["IMPULSE_BOOK_FIGURES"]
with open(os.path.join(data, "e1-free-body.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
t = [float(r["t_s"]) for r in rows]
col = {k: [float(r[k]) for r in rows] for k in ("E_lin_J", "E_rot_J", "E_pot_J", "E_total_J", "L_world_Nms")}
e0, l0 = col["E_total_J"][0], col["L_world_Nms"][0]

# Semi-implicit Euler in uniform gravity loses exactly m g^2 h^2 / 2 per step (derived in the chapter).
h = t[1] / 4  # one CSV row per frame of 4 substeps (the scene's default)
g = 9.81
m = 1.0
predicted = [-m * g * g * h * h / 2 * (ti / h) for ti in t]
rot0 = col["E_rot_J"][0]

fig, (a, b) = plt.subplots(1, 2, figsize=(10, 3.6))
a.plot(t, [e - e0 for e in col["E_total_J"]], lw=3, label="engine: E(t) - E(0)")
a.plot(t, predicted, "k--", label="-m g^2 h^2 / 2 per step")
a.set_xlabel("t [s]")
a.set_ylabel("energy drift [J]")
a.set_title("total energy in free fall, h = 1/240 s")
a.legend(fontsize=8)
b.plot(t, [(x - rot0) / rot0 for x in col["E_rot_J"]], label="rotational kinetic energy")
b.plot(t, [(x - l0) / l0 for x in col["L_world_Nms"]], label="|L| (world)")
b.set_xlabel("t [s]")
b.set_ylabel("relative drift [-]")
b.set_title("torque-free tumbling near the intermediate axis")
b.legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(out, "e1_free_body_energy.png"), dpi=120)
