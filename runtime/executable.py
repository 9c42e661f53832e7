"""`Executable`: an entry function of a module already lowered to the llvm
dialect, JIT-compiled and callable on NumPy arrays.

    from xla_tools import compile         # parse → lower-to-llvm → Executable
    f = compile(open("examples/mlp.mlir").read())
    y = f(x, w1, b1, w2, b2)              # NumPy in, NumPy out

`load(lowered_module, signatures)` JIT-compiles a lowered module into a
`CompiledModule`, whose `executable(entry)` gives the `Executable` of one of
its functions; `signatures` are the functions' `xla` signatures from before the
lowering (`xla_signatures(module)`).

The executable remembers the entry function's `xla` signature (element types
with their signedness, tuple nesting), checks every call against it (a wrong
count, shape or dtype is a `ValueError` naming the argument, the expected and
the given type), passes the flattened leaves as bare pointers followed by one
out-parameter per result leaf (the calling convention that `bufferize`
produces), and rebuilds the nesting of the results: one result comes back as an
array, several as a tuple, a tuple-typed result as a nested tuple. bf16
parameters take `ml_dtypes.bfloat16` arrays or their bit patterns as uint16
arrays; bf16 results are `ml_dtypes.bfloat16` arrays.

Tokens carry no data: a token parameter takes None (or `host_io.TOKEN`), a
token result comes back as `host_io.TOKEN`. Host I/O goes through
`runtime.host_io`; a host op that failed during the call (e.g. an empty
infeed) is raised as `host_io.HostIOError` when the call returns.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import BFloat16Type, ModuleOp, TensorType, TupleType
from xdsl.ir import Attribute

from runtime import guard, host_io
from runtime import threads as _threads
from runtime.jit import (
    MAX_CTYPES_ARGUMENTS,
    PACKED_PREFIX,
    JitError,
    JitModule,
    ObjectCache,
    compile_llvm_module,
)
from runtime.timing import TimingReport
from xla_dialect.literals import numpy_dtype
from xla_dialect.types import TokenType, element_type_of, format_type, shape_of


class CompileError(Exception):
    """The program could not be compiled (the message names the op and the reason)."""


_ALLOCATORS = ("__xla_alloc", "aligned_alloc", "__xla_alloc.checked", "aligned_alloc.checked")
"""The allocators compiled code calls (directly, or through the null-checking wrapper
that `convert-memref-to-llvm` defines for each)."""


def largest_allocation(module: ModuleOp) -> int:
    """The largest constant size the lowered code asks its allocators for (0: none)."""
    largest = 0
    for op in module.walk():
        if op.name != "llvm.call" or len(op.operands) not in (2, 3):  # (alignment, size[, site])
            continue
        callee = op.properties.get("callee") or op.attributes.get("callee")
        if getattr(callee, "root_reference", None) is None or callee.root_reference.data not in _ALLOCATORS:  # pyright: ignore
            continue
        size = op.operands[1].owner
        value = getattr(size, "properties", {}).get("value")
        if getattr(size, "name", "") == "llvm.mlir.constant" and value is not None:
            largest = max(largest, int(value.value.data))  # pyright: ignore
    return largest


@functools.cache
def physical_memory() -> int:
    """The machine's physical memory in bytes (asked once)."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


@functools.cache
def memory_limit() -> int:
    """What one allocation can get at most: physical memory plus swap (an allocation
    beyond it fails under Linux's default overcommit policy). Read once per process:
    reading /proc/meminfo on every call cost ~25 us, serial time beside the threads."""
    total = physical_memory()
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("SwapTotal:"):
                    total += int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return total


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
        return []  # no data: None/host_io.TOKEN in, host_io.TOKEN out
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
    if array.dtype != spec.dtype and spec.is_bf16 and array.dtype in (np.dtype(np.uint16), np.dtype("V2")):
        array = array.view(_BF16)
    if array.dtype != spec.dtype or tuple(array.shape) != spec.shape:
        raise ValueError(f"{name}: expected {spec.describe()}, got {_describe_given(value)}")
    return np.ascontiguousarray(array)


def _address(array: np.ndarray) -> int:
    """The address of a C-contiguous array's data. A ctypes view of a writeable buffer
    gives it in a third of the time `array.ctypes.data` takes (~2 us, which counts
    against programs that run for tens of microseconds); read-only and empty arrays
    take the slow way."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(array))
    except (TypeError, ValueError):
        return array.ctypes.data


class Executable:
    """A compiled entry function; call it with NumPy arrays."""

    def __init__(
        self,
        jit: JitModule,
        entry: str,
        inputs: Sequence[Structure],
        outputs: Sequence[Structure],
        threads: int | None = None,
        largest_allocation_bytes: int = 0,
    ):
        self._jit = jit  # keeps the engine (and the code) alive
        self.entry = entry
        self.threads = _threads.check_threads(threads)
        """How many threads the parallel loops of the code run on (`runtime/threads.py`)."""
        self.input_types = list(inputs)
        self.output_types = list(outputs)
        self._input_leaves = [_leaves(t, f"argument {i} of @{entry}") for i, t in enumerate(inputs)]
        self._output_leaves = [leaf for i, t in enumerate(outputs) for leaf in _leaves(t, f"result {i} of @{entry}")]
        self._plain = all(isinstance(t, TensorType) for t in (*inputs, *outputs))
        """No tuples or tokens: arguments and results are the leaves themselves."""
        self._named_input_leaves = [
            (f"argument {i} of @{entry}", spec) for i, specs in enumerate(self._input_leaves) for spec in specs
        ]
        n_pointers = sum(len(x) for x in self._input_leaves) + len(self._output_leaves)
        # Each call goes through a trampoline that returns -1, or the size of an
        # allocation that failed (`runtime/guard.py`).
        if n_pointers > MAX_CTYPES_ARGUMENTS:  # more than ctypes passes: one array of them
            packed = jit.get_function(PACKED_PREFIX + entry)
            guarded = guard.trampoline(1)
            array_type = ctypes.c_void_p * n_pointers

            def call_packed(*pointers: int) -> int:
                array = array_type(*pointers)  # alive until the call returns
                return guarded(packed, ctypes.addressof(array))

            self._function: Callable[..., int] = call_packed
        else:
            address = jit.get_function(entry)
            guarded = guard.trampoline(n_pointers)
            self._function = functools.partial(guarded, address)
        self.largest_allocation = largest_allocation_bytes
        """The largest buffer the code allocates, checked before each run: compiled code
        cannot unwind, so an allocation that must fail is refused before it starts."""

    def __repr__(self) -> str:
        ins = ", ".join(format_type(t) for t in self.input_types)
        outs = ", ".join(format_type(t) for t in self.output_types)
        return f"<Executable @{self.entry}: ({ins}) -> ({outs})>"

    @functools.cached_property
    def input_leaf_count(self) -> int:
        """How many arrays the parameters take once tuples are flattened."""
        return sum(len(leaves) for leaves in self._input_leaves)

    def run_leaves(self, leaves: Sequence[Any], out: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
        """Run on the parameters' leaves (tuples flattened depth first) and return
        the results' leaves; each leaf is checked against its parameter's type."""
        if len(leaves) != self.input_leaf_count:
            raise ValueError(f"@{self.entry} takes {self.input_leaf_count} input array(s), got {len(leaves)}")
        arrays = [
            # (the common case inline: a program with thousands of arrays checks each)
            v if type(v) is np.ndarray and v.dtype is spec.dtype and v.shape == spec.shape and v.flags.c_contiguous
            else _as_leaf_array(v, spec, name)
            for v, (name, spec) in zip(leaves, self._named_input_leaves)
        ]
        if out is not None:
            results = list(out)
            if len(results) != len(self._output_leaves):
                raise ValueError(f"out: expected {len(self._output_leaves)} array(s), got {len(results)}")
            for k, (r, spec) in enumerate(zip(results, self._output_leaves)):
                if not isinstance(r, np.ndarray) or r.dtype != spec.dtype or r.shape != spec.shape or not r.flags.c_contiguous:
                    raise ValueError(f"out[{k}]: expected a C-contiguous {spec.describe()}, got {_describe_given(r)}")
                if not r.flags.writeable:
                    raise ValueError(f"out[{k}]: the array is read-only; results need a writeable array")
        else:
            results = [np.empty(spec.shape, spec.dtype) for spec in self._output_leaves]
        # Reading /proc/meminfo costs ~30 us, more than a small program runs: only
        # a buffer beyond physical memory needs the swap added.
        if self.largest_allocation > physical_memory() and self.largest_allocation > memory_limit():
            raise MemoryError(
                f"@{self.entry} needs a buffer of {self.largest_allocation} bytes, more than this "
                f"machine's memory and swap ({memory_limit()} bytes)"
            )
        host_io.begin_run()
        with _threads.use_threads(self.threads):
            failed = self._function(*[_address(a) for a in arrays], *[_address(r) for r in results])
            if failed != guard.NOT_FAILED:  # the code jumped back from a failed allocation (its blocks are given back)
                host_io.take_error()
                raise guard.OutOfMemoryError(guard.failure_message(failed, self.entry))
        host_io.end_run()  # raises what a host op (infeed, custom call, ...) recorded
        return results

    def __call__(self, *args: Any, out: Sequence[np.ndarray] | None = None) -> Any:
        """Run the function. `out` (optional): preallocated result arrays, one per
        result leaf, reused instead of fresh ones (saves page faults on big outputs)."""
        if len(args) != len(self.input_types):
            raise ValueError(
                f"@{self.entry} takes {len(self.input_types)} argument(s) "
                f"({', '.join(format_type(t) for t in self.input_types)}), got {len(args)}"
            )
        if self._plain:
            flat = self.run_leaves(args, out)
            return flat[0] if len(flat) == 1 else tuple(flat)
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
        if value is not None and not isinstance(value, host_io.Token):
            raise ValueError(f"{name}: a token takes None or runtime.TOKEN, got {_describe_given(value)}")
        return []
    return [value]


def _unflatten(t: Attribute, leaves: Any) -> Any:
    if isinstance(t, TupleType):
        return tuple(_unflatten(e, leaves) for e in t.types.data)
    if isinstance(t, TokenType):
        return host_io.TOKEN
    return next(leaves)


Signatures = dict[str, tuple[list[Attribute], list[Attribute]]]
"""Function name → its `xla` parameter and result types."""


def xla_signatures(module: ModuleOp) -> Signatures:
    """The signatures of the functions `module` defines (read before lowering it)."""
    signatures: Signatures = {}
    for f in module.ops:
        if isinstance(f, func.FuncOp) and f.body.blocks:
            signatures[f.sym_name.data] = (list(f.function_type.inputs.data), list(f.function_type.outputs.data))
    return signatures


def entry_function(module: ModuleOp, entry: str) -> func.FuncOp:
    """The function `@entry` of `module`, which must have a body."""
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    for f in functions:
        if f.sym_name.data == entry:
            if not f.body.blocks:
                raise CompileError(f"@{entry} is only declared; it has no body to run")
            return f
    names = ", ".join(f"@{f.sym_name.data}" for f in functions) or "none"
    raise CompileError(f"no function @{entry} in the module (functions: {names})")


@dataclass
class CompiledModule:
    """One module's native code and the xla signatures of its functions."""

    jit: JitModule
    signatures: Signatures
    largest_allocation: int = 0
    executables: dict[tuple[str, int], Executable] = field(default_factory=dict[tuple[str, int], Executable])
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def executable(self, entry: str, threads: int | None = None) -> Executable:
        """The `Executable` of function `@entry` running on `threads` threads
        (default: `runtime.threads.default_threads()`), made once per count."""
        if entry not in self.signatures:
            names = ", ".join(f"@{n}" for n in self.signatures) or "none"
            raise CompileError(f"no function @{entry} in the module (functions: {names})")
        count = _threads.check_threads(threads)
        with self._lock:
            executable = self.executables.get((entry, count))
            if executable is None:
                inputs, outputs = self.signatures[entry]
                executable = Executable(self.jit, entry, inputs, outputs, count, self.largest_allocation)
                self.executables[(entry, count)] = executable
        return executable


def load(
    module: ModuleOp,
    signatures: Signatures,
    *,
    opt_level: int = 3,
    timing: TimingReport | None = None,
    object_cache: ObjectCache | None = None,
) -> CompiledModule:
    """JIT-compile `module` (in the llvm dialect) with the `xla` signatures its
    functions had before the lowering, optimized at LLVM level `opt_level`."""
    try:
        jit = compile_llvm_module(module, opt_level=opt_level, timing=timing, object_cache=object_cache)
    except JitError as err:
        raise CompileError(str(err)) from None
    return CompiledModule(jit, signatures, largest_allocation(module))


__all__ = [
    "CompileError",
    "CompiledModule",
    "Executable",
    "Signatures",
    "entry_function",
    "load",
    "xla_signatures",
]
