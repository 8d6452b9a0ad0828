"""Stewart-Trinkle chapter, Figs. 3-4 analogue: the rod's vertical and angular velocity for several h.

Reads st-rod-refine.csv (impulse run st-rod) from $IMPULSE_BOOK_DATA; writes st_rod_velocities.png.
"""
import matplotlib.pyplot as plt

from _st_data import figure_path, rows

# Figs. 3-4 analogue: vertical and angular velocity for several h.
ref = rows("st-rod-refine.csv")
fig, axes = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
for h in sorted({r["h_s"] for r in ref}, reverse=True):
    rr = [r for r in ref if r["h_s"] == h]
    t = [r["t_s"] for r in rr]
    axes[0].plot(t, [r["vy_mps"] for r in rr], lw=1, label=f"h = {h:g} s")
    axes[1].plot(t, [r["omega_radps"] for r in rr], lw=1, label=f"h = {h:g} s")
# Expected before the first impact (free flight, no contact impulse): v_y = -g t and omega = omega_0,
# drawn up to the first time the finest run leaves free flight.
g = 9.81
finest = [r for r in ref if r["h_s"] == min(r["h_s"] for r in ref)]
omega0 = finest[0]["omega_radps"]
t_free = next((r["t_s"] for r in finest if abs(r["vy_mps"] + g * r["t_s"]) > 1e-9), finest[-1]["t_s"])
axes[0].plot([0, t_free], [0, -g * t_free], "k--", lw=1, label="free flight: -g t")
axes[1].plot([0, t_free], [omega0, omega0], "k--", lw=1, label="free flight: omega_0")
axes[1].legend(fontsize=8)
axes[0].set_ylabel("vertical velocity [m/s]")
axes[1].set_ylabel("angular velocity [rad/s]")
axes[1].set_xlabel("t [s]")
axes[0].legend(fontsize=8)
fig.tight_layout()
fig.savefig(figure_path("st_rod_velocities.png"), dpi=150)
