"""The package installs offline (pip, no index, no build isolation) and works outside the tree."""
import os
import shutil
import subprocess
import sys

import pytest

import pto
from test_pto import ROOT, SAMPLES


@pytest.mark.skipif(subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0,
                    reason="pip is not installed (python3-pip)")
def test_offline_install_into_a_venv(tmp_path):
    shutil.copytree(ROOT / "python", tmp_path / "src", ignore=shutil.ignore_patterns("build", "*.egg-info", "tests",
                                                                                      "examples", "__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    env = dict(os.environ, PTO_LIBRARY=pto.library_path, PIP_NO_CACHE_DIR="1")
    r = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", str(tmp_path / "src")],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    env.pop("PTO_LIBRARY")
    script = ("import numpy as np, pto\n"
              f"m = pto.compile({str(SAMPLES / 'tmuls_f32.pto')!r})\n"
              "out = m.run(inputs={'arg0': np.ones((32, 32), np.float32)})\n"
              "print(pto.library_path, out['arg1'][0, 0])\n")
    r = subprocess.run([python, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    lib, value = r.stdout.split()
    assert lib == str(venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages" / "pto"
                      / "libpto.so")
    assert float(value) == 2.5
