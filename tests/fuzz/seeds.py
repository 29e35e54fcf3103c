"""Seeds for fuzz_datafile (see tests/fuzz/seeds.sh): prefix byte + file contents."""
import os
import struct
import sys

root, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

# Index of each element type in fuzz_datafile.c's dtypes[] and its numpy descriptor and size.
DTYPES = {"f16": (0, "<f2", 2), "bf16": (1, "<u2", 2), "f32": (2, "<f4", 4), "i8": (3, "|i1", 1),
          "u8": (4, "|u1", 1), "i16": (5, "<i2", 2), "u16": (6, "<u2", 2), "i32": (7, "<i4", 4),
          "u32": (8, "<u4", 4), "i64": (9, "<i8", 8), "u64": (10, "<u8", 8), "f8E4M3FN": (14, "|u1", 1),
          "f8E4M3": (15, "|u1", 1), "f8E5M2": (16, "|u1", 1), "f8E8M0FNU": (17, "|u1", 1),
          "f8E4M3FNUZ": (18, "|u1", 1), "f8E4M3B11FNUZ": (19, "|u1", 1), "f8E5M2FNUZ": (20, "|u1", 1)}


def sel(idx):
    """The prefix byte's type bits for dtypes[idx]: bits 0-3, and bit 5 for index bit 4."""
    return (idx & 0x0F) | (idx & 0x10) << 1


def npy(descr, shape, payload, version=1, fortran=False, pad=True):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_text)
    head_len = 10 if version == 1 else 12
    total = head_len + len(d) + 1
    if pad:
        d += " " * ((64 - total % 64) % 64)
    d += "\n"
    prefix = b"\x93NUMPY" + bytes([version, 0])
    prefix += struct.pack("<H", len(d)) if version == 1 else struct.pack("<I", len(d))
    return prefix + d.encode("latin1") + payload


def put(name, prefix, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([prefix]) + data)


for name, (idx, descr, size) in DTYPES.items():
    payload = bytes((i * 37 + 11) & 0xFF for i in range(size * 12))
    put("npy_%s_3x4" % name, 0x10 | sel(idx), npy(descr, (3, 4), payload))
    put("npy_%s_12_v2" % name, 0x10 | sel(idx), npy(descr, (12,), payload, version=2))
    put("bin_%s_12" % name, sel(idx), payload)
put("npy_f32_scalar", 0x12, npy("<f4", (), b"\x00\x00\x80\x3f"))
put("npy_f32_empty", 0x12, npy("<f4", (0, 4), b""))
put("npy_f32_rank8", 0x12, npy("<f4", (1, 1, 1, 1, 1, 1, 2, 2), bytes(16)))
put("npy_f32_v3", 0x12, npy("<f4", (2, 2), bytes(16), version=3))
put("npy_f32_fortran", 0x12, npy("<f4", (2, 2), bytes(16), fortran=True))
put("npy_f32_bigendian", 0x12, npy(">f4", (2, 2), bytes(16)))
put("npy_f32_nopad", 0x12, npy("<f4", (2, 2), bytes(16), pad=False))
put("npy_f32_huge_shape", 0x12, npy("<f4", (9223372036854775807, 2), bytes(16)))
put("npy_bad_magic", 0x12, b"\x93NUMPX\x01\x00" + bytes(8))
put("bin_odd_size", 0x02, bytes(7))
put("bin_empty", 0x02, b"")
for base in ("samples/data", "tests/run-cli/data"):
    d = os.path.join(root, base)
    if not os.path.isdir(d):
        continue
    for fn in sorted(os.listdir(d)):
        data = open(os.path.join(d, fn), "rb").read()
        if len(data) > 16384:
            continue
        guess = next((k for k in DTYPES if k in fn), "f32" if "f32" in fn or fn.startswith("in") else "i32")
        idx = sel(DTYPES[guess][0]) | (0x10 if fn.endswith(".npy") else 0)
        put("repo_%s_%s" % (base.replace("/", "_"), fn), idx, data)
