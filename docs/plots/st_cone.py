"""Stewart-Trinkle chapter: the friction-cone study (k = 4, 8, 16, 32).

Reads st-cone.csv (impulse run st-balls) from $IMPULSE_BOOK_DATA; writes st_cone.png.
"""
import math

import matplotlib.pyplot as plt

from _st_data import figure_path, rows

cone = rows("st-cone.csv")
fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
k = [r["k"] for r in cone]
axes[0].semilogy(k, [r["polygon_error"] for r in cone], "o-", label="1 - cos(pi/k)")
axes[0].semilogy(k, [r["direction_error_rad"] for r in cone], "s-", label="direction error [rad]")
axes[0].semilogy(k, [r["stop_distance_m"] / r["stop_distance_circle_m"] - 1 for r in cone], "^-",
                 label="extra slide / circle's")
# Expected: the inscribed k-gon loses at most 1 - cos(pi/k) of the disc's friction, so a slide can be
# at most 1/cos(pi/k) - 1 longer than on the circular cone.
kk = [4 + 0.25 * i for i in range(int((max(k) - 4) / 0.25) + 1)]
axes[0].semilogy(kk, [1 - math.cos(math.pi / x) for x in kk], "k--", lw=0.8, label="analytic 1 - cos(pi/k)")
axes[0].semilogy(kk, [1 / math.cos(math.pi / x) - 1 for x in kk], "k:", lw=0.8, label="bound 1/cos(pi/k) - 1")
axes[0].set_xlabel("friction directions k")
axes[0].legend(fontsize=8)
axes[1].plot(k, [r["lcp_size"] for r in cone], "o-", label="LCP size (7 contacts)")
axes[1].plot(k, [r["pivots"] for r in cone], "s-", label="Lemke pivots")
axes[1].set_xlabel("friction directions k")
axes[1].legend(fontsize=8)
fig.tight_layout()
fig.savefig(figure_path("st_cone.png"), dpi=150)
