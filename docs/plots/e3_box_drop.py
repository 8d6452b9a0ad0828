"""E3: the whole chain on one box (scene e3-box-drop): height and summed readback force."""
import csv
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"]) / "e3-box-drop.csv"
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_box_drop.png"
rows = list(csv.DictReader(open(data)))
t = [float(r["t_s"]) for r in rows]
z = [float(r["z_m"]) for r in rows]
f = [float(r["support_N"]) for r in rows]
mg = float(rows[0]["mg_N"])

fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.3))
a.plot(t, z, color="tab:blue")
a.axhline(0.025, color="0.6", lw=0.8, ls="--")
a.set_xlabel("t [s]")
a.set_ylabel("box origin height [m]")
a.set_title("falls, lands, rests at z = hz = 0.025 m")
b.plot(t, f, color="tab:red", lw=0.9)
b.axhline(mg, color="0.4", lw=0.8, ls="--", label="m g")
b.set_ylim(-0.5 * mg, 4 * mg)
b.set_xlabel("t [s]")
b.set_ylabel("summed readback F_z [N]")
b.set_title("update_contacts after each step")
b.legend(loc="upper right")
fig.tight_layout()
fig.savefig(out, dpi=130)
