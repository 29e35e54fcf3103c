#!/usr/bin/python3
"""Writes tests/verify/family_<name>_<target>.pto: for every member of the elementwise families
(ops.def rows read by this script), one accepted use per legal element type on the target and one
rejected use per rule of its family. Regenerate after adding a member: /usr/bin/python3
tests/verify/gen_families.py (deterministic)."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
OPS_DEF = os.path.join(HERE, "..", "..", "ir", "ops.def")
ALL = ["i8", "ui8", "i16", "ui16", "i32", "ui32", "f16", "bf16", "f32"]
SETS = {
    "PTO_F16_F32": {"f16", "f32"}, "PTO_BF16": {"bf16"}, "PTO_W8": {"i8", "ui8"}, "PTO_W16": {"i16", "ui16"},
    "PTO_W32": {"i32", "ui32"}, "DTBIT(DT_F32)": {"f32"}, "DTBIT(DT_F16)": {"f16"}, "DTBIT(DT_I16)": {"i16"},
    "DTBIT(DT_I32)": {"i32"}, "DTBIT(DT_I8)": {"i8"},
}
SETS["PTO_STD"] = SETS["PTO_W16"] | SETS["PTO_W32"] | SETS["PTO_F16_F32"]
SETS["PTO_STD8"] = SETS["PTO_STD"] | SETS["PTO_W8"]


def dtset(expr):
    out = set()
    for part in expr.split("|"):
        out |= SETS[part.strip()]
    return out


def rows():
    text = open(OPS_DEF).read()
    pat = re.compile(r"^(BINARY_OP|TERNARY_OP|UNARY_OP|TILE_SCALAR_OP|TILE_SCALAR_TILE_OP)\((.*?)\)\s*$", re.M | re.S)
    out = []
    for m in re.finditer(r"^(BINARY_OP|TERNARY_OP|UNARY_OP|TILE_SCALAR_OP|TILE_SCALAR_TILE_OP)\(([^\n]*(?:\n\s+[^\n]*)*?)ATTRS\(\)\)", text, re.M):
        fam, body = m.group(1), m.group(2)
        parts = [p.strip() for p in re.split(r",(?![^()]*\))", body) if p.strip()]
        if fam in ("BINARY_OP", "UNARY_OP"):
            name, tmp, a2, a5 = parts[1].strip('"'), parts[2], parts[3], parts[4]
        elif fam == "TILE_SCALAR_OP":
            name, tmp, a2, a5 = parts[1].strip('"'), parts[2], parts[3], parts[4]
        else:
            name, tmp, a2, a5 = parts[1].strip('"'), "NONE", parts[2], parts[3]
        out.append((fam, name, tmp, dtset(a2), dtset(a5)))
    return out


def tile(dt, loc="vec", layout=None, valid=None, rows=16, cols=32):
    extra = ""
    if valid:
        extra += ", valid=%s" % valid
    if layout:
        extra += ", blayout=%s" % layout
        rows, cols = 32, 32
    return "!pto.tile_buf<%s, %dx%dx%s%s>" % (loc, rows, cols, dt, extra)


class Writer:
    def __init__(self):
        self.lines = []
        self.n = 0

    def val(self):
        self.n += 1
        return "%%t%d" % self.n

    def alloc(self, ty):
        v = self.val()
        self.lines.append("    %s = pto.alloc_tile : %s" % (v, ty))
        return v

    def scalar(self, dt):
        v = self.val()
        if dt.startswith("f") or dt == "bf16":
            self.lines.append("    %s = arith.constant 2.0 : f32" % v)
            return v, "f32"
        self.lines.append("    %s = arith.constant 3 : i32" % v)
        return v, "i32"

    def op(self, fam, name, tmp, dts, dst_ty, expect=None, scalar=None, attrs=""):
        """One use: dts = types of the source tiles; the scalar (if the family has one) in place."""
        srcs = [self.alloc(t) for t in dts]
        types = list(dts)
        ins = list(srcs)
        if fam == "TILE_SCALAR_OP":
            s, st = scalar or self.scalar(dst_ty.split("x")[-1].rstrip(">").split(",")[0])
            ins.insert(1, s)
            types.insert(1, st)
        elif fam == "TILE_SCALAR_TILE_OP":
            s, st = scalar or self.scalar("f32")
            ins.insert(1, s)
            types.insert(1, st)
        if tmp == "REQ":
            t = self.alloc(dst_ty)
            ins.append(t)
            types.append(dst_ty)
        d = self.alloc(dst_ty)
        if expect:
            self.lines.append("    // expected-error@+1 {{%s}}" % expect)
        self.lines.append("    pto.%s ins(%s%s : %s) outs(%s : %s)" % (name, ", ".join(ins), attrs, ", ".join(types), d, dst_ty))


NSRC = {"BINARY_OP": 2, "TERNARY_OP": 3, "UNARY_OP": 1, "TILE_SCALAR_OP": 1, "TILE_SCALAR_TILE_OP": 2}


def write(target):
    w = Writer()
    for fam, name, tmp, a2, a5 in rows():
        legal = a5 if target == "a5" else a2
        n = NSRC[fam]
        up = name.upper()
        w.lines.append("    // ---- %s" % name)
        for dt in ALL:
            if dt in legal:
                w.op(fam, name, tmp, [tile(dt)] * n, tile(dt))
        bad = [dt for dt in ALL if dt not in legal]
        if bad:
            w.op(fam, name, tmp, [tile(bad[0])] * n, tile(bad[0]), expect="%s.dtype" % up)
        good = sorted(legal, key=ALL.index)[-1]
        others = [dt for dt in sorted(legal, key=ALL.index) if dt != good]
        other = others[-1] if others else ("f16" if good != "f16" else "f32")
        w.op(fam, name, tmp, [tile(other)] + [tile(good)] * (n - 1), tile(good), expect="%s.dtype-match" % up)
        w.op(fam, name, tmp, [tile(good, loc="mat")] + [tile(good)] * (n - 1), tile(good), expect="%s.loc" % up)
        if fam != "UNARY_OP":
            w.op(fam, name, tmp, [tile(good, layout="col_major")] + [tile(good, layout="row_major")] * (n - 1),
                 tile(good, layout="row_major"), expect="%s.layout" % up)
        if fam in ("TILE_SCALAR_OP", "TILE_SCALAR_TILE_OP"):
            rest = [tile(good)] * (n - 1)
            w.op(fam, name, tmp, [tile(good, valid="16x16")] + rest, tile(good), expect="%s.valid-cols" % up)
            if target == "a2a3":
                w.op(fam, name, tmp, [tile(good, valid="8x32")] + rest, tile(good), expect="%s.valid-rows" % up)
            else:
                w.op(fam, name, tmp, [tile(good, valid="8x32")] + rest, tile(good))  # A5: rows may differ
        else:
            w.op(fam, name, tmp, [tile(good, valid="8x32")] + [tile(good)] * (n - 1), tile(good),
                 expect="%s.valid-shape" % up)
    w.lines.append("    // attributes a row does not list are errors")
    w.op("BINARY_OP", "tadd", "NONE", [tile("f32")] * 2, tile("f32"), expect="TADD.attr-unknown", attrs=" {foo = 1}")
    w.op("TILE_SCALAR_OP", "tadds", "NONE", [tile("i16")], tile("i16"), expect="TADDS.scalar-range",
         scalar=("70000", "i32"))
    head = ["// RUN: --target=%s" % target,
            "// Generated by tests/verify/gen_families.py: every member of the elementwise families on %s:" % target,
            "// accepted with each legal element type, rejected by each rule of its family.",
            "module {", "  func.func @families() {"]
    return "\n".join(head + w.lines + ["    return", "  }", "}"]) + "\n"


if __name__ == "__main__":
    for target in ("a2a3", "a5"):
        with open(os.path.join(HERE, "family_elementwise_%s.pto" % target), "w") as f:
            f.write(write(target))
