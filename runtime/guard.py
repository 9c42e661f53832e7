"""A failed allocation in compiled code comes back to Python as an exception.

Compiled code checks every allocation and on null calls `__xla_alloc_failed(size)`
(`lowering/to_llvm/memref.py`). Native frames cannot be unwound into a Python
exception, so the runtime calls each entry function through a small native
trampoline that marks a return point with `_setjmp`, and `__xla_alloc_failed`
(native code too, in this module's IR) `longjmp`s back to it:

* `__xla_guarded_call_<n>(fn, a0, ..., a<n-1>)` calls `fn(a0, ...)` and returns -1,
  or the size that could not be allocated. It keeps its jump buffer on its own
  stack and publishes it in a pthread key for the calling thread (the previous
  one is saved and restored, so guarded calls nest: a custom call that runs an
  executable). One trampoline per pointer count, compiled on first use.
* `__xla_guarded_body(body, ctx, lo, hi)` does the same for one chunk of a
  parallel loop. The native pool (`runtime/native_pool.py`) runs every chunk
  through it on every thread: a failure in a worker ends that chunk, the pool
  skips the chunks not yet started, finishes the region, and the thread that
  started it reports the failure on its own stack, where the entry's trampoline
  catches it. A jump never crosses a thread nor a region that is still running.
* No Python frame is ever jumped over: nothing but native code runs between an
  allocation and its null check, and the Python pool (`runtime/threads.py`) calls each
  chunk through `__xla_guarded_body` and records the failure as an error of the
  run (the loop's other iterations finish; the call then raises).
* The runtime's own calls of compiled code from Python (collective combiners,
  `run_parallel`'s programs) go through `guarded`, which raises in Python.
* `__xla_alloc_failed` on a thread with no return point (a thread of the user's
  own that calls a function pointer it got from the JIT) prints the size and ends
  the process with status 1, as before.

Compiled code calls `__xla_alloc_failed_at(size, site)`: `site` is the allocating
op's `file:line:col` (a C string the lowering emits, or null), kept in one global of
the handler until the message is made. Each return point also holds the list of the
caching allocator's blocks handed out under it (`runtime/allocator.py`): a trampoline
that is jumped to gives them back, one that returns passes them to the enclosing
point. `Executable` then raises `OutOfMemoryError`, a `MemoryError` naming the size
and the op. Buffers below the allocator's threshold (64 KiB) are not given back: a
few small leaks on a failure, never a crash.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from typing import Any

import llvmlite.binding as llvm_binding

from runtime import allocator
from runtime.host_io import HostIOError

JMP_BUF_BYTES = 512
"""Room for the C library's `jmp_buf` (200 bytes on x86-64 glibc, 312 on AArch64);
the size that failed is stored right after it."""

NOT_FAILED = -1
"""What a trampoline returns when the call finished."""

BLOCKS_OFFSET = JMP_BUF_BYTES + 8
"""Where in a return point the head of its list of the cache's blocks is (after the
jump buffer and the size that failed)."""

POINT_BYTES = BLOCKS_OFFSET + 8


class OutOfMemoryError(HostIOError, MemoryError):
    """Compiled code could not allocate a buffer; the process lives on."""


SITE_FAILED_SYMBOL = "__xla_alloc_failed_at"
"""`void __xla_alloc_failed_at(i64 size, ptr site)`: what compiled code calls
(`lowering/to_llvm/memref.py`); it records `site` (the allocating op's `file:line:col`,
a C string, or null) and fails as `__xla_alloc_failed(size)` does."""

SITE_SYMBOL = "__xla_alloc_site"
"""The handler's global holding the last failed allocation's site (one for the process:
when two threads fail at once, either site is one that failed)."""


def failure_message(size: int, entry: str | None = None) -> str:
    """The error of a failed allocation; it names the op that allocated when compiled
    code said which (and forgets it: the next failure names its own)."""
    where = f"@{entry}: " if entry else ""
    site = _take_site()
    at = f" for the op at {site}" if site else ""
    return (
        f"{where}out of memory: compiled code could not allocate a buffer of {size} bytes "
        f"({size / 2**30:.3g} GiB){at}"
    )


def _take_site() -> str | None:
    if _HANDLER is None:
        return None
    slot = ctypes.c_void_p.from_address(_HANDLER.get_global_value_address(SITE_SYMBOL))
    address, slot.value = slot.value, None
    return ctypes.string_at(address).decode("utf-8", "replace") if address else None


_libc = ctypes.CDLL(None)


def _create_key() -> int:
    key = ctypes.c_uint(0)
    if _libc.pthread_key_create(ctypes.byref(key), None) != 0:
        raise OSError("pthread_key_create failed")
    return key.value


_KEY = _create_key()
"""The pthread key holding each thread's innermost return point (a jump buffer)."""

_DECLARATIONS = f"""
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare i32 @_setjmp(ptr) returns_twice
declare void @{allocator.ADOPT_SYMBOL}(ptr, ptr)
declare void @{allocator.RELEASE_SYMBOL}(ptr)
"""


def _trampoline(name: str, params: list[str], call: str) -> str:
    """LLVM IR of a function that runs `call` under a return point of its own. The
    point holds the list of the cache's blocks handed out under it
    (`runtime/allocator.py`): given back when the call fails, passed to the enclosing
    point (or to none) when it returns."""
    return f"""
define i64 @{name}({", ".join(params)}) {{
entry:
  %point = alloca [{POINT_BYTES} x i8], align 16
  %blocks = getelementptr i8, ptr %point, i64 {BLOCKS_OFFSET}
  store ptr null, ptr %blocks, align 8
  %prev = call ptr @pthread_getspecific(i32 {_KEY})
  call i32 @pthread_setspecific(i32 {_KEY}, ptr %point)
  %jumped = call i32 @_setjmp(ptr %point) returns_twice
  %first = icmp eq i32 %jumped, 0
  br i1 %first, label %run, label %failed
run:
  {call}
  call i32 @pthread_setspecific(i32 {_KEY}, ptr %prev)
  %left = load ptr, ptr %blocks, align 8
  %clean = icmp eq ptr %left, null
  br i1 %clean, label %done, label %pass
pass:
  %outer = icmp eq ptr %prev, null
  %outer_blocks = getelementptr i8, ptr %prev, i64 {BLOCKS_OFFSET}
  %to = select i1 %outer, ptr null, ptr %outer_blocks
  call void @{allocator.ADOPT_SYMBOL}(ptr %blocks, ptr %to)
  br label %done
done:
  ret i64 {NOT_FAILED}
failed:
  call i32 @pthread_setspecific(i32 {_KEY}, ptr %prev)
  call void @{allocator.RELEASE_SYMBOL}(ptr %blocks)
  %slot = getelementptr i8, ptr %point, i64 {JMP_BUF_BYTES}
  %size = load volatile i64, ptr %slot, align 8
  ret i64 %size
}}
"""


def _handler_ir() -> str:
    return _DECLARATIONS + f"""
declare void @longjmp(ptr, i32) noreturn
declare void @__xla_alloc_unguarded(i64)

@{SITE_SYMBOL} = global ptr null

define void @{SITE_FAILED_SYMBOL}(i64 %size, ptr %site) noreturn {{
entry:
  store volatile ptr %site, ptr @{SITE_SYMBOL}, align 8
  call void @{allocator.ALLOCATION_FAILED_SYMBOL}(i64 %size)
  unreachable
}}

define void @{allocator.ALLOCATION_FAILED_SYMBOL}(i64 %size) noreturn {{
entry:
  %point = call ptr @pthread_getspecific(i32 {_KEY})
  %none = icmp eq ptr %point, null
  br i1 %none, label %stop, label %jump
stop:
  call void @__xla_alloc_unguarded(i64 %size)
  unreachable
jump:
  %slot = getelementptr i8, ptr %point, i64 {JMP_BUF_BYTES}
  store volatile i64 %size, ptr %slot, align 8
  call void @longjmp(ptr %point, i32 1)
  unreachable
}}
""" + _trampoline(
        "__xla_guarded_body",
        ["ptr %body", "ptr %ctx", "i64 %lo", "i64 %hi"],
        "call void %body(ptr %ctx, i64 %lo, i64 %hi)",
    )


def _compile(ir: str, opt_level: int = 2) -> Any:
    """An MCJIT engine for `ir` (llvmlite directly: this code is below the JIT's
    own pipeline, which binds the pool that needs it)."""
    llvm_binding.initialize_native_target()
    llvm_binding.initialize_native_asmprinter()
    module = llvm_binding.parse_assembly(ir)
    module.verify()
    target = llvm_binding.Target.from_default_triple().create_target_machine(opt=opt_level, reloc="default", codemodel="jitdefault")
    engine = llvm_binding.create_mcjit_compiler(module, target)
    engine.finalize_object()
    return engine


_LOCK = threading.Lock()
_ENGINES: list[Any] = []
_HANDLER: Any = None
_GUARDED_BODY = 0
_TRAMPOLINES: dict[int, Any] = {}


@ctypes.CFUNCTYPE(None, ctypes.c_int64)
def _unguarded(size: int) -> None:
    """A failure on a thread with no return point: report and stop, as before."""
    try:
        os.write(2, f"error: {failure_message(size)}; no Python caller to return to, the process stops here\n".encode())
    finally:
        os._exit(1)


@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_char_p)
def _unguarded_at(size: int, site: bytes | None) -> None:
    """The same before `bind`, naming the op."""
    try:
        at = f" for the op at {site.decode('utf-8', 'replace')}" if site else ""
        os.write(2, f"error: {failure_message(size)}{at}; no Python caller to return to, the process stops here\n".encode())
    finally:
        os._exit(1)


llvm_binding.add_symbol(  # until `bind`: no return point anywhere
    allocator.ALLOCATION_FAILED_SYMBOL, ctypes.cast(_unguarded, ctypes.c_void_p).value  # pyright: ignore[reportArgumentType]
)
llvm_binding.add_symbol(SITE_FAILED_SYMBOL, ctypes.cast(_unguarded_at, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]


def bind() -> None:
    """Compile the handler (once per process) and bind `__xla_alloc_failed` to it;
    the JIT calls this before it links any module."""
    global _HANDLER, _GUARDED_BODY
    if _HANDLER is not None:
        return
    with _LOCK:
        if _HANDLER is not None:
            return
        allocator.bind(_KEY, BLOCKS_OFFSET, _compile)  # the trampolines call its list functions
        llvm_binding.add_symbol("__xla_alloc_unguarded", ctypes.cast(_unguarded, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]
        engine = _compile(_handler_ir())
        llvm_binding.add_symbol(allocator.ALLOCATION_FAILED_SYMBOL, engine.get_function_address(allocator.ALLOCATION_FAILED_SYMBOL))
        llvm_binding.add_symbol(SITE_FAILED_SYMBOL, engine.get_function_address(SITE_FAILED_SYMBOL))
        _GUARDED_BODY = engine.get_function_address("__xla_guarded_body")
        llvm_binding.add_symbol("__xla_guarded_body", _GUARDED_BODY)
        _HANDLER = engine


GUARDED_BODY_SYMBOL = "__xla_guarded_body"
"""`i64 __xla_guarded_body(ptr body, ptr ctx, i64 lo, i64 hi)`: one chunk under a return point."""


def guarded_body() -> Any:
    """`__xla_guarded_body` as a ctypes function (for the Python pool)."""
    bind()
    return _BODY_PROTOTYPE(_GUARDED_BODY)


_BODY_PROTOTYPE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)


def trampoline(pointers: int) -> Any:
    """`__xla_guarded_call_<pointers>` as a ctypes function `(fn, *pointers) -> int`:
    -1 if `fn` returned, else the size of the allocation that failed."""
    bind()
    function = _TRAMPOLINES.get(pointers)
    if function is not None:
        return function
    with _LOCK:
        function = _TRAMPOLINES.get(pointers)
        if function is None:
            name = f"__xla_guarded_call_{pointers}"
            args = [f"ptr %a{i}" for i in range(pointers)]
            ir = _DECLARATIONS + _trampoline(name, ["ptr %fn", *args], f"call void %fn({', '.join(args)})")
            engine = _compile(ir)
            _ENGINES.append(engine)
            prototype = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, *([ctypes.c_void_p] * pointers))
            function = _TRAMPOLINES[pointers] = prototype(engine.get_function_address(name))
    return function


def guarded(address: int, pointers: int, name: str | None = None) -> Callable[..., None]:
    """A Python callable running the compiled `void f(ptr x pointers)` at `address` under
    a return point: a failed allocation gives back the blocks the call took and raises
    `OutOfMemoryError` (for the runtime's own calls of compiled code: collective
    combiners, `run_parallel`'s programs; a jump must never cross their Python frames)."""
    function = trampoline(pointers)

    def call(*args: int) -> None:
        failed = function(address, *args)  # the trampoline gave back the blocks of a failed call
        if failed != NOT_FAILED:
            raise OutOfMemoryError(failure_message(failed, name))

    return call


__all__ = [
    "GUARDED_BODY_SYMBOL",
    "JMP_BUF_BYTES",
    "NOT_FAILED",
    "SITE_FAILED_SYMBOL",
    "OutOfMemoryError",
    "bind",
    "failure_message",
    "guarded",
    "guarded_body",
    "trampoline",
]
