/* arena.c - bump allocator: one per compilation, freed in one call. Chunks come zeroed (calloc, or
 * fresh mappings for large arenas) and memory is handed out once (arena_reset clears what it takes
 * back), so allocations need no clearing of their own. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "ir.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    size_t mapped;          /* bytes of the mapping (0: from calloc) */
    _Alignas(16) unsigned char data[];
} Chunk;

/* Chunks of a small arena (all scratch arenas, small programs) come from calloc; once an arena
 * holds this much, its chunks are at least this big and mapped from the system directly, so that
 * freeing a large arena returns its memory at once instead of leaving it to the C library. */
enum { SMALL_CHUNK = 64 << 10, BIG_CHUNK = 1 << 20 };

/* A zeroed chunk with room for `size` bytes (mapped when `big`), or NULL. */
static Chunk *chunk_new(size_t size, bool big) {
#ifdef MAP_ANONYMOUS
    if (big) {
        size_t bytes = sizeof(Chunk) + size;
        void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        Chunk *c = m; /* fresh mappings read as zero */
        c->mapped = bytes;
        return c;
    }
#else
    (void)big;
#endif
    return calloc(1, sizeof(Chunk) + size);
}

static void chunk_free(Chunk *c) {
#ifdef MAP_ANONYMOUS
    if (c->mapped) {
        munmap(c, c->mapped);
        return;
    }
#endif
    free(c);
}

struct Arena {
    Chunk *head;
    size_t bytes_used;
};

_Noreturn void host_out_of_memory(size_t size) {
    fprintf(stderr, "fatal: out of host memory (allocating %zu bytes)\n", size);
    exit(2);
}

void *heap_calloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size);
    if (!p) host_out_of_memory(count * size);
    return p;
}

void heap_vec_push(PtrVec *vec, void *item) {
    if (vec->count == vec->cap) {
        size_t cap = vec->cap ? vec->cap * 2 : 16;
        if (cap > SIZE_MAX / sizeof(void *)) host_out_of_memory(SIZE_MAX);
        void **items = realloc(vec->items, cap * sizeof *items);
        if (!items) host_out_of_memory(cap * sizeof *items);
        vec->items = items;
        vec->cap = cap;
    }
    vec->items[vec->count++] = item;
}

Arena *arena_new(void) {
    Arena *a = calloc(1, sizeof *a);
    if (!a) host_out_of_memory(sizeof *a);
    return a;
}

void arena_free(Arena *arena) {
    if (!arena) return;
    Chunk *c = arena->head;
    while (c) {
        Chunk *next = c->next;
        chunk_free(c);
        c = next;
    }
    free(arena);
}

void arena_reset(Arena *arena) {
    Chunk *c = arena->head;
    if (!c) return;
    if (!c->next) {
        memset(c->data, 0, c->used);
        c->used = 0;
        arena->bytes_used = 0;
        return;
    }
    /* several chunks: one that holds all of it next time */
    size_t total = 0;
    for (Chunk *k = c; k; k = k->next) total += k->size;
    while (c) {
        Chunk *next = c->next;
        chunk_free(c);
        c = next;
    }
    arena->head = NULL;
    arena->bytes_used = 0;
    c = chunk_new(total, total >= BIG_CHUNK);
    if (!c) return; /* the next allocation makes a chunk */
    c->size = total;
    arena->head = c;
}

void *arena_alloc(Arena *arena, size_t size) {
    size_t rounded = (size + 15) & ~(size_t)15;
    if (rounded < size) host_out_of_memory(size);
    Chunk *c = arena->head;
    if (!c || c->size - c->used < rounded) {
        bool big = arena->bytes_used >= BIG_CHUNK || rounded >= BIG_CHUNK;
        size_t least = big ? BIG_CHUNK : SMALL_CHUNK;
        size_t chunk_size = rounded > least ? rounded : least;
        if (chunk_size > SIZE_MAX - sizeof(Chunk)) host_out_of_memory(size);
        c = chunk_new(chunk_size, big);
        if (!c) host_out_of_memory(size);
        c->size = chunk_size;
        /* Big blocks go behind the head so the head's free space is kept for small ones. */
        if (arena->head && rounded > least) {
            c->next = arena->head->next;
            arena->head->next = c;
        } else {
            c->next = arena->head;
            arena->head = c;
        }
    }
    void *p = c->data + c->used;
    c->used += rounded;
    arena->bytes_used += rounded;
    return p; /* zero: the chunk was zeroed when it was made and is only handed out once */
}

void *arena_alloc_array(Arena *arena, size_t count, size_t elem_size) {
    size_t total;
    if (__builtin_mul_overflow(count, elem_size, &total)) host_out_of_memory(SIZE_MAX);
    return arena_alloc(arena, total ? total : 1);
}

char *arena_strndup(Arena *arena, const char *s, size_t len) {
    char *p = arena_alloc(arena, len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *arena_strdup(Arena *arena, const char *s) {
    return arena_strndup(arena, s, strlen(s));
}

char *arena_vprintf(Arena *arena, const char *fmt, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) n = 0;
    char *p = arena_alloc(arena, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *arena_printf(Arena *arena, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(arena, fmt, ap);
    va_end(ap);
    return p;
}

size_t arena_bytes_used(const Arena *arena) {
    return arena->bytes_used;
}

void ptrvec_push(Arena *arena, PtrVec *vec, void *item) {
    if (vec->count == vec->cap) {
        size_t cap = vec->cap ? vec->cap * 2 : 8;
        void **items = arena_alloc_array(arena, cap, sizeof *items);
        if (vec->count) memcpy(items, vec->items, vec->count * sizeof *items);
        vec->items = items;
        vec->cap = cap;
    }
    vec->items[vec->count++] = item;
}
