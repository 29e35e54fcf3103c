"""func.func, func.return, func.call."""
from ..ir import Block, InsertionPoint, OpView, Type, Value, ind, insert, print_block


class FunctionType(Type):
    def __init__(self, inputs, results):
        self.inputs, self.results = list(inputs), list(results)
        Type.__init__(self, "(%s) -> (%s)" % (", ".join(map(str, inputs)), ", ".join(map(str, results))))

    @staticmethod
    def get(inputs, results, ctx=None):
        return FunctionType(inputs, results)


class FuncOp(OpView):
    def __init__(self, name, type_, visibility=None, loc=None, ip=None):
        self.name, self.type = name, type_
        self.body = None
        self.attributes = {}
        self.private = visibility == "private"
        insert(self)

    def add_entry_block(self, arg_locs=None):
        self.body = Block(self.type.inputs, ["arg%d" % i for i in range(len(self.type.inputs))])
        return self.body

    @staticmethod
    def from_py_func(*inputs, results=None, name=None):
        """Decorator: a function whose body the decorated Python function builds."""
        def decorate(body):
            fn = FuncOp(name or body.__name__, FunctionType(list(inputs), list(results or [])))
            block = fn.add_entry_block()
            with InsertionPoint(block):
                ret = body(*block.arguments)
                ReturnOp([] if ret is None else list(ret) if isinstance(ret, (list, tuple)) else [ret])
            return fn
        return decorate

    @property
    def entry_block(self):
        return self.body

    @property
    def arguments(self):
        return self.body.arguments

    def lines(self, depth):
        args = ", ".join("%s: %s" % (a, a.type) for a in self.body.arguments) if self.body else ", ".join(map(str, self.type.inputs))
        res = ""
        if self.type.results:
            res = " -> " + (str(self.type.results[0]) if len(self.type.results) == 1 else "(%s)" % ", ".join(map(str, self.type.results)))
        attrs = ""
        if self.attributes:
            attrs = " attributes {%s}" % ", ".join(k if v is None or str(v) == "unit" else "%s = %s" % (k, v) for k, v in self.attributes.items())
        head = "%sfunc.func %s@%s(%s)%s%s" % (ind(depth), "private " if self.private else "", self.name, args, res, attrs)
        if self.body is None:
            return [head]
        return [head + " {"] + print_block(self.body, depth + 1) + [ind(depth) + "}"]


class ReturnOp(OpView):
    def __init__(self, values=(), loc=None, ip=None):
        self.values = list(values)
        insert(self)

    def lines(self, depth):
        if not self.values:
            return [ind(depth) + "return"]
        return [ind(depth) + "return %s : %s" % (", ".join(map(str, self.values)), ", ".join(str(v.type) for v in self.values))]


class CallOp(OpView):
    def __init__(self, results, callee, operands, loc=None, ip=None):
        callee = callee.name if hasattr(callee, "name") and not isinstance(callee, str) else str(callee)
        self.callee = callee.lstrip("@")
        self.operands = list(operands)
        self.results = [Value(t) for t in results]
        insert(self)

    def lines(self, depth):
        res = ", ".join(map(str, self.results))
        lhs = res + " = " if res else ""
        ty = "(%s) -> (%s)" % (", ".join(str(v.type) for v in self.operands), ", ".join(str(v.type) for v in self.results))
        return ["%s%sfunc.call @%s(%s) : %s" % (ind(depth), lhs, self.callee, ", ".join(map(str, self.operands)), ty)]
