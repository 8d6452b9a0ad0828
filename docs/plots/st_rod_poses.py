"""Stewart-Trinkle chapter, Fig. 2 analogue: the falling rod's poses with time labels.

Reads st-rod-poses.csv (impulse run st-rod) from $IMPULSE_BOOK_DATA; writes st_rod_poses.png.
"""
import matplotlib.pyplot as plt

from _st_data import figure_path, rows

# Fig. 2 analogue: poses with time labels.
poses = rows("st-rod-poses.csv")
fig, ax = plt.subplots(figsize=(7, 4))
ax.axhline(0, color="k", lw=1)
for p in poses:
    t = p["t_s"]
    # every 0.1 s in free flight, every 0.05 s around the impacts, nothing once it rests
    if (t < 0.3 and round(t * 100) % 10) or t > 0.61:
        continue
    ax.plot([p["x0_m"], p["x1_m"]], [p["y0_m"], p["y1_m"]], "-", color="tab:blue", lw=2, alpha=0.8)
    for x, y in ((p["x0_m"], p["y0_m"]), (p["x1_m"], p["y1_m"])):
        ax.add_patch(plt.Circle((x, y), 0.05, fill=False, color="tab:blue", lw=0.8))
    ax.annotate(f"{p['t_s']:.2f}", ((p["x0_m"] + p["x1_m"]) / 2, (p["y0_m"] + p["y1_m"]) / 2 + 0.06), fontsize=7,
                ha="center")
ax.set_aspect("equal")
ax.set_xlabel("x [m]")
ax.set_ylabel("y [m]")
ax.set_title("Falling rod, h = 0.0025 s (labels: simulation time [s])")
fig.tight_layout()
fig.savefig(figure_path("st_rod_poses.png"), dpi=150)
