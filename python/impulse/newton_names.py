"""The small Newton 1.6.1 types a builder script names besides the builder itself: Mesh,
JointDofConfig, Axis, JointType, and the readback's integer count. The engine's own types come
from impulse._core (python/src/); these only carry values to it.
"""
import enum

import numpy as np


class Axis(enum.IntEnum):
    """newton.Axis: X, Y, Z (an up axis or a joint axis)."""
    X = 0
    Y = 1
    Z = 2


class JointType(enum.IntEnum):
    """newton.JointType, numbered as the engine's Model.joint_type (lib/e1/joints.h)."""
    PRISMATIC = 0
    REVOLUTE = 1
    BALL = 2
    FIXED = 3
    FREE = 4
    DISTANCE = 5
    D6 = 6


class Mesh:
    """newton.Mesh(vertices, indices): triangle vertices [m] (n, 3) and 3 indices per triangle."""

    def __init__(self, vertices, indices):
        self.vertices = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
        self.indices = np.asarray(indices, dtype=np.int64).ravel()
        if self.indices.size % 3:
            raise ValueError(f"Mesh: indices must be 3 per triangle, got {self.indices.size}")


class JointDofConfig:
    """newton.ModelBuilder.JointDofConfig: one axis of a joint. The engine's joints have no limits,
    drives, damping, armature or friction; a config setting any of them away from Newton's default
    is refused by add_joint_* with NotImplementedError naming the field (nothing is ignored)."""

    _DEFAULTS = dict(limit_lower=-1e10, limit_upper=1e10, limit_ke=1e4, limit_kd=10.0, target_pos=0.0,
                     target_vel=0.0, target_ke=0.0, target_kd=0.0, damping=0.0, armature=0.0,
                     effort_limit=1e6, velocity_limit=1e6, friction=0.0, actuator_mode=None)

    def __init__(self, *, axis=Axis.X, **fields):
        unknown = set(fields) - set(self._DEFAULTS)
        if unknown:
            raise TypeError(f"JointDofConfig: no field {sorted(unknown)[0]!r}")
        self.axis = axis
        for k, v in self._DEFAULTS.items():
            setattr(self, k, fields.get(k, v))

    def _impulse_unsupported(self):
        for k, v in self._DEFAULTS.items():
            if getattr(self, k) != v:
                return f"JointDofConfig.{k}={getattr(self, k)!r}: impulse's joints have no {k}"
        return ""


class ContactCount(int):
    """Contacts.rigid_contact_count: the count as an int that also answers Warp's .numpy() (a
    one-element array, as Newton's count array reads)."""

    def numpy(self):
        return np.array([int(self)], dtype=np.int32)
