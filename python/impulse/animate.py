"""Animations of the course's scenes (Matplotlib), written as MP4 with Debian's ffmpeg or as GIF.

    python3 -m impulse.animate st-rod out.mp4          # what `impulse run st-rod --animate out.mp4` runs
    python3 -m impulse.animate e3-pyramid out.gif --poster poster.png

Scenes: st-rod (the paper's falling rod), e3-pyramid (3-2-1 pyramid, contact-count weighting on
and off side by side, stepped here through the Python engine), e3-bounce (restitution pass off
and on), e3-box-drop (the whole chain), st-balls (the four-ball pile). An .mp4 needs ffmpeg; without
it the message names the Debian package. --poster also writes the last frame as a PNG.
"""
import argparse
import math
import pathlib
import shutil
import sys

import numpy as np

from .scenes import run

SCENES = ("st-rod", "e3-pyramid", "e3-bounce", "e3-box-drop", "st-balls")
FPS = 25


def _every(t, fps=FPS):
    """Indices of the rows closest to a frame clock of fps frames per second."""
    t = np.asarray(t)
    frames = np.arange(t[0], t[-1] + 1e-12, 1.0 / fps)
    return np.unique(np.clip(np.searchsorted(t, frames), 0, len(t) - 1))


def _box(ax, x, z, angle, hx, hz, **kw):
    from matplotlib.patches import Polygon
    c, s = math.cos(angle), math.sin(angle)
    corners = [(x + c * u - s * w, z + s * u + c * w) for u, w in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))]
    return ax.add_patch(Polygon(corners, closed=True, **kw))


def rod(fig):
    r = run("st-rod")
    t = r["st-rod"]
    poses = r["st-rod-poses"]
    length = math.hypot(poses["x1_m"][0] - poses["x0_m"][0], poses["y1_m"][0] - poses["y0_m"][0])
    ax = fig.add_subplot(1, 1, 1)
    ax.axhline(0, color="k")
    ax.set_aspect("equal")
    ax.set_xlim(t["x_m"].min() - length, t["x_m"].max() + length)
    ax.set_ylim(-0.1 * length, t["y_m"].max() + 0.6 * length)
    ax.set_title("ST falling rod (paper Figs. 2-4 analogue)")
    line, = ax.plot([], [], lw=4, color="C0")
    label = ax.text(0.02, 0.92, "", transform=ax.transAxes)
    rows = _every(t["t_s"])

    def draw(k):
        i = rows[k]
        c, s = 0.5 * length * math.cos(t["theta_rad"][i]), 0.5 * length * math.sin(t["theta_rad"][i])
        line.set_data([t["x_m"][i] - c, t["x_m"][i] + c], [t["y_m"][i] - s, t["y_m"][i] + s])
        label.set_text(f"t = {t['t_s'][i]:.2f} s   contacts {int(t['contacts'][i])}")
    return len(rows), draw


def _pyramid_run(weighting, half=0.1, h=1 / 600, steps=900, every=15):
    from . import CollisionPipeline, ModelBuilder, SolverXPBD
    b = ModelBuilder()
    b.add_ground_plane()
    gap = 2 * half * 1.01
    centres = [(i * gap, half) for i in (-1, 0, 1)] + [((i - 0.5) * gap, 3 * half) for i in (0, 1)] + [(0, 5 * half)]
    for x, z in centres:
        body = b.add_body(xform=(x, 0, z, 0, 0, 0, 1))
        b.add_shape_box(body, hx=half, hy=half, hz=half)
    model = b.finalize()
    pipe = CollisionPipeline(model)
    contacts = pipe.contacts()
    solver = SolverXPBD(model, iterations=8)
    solver.rigid_contact_con_weighting = weighting
    s0, s1, c = model.state(), model.state(), model.control()
    frames = []
    for k in range(steps):
        pipe.collide(s0, contacts)
        solver.step(s0, s1, c, contacts, h)
        s0, s1 = s1, s0
        if k % every == 0:
            q = s0.body_q.copy()
            angle = 2 * np.arctan2(q[:, 4], q[:, 6])  # rotation about y of (0, q_y, 0, q_w)
            frames.append(((k + 1) * h, q[:, 0], q[:, 2], angle))
    return frames, half


def pyramid(fig):
    runs = [_pyramid_run(w) for w in (True, False)]
    axes = [fig.add_subplot(1, 2, i + 1) for i in range(2)]
    patches = []
    for ax, title in zip(axes, ("weighting on", "weighting off")):
        ax.axhline(0, color="k")
        ax.set_aspect("equal")
        ax.set_xlim(-0.5, 0.5)
        ax.set_ylim(-0.05, 0.75)
        ax.set_title(f"3-2-1 pyramid, {title}")
        patches.append([])
    label = fig.text(0.02, 0.02, "")

    def draw(k):
        for ax, (frames, half), ps in zip(axes, runs, patches):
            for p in ps:
                p.remove()
            ps.clear()
            t, x, z, angle = frames[k]
            for i in range(len(x)):
                ps.append(_box(ax, x[i], z[i], angle[i], half, half, color=f"C{i}", alpha=0.8))
        label.set_text(f"t = {runs[0][0][k][0]:.2f} s (XPBD, 8 iterations, h = 1/600 s)")
    return len(runs[0][0]), draw


def bounce(fig):
    t = run("e3-bounce").table()
    axes = [fig.add_subplot(1, 2, i + 1) for i in range(2)]
    balls, texts = [], []
    from matplotlib.patches import Circle
    top = t["z_m"].max()
    for ax, on in zip(axes, (0, 1)):
        ax.axhline(0, color="k")
        ax.set_aspect("equal")
        ax.set_xlim(-0.4, 0.4)
        ax.set_ylim(-0.02, top + 0.25)
        ax.axhline(0.25 * t["z_m"][t["restitution"] == on][0], color="grey", ls="--", lw=0.8)
        ax.set_title(f"restitution pass {'on' if on else 'off'} (e = 0.5; dashed: e² h0)")
        balls.append(ax.add_patch(Circle((0, 0.1), 0.1, color="C1")))
        texts.append(ax.text(0.03, 0.92, "", transform=ax.transAxes))
    sel = [np.flatnonzero(t["restitution"] == on) for on in (0, 1)]
    rows = _every(t["t_s"][sel[0]])

    def draw(k):
        for ball, text, s in zip(balls, texts, sel):
            i = s[rows[k]]
            ball.center = (0, t["z_m"][i] + 0.1)
            text.set_text(f"t = {t['t_s'][i]:.2f} s")
    return len(rows), draw


def box_drop(fig):
    t = run("e3-box-drop").table()
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    ax.axhline(0, color="k")
    ax.set_aspect("equal")
    ax.set_xlim(-0.25, 0.25)
    ax.set_ylim(-0.02, t["z_m"].max() + 0.05)
    ax.set_title("1 kg box: collide -> step -> update_contacts")
    bx.set_xlim(0, t["t_s"][-1])
    bx.set_ylim(0, 3 * t["mg_N"][0])
    bx.axhline(t["mg_N"][0], color="k", lw=0.8)
    bx.text(0.02, t["mg_N"][0] * 1.05, "m g")
    bx.set_xlabel("t [s]")
    bx.set_ylabel("summed Contacts.force z [N]")
    curve, = bx.plot([], [])
    state = {"box": None}
    rows = _every(t["t_s"])

    def draw(k):
        i = rows[k]
        if state["box"] is not None:
            state["box"].remove()
        state["box"] = _box(ax, 0, t["z_m"][i], 0, 0.1, 0.025, color="C0")
        curve.set_data(t["t_s"][: i + 1], t["support_N"][: i + 1])
    return len(rows), draw


def balls(fig):
    from matplotlib.patches import Circle
    t = run("st-balls")["st-balls"]
    r = 0.1  # [m] ball radius of the scene (lib/st/experiments.h: BallsSetup)
    xs = np.concatenate([t[f"{b}_x_m"] for b in "ABCD"])
    ys = np.concatenate([t[f"{b}_y_m"] for b in "ABCD"])
    side, top = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    for ax, title in ((side, "side view (x-z)"), (top, "top view (x-y)")):
        ax.set_aspect("equal")
        ax.set_xlim(xs.min() - 1.5 * r, xs.max() + 1.5 * r)
        ax.set_title(f"ST four-ball pile, {title}")
    side.axhline(0, color="k")
    side.set_ylim(-0.02, 0.45)
    top.set_ylim(ys.min() - 1.5 * r, ys.max() + 1.5 * r)
    circles = [(side.add_patch(Circle((0, 0), r, color=f"C{i}", alpha=0.8)),
                top.add_patch(Circle((0, 0), r, color=f"C{i}", alpha=0.8))) for i in range(4)]
    for i, name in enumerate("ABCD"):
        circles[i][1].set_label(name)
    top.legend(fontsize=7, loc="upper right")
    label = fig.text(0.02, 0.02, "")
    rows = _every(t["t_s"])

    def draw(k):
        i = rows[k]
        for (c_side, c_top), name in zip(circles, "ABCD"):
            c_side.center = (t[f"{name}_x_m"][i], t[f"{name}_z_m"][i])
            c_top.center = (t[f"{name}_x_m"][i], t[f"{name}_y_m"][i])
        label.set_text(f"t = {t['t_s'][i]:.2f} s   contacts {int(t['contacts'][i])}   LCP size {int(t['lcp_size'][i])}")
    return len(rows), draw


DRAW = {"st-rod": rod, "e3-pyramid": pyramid, "e3-bounce": bounce, "e3-box-drop": box_drop, "st-balls": balls}


def animate(scene, out, poster=None):
    """Writes the animation of scene to out (.mp4 with ffmpeg, or .gif); returns the frame count."""
    if scene not in DRAW:
        raise ValueError(f"animate: scene must be one of {', '.join(SCENES)}, got {scene!r}")
    out = pathlib.Path(out)
    if out.suffix not in (".mp4", ".gif"):
        raise ValueError(f"animate: out must end in .mp4 or .gif, got {out.name!r}")
    if out.suffix == ".mp4" and shutil.which("ffmpeg") is None:
        raise RuntimeError("animate: writing .mp4 needs ffmpeg: apt-get install ffmpeg (or write a .gif)")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import animation

    wide = scene in ("e3-pyramid", "e3-bounce", "e3-box-drop", "st-balls")
    fig = plt.figure(figsize=(10, 4.5) if wide else (7, 4.5), dpi=100)
    frames, draw = DRAW[scene](fig)
    anim = animation.FuncAnimation(fig, draw, frames=frames, interval=1000 / FPS)
    writer = animation.FFMpegWriter(fps=FPS) if out.suffix == ".mp4" else animation.PillowWriter(fps=FPS)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.stem + ".partial" + out.suffix)
    anim.save(tmp, writer=writer)
    tmp.replace(out)
    if poster:
        draw(frames - 1)
        fig.savefig(poster)
    plt.close(fig)
    return frames


def main(argv=None):
    ap = argparse.ArgumentParser(prog="impulse run SCENE --animate", description=__doc__.splitlines()[0])
    ap.add_argument("scene", help=", ".join(SCENES))
    ap.add_argument("out", help="output file, .mp4 (ffmpeg) or .gif")
    ap.add_argument("--poster", help="also write the last frame as a PNG")
    a = ap.parse_args(argv)
    try:
        n = animate(a.scene, a.out, a.poster)
    except (ValueError, RuntimeError) as e:
        print(e, file=sys.stderr)
        return 2
    print(f"animate: {a.scene}: {n} frames -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
