/* callgraph.c - the module's call graph and its strongly connected components (iterative Tarjan,
 * so deep call chains cannot overflow the C stack). A call between two functions of one component
 * (or of a function to itself) is recursive, which PTOAS rejects. */
#include "vctx.h"

#include <string.h>

/* FNV-1a of a NUL-terminated name. */
static uint32_t name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

int callgraph_func_index(const CallGraph *g, const char *name) {
    if (!g || !name || g->slot_count == 0) return -1;
    size_t mask = g->slot_count - 1, i = name_hash(name) & mask;
    while (g->slots[i] >= 0) {
        if (strcmp(g->funcs[g->slots[i]]->name, name) == 0) return g->slots[i];
        i = (i + 1) & mask;
    }
    return -1;
}

static void index_names(Arena *arena, CallGraph *g) {
    size_t cap = 16;
    while (cap < (size_t)g->n * 2 + 2) cap *= 2;
    g->slot_count = cap;
    g->slots = arena_alloc_array(arena, cap, sizeof *g->slots);
    for (size_t i = 0; i < cap; i++) g->slots[i] = -1;
    for (int f = 0; f < g->n; f++) {
        if (callgraph_func_index(g, g->funcs[f]->name) >= 0) continue; /* redefinition: parser reports it */
        size_t i = name_hash(g->funcs[f]->name) & (cap - 1);
        while (g->slots[i] >= 0) i = (i + 1) & (cap - 1);
        g->slots[i] = f;
    }
}

/* Calls out of a block (regions included), appended as callee indices; returns the new count. */
static int64_t collect_calls(const CallGraph *g, const Block *b, int *out, int64_t count) {
    for (const Op *op = b ? b->first : NULL; op; op = op->next) {
        if (op->callee) {
            int callee = callgraph_func_index(g, op->callee);
            if (callee >= 0) {
                if (out) out[count] = callee;
                count++;
            }
        }
        for (int r = 0; r < op->n_regions; r++) count = collect_calls(g, op->regions[r].block, out, count);
    }
    return count;
}

/* Tarjan's algorithm with an explicit stack of (function, next edge). */
static void find_components(Arena *arena, CallGraph *g) {
    int n = g->n;
    int *index = arena_alloc_array(arena, (size_t)n, sizeof *index);
    int *low = arena_alloc_array(arena, (size_t)n, sizeof *low);
    bool *on_stack = arena_alloc_array(arena, (size_t)n, sizeof *on_stack);
    int *stack = arena_alloc_array(arena, (size_t)n, sizeof *stack);
    int *call_fn = arena_alloc_array(arena, (size_t)n, sizeof *call_fn);
    int64_t *call_edge = arena_alloc_array(arena, (size_t)n, sizeof *call_edge);
    for (int i = 0; i < n; i++) index[i] = -1;
    int next_index = 0, sp = 0, components = 0;
    for (int root = 0; root < n; root++) {
        if (index[root] >= 0) continue;
        int depth = 0;
        call_fn[0] = root;
        call_edge[0] = g->edge_start[root];
        index[root] = low[root] = next_index++;
        stack[sp++] = root, on_stack[root] = true;
        while (depth >= 0) {
            int v = call_fn[depth];
            if (call_edge[depth] < g->edge_start[v + 1]) {
                int w = g->edges[call_edge[depth]++];
                if (index[w] < 0) {
                    index[w] = low[w] = next_index++;
                    stack[sp++] = w, on_stack[w] = true;
                    depth++;
                    call_fn[depth] = w;
                    call_edge[depth] = g->edge_start[w];
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                int w;
                do {
                    w = stack[--sp];
                    on_stack[w] = false;
                    g->component[w] = components;
                } while (w != v);
                components++;
            }
            depth--;
            if (depth >= 0 && low[v] < low[call_fn[depth]]) low[call_fn[depth]] = low[v];
        }
    }
}

void callgraph_build(Arena *arena, const Module *m, CallGraph *g) {
    memset(g, 0, sizeof *g);
    g->n = m->n_funcs;
    g->funcs = (const Func *const *)m->funcs;
    if (g->n <= 0) return;
    index_names(arena, g);
    g->edge_start = arena_alloc_array(arena, (size_t)g->n + 1, sizeof *g->edge_start);
    for (int f = 0; f < g->n; f++) {
        const Func *fn = g->funcs[f];
        int64_t calls = fn->is_declaration ? 0 : collect_calls(g, fn->body.block, NULL, 0);
        g->edge_start[f + 1] = g->edge_start[f] + calls;
    }
    g->edges = arena_alloc_array(arena, (size_t)g->edge_start[g->n] + 1, sizeof *g->edges);
    for (int f = 0; f < g->n; f++)
        if (!g->funcs[f]->is_declaration) collect_calls(g, g->funcs[f]->body.block, g->edges + g->edge_start[f], 0);
    g->component = arena_alloc_array(arena, (size_t)g->n, sizeof *g->component);
    find_components(arena, g);
}
