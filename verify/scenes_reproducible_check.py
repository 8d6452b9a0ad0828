#!/usr/bin/env python3
"""Every scene's output is reproducible byte for byte (issue 16: no wall-clock value in any file).

Runs each line of verify/sanitize/scenes.txt (every catalogued scene at a small size) twice, into
two empty folders, and requires the same file names with identical bytes; a catalogued scene
without a line there fails too. Usage: scenes_reproducible_check.py IMPULSE_BIN SOURCE_DIR
"""
import filecmp
import pathlib
import shlex
import subprocess
import sys
import tempfile


def main():
    binary, root = sys.argv[1], pathlib.Path(sys.argv[2])
    lines = [l.strip() for l in (root / "verify/sanitize/scenes.txt").read_text().splitlines()]
    runs = [shlex.split(l) for l in lines if l and not l.startswith("#")]
    listed = {r[0] for r in runs}
    catalogue = [l.split()[0] for l in subprocess.run([binary, "scenes"], capture_output=True, text=True,
                                                      check=True).stdout.splitlines() if l.strip()]
    failures = [f"scene {s} has no line in verify/sanitize/scenes.txt" for s in catalogue if s not in listed]
    with tempfile.TemporaryDirectory() as tmp:
        for i, args in enumerate(runs):
            outs = []
            for k in (0, 1):
                d = pathlib.Path(tmp) / f"{i}-{k}"
                d.mkdir()
                r = subprocess.run([binary, "run", *args, "--out", str(d)], capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL)
                if r.returncode != 0:
                    failures.append(f"impulse run {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[:200]}")
                outs.append(d)
            a, b = sorted(p.name for p in outs[0].iterdir()), sorted(p.name for p in outs[1].iterdir())
            if a != b:
                failures.append(f"impulse run {' '.join(args)}: files differ between runs: {a} vs {b}")
                continue
            for name in a:
                if not filecmp.cmp(outs[0] / name, outs[1] / name, shallow=False):
                    failures.append(f"impulse run {' '.join(args)}: {name} is not byte-identical in two runs")
            print(f"ok  {' '.join(args)}: {len(a)} file(s) identical")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
