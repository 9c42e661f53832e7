"""`convert-vector-to-llvm`: the 1-D `vector` ops the code generator emits, to `llvm`.

* `vector.load`/`vector.store` of `vector<N x T>` from a statically shaped memref →
  `llvm.getelementptr` to the first element, then an `llvm.load`/`llvm.store` of
  the LLVM vector type. The alignment is the element's, never more: a memref may
  be a NumPy buffer the program did not allocate.
* `vector.maskedload`/`vector.maskedstore` → `llvm.masked.load`/`llvm.masked.store`
  (element alignment; `vmovups` with a mask register on AVX-512).
* `vector.broadcast` of a scalar → `llvm.insertelement` into lane 0 and an
  all-zero `llvm.shufflevector` mask (the `vbroadcastss` idiom LLVM matches); a
  broadcast of a vector to its own type is the value itself.
* `vector.fma` → `llvm.fma.vNfT`; `vector.bitcast` → `llvm.bitcast`; a broadcast
  of a one-element vector is the same shuffle.
* `x86vector.avx2.pmaddwd` → `llvm.x86.avx2.pmadd.wd`;
* `x86vector.avx512.dot` → `llvm.x86.avx512bf16.dpbf16ps.512`, `x86vector.avx512.dot.i16`
  → `llvm.x86.avx512.vpdpwssd.512`.
* `vector.reduction <add|mul|maximumf|minimumf|maxnumf|minnumf>` (and the integer
  kinds) → LLVM's `llvm.vector.reduce.*` intrinsics; an `add`/`mul` reduction is
  ordered (lane 0 first) unless the op carries `reassoc`, as in LLVM; without
  `acc` a float `add` starts from `-0.0`, its identity (a sum of `-0.0`s is
  `-0.0`), and `mul` from `1.0`.
* `vector.shuffle` of 1-D vectors → `llvm.shufflevector` with the same mask.
"""

from __future__ import annotations

from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, MemRefType, VectorType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from lowering.codegen.x86vector import DotBF16Op, DotI16Op, MulAddI16Op
from lowering.to_llvm import builders
from lowering.to_llvm.arith import intrinsic_call, llvm_fastmath
from lowering.to_llvm.common import (
    ConversionPass,
    LoweringError,
    check_static_memref,
    convert_type,
    element_type,
    float_constant,
    int_constant,
    llvm_operand,
    llvm_operands,
    replace_with_llvm,
    type_suffix,
)
from lowering.to_llvm.memref import element_pointer, element_size


def _vector_type(t: Attribute, op: Operation) -> VectorType:
    if not isinstance(t, VectorType) or t.get_num_dims() != 1 or t.get_num_scalable_dims():
        raise LoweringError(f"only fixed-size 1-D vectors are lowered, not {t}", op)
    return t


def _address(
    op: Operation, base: SSAValue, indices: list[SSAValue], rewriter: PatternRewriter, ops: list[Operation]
) -> tuple[SSAValue, MemRefType]:
    """The pointer to `base[indices]` (new ops appended to `ops`) and the memref type."""
    t = check_static_memref(base.type, op)
    ptr = llvm_operand(base, rewriter, op)
    return element_pointer(ptr, llvm_operands(indices, rewriter, op), t, ops), t


class LoadLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.LoadOp, rewriter: PatternRewriter, /) -> None:
        vt = convert_type(_vector_type(op.result.type, op))
        ops: list[Operation] = []
        address, t = _address(op, op.base, list(op.indices), rewriter, ops)
        load = builders.load(address, vt, alignment=element_size(t.get_element_type()))
        replace_with_llvm(op, [*ops, load], [load.dereferenced_value], rewriter)


class StoreLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.StoreOp, rewriter: PatternRewriter, /) -> None:
        _vector_type(op.vector.type, op)
        value = llvm_operand(op.vector, rewriter, op)
        ops: list[Operation] = []
        address, t = _address(op, op.base, list(op.indices), rewriter, ops)
        # A non-temporal store is aligned to its vector, or to a cache line if the vector
        # is wider (its producers, `linalg-stream-copies` and `-elementwise`, peel to make it so): x86 has no unaligned streaming vector store, and LLVM would
        # split an element-aligned one into scalar `movnti`s.
        nontemporal = op.nontemporal is not None and op.nontemporal.value.data != 0
        size = element_size(t.get_element_type())
        alignment = min(element_size(op.vector.type), NONTEMPORAL_ALIGNMENT) if nontemporal else size
        store = builders.store(value, address, alignment=alignment, nontemporal=nontemporal)
        rewriter.replace(op, [*ops, store], [])


NONTEMPORAL_ALIGNMENT = 64
"""The alignment a non-temporal store of a vector wider than this is given: a cache
line, what each of the register-wide `vmovntps` LLVM splits it into needs (its
producer peels to it, not to the whole vector)."""


class MaskedLoadLowering(RewritePattern):
    """`vector.maskedload` → `llvm.masked.load` (the lanes off in the mask are not read:
    a vector that runs past the end of its buffer is safe)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskedLoadOp, rewriter: PatternRewriter, /) -> None:
        vt = _vector_type(op.result.type, op)
        mask, passthru = llvm_operands([op.mask, op.pass_thru], rewriter, op)
        ops: list[Operation] = []
        address, t = _address(op, op.base, list(op.indices), rewriter, ops)
        align = int_constant(element_size(t.get_element_type()), i32)
        lvt = convert_type(vt)
        call = llvm.CallIntrinsicOp(f"llvm.masked.load.{type_suffix(lvt)}.p0", [address, align.result, mask, passthru], [lvt])
        replace_with_llvm(op, [*ops, align, call], [call.results[0]], rewriter)


class MaskedStoreLowering(RewritePattern):
    """`vector.maskedstore` → `llvm.masked.store` (only the lanes on in the mask are written)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.MaskedStoreOp, rewriter: PatternRewriter, /) -> None:
        vt = _vector_type(op.value_to_store.type, op)
        value, mask = llvm_operands([op.value_to_store, op.mask], rewriter, op)
        ops: list[Operation] = []
        address, t = _address(op, op.base, list(op.indices), rewriter, ops)
        align = int_constant(element_size(t.get_element_type()), i32)
        call = llvm.CallIntrinsicOp(f"llvm.masked.store.{type_suffix(convert_type(vt))}.p0", [value, address, align.result, mask], [])
        rewriter.replace(op, [*ops, align, call], [])


class BroadcastLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, rewriter: PatternRewriter, /) -> None:
        vt = _vector_type(op.vector.type, op)
        source = llvm_operand(op.source, rewriter, op)
        if op.source.type == op.vector.type:
            replace_with_llvm(op, [], [source], rewriter)
            return
        lvt = convert_type(vt)
        mask = DenseArrayBase.from_list(i32, [0] * vt.get_shape()[0])
        if isinstance(op.source.type, VectorType):
            if op.source.type.get_shape() != (1,):
                raise LoweringError(f"broadcast of {op.source.type} to {vt} is not lowered", op)
            # Stretching a one-element vector: the same all-zero shuffle.
            shuffle = llvm.ShuffleVectorOp(source, source, mask, lvt)
            replace_with_llvm(op, [shuffle], [shuffle.res], rewriter)
            return
        undef = llvm.UndefOp(lvt)
        zero = int_constant(0, i32)
        insert = llvm.InsertElementOp(undef.res, source, zero.result)
        shuffle = llvm.ShuffleVectorOp(insert.res, undef.res, mask, lvt)
        replace_with_llvm(op, [undef, zero, insert, shuffle], [shuffle.res], rewriter)


class BitcastLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BitcastOp, rewriter: PatternRewriter, /) -> None:
        source = llvm_operand(op.source, rewriter, op)
        cast = llvm.BitcastOp(source, convert_type(op.result.type))
        replace_with_llvm(op, [cast], [cast.results[0]], rewriter)


DOT_BF16_INTRINSIC = "llvm.x86.avx512bf16.dpbf16ps.512"
"""Its bf16 operands are `<32 x bfloat>`; ours are `<32 x i16>` (bf16's storage type
in LLVM here), which the llvmlite backend bitcasts at the call."""


DOT_I16_INTRINSIC = "llvm.x86.avx512.vpdpwssd.512"

MUL_ADD_I16_INTRINSIC = "llvm.x86.avx2.pmadd.wd"


class PairDotLowering(RewritePattern):
    """The pairwise dot products of `x86vector` → their intrinsic calls."""

    op_types = (DotBF16Op, DotI16Op, MulAddI16Op)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, DotBF16Op):
            name = DOT_BF16_INTRINSIC
        elif isinstance(op, DotI16Op):
            name = DOT_I16_INTRINSIC
        elif isinstance(op, MulAddI16Op):
            name = MUL_ADD_I16_INTRINSIC
        else:
            return
        args = llvm_operands(list(op.operands), rewriter, op)
        call = llvm.CallIntrinsicOp(name, args, [convert_type(op.results[0].type)])
        replace_with_llvm(op, [call], [call.results[0]], rewriter)


class FMALowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.FMAOp, rewriter: PatternRewriter, /) -> None:
        vt = convert_type(_vector_type(op.res.type, op))
        args = llvm_operands([op.lhs, op.rhs, op.acc], rewriter, op)
        call = intrinsic_call("fma", args, vt)
        replace_with_llvm(op, [call], [call.results[0]], rewriter)


_REDUCTIONS: dict[str, str] = {
    "add": "vector.reduce.fadd",
    "mul": "vector.reduce.fmul",
    "maximumf": "vector.reduce.fmaximum",
    "minimumf": "vector.reduce.fminimum",
    "maxnumf": "vector.reduce.fmax",
    "minnumf": "vector.reduce.fmin",
}
_INT_REDUCTIONS: dict[str, str] = {
    "add": "vector.reduce.add",
    "mul": "vector.reduce.mul",
    "and": "vector.reduce.and",
    "or": "vector.reduce.or",
    "xor": "vector.reduce.xor",
    "maxsi": "vector.reduce.smax",
    "minsi": "vector.reduce.smin",
    "maxui": "vector.reduce.umax",
    "minui": "vector.reduce.umin",
}


class ReductionLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ReductionOp, rewriter: PatternRewriter, /) -> None:
        vt = convert_type(_vector_type(op.vector.type, op))
        kind = op.kind.data.value
        element = element_type(vt)
        is_int = isinstance(element, IntegerType)
        table = _INT_REDUCTIONS if is_int else _REDUCTIONS
        if kind not in table:
            raise LoweringError(f"vector.reduction <{kind}> is not lowered on {op.vector.type}", op)
        source = llvm_operand(op.vector, rewriter, op)
        ops: list[Operation] = []
        name = f"llvm.{table[kind]}.{type_suffix(vt)}"
        flags = op.fastmath.data if not is_int else set()
        if not is_int and kind in ("add", "mul"):
            # Ordered reductions take a start value; it is the identity unless `acc` is given.
            if op.acc is not None:
                start = llvm_operand(op.acc, rewriter, op)
            else:
                c = float_constant(-0.0 if kind == "add" else 1.0, element)
                ops.append(c)
                start = c.result
            call = llvm.CallIntrinsicOp(name, [start, source], [element])
            if flags:
                call.properties["fastmathFlags"] = llvm_fastmath(op.fastmath)
            ops.append(call)
            replace_with_llvm(op, ops, [call.results[0]], rewriter)
            return
        call = llvm.CallIntrinsicOp(name, [source], [element])
        ops.append(call)
        result = call.results[0]
        if op.acc is not None:
            raise LoweringError(f"vector.reduction <{kind}> with an accumulator is not lowered", op)
        replace_with_llvm(op, ops, [result], rewriter)


class ShuffleLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ShuffleOp, rewriter: PatternRewriter, /) -> None:
        for value in (op.v1, op.v2, op.result):
            _vector_type(value.type, op)
        v1, v2 = llvm_operands([op.v1, op.v2], rewriter, op)
        mask = DenseArrayBase.from_list(i32, list(op.mask.get_values()))
        shuffle = llvm.ShuffleVectorOp(v1, v2, mask, convert_type(op.result.type))
        replace_with_llvm(op, [shuffle], [shuffle.res], rewriter)


def vector_patterns() -> list[RewritePattern]:
    return [
        ShuffleLowering(),
        LoadLowering(),
        StoreLowering(),
        MaskedLoadLowering(),
        MaskedStoreLowering(),
        BroadcastLowering(),
        BitcastLowering(),
        FMALowering(),
        PairDotLowering(),
        ReductionLowering(),
    ]


class ConvertVectorToLLVMPass(ConversionPass):
    """vector.load/store/broadcast/bitcast/fma/reduction/shuffle and x86vector.avx512.dot(.i16) → llvm."""

    name = "convert-vector-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return vector_patterns()


__all__ = ["ConvertVectorToLLVMPass", "vector_patterns"]
