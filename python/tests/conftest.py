# Shared by the module's tests: where the repository is (for golden/ and notebooks/), and a
# throwaway record of wrong tries (impulse.check counts them as the command line does).
import os
import pathlib
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
os.environ["IMPULSE_TRIES_FILE"] = os.path.join(tempfile.mkdtemp(prefix="impulse-pytest-"), "tries.json")
