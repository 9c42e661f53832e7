"""`math-polynomial-approximation`: f32 elementary functions as branch-free arith code.

`math.exp` and friends otherwise become libm calls (`convert-math-to-llvm`),
which are scalar and stop LLVM's loop vectorizer. This pass rewrites each
`math` op below on `f32`, `vector<...xf32>`, and on `f16`/`bf16` (computed in
f32 and rounded once at the end) into `arith` plus the `math` ops that are
LLVM intrinsics and vectorize (`fma`, `absf`, `copysign`, `floor`, `roundeven`,
`sqrt`), with exact special values (signed zeros, infinities, NaN, overflow
and underflow, subnormal arguments and results). One module per family holds
the algorithms and says how they work:

* `exp_log`: exp, exp2, expm1, log, log2, log10, log1p;
* `tanh_logistic`: tanh (and the logistic expansion);
* `trig`: sin, cos, tan (in f64: Cody–Waite reduction, exact Payne–Hanek for
  large arguments), atan, atan2;
* `erf`: erf (and erfc, which the math dialect lacks: `chlo_erf` lowers
  `chlo.erf`/`chlo.erfc` to both in `convert-xla-to-linalg`);
* `pow_cbrt`: powf (in f64: log2, product and exp2, so the result rounds
  correctly almost always, with C99's special cases), cbrt; rsqrt is `1 / sqrt`.

The measured accuracy is in `docs/math_accuracy.md` (`python -m
xla_tools.math_accuracy` measures it). **f64 is left alone** on purpose: its ops stay LLVM intrinsics and
libm calls (correctly rounded or nearly, scalar); f64 element-wise code is
rare in the programs this project compiles and half as wide to vectorize.

Option `functions`: the op names to expand (e.g. `functions=exp,log`); empty
(the default) means all of them. Option `ldexp`: `auto` (the default: when the
target has AVX-512), `native` or `bits`, how `x 2^k` is scaled (the `llvm.ldexp`
intrinsic, `vscalefps`, or two factors built from their bits; `builder.Emitter.ldexp`).
Option `division`: `auto` (the default: the target's `reciprocal_division`), `divide` or
`reciprocal`, how tanh, logistic and erfc divide (`builder.Emitter.quotient`: a
division, or a refined reciprocal estimate and a correction step: the same results
but within ~2^-47 of a rounding tie).

Option `interleave` (default true): the innermost `scf.for`/`scf.parallel` around scalar
expansions gets an interleave count for LLVM's vectorizer (`lowering.loop_annotation`):
4 for one expanded function, 2 for more (whose loop bodies hold more live values).
A loop whose body already holds an expansion's worth of scalar f32 arithmetic
(`EXPANSION_SIZE`: `chlo.erfc`, expanded by `convert-xla-to-linalg`) counts as one.
LLVM's own choice for these big bodies is one vector per iteration; GELU tanh's
loop runs 12% faster with four. Option `tail`: `auto` (the default: `masked` for loops
around at least `FOLD_TAIL_FROM` expansions where the target has AVX-512's mask
registers), `masked` or `epilogue`: whether those loops also ask LLVM to run their last
partial vectors masked in the vector loop (`lowering.loop_annotation`: one copy of the
expansion instead of three) or in an epilogue loop and a scalar remainder.

Run it after `arith-emulate-unsupported-floats` (bf16 ops are then f32 ops with
conversions around them) and before `convert-math-to-llvm`.
"""

from __future__ import annotations

import math as math_
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math, scf, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    ModuleOp,
    VectorType,
    f32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.loop_annotation import set_interleave_count
from lowering.math_approximation import erf, exp_log, pow_cbrt, tanh_logistic, trig
from lowering.math_approximation.builder import Emitter, element_of, shaped_like
from xla_dialect.diagnostics import LoweringError

Expansion = Callable[..., SSAValue]

EXPANSIONS: dict[type[Operation], Expansion] = {
    math.ExpOp: exp_log.exp,
    math.Exp2Op: exp_log.exp2,
    math.ExpM1Op: exp_log.expm1,
    math.LogOp: exp_log.log,
    math.Log2Op: exp_log.log2,
    math.Log10Op: exp_log.log10,
    math.Log1pOp: exp_log.log1p,
    math.TanhOp: tanh_logistic.tanh,
    math.SinOp: trig.sin,
    math.CosOp: trig.cos,
    math.TanOp: trig.tan,
    math.AtanOp: trig.atan,
    math.Atan2Op: trig.atan2,
    math.ErfOp: erf.erf,
    math.PowFOp: pow_cbrt.powf,
    math.CbrtOp: pow_cbrt.cbrt,
    math.RsqrtOp: pow_cbrt.rsqrt,
}
"""Op class → its expansion `fn(emitter, *operands)` on f32."""


def _innermost_loop(op: Operation) -> Operation | None:
    """The innermost `scf.for`/`scf.parallel` around `op`, unless it carries values
    (a reduction: LLVM interleaves those by its own measure)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.ForOp | scf.ParallelOp):
        parent = parent.parent_op()
    if isinstance(parent, scf.ForOp) and parent.iter_args or isinstance(parent, scf.ParallelOp) and parent.initVals:
        return None
    return parent


EXPANSION_SIZE = 24
"""About how many scalar f32 multiplies, adds and fmas one expanded function takes: a loop
body holding that many (an expansion made earlier, e.g. `chlo.erfc`'s by
`convert-xla-to-linalg`, which reaches this pass as plain `arith`) is interleaved as if
this pass had expanded a function in it."""

_FLOAT_ARITHMETIC = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, math.FmaOp)


def _long_bodies(module: ModuleOp) -> dict[Operation, int]:
    """Innermost loops without carried values whose bodies hold at least `EXPANSION_SIZE`
    scalar f32 arithmetic ops, with that count in units of `EXPANSION_SIZE`."""
    found: dict[Operation, int] = {}
    for loop in module.walk():
        if not isinstance(loop, scf.ForOp | scf.ParallelOp) or _innermost_loop_of(loop) is not loop:
            continue
        count = 0
        for inner in loop.walk():
            if inner is not loop and isinstance(inner, scf.ForOp | scf.ParallelOp | scf.WhileOp):
                count = 0
                break
            if isinstance(inner, _FLOAT_ARITHMETIC) and inner.results[0].type == f32:
                count += 1
        if count >= EXPANSION_SIZE:
            found[loop] = count // EXPANSION_SIZE
    return found


def _innermost_loop_of(loop: Operation) -> Operation | None:
    """`loop` itself if it carries no values (the test of `_innermost_loop`), else None."""
    if isinstance(loop, scf.ForOp) and loop.iter_args or isinstance(loop, scf.ParallelOp) and loop.initVals:
        return None
    return loop


def interleave_for(expansions: int) -> int:
    """The interleave count of a loop around `expansions` scalar expansions."""
    return 4 if expansions == 1 else 2


def _short_name(cls: type[Operation]) -> str:
    return cls.name.removeprefix("math.")  # pyright: ignore[reportAttributeAccessIssue]


LDEXP_MODES: dict[str, bool | None] = {"auto": None, "native": True, "bits": False}
"""Option `ldexp` → `Emitter(native_ldexp=...)`."""

TAIL_MODES: dict[str, bool | None] = {"auto": None, "masked": True, "epilogue": False}
"""Option `tail` → whether annotated loops fold their tails into masked vectors (None:
`fold_tail`)."""

FOLD_TAIL_FROM = 6
"""`tail=auto` masks the tails of loops around this many expansions or more. The chain of
10 functions (one loop): LLVM's time 0.28 -> 0.20 s of a 0.59 s compile, its run time
unchanged (53.5 ms, 4M, one core); loops around one or two functions ran 3-5% slower at
4M masked (masked loads and stores in every iteration), and their code is small."""


def fold_tail(expansions: int, vector_bits: int) -> bool:
    """`tail=auto`: whether a loop around `expansions` expansions runs its last vectors
    masked, on a target with `vector_bits` (masks need AVX-512)."""
    return vector_bits >= 512 and expansions >= FOLD_TAIL_FROM

DIVISION_MODES: dict[str, bool | None] = {"auto": None, "divide": False, "reciprocal": True}
"""Option `division` → `Emitter(reciprocal=...)`."""


def constant_value(value: SSAValue) -> float | None:
    """The value of an `arith.constant` float (a scalar or a splat, or a
    `vector.broadcast` of the scalar), else None."""
    owner = value.owner
    if isinstance(owner, vector.BroadcastOp):
        return constant_value(owner.source)
    if not isinstance(owner, arith.ConstantOp):
        return None
    attr = owner.value
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        if len(values) >= 1 and all(v == values[0] for v in values) and isinstance(values[0], float):
            return float(values[0])
    return None


def _is_one(value: SSAValue) -> bool:
    """Whether `value` is an `arith.constant` 1.0 (`constant_value`)."""
    return constant_value(value) == 1.0


def _times_constant(value: SSAValue) -> tuple[SSAValue, float] | None:
    """(a, c) when `value` is `arith.mulf` of `a` and a constant `c`."""
    op = value.owner
    if not isinstance(op, arith.MulfOp):
        return None
    for a, b in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        c = constant_value(b)
        if c is not None:
            return a, c
    return None


def _halved(add: Operation) -> Operation | None:
    """The `arith.mulf` by 0.5 that is the one use of `add`'s result, if it is."""
    uses = list(add.results[0].uses)
    if len(uses) != 1 or not isinstance(mul := uses[0].operation, arith.MulfOp) or mul.lhs is mul.rhs:
        return None
    other = mul.rhs if mul.lhs is add.results[0] else mul.lhs
    return mul if constant_value(other) == 0.5 else None


def _one_plus(op: Operation) -> Operation | None:
    """The `arith.addf` that is the one use of `op`'s f32 result and adds 1.0 to it."""
    if len(op.results) != 1 or element_of(op.results[0].type) != f32:
        return None
    uses = list(op.results[0].uses)
    if len(uses) != 1:
        return None
    add = uses[0].operation
    if not isinstance(add, arith.AddfOp) or add.lhs is add.rhs:
        return None
    other = add.rhs if add.lhs is op.results[0] else add.lhs
    return add if _is_one(other) else None


def expand(op: Operation, native_ldexp: bool | None = None, reciprocal: bool | None = None) -> bool:
    """Replace `op` by its f32 expansion; False if its type is not one this pass expands.
    An f32 tanh whose one use adds 1.0 to it is expanded together with that add
    (`tanh_logistic.one_plus_tanh`)."""
    if isinstance(op, math.TanhOp) and (add := _one_plus(op)) is not None:
        t = op.results[0].type
        if isinstance(t, VectorType) and t.get_num_scalable_dims():
            return False
        ops: list[Operation] = []
        e = Emitter(ops, t, native_ldexp, reciprocal)
        y = op.operands[0]
        scaled = _times_constant(y)
        # 2y: y = a c is (2c) a, rounded once as c a is (scaling by 2 commutes with
        # rounding; where c a is subnormal, logistic(2y) is 0.5 from either)
        if scaled is not None and math_.isfinite(2.0 * scaled[1]):
            two_y = e.mul(scaled[0], e.c(2.0 * scaled[1]))
        else:
            two_y = e.add(y, y)
        half = _halved(add)  # 0.5 (1 + tanh(y)) = logistic(2y) exactly: no doubling and halving
        result = tanh_logistic.logistic(e, two_y) if half is not None else tanh_logistic.doubled(e, two_y)
        replaced = half if half is not None else add
        rewriter = Rewriter()
        rewriter.insert_op(ops, InsertPoint.before(replaced))
        replaced.results[0].replace_all_uses_with(result)
        rewriter.erase_op(replaced)
        if half is not None:
            rewriter.erase_op(add)
        rewriter.erase_op(op)
        return True
    fn = EXPANSIONS.get(type(op))
    if fn is None or len(op.results) != 1:
        return False
    t = op.results[0].type
    element = element_of(t)
    if isinstance(t, VectorType) and t.get_num_scalable_dims():
        return False
    if not isinstance(element, Float32Type | Float16Type | BFloat16Type):
        return False
    ops: list[Operation] = []
    wide = shaped_like(t, f32)
    e = Emitter(ops, wide, native_ldexp, reciprocal)
    args: list[SSAValue] = []
    for operand in op.operands:
        if element != f32:
            ext = arith.ExtFOp(operand, wide)
            ops.append(ext)
            operand = ext.result
        args.append(operand)
    result = fn(e, *args)
    if element != f32:
        trunc = arith.TruncFOp(result, t)
        ops.append(trunc)
        result = trunc.result
    rewriter = Rewriter()
    rewriter.insert_op(ops, InsertPoint.before(op))
    op.results[0].replace_all_uses_with(result)
    rewriter.erase_op(op)
    return True


@dataclass(frozen=True)
class MathPolynomialApproximationPass(ModulePass):
    """Expand f32 (and f16/bf16) math ops into vectorizable polynomial approximations."""

    name = "math-polynomial-approximation"

    functions: tuple[str, ...] = ()
    """The ops to expand, by name without `math.` (all when empty)."""
    ldexp: str = "auto"
    """How x 2^k is scaled: `auto`, `native` (`llvm.ldexp`) or `bits` (`LDEXP_MODES`)."""
    division: str = "auto"
    """How expansions divide: `auto`, `divide` or `reciprocal` (`DIVISION_MODES`)."""
    interleave: bool = True
    """Give the loops around scalar expansions an interleave count (`interleave_for`)."""
    tail: str = "auto"
    """How those loops end: `auto`, `masked` or `epilogue` (`TAIL_MODES`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.ldexp not in LDEXP_MODES:
            raise LoweringError(f"math-polynomial-approximation: ldexp={self.ldexp} is not one of {', '.join(LDEXP_MODES)}")
        native = LDEXP_MODES[self.ldexp]
        if self.division not in DIVISION_MODES:
            raise LoweringError(
                f"math-polynomial-approximation: division={self.division} is not one of {', '.join(DIVISION_MODES)}"
            )
        reciprocal = DIVISION_MODES[self.division]
        if self.tail not in TAIL_MODES:
            raise LoweringError(f"math-polynomial-approximation: tail={self.tail} is not one of {', '.join(TAIL_MODES)}")
        fold = TAIL_MODES[self.tail]
        from lowering.codegen.target import get_target

        bits = get_target().vector_bits
        wanted = set(self.functions)
        expansions: dict[Operation, int] = {}
        for inner in list(op.walk()):
            if type(inner) in EXPANSIONS and (not wanted or _short_name(type(inner)) in wanted):
                scalar = not isinstance(inner.results[0].type, VectorType) if inner.results else False
                loop = _innermost_loop(inner)
                if expand(inner, native, reciprocal) and scalar and loop is not None:
                    expansions[loop] = expansions.get(loop, 0) + 1
        if self.interleave:
            for loop, count in _long_bodies(op).items():
                expansions.setdefault(loop, count)
            for loop, count in expansions.items():
                set_interleave_count(loop, interleave_for(count), fold_tail(count, bits) if fold is None else fold)


__all__ = ["EXPANSIONS", "MathPolynomialApproximationPass", "expand"]
