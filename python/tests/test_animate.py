"""`impulse run SCENE --animate`: argument checks, the missing-ffmpeg message, and a GIF whose
frame count follows the scene's duration at 25 frames per second."""
import os
import pathlib
import subprocess

import pytest
from PIL import Image

import impulse
from impulse import animate

BIN = pathlib.Path(impulse.__file__).resolve().parents[2] / "bin" / "impulse"


def _cli(*args, env=None):
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, env=env)


def test_ST_4_rod_animation_gif_has_one_frame_per_25th_second(tmp_path):
    out = tmp_path / "rod.gif"
    frames = animate.animate("st-rod", out, poster=tmp_path / "rod.png")
    t = impulse.run("st-rod")["st-rod"]["t_s"]
    assert frames == round((t[-1] - t[0]) * 25) + 1  # the scene's duration at 25 frames per second
    with Image.open(out) as gif:
        assert gif.n_frames == frames
    assert (tmp_path / "rod.png").stat().st_size > 0


def test_animate_without_ffmpeg_names_the_package(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # no ffmpeg on this PATH
    r = _cli("run", "st-rod", "--animate", str(tmp_path / "rod.mp4"), env=env)
    assert r.returncode == 2
    assert "apt-get install ffmpeg" in r.stderr
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_animate_bad_arguments_exit_2_naming_them(tmp_path):
    r = _cli("run", "st-rod", "--animate", str(tmp_path / "rod.txt"))
    assert r.returncode == 2 and ".mp4" in r.stderr and "rod.txt" in r.stderr
    r = _cli("run", "e1-frames", "--animate", str(tmp_path / "x.gif"))
    assert r.returncode == 2 and "e1-frames" in r.stderr
    r = _cli("run", "st-rod", "--h", "0.01", "--animate", str(tmp_path / "x.gif"))
    assert r.returncode == 2 and "--h" in r.stderr
    with pytest.raises(ValueError, match="out must end in .mp4 or .gif"):
        animate.animate("st-rod", tmp_path / "x.avi")
    assert not list(tmp_path.iterdir())
