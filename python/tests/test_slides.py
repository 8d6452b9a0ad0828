"""The lecture decks (chapters/<chapter>/slides/) and the teaching plans (docs/teaching/) say what
the book has: every test a deck cites is a test of the suite, every figure it shows is one a
docs/plots script draws, every deck has its section's page (which links it) and ends with its
discussion questions, and every page, figure and exercise a teaching plan names exists."""
import re

from conftest import ROOT

CITED_TEST = re.compile(r"`(E[13]_\d+_\w+|ST_\d+_\w+)(?:\.(\w+))?`")


def _test_names():
    names = set()
    for src in (ROOT / "verify").rglob("*_test.cpp"):
        for m in re.finditer(r"(?:RC_GTEST_PROP|TEST|TEST_F)\(\s*(\w+),\s*(\w+)", src.read_text()):
            names.add(f"{m.group(1)}.{m.group(2)}")
    return names


def _decks():
    decks = sorted(ROOT.glob("chapters/*/slides/*.md"))
    assert decks, "no lecture decks under chapters/*/slides/"
    return decks


def _figures_drawn():
    text = "\n".join(p.read_text() for p in (ROOT / "docs" / "plots").glob("*.py"))
    return {stem for stem in re.findall(r"\b((?:e1|e3|st)_[a-z0-9_]+)\b", text)}


def test_slides_cite_existing_tests():
    names = _test_names()
    suites = {n.split(".")[0] for n in names}
    for deck in _decks():
        for suite, case in CITED_TEST.findall(deck.read_text()):
            assert (f"{suite}.{case}" in names) if case else (suite in suites), f"{deck.name}: {suite}.{case}"


def test_slides_show_figures_the_book_draws():
    drawn = _figures_drawn()
    for deck in _decks():
        for fig in re.findall(r"\.\./figures/(\w+)\.png", deck.read_text()):
            assert fig in drawn, f"{deck.name}: figure {fig} is drawn by no docs/plots script"


def test_every_deck_has_its_page_which_links_it_and_ends_with_discussion():
    for deck in _decks():
        page = deck.parent.parent / deck.name
        assert page.is_file(), f"{deck} has no chapter page {page.name}"
        chapter = deck.parent.parent.name
        assert f"../../slides/{chapter}/{deck.stem}.html" in page.read_text(), f"{page} does not link its deck"
        text = deck.read_text()
        assert text.startswith("# "), deck
        assert "\n## Discussion\n" in text, f"{deck.name} has no discussion slide"


def test_every_section_page_has_a_deck():
    for page in sorted(ROOT.glob("chapters/*/[0-9]*.md")):
        assert (page.parent / "slides" / page.name).is_file(), f"{page} has no deck in slides/"


def test_teaching_plans_name_existing_pages_figures_and_exercises():
    drawn = _figures_drawn()
    exercises = {p.stem for p in ROOT.glob("exercises/*/*.toml")}
    for plan in sorted((ROOT / "docs" / "teaching").glob("*.md")):
        text = plan.read_text()
        for doc in re.findall(r"\{doc\}`(?:[^`<]*<)?(/chapters/[^`>]+)>?`", text):
            assert (ROOT / (doc.lstrip("/") + ".md")).is_file(), f"{plan.name}: no page {doc}"
        for fig in re.findall(r"`((?:e1|e3|st)_[a-z0-9_]+)`", text):
            assert fig in drawn, f"{plan.name}: figure {fig} is drawn by no docs/plots script"
        for ex in re.findall(r"`((?:E1\.11|E3\.10|ST\.\d)-[\w-]+)`", text):
            assert ex in exercises, f"{plan.name}: no exercise {ex}"
