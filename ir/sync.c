/* sync.c - what the arguments of the synchronisation ops name: pipes, sync op types and event ids
 * (PTOAS's PTOAttrs.td and PTOSyncUtils.cpp), shared by the verifier's rules and pto-run's
 * --check-sync. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

static const char *const pipe_names[SYNC_PIPE_COUNT] = {
    "PIPE_S",    "PIPE_V",  "PIPE_M",   "PIPE_MTE1", "PIPE_MTE2",             "PIPE_MTE3",            "PIPE_ALL",
    "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX", "VIRTUAL_PIPE_MTE2_L1A", "VIRTUAL_PIPE_MTE2_L1B"};

static const struct {
    const char *name;
    int8_t pipe;
} op_types[] = {{"TLOAD", SYNC_PIPE_MTE2},    {"TSTORE_ACC", SYNC_PIPE_FIX}, {"TSTORE_VEC", SYNC_PIPE_MTE3},
                {"TMOV_M2L", SYNC_PIPE_MTE1}, {"TMOV_M2S", SYNC_PIPE_FIX},   {"TMOV_M2B", SYNC_PIPE_MTE1},
                {"TMOV_M2V", SYNC_PIPE_V},    {"TMOV_V2M", SYNC_PIPE_FIX},   {"TMATMUL", SYNC_PIPE_M},
                {"TVEC", SYNC_PIPE_V},        {"TVECWAIT_EVENT", SYNC_PIPE_V}};

static bool word_is(const char *w, size_t n, const char *name) { return strlen(name) == n && !strncmp(w, name, n); }

const char *sync_pipe_name(int pipe) { return pipe >= 0 && pipe < SYNC_PIPE_COUNT ? pipe_names[pipe] : "?"; }

int sync_pipe_named(const char *w, size_t n) {
    for (int p = 0; p < SYNC_PIPE_COUNT; p++)
        if (word_is(w, n, pipe_names[p])) return p;
    return -1;
}

int sync_op_type_pipe(const char *w, size_t n) {
    for (size_t i = 0; i < sizeof op_types / sizeof *op_types; i++)
        if (word_is(w, n, op_types[i].name)) return op_types[i].pipe;
    return -1;
}

int sync_event_named(const char *w, size_t n) {
    return n == 9 && !strncmp(w, "EVENT_ID", 8) && w[8] >= '0' && w[8] <= '7' ? w[8] - '0' : -1;
}

/* The pipe or event an argument of kind P, O or E names, or -1. */
static int arg_value(const Attr *a, char kind) {
    const char *w;
    size_t n;
    if (!attr_enum_word(a, &w, &n)) return -1;
    return kind == 'P' ? sync_pipe_named(w, n) : kind == 'O' ? sync_op_type_pipe(w, n) : sync_event_named(w, n);
}

bool sync_flag_args(const Op *op, int *src, int *dst, int *event) {
    const char *kinds = op_info(op->code)->elem;
    size_t n = strlen(kinds);
    if (n < 2 || op->attr_args.count != (int)n) return false;
    *src = arg_value(&op->attr_args.items[0], kinds[0]);
    *dst = arg_value(&op->attr_args.items[1], kinds[1]);
    *event = n > 2 ? arg_value(&op->attr_args.items[2], kinds[2]) : -1;
    return *src >= 0 && *dst >= 0 && (n == 2 || *event >= 0);
}

bool sync_int_arg(const Attr *a, int64_t *value) {
    const char *t = a->text;
    if (!t || a->kind != ATTR_RAW || !((*t >= '0' && *t <= '9') || *t == '-')) return false;
    char *end;
    long long v = strtoll(t, &end, 0);
    while (*end == ' ') end++;
    if (*end && *end != ':') return false; /* `3 : i32` keeps its type */
    *value = v;
    return true;
}

bool sync_buf_args(const Op *op, int *pipe, int64_t *buf_id) {
    if (op->attr_args.count != 2 || op->ins.count) return false;
    *pipe = arg_value(&op->attr_args.items[0], 'O');
    return *pipe >= 0 && sync_int_arg(&op->attr_args.items[1], buf_id);
}

bool sync_cross_args(const Op *op, int *pipe, int64_t *id) {
    if (op->attr_args.count + op->ins.count != 2 || op->attr_args.count < 1) return false;
    *pipe = arg_value(&op->attr_args.items[0], 'P');
    *id = -1;
    return *pipe >= 0 && (op->attr_args.count == 1 || sync_int_arg(&op->attr_args.items[1], id));
}

int sync_cross_ids(Target target) { return target == TARGET_A5 ? 32 : 16; }
