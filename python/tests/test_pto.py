"""Tests of the pto package over libpto.so (run by tests/python/suite.sh in `make test`)."""
import os
import pathlib

import numpy as np
import pytest

import pto
from kernels import scale_kernel

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def bits(a):
    """The bit patterns of an array, for exact comparisons (NaN and -0 included)."""
    a = np.ascontiguousarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64, 1: np.uint8}[a.dtype.itemsize])


def test_version_matches_the_tree():
    version = (ROOT / "VERSION").read_text().strip()
    assert pto.__version__ == version
    assert f'version = "{version}"' in (ROOT / "python" / "pyproject.toml").read_text()


def test_compile_path_lists_functions_and_arguments():
    m = pto.compile(str(SAMPLES / "tmuls_f32.pto"))
    assert m.functions == ["kernel"] and m.entry == "kernel" and m.target == "a2a3"
    assert m.args() == [pto.Arg("arg0", "gm", "f32", None), pto.Arg("arg1", "gm", "f32", None)]
    assert pto.compile(SAMPLES / "tmuls_f32.pto", target="a5").target == "a5"  # a pathlib.Path


def test_compile_text_with_scalar_and_tile_arguments():
    text = scale_kernel(scalar_arg=True)
    args = pto.compile(text).args("scale")
    assert [(a.name, a.kind, a.dtype) for a in args] == [("arg0", "gm", "f32"), ("arg1", "gm", "f32"),
                                                         ("s", "scalar", "f32")]


def test_compile_error_carries_rule_and_location():
    with pytest.raises(pto.CompileError) as info:
        pto.compile(scale_kernel(dst="f16"))
    diags = info.value.diagnostics
    assert len(diags) == 1
    d = diags[0]
    assert (d.severity, d.rule, d.file, d.line) == ("error", "TMULS.dtype-match", "<string>", 15)
    assert d.column > 1 and d.end_line == 15 and d.end_column > d.column
    assert "same element type" in d.message and "TMULS.dtype-match" in str(info.value)


def test_compile_parse_error_and_unreadable_file():
    with pytest.raises(pto.CompileError) as info:
        pto.compile("module {\n  func.func @k() {\n    pto.nosuchop\n    return\n  }\n}\n")
    assert info.value.diagnostics[0].line == 3
    with pytest.raises(pto.CompileError) as info:
        pto.compile(pathlib.Path("/nonexistent/k.pto"))
    assert "/nonexistent/k.pto" in str(info.value)
    with pytest.raises(pto.CompileError, match="missing.pto"):  # a str ending in .pto is a path
        pto.compile("missing.pto")


def test_verify_returns_diagnostics_as_objects():
    assert pto.verify(SAMPLES / "tmuls_f32.pto") == []
    found = pto.verify(scale_kernel(src="bf16", dst="bf16"))  # bf16 tmuls is A5 only
    assert [(d.rule, d.severity) for d in found] == [("TMULS.dtype", "error")]
    assert isinstance(found[0], pto.Diagnostic) and "bf16" in found[0].message
    assert pto.verify(scale_kernel(src="bf16", dst="bf16"), target="a5") == []
    with pytest.raises(ValueError, match="unknown target"):
        pto.verify(SAMPLES / "tmuls_f32.pto", target="a9")


def test_run_sample_matches_expected_data_bit_exactly():
    m = pto.compile(SAMPLES / "tmuls_f32.pto")
    x = np.fromfile(SAMPLES / "data" / "tmuls_f32.in.bin", dtype=np.float32).reshape(32, 32)
    want = np.fromfile(SAMPLES / "data" / "tmuls_f32.expect.bin", dtype=np.float32).reshape(32, 32)
    out = m.run(inputs={"arg0": x})
    assert sorted(out) == ["arg0", "arg1"]
    assert out["arg1"].dtype == np.float32 and out["arg1"].shape == (32, 32)
    assert np.array_equal(bits(out["arg1"]), bits(want))
    assert np.array_equal(bits(out["arg0"]), bits(x))  # inputs come back too (GM is in/out)
    assert out.steps > 0


def test_text_as_bytes_and_non_contiguous_inputs():
    m = pto.compile((SAMPLES / "tmuls_f32.pto").read_bytes())
    x = np.arange(1024, dtype=np.float32).reshape(32, 32)
    out = m.run(inputs={"arg0": np.asfortranarray(x)})  # any layout: copied in C order
    assert np.array_equal(out["arg1"], x * np.float32(2.5))
    out = m.run(inputs={"arg0": x.T})  # a transposed view holds x.T's elements
    assert np.array_equal(out["arg1"], x.T * np.float32(2.5))


def test_run_output_shape_follows_the_input_shape():
    m = pto.compile(SAMPLES / "tmuls_f32.pto")
    x = np.arange(1024, dtype=np.float32)
    out = m.run(inputs={"arg0": x.reshape(4, 256)}, outputs=["arg0", "arg1"])
    assert out["arg0"].shape == (4, 256) and out["arg1"].shape == (32, 32)
    assert np.array_equal(out["arg1"].ravel(), x * np.float32(2.5))


def test_bf16_output_is_a_documented_uint16_view():
    m = pto.compile(scale_kernel(src="bf16", dst="bf16"), target="a5")
    x = pto.f32_to_bf16(np.linspace(-3, 3, 64, dtype=np.float32).reshape(4, 16))
    assert x.dtype == np.uint16
    out = m.run(inputs={"arg0": x}, bf16_as_uint16=True)
    assert out["arg1"].dtype == np.uint16 and out["arg1"].shape == (4, 16)
    assert np.array_equal(pto.bf16_to_f32(out["arg1"]), pto.bf16_to_f32(x) * 2)
    default = m.run(inputs={"arg0": x})["arg1"]
    assert default.dtype == pto.numpy_dtype("bf16")
    assert np.array_equal(bits(default), out["arg1"])


def test_bf16_with_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    m = pto.compile(scale_kernel(src="bf16", dst="bf16"), target="a5")
    x = np.linspace(-3, 3, 64, dtype=np.float32).reshape(4, 16).astype(ml_dtypes.bfloat16)
    out = m.run(inputs={"arg0": x})["arg1"]
    assert out.dtype == ml_dtypes.bfloat16
    assert np.array_equal(out.astype(np.float32), x.astype(np.float32) * 2)


def test_bf16_conversions_round_to_nearest_even():
    f = np.array([1.0, 1.00390625, 1.01171875, -2.5, np.inf], dtype=np.float32)
    assert list(pto.f32_to_bf16(f)) == [0x3F80, 0x3F80, 0x3F82, 0xC020, 0x7F80]
    assert np.isnan(pto.bf16_to_f32(pto.f32_to_bf16(np.float32("nan"))))


def test_wrong_dtype_input_is_a_clear_error():
    m = pto.compile(SAMPLES / "tmuls_f32.pto")
    with pytest.raises(pto.BindingError, match=r"input 'arg0' is f32 but the array is float64"):
        m.run(inputs={"arg0": np.zeros((32, 32))})
    with pytest.raises(pto.BindingError, match="bf16"):
        pto.compile(scale_kernel(src="bf16", dst="bf16"), target="a5").run(
            inputs={"arg0": np.zeros((4, 16), np.float32)})
    with pytest.raises(pto.BindingError, match="no argument or value named 'nosuch'"):
        m.run(inputs={"nosuch": np.zeros(4, np.float32)})
    with pytest.raises(pto.BindingError, match="numpy array"):
        m.run(inputs={"arg0": [1.0, 2.0]})
    with pytest.raises(pto.BindingError, match="%pv2 is a view"):
        m.run(inputs={"pv2": np.zeros((32, 32), np.float32)})


def test_a_view_can_be_an_output():
    m = pto.compile(SAMPLES / "tmuls_f32.pto")
    x = np.arange(32 * 32, dtype=np.float32).reshape(32, 32)
    res = m.run(inputs={"arg0": x}, outputs=["arg1", "pv5"])
    assert res["pv5"].shape == (32, 32)
    assert np.array_equal(res["pv5"], res["arg1"].reshape(32, 32))


def test_too_small_input_is_a_run_error_with_its_line():
    m = pto.compile(SAMPLES / "tmuls_f32.pto")
    with pytest.raises(pto.RunError) as info:
        m.run(inputs={"arg0": np.zeros(16, np.float32)})
    assert info.value.diagnostics and info.value.diagnostics[0].line > 0


def test_scalars():
    m = pto.compile(scale_kernel(scalar_arg=True))
    x = np.arange(64, dtype=np.float32).reshape(4, 16)
    out = m.run(inputs={"arg0": x}, scalars={"s": -1.5})
    assert np.array_equal(out["arg1"], x * np.float32(-1.5))
    out = m.run(inputs={"arg0": x}, scalars={"%s": 3})  # an int for a float argument, by %name
    assert np.array_equal(out["arg1"], x * 3)
    # a double is rounded once to f32: 0.1 becomes float32(0.1)
    out = m.run(inputs={"arg0": x}, scalars={"s": 0.1})
    assert np.array_equal(bits(out["arg1"]), bits(x * np.float32(0.1)))
    with pytest.raises(pto.BindingError, match="%s needs a value"):
        m.run(inputs={"arg0": x})
    with pytest.raises(pto.BindingError, match="must be a number"):
        m.run(inputs={"arg0": x}, scalars={"s": "two"})


def test_integer_scalar_range_and_division_by_zero():
    m = pto.compile(ROOT / "tests" / "run-cli" / "divzero.pto")
    with pytest.raises(pto.RunError) as info:
        m.run(scalars={"n": 0})
    d = info.value.diagnostics[0]
    assert d.severity == "error" and d.line == 8
    assert m.run(scalars={"n": 2})["arg0"].dtype == np.int32
    with pytest.raises(pto.BindingError, match="whole number"):
        m.run(scalars={"n": 2.5})


def test_blocks():
    m = pto.compile(ROOT / "tests" / "run-cli" / "blocks.pto")
    out = m.run(blocks=4)["arg0"]
    assert out.dtype == np.float32 and out.size == 256
    assert np.array_equal(out.ravel(), np.repeat(np.arange(1, 5, dtype=np.float32), 64))
    assert np.array_equal(m.run()["arg0"].ravel(), np.ones(64, np.float32))
    with pytest.raises(ValueError, match="blocks"):
        m.run(blocks=0)


def test_tile_inputs_and_outputs():
    # no tload: tile %a keeps the input it gets where pto.alloc_tile defines it
    text = "\n".join(line for line in scale_kernel(rows=2, cols=8).splitlines() if "pto.tload" not in line)
    m = pto.compile(text)
    t = np.arange(16, dtype=np.float32).reshape(2, 8)
    out = m.run(inputs={"a": t}, outputs=["b", "arg1"])  # fill tile %a where it is allocated
    assert out["b"].shape == (2, 8) and np.array_equal(out["b"], t * 2)
    assert np.array_equal(out["arg1"], out["b"])
    with pytest.raises(pto.BindingError, match="valid region"):
        m.run(inputs={"a": np.zeros(15, np.float32)})


def test_fp8_tiles_travel_as_bytes():
    # an A5 MX matmul of tests/sim (goldens from pto-isa's CPU simulator): fp8 operands and e8m0 scales
    case = ROOT / "tests" / "sim" / "tmatmul_mx_f8E4M3FN_f8E4M3FN_16x32x16_a5"
    m = pto.compile(case / "prog.pto", target="a5")  # a bare program: its tiles are bound by name
    assert pto.numpy_dtype("f8E5M2") == np.uint8
    files = {"a_w": ("a", np.uint8), "sa_w": ("sa", np.uint8), "b_w": ("b", np.uint8), "sb_w": ("sb", np.uint8),
             "d_w": ("d", np.float32)}
    inputs = {name: np.fromfile(case / f"{stem}.bin", dtype) for name, (stem, dtype) in files.items()}
    out = m.run(inputs=inputs, outputs=["d_w", "a_w"])
    assert np.array_equal(bits(out["d_w"]).ravel(), np.fromfile(case / "d.expect.bin", np.uint32))
    assert out["a_w"].dtype == np.uint8 and np.array_equal(out["a_w"].ravel(), inputs["a_w"])
    with pytest.raises(pto.BindingError, match="f8E4M3FN but the array is float32"):
        m.run(inputs=dict(inputs, a_w=inputs["a_w"].astype(np.float32)))
    with pytest.raises(pto.BindingError, match="f8E8M0FNU but the array is int8"):
        m.run(inputs=dict(inputs, sa_w=inputs["sa_w"].view(np.int8)))


def test_printed_output_and_trace():
    m = pto.compile(SAMPLES / "tmuls_f32.pto")
    out = m.run(inputs={"arg0": np.ones((32, 32), np.float32)}, trace=True)
    assert "tmuls" in out.output


def test_entry_selection():
    two = (ROOT / "tests" / "run-cli" / "two_funcs.pto")
    m = pto.compile(two)
    assert len(m.functions) == 2
    if m.entry is None:
        with pytest.raises(pto.BindingError, match="name the entry"):
            m.run()
    for name in m.functions:
        assert isinstance(m.args(name), list)
    with pytest.raises(pto.BindingError, match="no function @nosuch"):
        m.args("nosuch")


def test_library_found_through_pto_library():
    assert os.path.exists(pto.library_path)
    if os.environ.get("PTO_LIBRARY"):
        assert os.path.samefile(pto.library_path, os.environ["PTO_LIBRARY"])


def test_check_sync_notes_and_strict_errors():
    m = pto.compile(SAMPLES / "tmuls_f32.pto")
    x = np.ones((32, 32), np.float32)
    assert m.run(inputs={"arg0": x}).diagnostics == []
    notes = m.run(inputs={"arg0": x}, check_sync=True).diagnostics
    assert [(d.severity, d.rule) for d in notes] == [("note", "SYNC.auto")]
    with pytest.raises(pto.RunError) as info:
        m.run(inputs={"arg0": x}, check_sync="strict")
    assert [(d.rule, d.line) for d in info.value.diagnostics if d.severity == "error"] == [("SYNC.raw", 13),
                                                                                          ("SYNC.raw", 16)]


def test_check_init_reports_unwritten_reads():
    sync = ROOT / "tests" / "sync"
    a = np.fromfile(sync / "data" / "a16x16.bin", dtype=np.float32)
    clean = pto.compile(sync / "init_clean.pto").run(inputs={"a": a}, check_init=True)
    assert clean.diagnostics == []
    with pytest.raises(pto.RunError) as info:
        pto.compile(sync / "init_unwritten.pto").run(inputs={"a": a}, check_init=True)
    assert [(d.rule, d.line) for d in info.value.diagnostics] == [("INIT.read", 22)]
    # without the check the same kernel runs (on zeros)
    assert pto.compile(sync / "init_unwritten.pto").run(inputs={"a": a}).diagnostics == []
