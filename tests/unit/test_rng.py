"""`xla.rng_bit_generator`, `xla.rng` (UNIFORM / NORMAL) and `xla.rng_bernoulli`
compiled through `lower-to-llvm`.

* `rng_bit_generator` must give XLA's exact bits and output state. `EXPECTED`
  holds outputs of XLA's CPU backend (through JAX, see `EXPECTED`'s comment); a
  NumPy reference written from XLA's algorithm (`xla/hlo/builder/lib/prng.cc` and
  the `RngBitGeneratorExpander`) is checked against them and then against the
  compiled op on more shapes (odd sizes, rank 0 to 3, empty, long runs).
* `rng`/`rng_bernoulli` draw from the module's global Philox state
  (`@__xla_rng_state`): statistical checks (ranges, mean, variance, a
  Kolmogorov–Smirnov distance) with tolerances of about six standard errors
  (the numbers depend on the order the tests run in, so every draw must pass),
  and an exact check of the stream (state read and set through the JIT's global)
  in a small module compiled on its own.

All cases of the main module are functions of one module compiled once.
"""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest

from lowering.to_llvm.common import register_llvm_extensions
from lowering.xla_to_linalg.rng import RNG_SEED, RNG_STATE_GLOBAL
from runtime import CompileError
from runtime.jit import compile_llvm_module
from xla_dialect.context import make_context, parse_module
from xla_tools import compile
from xla_tools.pipelines import lower_to_llvm

# ---------------------------------------------------------------------------
# NumPy reference of XLA's bit generators
# ---------------------------------------------------------------------------

U64 = 2**64


def _words(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The low and high uint32 words of uint64 values."""
    v = np.asarray(v, np.uint64)
    return v.astype(np.uint32), (v >> np.uint64(32)).astype(np.uint32)


def _join(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))


def threefry2x32(x0: np.ndarray, x1: np.ndarray, key: int) -> tuple[np.ndarray, np.ndarray]:
    """Threefry-2x32, 20 rounds (Salmon et al. 2011), on uint32 arrays."""
    k0, k1 = np.uint32(key & 0xFFFFFFFF), np.uint32(key >> 32)
    ks = (k0, k1, k0 ^ k1 ^ np.uint32(0x1BD11BDA))
    rotations = ((13, 15, 26, 6), (17, 29, 16, 24))
    x0, x1 = x0 + ks[0], x1 + ks[1]
    for group in range(5):
        for r in rotations[group % 2]:
            x0 = x0 + x1
            x1 = ((x1 << np.uint32(r)) | (x1 >> np.uint32(32 - r))) ^ x0
        x0 = x0 + ks[(group + 1) % 3]
        x1 = x1 + ks[(group + 2) % 3] + np.uint32(group + 1)
    return x0, x1


def philox4x32(x: list[np.ndarray], key: int) -> list[np.ndarray]:
    """Philox-4x32, 10 rounds (Salmon et al. 2011), on uint32 arrays."""
    k0, k1 = key & 0xFFFFFFFF, key >> 32
    for _ in range(10):
        p0 = x[0].astype(np.uint64) * np.uint64(0xD2511F53)
        p1 = x[2].astype(np.uint64) * np.uint64(0xCD9E8D57)
        h0, h1 = (p0 >> np.uint64(32)).astype(np.uint32), (p1 >> np.uint64(32)).astype(np.uint32)
        x = [h1 ^ x[1] ^ np.uint32(k0), p1.astype(np.uint32), h0 ^ x[3] ^ np.uint32(k1), p0.astype(np.uint32)]
        k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return x


def threefry_bits(state: list[int], shape: tuple[int, ...], width: int) -> tuple[list[int], np.ndarray]:
    """XLA's THREE_FRY: (new state, uint32/uint64 bits of `shape`). Narrower
    widths take the low bits of the 32-bit words (the caller truncates)."""
    key, counter = state
    if width == 64:
        n = math.prod(shape)
        x0, x1 = threefry2x32(*_words(np.uint64(counter) + np.arange(n, dtype=np.uint64)), key)
        return [key, (counter + n) % U64], _join(x0, x1).reshape(shape)
    # XLA splits the shape into halves along its first even dimension (else the
    # largest one), concatenates the two words along a new dimension after it.
    dims = list(shape) or [1]
    evens = [i for i, d in enumerate(dims) if d % 2 == 0]
    split = evens[0] if evens else int(np.argmax(dims))
    half = list(dims)
    half[split] = -(-dims[split] // 2)
    half.insert(split + 1, 1)
    used = math.prod(half)
    x0, x1 = threefry2x32(*_words(np.uint64(counter) + np.arange(used, dtype=np.uint64)), key)
    both = np.concatenate([x0.reshape(half), x1.reshape(half)], axis=split + 1)
    padded = list(dims)
    padded[split] = 2 * half[split]
    bits = both.reshape(padded)[tuple(slice(0, d) for d in dims)].reshape(shape)
    return [key, (counter + used) % U64], bits


def philox_bits(state: list[int], shape: tuple[int, ...], width: int) -> tuple[list[int], np.ndarray]:
    """XLA's PHILOX: a u64[3] state is (key, 128-bit counter); a u64[2] state
    (key, counter_lo) uses the key as the counter's high word and drops it from
    the new state. Block j encrypts counter + j into four words."""
    key, lo = state[0], state[1]
    hi = state[2] if len(state) == 3 else state[0]
    n = math.prod(shape)
    per_block = 2 if width == 64 else 4
    blocks = -(-n // per_block)
    counter = (hi << 64 | lo) + np.arange(blocks, dtype=object)
    c_lo = np.array([int(c) % U64 for c in counter], np.uint64)
    c_hi = np.array([(int(c) >> 64) % U64 for c in counter], np.uint64)
    w = philox4x32([*_words(c_lo), *_words(c_hi)], key)
    flat = np.stack([_join(w[0], w[1]), _join(w[2], w[3])] if width == 64 else w, axis=1).reshape(-1)
    new = (hi << 64 | lo) + blocks
    new_state = [key, new % U64, (new >> 64) % U64][: len(state)]
    return new_state, flat[:n].reshape(shape)


UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def bit_generator(algorithm: str, state: list[int], state_type: str, shape: tuple[int, ...], width: int) -> tuple[list[int], np.ndarray]:
    """The reference `rng_bit_generator`: (new state, output bits as unsigned ints).
    DEFAULT is PHILOX (XLA's CPU choice); a u32 state is read as little-endian u64s."""
    if state_type == "ui32":
        state64 = [state[i] | state[i + 1] << 32 for i in range(0, len(state), 2)]
        new64, bits = bit_generator(algorithm, state64, "ui64", shape, width)
        return [w >> s & 0xFFFFFFFF for w in new64 for s in (0, 32)], bits
    if algorithm == "THREE_FRY":
        new, bits = threefry_bits(state, shape, width)
    else:
        new, bits = philox_bits(state, shape, width)
    return new, bits.astype(UINT[width])


# ---------------------------------------------------------------------------
# XLA's outputs
# ---------------------------------------------------------------------------

# Produced by XLA's CPU backend through JAX 0.10.2 (jaxlib 0.10.2): (output
# state, output bits as unsigned integers in row-major order) for the
# `BitCase`s of the same name below. 'def_u32x4_2x3' went through JAX's own
# lowering of a u32[4] key (bitcast to u64[2]); the others compiled the
# StableHLO op directly. To regenerate (in an environment with JAX):
#
#   import jax, numpy as np
#   from jax._src import xla_bridge
#   from jax._src.lib import xla_client as xc
#   jax.config.update("jax_enable_x64", True)
#   backend = xla_bridge.get_backend("cpu"); device = backend.devices()[0]
#   for case in BIT_CASES:  # those named in EXPECTED, state type ui64
#       st = f"tensor<{len(case.state)}xui64>"; ot = case.out_type()
#       text = (f"func.func public @main(%s: {st}) -> ({st}, {ot}) {{\n"
#               f"  %0, %1 = stablehlo.rng_bit_generator %s, algorithm = {case.algorithm}"
#               f" : ({st}) -> ({st}, {ot})\n  return %0, %1 : {st}, {ot}\n}}")
#       exe = backend.compile_and_load(text, xc.DeviceList((device,)), xc.CompileOptions())
#       s, o = exe.execute([jax.device_put(np.array(case.state, np.uint64), device)])
#       o = np.asarray(o); bits = o.view(f"u{o.dtype.itemsize}").ravel()
#       print(f"    {case.name!r}: ({[int(v) for v in np.asarray(s)]}, {[int(v) for v in bits]}),")
#   s, v = jax.lax.rng_bit_generator(np.array([1, 2, 3, 4], np.uint32), (2, 3), np.uint32,
#                                    algorithm=jax.lax.RandomAlgorithm.RNG_DEFAULT)
EXPECTED: dict[str, tuple[list[int], list[int]]] = {
    'tf_u32_scalar': ([81985529216486895, 18364758544493064721], [2933171071]),
    'tf_u32_5': ([42, 10], [2642642533, 3437982737, 356970675, 1736384518, 4222757798]),
    'tf_u32_3x5_wrap': ([1, 5], [2558509801, 4200057816, 3276612752, 1432270967, 2522165384, 277883032, 1381858422, 3023415290, 2531993477, 247883890, 43444564, 2150618427, 3979645651, 3745730563, 1672743891]),
    'tf_u32_3x2x3': ([3735928559, 1009], [4258693544, 3184163249, 2283510953, 2686800754, 2568017163, 1747538789, 78295391, 4035477986, 1100353156, 1921622616, 3118320334, 3182249855, 4157872437, 2204386351, 3208231854, 4043801849, 1818931886, 1854509387]),
    'tf_u64_3': ([9223372036854775813, 1], [16907046113001404961, 15229235728746501420, 3607819637178642783]),
    'tf_u8_2x3': ([3, 7], [66, 99, 249, 186, 123, 51]),
    'tf_f64_2x2': ([5, 10], [17059160161795817124, 4568218857448468851, 8837050182540938565, 6891647807627726705]),
    'ph_u32_7': ([81985529216486895, 13, 12], [2435439712, 3720144021, 732377593, 866798529, 2759311225, 2178089186, 2862333545]),
    'ph_u64_3_carry': ([9, 1, 0], [1343478298099237825, 9958044534402927041, 9854717715993477552]),
    'ph2_u32_2x3_carry': ([77, 1], [681741813, 1162545198, 3109174449, 1367263231, 3968832207, 2648957840]),
    'ph_u16_5': ([1, 4, 3], [59210, 12518, 62469, 39574, 23787]),
    'ph_i8_3x3': ([4, 8, 6], [65, 157, 74, 11, 45, 217, 70, 86, 236]),
    'ph_i64_1x3x1': ([18446744073709551615, 2, 1], [9116746908147267309, 4761090777834212002, 13355245724237596685]),
    'def_f32_2x2': ([8, 10], [4228890300, 4076084967, 3064907221, 3578232907]),
    'def_bf16_3': ([10, 12, 12], [46375, 32531, 30086]),
    'def_u32x4_2x3': ([1, 2, 5, 4], [512747620, 1298009047, 1267190206, 761827841, 1383286907, 1639995030]),
}  # fmt: skip

# ---------------------------------------------------------------------------
# Bit generator cases
# ---------------------------------------------------------------------------

WIDTHS = {"ui8": 8, "ui16": 16, "ui32": 32, "ui64": 64, "i8": 8, "i16": 16, "i32": 32, "i64": 64,
          "f16": 16, "bf16": 16, "f32": 32, "f64": 64}  # fmt: skip
DTYPES = {"ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64, "i8": np.int8,
          "i16": np.int16, "i32": np.int32, "i64": np.int64, "f16": np.float16,
          "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}  # fmt: skip


@dataclass
class BitCase:
    name: str
    algorithm: str
    state: list[int]
    element: str
    shape: tuple[int, ...]
    state_type: str = "ui64"

    def state_tensor(self) -> str:
        return f"tensor<{len(self.state)}x{self.state_type}>"

    def out_type(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.element + ">"

    def function(self) -> str:
        st, ot = self.state_tensor(), self.out_type()
        return (
            f"func.func @bits_{self.name}(%s: {st}) -> ({st}, {ot}) {{\n"
            f"  %0, %1 = xla.rng_bit_generator %s, algorithm = {self.algorithm} : ({st}) -> ({st}, {ot})\n"
            f"  func.return %0, %1 : {st}, {ot}\n}}\n"
        )


BIT_CASES = [
    # The cases of EXPECTED.
    BitCase("tf_u32_scalar", "THREE_FRY", [0x0123456789ABCDEF, 0xFEDCBA9876543210], "ui32", ()),
    BitCase("tf_u32_5", "THREE_FRY", [42, 7], "ui32", (5,)),
    BitCase("tf_u32_3x5_wrap", "THREE_FRY", [1, U64 - 4], "ui32", (3, 5)),
    BitCase("tf_u32_3x2x3", "THREE_FRY", [0xDEADBEEF, 1000], "ui32", (3, 2, 3)),
    BitCase("tf_u64_3", "THREE_FRY", [2**63 + 5, U64 - 2], "ui64", (3,)),
    BitCase("tf_u8_2x3", "THREE_FRY", [3, 4], "ui8", (2, 3)),
    BitCase("tf_f64_2x2", "THREE_FRY", [5, 6], "f64", (2, 2)),
    BitCase("ph_u32_7", "PHILOX", [0x0123456789ABCDEF, 11, 12], "ui32", (7,)),
    BitCase("ph_u64_3_carry", "PHILOX", [9, U64 - 1, U64 - 1], "ui64", (3,)),
    BitCase("ph2_u32_2x3_carry", "PHILOX", [77, U64 - 1], "ui32", (2, 3)),
    BitCase("ph_u16_5", "PHILOX", [1, 2, 3], "ui16", (5,)),
    BitCase("ph_i8_3x3", "PHILOX", [4, 5, 6], "i8", (3, 3)),
    BitCase("ph_i64_1x3x1", "PHILOX", [U64 - 1, 0, 1], "i64", (1, 3, 1)),
    BitCase("def_f32_2x2", "DEFAULT", [8, 9], "f32", (2, 2)),
    BitCase("def_bf16_3", "DEFAULT", [10, 11, 12], "bf16", (3,)),
    BitCase("def_u32x4_2x3", "DEFAULT", [1, 2, 3, 4], "ui32", (2, 3), state_type="ui32"),
    # Checked against the NumPy reference only.
    BitCase("tf_u32_17x9", "THREE_FRY", [123, 456], "ui32", (17, 9)),  # all odd: split the largest
    BitCase("tf_u32_9x17", "THREE_FRY", [123, 456], "ui32", (9, 17)),
    BitCase("tf_i32_3x4x5", "THREE_FRY", [U64 - 1, 99], "i32", (3, 4, 5)),  # split a middle dim
    BitCase("tf_u16_7x3", "THREE_FRY", [7, 3], "ui16", (7, 3)),
    BitCase("tf_f32_1", "THREE_FRY", [8, 8], "f32", (1,)),
    BitCase("tf_u64_33", "THREE_FRY", [2**40, U64 - 20], "ui64", (33,)),
    BitCase("tf_u32_4x0", "THREE_FRY", [1, 2], "ui32", (4, 0)),
    BitCase("ph_u32_1001", "PHILOX", [31337, U64 - 100, 5], "ui32", (1001,)),
    BitCase("ph_u64_9x7", "PHILOX", [2, 3, 4], "ui64", (9, 7)),
    BitCase("ph2_u64_5", "PHILOX", [6, U64 - 2], "ui64", (5,)),
    BitCase("ph_f16_4x4", "PHILOX", [1, 1, 1], "f16", (4, 4)),
    BitCase("ph_u32_scalar", "PHILOX", [5, 5, 5], "ui32", ()),
    BitCase("ph_u32_0", "PHILOX", [5, 5, 5], "ui32", (0,)),
    BitCase("def_u32x6_5x3", "DEFAULT", [1, 2, 3, 4, 5, 6], "ui32", (5, 3), state_type="ui32"),
    BitCase("def_i64_2x2x3", "DEFAULT", [1, 2, 3], "ui64", (2, 2, 3)),
]
BIT_BY_NAME = {c.name: c for c in BIT_CASES}

# ---------------------------------------------------------------------------
# Distribution functions
# ---------------------------------------------------------------------------


def _rng_function(name: str, distribution: str, element: str, shape: tuple[int, ...], count: int = 1) -> str:
    """`@name(%a, %b)` returning `count` rng results of `shape` (one op each)."""
    t = "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"
    dims = ", ".join(str(d) for d in shape)
    ops = "\n".join(
        f"  %r{k} = xla.rng %a, %b, %shape, distribution = {distribution} : "
        f"(tensor<{element}>, tensor<{element}>, tensor<{len(shape)}xi64>) -> {t}"
        for k in range(count)
    )
    results = ", ".join(f"%r{k}" for k in range(count))
    return (
        f"func.func @{name}(%a: tensor<{element}>, %b: tensor<{element}>) -> ({', '.join([t] * count)}) {{\n"
        f"  %shape = xla.constant dense<[{dims}]> : tensor<{len(shape)}xi64>\n{ops}\n"
        f"  func.return {results} : {', '.join([t] * count)}\n}}\n"
    )


N = 100_000
DISTRIBUTION_FUNCTIONS = [
    _rng_function("uniform_f32", "UNIFORM", "f32", (200, 500)),
    _rng_function("uniform_f64", "UNIFORM", "f64", (N,)),
    _rng_function("uniform_bf16", "UNIFORM", "bf16", (64, 64)),
    _rng_function("uniform_f16", "UNIFORM", "f16", (3, 7, 11)),
    _rng_function("uniform_i32", "UNIFORM", "i32", (N,)),
    _rng_function("uniform_i64", "UNIFORM", "i64", (1001,)),
    _rng_function("uniform_ui64", "UNIFORM", "ui64", (999,)),
    _rng_function("uniform_ui8", "UNIFORM", "ui8", (20, 1000)),
    _rng_function("uniform_pred", "UNIFORM", "i1", (5,)),
    _rng_function("uniform_f32_scalar", "UNIFORM", "f32", ()),
    _rng_function("uniform_twice", "UNIFORM", "f32", (7,), count=2),
    _rng_function("normal_f32", "NORMAL", "f32", (N,)),
    _rng_function("normal_f64", "NORMAL", "f64", (333, 3)),
    _rng_function("normal_bf16", "NORMAL", "bf16", (20001,)),
    _rng_function("normal_f16", "NORMAL", "f16", (7,)),
    """func.func @bernoulli(%p: tensor<f32>) -> tensor<2x50000xui32> {
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 2, 50000>} : (tensor<f32>) -> tensor<2x50000xui32>
  func.return %0 : tensor<2x50000xui32>
}
""",
]

MODULE = "".join(c.function() for c in BIT_CASES) + "".join(DISTRIBUTION_FUNCTIONS)


@pytest.fixture(scope="module")
def fns():
    return lambda name: compile(MODULE, entry=name)


# ---------------------------------------------------------------------------
# rng_bit_generator: exact bits
# ---------------------------------------------------------------------------


def run_bits(fns, case: BitCase) -> tuple[list[int], np.ndarray]:
    dtype = np.uint64 if case.state_type == "ui64" else np.uint32
    state, out = fns(f"bits_{case.name}")(np.array(case.state, dtype))
    assert out.dtype == np.dtype(DTYPES[case.element]) and out.shape == case.shape
    width = WIDTHS[case.element]
    return [int(v) for v in state], np.ascontiguousarray(out).view(UINT[width])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reference_matches_xla(name: str) -> None:
    case = BIT_BY_NAME[name]
    state, bits = bit_generator(case.algorithm, case.state, case.state_type, case.shape, WIDTHS[case.element])
    assert (state, bits.ravel().tolist()) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bit_generator_matches_xla(fns, name: str) -> None:
    state, bits = run_bits(fns, BIT_BY_NAME[name])
    assert (state, bits.ravel().tolist()) == EXPECTED[name]


@pytest.mark.parametrize("case", [c for c in BIT_CASES if c.name not in EXPECTED], ids=lambda c: c.name)
def test_bit_generator_matches_reference(fns, case: BitCase) -> None:
    state, bits = run_bits(fns, case)
    want_state, want_bits = bit_generator(case.algorithm, case.state, case.state_type, case.shape, WIDTHS[case.element])
    assert state == want_state
    np.testing.assert_array_equal(bits, want_bits)


def test_bit_generator_is_a_function_of_its_state(fns) -> None:
    """Pure: the same state gives the same bits; the returned state continues the stream."""
    case = BIT_BY_NAME["ph_u32_1001"]
    first = run_bits(fns, case)
    again = run_bits(fns, case)
    assert first[0] == again[0]
    np.testing.assert_array_equal(first[1], again[1])
    f = fns("bits_ph_u32_1001")
    _, after = f(np.array(first[0], np.uint64))
    assert not np.array_equal(after, first[1])
    # 1001 elements use 251 blocks; 1004 would have used the same counters.
    _, longer = philox_bits(case.state, (1004 + 1001,), 32)
    np.testing.assert_array_equal(after, longer[1004:])


# ---------------------------------------------------------------------------
# rng UNIFORM / NORMAL, rng_bernoulli: statistics
# ---------------------------------------------------------------------------


def ks_distance(sample: np.ndarray, cdf) -> float:
    """The Kolmogorov–Smirnov distance between `sample` and the distribution `cdf`."""
    x = np.sort(np.asarray(sample, np.float64))
    n = len(x)
    c = cdf(x)
    return float(max(np.max(np.arange(1, n + 1) / n - c), np.max(c - np.arange(n) / n)))


def normal_cdf(mu: float, sigma: float):
    erf = np.vectorize(math.erf)
    return lambda x: 0.5 * (1.0 + erf((x - mu) / (sigma * math.sqrt(2.0))))


@pytest.mark.parametrize(
    ("name", "dtype", "a", "b"),
    [
        ("uniform_f32", np.float32, -2.0, 3.0),
        ("uniform_f64", np.float64, 10.0, 10.5),
        ("uniform_bf16", ml_dtypes.bfloat16, 0.0, 1.0),
        ("uniform_f16", np.float16, -1.0, 1.0),
    ],
)
def test_uniform_float(fns, name: str, dtype: type, a: float, b: float) -> None:
    x = fns(name)(np.array(a, dtype), np.array(b, dtype))
    assert x.dtype == np.dtype(dtype)
    assert x.min() >= a and x.max() < b  # never b, even where rounding would give it (bf16)
    x = x.astype(np.float64).ravel()
    n, span = x.size, b - a
    assert abs(x.mean() - (a + b) / 2) < 6 * span / math.sqrt(12 * n) + span * 2.0**-9
    if n >= 10_000:
        assert abs(x.var() - span**2 / 12) < 6 * span**2 * math.sqrt(0.8 / n) / 12 + span**2 * 2.0**-8
        assert ks_distance(x, lambda t: np.clip((t - a) / span, 0, 1)) < 7 / math.sqrt(n) + 2.0**-8


def test_uniform_float_stays_below_b(fns) -> None:
    """[1, nextafter(1)) holds only 1: results that round up to b are moved below it."""
    f = fns("uniform_f32")
    b = np.nextafter(np.float32(1), np.float32(2))
    x = f(np.float32(1), b)
    assert np.all(x == np.float32(1))


def test_uniform_float_scalar(fns) -> None:
    x = fns("uniform_f32_scalar")(np.float32(5), np.float32(6))
    assert x.shape == () and 5 <= x < 6


def test_uniform_i32(fns) -> None:
    x = fns("uniform_i32")(np.int32(-5), np.int32(7))
    assert x.dtype == np.int32
    values, counts = np.unique(x, return_counts=True)
    assert values.tolist() == list(range(-5, 7))
    expected = N / 12
    assert np.all(np.abs(counts - expected) < 6 * math.sqrt(expected))


@pytest.mark.parametrize(
    ("name", "dtype", "a", "b"),
    [
        ("uniform_i64", np.int64, -(2**40), 2**40),
        ("uniform_i64", np.int64, -(2**62), 2**62 + 5),
        ("uniform_ui64", np.uint64, 2**63, U64 - 1),
        ("uniform_ui8", np.uint8, 10, 250),
        ("uniform_i32", np.int32, -(2**31), 2**31 - 1),
    ],
)
def test_uniform_int_range(fns, name: str, dtype: type, a: int, b: int) -> None:
    x = fns(name)(np.array(a, dtype), np.array(b, dtype))
    assert x.dtype == np.dtype(dtype)
    values = x.ravel().astype(object)
    assert min(values) >= a and max(values) < b
    n = values.size
    mean = sum(values) / n
    assert abs(mean - (a + b) / 2) < 6 * (b - a) / math.sqrt(12 * n)
    if b - a <= 256:  # every value appears
        assert len(set(values)) == b - a


def test_uniform_empty_range_and_pred(fns) -> None:
    """[a, a) gives a (the spec leaves b <= a implementation-defined); a PRED
    [false, true) holds only false."""
    assert np.all(fns("uniform_i32")(np.int32(3), np.int32(3)) == 3)
    assert fns("uniform_pred")(np.array(False), np.array(True)).tolist() == [False] * 5
    assert fns("uniform_pred")(np.array(True), np.array(True)).tolist() == [True] * 5


@pytest.mark.parametrize(
    ("name", "dtype", "mu", "sigma", "tolerance"),
    [
        ("normal_f32", np.float32, 1.5, 2.0, 0.0),
        ("normal_f64", np.float64, -3.0, 0.25, 0.0),
        ("normal_bf16", ml_dtypes.bfloat16, 0.0, 1.0, 2.0**-7),  # bf16 rounding moves the CDF a little
    ],
)
def test_normal(fns, name: str, dtype: type, mu: float, sigma: float, tolerance: float) -> None:
    x = fns(name)(np.array(mu, dtype), np.array(sigma, dtype))
    assert x.dtype == np.dtype(dtype) and np.all(np.isfinite(x.astype(np.float64)))
    x = x.astype(np.float64).ravel()
    n = x.size
    assert abs(x.mean() - mu) < 6 * sigma / math.sqrt(n) + tolerance
    assert abs(x.std() - sigma) < 6 * sigma / math.sqrt(2 * n) + tolerance
    assert ks_distance(x, normal_cdf(mu, sigma)) < 7 / math.sqrt(n) + tolerance
    # Both Box–Muller outputs are normal: so are the even and the odd elements.
    assert abs(x[0::2].mean() - mu) < 6 * sigma / math.sqrt(n / 2) + tolerance
    assert abs(x[1::2].std() - sigma) < 6 * sigma / math.sqrt(n) + tolerance


def test_normal_f16(fns) -> None:
    x = fns("normal_f16")(np.float16(100), np.float16(1))
    assert x.dtype == np.float16 and np.all(np.abs(x.astype(np.float64) - 100) < 6)


@pytest.mark.parametrize("p", [0.3, 0.0, 1.0, 0.999])
def test_bernoulli(fns, p: float) -> None:
    x = fns("bernoulli")(np.float32(p))
    assert x.dtype == np.uint32 and x.shape == (2, 50000)
    assert set(np.unique(x).tolist()) <= {0, 1}
    n = x.size
    assert abs(x.mean() - p) < 6 * math.sqrt(p * (1 - p) / n) + 1e-6


def test_successive_draws_differ(fns) -> None:
    f = fns("uniform_f32")
    first = f(np.float32(0), np.float32(1))
    second = f(np.float32(0), np.float32(1))
    assert not np.array_equal(first, second)
    x, y = fns("uniform_twice")(np.float32(0), np.float32(1))
    assert not np.array_equal(x, y)
    assert len(np.unique(np.concatenate([first.ravel(), second.ravel()]))) > 0.9 * 2 * first.size


# ---------------------------------------------------------------------------
# The stateful stream, exactly
# ---------------------------------------------------------------------------

STREAM_MODULE = """
func.func @uniform(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %shape = xla.constant dense<[2, 3]> : tensor<2xi64>
  %0 = xla.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func @uniform_int(%a: tensor<i32>, %b: tensor<i32>) -> tensor<9xi32> {
  %shape = xla.constant dense<[9]> : tensor<1xi64>
  %0 = xla.rng %a, %b, %shape, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<9xi32>
  func.return %0 : tensor<9xi32>
}
func.func @normal(%m: tensor<f64>, %s: tensor<f64>) -> tensor<5xf64> {
  %shape = xla.constant dense<[5]> : tensor<1xi64>
  %0 = xla.rng %m, %s, %shape, distribution = NORMAL : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<5xf64>
  func.return %0 : tensor<5xf64>
}
func.func @bernoulli(%p: tensor<f32>) -> tensor<7xui32> {
  %0 = "xla.rng_bernoulli"(%p) {shape = array<i64: 7>} : (tensor<f32>) -> tensor<7xui32>
  func.return %0 : tensor<7xui32>
}
"""


@pytest.fixture(scope="module")
def stream():
    """The stream module compiled on its own, and its state global as a uint64[3] view."""
    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module(STREAM_MODULE, "<stream>", ctx)
    lower_to_llvm(module, ctx)
    jit = compile_llvm_module(module)
    state = np.ctypeslib.as_array((ctypes.c_uint64 * 3).from_address(jit.get_global(RNG_STATE_GLOBAL)))
    return jit, state


def _unit(bits: np.ndarray, width: int) -> np.ndarray:
    mantissa = 52 if width == 64 else 23
    return (bits >> np.array(width - mantissa, bits.dtype)).astype(np.float64) * 2.0**-mantissa


def test_stream_is_philox_on_the_global_state(stream) -> None:
    jit, state = stream
    assert int(state[0]) == RNG_SEED
    for counter_hi, counter_lo in [(0, 0), (7, U64 - 1)]:  # the second crosses a 2^64 boundary
        state[1], state[2] = counter_lo, counter_hi

        def draw(name: str, out: np.ndarray, *args: np.ndarray, width: int = 32, words: int = 0) -> np.ndarray:
            """Call `name`; the first `words` (default: one per element) Philox words it used."""
            before = [int(v) for v in state]
            jit.call(name, *args, out)
            after, _ = philox_bits(before, (out.size,), width)
            assert [int(v) for v in state] == after  # advanced past the blocks used
            return philox_bits(before, (words or out.size,), width)[1]

        out = np.zeros((2, 3), np.float32)
        bits = draw("uniform", out, np.array(-1, np.float32), np.array(3, np.float32))
        np.testing.assert_array_equal(out.ravel(), (_unit(bits, 32) * 4 - 1).astype(np.float32))

        out = np.zeros(9, np.int32)
        bits = draw("uniform_int", out, np.array(-100, np.int32), np.array(100, np.int32))
        np.testing.assert_array_equal(out, (bits % 200).astype(np.int64) - 100)

        out = np.zeros(5, np.float64)
        bits = draw("normal", out, np.array(2.0), np.array(3.0), width=64, words=6)  # 3 pairs
        u0, u1 = _unit(bits[0::2], 64), _unit(bits[1::2], 64)
        radius, theta = np.sqrt(-2 * np.log(1 - u0)), 2 * np.pi * u1
        z = np.stack([radius * np.sin(theta), radius * np.cos(theta)], axis=1).ravel()[:5]
        np.testing.assert_allclose(out, 2 + 3 * z, rtol=1e-12, atol=1e-12)

        out = np.zeros(7, np.uint32)
        bits = draw("bernoulli", out, np.array(0.5, np.float32))
        np.testing.assert_array_equal(out, (_unit(bits, 32) < 0.5).astype(np.uint32))


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "element", "algorithm", "message"),
    [
        ("4xui64", "ui32", "DEFAULT", "the DEFAULT state must be u64[2] or u64[3]"),
        ("3xui32", "ui32", "DEFAULT", "the DEFAULT state must be u64[2] or u64[3]"),
    ],
)
def test_bit_generator_errors(state: str, element: str, algorithm: str, message: str) -> None:
    st, ot = f"tensor<{state}>", f"tensor<3x{element}>"
    text = (
        f"func.func @f(%s: {st}) -> ({st}, {ot}) {{\n"
        f"  %0, %1 = xla.rng_bit_generator %s, algorithm = {algorithm} : ({st}) -> ({st}, {ot})\n"
        f"  func.return %0, %1 : {st}, {ot}\n}}"
    )
    with pytest.raises(CompileError, match=re.escape(message)):
        compile(text, entry="f")


def test_rng_unsupported_float() -> None:
    t = "tensor<f8E4M3FN>"
    text = (
        f"func.func @f(%a: {t}, %b: {t}) -> tensor<3xf8E4M3FN> {{\n"
        "  %shape = xla.constant dense<[3]> : tensor<1xi64>\n"
        f"  %0 = xla.rng %a, %b, %shape, distribution = UNIFORM : ({t}, {t}, tensor<1xi64>) -> tensor<3xf8E4M3FN>\n"
        "  func.return %0 : tensor<3xf8E4M3FN>\n}"
    )
    with pytest.raises(CompileError, match=re.escape("rng of f8E4M3FN elements is not supported")):
        compile(text, entry="f")
