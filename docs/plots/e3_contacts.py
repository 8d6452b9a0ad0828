"""E3 §2: the Contacts record of the e3-contacts scene, seen along y: core points, normals, gaps."""
import csv
import math
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, Polygon  # noqa: E402

data = pathlib.Path(os.environ["IMPULSE_BOOK_DATA"])
out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_contacts.png"
contacts = list(csv.DictReader(open(data / "e3-contacts.csv")))
shapes = list(csv.DictReader(open(data / "e3-contacts-shapes.csv")))


def rotated(cx, cz, a, pts):
    c, s = math.cos(a), math.sin(a)
    # rotation about +y maps (x, z) to (c x + s z, -s x + c z)
    return [(cx + c * x + s * z, cz - s * x + c * z) for x, z in pts]


fig, ax = plt.subplots(figsize=(9, 3.8))
ax.axhspan(-0.12, 0, color="0.88")
for s in shapes:
    x, z, a = float(s["x"]), float(s["z"]), float(s["angle_y_rad"])
    s0, s1, s2 = float(s["size0"]), float(s["size1"]), float(s["size2"])
    if s["type"] == "box":
        ax.add_patch(Polygon(rotated(x, z, a, [(-s0, -s2), (s0, -s2), (s0, s2), (-s0, s2)]), fc="#cfe0f3", ec="0.3"))
    elif s["type"] == "sphere":
        ax.add_patch(Circle((x, z), s0, fc="#f6d7b0", ec="0.3"))
    elif s["type"] == "capsule":
        # axis along local z, turned by angle about y
        ends = rotated(x, z, a, [(0, -s1), (0, s1)])
        for ex, ez in ends:
            ax.add_patch(Circle((ex, ez), s0, fc="#d9ecd0", ec="0.3"))
        ax.add_patch(FancyBboxPatch((min(e[0] for e in ends), z - s0), abs(ends[1][0] - ends[0][0]), 2 * s0,
                                    boxstyle="square,pad=0", fc="#d9ecd0", ec="none"))
seen = set()
for c in contacts:
    p0 = (float(c["p0_x"]), float(c["p0_z"]))
    p1 = (float(c["p1_x"]), float(c["p1_z"]))
    n = (float(c["n_x"]), float(c["n_z"]))
    d = float(c["d_m"])
    key = (round(p1[0], 6), round(p1[1], 6))
    color = "tab:red" if d < 0 else ("tab:green" if d > 1e-9 else "tab:blue")
    ax.plot(*p1, "o", color=color, ms=4)
    ax.plot(*p0, "x", color="0.3", ms=4)
    ax.annotate("", xy=(p0[0] + 0.12 * n[0], p0[1] + 0.12 * n[1]), xytext=p0,
                arrowprops=dict(arrowstyle="->", color=color, lw=1))
    if key not in seen:
        ax.annotate(f"d = {1000 * d:+.1f} mm", p1, textcoords="offset points", xytext=(6, -12), fontsize=7, color=color)
        seen.add(key)
ax.set_aspect("equal")
ax.set_xlim(-1.15, 1.05)
ax.set_ylim(-0.12, 0.55)
ax.set_xlabel("x [m]")
ax.set_ylabel("z [m]")
ax.set_title("records: x = core point of shape0, dot = core point of shape1, arrow = normal 0→1\n"
             "red: penetrating, blue: touching, green: separated but inside the gap", fontsize=8)
fig.tight_layout()
fig.savefig(out, dpi=150)
