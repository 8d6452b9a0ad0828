"""The book's E3 §9-§11 pages name the tests that demonstrate them: every name must be a test of
the suite, so a renamed or deleted test cannot leave a pitfalls row without its demonstration."""
import re

from conftest import ROOT


def _test_names():
    names = set()
    for src in (ROOT / "verify").rglob("*_test.cpp"):
        for m in re.finditer(r"(?:RC_GTEST_PROP|TEST|TEST_F)\(\s*(\w+),\s*(\w+)", src.read_text()):
            names.add(f"{m.group(1)}.{m.group(2)}")
    return names


def _cited(page):
    return re.findall(r"`(E[13]_\w+|ST_\w+)(?:\.(\w+))?`", (ROOT / "chapters" / "e3" / page).read_text())


def test_E3_10_pitfalls_table_every_row_names_existing_tests():
    names = _test_names()
    suites = {n.split(".")[0] for n in names}
    text = (ROOT / "chapters" / "e3" / "12-pitfalls-and-exercises.md").read_text()
    rows = [l for l in text.splitlines() if re.match(r"\| (\d+) \|", l)]
    assert len(rows) == 10  # the course's ten rows (seed 000 L518-L560)
    for row in rows:
        cited = re.findall(r"`(E[13]_\w+|ST_\w+)(?:\.(\w+))?`", row)
        assert cited, row
        for suite, case in cited:
            assert (f"{suite}.{case}" in names) if case else (suite in suites), f"{suite}.{case} in: {row[:60]}"


def test_E3_9_readback_page_names_existing_tests():
    names = _test_names()
    cited = _cited("11-readback-example.md")
    assert cited
    for suite, case in cited:
        assert f"{suite}.{case}" in names, f"{suite}.{case}"
