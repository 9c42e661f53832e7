"""The native thread pool (`runtime/native_pool.py`): compiled code's parallel
regions split on the static schedule, the pool restarts after a shutdown, its OS
threads stay bounded, and the Python pool (`$XLA_DIALECT_POOL=python`) gives the
same results."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from runtime import native_pool
from runtime import threads as pool
from runtime.jit import compile_llvm_ir

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not native_pool.available(), reason="the native pool needs Linux on x86-64/AArch64")

# body(ctx, lo, hi): ctx[lo] = hi, after a short sleep so that the workers take their chunks.
IR = f"""
declare void @{pool.PARALLEL_FOR_SYMBOL}(ptr, ptr, i64, i64)
declare i32 @usleep(i32)
define internal void @body(ptr %ctx, i64 %lo, i64 %hi) {{
  call i32 @usleep(i32 300)
  %p = getelementptr i64, ptr %ctx, i64 %lo
  store i64 %hi, ptr %p
  ret void
}}
define void @run(ptr %ctx, i64 %n, i64 %grain) {{
  call void @{pool.PARALLEL_FOR_SYMBOL}(ptr @body, ptr %ctx, i64 %n, i64 %grain)
  ret void
}}
"""


@pytest.fixture(scope="module")
def run() -> object:
    jit = compile_llvm_ir(IR, opt_level=1)
    fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(jit.get_function("run"))
    fn.jit = jit  # type: ignore[attr-defined]  (keep the code alive)
    return fn


def _chunks(run: object, n: int, threads: int, grain: int) -> list[tuple[int, int]]:
    ctx = np.full(n + 1, -1, np.int64)
    with pool.use_threads(threads):
        run(ctx.ctypes.data, n, grain)  # type: ignore[operator]
    return [(lo, int(hi)) for lo, hi in enumerate(ctx) if hi >= 0]


def test_compiled_code_calls_the_native_pool(run: object) -> None:
    assert pool.pool_kind() == "native"
    assert pool._NATIVE is not None  # bound by the first JIT compile


@pytest.mark.parametrize(("n", "threads", "grain"), [(2, 2, 1), (7, 3, 2), (100, 4, 1), (5, 8, 1), (9, 2, 5), (1, 4, 1), (1000, 2, 3), (3000, 6, 1)])
def test_regions_follow_the_static_schedule(run: object, n: int, threads: int, grain: int) -> None:
    assert _chunks(run, n, threads, grain) == pool.chunk_bounds(n, threads, grain, native_pool.CHUNKS_PER_THREAD, taper=True)


def test_pool_restarts_after_shutdown(run: object) -> None:
    assert _chunks(run, 4, 2, 2) == [(0, 2), (2, 4)]
    assert pool.worker_count() >= 1
    pool.shutdown()
    assert pool.worker_count() == 0
    assert _chunks(run, 4, 2, 2) == [(0, 2), (2, 4)]
    assert pool.worker_count() >= 1


def test_os_threads_stay_bounded(run: object) -> None:
    """The workers are pthreads Python does not list: count the process's tasks."""
    _chunks(run, 8, 4, 1)
    before = len(os.listdir("/proc/self/task"))
    for k in range(200):
        _chunks(run, 8, 1 + k % 4, 1)
        if k % 50 == 0:
            pool.shutdown()
    assert len(os.listdir("/proc/self/task")) <= before


def test_unknown_pool_kind_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pool.POOL_ENV, "openmp")
    with pytest.raises(ValueError, match="XLA_DIALECT_POOL"):
        pool.pool_kind()


_POOLS_SCRIPT = """
import numpy as np
from xla_tools import compile
from runtime import threads
text = '''
func.func @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %t = xla.tanh %a : tensor<1024x1024xf32>
  %e = xla.exponential %b : tensor<1024x1024xf32>
  %m = xla.multiply %t, %e : tensor<1024x1024xf32>
  %r = xla.dot_general %m, %b, contracting_dims = [1] x [0] : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
'''
rng = np.random.default_rng(0)
a = rng.standard_normal((1024, 1024)).astype(np.float32)
b = rng.standard_normal((1024, 1024)).astype(np.float32)
out = [compile(text, threads=t)(a, b).tobytes() for t in (1, 2, 3)]
assert out[0] == out[1] == out[2]
import hashlib
print(threads.pool_kind(), hashlib.sha256(out[0]).hexdigest())
"""


def test_python_pool_gives_the_same_results() -> None:
    outputs = []
    for kind in ("native", "python"):
        env = {**os.environ, pool.POOL_ENV: kind, "XLA_DIALECT_CACHE": "0"}
        result = subprocess.run(
            [sys.executable, "-c", _POOLS_SCRIPT], check=False, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300
        )
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout.split())
    assert [o[0] for o in outputs] == ["native", "python"]
    assert outputs[0][1] == outputs[1][1]
