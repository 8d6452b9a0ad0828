#!/usr/bin/env python3
"""The pile of bench/peers/scenes/pile.toml in MuJoCo (PyPI `mujoco`, float64).

Each body is a free body with one sphere or box geom (density from the file), a ground plane,
the Newton solver at peer_iterations, pyramidal friction cone (MuJoCo's default). Friction
combines as the maximum of the two geoms in MuJoCo, so every geom gets the file's mu; the spheres
use condim 6 with the file's rolling friction (MuJoCo's third friction coefficient, [m]).
Only the whole step is timed (mj_step; MuJoCo's stage timers need a C callback). Layout,
quality and the timed loop: pile_measure.py.

    mujoco_pile.py --scene pile.toml --kind spheres|boxes --n N [--steps S] [--iterations I]
"""
import json

import mujoco
import numpy as np

from pile_measure import density, pile_arguments, positions, run


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


def main():
    a, c, s, steps, iterations = pile_arguments("mujoco_pile", "peer_iterations")
    pos = positions(s, a.n)
    model = mujoco.MjModel.from_xml_string(model_xml(c, s, a.kind, pos, iterations))
    data = mujoco.MjData(model)
    mass = np.array(model.body_mass[1:])

    def step():
        mujoco.mj_step(model, data)
        return {}

    def state():
        return data.qpos.reshape(a.n, 7), data.qvel.reshape(a.n, 6)

    out = run(c, s, a.kind, a.n, steps, step, state, mass, lambda: data.ncon)
    print(json.dumps({"engine": "mujoco", "iterations": iterations, **out, "mujoco_version": mujoco.__version__}))


if __name__ == "__main__":
    main()
