"""arith ops as the samples build them."""
from ..ir import OpView, Type, Value, ind, insert


def _literal(type_, value):
    t = str(type_)
    if hasattr(value, "text"):  # an IntegerAttr / FloatAttr: its literal
        return str(value.text).split(" : ")[0]
    if t in ("f16", "bf16", "f32", "f64"):
        v = float(value)
        return repr(v) if "e" not in repr(v) and ("." in repr(v) or "n" in repr(v)) else "%.17g" % v if "." in "%.17g" % v else "%.1f" % v
    if t == "i1":
        return "true" if value else "false"
    return "%d" % int(value)


class ConstantOp(OpView):
    def __init__(self, type_, value, loc=None, ip=None):
        self.value, self.type = value, type_
        self.results = [Value(type_)]
        insert(self)

    def lines(self, depth):
        return ["%s%s = arith.constant %s : %s" % (ind(depth), self.results[0], _literal(self.type, self.value), self.type)]


class _Binary(OpView):
    mnemonic = None

    def __init__(self, lhs, rhs, loc=None, ip=None):
        self.lhs, self.rhs = lhs, rhs
        self.results = [Value(lhs.type)]
        insert(self)

    def lines(self, depth):
        return ["%s%s = arith.%s %s, %s : %s" % (ind(depth), self.results[0], self.mnemonic, self.lhs, self.rhs, self.lhs.type)]


def _binary(name):
    return type(name, (_Binary,), {"mnemonic": name.lower()[:-2] if False else None})


for _cls, _mn in [("AddIOp", "addi"), ("SubIOp", "subi"), ("MulIOp", "muli"), ("DivSIOp", "divsi"), ("RemSIOp", "remsi"),
                  ("RemUIOp", "remui"), ("DivUIOp", "divui"), ("CeilDivSIOp", "ceildivsi"), ("AndIOp", "andi"),
                  ("OrIOp", "ori"), ("XOrIOp", "xori"), ("MinSIOp", "minsi"), ("MaxSIOp", "maxsi"), ("AddFOp", "addf"),
                  ("SubFOp", "subf"), ("MulFOp", "mulf"), ("DivFOp", "divf"), ("MaximumFOp", "maximumf"),
                  ("MinimumFOp", "minimumf"), ("MaxNumFOp", "maxnumf"), ("MinNumFOp", "minnumf")]:
    globals()[_cls] = type(_cls, (_Binary,), {"mnemonic": _mn})


class CmpIPredicate:
    eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge = "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"


class CmpFPredicate:
    pass


for _p in ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]:
    setattr(CmpFPredicate, _p.upper() if _p in ("false", "true") else _p, _p)


class CmpIOp(OpView):
    mnemonic = "cmpi"

    def __init__(self, predicate, lhs, rhs, loc=None, ip=None):
        self.pred, self.lhs, self.rhs = predicate, lhs, rhs
        self.results = [Value(Type("i1"))]
        insert(self)

    def lines(self, depth):
        return ["%s%s = arith.%s %s, %s, %s : %s" % (ind(depth), self.results[0], self.mnemonic, self.pred, self.lhs, self.rhs,
                                                    self.lhs.type)]


class CmpFOp(CmpIOp):
    mnemonic = "cmpf"


class _Cast(OpView):
    mnemonic = None

    def __init__(self, type_, value, loc=None, ip=None):
        self.value = value
        self.results = [Value(type_)]
        insert(self)

    def lines(self, depth):
        return ["%s%s = arith.%s %s : %s to %s" % (ind(depth), self.results[0], self.mnemonic, self.value, self.value.type,
                                                  self.results[0].type)]


for _cls, _mn in [("IndexCastOp", "index_cast"), ("SIToFPOp", "sitofp"), ("UIToFPOp", "uitofp"), ("FPToSIOp", "fptosi"),
                  ("FPToUIOp", "fptoui"), ("ExtFOp", "extf"), ("TruncFOp", "truncf"), ("ExtSIOp", "extsi"),
                  ("ExtUIOp", "extui"), ("TruncIOp", "trunci"), ("BitcastOp", "bitcast")]:
    globals()[_cls] = type(_cls, (_Cast,), {"mnemonic": _mn})


class SelectOp(OpView):
    def __init__(self, cond, a, b, loc=None, ip=None):
        self.cond, self.a, self.b = cond, a, b
        self.results = [Value(a.type)]
        insert(self)

    def lines(self, depth):
        return ["%s%s = arith.select %s, %s, %s : %s" % (ind(depth), self.results[0], self.cond, self.a, self.b, self.a.type)]
