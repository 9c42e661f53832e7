"""The native thread pool: `__xla_parallel_for` written in LLVM IR against pthreads,
futexes and atomics, compiled once per process by llvmlite.

The Python pool (`runtime/threads.py`) costs ~30-45 us per parallel region (a
ctypes callback, a queue, GIL hand-offs), so only loops of ~160 us or more could
be split. This one forks and joins without Python: a region costs a few
microseconds when the workers are awake, ~10-20 us when one must be woken from
its futex, so regions of ~10-20 us of work are worth splitting.

* A region (`__xla_parallel_for(body, ctx, n, grain)`): `chunks = min(n / grain,
  CHUNKS_PER_THREAD * threads)`, shrinking in claiming order (chunk `j` weighs
  `3 chunks - 2 j`, `threads.chunk_bounds(..., taper=True)`: a worker that wakes
  late leaves the caller a short last chunk, not a full one); the chunks are
  claimed in order by whichever thread is free. The iterations of a parallel loop are independent, so the
  results do not depend on the chunks nor on who runs them. The
  caller publishes the job (body, ctx, n) and a ticket `(generation << 32) |
  (chunks << 16) | next`, bumps the generation (a futex word the idle workers
  wait on), then claims chunks from the ticket like any worker (compare-and-swap;
  the generation in the ticket keeps a late worker of an earlier region from
  claiming in this one), and waits until every chunk is done (spinning briefly,
  then on a futex). A chunk is always finished by whoever claimed it, so a worker
  that has no core in time only means the caller runs more chunks itself.
* Each chunk runs under a return point (`__xla_guarded_body`, `runtime/guard.py`):
  an allocation that fails in it ends the chunk, the chunks not yet started are
  skipped, and once the region is over its caller reports the failure
  (`__xla_alloc_failed`), which returns to the entry's trampoline as a
  `MemoryError`. A jump never leaves a thread nor a region still running.
* One region at a time: the pool is taken with a try-lock. A region started while
  the pool is busy (a nested loop inside a body, or a second Python thread calling
  compiled code at the same time) runs serially on the thread that reached it: no
  thread ever waits for a pool it is part of (no deadlock) and the cores are never
  oversubscribed.
* The thread count of the calling thread is a pthread key (`set_threads`, which
  `threads.use_threads` calls around each call of an executable); unset, the
  process default.
* Workers (`threads - 1`, created on first use, grown to the largest count asked
  for, at most `MAX_THREADS - 1`) block every signal, spin for `spin_ns` (default
  `SPIN_NS`, `$XLA_DIALECT_SPIN_US`) after a region, then sleep on the futex:
  back-to-back regions of one program find them awake, yet an idle pool costs no
  CPU (no fight with NumPy's or OpenBLAS's threads for the cores beyond those
  microseconds).
* `shutdown` (at interpreter exit) stops and joins them; `after_fork` forgets them
  in a forked child (they do not exist there); the next region starts new ones.

Linux only (futex); elsewhere `available()` is False and the Python pool serves.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

MAX_THREADS = 256
"""The most threads one region runs on (the caller and `MAX_THREADS - 1` workers)."""

CHUNKS_PER_THREAD = 4
"""A region is split into up to this many chunks per thread, claimed in turn: a
worker that loses its core (a loaded machine) or a slow chunk then holds up an
eighth of the region (two threads) rather than half of it."""

SPIN_NS = 50_000
"""How long an idle worker (or a waiting caller) spins before it sleeps on a futex."""

SPIN_ENV = "XLA_DIALECT_SPIN_US"

OPT_LEVEL = 0
"""LLVM's optimization level for the pool's own code, compiled at the first compile of a
process: 22 ms at 0 against 140 ms at 3 (of which nearly all is code generation), while
what a region costs is its futex calls and its atomics, not this code's instructions:
`bench_parallel_overhead.py` at two threads measured 1.5-2.5 us a region at 0 and 1.2-2.0
at 3 (three alternations of processes, the machine shared)."""

_SYS_FUTEX = {"x86_64": 202, "AMD64": 202, "aarch64": 98, "arm64": 98}
_PAUSE = {"x86_64": "call void @llvm.x86.sse2.pause()", "AMD64": "call void @llvm.x86.sse2.pause()"}


def spin_hint() -> dict[str, str]:
    """The IR a spin loop of this machine waits with (`pause`: the call, or nothing) and
    its declaration (`pause_decl`), as `str.format` fields (the pool's and the
    allocator's spin loops)."""
    pause = _PAUSE.get(platform.machine(), "")
    return {"pause": pause, "pause_decl": "declare void @llvm.x86.sse2.pause()" if pause else ""}

_IR = r"""
%timespec = type {{ i64, i64 }}

@gen = internal global i32 0, align 64
@ticket = internal global i64 0, align 64
@done = internal global i32 0, align 64
@waiting = internal global i32 0, align 64
@sleepers = internal global i32 0, align 64
@busy = internal global i32 0, align 64
@stop = internal global i32 0, align 64
@job_body = internal global ptr null, align 64
@job_ctx = internal global ptr null, align 8
@job_n = internal global i64 0, align 8
@nworkers = internal global i64 0, align 64
@tids = internal global [{max_workers} x i64] zeroinitializer, align 8
@key = internal global i32 0, align 4
@default_threads = internal global i64 1, align 8
@spin_ns = internal global i64 {spin_ns}, align 8
@failed = internal global i64 -1, align 64

declare i64 @__xla_guarded_body(ptr, ptr, i64, i64)
declare void @__xla_alloc_failed(i64)

declare i64 @syscall(i64, ...)
declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_join(i64, ptr)
declare i32 @pthread_key_create(ptr, ptr)
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare i32 @sigfillset(ptr)
declare i32 @pthread_sigmask(i32, ptr, ptr)
declare i32 @clock_gettime(i32, ptr)
declare i32 @sched_yield()
{pause_decl}

define internal i64 @now_ns() {{
  %ts = alloca %timespec, align 8
  call i32 @clock_gettime(i32 1, ptr %ts)
  %s = load i64, ptr %ts, align 8
  %p = getelementptr %timespec, ptr %ts, i32 0, i32 1
  %ns = load i64, ptr %p, align 8
  %m = mul i64 %s, 1000000000
  %r = add i64 %m, %ns
  ret i64 %r
}}

define internal void @futex_wait(ptr %addr, i32 %val) {{
  %v = zext i32 %val to i64
  call i64 (i64, ...) @syscall(i64 {sys_futex}, ptr %addr, i64 128, i64 %v, ptr null)
  ret void
}}

define internal void @futex_wake(ptr %addr) {{
  call i64 (i64, ...) @syscall(i64 {sys_futex}, ptr %addr, i64 129, i64 2147483647)
  ret void
}}

; Spin while *addr == val, for at most @spin_ns; true if it changed.
define internal i1 @spin_while_eq(ptr %addr, i32 %val) {{
entry:
  %budget = load i64, ptr @spin_ns, align 8
  %none = icmp sle i64 %budget, 0
  br i1 %none, label %out, label %start
start:
  %t0 = call i64 @now_ns()
  br label %loop
loop:
  %i = phi i64 [ 0, %start ], [ %i1, %next ]
  %v = load atomic i32, ptr %addr acquire, align 4
  %changed = icmp ne i32 %v, %val
  br i1 %changed, label %yes, label %relax
relax:
  {pause}
  %i1 = add i64 %i, 1
  %low = and i64 %i1, 63
  %check = icmp eq i64 %low, 0
  br i1 %check, label %clock, label %next
clock:
  %t = call i64 @now_ns()
  %elapsed = sub i64 %t, %t0
  %over = icmp sge i64 %elapsed, %budget
  br i1 %over, label %out, label %next
next:
  br label %loop
yes:
  ret i1 true
out:
  ret i1 false
}}

;  Where chunk %i of %ch of [0, %n) starts (`threads.chunk_bounds(..., taper=True)`):
; n * S(i) / S(ch) with S(i) = 3 ch i - i (i - 1), chunks shrinking in claiming
; order, computed as q S(i) + r S(i) / S(ch) (q, r: n divided by S(ch)) so that
; nothing overflows; uniform (i * n / ch) below 4 iterations a chunk.
define internal i64 @cut(i64 %n, i64 %ch, i64 %i) alwaysinline {{
entry:
  %ch4 = shl i64 %ch, 2
  %few = icmp ult i64 %n, %ch4
  br i1 %few, label %uniform, label %taper
uniform:
  %a = mul i64 %i, %n
  %u = udiv i64 %a, %ch
  ret i64 %u
taper:
  %ch2 = mul i64 %ch, %ch
  %ch2x2 = shl i64 %ch2, 1
  %total = add i64 %ch2x2, %ch
  %ch3 = mul i64 %ch, 3
  %lin = mul i64 %ch3, %i
  %im1 = sub i64 %i, 1
  %sq = mul i64 %i, %im1
  %s = sub i64 %lin, %sq
  %q = udiv i64 %n, %total
  %r = urem i64 %n, %total
  %qs = mul i64 %q, %s
  %rs = mul i64 %r, %s
  %rst = udiv i64 %rs, %total
  %c = add i64 %qs, %rst
  ret i64 %c
}}

; Claim and run chunks of region %g until none is left (or the region is over).
define internal void @run_chunks(i32 %g) {{
entry:
  %g64 = zext i32 %g to i64
  %tag = shl i64 %g64, 32
  br label %loop
loop:
  %t = load atomic i64, ptr @ticket acquire, align 8
  %ttag = and i64 %t, -4294967296
  %same = icmp eq i64 %ttag, %tag
  br i1 %same, label %check, label %out
check:
  %idx = and i64 %t, 65535
  %ch.s = lshr i64 %t, 16
  %ch = and i64 %ch.s, 65535
  %left = icmp ult i64 %idx, %ch
  br i1 %left, label %claim, label %out
claim:
  %t1 = add i64 %t, 1
  %r = cmpxchg ptr @ticket, i64 %t, i64 %t1 acq_rel acquire, align 8
  %ok = extractvalue {{ i64, i1 }} %r, 1
  br i1 %ok, label %run, label %loop
run:
  %body = load ptr, ptr @job_body, align 8
  %ctx = load ptr, ptr @job_ctx, align 8
  %n = load i64, ptr @job_n, align 8
  %lo = call i64 @cut(i64 %n, i64 %ch, i64 %idx)
  %idx1 = add i64 %idx, 1
  %hi = call i64 @cut(i64 %n, i64 %ch, i64 %idx1)
  %f0 = load atomic i64, ptr @failed monotonic, align 8
  %skip = icmp ne i64 %f0, -1
  br i1 %skip, label %count, label %call
call:
  %lost = call i64 @__xla_guarded_body(ptr %body, ptr %ctx, i64 %lo, i64 %hi)
  %bad = icmp ne i64 %lost, -1
  br i1 %bad, label %record, label %count
record:
  cmpxchg ptr @failed, i64 -1, i64 %lost seq_cst seq_cst, align 8
  br label %count
count:
  %old = atomicrmw add ptr @done, i32 1 seq_cst, align 4
  %new = add i32 %old, 1
  %ch32 = trunc i64 %ch to i32
  %last = icmp eq i32 %new, %ch32
  br i1 %last, label %notify, label %loop
notify:
  %w = load atomic i32, ptr @waiting seq_cst, align 4
  %asleep = icmp ne i32 %w, 0
  br i1 %asleep, label %wake, label %loop
wake:
  call void @futex_wake(ptr @done)
  br label %loop
out:
  ret void
}}

; %arg: the generation when it was created (a region published, or a shutdown,
; after that is new to it even if it starts late).
define internal ptr @worker(ptr %arg) {{
entry:
  %set = alloca [128 x i8], align 8
  call i32 @sigfillset(ptr %set)
  call i32 @pthread_sigmask(i32 0, ptr %set, ptr null)
  %g0.64 = ptrtoint ptr %arg to i64
  %g0 = trunc i64 %g0.64 to i32
  br label %loop
loop:
  %seen = phi i32 [ %g0, %entry ], [ %seen, %slept ], [ %seen, %spun ], [ %g, %ran ]
  %g = load atomic i32, ptr @gen acquire, align 4
  %new = icmp ne i32 %g, %seen
  br i1 %new, label %got, label %spin
spin:
  %changed = call i1 @spin_while_eq(ptr @gen, i32 %seen)
  br i1 %changed, label %spun, label %sleep
spun:
  br label %loop
sleep:
  atomicrmw add ptr @sleepers, i32 1 seq_cst, align 4
  call void @futex_wait(ptr @gen, i32 %seen)
  atomicrmw sub ptr @sleepers, i32 1 seq_cst, align 4
  br label %slept
slept:
  br label %loop
got:
  %s = load atomic i32, ptr @stop acquire, align 4
  %stopped = icmp ne i32 %s, 0
  br i1 %stopped, label %exit, label %work
work:
  call void @run_chunks(i32 %g)
  br label %ran
ran:
  br label %loop
exit:
  ret ptr null
}}

; Start workers until there are %need (the pool is held); how many there are.
define internal i64 @ensure(i64 %need) {{
entry:
  br label %loop
loop:
  %k = load i64, ptr @nworkers, align 8
  %few = icmp slt i64 %k, %need
  %room = icmp slt i64 %k, {max_workers}
  %go = and i1 %few, %room
  br i1 %go, label %create, label %out
create:
  %slot = getelementptr [{max_workers} x i64], ptr @tids, i64 0, i64 %k
  %gen = load atomic i32, ptr @gen acquire, align 4
  %gen64 = zext i32 %gen to i64
  %seen = inttoptr i64 %gen64 to ptr
  %rc = call i32 @pthread_create(ptr %slot, ptr null, ptr @worker, ptr %seen)
  %failed = icmp ne i32 %rc, 0
  br i1 %failed, label %out, label %grown
grown:
  %k1 = add i64 %k, 1
  store i64 %k1, ptr @nworkers, align 8
  br label %loop
out:
  %have = load i64, ptr @nworkers, align 8
  ret i64 %have
}}

define void @__xla_native_parallel_for(ptr %body, ptr %ctx, i64 %n, i64 %grain) {{
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %ret, label %count
count:
  %key = load i32, ptr @key, align 4
  %tls = call ptr @pthread_getspecific(i32 %key)
  %th.t = ptrtoint ptr %tls to i64
  %unset = icmp eq i64 %th.t, 0
  %dflt = load i64, ptr @default_threads, align 8
  %th = select i1 %unset, i64 %dflt, i64 %th.t
  %gsmall = icmp slt i64 %grain, 1
  %g1 = select i1 %gsmall, i64 1, i64 %grain
  %c0 = sdiv i64 %n, %g1
  %tmany = icmp sgt i64 %th, {max_workers}
  %th1 = select i1 %tmany, i64 {max_threads}, i64 %th
  %tc = mul i64 %th1, {per_thread}
  %lt = icmp slt i64 %c0, %tc
  %c = select i1 %lt, i64 %c0, i64 %tc
  %tfew = icmp slt i64 %c, %th1
  %t = select i1 %tfew, i64 %c, i64 %th1
  %one = icmp slt i64 %t, 2
  br i1 %one, label %serial, label %take
take:
  %r = cmpxchg ptr @busy, i32 0, i32 1 acquire monotonic, align 4
  %ok = extractvalue {{ i32, i1 }} %r, 1
  br i1 %ok, label %grow, label %serial
grow:
  %need = sub i64 %t, 1
  %have = call i64 @ensure(i64 %need)
  %alone = icmp slt i64 %have, 1
  br i1 %alone, label %release_serial, label %publish
release_serial:
  store atomic i32 0, ptr @busy release, align 4
  br label %serial
publish:
  store ptr %body, ptr @job_body, align 8
  store ptr %ctx, ptr @job_ctx, align 8
  store i64 %n, ptr @job_n, align 8
  store atomic i32 0, ptr @done monotonic, align 4
  store atomic i32 0, ptr @waiting monotonic, align 4
  store atomic i64 -1, ptr @failed monotonic, align 8
  %gold = load atomic i32, ptr @gen monotonic, align 4
  %gnew = add i32 %gold, 1
  %gn64 = zext i32 %gnew to i64
  %tag = shl i64 %gn64, 32
  %cs = shl i64 %c, 16
  %tk = or i64 %tag, %cs
  store atomic i64 %tk, ptr @ticket seq_cst, align 8
  store atomic i32 %gnew, ptr @gen seq_cst, align 4
  %sl = load atomic i32, ptr @sleepers seq_cst, align 4
  %any = icmp ne i32 %sl, 0
  br i1 %any, label %wake, label %mine
wake:
  call void @futex_wake(ptr @gen)
  br label %mine
mine:
  call void @run_chunks(i32 %gnew)
  %c32 = trunc i64 %c to i32
  br label %wait
wait:
  %d = load atomic i32, ptr @done seq_cst, align 4
  %fin = icmp eq i32 %d, %c32
  br i1 %fin, label %finish, label %spin
spin:
  %changed = call i1 @spin_while_eq(ptr @done, i32 %d)
  br i1 %changed, label %wait, label %sleep
sleep:
  store atomic i32 1, ptr @waiting seq_cst, align 4
  %d2 = load atomic i32, ptr @done seq_cst, align 4
  %fin2 = icmp eq i32 %d2, %c32
  br i1 %fin2, label %finish, label %block
block:
  call void @futex_wait(ptr @done, i32 %d2)
  br label %wait
finish:
  %size = load atomic i64, ptr @failed seq_cst, align 8
  store atomic i32 0, ptr @waiting monotonic, align 4
  store atomic i32 0, ptr @busy release, align 4
  %lost = icmp ne i64 %size, -1
  br i1 %lost, label %report, label %ret
report:
  ; a chunk's allocation failed (on any thread): report it here, on the
  ; caller's stack, now that no chunk runs (runtime/guard.py)
  call void @__xla_alloc_failed(i64 %size)
  unreachable
serial:
  call void %body(ptr %ctx, i64 0, i64 %n)
  br label %ret
ret:
  ret void
}}

define void @__xla_pool_init(i64 %threads, i64 %spin) {{
  call i32 @pthread_key_create(ptr @key, ptr null)
  store i64 %threads, ptr @default_threads, align 8
  store i64 %spin, ptr @spin_ns, align 8
  ret void
}}

define void @__xla_pool_configure(i64 %threads, i64 %spin) {{
  store i64 %threads, ptr @default_threads, align 8
  store i64 %spin, ptr @spin_ns, align 8
  ret void
}}

define i64 @__xla_pool_set_threads(i64 %threads) {{
  %key = load i32, ptr @key, align 4
  %old = call ptr @pthread_getspecific(i32 %key)
  %p = inttoptr i64 %threads to ptr
  call i32 @pthread_setspecific(i32 %key, ptr %p)
  %r = ptrtoint ptr %old to i64
  ret i64 %r
}}

define i64 @__xla_pool_workers() {{
  %k = load i64, ptr @nworkers, align 8
  ret i64 %k
}}

; Stop and join the workers; false (nothing done) if the pool stayed busy for
; %tries yields (a region running on a thread that cannot finish).
define i1 @__xla_pool_shutdown(i64 %tries) {{
entry:
  br label %take
take:
  %i = phi i64 [ 0, %entry ], [ %i1, %retry ]
  %r = cmpxchg ptr @busy, i32 0, i32 1 acquire monotonic, align 4
  %ok = extractvalue {{ i32, i1 }} %r, 1
  br i1 %ok, label %stop, label %retry
retry:
  call i32 @sched_yield()
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %tries
  br i1 %more, label %take, label %give_up
give_up:
  ret i1 false
stop:
  store atomic i32 1, ptr @stop seq_cst, align 4
  %g = load atomic i32, ptr @gen monotonic, align 4
  %g1 = add i32 %g, 1
  store atomic i32 %g1, ptr @gen seq_cst, align 4
  call void @futex_wake(ptr @gen)
  %k = load i64, ptr @nworkers, align 8
  br label %join
join:
  %j = phi i64 [ 0, %stop ], [ %j1, %joined ]
  %more.j = icmp slt i64 %j, %k
  br i1 %more.j, label %one, label %done
one:
  %slot = getelementptr [{max_workers} x i64], ptr @tids, i64 0, i64 %j
  %tid = load i64, ptr %slot, align 8
  call i32 @pthread_join(i64 %tid, ptr null)
  br label %joined
joined:
  %j1 = add i64 %j, 1
  br label %join
done:
  store i64 0, ptr @nworkers, align 8
  store atomic i32 0, ptr @stop seq_cst, align 4
  store atomic i32 0, ptr @busy release, align 4
  ret i1 true
}}

; In a forked child: the workers do not exist there.
define void @__xla_pool_after_fork() {{
  store i64 0, ptr @nworkers, align 8
  store atomic i32 0, ptr @sleepers seq_cst, align 4
  store atomic i32 0, ptr @waiting seq_cst, align 4
  store atomic i32 0, ptr @stop seq_cst, align 4
  store atomic i32 0, ptr @busy seq_cst, align 4
  ret void
}}
"""


def available() -> bool:
    """Whether this platform has the native pool (Linux on x86-64 or AArch64)."""
    return sys.platform.startswith("linux") and platform.machine() in _SYS_FUTEX


def spin_ns() -> int:
    """How long idle workers spin before sleeping: `$XLA_DIALECT_SPIN_US` (microseconds), else `SPIN_NS`."""
    value = os.environ.get(SPIN_ENV, "").strip()
    if value:
        try:
            return max(0, int(float(value) * 1000))
        except ValueError:
            raise ValueError(f"${SPIN_ENV} must be a number of microseconds, got {value!r}") from None
    return SPIN_NS


def ir() -> str:
    """The pool's LLVM IR for this machine."""
    return _IR.format(
        max_workers=MAX_THREADS - 1,
        max_threads=MAX_THREADS,
        per_thread=CHUNKS_PER_THREAD,
        spin_ns=SPIN_NS,
        sys_futex=_SYS_FUTEX.get(platform.machine(), 202),
        **spin_hint(),
    )


class NativePool:
    """The compiled pool: its entry point's address and the controls Python calls."""

    def __init__(self, default_threads: int, compile_ir: Callable[..., Any]) -> None:
        """`compile_ir`: the JIT's `compile_llvm_ir` (passed in: the JIT imports this module's users)."""
        self._jit: Any = compile_ir(ir(), opt_level=OPT_LEVEL)
        f = self._jit.get_function
        self.parallel_for_address: int = f("__xla_native_parallel_for")
        i64 = ctypes.c_int64
        self._init = ctypes.CFUNCTYPE(None, i64, i64)(f("__xla_pool_init"))
        self._configure = ctypes.CFUNCTYPE(None, i64, i64)(f("__xla_pool_configure"))
        self.set_threads = ctypes.CFUNCTYPE(i64, i64)(f("__xla_pool_set_threads"))
        """Set the calling thread's thread count (0: the default); returns the previous one."""
        self._workers = ctypes.CFUNCTYPE(i64)(f("__xla_pool_workers"))
        self._shutdown = ctypes.CFUNCTYPE(ctypes.c_bool, i64)(f("__xla_pool_shutdown"))
        self.after_fork = ctypes.CFUNCTYPE(None)(f("__xla_pool_after_fork"))
        self._init(default_threads, spin_ns())
        self.default_threads = default_threads
        """The count of a thread whose own count is unset (0)."""
        self._lock = threading.Lock()

    def configure(self, default_threads: int) -> None:
        self._configure(default_threads, spin_ns())
        self.default_threads = default_threads

    def workers(self) -> int:
        return int(self._workers())

    def shutdown(self, timeout: float = 2.0) -> bool:
        """Stop and join the workers (False: a region still running kept the pool
        busy for `timeout` seconds; they are then left alone)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self._shutdown(1000):
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.001)
            return True


__all__ = ["CHUNKS_PER_THREAD", "MAX_THREADS", "SPIN_ENV", "SPIN_NS", "NativePool", "available", "ir", "spin_hint", "spin_ns"]
