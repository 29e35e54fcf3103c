/* ops.c - the op table rows (names, signatures, flags) built from ops.def, and name lookup. */
#include "ir.h"

#include <string.h>

#define SPEC(name, kinds, flags) {name, kinds, flags}
#define INS(...) .ins = {__VA_ARGS__}
#define OUTS(...) .outs = {__VA_ARGS__}
#define KWS(...) .kw = {__VA_ARGS__}

static const OpInfo op_table[OP_COUNT] = {
#define OP(id, nm, asm_nm, klass, ins, outs, kws, nres, flg, verify_fn, lower_fn) \
    [OP_##id] = {.name = nm, .asm_name = asm_nm, .cls = klass, ins, outs, kws, .n_results = nres, .flags = flg},
#include "ops.def"
#undef OP
};

const OpInfo *op_info(OpCode code) {
    return (unsigned)code < OP_COUNT ? &op_table[code] : NULL;
}

static bool name_equals(const char *want, const char *s, size_t len) {
    return want && strlen(want) == len && memcmp(want, s, len) == 0;
}

bool op_lookup(const char *name, size_t len, OpCode *out) {
    for (int i = 0; i < OP_COUNT; i++) {
        if (name_equals(op_table[i].name, name, len) || name_equals(op_table[i].asm_name, name, len)) {
            *out = (OpCode)i;
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

void block_append(Block *block, Op *op) {
    op->parent = block;
    op->prev = block->last;
    op->next = NULL;
    if (block->last) block->last->next = op;
    else block->first = op;
    block->last = op;
}

Func *module_find_func(const Module *m, const char *name) {
    for (int i = 0; i < m->n_funcs; i++)
        if (strcmp(m->funcs[i]->name, name) == 0) return m->funcs[i];
    return NULL;
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
    return definitions == 1 ? only : NULL;
}
