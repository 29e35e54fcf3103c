#!/usr/bin/python3
"""Writes the data files of tests/run-cli (numpy; run from this directory)."""
import numpy as np

x = np.arange(16, dtype=np.float32)
x.tofile("data/in16.bin")
np.save("data/in16.npy", x.reshape(2, 8))
(x * np.float32(2.0)).tofile("data/out16_x2.bin")
np.zeros(16, dtype=np.float32).tofile("data/zero16.bin")  # +0.0: x * -0.0 differs only in its bits
np.save("data/out16_x2.npy", (x * np.float32(2.0)).reshape(2, 8))
bad = x * np.float32(2.0)
bad[11] += np.float32(0.5)
bad.tofile("data/out16_x2_wrong.bin")
np.arange(16, dtype=np.int32).tofile("data/i32_16.bin")
np.arange(15, dtype=np.float32).tofile("data/in15.bin")
np.array([1.5, -2.0, 0.25, 4, 5, 6], dtype=np.float32).tofile("data/src2x3.bin")
np.arange(-8, 8, dtype=np.int16).tofile("data/i16_16.bin")
(np.arange(-8, 8, dtype=np.int16) * np.int16(3)).tofile("data/i16_16_x3.bin")
open("data/corrupt.npy", "wb").write(b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f4'\n")
# acc_store.pto: each element is 16 chained products 1.0 * f16(-0.3), exact in f32, stored as f16
# (exact too); the relu store into bf16 makes every (negative) element +0
acc = np.float32(16) * np.float32(np.float16(-0.3))
np.full(256, acc, dtype=np.float32).astype(np.float16).tofile("data/acc_store_f16.bin")
np.zeros(256, dtype=np.uint16).tofile("data/acc_store_relu_bf16.bin")
# five.pto: a 5-D view of 64 elements; --out .npy keeps the shape (1, 1, 2, 4, 8)
np.arange(64, dtype=np.float32).tofile("data/in64.bin")
np.save("data/in64_5d.npy", np.arange(64, dtype=np.float32).reshape(1, 1, 2, 4, 8))
# --expect with several mismatches: x * 2 where every element but the first is off by one
many = x * np.float32(2.0)
many[1:] += np.float32(1.0)
many.tofile("data/out16_x2_many_wrong.bin")
np.arange(48 * 32, dtype=np.float16).tofile("data/f16_48x32.bin")  # boxed_roundtrip.pto: a Zn tile to DN and back
# bitcast.pto: f32 bits (signed zeros, infinities, subnormals, NaNs with payloads) and |x| as bits
bc = np.array([1.5, -2.25, 0.0, -0.0, np.inf, -np.inf, 3e-45, -3e-45, 1e38, -1e38, 7, -7, 0.1, -0.1, 0, 0],
              dtype=np.float32).view(np.uint32).copy()
bc[14], bc[15] = 0xFFC01234, 0x7F800001
bc.tofile("data/bitcast_f32_2x8.bin")
(bc & np.uint32(0x7FFFFFFF)).tofile("data/bitcast_abs_2x8.bin")
# scalar_ptr.pto: dst[4] = src[8 + 4] (--set off=4); dst grows to the 5 elements written
np.array([0, 0, 0, 0, 12], dtype=np.float32).tofile("data/scalar_ptr_dst.bin")
# mrgsort_executed.pto: three lists of four (value, index) f32 records, each sorted by value, descending
np.array([9, 0, 7, 1, 5, 2, 1, 3], dtype=np.float32).tofile("data/mrg_a.bin")
np.array([8, 10, 6, 11, 4, 12, 3, 13], dtype=np.float32).tofile("data/mrg_b.bin")
np.array([8.5, 20, 2, 21, 0, 22, -1, 23], dtype=np.float32).tofile("data/mrg_c.bin")
# gm_gather.pto: 16 i32 indices, some out of a 32-element view's bounds (negative ones too)
np.array([0, 3, 63, 64, -1, 7, 100, -65, 1, 2, 4, 5, 6, 8, 9, 10], dtype=np.int32).tofile("data/idx_oob16.bin")
# fifo_*.pto: the cube and vector kernels joined by FIFOs
rng = np.random.default_rng(7)
rng.standard_normal((160, 16)).astype(np.float32).tofile("data/fifo_a_160x16.bin")
np.eye(16, dtype=np.float32).tofile("data/eye16.bin")
rng.standard_normal((16, 16)).astype(np.float32).tofile("data/fifo_src_16x16.bin")
# lpipe_*.pto: the lowered pipe forms; what the simulator's TPush_gm leaves in the GM slot buffer
fifo_a = np.fromfile("data/fifo_a_160x16.bin", np.float32).reshape(10, 16, 16)
np.stack([fifo_a[k + 8] if k < 2 else fifo_a[k] for k in range(8)]).tofile("data/lpipe_c2v_slots.bin")
# async_put_get.pto (--set so=3 do=5): dst[5..12] = src[3..10] (the rest of its 16 zeros), back = the
# same 8 floats, flag[0] = 1 (test_async_event gave true); async_overlap.pto (--set o=8): the buffer's
# first 8 floats again at element 8
d = np.zeros(16, np.float32)
d[5:13] = np.arange(3, 11)
d.tofile("data/async_dst.bin")
np.arange(3, 11, dtype=np.float32).tofile("data/async_back.bin")
np.array([1], dtype=np.float32).tofile("data/async_flag.bin")
np.tile(np.arange(8, dtype=np.float32), 2).tofile("data/async_overlap_8.bin")
# subset_pingpong.pto: %ws split by rows into ping (doubled) and pong (plus one), the parent stored;
# subset_loop.pto: each 8-row window tripled
sa = (np.arange(256, dtype=np.float32) * np.float32(0.25) - np.float32(7)).reshape(16, 16)
sa.tofile("data/subset_a_16x16.bin")
sp = sa.copy()
sp[:8] *= np.float32(2)
sp[8:] += np.float32(1)
sp.tofile("data/subset_pingpong_16x16.bin")
(sa * np.float32(3)).tofile("data/subset_loop_16x16.bin")
# subset_boxed.pto: rows 16-47 of the DN 48x32 f16 matrix of f16_48x32.bin, as a DN 32x32 matrix
dn = np.arange(48 * 32, dtype=np.float16).reshape(32, 48).T  # (r, c) at r + 48 c
np.ascontiguousarray(dn[16:48].T).tofile("data/subset_boxed_rows16_32x32.bin")
# subset_colmajor.pto: columns 8-15 of subset_a_16x16.bin read as a DN 16x16 matrix, as a DN 16x8
sdn = sa.reshape(16, 16).T  # (r, c) at r + 16 c
np.ascontiguousarray(sdn[:, 8:16].T).tofile("data/subset_colmajor_right_16x8.bin")
# f8_values.pto: the 128 non-negative f8E4M3FN bytes, and each byte one higher (the next value)
np.arange(128, dtype=np.uint8).tofile("data/f8_bytes_4x32.bin")
((np.arange(128) + 1) % 128).astype(np.uint8).tofile("data/f8_bytes_next_4x32.bin")
