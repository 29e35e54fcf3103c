/* attrs.c - the values each kind of op attribute takes (ops.def ATTRS column) and how they are
 * read from the text as written: `#pto<cmp lt>`, `#pto.cmp<lt>`, `#pto.layout<nd>`, "lt", lt. */
#include "ir.h"

#include <string.h>

typedef struct AttrKindInfo {
    const char *const *names; /* enum spellings (index = value), NULL-terminated; NULL: not an enum */
    const char *text;         /* what the kind takes, for messages */
} AttrKindInfo;

static const char *const layout_names[] = {"nd", "dn", "nz", NULL};
static const char *const atomic_names[] = {"atomic_none", "atomic_add", NULL};
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge", NULL};
static const char *const round_names[] = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD", "CAST_RINT", NULL};
static const char *const sat_names[] = {"ON", "OFF", NULL};
static const char *const mask_names[] = {"P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111", NULL};
static const char *const quant_names[] = {"INT8_SYM", "INT8_ASYM", "MXFP8", "MXFP4_E2M1", NULL};
static const char *const relu_names[] = {"no_relu", "normal_relu", NULL};
static const char *const acc_to_vec_names[] = {"single_mode_vec0", "single_mode_vec1", "dual_mode_split_m",
                                                "dual_mode_split_n", NULL};
static const char *const gather_oob_names[] = {"undefined", "clamp", "wrap", "zero", NULL};
static const char *const scatter_atomic_names[] = {"none", "add", "max", "min", NULL};
static const char *const scatter_oob_names[] = {"undefined", "skip", "clamp", "wrap", NULL};

static const char *const address_space_names[] = {"vec", "mat", NULL};

static const AttrKindInfo kinds[AK_KIND_COUNT] = {
    [AK_LAYOUT] = {layout_names, "one of nd, dn, nz (#pto.layout<nd>)"},
    [AK_ATOMIC] = {atomic_names, "one of atomic_none, atomic_add (#pto<atomic_type atomic_add>)"},
    [AK_CMP_MODE] = {cmp_names, "one of eq, ne, lt, le, gt, ge (#pto<cmp lt>)"},
    [AK_ROUND_MODE] = {round_names, "one of NONE, RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, CAST_RINT (#pto<round_mode RINT>)"},
    [AK_SAT_MODE] = {sat_names, "one of ON, OFF (#pto<saturation_mode ON>)"},
    [AK_MASK_PATTERN] = {mask_names, "one of P0101, P1010, P0001, P0010, P0100, P1000, P1111 (#pto.mask_pattern<P0101>)"},
    [AK_BOOL] = {NULL, "true or false"},
    [AK_INT] = {NULL, "an integer (7 : i32)"},
    [AK_QUANT_TYPE] = {quant_names, "one of INT8_SYM, INT8_ASYM (#pto<quant_type INT8_SYM>)"},
    [AK_RELU_PRE_MODE] = {relu_names, "one of no_relu, normal_relu (#pto<relu_pre_mode normal_relu>)"},
    [AK_ACC_TO_VEC_MODE] = {acc_to_vec_names, "one of single_mode_vec0, single_mode_vec1, dual_mode_split_m, "
                                              "dual_mode_split_n (#pto.acc_to_vec_mode<dual_mode_split_m>)"},
    [AK_GATHER_OOB] = {gather_oob_names, "one of undefined, clamp, wrap, zero (#pto<gather_oob clamp>)"},
    [AK_SCATTER_ATOMIC] = {scatter_atomic_names, "one of none, add, max, min (#pto<scatter_atomic_op add>)"},
    [AK_SCATTER_OOB] = {scatter_oob_names, "one of undefined, skip, clamp, wrap (#pto<scatter_oob skip>)"},
    [AK_STRING] = {NULL, "a string (\"c2v_fifo\")"},
    [AK_SYMBOL] = {NULL, "a function symbol (@name)"},
    [AK_ADDRESS_SPACE] = {address_space_names, "one of vec, mat (#pto.address_space<vec>)"},
    [AK_INT_ARRAY] = {NULL, "a list of integers ([16, 8])"},
};

bool attr_enum_word(const Attr *a, const char **word, size_t *len) {
    const char *t = a->text;
    if (!t) return false;
    if (a->kind == ATTR_STRING) {
        *word = t;
        *len = strlen(t);
        return true;
    }
    if (a->kind != ATTR_RAW) return false;
    const char *lt = strchr(t, '<'), *gt = strrchr(t, '>');
    if (!lt) { /* a bare word */
        *word = t;
        *len = strlen(t);
        return true;
    }
    if (!gt || gt < lt) return false;
    const char *end = gt;
    while (end > lt + 1 && (end[-1] == ' ' || end[-1] == '"')) end--;
    const char *start = end;
    while (start > lt + 1 && start[-1] != ' ' && start[-1] != '"') start--;
    *word = start;
    *len = (size_t)(end - start);
    return *len > 0;
}

bool attr_int_array(const Attr *a, int64_t *vals, int max, int *count) {
    const char *t = a && a->kind == ATTR_RAW ? a->text : NULL;
    if (!t || *t != '[') return false;
    int n = 0;
    t++;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r') t++;
    if (*t == ']') {
        *count = 0;
        return t[1] == '\0';
    }
    for (;;) {
        while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r') t++;
        bool neg = *t == '-';
        if (neg) t++;
        if (*t < '0' || *t > '9') return false;
        int64_t v = 0;
        while (*t >= '0' && *t <= '9') {
            if (!checked_mul_i64(v, 10, &v) || !checked_add_i64(v, neg ? -(*t - '0') : *t - '0', &v)) return false;
            t++;
        }
        if (n >= max) return false;
        vals[n++] = v;
        while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r') t++;
        if (*t == ']') break;
        if (*t != ',') return false;
        t++;
    }
    *count = n;
    return t[1] == '\0';
}

bool attr_value(const Attr *a, AttrValueKind kind, int64_t *value) {
    if ((unsigned)kind >= AK_KIND_COUNT) return false;
    if (kind == AK_BOOL) {
        if (a->kind != ATTR_BOOL) return false;
        *value = a->ival != 0;
        return true;
    }
    if (kind == AK_INT) {
        if (a->kind != ATTR_INT) return false;
        *value = a->ival;
        return true;
    }
    if (kind == AK_STRING) { /* the value is the text itself (a->text) */
        *value = 0;
        return a->kind == ATTR_STRING && a->text;
    }
    if (kind == AK_INT_ARRAY) { /* the value is the number of integers */
        int64_t vals[8];
        int n = 0;
        *value = 0;
        if (!attr_int_array(a, vals, 8, &n)) return false;
        *value = n;
        return true;
    }
    if (kind == AK_SYMBOL) {
        *value = 0;
        return a->kind == ATTR_RAW && a->text && a->text[0] == '@' && a->text[1];
    }
    const char *w;
    size_t len;
    if (!attr_enum_word(a, &w, &len)) return false;
    for (int64_t i = 0; kinds[kind].names[i]; i++)
        if (strlen(kinds[kind].names[i]) == len && strncmp(kinds[kind].names[i], w, len) == 0) {
            *value = i;
            return true;
        }
    return false;
}

const char *attr_enum_name(AttrValueKind kind, int64_t index) {
    if ((unsigned)kind >= AK_KIND_COUNT || !kinds[kind].names || index < 0) return NULL;
    for (int64_t i = 0; kinds[kind].names[i]; i++)
        if (i == index) return kinds[kind].names[i];
    return NULL;
}

const char *attr_kind_text(AttrValueKind kind) { return (unsigned)kind < AK_KIND_COUNT ? kinds[kind].text : "?"; }

int64_t op_attr_value(const Op *op, const char *key, AttrValueKind kind, int64_t fallback) {
    const Attr *a = attr_find(&op->attrs, key);
    int64_t v;
    return a && attr_value(a, kind, &v) ? v : fallback;
}

/* Attributes PTOAS defines on a module or a function (its tools and passes read them). */
typedef struct ScopeAttr {
    const char *key;
    const char *use; /* what pto-as does with it */
} ScopeAttr;

static const ScopeAttr module_attrs[] = {
    {"pto.target_arch", "selects the target profile"},
    {"pto.device-spec", "informational (PTOAS does not read it either)"},
    {NULL, NULL},
};

static const ScopeAttr func_attrs[] = {
    {"pto.entry", "marks the kernel entry"},
    {"hacc.entry", "marks the kernel entry (PTOAS's older spelling)"},
    {"pto.kernel_kind", "checked (#pto.kernel_kind<vector> or <cube>); PTOAS's section placement, no effect in pto-run"},
    {"pto.auto_sync_tail_hint", "kept; read by PTOAS's --enable-insert-sync only"},
    {"pto.auto_sync_tail_barrier", "kept; read by PTOAS's --enable-insert-sync only"},
    {NULL, NULL},
};

const char *scope_attr_use(bool on_func, const char *key) {
    for (const ScopeAttr *a = on_func ? func_attrs : module_attrs; key && a->key; a++)
        if (strcmp(a->key, key) == 0) return a->use;
    return NULL;
}

const char *scope_attr_names(bool on_func) {
    return on_func ? "pto.entry, hacc.entry, pto.kernel_kind, pto.auto_sync_tail_hint, pto.auto_sync_tail_barrier"
                   : "pto.target_arch, pto.device-spec";
}

/* Attributes PTOAS defines on ops pto-as implements, whose meaning pto-as does not implement
 * (PTOOps.td): refused by name as not implemented, rather than as unknown. */
static const struct {
    const char *op, *key, *what;
} unimplemented_attrs[] = {
    {"pto.tload", "pad_mode", "tload padding modes"},
    {"pto.tload", "init_out_buffer", "tload's output-buffer initialisation"},
    {"pto.tstore", "stPhase", "the phases of a split acc store"},
    {NULL, NULL, NULL},
};

const char *ptoas_attr_unimplemented(const char *op_name, const char *key) {
    for (int i = 0; op_name && key && unimplemented_attrs[i].op; i++)
        if (strcmp(unimplemented_attrs[i].op, op_name) == 0 && strcmp(unimplemented_attrs[i].key, key) == 0)
            return unimplemented_attrs[i].what;
    return NULL;
}
