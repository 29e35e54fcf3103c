/* build.c - builds the IR from the grammar's drafts: op lookup in the op table, normalisation of
 * the DPS / SSA / assembly spellings, value-name resolution with exact scoping, and the
 * structural checks of SPEC 3 (arity, operand kinds, undefined / redefined values, use before
 * definition, use type != definition type, entry rules). Every message starts with
 * `'OPNAME' op` (SPEC 6) and points at the operand, key or type at fault. */
#include "parse_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------- */
/* Basics                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

static void report_error(ParseCtx *ctx, const char *rule, SrcLoc loc, const char *fmt, va_list ap) {
    Func *f = ctx->blame_func ? ctx->blame_func : ctx->func ? ctx->func->func : NULL;
    if (f) f->parse_failed = true;
    diag_vreport(ctx->diags, ctx->file, SEV_ERROR, loc, rule, fmt, ap);
}

void pc_error(ParseCtx *ctx, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report_error(ctx, PARSE_RULE_OP, loc, fmt, ap);
    va_end(ap);
}

void pc_error_rule(ParseCtx *ctx, const char *rule, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report_error(ctx, rule, loc, fmt, ap);
    va_end(ap);
}

void pc_syntax_error_seen(ParseCtx *ctx, SrcLoc loc) {
    ctx->in_recovery = true;
    ctx->recovery_offset = loc.offset;
    ctx->syntax_errors++;
}

void *pc_temp(ParseCtx *ctx, size_t size) {
    return arena_alloc(ctx->scratch, size);
}

PtrVec *pc_list(ParseCtx *ctx) {
    return arena_alloc(ctx->scratch, sizeof(PtrVec));
}

PtrVec *pc_list1(ParseCtx *ctx, void *item) {
    /* the vector and room for its first items in one allocation */
    enum { FIRST_ITEMS = 5 };
    PtrVec *v = arena_alloc(ctx->scratch, sizeof(PtrVec) + FIRST_ITEMS * sizeof(void *));
    v->items = (void **)(v + 1);
    v->cap = FIRST_ITEMS;
    v->items[v->count++] = item;
    return v;
}

PtrVec *pc_push(ParseCtx *ctx, PtrVec *list, void *item) {
    ptrvec_push(ctx->scratch, list, item);
    return list;
}

Tok *pc_tok(ParseCtx *ctx, Tok tok) {
    Tok *t = arena_alloc(ctx->scratch, sizeof *t);
    *t = tok;
    return t;
}

static const char *op_name_of(const Op *op) {
    return op_info(op->code)->name;
}

/* Line number of a location, for "defined at line N" notes. */
static unsigned line_of(const Value *v) {
    return v->loc.line;
}

/* ---------------------------------------------------------------------------------------------- */
/* Op names: a small hash built once per parse (names and assembly mnemonics)                     */
/* ---------------------------------------------------------------------------------------------- */

static uint32_t hash_bytes(const char *s, uint32_t n) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void op_names_insert(ParseCtx *ctx, const char *name, OpCode code) {
    uint32_t len = (uint32_t)strlen(name);
    uint32_t mask = ctx->op_names_cap - 1;
    for (uint32_t i = hash_bytes(name, len) & mask;; i = (i + 1) & mask) {
        OpNameEntry *e = &ctx->op_names[i];
        if (!e->name) {
            e->name = name;
            e->len = len;
            e->code = code;
            return;
        }
        if (e->len == len && memcmp(e->name, name, len) == 0) return;
    }
}

static bool lookup_op(ParseCtx *ctx, const char *name, uint32_t len, OpCode *out) {
    uint32_t mask = ctx->op_names_cap - 1;
    for (uint32_t i = hash_bytes(name, len) & mask;; i = (i + 1) & mask) {
        const OpNameEntry *e = &ctx->op_names[i];
        if (!e->name) return false;
        if (e->len == len && memcmp(e->name, name, len) == 0) {
            *out = e->code;
            return true;
        }
    }
}

void pc_init(ParseCtx *ctx, Arena *arena, const SourceFile *file, DiagList *diags) {
    memset(ctx, 0, sizeof *ctx);
    ctx->arena = arena;
    ctx->scratch = arena_new();
    ctx->file = file;
    ctx->diags = diags;
    ctx->errors_at_start = diags->errors;
    lexer_init(&ctx->lexer, file);
    Module *m = arena_alloc(arena, sizeof *m);
    m->arena = arena;
    m->file = file;
    m->file_target = TARGET_A2A3;
    ctx->module = m;
    uint32_t cap = 16;
    while (cap < 4u * (uint32_t)OP_COUNT + 8) cap *= 2;
    ctx->op_names_cap = cap;
    ctx->op_names = arena_alloc_array(arena, cap, sizeof *ctx->op_names);
    for (int i = 0; i < OP_COUNT; i++) {
        const OpInfo *info = op_info((OpCode)i);
        if (info->flags & OPF_OVERLOAD) continue; /* found through its set's base row */
        OpCode code = (OpCode)(info->flags & OPF_ALIAS ? i + 1 : i); /* another name of the next row */
        op_names_insert(ctx, info->name, code);
        if (info->asm_name) op_names_insert(ctx, info->asm_name, code);
    }
}

/* Frees a function's name tables (it stays usable: they are empty afterwards). */
static void func_tables_free(FuncCtx *fc) {
    free(fc->visible.slots);
    free(fc->closed.slots);
    free(fc->scope_log);
    free(fc->closed_log);
    free(fc->pending.items);
    fc->visible = fc->closed = (NameTable){0};
    fc->scope_log = fc->closed_log = NULL;
    fc->scope_count = fc->scope_cap = fc->closed_count = fc->closed_cap = fc->closed_indexed = 0;
    fc->pending = (PtrVec){0};
}

void pc_release(ParseCtx *ctx) {
    arena_free(ctx->scratch);
    ctx->scratch = NULL;
    pc_types_release(ctx);
    for (FuncCtx *fc = ctx->all_funcs, *next; fc; fc = next) {
        next = fc->next_all;
        func_tables_free(fc);
        free(fc);
    }
    ctx->all_funcs = ctx->func = ctx->implicit_main = NULL;
    free(ctx->frames);
    ctx->frames = NULL;
    ctx->n_frames = ctx->frames_cap = 0;
}

/* Between statements of a function body (no enclosing construct on the parser stack) the grammar
 * temporaries are dead: reuse the scratch memory once it has grown. */
static void maybe_reset_scratch(ParseCtx *ctx) {
    if (ctx->n_frames != 1 || arena_bytes_used(ctx->scratch) < ((size_t)256 << 10)) return;
    arena_reset(ctx->scratch);
}

/* ---------------------------------------------------------------------------------------------- */
/* Value names: per-function hash map + scope log                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* The slot of a name in a table with room: its entry, or the empty slot where it would go. */
static NameEntry *table_slot(const NameTable *t, const char *s, uint32_t n, uint32_t h) {
    uint32_t mask = t->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        NameEntry *e = &t->slots[i];
        if (!e->value || (e->hash == h && e->len == n && memcmp(e->value->name, s, n) == 0)) return e;
    }
}

/* The definition a table holds for a name, or NULL. */
static Value *table_find(const NameTable *t, const char *s, uint32_t n, uint32_t h) {
    return t->cap ? table_slot(t, s, n, h)->value : NULL;
}

/* Makes `v` the table's definition of its name (n bytes, hash h), replacing an older one. */
static void table_put(NameTable *t, Value *v, uint32_t n, uint32_t h) {
    if ((t->count + 1) * 10 >= t->cap * 7) {
        NameTable old = *t;
        if (old.cap > UINT32_MAX / 4) host_out_of_memory(SIZE_MAX);
        t->cap = old.cap ? old.cap * 2 : 64;
        t->slots = heap_calloc(t->cap, sizeof *t->slots);
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.slots[i].value) *table_slot(t, old.slots[i].value->name, old.slots[i].len, old.slots[i].hash) = old.slots[i];
        free(old.slots);
    }
    NameEntry *e = table_slot(t, v->name, n, h);
    if (!e->value) t->count++;
    *e = (NameEntry){.value = v, .hash = h, .len = n};
}

/* Removes a name from a table (linear probing: later entries of its run move back). */
static void table_remove(NameTable *t, const char *s, uint32_t n, uint32_t h) {
    if (!t->cap) return;
    NameEntry *e = table_slot(t, s, n, h);
    if (!e->value) return;
    uint32_t mask = t->cap - 1, hole = (uint32_t)(e - t->slots);
    for (uint32_t i = (hole + 1) & mask; t->slots[i].value; i = (i + 1) & mask) {
        uint32_t home = t->slots[i].hash & mask;
        /* the entry at i may fill the hole unless its home lies cyclically in (hole, i] */
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays) continue;
        t->slots[hole] = t->slots[i];
        hole = i;
    }
    t->slots[hole] = (NameEntry){0};
    t->count--;
}

/* The definition of `name` in scope, or NULL. */
static Value *scope_value(const FuncCtx *fc, const char *name, uint32_t n) {
    return table_find(&fc->visible, name, n, hash_bytes(name, n));
}

/* Appends to a heap log of definitions. */
static void log_push(ScopeName **log, size_t *count, size_t *cap, ScopeName d) {
    if (*count == *cap) {
        size_t new_cap = *cap ? *cap * 2 : 64;
        if (new_cap > SIZE_MAX / sizeof **log) host_out_of_memory(SIZE_MAX);
        ScopeName *grown = realloc(*log, new_cap * sizeof *grown);
        if (!grown) host_out_of_memory(new_cap * sizeof *grown);
        *log = grown;
        *cap = new_cap;
    }
    (*log)[(*count)++] = d;
}

/* The last definition ever made of `name` (for messages and forward references), or NULL. */
static Value *latest_value(FuncCtx *fc, const char *name, uint32_t n) {
    uint32_t h = hash_bytes(name, n);
    Value *v = table_find(&fc->visible, name, n, h);
    if (v) return v;
    /* index the definitions closed since the last call (later ones replace earlier ones) */
    for (; fc->closed_indexed < fc->closed_count; fc->closed_indexed++) {
        const ScopeName *d = &fc->closed_log[fc->closed_indexed];
        table_put(&fc->closed, d->value, d->len, d->hash);
    }
    return table_find(&fc->closed, name, n, h);
}

/* Looks up a use `%name` (also `%x#0` for a single-result `%x`). */
static Value *visible_value(const FuncCtx *fc, const char *name, uint32_t n) {
    Value *v = scope_value(fc, name, n);
    if (!v && n > 2 && name[n - 2] == '#' && name[n - 1] == '0') {
        Value *base = scope_value(fc, name, n - 2);
        if (base && (!base->def || base->def->n_results <= 1)) v = base;
    }
    return v;
}

static Value *new_value(ParseCtx *ctx, FuncCtx *fc, const char *name, Type *type, SrcLoc type_loc, SrcLoc loc) {
    Value *v = arena_alloc(ctx->arena, sizeof *v);
    v->name = name;
    v->id = fc->func->n_values++;
    v->type = type;
    v->type_loc = type_loc;
    v->loc = loc;
    return v;
}

/* Makes `v` visible under its name in the current scope; reports a redefinition. */
static void define_value(ParseCtx *ctx, FuncCtx *fc, Value *v, const Op *op) {
    uint32_t n = (uint32_t)strlen(v->name), h = hash_bytes(v->name, n);
    Value *current = table_find(&fc->visible, v->name, n, h);
    if (current) {
        if (op)
            pc_error_rule(ctx, PARSE_RULE_VALUE, v->loc, "'%s' op redefines value '%%%s' (previously defined at line %u)", op_name_of(op), v->name,
                     line_of(current));
        else
            pc_error_rule(ctx, PARSE_RULE_VALUE, v->loc, "redefinition of value '%%%s' (previously defined at line %u)", v->name, line_of(current));
        return;
    }
    table_put(&fc->visible, v, n, h);
    log_push(&fc->scope_log, &fc->scope_count, &fc->scope_cap, (ScopeName){.value = v, .hash = h, .len = n});
}

/* ---------------------------------------------------------------------------------------------- */
/* Regions: a stack of open blocks, each with its scope                                           */
/* ---------------------------------------------------------------------------------------------- */

static BlockFrame *top_frame(ParseCtx *ctx) {
    return ctx->n_frames ? &ctx->frames[ctx->n_frames - 1] : NULL;
}

static Block *new_block(ParseCtx *ctx) {
    return arena_alloc(ctx->arena, sizeof(Block));
}

static void push_block(ParseCtx *ctx, FuncCtx *fc, Block *b, SrcLoc loc) {
    if (ctx->n_frames >= PARSE_MAX_REGION_DEPTH && !ctx->depth_reported) {
        pc_error_rule(ctx, PARSE_RULE_LIMIT, loc, "regions are nested more than %d levels deep", PARSE_MAX_REGION_DEPTH);
        ctx->depth_reported = true;
    }
    if (ctx->n_frames == ctx->frames_cap) {
        size_t cap = ctx->frames_cap ? ctx->frames_cap * 2 : 16;
        if (cap > SIZE_MAX / sizeof *ctx->frames) host_out_of_memory(SIZE_MAX);
        BlockFrame *frames = realloc(ctx->frames, cap * sizeof *frames);
        if (!frames) host_out_of_memory(cap * sizeof *frames);
        ctx->frames = frames;
        ctx->frames_cap = cap;
    }
    ctx->frames[ctx->n_frames++] = (BlockFrame){.block = b, .fc = fc, .scope_mark = fc->scope_count};
}

static void pop_frame(ParseCtx *ctx) {
    BlockFrame *f = top_frame(ctx);
    if (!f) return;
    FuncCtx *fc = f->fc;
    /* the scope's definitions leave the visible table for the closed log */
    for (size_t i = f->scope_mark; i < fc->scope_count; i++) {
        const ScopeName *d = &fc->scope_log[i];
        table_remove(&fc->visible, d->value->name, d->len, d->hash);
        log_push(&fc->closed_log, &fc->closed_count, &fc->closed_cap, *d);
    }
    if (fc->scope_count > f->scope_mark) fc->scope_count = f->scope_mark;
    ctx->n_frames--;
}

/* Pops frames down to and including the one of `b`; false (nothing popped) if `b` is not open. */
static bool pop_block(ParseCtx *ctx, Block *b) {
    if (!b) return false;
    size_t i = ctx->n_frames;
    while (i > 0 && ctx->frames[i - 1].block != b) i--;
    if (i == 0) return false;
    while (ctx->n_frames >= i) pop_frame(ctx);
    return true;
}

static Block *current_block(ParseCtx *ctx) {
    BlockFrame *f = top_frame(ctx);
    return f ? f->block : NULL;
}

/* Per-function parse state with an empty name table and body block (heap; see pc_release). */
static FuncCtx *new_func_ctx(ParseCtx *ctx, Func *f) {
    FuncCtx *fc = heap_calloc(1, sizeof *fc);
    fc->next_all = ctx->all_funcs;
    ctx->all_funcs = fc;
    fc->func = f;
    fc->body = new_block(ctx);
    f->body.block = fc->body;
    fc->body->parent = &f->body;
    return fc;
}

/* The function statements go to; creates the implicit @main for bare top-level statements. */
static FuncCtx *current_func(ParseCtx *ctx, SrcLoc loc) {
    if (ctx->func) return ctx->func;
    if (ctx->saw_module || ctx->saw_func) {
        if (!ctx->mixing_reported)
            pc_error_rule(ctx, PARSE_RULE_FUNC, loc, "bare top-level statements cannot be mixed with 'module' or 'func.func'");
        ctx->mixing_reported = true;
    }
    ctx->saw_bare = true;
    Func *f = arena_alloc(ctx->arena, sizeof *f);
    f->name = "main";
    f->loc = loc;
    f->loc.len = 0;
    FuncCtx *fc = new_func_ctx(ctx, f);
    ctx->func = fc;
    ctx->implicit_main = fc;
    ctx->module->implicit = true;
    push_block(ctx, fc, fc->body, loc);
    return fc;
}

Block *pc_region_open(ParseCtx *ctx, SrcLoc loc) {
    FuncCtx *fc = current_func(ctx, loc);
    Block *b = new_block(ctx);
    push_block(ctx, fc, b, loc);
    return b;
}

Block *pc_region_close(ParseCtx *ctx, Block *block) {
    pop_block(ctx, block);
    return block;
}

void pc_abandon_block(ParseCtx *ctx, Block *block) {
    pop_block(ctx, block);
}

void pc_abandon_op(ParseCtx *ctx, Op *op) {
    if (!op) return;
    for (int i = 0; i < op->n_regions; i++) pop_block(ctx, op->regions[i].block);
}

/* ---------------------------------------------------------------------------------------------- */
/* Operands, attributes, drafts                                                                   */
/* ---------------------------------------------------------------------------------------------- */

Operand *pc_operand_value(ParseCtx *ctx, Tok tok) {
    Operand *o = arena_alloc(ctx->scratch, sizeof *o);
    o->kind = OPD_VALUE;
    o->loc = tok.loc; /* the name is the token without `%`; `text` is set by resolve_use */
    return o;
}

Operand *pc_operand_int(ParseCtx *ctx, Tok tok) {
    Operand *o = arena_alloc(ctx->scratch, sizeof *o);
    o->kind = OPD_INT;
    o->text = arena_strndup(ctx->arena, tok.text, tok.len);
    o->loc = tok.loc;
    pc_parse_int(ctx, tok, &o->ival, &o->hex);
    return o;
}

/* The value of a float literal; one beyond the range of double is an error (issue #6), not inf. */
static double parse_float_literal(ParseCtx *ctx, Tok tok, const char *text) {
    errno = 0;
    double v = strtod(text, NULL);
    if (errno == ERANGE && isinf(v)) pc_error_rule(ctx, PARSE_RULE_LITERAL, tok.loc, "float literal '%s' is out of the 64-bit range", text);
    return v;
}

Operand *pc_operand_float(ParseCtx *ctx, Tok tok) {
    Operand *o = arena_alloc(ctx->scratch, sizeof *o);
    o->kind = OPD_FLOAT;
    o->text = arena_strndup(ctx->arena, tok.text, tok.len);
    o->fval = parse_float_literal(ctx, tok, o->text);
    o->loc = tok.loc;
    return o;
}

Operand *pc_operand_bool(ParseCtx *ctx, Tok tok, bool value) {
    Operand *o = arena_alloc(ctx->scratch, sizeof *o);
    o->kind = OPD_BOOL;
    o->ival = value;
    o->text = value ? "true" : "false";
    o->loc = tok.loc;
    return o;
}

Item *pc_item(ParseCtx *ctx, ItemKind kind, SrcLoc loc) {
    Item *it = arena_alloc(ctx->scratch, sizeof *it);
    it->kind = kind;
    it->loc = loc;
    return it;
}

void pc_operand_attrs_seen(ParseCtx *ctx, SrcLoc loc, PtrVec *attrs) {
    if (!ctx->operand_attr_seen) {
        ctx->operand_attr_loc = loc;
        ctx->operand_attr_list = pc_list(ctx);
    }
    ctx->operand_attr_seen = true;
    for (size_t i = 0; attrs && i < attrs->count; i++) pc_push(ctx, ctx->operand_attr_list, attrs->items[i]);
}

void pc_take_operand_attrs(ParseCtx *ctx, Item *item) {
    item->operand_attrs = ctx->operand_attr_seen;
    item->operand_attr_loc = ctx->operand_attr_loc;
    if (ctx->operand_attr_seen) item->attrs = ctx->operand_attr_list;
    ctx->operand_attr_seen = false;
    ctx->operand_attr_list = NULL;
}

char *pc_key_text(ParseCtx *ctx, Tok tok, bool quoted) {
    if (quoted && tok.len >= 2) return arena_strndup(ctx->arena, tok.text + 1, tok.len - 2);
    return arena_strndup(ctx->arena, tok.text, tok.len);
}

Attr *pc_attr(ParseCtx *ctx, AttrKind kind, const char *key, Tok value, SrcLoc loc) {
    Attr *a = arena_alloc(ctx->scratch, sizeof *a);
    a->kind = kind;
    a->key = key;
    a->loc = loc;
    switch (kind) {
    case ATTR_STRING:
        a->text = arena_strndup(ctx->arena, value.text + 1, value.len >= 2 ? value.len - 2 : 0);
        break;
    case ATTR_INT:
        a->text = arena_strndup(ctx->arena, value.text, value.len);
        pc_parse_int(ctx, value, &a->ival, NULL);
        break;
    case ATTR_FLOAT:
        a->text = arena_strndup(ctx->arena, value.text, value.len);
        a->fval = parse_float_literal(ctx, value, a->text);
        break;
    case ATTR_BOOL:
        a->ival = value.len == 4; /* "true" */
        a->text = a->ival ? "true" : "false";
        break;
    case ATTR_RAW:
        a->text = arena_strndup(ctx->arena, value.text, value.len);
        break;
    case ATTR_UNIT:
    case ATTR_TYPE:
        break;
    }
    return a;
}

/* An attribute kept as its source text (white space folded), e.g. `#pto.layout<nd>`, `<PIPE_ALL>`. */
Attr *pc_attr_raw(ParseCtx *ctx, const char *key, SrcLoc span) {
    Attr *a = arena_alloc(ctx->scratch, sizeof *a);
    a->kind = ATTR_RAW;
    a->key = key;
    a->loc = span;
    const char *s = ctx->file->text + span.offset;
    char *out = arena_alloc(ctx->arena, (size_t)span.len + 1);
    size_t n = 0;
    bool space = false;
    for (uint32_t i = 0; i < span.len; i++) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = true;
            continue;
        }
        if (space && n > 0 && out[n - 1] != '<' && out[n - 1] != '[' && out[n - 1] != '(' && c != '>' && c != ']' &&
            c != ')' && c != ',')
            out[n++] = ' ';
        space = false;
        out[n++] = c;
    }
    out[n] = '\0';
    a->text = out;
    return a;
}

Attr *pc_attr_typed(ParseCtx *ctx, Attr *attr, const TypeUse *type) {
    (void)ctx;
    attr->type = type->type;
    return attr;
}

AttrList pc_attr_list(ParseCtx *ctx, PtrVec *attrs) {
    AttrList l = {NULL, 0};
    if (!attrs || attrs->count == 0) return l;
    l.items = arena_alloc_array(ctx->arena, attrs->count, sizeof *l.items);
    for (size_t i = 0; i < attrs->count; i++) l.items[i] = *(Attr *)attrs->items[i];
    l.count = (int)attrs->count;
    return l;
}

ResultDefs *pc_defs(ParseCtx *ctx, Tok first) {
    ResultDefs *d = arena_alloc(ctx->scratch, sizeof *d);
    ptrvec_push(ctx->scratch, &d->names, pc_tok(ctx, first));
    d->loc = first.loc;
    return d;
}

ResultDefs *pc_defs_group(ParseCtx *ctx, Tok group) {
    ResultDefs *d = pc_defs(ctx, group);
    uint32_t colon = 0;
    while (colon < group.len && group.text[colon] != ':') colon++;
    int64_t n = 0;
    for (uint32_t i = colon + 1; i < group.len && n <= PARSE_MAX_GROUP_RESULTS; i++) n = n * 10 + (group.text[i] - '0');
    if (n < 1 || n > PARSE_MAX_GROUP_RESULTS) {
        pc_error_rule(ctx, PARSE_RULE_LIMIT, group.loc, "result group '%.*s' must have between 1 and %d results", (int)group.len, group.text,
                 PARSE_MAX_GROUP_RESULTS);
        n = 1;
    }
    d->group_count = (int)n;
    return d;
}

static int defs_count(const ResultDefs *d) {
    if (!d) return 0;
    return d->group_count ? d->group_count : (int)d->names.count;
}

/* Name (without %) and location of result i. */
static const char *def_name(ParseCtx *ctx, const ResultDefs *d, int i, SrcLoc *loc) {
    if (d->group_count) {
        const Tok *t = d->names.items[0];
        uint32_t colon = 0;
        while (colon < t->len && t->text[colon] != ':') colon++;
        *loc = t->loc;
        return arena_printf(ctx->arena, "%.*s#%d", (int)colon - 1, t->text + 1, i);
    }
    const Tok *t = d->names.items[i];
    *loc = t->loc;
    return arena_strndup(ctx->arena, t->text + 1, t->len - 1);
}

void pc_poison_defs(ParseCtx *ctx, ResultDefs *defs) {
    if (!defs || !ctx->func) return;
    FuncCtx *fc = ctx->func;
    for (int i = 0; i < defs_count(defs); i++) {
        SrcLoc loc;
        const char *name = def_name(ctx, defs, i, &loc);
        if (scope_value(fc, name, (uint32_t)strlen(name))) continue;
        define_value(ctx, fc, new_value(ctx, fc, name, NULL, (SrcLoc){0}, loc), NULL);
    }
}

Signature *pc_sig(ParseCtx *ctx, PtrVec *inputs, PtrVec *results, bool arrow, bool to, SrcLoc loc) {
    Signature *s = arena_alloc(ctx->scratch, sizeof *s);
    s->inputs = inputs ? inputs : pc_list(ctx);
    s->results = results ? results : pc_list(ctx);
    s->arrow = arrow;
    s->to = to;
    s->loc = loc;
    return s;
}

OpDraft *pc_draft(ParseCtx *ctx, Tok name, PtrVec *items, Signature *sig, Block *region, SrcLoc loc) {
    OpDraft *d = arena_alloc(ctx->scratch, sizeof *d);
    d->name = name;
    d->items = items;
    d->sig = sig;
    d->region = region;
    d->loc = loc;
    return d;
}

PtrVec *pc_concat(ParseCtx *ctx, PtrVec *a, PtrVec *b) {
    if (!b || !b->count) return a;
    PtrVec *v = pc_list(ctx);
    for (size_t i = 0; i < a->count; i++) ptrvec_push(ctx->scratch, v, a->items[i]);
    for (size_t i = 0; i < b->count; i++) ptrvec_push(ctx->scratch, v, b->items[i]);
    return v;
}

static bool key_is(const Attr *a, const char *key) { return a->key && strcmp(a->key, key) == 0; }

OpDraft *pc_generic_form(ParseCtx *ctx, Tok name, PtrVec *operands, PtrVec *props, PtrVec *attrs, PtrVec *in_types,
                         PtrVec *result_types, SrcLoc loc) {
    Tok opname = {name.text + 1, name.len >= 2 ? name.len - 2 : 0, name.loc};
    PtrVec *dict = pc_list(ctx);
    const Attr *segments = NULL;
    for (size_t i = 0; props && i < props->count; i++) {
        Attr *a = props->items[i];
        if (key_is(a, "operandSegmentSizes") || key_is(a, "resultSegmentSizes")) segments = a;
        else ptrvec_push(ctx->scratch, dict, a);
    }
    for (size_t i = 0; attrs && i < attrs->count; i++) ptrvec_push(ctx->scratch, dict, attrs->items[i]);
    PtrVec *items = pc_list(ctx);
    if (in_types->count != operands->count) {
        pc_error(ctx, loc, "generic form of '%.*s' lists %zu operand types for %zu operands", (int)opname.len, opname.text,
                 in_types->count, operands->count);
        return NULL;
    }
    OpCode code;
    const OpInfo *info = lookup_op(ctx, opname.text, opname.len, &code) ? op_info(code) : NULL;
    if (info && (info->flags & OPF_DPS) && result_types->count == 0 && operands->count > 0 && !info->outs[0].name) {
        /* no destination (tprint): ins(...) only */
        Item *ins = pc_item(ctx, IT_INS, loc);
        ins->operands = operands;
        ins->types = in_types;
        ptrvec_push(ctx->scratch, items, ins);
        if (dict->count) {
            Item *it = pc_item(ctx, IT_ATTR_DICT, loc);
            it->attrs = dict;
            ptrvec_push(ctx->scratch, items, it);
        }
        OpDraft *d = pc_draft(ctx, opname, items, NULL, NULL, loc);
        d->generic = true; /* pto.print's format is among the attributes, not leading ins(...) */
        return d;
    }
    if (info && (info->flags & OPF_DPS) && result_types->count == 0 && operands->count > 0) {
        /* `"pto.tadd"(%a, %b, %d) : (A, B, D) -> ()` is `pto.tadd ins(%a, %b : A, B) outs(%d : D)` */
        size_t dst = ptoas_dst_index(code, operands->count);
        Item *ins = pc_item(ctx, IT_INS, loc), *outs = pc_item(ctx, IT_OUTS, loc);
        ins->operands = pc_list(ctx);
        ins->types = pc_list(ctx);
        outs->operands = pc_list1(ctx, operands->items[dst]);
        outs->types = pc_list1(ctx, in_types->items[dst]);
        for (size_t i = 0; i < operands->count; i++) {
            if (i == dst) continue;
            ptrvec_push(ctx->scratch, ins->operands, operands->items[i]);
            ptrvec_push(ctx->scratch, ins->types, in_types->items[i]);
        }
        if (ins->operands->count) ptrvec_push(ctx->scratch, items, ins);
        ptrvec_push(ctx->scratch, items, outs);
        if (dict->count) {
            Item *it = pc_item(ctx, IT_ATTR_DICT, loc);
            it->attrs = dict;
            ptrvec_push(ctx->scratch, items, it);
        }
        return pc_draft(ctx, opname, items, NULL, NULL, loc);
    }
    if (info && info->kw[0].name && segments && !(info->flags & OPF_DPS)) {
        /* keyword groups (alloc_tile's addr/valid_row/valid_col, make_tensor_view's shape/strides):
         * operandSegmentSizes gives each group's operand count, the groups last */
        int64_t seg[16];
        int n_seg = 0, n_kw = 0;
        while (n_kw < 4 && info->kw[n_kw].name) n_kw++;
        const char *t = segments->text ? strchr(segments->text, ':') : NULL;
        while (t && *t && n_seg < 16) {
            while (*t && !(*t >= '0' && *t <= '9')) t++;
            if (!*t) break;
            seg[n_seg] = 0;
            while (*t >= '0' && *t <= '9' && seg[n_seg] < 1000000) seg[n_seg] = seg[n_seg] * 10 + (*t++ - '0');
            n_seg++;
        }
        int64_t total = 0;
        for (int i = 0; i < n_seg; i++) total += seg[i];
        if (n_seg < n_kw || total != (int64_t)operands->count) {
            pc_error(ctx, segments->loc, "'%s' op operandSegmentSizes %s does not match its %zu operands and %d keyword groups",
                     info->name, segments->text ? segments->text : "", operands->count, n_kw);
            return NULL;
        }
        size_t at = 0;
        PtrVec *positional_types = pc_list(ctx);
        for (int i = 0; i < n_seg; i++) {
            int kw = i - (n_seg - n_kw); /* < 0: positional operands */
            if (kw < 0) {
                for (int64_t j = 0; j < seg[i]; j++, at++) {
                    Item *it = pc_item(ctx, IT_OPERAND, ((Operand *)operands->items[at])->loc);
                    it->operand = operands->items[at];
                    ptrvec_push(ctx->scratch, items, it);
                    ptrvec_push(ctx->scratch, positional_types, in_types->items[at]);
                }
                continue;
            }
            if (seg[i] == 0) continue;
            bool list = info->kw[kw].flags & SPEC_VARIADIC;
            Item *it = pc_item(ctx, list ? IT_KEYWORD_LIST : IT_KEYWORD, ((Operand *)operands->items[at])->loc);
            it->tok = (Tok){info->kw[kw].name, (uint32_t)strlen(info->kw[kw].name), it->loc};
            if (list) {
                it->operands = pc_list(ctx);
                for (int64_t j = 0; j < seg[i]; j++, at++) ptrvec_push(ctx->scratch, it->operands, operands->items[at]);
            } else {
                if (seg[i] != 1) {
                    pc_error(ctx, segments->loc, "'%s' op takes one '%s' operand, operandSegmentSizes gives %lld", info->name,
                             info->kw[kw].name, (long long)seg[i]);
                    return NULL;
                }
                it->operand = operands->items[at++];
            }
            ptrvec_push(ctx->scratch, items, it);
        }
        if (dict->count) {
            Item *it = pc_item(ctx, IT_ATTR_DICT, loc);
            it->attrs = dict;
            ptrvec_push(ctx->scratch, items, it);
        }
        return pc_draft(ctx, opname, items, pc_sig(ctx, positional_types, result_types, true, false, loc), NULL, loc);
    }
    if (info && (info->kw[0].name || segments) && operands->count > 0) {
        pc_error(ctx, loc, "pto-as does not read the generic form of '%s' with operandSegmentSizes; write it in its custom "
                 "form", info->name);
        return NULL;
    }
    for (size_t i = 0; i < operands->count; i++) {
        Item *it = pc_item(ctx, IT_OPERAND, ((Operand *)operands->items[i])->loc);
        it->operand = operands->items[i];
        ptrvec_push(ctx->scratch, items, it);
    }
    if (dict->count) {
        Item *it = pc_item(ctx, IT_ATTR_DICT, loc);
        it->attrs = dict;
        ptrvec_push(ctx->scratch, items, it);
    }
    OpDraft *d = pc_draft(ctx, opname, items, pc_sig(ctx, in_types, result_types, true, false, loc), NULL, loc);
    d->generic = true;
    return d;
}

/* After a syntax error the parser may resume in the middle of a statement; such fragments are
 * dropped until a statement starts a line again. */
static bool starts_line(ParseCtx *ctx, uint32_t offset) {
    while (offset > 0) {
        char c = ctx->file->text[offset - 1];
        if (c == '\n') return true;
        if (c != ' ' && c != '\t' && c != '\r' && c != '}' && c != '{') return false;
        offset--;
    }
    return true;
}

static bool keep_statement(ParseCtx *ctx, SrcLoc start) {
    if (!ctx->in_recovery) return true;
    if (start.offset >= ctx->recovery_offset && starts_line(ctx, start.offset)) {
        ctx->in_recovery = false;
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------------------------------------- */
/* Operand kinds and checks                                                                       */
/* ---------------------------------------------------------------------------------------------- */

static bool type_fits(const Type *t, unsigned kinds) {
    if (!t || t->kind == TY_INVALID || kinds == K_ANY) return true;
    switch (t->kind) {
    case TY_TILE: return kinds & K_TILE;
    case TY_PTR: return kinds & K_PTR;
    case TY_TENSOR_VIEW: return kinds & K_TVIEW;
    case TY_PARTITION_VIEW: return kinds & K_PVIEW;
    case TY_EVENTID_ARRAY: return kinds & K_EVARR;
    case TY_MEMREF: return kinds & K_MEMREF;
    case TY_VECTOR: return kinds & K_VECTOR;
    case TY_PIPE: return kinds & K_PIPE;
    case TY_ASYNC_SESSION: return kinds & K_ASYNC_SESSION;
    case TY_ASYNC_EVENT: return kinds & K_ASYNC_EVENT;
    case TY_SCALAR:
        if (t->dtype == DT_I1) return kinds & K_BOOL;
        if (t->dtype == DT_INDEX) return kinds & K_INDEX;
        if (dtype_is_int(t->dtype)) return kinds & (K_INDEX | K_SCALAR);
        return kinds & K_SCALAR;
    default: return false;
    }
}

static bool literal_fits(const Operand *o, unsigned kinds) {
    switch (o->kind) {
    case OPD_INT: return kinds & (K_SCALAR | K_INDEX);
    case OPD_FLOAT: return kinds & K_SCALAR;
    case OPD_BOOL: return kinds & K_BOOL;
    case OPD_TILE_ADDR: return kinds & K_ADDR;
    default: return true;
    }
}

/* "a tile or a !pto.partition_tensor_view" */
static const char *kinds_text(ParseCtx *ctx, unsigned kinds) {
    static const struct { unsigned bit; const char *text; } names[] = {
        {K_TILE, "a tile"}, {K_SCALAR, "an integer or float scalar"}, {K_INDEX, "an index or integer"},
        {K_BOOL, "an i1 value"}, {K_PTR, "a !pto.ptr"}, {K_TVIEW, "a !pto.tensor_view"},
        {K_PVIEW, "a !pto.partition_tensor_view"}, {K_ADDR, "an @tile(ADDRESS)"}, {K_EVARR, "a !pto.eventid_array"}, {K_MEMREF, "a memref"},
        {K_VECTOR, "a vector"}, {K_PIPE, "a !pto.pipe"}, {K_ASYNC_SESSION, "a !pto.async_session"},
        {K_ASYNC_EVENT, "a !pto.async_event"}};
    const char *out = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!(kinds & names[i].bit)) continue;
        out = out ? arena_printf(ctx->arena, "%s or %s", out, names[i].text) : names[i].text;
    }
    return out ? out : "nothing";
}

static const char *literal_kind_text(const Operand *o) {
    switch (o->kind) {
    case OPD_INT: return "integer literal";
    case OPD_FLOAT: return "float literal";
    case OPD_BOOL: return "boolean literal";
    case OPD_TILE_ADDR: return "address";
    default: return "value";
    }
}

/* The type an operand has: its definition's type, else the type written at the use. */
static Type *operand_type(const Operand *o) {
    if (o->kind == OPD_VALUE && o->value && o->value->type) return o->value->type;
    return o->type;
}

/* operand_type with where that type is written. */
static TypeUse operand_type_use(const Operand *o) {
    if (o->kind == OPD_VALUE && o->value && o->value->type) return (TypeUse){o->value->type, o->value->type_loc};
    return (TypeUse){o->type, o->type_loc};
}

/* Gives `o` the type of a written use. */
static void set_operand_type(Operand *o, const TypeUse *u) {
    o->type = u->type;
    o->type_loc = u->loc;
}

/* Kind and type checks of one resolved operand (SPEC 3 structure stage). */
static void check_operand(ParseCtx *ctx, const Op *op, const Operand *o, const char *role, unsigned kinds) {
    const char *opn = op_name_of(op);
    if (o->kind == OPD_VALUE) {
        const Value *v = o->value;
        if (!v) return;
        if (o->type && v->type && o->type->kind != TY_INVALID && v->type->kind != TY_INVALID && !type_equal(o->type, v->type)) {
            pc_error(ctx, o->type_loc, "'%s' op operand '%s' is written with type %s, but %%%s was defined with type %s", opn,
                     role, type_to_string(ctx->arena, o->type, false), v->name, type_to_string(ctx->arena, v->type, false));
            return;
        }
        const Type *t = operand_type(o);
        if (!type_fits(t, kinds))
            pc_error(ctx, o->loc, "'%s' op operand '%s' expects %s, got %%%s of type %s", opn, role, kinds_text(ctx, kinds),
                     v->name, type_to_string(ctx->arena, t, false));
        return;
    }
    if (!literal_fits(o, kinds)) {
        pc_error(ctx, o->loc, "'%s' op operand '%s' expects %s, got the %s '%s'", opn, role, kinds_text(ctx, kinds),
                 literal_kind_text(o), o->text ? o->text : "");
        return;
    }
    if (o->type && !type_fits(o->type, kinds))
        pc_error(ctx, o->type_loc, "'%s' op operand '%s' expects %s, got type %s", opn, role, kinds_text(ctx, kinds),
                 type_to_string(ctx->arena, o->type, false));
}

/* The name of a value use without `%`: its text, or before resolve_use its token's. */
static const char *use_name(const ParseCtx *ctx, const Operand *o, uint32_t *len) {
    if (o->text) {
        *len = (uint32_t)strlen(o->text);
        return o->text;
    }
    *len = o->loc.len ? o->loc.len - 1 : 0;
    return ctx->file->text + o->loc.offset + 1;
}

/* Looks a use up in the visible scope (sets o->value when found). */
static void lookup_use(const ParseCtx *ctx, FuncCtx *fc, Operand *o) {
    if (o->kind != OPD_VALUE || o->value) return;
    uint32_t n;
    const char *name = use_name(ctx, o, &n);
    o->value = visible_value(fc, name, n);
}

/* Sets the text of a value use: its value's name when spelled the same (no copy), else a copy. */
static void set_use_text(ParseCtx *ctx, Operand *o) {
    if (o->text) return;
    uint32_t n;
    const char *name = use_name(ctx, o, &n);
    const char *vn = o->value ? o->value->name : NULL;
    if (vn && strncmp(vn, name, n) == 0 && vn[n] == '\0') o->text = vn;
    else o->text = arena_strndup(ctx->arena, name, n);
}

/* Looks a use up; records it for the end of the function when the name is not visible yet.
 * `o` must be the operand's final address (inside the op's operand list). */
static void resolve_use(ParseCtx *ctx, FuncCtx *fc, Op *op, Operand *o, const char *role, unsigned kinds, bool forward_ok) {
    if (o->kind != OPD_VALUE) return;
    lookup_use(ctx, fc, o);
    set_use_text(ctx, o);
    if (o->value) return;
    PendingUse *p = arena_alloc(ctx->arena, sizeof *p);
    p->operand = o;
    p->op = op;
    p->role = role;
    p->kinds = kinds;
    p->forward_ok = forward_ok;
    heap_vec_push(&fc->pending, p);
}

/* Uses still unresolved when the function ends: forward references (allowed only at SPEC_FORWARD
 * positions) or errors. */
static void resolve_pending(ParseCtx *ctx, FuncCtx *fc) {
    for (size_t i = 0; i < fc->pending.count; i++) {
        PendingUse *p = fc->pending.items[i];
        Operand *o = p->operand;
        const char *opn = op_name_of(p->op);
        Value *later = latest_value(fc, o->text, (uint32_t)strlen(o->text));
        if (later && later->loc.offset > o->loc.offset) {
            if (p->forward_ok) {
                o->value = later;
                check_operand(ctx, p->op, o, p->role, p->kinds);
            } else {
                pc_error_rule(ctx, PARSE_RULE_VALUE, o->loc, "'%s' op operand '%s' uses %%%s before its definition at line %u", opn, p->role, o->text,
                         line_of(later));
            }
        } else if (later) {
            pc_error_rule(ctx, PARSE_RULE_VALUE, o->loc, "'%s' op operand '%s' uses %%%s, which is not visible here (defined at line %u inside "
                     "another region)", opn, p->role, o->text, line_of(later));
        } else {
            pc_error_rule(ctx, PARSE_RULE_VALUE, o->loc, "'%s' op operand '%s' uses undefined value %%%s", opn, p->role, o->text);
        }
    }
    fc->pending.count = 0;
}

static OperandList operand_list(ParseCtx *ctx, Operand **items, int count) {
    OperandList l = {NULL, 0};
    if (count <= 0) return l;
    l.items = arena_alloc_array(ctx->arena, (size_t)count, sizeof *l.items);
    for (int i = 0; i < count; i++) l.items[i] = *items[i];
    l.count = count;
    return l;
}

/* Spec of position i of a list (the last spec repeats when variadic), or NULL past the end. */
static const OperandSpec *spec_at(const OperandSpec *specs, int n, int i) {
    if (i < n) return &specs[i];
    if (n > 0 && (specs[n - 1].flags & SPEC_VARIADIC)) return &specs[n - 1];
    return NULL;
}

/* Whether a row's ins positions take these operands: kinds of the resolved or typed ones (a
 * name not visible yet fits anywhere), and no more operands than positions. */
static bool ins_fit_row(const OpInfo *info, Operand *const *ins, int n) {
    int n_spec = opspec_count(info->ins, OPSPEC_MAX);
    for (int i = 0; i < n; i++) {
        const OperandSpec *s = spec_at(info->ins, n_spec, i);
        if (!s) return false;
        if (ins[i]->kind != OPD_VALUE) {
            if (!literal_fits(ins[i], s->kinds)) return false;
            continue;
        }
        const Type *t = operand_type(ins[i]);
        if (t && t->kind != TY_INVALID && !type_fits(t, s->kinds)) return false;
    }
    return true;
}

/* The row of an overload set (OPF_OVERLOAD) that takes these ins operands: `code` itself when it
 * does or no row of its set does (its own checks report the mismatch), else the first that does. */
static OpCode overload_for(OpCode code, Operand *const *ins, int n) {
    OpCode first;
    int rows = op_overload_set(code, &first);
    if (rows < 2 || ins_fit_row(op_info(code), ins, n)) return code;
    for (int r = 0; r < rows; r++)
        if (ins_fit_row(op_info((OpCode)(first + r)), ins, n)) return (OpCode)(first + r);
    return code;
}

/* Whether a DPS row takes P positional operands written without a result: the trailing ones its
 * outs (as many as it has, after its required ins), the kinds of both parts fitting. */
static bool positional_split_fits(const OpInfo *info, Operand *const *pos, int P, int *n_ins, int *n_outs) {
    int n_ins_spec = opspec_count(info->ins, OPSPEC_MAX), n_outs_spec = opspec_count(info->outs, 2), required = 0;
    for (int i = 0; i < n_ins_spec; i++)
        if (!(info->ins[i].flags & (SPEC_OPTIONAL | SPEC_VARIADIC))) required++;
    int extra = P - required;
    *n_outs = extra <= 0 ? 0 : extra < n_outs_spec ? extra : n_outs_spec;
    *n_ins = P - *n_outs;
    if (*n_outs < n_outs_spec || !ins_fit_row(info, pos, *n_ins)) return false;
    for (int i = 0; i < *n_outs; i++) {
        const Operand *o = pos[*n_ins + i];
        const Type *t = o->kind == OPD_VALUE ? operand_type(o) : NULL;
        if (t && t->kind != TY_INVALID && !type_fits(t, info->outs[i].kinds)) return false;
    }
    return true;
}

static const char *spec_names(ParseCtx *ctx, const OperandSpec *specs, int n) {
    const char *out = "";
    for (int i = 0; i < n; i++)
        out = arena_printf(ctx->arena, "%s%s%s%s", out, i ? ", " : "", specs[i].name,
                           (specs[i].flags & SPEC_VARIADIC) ? "..." : (specs[i].flags & SPEC_OPTIONAL) ? "?" : "");
    return out;
}

/* Appends `op` to the current block; reports ops after a terminator. */
static void append_op(ParseCtx *ctx, Op *op) {
    Block *b = current_block(ctx);
    if (!b) return;
    if (b->last && (op_info(b->last->code)->flags & OPF_TERMINATOR))
        pc_error_rule(ctx, PARSE_RULE_REGION, b->last->loc, "'%s' op must be the last operation in its block", op_name_of(b->last));
    block_append(b, op);
}

/* The results named by `defs`, typed by `types` (NULL: untyped). */
static Value **make_results(ParseCtx *ctx, FuncCtx *fc, Op *op, const ResultDefs *defs, const TypeUse *types) {
    int n = defs_count(defs);
    if (n == 0) return NULL;
    Value **vals = arena_alloc_array(ctx->arena, (size_t)n, sizeof *vals);
    for (int i = 0; i < n; i++) {
        SrcLoc loc;
        const char *name = def_name(ctx, defs, i, &loc);
        vals[i] = new_value(ctx, fc, name, types ? types[i].type : NULL, types ? types[i].loc : (SrcLoc){0}, loc);
        vals[i]->def = op;
        vals[i]->result_index = i;
    }
    op->results = vals;
    op->n_results = n;
    return vals;
}

static void define_results(ParseCtx *ctx, FuncCtx *fc, Op *op) {
    for (int i = 0; i < op->n_results; i++) define_value(ctx, fc, op->results[i], op);
}

/* ---------------------------------------------------------------------------------------------- */
/* Generic ops                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Ops written with a leading predicate keyword (`arith.cmpi slt, ...`): OPF_PREDICATE rows. */
static bool takes_predicate(OpCode code) {
    return (op_info(code)->flags & OPF_PREDICATE) != 0;
}

static const char *const cmpi_predicate_names[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", NULL};
static const char *const cmpf_predicate_names[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq",
                                                   "ugt",   "uge", "ult", "ule", "une", "uno", "true", NULL};

/* True when `p` is a predicate of `code` (arith.cmpi or arith.cmpf). */
static bool valid_predicate(OpCode code, const char *p) {
    const char *const *names = code == OP_CMPF ? cmpf_predicate_names : cmpi_predicate_names;
    for (size_t i = 0; names[i]; i++)
        if (strcmp(p, names[i]) == 0) return true;
    return false;
}

/* Binds `: SIG` types to positional operands and results (docs/syntax.md "Signatures"). */
static void bind_signature(ParseCtx *ctx, Op *op, const Signature *sig, Operand **pos, const unsigned *pos_kinds, int P,
                           int R, TypeUse *res_types) {
    const char *opn = op_name_of(op);
    int k = (int)sig->inputs->count;
    TypeUse **L = (TypeUse **)sig->inputs->items;
    if (sig->arrow || sig->to) {
        int nr = (int)sig->results->count;
        if (k > P) {
            pc_error(ctx, sig->loc, "'%s' op signature lists %d operand types, but the op has %d operands", opn, k, P);
            return;
        }
        for (int i = 0; i < k; i++) set_operand_type(pos[i], L[i]);
        if (nr != R) {
            pc_error(ctx, sig->loc, "'%s' op signature lists %d result types, but the op has %d results", opn, nr, R);
            return;
        }
        for (int i = 0; i < R; i++) res_types[i] = *(TypeUse *)sig->results->items[i];
        return;
    }
    if (k == 0) return;
    const OpInfo *info = op_info(op->code);
    int n_idx = 0; /* a value-first row's signature names its unbracketed inputs only */
    for (int i = 0; (info->flags & OPF_VALUE_FIRST) && i < P && i < OPSPEC_MAX; i++) n_idx += (info->ins[i].flags & SPEC_INDEX) != 0;
    if (n_idx > 0 && k == P - n_idx) {
        for (int i = 0, j = 0; i < P; i++)
            if (i >= OPSPEC_MAX || !(info->ins[i].flags & SPEC_INDEX)) set_operand_type(pos[i], L[j++]);
        return;
    }
    if (k > 1 && k == P) {
        for (int i = 0; i < k; i++) set_operand_type(pos[i], L[i]);
        return;
    }
    if (k > 1 && R > 0 && k == P + R) {
        for (int i = 0; i < P; i++) set_operand_type(pos[i], L[i]);
        for (int i = 0; i < R; i++) res_types[i] = *L[P + i];
        return;
    }
    if (k == 1) {
        /* one shared type: the result type and the type of every operand whose position accepts it */
        for (int i = 0; i < R && op_sig_style(op_info(op->code)) != SIG_OPERAND0_VIEW; i++)
            res_types[i] = op->predicate                                   ? (TypeUse){pc_scalar_type(ctx, DT_I1), {0}}
                           : op_sig_style(op_info(op->code)) == SIG_OPERAND0_INDEX ? (TypeUse){pc_scalar_type(ctx, DT_INDEX), {0}}
                                                                           : *L[0];
        for (int i = 0; i < P; i++)
            if (pos_kinds[i] && type_fits(L[0]->type, pos_kinds[i])) set_operand_type(pos[i], L[0]);
        return;
    }
    pc_error(ctx, sig->loc, "'%s' op signature lists %d types, but the op has %d operands and %d results", opn, k, P, R);
}

/* Result types not written: implied by the op (docs/syntax.md). */
static void infer_result_types(ParseCtx *ctx, Op *op, const OpInfo *info, Operand **pos, int P, int n_ins, const ResultDefs *defs,
                               TypeUse *res_types, int R) {
    for (int i = 0; i < R; i++) {
        if (res_types[i].type) continue;
        if (op->predicate) {
            res_types[i] = (TypeUse){pc_scalar_type(ctx, DT_I1), {0}};
            continue;
        }
        if (info->flags & OPF_RESULT_I64) {
            res_types[i] = (TypeUse){pc_scalar_type(ctx, DT_I64), {0}};
            continue;
        }
        if (op_sig_style(info) == SIG_OPERAND0_INDEX) {
            res_types[i] = (TypeUse){pc_scalar_type(ctx, DT_INDEX), {0}};
            continue;
        }
        if (op_sig_style(info) == SIG_OPERAND0_VIEW) { /* typed once its operands are resolved (view_result_tile, below) */
            res_types[i] = (TypeUse){NULL, {0}};
            continue;
        }
        TypeUse t = {NULL, {0}};
        if (info->flags & OPF_SCALAR_RESULT) { /* written, never inferred */
            if (op->spelling == SPELL_DPS) continue; /* the ins/outs form's own error said so */
        } else if ((info->flags & OPF_DPS) && i > 0 && i < 2 && !(info->outs[i].kinds & K_TILE)) {
            /* a destination that is not a tile (tmrgsort's executed vector): written, never inferred */
        } else if (info->flags & OPF_DPS) {
            for (int j = 0; j < n_ins && !t.type; j++) {
                TypeUse ot = operand_type_use(pos[j]);
                if (ot.type && ot.type->kind == TY_TILE) t = ot;
            }
        } else if (P > 0) {
            t = operand_type_use(pos[0]);
            if (!t.type && pos[0]->kind == OPD_BOOL) t = (TypeUse){pc_scalar_type(ctx, DT_I1), {0}};
        }
        if (!t.type) {
            SrcLoc loc;
            const char *name = def_name(ctx, defs, i, &loc);
            pc_error(ctx, loc, "'%s' op cannot infer the type of result %%%s; write it in the signature (': ... -> TYPE')",
                     op_name_of(op), name);
        }
        res_types[i] = t;
    }
}

/* Expected result count of an op in the form used; false (with a diagnostic) when R is wrong. */
static bool check_result_count(ParseCtx *ctx, Op *op, const OpInfo *info, bool dps_form, const ResultDefs *defs, int R) {
    const char *opn = op_name_of(op);
    SrcLoc loc = defs ? defs->loc : op->loc;
    if (info->flags & OPF_DPS) {
        if ((info->flags & OPF_SCALAR_RESULT) && R == 0) {
            pc_error(ctx, op->loc, "'%s' op result must be named (write '%%name = %s ...')", opn, opn);
            return false;
        }
        if (dps_form && R > 0 && !(info->flags & OPF_SCALAR_RESULT)) {
            pc_error(ctx, loc, "'%s' op cannot have both a result and outs(...)", opn);
            return false;
        }
        if (R > info->n_results) {
            if (info->n_results == 0) pc_error(ctx, loc, "'%s' op produces no result", opn);
            else pc_error(ctx, loc, "'%s' op produces %d result%s, got %d names", opn, info->n_results,
                          info->n_results == 1 ? "" : "s", R);
            return false;
        }
        return true;
    }
    if (info->flags & OPF_VARIADIC_RESULTS) return true;
    if (info->flags & OPF_OPTIONAL_RESULT) {
        if (R > info->n_results) {
            pc_error(ctx, loc, "'%s' op produces at most %d result, got %d names", opn, info->n_results, R);
            return false;
        }
        return true;
    }
    if (R != info->n_results) {
        if (info->n_results == 0) pc_error(ctx, loc, "'%s' op produces no result", opn);
        else if (R == 0) pc_error(ctx, op->loc, "'%s' op result must be named (write '%%name = %s ...')", opn, opn);
        else pc_error(ctx, loc, "'%s' op produces %d result, got %d names", opn, info->n_results, R);
        return false;
    }
    return true;
}

/* Appends attributes written beside operands to the op's dictionary; a key given twice is an error. */
static void merge_operand_attrs(ParseCtx *ctx, Op *op, const PtrVec *extra) {
    Attr *items = arena_alloc_array(ctx->arena, (size_t)op->attrs.count + extra->count, sizeof *items);
    int n = 0;
    for (int i = 0; i < op->attrs.count; i++) items[n++] = op->attrs.items[i];
    for (size_t j = 0; j < extra->count; j++) {
        const Attr *a = extra->items[j];
        bool dup = false;
        for (int i = 0; i < n && !dup; i++) dup = a->key && items[i].key && strcmp(items[i].key, a->key) == 0;
        if (dup) pc_error(ctx, a->loc, "'%s' op has the attribute '%s' twice", op_name_of(op), a->key);
        else items[n++] = *a;
    }
    op->attrs.items = items;
    op->attrs.count = n;
}

/* Bytes from an ins/outs keyword at `offset` to just past its list's closing ')' (0 if unclosed). */
static uint32_t group_span(const ParseCtx *ctx, uint32_t offset) {
    const char *text = ctx->file->text;
    size_t i = offset;
    int depth = 0;
    while (i < ctx->file->len && text[i] != '(') i++;
    for (; i < ctx->file->len; i++) {
        if (text[i] == '(') depth++;
        else if (text[i] == ')' && --depth == 0) return (uint32_t)(i + 1 - offset);
    }
    return 0;
}

/* `outs(...) ins(...)`: PTOAS's format (and ours) is `ins(...) outs(...)`; the operands are still
 * bound by their keywords, so this is one error with a fix-it that swaps the two lists. */
static void swapped_groups(ParseCtx *ctx, const char *opn, const Item *ins_group, const Item *outs_group) {
    pc_error(ctx, outs_group->loc, "'%s' op writes outs(...) before ins(...)", opn);
    pc_note(ctx, ins_group->loc, "the inputs come first: write ins(...) outs(...)");
    uint32_t outs_len = group_span(ctx, outs_group->loc.offset), ins_len = group_span(ctx, ins_group->loc.offset);
    if (!outs_len || !ins_len || outs_group->loc.offset + outs_len > ins_group->loc.offset) return;
    const char *text = ctx->file->text;
    uint32_t gap = ins_group->loc.offset - (outs_group->loc.offset + outs_len);
    SrcLoc both = outs_group->loc;
    both.len = ins_group->loc.offset + ins_len - outs_group->loc.offset;
    pc_fixit(ctx, both, arena_printf(ctx->arena, "%.*s%.*s%.*s", (int)ins_len, text + ins_group->loc.offset, (int)gap,
                                     text + outs_group->loc.offset + outs_len, (int)outs_len, text + outs_group->loc.offset));
}

/* Type list of an ins(...)/outs(...) group bound to its operands. */
static void bind_group_types(ParseCtx *ctx, const Op *op, const Item *group, const char *what) {
    int n = (int)group->operands->count, k = (int)group->types->count;
    if (k == 0) return;
    if (k != n) {
        pc_error(ctx, group->loc, "'%s' op %s(...) lists %d operands but %d types", op_name_of(op), what, n, k);
        return;
    }
    for (int i = 0; i < n; i++) set_operand_type(group->operands->items[i], group->types->items[i]);
}

/* Whether an indexed item `%v[...]` with n_idx bracketed operands fits at positional operand `at`
 * of the row: `at` is a plain position followed by exactly n_idx SPEC_INDEX positions. */
static bool indexed_spec_at(const OpInfo *info, int at, int n_idx) {
    int n = opspec_count(info->ins, OPSPEC_MAX);
    if (n_idx < 1 || at < 0 || at + n_idx >= n || (info->ins[at].flags & SPEC_INDEX)) return false;
    for (int j = 1; j <= n_idx; j++)
        if (!(info->ins[at + j].flags & SPEC_INDEX)) return false;
    return at + n_idx + 1 >= n || !(info->ins[at + n_idx + 1].flags & SPEC_INDEX);
}

/* The operand form of a row with SPEC_INDEX positions, `%array[%index], %value`; NULL for others. */
static const char *indexed_form(ParseCtx *ctx, const OpInfo *info) {
    int n = opspec_count(info->ins, OPSPEC_MAX);
    bool any = false;
    for (int i = 0; i < n; i++) any |= (info->ins[i].flags & SPEC_INDEX) != 0;
    if (!any) return NULL; /* (every statement asks: no allocation unless the row has one) */
    const char *form = "";
    bool value_first = (info->flags & OPF_VALUE_FIRST) && n > 1;
    if (value_first) form = arena_printf(ctx->scratch, "%%%s", info->ins[n - 1].name);
    for (int i = 0; i < n - (value_first ? 1 : 0); i++) {
        bool idx = info->ins[i].flags & SPEC_INDEX, first_idx = idx && (i == 0 || !(info->ins[i - 1].flags & SPEC_INDEX));
        bool last_idx = idx && (i + 1 == n || !(info->ins[i + 1].flags & SPEC_INDEX));
        form = arena_printf(ctx->scratch, "%s%s%%%s%s", form, first_idx ? "[" : i == 0 && !value_first ? "" : ", ",
                            info->ins[i].name, last_idx ? "]" : "");
    }
    return form;
}

/* The ops whose rows take `%v[%i]` (SPEC_INDEX positions), for messages: "pto.a and pto.b". */
static const char *indexed_op_names(ParseCtx *ctx) {
    const char *names = NULL, *last = NULL;
    for (int c = 0; c < OP_COUNT; c++) {
        if (!indexed_form(ctx, op_info((OpCode)c))) continue;
        if (last) names = names ? arena_printf(ctx->scratch, "%s, %s", names, last) : last;
        last = op_info((OpCode)c)->name;
    }
    if (!last) return "no op";
    return names ? arena_printf(ctx->scratch, "%s and %s", names, last) : last;
}

void pc_generic_stmt(ParseCtx *ctx, ResultDefs *defs, OpDraft *d) {
    if (!d) { /* a generic form already reported */
        pc_poison_defs(ctx, defs);
        return;
    }
    SrcLoc start = defs ? defs->loc : d->name.loc;
    if (!keep_statement(ctx, start)) {
        pc_poison_defs(ctx, defs);
        return;
    }
    FuncCtx *fc = current_func(ctx, start);
    OpCode code;
    if (!lookup_op(ctx, d->name.text, d->name.len, &code)) {
        if (d->name.len > 7 && memcmp(d->name.text, "memref.", 7) == 0)
            pc_error(ctx, d->name.loc, "unsupported operation '%.*s': IR after memref lowering is out of scope for pto-as, "
                     "which reads PTO's tile-level IR", (int)d->name.len, d->name.text);
        else if (op_unimplemented_reason(d->name.text, d->name.len))
            pc_error(ctx, d->name.loc, "unsupported operation '%.*s': %s", (int)d->name.len, d->name.text,
                     op_unimplemented_reason(d->name.text, d->name.len));
        else
            pc_error(ctx, d->name.loc, "unsupported operation '%.*s'", (int)d->name.len, d->name.text);
        pc_poison_defs(ctx, defs);
        return;
    }
    const OpInfo *info = op_info(code);
    const char *opn = info->name;
    Op *op = arena_alloc(ctx->arena, sizeof *op);
    op->code = code;
    op->loc = d->name.loc;
    if (d->sig) op->sig_loc = d->sig->loc;
    bool full_name = strlen(info->name) == d->name.len && memcmp(info->name, d->name.text, d->name.len) == 0;

    /* 1. sort the items */
    PtrVec positional = {0}, keywords = {0}, attr_args = {0}, operand_attrs = {0};
    const Item *ins_group = NULL, *outs_group = NULL;
    bool have_dict = false, indexed_seen = false;
    const int value_first = (info->flags & OPF_VALUE_FIRST) && !d->generic ? 1 : 0; /* `%v, %ptr[%i]` */
    bool malformed = false; /* the statement's shape is wrong: report that only, not its consequences */
    size_t n_items = d->items ? d->items->count : 0;
    for (size_t i = 0; i < n_items; i++) {
        Item *it = d->items->items[i];
        switch (it->kind) {
        case IT_OPERAND:
            if (i == 0 && code == OP_CMPF && it->operand->kind == OPD_BOOL) { /* `arith.cmpf true, ...` */
                op->predicate = it->operand->ival ? "true" : "false";
                break;
            }
            ptrvec_push(ctx->scratch, &positional, it->operand);
            break;
        case IT_SYMBOL_CALL: {
            const Operand *arg = it->operands->count == 1 ? it->operands->items[0] : NULL;
            if (it->tok.len != 5 || memcmp(it->tok.text, "@tile", 5) != 0 || !arg || arg->kind != OPD_INT) {
                pc_error(ctx, it->loc, "'%s' op expects '@tile(ADDRESS)' with one integer address here", opn);
                malformed = true;
                break;
            }
            Operand *o = arena_alloc(ctx->scratch, sizeof *o);
            o->kind = OPD_TILE_ADDR;
            o->ival = arg->ival;
            o->hex = arg->hex;
            o->text = arg->text;
            o->loc = it->loc;
            ptrvec_push(ctx->scratch, &positional, o);
            break;
        }
        case IT_SYMBOL:
            pc_error(ctx, it->loc, "'%s' op unexpected symbol '%.*s'", opn, (int)it->tok.len, it->tok.text);
            malformed = true;
            break;
        case IT_BAREWORD:
            if (i == 0 && takes_predicate(code)) {
                op->predicate = arena_strndup(ctx->arena, it->tok.text, it->tok.len);
                if (!valid_predicate(code, op->predicate))
                    pc_error(ctx, it->loc, "'%s' op unknown predicate '%s' (expected %s)", opn, op->predicate,
                             code == OP_CMPF ? "false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, "
                                               "uno or true"
                                             : "eq, ne, slt, sle, sgt, sge, ult, ule, ugt or uge");
            } else {
                pc_error(ctx, it->loc, "'%s' op unexpected keyword '%.*s'", opn, (int)it->tok.len, it->tok.text);
                malformed = true;
            }
            break;
        case IT_KEYWORD:
        case IT_KEYWORD_LIST:
        case IT_KEYWORD_ATTR:
            ptrvec_push(ctx->scratch, &keywords, it);
            break;
        case IT_PAREN:
            if (op_sig_style(info) != SIG_PIPE && op_sig_style(info) != SIG_PIPE_INIT && op_sig_style(info) != SIG_PAREN) {
                pc_error(ctx, it->loc, "'%s' op does not take a parenthesized operand list", opn);
                malformed = true;
                break;
            }
            /* PTOAS's pipe-op format: `{attrs} (key = %v : T, ...)`, `(%t : T)`, `(%r, %c)` */
            if (it->attrs) {
                if (have_dict) {
                    pc_error(ctx, it->loc, "'%s' op has more than one attribute dictionary", opn);
                    malformed = true;
                    break;
                }
                op->attrs = pc_attr_list(ctx, it->attrs);
                have_dict = true;
            }
            if (it->named) {
                for (size_t j = 0; j < it->operands->count; j++) ptrvec_push(ctx->scratch, &keywords, it->operands->items[j]);
                break;
            }
            if (it->types && it->types->count && it->types->count != it->operands->count) {
                pc_error(ctx, it->loc, "'%s' op (...) lists %zu operands but %zu types", opn, it->operands->count,
                         it->types->count);
                malformed = true;
                break;
            }
            for (size_t j = 0; j < it->operands->count; j++) {
                if (it->types && it->types->count) set_operand_type(it->operands->items[j], it->types->items[j]);
                ptrvec_push(ctx->scratch, &positional, it->operands->items[j]);
            }
            break;
        case IT_INDEXED: {
            /* `%arr[%i]`: the value, then its bracketed operands, at positions the row marks SPEC_INDEX
             * (a value-first row's leading operand is its last input: one position less) */
            int at = (int)positional.count - value_first, n_idx = (int)it->operands->count;
            if (!indexed_spec_at(info, at, n_idx)) {
                if (indexed_form(ctx, info))
                    pc_error(ctx, it->loc, "'%s' op expects its operands as `%s`", opn, indexed_form(ctx, info));
                else
                    pc_error(ctx, it->loc, "'%s' op does not take an indexed operand '%.*s[...]' (`%%v[%%i]` indexes an "
                             "event-id array, a pointer or a tile, in %s)", opn, (int)it->tok.len,
                             it->tok.text, indexed_op_names(ctx));
                malformed = true;
                break;
            }
            indexed_seen = true;
            ptrvec_push(ctx->scratch, &positional, pc_operand_value(ctx, it->tok));
            for (int j = 0; j < n_idx; j++) ptrvec_push(ctx->scratch, &positional, it->operands->items[j]);
            break;
        }
        case IT_ATTR_VALUE:
            if (info->cls == CLS_SYNC && info->elem[0] == 'P' && attr_args.count == 0 && positional.count == 0) {
                /* `pto.sync.set #pto.pipe<PIPE_FIX>, 0`: MLIR's attribute form of the leading pipe */
                ptrvec_push(ctx->scratch, &attr_args, pc_attr_raw(ctx, NULL, it->loc));
                break;
            }
            if (code == OP_CONSTANT && it->tok.len > 6 && memcmp(it->tok.text, "dense<", 6) == 0 && positional.count == 0) {
                /* a vector constant (its elements are checked against the result type by the verifier) */
                Operand *o = arena_alloc(ctx->scratch, sizeof *o);
                o->kind = OPD_DENSE;
                o->text = arena_strndup(ctx->arena, it->tok.text, it->tok.len);
                o->loc = it->loc;
                ptrvec_push(ctx->scratch, &positional, o);
                break;
            }
            pc_error(ctx, it->loc, "'%s' op unexpected attribute '%.*s' among its operands", opn, (int)it->tok.len,
                     it->tok.text);
            malformed = true;
            break;
        case IT_INS:
        case IT_OUTS: {
            const Item **slot = it->kind == IT_INS ? &ins_group : &outs_group;
            /* PTOAS writes some ops' attributes beside an operand (`ins(%t {rmode = ...} : T)`): they
             * are the op's attributes, checked against its row like any other */
            for (size_t j = 0; it->operand_attrs && it->attrs && j < it->attrs->count; j++)
                ptrvec_push(ctx->scratch, &operand_attrs, it->attrs->items[j]);
            if (it->kind == IT_INS && it->attr) { /* `ins("text", ...)`: the row's string attribute */
                const char *key = NULL;
                for (int j = 0; j < ATTRSPEC_MAX && info->attrs[j].name && !key; j++)
                    if (info->attrs[j].kind == AK_STRING) key = info->attrs[j].name;
                if (!(info->flags & OPF_STRING_IN_INS) || !key) {
                    pc_error(ctx, it->attr->loc, "'%s' op takes no string literal in ins(...)", opn);
                    malformed = true;
                    break;
                }
                Attr *a = arena_alloc(ctx->scratch, sizeof *a);
                *a = *it->attr;
                a->key = key;
                ptrvec_push(ctx->scratch, &operand_attrs, a);
            } else if (it->kind == IT_INS && (info->flags & OPF_STRING_IN_INS) && !d->generic) {
                pc_error(ctx, it->loc, "'%s' op expects a string literal first in ins(...): `%s ins(\"...\", %%v : T)`", opn, opn);
                malformed = true;
                break;
            }
            if (*slot) {
                pc_error(ctx, it->loc, "'%s' op has more than one %s(...) list", opn, it->kind == IT_INS ? "ins" : "outs");
                malformed = true;
            } else {
                *slot = it;
            }
            break;
        }
        case IT_ATTR_ARGS:
        case IT_ANGLE:
            if (info->cls != CLS_SYNC && it->kind == IT_ATTR_ARGS && indexed_form(ctx, info)) {
                /* `%arr [%i]`: MLIR's custom format allows a space before '['; the bracket follows a
                 * value and holds values, at the row's SPEC_INDEX positions */
                const Item *prev = i > 0 ? d->items->items[i - 1] : NULL;
                bool values = prev && prev->kind == IT_OPERAND && prev->operand->kind == OPD_VALUE && it->attrs->count > 0;
                for (size_t j = 0; values && j < it->attrs->count; j++) { /* values or integer literals */
                    const Attr *a = it->attrs->items[j];
                    const char *t = a->text ? a->text + (a->text[0] == '-') : "";
                    values = a->text && (a->text[0] == '%' || (*t >= '0' && *t <= '9' && t[strspn(t, "0123456789xabcdefABCDEF")] == '\0'));
                }
                if (!values || !indexed_spec_at(info, (int)positional.count - 1 - value_first, (int)it->attrs->count)) {
                    pc_error(ctx, it->loc, "'%s' op expects its operands as `%s`", opn, indexed_form(ctx, info));
                    malformed = true;
                    break;
                }
                for (size_t j = 0; j < it->attrs->count; j++) {
                    const Attr *a = it->attrs->items[j];
                    Tok t = {ctx->file->text + a->loc.offset, a->loc.len, a->loc};
                    ptrvec_push(ctx->scratch, &positional, a->text[0] == '%' ? pc_operand_value(ctx, t) : pc_operand_int(ctx, t));
                }
                indexed_seen = true;
                break;
            }
            if (info->cls != CLS_SYNC) {
                pc_error(ctx, it->loc, "'%s' op does not take attribute arguments", opn);
                malformed = true;
                break;
            }
            for (size_t j = 0; j < it->attrs->count; j++) {
                Attr *a = it->attrs->items[j];
                if (a->text && a->text[0] == '%') { /* a value among the arguments: an operand (set_flag_dyn) */
                    ptrvec_push(ctx->scratch, &positional,
                                pc_operand_value(ctx, (Tok){ctx->file->text + a->loc.offset, a->loc.len, a->loc}));
                    continue;
                }
                ptrvec_push(ctx->scratch, &attr_args, a);
            }
            op->attr_args_bracketed = it->kind == IT_ATTR_ARGS;
            break;
        case IT_ATTR_KEYWORD: { /* `sizes [16, 8]`: an attribute the row writes as a keyword */
            const AttrSpec *as = op_attr_spec(info, it->attr->key);
            if (!as || !(as->flags & ATTR_KEYWORD)) {
                pc_error(ctx, it->loc, "'%s' op unexpected keyword '%.*s' (`KEY [...]` without '=' is an attribute of the ops "
                         "that take one: pto.subset's sizes)", opn, (int)it->tok.len, it->tok.text);
                malformed = true;
                break;
            }
            ptrvec_push(ctx->scratch, &operand_attrs, it->attr);
            break;
        }
        case IT_ATTR_DICT:
            if (have_dict) {
                pc_error(ctx, it->loc, "'%s' op has more than one attribute dictionary", opn);
                malformed = true;
            } else {
                op->attrs = pc_attr_list(ctx, it->attrs);
            }
            have_dict = true;
            break;
        }
    }
    /* a sync row whose arguments end in an integer (ELEM `PI`: sync.set/sync.wait) written after
     * its pipe, `<PIPE_FIX>, 3`: the static id is an argument, not an operand */
    if (info->cls == CLS_SYNC && !strcmp(info->elem, "PI") && attr_args.count >= 1 && positional.count >= 1 &&
        ((Operand *)positional.items[0])->loc.offset < ((Attr *)attr_args.items[0])->loc.offset) {
        pc_error(ctx, ((Operand *)positional.items[0])->loc, "'%s' op expects its pipe first: `%s <PIPE>, ID`", opn, opn);
        malformed = true;
    } else if (info->cls == CLS_SYNC && !strcmp(info->elem, "PI") && attr_args.count == 1 && positional.count == 1 &&
               ((Operand *)positional.items[0])->kind == OPD_INT) {
        ptrvec_push(ctx->scratch, &attr_args, pc_attr_raw(ctx, NULL, ((Operand *)positional.items[0])->loc));
        positional.count = 0;
    }
    if (!malformed && !indexed_seen && !d->generic && indexed_form(ctx, info)) { /* `%arr, %i`: PTOAS's format has brackets */
        pc_error(ctx, positional.count ? ((Operand *)positional.items[0])->loc : op->loc, "'%s' op expects its operands as `%s`",
                 opn, indexed_form(ctx, info));
        malformed = true;
    }
    if (!malformed && value_first && indexed_seen && positional.count > 1) { /* `%v, %ptr[%i]`: v is the last input */
        void *v = positional.items[0];
        memmove(positional.items, positional.items + 1, (positional.count - 1) * sizeof *positional.items);
        positional.items[positional.count - 1] = v;
    }
    op->attr_args = pc_attr_list(ctx, &attr_args);
    if (operand_attrs.count) merge_operand_attrs(ctx, op, &operand_attrs);
    if (takes_predicate(code) && !op->predicate)
        pc_error(ctx, op->loc, "'%s' op missing predicate (e.g. '%s slt, %%a, %%b : index')", opn, opn);

    /* 2. split operands into ins and outs */
    int R = defs_count(defs);
    bool dps_form = ins_group || outs_group;
    int n_ins_spec = opspec_count(info->ins, OPSPEC_MAX);
    int n_outs_spec = opspec_count(info->outs, 2);
    int n_required = 0;
    for (int i = 0; i < n_ins_spec; i++)
        if (!(info->ins[i].flags & (SPEC_OPTIONAL | SPEC_VARIADIC))) n_required++;
    Operand **pos = (Operand **)positional.items;
    int P = (int)positional.count;
    Operand **ins_ops, **outs_ops;
    int n_ins, n_outs;
    if (dps_form && P > 0) {
        pc_error(ctx, pos[0]->loc, "'%s' op mixes positional operands with ins(...)/outs(...)", opn);
        malformed = true;
    }
    if (malformed) {
        pc_poison_defs(ctx, defs);
        return;
    }
    /* PTOAS's `%r = pto.tgetval ins(...) outs : T`: the signature after a bare outs is the result type */
    bool scalar_outs = (info->flags & OPF_SCALAR_RESULT) && outs_group && outs_group->operands->count == 0;
    if (dps_form) {
        op->spelling = SPELL_DPS;
        if (d->sig && !scalar_outs)
            pc_error(ctx, d->sig->loc, "'%s' op takes no ':' signature in the ins(...)/outs(...) form (the types go inside "
                     "the lists)", opn);
        if (ins_group && outs_group && outs_group->loc.offset < ins_group->loc.offset) swapped_groups(ctx, opn, ins_group, outs_group);
        if (ins_group) bind_group_types(ctx, op, ins_group, "ins");
        if (outs_group) bind_group_types(ctx, op, outs_group, "outs");
        ins_ops = ins_group ? (Operand **)ins_group->operands->items : NULL;
        n_ins = ins_group ? (int)ins_group->operands->count : 0;
        outs_ops = outs_group ? (Operand **)outs_group->operands->items : NULL;
        n_outs = outs_group ? (int)outs_group->operands->count : 0;
        P = 0;
    } else {
        op->spelling = (info->flags & OPF_DPS) ? (full_name ? SPELL_SSA : SPELL_ASM) : SPELL_CUSTOM;
        n_outs = 0;
        if ((info->flags & OPF_DPS) && R == 0) {
            int extra = P - n_required;
            n_outs = extra <= 0 ? 0 : extra < n_outs_spec ? extra : n_outs_spec;
        }
        n_ins = P - n_outs;
        ins_ops = pos;
        outs_ops = pos ? pos + n_ins : NULL;
    }

    /* 3. look values up (checks come after the signature is bound) */
    unsigned *pos_kinds = arena_alloc_array(ctx->scratch, (size_t)(P > 0 ? P : 1), sizeof *pos_kinds);
    for (int i = 0; i < n_ins; i++) {
        const OperandSpec *s = spec_at(info->ins, n_ins_spec, i);
        if (!dps_form) pos_kinds[i] = s ? s->kinds : 0;
        lookup_use(ctx, fc, ins_ops[i]);
    }
    for (int i = 0; i < n_outs; i++) {
        const OperandSpec *s = spec_at(info->outs, n_outs_spec, i);
        if (!dps_form) pos_kinds[n_ins + i] = s ? s->kinds : 0;
        lookup_use(ctx, fc, outs_ops[i]);
    }

    /* 3a. positional operands of an overload set whose rows differ in arity (tmrgsort): the first
     * row whose split into ins and outs takes them */
    if (!dps_form && R == 0 && (info->flags & OPF_DPS)) {
        OpCode first;
        int rows = op_overload_set(code, &first);
        for (int r = 0; rows > 1 && r < rows; r++) {
            OpCode c = (OpCode)(first + r);
            int split_ins, split_outs;
            if (!positional_split_fits(op_info(c), pos, P, &split_ins, &split_outs)) continue;
            if (c != code) {
                code = op->code = c;
                info = op_info(code);
                n_ins_spec = opspec_count(info->ins, OPSPEC_MAX);
                n_outs_spec = opspec_count(info->outs, 2);
                n_required = 0;
                for (int i = 0; i < n_ins_spec; i++)
                    if (!(info->ins[i].flags & (SPEC_OPTIONAL | SPEC_VARIADIC))) n_required++;
                n_ins = split_ins, n_outs = split_outs, outs_ops = pos + n_ins;
                for (int i = 0; i < n_ins; i++) pos_kinds[i] = spec_at(info->ins, n_ins_spec, i)->kinds;
                for (int i = 0; i < n_outs; i++) pos_kinds[n_ins + i] = spec_at(info->outs, n_outs_spec, i)->kinds;
            }
            break;
        }
    }

    /* 3b. an overload set: the row whose ins positions take these operands (tmov's fp tile) */
    OpCode chosen = overload_for(code, ins_ops, n_ins);
    if (chosen != code) {
        code = op->code = chosen;
        info = op_info(code);
        n_ins_spec = opspec_count(info->ins, OPSPEC_MAX);
        n_outs_spec = opspec_count(info->outs, 2); /* rows of a set may differ in outs (tmrgsort's executed) */
        n_required = 0;
        for (int i = 0; i < n_ins_spec; i++)
            if (!(info->ins[i].flags & (SPEC_OPTIONAL | SPEC_VARIADIC))) n_required++;
        for (int i = 0; !dps_form && i < n_ins; i++) {
            const OperandSpec *s = spec_at(info->ins, n_ins_spec, i);
            pos_kinds[i] = s ? s->kinds : 0;
        }
    }

    /* 4. keyword arguments */
    int n_kw_spec = opspec_count(info->kw, 4);
    bool kw_seen[4] = {false, false, false, false};
    if (keywords.count) {
        op->kwargs = arena_alloc_array(ctx->arena, keywords.count, sizeof *op->kwargs);
        for (size_t i = 0; i < keywords.count; i++) {
            const Item *it = keywords.items[i];
            int j = 0;
            while (j < n_kw_spec && !(strlen(info->kw[j].name) == it->tok.len &&
                                      memcmp(info->kw[j].name, it->tok.text, it->tok.len) == 0))
                j++;
            if (j == n_kw_spec) {
                pc_error(ctx, it->tok.loc, "'%s' op unexpected keyword argument '%.*s'", opn, (int)it->tok.len, it->tok.text);
                continue;
            }
            const OperandSpec *s = &info->kw[j];
            if (kw_seen[j]) {
                pc_error(ctx, it->tok.loc, "'%s' op duplicate keyword argument '%s'", opn, s->name);
                continue;
            }
            kw_seen[j] = true;
            if (it->kind == IT_KEYWORD_ATTR) {
                pc_error(ctx, it->attr->loc, "'%s' op keyword argument '%s' expects an operand, got an attribute", opn, s->name);
                continue;
            }
            bool list = it->kind == IT_KEYWORD_LIST;
            if ((s->flags & SPEC_VARIADIC) && !list) {
                pc_error(ctx, it->operand->loc, "'%s' op keyword argument '%s' expects a list '[...]'", opn, s->name);
                continue;
            }
            if (!(s->flags & SPEC_VARIADIC) && list) {
                pc_error(ctx, it->loc, "'%s' op keyword argument '%s' expects a single operand, not a list", opn, s->name);
                continue;
            }
            KeywordArg *kw = &op->kwargs[op->n_kwargs++];
            kw->key = s->name;
            kw->bracketed = list;
            kw->loc = it->tok.loc;
            if (list) kw->list = operand_list(ctx, (Operand **)it->operands->items, (int)it->operands->count);
            else kw->list = operand_list(ctx, (Operand **)&it->operand, 1);
            for (int k = 0; k < kw->list.count; k++) resolve_use(ctx, fc, op, &kw->list.items[k], s->name, s->kinds, false);
        }
    }
    for (int j = 0; j < n_kw_spec; j++)
        if (!kw_seen[j] && !(info->kw[j].flags & SPEC_OPTIONAL))
            pc_error(ctx, op->loc, "'%s' op missing keyword argument '%s'", opn, info->kw[j].name);

    /* 5. signature and results */
    TypeUse *res_types = arena_alloc_array(ctx->scratch, (size_t)(R > 0 ? R : 1), sizeof *res_types);
    if (d->sig && !dps_form) bind_signature(ctx, op, d->sig, pos, pos_kinds, P, R, res_types);
    if (dps_form && (info->flags & OPF_SCALAR_RESULT) && R == 1 && !(outs_group && outs_group->operands->count)) {
        if (scalar_outs && d->sig && !d->sig->arrow && !d->sig->to && d->sig->inputs->count == 1)
            res_types[0] = *(TypeUse *)d->sig->inputs->items[0];
        else /* (operands in outs(...) get the arity error) */
            pc_error(ctx, op->loc, "'%s' op is written `%%r = %s ins(...) outs : TYPE`, its result named and typed after "
                     "a bare `outs`", opn, opn);
    }
    bool results_ok = check_result_count(ctx, op, info, dps_form, defs, R);
    if (results_ok) infer_result_types(ctx, op, info, ins_ops, P, n_ins, defs, res_types, R);
    make_results(ctx, fc, op, defs, res_types);

    /* 6. assemble the operand lists (SSA form of a DPS op: the result is outs[0]) */
    op->ins = operand_list(ctx, ins_ops, n_ins);
    if ((info->flags & OPF_DPS) && !(info->flags & OPF_SCALAR_RESULT) && !dps_form && R > 0 && results_ok) {
        /* result i is outs[i] (R <= the row's N_RESULTS <= its outs: tmrgsort's `%dst, %executed = ...`) */
        Operand **dsts = arena_alloc_array(ctx->scratch, (size_t)R, sizeof *dsts);
        for (int i = 0; i < R; i++) {
            Operand *dst = dsts[i] = arena_alloc(ctx->scratch, sizeof *dst);
            dst->kind = OPD_VALUE;
            dst->value = op->results[i];
            dst->text = op->results[i]->name;
            dst->type = op->results[i]->type;
            dst->type_loc = op->results[i]->type_loc;
            dst->loc = op->results[i]->loc;
        }
        op->outs = operand_list(ctx, dsts, R);
    } else {
        op->outs = operand_list(ctx, outs_ops, n_outs);
    }
    /* names not visible yet: forward references or errors, decided at the end of the function */
    for (int i = 0; i < op->ins.count; i++) {
        const OperandSpec *s = spec_at(info->ins, n_ins_spec, i);
        resolve_use(ctx, fc, op, &op->ins.items[i], s ? s->name : "operand", s ? s->kinds : K_ANY,
                    s && (s->flags & SPEC_FORWARD));
    }
    for (int i = 0; i < op->outs.count; i++) {
        const OperandSpec *s = spec_at(info->outs, n_outs_spec, i);
        resolve_use(ctx, fc, op, &op->outs.items[i], s ? s->name : "operand", s ? s->kinds : K_ANY,
                    s && (s->flags & SPEC_FORWARD));
    }

    /* a view's result type follows from its resolved operands and attributes (ir/views.c) */
    if (op_sig_style(info) == SIG_OPERAND0_VIEW && results_ok && R == 1 && op->results && !op->results[0]->type) {
        TileType vt;
        if (view_result_tile(op, &vt)) {
            Type *t = arena_alloc(ctx->arena, sizeof *t);
            t->kind = TY_TILE;
            t->dtype = vt.dtype;
            t->tile = vt;
            t->tile_buf = true;
            op->results[0]->type = t;
        } else if (!malformed) {
            pc_error(ctx, op->loc, "'%s' op cannot infer the type of result %%%s: it needs a tile source and `sizes [R, C]` "
                     "of two positive integers", opn, op->results[0]->name);
        }
    }

    /* 7. arity */
    if (op->ins.count < n_required) {
        int missing = 0;
        for (int i = 0, seen = 0; i < n_ins_spec; i++) {
            if (info->ins[i].flags & (SPEC_OPTIONAL | SPEC_VARIADIC)) continue;
            if (seen++ == op->ins.count) {
                missing = i;
                break;
            }
        }
        pc_error(ctx, op->loc, "'%s' op missing operand '%s' (operands: %s)", opn, info->ins[missing].name,
                 spec_names(ctx, info->ins, n_ins_spec));
    } else if (!spec_at(info->ins, n_ins_spec, op->ins.count - 1) && op->ins.count > 0) {
        pc_error(ctx, op->ins.items[n_ins_spec].loc, "'%s' op has too many operands: expects at most %d (%s), got %d", opn,
                 n_ins_spec, spec_names(ctx, info->ins, n_ins_spec), op->ins.count);
    }
    int n_outs_required = 0;
    for (int i = 0; i < n_outs_spec; i++)
        if (!(info->outs[i].flags & SPEC_OPTIONAL)) n_outs_required++;
    if (op->outs.count < n_outs_required && results_ok) {
        if (dps_form)
            pc_error(ctx, outs_group ? outs_group->loc : op->loc, "'%s' op missing outs(...) operand '%s'", opn,
                     info->outs[op->outs.count].name);
        else if (op->outs.count > 0 && op->n_results > 0 && info->n_results >= n_outs_required) /* name them all */
            pc_error(ctx, op->loc, "'%s' op missing destination operand '%s': the result form names every destination, "
                     "'%%%s, %%%s = %s ... : (...) -> (...)'; or write the operands positionally without results ('%s ..., "
                     "%%%s, %%%s') or use ins(...)/outs(...)", opn, info->outs[op->outs.count].name, info->outs[0].name,
                     info->outs[1].name, opn, opn, info->outs[0].name, info->outs[1].name);
        else if (op->outs.count > 0 && op->n_results > 0) /* the result took dst: a second out has no spelling there */
            pc_error(ctx, op->loc, "'%s' op missing destination operand '%s': the result form names %s only; write the "
                     "operands positionally without a result ('%s ..., %%%s, %%%s') or use ins(...)/outs(...)", opn,
                     info->outs[op->outs.count].name, info->outs[0].name, opn, info->outs[0].name,
                     info->outs[op->outs.count].name);
        else
            pc_error(ctx, op->loc, "'%s' op missing destination operand '%s' (write '%%%s = %s ...' or outs(...))", opn,
                     info->outs[op->outs.count].name, info->outs[op->outs.count].name, opn);
    } else if (op->outs.count > n_outs_spec) {
        if (n_outs_spec == 0)
            pc_error(ctx, op->outs.items[0].loc, "'%s' op takes no outs(...) operands", opn);
        else
            pc_error(ctx, op->outs.items[n_outs_spec].loc, "'%s' op has too many outs operands: expects %d (%s), got %d", opn,
                     n_outs_spec, spec_names(ctx, info->outs, n_outs_spec), op->outs.count);
    }

    /* 8. kinds and use types of resolved operands */
    for (int i = 0; i < op->ins.count; i++) {
        const OperandSpec *s = spec_at(info->ins, n_ins_spec, i);
        if (s) check_operand(ctx, op, &op->ins.items[i], s->name, s->kinds);
    }
    for (int i = 0; i < op->outs.count; i++) {
        const OperandSpec *s = spec_at(info->outs, n_outs_spec, i);
        if (s) check_operand(ctx, op, &op->outs.items[i], s->name, s->kinds);
    }
    for (int i = 0; i < op->n_kwargs; i++) {
        const KeywordArg *kw = &op->kwargs[i];
        for (int j = 0; j < n_kw_spec; j++)
            if (strcmp(info->kw[j].name, kw->key) == 0)
                for (int k = 0; k < kw->list.count; k++) check_operand(ctx, op, &kw->list.items[k], kw->key, info->kw[j].kinds);
    }

    /* 9. region */
    if (d->region) {
        if (!(info->flags & OPF_REGIONS)) {
            pc_error(ctx, op->loc, "'%s' op takes no region", opn);
        } else {
            op->regions = arena_alloc(ctx->arena, sizeof *op->regions);
            op->n_regions = 1;
            op->regions[0].block = d->region;
            op->regions[0].parent = op;
            d->region->parent = &op->regions[0];
        }
    }

    define_results(ctx, fc, op);
    append_op(ctx, op);
    maybe_reset_scratch(ctx);
}

/* ---------------------------------------------------------------------------------------------- */
/* Control structure                                                                              */
/* ---------------------------------------------------------------------------------------------- */

static Op *new_control_op(ParseCtx *ctx, OpCode code, SrcLoc loc, int n_regions) {
    Op *op = arena_alloc(ctx->arena, sizeof *op);
    op->code = code;
    op->spelling = SPELL_CUSTOM;
    op->loc = loc;
    if (n_regions) {
        op->regions = arena_alloc_array(ctx->arena, (size_t)n_regions, sizeof *op->regions);
        op->n_regions = n_regions;
        for (int i = 0; i < n_regions; i++) {
            op->regions[i].block = new_block(ctx);
            op->regions[i].parent = op;
            op->regions[i].block->parent = &op->regions[i];
        }
    }
    return op;
}

/* The types of a TypeUse* list as an exact-size array (NULL when empty); *locs gets where each is
 * written when locs is not NULL. */
static Type **type_array(ParseCtx *ctx, PtrVec *types, int *count, SrcLoc **locs) {
    *count = types ? (int)types->count : 0;
    if (locs) *locs = NULL;
    if (!*count) return NULL;
    Type **out = arena_alloc_array(ctx->arena, (size_t)*count, sizeof *out);
    SrcLoc *where = locs ? arena_alloc_array(ctx->arena, (size_t)*count, sizeof *where) : NULL;
    for (int i = 0; i < *count; i++) {
        const TypeUse *u = types->items[i];
        out[i] = u->type;
        if (where) where[i] = u->loc;
    }
    if (locs) *locs = where;
    return out;
}

/* Ops (and pending uses) refer to operands by address: resolve after the list is final. */
static void resolve_list(ParseCtx *ctx, FuncCtx *fc, Op *op, OperandList *list, int from, const OperandSpec *specs, int n_specs) {
    for (int i = from; i < list->count; i++) {
        const OperandSpec *s = spec_at(specs, n_specs, i);
        resolve_use(ctx, fc, op, &list->items[i], s ? s->name : "operand", s ? s->kinds : K_ANY,
                    s && (s->flags & SPEC_FORWARD));
    }
}

static void check_list(ParseCtx *ctx, Op *op, OperandList *list, const OperandSpec *specs, int n_specs) {
    for (int i = 0; i < list->count; i++) {
        const OperandSpec *s = spec_at(specs, n_specs, i);
        check_operand(ctx, op, &list->items[i], s ? s->name : "operand", s ? s->kinds : K_ANY);
    }
}

/* The region `b` of `op` must end in `scf.yield` of values of `types` (when n > 0). */
static void check_yield(ParseCtx *ctx, const Op *op, const Block *b, Type **types, int n) {
    const Op *last = b->last;
    bool is_yield = last && last->code == OP_SCF_YIELD;
    const char *opn = op_name_of(op);
    if (n > 0 && !is_yield) {
        pc_error_rule(ctx, PARSE_RULE_REGION, last ? last->loc : op->loc, "'%s' op region must end with 'scf.yield' of %d value%s", opn, n,
                 n == 1 ? "" : "s");
        return;
    }
    if (!is_yield) return;
    if (last->ins.count != n) {
        pc_error_rule(ctx, PARSE_RULE_REGION, last->loc, "'scf.yield' op yields %d value%s, but the enclosing '%s' expects %d", last->ins.count,
                 last->ins.count == 1 ? "" : "s", opn, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const Type *t = operand_type(&last->ins.items[i]);
        if (t && types[i] && t->kind != TY_INVALID && types[i]->kind != TY_INVALID && !type_equal(t, types[i]))
            pc_error_rule(ctx, PARSE_RULE_REGION, last->ins.items[i].loc, "'scf.yield' op value %d has type %s, but the enclosing '%s' expects %s", i,
                     type_to_string(ctx->arena, t, false), opn, type_to_string(ctx->arena, types[i], false));
    }
}

static void define_block_arg(ParseCtx *ctx, FuncCtx *fc, Block *b, int index, Tok name, TypeUse type) {
    Value *v = new_value(ctx, fc, arena_strndup(ctx->arena, name.text + 1, name.len - 1), type.type, type.loc, name.loc);
    v->owner = b;
    v->result_index = index;
    b->args[index] = v;
    define_value(ctx, fc, v, NULL);
}

Op *pc_for_begin(ParseCtx *ctx, Tok iv, Operand *lb, Operand *ub, Operand *step, PtrVec *inits, PtrVec *iter_types,
                 TypeUse *iv_type, SrcLoc loc) {
    FuncCtx *fc = current_func(ctx, loc);
    Op *op = new_control_op(ctx, OP_SCF_FOR, loc, 1);
    const OpInfo *info = op_info(OP_SCF_FOR);
    int n_init = inits ? (int)inits->count - 1 : 0; /* the last entry is the type list */
    Operand **ops = arena_alloc_array(ctx->scratch, (size_t)(3 + n_init), sizeof *ops);
    ops[0] = lb, ops[1] = ub, ops[2] = step;
    for (int i = 0; i < n_init; i++) ops[3 + i] = ((InitPair *)inits->items[i])->init;
    op->ins = operand_list(ctx, ops, 3 + n_init);
    int n_spec = opspec_count(info->ins, OPSPEC_MAX);
    resolve_list(ctx, fc, op, &op->ins, 0, info->ins, n_spec);
    op->result_types = type_array(ctx, iter_types, &op->n_result_types, &op->result_type_locs);
    if (n_init && op->n_result_types != n_init)
        pc_error_rule(ctx, PARSE_RULE_REGION, loc, "'scf.for' op has %d iter_args but %d result types", n_init, op->n_result_types);
    check_list(ctx, op, &op->ins, info->ins, n_spec);
    for (int i = 0; i < n_init && i < op->n_result_types; i++) {
        const Operand *init = &op->ins.items[3 + i];
        const Type *t = operand_type(init);
        const Type *want = op->result_types[i];
        if (t && want && t->kind != TY_INVALID && want->kind != TY_INVALID && !type_equal(t, want))
            pc_error_rule(ctx, PARSE_RULE_REGION, init->loc, "'scf.for' op iter_args initial value %d has type %s, but the loop-carried type is %s", i,
                     type_to_string(ctx->arena, t, false), type_to_string(ctx->arena, want, false));
    }
    Block *body = op->regions[0].block;
    push_block(ctx, fc, body, loc);
    body->n_args = 1 + n_init;
    body->args = arena_alloc_array(ctx->arena, (size_t)body->n_args, sizeof *body->args);
    define_block_arg(ctx, fc, body, 0, iv, iv_type ? *iv_type : (TypeUse){pc_scalar_type(ctx, DT_INDEX), {0}});
    for (int i = 0; i < n_init; i++) {
        const InitPair *ip = inits->items[i];
        TypeUse t = i < op->n_result_types ? (TypeUse){op->result_types[i], op->result_type_locs[i]}
                                           : operand_type_use(ip->init);
        define_block_arg(ctx, fc, body, 1 + i, ip->name, t);
    }
    return op;
}

Op *pc_for_end(ParseCtx *ctx, Op *op) {
    Block *body = op->regions[0].block;
    check_yield(ctx, op, body, op->result_types, op->n_result_types);
    pop_block(ctx, body);
    return op;
}

Op *pc_if_begin(ParseCtx *ctx, Operand *cond, PtrVec *result_types, SrcLoc loc) {
    FuncCtx *fc = current_func(ctx, loc);
    Op *op = new_control_op(ctx, OP_SCF_IF, loc, 2);
    const OpInfo *info = op_info(OP_SCF_IF);
    op->ins = operand_list(ctx, &cond, 1);
    int n_spec = opspec_count(info->ins, OPSPEC_MAX);
    resolve_list(ctx, fc, op, &op->ins, 0, info->ins, n_spec);
    check_list(ctx, op, &op->ins, info->ins, n_spec);
    op->result_types = type_array(ctx, result_types, &op->n_result_types, &op->result_type_locs);
    push_block(ctx, fc, op->regions[0].block, loc);
    return op;
}

void pc_then_end(ParseCtx *ctx, Op *op) {
    check_yield(ctx, op, op->regions[0].block, op->result_types, op->n_result_types);
    pop_block(ctx, op->regions[0].block);
}

void pc_else_begin(ParseCtx *ctx, Op *op, SrcLoc loc) {
    push_block(ctx, current_func(ctx, loc), op->regions[1].block, loc);
}

Op *pc_if_end(ParseCtx *ctx, Op *op, bool has_else) {
    if (has_else) {
        check_yield(ctx, op, op->regions[1].block, op->result_types, op->n_result_types);
        pop_block(ctx, op->regions[1].block);
    } else if (op->n_result_types > 0) {
        pc_error_rule(ctx, PARSE_RULE_REGION, op->loc, "'scf.if' op with results needs an 'else' region");
    }
    return op;
}

Op *pc_while_begin(ParseCtx *ctx, PtrVec *inits, PtrVec *init_types, PtrVec *result_types, SrcLoc loc) {
    FuncCtx *fc = current_func(ctx, loc);
    Op *op = new_control_op(ctx, OP_SCF_WHILE, loc, 2);
    const OpInfo *info = op_info(OP_SCF_WHILE);
    int n = (int)inits->count;
    Operand **ops = arena_alloc_array(ctx->scratch, (size_t)(n ? n : 1), sizeof *ops);
    for (int i = 0; i < n; i++) ops[i] = ((InitPair *)inits->items[i])->init;
    int n_types = init_types ? (int)init_types->count : 0;
    TypeUse **types = init_types ? (TypeUse **)init_types->items : NULL;
    if (n_types != n)
        pc_error_rule(ctx, PARSE_RULE_REGION, loc, "'scf.while' op has %d initial values but its signature lists %d types", n, n_types);
    else
        for (int i = 0; i < n; i++) set_operand_type(ops[i], types[i]);
    op->ins = operand_list(ctx, ops, n);
    int n_spec = opspec_count(info->ins, OPSPEC_MAX);
    resolve_list(ctx, fc, op, &op->ins, 0, info->ins, n_spec);
    check_list(ctx, op, &op->ins, info->ins, n_spec);
    op->result_types = type_array(ctx, result_types, &op->n_result_types, &op->result_type_locs);
    Block *before = op->regions[0].block;
    push_block(ctx, fc, before, loc);
    before->n_args = n;
    before->args = arena_alloc_array(ctx->arena, (size_t)(n ? n : 1), sizeof *before->args);
    for (int i = 0; i < n; i++)
        define_block_arg(ctx, fc, before, i, ((InitPair *)inits->items[i])->name,
                         n_types == n ? *types[i] : operand_type_use(ops[i]));
    return op;
}

void pc_while_do(ParseCtx *ctx, Op *op, SrcLoc loc) {
    Block *before = op->regions[0].block;
    const Op *last = before->last;
    if (!last || last->code != OP_SCF_CONDITION) {
        pc_error_rule(ctx, PARSE_RULE_REGION, last ? last->loc : op->loc, "'scf.while' op first region must end with 'scf.condition'");
    } else if (last->ins.count - 1 != op->n_result_types) {
        pc_error_rule(ctx, PARSE_RULE_REGION, last->loc, "'scf.condition' op forwards %d values, but the enclosing 'scf.while' has %d results",
                 last->ins.count - 1, op->n_result_types);
    } else {
        for (int i = 0; i < op->n_result_types; i++) {
            const Type *t = operand_type(&last->ins.items[1 + i]);
            const Type *want = op->result_types[i];
            if (t && want && t->kind != TY_INVALID && want->kind != TY_INVALID && !type_equal(t, want))
                pc_error_rule(ctx, PARSE_RULE_REGION, last->ins.items[1 + i].loc, "'scf.condition' op value %d has type %s, but the enclosing "
                         "'scf.while' result type is %s", i, type_to_string(ctx->arena, t, false),
                         type_to_string(ctx->arena, want, false));
        }
    }
    pop_block(ctx, before);
    push_block(ctx, current_func(ctx, loc), op->regions[1].block, loc);
}

void pc_block_args(ParseCtx *ctx, PtrVec *args) {
    BlockFrame *f = top_frame(ctx);
    if (!f) return;
    Block *b = f->block;
    b->n_args = (int)args->count;
    b->args = arena_alloc_array(ctx->arena, args->count ? args->count : 1, sizeof *b->args);
    for (size_t i = 0; i < args->count; i++) {
        const ArgDecl *a = args->items[i];
        for (size_t k = 0; a->attrs && k < a->attrs->count; k++) {
            const Attr *at = a->attrs->items[k];
            diag_report(ctx->diags, ctx->file, SEV_ERROR, at->loc, "ATTR.unknown",
                        "unknown argument attribute '%s' on %.*s (pto-as would ignore it; PTOAS defines none)",
                        at->key ? at->key : "", (int)a->name.len, a->name.text);
        }
        define_block_arg(ctx, f->fc, b, (int)i, a->name, *a->type);
    }
}

Op *pc_while_end(ParseCtx *ctx, Op *op) {
    Block *after = op->regions[1].block;
    if (after->n_args != op->n_result_types)
        pc_error_rule(ctx, PARSE_RULE_REGION, op->loc, "'scf.while' op 'do' region has %d arguments, but the condition forwards %d values",
                 after->n_args, op->n_result_types);
    Block *before = op->regions[0].block;
    Type **want = arena_alloc_array(ctx->arena, (size_t)(before->n_args ? before->n_args : 1), sizeof *want);
    for (int i = 0; i < before->n_args; i++) want[i] = before->args[i]->type;
    check_yield(ctx, op, after, want, before->n_args);
    pop_block(ctx, after);
    return op;
}

Op *pc_call(ParseCtx *ctx, Tok callee, PtrVec *args, Signature *sig, SrcLoc loc) {
    FuncCtx *fc = current_func(ctx, loc);
    Op *op = new_control_op(ctx, OP_CALL, loc, 0);
    const OpInfo *info = op_info(OP_CALL);
    op->callee = arena_strndup(ctx->arena, callee.text + 1, callee.len - 1);
    if (op->callee[0] == '"') op->callee = arena_strndup(ctx->arena, callee.text + 2, callee.len - 3);
    op->sig_loc = sig->loc;
    int n = (int)args->count;
    if (sig->to || !sig->arrow) {
        pc_error_rule(ctx, PARSE_RULE_FUNC, sig->loc, "'func.call' op expects a function type signature such as ': (T) -> (R)'");
    } else if ((int)sig->inputs->count != n) {
        pc_error_rule(ctx, PARSE_RULE_FUNC, sig->loc, "'func.call' op signature lists %d argument types, but the call has %d arguments",
                 (int)sig->inputs->count, n);
    } else {
        for (int i = 0; i < n; i++) set_operand_type(args->items[i], sig->inputs->items[i]);
    }
    op->ins = operand_list(ctx, (Operand **)args->items, n);
    int n_spec = opspec_count(info->ins, OPSPEC_MAX);
    resolve_list(ctx, fc, op, &op->ins, 0, info->ins, n_spec);
    check_list(ctx, op, &op->ins, info->ins, n_spec);
    if (sig->arrow) op->result_types = type_array(ctx, sig->results, &op->n_result_types, &op->result_type_locs);
    ptrvec_push(ctx->arena, &ctx->calls, op);
    ptrvec_push(ctx->arena, &ctx->call_funcs, fc->func);
    return op;
}

void pc_control_stmt(ParseCtx *ctx, ResultDefs *defs, Op *op, SrcLoc loc) {
    SrcLoc start = defs ? defs->loc : loc;
    FuncCtx *fc = current_func(ctx, start);
    if (ctx->in_recovery) keep_statement(ctx, start);
    int R = defs_count(defs);
    if (R != op->n_result_types) {
        if (R == 0)
            pc_error(ctx, op->loc, "'%s' op results must be named (it produces %d value%s)", op_name_of(op),
                     op->n_result_types, op->n_result_types == 1 ? "" : "s");
        else
            pc_error(ctx, defs->loc, "'%s' op produces %d result%s, got %d names", op_name_of(op), op->n_result_types,
                     op->n_result_types == 1 ? "" : "s", R);
        pc_poison_defs(ctx, defs);
    } else if (R > 0) {
        TypeUse *types = arena_alloc_array(ctx->scratch, (size_t)R, sizeof *types);
        for (int i = 0; i < R; i++) types[i] = (TypeUse){op->result_types[i], op->result_type_locs[i]};
        make_results(ctx, fc, op, defs, types);
        define_results(ctx, fc, op);
    }
    append_op(ctx, op);
    maybe_reset_scratch(ctx);
}

/* Binds `: T, ...` of return / scf.condition values. */
static void bind_value_types(ParseCtx *ctx, const char *opn, Operand **vals, int n, PtrVec *types, SrcLoc loc) {
    int k = types ? (int)types->count : 0;
    if (k == 0) return;
    if (k != n) {
        pc_error(ctx, loc, "'%s' op has %d values but %d types", opn, n, k);
        return;
    }
    for (int i = 0; i < n; i++) set_operand_type(vals[i], types->items[i]);
}

void pc_return(ParseCtx *ctx, Tok kw, PtrVec *values, PtrVec *types, SrcLoc loc) {
    if (!keep_statement(ctx, kw.loc)) return;
    FuncCtx *fc = current_func(ctx, kw.loc);
    Op *op = new_control_op(ctx, OP_RETURN, kw.loc, 0);
    const OpInfo *info = op_info(OP_RETURN);
    int n = values ? (int)values->count : 0;
    if (n) bind_value_types(ctx, "return", (Operand **)values->items, n, types, loc);
    op->ins = operand_list(ctx, n ? (Operand **)values->items : NULL, n);
    int n_spec = opspec_count(info->ins, OPSPEC_MAX);
    resolve_list(ctx, fc, op, &op->ins, 0, info->ins, n_spec);
    check_list(ctx, op, &op->ins, info->ins, n_spec);
    Func *f = fc->func;
    if (current_block(ctx) != fc->body) {
        pc_error_rule(ctx, PARSE_RULE_FUNC, op->loc, "'return' op must be directly inside a function body (use 'scf.yield' in regions)");
    } else if (n != f->n_results) {
        pc_error_rule(ctx, PARSE_RULE_FUNC, op->loc, "'return' op has %d operands, but enclosing function (@%s) returns %d", n, f->name, f->n_results);
    } else {
        for (int i = 0; i < n; i++) {
            const Type *t = operand_type(&op->ins.items[i]);
            if (t && f->result_types[i] && t->kind != TY_INVALID && f->result_types[i]->kind != TY_INVALID &&
                !type_equal(t, f->result_types[i]))
                pc_error_rule(ctx, PARSE_RULE_FUNC, op->ins.items[i].loc, "'return' op type of return operand %d (%s) doesn't match function result "
                         "type (%s) in function @%s", i, type_to_string(ctx->arena, t, false),
                         type_to_string(ctx->arena, f->result_types[i], false), f->name);
        }
    }
    append_op(ctx, op);
}

void pc_condition(ParseCtx *ctx, Tok kw, Operand *cond, PtrVec *values, PtrVec *types, SrcLoc loc) {
    if (!keep_statement(ctx, kw.loc)) return;
    FuncCtx *fc = current_func(ctx, kw.loc);
    Op *op = new_control_op(ctx, OP_SCF_CONDITION, kw.loc, 0);
    const OpInfo *info = op_info(OP_SCF_CONDITION);
    int n = values ? (int)values->count : 0;
    if (n) bind_value_types(ctx, "scf.condition", (Operand **)values->items, n, types, loc);
    Operand **ops = arena_alloc_array(ctx->scratch, (size_t)n + 1, sizeof *ops);
    ops[0] = cond;
    for (int i = 0; i < n; i++) ops[1 + i] = values->items[i];
    op->ins = operand_list(ctx, ops, n + 1);
    int n_spec = opspec_count(info->ins, OPSPEC_MAX);
    resolve_list(ctx, fc, op, &op->ins, 0, info->ins, n_spec);
    check_list(ctx, op, &op->ins, info->ins, n_spec);
    append_op(ctx, op);
}

/* ---------------------------------------------------------------------------------------------- */
/* Functions and modules                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* A module or function attribute PTOAS does not define is an error naming it; pto.kernel_kind's
 * value is checked. */
static void check_scope_attrs(ParseCtx *ctx, const AttrList *attrs, bool on_func) {
    for (int i = 0; i < attrs->count; i++) {
        const Attr *a = &attrs->items[i];
        if (!scope_attr_use(on_func, a->key)) {
            diag_report(ctx->diags, ctx->file, SEV_ERROR, a->loc, "ATTR.unknown",
                        "unknown %s attribute '%s' (pto-as would ignore it); PTOAS defines %s", on_func ? "function" : "module",
                        a->key ? a->key : "", scope_attr_names(on_func));
            continue;
        }
        const char *w;
        size_t n;
        if (on_func && strcmp(a->key, "pto.kernel_kind") == 0 &&
            !(a->kind == ATTR_RAW && a->text && strncmp(a->text, "#pto.kernel_kind<", 17) == 0 && attr_enum_word(a, &w, &n) &&
              ((n == 6 && memcmp(w, "vector", 6) == 0) || (n == 4 && memcmp(w, "cube", 4) == 0))))
            diag_report(ctx->diags, ctx->file, SEV_ERROR, a->loc, "ATTR.value",
                        "function attribute 'pto.kernel_kind' expects #pto.kernel_kind<vector> or #pto.kernel_kind<cube>, got %s",
                        a->text ? a->text : "another kind of value");
    }
}

void pc_module_begin(ParseCtx *ctx, SrcLoc loc, PtrVec *attrs) {
    Module *m = ctx->module;
    if (ctx->saw_module) pc_error_rule(ctx, PARSE_RULE_FUNC, loc, "only one 'module' is allowed per file");
    else if (ctx->saw_bare && !ctx->mixing_reported) {
        pc_error_rule(ctx, PARSE_RULE_FUNC, loc, "bare top-level statements cannot be mixed with 'module' or 'func.func'");
        ctx->mixing_reported = true;
    }
    ctx->saw_module = true;
    m->has_module_keyword = true;
    m->attrs = pc_attr_list(ctx, attrs);
    check_scope_attrs(ctx, &m->attrs, false);
    const Attr *arch = attr_find(&m->attrs, "pto.target_arch");
    if (arch) {
        m->has_target_attr = true;
        Target t = TARGET_A2A3;
        bool known = arch->kind == ATTR_STRING && target_from_name(arch->text, &t);
        m->file_target = known ? t : TARGET_A2A3;
        if (!known) /* SPEC 1.2: any other value means A2A3; an unquoted a5 is a likely slip */
            diag_report(ctx->diags, ctx->file, SEV_WARNING, arch->loc, PARSE_RULE_FUNC,
                        "pto.target_arch value %s%s%s is not one of \"a2a3\", \"a2\", \"a3\", \"a5\" (a quoted string): "
                        "the A2A3 rules apply", arch->kind == ATTR_STRING ? "\"" : "", arch->text ? arch->text : "?",
                        arch->kind == ATTR_STRING ? "\"" : "");
    }
}

void pc_module_end(ParseCtx *ctx) {
    (void)ctx;
}

Func *pc_func_begin(ParseCtx *ctx, bool is_private, Tok name, PtrVec *args, PtrVec *results, PtrVec *attrs) {
    size_t errors_before = ctx->diags->errors;
    if (ctx->saw_bare && !ctx->mixing_reported) {
        pc_error_rule(ctx, PARSE_RULE_FUNC, name.loc, "bare top-level statements cannot be mixed with 'module' or 'func.func'");
        ctx->mixing_reported = true;
    }
    ctx->saw_func = true;
    Func *f = arena_alloc(ctx->arena, sizeof *f);
    f->name = arena_strndup(ctx->arena, name.text + 1, name.len - 1);
    f->loc = name.loc;
    f->is_private = is_private;
    f->attrs = pc_attr_list(ctx, attrs);
    check_scope_attrs(ctx, &f->attrs, true);
    f->is_entry = attr_find(&f->attrs, "pto.entry") || attr_find(&f->attrs, "hacc.entry");
    f->result_types = type_array(ctx, results, &f->n_results, &f->result_type_locs);
    if (ctx->funcs.count == PARSE_MAX_FUNCS) /* reported once; the scan below stays bounded */
        pc_error_rule(ctx, PARSE_RULE_LIMIT, name.loc, "more than %d functions in one module", PARSE_MAX_FUNCS);
    for (size_t i = 0; i < ctx->funcs.count && ctx->funcs.count <= PARSE_MAX_FUNCS; i++)
        if (strcmp(((Func *)ctx->funcs.items[i])->name, f->name) == 0) {
            pc_error_rule(ctx, PARSE_RULE_FUNC, name.loc, "redefinition of symbol '@%s'", f->name);
            break;
        }
    /* an error in its head (or a head type that failed to parse): the verifier skips it */
    if (ctx->diags->errors > errors_before) f->parse_failed = true;
    for (int i = 0; i < f->n_results; i++)
        if (!f->result_types[i] || f->result_types[i]->kind == TY_INVALID) f->parse_failed = true;
    for (size_t i = 0; args && i < args->count; i++) {
        const ArgDecl *a = args->items[i];
        if (!a->type || !a->type->type || a->type->type->kind == TY_INVALID) f->parse_failed = true;
    }
    ptrvec_push(ctx->arena, &ctx->funcs, f);
    FuncCtx *fc = new_func_ctx(ctx, f);
    fc->outer = ctx->func;
    ctx->func = fc;
    push_block(ctx, fc, fc->body, name.loc);
    f->n_args = args ? (int)args->count : 0;
    f->args = arena_alloc_array(ctx->arena, (size_t)(f->n_args ? f->n_args : 1), sizeof *f->args);
    for (int i = 0; i < f->n_args; i++) {
        const ArgDecl *a = args->items[i];
        for (size_t k = 0; a->attrs && k < a->attrs->count; k++) {
            const Attr *at = a->attrs->items[k];
            diag_report(ctx->diags, ctx->file, SEV_ERROR, at->loc, "ATTR.unknown",
                        "unknown argument attribute '%s' on %.*s (pto-as would ignore it; PTOAS defines none)",
                        at->key ? at->key : "", (int)a->name.len, a->name.text);
        }
        Value *v = new_value(ctx, fc, arena_strndup(ctx->arena, a->name.text + 1, a->name.len - 1), a->type->type,
                             a->type->loc, a->name.loc);
        v->result_index = i;
        f->args[i] = v;
        define_value(ctx, fc, v, NULL);
    }
    return f;
}

/* `close` is the function's closing '}' (line 0 when unknown). */
static void finish_func(ParseCtx *ctx, FuncCtx *fc, bool has_body, SrcLoc close) {
    Func *f = fc->func;
    f->is_declaration = !has_body;
    resolve_pending(ctx, fc);
    bool ends_with_return = fc->body->last && fc->body->last->code == OP_RETURN;
    if (has_body && f->n_results > 0 && !ends_with_return) {
        pc_error_rule(ctx, PARSE_RULE_FUNC, f->loc, "'func.func' op body of @%s must end with 'return' of %d value%s", f->name, f->n_results,
                 f->n_results == 1 ? "" : "s");
    } else if (has_body && !ends_with_return && fc != ctx->implicit_main) {
        /* MLIR (and PTOAS) need the terminator; only a bare program gets an implicit one */
        pc_error_rule(ctx, PARSE_RULE_FUNC, f->loc, "'func.func' op body of @%s must end with 'return'", f->name);
        if (close.line) {
            SrcLoc line_start = {close.line, 1, close.offset - (close.col - 1), 0};
            pc_note(ctx, close, "the body ends here");
            pc_fixit(ctx, line_start, arena_printf(ctx->arena, "%*sreturn\n", (int)close.col + 1, ""));
        }
    }
    if (!has_body && f->is_entry)
        pc_error_rule(ctx, PARSE_RULE_FUNC, f->loc, "'func.func' op `pto.entry` is only valid on function definitions");
}

void pc_func_end(ParseCtx *ctx, Func *func, bool has_body, SrcLoc close) {
    FuncCtx *fc = ctx->func;
    while (fc && fc->func != func) fc = fc->outer;
    if (!fc) return;
    pop_block(ctx, fc->body);
    finish_func(ctx, fc, has_body, close);
    ctx->func = fc->outer;
    func_tables_free(fc); /* its names are resolved: the next function starts from an empty table */
}

void pc_abandon_func(ParseCtx *ctx, Func *func) {
    FuncCtx *fc = ctx->func;
    while (fc && fc->func != func) fc = fc->outer;
    if (!fc) return;
    pop_block(ctx, fc->body);
    fc->func->is_declaration = fc->body->first == NULL;
    ctx->func = fc->outer;
}

/* Checks that need the whole module: calls and entry functions. */
static void check_module(ParseCtx *ctx) {
    Module *m = ctx->module;
    for (size_t i = 0; i < ctx->calls.count; i++) {
        Op *call = ctx->calls.items[i];
        ctx->blame_func = ctx->call_funcs.items[i]; /* an error here is the caller's */
        Func *callee = module_find_func(m, call->callee);
        if (!callee) {
            pc_error_rule(ctx, PARSE_RULE_FUNC, call->loc, "'func.call' op '@%s' does not reference a valid function", call->callee);
            continue;
        }
        if (callee->n_args != call->ins.count) {
            pc_error_rule(ctx, PARSE_RULE_FUNC, call->loc, "'func.call' op incorrect number of operands for callee @%s: expects %d, got %d",
                     callee->name, callee->n_args, call->ins.count);
            continue;
        }
        if (callee->n_results != call->n_result_types) {
            pc_error_rule(ctx, PARSE_RULE_FUNC, call->loc, "'func.call' op incorrect number of results for callee @%s: expects %d, got %d",
                     callee->name, callee->n_results, call->n_result_types);
            continue;
        }
        for (int j = 0; j < call->ins.count; j++) {
            const Type *t = operand_type(&call->ins.items[j]);
            const Type *want = callee->args[j]->type;
            if (t && want && t->kind != TY_INVALID && want->kind != TY_INVALID && !type_equal(t, want))
                pc_error_rule(ctx, PARSE_RULE_FUNC, call->ins.items[j].loc, "'func.call' op operand type mismatch: expected operand type %s, but "
                         "provided %s for operand number %d", type_to_string(ctx->arena, want, false),
                         type_to_string(ctx->arena, t, false), j);
        }
        for (int j = 0; j < call->n_result_types; j++) {
            const Type *t = call->result_types[j];
            const Type *want = callee->result_types[j];
            if (t && want && t->kind != TY_INVALID && want->kind != TY_INVALID && !type_equal(t, want))
                pc_error_rule(ctx, PARSE_RULE_FUNC, call->sig_loc, "'func.call' op result type mismatch at index %d: expected %s, got %s", j,
                         type_to_string(ctx->arena, want, false), type_to_string(ctx->arena, t, false));
        }
    }
    /* SPEC 1.2 / PTOAS: entry functions return nothing. */
    Func *entry = module_entry(m, NULL);
    for (int i = 0; i < m->n_funcs; i++) {
        Func *f = m->funcs[i];
        ctx->blame_func = f;
        if ((f->is_entry || f == entry) && !f->is_declaration && f->n_results > 0)
            pc_error_rule(ctx, PARSE_RULE_FUNC, f->loc, "'func.func' op PTO entry functions must return void (@%s returns %d value%s)", f->name,
                     f->n_results, f->n_results == 1 ? "" : "s");
    }
    ctx->blame_func = NULL;
}

void pc_finish_file(ParseCtx *ctx) {
    /* close whatever a syntax error left open */
    while (ctx->func && ctx->func != ctx->implicit_main) {
        FuncCtx *fc = ctx->func;
        pop_block(ctx, fc->body);
        fc->func->is_declaration = fc->body->first == NULL;
        ctx->func = fc->outer;
    }
    /* a file without any statement is a bare program too: an implicit @main with an empty body */
    if (!ctx->implicit_main && !ctx->saw_module && !ctx->saw_func && ctx->diags->errors == ctx->errors_at_start)
        current_func(ctx, (SrcLoc){1, 1, 0, 0});
    if (ctx->implicit_main) {
        pop_block(ctx, ctx->implicit_main->body);
        finish_func(ctx, ctx->implicit_main, true, (SrcLoc){0, 0, 0, 0});
        ptrvec_push(ctx->arena, &ctx->funcs, ctx->implicit_main->func);
        ctx->func = NULL;
    }
    ctx->n_frames = 0;
    Module *m = ctx->module;
    m->n_funcs = (int)ctx->funcs.count;
    m->funcs = arena_alloc_array(ctx->arena, ctx->funcs.count ? ctx->funcs.count : 1, sizeof *m->funcs);
    for (size_t i = 0; i < ctx->funcs.count; i++) m->funcs[i] = ctx->funcs.items[i];
    module_index_funcs(m);
    check_module(ctx);
}
