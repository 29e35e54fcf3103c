"""A PTOAS golden script as a pytest test: PTOAS's Adds sample (dst = src + 3.14 on 32x32 f32).

PTOAS's samples come in three files: a builder script (adds.py) that prints the kernel, a golden
script (adds_golden.py) that writes the input buffers and the expected output for the harness's
description of the kernel (main.cpp, outputs.txt), and a compare script (adds_compare.py) that
judges the output files. Here the kernel runs in-process through the `pto` package instead of on a
board:

    PTOAS_SRC=/path/to/PTOAS python3 -m pytest python/examples

Nothing of PTOAS is in this repository: the test reads the PTOAS tree from $PTOAS_SRC and skips when
it is absent. PTOAS's builder scripts need its MLIR Python bindings; tests/ptoas/mock stands in for
them and prints the kernel as PTO-AS text.
"""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import pto

ROOT = pathlib.Path(__file__).resolve().parents[2]
PTOAS = pathlib.Path(os.environ.get("PTOAS_SRC", "/nonexistent"))
SAMPLE = PTOAS / "test" / "samples" / "Adds"

pytestmark = pytest.mark.skipif(not (SAMPLE / "adds_golden.py").is_file(),
                                reason="set PTOAS_SRC to a PTOAS source tree to run PTOAS's Adds sample")


def kernel_text():
    """The kernel adds.py builds, printed by the stand-in MLIR bindings of tests/ptoas/mock."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests" / "ptoas" / "mock"), str(SAMPLE)]),
               PTOAS_OPS_TD=str(PTOAS / "include" / "PTO" / "IR" / "PTOOps.td"))
    r = subprocess.run([sys.executable, str(SAMPLE / "adds.py")], env=env, capture_output=True, text=True, check=True)
    return r.stdout


def run_script(script, cwd):
    """Runs one of the sample's scripts in `cwd` (where its buffers and main.cpp live)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SAMPLE), str(SAMPLE.parent)]))
    return subprocess.run([sys.executable, str(SAMPLE / script)], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("target", ["a2a3", "a5"])
def test_adds_matches_its_golden(tmp_path, target):
    module = pto.compile(kernel_text(), target=target)
    gm = [a for a in module.args() if a.kind == "gm"]
    assert [a.dtype for a in gm] == ["f32", "f32"]

    # 1. A run on zeros sizes the buffers (each grows to the views the kernel makes on it); the
    #    harness's description of the kernel (main.cpp, outputs.txt) is written from those sizes.
    sizes = {name: a.size for name, a in module.run().items()}
    main_cpp = []
    for k, a in enumerate(gm, 1):
        main_cpp += [f"    size_t elemCount_v{k} = {sizes[a.name]};",
                     f"    size_t fileSize_v{k} = elemCount_v{k} * sizeof(float);",
                     f'    ReadFile("./v{k}.bin", fileSize_v{k}, buf, fileSize_v{k});']
    (tmp_path / "main.cpp").write_text("\n".join(main_cpp) + "\n")
    (tmp_path / "outputs.txt").write_text("v2\n")  # arg1 is the one the kernel stores to

    # 2. PTOAS's golden script writes the input v1.bin and the expected golden_v2.bin.
    g = run_script("adds_golden.py", tmp_path)
    assert g.returncode == 0, g.stdout + g.stderr
    src = np.fromfile(tmp_path / "v1.bin", dtype=np.float32).reshape(32, 32)
    golden = np.fromfile(tmp_path / "golden_v2.bin", dtype=np.float32).reshape(32, 32)

    # 3. The kernel runs in-process on the golden script's input.
    out = module.run(inputs={"arg0": src})["arg1"]
    assert out.dtype == np.float32 and out.shape == (32, 32)
    np.testing.assert_allclose(out, golden, atol=1e-4, rtol=0)  # adds_compare.py's tolerance

    # 4. PTOAS's own compare script judges the output file as it would on a board.
    out.tofile(tmp_path / "v2.bin")
    c = run_script("adds_compare.py", tmp_path)
    assert c.returncode == 0, c.stdout + c.stderr
