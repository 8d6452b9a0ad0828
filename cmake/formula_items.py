#!/usr/bin/env python3
"""Registry entries written from the formulas' own doc comments (run by CMake at build time).

A course formula whose calculator is the function itself needs no hand-written registry entry: its
doc comment says everything the registry holds, in this shape (Doxygen reads the same lines):

    /// @formula E3.4-impulse-to-force  F_avg = p / h: an accumulated impulse is divided by h once (course E3 §4).
    ///   F_avg = p / h        [N]
    /// @param p [N s] accumulated impulse
    /// @param h [s] step
    /// @return F_avg [N] average force

  - the tag line: one ID, the title, and the section in parentheses ("(course E3 §4)", "(course
    E1 §2, §6)" gives "E1 §2"; "(reading ST §2)" gives "ST §2");
  - one `@param NAME [UNIT] doc` per parameter, in the declaration's order and with its names; a
    trailing `{DOMAIN}` (a call of lib/course/registry.h: `{closed(0, 1)}`, `{count(1, 64)}`)
    overrides the course-wide default domain of the input;
  - one `@return NAME [UNIT] doc`.
Parameters and the result are real, int, bool (result only), vec3 or quat; the function is a free
function of a namespace. Tags without @param/@return lines are left to the hand-written entries of
lib/course/items_*.cpp (formulas whose calculator combines several functions, rules, examples).

Anything that does not fit (a @param name that differs from the declaration, an unknown type, no
section) stops the build with one line naming the file and line.

Usage: formula_items.py LIB_DIR OUT_CPP
"""
import pathlib
import re
import sys

TAG = re.compile(r"^\s*///\s*@formula\s+(\S+)\s+(.*)$")
PARAM = re.compile(r"^\s*///\s*@param\s+(\w+)\s+\[([^\]]*)\]\s*(.*?)\s*(?:\{(.*)\})?\s*$")
RETURN = re.compile(r"^\s*///\s*@return\s+(\w+)\s+\[([^\]]*)\]\s*(.*?)\s*$")
SECTION = re.compile(r"\((?:course|reading)\s+(E1|E3|ST)\s+§\s*([0-9]+)[^)]*\)\.?\s*$")
TYPES = {"real": 1, "double": 1, "int": 1, "vec3": 3, "quat": 4}
RESULT_TYPES = dict(TYPES, bool=1)


class Unfit(Exception):
    pass


def c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def namespace_at(lines, n):
    """The named namespace open at line n ("impulse", "impulse::st")."""
    stack = []
    for line in lines[:n]:
        m = re.match(r"^\s*namespace\s+([A-Za-z_][\w:]*)\s*\{", line)
        if m:
            stack.append(m.group(1))
        elif re.match(r"^\s*namespace\s*\{", line):
            stack.append("")
        elif re.match(r"^\s*\}\s*//\s*namespace", line) and stack:
            stack.pop()
    if "" in stack:
        raise Unfit("the function is in an anonymous namespace")
    return "::".join(stack)


def parse_declaration(decl: str):
    """(result type, name, [(type, name)]) of a free function declaration."""
    head = decl.split("{")[0].split(";")[0]
    m = re.match(r"^\s*(?:IMPULSE_HD\s+)?(?:inline\s+)?(?:constexpr\s+)?(?:inline\s+)?([\w:]+)\s+(\w+)\s*\((.*)\)\s*(?:noexcept)?\s*$",
                 " ".join(head.split()))
    if not m:
        raise Unfit(f"cannot read the declaration '{head.strip()[:80]}' as a free function")
    result, name, params = m.group(1), m.group(2), m.group(3).strip()
    args = []
    for p in [p.strip() for p in params.split(",")] if params else []:
        pm = re.match(r"^(?:const\s+)?(\w+)\s*&?\s+(\w+)(?:\s*=.*)?$", p)
        if not pm:
            raise Unfit(f"cannot read the parameter '{p}' of {name}")
        args.append((pm.group(1), pm.group(2)))
    return result, name, args


def read_block(lines, n):
    """The doc comment that starts at line n and the declaration below it."""
    k = n
    while k < len(lines) and lines[k].lstrip().startswith("//"):
        k += 1
    comment = lines[n:k]
    decl = []
    while k < len(lines) and lines[k].strip() and not lines[k].lstrip().startswith("//"):
        decl.append(lines[k])
        k += 1
    return comment, "\n".join(decl)


def item_of(path: pathlib.Path, rel: str, lines, n: int):
    tag = TAG.match(lines[n])
    comment, decl = read_block(lines, n)
    params = [PARAM.match(c) for c in comment if PARAM.match(c)]
    returns = [RETURN.match(c) for c in comment if RETURN.match(c)]
    if not params and not returns:
        return None
    ident, text = tag.group(1), tag.group(2)
    if re.match(r"^(E1|E3|ST)\.", text):
        raise Unfit(f"{ident}: a generated entry documents one ID (the tag lists several)")
    sec = SECTION.search(text)
    if not sec:
        raise Unfit(f"{ident}: the tag line must end with its section, e.g. '(course E3 §4).'")
    title = text[:sec.start()].strip()
    section = f"{sec.group(1)} §{sec.group(2)}"
    if len(returns) != 1:
        raise Unfit(f"{ident}: a generated entry has exactly one @return line")
    result, name, args = parse_declaration(decl)
    if result not in RESULT_TYPES:
        raise Unfit(f"{ident}: result type '{result}' of {name} is not one of {', '.join(RESULT_TYPES)}")
    if [a[1] for a in args] != [p.group(1) for p in params]:
        raise Unfit(f"{ident}: @param names {[p.group(1) for p in params]} differ from {name}'s parameters "
                    f"{[a[1] for a in args]}")
    for t, a in args:
        if t not in TYPES:
            raise Unfit(f"{ident}: parameter {a} of {name} has type '{t}', not one of {', '.join(TYPES)}")
    ns = namespace_at(lines, n)
    inputs = []
    for (t, a), p in zip(args, params):
        domain = f", {p.group(4).strip()}" if p.group(4) else ""
        inputs.append(f"quantity({c_string(a)}, {c_string(p.group(2))}, {TYPES[t]}, {c_string(p.group(3))}{domain})")
    r = returns[0]
    output = f"quantity({c_string(r.group(1))}, {c_string(r.group(2))}, {RESULT_TYPES[result]}, {c_string(r.group(3))})"
    signature = f"{result} (*)({', '.join(t for t, _ in args)})"
    return (rel, ident,
            f"  r.add(formula({c_string(ident)}, {c_string(title)}, {c_string(section)}, {c_string(f'{rel}: {name}')},\n"
            f"                {{{', '.join(inputs)}}},\n"
            f"                {{{output}}},\n"
            f"                calculator(static_cast<{signature}>(&{ns}::{name}), {{{', '.join(c_string(a) for _, a in args)}}},\n"
            f"                           {c_string(r.group(1))})));\n")


def main(lib: str, out: str) -> int:
    lib_dir = pathlib.Path(lib)
    items, problems = [], []
    for path in sorted(lib_dir.rglob("*.h")):
        rel = "lib/" + path.relative_to(lib_dir).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if not TAG.match(line):
                continue
            try:
                it = item_of(path, rel, lines, n)
            except Unfit as e:
                problems.append(f"{rel}:{n + 1}: {e}")
                continue
            if it:
                items.append(it)
    for p in problems:
        print(f"formula_items: {p}", file=sys.stderr)
    if problems:
        return 1
    headers = sorted({rel for rel, _, _ in items})
    text = ["// Generated by cmake/formula_items.py from the @formula doc comments of lib/; do not edit.",
            '#include "course/formula_call.h"', '#include "course/registry.h"']
    text += [f'#include "{h[len("lib/"):]}"' for h in headers]
    text += ["", "namespace impulse::course {", "", "void register_generated(Registry& r) {"]
    text += [body for _, _, body in sorted(items, key=lambda i: i[1])]
    text += ["}", "", "}  // namespace impulse::course", ""]
    new = "\n".join(text)
    out_path = pathlib.Path(out)
    if not out_path.exists() or out_path.read_text(encoding="utf-8") != new:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
