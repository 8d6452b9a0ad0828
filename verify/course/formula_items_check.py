#!/usr/bin/env python3
"""Self-test of cmake/formula_items.py (a ctest): the registry entries written from doc comments.

Plants doc comments in a scratch lib/ and requires
  - a fitting comment to give one entry with the tag's title and section, inputs named and typed as
    the parameters (vec3 -> 3, quat -> 4), a domain override passed through, and the function's
    namespace in the call;
  - each misfit to stop the generator (exit 1) with a line naming the file and line: a @param name
    that differs from the declaration, a parameter type the calculator cannot take, a tag line
    without its section, two @return lines, a tag naming several IDs;
  - a comment without @param/@return lines to give no entry (it keeps its hand-written one).
Usage: formula_items_check.py GENERATOR
"""
import pathlib
import subprocess
import sys
import tempfile

GOOD = """namespace impulse::st {
/// @formula ST.9-good  y = a x + b (course ST §9).
///   y = a x + b      [m]
/// @param a [-] slope {closed(0, 1)}
/// @param x [m] point
/// @param b [m] offset
/// @return y [m] value
inline double good(double a, const vec3& x, double b) { return a * x.x + b; }

/// @formula ST.9-hand  A formula whose entry is written by hand (course ST §9).
inline double hand(double a) { return a; }
}  // namespace impulse::st
"""

BAD = {
    "name": ("/// @formula ST.9-bad  y = x (course ST §9).\n/// @param z [m] point\n/// @return y [m] value\n"
             "inline double bad(double x) { return x; }\n", "differ from"),
    "type": ("/// @formula ST.9-bad  y = x (course ST §9).\n/// @param x [m] point\n/// @return y [m] value\n"
             "inline double bad(mat33 x) { return 0; }\n", "type 'mat33'"),
    "section": ("/// @formula ST.9-bad  y = x.\n/// @param x [m] point\n/// @return y [m] value\n"
                "inline double bad(double x) { return x; }\n", "section"),
    "returns": ("/// @formula ST.9-bad  y = x (course ST §9).\n/// @param x [m] point\n/// @return y [m] value\n"
                "/// @return z [m] value\ninline double bad(double x) { return x; }\n", "exactly one @return"),
    "ids": ("/// @formula ST.9-bad ST.9-other  y = x (course ST §9).\n/// @param x [m] point\n/// @return y [m] value\n"
            "inline double bad(double x) { return x; }\n", "several"),
}


def run(gen, body):
    with tempfile.TemporaryDirectory() as d:
        lib = pathlib.Path(d) / "lib"
        (lib / "st").mkdir(parents=True)
        (lib / "st" / "planted.h").write_text(body, encoding="utf-8")
        out = pathlib.Path(d) / "out.cpp"
        r = subprocess.run([sys.executable, gen, str(lib), str(out)], capture_output=True, text=True)
        return r.returncode, r.stderr, out.read_text(encoding="utf-8") if out.exists() else ""


def main(gen):
    problems = []
    rc, err, text = run(gen, GOOD)
    want = ['formula("ST.9-good", "y = a x + b", "ST §9", "lib/st/planted.h: good"',
            'quantity("a", "-", 1, "slope", closed(0, 1))', 'quantity("x", "m", 3, "point")',
            'static_cast<double (*)(double, vec3, double)>(&impulse::st::good)', '{"a", "x", "b"}',
            '#include "st/planted.h"']
    if rc != 0:
        problems.append(f"the fitting comment was refused: {err.strip()}")
    for w in want:
        if w not in text:
            problems.append(f"the generated entry lacks {w}")
    if "ST.9-hand" in text:
        problems.append("a tag without @param/@return lines got a generated entry")
    for name, (body, words) in BAD.items():
        rc, err, _ = run(gen, "namespace impulse {\n" + body + "}  // namespace impulse\n")
        if rc != 1 or "lib/st/planted.h:2:" not in err or words not in err:
            problems.append(f"planted misfit '{name}' was not reported (exit {rc}): {err.strip()[:200]}")
    for p in problems:
        print("formula_items: " + p)
    print(f"formula_items self-test: {len(problems)} problem(s), {1 + len(BAD)} planted cases")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
