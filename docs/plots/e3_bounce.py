"""E3 §5: a sphere bouncing with e = 0.5, restitution pass off and on, and the impulse budget of the run
with the pass (scene e3-bounce)."""
import csv
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"]) / "e3-bounce.csv"
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_bounce.png"
rows = list(csv.DictReader(open(data)))

fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.4))
for on, label in (("0", "restitution pass off"), ("1", "restitution pass on")):
    r = [x for x in rows if x["restitution"] == on]
    a.plot([float(x["t_s"]) for x in r], [float(x["z_m"]) for x in r], label=label)
h0 = float(rows[0]["z_m"])
e = 0.5  # the scene's default restitution (docs/scenes: e3-bounce runs with its defaults)
a.axhline(e * e * h0, color="k", ls="--", lw=0.8, label=r"expected apex $e^2 h_0$")
a.set_xlabel("t [s]")
a.set_ylabel("height of the lowest point [m]")
a.legend(fontsize=8)
r = [x for x in rows if x["restitution"] == "1"]
t = [float(x["t_s"]) for x in r]
b.plot(t, [float(x["readback_impulse_Ns"]) for x in r], label="readback (Contacts.force x h)")
b.plot(t, [float(x["restitution_impulse_Ns"]) for x in r], label="restitution pass (not in the readback)")
b.plot(t, [float(x["momentum_change_minus_gravity_Ns"]) for x in r], "k--", lw=1, label="momentum change - gravity")
b.set_xlabel("t [s]")
b.set_ylabel("cumulative impulse [N s]")
b.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out, dpi=130)
