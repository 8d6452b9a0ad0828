#!/usr/bin/env python3
"""The C++ source of every course item, found by its @formula tag (as pbrt's book shows its code).

A function implementing an item opens with a doc comment whose first line is
    /// @formula ID [ID...]  title
This reads every lib/**/*.h and lib/**/*.cpp, and for each tag takes the doc comment block that
holds it and the declaration that follows, through the function's closing brace (or its ';' for a
declaration). Usage: formula_sources.py LIB_DIR [ID]   prints JSON {ID: [{file, line, code}]}.
"""
import json
import pathlib
import re
import sys

ID = re.compile(r"^(E1|E3|ST)\.[0-9][A-Za-z0-9.\-]*$")


def function_end(lines, start):
    """Index one past the last line of the declaration starting at start (brace matched)."""
    depth = 0
    opened = False
    for i in range(start, min(len(lines), start + 400)):
        code = re.sub(r"//.*", "", lines[i])
        code = re.sub(r'"(\\.|[^"\\])*"', '""', code)
        code = re.sub(r"'(\\.|[^'\\])*'", "''", code)
        for c in code:
            if c == "{":
                depth += 1
                opened = True
            elif c == "}":
                depth -= 1
                if opened and depth == 0:
                    return i + 1
            elif c == ";" and not opened and depth == 0:
                return i + 1
    return min(len(lines), start + 1)


def formula_sources(lib):
    lib = pathlib.Path(lib)
    out = {}
    for path in sorted(list(lib.rglob("*.h")) + list(lib.rglob("*.cpp"))):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            s = line.strip()
            if not s.startswith("/// @formula"):
                continue
            ids = []
            for tok in s[len("/// @formula"):].split():
                if not ID.match(tok):
                    break
                ids.append(tok)
            first = i
            while first > 0 and lines[first - 1].strip().startswith("///"):
                first -= 1
            body = i + 1
            while body < len(lines) and lines[body].strip().startswith("///"):
                body += 1
            end = function_end(lines, body)
            code = "\n".join(lines[first:end])
            rel = path.relative_to(lib.parent).as_posix()
            for ident in ids:
                out.setdefault(ident, []).append({"file": rel, "line": first + 1, "code": code})
    return out


if __name__ == "__main__":
    found = formula_sources(sys.argv[1])
    if len(sys.argv) > 2:
        found = {sys.argv[2]: found.get(sys.argv[2], [])}
    print(json.dumps(found, indent=1))
