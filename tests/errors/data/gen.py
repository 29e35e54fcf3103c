"""Regenerates the data files of tests/errors (run: /usr/bin/python3 tests/errors/data/gen.py).
Each file is deliberately wrong in one way (see cases.txt); no numpy needed."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))


def npy(descr, shape, payload, version=1, fortran=False):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_text)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    return b"\x93NUMPY" + bytes([version, 0]) + struct.pack("<H", len(header)) + header.encode() + payload


def put(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


f32 = struct.pack("<16f", *[float(i) for i in range(16)])
good = npy("<f4", (1, 16), f32)
put("f32_16.bin", f32)                                    # correct input of prog/copy_f32.pto
put("f32_8.bin", f32[:32])                                # too short for the 16-element view
put("f32_16.npy", good)                                   # correct .npy
put("i32_16.npy", npy("<i4", (1, 16), struct.pack("<16i", *range(16))))  # another dtype
put("bytes_7.bin", bytes(range(1, 8)))                    # not a whole number of f32
put("fortran.npy", npy("<f4", (1, 16), f32, fortran=True))
put("bigendian.npy", npy(">f4", (1, 16), struct.pack(">16f", *[float(i) for i in range(16)])))
put("truncated.npy", good[:100])                          # cut inside the header
put("header_len.npy", b"\x93NUMPY\x01\x00\xff\xff" + good[10:60])  # header length past the end
put("corrupt_header.npy", good[:10] + b"[" + good[11:])   # the header dict does not start with {
put("shape_mismatch.npy", npy("<f4", (2, 16), f32))       # header promises 32 elements, holds 16
put("version9.npy", b"\x93NUMPY\x09\x00" + good[8:])      # unknown format version
put("not_npy.npy", b"just text, no magic\n")              # .npy name without the magic
# raw f32 data whose first bytes happen to be the .npy magic (regression: fuzz_datafile)
put("magic_data.bin", b"\x93NUMPY\x01\x00" + bytes(56))
put("fp_words_neg_f32.bin", struct.pack("<32f", *[-5.0 if i == 3 else 1024.0 for i in range(32)]))  # a word value < 0 (tstore_fp_word_range.pto)
