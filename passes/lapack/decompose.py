"""The pass: find LAPACK custom calls, write their functions, call them."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation

from passes.lapack import factorizations as fz
from passes.lapack import jacobi
from passes.lapack.hlo_text import Hlo, V, function, tensor_type
from passes.lapack.targets import LAPACK_TARGET
from xla_dialect.diagnostics import LoweringError
from xla_dialect.ops.io import CustomCallOp
from xla_dialect.types import format_type

ELEMENTS = {"s": "f32", "d": "f64", "c": "complex<f32>", "z": "complex<f64>"}

Kernel = Callable[[Hlo, list[V], dict[str, int], list[tuple[int, ...]]], list[V]]
"""(writer, operands, options, result shapes per matrix) -> results."""


@dataclass(frozen=True)
class KernelSpec:
    """How a target's operands split into batch and matrix dimensions."""

    kernel: Kernel
    matrix_ranks: tuple[int, ...]
    """Rank of each operand per matrix (2 for matrices, 1 for tau)."""
    batched: bool = False
    """The kernel takes the batch dimensions itself."""


KERNELS: dict[str, KernelSpec] = {
    "potrf": KernelSpec(lambda h, a, o, r: fz.potrf(h, a[0], o.get("uplo", fz.LOWER)), (2,), batched=True),
    "trsm": KernelSpec(
        lambda h, a, o, r: fz.trsm(h, a[0], a[1], o.get("side", fz.LOWER), o.get("uplo", fz.LOWER), o.get("trans_x", ord("N")), o.get("diag", ord("N"))),
        (2, 2),
        batched=True,
    ),
    "getrf": KernelSpec(lambda h, a, o, r: fz.getrf(h, a[0]), (2,)),
    "geqrf": KernelSpec(lambda h, a, o, r: fz.geqrf(h, a[0]), (2,)),
    "orgqr": KernelSpec(lambda h, a, o, r: fz.orgqr(h, a[0], a[1]), (2, 1)),
    "syevd": KernelSpec(lambda h, a, o, r: jacobi.syevd(h, a[0], o.get("uplo", fz.LOWER)), (2,)),
    "gesdd": KernelSpec(lambda h, a, o, r: jacobi.gesdd(h, a[0], o.get("mode", ord("A")), r), (2,)),
}
KERNELS["ungqr"] = KERNELS["orgqr"]
KERNELS["heevd"] = KERNELS["syevd"]
KERNELS["gesvd"] = KERNELS["gesdd"]


def _options(op: CustomCallOp) -> dict[str, int]:
    """The character options of `mhlo.backend_config` (or the typed-FFI backend_config)."""
    config = op.attributes.get("mhlo.backend_config") or op.backend_config
    options: dict[str, int] = {}
    if isinstance(config, DictionaryAttr):
        for key, value in config.data.items():
            if isinstance(value, IntegerAttr):
                options[key] = value.value.data
    return options


def _shape_elem(t: Attribute, op: Operation) -> tuple[tuple[int, ...], str]:
    if not isinstance(t, TensorType):
        raise LoweringError(f"'{op.properties['call_target_name']}' takes and returns tensors, not {format_type(t)}", op)
    return tuple(t.get_shape()), format_type(t.element_type)


def _function_name(op: CustomCallOp, options: dict[str, int]) -> str:
    types = "_".join(format_type(t).removeprefix("tensor<").removesuffix(">").replace("complex<", "c").replace(">", "") for t in op.inputs.types)
    opts = "".join(f"_{k}{chr(v) if 32 < v < 127 else v}" for k, v in sorted(options.items()))
    return re.sub(r"[^\w]", "_", f"{op.target}_{types}{opts}")


def kernel_function(op: CustomCallOp, name: str) -> str:
    """The text of the function replacing `op`."""
    match = LAPACK_TARGET.match(op.target)
    assert match is not None
    spec = KERNELS[match.group("name")]
    element = ELEMENTS[match.group("t")]
    options = _options(op)
    params = [_shape_elem(t, op) for t in op.inputs.types]
    results = [_shape_elem(t, op)[0] for t in op.outputs.types]
    if len(params) != len(spec.matrix_ranks):
        raise LoweringError(f"'{op.target}' takes {len(spec.matrix_ranks)} operands, not {len(params)}", op)
    if params[0][1] != element:
        raise LoweringError(f"'{op.target}' works on {element}, not {params[0][1]}", op)
    batch = params[0][0][: len(params[0][0]) - spec.matrix_ranks[0]]
    for (shape, _), rank in zip(params, spec.matrix_ranks, strict=True):
        if len(shape) != len(batch) + rank or shape[: len(batch)] != batch:
            raise LoweringError(f"'{op.target}' operands must share the batch dimensions {list(batch)}", op)
    if spec.batched or not batch:
        body = lambda h, args: spec.kernel(h, args, options, results)
    else:
        per_matrix = [shape[len(batch) :] for shape in results]
        body = lambda h, args: _batch_loop(h, args, batch, lambda hh, xs: spec.kernel(hh, xs, options, per_matrix))
    text = function(name, params, body)
    return text


def _batch_loop(h: Hlo, args: list[V], batch: Sequence[int], kernel: Callable[[Hlo, list[V]], list[V]]) -> list[V]:
    """Apply a one-matrix kernel to every matrix of the batch, in a `while` loop."""
    count = 1
    for d in batch:
        count *= d
    flat = [h.reshape(a, [count, *a.shape[len(batch) :]]) for a in args]
    # Output shapes: the kernel's results on one matrix, found by writing it once
    # into a scratch writer (its text is discarded).
    probe = kernel(Hlo(counter=h.counter), [V(f"%probe{i}", a.shape[len(batch) :], a.elem) for i, a in enumerate(args)])
    init = [h.const(0, r.elem, [count, *r.shape]) for r in probe]

    def step(b: Hlo, i: V, carried: list[V]) -> list[V]:
        zero = b.i32(0)
        matrices = [
            b.reshape(b.dynamic_slice(x, [i, *[zero] * (len(x.shape) - 1)], [1, *x.shape[1:]]), x.shape[1:]) for x in flat
        ]
        outs = kernel(b, matrices)
        return [
            b.dynamic_update_slice(acc, b.reshape(out, [1, *out.shape]), [i, *[zero] * len(out.shape)])
            for acc, out in zip(carried, outs, strict=True)
        ]

    results = h.fori(count, init, step)
    return [h.reshape(r, [*batch, *r.shape[1:]]) for r in results]


def decompose_calls(op: ModuleOp, calls: Sequence[CustomCallOp]) -> None:
    """Replace the LAPACK custom `calls` of `op` (the work of `xla-decompose-lapack`)."""
    from xla_dialect.context import XlaProgramError, parse_module

    defined = {f.sym_name.data for f in op.body.block.ops if isinstance(f, func.FuncOp)}
    for call in calls:
        name = _function_name(call, _options(call))
        if name not in defined:
            text = kernel_function(call, name)
            try:
                module = parse_module(f"module {{\n{text}\n}}", f"<{call.target}>")
            except XlaProgramError as err:  # a kernel that does not verify is the pass's bug
                raise LoweringError(f"the decomposition of '{call.target}' does not verify: {err}", call) from None
            for f in list(module.body.block.ops):
                f.detach()
                op.body.block.add_op(f)
            defined.add(name)
        for t, given in zip(
            (r for f in op.body.block.ops if isinstance(f, func.FuncOp) and f.sym_name.data == name for r in f.function_type.outputs.data),
            call.outputs.types,
            strict=True,
        ):
            if t != given:
                raise LoweringError(
                    f"'{call.target}' returns {format_type(given)} where LAPACK's result is {format_type(t)}", call
                )
        new = func.CallOp(name, list(call.inputs), list(call.outputs.types))
        new.location = call.location
        call.parent_block().insert_op_before(new, call)  # pyright: ignore[reportOptionalMemberAccess]
        for old, result in zip(call.outputs, new.res, strict=True):
            old.replace_all_uses_with(result)
        call.detach()
        call.erase()


__all__ = ["KERNELS", "LAPACK_TARGET", "decompose_calls", "kernel_function", "tensor_type"]
