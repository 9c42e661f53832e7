"""all_reduce across processes: a compiled `xla.all_reduce` (sum, f32) against
mpi4py's own `Allreduce` on the same buffers (needs the `mpi` extra).

    python benchmarks/bench_collectives.py [--processes 4] [--sizes 1,16,64] [--repeats 20]

starts itself under `mpiexec -n 4` (one replica per process). Each rank
compiles `all_reduce` of an f32 vector of each size (MB), checks that its
result equals mpi4py's, then times both, interleaved and in alternating order,
each call after a barrier; a repetition's time is the slowest rank's. The
table gives the median and the minimum of each, and ours/mpi4py (target ≤ 1.2).
Ours is the whole `Executable` call: argument checks, the compiled entry, the
ctypes callback into the runtime and `MPI_Allreduce` on the operand's and the
result's own buffers (no copy).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

import numpy as np

PROGRAM = """
func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %0 = "xla.all_reduce"(%x) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.return %s : tensor<f32>
  }}) {{replica_groups = dense<[[{group}]]> : tensor<1x{size}xi64>}} : (tensor<{n}xf32>) -> tensor<{n}xf32>
  func.return %0 : tensor<{n}xf32>
}}
"""


def _worker(sizes: list[int], repeats: int) -> None:
    from runtime.collectives import init_mpi
    from xla_tools import compile

    device = init_mpi()
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    rows = []
    for mb in sizes:
        n = mb * 2**20 // 4
        group = ", ".join(str(r) for r in range(size))
        f = compile(PROGRAM.format(n=n, group=group, size=size), threads=1)
        x = np.random.default_rng(rank).standard_normal(n).astype(np.float32)
        ours, theirs = np.empty_like(x), np.empty_like(x)
        f(x, out=[ours])
        comm.Allreduce(x, theirs)
        assert np.array_equal(ours, theirs), "the compiled all_reduce differs from MPI_Allreduce"
        times = np.zeros((repeats, 2))
        for k in range(repeats):
            for which in ((0, 1) if k % 2 == 0 else (1, 0)):
                comm.Barrier()
                start = time.perf_counter()
                if which == 0:
                    f(x, out=[ours])
                else:
                    comm.Allreduce(x, theirs)
                times[k, which] = time.perf_counter() - start
        slowest = np.empty_like(times)
        comm.Allreduce(times, slowest, op=MPI.MAX)
        rows.append((mb, slowest))
    del device
    if rank == 0:
        print(f"all_reduce (sum, f32) over {size} processes; ms, slowest rank per repetition, {repeats} repetitions")
        print(f"{'MB':>4} | {'ours median':>11} | {'mpi4py median':>13} | {'ours min':>8} | {'mpi4py min':>10} | ours/mpi4py")
        for mb, t in rows:
            med, low = np.median(t, axis=0) * 1e3, t.min(axis=0) * 1e3
            print(f"{mb:>4} | {med[0]:>11.3f} | {med[1]:>13.3f} | {low[0]:>8.3f} | {low[1]:>10.3f} | {med[0] / med[1]:.2f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--processes", type=int, default=4)
    p.add_argument("--sizes", default="1,16,64", help="sizes in MB, comma-separated")
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.worker:
        _worker(sizes, args.repeats)
        return 0
    bin_dir = os.path.dirname(sys.executable)
    mpiexec = shutil.which("mpiexec", path=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    if mpiexec is None:
        print("bench_collectives: no mpiexec: pip install -e '.[mpi]'", file=sys.stderr)
        return 1
    command = [mpiexec, "-n", str(args.processes), sys.executable, os.path.abspath(__file__), "--worker",
               "--sizes", args.sizes, "--repeats", str(args.repeats)]
    env = dict(os.environ, XLA_DIALECT_THREADS="1")
    return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
