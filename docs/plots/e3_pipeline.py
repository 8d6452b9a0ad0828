"""E3 §2: the stages of CollisionPipeline.collide, from the State to the Contacts record (a diagram)."""
import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

out = pathlib.Path(os.environ["IMPULSE_BOOK_FIGURES"]) / "e3_pipeline.png"
stages = [
    ("State\nbody_q", "given by the caller", "0.85"),
    ("clear +\nupdate AABB", "count = 0 only;\nbox grown by\nthickness + gap", "0.92"),
    ("filter", "world, group,\nsame body, exclusions,\njoint parent/child", "0.92"),
    ("broad phase", "nxn | sap | explicit:\nthe same candidate\npairs", "0.92"),
    ("narrow phase", "GJK/EPA, planes,\nmesh BVH;\nkeep d <= gap0 + gap1", "0.92"),
    ("reduction,\nmatching", "<= 4 points a pair;\nlatest / sticky", "0.92"),
    ("Contacts", "count may exceed\nrigid_contact_max", "0.80"),
]
fig, ax = plt.subplots(figsize=(11, 2.9))
w, h, gap = 1.25, 0.9, 0.35
for k, (name, note, shade) in enumerate(stages):
    x = k * (w + gap)
    ax.add_patch(FancyBboxPatch((x, 1.0), w, h, boxstyle="round,pad=0.03", fc=shade, ec="0.3"))
    ax.text(x + w / 2, 1.0 + h / 2, name, ha="center", va="center", fontsize=9, weight="bold")
    ax.text(x + w / 2, 0.85, note, ha="center", va="top", fontsize=7.5, color="0.25")
    if k + 1 < len(stages):
        ax.annotate("", xy=(x + w + gap - 0.02, 1.0 + h / 2), xytext=(x + w + 0.02, 1.0 + h / 2),
                    arrowprops=dict(arrowstyle="->", color="0.3"))
ax.text(len(stages) * (w + gap) - gap / 2, 1.0 + h / 2, "→ solver.step →\nupdate_contacts →\nobservers",
        ha="left", va="center", fontsize=8, color="0.45")
ax.set_xlim(-0.1, len(stages) * (w + gap) + 1.3)
ax.set_ylim(0.0, 2.05)
ax.axis("off")
fig.tight_layout()
fig.savefig(out, dpi=150)
