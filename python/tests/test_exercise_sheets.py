"""The printable exercise sheets (docs/tools/exercise_sheets.py) carry every exercise in full:
its question text with its numbers, every option, a line per answer part, and the key and worked
solution only inside the instructor block."""
import re
import subprocess
import sys
import tomllib

from conftest import ROOT


def _sheets(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "docs/tools/exercise_sheets.py"), "--exercises", str(ROOT / "exercises"),
                    "--out", str(tmp_path)], check=True)
    return {ch: (tmp_path / f"{ch}.md").read_text() for ch in ("e1", "e3", "st")}


def _unescape(md):
    return re.sub(r"\\(.)", r"\1", md)


def test_sheets_hold_every_exercise_in_full(tmp_path):
    sheets = _sheets(tmp_path)
    for ch, md in sheets.items():
        text = " ".join(_unescape(md).split())
        files = list((ROOT / "exercises" / ch).glob("*.toml"))
        assert files
        for f in files:
            ex = tomllib.loads(f.read_text())
            assert ex["id"] in text, ex["id"]
            for line in ex["question"].splitlines():  # every line of the question, numbers and inline options
                assert " ".join(line.split()) in text, (ex["id"], line)
            for a in ex.get("answer", []):
                assert f"{a['name']} (" in text, (ex["id"], a["name"])
                for o in a.get("options", []):
                    assert " ".join(o.split()) in text, (ex["id"], o)


def test_sheets_keep_keys_inside_the_instructor_block(tmp_path):
    for ch, md in _sheets(tmp_path).items():
        student = re.sub(r"```\{only\} instructor\n.*?\n```", "", md, flags=re.S)
        assert "Worked solution" not in student and "**Answer.**" not in student, ch
        assert md.count("**Worked solution.**") == len(list((ROOT / "exercises" / ch).glob("*.toml"))), ch
