"""The runtime's caching allocator (`runtime/allocator.py`) and its use by compiled code."""

from __future__ import annotations

import resource

import numpy as np
import pytest

from runtime.allocator import BlockCache
from xla_tools import compile


def test_a_freed_block_serves_the_next_request_of_its_size() -> None:
    cache = BlockCache()
    a = cache.allocate(64, 1 << 20)
    assert a and a % 64 == 0
    cache.release(a)
    assert cache.cached_bytes == 1 << 20
    assert cache.allocate(64, 1 << 20) == a
    assert cache.cached_bytes == 0
    b = cache.allocate(64, 1 << 21)  # another size: a fresh block
    assert b != a
    cache.release(a)
    cache.release(b)
    cache.trim()
    assert cache.cached_bytes == 0 and not cache.free_order and not cache.live


def test_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLA_DIALECT_ALLOCATOR_CACHE_MB", "3")
    cache = BlockCache()
    blocks = [cache.allocate(64, 1 << 20) for _ in range(5)]
    for block in blocks:
        cache.release(block)
    assert cache.cached_bytes == 3 << 20
    # The oldest were returned to the system; the newest are kept.
    assert list(cache.free_order) == blocks[2:]
    cache.trim()


def test_unknown_pointers_go_to_free() -> None:
    import ctypes

    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    cache = BlockCache()
    cache.release(libc.malloc(1 << 17))  # not the cache's: freed, never cached
    assert cache.cached_bytes == 0 and not cache.free_order


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
