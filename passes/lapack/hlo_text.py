"""A small writer of StableHLO text for the LAPACK decompositions.

The kernels (`factorizations.py`, `jacobi.py`) are written as straight-line
StableHLO with `while` loops, spelled as JAX prints it, so that they read like the
programs the project compiles every day and go through the same verifiers.
`Hlo` hands out fresh SSA names (one counter for a whole function, nested regions
included, so no name is ever shadowed) and tracks each value's shape and element
type; scalars broadcast to the other operand's shape where an op needs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class V:
    """An SSA value of the text being written."""

    name: str
    shape: tuple[int, ...]
    elem: str

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.elem)


def tensor_type(shape: Sequence[int], elem: str) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{elem}>"


def real_of(elem: str) -> str:
    """`f32` for `complex<f32>`; real types are their own."""
    return elem[len("complex<") : -1] if elem.startswith("complex<") else elem


def is_complex(elem: str) -> bool:
    return elem.startswith("complex<")


def epsilon(elem: str) -> float:
    """The unit roundoff LAPACK's `lamch('E')` gives for the (real part of the) type."""
    return 2.0**-24 if real_of(elem) == "f32" else 2.0**-53


@dataclass
class _Counter:
    n: int = 0


@dataclass
class Hlo:
    """Lines of one block; `nested()` makes the writer of a region inside it."""

    indent: str = "    "
    lines: list[str] = field(default_factory=list)
    counter: _Counter = field(default_factory=_Counter)

    def nested(self) -> Hlo:
        return Hlo(self.indent + "  ", [], self.counter)

    def fresh(self) -> str:
        self.counter.n += 1
        return f"%v{self.counter.n}"

    def emit(self, text: str, shape: Sequence[int], elem: str) -> V:
        name = self.fresh()
        self.lines.append(f"{self.indent}{name} = {text}")
        return V(name, tuple(shape), elem)

    # -- constants and shapes ------------------------------------------------

    def const(self, value: float | bool, elem: str, shape: Sequence[int] = ()) -> V:
        if elem == "i1":
            literal = "true" if value else "false"
        elif is_complex(elem):
            literal = f"({float(value)!r}, 0.0)"
        elif elem.startswith(("f", "bf")):
            literal = repr(float(value))
        else:
            literal = str(int(value))
        return self.emit(f"stablehlo.constant dense<{literal}> : {tensor_type(shape, elem)}", shape, elem)

    def i32(self, value: int) -> V:
        return self.const(value, "i32")

    def broadcast(self, x: V, shape: Sequence[int], dims: Sequence[int] | None = None) -> V:
        if tuple(shape) == x.shape and dims is None:
            return x
        if dims is None:  # trailing alignment, as NumPy
            dims = list(range(len(shape) - len(x.shape), len(shape)))
        text = f"stablehlo.broadcast_in_dim {x.name}, dims = [{', '.join(map(str, dims))}] : ({x.type}) -> {tensor_type(shape, x.elem)}"
        return self.emit(text, shape, x.elem)

    def reshape(self, x: V, shape: Sequence[int]) -> V:
        if tuple(shape) == x.shape:
            return x
        return self.emit(f"stablehlo.reshape {x.name} : ({x.type}) -> {tensor_type(shape, x.elem)}", shape, x.elem)

    def iota(self, shape: Sequence[int], dim: int, elem: str = "i32") -> V:
        return self.emit(f"stablehlo.iota dim = {dim} : {tensor_type(shape, elem)}", shape, elem)

    def convert(self, x: V, elem: str) -> V:
        if elem == x.elem:
            return x
        return self.emit(f"stablehlo.convert {x.name} : ({x.type}) -> {tensor_type(x.shape, elem)}", x.shape, elem)

    def transpose(self, x: V, perm: Sequence[int]) -> V:
        shape = [x.shape[p] for p in perm]
        text = f"stablehlo.transpose {x.name}, dims = [{', '.join(map(str, perm))}] : ({x.type}) -> {tensor_type(shape, x.elem)}"
        return self.emit(text, shape, x.elem)

    def dynamic_slice(self, x: V, starts: Sequence[V], sizes: Sequence[int]) -> V:
        idx = ", ".join(s.name for s in starts)
        types = ", ".join([x.type, *(s.type for s in starts)])
        text = f"stablehlo.dynamic_slice {x.name}, {idx}, sizes = [{', '.join(map(str, sizes))}] : ({types}) -> {tensor_type(sizes, x.elem)}"
        return self.emit(text, sizes, x.elem)

    def dynamic_update_slice(self, x: V, update: V, starts: Sequence[V]) -> V:
        idx = ", ".join(s.name for s in starts)
        types = ", ".join([x.type, update.type, *(s.type for s in starts)])
        return self.emit(f"stablehlo.dynamic_update_slice {x.name}, {update.name}, {idx} : ({types}) -> {x.type}", x.shape, x.elem)

    # -- element-wise --------------------------------------------------------

    def _same_shape(self, *xs: V) -> list[V]:
        shape = max((x.shape for x in xs), key=len)
        return [self.broadcast(x, shape) if x.shape != shape else x for x in xs]

    def binary(self, op: str, a: V, b: V) -> V:
        a, b = self._same_shape(a, b)
        return self.emit(f"stablehlo.{op} {a.name}, {b.name} : {a.type}", a.shape, a.elem)

    def add(self, a: V, b: V) -> V:
        return self.binary("add", a, b)

    def sub(self, a: V, b: V) -> V:
        return self.binary("subtract", a, b)

    def mul(self, a: V, b: V) -> V:
        return self.binary("multiply", a, b)

    def div(self, a: V, b: V) -> V:
        return self.binary("divide", a, b)

    def max(self, a: V, b: V) -> V:
        return self.binary("maximum", a, b)

    def min(self, a: V, b: V) -> V:
        return self.binary("minimum", a, b)

    def and_(self, a: V, b: V) -> V:
        return self.binary("and", a, b)

    def or_(self, a: V, b: V) -> V:
        return self.binary("or", a, b)

    def unary(self, op: str, x: V, elem: str | None = None) -> V:
        if elem is None or elem == x.elem:
            return self.emit(f"stablehlo.{op} {x.name} : {x.type}", x.shape, x.elem)
        return self.emit(f"stablehlo.{op} {x.name} : ({x.type}) -> {tensor_type(x.shape, elem)}", x.shape, elem)

    def neg(self, x: V) -> V:
        return self.unary("negate", x)

    def sqrt(self, x: V) -> V:
        return self.unary("sqrt", x)

    def not_(self, x: V) -> V:
        return self.unary("not", x)

    def compare(self, direction: str, a: V, b: V) -> V:
        a, b = self._same_shape(a, b)
        kind = "FLOAT" if a.elem.startswith(("f", "bf", "complex")) else "SIGNED"
        text = f"stablehlo.compare {direction}, {a.name}, {b.name}, {kind} : ({a.type}, {b.type}) -> {tensor_type(a.shape, 'i1')}"
        return self.emit(text, a.shape, "i1")

    def select(self, pred: V, a: V, b: V) -> V:
        shape = max((pred.shape, a.shape, b.shape), key=len)
        pred, a, b = (self.broadcast(x, shape) if x.shape != shape else x for x in (pred, a, b))
        return self.emit(f"stablehlo.select {pred.name}, {a.name}, {b.name} : {pred.type}, {a.type}", shape, a.elem)

    # -- complex numbers (identities on real types) ----------------------------

    def real(self, x: V) -> V:
        return self.unary("real", x, real_of(x.elem)) if is_complex(x.elem) else x

    def imag(self, x: V) -> V:
        return self.unary("imag", x, real_of(x.elem)) if is_complex(x.elem) else self.const(0, x.elem, x.shape)

    def complex(self, re: V, im: V) -> V:
        elem = f"complex<{re.elem}>"
        re, im = self._same_shape(re, im)
        return self.emit(f"stablehlo.complex {re.name}, {im.name} : {tensor_type(re.shape, elem)}", re.shape, elem)

    def as_elem(self, x: V, elem: str) -> V:
        """A real `x` as an `elem` value (imaginary part 0)."""
        if elem == x.elem:
            return x
        return self.complex(x, self.const(0, x.elem, x.shape))

    def conj(self, x: V) -> V:
        return self.complex(self.real(x), self.neg(self.imag(x))) if is_complex(x.elem) else x

    def abs2(self, x: V) -> V:
        """|x|^2, real."""
        if not is_complex(x.elem):
            return self.mul(x, x)
        re, im = self.real(x), self.imag(x)
        return self.add(self.mul(re, re), self.mul(im, im))

    def abs1(self, x: V) -> V:
        """|re| + |im|: LAPACK's `cabs1`, the magnitude its pivot searches use."""
        if not is_complex(x.elem):
            return self.unary("abs", x)
        return self.add(self.unary("abs", self.real(x)), self.unary("abs", self.imag(x)))

    # -- reductions, contractions -------------------------------------------------

    def reduce(self, op: str, x: V, dims: Sequence[int], init: float) -> V:
        shape = [d for i, d in enumerate(x.shape) if i not in dims]
        zero = self.const(init, x.elem)
        text = (
            f"stablehlo.reduce({x.name} init: {zero.name}) applies stablehlo.{op} across dimensions = "
            f"[{', '.join(map(str, dims))}] : ({x.type}, {zero.type}) -> {tensor_type(shape, x.elem)}"
        )
        return self.emit(text, shape, x.elem)

    def sum(self, x: V, dims: Sequence[int]) -> V:
        return self.reduce("add", x, dims, 0)

    def dot(self, a: V, b: V, contract_a: int, contract_b: int) -> V:
        """`dot_general` contracting one dimension of each, no batch dimensions."""
        shape = [d for i, d in enumerate(a.shape) if i != contract_a] + [d for i, d in enumerate(b.shape) if i != contract_b]
        text = f"stablehlo.dot_general {a.name}, {b.name}, contracting_dims = [{contract_a}] x [{contract_b}] : ({a.type}, {b.type}) -> {tensor_type(shape, a.elem)}"
        return self.emit(text, shape, a.elem)

    # -- loops and calls ------------------------------------------------------

    def while_(self, init: Sequence[V], cond: Callable[[Hlo, list[V]], V], body: Callable[[Hlo, list[V]], Sequence[V]]) -> list[V]:
        """`stablehlo.while` carrying `init`; `cond` returns an i1 scalar, `body` the next values."""
        names = [self.fresh() for _ in init]
        args = [V(n, x.shape, x.elem) for n, x in zip(names, init, strict=True)]
        result = self.fresh()
        header = ", ".join(f"{n} = {x.name}" for n, x in zip(names, init, strict=True))
        types = ", ".join(x.type for x in init)
        self.lines.append(f"{self.indent}{result}:{len(init)} = stablehlo.while({header}) : {types}")
        inner = self.nested()
        pred = cond(inner, args)
        self.lines.append(f"{self.indent}cond {{")
        self.lines.extend(inner.lines)
        self.lines.append(f"{inner.indent}stablehlo.return {pred.name} : {pred.type}")
        inner = self.nested()
        nxt = list(body(inner, args))
        self.lines.append(f"{self.indent}}} do {{")
        self.lines.extend(inner.lines)
        self.lines.append(f"{inner.indent}stablehlo.return {', '.join(x.name for x in nxt)} : {', '.join(x.type for x in nxt)}")
        self.lines.append(f"{self.indent}}}")
        return [V(f"{result}#{i}", x.shape, x.elem) for i, x in enumerate(init)]

    def fori(self, count: int, init: Sequence[V], body: Callable[[Hlo, V, list[V]], Sequence[V]]) -> list[V]:
        """for i in [0, count): carried = body(i, carried)."""
        start, end = self.i32(0), self.i32(count)

        def cond(h: Hlo, args: list[V]) -> V:
            return h.compare("LT", args[0], end)

        def step(h: Hlo, args: list[V]) -> list[V]:
            nxt = body(h, args[0], args[1:])
            return [h.add(args[0], h.i32(1)), *nxt]

        return self.while_([start, *init], cond, step)[1:]

    def sort(self, operands: Sequence[V], descending: bool = False) -> list[V]:
        """A stable sort of rank-1 `operands` by the first (LT, or GT when descending)."""
        result = self.fresh()
        args = [self.fresh() for _ in range(2 * len(operands))]
        scalars = [tensor_type([], x.elem) for x in operands for _ in (0, 1)]
        inner = self.nested()
        key = V(args[0], (), operands[0].elem), V(args[1], (), operands[0].elem)
        less = inner.compare("GT" if descending else "LT", *key)
        types = ", ".join(x.type for x in operands)
        block_args = ", ".join(f"{a}: {t}" for a, t in zip(args, scalars, strict=True))
        self.lines += [
            f'{self.indent}{result}:{len(operands)} = "stablehlo.sort"({", ".join(x.name for x in operands)}) <{{dimension = 0 : i64, is_stable = true}}> ({{',
            f"{self.indent}^bb0({block_args}):",
            *inner.lines,
            f"{inner.indent}stablehlo.return {less.name} : {less.type}",
            f"{self.indent}}}) : ({types}) -> ({types})",
        ]
        return [V(f"{result}#{i}", x.shape, x.elem) for i, x in enumerate(operands)]

    def call(self, callee: str, args: Sequence[V], results: Sequence[tuple[Sequence[int], str]]) -> list[V]:
        name = self.fresh()
        ins = ", ".join(a.type for a in args)
        outs = ", ".join(tensor_type(s, e) for s, e in results)
        suffix = f":{len(results)}" if len(results) > 1 else ""
        self.lines.append(f"{self.indent}{name}{suffix} = func.call @{callee}({', '.join(a.name for a in args)}) : ({ins}) -> ({outs})")
        if len(results) == 1:
            return [V(name, tuple(results[0][0]), results[0][1])]
        return [V(f"{name}#{i}", tuple(s), e) for i, (s, e) in enumerate(results)]


def function(name: str, params: Sequence[tuple[Sequence[int], str]], body: Callable[[Hlo, list[V]], Sequence[V]]) -> str:
    """The text of `func.func private @name(params) -> (results)` with `body`."""
    h = Hlo()
    args = [V(f"%arg{i}", tuple(s), e) for i, (s, e) in enumerate(params)]
    results = list(body(h, args))
    signature = ", ".join(f"{a.name}: {a.type}" for a in args)
    outs = ", ".join(r.type for r in results)
    ret = f"    func.return {', '.join(r.name for r in results)} : {outs}"
    return "\n".join([f"  func.func private @{name}({signature}) -> ({outs}) {{", *h.lines, ret, "  }"])


__all__ = ["Hlo", "V", "epsilon", "function", "is_complex", "real_of", "tensor_type"]
