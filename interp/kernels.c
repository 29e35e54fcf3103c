/* kernels.c - the portable kernel variant (kernels_isa.h compiled for the build's baseline CPU) and
 * the choice of a variant: kernel_isa_best picks the fastest one this CPU runs, once per
 * interpreter, and the lowering stores that variant's function pointers in each instruction.
 * Every variant gives bit-identical results (tests/unit/test_kernels_fast.c). */
#include "kernels.h"

#include <stdlib.h>

#define KISA_TABLE kernels_portable
#define KISA_NAME "portable"
#include "kernels_isa.h"

#if KERNELS_HAVE_AVX2
extern const KernelIsaTable kernels_avx2, kernels_avx512, kernels_avx512fp16;
#endif

bool kernel_isa_available(KernelIsa isa) {
    switch (isa) {
    case KISA_PORTABLE: return true;
#if KERNELS_HAVE_AVX2
    case KISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
    case KISA_AVX512:
        return kernel_isa_available(KISA_AVX2) && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq");
    case KISA_AVX512FP16: return kernel_isa_available(KISA_AVX512) && __builtin_cpu_supports("avx512fp16");
#endif
    default: return false;
    }
}

KernelIsa kernel_isa_best(void) {
    const char *force = getenv("PTO_RUN_KERNELS");
    for (int i = 0; force && i < KISA_COUNT; i++)
        if (strcmp(force, kernel_isa_table((KernelIsa)i)->name) == 0 && kernel_isa_available((KernelIsa)i))
            return (KernelIsa)i;
    for (int i = KISA_COUNT - 1; i > 0; i--)
        if (kernel_isa_available((KernelIsa)i)) return (KernelIsa)i;
    return KISA_PORTABLE;
}

const KernelIsaTable *kernel_isa_table(KernelIsa isa) {
#if KERNELS_HAVE_AVX2
    if (isa == KISA_AVX2 && kernel_isa_available(KISA_AVX2)) return &kernels_avx2;
    if (isa == KISA_AVX512 && kernel_isa_available(KISA_AVX512)) return &kernels_avx512;
    if (isa == KISA_AVX512FP16 && kernel_isa_available(KISA_AVX512FP16)) return &kernels_avx512fp16;
#endif
    (void)isa;
    return &kernels_portable;
}

const KernelSet *kernel_set(DType dt, KernelIsa isa) {
    if ((unsigned)dt >= DT_COUNT) return NULL;
    const KernelSet *s = &kernel_isa_table(isa)->set[dt];
    return s->fill ? s : NULL;
}
