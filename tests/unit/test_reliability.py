"""Hostile sizes and arrays fail cleanly (issue 17): no wrapped byte size, no allocation
that must fail, no write into a read-only `out=`, a bounded compile cache."""

from __future__ import annotations

import numpy as np
import pytest

from runtime import CompileError
from xla_tools import compile, compiler

ADD = """func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = xla.add %a, %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}"""


def huge_sum(count: int) -> str:
    return f"""func.func @main(%a: tensor<f32>) -> tensor<f32> {{
  %0 = xla.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<{count}xf32>
  %1 = xla.exponential %0 : tensor<{count}xf32>
  %c = xla.constant dense<0.0> : tensor<f32>
  %2 = xla.reduce(%1 init: %c) applies xla.add across dimensions = [0] : (tensor<{count}xf32>, tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}}"""


@pytest.mark.parametrize("count", [(1 << 62) + 1, 1 << 62])
def test_byte_size_beyond_64_bits_is_a_compile_error(count: int) -> None:
    with pytest.raises(CompileError, match=r"<string>:2:3: .* bytes, more than the 2\^63-1"):
        compile(huge_sum(count))


def test_allocation_beyond_memory_fails_before_running() -> None:
    f = compile(huge_sum(1 << 40))  # a 4 TiB intermediate
    assert f.largest_allocation >= 1 << 42
    with pytest.raises(MemoryError, match="needs a buffer of 4398046511104 bytes"):
        f(np.float32(1))


def test_read_only_out_is_refused() -> None:
    f = compile(ADD)
    out = np.zeros(3, np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match=r"out\[0\]: the array is read-only"):
        f(np.ones(3, np.float32), out=[out])
    assert not out.any()


def test_compile_cache_is_bounded_lru(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLA_DIALECT_CACHE_ENTRIES", "2")
    texts = [ADD + f"\n// module {i}" for i in range(3)]
    first = compile(texts[0])
    compile(texts[1])
    compile(texts[0])  # refreshes the first
    compile(texts[2])  # evicts the second
    keys = [key[0] for key in compiler._CACHE]  # pyright: ignore[reportPrivateUsage]
    assert texts[1] not in keys and texts[0] in keys and texts[2] in keys
    assert len(keys) <= 2
    np.testing.assert_array_equal(first(np.ones(3, np.float32)), np.full(3, 2, np.float32))


SWITCH = """func.func @main(%x: tensor<i32>) -> tensor<i32> {
  %f = tensor.extract %x[] : tensor<i32>
  %c = arith.constant 100 : i32
  cf.switch %f : i32, [
    default: ^bb1(%f : i32),
    42: ^bb1(%c : i32),
    7: ^bb1(%f : i32)
  ]
^bb1(%y : i32):
  %r = tensor.from_elements %y : tensor<i32>
  return %r : tensor<i32>
}"""


def test_branches_keep_their_successors() -> None:
    """A cf.switch reaching one block twice (valid MLIR) compiles: the xla-to-linalg
    copy of a branch pointed at the old, dropped blocks (a KeyError in the backend)."""
    f = compile(SWITCH, opt_level=0)
    assert int(f(np.int32(42))) == 100 and int(f(np.int32(7))) == 7 and int(f(np.int32(3))) == 3


def test_evicted_modules_free_their_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compile cache does not keep what it evicts alive: once an evicted module's
    executable is dropped, its LLVM engine (the native code) is freed. (The memory that
    still grows, ~65 KB per LLVM optimization, is llvmlite's: each PassBuilder allocates
    instrumentation callbacks it never frees; see README, Reliability.)"""
    import gc
    import weakref

    monkeypatch.setenv("XLA_DIALECT_CACHE_ENTRIES", "2")
    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    engines = []
    for i in range(5):
        f = compile(ADD + f"\n// engine {i}", opt_level=0)
        engines.append(weakref.ref(f._jit.engine))  # pyright: ignore[reportPrivateUsage]
        del f
    gc.collect()
    assert [e() is None for e in engines] == [True, True, True, False, False]


def test_non_ascii_function_names_compile() -> None:
    """A symbol name outside ASCII (`@"ÿ"`, valid MLIR) compiles and runs: llvmlite looks
    native symbols up as ASCII, so the module's own symbol spells the name in hex
    (a fuzzer finding: UnicodeEncodeError in the execution engine)."""
    text = ADD.replace("@main", '@"ÿdouble"')
    f = compile(text, "ÿdouble", opt_level=0)
    np.testing.assert_array_equal(f(np.ones(3, np.float32)), np.full(3, 2, np.float32))


def test_gather_collapsing_a_size_zero_slice_reads_in_bounds() -> None:
    """A collapsed dimension of slice size 0 is read at offset 0 with its start clamped
    as for size 1 (a fuzzer finding: canonicalize reshaped the empty slice, a
    ValueError, and the lowering clamped the start to the operand's end, reading past it)."""
    text = """func.func @main(%x: tensor<4x2xui32>, %k: tensor<1xi32>) -> tensor<2xui32> {
  %0 = "xla.gather"(%x, %k) <{dimension_numbers = #xla.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 0, 2>}> : (tensor<4x2xui32>, tensor<1xi32>) -> tensor<2xui32>
  func.return %0 : tensor<2xui32>
}"""
    f = compile(text, opt_level=0)
    x = np.arange(8, dtype=np.uint32).reshape(4, 2)
    for k, row in ((7, 3), (4, 3), (1, 1), (-2, 0)):
        np.testing.assert_array_equal(f(x, np.array([k], np.int32)), x[row])
