"""JIT compilation of an `llvm`-dialect module to native code with llvmlite (MCJIT).

    jit = compile_llvm_module(module)        # translate, verify, O3, MCJIT
    addr = jit.get_function("f")             # native entry point
    fn = jit.get_callable("f")               # ctypes function with f's signature
    jit.call("f", a, b, 3.0)                 # NumPy arrays are passed as pointers

Calling convention (the one of `lowering.to_llvm`): every memref argument or
result is a bare pointer to the element `[0, ..., 0]` of the view, whose layout
(shape and strides) is the static one of its memref type; scalars are passed by
value as their C types (`index` as int64); a function returns nothing or one
value. `call` passes a NumPy array as its data pointer; the caller guarantees the
array's layout matches the memref type (C-contiguous for identity layouts).

Each `JitModule` owns its target machine and execution engine; they live as long
as the `JitModule` (keep it referenced while calling into its code).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import llvmlite.binding as llvm_binding
import llvmlite.binding.ffi as llvm_ffi
import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Attribute

from lowering.host_abi import has_new_sites
from lowering.packed_abi import MAX_CTYPES_ARGUMENTS, PACKED_PREFIX
from runtime import guard, host_io, threads
from runtime.llvm_backend import convert_module
from runtime.parallel_codegen import compile_workers, plan_parts
from runtime.timing import TimingReport

if TYPE_CHECKING:
    from lowering.codegen.target import Target


class JitError(Exception):
    """Translation, verification or compilation of a module failed."""


_INIT_LOCK = threading.Lock()
_INITIALIZED = False

CODEGEN_OPTIONS: tuple[str, ...] = ("-dag-maps-huge-region=400",)
"""LLVM's command-line options, set once per process (they are LLVM's globals).

`-dag-maps-huge-region` (LLVM's default 1,000): past this many memory operations in
one scheduling region, the schedulers' dependency graph (`ScheduleDAGInstrs`, built by
the machine scheduler and, on Zen, again by the post-RA scheduler) merges the
operations' chains instead of tracking every pair, which is quadratic. Small static
shapes give such regions (a vectorized loop of strided loads interleaved four times:
a block of 1,913 instructions in the small GPT's attention backward). Measured on Zen 3:
that GPT's Adam step's code generation 15.7 -> 7.8 CPU s (the post-RA scheduler 6.8 ->
1.3, the machine scheduler 3.3 -> 0.4); the contraction, transcendental and memory
suites unchanged in in-process A/B. 200 saved a little more but cost the depthwise
convolution 2-3%.

LLVM ends the process on an option it does not know, so they are set only for the
LLVM releases known to have them (`CODEGEN_OPTIONS_LLVM`, inclusive majors)."""

CODEGEN_OPTIONS_LLVM = (5, 22)


def _initialize() -> None:
    global _INITIALIZED
    with _INIT_LOCK:
        if _INITIALIZED:
            return
        llvm_binding.initialize_native_target()
        llvm_binding.initialize_native_asmprinter()
        low, high = CODEGEN_OPTIONS_LLVM
        if low <= llvm_binding.llvm_version_info[0] <= high:
            for option in CODEGEN_OPTIONS:
                llvm_binding.set_option("", option)
        # libm, libc and libgcc symbols (tanhf, aligned_alloc, __powisf2, ...) for
        # the JIT'd code.
        for lib in ("m", "c", "gcc_s"):
            path = ctypes.util.find_library(lib)
            if path:
                try:
                    llvm_binding.load_library_permanently(path)
                except RuntimeError:
                    pass
        _INITIALIZED = True


def missing_features(target: Target) -> list[str]:
    """The extensions code compiled for `target` uses that this CPU lacks (sorted)."""
    from lowering.codegen.target import required_features

    host = llvm_binding.get_host_cpu_features()
    return sorted(f for f in required_features(target) if not host.get(f, False))


def _check_runs_here(target: Target) -> None:
    """Refuse a target whose code this CPU cannot run: it would die of an illegal
    instruction (SIGILL) at the first vector op, taking the process with it. The
    target's IR can still be read (`xla-opt -p lower-to-llvm` with the target set)."""
    missing = missing_features(target)
    if missing:
        raise JitError(
            f"target '{target.name}' ({target.cpu}) needs {', '.join(missing)}, which this CPU "
            f"({llvm_binding.get_host_cpu_name()}) lacks: its code cannot run here (choose a target "
            "this CPU has, e.g. XLA_DIALECT_TARGET=host; xla-opt still prints the target's IR)"
        )


def create_target_machine(opt: int = 3, target_name: str | None = None) -> llvm_binding.TargetMachine:
    """A target machine for the code generator's target (`lowering.codegen.target`:
    the host CPU unless `$XLA_DIALECT_TARGET` names another); a fresh one each
    time: never share them between engines."""
    from lowering.codegen.target import get_target

    _initialize()
    cpu = get_target(target_name)
    _check_runs_here(cpu)
    target = llvm_binding.Target.from_default_triple()
    return target.create_target_machine(
        cpu=cpu.cpu,
        features=cpu.llvm_features(),
        opt=opt,
        codemodel="jitdefault",
    )


def _ctype(t: Attribute) -> Any:
    if isinstance(t, llvm.LLVMVoidType):
        return None
    if isinstance(t, llvm.LLVMPointerType):
        return ctypes.c_void_p
    if isinstance(t, IntegerType):
        width = t.width.data
        return {
            1: ctypes.c_bool,
            8: ctypes.c_int8,
            16: ctypes.c_int16,
            32: ctypes.c_int32,
            64: ctypes.c_int64,
        }.get(width) or _unsupported(t)
    if isinstance(t, Float32Type):
        return ctypes.c_float
    if isinstance(t, Float64Type):
        return ctypes.c_double
    if isinstance(t, (Float16Type, BFloat16Type)):
        return ctypes.c_uint16  # passed in an integer register: not ABI-correct
    return _unsupported(t)


def _unsupported(t: Attribute) -> Any:
    raise JitError(f"no ctypes equivalent for {t}")


@dataclass
class FunctionSignature:
    name: str
    inputs: tuple[Attribute, ...]
    output: Attribute

    def ctypes_function_type(self) -> Any:
        return ctypes.CFUNCTYPE(_ctype(self.output), *(_ctype(t) for t in self.inputs))


@dataclass
class JitModule:
    """Native code of a compiled module; keeps its engine and target machine alive."""

    engine: llvm_binding.ExecutionEngine
    target_machine: llvm_binding.TargetMachine
    llvm_ir: str
    optimized_ir: str
    signatures: dict[str, FunctionSignature]
    symbols: dict[str, str] = field(default_factory=dict[str, str])
    """Function name in the module → its native symbol (`_mangle_defined_functions`)."""
    _callables: dict[str, Any] = field(default_factory=dict)

    def get_function(self, name: str) -> int:
        """The address of the function `name`."""
        address = self.engine.get_function_address(self.symbols.get(name, name))
        if not address:
            raise KeyError(f"no function '{name}' in the JIT module")
        return address

    def get_global(self, name: str) -> int:
        address = self.engine.get_global_value_address(name)
        if not address:
            raise KeyError(f"no global '{name}' in the JIT module")
        return address

    def get_callable(self, name: str) -> Any:
        """A ctypes function calling `name` with the signature of its `llvm.func`."""
        fn = self._callables.get(name)
        if fn is None:
            if name not in self.signatures:
                raise KeyError(f"no function '{name}' in the JIT module")
            fn = self.signatures[name].ctypes_function_type()(self.get_function(name))
            self._callables[name] = fn
        return fn

    def call(self, name: str, *args: Any) -> Any:
        """Call `name`; NumPy arrays are passed as pointers to their data."""
        return self.get_callable(name)(*(_as_c_arg(a) for a in args))


def _as_c_arg(arg: Any) -> Any:
    if isinstance(arg, np.ndarray):
        return ctypes.c_void_p(arg.ctypes.data)
    if isinstance(arg, np.generic):
        return arg.item()
    return arg


def _signatures(module: ModuleOp) -> dict[str, FunctionSignature]:
    sigs: dict[str, FunctionSignature] = {}
    for op in module.ops:
        if isinstance(op, llvm.FuncOp):
            ft = op.function_type
            sigs[op.sym_name.data] = FunctionSignature(
                op.sym_name.data, tuple(ft.inputs.data), ft.output
            )
    return sigs


def _pass_builder(tm: llvm_binding.TargetMachine, speed_level: int) -> llvm_binding.PassBuilder:
    pto = llvm_binding.PipelineTuningOptions(speed_level=speed_level)
    pto.loop_vectorization = speed_level >= 2
    pto.slp_vectorization = speed_level >= 2
    return llvm_binding.create_pass_builder(tm, pto)


def optimize(module: llvm_binding.ModuleRef, tm: llvm_binding.TargetMachine, speed_level: int = 3) -> None:
    pb = _pass_builder(tm, speed_level)
    pb.getModulePassManager().run(module, pb)


def packed_entries(signatures: dict[str, FunctionSignature]) -> str:
    """LLVM IR of a packed entry `__xla_packed.<name>(ptr %args)` for each function of
    more than `MAX_CTYPES_ARGUMENTS` pointer parameters and no result that has none
    yet (`llvm-split-large-functions` defines the packed entry of a function it cuts,
    whose parts read the pointers from the array: see `lowering/packed_abi.py`): it loads the
    pointers from the array and calls the function (a JAX MLP of 2,500 ops has more
    than 1,024 arrays in and out). It is `optnone`: O3 has nothing to gain in one load
    per pointer and a call, and LLVM's optimizing code generation of a call with
    thousands of arguments is superlinear (3,372 pointers: 4.9-6.2 CPU s of MCJIT for
    the whole program, 2.1-2.8 s with the entry `optnone`). It calls the function
    through its address loaded (volatile) from a global: a direct call let O3's
    interprocedural passes weigh each of the thousands of arguments against the callee,
    in quadratic time (O3 0.17 / 0.82 / 2.77 CPU s for 1,000 / 2,000 / 4,000 pointers;
    0.006 / 0.008 / 0.018 through the address)."""
    out: list[str] = []
    for name, sig in signatures.items():
        if PACKED_PREFIX + name in signatures:  # defined by `llvm-split-large-functions`
            continue
        if len(sig.inputs) <= MAX_CTYPES_ARGUMENTS or not isinstance(sig.output, llvm.LLVMVoidType):
            continue
        if not all(isinstance(t, llvm.LLVMPointerType) for t in sig.inputs):
            continue
        address = f'@"{PACKED_PREFIX}address.{name}"'
        body = [
            f'{address} = internal global ptr @"{name}"',
            f'define void @"{PACKED_PREFIX}{name}"(ptr %args) noinline optnone {{',
        ]
        for i in range(len(sig.inputs)):
            body.append(f"  %p{i} = getelementptr ptr, ptr %args, i64 {i}")
            body.append(f"  %a{i} = load ptr, ptr %p{i}")
        body.append(f"  %callee = load volatile ptr, ptr {address}")
        body.append("  call void %callee(" + ", ".join(f"ptr %a{i}" for i in range(len(sig.inputs))) + ")")
        body += ["  ret void", "}"]
        out.append("\n".join(body))
    return "\n\n".join(out)


def _bind_new_sites() -> list[host_io.Site]:
    """`host_io.bind_new_sites()`, with the collectives' handlers and channel routes
    registered first when there are sites to bind (`runtime.collectives` registers
    them on import): a program that never calls the host does not load them, nor mpi4py."""
    if has_new_sites():
        import runtime.collectives  # noqa: F401

    return host_io.bind_new_sites()


def compile_llvm_ir(
    llvm_ir: str,
    signatures: dict[str, FunctionSignature] | None = None,
    *,
    opt_level: int = 3,
    timing: TimingReport | None = None,
    object_cache: ObjectCache | None = None,
) -> JitModule:
    """Compile textual LLVM IR (parse, verify, optimize, MCJIT).

    `timing` gets one phase per step; `object_cache`, when given, receives the
    object code MCJIT generates (`runtime.compile_cache` stores it on disk)."""
    report = timing if timing is not None else TimingReport()
    tm = create_target_machine(opt_level)
    packed = packed_entries(signatures or {})
    if packed:
        llvm_ir = f"{llvm_ir}\n\n{packed}\n"
    with report.phase("LLVM: parse and verify"):
        try:
            mod = llvm_binding.parse_assembly(llvm_ir)
            mod.verify()
        except RuntimeError as err:
            raise JitError(f"invalid LLVM IR: {err}\n{llvm_ir}") from err
    symbols = _mangle_defined_functions(mod)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    if opt_level > 0:
        with report.phase(f"LLVM: optimize (O{opt_level})"):
            optimize(mod, tm, opt_level)
    optimized = str(mod)
    sites = _bind_new_sites()  # the runtime calls the lowering described
    guard.bind()  # __xla_alloc_failed: jumps back to the entry's trampoline (before the pool, which uses it)
    threads.bind_parallel_for(compile_llvm_ir)  # __xla_parallel_for: the native pool, compiled on first use
    _check_symbols(mod)
    with report.phase("LLVM: code generation (MCJIT)"):
        engine = llvm_binding.create_mcjit_compiler(mod, tm)
        if object_cache is not None:
            engine.set_object_cache(notify_func=object_cache.notify)
        engine.finalize_object()
        engine.run_static_constructors()
    if sites:  # handlers that call the module's own functions (collectives)
        host_io.resolve_site_functions(sites, lambda name: engine.get_function_address(symbols.get(name, name)))
    return JitModule(engine, tm, llvm_ir, optimized, signatures or {}, symbols)


class ObjectCache:
    """Collects the object code MCJIT generates for a module (`set_object_cache`)."""

    def __init__(self) -> None:
        self.objects: list[bytes] = []

    def notify(self, module: llvm_binding.ModuleRef, buffer: bytes) -> None:
        self.objects.append(bytes(buffer))


def load_object_code(
    objects: list[bytes],
    signatures: dict[str, FunctionSignature],
    symbols: dict[str, str],
    *,
    opt_level: int = 3,
) -> JitModule:
    """A `JitModule` from object code `compile_llvm_ir` generated before (with the
    same target): MCJIT loads it instead of compiling anything."""
    tm = create_target_machine(opt_level)
    guard.bind()
    threads.bind_parallel_for(compile_llvm_ir)
    mod = llvm_binding.parse_assembly("")
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    engine = llvm_binding.create_mcjit_compiler(mod, tm)
    for obj in objects:
        engine.add_object_file(llvm_binding.ObjectFileRef.from_data(obj))
    engine.finalize_object()
    return JitModule(engine, tm, "", "", signatures, symbols)


FUNCTION_PREFIX = "__xla_fn."
"""Prefix of the native symbols of the module's own functions."""


def _mangle_defined_functions(mod: llvm_binding.ModuleRef, elsewhere: frozenset[str] = frozenset()) -> dict[str, str]:
    """Give the functions the module defines symbols of their own.

    A program may name a function `exp`, `expf` or `malloc`: left as is, that
    definition would also answer the libm calls LLVM emits for `llvm.exp.*` (and
    LLVM would treat calls to it as calls to libm, folding them as such), so the
    program would run its own code instead, or recurse until it crashes. The
    functions it defines therefore get `__xla_fn.`-prefixed symbols (references
    follow the rename); declarations keep their names, since they are resolved
    against the process (libm, the runtime's callbacks), except those of `elsewhere`,
    the functions the module's other parts define (`runtime.parallel_codegen`)."""
    symbols: dict[str, str] = {}
    for f in mod.functions:
        if (not f.is_declaration or f.name in elsewhere) and not f.name.startswith("llvm."):
            # llvmlite looks symbols up as ASCII: a name such as `@"ÿ"` is spelled in hex
            own = f.name if f.name.isascii() else "utf8:" + f.name.encode("utf-8").hex()
            symbols[f.name] = FUNCTION_PREFIX + own
            f.name = symbols[f.name]
    return symbols


def _symbol_exists(name: str) -> bool:
    if llvm_binding.address_of_symbol(name):
        return True
    try:
        return hasattr(ctypes.CDLL(None), name)
    except OSError:
        return False


def _check_symbols(mod: llvm_binding.ModuleRef) -> None:
    """Fail cleanly (instead of crashing when called) on unresolvable externals."""
    missing = [
        f.name
        for f in mod.functions
        if f.is_declaration
        and not f.name.startswith(("llvm.", FUNCTION_PREFIX))  # (the latter: defined by another part)
        and not _symbol_exists(f.name)
    ]
    if missing:
        raise JitError(f"unresolved external functions: {', '.join(sorted(missing))}")


def compile_llvm_module(
    module: ModuleOp,
    *,
    opt_level: int = 3,
    timing: TimingReport | None = None,
    object_cache: ObjectCache | None = None,
) -> JitModule:
    """Compile a module of `llvm.func`/`llvm.mlir.global` ops to native code."""
    report = timing if timing is not None else TimingReport()
    parts = plan_parts(module, compile_workers()) if opt_level > 0 else None
    with report.phase("LLVM: translate to LLVM IR"):
        try:
            if parts is None:
                llvm_ir = str(convert_module(module))
            else:
                texts = [str(convert_module(module, part=part)) for part in parts]
        except NotImplementedError as err:
            raise JitError(f"cannot translate the module to LLVM IR: {err}") from err
    if parts is None:
        return compile_llvm_ir(llvm_ir, _signatures(module), opt_level=opt_level, timing=report, object_cache=object_cache)
    defined = frozenset().union(*(part.functions for part in parts))
    return _compile_parts(texts, defined, _signatures(module), opt_level, report, object_cache)


PARTS_PHASE = "LLVM: optimize and generate code (parts in parallel)"
"""The timing report's phase of `_compile_parts` (wall: the slowest part's; CPU: all)."""


def _compile_part(text: str, defined: frozenset[str], opt_level: int) -> tuple[bytes, str, dict[str, str]]:
    """One part (`runtime.parallel_codegen`): parse, optimize, object code; on a thread of
    its own, in an LLVM context and with a target machine of its own."""
    tm = create_target_machine(opt_level)
    context = llvm_binding.create_context()
    with llvm_ffi.OutputString() as error:
        mod = llvm_binding.ModuleRef(_unlocked("LLVMPY_ParseAssembly")(context, ctypes.c_char_p(text.encode()), error), context)
        if error:
            mod.close()
            raise JitError(f"invalid LLVM IR: {error}\n{text}")
    try:
        mod.verify()
    except RuntimeError as err:
        raise JitError(f"invalid LLVM IR: {err}\n{text}") from err
    symbols = _mangle_defined_functions(mod, defined)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    pb = _pass_builder(tm, opt_level)
    _unlocked("LLVMPY_RunNewModulePassManager")(pb.getModulePassManager(), mod, pb)
    _check_symbols(mod)
    with llvm_ffi.OutputString() as error:
        buffer = _unlocked("LLVMPY_TargetMachineEmitToMemory")(tm, mod, 1, error)
        if not buffer:
            raise JitError(f"code generation failed: {error}")
    try:
        obj = ctypes.string_at(llvm_ffi.lib.LLVMPY_GetBufferStart(buffer), llvm_ffi.lib.LLVMPY_GetBufferSize(buffer))
    finally:
        llvm_ffi.lib.LLVMPY_DisposeMemoryBuffer(buffer)
    return obj, str(mod), symbols


def _unlocked(name: str) -> Any:
    """llvmlite's C function `name` without llvmlite's global lock (it serializes every
    call into LLVM; a part's parsing, optimization and code generation use only its own
    context, module and target machine, which LLVM allows on concurrent threads)."""
    wrapper = getattr(llvm_ffi.lib, name)
    return getattr(wrapper, "_cfn", wrapper)


def _compile_parts(
    texts: list[str],
    defined: frozenset[str],
    signatures: dict[str, FunctionSignature],
    opt_level: int,
    report: TimingReport,
    object_cache: ObjectCache | None,
) -> JitModule:
    """Compile the parts of a module on one thread each, then load their objects into
    one MCJIT engine, which links their calls to each other."""
    packed = packed_entries(signatures)
    if packed:  # the first part holds the functions the host calls
        texts[0] = f"{texts[0]}\n\n{packed}\n"
    guard.bind()  # the runtime's symbols, which each part's check looks up
    threads.bind_parallel_for(compile_llvm_ir)
    with report.phase(PARTS_PHASE), ThreadPoolExecutor(max_workers=len(texts)) as pool:
        results = list(pool.map(lambda text: _compile_part(text, defined, opt_level), texts))
    objects = [obj for obj, _, _ in results]
    symbols: dict[str, str] = {}
    for _, _, part_symbols in results:
        symbols.update(part_symbols)
    sites = _bind_new_sites()
    with report.phase("LLVM: load the parts (MCJIT)"):
        jit = load_object_code(objects, signatures, symbols, opt_level=opt_level)
    if object_cache is not None:
        object_cache.objects.extend(objects)
    if sites:
        host_io.resolve_site_functions(sites, lambda name: jit.engine.get_function_address(symbols.get(name, name)))
    jit.llvm_ir = "\n\n".join(texts)
    jit.optimized_ir = "\n\n".join(text for _, text, _ in results)
    return jit


__all__ = [
    "MAX_CTYPES_ARGUMENTS",
    "PACKED_PREFIX",
    "FunctionSignature",
    "JitError",
    "JitModule",
    "ObjectCache",
    "compile_llvm_ir",
    "compile_llvm_module",
    "create_target_machine",
    "load_object_code",
    "missing_features",
    "optimize",
]
