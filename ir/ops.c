/* ops.c - the op table rows (names, signatures, flags) built from ops.def, and name lookup. */
#include "ir.h"

#include <ctype.h>
#include <string.h>

#define SPEC(name, kinds, flags) {name, kinds, flags}
#define INS(...) .ins = {__VA_ARGS__}
#define OUTS(...) .outs = {__VA_ARGS__}
#define KWS(...) .kw = {__VA_ARGS__}
#define DTYPES(a2a3, a5) .dtypes = {a2a3, a5}
#define ATTR(nm, kind, flg) {nm, kind, flg}
/* ATTRS expands one scan late, so that a family macro can forward it to OP whole (the braces of
 * its entries do not protect their commas from OP's argument split) */
#define PTO_EMPTY()
#define ATTRS(...) ATTRS_INIT PTO_EMPTY()(__VA_ARGS__)
#define ATTRS_INIT(...) .attrs = {__VA_ARGS__}

static const OpInfo op_table[OP_COUNT] = {
#define OP(id, nm, asm_nm, klass, ins, outs, kws, nres, flg, verify_fn, lower_fn, dts, elem_fn, attr_specs) \
    [OP_##id] = {.name = nm, .asm_name = asm_nm, .cls = klass, ins, outs, kws, .n_results = nres, .flags = flg, \
                 dts, .elem = #elem_fn, attr_specs},
#include "ops.def"
};

uint32_t op_dtypes(const OpInfo *info, Target target) { return info->dtypes[target == TARGET_A5 ? 1 : 0]; }

const AttrSpec *op_attr_spec(const OpInfo *info, const char *key) {
    for (int i = 0; i < ATTRSPEC_MAX && info->attrs[i].name; i++)
        if (strcmp(info->attrs[i].name, key) == 0) return &info->attrs[i];
    return NULL;
}

const OpInfo *op_info(OpCode code) {
    return (unsigned)code < OP_COUNT ? &op_table[code] : NULL;
}

static bool name_equals(const char *want, const char *s, size_t len) {
    return want && strlen(want) == len && memcmp(want, s, len) == 0;
}

int op_overload_set(OpCode code, OpCode *first) {
    int c = (int)code;
    while (c > 0 && strcmp(op_table[c - 1].name, op_table[c].name) == 0) c--;
    *first = (OpCode)c;
    int n = 1;
    while (c + n < OP_COUNT && strcmp(op_table[c + n].name, op_table[c].name) == 0) n++;
    return n;
}

bool op_lookup(const char *name, size_t len, OpCode *out) {
    for (int i = 0; i < OP_COUNT; i++) {
        if (op_table[i].flags & OPF_OVERLOAD) continue; /* the set's base row answers for it */
        if (name_equals(op_table[i].name, name, len) || name_equals(op_table[i].asm_name, name, len)) {
            *out = (OpCode)(op_table[i].flags & OPF_ALIAS ? i + 1 : i);
            return true;
        }
    }
    if (name_equals("func.return", name, len)) { /* long spelling of `return` */
        *out = OP_RETURN;
        return true;
    }
    return false;
}

int opspec_count(const OperandSpec *specs, int max) {
    int n = 0;
    while (n < max && specs[n].name) n++;
    return n;
}

const KeywordArg *op_kwarg(const Op *op, const char *key) {
    for (int i = 0; i < op->n_kwargs; i++)
        if (strcmp(op->kwargs[i].key, key) == 0) return &op->kwargs[i];
    return NULL;
}

const Attr *attr_find(const AttrList *attrs, const char *key) {
    for (int i = 0; i < attrs->count; i++)
        if (attrs->items[i].key && strcmp(attrs->items[i].key, key) == 0) return &attrs->items[i];
    return NULL;
}

char *rule_id(Arena *arena, const char *op_name, const char *suffix) {
    const char *dot = strchr(op_name, '.');
    char *id = arena_printf(arena, "%s.%s", dot ? dot + 1 : op_name, suffix);
    for (char *p = id; *p && *p != '.'; p++) *p = (char)toupper((unsigned char)*p);
    return id;
}

void module_set_target(Module *m, Target target) {
    Attr arch = {.key = "pto.target_arch", .kind = ATTR_STRING, .text = target_name(target)};
    m->has_target_attr = true;
    m->file_target = target;
    for (int i = 0; i < m->attrs.count; i++)
        if (m->attrs.items[i].key && strcmp(m->attrs.items[i].key, arch.key) == 0) {
            arch.loc = m->attrs.items[i].loc;
            m->attrs.items[i] = arch;
            return;
        }
    Attr *items = arena_alloc_array(m->arena, (size_t)m->attrs.count + 1, sizeof *items);
    if (m->attrs.count) memcpy(items, m->attrs.items, (size_t)m->attrs.count * sizeof *items);
    items[m->attrs.count] = arch;
    m->attrs.items = items;
    m->attrs.count++;
}

void block_append(Block *block, Op *op) {
    op->parent = block;
    op->prev = block->last;
    op->next = NULL;
    if (block->last) block->last->next = op;
    else block->first = op;
    block->last = op;
}

/* FNV-1a of a function name. */
static size_t func_name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void module_index_funcs(Module *m) {
    m->func_slots = NULL;
    m->func_slot_count = 0;
    if (!m->arena || m->n_funcs <= 0) return;
    size_t cap = 16;
    while (cap < (size_t)m->n_funcs * 2) cap *= 2;
    int32_t *slots = arena_alloc_array(m->arena, cap, sizeof *slots);
    for (size_t i = 0; i < cap; i++) slots[i] = -1;
    for (int f = 0; f < m->n_funcs; f++) {
        size_t i = func_name_hash(m->funcs[f]->name) & (cap - 1);
        while (slots[i] >= 0 && strcmp(m->funcs[slots[i]]->name, m->funcs[f]->name) != 0) i = (i + 1) & (cap - 1);
        if (slots[i] < 0) slots[i] = f; /* a redefinition keeps the first (the parser reports it) */
    }
    m->func_slots = slots;
    m->func_slot_count = cap;
}

int module_func_index(const Module *m, const char *name) {
    if (!m->func_slots) {
        for (int i = 0; i < m->n_funcs; i++)
            if (strcmp(m->funcs[i]->name, name) == 0) return i;
        return -1;
    }
    size_t mask = m->func_slot_count - 1;
    for (size_t i = func_name_hash(name) & mask; m->func_slots[i] >= 0; i = (i + 1) & mask)
        if (strcmp(m->funcs[m->func_slots[i]]->name, name) == 0) return m->func_slots[i];
    return -1;
}

Func *module_find_func(const Module *m, const char *name) {
    int i = module_func_index(m, name);
    return i >= 0 ? m->funcs[i] : NULL;
}

Func *module_entry(const Module *m, const char *name) {
    if (name) return module_find_func(m, name);
    Func *marked = NULL;
    int definitions = 0;
    Func *only = NULL;
    for (int i = 0; i < m->n_funcs; i++) {
        Func *f = m->funcs[i];
        if (f->is_entry && !marked) marked = f;
        if (!f->is_declaration) {
            definitions++;
            only = f;
        }
    }
    if (marked) return marked;
    if (definitions == 1) return only;
    /* a kernel with private helpers: the one public definition is the entry */
    Func *public_def = NULL;
    int publics = 0;
    for (int i = 0; i < m->n_funcs; i++) {
        Func *f = m->funcs[i];
        if (!f->is_declaration && !f->is_private) {
            publics++;
            public_def = f;
        }
    }
    return publics == 1 ? public_def : NULL;
}

/* The form of each matmul row (its ELEM column: plain, acc, bias), from the table. */
static const int8_t matmul_forms[OP_COUNT] = {
#define OP(...)
#define MATMUL_OP(id, name, form, flags) [OP_##id] = MM_FORM_##form,
#define MX_MATMUL_OP(id, name, form, flags) [OP_##id] = MM_FORM_##form,
#define MM_FORM_plain MM_PLAIN
#define MM_FORM_acc MM_ACC
#define MM_FORM_bias MM_BIAS
#include "ops.def"
#undef OP
#undef MM_FORM_plain
#undef MM_FORM_acc
#undef MM_FORM_bias
};

int matmul_form(OpCode code) { return (unsigned)code < OP_COUNT ? matmul_forms[code] : MM_PLAIN; }

const char *func_kernel_kind(const Func *f) {
    const Attr *a = f ? attr_find(&f->attrs, "pto.kernel_kind") : NULL;
    const char *w;
    size_t n;
    if (!a || !attr_enum_word(a, &w, &n)) return NULL;
    if (n == 4 && memcmp(w, "cube", 4) == 0) return "cube";
    if (n == 6 && memcmp(w, "vector", 6) == 0) return "vector";
    return NULL;
}

/* PTOAS operations (PTOOps.td) that pto-as does not implement, with the reason its error gives.
 * A name here must not be in the op table (tests/unit/test_infra.c checks every row). */
static const struct {
    const char *reason;
    const char *names; /* space-separated mnemonics, without "pto." */
} unimplemented[] = {
    {"this PTOAS operation is not implemented",
     "bind_tile declare_tile_memref pointer_cast"},
};

const char *op_unimplemented_reason(const char *name, size_t len) {
    if (len <= 4 || memcmp(name, "pto.", 4) != 0) return NULL;
    name += 4, len -= 4;
    for (size_t g = 0; g < sizeof unimplemented / sizeof *unimplemented; g++)
        for (const char *p = unimplemented[g].names; *p;) {
            size_t n = strcspn(p, " ");
            if (n == len && memcmp(p, name, n) == 0) return unimplemented[g].reason;
            p += n;
            while (*p == ' ') p++;
        }
    return NULL;
}

