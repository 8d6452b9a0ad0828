"""The course registry and the exercise checker, with units on every value.

calc(ID, **inputs) runs the item's calculator in lib/ (the same function the engine calls and the
C++ tests exercise); inputs are checked here against the item's declared names and sizes, and the
domain checks of lib/ (h > 0, w > 0, ...) arrive as ValueError naming the input.
"""
import math
import numbers

import numpy as np

from . import _core


class Quantity(float):
    """A scalar with its SI unit: behaves as a float; .unit, .name and .doc describe it."""

    def __new__(cls, value, unit, name="", doc=""):
        q = super().__new__(cls, value)
        q.unit, q.name, q.doc = unit, name, doc
        return q

    def __repr__(self):
        return f"{self.name} = {float(self):.9g} {self.unit}".strip() if self.name else f"{float(self):.9g} {self.unit}"


class QuantityArray(np.ndarray):
    """A vector or list with its SI unit: a NumPy array with .unit, .name and .doc."""

    def __new__(cls, values, unit, name="", doc=""):
        a = np.asarray(values, dtype=float).view(cls)
        a.unit, a.name, a.doc = unit, name, doc
        return a

    def __array_finalize__(self, obj):
        self.unit = getattr(obj, "unit", "")
        self.name = getattr(obj, "name", "")
        self.doc = getattr(obj, "doc", "")

    def __repr__(self):
        body = np.array2string(np.asarray(self), precision=9)
        return f"{self.name} = {body} {self.unit}" if self.name else f"{body} {self.unit}"


class Result(dict):
    """The outputs of one calculation: {name: Quantity}, also readable as attributes."""

    def __init__(self, item_id, values):
        super().__init__(values)
        self.id = item_id

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"{self.id} has no output '{name}'; its outputs: {', '.join(self)}") from None

    def __repr__(self):
        return f"{self.id}: " + "; ".join(repr(v) for v in self.values())


def formulas(chapter=None):
    """Every registered item (dicts with id, kind, title, section, inputs, outputs, ...)."""
    items = _core.items()
    if chapter is None:
        return items
    if chapter not in ("E1", "E3", "ST"):
        raise ValueError(f"chapter must be 'E1', 'E3' or 'ST', got {chapter!r}")
    return [i for i in items if i["id"].split(".")[0] == chapter]


def formula(item_id):
    """One item; ValueError naming the ID when it is not registered."""
    if not isinstance(item_id, str):
        raise ValueError(f"item_id must be an inventory ID string such as 'E3.4-xpbd-pn', got {item_id!r}")
    return _core.item(item_id)


# Domains by unit, where the unit alone decides: a step or duration, a mass, an inertia and a
# density are positive; an inertia, an inverse mass (0 for kinematic bodies), a stiffness or a damping is
# non-negative. Other inputs are checked by lib/'s own functions where they have a domain.
POSITIVE_UNITS = {"s": "a step or a duration", "kg": "a mass", "kg/m^3": "a density"}
NONNEGATIVE_UNITS = {"kg m^2": "an inertia (0 for a point mass)", "1/kg": "an inverse mass", "1/(kg m^2)": "an inverse inertia", "N/m": "a stiffness",
                     "N s/m": "a damping", "N/m^3": "a pressure modulus"}


def _check_domain(item_id, q, values):
    unit = q["unit"]
    if unit in POSITIVE_UNITS and any(x <= 0 for x in values):
        raise ValueError(f"calc {item_id}: argument {q['name']} [{unit}] is {POSITIVE_UNITS[unit]} and must be > 0, "
                         f"got {values if len(values) > 1 else values[0]}")
    if unit in NONNEGATIVE_UNITS and any(x < 0 for x in values):
        raise ValueError(f"calc {item_id}: argument {q['name']} [{unit}] is {NONNEGATIVE_UNITS[unit]} and must be >= 0, "
                         f"got {values if len(values) > 1 else values[0]}")


def _numbers(item_id, q, value):
    """The numbers of one input, checked against its declared size (dim 1, 3, 4, or 0 = a list)."""
    name, dim, unit = q["name"], q["dim"], q["unit"]
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        values = [float(value)]
    else:
        try:
            values = [float(x) for x in np.asarray(value, dtype=float).ravel()]
        except (TypeError, ValueError):
            raise ValueError(f"calc {item_id}: argument {name} [{unit}] must be numbers, got {value!r}") from None
    want = {0: "one or more numbers", 1: "1 number"}.get(dim, f"{dim} numbers")
    if (dim == 0 and not values) or (dim > 0 and len(values) != dim):
        raise ValueError(f"calc {item_id}: argument {name} [{unit}] takes {want}, got {len(values)}")
    for x in values:
        if not math.isfinite(x):
            raise ValueError(f"calc {item_id}: argument {name} [{unit}] must be finite, got {x}")
    _check_domain(item_id, q, values)
    return values


def calc(item_id, **inputs):
    """Runs the calculator of item_id with keyword inputs in SI units; returns a Result."""
    item = formula(item_id)
    if not item["has_calculator"]:
        raise ValueError(f"calc {item_id}: a {item['kind']} has no calculator")
    declared = {q["name"]: q for q in item["inputs"]}
    listing = ", ".join(f"{q['name']} [{q['unit']}]" for q in item["inputs"])
    for name in inputs:
        if name not in declared:
            raise ValueError(f"calc {item_id}: unknown argument {name}; its inputs are {listing}")
    for name, q in declared.items():
        if name not in inputs:
            raise ValueError(f"calc {item_id}: missing argument {name} [{q['unit']}] ({q['doc']}); its inputs are {listing}")
    raw = _core.evaluate(item_id, {n: _numbers(item_id, declared[n], v) for n, v in inputs.items()})
    out = {}
    for q in item["outputs"]:
        values = raw[q["name"]]
        if not all(math.isfinite(x) for x in values):
            given = ", ".join(f"{n}={v}" for n, v in inputs.items())
            raise ValueError(f"calc {item_id}: the inputs ({given}) lie outside the formula's domain: "
                             f"output {q['name']} is not finite")
        if q["dim"] == 1:
            out[q["name"]] = Quantity(values[0], q["unit"], q["name"], q["doc"])
        else:
            out[q["name"]] = QuantityArray(values, q["unit"], q["name"], q["doc"])
    return Result(item_id, out)


class Grade:
    """The tutor's verdict, the same as `impulse exercises check` prints: truthy when every part is
    right. .parts lists each part (name, correct, given, tolerance, hint; "expected" only once the
    solution is revealed); .tries counts the wrong tries recorded for the exercise (the same record
    as the command line's, IMPULSE_TRIES_FILE); .revealed says whether the key and .explanation are
    in it (reveal=True, a correct answer, or the third wrong try). print() shows the CLI's text."""

    def __init__(self, verdict):
        self.id, self.correct, self.parts = verdict["id"], verdict["correct"], verdict["parts"]
        self.tries, self.revealed = verdict["tries"], verdict["revealed"]
        self.explanation = verdict.get("explanation")
        self._text = verdict["text"]

    def __bool__(self):
        return self.correct

    def __repr__(self):
        return self._text.rstrip("\n")

    __str__ = __repr__


def exercises(chapter=None):
    """Every course exercise (dicts: id, title, question, parts with their tolerance), optionally of
    one chapter; the worked explanations come with a reveal: check(ID, reveal=True)."""
    all_ = _core.exercises()
    if chapter is None:
        return all_
    if chapter not in ("E1", "E3", "ST"):
        raise ValueError(f"chapter must be 'E1', 'E3' or 'ST', got {chapter!r}")
    return [e for e in all_ if e["chapter"] == chapter]


def check(exercise_id, *answers, reveal=False):
    """Grades an answer as `impulse exercises check` does: numbers (or arrays of them, or fraction
    strings such as "1/3") in the order of the parts, or an option label. With reveal=True and no
    answer, the worked solution alone (no try counted)."""
    if not isinstance(exercise_id, str):
        raise ValueError(f"exercise_id must be an exercise ID string such as 'E1.11-ex3', got {exercise_id!r}")
    tokens = []
    for a in answers:
        if isinstance(a, str):
            tokens.append(a)
        else:
            try:
                values = np.asarray(a, dtype=float).ravel()
            except (TypeError, ValueError):
                raise ValueError(f"check {exercise_id}: answer {a!r} is not a number, an array or a label") from None
            tokens.extend(repr(float(x)) for x in values)
    return Grade(_core.check(exercise_id, tokens, bool(reveal)))
