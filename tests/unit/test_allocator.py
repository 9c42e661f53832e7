"""The runtime's native caching allocator (`runtime/allocator.py`), its per-call log of
blocks (given back when a call fails), and its use by compiled code."""

from __future__ import annotations

import ctypes
import random
import resource
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from runtime import allocator, guard
from runtime.jit import compile_llvm_ir
from xla_tools import compile

MIB = 1 << 20


@pytest.fixture
def cache() -> Iterator[Any]:
    """The process's cache, empty, with its default limit restored afterwards."""
    guard.bind()
    native = allocator.native()
    allocator.trim()
    yield native
    native.set_limit(allocator.limit_bytes())
    allocator.trim()


def test_a_freed_block_serves_the_next_request_of_its_size(cache: Any) -> None:
    a = cache.alloc(64, MIB)
    assert a and a % 64 == 0
    cache.free(a)
    assert allocator.cached() == (MIB, 1)
    assert cache.alloc(64, MIB) == a
    assert allocator.cached() == (0, 0)
    b = cache.alloc(64, 2 * MIB)  # another size: a fresh block
    c = cache.alloc(4096, MIB)  # another alignment: a fresh block
    assert b not in (a, 0) and c not in (a, b, 0) and c % 4096 == 0
    for block in (a, b, c):
        cache.free(block)
    assert allocator.cached() == (4 * MIB, 3)
    allocator.trim()
    assert allocator.cached() == (0, 0)


def test_the_cache_is_bounded_and_evicts_the_oldest(cache: Any) -> None:
    cache.set_limit(3 * MIB)
    blocks = [cache.alloc(64, MIB) for _ in range(5)]
    for block in blocks:
        cache.free(block)
    assert allocator.cached() == (3 * MIB, 3)
    kept = {cache.alloc(64, MIB) for _ in range(3)}
    assert kept == set(blocks[2:])  # the two freed first went back to the system
    for block in kept:
        cache.free(block)


def test_the_table_is_bounded(cache: Any) -> None:
    blocks = [cache.alloc(64, 4096 * (1 + i)) for i in range(allocator.SLOTS + 10)]
    for block in blocks:
        cache.free(block)
    assert allocator.cached()[1] == allocator.SLOTS


def test_unknown_pointers_go_to_free(cache: Any) -> None:
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    for size in (100, 1 << 17, 1 << 22):  # a heap chunk and two mapped ones
        cache.free(libc.malloc(size))  # not the cache's: freed, never cached
    assert allocator.cached() == (0, 0)


def test_a_block_freed_twice_is_not_cached_twice(cache: Any) -> None:
    a = cache.alloc(64, MIB)
    cache.free(a)
    assert allocator.cached() == (MIB, 1)
    assert cache.alloc(64, MIB) == a  # the check word is back: freeing it caches it again
    cache.free(a)
    assert allocator.cached() == (MIB, 1)


CALLS_IR = """
declare ptr @__xla_alloc(i64, i64)
declare void @__xla_free(ptr)
declare void @__xla_alloc_failed(i64)
declare i64 @__xla_guarded_body(ptr, ptr, i64, i64)

; ctx[0] = a block that outlives the chunk (a nested return point)
define void @keep(ptr %ctx, i64 %lo, i64 %hi) {
  %p = call ptr @__xla_alloc(i64 64, i64 1048576)
  store ptr %p, ptr %ctx
  ret void
}

; two blocks, one freed, then a failure: both the live one and the nested chunk's go back
define void @fails(ptr %ctx) {
  %a = call ptr @__xla_alloc(i64 64, i64 2097152)
  %b = call ptr @__xla_alloc(i64 64, i64 3145728)
  call void @__xla_free(ptr %a)
  %r = call i64 @__xla_guarded_body(ptr @keep, ptr %ctx, i64 0, i64 1)
  call void @__xla_alloc_failed(i64 12345)
  unreachable
}

; a block that outlives the call: nobody's afterwards, freed later by its address
define void @returns(ptr %ctx) {
  %r = call i64 @__xla_guarded_body(ptr @keep, ptr %ctx, i64 0, i64 1)
  ret void
}
"""


@pytest.fixture(scope="module")
def calls() -> Any:
    return compile_llvm_ir(CALLS_IR, opt_level=0)


def test_a_failed_call_gives_its_blocks_back(cache: Any, calls: Any) -> None:
    run = guard.trampoline(1)
    ctx = np.zeros(1, np.int64)
    for _ in range(3):  # the same blocks each time: nothing is lost
        assert run(calls.get_function("fails"), ctx.ctypes.data) == 12345
        guard.failure_message(12345)  # (forget the site)
        assert allocator.cached() == (6 * MIB, 3)
    assert run(calls.get_function("returns"), ctx.ctypes.data) == guard.NOT_FAILED
    assert allocator.cached() == (5 * MIB, 2)  # the kept block is live
    cache.free(int(ctx[0]))
    assert allocator.cached() == (6 * MIB, 3)


def test_threads_never_share_a_block(cache: Any) -> None:
    """Four Python threads allocate and free at once (ctypes lets go of the GIL): each
    block a thread holds stays its own."""
    errors: list[str] = []

    def work(tag: int) -> None:
        rng = random.Random(tag)
        held: list[tuple[int, int]] = []
        for _ in range(2000):
            if held and (len(held) > 3 or rng.random() < 0.5):
                address, size = held.pop(rng.randrange(len(held)))
                words = (ctypes.c_int64 * (size // 8)).from_address(address)
                if words[0] != tag or words[-1] != tag:
                    errors.append(f"thread {tag}: block {address:#x} was overwritten")
                cache.free(address)
            else:
                size = rng.choice((1 << 16, 1 << 17, 3 << 16))
                address = cache.alloc(64, size)
                words = (ctypes.c_int64 * (size // 8)).from_address(address)
                words[0] = words[-1] = tag
                held.append((address, size))
        for address, _ in held:
            cache.free(address)

    workers = [threading.Thread(target=work, args=(tag,)) for tag in range(1, 5)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors[:3]
    allocator.trim()
    assert allocator.cached() == (0, 0)


def test_compiled_calls_reuse_their_buffers() -> None:
    """A matmul packs its operands into 256 KiB panels: after the first call, no
    page faults (each call would fault ~128 pages in without the cache)."""
    text = """func.func @main(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = xla.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}"""
    f = compile(text)
    rng = np.random.default_rng(0)
    a, b = (rng.integers(-3, 4, (256, 256)).astype(np.float32) for _ in range(2))
    out = np.empty((256, 256), np.float32)
    f(a, b, out=[out])
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(5):
        f(a, b, out=[out])
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults < 5 * 16
    np.testing.assert_array_equal(out, a @ b)
