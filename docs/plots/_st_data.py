"""What the Stewart-Trinkle figure scripts share: the Agg backend, the book's data and figure
folders ($IMPULSE_BOOK_DATA, $IMPULSE_BOOK_FIGURES, set by ./run book and docs/tools/slides.py),
and a CSV reader that turns every cell into a float (an empty cell into NaN). Not a figure itself:
./run book and slides.py skip docs/plots/_*.py."""
import csv
import os

import matplotlib

matplotlib.use("Agg")


def rows(name):
    """The rows of the scene output `name` in the book's data folder, as dicts of floats."""
    with open(os.path.join(os.environ["IMPULSE_BOOK_DATA"], name), newline="") as f:
        return [{k: float(v) if v else float("nan") for k, v in r.items()} for r in csv.DictReader(f)]


def figure_path(name):
    """Where the figure `name` goes."""
    return os.path.join(os.environ["IMPULSE_BOOK_FIGURES"], name)
