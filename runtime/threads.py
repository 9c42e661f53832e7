"""The thread pools that run the parallel loops of compiled code.

`convert-parallel-loops-to-calls` (`lowering/parallel/`) outlines the body of a
parallel loop into a function `void body(ptr ctx, i64 lo, i64 hi)` that runs the
iterations [lo, hi), and replaces the loop by one call

    __xla_parallel_for(body, ctx, n, grain)

which this module binds (process-wide, as `host_io` binds its call sites) before
the JIT links any module (`bind_parallel_for`): to the native pool
(`runtime/native_pool.py`: LLVM IR on pthreads and futexes, a few microseconds a
region) where it exists (Linux on x86-64/AArch64) and `$XLA_DIALECT_POOL` is not
`python`; else to the Python pool below, a ctypes callback that splits [0, n)
into `chunks` contiguous ranges, hands all but the first to the pool's workers,
runs the first on the calling thread and waits for the others. The bodies are
called through ctypes, which releases the GIL for the duration of the foreign
call, so the chunks run truly in parallel; the Python around them (a few
microseconds per chunk) is serialized. Its ~30-45 us a region is why it
multiplies the compiler's grain by `PYTHON_GRAIN_FACTOR`.

* Thread count. An `Executable` runs with `threads` threads (`compile(...,
  threads=N)`; default `default_threads()`: `$XLA_DIALECT_THREADS`, else the
  cores this process may use, `os.sched_getaffinity`). The count is set for the
  calling thread for the duration of the call (`use_threads`), so executables
  with different counts can run at once from different Python threads.
* Static schedule. `chunks = min(threads, n // grain)` (at least 1) and chunk `i`
  is `[i * n // chunks, (i + 1) * n // chunks)`: the boundaries depend only on `n`,
  the thread count and the grain the compiler chose. The iterations of a parallel
  loop are independent (the compiler only emits the call for such loops), so the
  results are the same, bit for bit, for every thread count. Which thread runs a
  chunk is not fixed: the caller runs the first, then every chunk no worker has
  started yet (on a loaded machine a worker may not get a core in time; the call
  then degrades to serial instead of waiting for it).
* Serial fallbacks: one thread, fewer than two chunks' worth of iterations, or a
  call from inside a body (a nested parallel region runs inline on the thread
  that reached it: no worker ever waits for another, so nothing can deadlock).
* The pool: `threads - 1` daemon workers, created on first use and grown to the
  largest count asked for, shared by every executable and every calling thread
  (one queue; a worker takes the next chunk of whichever call is waiting).
  Workers block on the queue when idle (no spinning, so they never compete with
  NumPy's or OpenBLAS's threads for the cores). At interpreter exit they are
  stopped and joined (`atexit`); in a forked child the pool is forgotten (its
  threads do not exist there) and made afresh on the next parallel loop
  (`os.register_at_fork`).
* Errors. A host op that fails inside a body records its `HostIOError` for the
  thread it ran on (`runtime.host_io`); each chunk's error is collected and the
  first one, in chunk order, is recorded for the calling thread, so the
  `Executable` raises it as it does for serial code. A Python exception in the
  machinery itself (it cannot unwind through compiled code) is recorded the same
  way.
* Cost of the Python pool (measured on the 2-core development machine,
  `XLA_DIALECT_POOL=python benchmarks/bench_parallel_overhead.py`): 1.5 us for a
  call that runs serially (the ctypes callback), ~30-45 us for a call split in two
  chunks (waking a worker, the GIL hand-offs, the wait).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

import llvmlite.binding as llvm_binding

from lowering.parallel import PARALLEL_FOR_SYMBOL
from runtime import guard, host_io, native_pool

THREADS_ENV = "XLA_DIALECT_THREADS"
"""Environment variable overriding the default thread count."""

POOL_ENV = "XLA_DIALECT_POOL"
"""`native` (the default where `native_pool.available()`) or `python`: which pool
compiled code calls."""

PYTHON_GRAIN_FACTOR = 8
"""The Python pool multiplies the grain the compiler chose (for the native pool's
few microseconds per region) by this: its ~30-45 us per region need ~8 times the
work per chunk to pay."""

BODY_PROTOTYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
"""`void body(ptr ctx, i64 lo, i64 hi)`: the outlined body of a parallel loop."""


def default_threads() -> int:
    """`$XLA_DIALECT_THREADS` when set to a positive integer, else the number of
    cores this process may run on."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value:
        try:
            n = int(value)
        except ValueError:
            raise ValueError(f"${THREADS_ENV} must be a positive integer, got {value!r}") from None
        if n < 1:
            raise ValueError(f"${THREADS_ENV} must be a positive integer, got {value!r}")
        return n
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_threads(threads: int | None) -> int:
    """`threads` validated (None: `default_threads()`)."""
    if threads is None:
        return default_threads()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    return threads


def chunk_bounds(n: int, threads: int, grain: int, per_thread: int = 1, taper: bool = False) -> list[tuple[int, int]]:
    """The chunks of `n` iterations: contiguous [lo, hi) ranges, at most
    `per_thread * threads` of them and each of at least `grain` iterations (one if
    `n` is smaller); a function of its arguments only. (The Python pool makes one
    per thread; the native pool `native_pool.CHUNKS_PER_THREAD`.)

    `taper` (the native pool's): the chunks shrink in claiming order, chunk `j` of
    `c` weighing `3c - 2j` (the first about 2.4 times the last at 8 chunks), so a
    thread that starts late (a worker woken from its futex) leaves a short last
    chunk, not a full one, to end the region; the smallest is then about half the
    mean, so about half a `grain` (uniform chunks below 4 iterations a chunk, so none
    is empty). Boundaries: `n * S(i) // S(c)` with
    `S(i) = 3c i - i (i - 1)`."""
    if n <= 0:
        return []
    chunks = max(1, min(per_thread * threads, n // max(1, grain)))
    if not taper or n < 4 * chunks:
        return [(i * n // chunks, (i + 1) * n // chunks) for i in range(chunks)]
    total = 2 * chunks * chunks + chunks
    cuts = [n * (3 * chunks * i - i * (i - 1)) // total for i in range(chunks + 1)]
    return [(cuts[i], cuts[i + 1]) for i in range(chunks)]


# ---------------------------------------------------------------------------
# Per-thread state
# ---------------------------------------------------------------------------


class _Local(threading.local):
    threads: int | None = None
    """The thread count of the executable this thread is running (None: default)."""
    depth: int = 0
    """How many bodies this thread is inside (> 0: parallel loops run inline)."""
    native: int = 0
    """What this thread's count in the native pool is set to (0: unset, the default)."""


_LOCAL = _Local()


def _set_native_threads(threads: int | None) -> None:
    """Set the calling thread's count in the native pool, unless it already is that: a
    count equal to the pool's default is left unset (the same thing), so calls of
    executables with the default count make no ctypes call (two cost ~5-13 us a call)."""
    native = _NATIVE
    if native is None:
        return
    want = 0 if threads is None or threads == native.default_threads else threads
    if _LOCAL.native != want:
        native.set_threads(want)
        _LOCAL.native = want


class use_threads:
    """Run the compiled code called in the `with` block with `threads` threads."""

    __slots__ = ("previous", "threads")

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.previous: int | None = None

    def __enter__(self) -> None:
        self.previous = _LOCAL.threads
        _LOCAL.threads = self.threads
        _set_native_threads(self.threads)

    def __exit__(self, *exc: object) -> None:
        _LOCAL.threads = self.previous
        _set_native_threads(self.previous)


# ---------------------------------------------------------------------------
# The pool
# ---------------------------------------------------------------------------


class _Call:
    """One `__xla_parallel_for` call: its chunks, who took each, and the wait for them."""

    __slots__ = ("bounds", "done", "errors", "lock", "remaining", "taken")

    def __init__(self, bounds: list[tuple[int, int]]) -> None:
        self.bounds = bounds
        self.taken = [False] * len(bounds)
        self.remaining = len(bounds)
        self.lock = threading.Lock()
        self.done = threading.Lock()
        self.done.acquire()
        self.errors: list[tuple[int, BaseException]] = []

    def take(self, index: int) -> bool:
        """Claim chunk `index` (False: another thread has it already)."""
        with self.lock:
            if self.taken[index]:
                return False
            self.taken[index] = True
            return True

    def finish(self, index: int, error: BaseException | None) -> None:
        with self.lock:
            if error is not None:
                self.errors.append((index, error))
            self.remaining -= 1
            if self.remaining == 0:
                self.done.release()


Task = tuple[Any, int, _Call, int]


def _run_chunk(body: Any, ctx: int, lo: int, hi: int) -> BaseException | None:
    """Run iterations [lo, hi) on this thread; the error it recorded, if any."""
    saved = host_io.take_error()
    _LOCAL.depth += 1
    try:
        _report_failure(body(ctx, lo, hi))
    except BaseException as err:  # noqa: BLE001 (a ctypes failure: report it, never unwind)
        host_io.record_error(host_io.HostIOError(f"parallel loop: {type(err).__name__}: {err}"))
    finally:
        _LOCAL.depth -= 1
    error = host_io.take_error()
    if saved is not None:
        host_io.record_error(saved)
    return error


def _worker(tasks: queue.SimpleQueue[Task | None]) -> None:
    while True:
        task = tasks.get()
        if task is None:
            return
        body, ctx, call, index = task
        if not call.take(index):
            continue  # the caller ran it while this worker was busy
        lo, hi = call.bounds[index]
        try:
            error = _run_chunk(body, ctx, lo, hi)
        except BaseException as err:  # noqa: BLE001
            error = err
        call.finish(index, error)


class Pool:
    """Worker threads taking chunks from one queue."""

    def __init__(self) -> None:
        self.tasks: queue.SimpleQueue[Task | None] = queue.SimpleQueue()
        self.workers: list[threading.Thread] = []
        self.lock = threading.Lock()

    def ensure(self, n_workers: int) -> None:
        """Start workers until there are at least `n_workers`."""
        if len(self.workers) >= n_workers:
            return
        with self.lock:
            while len(self.workers) < n_workers:
                worker = threading.Thread(
                    target=_worker, args=(self.tasks,), name=f"xla-worker-{len(self.workers)}", daemon=True
                )
                worker.start()
                self.workers.append(worker)

    def stop(self, timeout: float = 5.0) -> None:
        with self.lock:
            workers, self.workers = self.workers, []
            for _ in workers:
                self.tasks.put(None)
        for worker in workers:
            worker.join(timeout)


_POOL: Pool | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> Pool:
    global _POOL
    pool = _POOL
    if pool is None:
        with _POOL_LOCK:
            if _POOL is None:
                _POOL = Pool()
            pool = _POOL
    return pool


def worker_count() -> int:
    """How many worker threads the pools have now (0 before the first parallel loop)."""
    pool = _POOL
    count = len(pool.workers) if pool is not None else 0
    if _NATIVE is not None:
        count += _NATIVE.workers()
    return count


def shutdown() -> None:
    """Stop and join the workers (the next parallel loop starts new ones)."""
    global _POOL
    with _POOL_LOCK:
        pool, _POOL = _POOL, None
    if pool is not None:
        pool.stop()
    if _NATIVE is not None:
        _NATIVE.shutdown()


def _forget_pool_in_child() -> None:
    global _POOL, _POOL_LOCK
    _POOL = None
    _POOL_LOCK = threading.Lock()
    _LOCAL.depth = 0
    if _NATIVE is not None:
        _NATIVE.after_fork()  # (the forking thread's count in the pool's key survives the fork)


atexit.register(shutdown)
os.register_at_fork(after_in_child=_forget_pool_in_child)


# ---------------------------------------------------------------------------
# The entry point of compiled code
# ---------------------------------------------------------------------------

_BODIES: dict[int, Any] = {}


def _body(address: int) -> Any:
    """`body(ctx, lo, hi) -> int` running the loop body at `address` under a return
    point (`runtime/guard.py`): -1, or the size of an allocation that failed. No
    jump may cross this module's Python frames."""
    body = _BODIES.get(address)
    if body is None:
        guarded = guard.guarded_body()
        body = _BODIES[address] = lambda ctx, lo, hi: guarded(address, ctx, lo, hi)
    return body


def _report_failure(failed: int) -> None:
    """A chunk whose allocation failed: an error of the run (the call then raises)."""
    if failed != guard.NOT_FAILED:
        host_io.record_error(guard.OutOfMemoryError(guard.failure_message(failed)))


def parallel_for(body_address: int, ctx: int, n: int, grain: int) -> None:
    """Run `body(ctx, lo, hi)` over the chunks of [0, n) (see the module docstring)."""
    if n <= 0:
        return
    body = _body(body_address)
    threads = _LOCAL.threads
    if threads is None:
        threads = _LOCAL.threads = default_threads()
    if _LOCAL.depth > 0 or threads <= 1:
        bounds = [(0, n)]
    else:
        bounds = chunk_bounds(n, threads, grain)
    if len(bounds) == 1:
        _LOCAL.depth += 1
        try:
            _report_failure(body(ctx, 0, n))
        finally:
            _LOCAL.depth -= 1
        return
    pool = _pool()
    try:
        pool.ensure(len(bounds) - 1)
    except RuntimeError:  # no new threads (interpreter shutdown): the caller runs every chunk
        pass
    call = _Call(bounds)
    for index in range(1, len(bounds)):
        pool.tasks.put((body, ctx, call, index))
    # The caller runs the first chunk, then every chunk no worker has started
    # (a busy or descheduled worker never leaves the caller waiting for it to begin).
    for index in range(len(bounds)):
        if call.take(index):
            call.finish(index, _run_chunk(body, ctx, *bounds[index]))
    interrupted = _wait(call)
    if interrupted is not None:
        call.errors.append((len(bounds), interrupted))
    for _, error in sorted(call.errors, key=lambda e: e[0]):
        if isinstance(error, host_io.HostIOError):
            host_io.record_error(error)
        else:
            host_io.record_error(host_io.HostIOError(f"parallel loop: {type(error).__name__}: {error}"))


def _wait(call: _Call) -> BaseException | None:
    """Wait (releasing the GIL) until every chunk of `call` has run. Never returns
    early: the chunks use the caller's stack (the context), so a KeyboardInterrupt
    is held until they are done, and returned."""
    interrupted: BaseException | None = None
    while True:
        try:
            call.done.acquire()
            return interrupted
        except BaseException as err:  # noqa: BLE001
            interrupted = err


@ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
def _parallel_for_callback(body: int, ctx: int, n: int, grain: int) -> None:
    try:
        parallel_for(body, ctx, n, grain * PYTHON_GRAIN_FACTOR)
    except BaseException as err:  # noqa: BLE001 (nothing may unwind into compiled code)
        host_io.record_error(host_io.HostIOError(f"parallel loop: {type(err).__name__}: {err}"))


llvm_binding.add_symbol(PARALLEL_FOR_SYMBOL, ctypes.cast(_parallel_for_callback, ctypes.c_void_p).value)  # pyright: ignore[reportArgumentType]

_NATIVE: native_pool.NativePool | None = None
_BINDING = threading.RLock()
_READY = False
_BUILDING = False


def pool_kind() -> str:
    """`native` or `python`: the pool `$XLA_DIALECT_POOL` asks for, where available."""
    kind = os.environ.get(POOL_ENV, "").strip().lower() or "native"
    if kind not in ("native", "python"):
        raise ValueError(f"${POOL_ENV} must be 'native' or 'python', got {kind!r}")
    return "native" if kind == "native" and native_pool.available() else "python"


def bind_parallel_for(compile_ir: Callable[[str], Any]) -> None:
    """Bind `__xla_parallel_for` to the pool `pool_kind()` names (the JIT calls this
    before it links any module; the first call compiles the native pool with
    `compile_ir`, once per process). Without the native pool the Python callback
    stays bound."""
    global _NATIVE, _READY, _BUILDING
    if _READY:
        return
    with _BINDING:
        if _READY or _BUILDING:  # the pool's own module goes through the JIT too
            return
        _BUILDING = True
        try:
            if pool_kind() == "native":
                native_pool.spin_ns()  # a bad $XLA_DIALECT_SPIN_US is the user's error: raise it
                try:
                    native = native_pool.NativePool(default_threads(), compile_ir)
                except Exception:  # noqa: BLE001 (no native pool here: the Python pool serves)
                    return
                llvm_binding.add_symbol(PARALLEL_FOR_SYMBOL, native.parallel_for_address)
                _NATIVE = native
                _set_native_threads(_LOCAL.threads)
        finally:
            _BUILDING = False
            _READY = True


__all__ = [
    "BODY_PROTOTYPE",
    "PARALLEL_FOR_SYMBOL",
    "POOL_ENV",
    "PYTHON_GRAIN_FACTOR",
    "THREADS_ENV",
    "Pool",
    "bind_parallel_for",
    "check_threads",
    "chunk_bounds",
    "default_threads",
    "parallel_for",
    "pool_kind",
    "shutdown",
    "use_threads",
    "worker_count",
]

