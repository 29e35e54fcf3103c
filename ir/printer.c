/* printer.c - prints a Module as canonical text (docs/syntax.md "Printing").
 *
 *   PRINT_DPS: PTOAS-compatible: `module { func.func ... }`, every tile op in
 *              `pto.OP ins(a, b : T0, T1) outs(d : T)` form with compact !pto.tile_buf types; an
 *              op written in SSA form gets its destination from a `pto.alloc_tile` printed
 *              first; immediates are hoisted into `arith.constant` ops.
 *   PRINT_GENERIC: PRINT_DPS with the tile ops, alloc_tile and the plain scalar ops in MLIR's
 *              generic form `"pto.tadd"(%a, %b, %d) : (A, B, D) -> ()`, operands in PTOAS's order.
 *   PRINT_SSA: SSA Level 1: `%d = pto.OP a, b : (T0, T1) -> R` with !pto.tile types; an op
 *              written in DPS form prints its destination as the last positional operand
 *              (`pto.tmuls %a, %c, %d : T, f32, T`), so no value is renamed.
 *
 * Printing, re-parsing and printing again gives identical text. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

size_t ptoas_dst_index(OpCode code, size_t n) {
    const OpInfo *info = op_info(code);
    for (size_t i = 0; i < OPSPEC_MAX && info->ins[i].name; i++)
        if (info->ins[i].flags & SPEC_AFTER_DST) return i < n ? i : n - 1;
    return n - 1;
}

/* ---- output buffer (malloc'd while printing, handed to the caller at the end) -------------- */

typedef struct NameSet {
    const char **slots;
    size_t cap, count;
} NameSet;

typedef struct Printer {
    Arena *arena;          /* scratch (type strings, fresh names) */
    PrintForm form;
    char *buf;
    size_t len, cap;
    bool failed;           /* out of memory */
    int indent;
    NameSet names;         /* value names of the current function (for fresh names) */
    unsigned fresh;        /* counter for fresh names */
    PtrVec folded;         /* DPS: `pto.tassign %t, ADDR` ops (no result) folded into %t's alloc_tile */
    struct PlacedTile *placed; /* DPS, a module mixing manual and automatic tiles: addresses for the */
    size_t n_placed;           /* automatic ones (plan_placement) */
} Printer;

/* An automatic tile given an address by plan_placement: keyed by its value, or by the trowprod op
 * whose missing tmp the printer adds. */
typedef struct PlacedTile {
    const void *key;
    int64_t addr;
} PlacedTile;

static void out_bytes(Printer *p, const char *s, size_t n) {
    if (p->failed) return;
    if (p->len + n + 1 > p->cap) {
        size_t cap = p->cap ? p->cap : 4096;
        while (cap < p->len + n + 1) {
            if (cap > SIZE_MAX / 2) {
                p->failed = true;
                return;
            }
            cap *= 2;
        }
        char *grown = realloc(p->buf, cap);
        if (!grown) {
            p->failed = true;
            return;
        }
        p->buf = grown;
        p->cap = cap;
    }
    memcpy(p->buf + p->len, s, n);
    p->len += n;
    p->buf[p->len] = '\0';
}

static void out(Printer *p, const char *s) {
    out_bytes(p, s, strlen(s));
}

static void outf(Printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void outf(Printer *p, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        out_bytes(p, small, (size_t)n);
        return;
    }
    va_start(ap, fmt);
    char *big = arena_vprintf(p->arena, fmt, ap);
    va_end(ap);
    out_bytes(p, big, (size_t)n);
}

static void out_indent(Printer *p) {
    for (int i = 0; i < p->indent; i++) out_bytes(p, "  ", 2);
}

/* ---- names ----------------------------------------------------------------------------------- */

static size_t hash_str(const char *s) {
    size_t h = 1469598103934665603u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static bool nameset_has(const NameSet *set, const char *name) {
    if (!set->cap) return false;
    for (size_t i = hash_str(name) & (set->cap - 1);; i = (i + 1) & (set->cap - 1)) {
        if (!set->slots[i]) return false;
        if (strcmp(set->slots[i], name) == 0) return true;
    }
}

static void nameset_add(Printer *p, NameSet *set, const char *name) {
    if (!name) return;
    if ((set->count + 1) * 2 > set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        const char **slots = arena_alloc_array(p->arena, cap, sizeof *slots);
        for (size_t i = 0; i < set->cap; i++) {
            if (!set->slots[i]) continue;
            size_t j = hash_str(set->slots[i]) & (cap - 1);
            while (slots[j]) j = (j + 1) & (cap - 1);
            slots[j] = set->slots[i];
        }
        set->slots = slots;
        set->cap = cap;
    }
    size_t i = hash_str(name) & (set->cap - 1);
    while (set->slots[i]) {
        if (strcmp(set->slots[i], name) == 0) return;
        i = (i + 1) & (set->cap - 1);
    }
    set->slots[i] = name;
    set->count++;
}

static void collect_block_names(Printer *p, const Block *b) {
    if (!b) return;
    for (int i = 0; i < b->n_args; i++) nameset_add(p, &p->names, b->args[i]->name);
    for (const Op *op = b->first; op; op = op->next) {
        for (int i = 0; i < op->n_results; i++) nameset_add(p, &p->names, op->results[i]->name);
        for (int i = 0; i < op->n_regions; i++) collect_block_names(p, op->regions[i].block);
    }
}

/* A value name not used anywhere in the current function, e.g. "cst", "cst_1". */
static const char *fresh_name(Printer *p, const char *base) {
    const char *name = base;
    while (nameset_has(&p->names, name)) name = arena_printf(p->arena, "%s_%u", base, ++p->fresh);
    nameset_add(p, &p->names, name);
    return name;
}

/* ---- types and attributes ------------------------------------------------------------------ */

static const char *type_text(Printer *p, const Type *t) {
    if (!t) return "<no type>";
    if (t->kind == TY_TILE) {
        if (p->form != PRINT_SSA) return type_to_string(p->arena, t, true);
        Type copy = *t;
        copy.tile_buf = false;
        return type_to_string(p->arena, &copy, false);
    }
    return type_to_string(p->arena, t, false);
}

static bool is_bare_key(const char *k) {
    if (!k || !*k) return false;
    if (!((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') || *k == '_')) return false;
    for (const char *c = k; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '$' ||
              *c == '.'))
            return false;
    return true;
}

static void print_attr_value(Printer *p, const Attr *a) {
    switch (a->kind) {
    case ATTR_UNIT: break;
    case ATTR_STRING: outf(p, "\"%s\"", a->text ? a->text : ""); break;
    case ATTR_INT:
    case ATTR_FLOAT:
        out(p, a->text ? a->text : "0");
        if (a->type) outf(p, " : %s", type_text(p, a->type));
        break;
    case ATTR_BOOL: out(p, a->ival ? "true" : "false"); break;
    case ATTR_TYPE: out(p, type_text(p, a->type)); break;
    case ATTR_RAW: out(p, a->text ? a->text : ""); break;
    }
}

static void print_attr_dict(Printer *p, const AttrList *attrs) {
    out(p, "{");
    for (int i = 0; i < attrs->count; i++) {
        const Attr *a = &attrs->items[i];
        if (i) out(p, ", ");
        if (is_bare_key(a->key)) out(p, a->key);
        else outf(p, "\"%s\"", a->key ? a->key : "");
        if (a->kind != ATTR_UNIT) {
            out(p, " = ");
            print_attr_value(p, a);
        }
    }
    out(p, "}");
}

/* ---- operands ---------------------------------------------------------------------------- */

static const Type *operand_type(const Operand *o) {
    if (o->kind == OPD_VALUE && o->value && o->value->type) return o->value->type;
    return o->type;
}

/* First tile type among an op's operands and results (the element type scalars convert to). */
static const Type *first_tile_type(const Op *op) {
    for (int i = 0; i < op->ins.count; i++) {
        const Type *t = operand_type(&op->ins.items[i]);
        if (t && t->kind == TY_TILE) return t;
    }
    for (int i = 0; i < op->outs.count; i++) {
        const Type *t = operand_type(&op->outs.items[i]);
        if (t && t->kind == TY_TILE) return t;
    }
    for (int i = 0; i < op->n_results; i++)
        if (op->results[i]->type && op->results[i]->type->kind == TY_TILE) return op->results[i]->type;
    return NULL;
}

/* The type an untyped immediate is printed with: the tile element type where it fits (a hex
 * literal is a bit pattern of that type), else its natural type (docs/syntax.md). */
static const Type *literal_type(Printer *p, const Op *op, const Operand *o, unsigned kinds) {
    if (o->type) return o->type;
    const Type *tile = first_tile_type(op);
    DType dt;
    switch (o->kind) {
    case OPD_BOOL: dt = DT_I1; break;
    case OPD_FLOAT: dt = tile && dtype_is_float(tile->dtype) ? tile->dtype : DT_F32; break;
    case OPD_INT:
        if ((kinds & K_INDEX) && !(kinds & K_SCALAR)) dt = DT_INDEX; /* an index position (valid_row, offsets) */
        else if (tile) dt = tile->dtype;
        else dt = (kinds & K_INDEX) ? DT_INDEX : DT_I32;
        break;
    default: return NULL;
    }
    return type_new_scalar(p->arena, dt);
}

/* Text of an immediate as printed with type t (a decimal integer for a float type gains ".0"). */
static const char *literal_text(Printer *p, const Operand *o, const Type *t) {
    if (o->kind == OPD_INT && !o->hex && t && t->kind == TY_SCALAR && dtype_is_float(t->dtype))
        return arena_printf(p->arena, "%s.0", o->text);
    return o->text ? o->text : "0";
}

static void print_operand(Printer *p, const Operand *o) {
    switch (o->kind) {
    case OPD_VALUE: outf(p, "%%%s", o->value ? o->value->name : o->text); break;
    case OPD_TILE_ADDR: outf(p, "@tile(%s)", o->text); break;
    case OPD_BOOL: out(p, o->ival ? "true" : "false"); break;
    default: out(p, o->text ? o->text : "0"); break;
    }
}

/* Kinds of operand position i of an op's ins list. */
static unsigned ins_kinds(const Op *op, int i) {
    const OpInfo *info = op_info(op->code);
    int n = opspec_count(info->ins, OPSPEC_MAX);
    if (i < n) return info->ins[i].kinds;
    return n > 0 ? info->ins[n - 1].kinds : K_ANY;
}

/* Flags (SPEC_*) of operand position i of an op's ins list. */
static unsigned ins_flags(const Op *op, int i) {
    const OpInfo *info = op_info(op->code);
    return i < opspec_count(info->ins, OPSPEC_MAX) ? info->ins[i].flags : 0;
}

/* In DPS output, an immediate becomes `%cst = arith.constant LIT : T` printed before the op.
 * Returns the names to print in place of each operand (NULL = print the operand itself). */
static const char **hoist_literals(Printer *p, const Op *op, const OperandList *list, unsigned (*kinds_of)(const Op *, int),
                                   const Type ***types_out) {
    const char **names = arena_alloc_array(p->arena, (size_t)(list->count ? list->count : 1), sizeof *names);
    const Type **types = arena_alloc_array(p->arena, (size_t)(list->count ? list->count : 1), sizeof *types);
    for (int i = 0; i < list->count; i++) {
        const Operand *o = &list->items[i];
        if (o->kind == OPD_VALUE || o->kind == OPD_TILE_ADDR) {
            types[i] = operand_type(o);
            continue;
        }
        const Type *t = kinds_of == ins_kinds && (ins_flags(op, i) & SPEC_WORD64)
                            ? type_new_scalar(p->arena, DT_I64)
                            : literal_type(p, op, o, kinds_of ? kinds_of(op, i) : K_ANY);
        types[i] = t;
        if (p->form == PRINT_SSA) continue;
        const char *name = fresh_name(p, o->kind == OPD_BOOL ? (o->ival ? "true" : "false") : "cst");
        names[i] = name;
        out_indent(p);
        if (o->kind == OPD_BOOL && t && t->kind == TY_SCALAR && t->dtype == DT_I1)
            outf(p, "%%%s = arith.constant %s\n", name, o->ival ? "true" : "false");
        else
            outf(p, "%%%s = arith.constant %s : %s\n", name, literal_text(p, o, t), type_text(p, t));
    }
    if (types_out) *types_out = types;
    return names;
}

static void print_operand_or_name(Printer *p, const Operand *o, const char *name) {
    if (name) outf(p, "%%%s", name);
    else print_operand(p, o);
}

/* `%a, %b` */
static void print_list(Printer *p, const OperandList *list, const char **names) {
    for (int i = 0; i < list->count; i++) {
        if (i) out(p, ", ");
        print_operand_or_name(p, &list->items[i], names ? names[i] : NULL);
    }
}

/* `%a : A, %b : B`: each operand typed in place (PTOAS's typed ins(...), the lowered pipe inits) */
static void print_typed_operands(Printer *p, const OperandList *list, const char **names, const Type **types) {
    for (int i = 0; i < list->count; i++) {
        if (i) out(p, ", ");
        print_operand_or_name(p, &list->items[i], names[i]);
        outf(p, " : %s", type_text(p, types[i]));
    }
}

static void print_types(Printer *p, const Type **types, int n) {
    for (int i = 0; i < n; i++) {
        if (i) out(p, ", ");
        out(p, type_text(p, types[i]));
    }
}

/* Result definitions: `%r:2 = ` for a group named r#0, r#1, ..., else `%a, %b = `. */
static void print_results(Printer *p, const Op *op) {
    if (op->n_results == 0) return;
    if (op->n_results > 1) {
        const char *hash = strchr(op->results[0]->name, '#');
        bool group = hash != NULL;
        size_t base = hash ? (size_t)(hash - op->results[0]->name) : 0;
        for (int i = 0; group && i < op->n_results; i++) {
            const char *n = op->results[i]->name;
            char want[24];
            snprintf(want, sizeof want, "#%d", i);
            group = strncmp(n, op->results[0]->name, base) == 0 && strcmp(n + base, want) == 0;
        }
        if (group) {
            outf(p, "%%%.*s:%d = ", (int)base, op->results[0]->name, op->n_results);
            return;
        }
    }
    for (int i = 0; i < op->n_results; i++) outf(p, "%s%%%s", i ? ", " : "", op->results[i]->name);
    out(p, " = ");
}

static void print_block(Printer *p, const Block *b);

/* Keyword operands (addr, valid_row, shape, offsets, ...) are all index values. */
static unsigned kw_kinds(const Op *op, int i) {
    (void)op;
    (void)i;
    return K_INDEX;
}

/* ---- DPS: operand types PTOAS requires --------------------------------------------------------- */

/* The `arith` op that converts a scalar of type `from` to `to` as a C++ conversion does ("index":
 * two index_casts, through index, for integers of different widths), or NULL when none is needed
 * or none exists (same type; f16 <-> bf16). */
static const char *cast_op(DType from, DType to) {
    if (from == to) return NULL;
    bool from_int = dtype_is_int(from) || from == DT_INDEX, to_int = dtype_is_int(to) || to == DT_INDEX;
    if (from == DT_INDEX || to == DT_INDEX) return from_int && to_int ? "arith.index_cast" : NULL;
    if (dtype_is_float(from) && dtype_is_float(to)) {
        if (dtype_size(from) == dtype_size(to)) return NULL;
        return dtype_size(from) > dtype_size(to) ? "arith.truncf" : "arith.extf";
    }
    if (from_int && dtype_is_float(to)) return dtype_is_unsigned(from) ? "arith.uitofp" : "arith.sitofp";
    if (dtype_is_float(from) && to_int) return dtype_is_unsigned(to) ? "arith.fptoui" : "arith.fptosi";
    if (from_int && to_int && dtype_size(from) != dtype_size(to)) return "index"; /* through index: print_cast */
    return NULL;
}

/* Prints `%NEW = CAST %name : FROM to TO` before the current op and returns NEW, or NULL (nothing
 * printed) when `from` is already `to` or no arith op converts it. */
static const char *print_cast(Printer *p, const char *name, const Type *from, DType to) {
    if (!from || from->kind != TY_SCALAR) return NULL;
    const char *op = cast_op(from->dtype, to);
    if (!op) return NULL;
    if (strcmp(op, "index") == 0) { /* integer widths: index_cast to index (sign-extends) and back (truncates) */
        name = print_cast(p, name, from, DT_INDEX);
        from = type_new_scalar(p->arena, DT_INDEX);
        op = "arith.index_cast";
    }
    const char *fresh = fresh_name(p, arena_printf(p->arena, "%s_%s", name, dtype_name(to)));
    out_indent(p);
    if (p->form == PRINT_GENERIC)
        outf(p, "%%%s = \"%s\"(%%%s) : (%s) -> %s\n", fresh, op, name, type_text(p, from),
             type_text(p, type_new_scalar(p->arena, to)));
    else
        outf(p, "%%%s = %s %%%s : %s to %s\n", fresh, op, name, type_text(p, from), type_text(p, type_new_scalar(p->arena, to)));
    return fresh;
}

/* Ops whose scalar PTOAS requires to have the tile's element type (its verifiers: "expects scalar
 * type == dst element type" and the like); pto-as converts it as the C++ argument would. */
static bool scalar_needs_elem_type(OpCode code) {
    return code == OP_TEXPANDS || code == OP_TAXPY || code == OP_TREMS || code == OP_TFMODS;
}

/* DPS: a scalar value operand of such an op is converted to the element type first; `names` and
 * `types` (from hoist_literals) then name and type the converted value. */
static void convert_scalars(Printer *p, const Op *op, const char **names, const Type **types) {
    if (!scalar_needs_elem_type(op->code)) return;
    const Type *tile = first_tile_type(op);
    if (!tile) return;
    for (int i = 0; i < op->ins.count; i++) {
        const Operand *o = &op->ins.items[i];
        if (!(ins_kinds(op, i) & K_SCALAR) || !types[i] || types[i]->kind != TY_SCALAR) continue;
        const char *name = names[i] ? names[i] : o->kind == OPD_VALUE && o->value ? o->value->name : NULL;
        if (!name) continue;
        const char *cast = print_cast(p, name, types[i], tile->dtype);
        if (cast) {
            names[i] = cast;
            types[i] = type_new_scalar(p->arena, tile->dtype);
        }
    }
}

/* DPS: the name of an address operand as PTOAS takes it, an i64 (`alloc_tile addr = %a`,
 * `tassign %t, %a`): a literal or @tile(N) becomes `arith.constant N : i64`, an index or other
 * integer value is converted first. */
static const char *address_i64(Printer *p, const Operand *o) {
    if (o->kind == OPD_INT || o->kind == OPD_TILE_ADDR) {
        const char *name = fresh_name(p, arena_printf(p->arena, "c%lld_i64", (long long)o->ival));
        out_indent(p);
        outf(p, "%%%s = arith.constant %lld : i64\n", name, (long long)o->ival);
        return name;
    }
    if (o->kind != OPD_VALUE || !o->value) return NULL;
    const char *cast = print_cast(p, o->value->name, o->value->type, DT_I64);
    return cast ? cast : o->value->name;
}

/* The `pto.tassign %t, ADDR` (no result) that DPS output folds into %t's `alloc_tile addr =`, or
 * NULL. Folded: the only such tassign of %t, when %t is made by an alloc_tile without an address or
 * is the result of an SSA-form op (whose alloc_tile the printer writes), and ADDR is a literal or
 * is defined before %t. PTOAS's tassign returns a new handle instead. */
static const Op *folded_tassign(const Printer *p, const Value *tile) {
    for (size_t i = 0; i < p->folded.count; i++) {
        const Op *t = p->folded.items[i];
        if (t->ins.items[0].value == tile) return t;
    }
    return NULL;
}

static bool defined_before(const Value *v, const Op *op) {
    if (!v->def) return true; /* an argument */
    for (const Op *o = op->prev; o; o = o->prev)
        if (o == v->def) return true;
    return false;
}

static void collect_tassigns(Printer *p, const Block *b, PtrVec *all) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        if (op->code == OP_TASSIGN && op->n_results == 0 && op->ins.count == 2 && op->ins.items[0].kind == OPD_VALUE &&
            op->ins.items[0].value)
            ptrvec_push(p->arena, all, (void *)op);
        for (int i = 0; i < op->n_regions; i++) collect_tassigns(p, op->regions[i].block, all);
    }
}

static void find_folded_tassigns(Printer *p, const Func *f) {
    p->folded = (PtrVec){0};
    if (p->form == PRINT_SSA) return;
    PtrVec all = {0};
    collect_tassigns(p, f->body.block, &all);
    for (size_t i = 0; i < all.count; i++) {
        const Op *t = all.items[i];
        const Value *tile = t->ins.items[0].value;
        const Op *def = tile->def;
        int n = 0;
        for (size_t j = 0; j < all.count; j++) n += ((const Op *)all.items[j])->ins.items[0].value == tile;
        if (n != 1 || !def) continue;
        bool alloc = def->code == OP_ALLOC_TILE && !op_kwarg(def, "addr");
        bool ssa_dps = (op_info(def->code)->flags & OPF_DPS) && def->n_results > 0 && def->results[0] == tile;
        const Operand *a = &t->ins.items[1];
        bool addr_ok = a->kind == OPD_INT || a->kind == OPD_TILE_ADDR || (a->kind == OPD_VALUE && a->value && defined_before(a->value, def));
        if ((alloc || ssa_dps) && addr_ok) ptrvec_push(p->arena, &p->folded, (void *)t);
    }
}

/* The lowering function of each row: the elementwise families (lower_elementwise,
 * lower_tile_scalar) give an SSA-form result the valid shape of their first source tile. */
static const char *const lower_fn_names[OP_COUNT] = {
#define OP(id, nm, asm_nm, klass, ins, outs, kws, nres, flg, verify_fn, lower_fn, dts, elem, attrs) [OP_##id] = #lower_fn,
#include "ops.def"
#undef OP
};

/* Finds the values that hold the run-time valid shape of tile `v` when its type has a `?` valid
 * dimension: the valid_row/valid_col operands of the alloc_tile that made it, through SSA-form
 * elementwise ops (whose result takes their first source tile's valid shape). */
static bool sets_validshape(const Block *b, const Value *v) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        if (op->code == OP_SET_VALIDSHAPE && op->ins.count && op->ins.items[0].value == v) return true;
        for (int i = 0; i < op->n_regions; i++)
            if (sets_validshape(op->regions[i].block, v)) return true;
    }
    return false;
}

/* The outermost block around `op` (its function's body). */
static const Block *outermost_block(const Op *op) {
    const Block *b = op->parent;
    while (b && b->parent && b->parent->parent && b->parent->parent->parent) b = b->parent->parent->parent;
    return b;
}

static bool dynamic_valid_operands(const Value *v, const Operand **vr, const Operand **vc) {
    for (int depth = 0; v && depth < 1000; depth++) {
        const Op *def = v->def;
        if (!def) return false;
        if (sets_validshape(outermost_block(def), v)) return false; /* its valid shape changes at run time */
        if (def->code == OP_ALLOC_TILE) {
            const KeywordArg *r = op_kwarg(def, "valid_row"), *c = op_kwarg(def, "valid_col");
            if (!r || !c || !r->list.count || !c->list.count) return false;
            *vr = &r->list.items[0];
            *vc = &c->list.items[0];
            return true;
        }
        const char *fn = lower_fn_names[def->code];
        if (!fn || (strcmp(fn, "lower_elementwise") != 0 && strcmp(fn, "lower_tile_scalar") != 0) || def->n_results == 0 ||
            def->results[0] != v)
            return false;
        const Value *src = NULL;
        for (int i = 0; i < def->ins.count && !src; i++) {
            const Operand *o = &def->ins.items[i];
            if (o->kind == OPD_VALUE && o->value && o->value->type && o->value->type->kind == TY_TILE) src = o->value;
        }
        if (!src || src->type->tile.valid_rows != DIM_DYNAMIC || src->type->tile.valid_cols != DIM_DYNAMIC) return false;
        v = src;
    }
    return false;
}

/* ---- addresses for automatic tiles beside manual ones (DPS) ------------------------------------ */

/* PTOAS places the tiles of a module either all itself (levels 1 and 2, where `addr` is refused) or
 * takes every address from the text (level 3). pto-as runs a mix: manual tiles at their addresses,
 * automatic ones in storage of their own that nothing else aliases. DPS output gives that mix one
 * level: each automatic tile gets an address of its own, disjoint from every manual placement of
 * the module, from every other automatic tile (no reuse: none aliases another, as in pto-run) and,
 * in UB, from the A2/A3 row-expand scratch; within the smaller of the two targets' buffers unless
 * the module names A5. When a manual address is not a constant, or the tiles do not fit, nothing is
 * planned and the text stays as written. */
typedef struct PlanRange {
    TileLoc loc;
    int64_t begin, end;
} PlanRange;

typedef struct Plan {
    Arena *arena;
    PtrVec ranges;          /* PlanRange *: taken (manual, then planned) */
    PtrVec autos;           /* PlacedTile *: to place, key and (after planning) address */
    PtrVec auto_types;      /* const Type *: the tile type of each of `autos` */
    PtrVec tassigned;       /* Value *: tiles bound by a tassign (manual) */
    PtrVec bound;           /* PlacedTile *: a tassigned tile and its first tassign's constant address,
                             * which its alloc_tile takes when the tassign is not folded into it */
    bool unplannable;       /* a manual address that is not a constant */
} Plan;

/* A constant address: a literal, @tile(N), or an arith.constant integer. */
static bool constant_address(const Operand *o, int64_t *out) {
    if (o->kind == OPD_INT || o->kind == OPD_TILE_ADDR) {
        *out = o->ival;
        return true;
    }
    const Op *def = o->kind == OPD_VALUE && o->value ? o->value->def : NULL;
    if (!def || def->code != OP_CONSTANT || def->ins.count < 1 || def->ins.items[0].kind != OPD_INT) return false;
    *out = def->ins.items[0].ival;
    return true;
}

static void plan_manual(Plan *pl, const Type *t, const Operand *addr) {
    int64_t a, bytes;
    if (!t || t->kind != TY_TILE) return;
    if (!constant_address(addr, &a) || !tile_footprint_bytes(&t->tile, &bytes)) {
        pl->unplannable = true;
        return;
    }
    PlanRange *r = arena_alloc(pl->arena, sizeof *r);
    *r = (PlanRange){t->tile.loc, a, a + bytes};
    ptrvec_push(pl->arena, &pl->ranges, r);
}

static void plan_auto(Plan *pl, const void *key, const Type *t) {
    if (!t || t->kind != TY_TILE) return;
    PlacedTile *x = arena_alloc(pl->arena, sizeof *x);
    *x = (PlacedTile){key, -1};
    ptrvec_push(pl->arena, &pl->autos, x);
    ptrvec_push(pl->arena, &pl->auto_types, (void *)t);
}

static bool tassigned(const Plan *pl, const Value *v) {
    for (size_t i = 0; i < pl->tassigned.count; i++)
        if (pl->tassigned.items[i] == v) return true;
    return false;
}

static void plan_collect_tassigns(Plan *pl, const Block *b) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        if (op->code == OP_TASSIGN && op->ins.count == 2 && op->ins.items[0].kind == OPD_VALUE && op->ins.items[0].value) {
            const Value *tile = op->ins.items[0].value;
            int64_t a;
            if (!tassigned(pl, tile) && constant_address(&op->ins.items[1], &a)) {
                PlacedTile *x = arena_alloc(pl->arena, sizeof *x);
                *x = (PlacedTile){tile, a};
                ptrvec_push(pl->arena, &pl->bound, x);
            }
            ptrvec_push(pl->arena, &pl->tassigned, (void *)tile);
            plan_manual(pl, tile->type, &op->ins.items[1]);
        }
        for (int i = 0; i < op->n_regions; i++) plan_collect_tassigns(pl, op->regions[i].block);
    }
}

static void plan_collect_tiles(Plan *pl, const Block *b) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        const KeywordArg *addr = op->code == OP_ALLOC_TILE ? op_kwarg(op, "addr") : NULL;
        const Value *r = op->n_results > 0 ? op->results[0] : NULL;
        if (addr && addr->list.count && r)
            plan_manual(pl, r->type, &addr->list.items[0]);
        else if (r && !tassigned(pl, r) &&
                 (op->code == OP_ALLOC_TILE || ((op_info(op->code)->flags & OPF_DPS) && op->code != OP_TASSIGN)))
            plan_auto(pl, r, r->type); /* an alloc_tile without address, or an SSA-form op's result */
        if (op->code == OP_RESERVE_BUFFER && !op_attr_value(op, "auto", AK_BOOL, 1)) { /* a manual FIFO slot buffer */
            int64_t base = op_attr_value(op, "base", AK_INT, 0), size = op_attr_value(op, "size", AK_INT, 0);
            PlanRange *rr = arena_alloc(pl->arena, sizeof *rr);
            *rr = (PlanRange){op_attr_value(op, "location", AK_ADDRESS_SPACE, 0) == 1 ? LOC_MAT : LOC_VEC, base, base + size};
            ptrvec_push(pl->arena, &pl->ranges, rr);
        }
        if (op->code == OP_TROWPROD && op->ins.count == 1 && op->ins.items[0].kind == OPD_VALUE && op->ins.items[0].value)
            plan_auto(pl, op, op->ins.items[0].value->type); /* the tmp DPS output adds (missing_tmp) */
        for (int i = 0; i < op->n_regions; i++) plan_collect_tiles(pl, op->regions[i].block);
    }
}

/* The lowest address at or above `from`, aligned, where [addr, addr + bytes) meets no taken range
 * of loc; -1 when none fits under cap. */
static int64_t plan_fit(const Plan *pl, TileLoc loc, int64_t bytes, int64_t align, int64_t cap) {
    int64_t addr = 0;
    for (bool moved = true; moved;) {
        moved = false;
        for (size_t i = 0; i < pl->ranges.count; i++) {
            const PlanRange *r = pl->ranges.items[i];
            if (r->loc == loc && addr < r->end && r->begin < addr + bytes) {
                addr = (r->end + align - 1) / align * align;
                moved = true;
            }
        }
        if (addr + bytes > cap) return -1;
    }
    return addr;
}

static void plan_placement(Printer *p, const Module *m) {
    p->placed = NULL, p->n_placed = 0;
    if (p->form == PRINT_SSA) return;
    Plan pl = {.arena = p->arena};
    for (int i = 0; i < m->n_funcs; i++) plan_collect_tassigns(&pl, m->funcs[i]->body.block);
    for (int i = 0; i < m->n_funcs; i++) plan_collect_tiles(&pl, m->funcs[i]->body.block);
    if (pl.unplannable || pl.ranges.count == 0 || pl.autos.count == 0) pl.autos.count = 0; /* only `bound` */
    Target target = m->has_target_attr ? m->file_target : TARGET_A2A3; /* A2/A3's buffers are the smaller */
    PlanRange *scratch = arena_alloc(p->arena, sizeof *scratch);
    *scratch = (PlanRange){LOC_VEC, 0x2E000, 0x30000};
    ptrvec_push(p->arena, &pl.ranges, scratch);
    for (size_t i = 0; i < pl.autos.count; i++) {
        PlacedTile *x = pl.autos.items[i];
        const TileType *t = &((const Type *)pl.auto_types.items[i])->tile;
        int64_t bytes, align = t->loc == LOC_VEC ? 32 : 512;
        if (!tile_footprint_bytes(t, &bytes)) bytes = -1;
        x->addr = bytes < 0 ? -1 : plan_fit(&pl, t->loc, bytes, align, buffer_capacity_bytes(target, t->loc));
        if (x->addr < 0) { /* does not fit: no automatic tile is placed */
            pl.autos.count = 0;
            break;
        }
        PlanRange *r = arena_alloc(p->arena, sizeof *r);
        *r = (PlanRange){t->loc, x->addr, x->addr + bytes};
        ptrvec_push(p->arena, &pl.ranges, r);
    }
    size_t n = pl.autos.count + pl.bound.count;
    p->placed = arena_alloc_array(p->arena, n ? n : 1, sizeof *p->placed);
    for (size_t i = 0; i < pl.autos.count; i++) p->placed[p->n_placed++] = *(const PlacedTile *)pl.autos.items[i];
    for (size_t i = 0; i < pl.bound.count; i++) p->placed[p->n_placed++] = *(const PlacedTile *)pl.bound.items[i];
}

/* The planned address of the automatic tile `key` (a Value, or a trowprod op), as an i64 constant
 * printed before it; NULL when none was planned. */
static const char *planned_address(Printer *p, const void *key) {
    for (size_t i = 0; i < p->n_placed; i++)
        if (p->placed[i].key == key) {
            Operand lit = {.kind = OPD_INT, .ival = p->placed[i].addr};
            return address_i64(p, &lit);
        }
    return NULL;
}

/* DPS: `%t = pto.alloc_tile [addr = %a] [valid_row = %r] [valid_col = %c] : T`; `addr` from the
 * op or from its folded tassign, as an i64. `tile` names the result, `from` holds the keywords
 * (NULL: none). */
static void print_alloc_dps(Printer *p, const Value *tile, const Op *from) {
    const KeywordArg *addr = from ? op_kwarg(from, "addr") : NULL;
    const Op *t = folded_tassign(p, tile);
    const char *addr_name = NULL;
    if (addr && addr->list.count) addr_name = address_i64(p, &addr->list.items[0]);
    else if (t) addr_name = address_i64(p, &t->ins.items[1]);
    else addr_name = planned_address(p, tile);
    const char *valid[2] = {NULL, NULL};
    static const char *const keys[2] = {"valid_row", "valid_col"};
    const Operand *inherited[2] = {NULL, NULL};
    const Type *tt = tile->type;
    if (!from && tt && tt->kind == TY_TILE && (tt->tile.valid_rows == DIM_DYNAMIC || tt->tile.valid_cols == DIM_DYNAMIC))
        dynamic_valid_operands(tile, &inherited[0], &inherited[1]);
    for (int k = 0; k < 2; k++) {
        const KeywordArg *kw = from ? op_kwarg(from, keys[k]) : NULL;
        OperandList one = {(Operand *)inherited[k], 1};
        const OperandList *list = kw && kw->list.count ? &kw->list : inherited[k] ? &one : NULL;
        if (!list) continue;
        const char **n = hoist_literals(p, from ? from : tile->def, list, kw_kinds, NULL);
        const Operand *o = &list->items[0];
        valid[k] = n[0] ? n[0] : o->value ? o->value->name : o->text;
    }
    out_indent(p);
    if (p->form == PRINT_GENERIC) {
        /* "pto.alloc_tile"(addr?, valid_row?, valid_col?) <{operandSegmentSizes = ...}> : (...) -> T */
        outf(p, "%%%s = \"pto.alloc_tile\"(", tile->name);
        const char *names[3] = {addr_name, valid[0], valid[1]};
        bool any = false;
        for (int k = 0; k < 3; k++)
            if (names[k]) {
                outf(p, "%s%%%s", any ? ", " : "", names[k]);
                any = true;
            }
        outf(p, ") <{operandSegmentSizes = array<i32: %d, %d, %d>}> : (", addr_name != NULL, valid[0] != NULL, valid[1] != NULL);
        any = false;
        for (int k = 0; k < 3; k++)
            if (names[k]) {
                outf(p, "%s%s", any ? ", " : "", k == 0 ? "i64" : "index");
                any = true;
            }
        outf(p, ") -> %s\n", type_text(p, tile->type));
        return;
    }
    outf(p, "%%%s = pto.alloc_tile", tile->name);
    if (addr_name) outf(p, " addr = %%%s", addr_name);
    for (int k = 0; k < 2; k++)
        if (valid[k]) outf(p, " %s = %%%s", keys[k], valid[k]);
    outf(p, " : %s\n", type_text(p, tile->type));
}

/* PTOAS requires a tmp tile where pto-as makes it optional (trowprod): DPS output allocates one,
 * of src's type (PTOAS: same element type and valid shape as src). Returns its name or NULL. */
static const char *missing_tmp(Printer *p, const Op *op) {
    if (op->code != OP_TROWPROD || op->ins.count != 1 || op->ins.items[0].kind != OPD_VALUE || !op->ins.items[0].value)
        return NULL;
    const Type *src = op->ins.items[0].value->type;
    if (!src || src->kind != TY_TILE) return NULL;
    const char *name = fresh_name(p, "tmp");
    const char *addr = planned_address(p, op);
    out_indent(p);
    if (p->form == PRINT_GENERIC && addr)
        outf(p, "%%%s = \"pto.alloc_tile\"(%%%s) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i64) -> %s\n", name, addr,
             type_text(p, src));
    else if (p->form == PRINT_GENERIC)
        outf(p, "%%%s = \"pto.alloc_tile\"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> %s\n", name, type_text(p, src));
    else if (addr)
        outf(p, "%%%s = pto.alloc_tile addr = %%%s : %s\n", name, addr, type_text(p, src));
    else
        outf(p, "%%%s = pto.alloc_tile : %s\n", name, type_text(p, src));
    return name;
}

/* ---- DPS ops ----------------------------------------------------------------------------- */

static unsigned outs_kinds(const Op *op, int i) {
    const OpInfo *info = op_info(op->code);
    int n = opspec_count(info->outs, 2);
    return i < n ? info->outs[i].kinds : K_ANY;
}

/* operandSegmentSizes of an op of an overload set (OPF_OVERLOAD): 1 for each input before dst and
 * for dst, then each row's inputs after dst in row order, 1 when this op binds it (tmov: src, dst,
 * fp, preQuantScalar); NULL for an op in no set. */
static const char *overload_segments(Printer *p, const Op *op) {
    OpCode first;
    int rows = op_overload_set(op->code, &first);
    if (rows < 2) return NULL;
    const OpInfo *own = op_info(op->code);
    size_t dst = ptoas_dst_index(op->code, (size_t)op->ins.count + 1);
    const char *text = "";
    for (size_t i = 0; i < dst; i++) text = arena_printf(p->arena, "%s1, ", text);
    text = arena_printf(p->arena, "%s1", text);
    for (int r = 0; r < rows; r++) {
        const OpInfo *info = op_info((OpCode)(first + r));
        int n = opspec_count(info->ins, OPSPEC_MAX);
        for (int i = (int)dst; i < n; i++)
            text = arena_printf(p->arena, "%s, %d", text, info == own && i < op->ins.count ? 1 : 0);
    }
    return text;
}

/* Whether the rows of op's overload set differ in their outs (tmrgsort: dst, or dst and executed):
 * PTOAS's generic form then segments its operands in a way overload_segments does not model, so
 * such an op prints in its custom form, which PTOAS reads too. */
static bool overload_outs_differ(OpCode code) {
    OpCode first;
    int rows = op_overload_set(code, &first);
    for (int r = 1; r < rows; r++)
        if (opspec_count(op_info((OpCode)(first + r))->outs, 2) != opspec_count(op_info(first)->outs, 2)) return true;
    return false;
}

/* MLIR's generic form of a DPS op: `"pto.OP"(operands in PTOAS's order) <{attributes}> : (types)
 * -> ()`; tload and tmov name their (absent) optional operands in operandSegmentSizes. */
static void print_generic_dps(Printer *p, const Op *op, const char **in_names, const Type **in_types, const char **out_names,
                              const Type **out_types, const char *tmp) {
    const OpInfo *info = op_info(op->code);
    bool has_dst = op->outs.count > 0 || op->n_results > 0;
    size_t n_ins = (size_t)op->ins.count + (tmp ? 1 : 0), n = n_ins + (has_dst ? 1 : 0);
    const char **names = arena_alloc_array(p->arena, n ? n : 1, sizeof *names);
    const Type **types = arena_alloc_array(p->arena, n ? n : 1, sizeof *types);
    size_t dst = has_dst ? ptoas_dst_index(op->code, n) : n;
    const Value *result = op->n_results ? op->results[0] : NULL;
    for (size_t i = 0, k = 0; i < n; i++) {
        if (i == dst) {
            names[i] = result ? result->name : out_names[0] ? out_names[0] : op->outs.items[0].value ? op->outs.items[0].value->name : "?";
            types[i] = result ? result->type : out_types[0];
            continue;
        }
        if (k < (size_t)op->ins.count) {
            const Operand *o = &op->ins.items[k];
            names[i] = in_names[k] ? in_names[k] : o->value ? o->value->name : o->text;
            types[i] = in_types[k];
        } else {
            names[i] = tmp;
            types[i] = operand_type(&op->ins.items[0]);
        }
        k++;
    }
    out_indent(p);
    outf(p, "\"%s\"(", info->name);
    for (size_t i = 0; i < n; i++) outf(p, "%s%%%s", i ? ", " : "", names[i]);
    out(p, ")");
    const char *segments = op->code == OP_TLOAD ? "1, 1, 0, 0, 0, 0" : overload_segments(p, op);
    if (segments || op->attrs.count) {
        out(p, " <{");
        if (segments) outf(p, "operandSegmentSizes = array<i32: %s>%s", segments, op->attrs.count ? ", " : "");
        if (op->attrs.count) { /* the dictionary's entries, without its braces */
            size_t mark = p->len;
            print_attr_dict(p, &op->attrs);
            if (!p->failed) {
                memmove(p->buf + mark, p->buf + mark + 1, p->len - mark - 2);
                p->len -= 2;
                p->buf[p->len] = '\0';
            }
        }
        out(p, "}>");
    }
    out(p, " : (");
    print_types(p, types, (int)n);
    out(p, ") -> ()\n");
}

/* Whether a non-DPS op prints in generic form under PRINT_GENERIC: plain operands and results,
 * no keyword groups, predicate, attribute arguments, region or literal (constant) value. */
static bool prints_generic(const Op *op) {
    const OpInfo *info = op_info(op->code);
    return op->n_kwargs == 0 && !op->predicate && op->attr_args.count == 0 && op->n_regions == 0 &&
           !(info->flags & OPF_LITERAL) && op->code != OP_CONSTANT && info->cls != CLS_SYNC && info->cls != CLS_CONTROL &&
           op->code != OP_TASSIGN && op->code != OP_CALL && op->code != OP_RETURN;
}

/* A DPS op whose result is a scalar (OPF_SCALAR_RESULT, tgetval): PTOAS's `%r = op ins(%a, %b : A, B)
 * outs : R`, or the generic `%r = "op"(%a, %b) : (A, B) -> R`. */
static void print_scalar_result_op(Printer *p, const Op *op, const char **in_names, const Type **in_types) {
    const OpInfo *info = op_info(op->code);
    const Type *r = op->n_results ? op->results[0]->type : NULL;
    out_indent(p);
    print_results(p, op);
    if (p->form == PRINT_GENERIC) {
        outf(p, "\"%s\"(", info->name);
        for (int i = 0; i < op->ins.count; i++) {
            const Operand *o = &op->ins.items[i];
            outf(p, "%s%%%s", i ? ", " : "", in_names[i] ? in_names[i] : o->value ? o->value->name : o->text);
        }
        out(p, ") : (");
        print_types(p, in_types, op->ins.count);
        outf(p, ") -> %s\n", r ? type_text(p, r) : "?");
        return;
    }
    outf(p, "%s ins(", info->name);
    print_list(p, &op->ins, in_names);
    out(p, " : ");
    print_types(p, in_types, op->ins.count);
    outf(p, ") outs : %s\n", r ? type_text(p, r) : "?");
}

static void print_dps_op_dps(Printer *p, const Op *op) {
    const OpInfo *info = op_info(op->code);
    const Type **in_types, **out_types;
    const char **in_names = hoist_literals(p, op, &op->ins, ins_kinds, &in_types);
    const char **out_names = hoist_literals(p, op, &op->outs, outs_kinds, &out_types);
    convert_scalars(p, op, in_names, in_types);
    if (info->flags & OPF_SCALAR_RESULT) {
        print_scalar_result_op(p, op, in_names, in_types);
        return;
    }
    const char *tmp = missing_tmp(p, op);
    if (op->n_results > 0) /* written in SSA form: the result needs storage of its own before the DPS op */
        print_alloc_dps(p, op->results[0], NULL);
    for (int i = 1; i < op->n_results; i++) { /* a second destination (tmrgsort's executed vector) */
        const Value *r = op->results[i];
        if (r->type && r->type->kind == TY_TILE) {
            print_alloc_dps(p, r, NULL);
        } else {
            out_indent(p);
            outf(p, "%%%s = arith.constant dense<0> : %s\n", r->name, type_text(p, r->type));
        }
    }
    bool generic_only = false;
    for (int i = 0; i < op->ins.count; i++) generic_only = generic_only || (ins_flags(op, i) & SPEC_GENERIC_ONLY);
    /* no operands at all: PTOAS's `ins(...)` formats cannot be written empty (it prints `pto.tsync
     * ins( : )` itself, and does not read that back) */
    generic_only = generic_only || (op->ins.count == 0 && op->outs.count == 0);
    if ((p->form == PRINT_GENERIC || generic_only) && op->code != OP_TGATHER && op->outs.count <= 1 && op->n_results <= 1 &&
        !overload_outs_differ(op->code)) {
        print_generic_dps(p, op, in_names, in_types, out_names, out_types, tmp);
        return;
    }
    out_indent(p);
    out(p, info->name);
    /* PTOAS's parsers read tcvt's attributes inside ins(...) (TCvtOp::parse), and the mask form of
     * tgather as `ins(%src, {maskPattern = ...} : T)` */
    bool dict_in_ins = op->attrs.count && op->ins.count && ((info->flags & OPF_ATTRS_IN_INS) || op->code == OP_TCVT);
    bool dict_as_operand = op->attrs.count && op->code == OP_TGATHER && op->ins.count == 1;
    if (dict_as_operand) dict_in_ins = true;
    /* OPF_STRING_IN_INS: the row's string attribute leads ins(...), `ins("x = %f", %v : f32)` */
    AttrList rest = op->attrs;
    const Attr *lead = NULL;
    for (int j = 0; (info->flags & OPF_STRING_IN_INS) && j < ATTRSPEC_MAX && info->attrs[j].name && !lead; j++)
        if (info->attrs[j].kind == AK_STRING) lead = attr_find(&op->attrs, info->attrs[j].name);
    if (lead && lead->kind == ATTR_STRING) {
        rest.items = arena_alloc_array(p->arena, (size_t)op->attrs.count, sizeof *rest.items);
        rest.count = 0;
        for (int j = 0; j < op->attrs.count; j++)
            if (&op->attrs.items[j] != lead) rest.items[rest.count++] = op->attrs.items[j];
    } else {
        lead = NULL;
    }
    if (op->ins.count && (info->flags & OPF_TYPED_INS) && !tmp && !dict_in_ins) { /* `ins(%a : Ta, %b : Tb)` */
        out(p, " ins(");
        if (lead) {
            print_attr_value(p, lead);
            out(p, ", ");
        }
        print_typed_operands(p, &op->ins, in_names, in_types);
        out(p, ")");
    } else if (op->ins.count) {
        out(p, " ins(");
        print_list(p, &op->ins, in_names);
        if (tmp) outf(p, ", %%%s", tmp);
        if (dict_in_ins) {
            out(p, dict_as_operand ? ", " : " ");
            print_attr_dict(p, &op->attrs);
        }
        out(p, " : ");
        print_types(p, in_types, op->ins.count);
        if (tmp) outf(p, ", %s", type_text(p, operand_type(&op->ins.items[0])));
        out(p, ")");
    }
    if (op->outs.count) {
        out(p, " outs(");
        print_list(p, &op->outs, out_names);
        out(p, " : ");
        print_types(p, out_types, op->outs.count);
        out(p, ")");
    }
    if (rest.count && !dict_in_ins) {
        out(p, " ");
        print_attr_dict(p, &rest);
    }
    out(p, "\n");
}

static void print_dps_op_ssa(Printer *p, const Op *op) {
    const OpInfo *info = op_info(op->code);
    if (info->flags & OPF_STRING_IN_INS) { /* no SSA spelling: PTOAS's form is the only custom one */
        print_dps_op_dps(p, op);
        return;
    }
    /* operands written positionally end in every destination the row has (the parser's split):
     * an op that leaves an optional one out (tgather's index form: no cdst) keeps ins/outs */
    if (op->n_results == 0 && op->outs.count < opspec_count(info->outs, 2)) {
        print_dps_op_dps(p, op);
        return;
    }
    const Type **in_types, **out_types;
    hoist_literals(p, op, &op->ins, ins_kinds, &in_types);
    bool ssa_result = op->n_results > 0;
    const OperandList *outs = ssa_result ? NULL : &op->outs;
    if (outs) hoist_literals(p, op, outs, outs_kinds, &out_types);
    out_indent(p);
    print_results(p, op);
    out(p, info->name);
    int n = op->ins.count + (outs ? outs->count : 0);
    for (int i = 0; i < op->ins.count; i++) {
        out(p, i ? ", " : " ");
        print_operand(p, &op->ins.items[i]);
    }
    for (int i = 0; outs && i < outs->count; i++) {
        out(p, op->ins.count + i ? ", " : " ");
        print_operand(p, &outs->items[i]);
    }
    if (op->attrs.count) {
        out(p, " ");
        print_attr_dict(p, &op->attrs);
    }
    if (ssa_result) {
        out(p, " : (");
        print_types(p, in_types, op->ins.count);
        if (op->n_results == 1) {
            outf(p, ") -> %s", type_text(p, op->results[0]->type));
        } else {
            out(p, ") -> (");
            for (int i = 0; i < op->n_results; i++) outf(p, "%s%s", i ? ", " : "", type_text(p, op->results[i]->type));
            out(p, ")");
        }
    } else if (n > 0) {
        out(p, " : ");
        print_types(p, in_types, op->ins.count);
        if (outs && outs->count) {
            if (op->ins.count) out(p, ", ");
            print_types(p, out_types, outs->count);
        }
    }
    out(p, "\n");
}

/* ---- other ops: their own syntax ------------------------------------------------------------ */

/* An op's attributes after its operands: the row's ATTR_KEYWORD ones as `NAME VALUE` (subset's
 * `sizes [16, 8]`, integers printed canonically), then the others in a dictionary. */
static void print_keyword_attrs_and_dict(Printer *p, const Op *op) {
    const OpInfo *info = op_info(op->code);
    AttrList rest = {arena_alloc_array(p->arena, (size_t)(op->attrs.count ? op->attrs.count : 1), sizeof(Attr)), 0};
    for (int i = 0; i < op->attrs.count; i++) {
        const Attr *a = &op->attrs.items[i];
        const AttrSpec *spec = a->key ? op_attr_spec(info, a->key) : NULL;
        int64_t vals[8];
        int n = 0;
        if (spec && (spec->flags & ATTR_KEYWORD) && spec->kind == AK_INT_ARRAY && attr_int_array(a, vals, 8, &n)) {
            outf(p, " %s [", a->key);
            for (int j = 0; j < n; j++) outf(p, "%s%lld", j ? ", " : "", (long long)vals[j]);
            out(p, "]");
            continue;
        }
        rest.items[rest.count++] = *a;
    }
    if (rest.count) {
        out(p, " ");
        print_attr_dict(p, &rest);
    }
}

/* The signature style of a custom-syntax op, from its row (SigStyle in ir.h). */
static SigStyle sig_style(const Op *op) {
    SigStyle style = op_sig_style(op_info(op->code));
    const Type *r = op->n_results ? op->results[0]->type : NULL;
    const Operand *v0 = op->ins.count ? &op->ins.items[0] : NULL;
    switch (style) {
    case SIG_RESULT: /* `arith.constant true` carries no type */
        if (v0 && v0->kind == OPD_BOOL && r && r->kind == TY_SCALAR && r->dtype == DT_I1) return SIG_NONE;
        return SIG_RESULT;
    case SIG_ARROW: /* an optional result: `: T0 -> R` with it, `: T0` (when known) without */
        if (op->n_results) return SIG_ARROW;
        return v0 && v0->type ? SIG_OPERAND0 : SIG_NONE;
    case SIG_DEFAULT:
        if (op->n_results) return SIG_FUNCTION;
        return op->ins.count ? SIG_OPERANDS : SIG_NONE;
    default:
        return style;
    }
}


/* `%r = PREFIXNAME(%a, %b`: an op written as a call, up to its operands (the caller closes it). */
static void print_call_head(Printer *p, const Op *op, const char *prefix, const char *name, const char **names) {
    out_indent(p);
    print_results(p, op);
    outf(p, "%s%s(", prefix, name);
    print_list(p, &op->ins, names);
}
static void print_custom_op(Printer *p, const Op *op) {
    const OpInfo *info = op_info(op->code);
    if (p->form != PRINT_SSA && op->code == OP_TASSIGN) {
        if (op->n_results == 0 && folded_tassign(p, op->ins.items[0].value) == op) return; /* in the alloc_tile */
        if (op->ins.count == 2 && op->n_results == 1) { /* `%r = pto.tassign %t, %a : T -> T` with an i64 address */
            const char *a = address_i64(p, &op->ins.items[1]);
            out_indent(p);
            print_results(p, op);
            out(p, "pto.tassign ");
            print_operand(p, &op->ins.items[0]);
            outf(p, ", %%%s : %s -> %s\n", a ? a : "?", type_text(p, operand_type(&op->ins.items[0])),
                 type_text(p, op->results[0]->type));
            return;
        }
    }
    if (p->form != PRINT_SSA && op->code == OP_ALLOC_TILE && op->n_results == 1) {
        print_alloc_dps(p, op->results[0], op);
        return;
    }
    const Type **types;
    bool hoist = !(info->flags & OPF_LITERAL);
    const char **names = NULL;
    if (hoist) {
        names = hoist_literals(p, op, &op->ins, ins_kinds, &types);
    } else {
        types = arena_alloc_array(p->arena, (size_t)(op->ins.count ? op->ins.count : 1), sizeof *types);
        for (int i = 0; i < op->ins.count; i++) types[i] = operand_type(&op->ins.items[i]);
    }
    /* keyword operands: immediates hoisted too (DPS) */
    const char ***kw_names = arena_alloc_array(p->arena, (size_t)(op->n_kwargs ? op->n_kwargs : 1), sizeof *kw_names);
    for (int k = 0; k < op->n_kwargs; k++) kw_names[k] = hoist_literals(p, op, &op->kwargs[k].list, kw_kinds, NULL);

    if (p->form == PRINT_GENERIC && prints_generic(op)) {
        out_indent(p);
        print_results(p, op);
        outf(p, "\"%s\"(", info->name);
        print_list(p, &op->ins, names);
        out(p, ")");
        if (op->attrs.count) {
            out(p, " ");
            print_attr_dict(p, &op->attrs);
        }
        out(p, " : (");
        print_types(p, types, op->ins.count);
        out(p, ") -> ");
        if (op->n_results == 1) {
            out(p, type_text(p, op->results[0]->type));
        } else {
            out(p, "(");
            for (int i = 0; i < op->n_results; i++) outf(p, "%s%s", i ? ", " : "", type_text(p, op->results[i]->type));
            out(p, ")");
        }
        out(p, "\n");
        return;
    }
    if (op_sig_style(info) == SIG_PAREN) { /* `NAME(%a, %b : A, B) {attrs} -> R` (ops_async.def) */
        print_call_head(p, op, "", info->name, names);
        out(p, " : ");
        print_types(p, types, op->ins.count);
        out(p, ")");
        if (op->attrs.count) {
            out(p, " ");
            print_attr_dict(p, &op->attrs);
        }
        if (op->n_results) outf(p, " -> %s", type_text(p, op->results[0]->type));
        out(p, "\n");
        return;
    }
    out_indent(p);
    print_results(p, op);
    out(p, info->name);
    /* a sync op's operands go inside its bracketed arguments: `pto.set_flag_dyn[<A>, <B>, %e]` */
    bool ins_in_brackets = info->cls == CLS_SYNC && op->attr_args_bracketed && op->attr_args.count;
    if (op->attr_args.count && !op->attr_args_bracketed) {
        /* `pto.barrier <PIPE_ALL>`, `pto.sync.set <PIPE_FIX>, 3`: a pipe is printed `<WORD>` as PTOAS
         * prints it (also when written `#pto.pipe<WORD>`), the rest as written */
        for (int i = 0; i < op->attr_args.count; i++) {
            const Attr *a = &op->attr_args.items[i];
            const char *t = a->text ? a->text : "", *w;
            size_t n;
            out(p, i ? ", " : " ");
            if (t[0] != '<' && strchr(t, '<') && attr_enum_word(a, &w, &n)) {
                out(p, "<");
                out_bytes(p, w, n);
                out(p, ">");
            } else {
                out(p, t);
            }
        }
    } else if (op->attr_args.count) {
        out(p, op->attr_args_bracketed ? "[" : " <");
        for (int i = 0; i < op->attr_args.count + (ins_in_brackets ? op->ins.count : 0); i++) {
            if (i) out(p, ", ");
            if (i >= op->attr_args.count) {
                int k = i - op->attr_args.count;
                print_operand_or_name(p, &op->ins.items[k], names ? names[k] : NULL);
                continue;
            }
            const char *t = op->attr_args.items[i].text ? op->attr_args.items[i].text : "";
            if (!op->attr_args_bracketed && t[0] == '<') { /* stored with its brackets */
                size_t n = strlen(t);
                out_bytes(p, t + 1, n >= 2 ? n - 2 : 0);
            } else {
                out(p, t);
            }
        }
        out(p, op->attr_args_bracketed ? "]" : ">");
    }
    bool first = !(op->attr_args.count && !op->attr_args_bracketed); /* operands after `<PIPE>`: `, %e` */
    if (op->predicate) {
        outf(p, " %s", op->predicate);
        first = false;
    }
    bool value_first = (info->flags & OPF_VALUE_FIRST) && op->ins.count > 1; /* `%v, %ptr[%i]` */
    if (value_first && !ins_in_brackets) {
        outf(p, "%s", first ? " " : ", ");
        first = false;
        print_operand_or_name(p, &op->ins.items[op->ins.count - 1], names ? names[op->ins.count - 1] : NULL);
    }
    for (int i = 0; i < op->ins.count - (value_first ? 1 : 0) && !ins_in_brackets; i++) {
        /* SPEC_INDEX positions go in brackets right after the operand before them: `%arr[%i], %v` */
        bool idx = i > 0 && i < OPSPEC_MAX && (info->ins[i].flags & SPEC_INDEX);
        bool idx_before = idx && i > 1 && (info->ins[i - 1].flags & SPEC_INDEX);
        bool idx_after = i + 1 < op->ins.count && i + 1 < OPSPEC_MAX && (info->ins[i + 1].flags & SPEC_INDEX);
        out(p, idx ? (idx_before ? ", " : "[") : first ? " " : ", ");
        first = false;
        print_operand_or_name(p, &op->ins.items[i], names ? names[i] : NULL);
        if (idx && !idx_after) out(p, "]");
    }
    bool comma_kwargs = op->ins.count > 0;
    for (int k = 0; k < op->n_kwargs; k++) {
        const KeywordArg *kw = &op->kwargs[k];
        out(p, first ? " " : comma_kwargs ? ", " : " ");
        first = false;
        outf(p, "%s = ", kw->key);
        if (kw->bracketed) {
            out(p, "[");
            print_list(p, &kw->list, kw_names[k]);
            out(p, "]");
        } else if (kw->list.count) {
            print_operand_or_name(p, &kw->list.items[0], kw_names[k][0]);
        }
    }
    print_keyword_attrs_and_dict(p, op);
    const Type *r = op->n_results ? op->results[0]->type : NULL;
    const Type *t0 = op->ins.count ? types[0] : NULL;
    switch (sig_style(op)) {
    case SIG_NONE:
    case SIG_DEFAULT: /* resolved by sig_style() */
    case SIG_PIPE:    /* print_pipe_op */
    case SIG_PIPE_INIT:
    case SIG_PAREN:   /* printed above */
        break;
    case SIG_RESULT: outf(p, " : %s", type_text(p, r)); break;
    case SIG_OPERAND0:
    case SIG_OPERAND0_VIEW: /* the result type is inferred from the operands (PTOAS's custom form) */
    case SIG_OPERAND0_INDEX: outf(p, " : %s", type_text(p, t0)); break;
    case SIG_ARROW: outf(p, " : %s -> %s", type_text(p, t0), type_text(p, r)); break;
    case SIG_ARROW_ONLY: outf(p, " -> %s", type_text(p, r)); break;
    case SIG_TO: outf(p, " : %s to %s", type_text(p, t0), type_text(p, r)); break;
    case SIG_OPERANDS:
        out(p, " : ");
        if (info->flags & OPF_VALUE_FIRST) /* the types of the unbracketed inputs, in the row's order */
            for (int i = 0, n = 0; i < op->ins.count; i++) {
                if (i < OPSPEC_MAX && (info->ins[i].flags & SPEC_INDEX)) continue;
                outf(p, "%s%s", n++ ? ", " : "", type_text(p, types[i]));
            }
        else
            print_types(p, types, op->ins.count);
        break;
    case SIG_FUNCTION:
        out(p, " : (");
        print_types(p, types, op->ins.count);
        out(p, ") -> ");
        if (op->n_results == 1) {
            out(p, type_text(p, r));
        } else {
            out(p, "(");
            for (int i = 0; i < op->n_results; i++) outf(p, "%s%s", i ? ", " : "", type_text(p, op->results[i]->type));
            out(p, ")");
        }
        break;
    }
    out(p, "\n");
}

/* PTOAS's pipe-op format (ir/ops_pipe.def): `NAME(%t : T) {split = 1}`, `NAME(%r, %c) {split = 1} -> R`,
 * `NAME(%t, %p : T, !pto.pipe) {split = 1}`, `NAME {dir_mask = 1, ...}(%a : A, %b : B) -> !pto.pipe`,
 * `NAME {dir_mask = 1, slot_size = 1024} (key = %v : T, ...)`, `NAME {name = "x", ...} -> i32`; the
 * attributes in the row's order, as PTOAS's custom format requires them. */
/* Whether the optional attributes an op has are a prefix of its row's optional ones: PTOAS's custom
 * format of initialize_l2g2l_pipe / initialize_l2l_pipe starts each optional group with `,`, so
 * its parser reads `, flag_base = 0` as the start of `, local_slot_num = ...` and refuses it. */
static bool optional_attrs_prefix(const OpInfo *info, const Op *op) {
    bool gap = false;
    for (int i = 0; i < ATTRSPEC_MAX && info->attrs[i].name; i++) {
        if (info->attrs[i].flags & ATTR_REQUIRED) continue;
        bool has = attr_find(&op->attrs, info->attrs[i].name) != NULL;
        if (has && gap) return false;
        gap = gap || !has;
    }
    return true;
}

/* A lowered pipe init whose attributes the custom format cannot spell, in MLIR's generic form:
 * `"NAME"(%a, %b) {dir_mask = 1 : i8, slot_size = 1024 : i32, ...} : (A, B) -> !pto.pipe`. */
static void print_pipe_init_generic(Printer *p, const Op *op, const char **names, const Type **types) {
    const OpInfo *info = op_info(op->code);
    outf(p, "\"%s\"(", info->name);
    print_list(p, &op->ins, names);
    out(p, ") {");
    bool first = true;
    for (int i = 0; i < ATTRSPEC_MAX && info->attrs[i].name; i++) {
        const Attr *a = attr_find(&op->attrs, info->attrs[i].name);
        int64_t v;
        if (!a || !attr_value(a, info->attrs[i].kind, &v)) continue;
        outf(p, "%s%s = ", first ? "" : ", ", info->attrs[i].name);
        if (info->attrs[i].kind == AK_BOOL) out(p, v ? "true" : "false");
        else outf(p, "%lld : %s", (long long)v, strcmp(info->attrs[i].name, "dir_mask") == 0 ? "i8" : "i32");
        first = false;
    }
    out(p, "} : (");
    print_types(p, types, op->ins.count);
    outf(p, ") -> %s\n", op->n_results ? type_text(p, op->results[0]->type) : "!pto.pipe");
}

static void print_pipe_op(Printer *p, const Op *op) {
    const OpInfo *info = op_info(op->code);
    const Type **types;
    const char **names = hoist_literals(p, op, &op->ins, ins_kinds, &types);
    const char ***kw_names = arena_alloc_array(p->arena, (size_t)(op->n_kwargs ? op->n_kwargs : 1), sizeof *kw_names);
    const Type ***kw_types = arena_alloc_array(p->arena, (size_t)(op->n_kwargs ? op->n_kwargs : 1), sizeof *kw_types);
    for (int k = 0; k < op->n_kwargs; k++) kw_names[k] = hoist_literals(p, op, &op->kwargs[k].list, kw_kinds, &kw_types[k]);
    out_indent(p);
    print_results(p, op);
    bool init = op_sig_style(info) == SIG_PIPE_INIT; /* `{attrs}(%a : A, %b : B)` */
    if (init && !optional_attrs_prefix(info, op)) {
        print_pipe_init_generic(p, op, names, types);
        return;
    }
    out(p, info->name);
    if (op->ins.count && !init) {
        out(p, "(");
        print_list(p, &op->ins, names);
        if (info->ins[0].kinds & (K_TILE | K_PIPE)) {
            out(p, " : ");
            print_types(p, types, op->ins.count);
        }
        out(p, ")");
    }
    out(p, " {");
    bool first = true;
    for (int i = 0; i < ATTRSPEC_MAX && info->attrs[i].name; i++) {
        const Attr *a = attr_find(&op->attrs, info->attrs[i].name);
        if (!a) continue;
        outf(p, "%s%s = ", first ? "" : ", ", info->attrs[i].name);
        int64_t space, v;
        if (info->attrs[i].kind == AK_ADDRESS_SPACE && attr_value(a, AK_ADDRESS_SPACE, &space)) /* `<vec>` as written */
            outf(p, "#pto.address_space<%s>", attr_enum_name(AK_ADDRESS_SPACE, space));
        else if (info->attrs[i].kind == AK_INT && attr_value(a, AK_INT, &v)) /* `1 : i8` as 1: the custom format's I8Attr */
            outf(p, "%lld", (long long)v);
        else
            print_attr_value(p, a);
        first = false;
    }
    out(p, "}");
    if (init) {
        out(p, "(");
        print_typed_operands(p, &op->ins, names, types);
        out(p, ")");
    }
    first = true;
    for (int j = 0; j < 4 && info->kw[j].name; j++)
        for (int k = 0; k < op->n_kwargs; k++) {
            const KeywordArg *kw = &op->kwargs[k];
            if (strcmp(kw->key, info->kw[j].name) != 0 || kw->list.count != 1) continue;
            outf(p, "%s%s = ", first ? " (" : ", ", kw->key);
            print_operand_or_name(p, &kw->list.items[0], kw_names[k][0]);
            outf(p, " : %s", type_text(p, kw_types[k][0]));
            first = false;
        }
    if (!first) out(p, ")");
    if (op->n_results) outf(p, " -> %s", type_text(p, op->results[0]->type));
    out(p, "\n");
}

/* ---- control structure ------------------------------------------------------------------------ */

static void print_result_types(Printer *p, Type *const *types, int n) {
    out(p, "(");
    for (int i = 0; i < n; i++) outf(p, "%s%s", i ? ", " : "", type_text(p, types[i]));
    out(p, ")");
}

static void print_region_body(Printer *p, const Block *b) {
    p->indent++;
    print_block(p, b);
    p->indent--;
}

static void print_for(Printer *p, const Op *op) {
    const char **names = hoist_literals(p, op, &op->ins, ins_kinds, NULL);
    const Block *body = op->regions[0].block;
    out_indent(p);
    print_results(p, op);
    outf(p, "scf.for %%%s = ", body->args[0]->name);
    print_operand_or_name(p, &op->ins.items[0], names[0]);
    out(p, " to ");
    print_operand_or_name(p, &op->ins.items[1], names[1]);
    out(p, " step ");
    print_operand_or_name(p, &op->ins.items[2], names[2]);
    if (op->ins.count > 3) {
        out(p, " iter_args(");
        for (int i = 3; i < op->ins.count; i++) {
            outf(p, "%s%%%s = ", i > 3 ? ", " : "", body->args[i - 2]->name);
            print_operand_or_name(p, &op->ins.items[i], names[i]);
        }
        out(p, ") -> ");
        print_result_types(p, op->result_types, op->n_result_types);
    }
    const Type *iv = body->args[0]->type;
    if (iv && !(iv->kind == TY_SCALAR && iv->dtype == DT_INDEX)) outf(p, " : %s", type_text(p, iv));
    out(p, " {\n");
    print_region_body(p, body);
    out_indent(p);
    out(p, "}\n");
}

static void print_if(Printer *p, const Op *op) {
    const char **names = hoist_literals(p, op, &op->ins, ins_kinds, NULL);
    out_indent(p);
    print_results(p, op);
    out(p, "scf.if ");
    print_operand_or_name(p, &op->ins.items[0], names[0]);
    if (op->n_result_types) {
        out(p, " -> ");
        print_result_types(p, op->result_types, op->n_result_types);
    }
    out(p, " {\n");
    print_region_body(p, op->regions[0].block);
    out_indent(p);
    out(p, "}");
    const Block *else_block = op->n_regions > 1 ? op->regions[1].block : NULL;
    if (else_block && (else_block->first || op->n_result_types)) {
        out(p, " else {\n");
        print_region_body(p, else_block);
        out_indent(p);
        out(p, "}");
    }
    out(p, "\n");
}

static void print_while(Printer *p, const Op *op) {
    const Type **types;
    const char **names = hoist_literals(p, op, &op->ins, ins_kinds, &types);
    const Block *before = op->regions[0].block, *after = op->regions[1].block;
    out_indent(p);
    print_results(p, op);
    out(p, "scf.while (");
    for (int i = 0; i < op->ins.count; i++) {
        outf(p, "%s%%%s = ", i ? ", " : "", before->args[i]->name);
        print_operand_or_name(p, &op->ins.items[i], names[i]);
    }
    out(p, ") : (");
    for (int i = 0; i < before->n_args; i++) outf(p, "%s%s", i ? ", " : "", type_text(p, before->args[i]->type));
    out(p, ") -> ");
    print_result_types(p, op->result_types, op->n_result_types);
    out(p, " {\n");
    print_region_body(p, before);
    out_indent(p);
    out(p, "} do {\n");
    if (after->n_args) {
        out_indent(p);
        out(p, "^bb0(");
        for (int i = 0; i < after->n_args; i++)
            outf(p, "%s%%%s: %s", i ? ", " : "", after->args[i]->name, type_text(p, after->args[i]->type));
        out(p, "):\n");
    }
    print_region_body(p, after);
    out_indent(p);
    out(p, "}\n");
}

/* return / scf.yield / scf.condition: `KW [(%c)] %a, %b : T, U` */
static void print_terminator(Printer *p, const Op *op, const char *kw, bool condition) {
    const Type **types;
    const char **names = hoist_literals(p, op, &op->ins, ins_kinds, &types);
    out_indent(p);
    out(p, kw);
    int first = 0;
    if (condition && op->ins.count) {
        out(p, "(");
        print_operand_or_name(p, &op->ins.items[0], names[0]);
        out(p, ")");
        first = 1;
    }
    for (int i = first; i < op->ins.count; i++) {
        out(p, i > first ? ", " : " ");
        print_operand_or_name(p, &op->ins.items[i], names[i]);
    }
    if (op->ins.count > first) {
        out(p, " : ");
        print_types(p, types + first, op->ins.count - first);
    }
    out(p, "\n");
}

static void print_call(Printer *p, const Op *op) {
    const Type **types;
    const char **names = hoist_literals(p, op, &op->ins, ins_kinds, &types);
    print_call_head(p, op, "func.call @", op->callee, names);
    out(p, ") : (");
    print_types(p, types, op->ins.count);
    out(p, ") -> ");
    print_result_types(p, op->result_types, op->n_result_types);
    out(p, "\n");
}

static void print_op(Printer *p, const Op *op) {
    switch (op->code) {
    case OP_SCF_FOR: print_for(p, op); return;
    case OP_SCF_IF: print_if(p, op); return;
    case OP_SCF_WHILE: print_while(p, op); return;
    case OP_SCF_CONDITION: print_terminator(p, op, "scf.condition", true); return;
    case OP_SCF_YIELD: print_terminator(p, op, "scf.yield", false); return;
    case OP_RETURN: print_terminator(p, op, "return", false); return;
    case OP_CALL: print_call(p, op); return;
    case OP_SECTION_CUBE:
    case OP_SECTION_VECTOR:
        out_indent(p);
        outf(p, "%s {\n", op_info(op->code)->name);
        if (op->n_regions) print_region_body(p, op->regions[0].block);
        out_indent(p);
        out(p, "}\n");
        return;
    default: break;
    }
    if (op_sig_style(op_info(op->code)) == SIG_PIPE || op_sig_style(op_info(op->code)) == SIG_PIPE_INIT) {
        print_pipe_op(p, op);
        return;
    }
    if (op_info(op->code)->flags & OPF_DPS) {
        if (p->form != PRINT_SSA) print_dps_op_dps(p, op);
        else print_dps_op_ssa(p, op);
        return;
    }
    print_custom_op(p, op);
}

static void print_block(Printer *p, const Block *b) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) print_op(p, op);
}

/* ---- functions and modules -------------------------------------------------------------------- */

static void print_func(Printer *p, const Func *f, bool add_return) {
    p->names = (NameSet){NULL, 0, 0};
    p->fresh = 0;
    for (int i = 0; i < f->n_args; i++) nameset_add(p, &p->names, f->args[i]->name);
    collect_block_names(p, f->body.block);
    find_folded_tassigns(p, f);
    out_indent(p);
    outf(p, "func.func %s@%s(", f->is_private ? "private " : "", f->name);
    for (int i = 0; i < f->n_args; i++) outf(p, "%s%%%s: %s", i ? ", " : "", f->args[i]->name, type_text(p, f->args[i]->type));
    out(p, ")");
    if (f->n_results == 1) {
        outf(p, " -> %s", type_text(p, f->result_types[0]));
    } else if (f->n_results > 1) {
        out(p, " -> ");
        print_result_types(p, f->result_types, f->n_results);
    }
    if (f->attrs.count) {
        out(p, " attributes ");
        print_attr_dict(p, &f->attrs);
    }
    if (f->is_declaration) {
        out(p, "\n");
        return;
    }
    out(p, " {\n");
    p->indent++;
    print_block(p, f->body.block);
    const Op *last = f->body.block ? f->body.block->last : NULL;
    if (add_return && !(last && (op_info(last->code)->flags & OPF_TERMINATOR))) {
        out_indent(p);
        out(p, "return\n");
    }
    p->indent--;
    out_indent(p);
    out(p, "}\n");
}

static void print_module(Printer *p, const Module *m) {
    if (m->implicit && p->form == PRINT_SSA && m->attrs.count == 0 && m->n_funcs == 1) {
        const Func *f = m->funcs[0];
        p->names = (NameSet){NULL, 0, 0};
        collect_block_names(p, f->body.block);
        print_block(p, f->body.block);
        return;
    }
    out(p, "module");
    if (m->attrs.count) {
        out(p, " attributes ");
        print_attr_dict(p, &m->attrs);
    }
    out(p, " {\n");
    p->indent++;
    plan_placement(p, m);
    for (int i = 0; i < m->n_funcs; i++) print_func(p, m->funcs[i], m->implicit);
    p->indent--;
    out(p, "}\n");
}

/* ---- what a form cannot express ---------------------------------------------------------------- */

/* An op written in SSA form whose tile result has a `?` valid dimension: in DPS its destination
 * is a hoisted `pto.alloc_tile`, which would need that run-time dimension as a valid_row /
 * valid_col operand, and the IR holds no value for it (the op computes it). */
static bool dps_needs_dynamic_valid(const Op *op) {
    if (!(op_info(op->code)->flags & OPF_DPS) || op->n_results == 0) return false;
    const Type *t = op->results[0]->type;
    const Operand *vr, *vc;
    return t && t->kind == TY_TILE && (t->tile.valid_rows == DIM_DYNAMIC || t->tile.valid_cols == DIM_DYNAMIC) &&
           !dynamic_valid_operands(op->results[0], &vr, &vc);
}

static void check_dps_block(const Block *b, const SourceFile *file, DiagList *diags, Arena *arena) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        if (dps_needs_dynamic_valid(op)) {
            const Value *r = op->results[0];
            diag_report(diags, file, SEV_ERROR, op->loc, "PRINT.dps-dynamic-valid",
                        "'%s' op cannot be written in DPS form: result %%%s has a dynamic valid shape (%s), which "
                        "its pto.alloc_tile would need as valid_row/valid_col operands; write this op in DPS form "
                        "with an alloc_tile of your own, or use --emit=ssa",
                        op_info(op->code)->name, r->name, type_to_string(arena, r->type, true));
        }
        for (int i = 0; i < op->n_regions; i++) check_dps_block(op->regions[i].block, file, diags, arena);
    }
}

bool module_check_printable(const Module *m, PrintForm form, DiagList *diags) {
    size_t before = diags->errors;
    if (form != PRINT_SSA)
        for (int i = 0; i < m->n_funcs; i++) check_dps_block(m->funcs[i]->body.block, m->file, diags, diags->arena);
    return diags->errors == before;
}

/* Prints into a malloc'd buffer; the caller frees p->buf. */
static bool render(Printer *p, const Module *m, PrintForm form) {
    Arena *scratch = arena_new();
    memset(p, 0, sizeof *p);
    p->arena = scratch;
    p->form = form;
    out(p, "");
    print_module(p, m);
    arena_free(scratch);
    return !p->failed;
}

char *module_to_string(Arena *arena, const Module *m, PrintForm form) {
    Printer p;
    bool ok = render(&p, m, form);
    char *s = ok ? arena_strndup(arena, p.buf ? p.buf : "", p.len) : NULL;
    free(p.buf);
    return s;
}

bool module_print(FILE *outf_, const Module *m, PrintForm form) {
    Printer p;
    bool ok = render(&p, m, form);
    if (ok && p.len && fwrite(p.buf, 1, p.len, outf_) != p.len) ok = false;
    free(p.buf);
    return ok;
}
