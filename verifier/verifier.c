/* verifier.c - the verifier's driver: target selection, the walk over functions and ops (each op
 * reaches its rules through the VERIFY column of ops.def), tile-type well-formedness, function
 * rules, and the helpers shared by the rule files (reporting, operand access, dtype sets). */
#include "vctx.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef void (*VerifyFn)(VerifyCtx *ctx, const Op *op);

/* The VERIFY column of the op table. */
static const VerifyFn verify_fns[OP_COUNT] = {
#define OP(id, nm, asm_nm, klass, ins, outs, kws, nres, flg, verify_fn, lower_fn, dts, elem, attrs) [OP_##id] = verify_fn,
#include "ops.def"
#undef OP
};

/* ------------------------------------------------------------------------------------------ */
/* Targets and buffers                                                                         */
/* ------------------------------------------------------------------------------------------ */

Target verify_effective_target(const Module *m, const VerifyOptions *opts) {
    if (opts && opts->target_given) return opts->target;
    if (m && m->has_target_attr) return m->file_target;
    return TARGET_A2A3;
}

const char *target_label(Target t) { return t == TARGET_A5 ? "A5" : "A2/A3"; }

/* ------------------------------------------------------------------------------------------ */
/* Reporting                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static const char *op_name(const Op *op) {
    const OpInfo *info = op ? op_info(op->code) : NULL;
    return info ? info->name : "func.func";
}

void vreport(VerifyCtx *ctx, const Op *op, SrcLoc loc, Severity sev, const char *rule, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(ctx->arena, fmt, ap);
    va_end(ap);
    if (loc.line == 0 && op) loc = op->loc;
    diag_report(ctx->diags, ctx->module->file, sev, loc, rule, "'%s' op %s", op_name(op), msg);
}

/* FNV-1a over an op code and a rule suffix. */
static uint32_t rule_hash(OpCode code, const char *suffix) {
    uint32_t h = 2166136261u ^ (uint32_t)code;
    for (const char *p = suffix; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    return h;
}

const char *op_rule(VerifyCtx *ctx, const Op *op, const char *suffix) {
    RuleCache *c = &ctx->rule_ids;
    RuleId *recent = &c->recent[((uintptr_t)suffix >> 3 ^ (uintptr_t)op->code * 7u) % 64];
    if (recent->id && recent->code == op->code && recent->suffix == suffix) return recent->id;
    if (c->count * 2 >= c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        RuleId *slots = arena_alloc_array(ctx->arena, cap, sizeof *slots);
        for (size_t i = 0; i < c->cap; i++) {
            if (!c->slots[i].id) continue;
            size_t j = rule_hash(c->slots[i].code, c->slots[i].suffix) & (cap - 1);
            while (slots[j].id) j = (j + 1) & (cap - 1);
            slots[j] = c->slots[i];
        }
        c->slots = slots;
        c->cap = cap;
    }
    size_t j = rule_hash(op->code, suffix) & (c->cap - 1);
    for (; c->slots[j].id; j = (j + 1) & (c->cap - 1))
        if (c->slots[j].code == op->code && strcmp(c->slots[j].suffix, suffix) == 0) {
            *recent = (RuleId){.code = op->code, .suffix = suffix, .id = c->slots[j].id};
            return c->slots[j].id;
        }
    char *id = rule_id(ctx->arena, op_name(op), suffix);
    c->slots[j] = (RuleId){.code = op->code, .suffix = suffix, .id = id};
    c->count++;
    *recent = c->slots[j];
    return id;
}

const char *type_text(VerifyCtx *ctx, const Type *t) { return type_to_string(ctx->arena, t, false); }

const char *dim_text(VerifyCtx *ctx, int64_t d) {
    return dim_known(d) ? arena_printf(ctx->arena, "%lld", (long long)d) : "?";
}

/* ------------------------------------------------------------------------------------------ */
/* Operands                                                                                    */
/* ------------------------------------------------------------------------------------------ */

const Type *operand_type(const Operand *opd) {
    if (!opd) return NULL;
    if (opd->type) return opd->type;
    if (opd->kind == OPD_VALUE && opd->value) return opd->value->type;
    return NULL;
}

SrcLoc operand_type_loc(const Op *op, const Operand *opd) {
    /* a type written before the op's name belongs to another statement (an inferred result type
     * shares its source's definition): point at the operand instead */
    if (opd && opd->type && opd->type_loc.line && opd->type_loc.offset > op->loc.offset) return opd->type_loc;
    if (opd && opd->loc.line) return opd->loc;
    return op->loc;
}

static TileArg make_tile_arg(const Op *op, const char *name, const Operand *opd) {
    TileArg a = {.name = name, .opd = opd};
    a.type = operand_type(opd);
    if (a.type && a.type->kind == TY_TILE) a.tile = &a.type->tile;
    a.loc = opd ? operand_type_loc(op, opd) : op->loc;
    return a;
}

TileArg tile_in(const Op *op, int index) {
    const OpInfo *info = op_info(op->code);
    const char *name = index < OPSPEC_MAX && info->ins[index].name ? info->ins[index].name : "operand";
    return make_tile_arg(op, name, index < op->ins.count ? &op->ins.items[index] : NULL);
}

TileArg tile_out(const Op *op, int index) {
    const OpInfo *info = op_info(op->code);
    const char *name = index < 2 && info->outs[index].name ? info->outs[index].name : "result";
    const Operand *opd = index < op->outs.count ? &op->outs.items[index] : NULL;
    TileArg a = make_tile_arg(op, name, opd);
    bool written = opd && opd->type_loc.line && opd->type_loc.offset > op->loc.offset;
    /* an SSA result whose type the op implies from a source (`: T` written once for both, or not
     * at all for the result): point where that type is written, and let the source's checks
     * cover it */
    for (int i = 0; a.tile && i < op->ins.count; i++) {
        const Operand *in = &op->ins.items[i];
        bool in_written = in->type_loc.line && in->type_loc.offset > op->loc.offset;
        if (operand_type(in) == a.type && in_written && (!written || opd->type_loc.offset == in->type_loc.offset)) {
            a.loc = in->type_loc;
            a.implied = true;
            break;
        }
    }
    return a;
}

TileArg tile_of_value(const char *name, const Value *v) {
    TileArg a = {.name = name};
    if (!v) return a;
    a.type = v->type;
    if (a.type && a.type->kind == TY_TILE) a.tile = &a.type->tile;
    a.loc = a.type && v->type_loc.line ? v->type_loc : v->loc;
    return a;
}

int64_t valid_dim(const TileType *t, int dim) { return dim == 0 ? t->valid_rows : t->valid_cols; }

/* ------------------------------------------------------------------------------------------ */
/* Shared checks                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Canonical order in which dtype lists are printed. */
static const DType dtype_print_order[] = {DT_I8,  DT_U8,  DT_I16, DT_U16,  DT_I32, DT_U32,
                                          DT_I64, DT_U64, DT_F16, DT_BF16, DT_F32};

uint32_t dtypes_for_target(const VerifyCtx *ctx, const TargetDTypes *sets) {
    return ctx->target == TARGET_A5 ? sets->a5 : sets->a2a3;
}

const char *dtype_set_text(VerifyCtx *ctx, uint32_t set) {
    char buf[128];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof dtype_print_order / sizeof *dtype_print_order; i++) {
        DType dt = dtype_print_order[i];
        if (!(set & DTBIT(dt))) continue;
        int n = snprintf(buf + len, sizeof buf - len, "%s%s", len ? "/" : "", dtype_name(dt));
        if (n < 0 || (size_t)n >= sizeof buf - len) break;
        len += (size_t)n;
    }
    return arena_strdup(ctx->arena, buf);
}

bool check_dtype_in(VerifyCtx *ctx, const Op *op, const TileArg *arg, const char *rule, const char *what,
                    uint32_t allowed) {
    if (!arg->tile) return true;
    DType dt = arg->tile->dtype;
    if ((unsigned)dt < 32 && (allowed & DTBIT(dt))) return true;
    vreport(ctx, op, arg->loc, SEV_ERROR, rule, "expects %s %s to be %s, got %s (%s: %s)", target_label(ctx->target),
            what, dtype_set_text(ctx, allowed), dtype_name(dt), arg->name, type_text(ctx, arg->type));
    return false;
}

bool check_same_dtype(VerifyCtx *ctx, const Op *op, const TileArg *a, const TileArg *b, const TileArg *at,
                      const char *rule) {
    if (!a->tile || !b->tile || a->tile->dtype == b->tile->dtype) return true;
    vreport(ctx, op, at->loc, SEV_ERROR, rule, "expects %s and %s to have the same element type, got %s and %s (%s: %s)",
            a->name, b->name, dtype_name(a->tile->dtype), dtype_name(b->tile->dtype), at->name, type_text(ctx, at->type));
    return false;
}

bool check_loc_in(VerifyCtx *ctx, const Op *op, const TileArg *arg, unsigned locs, const char *what, const char *rule) {
    if (!arg->tile || arg->implied || (locs & LOCBIT(arg->tile->loc))) return true; /* implied: its source is checked */
    vreport(ctx, op, arg->loc, SEV_ERROR, rule, "expects %s to be in the %s address space, got loc=%s (%s)", arg->name,
            what, tile_loc_name(arg->tile->loc), type_text(ctx, arg->type));
    return false;
}

bool check_row_major(VerifyCtx *ctx, const Op *op, const TileArg *arg, const char *rule) {
    if (!arg->tile || arg->implied || arg->tile->blayout == BL_ROW_MAJOR) return true; /* implied: see check_loc_in */
    vreport(ctx, op, arg->loc, SEV_ERROR, rule, "expects %s to use row-major layout, got blayout=%s (%s)", arg->name,
            blayout_name(arg->tile->blayout), type_text(ctx, arg->type));
    return false;
}

bool check_same_valid_dim(VerifyCtx *ctx, const Op *op, const TileArg *a, const TileArg *b, int dim, const char *rule) {
    if (!a->tile || !b->tile) return true;
    int64_t x = valid_dim(a->tile, dim), y = valid_dim(b->tile, dim);
    if (!dim_known(x) || !dim_known(y) || x == y) return true;
    vreport(ctx, op, b->loc, SEV_ERROR, rule, "expects %s and %s to have the same valid_shape[%d], got %lld and %lld (%s: %s)",
            a->name, b->name, dim, (long long)x, (long long)y, b->name, type_text(ctx, b->type));
    return false;
}

/* ------------------------------------------------------------------------------------------ */
/* Tile type well-formedness (SPEC 3): each shared Type is judged once; an ill-formed one is   */
/* reported once per location where it is written                                              */
/* ------------------------------------------------------------------------------------------ */

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

/* True when `key` (non-zero) is in the set. */
static bool seen_contains(const SeenSet *set, uint64_t key) {
    if (!set->cap) return false;
    size_t j = mix64(key) & (set->cap - 1);
    for (; set->keys[j]; j = (j + 1) & (set->cap - 1))
        if (set->keys[j] == key) return true;
    return false;
}

/* Inserts `key` (non-zero); returns false when it was already there. */
static bool seen_insert(Arena *arena, SeenSet *set, uint64_t key) {
    if (set->count * 2 >= set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        uint64_t *keys = arena_alloc_array(arena, cap, sizeof *keys);
        for (size_t i = 0; i < set->cap; i++) {
            if (!set->keys[i]) continue;
            size_t j = mix64(set->keys[i]) & (cap - 1);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = set->keys[i];
        }
        set->keys = keys;
        set->cap = cap;
    }
    size_t j = mix64(key) & (set->cap - 1);
    while (set->keys[j]) {
        if (set->keys[j] == key) return false;
        j = (j + 1) & (set->cap - 1);
    }
    set->keys[j] = key;
    set->count++;
    return true;
}

/* A written type is identified by its source span; a type without a location by its address. */
static uint64_t type_use_key(const Type *t, SrcLoc loc) {
    if (loc.line) return ((uint64_t)loc.offset << 24 | (loc.len & 0xffffffu)) | 1ULL << 63;
    return (uint64_t)(uintptr_t)t | 1u;
}

/* Inner box rows/cols (pto_tile.hpp getInnerRow/getInnerCol): fractal 1024 -> 16x16 and fractal
 * 32 -> 16x2 (inner row-major) or 2x16, whatever the slayout; fractal 512 -> 16xB / Bx16 by the
 * inner layout when boxed, 1x1 when not (B = 32 / sizeof(T)). */
static void inner_box_dims(const TileType *t, int64_t *rows, int64_t *cols) {
    int64_t b = dtype_size(t->dtype) ? 32 / (int64_t)dtype_size(t->dtype) : 1;
    bool inner_row = t->slayout == SL_ROW_MAJOR;
    if (t->fractal == 1024)
        *rows = 16, *cols = 16;
    else if (t->fractal == 32)
        *rows = inner_row ? 16 : 2, *cols = inner_row ? 2 : 16;
    else if (t->slayout == SL_NONE_BOX)
        *rows = 1, *cols = 1;
    else
        *rows = inner_row ? 16 : b, *cols = inner_row ? b : 16;
}

/* The checks below report a problem only when `report` is set; without it they stop at the first
 * problem. Each returns false when the tile breaks a rule. */

/* An Rx1 row-major tile: a column vector, which the ISA writes col_major (one element per row,
 * 32-byte columns: the DN form of reductions and Mode 1 expands). Notes it, with a fix-it on the
 * type spelling at `loc` when col_major makes the tile well-formed. */
static void hint_col_major(VerifyCtx *ctx, const Type *type, SrcLoc loc) {
    const TileType *t = &type->tile;
    int64_t bytes;
    if (!checked_mul_i64(t->rows, (int64_t)dtype_size(t->dtype), &bytes) || bytes % 32 != 0) return;
    diag_add_note(ctx->diags, loc, "a %lldx1 tile is a column vector: write it col_major (blayout=col_major), one "
                  "element per row in 32-byte columns", (long long)t->rows);
    const SourceFile *f = ctx->module->file;
    if (!f || !f->text || loc.len < 2 || (size_t)loc.offset + loc.len > f->len) return;
    const char *text = f->text + loc.offset;
    if (text[0] != '!' || text[loc.len - 1] != '>') return;
    static const char row[] = "blayout=row_major";
    for (uint32_t i = 0; i + sizeof row - 1 <= loc.len; i++)
        if (memcmp(text + i, row, sizeof row - 1) == 0) {
            SrcLoc at = {loc.line, loc.col + i, loc.offset + i, (uint32_t)(sizeof row - 1)};
            diag_add_fixit(ctx->diags, at, "blayout=col_major");
            return;
        }
    for (uint32_t i = 0; i < loc.len; i++)
        if (text[i] == '\n' || text[i] == '#') return; /* a multi-line or attribute spelling: the note only */
    SrcLoc at = {loc.line, loc.col + loc.len - 1, loc.offset + loc.len - 1, 0};
    diag_add_fixit(ctx->diags, at, ", blayout=col_major");
}

/* pto_tile.hpp's static_asserts: 32-byte rows (row_major none_box) or columns (col_major
 * none_box), and rows / cols divisible by the inner box (rows waived for vec, fractal 32, 1 row). */
static bool check_tile_alignment(VerifyCtx *ctx, const Op *op, const Type *type, SrcLoc loc, bool report) {
    const TileType *t = &type->tile;
    bool ok = true;
    int64_t size = (int64_t)dtype_size(t->dtype), bytes;
    if (t->slayout == SL_NONE_BOX) {
        bool row = t->blayout == BL_ROW_MAJOR;
        int64_t n = row ? t->cols : t->rows;
        if (!checked_mul_i64(n, size, &bytes) || bytes % 32 != 0) {
            if (!report) return false;
            ok = false;
            vreport(ctx, op, loc, SEV_ERROR, "TILE.alignment",
                    "expects a %s none_box tile to have %s * sizeof(%s) a multiple of 32 bytes, got %lld * %lld (%s)",
                    blayout_name(t->blayout), row ? "cols" : "rows", dtype_name(t->dtype), (long long)n,
                    (long long)size, type_text(ctx, type));
            if (row && t->cols == 1) hint_col_major(ctx, type, loc);
        }
    }
    int64_t ir, ic;
    inner_box_dims(t, &ir, &ic);
    bool rows_waived = t->loc == LOC_VEC || t->fractal == 32 || t->rows == 1;
    if (!rows_waived && t->rows % ir != 0) {
        if (!report) return false;
        ok = false;
        vreport(ctx, op, loc, SEV_ERROR, "TILE.box-shape",
                "expects the tile's rows to be a multiple of the inner box rows (%lld), got %lld (%s)", (long long)ir,
                (long long)t->rows, type_text(ctx, type));
    }
    if (t->cols % ic != 0) {
        if (!report) return false;
        ok = false;
        vreport(ctx, op, loc, SEV_ERROR, "TILE.box-shape",
                "expects the tile's cols to be a multiple of the inner box cols (%lld), got %lld (%s)", (long long)ic,
                (long long)t->cols, type_text(ctx, type));
    }
    return ok;
}

static bool check_tile_valid_bounds(VerifyCtx *ctx, const Op *op, const Type *type, SrcLoc loc, bool report) {
    const TileType *t = &type->tile;
    bool ok = true;
    for (int dim = 0; dim < 2; dim++) {
        int64_t v = valid_dim(t, dim), shape = dim == 0 ? t->rows : t->cols;
        if (!dim_known(v) || (v >= 0 && v <= shape)) continue;
        if (!report) return false;
        ok = false;
        if (v < 0)
            vreport(ctx, op, loc, SEV_ERROR, "TILE.valid-bounds",
                    "expects valid_shape[%d] to be '?' or non-negative, got %lld (%s)", dim, (long long)v,
                    type_text(ctx, type));
        else
            vreport(ctx, op, loc, SEV_ERROR, "TILE.valid-bounds",
                    "expects the tile to satisfy valid_shape[%d] <= shape[%d], got %lld > %lld (%s)", dim, dim,
                    (long long)v, (long long)shape, type_text(ctx, type));
    }
    return ok;
}

static bool check_tile_capacity(VerifyCtx *ctx, const Op *op, const Type *type, SrcLoc loc, bool report) {
    const TileType *t = &type->tile;
    int64_t bytes, cap = buffer_capacity_bytes(ctx->target, t->loc);
    if (!tile_footprint_bytes(t, &bytes)) {
        if (report)
            vreport(ctx, op, loc, SEV_ERROR, "TILE.capacity", "tile footprint rows * cols * sizeof(%s) overflows (%s)",
                    dtype_name(t->dtype), type_text(ctx, type));
        return false;
    }
    if (bytes <= cap) return true;
    if (report)
        vreport(ctx, op, loc, SEV_ERROR, "TILE.capacity",
                "expects the tile to fit its buffer: %lld bytes exceed the %lld-byte %s of %s (%s)", (long long)bytes,
                (long long)cap, buffer_name(t->loc), target_label(ctx->target), type_text(ctx, type));
    return false;
}

/* SPEC 3 well-formedness of a tile type; problems are reported at `loc` when `report` is set. */
static bool check_tile_rules(VerifyCtx *ctx, const Op *op, const Type *type, SrcLoc loc, bool report) {
    const TileType *t = &type->tile;
    if (!dtype_is_float(t->dtype) && !dtype_is_int(t->dtype) && !dtype_is_f8(t->dtype)) {
        if (report)
            vreport(ctx, op, loc, SEV_ERROR, "TILE.dtype", "expects a tile element type, got %s (%s)",
                    dtype_name(t->dtype), type_text(ctx, type));
        return false;
    }
    if (t->rows <= 0 || t->cols <= 0) {
        if (report)
            vreport(ctx, op, loc, SEV_ERROR, "TILE.shape", "expects tile rows and cols to be > 0, got %lldx%lld (%s)",
                    (long long)t->rows, (long long)t->cols, type_text(ctx, type));
        return false;
    }
    bool ok = check_tile_valid_bounds(ctx, op, type, loc, report);
    if (!ok && !report) return false;
    if (t->fractal != 32 && t->fractal != 512 && t->fractal != 1024) {
        if (!report) return false;
        ok = false;
        vreport(ctx, op, loc, SEV_ERROR, "TILE.fractal", "expects fractal to be 32, 512 or 1024, got %lld (%s)",
                (long long)t->fractal, type_text(ctx, type));
    } else if (!check_tile_alignment(ctx, op, type, loc, report)) {
        if (!report) return false;
        ok = false;
    }
    return check_tile_capacity(ctx, op, type, loc, report) && ok;
}

/* Checks one use of a tile type written at `type_loc` (line 0: not written there): the type is
 * judged once, and an ill-formed one is reported once per written location. */
static void check_tile_type(VerifyCtx *ctx, const Op *op, const Type *type, SrcLoc type_loc) {
    if (!type || type->kind != TY_TILE) return;
    uint64_t type_key = (uint64_t)(uintptr_t)type | 1u;
    if (seen_contains(&ctx->good_tile_types, type_key)) return;
    if (!seen_contains(&ctx->bad_tile_types, type_key)) {
        bool ok = check_tile_rules(ctx, op, type, (SrcLoc){0}, false);
        seen_insert(ctx->arena, ok ? &ctx->good_tile_types : &ctx->bad_tile_types, type_key);
        if (ok) return;
    }
    if (!seen_insert(ctx->arena, &ctx->seen_types, type_use_key(type, type_loc))) return;
    SrcLoc loc = type_loc.line ? type_loc : (op ? op->loc : (SrcLoc){0});
    check_tile_rules(ctx, op, type, loc, true);
}

static void check_operand_list_types(VerifyCtx *ctx, const Op *op, const OperandList *list) {
    for (int i = 0; i < list->count; i++) {
        const Operand *opd = &list->items[i];
        check_tile_type(ctx, op, opd->type, opd->type_loc);
        if (opd->kind == OPD_VALUE && opd->value) check_tile_type(ctx, op, opd->value->type, opd->value->type_loc);
    }
}

/* Every tile type written in or produced by an op. */
static void check_op_tile_types(VerifyCtx *ctx, const Op *op) {
    check_operand_list_types(ctx, op, &op->ins);
    check_operand_list_types(ctx, op, &op->outs);
    for (int i = 0; i < op->n_kwargs; i++) check_operand_list_types(ctx, op, &op->kwargs[i].list);
    for (int i = 0; i < op->n_results; i++)
        if (op->results[i]) check_tile_type(ctx, op, op->results[i]->type, op->results[i]->type_loc);
    for (int i = 0; i < op->n_result_types; i++)
        check_tile_type(ctx, op, op->result_types[i], op->result_type_locs ? op->result_type_locs[i] : (SrcLoc){0});
    for (int r = 0; r < op->n_regions; r++) {
        const Block *b = op->regions[r].block;
        for (int i = 0; b && i < b->n_args; i++)
            if (b->args[i]) check_tile_type(ctx, op, b->args[i]->type, b->args[i]->type_loc);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The walk                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Result-form ops (`%d = pto.OP ...`) create a new tile: auto-placed unless tassigned. */
static void note_result_tiles(VerifyCtx *ctx, const Op *op) {
    const OpInfo *info = op_info(op->code);
    if (!(info->flags & OPF_DPS) || op->n_results < 1 || !op->results[0]) return;
    const Type *t = op->results[0]->type;
    if (t && t->kind == TY_TILE) record_auto_candidate(ctx, op->results[0]);
}

/* Numbers the next op with regions among such ops (pre-order); returns its index in region_end. */
static int64_t region_push(FuncFacts *facts) {
    if (facts->n_region_ops == facts->region_cap) {
        int64_t cap = facts->region_cap ? facts->region_cap * 2 : 64;
        int64_t *end = realloc(facts->region_end, (size_t)cap * sizeof *end);
        if (!end) {
            fprintf(stderr, "fatal: out of host memory (allocating %zu bytes)\n", (size_t)cap * sizeof *end);
            exit(2);
        }
        facts->region_end = end;
        facts->region_cap = cap;
    }
    return facts->n_region_ops++;
}

static void verify_block(VerifyCtx *ctx, const Block *block);

/* The regions of `op` (whose position has been taken), walked: verified, or only numbered when
 * `verify` is false; records where they end for the memory plan. */
static void walk_regions(VerifyCtx *ctx, const Op *op, bool verify) {
    if (op->n_regions == 0) return;
    FuncFacts *facts = ctx->facts;
    int64_t k = region_push(facts);
    if (++facts->depth > facts->max_depth) facts->max_depth = facts->depth;
    for (int r = 0; r < op->n_regions; r++) {
        if (verify) {
            verify_block(ctx, op->regions[r].block);
            continue;
        }
        for (const Op *inner = op->regions[r].block ? op->regions[r].block->first : NULL; inner; inner = inner->next) {
            facts->n_order++;
            walk_regions(ctx, inner, false);
        }
    }
    facts->depth--;
    facts->region_end[k] = facts->n_order - 1;
}

/* Every attribute of an op must be one its row takes, with a value of the row's kind; required
 * ones must be there (issue: nothing is accepted and then ignored). */
static void check_op_attrs(VerifyCtx *ctx, const Op *op) {
    const OpInfo *info = op_info(op->code);
    for (int i = 0; i < op->attrs.count; i++) {
        const Attr *a = &op->attrs.items[i];
        if (!a->key) continue;
        const AttrSpec *spec = op_attr_spec(info, a->key);
        int64_t v;
        const char *unimplemented = spec ? NULL : ptoas_attr_unimplemented(info->name, a->key);
        if (unimplemented)
            vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "attr-unimplemented"),
                    "attribute '%s' (PTOAS: %s) is not implemented by pto-as and pto-run", a->key, unimplemented);
        else if (!spec)
            vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "attr-unknown"),
                    "does not take the attribute '%s' (pto-as and pto-run would ignore it); %s", a->key,
                    info->attrs[0].name ? "see docs/rules.md for the ones it takes" : "it takes none");
        else if (!attr_value(a, spec->kind, &v))
            vreport(ctx, op, a->loc, SEV_ERROR, op_rule(ctx, op, "attr-value"), "expects attribute '%s' to be %s, got %s",
                    a->key, attr_kind_text(spec->kind), a->text ? a->text : "another kind of value");
    }
    for (int i = 0; i < ATTRSPEC_MAX && info->attrs[i].name; i++)
        if ((info->attrs[i].flags & ATTR_REQUIRED) && !attr_find(&op->attrs, info->attrs[i].name))
            vreport(ctx, op, op->loc, SEV_ERROR, op_rule(ctx, op, "attr-missing"), "expects attribute '%s' (%s)",
                    info->attrs[i].name, attr_kind_text(info->attrs[i].kind));
}

static void verify_block(VerifyCtx *ctx, const Block *block) {
    for (const Op *op = block ? block->first : NULL; op; op = op->next) {
        ctx->facts->n_order++;
        bool known = (unsigned)op->code < OP_COUNT; /* an op outside the table is only numbered */
        if (known) {
            check_op_tile_types(ctx, op);
            note_result_tiles(ctx, op);
            check_op_attrs(ctx, op);
            verify_fns[op->code](ctx, op);
        }
        walk_regions(ctx, op, known);
    }
}

static void diag_func(VerifyCtx *ctx, const Func *f, const char *rule, const char *fmt, const char *arg) {
    diag_report(ctx->diags, ctx->module->file, SEV_ERROR, f->loc, rule, fmt, arg);
}

/* PTOAS entry rules: the entry returns nothing; pto.entry only on definitions. */
static void check_entry_rules(VerifyCtx *ctx, const Module *m, const VerifyOptions *opts) {
    for (int i = 0; i < m->n_funcs; i++) {
        const Func *f = m->funcs[i];
        if (f->parse_failed) continue; /* the parser reported it */
        if (f->is_entry && f->is_declaration)
            diag_func(ctx, f, "FUNC.entry-definition", "'func.func' op `%s` is only valid on function definitions",
                      "pto.entry");
    }
    const Func *entry = module_entry(m, opts ? opts->entry : NULL);
    if (entry && !entry->parse_failed && entry->n_results > 0)
        diag_func(ctx, entry, "FUNC.entry-void", "'func.func' op PTO entry functions must return void (@%s)",
                  entry->name);
}

/* A memref argument is the FFTS address pto.set_ffts takes or the GM slot buffer of an
 * initialize_l2g2l_pipe, and nothing else: IR after memref lowering is out of scope. */
static void check_memref_arguments(VerifyCtx *ctx, const Func *f) {
    for (int i = 0; i < f->n_args; i++) {
        const Value *arg = f->args[i];
        if (!arg || !arg->type || arg->type->kind != TY_MEMREF) continue;
        bool ffts = false;
        for (size_t k = 0; k < ctx->facts->ffts_operands.count && !ffts; k++) ffts = ctx->facts->ffts_operands.items[k] == arg;
        if (!ffts)
            diag_report(ctx->diags, ctx->module->file, SEV_ERROR, arg->type_loc, "TYPE.memref",
                    "memref types are IR after memref lowering, which pto-as does not read; write the kernel at tile "
                    "level (!pto.ptr, !pto.tensor_view, !pto.partition_tensor_view, !pto.tile_buf); the memrefs it "
                    "reads are the FFTS address a pto.set_ffts in this function takes and the GM slot buffer an "
                    "initialize_l2g2l_pipe takes");
    }
    for (int i = 0; i < f->n_results; i++)
        if (f->result_types[i] && f->result_types[i]->kind == TY_MEMREF)
            diag_report(ctx->diags, ctx->module->file, SEV_ERROR, f->result_type_locs ? f->result_type_locs[i] : f->loc,
                        "TYPE.memref",
                    "memref types are IR after memref lowering, which pto-as does not read: a function cannot return one");
}

static void verify_function(VerifyCtx *ctx, const Func *f) {
    FuncFacts facts = {.func = f};
    ctx->facts = &facts;
    for (int i = 0; i < f->n_args; i++) {
        const Value *arg = f->args[i];
        if (arg) check_tile_type(ctx, NULL, arg->type, arg->type_loc);
        if (arg && arg->type && arg->type->kind == TY_TILE) record_manual_tile(ctx, arg);
    }
    for (int i = 0; i < f->n_results; i++)
        check_tile_type(ctx, NULL, f->result_types[i], f->result_type_locs ? f->result_type_locs[i] : (SrcLoc){0});
    if (!f->is_declaration) verify_block(ctx, f->body.block);
    check_memref_arguments(ctx, f);
    verify_sync_protocol(ctx, f);
    memplan_finish_function(ctx, f);
    facts_release(&facts);
    ctx->facts = NULL;
}

const CallGraph *verify_call_graph(VerifyCtx *ctx) {
    if (!ctx->calls_built) {
        callgraph_build(ctx->arena, ctx->module, &ctx->calls);
        ctx->calls_built = true;
    }
    return &ctx->calls;
}

bool verify_module(const Module *m, const VerifyOptions *opts, DiagList *diags) {
    size_t errors_before = diags->errors;
    VerifyCtx ctx = {.module = m, .target = verify_effective_target(m, opts), .diags = diags, .arena = diags->arena};
    check_entry_rules(&ctx, m, opts);
    for (int i = 0; i < m->n_funcs; i++) {
        ctx.func_index = i;
        /* a function the parser reported an error in is skipped; the others are checked */
        if (m->funcs[i] && !m->funcs[i]->parse_failed) verify_function(&ctx, m->funcs[i]);
    }
    return diags->errors == errors_before;
}
