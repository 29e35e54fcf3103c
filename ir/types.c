/* types.c - element types, tile types, targets: names, defaults, equality and canonical text. */
#include "ir.h"

#include <errno.h>
#include <stdlib.h>

#include <string.h>
#include <strings.h>

typedef struct DTypeName {
    const char *name;
    DType dtype;
} DTypeName;

/* Canonical spellings first (dtype_name returns the first match), then aliases (SPEC 1.4). */
static const DTypeName dtype_names[] = {
    {"f16", DT_F16},   {"bf16", DT_BF16}, {"f32", DT_F32},   {"i8", DT_I8},     {"ui8", DT_U8},
    {"i16", DT_I16},   {"ui16", DT_U16},  {"i32", DT_I32},   {"ui32", DT_U32},  {"i64", DT_I64},
    {"ui64", DT_U64},  {"i1", DT_I1},     {"index", DT_INDEX},
    {"f8E4M3FN", DT_F8E4M3FN}, {"f8E4M3", DT_F8E4M3}, {"f8E5M2", DT_F8E5M2}, {"f8E8M0FNU", DT_F8E8M0FNU},
    {"f8E4M3FNUZ", DT_F8E4M3FNUZ}, {"f8E4M3B11FNUZ", DT_F8E4M3B11FNUZ}, {"f8E5M2FNUZ", DT_F8E5M2FNUZ},
    {"u8", DT_U8},     {"u16", DT_U16},   {"u32", DT_U32},   {"u64", DT_U64},   {"si8", DT_I8},
    {"si16", DT_I16},  {"si32", DT_I32},  {"si64", DT_I64},  {"half", DT_F16},  {"float", DT_F32},
    {"fp16", DT_F16},  {"fp32", DT_F32},  {"bfloat16", DT_BF16}, {"int8", DT_I8}, {"int16", DT_I16},
    {"int32", DT_I32}, {"int64", DT_I64}, {"uint8", DT_U8},  {"uint16", DT_U16}, {"uint32", DT_U32},
    {"uint64", DT_U64},
};

size_t dtype_size(DType dt) {
    switch (dt) {
    case DT_I8: case DT_U8: case DT_I1: return 1;
    case DT_F8E4M3FN: case DT_F8E4M3: case DT_F8E5M2: case DT_F8E8M0FNU: return 1;
    case DT_F8E4M3FNUZ: case DT_F8E4M3B11FNUZ: case DT_F8E5M2FNUZ: return 1;
    case DT_F16: case DT_BF16: case DT_I16: case DT_U16: return 2;
    case DT_F32: case DT_I32: case DT_U32: return 4;
    case DT_I64: case DT_U64: case DT_INDEX: return 8;
    default: return 0;
    }
}

const char *dtype_name(DType dt) {
    for (size_t i = 0; i < sizeof dtype_names / sizeof *dtype_names; i++)
        if (dtype_names[i].dtype == dt) return dtype_names[i].name;
    return "<none>";
}

bool dtype_from_name(const char *s, size_t len, DType *out) {
    for (size_t i = 0; i < sizeof dtype_names / sizeof *dtype_names; i++) {
        const char *n = dtype_names[i].name;
        if (strlen(n) == len && memcmp(n, s, len) == 0) {
            *out = dtype_names[i].dtype;
            return true;
        }
    }
    return false;
}

bool dtype_is_float(DType dt) { return dt == DT_F16 || dt == DT_BF16 || dt == DT_F32; }

bool dtype_is_int(DType dt) { return dt >= DT_I8 && dt <= DT_U64; }

bool dtype_is_unsigned(DType dt) { return dt == DT_U8 || dt == DT_U16 || dt == DT_U32 || dt == DT_U64; }

bool dtype_is_f8(DType dt) { return dt >= DT_F8E4M3FN && dt <= DT_F8E5M2FNUZ; }

char dtype_f8_format(DType dt) {
    switch (dt) {
    case DT_F8E4M3FN: case DT_F8E4M3: case DT_F8E4M3FNUZ: case DT_F8E4M3B11FNUZ: return 'e';
    case DT_F8E5M2: case DT_F8E5M2FNUZ: return 'm';
    case DT_F8E8M0FNU: return 's';
    default: return 0;
    }
}

typedef struct UnsupportedFloat {
    const char *name;
    const char *reason;
} UnsupportedFloat;

/* MLIR's other narrow float types: PTOAS's tile_buf takes any MLIR type, its MX rows only
 * the 8-bit ones, PTOAS's C++ names only the e4m3 and e5m2 ones (pto-isa decodes e4m3, e5m2, e8m0 and packed fp4 pairs). */
static const UnsupportedFloat unsupported_floats[] = {
    {"f4E2M1FN", "a 4-bit type: pto-as sizes elements in whole bytes and PTOAS's MX matmul takes 8-bit floats only"},
    {"f6E2M3FN", "a 6-bit type: pto-as sizes elements in whole bytes and no PTOAS op takes it"},
    {"f6E3M2FN", "a 6-bit type: pto-as sizes elements in whole bytes and no PTOAS op takes it"},
    {"f8E3M4", "PTOAS has no C++ element type for it and pto-isa no decoding (the 8-bit floats are the e4m3, e5m2 "
               "and e8m0 spellings)"},
};

const char *dtype_unsupported_reason(const char *s, size_t len) {
    for (size_t i = 0; i < sizeof unsupported_floats / sizeof *unsupported_floats; i++)
        if (strlen(unsupported_floats[i].name) == len && memcmp(unsupported_floats[i].name, s, len) == 0)
            return unsupported_floats[i].reason;
    return NULL;
}

const char *tile_loc_name(TileLoc loc) {
    static const char *const names[LOC_COUNT] = {"vec", "mat", "left", "right", "acc", "bias", "scaling"};
    return (unsigned)loc < LOC_COUNT ? names[loc] : "<loc>";
}

int64_t row_expand_tmp_bytes(int64_t valid_rows) { return valid_rows < 256 ? (valid_rows + 7) / 8 * 256 : 30 * 256; }

int row_expand_full_operand(const ShapeMatch match[2], const bool col_major[2], const bool block_wide[2]) {
    if (match[0] == SHAPE_SAME && match[1] == SHAPE_SAME) return ROW_EXPAND_BOTH_FULL;
    if (col_major[0] != col_major[1]) {
        int col = col_major[0] ? 0 : 1, row = 1 - col;
        return match[col] == SHAPE_SAME && match[row] == SHAPE_DIFFERENT ? col : row;
    }
    if (match[0] == SHAPE_SAME || match[1] == SHAPE_SAME) return match[0] == SHAPE_SAME ? 0 : 1;
    if (match[0] == SHAPE_UNKNOWN && match[1] == SHAPE_UNKNOWN) return block_wide[0] && !block_wide[1] ? 1 : 0;
    if (match[0] == SHAPE_UNKNOWN || match[1] == SHAPE_UNKNOWN) return match[0] == SHAPE_UNKNOWN ? 0 : 1;
    return ROW_EXPAND_NO_FULL;
}

int64_t buffer_capacity_bytes(Target target, TileLoc loc) {
    static const int64_t a2a3[LOC_COUNT] = {196608, 524288, 65536, 65536, 131072, 1024, 2048};
    static const int64_t a5[LOC_COUNT] = {262144, 524288, 65536, 65536, 262144, 4096, 4096};
    if ((unsigned)loc >= LOC_COUNT) return 0;
    return target == TARGET_A5 ? a5[loc] : a2a3[loc];
}

const char *buffer_name(TileLoc loc) {
    static const char *const names[LOC_COUNT] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
    return (unsigned)loc < LOC_COUNT ? names[loc] : "?";
}

const char *blayout_name(BLayout b) { return b == BL_COL_MAJOR ? "col_major" : "row_major"; }

const char *slayout_name(SLayout s) {
    return s == SL_ROW_MAJOR ? "row_major" : s == SL_COL_MAJOR ? "col_major" : "none_box";
}

bool target_from_name(const char *name, Target *out) {
    if (!strcasecmp(name, "a2a3") || !strcasecmp(name, "a2") || !strcasecmp(name, "a3")) {
        *out = TARGET_A2A3;
        return true;
    }
    if (!strcasecmp(name, "a5")) {
        *out = TARGET_A5;
        return true;
    }
    return false;
}

const char *target_name(Target target) { return target == TARGET_A5 ? "a5" : "a2a3"; }

void tile_type_init(TileType *t, DType dtype, int64_t rows, int64_t cols) {
    memset(t, 0, sizeof *t);
    t->loc = LOC_VEC;
    t->dtype = dtype;
    t->rows = rows;
    t->cols = cols;
    t->valid_rows = rows;
    t->valid_cols = cols;
    t->blayout = BL_ROW_MAJOR;
    t->slayout = SL_NONE_BOX;
    t->fractal = 512;
}

bool tile_footprint_bytes(const TileType *t, int64_t *out) {
    int64_t elems;
    if (t->rows < 0 || t->cols < 0) return false;
    if (!checked_mul_i64(t->rows, t->cols, &elems)) return false;
    return checked_mul_i64(elems, (int64_t)dtype_size(t->dtype), out);
}

bool tile_type_equal(const TileType *a, const TileType *b) {
    return a->loc == b->loc && a->dtype == b->dtype && a->rows == b->rows && a->cols == b->cols &&
           a->valid_rows == b->valid_rows && a->valid_cols == b->valid_cols && a->blayout == b->blayout &&
           a->slayout == b->slayout && a->fractal == b->fractal && a->pad == b->pad && a->compact == b->compact;
}

bool type_equal(const Type *a, const Type *b) {
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind) return false;
    switch (a->kind) {
    case TY_SCALAR:
    case TY_PTR:
        return a->dtype == b->dtype;
    case TY_TILE:
        return tile_type_equal(&a->tile, &b->tile);
    case TY_TENSOR_VIEW:
    case TY_PARTITION_VIEW:
        if (a->dtype != b->dtype || a->rank != b->rank) return false;
        for (int i = 0; i < a->rank; i++)
            if (a->dims[i] != b->dims[i]) return false;
        return true;
    case TY_OTHER:
    case TY_MEMREF:
    case TY_VECTOR:
        return a->text && b->text && strcmp(a->text, b->text) == 0;
    case TY_EVENTID_ARRAY:
        return a->size == b->size;
    case TY_PIPE:
    case TY_ASYNC_SESSION:
    case TY_ASYNC_EVENT:
        return true;
    default:
        return false;
    }
}

Type *type_new_scalar(Arena *arena, DType dt) {
    Type *t = arena_alloc(arena, sizeof *t);
    t->kind = TY_SCALAR;
    t->dtype = dt;
    return t;
}

/* Appends to a fixed buffer, tracking the length (truncating safely). */
typedef struct TextBuf {
    char data[512];
    size_t len;
} TextBuf;

static void text_add(TextBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_add(TextBuf *b, const char *fmt, ...) {
    if (b->len >= sizeof b->data - 1) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->data + b->len, sizeof b->data - b->len, fmt, ap);
    va_end(ap);
    if (n > 0) b->len += (size_t)n;
    if (b->len > sizeof b->data - 1) b->len = sizeof b->data - 1;
}

static void text_add_dim(TextBuf *b, int64_t d) {
    if (d == DIM_DYNAMIC) text_add(b, "?");
    else text_add(b, "%lld", (long long)d);
}

char *type_to_string(Arena *arena, const Type *t, bool as_tile_buf) {
    TextBuf b = {.len = 0};
    b.data[0] = '\0';
    if (!t) return arena_strdup(arena, "<no type>");
    switch (t->kind) {
    case TY_SCALAR:
        text_add(&b, "%s", dtype_name(t->dtype));
        break;
    case TY_PTR:
        text_add(&b, "!pto.ptr<%s>", dtype_name(t->dtype));
        break;
    case TY_TENSOR_VIEW:
    case TY_PARTITION_VIEW:
        text_add(&b, "%s<", t->kind == TY_TENSOR_VIEW ? "!pto.tensor_view" : "!pto.partition_tensor_view");
        for (int i = 0; i < t->rank; i++) {
            text_add_dim(&b, t->dims[i]);
            text_add(&b, "x");
        }
        text_add(&b, "%s>", dtype_name(t->dtype));
        break;
    case TY_TILE: {
        const TileType *tt = &t->tile;
        text_add(&b, "%s<%s, %lldx%lldx%s", (as_tile_buf || t->tile_buf) ? "!pto.tile_buf" : "!pto.tile",
                 tile_loc_name(tt->loc), (long long)tt->rows, (long long)tt->cols, dtype_name(tt->dtype));
        if (tt->valid_rows != tt->rows || tt->valid_cols != tt->cols) {
            text_add(&b, ", valid=");
            text_add_dim(&b, tt->valid_rows);
            text_add(&b, "x");
            text_add_dim(&b, tt->valid_cols);
        }
        if (tt->blayout != BL_ROW_MAJOR) text_add(&b, ", blayout=%s", blayout_name(tt->blayout));
        if (tt->slayout != SL_NONE_BOX) text_add(&b, ", slayout=%s", slayout_name(tt->slayout));
        if (tt->fractal != 512) text_add(&b, ", fractal=%lld", (long long)tt->fractal);
        if (tt->pad != 0) text_add(&b, ", pad=%d", tt->pad);
        if (tt->compact != 0) text_add(&b, ", compact=%d", tt->compact);
        text_add(&b, ">");
        break;
    }
    case TY_OTHER:
    case TY_MEMREF:
    case TY_VECTOR:
        text_add(&b, "%s", t->text ? t->text : "<type>");
        break;
    case TY_EVENTID_ARRAY:
        text_add(&b, "!pto.eventid_array<%lld>", (long long)t->size);
        break;
    case TY_PIPE:
        text_add(&b, "!pto.pipe");
        break;
    case TY_ASYNC_SESSION:
        text_add(&b, "!pto.async_session");
        break;
    case TY_ASYNC_EVENT:
        text_add(&b, "!pto.async_event");
        break;
    default:
        text_add(&b, "<invalid type>");
    }
    return arena_strndup(arena, b.data, b.len);
}

bool dense_int_elements(const char *text, int64_t *vals, int max, int *count) {
    *count = 0;
    if (!text || strncmp(text, "dense<", 6) != 0) return false;
    const char *p = text + 6;
    while (*p == ' ') p++;
    bool list = *p == '[';
    if (list) p++;
    for (;;) {
        while (*p == ' ') p++;
        if (list && *p == ']' && *count == 0) { p++; break; }
        char *end;
        errno = 0;
        const char *digits = p + (*p == '-' || *p == '+');
        int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10; /* MLIR: 010 is ten */
        long long v = strtoll(p, &end, base);
        if (end == p || errno == ERANGE || *count >= max) return false;
        vals[(*count)++] = v;
        p = end;
        while (*p == ' ') p++;
        if (list && *p == ',') { p++; continue; }
        if (list && *p == ']') { p++; break; }
        if (!list) break;
        return false;
    }
    while (*p == ' ') p++;
    return p[0] == '>' && p[1] == '\0';
}
