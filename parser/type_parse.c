/* type_parse.c - builds Types from parsed type syntax: scalars, !pto.ptr, tensor views and the
 * four spellings of !pto.tile / !pto.tile_buf parameters (SPEC 1.4), normalised to TileType with
 * the SPEC defaults. Every error names the offending key or value and points at it.
 *
 * Types are shared within a parse: one Type per scalar dtype and, while no error has been
 * reported, one Type per exact spelling (its source bytes). A spelling that parsed without error
 * always parses to the same Type, so the lexer may hand a known `!name<...>` spelling to the
 * grammar as one token (pc_known_type); where each type is written is kept per use (TypeUse). */
#include "parse_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* True when the token text equals `s`. */
static bool tok_is(Tok t, const char *s) {
    size_t n = strlen(s);
    return t.len == n && memcmp(t.text, s, n) == 0;
}

/* Case-insensitive comparison that ignores underscores ("RowMajor" == "row_major"). */
static bool name_matches(Tok t, const char *want) {
    size_t i = 0;
    for (const char *w = want; *w || i < t.len;) {
        while (i < t.len && t.text[i] == '_') i++;
        while (*w == '_') w++;
        if (!*w || i >= t.len) return !*w && i >= t.len;
        char a = t.text[i], b = *w;
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return false;
        i++, w++;
    }
    return i >= t.len;
}

/* A sub-location inside token `t` starting `skip` bytes in, `len` bytes long (tokens never span lines). */
static SrcLoc sub_loc(Tok t, uint32_t skip, uint32_t len) {
    SrcLoc l = t.loc;
    l.offset += skip;
    l.col += skip;
    l.len = len;
    return l;
}

bool pc_parse_int(ParseCtx *ctx, Tok tok, int64_t *out, bool *hex) {
    const char *s = tok.text;
    uint32_t n = tok.len, i = 0;
    bool negative = false;
    if (i < n && s[i] == '-') negative = true, i++;
    if (hex) *hex = false;
    if (i + 1 < n && s[i] == '0' && s[i + 1] == 'x') {
        uint64_t v = 0;
        i += 2;
        if (hex) *hex = true;
        if (n - i > 16) goto overflow;
        for (; i < n; i++) {
            char c = s[i];
            unsigned d = (unsigned)(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c - 'A' + 10);
            v = (v << 4) | d;
        }
        if (negative) {
            if (v > (uint64_t)INT64_MAX + 1) goto overflow;
            *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
        } else {
            *out = (int64_t)v; /* bit pattern: 0xFFFFFFFFFFFFFFFF is -1 */
        }
        return true;
    }
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) goto overflow;
        v = v * 10 + d;
    }
    if (negative) {
        if (v > (uint64_t)INT64_MAX + 1) goto overflow;
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX) goto overflow;
        *out = (int64_t)v;
    }
    return true;
overflow:
    pc_error_rule(ctx, PARSE_RULE_LITERAL, tok.loc, "integer literal '%.*s' is out of the 64-bit range", (int)tok.len, tok.text);
    *out = 0;
    return false;
}

/* Notes the element types PTO tiles, pointers and views take, under an "unknown element type". */
static void note_element_types(ParseCtx *ctx) {
    char list[320];
    size_t n = 0;
    list[0] = '\0';
    for (int dt = DT_F16; dt < DT_COUNT && n < sizeof list; dt++)
        if (dt != DT_I1 && dt != DT_INDEX)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", dt == DT_F16 ? "" : ", ", dtype_name((DType)dt));
    SrcLoc nowhere = {0, 0, 0, 0};
    pc_note(ctx, nowhere, "PTO element types are %s (f64, fp4, fp6 and the other MLIR types are not)", list);
}

/* Parses a shape token `d0xd1x...[xdtype]`. dims gets room for every dim; `?` is DIM_DYNAMIC.
 * Returns false (with a diagnostic) when a dim overflows or the dtype is unknown. */
static bool parse_shape(ParseCtx *ctx, Tok t, int64_t **dims_out, int *rank_out, DType *dtype, bool *has_dtype,
                        SrcLoc *dtype_loc) {
    int rank = 0;
    for (uint32_t i = 0; i < t.len; i++)
        if (t.text[i] == 'x') rank++;
    int64_t *dims = arena_alloc_array(ctx->arena, (size_t)rank + 1, sizeof *dims);
    int count = 0;
    uint32_t i = 0;
    *has_dtype = false;
    *dtype = DT_NONE;
    while (i < t.len) {
        uint32_t start = i;
        if (t.text[i] == '?') {
            dims[count++] = DIM_DYNAMIC;
            i++;
        } else if (t.text[i] >= '0' && t.text[i] <= '9') {
            uint64_t v = 0;
            bool overflow = false;
            while (i < t.len && t.text[i] >= '0' && t.text[i] <= '9') {
                unsigned d = (unsigned)(t.text[i] - '0');
                if (v > ((uint64_t)INT64_MAX - d) / 10) overflow = true;
                else v = v * 10 + d;
                i++;
            }
            if (overflow) {
                pc_error_rule(ctx, PARSE_RULE_TYPE, sub_loc(t, start, i - start), "dimension '%.*s' is out of the 64-bit range", (int)(i - start),
                         t.text + start);
                return false;
            }
            dims[count++] = (int64_t)v;
        } else {
            /* element type: the rest of the token */
            *has_dtype = true;
            *dtype_loc = sub_loc(t, start, t.len - start);
            if (!dtype_from_name(t.text + start, t.len - start, dtype)) {
                const char *why = dtype_unsupported_reason(t.text + start, t.len - start);
                if (why)
                    pc_error_rule(ctx, PARSE_RULE_TYPE, *dtype_loc, "element type '%.*s' is not supported: %s", (int)(t.len - start),
                                  t.text + start, why);
                else {
                    pc_error_rule(ctx, PARSE_RULE_TYPE, *dtype_loc, "unknown element type '%.*s'", (int)(t.len - start), t.text + start);
                    note_element_types(ctx);
                }
                return false;
            }
            break;
        }
        if (i < t.len && t.text[i] == 'x') i++;
    }
    *dims_out = dims;
    *rank_out = count;
    return true;
}

/* Text of a type as written, with runs of white space (including newlines) folded to one space. */
static char *type_text(ParseCtx *ctx, SrcLoc span) {
    const char *s = ctx->file->text + span.offset;
    char *out = arena_alloc(ctx->arena, (size_t)span.len + 1);
    size_t n = 0;
    bool in_space = false;
    for (uint32_t i = 0; i < span.len; i++) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            in_space = true;
            continue;
        }
        if (in_space && n > 0 && out[n - 1] != '<' && out[n - 1] != '(' && c != '>' && c != ')') out[n++] = ' ';
        in_space = false;
        out[n++] = c;
    }
    out[n] = '\0';
    return out;
}

/* MLIR builtin scalar types we carry through as TY_OTHER (f64, f8E4M3FN, i128, ...). */
static bool looks_like_builtin_type(Tok t) {
    if (t.len < 2) return false;
    char c = t.text[0];
    if ((c == 'f' || c == 'i') && t.text[1] >= '0' && t.text[1] <= '9') return true;
    if (t.len > 2 && (t.text[0] == 'u' || t.text[0] == 's') && t.text[1] == 'i' && t.text[2] >= '0' && t.text[2] <= '9')
        return true;
    return tok_is(t, "tf32") || tok_is(t, "none");
}

/* ---- tile parameters ---------------------------------------------------------------------- */

enum TileField { F_LOC, F_DTYPE, F_ROWS, F_COLS, F_VROW, F_VCOL, F_BLAYOUT, F_SLAYOUT, F_FRACTAL, F_PAD, F_COMPACT, F_COUNT };

typedef struct TileBuilder {
    ParseCtx *ctx;
    const char *type_name;    /* "!pto.tile_buf" or "!pto.tile" */
    TileType tile;
    const char *set_by[F_COUNT]; /* key (or "position N") that set each field */
    bool failed;
} TileBuilder;

static void tile_fail(TileBuilder *b, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void tile_fail(TileBuilder *b, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(b->ctx->arena, fmt, ap);
    va_end(ap);
    pc_error_rule(b->ctx, PARSE_RULE_TYPE, loc, "%s", msg);
    b->failed = true;
}

/* Marks `field` as set by `by`; reports a duplicate or conflicting key. */
static bool tile_claim(TileBuilder *b, enum TileField field, const char *by, SrcLoc loc) {
    if (b->set_by[field]) {
        if (strcmp(b->set_by[field], by) == 0)
            tile_fail(b, loc, "duplicate key '%s' in %s parameters", by, b->type_name);
        else
            tile_fail(b, loc, "'%s' in %s parameters conflicts with '%s', which already gives this value", by,
                      b->type_name, b->set_by[field]);
        return false;
    }
    b->set_by[field] = by;
    return true;
}

static const char *value_text(TileBuilder *b, const TParam *p) {
    if (p->kind == TP_TYPE) return type_to_string(b->ctx->arena, p->type, false);
    return arena_strndup(b->ctx->arena, p->value.text, p->value.len);
}

/* Unquoted identifier text of a value (idents and "strings"); false for other kinds. */
static bool value_ident(const TParam *p, Tok *out) {
    if (p->kind == TP_IDENT) {
        *out = p->value;
        return true;
    }
    if (p->kind == TP_STRING && p->value.len >= 2) {
        *out = p->value;
        out->text++;
        out->len -= 2;
        return true;
    }
    return false;
}

static bool parse_loc_name(Tok t, TileLoc *out) {
    for (int i = 0; i < LOC_COUNT; i++)
        if (name_matches(t, tile_loc_name((TileLoc)i))) {
            *out = (TileLoc)i;
            return true;
        }
    return false;
}

static void set_loc(TileBuilder *b, const TParam *p, const char *by) {
    Tok t;
    TileLoc loc;
    if (!value_ident(p, &t) || !parse_loc_name(t, &loc)) {
        tile_fail(b, p->loc, "unknown loc '%s' in %s (expected vec, mat, left, right, acc, bias or scaling)", value_text(b, p),
                  b->type_name);
        return;
    }
    if (tile_claim(b, F_LOC, by, p->loc)) b->tile.loc = loc;
}

/* The element types a tile takes, for messages. */
#define TILE_DTYPE_LIST "f16, bf16, f32, i8, ui8, i16, ui16, i32, ui32, i64, ui64, f8E4M3FN, f8E4M3, f8E5M2, " \
                        "f8E8M0FNU, f8E4M3FNUZ, f8E4M3B11FNUZ or f8E5M2FNUZ"

static void set_dtype(TileBuilder *b, const TParam *p, const char *by) {
    Tok t;
    DType dt;
    if (!value_ident(p, &t) || !dtype_from_name(t.text, t.len, &dt) || dt == DT_INDEX || dt == DT_I1) {
        const char *why = value_ident(p, &t) ? dtype_unsupported_reason(t.text, t.len) : NULL;
        if (why)
            tile_fail(b, p->loc, "dtype '%s' in %s is not supported: %s", value_text(b, p), b->type_name, why);
        else
            tile_fail(b, p->loc, "unknown dtype '%s' in %s (expected " TILE_DTYPE_LIST ")", value_text(b, p), b->type_name);
        return;
    }
    if (tile_claim(b, F_DTYPE, by, p->loc)) b->tile.dtype = dt;
}

/* rows / cols / fractal: a non-negative integer (fractal: positive). */
static void set_count(TileBuilder *b, const TParam *p, const char *by, enum TileField field, int64_t *dst, bool positive) {
    int64_t v = 0;
    if (p->kind == TP_INT) {
        if (!pc_parse_int(b->ctx, p->value, &v, NULL)) {
            b->failed = true; /* out of range: already reported */
            return;
        }
        if (v > 0 || (v == 0 && !positive)) {
            if (tile_claim(b, field, by, p->loc)) *dst = v;
            return;
        }
    }
    tile_fail(b, p->loc, "'%s' in %s must be a %s integer, got '%s'", by, b->type_name, positive ? "positive" : "non-negative",
              value_text(b, p));
}

/* v_row / v_col: `?`, -1 or a non-negative integer. */
static void set_valid_dim(TileBuilder *b, const TParam *p, const char *by, enum TileField field, int64_t *dst) {
    int64_t v = 0;
    if (p->kind == TP_QUESTION) {
        v = DIM_DYNAMIC;
    } else if (p->kind == TP_INT) {
        if (!pc_parse_int(b->ctx, p->value, &v, NULL)) {
            b->failed = true;
            return;
        }
    }
    if ((p->kind != TP_QUESTION && p->kind != TP_INT) || v < -1) {
        tile_fail(b, p->loc, "'%s' in %s must be '?', -1 or a non-negative integer, got '%s'", by, b->type_name,
                  value_text(b, p));
        return;
    }
    if (tile_claim(b, field, by, p->loc)) *dst = v;
}

/* `0x16` lexes as a hexadecimal integer, but after `valid=` it can only mean 0 rows x 16 cols. */
static bool zero_rows_shape(const TParam *p) {
    if (p->kind != TP_INT || p->value.len < 3 || memcmp(p->value.text, "0x", 2) != 0) return false;
    for (uint32_t i = 2; i < p->value.len; i++)
        if (p->value.text[i] < '0' || p->value.text[i] > '9') return false;
    return true;
}

static void set_valid_shape(TileBuilder *b, const TParam *p) {
    int64_t *dims;
    int rank;
    DType dt;
    bool has_dtype;
    SrcLoc dloc;
    if (p->kind != TP_SHAPE && !zero_rows_shape(p)) {
        tile_fail(b, p->loc, "'valid' in %s must be ROWSxCOLS (e.g. valid=16x1 or valid=?x?), got '%s'", b->type_name,
                  value_text(b, p));
        return;
    }
    if (!parse_shape(b->ctx, p->value, &dims, &rank, &dt, &has_dtype, &dloc)) {
        b->failed = true;
        return;
    }
    if (rank != 2 || has_dtype) {
        tile_fail(b, p->loc, "'valid' in %s must have exactly two dims ROWSxCOLS, got '%s'", b->type_name, value_text(b, p));
        return;
    }
    if (!tile_claim(b, F_VROW, "valid", p->loc) || !tile_claim(b, F_VCOL, "valid", p->loc)) return;
    b->tile.valid_rows = dims[0];
    b->tile.valid_cols = dims[1];
}

static void set_blayout(TileBuilder *b, const TParam *p, const char *by) {
    Tok t;
    BLayout v;
    if (value_ident(p, &t) && name_matches(t, "row_major")) v = BL_ROW_MAJOR;
    else if (value_ident(p, &t) && name_matches(t, "col_major")) v = BL_COL_MAJOR;
    else {
        tile_fail(b, p->loc, "unknown blayout '%s' in %s (expected row_major or col_major)", value_text(b, p), b->type_name);
        return;
    }
    if (tile_claim(b, F_BLAYOUT, by, p->loc)) b->tile.blayout = v;
}

static void set_slayout(TileBuilder *b, const TParam *p, const char *by) {
    Tok t;
    SLayout v;
    if (value_ident(p, &t) && name_matches(t, "none_box")) v = SL_NONE_BOX;
    else if (value_ident(p, &t) && name_matches(t, "row_major")) v = SL_ROW_MAJOR;
    else if (value_ident(p, &t) && name_matches(t, "col_major")) v = SL_COL_MAJOR;
    else {
        tile_fail(b, p->loc, "unknown slayout '%s' in %s (expected none_box, row_major or col_major)", value_text(b, p),
                  b->type_name);
        return;
    }
    if (tile_claim(b, F_SLAYOUT, by, p->loc)) b->tile.slayout = v;
}

static void set_fractal(TileBuilder *b, const TParam *p, const char *by) {
    Tok t;
    if (value_ident(p, &t) && (name_matches(t, "none") || name_matches(t, "null"))) {
        if (tile_claim(b, F_FRACTAL, by, p->loc)) b->tile.fractal = 512;
        return;
    }
    set_count(b, p, by, F_FRACTAL, &b->tile.fractal, true);
}

/* pad / compact: an integer code 0..max or one of the names. */
static void set_code(TileBuilder *b, const TParam *p, const char *by, enum TileField field, int *dst,
                     const char *const *names, int count) {
    Tok t;
    int64_t v = -1;
    if (p->kind == TP_INT) {
        if (!pc_parse_int(b->ctx, p->value, &v, NULL)) v = -1;
    } else if (value_ident(p, &t)) {
        for (int i = 0; i < count; i++)
            if (name_matches(t, names[i])) v = i;
    }
    if (v < 0 || v >= count) {
        char expected[128];
        size_t n = 0;
        for (int i = 0; i < count; i++)
            n += (size_t)snprintf(expected + n, sizeof expected - n, "%s%d (%s)", i ? ", " : "", i, names[i]);
        tile_fail(b, p->loc, "unknown %s '%s' in %s (expected %s)", by, value_text(b, p), b->type_name, expected);
        return;
    }
    if (tile_claim(b, field, by, p->loc)) *dst = (int)v;
}

static const char *const pad_names[] = {"null", "zero", "max", "min"};
static const char *const compact_names[] = {"null", "normal", "row_plus_one"};

static void tile_keyed(TileBuilder *b, const TParam *p) {
    Tok k = p->key;
    if (tok_is(k, "loc")) set_loc(b, p, "loc");
    else if (tok_is(k, "dtype")) set_dtype(b, p, "dtype");
    else if (tok_is(k, "rows")) set_count(b, p, "rows", F_ROWS, &b->tile.rows, false);
    else if (tok_is(k, "cols")) set_count(b, p, "cols", F_COLS, &b->tile.cols, false);
    else if (tok_is(k, "v_row")) set_valid_dim(b, p, "v_row", F_VROW, &b->tile.valid_rows);
    else if (tok_is(k, "v_col")) set_valid_dim(b, p, "v_col", F_VCOL, &b->tile.valid_cols);
    else if (tok_is(k, "valid")) set_valid_shape(b, p);
    else if (tok_is(k, "blayout")) set_blayout(b, p, "blayout");
    else if (tok_is(k, "slayout")) set_slayout(b, p, "slayout");
    else if (tok_is(k, "fractal")) set_fractal(b, p, "fractal");
    else if (tok_is(k, "pad")) set_code(b, p, "pad", F_PAD, &b->tile.pad, pad_names, 4);
    else if (tok_is(k, "compact")) set_code(b, p, "compact", F_COMPACT, &b->tile.compact, compact_names, 3);
    else
        tile_fail(b, k.loc, "unknown key '%.*s' in %s parameters (expected loc, dtype, rows, cols, v_row, v_col, valid, "
                  "blayout, slayout, fractal, pad or compact)", (int)k.len, k.text, b->type_name);
}

/* The shape spelling `ROWSxCOLSxDTYPE` (compact and shape forms). */
static void tile_shape(TileBuilder *b, const TParam *p) {
    int64_t *dims;
    int rank;
    DType dt;
    bool has_dtype;
    SrcLoc dloc;
    if (!parse_shape(b->ctx, p->value, &dims, &rank, &dt, &has_dtype, &dloc)) {
        b->failed = true;
        return;
    }
    if (!has_dtype) {
        tile_fail(b, p->loc, "expected ROWSxCOLSxDTYPE in %s parameters, got '%.*s' (no element type)", b->type_name,
                  (int)p->value.len, p->value.text);
        return;
    }
    if (rank != 2) {
        tile_fail(b, p->loc, "%s shape must have exactly two dims, got '%.*s'", b->type_name, (int)p->value.len,
                  p->value.text);
        return;
    }
    if (dims[0] == DIM_DYNAMIC || dims[1] == DIM_DYNAMIC) {
        tile_fail(b, p->loc, "%s shape must be static, got '%.*s' (write valid=?x? for dynamic valid dims)", b->type_name,
                  (int)p->value.len, p->value.text);
        return;
    }
    if (dt == DT_INDEX || dt == DT_I1) {
        tile_fail(b, dloc, "unknown dtype '%s' in %s (expected " TILE_DTYPE_LIST ")", dtype_name(dt), b->type_name);
        return;
    }
    if (!tile_claim(b, F_ROWS, "shape", p->loc) || !tile_claim(b, F_COLS, "shape", p->loc) ||
        !tile_claim(b, F_DTYPE, "shape", p->loc))
        return;
    b->tile.rows = dims[0];
    b->tile.cols = dims[1];
    b->tile.dtype = dt;
}

static bool tile_from_params(ParseCtx *ctx, Type *t, const char *type_name, PtrVec *params, SrcLoc span) {
    TileBuilder b;
    memset(&b, 0, sizeof b);
    b.ctx = ctx;
    b.type_name = type_name;
    tile_type_init(&b.tile, DT_NONE, 0, 0);
    enum { FORM_UNKNOWN, FORM_SHAPE, FORM_POSITIONAL } form = FORM_UNKNOWN;
    static const char *const positional_names[] = {"dtype", "rows", "cols", "blayout", "slayout", "fractal", "pad"};
    int pos = 0; /* next positional slot of the positional form */
    for (size_t i = 0; i < params->count; i++) {
        const TParam *p = params->items[i];
        if (p->keyed) {
            tile_keyed(&b, p);
            continue;
        }
        Tok id;
        TileLoc loc;
        if (form == FORM_UNKNOWN && value_ident(p, &id) && p->kind == TP_IDENT && parse_loc_name(id, &loc) &&
            !b.set_by[F_LOC]) {
            set_loc(&b, p, "loc");
            continue;
        }
        if (form == FORM_UNKNOWN) {
            if (p->kind == TP_SHAPE) {
                form = FORM_SHAPE;
                tile_shape(&b, p);
                continue;
            }
            DType dt;
            if (p->kind == TP_IDENT && dtype_from_name(p->value.text, p->value.len, &dt)) {
                form = FORM_POSITIONAL;
            } else {
                tile_fail(&b, p->loc, "expected a dtype or ROWSxCOLSxDTYPE in %s parameters, got '%s'", type_name,
                          value_text(&b, p));
                continue;
            }
        }
        if (form == FORM_SHAPE) {
            tile_fail(&b, p->loc, "unexpected parameter '%s' after the shape in %s (write key=value)", value_text(&b, p),
                      type_name);
            continue;
        }
        if (pos >= (int)(sizeof positional_names / sizeof *positional_names)) {
            tile_fail(&b, p->loc, "too many positional parameters in %s: '%s' (expected at most dtype, rows, cols, blayout, "
                      "slayout, fractal, pad)", type_name, value_text(&b, p));
            continue;
        }
        const char *by = positional_names[pos++];
        switch (pos - 1) {
        case 0: set_dtype(&b, p, by); break;
        case 1: set_count(&b, p, by, F_ROWS, &b.tile.rows, false); break;
        case 2: set_count(&b, p, by, F_COLS, &b.tile.cols, false); break;
        case 3: set_blayout(&b, p, by); break;
        case 4: set_slayout(&b, p, by); break;
        case 5: set_fractal(&b, p, by); break;
        default: set_code(&b, p, by, F_PAD, &b.tile.pad, pad_names, 4); break;
        }
    }
    if (!b.failed) {
        static const struct { enum TileField field; const char *key; } mandatory[] = {
            {F_DTYPE, "dtype"}, {F_ROWS, "rows"}, {F_COLS, "cols"}};
        for (size_t i = 0; i < sizeof mandatory / sizeof *mandatory; i++)
            if (!b.set_by[mandatory[i].field]) {
                tile_fail(&b, span, "missing key '%s' in %s parameters", mandatory[i].key, type_name);
                break;
            }
    }
    if (b.failed) return false;
    if (!b.set_by[F_VROW]) b.tile.valid_rows = b.tile.rows;
    if (!b.set_by[F_VCOL]) b.tile.valid_cols = b.tile.cols;
    t->kind = TY_TILE;
    t->dtype = b.tile.dtype;
    t->tile = b.tile;
    return true;
}

/* `!pto.tensor_view<d0x...xT>` / `!pto.partition_tensor_view<...>`. */
static bool view_from_params(ParseCtx *ctx, Type *t, Tok name, PtrVec *params, SrcLoc span) {
    const TParam *p = params && params->count == 1 ? params->items[0] : NULL;
    if (!p || p->keyed || p->kind != TP_SHAPE) {
        pc_error_rule(ctx, PARSE_RULE_TYPE, p ? p->loc : span, "'%.*s' expects one DIMSxDTYPE parameter such as <?x?xf32>", (int)name.len, name.text);
        return false;
    }
    int64_t *dims;
    int rank;
    DType dt;
    bool has_dtype;
    SrcLoc dloc;
    if (!parse_shape(ctx, p->value, &dims, &rank, &dt, &has_dtype, &dloc)) return false;
    if (!has_dtype || rank == 0) {
        pc_error_rule(ctx, PARSE_RULE_TYPE, p->loc, "'%.*s' expects DIMSxDTYPE such as <?x?xf32>, got '%.*s'", (int)name.len, name.text,
                 (int)p->value.len, p->value.text);
        return false;
    }
    for (int i = 0; i < rank; i++)
        if (dims[i] < 0 && dims[i] != DIM_DYNAMIC) return false;
    t->dtype = dt;
    t->rank = rank;
    t->dims = dims;
    return true;
}

/* ---- shared types --------------------------------------------------------------------------- */

/* Longest spelling the lexer shortcut looks at (longer ones are parsed as usual). */
enum { KNOWN_TYPE_MAX_BYTES = 256 };

/* Hash of a spelling, eight bytes at a time (the last eight may overlap the ones before). */
static uint32_t spelling_hash(const char *s, uint32_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w = 0;
    if (n >= 8) {
        const char *last = s + n - 8;
        for (; s < last; s += 8) {
            memcpy(&w, s, 8);
            h = (h ^ w) * 0xff51afd7ed558ccdull;
            h ^= h >> 32;
        }
        memcpy(&w, last, 8);
    } else {
        memcpy(&w, s, n);
    }
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    return (uint32_t)(h ^ h >> 29);
}

/* A hash table of spellings (ctx->types or ctx->bad_types). */
typedef struct SpellingTable {
    TypeEntry **slots;
    uint32_t *cap, *count;
} SpellingTable;

static SpellingTable good_table(ParseCtx *ctx) { return (SpellingTable){&ctx->types, &ctx->types_cap, &ctx->types_count}; }
static SpellingTable bad_table(ParseCtx *ctx) {
    return (SpellingTable){&ctx->bad_types, &ctx->bad_types_cap, &ctx->bad_types_count};
}

static Type *table_find_type(SpellingTable tb, const char *text, uint32_t len, uint32_t hash) {
    if (!*tb.slots) return NULL;
    uint32_t mask = *tb.cap - 1;
    for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
        const TypeEntry *e = &(*tb.slots)[i];
        if (!e->type) return NULL;
        if (e->hash == hash && e->len == len && memcmp(e->text, text, len) == 0) return e->type;
    }
}

static void table_add_type(SpellingTable tb, const char *text, uint32_t len, uint32_t hash, Type *type) {
    if ((*tb.count + 1) * 2 > *tb.cap) {
        uint32_t cap = *tb.cap ? *tb.cap * 2 : 64;
        TypeEntry *slots = calloc(cap, sizeof *slots);
        if (!slots) return; /* sharing is an optimisation: go on without it */
        for (uint32_t i = 0; i < *tb.cap; i++) {
            const TypeEntry *e = &(*tb.slots)[i];
            if (!e->type) continue;
            uint32_t j = e->hash & (cap - 1);
            while (slots[j].type) j = (j + 1) & (cap - 1);
            slots[j] = *e;
        }
        free(*tb.slots);
        *tb.slots = slots;
        *tb.cap = cap;
    }
    uint32_t mask = *tb.cap - 1, i = hash & mask;
    while ((*tb.slots)[i].type) i = (i + 1) & mask;
    (*tb.slots)[i] = (TypeEntry){.text = text, .len = len, .hash = hash, .type = type};
    (*tb.count)++;
}

static Type *types_find(ParseCtx *ctx, const char *text, uint32_t len, uint32_t hash) {
    return table_find_type(good_table(ctx), text, len, hash);
}

static void types_add(ParseCtx *ctx, const char *text, uint32_t len, uint32_t hash, Type *type) {
    table_add_type(good_table(ctx), text, len, hash, type);
}

void pc_types_release(ParseCtx *ctx) {
    free(ctx->types);
    ctx->types = NULL;
    ctx->types_cap = ctx->types_count = 0;
    free(ctx->bad_types);
    ctx->bad_types = NULL;
    ctx->bad_types_cap = ctx->bad_types_count = 0;
}

Type *pc_scalar_type(ParseCtx *ctx, DType dt) {
    if ((unsigned)dt >= DT_COUNT) return type_new_scalar(ctx->arena, dt);
    if (!ctx->scalar_types[dt]) ctx->scalar_types[dt] = type_new_scalar(ctx->arena, dt);
    return ctx->scalar_types[dt];
}

TypeUse *pc_type_use(ParseCtx *ctx, Type *type, SrcLoc span) {
    TypeUse *u = arena_alloc(ctx->scratch, sizeof *u);
    u->type = type;
    u->loc = span;
    return u;
}

/* Bytes a known spelling may contain (by class): 1 identifiers, numbers, shapes, `key=value`, `?`,
 * `!`, commas and spaces; 2 `<`; 3 `>`; 4 `-` (not `->`). Anything else (0: comments, strings,
 * attributes, line breaks) makes the lexer shortcut give up; such spellings are still shared
 * through pc_type. */
static const unsigned char spelling_class[128] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 4, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 2, 1, 3, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
};

/* Length of the `NAME <...>` spelling starting at the type name token `name` when it holds only
 * bytes of the known classes and closes within KNOWN_TYPE_MAX_BYTES; 0 otherwise. */
static uint32_t spelling_length(const Token *name) {
    const unsigned char *start = (const unsigned char *)name->text, *p = start + name->len;
    const unsigned char *limit = start + KNOWN_TYPE_MAX_BYTES;
    while (*p == ' ' && p < limit) p++;
    if (*p != '<') return 0;
    int depth = 0;
    for (; p < limit; p++) {
        unsigned c = *p;
        unsigned k = c < 128 ? spelling_class[c] : 0;
        if (k == 1) continue;
        if (k == 2) {
            depth++;
        } else if (k == 3) {
            if (--depth == 0) break;
        } else if (k != 4 || p[1] == '>') {
            return 0;
        }
    }
    if (p >= limit) return 0;
    return (uint32_t)(p + 1 - start);
}

/* The type of the spelling at `name` in table `tb`; on a hit moves the lexer past it. */
static Type *known_spelling(ParseCtx *ctx, SpellingTable tb, const Token *name, SrcLoc *span) {
    if (!*tb.count) return NULL;
    uint32_t len = spelling_length(name);
    if (!len) return NULL;
    Type *t = table_find_type(tb, name->text, len, spelling_hash(name->text, len));
    if (!t) return NULL;
    lexer_advance_to(&ctx->lexer, name->text + len);
    span->len = len;
    return t;
}

Type *pc_known_type(ParseCtx *ctx, const Token *name, SrcLoc *span) {
    return known_spelling(ctx, good_table(ctx), name, span);
}

Type *pc_known_bad_type(ParseCtx *ctx, const Token *name, SrcLoc *span) {
    return known_spelling(ctx, bad_table(ctx), name, span);
}

/* The DIMSxDTYPE parameter of memref<...> (more parameters allowed) or vector<...> (exactly one,
 * rank >= 1) into t's dtype, rank and dims; false after reporting a malformed one. */
static bool shaped_builtin_type(ParseCtx *ctx, Type *t, PtrVec *params, SrcLoc span, bool memref) {
    const char *what = memref ? "memref" : "vector", *example = memref ? "<256xi64>" : "<4xi16>";
    const TParam *p = params && (memref ? params->count >= 1 : params->count == 1) ? params->items[0] : NULL;
    int64_t *dims;
    int rank;
    DType dt;
    bool has_dtype;
    SrcLoc dloc;
    if (!p || p->keyed || p->kind != TP_SHAPE) {
        pc_error_rule(ctx, PARSE_RULE_TYPE, p ? p->loc : span, "%s expects %s DIMSxDTYPE parameter such as %s", what,
                      memref ? "a" : "one", example);
        return false;
    }
    if (!parse_shape(ctx, p->value, &dims, &rank, &dt, &has_dtype, &dloc)) return false;
    if (!has_dtype || (!memref && rank < 1)) {
        pc_error_rule(ctx, PARSE_RULE_TYPE, p->loc, "%s expects DIMSxDTYPE such as %s, got '%.*s'", what, example,
                      (int)p->value.len, p->value.text);
        return false;
    }
    t->dtype = dt, t->rank = rank, t->dims = dims;
    return true;
}

/* Builds the type written at `span` (a fresh Type; errors are reported). */
static Type *build_type(ParseCtx *ctx, Tok name, PtrVec *params, SrcLoc span) {
    Type *t = arena_alloc(ctx->arena, sizeof *t);
    t->kind = TY_INVALID;
    if (name.text[0] != '!') {
        /* memref<DIMSxT[, layout, memory space]>: kept for pto.set_ffts, whose operand it is (the
         * verifier refuses it anywhere else); vector<DIMSxT>: tmrgsort's executed counts */
        bool memref = tok_is(name, "memref");
        if (memref || tok_is(name, "vector")) {
            if (!shaped_builtin_type(ctx, t, params, span, memref))
                return t;
            t->kind = memref ? TY_MEMREF : TY_VECTOR;
            t->text = type_text(ctx, span);
            return t;
        }
        if (params || looks_like_builtin_type(name)) {
            t->kind = TY_OTHER;
            t->text = type_text(ctx, span);
        } else {
            pc_error_rule(ctx, PARSE_RULE_TYPE, name.loc, "unknown type '%.*s'", (int)name.len, name.text);
        }
        return t;
    }
    if (tok_is(name, "!pto.tile") || tok_is(name, "!pto.tile_buf")) {
        const char *type_name = tok_is(name, "!pto.tile") ? "!pto.tile" : "!pto.tile_buf";
        t->tile_buf = type_name[9] == '_';
        if (!params || params->count == 0) {
            pc_error_rule(ctx, PARSE_RULE_TYPE, span, "%s needs parameters such as <vec, 16x16xf32>", type_name);
            return t;
        }
        tile_from_params(ctx, t, type_name, params, span);
        return t;
    }
    if (tok_is(name, "!pto.ptr")) {
        const TParam *p = params && params->count >= 1 ? params->items[0] : NULL;
        DType dt;
        if (params && params->count > 1) {
            const TParam *extra = params->items[1];
            pc_error_rule(ctx, PARSE_RULE_TYPE, extra->loc, "!pto.ptr expects one element type parameter such as <f32>, got an extra parameter");
            return t;
        }
        if (!p || p->keyed || p->kind != TP_IDENT || !dtype_from_name(p->value.text, p->value.len, &dt)) {
            if (p && !p->keyed && p->kind == TP_IDENT) {
                pc_error_rule(ctx, PARSE_RULE_TYPE, p->loc, "unknown element type '%.*s' in !pto.ptr", (int)p->value.len, p->value.text);
                note_element_types(ctx);
            } else {
                pc_error_rule(ctx, PARSE_RULE_TYPE, p ? p->loc : span, "!pto.ptr expects one element type parameter such as <f32>");
            }
            return t;
        }
        t->kind = TY_PTR;
        t->dtype = dt;
        return t;
    }
    if (tok_is(name, "!pto.tensor_view") || tok_is(name, "!pto.partition_tensor_view")) {
        if (view_from_params(ctx, t, name, params, span))
            t->kind = tok_is(name, "!pto.tensor_view") ? TY_TENSOR_VIEW : TY_PARTITION_VIEW;
        return t;
    }
    if (tok_is(name, "!pto.eventid_array")) { /* PTOAS EventIdArrayType: `<` $size `>`, an int64 */
        const TParam *p = params && params->count == 1 ? params->items[0] : NULL;
        if (!p || p->keyed || p->kind != TP_INT) {
            pc_error_rule(ctx, PARSE_RULE_TYPE, p ? p->loc : params && params->count > 1 ? ((TParam *)params->items[1])->loc : span,
                          "!pto.eventid_array expects one integer size parameter such as <4>");
            return t;
        }
        if (!pc_parse_int(ctx, p->value, &t->size, NULL)) return t; /* out of range: reported */
        t->kind = TY_EVENTID_ARRAY;
        return t;
    }
    if (tok_is(name, "!pto.pipe")) { /* PTOAS PipeType: no parameters */
        if (params) {
            pc_error_rule(ctx, PARSE_RULE_TYPE, span, "!pto.pipe takes no parameters");
            return t;
        }
        t->kind = TY_PIPE;
        return t;
    }
    if (tok_is(name, "!pto.async_session") || tok_is(name, "!pto.async_event")) { /* PTOAS's opaque handles */
        if (params) {
            pc_error_rule(ctx, PARSE_RULE_TYPE, span, "%.*s takes no parameters", (int)name.len, name.text);
            return t;
        }
        t->kind = tok_is(name, "!pto.async_session") ? TY_ASYNC_SESSION : TY_ASYNC_EVENT;
        return t;
    }
    t->kind = TY_OTHER;
    t->text = type_text(ctx, span);
    return t;
}

TypeUse *pc_type(ParseCtx *ctx, Tok name, PtrVec *params, SrcLoc span) {
    DType dt;
    /* the fp8 types are element types only: as a scalar type they stay an other type, as before */
    if (!params && name.text[0] != '!' && dtype_from_name(name.text, name.len, &dt) && !dtype_is_f8(dt))
        return pc_type_use(ctx, pc_scalar_type(ctx, dt), span);
    const char *text = ctx->file->text + span.offset;
    /* a spelling that failed before: the same poisoned type, no second error (one bad type makes
     * one error, however often it is written) */
    if (ctx->bad_types_count) {
        Type *bad = table_find_type(bad_table(ctx), text, span.len, spelling_hash(text, span.len));
        if (bad) return pc_type_use(ctx, bad, span);
    }
    /* share by spelling while the parse is error-free (then the spelling decides the Type) */
    bool share = ctx->diags->errors == ctx->errors_at_start;
    uint32_t hash = 0;
    Type *t = NULL;
    if (share) {
        hash = spelling_hash(text, span.len);
        t = types_find(ctx, text, span.len, hash);
    }
    if (!t) {
        size_t errors_before = ctx->diags->errors;
        if (ctx->lex_error_end > span.offset && ctx->lex_error_end <= span.offset + span.len) {
            /* the lexer already reported bytes inside this spelling (`!pto.tile<...>`): poisoned
             * without a second error about its remains */
            t = arena_alloc(ctx->arena, sizeof *t);
            t->kind = TY_INVALID;
        } else {
            t = build_type(ctx, name, params, span);
        }
        if (t->kind == TY_INVALID || ctx->diags->errors > errors_before)
            table_add_type(bad_table(ctx), text, span.len, spelling_hash(text, span.len), t);
        else if (share && ctx->diags->errors == ctx->errors_at_start)
            types_add(ctx, text, span.len, hash, t);
    }
    return pc_type_use(ctx, t, span);
}
