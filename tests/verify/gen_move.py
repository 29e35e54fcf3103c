#!/usr/bin/python3
"""Writes tests/verify/move_a5.pto and move_a2a3.pto: TEXTRACT, TINSERT, TCONCAT and TRESHAPE accepted
in each form PTOAS takes on the target, and each rule of verifier/rules_move.c rejecting once.
Run after changing those rules: /usr/bin/python3 tests/verify/gen_move.py"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def TT(loc, shape, dt, extra=""):
    return "!pto.tile_buf<%s, %sx%s%s>" % (loc, shape, dt, (", " + extra) if extra else "")

class F:
    def __init__(self, target, doc):
        self.lines = ["// RUN: --target=%s" % target, "// " + doc, "module {", "  func.func @move(%i: index, %j: index, %n: i32) {",
                      "    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index", "    %c8 = arith.constant 8 : index",
                      "    %m1 = arith.constant -1 : index"]
        self.k = 0
    def tile(self, ty):
        self.k += 1
        name = "%%t%d" % self.k
        kw = ""
        if "valid=?x" in ty:
            kw += "valid_row = %c8 "
        if "x?>" in ty or "x?," in ty:
            kw += "valid_col = %c8 "
        self.lines.append("    %s = pto.alloc_tile %s: %s" % (name, kw, ty))
        return name
    def op(self, text, expect=None):
        if expect:
            self.lines.append("    // expected-error@+1 {{%s}}" % expect)
        self.lines.append("    " + text)
    def off(self, name, src, dst, r, c, expect=None):
        s, d = self.tile(src), self.tile(dst)
        self.op("pto.%s ins(%s, %s, %s : %s, index, index) outs(%s : %s)" % (name, s, r, c, src, d, dst), expect)
    def offt(self, name, src, dst, r, c, rt, ct, expect=None):
        s, d = self.tile(src), self.tile(dst)
        self.op("pto.%s ins(%s, %s, %s : %s, %s, %s) outs(%s : %s)" % (name, s, r, c, src, rt, ct, d, dst), expect)
    def cat(self, a, b, d, expect=None):
        x, y, z = self.tile(a), self.tile(b), self.tile(d)
        self.op("pto.tconcat ins(%s, %s : %s, %s) outs(%s : %s)" % (x, y, a, b, z, d), expect)
    def resh(self, a, b, expect=None):
        x = self.tile(a)
        self.k += 1
        self.op("%%r%d = pto.treshape %s : %s -> %s" % (self.k, x, a, b), expect)
    def write(self, path):
        self.lines += ["    return", "  }", "}"]
        open(path, "w").write("\n".join(self.lines) + "\n")

V = lambda s, d, e="": TT("vec", s, d, e)
for target in ("a5", "a2a3"):
    a5 = target == "a5"
    f = F(target, "TEXTRACT, TINSERT, TCONCAT, TRESHAPE on %s: accepted forms, and each rule rejecting (PTOAS's words)." % target.upper())
    # ---- TEXTRACT
    if a5:
        for dt in ("f32", "f16", "bf16", "i8", "ui8"):
            f.off("textract", V("32x64", dt), V("16x32", dt), "%c8", "%c8")
        f.off("textract", V("32x64", "f32"), V("16x32", "f32", "valid=5x7"), "%i", "%j")
        f.off("textract", V("32x64", "f32"), V("16x32", "f32"), "%i", "8")
        f.off("textract", V("32x64", "i16"), V("16x32", "i16"), "%c0", "%c0", "TEXTRACT.dtype")
        f.off("textract", V("32x64", "f32"), V("16x32", "f16"), "%c0", "%c0", "expects src and dst to have the same element type, got f32 and f16")
        f.off("textract", V("32x64", "f32"), V("16x32", "f32"), "%c8", "%c8", None)
        f.off("textract", V("32x64", "f32"), V("16x32", "f32"), "%m1", "%c0", "expects indexRow to be non-negative")
        f.off("textract", V("32x64", "f32"), V("16x32", "f32"), "65536", "%c0", "expects indexRow to fit the ISA's uint16_t offset (at most 65535), got 65536")
        f.off("textract", V("32x64", "f32"), V("32x32", "f32"), "%c1", "%c0", "expects indexRow + dst.rows <= src.rows, got 1 + 32 > 32")
        f.off("textract", V("32x64", "f32"), V("16x64", "f32"), "%c0", "%c8", "TEXTRACT.bounds")
        f.off("textract", V("32x64", "f32", "blayout=col_major"), V("16x32", "f32"), "%c0", "%c0", "expects A5 vec->vec textract src/dst to use ND layout")
        f.off("textract", V("32x64", "f32"), TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), "%c0", "%c0", "expects A5 textract to use a supported src/dst loc pair")
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), TT("left", "16x32", "f16", "blayout=col_major, slayout=row_major"), "%c0", "%c0")
        # PTOAS's parser makes every A5 left tile col_major outside, whatever the text says
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), TT("left", "16x32", "f16", "blayout=row_major, slayout=row_major"), "%c0", "%c0")
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), TT("left", "16x32", "f16", "blayout=col_major, slayout=col_major"), "%c0", "%c0", "expects A5 left dst to use col_major blayout and row_major slayout")
        f.offt("textract", V("32x64", "f32"), V("16x32", "f32"), "%n", "%c0", "i32", "index", "expects indexRow and indexCol to be index type")
        s = f.tile(V("32x64", "f32"))
        f.lines.append("    // expected-error@+1 {{TEXTRACT.dst-form}}")
        f.lines.append("    %%x1 = pto.textract %s, %%c0, %%c0 : (%s, index, index) -> %s" % (s, V("32x64", "f32"), V("16x32", "f32")))
    else:
        f.off("textract", V("32x64", "f32"), V("16x32", "f32"), "%c0", "%c0", "expects A2/A3 textract src to use loc=mat, got loc=vec (vec -> vec textract is A5 only)")
        f.off("textract", V("32x64", "i16"), V("16x32", "i16"), "%c0", "%c0", "expects A2/A3 textract element type to be")
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), TT("left", "16x32", "f16", "blayout=row_major, slayout=row_major"), "%c0", "%c0")
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), TT("right", "16x32", "f16", "blayout=row_major, slayout=col_major"), "%c0", "%c0")
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), V("16x32", "f16"), "%c0", "%c0", "expects A2/A3 textract dst to use loc=left or loc=right")
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=col_major"), TT("left", "16x32", "f16", "blayout=row_major, slayout=row_major"), "%c0", "%c0", "expects A2/A3 textract src to use a supported mat blayout/slayout combination")
        f.off("textract", TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), TT("right", "16x32", "f16", "blayout=row_major, slayout=row_major"), "%c0", "%c0", "expects A2/A3 right dst to use row_major blayout and col_major slayout")
    # ---- TINSERT
    if a5:
        for dt in ("f32", "f16", "bf16", "i8", "i32", "ui32"):
            f.off("tinsert", V("16x32", dt), V("32x64", dt), "%c8", "%c8")
        f.off("tinsert", V("16x32", "f32", "valid=?x?"), V("32x64", "f32"), "%i", "%j")
        f.off("tinsert", V("16x32", "i16"), V("32x64", "i16"), "%c0", "%c0", "expects A5 vec->vec tinsert src/dst to have same supported dtype (fp8/f16/bf16/f32/i8/i32), got i16")
        f.off("tinsert", V("16x32", "f32"), V("32x64", "f16"), "%c0", "%c0", "TINSERT.dtype-match")
        f.off("tinsert", V("16x32", "f32", "valid=16x30"), V("32x64", "f32"), "%c0", "%c1", None)
        f.off("tinsert", V("16x32", "f32", "valid=16x30"), V("32x64", "f32"), "%c0", "35", "expects indexCol + src.cols <= dst.cols, got 35 + 30 > 64")
        f.off("tinsert", V("16x32", "f32"), V("32x64", "f32"), "%c0", "%m1", "expects indexCol to be non-negative")
        f.off("tinsert", V("16x32", "f32"), V("32x64", "f32"), "%c0", "70000", "TINSERT.index-range")
        f.off("tinsert", V("16x32", "f32"), V("32x64", "f32", "blayout=col_major"), "%c0", "%c0", "expects A5 vec->vec tinsert src/dst to use ND layout")
        f.off("tinsert", V("16x32", "f32"), TT("acc", "32x64", "f32", "blayout=col_major, slayout=row_major"), "%c0", "%c0", "expects A5 tinsert to use a supported src/dst loc pair: acc->mat, vec->mat, or vec->vec, got vec -> acc")
        f.off("tinsert", TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), "%c0", "%c0")
        f.off("tinsert", TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), TT("mat", "32x64", "i8", "blayout=col_major, slayout=row_major"), "%c0", "%c0", "expects A5 acc->mat tinsert element types to be")
        f.off("tinsert", V("16x32", "f16"), TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), "%c0", "%c0")
        f.off("tinsert", V("16x32", "f16"), TT("mat", "32x64", "f16"), "%c0", "%c0", "expects A5 vec->mat tinsert dst to use blayout=col_major and slayout=row_major")
        s = f.tile(V("16x32", "f32"))
        f.lines.append("    // expected-error@+1 {{TINSERT.dst-form}}")
        f.lines.append("    %%x2 = pto.tinsert %s, %%c0, %%c0 : (%s, index, index) -> %s" % (s, V("16x32", "f32"), V("32x64", "f32")))
    else:
        f.off("tinsert", V("16x32", "f32"), V("32x64", "f32"), "%c0", "%c0", "expects A2/A3 tinsert src to use loc=acc and dst to use loc=mat, got vec -> vec (vec -> vec tinsert is A5 only)")
        f.off("tinsert", TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), "%c0", "%c0")
        f.off("tinsert", TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), TT("mat", "32x64", "f32", "blayout=col_major, slayout=row_major"), "%c0", "%c0", "expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16, got src=f32, dst=f32")
        f.off("tinsert", TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major, fractal=1024"), "%c0", "%c0", "TINSERT.fractal")
        f.off("tinsert", TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), TT("mat", "32x64", "f16"), "%c0", "%c0", "expects A2/A3 tinsert dst to use blayout=col_major and slayout=row_major")
        f.off("tinsert", TT("acc", "16x32", "f32", "blayout=col_major, slayout=row_major"), TT("mat", "32x64", "f16", "blayout=col_major, slayout=row_major"), "%c0", "40", "TINSERT.bounds")
    # ---- TCONCAT
    for dt in ("f32", "f16", "bf16", "i8", "i16", "i32"):
        f.cat(V("16x32", dt), V("16x64", dt), V("16x128", dt))
    f.cat(V("16x32", "f32", "valid=?x5"), V("16x32", "f32", "valid=?x?"), V("16x64", "f32", "valid=?x10"))
    f.cat(V("16x32", "ui16"), V("16x32", "ui16"), V("16x64", "ui16"), "expects element type to be i8, i16, i32, f16, f32, or bf16, got ui16")
    f.cat(V("16x32", "f32"), V("16x32", "f16"), V("16x64", "f32"), "expects src0, src1, and dst to have the same element type")
    f.cat(V("16x32", "f32", "valid=15x32"), V("16x32", "f32"), V("16x64", "f32"), "expects src0 valid row to match dst valid row, got 15 and 16")
    f.cat(V("16x32", "f32"), V("16x40", "f32"), V("16x64", "f32"), "expects src0.valid_col + src1.valid_col <= dst.cols, got 32 + 40 > 64")
    f.cat(V("16x32", "f32"), V("16x32", "f32"), TT("mat", "16x64", "f32"), "expects dst to use loc=vec, got loc=mat")
    if a5:
        f.cat(V("16x32", "f32", "blayout=col_major"), V("16x32", "f32"), V("16x64", "f32"), "expects src0, src1, and dst to use row-major layout")
    else:
        f.cat(V("16x32", "f32", "blayout=col_major"), V("16x32", "f32", "blayout=col_major"), V("16x64", "f32", "blayout=col_major"))
    a, b = f.tile(V("16x32", "f32")), f.tile(V("16x32", "f32"))
    f.lines.append("    // expected-error@+1 {{TCONCAT.dst-form}}")
    f.lines.append("    %%x3 = pto.tconcat %s, %s : (%s, %s) -> %s" % (a, b, V("16x32", "f32"), V("16x32", "f32"), V("16x64", "f32")))
    # ---- TRESHAPE
    f.resh(V("16x32", "f32"), V("32x16", "f32"))
    f.resh(V("16x1", "f32", "blayout=col_major"), V("1x16", "f32"))
    f.resh(V("16x32", "f32"), V("16x64", "f16"))
    f.resh(V("16x32", "i32"), V("16x64", "ui16"))
    f.resh(V("16x32", "f32", "valid=3x5"), V("32x16", "f32", "valid=?x?"))
    f.resh(V("16x32", "f32"), V("16x32", "i32"), "expects compatible element types (the same, both floating-point or both integer; pto-isa's TRESHAPE static_assert), got f32 -> i32")
    f.resh(V("16x32", "f32"), V("16x16", "f32"), "expects src and dst to have the same total byte size, got 2048 and 1024 bytes")
    f.resh(V("16x32", "f32"), TT("mat", "16x32", "f32"), "expects src and dst to use the same loc, got vec and mat")
    f.resh(TT("mat", "16x32", "f16", "blayout=col_major, slayout=row_major"), TT("mat", "16x32", "f16"), "cannot reshape between boxed and non-boxed tile layouts")
    f.resh(TT("mat", "16x32", "f16", "blayout=col_major, slayout=row_major"), TT("mat", "32x16", "f16", "blayout=col_major, slayout=row_major"))
    f.write(os.path.join(HERE, "move_%s.pto" % target))
