"""An allocation that fails in compiled code raises `MemoryError` in Python and the
process lives on (runtime/guard.py): on the calling thread, and inside a parallel
loop on either pool, whichever thread runs the chunk that fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from runtime import guard, host_io, threads
from runtime.jit import compile_llvm_ir

FAILED_ALLOCATION = """
import resource
import numpy as np
from xla_tools import compile
from tests.unit.test_reliability import huge_sum

f = compile(huge_sum(1 << 29))  # a 2 GiB intermediate: below memory and swap
small = compile(huge_sum(1 << 10))
with open("/proc/self/status") as status:
    vm = next(int(line.split()[1]) << 10 for line in status if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (vm + (256 << 20), vm + (256 << 20)))
for attempt in range(2):
    try:
        f(np.float32(1))
        print("returned")
    except MemoryError as err:
        print(type(err).__name__, err)
print("small", small(np.float32(0)))
print("again", compile(huge_sum(1 << 11))(np.float32(0)))
"""


def test_failed_allocation_raises_and_the_process_lives_on() -> None:
    """The address-space limit refuses 2 GiB: the call raises `MemoryError` naming the
    entry, the size and the op (twice: the buffers of the failed call were given back, and the
    trampoline is reusable), and the process still runs and compiles."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", FAILED_ALLOCATION], cwd=root, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    message = (  # the op is the exponential, line 3 (the broadcast is fused into it)
        "OutOfMemoryError @main: out of memory: compiled code could not allocate a buffer of 2147483648 bytes"
        " (2 GiB) for the op at <string>:3:3"
    )
    assert done.stdout.count(message) == 2, done.stdout
    assert "returned" not in done.stdout
    assert "small 1024.0" in done.stdout and "again 2048.0" in done.stdout


N = 64
LOOP_IR = f"""
declare void @__xla_parallel_for(ptr, ptr, i64, i64)
declare void @__xla_alloc_failed_at(i64, ptr)
@site = private constant [15 x i8] c"loop.mlir:12:3\\00"

; ctx: i64 [fail_at, mark_0 .. mark_{N - 1}]; iteration i sets mark_i, or fails if i == fail_at
define void @body(ptr %ctx, i64 %lo, i64 %hi) {{
entry:
  %fail_at = load i64, ptr %ctx
  br label %loop
loop:
  %i = phi i64 [ %lo, %entry ], [ %i1, %mark ]
  %more = icmp slt i64 %i, %hi
  br i1 %more, label %work, label %out
work:
  %bad = icmp eq i64 %i, %fail_at
  br i1 %bad, label %fail, label %mark
fail:
  call void @__xla_alloc_failed_at(i64 12345, ptr @site)
  unreachable
mark:
  %slot = getelementptr i64, ptr %ctx, i64 %i
  %slot1 = getelementptr i64, ptr %slot, i64 1
  store i64 1, ptr %slot1
  %i1 = add i64 %i, 1
  br label %loop
out:
  ret void
}}

define void @run(ptr %ctx) {{
  call void @__xla_parallel_for(ptr @body, ptr %ctx, i64 {N}, i64 1)
  ret void
}}
"""


@pytest.fixture(scope="module")
def loop() -> Any:
    return compile_llvm_ir(LOOP_IR, opt_level=0)


def _context(fail_at: int) -> np.ndarray:
    ctx = np.zeros(N + 1, np.int64)
    ctx[0] = fail_at
    return ctx


@pytest.mark.parametrize("fail_at", [0, N - 1, N // 2])
def test_a_failure_inside_a_parallel_region_returns_to_the_caller(loop: Any, fail_at: int) -> None:
    """Whichever thread's chunk fails (the first chunk is the caller's, the last
    usually a worker's), the region ends and the trampoline returns the size; the pool
    is free again: the next region runs every iteration."""
    run = guard.trampoline(1)
    address = loop.get_function("run")
    with threads.use_threads(2):
        ctx = _context(fail_at)
        assert run(address, ctx.ctypes.data) == 12345
        assert guard.failure_message(12345).endswith("for the op at loop.mlir:12:3")  # from any thread
        assert guard.failure_message(12345).endswith("GiB)")  # said once
        assert ctx[1 + fail_at] == 0
        ctx = _context(-1)
        assert run(address, ctx.ctypes.data) == guard.NOT_FAILED
        assert ctx[1:].tolist() == [1] * N


def test_the_python_pool_records_the_failure(loop: Any) -> None:
    """The Python pool runs each chunk under its own return point (no jump crosses its
    frames): the failure becomes the run's error and the other iterations finish."""
    body = loop.get_function("body")
    ctx = _context(5)
    host_io.begin_run()
    with threads.use_threads(2):
        threads.parallel_for(body, ctx.ctypes.data, N, 1)
    error = host_io.take_error()
    assert isinstance(error, MemoryError) and "12345 bytes" in str(error)
    assert str(error).endswith("for the op at loop.mlir:12:3")
    assert ctx[1 + 5] == 0 and ctx[1 + N - 1] == 1


def test_a_thread_without_a_return_point_still_stops_with_a_message(loop: Any) -> None:
    """Code called without a trampoline (a raw function pointer) cannot come back:
    the failure is reported and the process ends with status 1, never a SIGSEGV."""
    script = (
        "import ctypes, numpy as np\n"
        "from runtime.jit import compile_llvm_ir\n"
        "from tests.unit.test_allocation_failure import LOOP_IR, _context\n"
        "m = compile_llvm_ir(LOOP_IR, opt_level=0)\n"
        "ctx = _context(3)\n"
        "ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)(m.get_function('body'))(ctx.ctypes.data, 0, 8)\n"
        "print('returned')\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1 and "returned" not in done.stdout, done.stderr[-2000:]
    assert "out of memory: compiled code could not allocate a buffer of 12345 bytes" in done.stderr
    assert "for the op at loop.mlir:12:3" in done.stderr


def test_the_runtimes_own_calls_of_compiled_code_raise(loop: Any) -> None:
    """Compiled code the runtime calls from Python (collective combiners, run_parallel's
    programs) runs through `guard.guarded`: a failure raises there, in Python, rather
    than jumping over the Python frames to the entry's return point."""
    run = guard.guarded(loop.get_function("run"), 1, "combiner")
    with pytest.raises(MemoryError, match="@combiner: out of memory: .* 12345 bytes .* for the op at loop.mlir:12:3$"):
        run(_context(2).ctypes.data)
    ctx = _context(-1)
    run(ctx.ctypes.data)
    assert ctx[1:].tolist() == [1] * N
