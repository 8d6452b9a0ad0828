"""Compares the CSV files of two runs of the same scene (CPU and GPU), cell by cell.

Usage: compare_scenes.py CPU_DIR GPU_DIR REPORT_JSON

Contract (docs: ARCHITECTURE "Determinism"): integer cells and text are equal; a real cell is
bitwise equal where the pass is a fixed-order computation, else within the stated tolerance
|a - b| <= ABS + REL * max(|a|, |b|) (ABS = 1e-9, REL = 1e-9): the GPU contracts a*b + c into one
fused multiply-add where the CPU build may not, so doubles may differ in the last bits and
grow with the steps of a contact pile. Columns whose name says seconds (wall-clock timings) are
skipped. A scene that measures rather than writes files (the bench scenes) is compared through
the dimensionless result lines of its log ("candidate_pairs = 2707 -"); lines in time units or
derived from timings (seconds, rates, fractions, speed-ups) are skipped. Prints one line per file;
exit 1 when any file is missing or out of tolerance.
"""
import csv
import json
import math
import pathlib
import sys

ABS, REL = 1e-9, 1e-9


def cells(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


TIMED = ("second", "fraction", "speedup", "traffic", "bytes")


def log_cells(path):
    """The result lines of a scene log as a two-row table: names, then values."""
    names, values = [], []
    for line in open(path):
        parts = line.split()
        if len(parts) == 4 and parts[1] == "=" and parts[3] == "-" and not any(t in parts[0] for t in TIMED):
            names.append(parts[0])
            values.append(parts[2])
    return [names, values]


def compare(a_path, b_path):
    read = log_cells if a_path.suffix == ".log" else cells
    a, b = read(a_path), read(b_path)
    out = {"rows": len(a), "bitwise": True, "max_abs": 0.0, "max_rel": 0.0, "within": True, "problem": ""}
    if len(a) != len(b) or (a and a[0] != b[0]):
        out.update(within=False, bitwise=False, problem="row count or header differs")
        return out
    header = a[0] if a else []
    skip = {i for i, h in enumerate(header) if "second" in h or h.endswith("_s_per") or "wall" in h}
    for ra, rb in zip(a[1:], b[1:]):
        if len(ra) != len(rb):
            out.update(within=False, bitwise=False, problem="a row's length differs")
            return out
        for i, (x, y) in enumerate(zip(ra, rb)):
            if i in skip or x == y:
                continue
            out["bitwise"] = False
            try:
                fx, fy = float(x), float(y)
            except ValueError:
                out.update(within=False, problem=f"text cell differs: {x!r} vs {y!r}")
                return out
            d = abs(fx - fy)
            if math.isnan(d) or d > ABS + REL * max(abs(fx), abs(fy)):
                out["within"] = False
            out["max_abs"] = max(out["max_abs"], d)
            scale = max(abs(fx), abs(fy))
            if scale > 0:
                out["max_rel"] = max(out["max_rel"], d / scale)
    return out


def main():
    cpu, gpu, report = map(pathlib.Path, sys.argv[1:4])
    results, ok = {}, True
    for f in sorted(list(cpu.rglob("*.csv")) + list(cpu.glob("*.log"))):
        rel = f.relative_to(cpu)
        g = gpu / rel
        if not g.exists():
            results[str(rel)] = {"within": False, "problem": "missing in the GPU run"}
            ok = False
        else:
            results[str(rel)] = compare(f, g)
            ok = ok and results[str(rel)]["within"]
        r = results[str(rel)]
        verdict = "bitwise" if r.get("bitwise") else ("within tolerance" if r["within"] else "OUT OF TOLERANCE")
        print(f"gpu: {rel}: {verdict} (max abs {r.get('max_abs', 0):.3g}, max rel {r.get('max_rel', 0):.3g}) {r.get('problem', '')}")
    report.write_text(json.dumps({"abs": ABS, "rel": REL, "files": results}, indent=1))
    sys.exit(0 if ok and results else 1)


if __name__ == "__main__":
    main()
