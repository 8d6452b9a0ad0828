"""The scene catalogue: run a scene and get its tables as NumPy arrays (no file, no CSV).

Each number column is a float64 array that owns the scene's own storage (handed over from C++
without a copy); a text column is a list of str. Options are keyword arguments (a dash in an
option's name is an underscore here: per_world for --per-world).
"""
import math
import numbers

from . import _core


class Table(dict):
    """One table of a scene: {column name: array}, plus .name and .rows."""

    def __init__(self, name, columns):
        super().__init__(columns)
        self.name = name
        self.rows = len(next(iter(columns.values()))) if columns else 0

    def __repr__(self):
        return f"Table {self.name}: {self.rows} rows, columns {', '.join(self)}"


class SceneRun(dict):
    """The tables of one scene run ({table name: Table}), its summary .log and its exit .code."""

    def __init__(self, name, code, log, tables):
        super().__init__({k: Table(k, v) for k, v in tables.items()})
        self.name, self.code, self.log = name, code, log

    def table(self):
        """The only table, for scenes that make one."""
        if len(self) != 1:
            raise ValueError(f"scene {self.name} made {len(self)} tables: {', '.join(self)}; index by name")
        return next(iter(self.values()))

    def __repr__(self):
        return f"SceneRun {self.name} (code {self.code}): " + "; ".join(repr(t) for t in self.values())


def scenes(chapter=None):
    """Every scene (dicts: name, chapter, title, options), optionally of one chapter."""
    all_ = _core.scenes()
    if chapter is None:
        return all_
    if chapter not in ("E1", "E3", "ST"):
        raise ValueError(f"chapter must be 'E1', 'E3' or 'ST', got {chapter!r}")
    return [s for s in all_ if s["chapter"] == chapter]


def _option_text(scene, name, value):
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise ValueError(f"run {scene}: option {name} must be a number or a string, got {value!r}")
    if isinstance(value, numbers.Real):
        if not math.isfinite(value):
            raise ValueError(f"run {scene}: option {name} must be finite, got {value}")
        return repr(value) if isinstance(value, float) else str(value)
    return value


def run(name, **options):
    """Runs scene `name` in memory with keyword options; returns a SceneRun.

    Unknown scenes or options and values outside an option's range raise ValueError naming them.
    """
    known = {s["name"]: s for s in _core.scenes()}
    if name not in known:
        raise ValueError(f"run: unknown scene {name!r}; scenes: {', '.join(sorted(known))}")
    declared = {o["name"] for o in known[name]["options"]}
    args = {}
    for key, value in options.items():
        opt = key if key in declared else key.replace("_", "-")
        if opt not in declared:
            listing = ", ".join(sorted(o.replace("-", "_") for o in declared)) or "none"
            raise ValueError(f"run {name}: unknown option {key}; its options: {listing}")
        args[opt] = _option_text(name, key, value)
    code, log, tables = _core.run_scene(name, args)
    return SceneRun(name, code, log, tables)
