// Harness (test only, not committed): runs the CPU simulator's compare/select/generator ops on
// deterministic data and writes inputs and outputs (valid regions, row-major) as raw .bin files.
#include <pto/pto-inst.hpp>
#include <cstdio>
#include <cstring>
#include <cmath>
using namespace pto;
static uint32_t seed = 12345;
static uint32_t rnd() { seed = seed * 1664525u + 1013904223u; return seed >> 8; }
static float rf() {
    static const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, 0.5f, -1.0f, 1e-10f};
    uint32_t r = rnd() % 16;
    if (r < 9) return sp[r];
    return (float)((int)(rnd() % 9) - 4) * 0.5f;
}
template <typename T> static void dump(const char *name, T *p, int rows, int cols, int stride) {
    FILE *f = fopen(name, "wb");
    for (int r = 0; r < rows; r++) fwrite(p + r * stride, sizeof(T), cols, f);
    fclose(f);
}
int main() {
    { // A: TCMPS f32 8x64 GT, scalar 1.0 (0x3F800000); dst u8 8x64 valid 8x8
        using S = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, -1, -1>;
        using D = Tile<TileType::Vec, uint8_t, 8, 64, BLayout::RowMajor, -1, -1>;
        S s(8, 64); D d(8, 8);
        TASSIGN(s, 0x0); TASSIGN(d, 0x1000);
        for (int i = 0; i < 512; i++) s.data()[i] = rf();
        dump("A_s.bin", s.data(), 8, 64, 64);
        TCMPS(d, s, 1.0f, CmpMode::GT);
        dump("A_d.bin", d.data(), 8, 8, 64);
    }
    { // B: TCMPS half 32x32 GE, scalar 0.5; dst u8 32x32 valid 32x4
        using S = Tile<TileType::Vec, half, 32, 32, BLayout::RowMajor, -1, -1>;
        using D = Tile<TileType::Vec, uint8_t, 32, 32, BLayout::RowMajor, -1, -1>;
        S s(32, 32); D d(32, 4);
        TASSIGN(s, 0x0); TASSIGN(d, 0x1000);
        for (int i = 0; i < 1024; i++) s.data()[i] = (half)rf();
        dump("B_s.bin", s.data(), 32, 32, 32);
        TCMPS(d, s, (half)0.5f, CmpMode::GE);
        dump("B_d.bin", d.data(), 32, 4, 32);
    }
    { // C: TCMP i32 -> u32 64x64 LT; dst valid 64x2
        using S = Tile<TileType::Vec, int32_t, 64, 64, BLayout::RowMajor, -1, -1>;
        using D = Tile<TileType::Vec, uint32_t, 64, 64, BLayout::RowMajor, -1, -1>;
        S a(64, 64), b(64, 64); D d(64, 2);
        TASSIGN(a, 0x0); TASSIGN(b, 0x4000); TASSIGN(d, 0x8000);
        for (int i = 0; i < 4096; i++) { a.data()[i] = (int)(rnd() % 7) - 3; b.data()[i] = (int)(rnd() % 7) - 3; }
        dump("C_a.bin", a.data(), 64, 64, 64); dump("C_b.bin", b.data(), 64, 64, 64);
        TCMP(d, a, b, CmpMode::LT);
        dump("C_d.bin", d.data(), 64, 2, 64);
    }
    { // D: TSEL case1 f32 2x128, mask u8 2x32
        using T = Tile<TileType::Vec, float, 2, 128, BLayout::RowMajor, -1, -1>;
        using M = Tile<TileType::Vec, uint8_t, 2, 32, BLayout::RowMajor, -1, -1>;
        using P = Tile<TileType::Vec, uint8_t, 1, 32, BLayout::RowMajor, -1, -1>;
        T a(2, 128), b(2, 128), d(2, 128); M m(2, 32); P t(1, 32);
        TASSIGN(a, 0x0); TASSIGN(b, 0x400); TASSIGN(d, 0x800); TASSIGN(m, 0xC00); TASSIGN(t, 0xD00);
        for (int i = 0; i < 256; i++) { a.data()[i] = (float)i; b.data()[i] = -(float)i; }
        for (int i = 0; i < 64; i++) m.data()[i] = (uint8_t)rnd();
        dump("D_a.bin", a.data(), 2, 128, 128); dump("D_b.bin", b.data(), 2, 128, 128); dump("D_m.bin", m.data(), 2, 32, 32);
        TSEL(d, m, a, b, t);
        dump("D_d.bin", d.data(), 2, 128, 128);
    }
    { // E: TCMPS f32 4x64 EQ and NE with scalar 0 (specials), u8 dst 4x64 valid 4x8
        using S = Tile<TileType::Vec, float, 4, 64, BLayout::RowMajor, -1, -1>;
        using D = Tile<TileType::Vec, uint8_t, 4, 64, BLayout::RowMajor, -1, -1>;
        S s(4, 64); D d(4, 8), e(4, 8);
        TASSIGN(s, 0x0); TASSIGN(d, 0x1000); TASSIGN(e, 0x2000);
        for (int i = 0; i < 256; i++) s.data()[i] = rf();
        dump("E_s.bin", s.data(), 4, 64, 64);
        TCMPS(d, s, 0.0f, CmpMode::EQ);
        TCMPS(e, s, 0.0f, CmpMode::NE);
        dump("E_d.bin", d.data(), 4, 8, 64); dump("E_e.bin", e.data(), 4, 8, 64);
    }
    { // F: TSELS i16 8x48 valid 8x40, mask u8 8x32 valid 8x5, scalar 7
        using T = Tile<TileType::Vec, int16_t, 8, 48, BLayout::RowMajor, -1, -1>;
        using M = Tile<TileType::Vec, uint8_t, 8, 32, BLayout::RowMajor, -1, -1>;
        T s(8, 40), d(8, 40), t(8, 40); M m(8, 5);
        TASSIGN(s, 0x0); TASSIGN(d, 0x1000); TASSIGN(t, 0x2000); TASSIGN(m, 0x3000);
        for (int i = 0; i < 384; i++) s.data()[i] = (int16_t)(i * 3 - 500);
        for (int i = 0; i < 256; i++) m.data()[i] = (uint8_t)rnd();
        dump("F_s.bin", s.data(), 8, 40, 48); dump("F_m.bin", m.data(), 8, 5, 32);
        TSELS(d, m, s, t, (int16_t)7);
        dump("F_d.bin", d.data(), 8, 40, 48);
    }
    { // G: TCMP f16 -> u8 16x48 valid 16x40, NE; dst 16x32 valid 16x5 (A2A3 shape rules)
        using S = Tile<TileType::Vec, half, 16, 48, BLayout::RowMajor, -1, -1>;
        using D = Tile<TileType::Vec, uint8_t, 16, 32, BLayout::RowMajor, -1, -1>;
        S a(16, 40), b(16, 40); D d(16, 5);
        TASSIGN(a, 0x0); TASSIGN(b, 0x1000); TASSIGN(d, 0x2000);
        for (int i = 0; i < 768; i++) { a.data()[i] = (half)rf(); b.data()[i] = (half)rf(); }
        dump("G_a.bin", a.data(), 16, 40, 48); dump("G_b.bin", b.data(), 16, 40, 48);
        TCMP(d, a, b, CmpMode::NE);
        dump("G_d.bin", d.data(), 16, 5, 32);
    }
    { // H: TCI i32 1x64 descending from 10; TTRI f16 16x32 lower diag 3; TTRI i32 16x32 valid 12x20 upper diag -2
        using C = Tile<TileType::Vec, int32_t, 1, 64, BLayout::RowMajor, -1, -1>;
        C c(1, 64);
        TASSIGN(c, 0x0);
        TCI<C, int32_t, 1>(c, 10);
        dump("H_c.bin", c.data(), 1, 64, 64);
        using L = Tile<TileType::Vec, half, 16, 32, BLayout::RowMajor, -1, -1>;
        L l(16, 32);
        TASSIGN(l, 0x1000);
        TTRI<L, 0>(l, 3);
        dump("H_l.bin", l.data(), 16, 32, 32);
        using U = Tile<TileType::Vec, int32_t, 16, 32, BLayout::RowMajor, -1, -1>;
        U u(12, 20);
        TASSIGN(u, 0x2000);
        TTRI<U, 1>(u, -2);
        dump("H_u.bin", u.data(), 12, 20, 32);
    }
    return 0;
}
