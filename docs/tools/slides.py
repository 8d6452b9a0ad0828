"""Slide versions of the book's figures: every docs/plots script drawn again at 16:9 with large
text, into one folder (./run book --slides draws them for the lecture decks).

    python3 docs/tools/slides.py docs/plots/*.py --data build/book/data --out build/book/slides

Each script runs unchanged; before each of its figures is saved, the figure is resized to
13.33 x 7.5 in (16:9) and every text is enlarged to at least 16 pt. The scripts that run the
engine use --impulse (default: $IMPULSE_BIN, else build/bin/impulse of this checkout); --data is
the folder of scene CSV files that ./run book writes.
"""
import argparse
import os
import pathlib
import runpy
import sys

import matplotlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
matplotlib.use("Agg")
import matplotlib.figure  # noqa: E402
import matplotlib.text  # noqa: E402

WIDTH, HEIGHT, MIN_PT = 13.33, 7.5, 16
_save = matplotlib.figure.Figure.savefig


def _slide_savefig(fig, fname, *args, **kwargs):
    fig.set_size_inches(WIDTH, HEIGHT)
    for t in fig.findobj(matplotlib.text.Text):
        t.set_fontsize(max(MIN_PT, 1.6 * t.get_fontsize()))
    fig.tight_layout()
    kwargs["dpi"] = 150
    return _save(fig, fname, *args, **kwargs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scripts", nargs="+", type=pathlib.Path)
    ap.add_argument("--data", type=pathlib.Path, required=True, help="the scenes' CSV folder of the book")
    ap.add_argument("--out", type=pathlib.Path, required=True)
    ap.add_argument("--impulse", type=pathlib.Path,
                    default=pathlib.Path(os.environ.get("IMPULSE_BIN", ROOT / "build" / "bin" / "impulse")),
                    help="the impulse command (default: $IMPULSE_BIN, else build/bin/impulse)")
    a = ap.parse_args()
    if not a.data.is_dir():
        print(f"slides: --data {a.data} is not a folder (run ./run book first)", file=sys.stderr)
        return 2
    if not os.access(a.impulse, os.X_OK):
        print(f"slides: --impulse {a.impulse} is not an executable (run ./run build first)", file=sys.stderr)
        return 2
    os.environ["IMPULSE_BIN"] = str(a.impulse.resolve())
    a.out.mkdir(parents=True, exist_ok=True)
    os.environ["IMPULSE_BOOK_DATA"] = str(a.data)
    os.environ["IMPULSE_BOOK_FIGURES"] = str(a.out)
    matplotlib.figure.Figure.savefig = _slide_savefig
    for script in a.scripts:
        if script.name.startswith("_"):
            continue  # a module the figure scripts share (docs/plots/_st_data.py), not a figure
        sys.path.insert(0, str(script.parent.resolve()))
        runpy.run_path(str(script), run_name="__main__")
        sys.path.pop(0)
        matplotlib.pyplot.close("all")
    print(f"slides: {len(list(a.out.glob('*.png')))} figures in {a.out}")
    return 0


if __name__ == "__main__":
    import matplotlib.pyplot  # noqa: F401
    sys.exit(main())
