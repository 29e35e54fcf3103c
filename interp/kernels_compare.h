/* kernels_compare.h - kernels of the compare and select, generators family (ir/ops_compare.def):
 * row compare kernels, one per element type and compare mode (chosen at lowering), and the
 * packing, selection and generator loops that use them (interp/ops_compare.c). */
#ifndef PTO_KERNELS_COMPARE_H
#define PTO_KERNELS_COMPARE_H

#include "kernels.h"

/* Compare modes in the order of the cmpMode attribute's spellings (ir/attrs.c). */
enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_MODE_COUNT };

/* out[c] = a[c * as] MODE b[c * bs] (0 or 1) for c < n: TCMP's exact IEEE compare. */
typedef void (*CmpRowFn)(const uint8_t *a, int64_t as, const uint8_t *b, int64_t bs, int64_t n, uint8_t *out);
/* out[c] = a[c * as] MODE k (0 or 1) for c < n: TCMPS's compare (EQ/NE within 1e-9 in double). */
typedef void (*CmpsRowFn)(const uint8_t *a, int64_t as, KScalar k, int64_t n, uint8_t *out);

/* The TCMP row kernel of element type `dt` and mode, or NULL when the type has none. */
CmpRowFn cmp_row_kernel(DType dt, int mode);
/* The TCMPS row kernel of element type `dt` and mode, or NULL when the type has none. */
CmpsRowFn cmps_row_kernel(DType dt, int mode);

/* TCMP: zeroes dst's `dst_bytes`, then packs src row r's `cols` results LSB first into
 * min(ceil(cols / K), dst_vc) words of dst row r (K = 8 * word_size), for r < rows. `src_es` is
 * the sources' element size; `scratch` holds at least `cols` bytes. */
void kernel_tcmp(KTile dst, int word_size, int64_t dst_bytes, int64_t dst_vc, KTile s0, KTile s1, int src_es,
                 int64_t rows, int64_t cols, CmpRowFn row, uint8_t *scratch);
/* TCMPS: zeroes dst's `dst_bytes`; compares src's valid svr x svc elements (0 elsewhere), packs
 * 8 per byte over the physical H x W (W / 8 bytes per row) and lays byte k at
 * dst(k / dvc, k % dvc) while that row is below dvr and k below dst_numel. `store` writes one byte
 * value as a dst element; `scratch` holds at least W bytes. */
void kernel_tcmps(KTile dst, int64_t dst_bytes, int64_t dst_numel, int64_t dvr, int64_t dvc, KTile src, int src_es,
                  int64_t H, int64_t W, int64_t svr, int64_t svc, KScalar k, CmpsRowFn row, DType dst_dtype, uint8_t *scratch);
/* TSEL: dst(r,c) = bit ? src0(r,c) : src1(r,c) for r < rows, c < cols, the bits read as one
 * stream, 8 from the low byte of each mask element, mask elements walked over `mask_vc` columns
 * row by row. `es` = element size of dst (1, 2, 4 or 8), `mes` = that of the mask. */
void kernel_tsel(KTile dst, KTile mask, KTile s0, KTile s1, int64_t rows, int64_t cols, int64_t mask_vc, int es,
                 int mes);
/* TSELS: dst(r,c) = bit (c mod B) of mask(r, c / B) ? src(r,c) : scalar bits, B = 8 * mes. */
void kernel_tsels(KTile dst, KTile mask, KTile src, uint64_t scalar_bits, int64_t rows, int64_t cols, int es,
                  int mes);
/* TCI: dst(0,c) = start + c (or start - c), wrapped to the element width `es` (2 or 4). */
void kernel_tci(KTile dst, int64_t start, bool descending, int64_t cols, int es);
/* TTRI: dst(r,c) = one or zero (element bit patterns) for the lower (c < diag + r + 1 -> one) or
 * upper (c < diag + r -> zero) triangle over r < rows, c < cols. */
void kernel_ttri(KTile dst, int64_t rows, int64_t cols, int32_t diag, bool upper, uint64_t one_bits, int es);

#endif
