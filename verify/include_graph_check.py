#!/usr/bin/env python3
"""Include-graph check (a ctest): the includes of lib/ follow the chapter's chain.

Reads every `#include "..."` of lib/**/*.h and lib/**/*.cpp (paths relative to lib/, as the
sources write them) and fails when
  - a collision file (lib/e3/collision/) includes a solver (lib/e3/solvers/) or observe
    (lib/e3/observe/) file: the pipeline comes before the solvers and the readback (E3 §2 -> §4-§8),
  - the contact record (lib/e3/contacts/) includes a solver or observe file,
  - a solver room (lib/e3/solvers/NAME/) includes another solver's room; lib/e3/solvers/shared/
    (pieces two solvers share, as Newton's Featherstone reuses the semi-implicit contact law) is
    nobody's room and may be included by every solver,
  - anything in lib/e1, lib/e3 or lib/st includes lib/course (the engine never reads the course),
  - files include each other in a loop.
Prints one line per problem and a summary. Usage: include_graph_check.py REPO_ROOT
                                                  include_graph_check.py --self-test
"""
import pathlib
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_graph(lib: pathlib.Path) -> dict:
    """file (relative to lib/) -> the lib files it includes (unresolved names, e.g. generated ones, dropped)."""
    graph = {}
    for src in sorted(list(lib.rglob("*.h")) + list(lib.rglob("*.cpp"))):
        rel = src.relative_to(lib).as_posix()
        targets = []
        for name in INCLUDE.findall(src.read_text(encoding="utf-8")):
            if (lib / name).is_file():
                targets.append(name)
        graph[rel] = targets
    return graph


def solver_room(path: str):
    """'xpbd' for e3/solvers/xpbd/..., None outside a solver room (shared/ is no one's room)."""
    parts = path.split("/")
    if len(parts) >= 4 and parts[0] == "e3" and parts[1] == "solvers" and parts[2] != "shared":
        return parts[2]
    return None


def rule_problems(graph: dict) -> list:
    problems = []
    for src, targets in graph.items():
        for dst in targets:
            edge = f"{src} includes {dst}"
            if src.startswith(("e3/collision/", "e3/contacts/")) and dst.startswith(("e3/solvers/", "e3/observe/")):
                room = "collision" if src.startswith("e3/collision/") else "contact-record"
                problems.append(f"{edge}: a {room} file may not include a solver or observe file")
            a, b = solver_room(src), solver_room(dst)
            if a and b and a != b:
                problems.append(f"{edge}: solver room '{a}' may not include solver room '{b}' "
                                "(move what both use to e3/solvers/shared/)")
            if src.startswith(("e1/", "e3/", "st/")) and dst.startswith("course/"):
                problems.append(f"{edge}: the engine (e1, e3, st) may not include lib/course")
    return problems


def cycle_problems(graph: dict) -> list:
    """Every include loop, reported once by its smallest member (iterative DFS, colours)."""
    problems, seen = [], set()
    colour = {f: 0 for f in graph}  # 0 new, 1 on the stack, 2 done
    for root in graph:
        if colour[root]:
            continue
        stack = [(root, iter(graph[root]))]
        path = [root]
        colour[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
                path.pop()
                continue
            if colour.get(nxt, 2) == 1:
                loop = path[path.index(nxt):]
                key = frozenset(loop)
                if key not in seen:
                    seen.add(key)
                    k = loop.index(min(loop))
                    loop = loop[k:] + loop[:k]
                    problems.append("include loop: " + " -> ".join(loop + [loop[0]]))
            elif colour.get(nxt) == 0:
                colour[nxt] = 1
                stack.append((nxt, iter(graph[nxt])))
                path.append(nxt)
    return problems


def check(root: pathlib.Path) -> list:
    graph = read_graph(root / "lib")
    return rule_problems(graph) + cycle_problems(graph)


def self_test() -> int:
    """Plants each kind of violation in a small tree and requires the check to name it."""
    planted = {
        "e3/collision/a.h": '#include "e3/solvers/xpbd/s.h"\n',
        "e3/contacts/r.h": '#include "e3/observe/o.h"\n',
        "e3/solvers/xpbd/s.h": '#include "e3/solvers/vbd/v.h"\n#include "e3/solvers/shared/ok.h"\n',
        "e3/solvers/vbd/v.h": "",
        "e3/solvers/shared/ok.h": "",
        "e3/observe/o.h": "",
        "e1/m.h": '#include "course/c.h"\n',
        "course/c.h": "",
        "st/x.h": '#include "st/y.h"\n',
        "st/y.h": '#include "st/x.h"\n',
    }
    expected = ["e3/collision/a.h includes e3/solvers/xpbd/s.h", "e3/contacts/r.h includes e3/observe/o.h",
                "solver room 'xpbd' may not include solver room 'vbd'", "e1/m.h includes course/c.h",
                "include loop: st/x.h -> st/y.h -> st/x.h"]
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in planted.items():
            p = pathlib.Path(tmp) / "lib" / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")
        problems = check(pathlib.Path(tmp))
    missing = [e for e in expected if not any(e in p for p in problems)]
    extra = [p for p in problems if "shared/ok.h" in p]
    for m in missing:
        print(f"include-graph self-test: planted violation not found: {m}")
    for x in extra:
        print(f"include-graph self-test: allowed include reported: {x}")
    print(f"include-graph self-test: {len(expected) - len(missing)} of {len(expected)} planted violations found")
    return 1 if missing or extra else 0


def main(argv: list) -> int:
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print("usage: include_graph_check.py REPO_ROOT | --self-test")
        return 2
    root = pathlib.Path(argv[1])
    problems = check(root)
    n = len(read_graph(root / "lib"))
    for p in problems:
        print("include-graph: " + p)
    print(f"include-graph: {n} files under lib/, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
