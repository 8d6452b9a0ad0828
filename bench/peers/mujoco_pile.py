#!/usr/bin/env python3
"""The pile of bench/peers/scenes/pile.toml in MuJoCo (PyPI `mujoco`, float64).

Each body is a free body with one sphere or box geom (density from the file), a ground plane,
the Newton solver at peer_iterations, pyramidal friction cone (MuJoCo's default). Friction
combines as the maximum of the two geoms in MuJoCo, so every geom gets the file's mu; the spheres
use condim 6 with the file's rolling friction (MuJoCo's third friction coefficient, [m]).
Only the whole step is timed (mj_step; MuJoCo's stage timers need a C callback).

    mujoco_pile.py --scene pile.toml --kind spheres|boxes --n N [--steps S] [--iterations I]
"""
import argparse
import json
import math
import sys
import time
import tomllib

import mujoco
import numpy as np


def positions(s, n):
    per_layer = (n + s["layers"] - 1) // s["layers"]
    side = math.ceil(math.sqrt(per_layer))
    out = []
    for i in range(n):
        layer, k = divmod(i, per_layer)
        sh = s["shift"] if layer % 2 else 0.0
        out.append(((k % side) * s["pitch"] + sh, (k // side) * s["pitch"] + sh, s["z0"] + layer * s["rise"]))
    return out


def density(c, s, i, n):
    """The top layer's bodies times density_top_ratio (pile.toml) [kg/m^3]."""
    per_layer = (n + s["layers"] - 1) // s["layers"]
    top = i // per_layer == (n - 1) // per_layer and n > per_layer
    return c["density"] * (s.get("density_top_ratio", 1.0) if top else 1.0)


def model_xml(c, s, kind, pos, iterations):
    if kind == "spheres":
        geom = f'type="sphere" size="{s["radius"]!r}" condim="6" friction="{c["mu"]!r} 0 {s["mu_rolling"]!r}"'
    else:
        a = s["half"]
        geom = f'type="box" size="{a!r} {a!r} {a!r}" condim="3" friction="{c["mu"]!r} 0 0"'
    bodies = "\n".join(
        f'<body pos="{x!r} {y!r} {z!r}"><freejoint/><geom {geom} density="{density(c, s, i, len(pos))!r}"/></body>'
        for i, (x, y, z) in enumerate(pos))
    return f"""<mujoco>
  <option timestep="{c["h"]!r}" gravity="0 0 {-c["gravity"]!r}" iterations="{iterations}" solver="Newton"/>
  <size memory="2G"/>
  <worldbody>
    <geom type="plane" size="0 0 1" condim="{6 if kind == "spheres" else 3}" friction="{c["mu"]!r} 0 {s.get("mu_rolling", 0.0)!r}"/>
    {bodies}
  </worldbody>
</mujoco>"""


def quat_to_R(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def quality(kind, size, m, qpos, qvel):
    n = len(m)
    x = qpos[:, 0:3]
    if kind == "spheres":
        pen = np.maximum(0.0, size - x[:, 2])
    else:
        corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * size
        lowest = np.empty(n)
        for i in range(n):
            lowest[i] = x[i, 2] + (quat_to_R(qpos[i, 3:7])[2] @ corners.T).min()
        pen = np.maximum(0.0, -lowest)
    touching = pen > 0
    inertia = (0.4 if kind == "spheres" else 2.0 / 3.0) * m * size * size
    ke = float(np.sum(0.5 * m * np.sum(qvel[:, 0:3] ** 2, axis=1) + 0.5 * inertia * np.sum(qvel[:, 3:6] ** 2, axis=1)))
    return float(pen.max()), float(pen[touching].mean()) if touching.any() else 0.0, ke


def box_box_depth(a, xa, ra, xb, rb):
    """Least overlap of two cubes' projections over the 15 separating axes (pile.toml) [m]; 0 apart."""
    u, v, d = ra.T, rb.T, xb - xa
    axes = list(u) + list(v) + [np.cross(p, q) for p in u for q in v]
    depth = math.inf
    for L in axes:
        n = np.linalg.norm(L)
        if n < 1e-9:
            continue
        L = L / n
        overlap = a * (np.abs(u @ L).sum() + np.abs(v @ L).sum()) - abs(d @ L)
        if overlap <= 0:
            return 0.0
        depth = min(depth, overlap)
    return depth


def body_overlap(kind, size, qpos):
    """Body-body penetration (max, mean over overlapping pairs): spheres 2 r - d, cubes 15 axes."""
    x = qpos[:, 0:3]
    reach = 2 * size if kind == "spheres" else 2 * math.sqrt(3.0) * size
    cells = {}
    for i, c in enumerate(np.floor(x / reach).astype(int)):
        cells.setdefault(tuple(c), []).append(i)
    depths = []
    for (ci, cj, ck), members in cells.items():
        near = [o for di in (-1, 0, 1) for dj in (-1, 0, 1) for dk in (-1, 0, 1)
                for o in cells.get((ci + di, cj + dj, ck + dk), [])]
        for i in members:
            for o in near:
                if o <= i:
                    continue
                d2 = float(np.sum((x[o] - x[i]) ** 2))
                if d2 >= reach * reach:
                    continue
                if kind == "spheres":
                    depth = 2 * size - math.sqrt(d2)
                else:
                    depth = box_box_depth(size, x[i], quat_to_R(qpos[i, 3:7]), x[o], quat_to_R(qpos[o, 3:7]))
                if depth > 0:
                    depths.append(depth)
    return (max(depths), sum(depths) / len(depths)) if depths else (0.0, 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scene", required=True)
    ap.add_argument("--kind", required=True, choices=["spheres", "boxes", "stack", "heavy"])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=-1)
    ap.add_argument("--iterations", type=int, default=-1)
    a = ap.parse_args()
    if not 1 <= a.n <= 1000000:
        sys.exit(f"mujoco_pile: --n must be in [1, 1000000], got {a.n}")
    doc = tomllib.load(open(a.scene, "rb"))
    c, s = doc["common"], doc[a.kind]
    steps = a.steps if a.steps > 0 else c["steps"]
    iterations = a.iterations if a.iterations > 0 else c["peer_iterations"]
    size = s["radius"] if a.kind == "spheres" else s["half"]
    pos = positions(s, a.n)
    model = mujoco.MjModel.from_xml_string(model_xml(c, s, a.kind, pos, iterations))
    data = mujoco.MjData(model)
    mass = np.array(model.body_mass[1:])
    warmup = min(2, steps - 1)
    rest_start = min(steps - 1, math.floor(steps * (1 - c["rest_window"])))
    every = max(1, steps // max(1, c["series_samples"]))
    total, contacts, series_t, series_pen, rest = 0.0, 0.0, [], [], None
    # the settled pile over the last quality_window seconds, at most 12 samples (pile.toml)
    window_frames = min(max(1, math.ceil(c["quality_window"] / c["h"] - 1e-9)), steps)
    window_every = max(1, window_frames // 12)
    window_start = steps - window_frames
    win = {"ground_max": 0.0, "ground_mean": 0.0, "body_max": 0.0, "body_mean": 0.0, "kinetic": 0.0, "samples": 0}

    def state():
        return data.qpos.reshape(a.n, 7), data.qvel.reshape(a.n, 6)

    centre0 = state()[0][:, 0:3].mean(axis=0)
    for k in range(steps):
        if k == rest_start:
            rest = state()[0][:, 0:3].copy()
        t0 = time.perf_counter()
        mujoco.mj_step(model, data)
        dt = time.perf_counter() - t0
        if k >= warmup:
            total += dt
        contacts += data.ncon
        if k + 1 == window_start:
            centre0 = state()[0][:, 0:3].mean(axis=0)
        if k >= window_start and (k + 1 - window_start) % window_every == 0:
            qp, qv = state()
            g_max, g_mean, g_ke = quality(a.kind, size, mass, qp, qv)
            b_max, b_mean = body_overlap(a.kind, size, qp)
            win["ground_max"] = max(win["ground_max"], g_max)
            win["body_max"] = max(win["body_max"], b_max)
            win["ground_mean"] += g_mean
            win["body_mean"] += b_mean
            win["kinetic"] += g_ke
            win["samples"] += 1
        if (k + 1) % every == 0 or k + 1 == steps:
            series_t.append((k + 1) * c["h"])
            series_pen.append(quality(a.kind, size, mass, *state())[0])
    qpos, qvel = state()
    max_pen, mean_pen, ke = quality(a.kind, size, mass, qpos, qvel)
    drift = np.linalg.norm(qpos[:, 0:3] - rest, axis=1)
    ns = max(1, win["samples"])
    print(json.dumps({
        "engine": "mujoco", "kind": a.kind, "n": a.n, "steps": steps, "iterations": iterations,
        "layout_checksum": sum(x + 2 * y + 3 * z for x, y, z in pos),
        "seconds_per_step": total / (steps - warmup), "collide_seconds_per_step": -1, "solve_seconds_per_step": -1,
        "contacts_per_step": contacts / steps, "max_penetration": max_pen, "mean_penetration": mean_pen,
        "kinetic_energy": ke, "drift_mean": float(drift.mean()), "drift_max": float(drift.max()),
        "window_ground_penetration_max": win["ground_max"], "window_ground_penetration_mean": win["ground_mean"] / ns,
        "window_body_penetration_max": win["body_max"], "window_body_penetration_mean": win["body_mean"] / ns,
        "window_kinetic_energy": win["kinetic"] / ns,
        "window_centre_drift": float(np.linalg.norm(qpos[:, 0:3].mean(axis=0) - centre0)),
        "series_t": series_t, "series_max_penetration": series_pen, "mujoco_version": mujoco.__version__}))


if __name__ == "__main__":
    main()
