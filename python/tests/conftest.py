# Shared by the module's tests: where the repository is (for golden/ and notebooks/).
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
