"""ST §3: Lemke's pivot path on the four-ball pile's 70 x 70 contact LCP (scene st-lemke-path):
the artificial variable z0 after each pivot, which ends at 0 when it leaves the basis, and how many
of the 70 z variables are basic."""
import csv
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"]) / "st-lemke-path.csv"
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "st_lemke_path.png"
rows = list(csv.DictReader(open(data)))
k = [int(float(r["pivot"])) for r in rows]
z0 = [float(r["z0"]) for r in rows]
basic = [int(float(r["basic_z"])) for r in rows]

fig, a = plt.subplots(figsize=(8, 3.4))
a.step(k, z0, where="post", color="tab:blue", label="z0 after the pivot")
for kind, marker, color in (("w", "v", "tab:orange"), ("z", "^", "tab:green")):
    sel = [i for i, r in enumerate(rows) if r["entering_kind"] == kind]
    a.plot([k[i] for i in sel], [z0[i] for i in sel], marker, ms=4, color=color, ls="none",
           label=f"a {kind} variable entered")
a.axhline(0, color="k", lw=0.8, ls="--", label="z0 = 0: the path ends with a solution")
a.set_xlabel("pivot")
a.set_ylabel("artificial variable z0")
b = a.twinx()
b.plot(k, basic, color="0.5", lw=1, label="basic z variables")
b.set_ylabel("basic z variables (of 70)")
h1, l1 = a.get_legend_handles_labels()
h2, l2 = b.get_legend_handles_labels()
a.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper right")
a.set_title(f"Lemke's method on the four-ball LCP: {len(rows)} pivots")
fig.tight_layout()
fig.savefig(out, dpi=130)
