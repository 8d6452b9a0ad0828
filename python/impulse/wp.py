"""The few Warp constructors the course's snippets use, under Warp's names, so that a Newton script
runs here with only its import lines changed (``from impulse import wp`` for ``import warp as wp``).

Values are NumPy float64 arrays laid out as Warp lays them out: vec3 (x, y, z), quat (x, y, z, w),
transform (p_x, p_y, p_z, q_x, q_y, q_z, q_w), mat33 row-major. Every impulse call also takes plain
tuples and NumPy arrays wherever Newton takes a Warp value; warp itself is not needed.

    X = wp.transform(wp.vec3(0, 0, 1), wp.quat_from_axis_angle(wp.vec3(0, 1, 0), 0.3))
    state.body_q.numpy()          # arrays of State and Model have Warp's .numpy() and .assign()
"""
import math

import numpy as np

float32, float64, int32 = np.float32, np.float64, np.int32


class array(np.ndarray):
    """A NumPy array with Warp's ``.numpy()`` (itself, a view) and ``.assign(values)`` (copy in)."""

    def __new__(cls, data=None, dtype=None, shape=None, device=None):
        _cpu_only(device)
        if data is None:
            data = np.zeros(shape if shape is not None else 0, dtype=dtype or np.float64)
        return np.array(data, dtype=dtype).view(cls)

    def numpy(self):
        return self.view(np.ndarray)

    def assign(self, values):
        self[...] = np.asarray(values).reshape(self.shape)


def _cpu_only(device):
    if device not in (None, "cpu"):
        raise ValueError(f"device must be 'cpu' or None, got {device!r}")


def _numbers(args, n, what):
    v = np.asarray(args[0] if len(args) == 1 else args, dtype=np.float64).ravel()
    if v.size != n:
        raise ValueError(f"wp.{what}: takes {n} numbers, got {v.size}")
    return v


def vec3(*args):
    """wp.vec3(x, y, z) or wp.vec3(sequence of 3); wp.vec3() is zero."""
    return np.zeros(3) if not args else _numbers(args, 3, "vec3")


def quat(*args):
    """wp.quat(x, y, z, w): the imaginary part first, as Warp and Newton store it (course E1 §2)."""
    return _numbers(args, 4, "quat")


def quat_identity(dtype=None):
    return np.array([0.0, 0.0, 0.0, 1.0])


def quat_from_axis_angle(axis, angle):
    """q = (a_hat sin(theta/2), cos(theta/2)), theta [rad] (course E1 §2)."""
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    return np.concatenate([a * math.sin(0.5 * angle), [math.cos(0.5 * angle)]])


def quat_rotate(q, v):
    """v' = v + 2 w (u x v) + 2 u x (u x v), q = (u, w)."""
    q = np.asarray(q, dtype=np.float64)
    u, w, v = q[:3], q[3], np.asarray(v, dtype=np.float64)
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def transform(*args, p=None, q=None):
    """wp.transform(p, q), wp.transform(7 numbers) or wp.transform(p_x, ..., q_w)."""
    if p is not None or q is not None:
        args = (p if p is not None else vec3(), q if q is not None else quat_identity())
    if len(args) == 2:
        return np.concatenate([_numbers((args[0],), 3, "transform's p"), _numbers((args[1],), 4, "transform's q")])
    return _numbers(args, 7, "transform")


def transform_identity(dtype=None):
    return np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])


def mat33(*args):
    """wp.mat33(9 numbers, row-major) or a 3x3 nested sequence."""
    return _numbers(args, 9, "mat33").reshape(3, 3)


def zeros(shape, dtype=np.float64, device=None):
    _cpu_only(device)
    return np.zeros(shape, dtype=dtype).view(array)


def clone(a, device=None):
    """A copy, not another name for the same buffer (course E1 §7: save a pose with wp.clone)."""
    _cpu_only(device)
    return np.array(a, copy=True).view(array)
