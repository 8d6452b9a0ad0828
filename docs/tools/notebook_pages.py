"""Turns executed notebooks into book pages (MyST Markdown), outputs included.

    python3 docs/tools/notebook_pages.py build/notebooks/*.ipynb --out build/book/src/notebooks

Markdown cells are copied, code cells become ```python blocks, text outputs ``` blocks and PNG
outputs image files beside the page. A notebook with an error output is refused (exit 1), so the
book never shows a broken run. Each page links its .ipynb for download.
"""
import argparse
import base64
import pathlib
import shutil
import sys

import nbformat


def page(nb_path, out_dir):
    nb = nbformat.read(nb_path, as_version=4)
    stem = nb_path.stem
    lines, figure = [], 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            lines += [cell.source, ""]
            if cell.source.startswith("# "):
                lines += [f"Download the notebook: {{download}}`{stem}.ipynb <{stem}.ipynb>` "
                          f"(run it with `PYTHONPATH=build/python jupyter notebook`, or execute it "
                          f"with `python3 docs/tools/run_notebook.py`).", ""]
            continue
        if cell.cell_type != "code":
            continue
        lines += ["```python", cell.source, "```", ""]
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                raise SystemExit(f"notebook_pages: {nb_path} holds an error output ({out.ename}); run it first")
            if out.output_type == "stream":
                lines += ["```text", out.text.rstrip("\n"), "```", ""]
            elif out.output_type in ("execute_result", "display_data"):
                data = out.get("data", {})
                if "image/png" in data:
                    figure += 1
                    name = f"{stem}-{figure}.png"
                    (out_dir / name).write_bytes(base64.b64decode(data["image/png"]))
                    lines += [f"![output {figure} of {stem}]({name})", ""]
                elif "text/plain" in data:
                    lines += ["```text", data["text/plain"].rstrip("\n"), "```", ""]
    shows = sum(c.source.count("plt.show()") for c in nb.cells if c.cell_type == "code")
    if figure < shows:
        raise SystemExit(f"notebook_pages: {nb_path} calls plt.show() {shows} times but holds {figure} images; "
                         "execute it with docs/tools/run_notebook.py (inline backend)")
    (out_dir / f"{stem}.md").write_text("\n".join(lines))
    shutil.copyfile(nb_path, out_dir / f"{stem}.ipynb")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebooks", nargs="+", type=pathlib.Path)
    ap.add_argument("--out", type=pathlib.Path, required=True)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    for nb in a.notebooks:
        if not nb.is_file():
            print(f"notebook_pages: notebook {nb} does not exist", file=sys.stderr)
            return 2
        page(nb, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
