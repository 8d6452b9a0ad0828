"""The variant draw, written again in Python from its specification (lib/course/variants.h,
docs/guide/grading.md), against what `impulse exercises variant` prints for 200 seeds.

FNV-1a 64 of seed + "\\x1f" + ID seeds SplitMix64; u = top 53 bits / 2^53; x = round2(x0 (0.5 + u)).
The XPBD exercise's key is recomputed here from the course's formula p_n = relaxation (-d) / (h w),
F = p_n / h (E3 §4), so neither the draw nor the key is read from the engine.

usage: variants_check.py IMPULSE
"""
import math
import re
import subprocess
import sys

M = (1 << 64) - 1


def fnv1a64(b):
    h = 0xCBF29CE484222325
    for c in b:
        h = ((h ^ c) * 0x100000001B3) & M
    return h


class Stream:
    def __init__(self, seed, ex_id):
        self.s = fnv1a64((seed + "\x1f" + ex_id).encode())

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) / 2.0**53


def round_half_away(y):
    a = abs(y)
    f = math.floor(a)
    r = f + 1 if a - f >= 0.5 else f
    return math.copysign(r, y)


def round2(x):
    if x == 0:
        return x
    a, e = abs(x), 0
    while e < 22 and a >= float(10 ** (e + 1)):
        e += 1
    while e > -22 and a < (1 / float(10 ** -e) if e <= 0 else float(10 ** e)):
        e -= 1
    shift = 1 - e
    if shift >= 0:
        return round_half_away(x * float(10**shift)) / float(10**shift)
    return round_half_away(x / float(10**-shift)) * float(10**-shift)


def xpbd_inputs(seed):
    """d, h, w of E3.10-ex2 for a seed. A set is drawn again (at most 8 times) when a typical
    mistake cannot be told from the key: leaving out w is invisible when w = 1; F = p_n when h = 1."""
    g = Stream(seed, "E3.10-ex2-xpbd-normal")
    for _ in range(8):
        d, h, w = (round2(x0 * (0.5 + g.uniform())) for x0 in (-0.002, 0.001, 2.0))
        if abs(w - 1) > 0.005 and abs(h - 1) > 0.005:
            return d, h, w
    return -0.002, 0.001, 2.0


def main():
    impulse = sys.argv[1]
    ex_id = "E3.10-ex2-xpbd-normal"
    checked = redrawn = 0
    for k in range(200):
        seed = "student-%d" % k if k % 3 else "名字 %d" % k  # any string, bytes as UTF-8
        d, h, w = xpbd_inputs(seed)
        out = subprocess.run([impulse, "exercises", "variant", ex_id, "--seed", seed, "--key"],
                             capture_output=True, text=True, check=True).stdout
        m = re.search(r"gap d = (\S+) m, step h = (\S+) s, inverse effective mass w = (\S+) 1/kg", out)
        assert m, out
        printed = tuple(float(x) for x in m.groups())
        assert printed == (d, h, w), (seed, printed, (d, h, w))
        pn = 0.8 * (-d) / (h * w)
        got_pn = float(re.search(r"p_n = (\S+) N s", out).group(1))
        got_f = float(re.search(r"F_avg = (\S+) N", out).group(1))
        assert abs(got_pn - pn) <= 1e-8 * pn and abs(got_f - pn / h) <= 1e-8 * pn / h, (seed, out)
        checked += 1
        g = Stream(seed, ex_id)
        redrawn += (d, h, w) != tuple(round2(x0 * (0.5 + g.uniform())) for x0 in (-0.002, 0.001, 2.0))
    assert redrawn > 0, "200 seeds should include a redrawn set (w = 1), else the rule goes untested"
    print("variants_check: %d seeds drew the specified numbers and keys (%d redrawn)" % (checked, redrawn))


if __name__ == "__main__":
    main()
