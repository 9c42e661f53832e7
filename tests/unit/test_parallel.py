"""Parallel execution (`lowering/parallel/`, `runtime/threads.py`): results identical
for every thread count, the cost model, the thread-count API, errors raised inside
parallel bodies, re-entrancy, concurrent callers, fork, interpreter exit and no
leaked threads."""

from __future__ import annotations

import ctypes
import io
import itertools
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from runtime import host_io
from runtime import threads as pool
from xla_dialect.context import make_context, parse_module
from xla_tools import compile
from xla_tools.pipelines import lower_to_llvm
from xla_tools.xla_run import main as xla_run

ROOT = Path(__file__).resolve().parents[2]

ELEMENTWISE = """
func.func @main(%a: tensor<512x1024xf32>, %b: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %0 = xla.exponential %a : tensor<512x1024xf32>
  %1 = xla.tanh %b : tensor<512x1024xf32>
  %2 = xla.multiply %0, %1 : tensor<512x1024xf32>
  %3 = xla.add %2, %a : tensor<512x1024xf32>
  func.return %3 : tensor<512x1024xf32>
}
"""

TRANSCENDENTAL = """
func.func @main(%a: tensor<1048576xf32>, %b: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %0 = xla.sine %a : tensor<1048576xf32>
  %1 = xla.abs %b : tensor<1048576xf32>
  %2 = xla.log_plus_one %1 : tensor<1048576xf32>
  %3 = xla.multiply %0, %2 : tensor<1048576xf32>
  %4 = xla.exponential %3 : tensor<1048576xf32>
  %5 = xla.tanh %a : tensor<1048576xf32>
  %6 = xla.add %4, %5 : tensor<1048576xf32>
  func.return %6 : tensor<1048576xf32>
}
"""

REDUCTIONS = """
func.func @main(%a: tensor<2048x1024xf32>) -> (tensor<2048xf32>, tensor<1024xf32>) {
  %z = xla.constant dense<0.0> : tensor<f32>
  %e = xla.exponential %a : tensor<2048x1024xf32>
  %rows = xla.reduce(%e init: %z) applies xla.add across dimensions = [1] : (tensor<2048x1024xf32>, tensor<f32>) -> tensor<2048xf32>
  %cols = xla.reduce(%a init: %z) applies xla.add across dimensions = [0] : (tensor<2048x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  func.return %rows, %cols : tensor<2048xf32>, tensor<1024xf32>
}
"""

FULL_REDUCTIONS = """
func.func @main(%a: tensor<4194304xf32>, %b: tensor<4x1048576xf32>) -> (tensor<f32>, tensor<f32>, tensor<4xf32>) {
  %z = xla.constant dense<0.0> : tensor<f32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %s = xla.reduce(%a init: %z) applies xla.add across dimensions = [0] : (tensor<4194304xf32>, tensor<f32>) -> tensor<f32>
  %m = xla.reduce(%a init: %ninf) applies xla.maximum across dimensions = [0] : (tensor<4194304xf32>, tensor<f32>) -> tensor<f32>
  %r = xla.reduce(%b init: %z) applies xla.add across dimensions = [1] : (tensor<4x1048576xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %s, %m, %r : tensor<f32>, tensor<f32>, tensor<4xf32>
}
"""

SOFTMAX = """
func.func @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %z = xla.constant dense<0.0> : tensor<f32>
  %m = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [1] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  %mb = xla.broadcast_in_dim %m, dims = [0] : (tensor<1024xf32>) -> tensor<1024x1024xf32>
  %d = xla.subtract %x, %mb : tensor<1024x1024xf32>
  %e = xla.exponential %d : tensor<1024x1024xf32>
  %s = xla.reduce(%e init: %z) applies xla.add across dimensions = [1] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
  %sb = xla.broadcast_in_dim %s, dims = [0] : (tensor<1024xf32>) -> tensor<1024x1024xf32>
  %r = xla.divide %e, %sb : tensor<1024x1024xf32>
  func.return %r : tensor<1024x1024xf32>
}
"""

CONTRACTION = """
func.func @main(%a: tensor<384x256xf32>, %b: tensor<256x320xf32>) -> tensor<384x320xf32> {
  %0 = xla.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<384x256xf32>, tensor<256x320xf32>) -> tensor<384x320xf32>
  func.return %0 : tensor<384x320xf32>
}
"""

EDGES = """
func.func @main(%a: tensor<203x300xf32>, %b: tensor<300x157xf32>) -> tensor<203x157xf32> {
  %0 = xla.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<203x300xf32>, tensor<300x157xf32>) -> tensor<203x157xf32>
  func.return %0 : tensor<203x157xf32>
}
"""

BATCHED = """
func.func @main(%a: tensor<8x96x128xf32>, %b: tensor<8x128x160xf32>) -> tensor<8x96x160xf32> {
  %0 = xla.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x96x128xf32>, tensor<8x128x160xf32>) -> tensor<8x96x160xf32>
  func.return %0 : tensor<8x96x160xf32>
}
"""

CONVOLUTION = """
func.func @main(%x: tensor<4x66x66x32xf32>, %w: tensor<3x3x32x32xf32>) -> tensor<4x64x64x32xf32> {
  %0 = xla.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x66x66x32xf32>, tensor<3x3x32x32xf32>) -> tensor<4x64x64x32xf32>
  func.return %0 : tensor<4x64x64x32xf32>
}
"""

# Padded (border-only fills, then the interior copy), its output's zero fill fused into
# the accumulation by scf-fuse-parallel-loops; batch 1, so the loops run over rows and the
# copy (whose rows the window reads around its own) must stay a loop of its own.
DEPTHWISE = """
func.func @main(%x: tensor<1x64x64x32xf32>, %w: tensor<3x3x1x32xf32>) -> tensor<1x64x64x32xf32> {
  %0 = xla.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 32 : i64} : (tensor<1x64x64x32xf32>, tensor<3x3x1x32xf32>) -> tensor<1x64x64x32xf32>
  func.return %0 : tensor<1x64x64x32xf32>
}
"""

SMALL = """
func.func @main(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = xla.exponential %a : tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}
"""


def _f64(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(_f64(x) - _f64(x).max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    windows = np.lib.stride_tricks.sliding_window_view(_f64(x), (3, 3), axis=(1, 2))  # b, oh, ow, c, kh, kw
    return np.einsum("bhwcyx,yxco->bhwo", windows, _f64(w))


def _depthwise(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    padded = np.pad(_f64(x), ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))  # b, oh, ow, c, kh, kw
    return np.einsum("bhwcyx,yxc->bhwc", windows, _f64(w)[:, :, 0, :])


# name -> (program, NumPy reference of its results from its inputs, relative tolerance)
CASES: dict[str, tuple[str, Callable[..., tuple[np.ndarray, ...]], float]] = {
    "elementwise": (ELEMENTWISE, lambda a, b: (np.exp(_f64(a)) * np.tanh(_f64(b)) + a,), 1e-5),
    "transcendental": (
        TRANSCENDENTAL,
        lambda a, b: (np.exp(np.sin(_f64(a)) * np.log1p(np.abs(_f64(b)))) + np.tanh(_f64(a)),),
        1e-5,
    ),
    "reductions": (REDUCTIONS, lambda a: (np.exp(_f64(a)).sum(1), _f64(a).sum(0)), 1e-4),
    "full_reductions": (FULL_REDUCTIONS, lambda a, b: (_f64(a).sum(), _f64(a).max(), _f64(b).sum(1)), 1e-4),
    "softmax": (SOFTMAX, lambda x: (_softmax(x),), 1e-5),
    "contraction": (CONTRACTION, lambda a, b: (_f64(a) @ _f64(b),), 1e-4),
    "edges": (EDGES, lambda a, b: (_f64(a) @ _f64(b),), 1e-4),
    "batched": (BATCHED, lambda a, b: (_f64(a) @ _f64(b),), 1e-4),
    "convolution": (CONVOLUTION, lambda x, w: (_conv(x, w),), 1e-4),
    "depthwise": (DEPTHWISE, lambda x, w: (_depthwise(x, w),), 1e-4),
}


def _lowered(text: str) -> str:
    module = parse_module(text, "<test>", make_context())
    lower_to_llvm(module)
    return str(module)


def _inputs(text: str, seed: int = 0) -> list[np.ndarray]:
    """Standard normal inputs; uniform [0, 1) ones for the full reductions (sums far from 0)."""
    rng = np.random.default_rng(seed)
    f = compile(text, threads=1)
    shapes = [tuple(int(d) for d in t.get_shape()) for t in f.input_types]  # type: ignore[attr-defined]
    if text is FULL_REDUCTIONS:
        return [rng.random(s, dtype=np.float32) for s in shapes]
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def _results(text: str, args: list[np.ndarray], threads: int) -> list[np.ndarray]:
    out = compile(text, threads=threads)(*args)
    return list(out) if isinstance(out, tuple) else [out]


# ---------------------------------------------------------------------------
# The schedule and the thread count
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 7, 100, 1001])
@pytest.mark.parametrize("threads", [1, 2, 3, 16])
@pytest.mark.parametrize("grain", [1, 10, 1000])
def test_chunk_bounds_cover_the_range(n: int, threads: int, grain: int) -> None:
    bounds = pool.chunk_bounds(n, threads, grain)
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    assert 1 <= len(bounds) <= threads
    assert len(bounds) == 1 or all(hi - lo >= grain for lo, hi in bounds)


@pytest.mark.parametrize("n", [8, 33, 100, 1001, 10**6])
@pytest.mark.parametrize("threads", [2, 3, 16])
def test_tapered_chunks_cover_the_range_and_shrink(n: int, threads: int) -> None:
    bounds = pool.chunk_bounds(n, threads, 1, 4, taper=True)
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    sizes = [hi - lo for lo, hi in bounds]
    assert min(sizes) >= 1
    if n >= 4 * len(bounds):
        assert all(b <= a + 1 for a, b in itertools.pairwise(sizes)) and sizes[0] > sizes[-1]  # rounding


def test_default_threads_follows_affinity_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(pool.THREADS_ENV, raising=False)
    assert pool.default_threads() == len(os.sched_getaffinity(0))
    monkeypatch.setenv(pool.THREADS_ENV, "3")
    assert pool.default_threads() == 3
    assert compile(SMALL).threads == 3
    monkeypatch.setenv(pool.THREADS_ENV, "zero")
    with pytest.raises(ValueError, match="XLA_DIALECT_THREADS"):
        pool.default_threads()


def test_threads_argument_is_checked() -> None:
    assert compile(SMALL, threads=2).threads == 2
    assert compile(SMALL, threads=1) is not compile(SMALL, threads=2)
    assert compile(SMALL, threads=2) is compile(SMALL, threads=2)
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        compile(SMALL, threads=0)


# ---------------------------------------------------------------------------
# The compiled code
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_large_programs_call_the_pool(name: str) -> None:
    assert "@__xla_parallel_for" in _lowered(CASES[name][0])


def test_small_programs_do_not_call_the_pool() -> None:
    assert "__xla_parallel_for" not in _lowered(SMALL)


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_are_identical_for_every_thread_count(name: str) -> None:
    text = CASES[name][0]
    args = _inputs(text)
    reference = _results(text, args, threads=1)
    for threads in (2, 3, 4):
        for got, want in zip(_results(text, args, threads), reference, strict=True):
            assert got.tobytes() == want.tobytes(), f"threads={threads}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_are_right(name: str) -> None:
    text, reference, rtol = CASES[name]
    args = _inputs(text)
    for got, want in zip(_results(text, args, threads=2), reference(*args), strict=True):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * float(np.max(np.abs(want))))


def test_reassociate_false_keeps_the_sequential_order() -> None:
    """Without reassociation a full reduction is not split: the sum is the sequential one, bit for bit."""
    (a, _) = _inputs(FULL_REDUCTIONS)
    args = [a, np.zeros((4, 1 << 20), np.float32)]
    total = compile(FULL_REDUCTIONS, threads=2, reassociate=False)(*args)[0]
    assert total.tobytes() == np.cumsum(a, dtype=np.float32)[-1].tobytes()


@pytest.mark.parametrize("name", ["elementwise", "edges", "softmax"])
def test_one_executable_called_from_several_threads(name: str) -> None:
    """Callers share the pool, and each part of a contraction its own edge scratch."""
    text = CASES[name][0]
    f = compile(text, threads=2)
    inputs = [_inputs(text, seed) for seed in range(4)]
    expected = [compile(text, threads=1)(*args) for args in inputs]
    failures: list[str] = []

    def run(k: int) -> None:
        for _ in range(5):
            if f(*inputs[k]).tobytes() != expected[k].tobytes():
                failures.append(f"caller {k}")

    callers = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    assert not failures


def test_xla_run_takes_threads(tmp_path: Path) -> None:
    source = tmp_path / "m.mlir"
    source.write_text(SMALL)
    args = tmp_path / "in.npz"
    np.savez(args, arg0=np.zeros((64, 64), np.float32))
    out = io.StringIO()
    assert xla_run([str(source), "--inputs", str(args), "--threads", "2"], out) == 0
    assert "out0: float32[64, 64]" in out.getvalue()
    assert xla_run([str(source), "--inputs", str(args), "--threads", "0"], io.StringIO()) == 1


# ---------------------------------------------------------------------------
# The runtime
# ---------------------------------------------------------------------------


def _python_body(fn: object) -> tuple[object, int]:
    body = pool.BODY_PROTOTYPE(fn)  # type: ignore[arg-type]
    return body, ctypes.cast(body, ctypes.c_void_p).value or 0


def test_an_error_inside_a_chunk_reaches_the_caller() -> None:
    def fn(ctx: int, lo: int, hi: int) -> None:
        if lo > 0:
            host_io.record_error(host_io.HostIOError(f"chunk at {lo} failed"))

    body, address = _python_body(fn)
    host_io.begin_run()
    with pool.use_threads(2):
        pool.parallel_for(address, 0, 100, 1)
    with pytest.raises(host_io.HostIOError, match="chunk at 50 failed"):
        host_io.end_run()
    host_io.end_run()  # reported once
    del body


def test_nested_parallel_loops_run_inline() -> None:
    inner_calls: list[tuple[int, int, int]] = []
    outer_threads: list[int] = []

    def inner(ctx: int, lo: int, hi: int) -> None:
        inner_calls.append((threading.get_ident(), lo, hi))

    inner_body, inner_address = _python_body(inner)

    def outer(ctx: int, lo: int, hi: int) -> None:
        outer_threads.append(threading.get_ident())
        pool.parallel_for(inner_address, 0, 10, 1)

    outer_body, outer_address = _python_body(outer)
    with pool.use_threads(2):
        pool.parallel_for(outer_address, 0, 2, 1)
    assert len(outer_threads) == 2  # one chunk each (on the caller or a worker)
    assert sorted((lo, hi) for _, lo, hi in inner_calls) == [(0, 10), (0, 10)]  # each whole, inline
    assert {ident for ident, _, _ in inner_calls} == set(outer_threads)
    del inner_body, outer_body


def test_serial_when_one_thread_or_few_iterations() -> None:
    idents: list[int] = []

    def fn(ctx: int, lo: int, hi: int) -> None:
        idents.append(threading.get_ident())

    body, address = _python_body(fn)
    with pool.use_threads(1):
        pool.parallel_for(address, 0, 1000, 1)
    with pool.use_threads(4):
        pool.parallel_for(address, 0, 10, 8)  # fewer than two grains
    assert idents == [threading.get_ident()] * 2
    del body


def test_no_thread_leak_across_many_compiles() -> None:
    from runtime.jit import compile_llvm_ir

    ir = f"""
    declare void @{pool.PARALLEL_FOR_SYMBOL}(ptr, ptr, i64, i64)
    define internal void @body(ptr %ctx, i64 %lo, i64 %hi) {{
      ret void
    }}
    define void @run(i64 %n) {{
      call void @{pool.PARALLEL_FOR_SYMBOL}(ptr @body, ptr null, i64 %n, i64 1)
      ret void
    }}
    """
    before = threading.active_count()
    for k in range(1000):
        jit = compile_llvm_ir(ir, opt_level=0)
        with pool.use_threads(1 + k % 4):
            ctypes.CFUNCTYPE(None, ctypes.c_int64)(jit.get_function("run"))(8)
    assert threading.active_count() <= before + 3
    for k in range(20):  # whole programs, each compiled afresh
        text = SMALL.replace("64x64", f"{64 + k}x64")
        compile(text, threads=2)(np.zeros((64 + k, 64), np.float32))
    assert threading.active_count() <= before + 3


_EXIT_SCRIPT = """
import threading, numpy as np
from xla_tools import compile
f = compile('''{text}''', threads=2)
a = np.ones((512, 1024), np.float32)
f(a, a)
def busy():
    for _ in range(100):
        f(a, a)
threading.Thread(target=busy, daemon=True).start()
print("ok")
"""


def _run_script(script: str) -> subprocess.CompletedProcess[str]:
    """`script` (with the element-wise program in it) in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-c", script.format(text=ELEMENTWISE)],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def test_interpreter_exit_is_clean() -> None:
    """Exit while the pool has workers (and a daemon thread is still running code)."""
    result = _run_script(_EXIT_SCRIPT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert "Traceback" not in result.stderr and "Fatal" not in result.stderr


_FORK_SCRIPT = """
import os, numpy as np
from runtime import threads
from xla_tools import compile
f = compile('''{text}''', threads=2)
a = np.random.default_rng(0).standard_normal((512, 1024)).astype(np.float32)
expected = f(a, a)
assert threads.worker_count() >= 1
pid = os.fork()
if pid == 0:  # the child: the workers did not survive the fork; new ones are made
    code = 1
    try:
        code = 0 if f(a, a).tobytes() == expected.tobytes() and threads.worker_count() >= 1 else 2
    finally:
        os._exit(code)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_pool_works_after_fork() -> None:
    """In a fresh interpreter (forking the test process, which may hold JAX's threads, is unsafe)."""
    result = _run_script(_FORK_SCRIPT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0"
