"""Stewart-Trinkle chapter: the vertical point of the reading's bounce example.

Reads st-bounce.csv (impulse run st-bounce) from $IMPULSE_BOOK_DATA; writes st_bounce.png.
"""
import matplotlib.pyplot as plt

from _st_data import figure_path, rows

bounce = rows("st-bounce.csv")
fig, ax = plt.subplots(figsize=(6, 3.4))
t = [r["t_s"] for r in bounce]
ax.plot(t, [r["q_m"] for r in bounce], "o-", ms=3, label="q [m]")
ax2 = ax.twinx()
ax2.plot(t, [r["v_mps"] for r in bounce], "s-", ms=3, color="tab:red", label="v [m/s]")
ax.axhline(0, color="tab:blue", ls="--", lw=0.8, label="ground: q = 0")
ax2.axhline(0, color="tab:red", ls=":", lw=0.8, label="at rest: v = 0")
lines = ax.get_legend_handles_labels()
lines2 = ax2.get_legend_handles_labels()
ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], fontsize=8, loc="upper right")
ax.set_xlabel("t [s]")
ax.set_ylabel("q [m]")
ax2.set_ylabel("v [m/s]")
ax.set_title("Vertical point, h = 0.02 s: one contact step, then rest")
fig.tight_layout()
fig.savefig(figure_path("st_bounce.png"), dpi=150)
