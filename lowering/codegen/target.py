"""The target description the code generator tiles for: vector width, registers, caches.

Read from the host CPU (llvmlite reports its name and features, Linux's sysfs the
cache sizes) or chosen by name, so that code can be generated for a CPU other
than the host (an AVX2-only machine, say) and still run here. The same name
picks the LLVM CPU the JIT compiles for, so a register tile sized for 16
registers is never compiled for 32, or the reverse.

| name     | LLVM CPU       | vector bits | vector registers |
|----------|----------------|-------------|------------------|
| `host`   | the host's     | from its features                |
| `avx512` | skylake-avx512 | 512         | 32               |
| `avx512vnni` | cascadelake | 512        | 32 (and `vpdpwssd`)  |
| `cascadelake` | cascadelake | 512       | 32 (`vpdpwssd`; 6-row tiles, as measured on it) |
| `avx512bf16` | cooperlake | 512         | 32 (and `vdpbf16ps`, `vpdpwssd`) |
| `avx2`   | haswell        | 256         | 16               |
| `sse`    | x86-64         | 128         | 16               |

`loop_vector_bits` is the width LLVM's loop and SLP vectorizers aim for (`llvm_features`):
on every AVX-512 target, the whole register. LLVM's tuning for Intel's AVX-512 cores
(`skylake-avx512`, `cascadelake`, `cooperlake`, ...) prefers 256 bits, for fear of the
lower clock of 512-bit code; the Zen cores' tuning has no such preference, so there it
changes nothing. On the Cascade Lake the transcendental chains ran 10-40% faster at 16
lanes than at 8 (A/B in one process: tanh(a) exp(-b^2) + a 7.26 -> 5.92 ms, chain of 10
89.7 -> 53.7, log-softmax 2048^2 6.21 -> 5.41); explicit `vector<16xf32>` code was
512-bit already.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_L1 = 32 * 1024
DEFAULT_L2 = 1024 * 1024
DEFAULT_L3 = 8 * 1024 * 1024

NEAR_ROW_BYTES = 2048
"""k rows of a right operand read in place at most this far apart are "near": they
share pages and spread over enough cache sets to stream as a packed panel does
(the MLP step's 512-float weight rows); farther rows (a dense layer's 4096 floats)
are each a stream of their own."""


@dataclass(frozen=True)
class Target:
    """What tiling and vectorization need to know about a CPU."""

    name: str
    """The name it was chosen by (`host`, `avx512`, `avx2`, `sse`)."""
    cpu: str
    """The LLVM CPU name the JIT compiles for."""
    features: str
    """LLVM feature string (`+avx2,+fma,...`); empty means the CPU's defaults."""
    vector_bits: int
    """Width of one SIMD register."""
    vector_registers: int
    """Architectural SIMD registers (32 with AVX-512, 16 with AVX2/SSE)."""
    has_fma: bool
    has_avx512_bf16: bool
    l1: int = DEFAULT_L1
    """Per-core data cache sizes, in bytes."""
    l2: int = DEFAULT_L2
    l3: int = DEFAULT_L3
    has_avx512_vnni: bool = False
    """AVX512-VNNI: `vpdpwssd` sums pairs of i16 products into i32 lanes."""
    has_avx2: bool = False
    """AVX2's 256-bit integer vectors: `vpmaddwd` sums pairs of i16 products into i32
    lanes, which the i8 and i16 contractions use when there is no VNNI."""
    near_rows_in_place: bool = False
    """Whether a right operand whose k rows are at most `NEAR_ROW_BYTES` apart is read
    in place rather than packed when few row panels reuse it. AMD's Zen 4 streams such
    rows as well as a packed panel: in place took 5% less time (the MLP step's 128 x 784
    @ 784 x 512 and 128 x 512 @ 512 x 512). Intel's Cascade Lake does not: the same two
    products took 40% and 80% more time in place than packed (A/B in one process), and
    the MLP step 11% more. So only the Zen cores read near rows in place."""
    reciprocal_division: bool = False
    """Whether the f32 expansions of `math-polynomial-approximation` divide through a
    reciprocal estimate (`vrcp14ps`, refined) and a correction step (`Emitter.quotient`:
    the division's results but within ~2^-47 of a tie) rather than `vdivps`. Cascade Lake's 512-bit `vdivps` takes ~18
    cycles and issues one per 10-16; with in-cache data (64K f32) the estimate made GELU
    tanh 0.092 -> 0.074 ms, GELU exact 0.128 -> 0.107 and the chain of 10 0.98 -> 0.87
    (A/B in one process); at 4M, where the loops wait for memory, it changed nothing
    measurable. Zen 4 divides fast, and an estimate with a Newton step measured slower
    there: only Intel's AVX-512 cores take it."""
    loop_vector_bits: int = 0
    """The vector width LLVM's loop and SLP vectorizers aim for; 0 leaves it to LLVM's
    tuning for `cpu` (see the module docstring: 512 on AVX-512 targets)."""

    streaming_store_bytes: int = 0
    """The smallest output (bytes) that element-wise loops and copies write with
    non-temporal stores (`linalg-stream-elementwise`, `linalg-stream-copies`): an
    output this large does not stay in the cache for a later reader, and ordinary stores
    would first read each of its lines from memory. 0: a quarter of `l3` (what glibc's
    memcpy also takes as its non-temporal threshold, a fraction of the shared cache)."""

    def streaming_threshold(self) -> int:
        """`streaming_store_bytes`, or its default of a quarter of the L3."""
        return self.streaming_store_bytes or self.l3 // 4

    def llvm_features(self) -> str:
        """`features` plus the tuning flag that sets `loop_vector_bits` (LLVM's
        `prefer-256-bit`, which `-mprefer-vector-width` also sets): what the JIT's
        target machine is created with."""
        if self.loop_vector_bits == 0:
            return self.features
        flag = "-prefer-256-bit" if self.loop_vector_bits >= 512 else "+prefer-256-bit"
        return f"{self.features},{flag}" if self.features else flag
    tile_rows: int = 4
    """Rows of the 32-bit register tile with 32 vector registers (its four vectors
    wide: 4 x 64 f32, 16 accumulators). The rows reuse each k step's four loaded
    vectors of the right operand, whose kc x 64 micro-panel (128 KiB at kc 512)
    streams from L2; on Intel's Cascade Lake that stream, not the FMAs, bounds the
    kernel (about 97 GFLOP/s of 148 with 4 rows), so 6 rows (24 accumulators: 6 x 64,
    50% more FMAs per byte of B) took 2-10% less time on matmul 512 and 1024 and 9% on
    a bf16 matmul 512 (A/B in one process); smaller or shallower products keep 4 rows
    (`pack_contractions.WIDE_TILE_MIN_ROWS`, `WIDE_TILE_MIN_DEPTH`). The Zen cores keep 4 (measured there)."""

    right_pack_in_parts: bool = False
    """Whether the right operand's pack moves into the parallel parts when all of C's
    rows fit one part (`linalg-vectorize-contractions`, `pack_fusion.py`): each part
    packs its own columns of B into an L2-resident buffer and multiplies all rows by
    them, instead of B being packed whole (written to L3 and read back) before the
    parts. Measured on the Cascade Lake; the Zen cores keep the whole pack."""

    def lanes(self, element_bits: int) -> int:
        """Elements of `element_bits` in one vector register."""
        return max(1, self.vector_bits // element_bits)

    def register_tile(self, element_bits: int) -> tuple[int, int]:
        """(mr, nr): the block of the output a micro-kernel keeps in registers.

        nr is a whole number of vectors. The tile leaves registers for the `nr /
        lanes` loaded rows of the right operand and one broadcast of the left:
        4 x 4 vectors with 32 registers (16 accumulators; `tile_rows` x 4 for 32-bit
        elements: 6 x 4 on Intel hosts), 6 x 2 with 16 (12).
        """
        lanes = self.lanes(element_bits)
        if self.vector_registers >= 32:
            return (self.tile_rows if element_bits == 32 else 4), 4 * lanes
        return 6, 2 * lanes

    def cache_blocks(self, element_bits: int, packed: bool = True) -> tuple[int, int, int]:
        """(kc, mc, nc): the depth of a k block and the rows and columns of the output
        a cache block covers. A packed kc x nr micro-panel of the right operand fits in
        an eighth of L2 (it streams from there, contiguous: at 4 x 4 vectors a k step's
        FMAs take longer than loading its row), an mc x kc block of the left in half of
        L2, a kc x nc block of the right in half of L3. kc is deep (up to 512) because
        each k block stores and reloads the register tile: with 64-wide AVX-512 tiles,
        an L1-sized kc of 64 cost 7% of matmul 1024's time in those reloads.

        A right operand read in place with its rows far apart (not `packed`: more than
        `NEAR_ROW_BYTES`), each a stream of its own for the prefetcher, keeps its
        micro-panel in half of L1 (a dense layer reading its weights once ran 12% slower
        at kc 512). With near rows it is blocked as a packed one (128 x 784 @ 784 x 512
        read in place: 6% less time at kc 512 than at 64)."""
        if os.environ.get("XLA_DIALECT_BLOCKS"):  # tuning experiments: kc,mc,nc
            kc, mc, nc = (int(x) for x in os.environ["XLA_DIALECT_BLOCKS"].split(","))
            return kc, mc, nc
        mr, nr = self.register_tile(element_bits)
        size = element_bits // 8
        kc = max(64, min(512, (self.l2 // 8 if packed else self.l1 // 2) // (nr * size)))
        kc -= kc % 16
        mc = max(mr, (self.l2 // 2) // (kc * size))
        mc -= mc % mr
        nc = max(nr, (self.l3 // 2) // (kc * size))
        nc -= nc % nr
        return kc, mc, nc


def _cache_sizes() -> tuple[int, int, int]:
    """L1d, L2 and L3 sizes of cpu0 from sysfs, with defaults where it is silent."""
    sizes = {1: DEFAULT_L1, 2: DEFAULT_L2, 3: DEFAULT_L3}
    base = Path("/sys/devices/system/cpu/cpu0/cache")
    try:
        for index in base.glob("index*"):
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            if kind == "Instruction" or level not in sizes:
                continue
            text = (index / "size").read_text().strip().upper()
            scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:], 1)
            sizes[level] = int(text.rstrip("KM")) * scale
    except (OSError, ValueError):
        pass
    return sizes[1], sizes[2], sizes[3]


def _host() -> Target:
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    cpu = llvm.get_host_cpu_name()
    features = llvm.get_host_cpu_features()
    has = {name for name, on in features.items() if on}
    bits = 512 if "avx512f" in has else 256 if "avx" in has else 128
    l1, l2, l3 = _cache_sizes()
    return Target(
        name="host",
        cpu=cpu,
        features=features.flatten(),
        vector_bits=bits,
        vector_registers=32 if "avx512f" in has else 16,
        has_fma="fma" in has,
        has_avx512_bf16="avx512bf16" in has,
        l1=l1,
        l2=l2,
        l3=l3,
        has_avx512_vnni="avx512vnni" in has,
        has_avx2="avx2" in has,
        near_rows_in_place=cpu.startswith("znver"),
        loop_vector_bits=bits if bits >= 512 else 0,
        reciprocal_division=bits >= 512 and not cpu.startswith("znver"),
        tile_rows=4 if cpu.startswith("znver") else 6,
        right_pack_in_parts=bits >= 512 and not cpu.startswith("znver"),
    )


_SKYLAKE_AVX512 = frozenset({"avx", "avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"})
CPU_FEATURES: dict[str, frozenset[str]] = {
    "x86-64": frozenset(),
    "haswell": frozenset({"avx", "avx2", "fma", "bmi", "bmi2", "f16c", "lzcnt", "movbe"}),
    "skylake-avx512": _SKYLAKE_AVX512,
    "cascadelake": _SKYLAKE_AVX512 | {"avx512vnni"},
    "cooperlake": _SKYLAKE_AVX512 | {"avx512vnni", "avx512bf16"},
    "znver4": _SKYLAKE_AVX512
    | {"avx512vnni", "avx512bf16", "avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512bitalg", "avx512vpopcntdq"},
}
"""The instruction-set extensions LLVM may use for each named target's CPU (those a
CPU without them would fault on: `required_features`)."""


def required_features(target: Target) -> frozenset[str]:
    """The extensions a CPU needs to run code compiled for `target`: its CPU's
    (`CPU_FEATURES`; the host's own CPU needs nothing more than itself), the `+`
    features it names, and what its vector width and dot products imply."""
    needed = set(CPU_FEATURES.get(target.cpu, frozenset())) if target.name != "host" else set()
    needed |= {f[1:] for f in target.features.split(",") if f.startswith("+")}
    if target.vector_bits >= 512:
        needed.add("avx512f")
    elif target.vector_bits >= 256:
        needed.add("avx")
    if target.has_fma:
        needed.add("fma")
    if target.has_avx512_vnni:
        needed.add("avx512vnni")
    if target.has_avx512_bf16:
        needed.add("avx512bf16")
    if target.has_avx2:
        needed.add("avx2")
    return frozenset(needed)


NAMED_TARGETS: dict[str, Target] = {
    "avx512": Target(
        "avx512", "skylake-avx512", "", 512, 32, True, False, 32 * 1024, 1024 * 1024, loop_vector_bits=512,
        reciprocal_division=True,
    ),
    "avx512vnni": Target(
        "avx512vnni", "cascadelake", "", 512, 32, True, False, 32 * 1024, 1024 * 1024, has_avx512_vnni=True,
        loop_vector_bits=512, reciprocal_division=True,
    ),
    "avx512bf16": Target(
        "avx512bf16", "cooperlake", "", 512, 32, True, True, 32 * 1024, 1024 * 1024, has_avx512_vnni=True,
        loop_vector_bits=512, reciprocal_division=True,
    ),
    "cascadelake": Target(
        "cascadelake", "cascadelake", "", 512, 32, True, False, 32 * 1024, 1024 * 1024, has_avx512_vnni=True,
        tile_rows=6, loop_vector_bits=512, reciprocal_division=True, right_pack_in_parts=True,
    ),
    "znver4": Target(
        "znver4", "znver4", "", 512, 32, True, True, 32 * 1024, 1024 * 1024, has_avx512_vnni=True,
        near_rows_in_place=True, loop_vector_bits=512,
    ),
    "avx2": Target("avx2", "haswell", "", 256, 16, True, False, 32 * 1024, 256 * 1024, has_avx2=True),
    "sse": Target("sse", "x86-64", "", 128, 16, False, False, 32 * 1024, 256 * 1024),
}

TARGET_ENV = "XLA_DIALECT_TARGET"
"""Environment variable naming the default target (else `host`)."""


@functools.cache
def _named(name: str) -> Target:
    if name == "host":
        return _host()
    if name in NAMED_TARGETS:
        return NAMED_TARGETS[name]
    raise ValueError(f"unknown target '{name}' (expected one of: host, {', '.join(NAMED_TARGETS)})")


def get_target(name: str | None = None) -> Target:
    """The target called `name`; None or "" means `$XLA_DIALECT_TARGET`, else the host."""
    return _named(name or os.environ.get(TARGET_ENV) or "host")


__all__ = ["CPU_FEATURES", "NAMED_TARGETS", "TARGET_ENV", "Target", "get_target", "required_features"]
