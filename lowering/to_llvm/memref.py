"""`convert-memref-to-llvm`: statically shaped memrefs to bare pointers.

A memref value becomes an opaque `!llvm.ptr` to the element `[0, ..., 0]` of the
view (the layout's offset is already applied); its type's strides (identity =
row-major, or `strided<[...], offset: N>`) give the address of an element:

* `memref.load`/`memref.store` → `llvm.getelementptr` then `llvm.load`/`llvm.store`:
  one index per dimension through nested `!llvm.array`s when the strides nest
  (row-major rows, perhaps of a wider parent), else by `sum(i_k * stride_k)`;
* `memref.subview` → GEP by `sum(offset_k * source_stride_k)` (offsets static or
  dynamic; sizes and strides are in the result type);
* `memref.reinterpret_cast` → GEP by `offset - source_offset`;
* `memref.cast`, `memory_space_cast`, `collapse_shape`, `expand_shape`,
  `assume_alignment` → the same pointer;
* `memref.alloc` → `aligned_alloc(64, bytes rounded up to 64)`, `memref.dealloc`
  → `free`, `memref.alloca` → `llvm.alloca`;
* `memref.copy` → `llvm.memcpy` when both sides are contiguous, else a loop nest
  of loads and stores (built as llvm blocks: the copy must sit directly in a
  function body, i.e. lower scf first);
* `memref.global` → `llvm.mlir.global` of a flat `!llvm.array` (dense initializer
  kept, bf16 ones as their i16 bit patterns; uninitialized = zero, 64-byte
  aligned), `memref.get_global` → `llvm.mlir.addressof`;
* `memref.dim`/`memref.rank` → constants; `extract_aligned_pointer_as_index` →
  `llvm.ptrtoint`; `memref.view` → GEP by the byte shift.
"""

from __future__ import annotations

import functools
import itertools
import math
import weakref
import zlib
from collections.abc import Callable, Sequence

from xdsl.dialects import func, llvm, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    VectorType,
    i1,
    i8,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from lowering.to_llvm import builders
from lowering.to_llvm.common import (
    BF16_STORAGE_TYPE,
    PTR,
    ConversionPass,
    bitwidth,
    call_op,
    check_static_memref,
    convert_type,
    enclosing_module,
    ensure_function,
    int_constant,
    is_bf16,
    is_contiguous,
    llvm_operand,
    llvm_operands,
    memref_offset,
    memref_strides,
    module_symbol,
    replace_with_llvm,
    symbol_name,
    symbol_ref,
)
from lowering.to_llvm.vector_compare import SelectOp
from xla_dialect.diagnostics import LoweringError
from xla_dialect.fast_construction import unverified

ALLOC_ALIGNMENT = 64
"""Alignment in bytes of `memref.alloc` buffers and of globals."""


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def element_size(t: Attribute) -> int:
    """Size in bytes of a memref element type (i1 takes a byte)."""
    if isinstance(t, VectorType):
        return math.prod(t.get_shape()) * element_size(t.element_type)
    return max(1, (bitwidth(t) + 7) // 8)


def llvm_element_type(t: MemRefType) -> Attribute:
    return convert_type(t.get_element_type())


def linear_index(
    indices: Sequence[SSAValue | int], strides: Sequence[int], ops: list[Operation]
) -> SSAValue | int:
    """`sum(indices[k] * strides[k])` as i64; static terms are folded. New ops are
    appended to `ops`; returns an int when everything is static."""
    static = 0
    terms: list[SSAValue] = []
    for index, stride in zip(indices, strides, strict=True):
        if stride == 0:
            continue
        if isinstance(index, int):
            static += index * stride
            continue
        if stride == 1:
            terms.append(index)
            continue
        c = int_constant(stride)
        mul = llvm.MulOp(index, c.result)
        ops += [c, mul]
        terms.append(mul.res)
    if not terms:
        return static
    total = terms[0]
    for term in terms[1:]:
        add = llvm.AddOp(total, term)
        ops.append(add)
        total = add.res
    if static:
        c = int_constant(static)
        add = llvm.AddOp(total, c.result)
        ops += [c, add]
        total = add.res
    return total


def offset_pointer(
    ptr: SSAValue, offset: SSAValue | int, element: Attribute, ops: list[Operation], *, inbounds: bool = True
) -> SSAValue:
    """`ptr + offset` elements of type `element` (no op for a zero offset)."""
    if isinstance(offset, int):
        if offset == 0:
            return ptr
        if not -(2**31) <= offset < 2**31:  # GEP's static indices are i32
            c = int_constant(offset)
            ops.append(c)
            offset = c.result
    address = builders.gep(ptr, [offset], element, inbounds=inbounds)
    ops.append(address)
    return address.result


@functools.lru_cache(maxsize=1024)
def nested_array_type(element: Attribute, strides: tuple[int, ...]) -> Attribute | None:
    """The type a GEP steps through with one index per dimension of a view of these
    strides, or None: `[s0/s1 x [s1/s2 x ... [s(n-2)/s(n-1) x element]]]`, when the
    innermost stride is 1 and each stride divides the one before (row-major rows, maybe
    of a wider parent: a subview, a collapsed or expanded shape)."""
    if len(strides) < 2 or strides[-1] != 1:
        return None
    nested = element
    for outer, inner in reversed(list(itertools.pairwise(strides))):
        if inner <= 0 or outer <= 0 or outer % inner:
            return None
        nested = llvm.LLVMArrayType(outer // inner, nested)
    return nested


def element_pointer(
    ptr: SSAValue, indices: Sequence[SSAValue | int], t: MemRefType, ops: list[Operation]
) -> SSAValue:
    """The address of element `indices` of the view `ptr` points at: one GEP through
    `nested_array_type` when the strides nest (as C's arrays index, and LLVM folds the
    steps into its addressing), else a GEP by `linear_index`. The nested form makes no
    multiplications, additions or constants: on the small GPT's Adam step, 10,000 of the
    27,000 ops `convert-to-llvm` made."""
    strides = memref_strides(t)
    element = llvm_element_type(t)
    if len(indices) > 1 and not all(isinstance(index, int) for index in indices):
        nested = nested_array_type(element, strides)
        if nested is not None:
            address = builders.gep(ptr, indices, nested)
            ops.append(address)
            return address.result
    return offset_pointer(ptr, linear_index(indices, strides, ops), element, ops)


def _memref_type(value: SSAValue, op: Operation) -> MemRefType:
    return check_static_memref(value.type, op)


# ---------------------------------------------------------------------------
# Loads and stores
# ---------------------------------------------------------------------------


class LoadLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter, /) -> None:
        t = _memref_type(op.memref, op)
        ptr = llvm_operand(op.memref, rewriter, op)
        indices = llvm_operands(op.indices, rewriter, op)
        ops: list[Operation] = []
        address = element_pointer(ptr, indices, t, ops)
        load = builders.load(address, llvm_element_type(t))
        replace_with_llvm(op, [*ops, load], [load.dereferenced_value], rewriter)


class StoreLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter, /) -> None:
        t = _memref_type(op.memref, op)
        ptr = llvm_operand(op.memref, rewriter, op)
        value = llvm_operand(op.value, rewriter, op)
        indices = llvm_operands(op.indices, rewriter, op)
        ops: list[Operation] = []
        address = element_pointer(ptr, indices, t, ops)
        rewriter.replace(op, [*ops, builders.store(value, address)], [])


# ---------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------


class SamePointerLowering(RewritePattern):
    """Ops whose result views the same element [0, ..., 0] as their source."""

    op_types = (
        memref.CastOp,
        memref.MemorySpaceCastOp,
        memref.CollapseShapeOp,
        memref.ExpandShapeOp,
        memref.AssumeAlignmentOp,
    )

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.op_types):
            return
        check_static_memref(op.results[0].type, op)
        source = op.operands[0]
        ptr = llvm_operand(source, rewriter, op)
        replace_with_llvm(op, [], [ptr], rewriter)


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[SSAValue | int]:
    values: list[SSAValue | int] = []
    it = iter(dynamic)
    for s in static:
        values.append(next(it) if s == DYNAMIC_INDEX else s)
    return values


class SubviewLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.SubviewOp, rewriter: PatternRewriter, /) -> None:
        source_type = _memref_type(op.source, op)
        check_static_memref(op.result.type, op)
        if op.sizes or op.strides:
            raise LoweringError("subviews with dynamic sizes or strides are not supported", op)
        ptr = llvm_operand(op.source, rewriter, op)
        offsets = _mixed(op.static_offsets.get_values(), llvm_operands(op.offsets, rewriter, op))
        ops: list[Operation] = []
        result_ptr = element_pointer(ptr, offsets, source_type, ops)
        replace_with_llvm(op, ops, [result_ptr], rewriter)


class ReinterpretCastLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ReinterpretCastOp, rewriter: PatternRewriter, /) -> None:
        source_type = check_static_memref(op.source.type, op, require_offset=True)
        check_static_memref(op.result.type, op)
        if op.sizes or op.strides:
            raise LoweringError("reinterpret_cast with dynamic sizes or strides is not supported", op)
        ptr = llvm_operand(op.source, rewriter, op)
        (offset,) = _mixed(op.static_offsets.get_values(), llvm_operands(op.offsets, rewriter, op))
        source_offset = memref_offset(source_type)
        ops: list[Operation] = []
        if isinstance(offset, int):
            delta: SSAValue | int = offset - source_offset
        elif source_offset:
            c = int_constant(source_offset)
            sub = llvm.SubOp(offset, c.result)
            ops += [c, sub]
            delta = sub.res
        else:
            delta = offset
        result_ptr = offset_pointer(ptr, delta, llvm_element_type(source_type), ops, inbounds=False)
        replace_with_llvm(op, ops, [result_ptr], rewriter)


class ViewLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ViewOp, rewriter: PatternRewriter, /) -> None:
        if op.sizes:
            raise LoweringError("memref.view with dynamic sizes is not supported", op)
        ptr = llvm_operand(op.source, rewriter, op)
        shift = llvm_operand(op.byte_shift, rewriter, op)
        ops: list[Operation] = []
        result_ptr = offset_pointer(ptr, shift, i8, ops)
        replace_with_llvm(op, ops, [result_ptr], rewriter)


# ---------------------------------------------------------------------------
# Allocation
# ---------------------------------------------------------------------------


def _byte_size(t: MemRefType) -> int:
    return math.prod(t.get_shape()) * element_size(t.get_element_type())


LARGE_ALLOCATION = 1 << 16
"""Buffers of at least this many bytes come from `__xla_alloc`, the runtime's caching
allocator (`runtime/allocator.py`), so that calls reuse their pages instead of
faulting fresh ones in; smaller ones from `aligned_alloc`."""

CACHED_ALLOC = "__xla_alloc"
CACHED_FREE = "__xla_free"
"""Freed by `__xla_free`, which passes pointers it did not hand out to `free`."""


def alloc_plan(op: memref.AllocOp) -> tuple[int, int]:
    """The alignment and the byte size `op` allocates (a `LoweringError` for what the
    lowering refuses)."""
    t = _memref_type(op.memref, op)
    if op.dynamic_sizes:
        raise LoweringError("memref.alloc with dynamic sizes is not supported", op)
    alignment = max(ALLOC_ALIGNMENT, op.alignment.value.data if op.alignment else 0)
    size = max(alignment, -(-_byte_size(t) // alignment) * alignment)
    if size > (1 << 63) - 1:  # an i64 size would wrap: a tiny buffer, then overruns
        raise LoweringError(f"memref.alloc of {size} bytes exceeds the 64-bit size range", op)
    return alignment, size


def alloc_ops(op: memref.AllocOp, plan: tuple[int, int], rewriter: PatternRewriter) -> tuple[list[Operation], SSAValue]:
    """The llvm ops allocating `op`'s buffer (`alloc_plan(op)`: alignment and size) and
    the pointer; the checked allocator and the site string are added to the module."""
    alignment, size = plan
    allocator = _checked(op, CACHED_ALLOC if size >= LARGE_ALLOCATION else "aligned_alloc", rewriter)
    c_align, c_size = int_constant(alignment), int_constant(size)
    site = _site(op, rewriter)
    call = call_op(symbol_ref(allocator), c_align.result, c_size.result, site[-1].results[0], return_type=PTR)
    return [c_align, c_size, *site, call], call.returned  # pyright: ignore[reportReturnType]


class AllocLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.AllocOp, rewriter: PatternRewriter, /) -> None:
        ops, ptr = alloc_ops(op, alloc_plan(op), rewriter)
        replace_with_llvm(op, ops, [ptr], rewriter)


SITE_PREFIX = "__xla_alloc_site."
"""Private constant strings `file:line:col` of the ops that allocate: a failed allocation
passes its own to `__xla_alloc_failed_at`, and the error names the op."""


def _site(op: Operation, rewriter: PatternRewriter) -> list[Operation]:
    """Ops giving the address of the string naming `op`'s location (one global per
    location), or a null pointer where the location is unknown."""
    loc = op.location
    if not isinstance(loc, FileLineColLoc):
        zero = int_constant(0)
        return [zero, llvm.IntToPtrOp(zero.result)]
    text = f"{loc.filename.data}:{loc.line.data}:{loc.column.data}".encode()
    name = f"{SITE_PREFIX}{zlib.crc32(text):08x}"
    module = enclosing_module(op)
    sites = _SITES.get(module)
    if sites is None:  # once per module: the site strings it already holds
        sites = _SITES[module] = {n: o for o in module.ops if (n := symbol_name(o)) and n.startswith(SITE_PREFIX)}
    known = sites.get(name)
    if known is None or known.parent is not module.body.block:
        data = text + b"\0"
        tensor_type, array_type = _string_types(len(data))
        # (`from_list` of the signed bytes packs them back to `data`, a value at a time;
        # an i8 tensor of the string's length and its bytes are valid by construction)
        value = unverified(DenseIntOrFPElementsAttr, type=tensor_type, data=BytesAttr(data))
        # llvm.GlobalOp(array_type, name, "internal", constant=True, value=value)
        properties = {
            "global_type": array_type,
            "sym_name": StringAttr(name),
            "linkage": _INTERNAL,
            "addr_space": _ADDRESS_SPACE_0,
            "constant": _UNIT,
            "value": value,
        }
        string = llvm.GlobalOp.create(properties=properties, regions=[Region()])
        rewriter.insert(string, InsertPoint.at_end(module.body.block))
        sites[name] = string
    # llvm.AddressOfOp(name, PTR)
    reference = unverified(SymbolRefAttr, root_reference=StringAttr(name), nested_references=_NO_NESTED)
    return [llvm.AddressOfOp.create(result_types=[PTR], properties={"global_name": reference})]


_NO_NESTED: ArrayAttr[StringAttr] = ArrayAttr(())



# The attributes every site string shares (its global and its address are made with
# `create`, as xDSL's builders make them, without rebuilding these per allocation).
_INTERNAL = llvm.LinkageAttr("internal")
_ADDRESS_SPACE_0 = IntegerAttr(0, 32)
_UNIT = UnitAttr()


@functools.lru_cache(maxsize=256)
def _string_types(length: int) -> tuple[TensorType, llvm.LLVMArrayType]:
    """The types of a site string of `length` bytes: its value's and its global's."""
    return TensorType(IntegerType(8), [length]), llvm.LLVMArrayType(length, IntegerType(8))


_SITES: weakref.WeakKeyDictionary[ModuleOp, dict[str, Operation]] = weakref.WeakKeyDictionary()
"""Per module, its site strings by name. `module_symbol` rebuilds its index of the whole
module at each miss, and every new site is a miss: 3,000 allocations made the pass
quadratic (convert-to-llvm 2.1 -> 3.7 s on the 10,010-op transformer)."""


ALLOCATION_FAILED = "__xla_alloc_failed_at"
"""`void __xla_alloc_failed_at(i64 size, ptr site)`, called when an allocator returns
null; it does not return (the runtime's handler records `site`, the op's location or
null, and `longjmp`s back to the trampoline the entry was called through, which raises
`MemoryError` in Python naming the op: `runtime/guard.py`)."""

CHECKED_SUFFIX = ".checked"


def _checked(op: Operation, allocator: str, rewriter: PatternRewriter) -> str:
    """The name of `<allocator>.checked(align, size)`: a private function of the module
    that calls `allocator` and, when it returns null, `__xla_alloc_failed(size)`, so a
    failed allocation is reported instead of written through. One function per
    allocator, not a branch per allocation: an allocation stays one call wherever it
    sits (in a loop too), and a program's entry stays one block (which
    `llvm-split-large-functions` cuts)."""
    name = allocator + CHECKED_SUFFIX
    module = enclosing_module(op)
    if isinstance(module_symbol(module, name), llvm.FuncOp):
        return name
    ensure_function(op, allocator, [i64, i64], PTR, rewriter)
    ensure_function(op, ALLOCATION_FAILED, [i64, PTR], llvm.LLVMVoidType(), rewriter)
    entry, ok, failed = Block(arg_types=[i64, i64, PTR]), Block(), Block()
    align, size, site = entry.args
    call = llvm.CallOp(allocator, align, size, return_type=PTR)
    address = llvm.PtrToIntOp(call.returned, i64)  # pyright: ignore[reportArgumentType]  (xDSL's icmp takes integers only)
    zero = int_constant(0)
    is_null = builders.icmp(address.results[0], zero.result, "eq")
    entry.add_ops([call, address, zero, is_null, llvm.CondBrOp(is_null.res, failed, [], ok, [])])
    ok.add_op(llvm.ReturnOp.build(operands=[call.returned]))
    failed.add_ops([llvm.CallOp(ALLOCATION_FAILED, size, site), llvm.UnreachableOp()])
    checked = llvm.FuncOp(
        name,
        llvm.LLVMFunctionType([i64, i64, PTR], PTR),
        linkage=llvm.LinkageAttr("internal"),
        body=Region([entry, ok, failed]),
    )
    rewriter.insert(checked, InsertPoint.at_end(module.body.block))
    return name


STACK_LIMIT = 8 << 20
"""The largest `memref.alloca` lowered: Linux's default stack (a thread's is no larger)."""


class AllocaLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.AllocaOp, rewriter: PatternRewriter, /) -> None:
        t = _memref_type(op.memref, op)
        if op.dynamic_sizes:
            raise LoweringError("memref.alloca with dynamic sizes is not supported", op)
        alignment = op.alignment.value.data if op.alignment else 16
        if _byte_size(t) > STACK_LIMIT:  # it would run past the stack (SIGSEGV), not fail
            raise LoweringError(
                f"memref.alloca of {_byte_size(t)} bytes exceeds the {STACK_LIMIT >> 20} MiB stack "
                "(use memref.alloc)",
                op,
            )
        count = int_constant(max(1, math.prod(t.get_shape())))
        alloca = llvm.AllocaOp(count.result, llvm_element_type(t), alignment=alignment)
        replace_with_llvm(op, [count, alloca], [alloca.res], rewriter)


class DeallocLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DeallocOp, rewriter: PatternRewriter, /) -> None:
        ptr = llvm_operand(op.memref, rewriter, op)
        rewriter.replace(op, free_op(op, ptr, rewriter), [])


def free_op(op: memref.DeallocOp, ptr: SSAValue, rewriter: PatternRewriter) -> Operation:
    """The call freeing `ptr` (`op`'s buffer); the function is declared in the module."""
    release = "free" if _allocated_by(ptr) == "aligned_alloc" else CACHED_FREE
    ensure_function(op, release, [PTR], llvm.LLVMVoidType(), rewriter)
    return call_op(symbol_ref(release), ptr)


def _allocated_by(ptr: SSAValue) -> str | None:
    """The allocation function whose call produced `ptr`, when it is in sight."""
    owner = ptr.owner
    if isinstance(owner, llvm.CallOp) and owner.callee is not None:
        return owner.callee.string_value().removesuffix(CHECKED_SUFFIX)
    return None


# ---------------------------------------------------------------------------
# Copies
# ---------------------------------------------------------------------------


def build_loop_nest(
    op: Operation,
    shape: Sequence[int],
    body: Callable[[list[SSAValue]], list[Operation]],
    rewriter: PatternRewriter,
) -> None:
    """Replace `op` by a loop nest over `shape` (llvm blocks) whose innermost body
    is `body(induction variables)`. `op` must sit directly in a function body."""
    block = op.parent_block()
    region = block.parent if block is not None else None
    parent = region.parent if region is not None else None
    if block is None or region is None or not isinstance(parent, (func.FuncOp, llvm.FuncOp)):
        raise LoweringError(
            f"'{op.name}' needs a loop here but is not directly in a function body "
            "(lower scf to cf first)",
            op,
        )
    after = block.split_before(op)

    def emit(level: int, entry: Block, exit_block: Block, ivs: list[SSAValue]) -> None:
        if level == len(shape):
            rewriter.insert([*body(ivs), llvm.BrOp(exit_block)], InsertPoint.at_end(entry))
            return
        header = Block(arg_types=[i64])
        loop_body = Block()
        latch = Block()
        for b in (header, loop_body, latch):
            region.insert_block_before(b, after)
        zero = int_constant(0)
        rewriter.insert([zero, llvm.BrOp(header, zero.result)], InsertPoint.at_end(entry))
        iv = header.args[0]
        bound = int_constant(shape[level])
        cond = builders.icmp(iv, bound.result, "slt")
        rewriter.insert(
            [bound, cond, llvm.CondBrOp(cond.res, loop_body, [], exit_block, [])],
            InsertPoint.at_end(header),
        )
        one = int_constant(1)
        nxt = llvm.AddOp(iv, one.result, overflow=llvm.OverflowAttr.from_int(3))
        rewriter.insert([one, nxt, llvm.BrOp(header, nxt.res)], InsertPoint.at_end(latch))
        emit(level + 1, loop_body, latch, [*ivs, iv])

    emit(0, block, after, [])
    rewriter.erase(op)


class CopyLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter, /) -> None:
        src_t = _memref_type(op.source, op)
        dst_t = _memref_type(op.destination, op)
        if src_t.get_shape() != dst_t.get_shape():
            raise LoweringError(f"memref.copy between shapes {src_t} and {dst_t}", op)
        src = llvm_operand(op.source, rewriter, op)
        dst = llvm_operand(op.destination, rewriter, op)
        shape = src_t.get_shape()
        if math.prod(shape) == 0:
            rewriter.erase(op)
            return
        if is_contiguous(src_t) and is_contiguous(dst_t):
            size = int_constant(_byte_size(src_t))
            volatile = int_constant(0, i1)
            call = llvm.CallIntrinsicOp("llvm.memcpy.p0.p0.i64", [dst, src, size.result, volatile.result], [])
            rewriter.replace(op, [size, volatile, call], [])
            return
        element = llvm_element_type(src_t)

        def body(ivs: list[SSAValue]) -> list[Operation]:
            ops: list[Operation] = []
            src_ptr = element_pointer(src, ivs, src_t, ops)
            load = builders.load(src_ptr, element)
            ops.append(load)
            dst_ptr = element_pointer(dst, ivs, dst_t, ops)
            ops.append(builders.store(load.dereferenced_value, dst_ptr))
            return ops

        build_loop_nest(op, shape, body, rewriter)


# ---------------------------------------------------------------------------
# Globals
# ---------------------------------------------------------------------------


class GlobalLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GlobalOp, rewriter: PatternRewriter, /) -> None:
        t = check_static_memref(op.type, op, require_offset=True)
        count = max(1, math.prod(t.get_shape()))
        global_type = llvm.LLVMArrayType(count, llvm_element_type(t))
        private = op.sym_visibility.data == "private"
        value: Attribute | None = None
        if isinstance(op.initial_value, DenseIntOrFPElementsAttr):
            value = op.initial_value
            if is_bf16(value.get_element_type()):  # the same bytes, as i16 bit patterns
                bits_type = TensorType(BF16_STORAGE_TYPE, value.type.get_shape())
                value = DenseIntOrFPElementsAttr(bits_type, value.data)
        linkage = "internal" if private else ("external" if value is not None else "weak")
        alignment = max(ALLOC_ALIGNMENT, op.alignment.value.data if op.alignment else 0)
        new = llvm.GlobalOp(
            global_type,
            op.sym_name,
            linkage,
            constant=op.constant is not None,
            value=value,
            alignment=alignment,
        )
        rewriter.replace(op, new, [])


class GetGlobalLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GetGlobalOp, rewriter: PatternRewriter, /) -> None:
        check_static_memref(op.memref.type, op)
        name = op.name_
        address = llvm.AddressOfOp(SymbolRefAttr(name.root_reference), PTR)
        replace_with_llvm(op, [address], [address.result], rewriter)


# ---------------------------------------------------------------------------
# Metadata
# ---------------------------------------------------------------------------


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    attr = owner.properties.get("value") if isinstance(owner, Operation) else None
    if isinstance(owner, Operation) and owner.name in ("arith.constant", "llvm.mlir.constant") and isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


class DimLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter, /) -> None:
        t = _memref_type(op.source, op)
        shape = t.get_shape()
        index = _constant_index(op.index)
        if index is not None:
            if not 0 <= index < len(shape):
                raise LoweringError(f"memref.dim index {index} out of range for {t}", op)
            c = int_constant(shape[index])
            replace_with_llvm(op, [c], [c.result], rewriter)
            return
        idx = llvm_operand(op.index, rewriter, op)
        ops: list[Operation] = []
        result = int_constant(0)
        ops.append(result)
        value = result.result
        for k, size in enumerate(shape):
            ck, cs = int_constant(k), int_constant(size)
            eq = builders.icmp(idx, ck.result, "eq")
            sel = SelectOp(eq.res, cs.result, value)
            ops += [ck, cs, eq, sel]
            value = sel.res
        replace_with_llvm(op, ops, [value], rewriter)


class RankLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.RankOp, rewriter: PatternRewriter, /) -> None:
        t = op.source.type
        assert isinstance(t, MemRefType)
        c = int_constant(t.get_num_dims())
        replace_with_llvm(op, [c], [c.result], rewriter)


class ExtractAlignedPointerLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ExtractAlignedPointerAsIndexOp, rewriter: PatternRewriter, /) -> None:
        ptr = llvm_operand(op.source, rewriter, op)
        as_int = llvm.PtrToIntOp(ptr, i64)
        replace_with_llvm(op, [as_int], [as_int.output], rewriter)


def memref_patterns() -> list[RewritePattern]:
    return [
        LoadLowering(),
        StoreLowering(),
        SamePointerLowering(),
        SubviewLowering(),
        ReinterpretCastLowering(),
        ViewLowering(),
        AllocLowering(),
        AllocaLowering(),
        DeallocLowering(),
        CopyLowering(),
        GlobalLowering(),
        GetGlobalLowering(),
        DimLowering(),
        RankLowering(),
        ExtractAlignedPointerLowering(),
    ]


class ConvertMemrefToLLVMPass(ConversionPass):
    """Lower statically shaped memrefs to bare `!llvm.ptr`s."""

    name = "convert-memref-to-llvm"

    def patterns(self) -> list[RewritePattern]:
        return memref_patterns()


__all__ = ["ALLOC_ALIGNMENT", "ConvertMemrefToLLVMPass", "build_loop_nest", "element_pointer", "memref_patterns"]
