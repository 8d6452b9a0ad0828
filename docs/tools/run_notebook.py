"""Executes one notebook with nbclient and writes the executed copy (outputs included).

    python3 docs/tools/run_notebook.py notebooks/e3.ipynb            # -> build/notebooks/e3.ipynb
    python3 docs/tools/run_notebook.py notebooks/e3.ipynb --out e3-run.ipynb

The kernel imports the module built by `./run build` (build/python of this checkout) unless
PYTHONPATH already names one; nbclient and the kernel are Debian's python3-nbclient and
python3-ipykernel, which ./run installs. A cell that raises stops the run and exits 1 with the
cell's error; the executed copy is written only when every cell ran (no half-executed notebook is
left for the book).
"""
import argparse
import os
import pathlib
import sys

import nbclient
import nbformat


ROOT = pathlib.Path(__file__).resolve().parents[2]


def module_path():
    """Where the kernel finds `impulse`: PYTHONPATH when set, else this checkout's build/python."""
    if os.environ.get("PYTHONPATH"):
        return os.environ["PYTHONPATH"]
    built = ROOT / "build" / "python"
    if not any(built.glob("impulse/_core*.so")):
        return None
    return str(built)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path,
                    help="where the executed copy goes (default: build/notebooks/NAME in this checkout)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    a = ap.parse_args()
    if not a.notebook.is_file():
        print(f"run_notebook: notebook {a.notebook} does not exist", file=sys.stderr)
        return 2
    if a.timeout <= 0:
        print(f"run_notebook: --timeout must be > 0 seconds, got {a.timeout}", file=sys.stderr)
        return 2
    path = module_path()
    if path is None:
        print(f"run_notebook: the impulse module is not built ({ROOT / 'build' / 'python'} has no impulse/_core*.so): "
              "run ./run build first, or set PYTHONPATH to a directory holding impulse", file=sys.stderr)
        return 2
    os.environ["PYTHONPATH"] = path  # the kernel is a child process: it inherits this
    out = a.out or ROOT / "build" / "notebooks" / a.notebook.name
    nb = nbformat.read(a.notebook, as_version=4)
    # The kernel draws with the inline backend, so that plt.show() leaves a PNG output for the book
    # (an inherited MPLBACKEND=Agg would draw nothing).
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # quiets ipykernel's debugger notice
    client = nbclient.NotebookClient(nb, timeout=a.timeout, kernel_name="python3",
                                     resources={"metadata": {"path": str(a.notebook.parent)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        print(f"run_notebook: {a.notebook} failed:\n{e}", file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    nbformat.write(nb, tmp)
    tmp.replace(out)
    print(f"run_notebook: {a.notebook.name}: {len(nb.cells)} cells executed -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
