#!/usr/bin/env python3
"""Every `impulse ...` command the book quotes runs as printed.

Reads the chapters and their lecture decks (chapters/**/*.md), the guide (docs/guide/*.md,
docs/index.md) and the teaching plans (docs/teaching/*.md), takes every
inline code span and code-block line that starts with `impulse ` or `./run impulse `, and runs it
with the given binary. A command fails the check when it exits non-zero and the paragraph around it
does not announce that exit ("exit 1", "exits 2", "refused", "fails" ...).

Not run, and counted apart:
  - templates: a placeholder in capitals (ID, SCENE, N, FILE), "...", "<...>", "[...]" or "a|b";
  - names: a subcommand that takes arguments quoted without them (`impulse calc`, `impulse bench`).
Small sizes: `bench` commands run with --n capped at 2000 and --steps at 5, and `run` commands
write into a temporary folder (--out); the text's numbers stay as printed.

Usage: book_commands_check.py IMPULSE_BINARY REPO_ROOT
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

NEEDS_ARGUMENTS = {"calc", "bench", "run", "lcp", "model"}
NEEDS_ARGUMENTS_EXERCISES = {"check", "show", "variant", "sheet", "grade"}
ANNOUNCED = re.compile(r"exits? (with )?[12]\b|exit code [12]|refuse|rejects?|fails?\b|is an error|non-zero", re.I)
CAPS = {"n": 2000, "steps": 5}


def quoted_commands(path):
    """(command, paragraph) pairs of one Markdown file."""
    text = path.read_text(encoding="utf-8")
    out = []
    in_block = False
    for para in re.split(r"\n\s*\n", text):
        for line in para.split("\n"):
            if line.strip().startswith("```"):
                in_block = not in_block
                continue
            if in_block:
                s = line.strip()
                if s.startswith(("impulse ", "./run impulse ")):
                    out.append((s.split("  #")[0].split(" # ")[0].strip(), para))
                continue
        for m in re.finditer(r"`((?:\./run )?impulse(?: [^`]*)?)`", para):
            out.append((m.group(1).strip(), para))
    return out


def is_template(cmd):
    if any(t in cmd for t in ("...", "<", "[", "|", "\\|")):
        return True
    return any(re.fullmatch(r"[A-Z][A-Z_0-9]*", w) for w in cmd.split()[1:])


def is_name(words):
    if len(words) == 1:
        return True
    if words[1] in NEEDS_ARGUMENTS and len(words) == 2:
        return True
    if words[1] == "exercises" and len(words) == 3 and words[2] in NEEDS_ARGUMENTS_EXERCISES:
        return True
    return False


def small(words, out_dir):
    w = list(words)
    if len(w) > 1 and w[1] == "bench":
        for i, a in enumerate(w[:-1]):
            name = a[2:]
            if a.startswith("--") and name in CAPS:
                try:
                    if float(w[i + 1]) > CAPS[name]:
                        w[i + 1] = str(CAPS[name])
                except ValueError:
                    pass
    if len(w) > 1 and w[1] == "run" and "--out" not in w and "--help" not in w:
        w += ["--out", out_dir]
    return w


def main():
    binary, root = sys.argv[1], pathlib.Path(sys.argv[2])
    files = sorted(root.glob("chapters/**/*.md")) + sorted(root.glob("docs/guide/*.md")) + sorted(root.glob("docs/teaching/*.md")) + [root / "docs/index.md"]
    ran = templates = names = 0
    failures = []
    seen = set()
    with tempfile.TemporaryDirectory(prefix="impulse-book-") as out_dir:
        env = dict(os.environ, IMPULSE_TRIES_FILE="off")
        for f in files:
            for cmd, para in quoted_commands(f):
                if cmd.startswith("./run "):
                    cmd = cmd[len("./run "):]
                if (cmd, f) in seen:
                    continue
                seen.add((cmd, f))
                if is_template(cmd):
                    templates += 1
                    continue
                try:
                    words = shlex.split(cmd)
                except ValueError:
                    failures.append(f"{f.relative_to(root)}: cannot split `{cmd}`")
                    continue
                if is_name(words):
                    names += 1
                    continue
                args = small(words, out_dir)[1:]
                r = subprocess.run([binary] + args, capture_output=True, text=True, env=env, timeout=300,
                                   stdin=subprocess.DEVNULL)
                ran += 1
                if r.returncode != 0 and not ANNOUNCED.search(para):
                    tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or [""]
                    failures.append(f"{f.relative_to(root)}: `{cmd}` exits {r.returncode}: {tail[0][:200]}")
    for x in failures:
        print("FAIL " + x)
    print(f"book commands: {ran} run, {ran - len([x for x in failures if 'exits' in x])} passed, "
          f"{len(failures)} failed; {templates} templates and {names} command names not run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
