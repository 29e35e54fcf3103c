"""The pto dialect of the stand-in bindings: types, attributes, and every op builder the samples
use. T-ops print in the DPS form (`pto.OP ins(...) outs(...)`, the last operand being the
destination); their mnemonics come from PTOAS's own PTOOps.td, read at run time from the file
named by $PTOAS_OPS_TD (the samples' tree), so nothing of PTOAS is copied here."""
import os
import re

from ..ir import Attribute, Block, OpView, Type, Value, ind, insert, print_block


def register_dialect(ctx=None, load=True):
    return None


def _mnemonics():
    path = os.environ.get("PTOAS_OPS_TD", "")
    table = {}
    if path and os.path.isfile(path):
        for m in re.finditer(r'def\s+(\w+)\s*:\s*PTO_\w*Op<"([\w.]+)"', open(path, encoding="utf-8").read()):
            table[m.group(1)] = m.group(2)
    return table


_MNEMONIC = _mnemonics()


def _snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# ---- enums and attributes ---------------------------------------------------------------------

class EnumValue:
    def __init__(self, kind, name):
        self.kind, self.name = kind, name

    def __str__(self):
        return self.name


class _EnumNamespace:
    def __init__(self, kind):
        self._kind = kind

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return EnumValue(self._kind, name)


_LOC = {"VEC": "vec", "MAT": "mat", "LEFT": "left", "RIGHT": "right", "ACC": "acc", "BIAS": "bias", "SCALING": "scaling",
        "GM": "gm", "Zero": "zero"}
_LAYOUT = {"RowMajor": "row_major", "ColMajor": "col_major", "NoneBox": "none_box"}
_PAD = {"Null": 0, "Zero": 1, "Max": 2, "Min": 3}
_ATTR_FORMAT = {  # attribute class -> (prefix, suffix, lower-case the enumerant)
    "CmpModeAttr": ("#pto<cmp ", ">", True),
    "RoundModeAttr": ("#pto<round_mode ", ">", False),
    "SaturationModeAttr": ("#pto<saturation_mode ", ">", False),
    "QuantTypeAttr": ("#pto<quant_type ", ">", False),
    "MaskPatternAttr": ("#pto.mask_pattern<", ">", False),
    "LayoutAttr": ("#pto.layout<", ">", True),
    "PipeAttr": ("#pto.pipe<", ">", False),
    "EventAttr": ("#pto.event<", ">", False),
    "AtomicTypeAttr": ("#pto<atomic_type ", ">", False),
}


class _EnumAttr(Attribute):
    def __init__(self, cls, value):
        self.value = value
        prefix, suffix, lower = _ATTR_FORMAT.get(cls, ("#pto.%s<" % _snake(cls[:-4]), ">", False))
        Attribute.__init__(self, prefix + (value.name.lower() if lower else value.name) + suffix)


def _attr_class(cls):
    class A(_EnumAttr):
        @staticmethod
        def get(*args):
            for a in args:
                if isinstance(a, EnumValue):
                    return _EnumAttr(cls, a)
            raise ValueError("%s.get: no enum value" % cls)
    A.__name__ = cls
    return A


class AddressSpaceAttr(Attribute):
    @staticmethod
    def get(value, ctx=None):
        a = AddressSpaceAttr(_LOC.get(value.name, value.name.lower()))
        return a


class BLayoutAttr(Attribute):
    @staticmethod
    def get(value, ctx=None):
        return BLayoutAttr(_LAYOUT[value.name])


class SLayoutAttr(Attribute):
    @staticmethod
    def get(value, ctx=None):
        return SLayoutAttr(_LAYOUT[value.name])


class PadValueAttr(Attribute):
    @staticmethod
    def get(value, ctx=None):
        return PadValueAttr(str(_PAD.get(value.name, 0)))


class TileConfig:
    fractalABSize = 512
    fractalCSize = 1024
    fractalMxSize = 32


class TileBufConfigAttr(Attribute):
    def __init__(self, blayout, slayout, fractal, pad):
        self.blayout, self.slayout, self.fractal, self.pad = blayout, slayout, fractal, pad
        Attribute.__init__(self, "config")

    @staticmethod
    def get(blayout, slayout, fractal, pad, ctx=None):
        return TileBufConfigAttr(str(blayout), str(slayout), int(fractal), str(pad))

    @staticmethod
    def get_default(ctx=None):
        return TileBufConfigAttr("row_major", "none_box", 512, "0")


# ---- types --------------------------------------------------------------------------------------

class PtrType(Type):
    @staticmethod
    def get(elem, ctx=None):
        return Type("!pto.ptr<%s>" % elem)


def _dims(shape):
    return "x".join("?" if d is None or d < 0 else str(d) for d in shape)


class TensorViewType(Type):
    @staticmethod
    def get(shape_or_rank, elem, ctx=None):
        shape = [-1] * shape_or_rank if isinstance(shape_or_rank, int) else shape_or_rank
        return Type("!pto.tensor_view<%sx%s>" % (_dims(shape), elem))


class PartitionTensorViewType(Type):
    @staticmethod
    def get(shape, elem, ctx=None):
        return Type("!pto.partition_tensor_view<%sx%s>" % (_dims(shape), elem))


class TileBufType(Type):
    @staticmethod
    def get(shape, elem, memspace=None, valid_shape=None, config=None, ctx=None):
        loc = str(memspace) if memspace is not None else "vec"
        text = "!pto.tile_buf<%s, %sx%s" % (loc, _dims(shape), elem)
        if valid_shape is not None and list(valid_shape) != list(shape):
            text += ", valid=%s" % _dims(valid_shape)
        cfg = config if isinstance(config, TileBufConfigAttr) else TileBufConfigAttr.get_default()
        if cfg.blayout != "row_major":
            text += ", blayout=%s" % cfg.blayout
        if cfg.slayout != "none_box":
            text += ", slayout=%s" % cfg.slayout
        if cfg.fractal != 512:
            text += ", fractal=%d" % cfg.fractal
        if cfg.pad != "0":
            text += ", pad=%s" % cfg.pad
        return Type(text + ">")


# ---- ops ----------------------------------------------------------------------------------------

def _typed(values):
    return ", ".join(map(str, values)), ", ".join(str(v.type) for v in values)


def _attr_dict(attrs):
    items = ["%s = %s" % (k, v) for k, v in attrs.items() if v is not None]
    return " {%s}" % ", ".join(items) if items else ""


class _Generic(OpView):
    """A T-op: DPS with the last operand as outs; with a leading result type, the SSA form."""

    def __init__(self, mnemonic, args, kwargs):
        self.mnemonic = mnemonic
        self.attrs = {k: v for k, v in kwargs.items() if k not in ("loc", "ip") and not isinstance(v, Value)}
        operands = [a for a in args if a is not None]
        self.result_type = operands.pop(0) if operands and isinstance(operands[0], Type) else None
        positional = [a for a in operands if isinstance(a, Value)]
        optional = [v for v in kwargs.values() if isinstance(v, Value)]
        # optional operands given by keyword (tmp=...) come before the destination, as in ODS
        self.operands = positional[:-1] + optional + positional[-1:] if positional else optional
        self.results = [Value(self.result_type)] if self.result_type is not None else []
        insert(self)

    def lines(self, depth):
        attrs = _attr_dict(self.attrs)
        if self.result_type is not None:
            names, types = _typed(self.operands)
            return ["%s%s = pto.%s %s%s : (%s) -> %s" % (ind(depth), self.results[0], self.mnemonic, names, attrs, types,
                                                        self.result_type)]
        ins, outs = self.operands[:-1], self.operands[-1:]
        i_names, i_types = _typed(ins)
        o_names, o_types = _typed(outs)
        ins_text = "ins(%s : %s)" % (i_names, i_types) if ins else "ins()"
        return ["%spto.%s %s outs(%s : %s)%s" % (ind(depth), self.mnemonic, ins_text, o_names, o_types, attrs)]


class MakeTensorViewOp(OpView):
    def __init__(self, type_, ptr, shape, strides, layout=None, loc=None, ip=None):
        self.type, self.ptr, self.shape, self.strides, self.layout = type_, ptr, shape, strides, layout
        self.results = [Value(type_)]
        insert(self)

    def lines(self, depth):
        attrs = " {layout = %s}" % self.layout if self.layout is not None else ""
        return ["%s%s = pto.make_tensor_view %s, shape = [%s], strides = [%s]%s : %s" % (
            ind(depth), self.results[0], self.ptr, ", ".join(map(str, self.shape)), ", ".join(map(str, self.strides)), attrs,
            self.type)]


class PartitionViewOp(OpView):
    def __init__(self, type_, source, offsets, sizes, loc=None, ip=None):
        self.type, self.source, self.offsets, self.sizes = type_, source, offsets, sizes
        self.results = [Value(type_)]
        insert(self)

    def lines(self, depth):
        return ["%s%s = pto.partition_view %s, offsets = [%s], sizes = [%s] : %s -> %s" % (
            ind(depth), self.results[0], self.source, ", ".join(map(str, self.offsets)), ", ".join(map(str, self.sizes)),
            self.source.type, self.type)]


class AllocTileOp(OpView):
    def __init__(self, type_, addr=None, valid_row=None, valid_col=None, loc=None, ip=None):
        self.type, self.addr, self.vr, self.vc = type_, addr, valid_row, valid_col
        self.results = [Value(type_)]
        insert(self)

    def lines(self, depth):
        kw = ""
        if self.addr is not None:
            kw += " addr = %s" % self.addr
        if self.vr is not None:
            kw += " valid_row = %s" % self.vr
        if self.vc is not None:
            kw += " valid_col = %s" % self.vc
        return ["%s%s = pto.alloc_tile%s : %s" % (ind(depth), self.results[0], kw, self.type)]


class GetTensorViewDimOp(OpView):
    def __init__(self, view, index, loc=None, ip=None):
        self.view, self.index = view, index
        self.results = [Value(Type("index"))]
        insert(self)

    def lines(self, depth):
        return ["%s%s = pto.get_tensor_view_dim %s, %s : %s -> index" % (ind(depth), self.results[0], self.view, self.index,
                                                                         self.view.type)]


class SetValidShapeOp(OpView):
    def __init__(self, source, valid_row, valid_col, loc=None, ip=None):
        self.source, self.vr, self.vc = source, valid_row, valid_col
        insert(self)

    def lines(self, depth):
        return ["%spto.set_validshape %s, %s, %s : %s" % (ind(depth), self.source, self.vr, self.vc, self.source.type)]


class AddPtrOp(OpView):
    def __init__(self, ptr, offset, loc=None, ip=None):
        self.ptr, self.offset = ptr, offset
        self.results = [Value(ptr.type)]
        insert(self)

    def lines(self, depth):
        return ["%s%s = pto.addptr %s, %s : %s -> %s" % (ind(depth), self.results[0], self.ptr, self.offset, self.ptr.type,
                                                        self.ptr.type)]


class TMrgSortOp(OpView):
    """PTOAS's custom form: ins(src, blockLen) outs(dst), or ins(srcs..., tmp {exhausted = B})
    outs(dst, excuted)."""

    def __init__(self, srcs, dsts, blockLen=None, tmp=None, excuted=None, exhausted=False, loc=None, ip=None):
        self.srcs, self.dst, self.block_len = list(srcs), dsts[0], blockLen
        self.tmp, self.excuted, self.exhausted = tmp, excuted, exhausted
        self.results = []
        insert(self)

    def lines(self, depth):
        if self.block_len is not None:
            names, types = _typed(self.srcs + [self.block_len])
            return ["%spto.tmrgsort ins(%s : %s) outs(%s : %s)" % (ind(depth), names, types, self.dst, self.dst.type)]
        names, types = _typed(self.srcs + [self.tmp])
        return ["%spto.tmrgsort ins(%s {exhausted = %s} : %s) outs(%s, %s : %s, %s)" % (
            ind(depth), names, "true" if self.exhausted else "false", types, self.dst, self.excuted, self.dst.type,
            self.excuted.type)]


class _NoOperand(OpView):
    mnemonic = None

    def __init__(self, loc=None, ip=None):
        self.results = [Value(Type("i64"))]
        insert(self)

    def lines(self, depth):
        return ["%s%s = pto.%s" % (ind(depth), self.results[0], self.mnemonic)]


for _cls, _mn in [("GetBlockIdxOp", "get_block_idx"), ("GetBlockNumOp", "get_block_num"),
                  ("GetSubBlockIdxOp", "get_subblock_idx"), ("GetSubBlockNumOp", "get_subblock_num")]:
    globals()[_cls] = type(_cls, (_NoOperand,), {"mnemonic": _mn})


class _Section(OpView):
    mnemonic = None

    def __init__(self, loc=None, ip=None):
        self.body = Block()
        self.region = self
        self.blocks = [self.body]
        insert(self)

    def lines(self, depth):
        return ["%spto.%s {" % (ind(depth), self.mnemonic)] + print_block(self.body, depth + 1) + [ind(depth) + "}"]


SectionVectorOp = type("SectionVectorOp", (_Section,), {"mnemonic": "section.vector"})
SectionCubeOp = type("SectionCubeOp", (_Section,), {"mnemonic": "section.cube"})


class AsyncSessionType(Type):
    @staticmethod
    def get(ctx=None):
        return Type("!pto.async_session")


class AsyncEventType(Type):
    @staticmethod
    def get(ctx=None):
        return Type("!pto.async_event")


class _Paren(OpView):
    """PTOAS's `pto.OP(%a, %b : A, B) {attrs} -> R` (the async GM transfer ops)."""
    mnemonic, result_type, attr_types = None, None, {}

    def __init__(self, *operands, loc=None, ip=None, **attrs):
        self.operands = list(operands)
        self.attrs = {k: "%s : %s" % (v, self.attr_types.get(k, "i64")) for k, v in attrs.items() if v is not None}
        self.results = [Value(Type(self.result_type))]
        insert(self)

    def lines(self, depth):
        names, types = _typed(self.operands)
        return ["%s%s = pto.%s(%s : %s)%s -> %s" % (ind(depth), self.results[0], self.mnemonic, names, types,
                                                    _attr_dict(self.attrs), self.result_type)]


BuildAsyncSessionOp = type("BuildAsyncSessionOp", (_Paren,), {
    "mnemonic": "build_async_session", "result_type": "!pto.async_session",
    "attr_types": {"sync_id": "i32", "queue_num": "i32"}})
TPutAsyncOp = type("TPutAsyncOp", (_Paren,), {"mnemonic": "tput_async", "result_type": "!pto.async_event"})
TGetAsyncOp = type("TGetAsyncOp", (_Paren,), {"mnemonic": "tget_async", "result_type": "!pto.async_event"})
WaitAsyncEventOp = type("WaitAsyncEventOp", (_Paren,), {"mnemonic": "wait_async_event", "result_type": "i1"})
TestAsyncEventOp = type("TestAsyncEventOp", (_Paren,), {"mnemonic": "test_async_event", "result_type": "i1"})


class _Barrier(OpView):
    def __init__(self, pipe, loc=None, ip=None):
        self.pipe = str(pipe)
        insert(self)

    def lines(self, depth):
        return ["%spto.barrier %s" % (ind(depth), self.pipe)]


def barrier(pipe, loc=None, ip=None):
    """PTOAS's generated builder function of BarrierOp."""
    _Barrier(pipe)


def __getattr__(name):
    if name.endswith("Attr") and name not in globals():
        return _attr_class(name)
    if name.endswith("Op"):
        mnemonic = _MNEMONIC.get(name) or _snake(name[:-2]).replace("_", "")
        def build(*args, **kwargs):
            return _Generic(mnemonic, args, kwargs)
        return build
    if name[:1].isupper():
        return _EnumNamespace(name)
    raise AttributeError(name)
