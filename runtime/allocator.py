"""A caching allocator for the large buffers of compiled code.

Every call of a program allocates its intermediates and the packed panels of its
contractions. glibc serves a large request with a fresh `mmap`, so each call
pays one page fault per 4 KiB page it touches (a 4 MiB buffer: about 1,000
faults, a millisecond). `convert-memref-to-llvm` therefore lowers the
allocation of a buffer of at least `LARGE_ALLOCATION` bytes to
`__xla_alloc(alignment, size)` and its deallocation to `__xla_free(ptr)`, which
this module binds (process-wide, as `host_io` binds its call sites) to a cache:
a freed block is kept, keyed by its size, and handed out again to the next
request of the same size, whose pages are already mapped.

* Blocks come from `aligned_alloc`; a pointer the cache does not know is passed
  to `free` (so a deallocation can never corrupt the cache).
* The cache holds at most `$XLA_DIALECT_ALLOCATOR_CACHE_MB` (default 1024) MiB of
  free blocks; beyond that, freed blocks are returned to the system, oldest first.
* The callbacks run under the GIL (ctypes takes it for a callback), so they are
  safe from any thread; their cost (microseconds) is small beside the faults of
  the buffers they serve.
* `trim()` returns every cached block to the system; a request the system refuses
  is retried once after the cache is given back.
* Compiled code checks every allocation: on null it calls `__xla_alloc_failed(size)`,
  which jumps back to the entry's trampoline (`runtime/guard.py`); the blocks this
  cache handed to that call are logged per thread (`tracking`), so that they can be
  given back (`release_all`). `Executable` refuses beforehand a buffer larger than
  memory and swap, as a `MemoryError`.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

import llvmlite.binding as llvm_binding

LARGE_ALLOCATION = 1 << 16
"""Buffers of at least this many bytes go through the cache."""

ALLOC_SYMBOL = "__xla_alloc"
FREE_SYMBOL = "__xla_free"

_libc = ctypes.CDLL(None)
_libc.aligned_alloc.restype = ctypes.c_void_p
_libc.aligned_alloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
_libc.free.restype = None
_libc.free.argtypes = [ctypes.c_void_p]


def _limit() -> int:
    try:
        return max(0, int(os.environ.get("XLA_DIALECT_ALLOCATOR_CACHE_MB", "1024"))) << 20
    except ValueError:
        return 1 << 30


class BlockCache:
    """Free blocks by (size, alignment), evicted oldest first; live blocks by address."""

    def __init__(self) -> None:
        self.free_by_key: dict[tuple[int, int], list[int]] = {}
        self.free_order: OrderedDict[int, tuple[int, int]] = OrderedDict()
        """address -> (size, alignment) of each cached free block, in the order freed."""
        self.live: dict[int, tuple[int, int]] = {}
        self.cached_bytes = 0
        self.calls = threading.local()
        """`log`: the live blocks handed out on this thread during the current guarded call."""
        self.lock = threading.Lock()
        """ctypes releases the GIL around `aligned_alloc`/`free`: calls from several
        threads (executables run concurrently) must not interleave."""

    def allocate(self, alignment: int, size: int) -> int:
        with self.lock:
            return self._allocate(alignment, size)

    def release(self, address: int) -> None:
        with self.lock:
            self._release(address)

    @contextmanager
    def tracking(self) -> Iterator[set[int]]:
        """Log the blocks handed out on this thread until the block ends (those still
        live are added to an enclosing log: a nested call's results are the caller's)."""
        outer = getattr(self.calls, "log", None)
        log: set[int] = set()
        self.calls.log = log
        try:
            yield log
        finally:
            self.calls.log = outer
            if outer is not None:
                outer |= log

    def release_all(self, log: set[int]) -> None:
        """Give back the blocks of `log` that are still live (a call that failed)."""
        with self.lock:
            for address in list(log):
                if address in self.live:
                    self._release(address)
            log.clear()

    def trim(self) -> None:
        with self.lock:
            while self.free_order:
                self._evict_oldest()

    def _allocate(self, alignment: int, size: int) -> int:
        key = (size, alignment)
        blocks = self.free_by_key.get(key)
        if blocks:
            address = blocks.pop()
            del self.free_order[address]
            self.cached_bytes -= size
        else:
            address = _libc.aligned_alloc(alignment, size) or 0
            if not address and self.free_order:  # give the cached blocks back, then retry
                while self.free_order:
                    self._evict_oldest()
                address = _libc.aligned_alloc(alignment, size) or 0
        if address:
            self.live[address] = key
            log = getattr(self.calls, "log", None)
            if log is not None:
                log.add(address)
        return address

    def _release(self, address: int) -> None:
        log = getattr(self.calls, "log", None)
        if log is not None:
            log.discard(address)
        key = self.live.pop(address, None)
        if key is None:
            _libc.free(address)
            return
        self.free_by_key.setdefault(key, []).append(address)
        self.free_order[address] = key
        self.cached_bytes += key[0]
        limit = _limit()
        while self.cached_bytes > limit and self.free_order:
            self._evict_oldest()

    def _evict_oldest(self) -> None:
        address, key = self.free_order.popitem(last=False)
        self.free_by_key[key].remove(address)
        self.cached_bytes -= key[0]
        _libc.free(address)


CACHE = BlockCache()


@ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
def _alloc(alignment: int, size: int) -> int:
    return CACHE.allocate(alignment, size)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _free(address: int | None) -> None:
    if address:
        CACHE.release(address)


ALLOCATION_FAILED_SYMBOL = "__xla_alloc_failed"
"""Compiled code calls it when an allocator returned null (`runtime/guard.py` binds it)."""


def trim() -> None:
    """Return every cached free block to the system."""
    CACHE.trim()


llvm_binding.add_symbol(ALLOC_SYMBOL, ctypes.cast(_alloc, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]
llvm_binding.add_symbol(FREE_SYMBOL, ctypes.cast(_free, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]

__all__ = ["ALLOCATION_FAILED_SYMBOL", "ALLOC_SYMBOL", "CACHE", "FREE_SYMBOL", "LARGE_ALLOCATION", "BlockCache", "trim"]
