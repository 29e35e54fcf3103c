/* fuzz_datafile.c - libFuzzer harness (c): the .npy / .bin readers and writers (SPEC 7).
 *
 * Input byte 0 picks the binding's element type (bits 0-3 and 5, modulo the list) and the file
 * name's extension (bit 4: .npy, else .bin); the other bytes are the file. The file is written to a temporary
 * path and read with datafile_read exactly as `pto-run --in` does. When the read succeeds, the
 * array is written back with datafile_write as .npy and as .bin, both are read again and must
 * give the same dtype, shape and bytes; the array is also compared with itself and printed. */
#define _DEFAULT_SOURCE /* mkstemps */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "interp.h"

static const DType dtypes[] = {DT_F16, DT_BF16, DT_F32, DT_I8, DT_U8, DT_I16, DT_U16, DT_I32, DT_U32, DT_I64, DT_U64,
                               DT_I1, DT_INDEX, DT_NONE, DT_F8E4M3FN, DT_F8E4M3, DT_F8E5M2, DT_F8E8M0FNU,
                               DT_F8E4M3FNUZ, DT_F8E4M3B11FNUZ, DT_F8E5M2FNUZ};

/* A fresh temporary path ending in `suffix` (created empty, mode 0600); caller unlinks it. */
static void temp_path(char *buf, size_t len, const char *suffix) {
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(buf, len, "%s/pto-fuzz-XXXXXX%s", dir, suffix);
    int fd = mkstemps(buf, (int)strlen(suffix));
    if (fd < 0) {
        perror("fuzz: mkstemps");
        abort();
    }
    close(fd);
}

static void write_raw(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror("fuzz: writing the input file");
        abort();
    }
}

/* Writes `a` to a temporary file with `suffix`, reads it back, and checks it is the same array. */
static void check_write_read(const DataArray *a, const char *suffix) {
    char path[128], err[512];
    temp_path(path, sizeof path, suffix);
    bool wrote = datafile_write(path, a, err, sizeof err);
    FUZZ_CHECK(wrote, "datafile_write(%s) failed: %s", suffix, err);
    DataArray back;
    bool read = datafile_read(path, a->dtype, &back, err, sizeof err);
    FUZZ_CHECK(read, "reading back a written %s file failed: %s", suffix, err);
    size_t bytes = (size_t)a->count * dtype_size(a->dtype);
    FUZZ_CHECK(back.dtype == a->dtype && back.count == a->count && memcmp(back.data, a->data, bytes) == 0,
               "%s round trip changed the array (%lld -> %lld elements)", suffix, (long long)a->count,
               (long long)back.count);
    if (strcmp(suffix, ".npy") == 0) {
        FUZZ_CHECK(back.rank == a->rank, ".npy round trip changed the rank %d -> %d", a->rank, back.rank);
        for (int i = 0; i < a->rank; i++)
            FUZZ_CHECK(back.shape[i] == a->shape[i], ".npy round trip changed dim %d", i);
    }
    data_array_free(&back);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    DType dt = dtypes[((data[0] & 0x0f) | (data[0] & 0x20) >> 1) % (sizeof dtypes / sizeof *dtypes)];
    const char *suffix = data[0] & 0x10 ? ".npy" : ".bin";
    char path[128], err[512];
    temp_path(path, sizeof path, suffix);
    write_raw(path, data + 1, size - 1);
    DataArray a;
    err[0] = '\0';
    bool ok = datafile_read(path, dt, &a, err, sizeof err);
    unlink(path);
    if (!ok) {
        FUZZ_CHECK(err[0] != '\0', "a rejection without a message");
        return 0;
    }
    FUZZ_CHECK(a.dtype == dt && a.rank >= 1 && a.rank <= DATA_MAX_RANK && a.count >= 0, "bad array header");
    check_write_read(&a, ".npy");
    check_write_read(&a, ".bin");
    FILE *sink = fuzz_sink();
    CompareOptions co = {0};
    int64_t bad = data_array_compare(sink, "a", &a, &a, &co, err, sizeof err);
    FUZZ_CHECK(bad == 0, "an array differs from itself (%lld)", (long long)bad);
    if (a.count <= 4096) data_array_print(sink, "a", &a);
    fclose(sink);
    data_array_free(&a);
    return 0;
}
