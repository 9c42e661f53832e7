"""Parts of a module that LLVM optimizes and compiles on several threads at once.

After `outline-loop-nests` a lowered module is a few glue functions (the entry, its
split parts, compiled `optnone` by `llvm-optnone-glue`) that call kernel functions,
each kernel with the parallel bodies and helpers it alone refers to. No optimization
crosses from one kernel to another (the glue is `optnone`, so nothing is inlined into
it), so the kernels can be optimized and compiled in separate LLVM modules, as XLA
splits its CPU module for parallel code generation: `plan_parts` groups the
functions into units (a kernel with everything it refers to; each glue function
alone; the functions the host calls together) and deals the units out to at most
`workers` parts of about equal size. `runtime.jit` then translates each part to
its own LLVM module and, on a thread of its own, parses, optimizes and generates
its object code, in an LLVM context and with a target machine of its own; it loads
the objects into one MCJIT engine, which links their calls to each other. ctypes
leaves the GIL while LLVM works, but llvmlite also serializes every call into LLVM
under one lock of its own (for its global context): the three long calls of a part
go around that lock (`runtime.jit._unlocked`), which LLVM allows for threads that
share no context, module or target machine.

A function called from another part is exported from its own (external linkage;
its name is the module's own `__xla_fn.` symbol, so it cannot meet another
program's); a constant global goes into every part that reads it (as an internal
copy); the functions that use a writable global stay in one part. A module is
not split when it calls the host (I/O and custom-call handlers look its functions
up by name after loading) or is too small for threads to pay (`MIN_PART_OPS`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp

from lowering.host_abi import SYMBOL_PREFIX
from xla_dialect.symbols import referenced_symbols

MIN_PART_OPS = 1000
"""The fewest llvm-dialect ops a part must get for splitting to be worth a thread:
LLVM spends ~0.2-0.4 ms of CPU on each (a 256x512 transformer block: 5,544 ops, 2.3 s)."""

MAX_WORKERS = 8


def compile_workers() -> int:
    """How many threads LLVM may use for one module: `$XLA_DIALECT_COMPILE_THREADS`,
    else the cores this process may use (at most `MAX_WORKERS`)."""
    text = os.environ.get("XLA_DIALECT_COMPILE_THREADS", "").strip()
    if text:
        try:
            return max(1, int(text))
        except ValueError:
            pass
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


@dataclass(frozen=True)
class CodegenPart:
    """The functions one LLVM module defines, those of them other parts call, and the
    globals it holds."""

    functions: frozenset[str]
    exported: frozenset[str]
    globals: frozenset[str]
    referenced: frozenset[str]
    """The symbols its functions name (what it must declare, or define)."""


def _is_entry(f: llvm.FuncOp) -> bool:
    """A function the host may call (external linkage)."""
    return f.linkage.linkage.data in ("external", "")


def _is_glue(f: llvm.FuncOp) -> bool:
    """Glue compiled `optnone` (`llvm-optnone-glue`): nothing is inlined into it, so
    what it calls may be compiled elsewhere."""
    return "optimize_none" in f.properties or "optimize_none" in f.attributes


def plan_parts(module: ModuleOp, workers: int) -> list[CodegenPart] | None:
    """The parts to compile `module` in on `workers` threads (the first holds the
    functions the host calls), or None to compile it whole."""
    if workers < 2:
        return None
    functions: dict[str, llvm.FuncOp] = {}
    constants: set[str] = set()
    writable: set[str] = set()
    for op in module.ops:
        if isinstance(op, llvm.FuncOp):
            name = op.sym_name.data
            if name.startswith(SYMBOL_PREFIX):
                return None  # calls the host: see the module docstring
            if op.body.blocks:
                functions[name] = op
        elif isinstance(op, llvm.GlobalOp):
            (constants if op.constant is not None else writable).add(op.sym_name.data)
    sizes = {name: sum(1 for _ in f.walk()) for name, f in functions.items()}
    if sum(sizes.values()) < 2 * MIN_PART_OPS:
        return None
    references = {name: referenced_symbols(f) for name, f in functions.items()}

    # Units: union-find. A kernel is one unit with the functions it refers to; each
    # glue function is a unit of its own, except that the functions the host calls
    # are one unit together; the functions that use one writable global are one unit.
    parent = {name: name for name in functions}

    def find(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    def union(a: str, b: str) -> None:
        parent[find(a)] = find(b)

    entries = [name for name, f in functions.items() if _is_entry(f)]
    glue = {name for name, f in functions.items() if _is_glue(f)} | set(entries)
    for name in entries[1:]:
        union(name, entries[0])
    user_of_writable: dict[str, str] = {}
    for name, refs in references.items():
        for ref in refs:
            if ref in functions and name not in glue and ref not in glue:
                union(ref, name)
            elif ref in writable:
                union(user_of_writable.setdefault(ref, name), name)
    units: dict[str, list[str]] = {}
    for name in functions:
        units.setdefault(find(name), []).append(name)
    weighted = sorted(units.values(), key=lambda unit: -sum(sizes[n] for n in unit))
    count = min(workers, len(weighted), max(1, sum(sizes.values()) // MIN_PART_OPS))
    if count < 2:
        return None
    bins: list[list[str]] = [[] for _ in range(count)]
    loads = [0] * count
    for unit in weighted:  # largest first into the lightest part
        k = loads.index(min(loads))
        bins[k].extend(unit)
        loads[k] += sum(sizes[n] for n in unit)
    if entries:  # the part of the functions the host calls first (their packed entries go there)
        bins.sort(key=lambda names: entries[0] not in names)
    part_of = {name: k for k, names in enumerate(bins) for name in names}
    exported: set[str] = set()
    for name, refs in references.items():
        exported.update(r for r in refs if r in functions and part_of[r] != part_of[name])
    parts: list[CodegenPart] = []
    for names in bins:
        read = set().union(*(references[n] for n in names))
        held = {g for g in read if g in constants or g in writable}
        parts.append(CodegenPart(frozenset(names), frozenset(exported & set(names)), frozenset(held), frozenset(read)))
    return parts


__all__ = ["MAX_WORKERS", "MIN_PART_OPS", "CodegenPart", "compile_workers", "plan_parts"]
