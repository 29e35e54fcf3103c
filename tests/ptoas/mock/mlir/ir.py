"""Types, values, blocks, regions, modules and the printer of the stand-in bindings."""
import itertools

_stack = []  # insertion points (blocks)
_names = itertools.count()


class Context:
    def __init__(self, *a, **k):
        self.allow_unregistered_dialects = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Location:
    @staticmethod
    def unknown(ctx=None):
        return Context()

    @staticmethod
    def name(*a, **k):
        return Context()


class Type:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    def __eq__(self, other):
        return isinstance(other, Type) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    @staticmethod
    def parse(text, ctx=None):
        return Type(text)


def _simple(name):
    class T(Type):
        @staticmethod
        def get(ctx=None):
            return Type(name)
    T.__name__ = name
    return T


F32Type = _simple("f32")
F16Type = _simple("f16")
BF16Type = _simple("bf16")
F64Type = _simple("f64")
IndexType = _simple("index")


class VectorType(Type):
    @staticmethod
    def get(shape, elem, ctx=None):
        return Type("vector<%sx%s>" % ("x".join(str(d) for d in shape), elem))


class IntegerType(Type):
    @staticmethod
    def get_signless(width, ctx=None):
        return Type("i%d" % width)

    @staticmethod
    def get_signed(width, ctx=None):
        return Type("si%d" % width)

    @staticmethod
    def get_unsigned(width, ctx=None):
        return Type("ui%d" % width)


class Attribute:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    @staticmethod
    def parse(text, ctx=None):
        return Attribute(text)


class IntegerAttr(Attribute):
    @staticmethod
    def get(type_, value):
        return Attribute("%d : %s" % (value, type_))


class FloatAttr(Attribute):
    @staticmethod
    def get(type_, value):
        return Attribute("%r : %s" % (float(value), type_))

    @staticmethod
    def get_f32(value, ctx=None):
        return Attribute("%r : f32" % float(value))


class BoolAttr(Attribute):
    @staticmethod
    def get(value, ctx=None):
        return Attribute("true" if value else "false")


class StringAttr(Attribute):
    @staticmethod
    def get(value, ctx=None):
        return Attribute('"%s"' % value)


class UnitAttr(Attribute):
    @staticmethod
    def get(ctx=None):
        return Attribute("unit")


class Value:
    def __init__(self, type_, name=None):
        self.type = type_
        self.name = name if name is not None else str(next(_names))

    def __str__(self):
        return "%" + self.name

    def get_name(self):
        return str(self)


class Block:
    def __init__(self, arg_types=(), arg_names=None):
        self.ops = []
        self.arguments = [Value(t, arg_names[i] if arg_names else None) for i, t in enumerate(arg_types)]

    def append(self, op):
        self.ops.append(op)


class Region:
    def __init__(self):
        self.blocks = [Block()]


class InsertionPoint:
    def __init__(self, block):
        self.block = block

    def __enter__(self):
        _stack.append(self.block)
        return self

    def __exit__(self, *exc):
        _stack.pop()
        return False

    @staticmethod
    def at_block_begin(block):
        return InsertionPoint(block)


def insert(op):
    """Adds an op at the current insertion point."""
    if not _stack:
        raise RuntimeError("no insertion point")
    _stack[-1].append(op)
    return op


class OpView:
    """A built op: its text lines come from `lines(indent)`; `result(s)` are its values."""
    results = ()

    @property
    def result(self):
        return self.results[0]

    @property
    def operation(self):
        return self

    def verify(self):
        return True


class Module:
    def __init__(self):
        self.body = Block()
        self.attrs = {}

    @staticmethod
    def create(loc=None):
        return Module()

    @staticmethod
    def parse(text, ctx=None):
        raise NotImplementedError("parsing MLIR text is not supported by the stand-in bindings")

    @property
    def operation(self):
        return self

    @property
    def attributes(self):
        return self.attrs

    def verify(self):
        return True

    def __str__(self):
        head = "module"
        if self.attrs:
            head += " attributes {%s}" % ", ".join("%s = %s" % (k, v) for k, v in self.attrs.items())
        return "\n".join([head + " {"] + print_block(self.body, 1) + ["}"]) + "\n"


def print_block(block, depth):
    out = []
    for op in block.ops:
        out.extend(op.lines(depth))
    return out


def ind(depth):
    return "  " * depth


class Operation(OpView):
    """Operation.create: an op in MLIR's generic form, `"name"(%a, %b) {attrs} : (A, B) -> (R)`."""

    def __init__(self, name, operands, attributes, results):
        self.name, self.operands = name, list(operands or [])
        self.attributes = dict(attributes or {})
        self.results = [Value(t) for t in (results or [])]
        insert(self)

    @staticmethod
    def create(name, results=None, operands=None, attributes=None, loc=None, ip=None):
        return Operation(name, operands, attributes, results)

    def lines(self, depth):
        lhs = ", ".join(map(str, self.results))
        attrs = " {%s}" % ", ".join("%s = %s" % kv for kv in self.attributes.items()) if self.attributes else ""
        return ['%s%s"%s"(%s)%s : (%s) -> (%s)' % (ind(depth), lhs + " = " if lhs else "", self.name,
                                                  ", ".join(map(str, self.operands)), attrs,
                                                  ", ".join(str(v.type) for v in self.operands),
                                                  ", ".join(str(v.type) for v in self.results))]
