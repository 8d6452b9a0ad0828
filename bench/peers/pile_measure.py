"""What every Python peer driver of bench/peers/ shares: the layout rule and the quality columns
of pile.toml (from poses and twists only), and the timed run with its settled-pile window.

Poses are (n, 7) arrays: position [m], then the unit quaternion (w, x, y, z); twists (n, 6):
linear [m/s], then angular velocity [rad/s] (world or body frame: the bodies are isotropic).
"""
import argparse
import math
import sys
import time
import tomllib

import numpy as np


def pile_arguments(driver, iterations_key):
    """The command line every pile driver takes (--scene --kind --n --steps --iterations), checked,
    with the scene file read: (args, common table, kind table, steps, iterations). iterations_key
    names the scene's default for this engine (impulse_iterations or peer_iterations)."""
    ap = argparse.ArgumentParser(prog=driver)
    ap.add_argument("--scene", required=True)
    ap.add_argument("--kind", required=True, choices=["spheres", "boxes", "stack", "heavy"])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=-1)
    ap.add_argument("--iterations", type=int, default=-1)
    a = ap.parse_args()
    if not 1 <= a.n <= 1000000:
        print(f"{driver}: --n must be in [1, 1000000], got {a.n}", file=sys.stderr)
        sys.exit(2)
    with open(a.scene, "rb") as f:
        doc = tomllib.load(f)
    c, s = doc["common"], doc[a.kind]
    steps = a.steps if a.steps > 0 else c["steps"]
    iterations = a.iterations if a.iterations > 0 else c[iterations_key]
    return a, c, s, steps, iterations


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


def box_box_depths(a, xa, ra, xb, rb):
    """Least overlap of pairs of cubes' projections over the 15 separating axes (pile.toml) [m]; 0
    for a pair that some axis separates. One row per pair: centres (P, 3), rotations (P, 3, 3)."""
    u, v, d = ra.transpose(0, 2, 1), rb.transpose(0, 2, 1), xb - xa  # rows: the cubes' axes
    axes = np.concatenate([u, v, np.cross(u[:, :, None, :], v[:, None, :, :]).reshape(-1, 9, 3)], axis=1)
    n = np.linalg.norm(axes, axis=2)
    valid = n >= 1e-9
    L = axes / np.where(valid, n, 1.0)[:, :, None]
    overlap = (a * (np.abs(np.einsum("pij,pkj->pik", u, L)).sum(axis=1) +
                    np.abs(np.einsum("pij,pkj->pik", v, L)).sum(axis=1)) - np.abs(np.einsum("pj,pkj->pk", d, L)))
    separated = np.any(valid & (overlap <= 0), axis=1)
    depth = np.where(valid, overlap, np.inf).min(axis=1)
    return np.where(separated, 0.0, depth)


def body_overlap(kind, size, qpos):
    """Body-body penetration (max, mean over overlapping pairs): spheres 2 r - d, cubes 15 axes."""
    x = qpos[:, 0:3]
    reach = 2 * size if kind == "spheres" else 2 * math.sqrt(3.0) * size
    cells = {}
    for i, c in enumerate(np.floor(x / reach).astype(int)):
        cells.setdefault(tuple(c), []).append(i)
    pi, po = [], []
    for (ci, cj, ck), members in cells.items():
        near = [o for di in (-1, 0, 1) for dj in (-1, 0, 1) for dk in (-1, 0, 1)
                for o in cells.get((ci + di, cj + dj, ck + dk), [])]
        for i in members:
            for o in near:
                if o > i:
                    pi.append(i)
                    po.append(o)
    pi, po = np.array(pi, dtype=int), np.array(po, dtype=int)
    d2 = np.sum((x[po] - x[pi]) ** 2, axis=1)
    close = d2 < reach * reach
    pi, po, d2 = pi[close], po[close], d2[close]
    if kind == "spheres":
        depth = 2 * size - np.sqrt(d2)
    else:
        R = np.array([quat_to_R(q) for q in qpos[:, 3:7]])
        depth = box_box_depths(size, x[pi], R[pi], x[po], R[po])
    depth = depth[depth > 0]
    return (float(depth.max()), float(depth.mean())) if len(depth) else (0.0, 0.0)


def settle_frames(c):
    """S = ceil(settle_time / h): the frames after which the pile is at rest (pile.toml)."""
    return math.ceil(c["settle_time"] / c["h"] - 1e-9)


def quality_window(c, steps):
    """(W, w0) of pile.toml: W = min(steps, ceil(quality_window / h)) frames from w0 = min(S, steps - W)."""
    frames = min(max(1, math.ceil(c["quality_window"] / c["h"] - 1e-9)), steps)
    return frames, min(settle_frames(c), steps - frames)


def run(c, s, kind, n, steps, step, state, mass, contact_count):
    """Steps the engine `steps` times and measures it as pile.toml says.

    step() advances one step and returns the seconds of its stages {name: s} (empty when the
    engine has no stage timers); state() returns (poses, twists); contact_count() the engine's
    own contact points of the last step. The first min(2, steps - 1) steps are not timed (caches,
    kernel loads). Returns the columns every driver prints."""
    size = s["radius"] if kind == "spheres" else s["half"]
    pos = positions(s, n)
    warmup = min(2, steps - 1)
    rest_start = min(steps - 1, math.floor(steps * (1 - c["rest_window"])))
    every = max(1, steps // max(1, c["series_samples"]))
    total, contacts, series_t, series_pen, series_ke, rest, stages = 0.0, 0.0, [], [], [], None, {}
    # the settled pile over the quality window, at most 12 samples (pile.toml): W frames from
    # w0 = min(S, steps - W), S the frames of settle_time
    window_frames, window_start = quality_window(c, steps)
    window_every = max(1, window_frames // 12)
    window_end = window_start + window_frames
    win = {"ground_max": 0.0, "ground_mean": 0.0, "body_max": 0.0, "body_mean": 0.0, "kinetic": 0.0, "samples": 0}
    centre0 = state()[0][:, 0:3].mean(axis=0)
    centre1 = centre0
    for k in range(steps):
        if k == rest_start:
            rest = state()[0][:, 0:3].copy()
        t0 = time.perf_counter()
        st = step()
        dt = time.perf_counter() - t0
        if k >= warmup:
            total += dt
            for name, sec in st.items():
                stages[name] = stages.get(name, 0.0) + sec
        contacts += contact_count()
        if k + 1 == window_start:
            centre0 = state()[0][:, 0:3].mean(axis=0)
        if window_start <= k < window_end and (k + 1 - window_start) % window_every == 0:
            qp, qv = state()
            g_max, g_mean, g_ke = quality(kind, size, mass, qp, qv)
            b_max, b_mean = body_overlap(kind, size, qp)
            win["ground_max"] = max(win["ground_max"], g_max)
            win["body_max"] = max(win["body_max"], b_max)
            win["ground_mean"] += g_mean
            win["body_mean"] += b_mean
            win["kinetic"] += g_ke
            win["samples"] += 1
        if k + 1 == window_end:
            centre1 = state()[0][:, 0:3].mean(axis=0)
        if (k + 1) % every == 0 or k + 1 == steps:
            series_t.append((k + 1) * c["h"])
            q = quality(kind, size, mass, *state())
            series_pen.append(q[0])
            series_ke.append(q[2])
    qpos, qvel = state()
    max_pen, mean_pen, ke = quality(kind, size, mass, qpos, qvel)
    drift = np.linalg.norm(qpos[:, 0:3] - rest, axis=1)
    ns = max(1, win["samples"])
    timed = steps - warmup
    return {
        "kind": kind, "n": n, "steps": steps,
        "layout_checksum": sum(x + 2 * y + 3 * z for x, y, z in pos),
        "seconds_per_step": total / timed,
        "collide_seconds_per_step": stages["collide"] / timed if "collide" in stages else -1,
        "solve_seconds_per_step": stages["solve"] / timed if "solve" in stages else -1,
        "contacts_per_step": contacts / steps, "max_penetration": max_pen, "mean_penetration": mean_pen,
        "kinetic_energy": ke, "drift_mean": float(drift.mean()), "drift_max": float(drift.max()),
        "window_ground_penetration_max": win["ground_max"], "window_ground_penetration_mean": win["ground_mean"] / ns,
        "window_body_penetration_max": win["body_max"], "window_body_penetration_mean": win["body_mean"] / ns,
        "window_kinetic_energy": win["kinetic"] / ns,
        "window_centre_drift": float(np.linalg.norm(centre1 - centre0)),
        "window_start": window_start * c["h"], "window_settled": int(window_start >= settle_frames(c)),
        "series_t": series_t, "series_max_penetration": series_pen, "series_kinetic_energy": series_ke}
