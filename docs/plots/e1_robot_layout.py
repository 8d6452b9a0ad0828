"""E1 §5: joint_q / joint_qd layout of the exercise-1 robot and its generalised motion.

Reads e1-robot-layout.csv and e1-robot.csv (impulse run e1-robot) from IMPULSE_BOOK_DATA and
writes e1_robot_layout.png into IMPULSE_BOOK_FIGURES.
"""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

data = os.environ["IMPULSE_BOOK_DATA"]
out = os.environ["IMPULSE_BOOK_FIGURES"]
with open(os.path.join(data, "e1-robot-layout.csv"), newline="") as f:
    joints = list(csv.DictReader(f))
with open(os.path.join(data, "e1-robot.csv"), newline="") as f:
    motion = list(csv.DictReader(f))

colors = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.6), gridspec_kw={"width_ratios": [1.3, 1]})
for row, (start_key, count_key, label) in enumerate(
        [("q_start", "q_count", "joint_q"), ("qd_start", "qd_count", "joint_qd")]):
    for k, j in enumerate(joints):
        s, n = int(j[start_key]), int(j[count_key])
        a.barh(row, n, left=s, color=colors[k % len(colors)], edgecolor="k")
        text = f"{j['label']} ({j['type']})\n[{s}:{s + n}]" if n > 1 else f"{j['label']}\n[{s}:{s + n}]"
        a.text(s + n / 2, row, text, ha="center", va="center", fontsize=7, rotation=0 if n > 1 else 90)
    end = sum(int(j[count_key]) for j in joints)
    a.text(end + 0.1, row, f"sentinel {end}", va="center", fontsize=8)
a.set_yticks([0, 1])
a.set_yticklabels(["joint_q (9)", "joint_qd (8)"])
a.set_xlim(0, 11)
a.set_xlabel("array index")
a.set_title("one layout, two start tables")
x = [float(r["tip_x_m"]) for r in motion]
y = [float(r["tip_y_m"]) for r in motion]
z = [float(r["tip_z_m"]) for r in motion]
sc = b.scatter(x, y, c=[float(r["t_s"]) for r in motion], s=6, cmap="viridis")
fig.colorbar(sc, ax=b, label="t [s]")
worst = max(abs(float(r["quat_norm"]) - 1) for r in motion)
b.set_xlabel("tip x [m]")
b.set_ylabel("tip y [m]")
b.set_aspect("equal", adjustable="datalim")
b.set_title(f"tip path from eval_fk (max ||q_root| - 1| = {worst:.0e})", fontsize=9)
fig.tight_layout()
fig.savefig(os.path.join(out, "e1_robot_layout.png"), dpi=120)
