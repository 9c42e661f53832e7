"""`compile(program, entry="main")`: an `xla` program (text or parsed module) to
an `Executable`, callable on NumPy arrays.

    from xla_tools import compile
    f = compile(open("examples/mlp.mlir").read())
    y = f(x, w1, b1, w2, b2)              # NumPy in, NumPy out

The steps: parse and verify (`xla_dialect.parse_module`), read the functions'
`xla` signatures, run the `lower-to-llvm` pipeline (`xla_tools/pipelines.py`),
then JIT-compile and wrap the entry (`runtime.load`). Compiled code is cached by
the module's text, so compiling the same module twice compiles once, and every
function of it can then be had without compiling again.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from typing import Any

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute

from lowering.codegen.target import get_target
from lowering.to_llvm.common import register_llvm_extensions
from runtime.compile_cache import CacheEntry, default_cache
from runtime.executable import (
    CompiledModule,
    CompileError,
    Executable,
    entry_function,
    load,
    xla_signatures,
)
from runtime.jit import ObjectCache
from runtime.timing import TimingReport, timing_from_env
from xla_dialect.context import XlaProgramError, make_context, parse_module
from xla_tools.gc_pause import paused_collection
from xla_tools.pipelines import LOWER_TO_LLVM, lower_to_llvm

_CACHE: OrderedDict[tuple[str, str, int, bool], CompiledModule] = OrderedDict()
_CACHE_LOCK = threading.Lock()

DEFAULT_CACHE_ENTRIES = 64
"""How many compiled modules the in-memory cache keeps (`$XLA_DIALECT_CACHE_ENTRIES`),
least recently used evicted first; an `Executable` already handed out stays valid."""


def cache_capacity() -> int:
    text = os.environ.get("XLA_DIALECT_CACHE_ENTRIES", "").strip()
    return max(0, int(text)) if text.isdigit() else DEFAULT_CACHE_ENTRIES


def _remember(key: tuple[str, str, int, bool], compiled: CompiledModule) -> CompiledModule:
    """Put `compiled` in the LRU cache (or take the one a concurrent compile put first)."""
    with _CACHE_LOCK:
        compiled = _CACHE.setdefault(key, compiled)
        _CACHE.move_to_end(key)
        while len(_CACHE) > cache_capacity():
            _CACHE.popitem(last=False)
    return compiled

DEFAULT_OPT_LEVEL = 3
"""LLVM's optimization level when neither `opt_level` nor `$XLA_DIALECT_OPT_LEVEL` says."""


def default_opt_level() -> int:
    """`$XLA_DIALECT_OPT_LEVEL` if set, else `DEFAULT_OPT_LEVEL`."""
    text = os.environ.get("XLA_DIALECT_OPT_LEVEL", "")
    return check_opt_level(int(text) if text.strip().isdigit() else DEFAULT_OPT_LEVEL)


def check_opt_level(opt_level: int) -> int:
    if opt_level not in (0, 1, 2, 3):
        raise ValueError(f"opt_level must be 0, 1, 2 or 3, not {opt_level!r}")
    return opt_level


def _compile_module(
    program: str | ModuleOp,
    text: str,
    filename: str,
    entry: str,
    opt_level: int,
    report: TimingReport,
    reassociate: bool = True,
) -> CompiledModule:
    from xdsl.utils.exceptions import DiagnosticException

    disk = default_cache()
    key = ""
    if disk is not None:
        with report.phase("cache: look up"):
            settings: dict[str, Any] = {"opt_level": opt_level, "pipeline": LOWER_TO_LLVM}
            if not reassociate:
                settings["reassociate"] = False
            key = disk.key(text, settings)
            cached = disk.load(key)
            compiled = _from_cache_entry(cached, opt_level) if cached is not None else None
        if compiled is not None:
            return compiled
    ctx = make_context()
    register_llvm_extensions(ctx)
    with report.phase("parse and verify"):
        module = parse_module(program, filename, ctx) if isinstance(program, str) else program.clone()
    entry_function(module, entry)
    signatures = xla_signatures(module)
    try:
        lower_to_llvm(module, ctx, timing=report, reassociate=reassociate)
    except DiagnosticException as err:
        op = getattr(err, "op", None)
        raise CompileError(_located(str(err.args[0]) if err.args else str(err), op)) from None
    objects = ObjectCache() if disk is not None and _cacheable(module) else None
    compiled = load(module, signatures, opt_level=opt_level, timing=report, object_cache=objects)
    if disk is not None and objects is not None and objects.objects:
        with report.phase("cache: store"):
            disk.store(key, _cache_entry(compiled, objects))
    return compiled


def _cacheable(module: ModuleOp) -> bool:
    """Whether the lowered module's code is all the program needs: a call of the host
    (I/O, custom calls) goes through a callback the lowering registered in this
    process, which a cached object could not bring back."""
    from lowering.host_abi import SYMBOL_PREFIX

    for op in module.ops:
        name = getattr(op, "sym_name", None)
        if isinstance(name, StringAttr) and name.data.startswith(SYMBOL_PREFIX):
            return False
    return True


def _cache_entry(compiled: CompiledModule, objects: ObjectCache) -> CacheEntry:
    jit = compiled.jit
    return CacheEntry(
        list(objects.objects),
        dict(jit.symbols),
        {name: ([str(t) for t in sig.inputs], str(sig.output)) for name, sig in jit.signatures.items()},
        {name: ([str(t) for t in ins], [str(t) for t in outs]) for name, (ins, outs) in compiled.signatures.items()},
        {"largest_allocation": compiled.largest_allocation},
    )


def _from_cache_entry(entry: CacheEntry, opt_level: int) -> CompiledModule | None:
    """The compiled module of a cache entry, or None if it does not load."""
    from xdsl.parser import Parser

    from runtime.jit import FunctionSignature, load_object_code

    ctx = make_context()
    register_llvm_extensions(ctx)

    def attr(text: str) -> Attribute:
        return Parser(ctx, text).parse_attribute()

    try:
        llvm_signatures = {
            name: FunctionSignature(name, tuple(attr(t) for t in ins), attr(out))
            for name, (ins, out) in entry.llvm_signatures.items()
        }
        signatures = {
            name: ([attr(t) for t in ins], [attr(t) for t in outs]) for name, (ins, outs) in entry.xla_signatures.items()
        }
        jit = load_object_code(entry.objects, llvm_signatures, entry.symbols, opt_level=opt_level)
        largest = int(entry.extra.get("largest_allocation", 0))
    except Exception:  # noqa: BLE001 - an entry that does not load is a miss: compile again
        return None
    return CompiledModule(jit, signatures, largest)


def compile(
    program: str | ModuleOp,
    entry: str = "main",
    *,
    filename: str = "<string>",
    threads: int | None = None,
    opt_level: int | None = None,
    timing: bool | TimingReport | None = None,
    reassociate: bool = True,
) -> Executable:
    """Compile `program` (MLIR text or a parsed module) and return its `entry`
    function as an `Executable`. Raises `XlaProgramError` for text that does
    not parse or verify and `CompileError` for a program that cannot be compiled.

    `threads`: how many threads its parallel loops run on (default:
    `$XLA_DIALECT_THREADS`, else the cores this process may use); the code is the
    same for every count, so the count is not part of the cache key.

    `opt_level`: LLVM's optimization level, 0 to 3 (default:
    `$XLA_DIALECT_OPT_LEVEL`, else `DEFAULT_OPT_LEVEL`).

    `timing`: True prints the wall and CPU time of every pass and LLVM phase on
    stderr (as `--timing` does; default: `$XLA_DIALECT_TIMING`); a `TimingReport`
    is filled instead of printed.

    `reassociate`: False keeps every reduction in the spec's iteration order
    (no vectorized partial sums): bitwise reproducible, slower; True (default)
    lets float reductions be reassociated in the documented deterministic order
    (`lowering/codegen/linalg_reassociate.py`). Part of the cache key.

    A module is compiled once (cached by its text); every function of it can then
    be had without compiling again."""
    level = default_opt_level() if opt_level is None else check_opt_level(opt_level)
    printing = timing is True or (timing is None and timing_from_env())
    report = timing if isinstance(timing, TimingReport) else TimingReport(cpu_time=printing)
    # The target CPU (`$XLA_DIALECT_TARGET`) is part of the key: code for another CPU differs.
    key = (program if isinstance(program, str) else str(program), get_target().name, level, reassociate)
    with _CACHE_LOCK:
        compiled = _CACHE.get(key)
        if compiled is not None:
            _CACHE.move_to_end(key)
    if compiled is None:
        with paused_collection():
            compiled = _compile_module(program, key[0], filename, entry, level, report, reassociate)
        compiled = _remember(key, compiled)
    if printing:
        print(report.format(), file=sys.stderr)
    return compiled.executable(entry, threads)


def _located(message: str, op: Any) -> str:
    from xdsl.dialects.builtin import FileLineColLoc

    loc = getattr(op, "location", None)
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: {message}"
    return message


__all__ = ["DEFAULT_OPT_LEVEL", "CompileError", "Executable", "XlaProgramError", "compile", "default_opt_level"]
