"""Scenes through the module: tables arrive as NumPy arrays, no file written."""
import numpy as np
import pytest

import impulse


def test_E3_4_contact_weighting_pyramid_tables_are_arrays():
    r = impulse.run("e3-pyramid")  # defaults: h = 1/600 s, 900 steps per run
    t = r["e3-pyramid"]
    assert isinstance(t["t_s"], np.ndarray) and t["t_s"].dtype == np.float64
    assert t.rows == 2 * 900  # weighting on, then off
    # the array owns the scene's storage, handed over (not a copy of another NumPy array)
    assert not t["t_s"].flags.owndata and type(t["t_s"].base).__name__ == "PyCapsule"
    on, off = t["weighting"] == 1, t["weighting"] == 0
    # Weighting on (chapters/e3/06-xpbd-step.md): the top cube has 8 contacts, each middle cube 12,
    # so its support reads 2/(8+12) / (1/8) = 0.8 m g, not the statics' 1 m g.
    assert t["top_over_mg"][on][-1] == pytest.approx(0.8, rel=1e-3)
    # Weighting off: pair impulses are equal and opposite; averaged over the last second the
    # readback balances the statics of six equal cubes: ground 6 m g, top 1 m g.
    last = off & (t["t_s"] > t["t_s"][off][-1] - 1.0)
    assert np.mean(t["ground_over_mg"][last]) == pytest.approx(6.0, rel=0.02)
    assert np.mean(t["top_over_mg"][last]) == pytest.approx(1.0, rel=0.02)
    assert "statics: 6" in r.log


def test_E1_5_text_columns_are_lists_of_str():
    r = impulse.run("e1-robot")
    layout = r["e1-robot-layout"]
    assert all(isinstance(x, str) for x in layout["type"])
    assert isinstance(layout["q_start"], np.ndarray)


def test_ST_2_bounce_blank_cells_are_nan():
    t = impulse.run("st-bounce").table()
    assert np.isnan(t["free_prediction_m"][0])  # the first row has no prediction
    assert not np.isnan(t["free_prediction_m"][1:]).any()


def test_scene_bad_options_raise_value_error_naming_them():
    with pytest.raises(ValueError, match=r"unknown scene 'e3-nothing'"):
        impulse.run("e3-nothing")
    with pytest.raises(ValueError, match=r"unknown option stepz"):
        impulse.run("e3-pyramid", stepz=3)
    with pytest.raises(ValueError, match=r"--steps .*out of range"):
        impulse.run("e3-pyramid", steps=-1)
    with pytest.raises(ValueError, match=r"--e .*out of range; allowed: \[0, 1\]"):
        impulse.run("e3-bounce", e=2.0)


def test_E3_6_pyramid_takes_the_solver_as_the_command_line_does():
    # PADMM (hard contact, E3 §6) on pipeline contacts reads back the statics: ground 6 m g, top 1 m g.
    t = impulse.run("e3-pyramid", solver="padmm").table()
    on = t["weighting"] == 1
    # over the last 0.1 s (60 frames): one frame's reading jitters by 1-2 % as the pyramid rocks
    assert np.mean(t["ground_over_mg"][on][-60:]) == pytest.approx(6.0, abs=0.01)
    assert np.mean(t["top_over_mg"][on][-60:]) == pytest.approx(1.0, abs=0.01)
    # SemiImplicit has no per-contact readback: blank cells, NaN here.
    assert np.isnan(impulse.run("e3-pyramid", solver="semi_implicit", steps=5).table()["top_over_mg"]).all()
    with pytest.raises(ValueError, match=r"--solver .*'mujoco' is not a valid choice; allowed: one of xpbd, "):
        impulse.run("e3-pyramid", solver="mujoco")
