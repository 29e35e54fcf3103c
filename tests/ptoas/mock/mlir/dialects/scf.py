"""scf.for, scf.if, scf.yield as the samples build them."""
from ..ir import Block, OpView, Type, Value, ind, insert, print_block


class ForOp(OpView):
    def __init__(self, lower, upper, step, iter_args=None, loc=None, ip=None):
        self.lower, self.upper, self.step = lower, upper, step
        self.inits = list(iter_args or [])
        self.body = Block([Type("index")] + [v.type for v in self.inits])
        self.results = [Value(v.type) for v in self.inits]
        insert(self)

    @property
    def induction_variable(self):
        return self.body.arguments[0]

    @property
    def inner_iter_args(self):
        return self.body.arguments[1:]

    def lines(self, depth):
        lhs = ", ".join(map(str, self.results))
        head = "%s%sscf.for %s = %s to %s step %s" % (ind(depth), lhs + " = " if lhs else "", self.body.arguments[0], self.lower,
                                                   self.upper, self.step)
        if self.inits:
            head += " iter_args(%s) -> (%s)" % (
                ", ".join("%s = %s" % (a, v) for a, v in zip(self.body.arguments[1:], self.inits)),
                ", ".join(str(v.type) for v in self.inits))
        return [head + " {"] + print_block(self.body, depth + 1) + [ind(depth) + "}"]


class IfOp(OpView):
    def __init__(self, cond, results=(), hasElse=False, has_else=False, loc=None, ip=None):
        self.cond = cond
        self.results = [Value(t) for t in results]
        self.then_block = Block()
        self.else_block = Block() if (hasElse or has_else or self.results) else None
        insert(self)

    def lines(self, depth):
        lhs = ", ".join(map(str, self.results))
        head = "%s%sscf.if %s" % (ind(depth), lhs + " = " if lhs else "", self.cond)
        if self.results:
            head += " -> (%s)" % ", ".join(str(v.type) for v in self.results)
        out = [head + " {"] + print_block(self.then_block, depth + 1)
        if self.else_block is not None and self.else_block.ops:
            out += [ind(depth) + "} else {"] + print_block(self.else_block, depth + 1)
        return out + [ind(depth) + "}"]


class YieldOp(OpView):
    def __init__(self, values=(), loc=None, ip=None):
        self.values = list(values)
        insert(self)

    def lines(self, depth):
        if not self.values:
            return [ind(depth) + "scf.yield"]
        return [ind(depth) + "scf.yield %s : %s" % (", ".join(map(str, self.values)), ", ".join(str(v.type) for v in self.values))]
