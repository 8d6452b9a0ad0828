#!/usr/bin/env python3
"""Printable exercise sheets: one page per chapter with every exercise of exercises/<chapter>/ in
full (question text, numbers, options and a line to answer on). The instructor edition of the book
(sphinx -t instructor) also shows, under each exercise, the answer (numbers with units, the chosen
option with its text) and the worked solution; the student edition leaves them out of the HTML.

    python3 docs/tools/exercise_sheets.py --exercises exercises --out build/book/src/teaching/sheets

The exercise files are read as they are; nothing is computed here.
"""
import argparse
import pathlib
import re
import sys
import tomllib

CHAPTERS = {"e1": ("E1", "E1 · 模型、坐标、状态与时间", "/chapters/e1/11-exercises"),
            "e3": ("E3", "E3：接触、求解器与力观测", "/chapters/e3/12-pitfalls-and-exercises"),
            "st": ("ST", "Stewart–Trinkle 1996", "/chapters/st/05-limits-and-exercises")}


def natural_key(path):
    """ex2 before ex10: digit runs compare as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.stem)]


def escape(text):
    """Plain exercise text as Markdown that shows every character as written."""
    return re.sub(r"([\\`*_\[\]<>$|#{}])", r"\\\1", text)


def paragraphs(text):
    """The TOML text's paragraphs, each joined to one line (the file wraps at 100 columns)."""
    return [" ".join(p.split()) for p in text.strip().split("\n\n") if p.strip()]


def question_parts(text):
    """The question's paragraphs, and the options it lists inline ("  a) ..." lines, continued by
    more deeply indented lines), each option as one line."""
    paras, options = [], []
    for block in text.strip("\n").split("\n\n"):
        prose, in_option = [], False
        for line in block.split("\n"):
            if re.match(r"^\s+[a-z]\) ", line):
                options.append(line.strip())
                in_option = True
            elif in_option and line.startswith("   "):
                options[-1] += " " + line.strip()
            else:
                prose.append(line.strip())
                in_option = False
        if any(prose):
            paras.append(" ".join(w for w in prose if w))
    return paras, options


def number(v):
    return f"{v:.10g}"


def choices(a, inline):
    """An answer's options with their text: its own list, or the question's inline list when the
    answer lists bare letters."""
    return inline if inline and all(len(o) == 1 for o in a["options"]) else a["options"]


def answer_value(a, inline):
    """The key of one answer part as a reader writes it: numbers with the unit, or the option."""
    if a.get("kind") == "choice":
        letter = a["correct"]
        text = next((o for o in choices(a, inline) if o.startswith(letter + ")")), letter)
        return escape(text)
    values = a.get("course", [])
    shown = ", ".join(number(v) for v in values)
    if len(values) > 1:
        shown = f"({shown})"
    unit = a.get("unit", "-")
    return escape(shown + ("" if unit in ("-", "") else f" {unit}"))


def blank(a):
    unit = a.get("unit", "-")
    what = "option" if a.get("kind") == "choice" else ("vector" if len(a.get("course", [])) > 1 else "value")
    return f"{escape(a['name'])} ({what}{'' if unit in ('-', '') else ', ' + escape(unit)}): ____________________"


def sheet(chapter, files):
    tag, chinese, page = CHAPTERS[chapter]
    out = [f"# {tag} exercise sheet", "", f"*{chinese} · 练习*", "",
           f"The {len(files)} reading exercises of {tag}, as the course sets them, to print and answer on "
           f"paper. Check an answer with `impulse exercises check ID ANSWER...`; the chapter's page "
           f"({{doc}}`{page}`) says which section each exercise tests.", "",
           "```{only} not instructor",
           "Name: ______________________  Date: ______________",
           "```", "",
           "```{only} instructor",
           "Instructor edition: each exercise is followed by its answer and worked solution.",
           "```", ""]
    for n, f in enumerate(files, 1):
        ex = tomllib.loads(f.read_text(encoding="utf-8"))
        out += [":::{container} sheet-exercise",
                f"**{n}. {escape(ex['title'])}** · `{ex['id']}` · course: {escape(ex.get('source', ''))}", ""]
        prose, inline = question_parts(ex["question"])
        out += [escape(p) + "\n" for p in prose]
        answers = ex.get("answer", [])
        for a in answers:
            if a.get("kind") == "choice":
                out += [f"{escape(a['name'])}, choose one:", ""]
                out += [f"- {escape(o)}" for o in choices(a, inline)]
                out.append("")
        out += ["```{container} answer-lines"] + [blank(a) + "\n" for a in answers] + ["```", ""]
        out += ["```{only} instructor",
                "**Answer.** " + "; ".join(f"{escape(a['name'])} = {answer_value(a, inline)}" for a in answers), ""]
        out += ["**Worked solution.** " + escape(paragraphs(ex["explanation"])[0])] + \
               ["\n" + escape(p) for p in paragraphs(ex["explanation"])[1:]]
        out += ["```", ":::", ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exercises", type=pathlib.Path, required=True, help="the exercises/ folder")
    ap.add_argument("--out", type=pathlib.Path, required=True)
    a = ap.parse_args()
    if not a.exercises.is_dir():
        print(f"exercise_sheets: --exercises {a.exercises} is not a folder", file=sys.stderr)
        return 2
    a.out.mkdir(parents=True, exist_ok=True)
    for chapter in CHAPTERS:
        files = sorted((a.exercises / chapter).glob("*.toml"), key=natural_key)
        (a.out / f"{chapter}.md").write_text(sheet(chapter, files), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
