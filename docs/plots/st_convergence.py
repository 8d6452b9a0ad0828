"""Stewart-Trinkle chapter, Table 1 analogue: four-ball errors against h.

Reads st-balls-table.csv (impulse run st-balls) from $IMPULSE_BOOK_DATA; writes st_convergence.png.
"""
import matplotlib.pyplot as plt

from _st_data import figure_path, rows

table = rows("st-balls-table.csv")
h = [r["h_s"] for r in table]
fig, ax = plt.subplots(figsize=(6, 4))
ax.loglog(h, [r["velocity_error"] for r in table], "o-", label="velocity error (time integral)")
ax.loglog(h, [r["position_error_m"] for r in table], "s-", label="position error (max norm) [m]")
c = table[0]["position_error_m"] / (h[0] - 0.00125)
ax.loglog(h, [c * (x - 0.00125) for x in h], "k--", lw=0.8, label="C (h - h_ref): first order")
ax.set_xlabel("h [s]")
ax.set_title("Four balls (ours): error against h_ref = 0.00125 s")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(figure_path("st_convergence.png"), dpi=150)
