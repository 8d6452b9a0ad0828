"""impulse: the course's calculators, exercises, scenes and engine, from Python.

    import impulse
    r = impulse.calc("E3.4-xpbd-pn", d=-0.01, h=0.01, w=2.0, relaxation=0.8)
    r.p_n, r.p_n.unit                      # 0.4, 'N s'
    pyr = impulse.run("e3-pyramid", steps=120)
    pyr["e3-pyramid"]["ground_over_mg"]    # a NumPy array, the scene's own storage

    builder = impulse.ModelBuilder()       # the engine, with Newton's names
    body = builder.add_body(xform=(0, 0, 0.2, 0, 0, 0, 1))
    builder.add_shape_box(body, hx=0.1, hy=0.05, hz=0.025)
    builder.add_ground_plane()
    model = builder.finalize()

The C++ side is impulse._core (python/src/); this package adds units and argument checks.
"""
from types import SimpleNamespace

from ._core import (CollisionPipeline, Contacts, Control, Model, ModelBuilder, PADMMStatus, ShapeConfig,
                    SolverFeatherstone, SolverPADMM, SolverSemiImplicit, SolverVBD, SolverXPBD, State)
from .course import Quantity, QuantityArray, Result, calc, check, exercises, formula, formulas
from .scenes import SceneRun, Table, run, scenes

# Newton keeps its solvers in newton.solvers; the same path works here.
solvers = SimpleNamespace(SolverXPBD=SolverXPBD, SolverSemiImplicit=SolverSemiImplicit,
                          SolverFeatherstone=SolverFeatherstone, SolverVBD=SolverVBD, SolverPADMM=SolverPADMM)

__all__ = [
    "CollisionPipeline", "Contacts", "Control", "Model", "ModelBuilder", "PADMMStatus", "ShapeConfig", "SolverFeatherstone",
    "SolverPADMM", "SolverSemiImplicit", "SolverVBD", "SolverXPBD", "State",
    "solvers",
    "Quantity", "QuantityArray", "Result", "calc", "check", "exercises", "formula", "formulas",
    "SceneRun", "Table", "run", "scenes",
]
