"""Route (c) against Drake's hydroelastic contact (pydrake from PyPI, CPU).

Case (chapters/e3/04-materials.md): a sphere of radius R = 0.1 m pressed a depth e into a rigid
box. Drake's compliant sphere carries the field E (R - r) / R, which is Newton's linear law
p = -kh phi with kh = E / R; Drake tessellates the sphere (resolution_hint 5 mm) and integrates
its pressure over the contact polygons, impulse samples the balance surface on a lattice. The
force on the sphere is read from Drake's ContactResults (zero velocity: no dissipation, no
friction) and compared with impulse's F_agg (scene e3-hydro-consumers, e3-hydro-force.csv).

Tolerance 1.5 %: Drake's tessellated sphere is inscribed in the true one and loses 0.67 % of the
closed-form force at e = 3 mm with a 2.5 mm hint (0.08 % at 30 mm; 2.7 % and 0.3 % with a 5 mm
hint, so the loss falls as the hint squared); impulse's 64-line lattice is within 0.01 % of the
closed form. Exit 0 when every depth agrees, 1 otherwise, 2 on bad arguments.
"""
import argparse
import csv
import json
import pathlib
import subprocess
import sys
import tempfile

R = 0.1          # [m] sphere radius (the scene's)
KH = 2e6         # [N/m^3] the scene's default kh
HINT = 0.0025   # [m] Drake's resolution_hint for the compliant sphere
TOLERANCE = 0.015


def drake_force(e):
    from pydrake.geometry import (AddCompliantHydroelasticProperties, AddContactMaterial,
                                  AddRigidHydroelasticProperties, Box, ProximityProperties, Sphere)
    from pydrake.math import RigidTransform
    from pydrake.multibody.plant import AddMultibodyPlantSceneGraph, ContactModel, CoulombFriction
    from pydrake.multibody.tree import SpatialInertia
    from pydrake.systems.framework import DiagramBuilder

    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
    plant.set_contact_model(ContactModel.kHydroelastic)
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithDensity(1000, R))
    soft = ProximityProperties()
    AddCompliantHydroelasticProperties(HINT, KH * R, soft)  # E = kh R
    AddContactMaterial(dissipation=0.0, friction=CoulombFriction(0, 0), properties=soft)
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(R), "ball", soft)
    rigid = ProximityProperties()
    AddRigidHydroelasticProperties(rigid)
    AddContactMaterial(dissipation=0.0, friction=CoulombFriction(0, 0), properties=rigid)
    plant.RegisterCollisionGeometry(plant.world_body(), RigidTransform([0, 0, -0.5]), Box(2, 2, 1), "ground", rigid)
    plant.Finalize()
    diagram = builder.Build()
    context = plant.GetMyMutableContextFromRoot(diagram.CreateDefaultContext())
    plant.SetFreeBodyPose(context, ball, RigidTransform([0, 0, R - e]))
    results = plant.get_contact_results_output_port().Eval(context)
    fz = 0.0
    for i in range(results.num_hydroelastic_contacts()):
        fz += results.hydroelastic_contact_info(i).F_Ac_W().translational()[2]
    return abs(fz)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--impulse", required=True, help="the impulse command")
    ap.add_argument("--out", default="", help="write the comparison as JSON here (the parity page reads it)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([a.impulse, "run", "e3-hydro-consumers", "--duration", "0.01", "--grid", "64", "--kh", str(KH),
                        "--out", d], check=True, stdout=subprocess.DEVNULL)
        rows = list(csv.DictReader(open(pathlib.Path(d) / "e3-hydro-force.csv")))
    worst, rc, table = 0.0, 0, []
    for r in rows:
        e, f_impulse = float(r["depth_m"]), float(r["F_agg_N"])
        f_drake = drake_force(e)
        err = abs(f_impulse / f_drake - 1)
        table.append({"depth_m": e, "impulse_N": f_impulse, "drake_N": f_drake,
                      "closed_form_N": float(r["F_closed_form_N"]), "difference": err})
        worst = max(worst, err)
        if err > TOLERANCE:
            print(f"drake: e = {e} m: impulse F_agg {f_impulse:.4g} N, Drake {f_drake:.4g} N, "
                  f"differ by {100 * err:.2f} % > {100 * TOLERANCE:g} %")
            rc = 1
    print(f"drake: sphere on a rigid box, {len(rows)} depths, impulse F_agg against Drake's hydroelastic force: "
          f"largest difference {100 * worst:.2f} % (tolerance {100 * TOLERANCE:g} %)")
    if a.out:
        from importlib.metadata import version
        json.dump({"drake": version("drake"), "kh_N_per_m3": KH, "radius_m": R,
                   "resolution_hint_m": HINT, "tolerance": TOLERANCE, "rows": table}, open(a.out, "w"), indent=1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
