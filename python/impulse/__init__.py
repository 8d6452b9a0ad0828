"""impulse: the course's calculators, exercises, scenes and engine, from Python.

    import impulse
    r = impulse.calc("E3.4-xpbd-pn", d=-0.01, h=0.01, w=2.0, relaxation=0.8)
    r.p_n, r.p_n.unit                      # 0.4, 'N s'
    pyr = impulse.run("e3-pyramid", steps=120)
    pyr["e3-pyramid"]["ground_over_mg"]    # a NumPy array, the scene's own storage

    import impulse as newton               # the engine, with Newton 1.6.1's names and keywords
    from impulse import wp                 # Warp's few constructors (tuples and NumPy work too)
    builder = newton.ModelBuilder()
    body = builder.add_body(xform=wp.transform(wp.vec3(0, 0, 0.2), wp.quat_identity()))
    builder.add_shape_box(body, hx=0.1, hy=0.05, hz=0.025, cfg=newton.ModelBuilder.ShapeConfig(mu=0.6))
    builder.add_ground_plane()
    model = builder.finalize(device="cpu")
    state = model.state(); state.body_q.numpy()   # Warp's .numpy(): a NumPy view

A Newton script runs here with its two import lines changed (python/tests/newton_scripts/). The C++
side is impulse._core (python/src/); this package adds units, Warp-like values and argument checks.
"""
import sys as _sys
from types import SimpleNamespace


class WrongPython(ImportError):
    """impulse cannot load in this interpreter (another Python version, or no NumPy). Uncaught, it
    prints as one line, not a traceback."""


def _one_line_hook(previous):
    def hook(kind, value, tb):
        if isinstance(value, WrongPython):
            print(value, file=_sys.stderr)
        else:
            previous(kind, value, tb)
    return hook


def _refuse(message):
    if not getattr(_sys.excepthook, "impulse_one_line", False):
        _sys.excepthook = _one_line_hook(_sys.excepthook)
        _sys.excepthook.impulse_one_line = True
    raise WrongPython(message)


def _check_built_for_this_python():
    """One line instead of "No module named impulse._core" when the extension was built for another
    Python (or "No module named numpy" in a Python without NumPy): names the version it was built
    for and how to run or build for this one."""
    import glob
    import os
    import re
    here = os.path.dirname(os.path.abspath(__file__))
    tags = []
    for f in glob.glob(os.path.join(here, "_core.cpython-*.so")):
        m = re.search(r"_core\.cpython-(\d)(\d+)", os.path.basename(f))
        if m:
            tags.append(f"{m.group(1)}.{m.group(2)}")
    mine = f"{_sys.version_info[0]}.{_sys.version_info[1]}"
    if tags and mine not in tags:
        _refuse(f"impulse was built for Python {', '.join(sorted(tags))}, this is Python {mine} "
                f"({_sys.executable}); run it with ./run python (the project's venv), or build for this one: "
                f"cmake -S . -B build -DPython_EXECUTABLE={_sys.executable} && cmake --build build")
    try:
        import numpy  # noqa: F401
    except ImportError:
        _refuse(f"impulse needs NumPy, which this Python ({_sys.executable}) lacks; run it with ./run python "
                f"(the project's venv under build/), or install NumPy into this one")


_check_built_for_this_python()

from . import _core, wp
from ._core import (CollisionPipeline, Contacts, Control, Model, ModelBuilder, PADMMStatus, SensorContact,
                    ShapeConfig, SolverFeatherstone, SolverPADMM, SolverSemiImplicit, SolverVBD, SolverXPBD, State,
                    eval_fk, eval_ik)
from .course import Quantity, QuantityArray, Result, calc, check, exercises, formula, formulas
from .newton_names import Axis, ContactCount, JointDofConfig, JointType, Mesh
from .scenes import SceneRun, Table, run, scenes
from . import usd as _usd

_core._set_array_type(wp.array)
ModelBuilder.JointDofConfig = JointDofConfig
ModelBuilder.add_usd = _usd.add_usd
_count = Contacts.rigid_contact_count
Contacts.rigid_contact_count = property(lambda self: ContactCount(_count.fget(self)), doc=_count.__doc__)

# Newton keeps its solvers in newton.solvers and the sensor in newton.sensors; the same paths work here.
solvers = SimpleNamespace(SolverXPBD=SolverXPBD, SolverSemiImplicit=SolverSemiImplicit,
                          SolverFeatherstone=SolverFeatherstone, SolverVBD=SolverVBD, SolverPADMM=SolverPADMM)
sensors = SimpleNamespace(SensorContact=SensorContact)

__all__ = [
    "CollisionPipeline", "Contacts", "Control", "Model", "ModelBuilder", "PADMMStatus", "SensorContact", "ShapeConfig",
    "SolverFeatherstone", "SolverPADMM", "SolverSemiImplicit", "SolverVBD", "SolverXPBD", "State",
    "eval_fk", "eval_ik", "solvers", "sensors", "wp", "Axis", "JointDofConfig", "JointType", "Mesh", "WrongPython",
    "Quantity", "QuantityArray", "Result", "calc", "check", "exercises", "formula", "formulas",
    "SceneRun", "Table", "run", "scenes",
]
