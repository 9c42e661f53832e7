"""A native caching allocator for the large buffers of compiled code.

Every call of a program allocates its intermediates and the packed panels of its
contractions. glibc serves a large request with a fresh `mmap`, so each call
pays one page fault per 4 KiB page it touches (a 4 MiB buffer: about 1,000
faults, a millisecond). `convert-memref-to-llvm` therefore lowers the
allocation of a buffer of at least `LARGE_ALLOCATION` bytes to
`__xla_alloc(alignment, size)` and its deallocation to `__xla_free(ptr)`, which
this module binds to a cache: a freed block is kept, keyed by its size and
alignment, and handed out again to the next request of the same kind, whose
pages are already mapped.

The cache is LLVM IR compiled once per process (as the thread pool is,
`runtime/native_pool.py`): a Python callback cost 8-14 us per allocate/free pair
(the GIL, a lock, dictionaries), serial time that a two-thread call of an MLP
training step paid 16 times.

* A block is `HEADER` bytes of bookkeeping followed by the buffer: the address
  `aligned_alloc` returned, the size and alignment, the links of the list of
  blocks live under one return point, and last, right before the buffer's chunk
  header would be, the check word (the buffer's address xor `MAGIC`; zero while
  the block is cached). `__xla_free` of an address whose check word does not
  match (a pointer the cache did not hand out, or one freed twice) passes it to
  `free`: it reads only the 16 bytes before the address, where every pointer of
  the malloc family has its chunk header, so a foreign pointer is never read
  beyond its own allocation's bookkeeping.
* Free blocks wait in a table of `SLOTS` entries; beyond
  `$XLA_DIALECT_ALLOCATOR_CACHE_MB` (default 1024) MiB of free blocks, or when
  the table is full, the oldest is returned to the system. A request the system
  refuses is retried once after every cached block is given back.
* One spin lock guards the table and the lists (an allocation holds it for a
  scan of the table, well under a microsecond): calls from several threads,
  compiled code's workers included, never interleave.
* **Per call log.** Compiled code checks every allocation: on null it calls
  `__xla_alloc_failed(size)`, which jumps back to the innermost return point of
  its thread (`runtime/guard.py`: the entry's trampoline, or the chunk of a
  parallel loop that failed). Each return point holds the head of a list, and a
  block joins the list of its thread's innermost return point when it is handed
  out (and leaves it when it is freed). The trampoline gives back what is left on
  its list when it is jumped to (`__xla_blocks_release`), and passes it to the
  enclosing return point when it returns (`__xla_blocks_adopt`): the buffers of a
  failed call are never lost, on the calling thread nor on a worker.
* After `fork`, the child's lock is reset (a thread that held it does not exist
  there). `trim()` returns every cached block to the system.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from typing import Any

import llvmlite.binding as llvm_binding

from runtime.native_pool import spin_hint

LARGE_ALLOCATION = 1 << 16
"""Buffers of at least this many bytes go through the cache."""

ALLOC_SYMBOL = "__xla_alloc"
FREE_SYMBOL = "__xla_free"
ADOPT_SYMBOL = "__xla_blocks_adopt"
"""`void __xla_blocks_adopt(ptr list, ptr outer)`: move every block of one return
point's list to another (`outer` null: to no list)."""
RELEASE_SYMBOL = "__xla_blocks_release"
"""`void __xla_blocks_release(ptr list)`: give back every block of a list (a failed call)."""

ALLOCATION_FAILED_SYMBOL = "__xla_alloc_failed"
"""Compiled code calls it when an allocator returned null (`runtime/guard.py` binds it)."""

HEADER = 64
"""Bookkeeping bytes before each buffer (a cache line: the buffer keeps its alignment)."""

SLOTS = 256
"""How many free blocks the cache holds at most."""

MAGIC = 0x584C41424C4F434B
"""The check word of a live block is its buffer's address xor this ("XLABLOCK")."""

# Header fields, in i64 words from the header's start (the buffer's address - HEADER):
# 0 base, 1 size, 2 alignment, 3 owner (the list head it is on), 4 prev, 5 next,
# 6 check (the buffer's address - 16), 7 unused.
_IR = r"""
%slot = type {{ ptr, i64, i64, i64 }}

@lock = internal global i32 0, align 64
@slots = internal global [{slots} x %slot] zeroinitializer, align 64
@top = internal global i64 0, align 8
@cached = internal global i64 0, align 8
@count = internal global i64 0, align 8
@limit = internal global i64 {limit}, align 8  ; set by __xla_cache_configure at bind
@clock = internal global i64 0, align 8
@key = internal global i32 0, align 4
@offset = internal global i64 0, align 8

declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)
declare ptr @pthread_getspecific(i32)
{pause_decl}

define internal void @acquire() {{
entry:
  br label %try
try:
  %old = atomicrmw xchg ptr @lock, i32 1 acquire
  %got = icmp eq i32 %old, 0
  br i1 %got, label %done, label %wait
wait:
  {pause}
  %v = load atomic i32, ptr @lock monotonic, align 4
  %free = icmp eq i32 %v, 0
  br i1 %free, label %try, label %wait
done:
  ret void
}}

define internal void @release() {{
  store atomic i32 0, ptr @lock release, align 4
  ret void
}}

define internal ptr @field(ptr %user, i64 %word) alwaysinline {{
  %index = sub i64 %word, 8
  %p = getelementptr i64, ptr %user, i64 %index
  ret ptr %p
}}

; The index of the first slot that is empty (%empty) or holds a block of (size, align),
; or -1. Under the lock.
define internal i64 @find(i64 %size, i64 %align, i1 %empty) {{
entry:
  %top = load i64, ptr @top, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %done = icmp eq i64 %i, %top
  br i1 %done, label %none, label %body
body:
  %s = getelementptr [{slots} x %slot], ptr @slots, i64 0, i64 %i
  %user = load ptr, ptr %s, align 8
  %free = icmp eq ptr %user, null
  %sp = getelementptr %slot, ptr %s, i32 0, i32 1
  %ss = load i64, ptr %sp, align 8
  %ap = getelementptr %slot, ptr %s, i32 0, i32 2
  %sa = load i64, ptr %ap, align 8
  %m1 = icmp eq i64 %ss, %size
  %m2 = icmp eq i64 %sa, %align
  %kind = and i1 %m1, %m2
  %held = xor i1 %free, true
  %match = and i1 %held, %kind
  %hit = select i1 %empty, i1 %free, i1 %match
  br i1 %hit, label %found, label %next
next:
  %i1 = add i64 %i, 1
  br label %loop
found:
  ret i64 %i
none:
  ret i64 -1
}}

; A cached block of (size, align) taken out of the table, or null. Under the lock.
define internal ptr @take(i64 %size, i64 %align) {{
entry:
  %i = call i64 @find(i64 %size, i64 %align, i1 false)
  %none = icmp eq i64 %i, -1
  br i1 %none, label %miss, label %hit
hit:
  %s = getelementptr [{slots} x %slot], ptr @slots, i64 0, i64 %i
  %user = load ptr, ptr %s, align 8
  store ptr null, ptr %s, align 8
  %c = load i64, ptr @cached, align 8
  %c1 = sub i64 %c, %size
  store i64 %c1, ptr @cached, align 8
  %n = load i64, ptr @count, align 8
  %n1 = sub i64 %n, 1
  store i64 %n1, ptr @count, align 8
  ret ptr %user
miss:
  ret ptr null
}}

; Return the oldest cached block to the system; false if there is none. Under the lock.
define internal i1 @evict_oldest() {{
entry:
  %top = load i64, ptr @top, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %best = phi i64 [ -1, %entry ], [ %best1, %next ]
  %stamp = phi i64 [ -1, %entry ], [ %stamp1, %next ]
  %done = icmp eq i64 %i, %top
  br i1 %done, label %chosen, label %body
body:
  %s = getelementptr [{slots} x %slot], ptr @slots, i64 0, i64 %i
  %user = load ptr, ptr %s, align 8
  %empty = icmp eq ptr %user, null
  %tp = getelementptr %slot, ptr %s, i32 0, i32 3
  %t = load i64, ptr %tp, align 8
  %older = icmp ult i64 %t, %stamp
  %full = xor i1 %empty, true
  %better = and i1 %full, %older
  %best1 = select i1 %better, i64 %i, i64 %best
  %stamp1 = select i1 %better, i64 %t, i64 %stamp
  br label %next
next:
  %i1 = add i64 %i, 1
  br label %loop
chosen:
  %none = icmp eq i64 %best, -1
  br i1 %none, label %nothing, label %evict
evict:
  %s2 = getelementptr [{slots} x %slot], ptr @slots, i64 0, i64 %best
  %user2 = load ptr, ptr %s2, align 8
  %sp = getelementptr %slot, ptr %s2, i32 0, i32 1
  %size = load i64, ptr %sp, align 8
  store ptr null, ptr %s2, align 8
  %c = load i64, ptr @cached, align 8
  %c1 = sub i64 %c, %size
  store i64 %c1, ptr @cached, align 8
  %n = load i64, ptr @count, align 8
  %n1 = sub i64 %n, 1
  store i64 %n1, ptr @count, align 8
  %bp = call ptr @field(ptr %user2, i64 0)
  %base = load ptr, ptr %bp, align 8
  call void @free(ptr %base)
  ret i1 true
nothing:
  ret i1 false
}}

define internal void @evict_all() {{
entry:
  br label %loop
loop:
  %more = call i1 @evict_oldest()
  br i1 %more, label %loop, label %done
done:
  store i64 0, ptr @top, align 8
  ret void
}}

define internal void @evict_over_limit() {{
entry:
  br label %loop
loop:
  %c = load i64, ptr @cached, align 8
  %limit = load i64, ptr @limit, align 8
  %over = icmp ugt i64 %c, %limit
  br i1 %over, label %evict, label %done
evict:
  %more = call i1 @evict_oldest()
  br i1 %more, label %loop, label %done
done:
  ret void
}}

; Put a live block (off every list) into the table. Under the lock.
define internal void @put(ptr %user) {{
entry:
  %sp = call ptr @field(ptr %user, i64 1)
  %size = load i64, ptr %sp, align 8
  %ap = call ptr @field(ptr %user, i64 2)
  %align = load i64, ptr %ap, align 8
  %cp = call ptr @field(ptr %user, i64 6)
  store i64 0, ptr %cp, align 8  ; a cached block is nobody's: freeing it again goes to free()
  br label %find
find:
  %i = call i64 @find(i64 0, i64 0, i1 true)
  %none = icmp eq i64 %i, -1
  br i1 %none, label %grow, label %store
grow:
  %top = load i64, ptr @top, align 8
  %room = icmp ult i64 %top, {slots}
  br i1 %room, label %extend, label %full
extend:
  %top1 = add i64 %top, 1
  store i64 %top1, ptr @top, align 8
  br label %store
full:
  call i1 @evict_oldest()
  br label %find
store:
  %at = phi i64 [ %i, %find ], [ %top, %extend ]
  %slot = getelementptr [{slots} x %slot], ptr @slots, i64 0, i64 %at
  store ptr %user, ptr %slot, align 8
  %ssp = getelementptr %slot, ptr %slot, i32 0, i32 1
  store i64 %size, ptr %ssp, align 8
  %sap = getelementptr %slot, ptr %slot, i32 0, i32 2
  store i64 %align, ptr %sap, align 8
  %stp = getelementptr %slot, ptr %slot, i32 0, i32 3
  %clock = load i64, ptr @clock, align 8
  %clock1 = add i64 %clock, 1
  store i64 %clock1, ptr @clock, align 8
  store i64 %clock, ptr %stp, align 8
  %c = load i64, ptr @cached, align 8
  %c1 = add i64 %c, %size
  store i64 %c1, ptr @cached, align 8
  %n = load i64, ptr @count, align 8
  %n1 = add i64 %n, 1
  store i64 %n1, ptr @count, align 8
  call void @evict_over_limit()
  ret void
}}

; Put a block at the head of the list `%head` (null: on no list). Under the lock.
define internal void @link(ptr %user, ptr %head) {{
entry:
  %op = call ptr @field(ptr %user, i64 3)
  %pp = call ptr @field(ptr %user, i64 4)
  %np = call ptr @field(ptr %user, i64 5)
  store ptr %head, ptr %op, align 8
  store ptr null, ptr %pp, align 8
  %none = icmp eq ptr %head, null
  br i1 %none, label %alone, label %push
alone:
  store ptr null, ptr %np, align 8
  ret void
push:
  %first = load ptr, ptr %head, align 8
  store ptr %first, ptr %np, align 8
  store ptr %user, ptr %head, align 8
  %empty = icmp eq ptr %first, null
  br i1 %empty, label %done, label %back
back:
  %fp = call ptr @field(ptr %first, i64 4)
  store ptr %user, ptr %fp, align 8
  br label %done
done:
  ret void
}}

; Take a block off its list. Under the lock.
define internal void @unlink(ptr %user) {{
entry:
  %op = call ptr @field(ptr %user, i64 3)
  %head = load ptr, ptr %op, align 8
  %none = icmp eq ptr %head, null
  br i1 %none, label %done, label %cut
cut:
  %pp = call ptr @field(ptr %user, i64 4)
  %prev = load ptr, ptr %pp, align 8
  %np = call ptr @field(ptr %user, i64 5)
  %next = load ptr, ptr %np, align 8
  %first = icmp eq ptr %prev, null
  br i1 %first, label %at_head, label %after_prev
at_head:
  store ptr %next, ptr %head, align 8
  br label %fix_next
after_prev:
  %pnp = call ptr @field(ptr %prev, i64 5)
  store ptr %next, ptr %pnp, align 8
  br label %fix_next
fix_next:
  %last = icmp eq ptr %next, null
  br i1 %last, label %clear, label %relink
relink:
  %npp = call ptr @field(ptr %next, i64 4)
  store ptr %prev, ptr %npp, align 8
  br label %clear
clear:
  store ptr null, ptr %op, align 8
  br label %done
done:
  ret void
}}

; The list of this thread's innermost return point (`runtime/guard.py`), or null.
define internal ptr @current_list() {{
  %key = load i32, ptr @key, align 4
  %point = call ptr @pthread_getspecific(i32 %key)
  %none = icmp eq ptr %point, null
  %off = load i64, ptr @offset, align 8
  %head = getelementptr i8, ptr %point, i64 %off
  %r = select i1 %none, ptr null, ptr %head
  ret ptr %r
}}

define ptr @{alloc}(i64 %align, i64 %size) {{
entry:
  %list = call ptr @current_list()
  call void @acquire()
  %hit = call ptr @take(i64 %size, i64 %align)
  %found = icmp ne ptr %hit, null
  br i1 %found, label %track, label %fresh
fresh:
  call void @release()
  %small = icmp ult i64 %align, {header}
  %pad = select i1 %small, i64 {header}, i64 %align
  %padm1 = sub i64 %pad, 1
  %up = add i64 %size, %padm1
  %mask = xor i64 %padm1, -1
  %rounded = and i64 %up, %mask
  %total = add i64 %rounded, %pad
  %wrapped = icmp ult i64 %total, %size
  br i1 %wrapped, label %fail, label %system
system:
  %base = call ptr @aligned_alloc(i64 %pad, i64 %total)
  %null = icmp eq ptr %base, null
  br i1 %null, label %retry, label %made
retry:
  call void @acquire()
  call void @evict_all()
  call void @release()
  %base2 = call ptr @aligned_alloc(i64 %pad, i64 %total)
  %null2 = icmp eq ptr %base2, null
  br i1 %null2, label %fail, label %made
made:
  %b = phi ptr [ %base, %system ], [ %base2, %retry ]
  %new = getelementptr i8, ptr %b, i64 %pad
  %bp = call ptr @field(ptr %new, i64 0)
  store ptr %b, ptr %bp, align 8
  %sp = call ptr @field(ptr %new, i64 1)
  store i64 %size, ptr %sp, align 8
  %ap = call ptr @field(ptr %new, i64 2)
  store i64 %align, ptr %ap, align 8
  call void @acquire()
  br label %track
track:
  %user = phi ptr [ %hit, %entry ], [ %new, %made ]
  %addr = ptrtoint ptr %user to i64
  %check = xor i64 %addr, {magic}
  %cp = call ptr @field(ptr %user, i64 6)
  store i64 %check, ptr %cp, align 8
  call void @link(ptr %user, ptr %list)
  call void @release()
  ret ptr %user
fail:
  ret ptr null
}}

define void @{free}(ptr %user) {{
entry:
  %null = icmp eq ptr %user, null
  br i1 %null, label %done, label %check
check:
  %addr = ptrtoint ptr %user to i64
  %expected = xor i64 %addr, {magic}
  %cp = call ptr @field(ptr %user, i64 6)
  %word = load i64, ptr %cp, align 8
  %ours = icmp eq i64 %word, %expected
  br i1 %ours, label %cache, label %foreign
foreign:
  call void @free(ptr %user)
  br label %done
cache:
  call void @acquire()
  call void @unlink(ptr %user)
  call void @put(ptr %user)
  call void @release()
  br label %done
done:
  ret void
}}

; Empty a return point's list: each block goes to the list `%outer` (null: to none),
; or with %give_back into the table.
define internal void @drain(ptr %list, ptr %outer, i1 %give_back) {{
entry:
  call void @acquire()
  %first = load ptr, ptr %list, align 8
  br label %loop
loop:
  %user = phi ptr [ %first, %entry ], [ %next, %moved ]
  %end = icmp eq ptr %user, null
  br i1 %end, label %done, label %body
body:
  %np = call ptr @field(ptr %user, i64 5)
  %next = load ptr, ptr %np, align 8
  br i1 %give_back, label %cache, label %relink
cache:
  %op = call ptr @field(ptr %user, i64 3)
  store ptr null, ptr %op, align 8
  call void @put(ptr %user)
  br label %moved
relink:
  call void @link(ptr %user, ptr %outer)
  br label %moved
moved:
  br label %loop
done:
  store ptr null, ptr %list, align 8
  call void @release()
  ret void
}}

define void @{adopt}(ptr %list, ptr %outer) {{
  call void @drain(ptr %list, ptr %outer, i1 false)
  ret void
}}

define void @{release_blocks}(ptr %list) {{
  call void @drain(ptr %list, ptr null, i1 true)
  ret void
}}

define void @__xla_cache_configure(i32 %key, i64 %offset, i64 %limit) {{
  store i32 %key, ptr @key, align 4
  store i64 %offset, ptr @offset, align 8
  call void @acquire()
  store i64 %limit, ptr @limit, align 8
  call void @evict_over_limit()
  call void @release()
  ret void
}}

define void @__xla_cache_trim() {{
  call void @acquire()
  call void @evict_all()
  call void @release()
  ret void
}}

; [cached bytes, cached blocks]
define void @__xla_cache_stats(ptr %out) {{
  call void @acquire()
  %c = load i64, ptr @cached, align 8
  %n = load i64, ptr @count, align 8
  call void @release()
  store i64 %c, ptr %out, align 8
  %p = getelementptr i64, ptr %out, i64 1
  store i64 %n, ptr %p, align 8
  ret void
}}

; In a forked child: a thread that held the lock does not exist there.
define void @__xla_cache_after_fork() {{
  store atomic i32 0, ptr @lock seq_cst, align 4
  ret void
}}
"""


def limit_bytes() -> int:
    """The most free bytes the cache keeps: `$XLA_DIALECT_ALLOCATOR_CACHE_MB` MiB (default 1024)."""
    try:
        return max(0, int(os.environ.get("XLA_DIALECT_ALLOCATOR_CACHE_MB", "1024"))) << 20
    except ValueError:
        return 1 << 30


def ir() -> str:
    """The cache's LLVM IR for this machine."""
    return _IR.format(
        slots=SLOTS,
        limit=0,
        header=HEADER,
        magic=MAGIC - (1 << 64) if MAGIC >= 1 << 63 else MAGIC,
        alloc=ALLOC_SYMBOL,
        free=FREE_SYMBOL,
        adopt=ADOPT_SYMBOL,
        release_blocks=RELEASE_SYMBOL,
        **spin_hint(),
    )


class _Native:
    """The compiled cache and the controls Python calls."""

    def __init__(self, key: int, list_offset: int, compile_ir: Callable[[str, int], Any]) -> None:
        # Unoptimized: 19 ms of code generation at the process's first compile instead of
        # 52, and an allocate/free pair still takes well under a microsecond.
        self.engine = compile_ir(ir(), 0)
        f = self.engine.get_function_address
        i64, ptr = ctypes.c_int64, ctypes.c_void_p
        self.addresses = {name: f(name) for name in (ALLOC_SYMBOL, FREE_SYMBOL, ADOPT_SYMBOL, RELEASE_SYMBOL)}
        self.alloc = ctypes.CFUNCTYPE(ptr, i64, i64)(self.addresses[ALLOC_SYMBOL])
        self.free = ctypes.CFUNCTYPE(None, ptr)(self.addresses[FREE_SYMBOL])
        self._configure = ctypes.CFUNCTYPE(None, ctypes.c_int32, i64, i64)(f("__xla_cache_configure"))
        self.trim = ctypes.CFUNCTYPE(None)(f("__xla_cache_trim"))
        self._stats = ctypes.CFUNCTYPE(None, ptr)(f("__xla_cache_stats"))
        self.after_fork = ctypes.CFUNCTYPE(None)(f("__xla_cache_after_fork"))
        self.key, self.list_offset = key, list_offset
        self._configure(key, list_offset, limit_bytes())

    def set_limit(self, limit: int) -> None:
        self._configure(self.key, self.list_offset, limit)

    def stats(self) -> tuple[int, int]:
        out = (ctypes.c_int64 * 2)()
        self._stats(ctypes.addressof(out))
        return out[0], out[1]


_LOCK = threading.Lock()
_NATIVE: _Native | None = None


def bind(key: int, list_offset: int, compile_ir: Callable[[str, int], Any]) -> None:
    """Compile the cache (once per process) and bind `__xla_alloc`, `__xla_free` and the
    list functions for the code compiled after it. `key`: the pthread key holding each
    thread's innermost return point; `list_offset`: where in a return point the head of
    its list of blocks is (`runtime/guard.py` owns both and calls this first);
    `compile_ir(ir, opt_level)`: its MCJIT engine for LLVM IR (`guard._compile`)."""
    global _NATIVE
    with _LOCK:
        if _NATIVE is not None:
            return
        native = _Native(key, list_offset, compile_ir)
        for name, address in native.addresses.items():
            llvm_binding.add_symbol(name, address)
        _NATIVE = native


def native() -> _Native:
    """The bound cache (`bind` must have run: `runtime/guard.bind` does it)."""
    if _NATIVE is None:
        raise RuntimeError("the allocator is not bound yet (runtime.guard.bind() binds it)")
    return _NATIVE


def trim() -> None:
    """Return every cached free block to the system."""
    if _NATIVE is not None:
        _NATIVE.trim()


def cached() -> tuple[int, int]:
    """The bytes and the number of blocks the cache holds free."""
    return _NATIVE.stats() if _NATIVE is not None else (0, 0)


def _after_fork_in_child() -> None:
    if _NATIVE is not None:
        _NATIVE.after_fork()


os.register_at_fork(after_in_child=_after_fork_in_child)


__all__ = [
    "ADOPT_SYMBOL",
    "ALLOCATION_FAILED_SYMBOL",
    "ALLOC_SYMBOL",
    "FREE_SYMBOL",
    "HEADER",
    "LARGE_ALLOCATION",
    "MAGIC",
    "RELEASE_SYMBOL",
    "SLOTS",
    "bind",
    "cached",
    "limit_bytes",
    "native",
    "trim",
]
