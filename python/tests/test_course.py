"""The registry and the exercise checker through the Python module.

Golden values are the course's printed numbers (seed and line cited) read from golden/course,
the same files the C++ golden tests read, so a calculator that the module reaches wrongly (wrong
input order, wrong output, lost unit) fails here.
"""
import math
import tomllib

import numpy as np
import pytest

import impulse
from conftest import ROOT


def test_E3_4_xpbd_pn_course_example_with_units():
    # seed 000 Q L564, A L585: d = -0.002 m, h = 0.001 s, w = 2 1/kg, relaxation 0.8 -> 0.8 N s, 800 N
    r = impulse.calc("E3.4-xpbd-pn", d=-0.002, h=0.001, w=2.0, relaxation=0.8)
    assert r.p_n == pytest.approx(0.8, rel=1e-12)
    assert r.p_n.unit == "N s"
    assert r["F_avg"] == pytest.approx(800.0, rel=1e-12)
    assert r.F_avg.unit == "N"
    assert "p_n = 0.8 N s" in repr(r)


def test_E3_4_xpbd_pn_bad_arguments_name_the_argument():
    with pytest.raises(ValueError, match=r"missing argument w \[1/kg\]"):
        impulse.calc("E3.4-xpbd-pn", d=-0.002, h=0.001, relaxation=0.8)
    with pytest.raises(ValueError, match=r"unknown argument dt"):
        impulse.calc("E3.4-xpbd-pn", d=-0.002, dt=0.001, w=2.0, relaxation=0.8)
    with pytest.raises(ValueError, match=r"argument h \[s\] takes 1 number, got 2"):
        impulse.calc("E3.4-xpbd-pn", d=-0.002, h=[0.001, 0.002], w=2.0, relaxation=0.8)
    with pytest.raises(ValueError, match=r"argument d \[m\] must be finite"):
        impulse.calc("E3.4-xpbd-pn", d=math.nan, h=0.001, w=2.0, relaxation=0.8)
    with pytest.raises(ValueError, match=r"argument h \[s\] is a step or a duration and must be > 0, got 0.0"):
        impulse.calc("E3.4-xpbd-pn", d=-0.002, h=0.0, w=2.0, relaxation=0.8)
    with pytest.raises(ValueError, match=r"argument w \[1/kg\] is an inverse mass and must be >= 0, got -2.0"):
        impulse.calc("E3.4-xpbd-pn", d=-0.002, h=0.001, w=-2.0, relaxation=0.8)
    with pytest.raises(ValueError, match=r"unknown item 'E9.9-nothing'"):
        impulse.calc("E9.9-nothing")


def test_E1_6_torque_example_vector_output():
    # seed 003 (E1 §6): a force (0, 10, 0) N at P = (0.2, 0, 0) m about C = 0 gives tau = (0, 0, 2) N m
    r = impulse.calc("E1.6-torque-example", f=[0, 10, 0], P=[0.2, 0, 0], C=[0, 0, 0])
    assert isinstance(r.tau_C, np.ndarray) and r.tau_C.unit == "N m"
    np.testing.assert_allclose(r.tau_C, [0, 0, 2], atol=1e-12)
    np.testing.assert_allclose(r.tau_P, [0, 0, 0], atol=1e-12)  # the same wrench about P itself


def _golden_checks():
    for path in sorted((ROOT / "golden").glob("*/*.toml")):
        for check in tomllib.loads(path.read_text()).get("check", []):
            yield path.name, check


def test_golden_every_printed_value_through_python():
    """Every value golden/ holds (course and paper, with their seed lines) recomputed via impulse.calc."""
    count = 0
    for name, check in _golden_checks():
        r = impulse.calc(check.get("formula", check["id"]), **check.get("inputs", {}))  # a rule names its calculator
        for out, want in check["expect"].items():
            got = np.atleast_1d(np.asarray(r[out], dtype=float))
            want = np.atleast_1d(np.asarray(want, dtype=float))
            tol = check["abs_tol"] + check["rel_tol"] * np.abs(want)
            assert np.all(np.abs(got - want) <= tol), f"{name} {check['id']} ({check['source']}): {out} {got} != {want}"
        count += 1
    assert count >= 60  # the README counts 64 printed values


def test_E3_10_ex2_checker_grades_right_and_wrong():
    assert impulse.check("E3.10-ex2-xpbd-normal", 0.8, 800)
    g = impulse.check("E3.10-ex2-xpbd-normal", 0.8, 0.8)  # forgot to divide by h
    assert not g
    assert [p["correct"] for p in g.parts] == [True, False]
    with pytest.raises(ValueError, match="takes 2 answer values"):
        impulse.check("E3.10-ex2-xpbd-normal", 0.8)


def _impulse_cli():
    return ROOT / "build" / "bin" / "impulse"


def test_E3_10_check_is_the_command_lines_tutor(tmp_path, monkeypatch):
    # The same verdict as `impulse exercises check`: tolerance, hint naming the typical mistake,
    # tries counted in the same record; no key (no "expected") until the solution is revealed.
    import json
    import os
    import subprocess
    record = tmp_path / "tries.json"
    monkeypatch.setenv("IMPULSE_TRIES_FILE", str(record))
    g = impulse.check("E3.10-ex2-xpbd-normal", 0.8, 0.8)
    assert not g and g.tries == 1 and not g.revealed and g.explanation is None
    wrong = g.parts[1]
    assert "expected" not in wrong and wrong["tolerance"] == "to 3 significant figures, as the course prints this answer"
    assert "that is the impulse itself" in wrong["hint"]
    assert json.loads(record.read_text()) == {"E3.10-ex2-xpbd-normal": 1}
    if _impulse_cli().is_file():  # the command line counts on in the same record, with the same words
        r = subprocess.run([str(_impulse_cli()), "exercises", "check", "E3.10-ex2-xpbd-normal", "0.8", "0.8"],
                           capture_output=True, text=True, env=dict(os.environ))
        assert "try 2" in r.stdout
        g3 = impulse.check("E3.10-ex2-xpbd-normal", 0.8, 0.8)
        assert g3.tries == 3 and g3.revealed and g3.parts[1]["expected"] == "800 N"
        def part_lines(text):  # the per-part lines, between the verdict line and the solution's
            lines = text.splitlines()[1:]
            return [l for l in lines[:next(i for i, l in enumerate(lines) if not l.startswith(("  p_n", "  F_avg", "    "))) ]]
        assert part_lines(repr(g3)) == part_lines(r.stdout)
    solution = impulse.check("E3.10-ex2-xpbd-normal", reveal=True)
    assert solution.revealed and "0.8 N s" in solution.explanation and "no try counted" in repr(solution)
    assert "explanation" not in impulse.exercises("E3")[0]


def test_E3_10_answers_as_students_write_them():
    assert impulse.check("E3.10-ex3-readback-scale", "1/3")
    assert impulse.check("E3.10-ex3-readback-scale", 0.333)  # the course prints 1/3: three figures
    with pytest.raises(ValueError, match="write the number without its unit"):
        impulse.check("E3.10-ex2-xpbd-normal", "1.6N", 800)
    with pytest.raises(ValueError, match="the comma separates vector components"):
        impulse.check("E3.10-ex3-readback-scale", "1,6")
    with pytest.raises(ValueError, match=r"did you mean E3.10-ex2-xpbd-normal\? see impulse.exercises\(\)"):
        impulse.check("E3.10-ex2", 0.8, 800)
    ids = [e["id"] for e in impulse.exercises("E3")]
    assert ids.index("E3.10-ex9-matching-warmstart") < ids.index("E3.10-ex10-static-vs-kinematic-scale")


def test_E1_11_ex3_checker_takes_a_vector():
    # seed 003 Q L460, A L477: v_B = (0, -0.2, 0) m/s
    assert impulse.check("E1.11-ex3", np.array([0, -0.2, 0]))
    assert not impulse.check("E1.11-ex3", [0, 0.2, 0])  # the sign error of the primer


def test_formulas_registry_counts_by_chapter():
    # README: E1 111, E3 157, ST 111 items registered
    assert len(impulse.formulas("E1")) == 111
    assert len(impulse.formulas("E3")) == 157
    assert len(impulse.formulas("ST")) == 111
    with pytest.raises(ValueError, match="chapter must be"):
        impulse.formulas("E2")


def _choice_texts(exercise, part):
    """The option statements of a choice part: from its options, or, when those are bare labels,
    from the 'x) ...' lines of the question (continuation lines joined)."""
    if all(len(o) > 1 for o in part["options"]):
        return {o[0]: o[2:].strip() for o in part["options"]}
    texts, label = {}, None
    for line in exercise["question"].splitlines():
        s = line.strip()
        if len(s) > 2 and s[1] == ")" and s[0] in part["options"]:
            label = s[0]
            texts[label] = s[2:].strip()
        elif label and s:
            texts[label] += " " + s
    return texts


def test_E1_11_choice_keys_balanced_and_not_the_longest():
    keys = []
    for e in impulse.exercises():
        for p in e["parts"]:
            if p["kind"] != "choice":
                continue
            texts = _choice_texts(e, p)
            assert set(texts) == set(p["options"]) or set(texts) == {o[0] for o in p["options"]}, e["id"]
            keys.append((e["id"], texts))
    assert len(keys) == 13
    labels = []
    for exercise_id, texts in keys:
        # the key is the one label the checker accepts
        e = next(x for x in impulse.exercises() if x["id"] == exercise_id)
        numeric = [p for p in e["parts"] if p["kind"] != "choice"]
        accepted = [label for label in texts
                    if impulse.check(exercise_id, *(["0"] * sum(p["size"] for p in numeric)), label).parts[-1]["correct"]]
        assert len(accepted) == 1, exercise_id
        labels.append(accepted[0])
        longest = max(len(t) for t in texts.values())
        assert len(texts[accepted[0]]) < longest, f"{exercise_id}: the key is the longest option"
    counts = {label: labels.count(label) for label in set(labels)}
    assert max(counts.values()) <= 5 and len(counts) >= 4, counts  # no letter dominates
