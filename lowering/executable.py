"""The Python entry point: `compile(text_or_module, entry="main")` → `Executable`.

    from lowering import compile
    f = compile(open("examples/mlp.mlir").read())
    y = f(x, w1, b1, w2, b2)              # NumPy in, NumPy out

The executable remembers the entry function's `xla` signature (element types
with their signedness, tuple nesting) from before the lowering, checks every
call against it (a wrong count, shape or dtype is a `ValueError` naming the
argument, the expected and the given type), passes the flattened leaves as bare
pointers followed by one out-parameter per result leaf (the calling convention
that `bufferize` produces), and rebuilds the nesting of the results: one result
comes back as an array, several as a tuple, a tuple-typed result as a nested
tuple. bf16 parameters take `ml_dtypes.bfloat16` arrays or their bit patterns
as uint16 arrays; bf16 results are `ml_dtypes.bfloat16` arrays.

Tokens carry no data: a token parameter takes None (or `runtime.TOKEN`), a
token result comes back as `runtime.TOKEN`. Host I/O goes through
`lowering.runtime`; a host op that failed during the call (e.g. an empty
infeed) is raised as `runtime.HostIOError` when the call returns.

Compiled code is cached by the module's text and entry, so compiling the same
module twice compiles once.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import BFloat16Type, ModuleOp, TensorType, TupleType
from xdsl.ir import Attribute

from lowering import runtime
from lowering.jit import JitError, JitModule, compile_llvm_module
from lowering.pipeline import lower_to_llvm
from xla_dialect.context import XlaProgramError, make_context, parse_module
from xla_dialect.literals import numpy_dtype
from xla_dialect.types import TokenType, element_type_of, format_type, shape_of


class CompileError(Exception):
    """The program could not be compiled (the message names the op and the reason)."""


@dataclass(frozen=True)
class LeafSpec:
    """One flattened parameter or result: its xla type and its NumPy form."""

    type: Attribute
    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def is_bf16(self) -> bool:
        return isinstance(element_type_of(self.type), BFloat16Type)

    def describe(self) -> str:
        return f"{format_type(self.type)} ({self.dtype.name} array of shape {self.shape})"


Structure = Attribute  # a tensor type (one leaf) or a tuple type (nested leaves)


def _leaves(t: Attribute, where: str) -> list[LeafSpec]:
    if isinstance(t, TupleType):
        return [leaf for e in t.types.data for leaf in _leaves(e, where)]
    if isinstance(t, TokenType):
        return []  # no data: None/runtime.TOKEN in, runtime.TOKEN out
    if not isinstance(t, TensorType):
        raise CompileError(f"{where} has type {t}; only tensors and tuples of tensors can be passed")
    dtype = numpy_dtype(element_type_of(t))
    if dtype is None:
        raise CompileError(f"{where} has element type {element_type_of(t)}, which NumPy cannot hold")
    shape = tuple(shape_of(t))
    if any(d < 0 for d in shape):
        raise CompileError(f"{where} has a dynamic shape {format_type(t)}; shapes must be static")
    return [LeafSpec(t, shape, dtype)]


def _describe_given(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"{value.dtype.name} array of shape {value.shape}"
    return f"{type(value).__name__} {value!r}"[:80]


_BF16 = np.dtype(ml_dtypes.bfloat16)


def _as_leaf_array(value: Any, spec: LeafSpec, name: str) -> np.ndarray:
    """`value` as a C-contiguous array of `spec`, or a ValueError saying why not."""
    if not isinstance(value, np.ndarray):
        if spec.shape == () and isinstance(value, (bool, int, float, np.generic)):
            try:
                array = np.asarray(value, dtype=spec.dtype)
            except (OverflowError, ValueError, TypeError):
                array = None
            if array is not None and (array == value or np.isnan(array.astype(np.float64))):
                return np.ascontiguousarray(array)
        raise ValueError(f"{name}: expected {spec.describe()}, got {_describe_given(value)}")
    array = value
    if spec.is_bf16 and array.dtype in (np.dtype(np.uint16), np.dtype("V2")):
        array = array.view(_BF16)
    if array.dtype != spec.dtype or tuple(array.shape) != spec.shape:
        raise ValueError(f"{name}: expected {spec.describe()}, got {_describe_given(value)}")
    return np.ascontiguousarray(array)


class Executable:
    """A compiled entry function; call it with NumPy arrays."""

    def __init__(self, jit: JitModule, entry: str, inputs: Sequence[Structure], outputs: Sequence[Structure]):
        self._jit = jit  # keeps the engine (and the code) alive
        self.entry = entry
        self.input_types = list(inputs)
        self.output_types = list(outputs)
        self._input_leaves = [_leaves(t, f"argument {i} of @{entry}") for i, t in enumerate(inputs)]
        self._output_leaves = [leaf for i, t in enumerate(outputs) for leaf in _leaves(t, f"result {i} of @{entry}")]
        n_pointers = sum(len(x) for x in self._input_leaves) + len(self._output_leaves)
        prototype = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * n_pointers))
        self._function = prototype(jit.get_function(entry))

    def __repr__(self) -> str:
        ins = ", ".join(format_type(t) for t in self.input_types)
        outs = ", ".join(format_type(t) for t in self.output_types)
        return f"<Executable @{self.entry}: ({ins}) -> ({outs})>"

    @property
    def input_leaf_count(self) -> int:
        """How many arrays the parameters take once tuples are flattened."""
        return sum(len(leaves) for leaves in self._input_leaves)

    def run_leaves(self, leaves: Sequence[Any], out: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
        """Run on the parameters' leaves (tuples flattened depth first) and return
        the results' leaves; each leaf is checked against its parameter's type."""
        if len(leaves) != self.input_leaf_count:
            raise ValueError(f"@{self.entry} takes {self.input_leaf_count} input array(s), got {len(leaves)}")
        owners = [(i, spec) for i, specs in enumerate(self._input_leaves) for spec in specs]
        arrays = [_as_leaf_array(v, spec, f"argument {i} of @{self.entry}") for v, (i, spec) in zip(leaves, owners)]
        if out is not None:
            results = list(out)
            if len(results) != len(self._output_leaves):
                raise ValueError(f"out: expected {len(self._output_leaves)} array(s), got {len(results)}")
            for k, (r, spec) in enumerate(zip(results, self._output_leaves)):
                if not isinstance(r, np.ndarray) or r.dtype != spec.dtype or r.shape != spec.shape or not r.flags.c_contiguous:
                    raise ValueError(f"out[{k}]: expected a C-contiguous {spec.describe()}, got {_describe_given(r)}")
        else:
            results = [np.empty(spec.shape, spec.dtype) for spec in self._output_leaves]
        runtime.begin_run()
        self._function(*[a.ctypes.data for a in arrays], *[r.ctypes.data for r in results])
        runtime.end_run()  # raises what a host op (infeed, custom call, ...) recorded
        return results

    def __call__(self, *args: Any, out: Sequence[np.ndarray] | None = None) -> Any:
        """Run the function. `out` (optional): preallocated result arrays, one per
        result leaf, reused instead of fresh ones (saves page faults on big outputs)."""
        if len(args) != len(self.input_types):
            raise ValueError(
                f"@{self.entry} takes {len(self.input_types)} argument(s) "
                f"({', '.join(format_type(t) for t in self.input_types)}), got {len(args)}"
            )
        leaves = [
            leaf for i, (arg, t) in enumerate(zip(args, self.input_types))
            for leaf in _flatten_value(arg, t, f"argument {i} of @{self.entry}")
        ]
        results = iter(self.run_leaves(leaves, out))
        nested = [_unflatten(t, results) for t in self.output_types]
        return nested[0] if len(nested) == 1 else tuple(nested)


def _flatten_value(value: Any, t: Attribute, name: str) -> list[Any]:
    if isinstance(t, TupleType):
        elements = t.types.data
        if not isinstance(value, (tuple, list)) or len(value) != len(elements):
            raise ValueError(f"{name}: expected a tuple of {len(elements)} values ({format_type(t)}), got {_describe_given(value)}")
        return [leaf for v, e in zip(value, elements) for leaf in _flatten_value(v, e, name)]
    if isinstance(t, TokenType):
        if value is not None and not isinstance(value, runtime.Token):
            raise ValueError(f"{name}: a token takes None or runtime.TOKEN, got {_describe_given(value)}")
        return []
    return [value]


def _unflatten(t: Attribute, leaves: Any) -> Any:
    if isinstance(t, TupleType):
        return tuple(_unflatten(e, leaves) for e in t.types.data)
    if isinstance(t, TokenType):
        return runtime.TOKEN
    return next(leaves)


@dataclass
class _CompiledModule:
    """One module's native code and the xla signatures of its functions."""

    jit: JitModule
    signatures: dict[str, tuple[list[Attribute], list[Attribute]]]
    executables: dict[str, Executable]


_CACHE: dict[str, _CompiledModule] = {}
_CACHE_LOCK = threading.Lock()


def _entry_function(module: ModuleOp, entry: str) -> func.FuncOp:
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    for f in functions:
        if f.sym_name.data == entry:
            if not f.body.blocks:
                raise CompileError(f"@{entry} is only declared; it has no body to run")
            return f
    names = ", ".join(f"@{f.sym_name.data}" for f in functions) or "none"
    raise CompileError(f"no function @{entry} in the module (functions: {names})")


def _compile_module(program: str | ModuleOp, filename: str, entry: str) -> _CompiledModule:
    from xdsl.utils.exceptions import DiagnosticException

    from lowering.to_llvm.common import register_llvm_extensions

    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module(program, filename, ctx) if isinstance(program, str) else program.clone()
    _entry_function(module, entry)
    signatures: dict[str, tuple[list[Attribute], list[Attribute]]] = {}
    for f in module.ops:
        if isinstance(f, func.FuncOp) and f.body.blocks:
            signatures[f.sym_name.data] = (list(f.function_type.inputs.data), list(f.function_type.outputs.data))
    try:
        lower_to_llvm(module, ctx)
        jit = compile_llvm_module(module)
    except DiagnosticException as err:
        op = getattr(err, "op", None)
        raise CompileError(_located(str(err.args[0]) if err.args else str(err), op)) from None
    except JitError as err:
        raise CompileError(str(err)) from None
    return _CompiledModule(jit, signatures, {})


def compile(program: str | ModuleOp, entry: str = "main", *, filename: str = "<string>") -> Executable:
    """Compile `program` (MLIR text or a parsed module) and return its `entry`
    function as an `Executable`. Raises `XlaProgramError` for text that does
    not parse or verify and `CompileError` for a program that cannot be compiled.

    A module is compiled once (cached by its text); every function of it can then
    be had without compiling again."""
    text = program if isinstance(program, str) else str(program)
    with _CACHE_LOCK:
        compiled = _CACHE.get(text)
    if compiled is None:
        compiled = _compile_module(program, filename, entry)
        with _CACHE_LOCK:
            compiled = _CACHE.setdefault(text, compiled)
    if entry not in compiled.signatures:
        names = ", ".join(f"@{n}" for n in compiled.signatures) or "none"
        raise CompileError(f"no function @{entry} in the module (functions: {names})")
    with _CACHE_LOCK:
        executable = compiled.executables.get(entry)
        if executable is None:
            inputs, outputs = compiled.signatures[entry]
            executable = Executable(compiled.jit, entry, inputs, outputs)
            compiled.executables[entry] = executable
    return executable


def _located(message: str, op: Any) -> str:
    from xdsl.dialects.builtin import FileLineColLoc

    loc = getattr(op, "location", None)
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: {message}"
    return message


__all__ = ["CompileError", "Executable", "XlaProgramError", "compile"]
