"""The Contacts record's columns from Python: one read-only NumPy view per entry of the list that
declares them (lib/e3/contacts/contact_columns.h), with the type and the shape that entry gives."""
import pathlib
import re

import numpy as np
import pytest

import impulse

COLUMNS_H = pathlib.Path(__file__).resolve().parents[2] / "lib" / "e3" / "contacts" / "contact_columns.h"


def _declared_columns():
    # X(type, name, "unit", "doc") entries of IMPULSE_CONTACT_COLUMNS
    text = COLUMNS_H.read_text(encoding="utf-8")
    return re.findall(r"X\((int|real|vec3), (rigid_contact_\w+), \"([^\"]*)\"", text)


def _collided_box():
    b = impulse.ModelBuilder()
    b.add_ground_plane()
    body = b.add_body(xform=(0, 0, 0.025 - 0.001, 0, 0, 0, 1))
    b.add_shape_box(body, hx=0.1, hy=0.05, hz=0.025)
    model = b.finalize()
    pipeline = impulse.CollisionPipeline(model)
    contacts = pipeline.contacts()
    pipeline.collide(model.state(), contacts)
    return model, contacts


def test_E3_2_record_every_declared_column_is_a_read_only_view():
    columns = _declared_columns()
    assert len(columns) == 22
    _, contacts = _collided_box()
    n = contacts.rigid_contact_max
    for kind, name, unit in columns:
        a = getattr(contacts, name)
        assert a.shape == ((n, 3) if kind == "vec3" else (n,)), name
        assert a.dtype.kind == ("i" if kind == "int" else "f"), name
        assert not a.flags.writeable, name
        assert getattr(type(contacts), name).__doc__.startswith(f"[{unit}] "), name
        with pytest.raises(ValueError):
            a[0] = 0


def test_E3_2_record_columns_hold_the_collided_rows():
    model, contacts = _collided_box()
    k = contacts.rigid_contact_count
    assert k == 4  # the four bottom corners, 1 mm deep
    assert set(contacts.rigid_contact_shape0[:k]) | set(contacts.rigid_contact_shape1[:k]) == {0, 1}
    assert np.allclose(np.abs(contacts.rigid_contact_normal[:k, 2]), 1.0)
    assert np.all(contacts.rigid_contact_match_index[:k] >= -1)
