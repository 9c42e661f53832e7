"""Contractions through the packed, vectorized path (`linalg-pack-contractions`,
`linalg-vectorize-contractions`) against NumPy.

Every case is a function of one module compiled once: sizes of 1, primes and
non-multiples of the register tile, batch dimensions in every position,
transposed operands, each element type the packing converts. Integer-valued
inputs make float results exact whatever the summation order; the random cases
compare with a tolerance that follows from fused multiply-adds summed in k
order. `test_pipeline_packs_*` check that the cases meant for the packed path
take it (so a matcher regression cannot hide behind the simple path), and the
target cases compile the same module for AVX2 and SSE CPUs (a register tile
for 16 registers, LLVM told the CPU has no AVX-512) and run it here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest

from xla_tools import compile

DTYPES = {
    "f32": np.float32,
    "f64": np.float64,
    "bf16": ml_dtypes.bfloat16,
    "f16": np.float16,
    "i8": np.int8,
    "ui8": np.uint8,
    "i16": np.int16,
    "i32": np.int32,
}


@dataclass(frozen=True)
class Case:
    """`einsum(spec)` of operands of `lhs_type`, result `out_type`."""

    name: str
    spec: str
    sizes: dict[str, int]
    lhs_type: str = "f32"
    out_type: str = "f32"
    random: bool = False
    packed: bool = True
    """Whether the case must take the packed path on the host."""

    def operands(self) -> tuple[str, str, str]:
        ins, out = self.spec.split("->")
        lhs, rhs = ins.split(",")
        return lhs, rhs, out

    def shape(self, letters: str) -> tuple[int, ...]:
        return tuple(self.sizes[c] for c in letters)


CASES = [
    Case("mm_64x48x80", "mk,kn->mn", {"m": 64, "k": 48, "n": 80}),
    Case("mm_exact_tile", "mk,kn->mn", {"m": 8, "k": 64, "n": 128}),
    Case("mm_primes", "mk,kn->mn", {"m": 37, "k": 53, "n": 71}),
    Case("mm_one_column", "mk,kn->mn", {"m": 97, "k": 64, "n": 1}, packed=False),
    Case("mm_one_row", "mk,kn->mn", {"m": 1, "k": 64, "n": 300}, packed=False),
    Case("mm_tiny", "mk,kn->mn", {"m": 1, "k": 1, "n": 1}, packed=False),
    Case("mm_k1", "mk,kn->mn", {"m": 40, "k": 1, "n": 70}, packed=False),
    Case("mm_narrow_n", "mk,kn->mn", {"m": 101, "k": 33, "n": 17}),
    Case("mm_shallow_t_rhs", "mk,nk->mn", {"m": 53, "k": 10, "n": 70}),
    Case("mm_k5", "mk,kn->mn", {"m": 67, "k": 5, "n": 131}),
    Case("mm_long_k", "mk,kn->mn", {"m": 9, "k": 700, "n": 20}),
    Case("mm_t_lhs", "km,kn->mn", {"m": 45, "k": 64, "n": 70}),
    Case("mm_t_rhs", "mk,nk->mn", {"m": 45, "k": 64, "n": 70}),
    Case("mm_t_both", "km,nk->mn", {"m": 31, "k": 65, "n": 66}),
    Case("mm_t_rhs_tiled", "mk,nk->mn", {"m": 40, "k": 48, "n": 80}),
    Case("batch_leading", "bmk,bkn->bmn", {"b": 3, "m": 20, "k": 30, "n": 40}),
    Case("batch_t_rhs_tiled", "bmk,bnk->bmn", {"b": 2, "m": 30, "k": 48, "n": 72}, random=True),
    Case("attention_scores_tiled", "qhd,khd->hqk", {"q": 33, "h": 3, "d": 24, "k": 80}, random=True),
    Case("batch_middle", "qhd,khd->hqk", {"q": 33, "h": 3, "d": 16, "k": 35}),
    Case("batch_last", "mkb,knb->bmn", {"m": 41, "k": 29, "n": 53, "b": 2}),
    Case("batch_innermost_result", "bmk,bkn->mnb", {"b": 3, "m": 40, "k": 30, "n": 50}),
    Case("transposed_result", "mk,kn->nm", {"m": 70, "k": 40, "n": 45}),
    Case("two_k_dims", "mij,ijn->mn", {"m": 40, "i": 5, "j": 7, "n": 36}),
    Case("two_m_dims", "abk,kn->abn", {"a": 4, "b": 9, "k": 20, "n": 50}),
    Case("f64", "mk,kn->mn", {"m": 29, "k": 40, "n": 61}, "f64", "f64"),
    Case("bf16_to_f32", "mk,kn->mn", {"m": 33, "k": 48, "n": 70}, "bf16", "f32"),
    Case("bf16_odd_k", "mk,kn->mn", {"m": 40, "k": 37, "n": 40}, "bf16", "f32"),
    Case("random_bf16_to_f32", "mk,kn->mn", {"m": 70, "k": 301, "n": 90}, "bf16", "f32", random=True),
    Case("f16_to_f32", "mk,kn->mn", {"m": 21, "k": 40, "n": 50}, "f16", "f32"),
    Case("i8_to_i32", "mk,kn->mn", {"m": 29, "k": 40, "n": 37}, "i8", "i32"),
    Case("i8_primes", "mk,kn->mn", {"m": 37, "k": 53, "n": 71}, "i8", "i32", random=True),
    Case("i8_tiny", "mk,kn->mn", {"m": 1, "k": 1, "n": 1}, "i8", "i32", packed=False),
    Case("i8_one_row", "mk,kn->mn", {"m": 1, "k": 64, "n": 300}, "i8", "i32", random=True, packed=False),
    Case("i8_k5_t_rhs", "mk,nk->mn", {"m": 67, "k": 5, "n": 131}, "i8", "i32", random=True),
    Case("i8_batch_middle", "qhd,khd->hqk", {"q": 33, "h": 3, "d": 16, "k": 35}, "i8", "i32", random=True),
    Case("i8_batch_last", "mkb,knb->bmn", {"m": 41, "k": 29, "n": 53, "b": 2}, "i8", "i32", random=True),
    Case("i8_two_k_dims", "mij,ijn->mn", {"m": 40, "i": 5, "j": 7, "n": 36}, "i8", "i32", random=True),
    Case("i8_two_k_dims_even", "mij,ijn->mn", {"m": 43, "i": 3, "j": 10, "n": 70}, "i8", "i32", random=True),
    Case("i8_long_k", "mk,kn->mn", {"m": 70, "k": 1031, "n": 90}, "i8", "i32", random=True),
    Case("ui8_to_i32", "mk,kn->mn", {"m": 30, "k": 41, "n": 70}, "ui8", "i32", random=True),
    Case("i16_to_i32", "mk,kn->mn", {"m": 29, "k": 43, "n": 67}, "i16", "i32", random=True),
    Case("i32", "bmk,bkn->bmn", {"b": 2, "m": 20, "k": 30, "n": 40}, "i32", "i32"),
    Case("random_i32", "mk,kn->mn", {"m": 37, "k": 53, "n": 71}, "i32", "i32", random=True),
    Case("bf16", "mk,kn->mn", {"m": 20, "k": 32, "n": 64}, "bf16", "bf16"),
    Case("random_f32", "mk,kn->mn", {"m": 130, "k": 257, "n": 190}, random=True),
    Case("random_batched_t", "bkm,bnk->bmn", {"b": 2, "m": 66, "k": 129, "n": 67}, random=True),
    # B read in place by up to 32 row panels (rows at most 2 KiB apart): edge rows of A,
    # a batch, f64 (32-wide tiles), a transposed result, one panel past the bound.
    Case("near_rows_b", "mk,kn->mn", {"m": 125, "k": 67, "n": 128}, random=True),
    Case("near_rows_batched", "bmk,bkn->bmn", {"b": 3, "m": 30, "k": 41, "n": 192}, random=True),
    Case("near_rows_f64", "mk,kn->mn", {"m": 61, "k": 33, "n": 64}, "f64", "f64"),
    Case("near_rows_t_result", "mk,kn->nm", {"m": 50, "k": 20, "n": 128}),
    Case("near_rows_33_panels", "mk,kn->mn", {"m": 129, "k": 23, "n": 64}, random=True),
    # A read in place (whole 4-row panels along k): many panels, a batch between its
    # rows and k, f64, and one row short of whole panels (packed).
    Case("lhs_in_place", "mk,kn->mn", {"m": 132, "k": 37, "n": 80}, random=True),
    Case("lhs_in_place_batch_middle", "qhd,hdk->hqk", {"q": 36, "h": 3, "d": 20, "k": 70}, random=True),
    Case("lhs_in_place_f64", "mk,kn->mn", {"m": 40, "k": 29, "n": 33}, "f64", "f64"),
    Case("lhs_in_place_one_short", "mk,kn->mn", {"m": 131, "k": 37, "n": 80}, random=True),
]


def _tensor(shape: tuple[int, ...], t: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{t}>"


def function(case: Case) -> str:
    lhs, rhs, out = case.operands()
    batch = [c for c in out if c in lhs and c in rhs]
    contracting = [c for c in lhs if c in rhs and c not in out]
    lhs_free = [c for c in lhs if c not in rhs]
    rhs_free = [c for c in rhs if c not in lhs]
    # dot_general's result is (batch, lhs free, rhs free); a transpose gives the case's order.
    natural = "".join(batch + lhs_free + rhs_free)
    tl, tr = _tensor(case.shape(lhs), case.lhs_type), _tensor(case.shape(rhs), case.lhs_type)
    tn, to = _tensor(case.shape(natural), case.out_type), _tensor(case.shape(out), case.out_type)

    def dims(letters: list[str], operand: str) -> str:
        return ", ".join(str(operand.index(c)) for c in letters)

    batching = f"batching_dims = [{dims(batch, lhs)}] x [{dims(batch, rhs)}], " if batch else ""
    perm = ", ".join(str(natural.index(c)) for c in out)
    return f"""func.func @{case.name}(%a: {tl}, %b: {tr}) -> {to} {{
  %0 = xla.dot_general %a, %b, {batching}contracting_dims = [{dims(contracting, lhs)}] x [{dims(contracting, rhs)}] : ({tl}, {tr}) -> {tn}
  %1 = xla.transpose %0, dims = [{perm}] : ({tn}) -> {to}
  return %1 : {to}
}}"""


MODULE = "\n".join(function(c) for c in CASES)


def inputs(case: Case, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    lhs, rhs, _ = case.operands()
    dtype = DTYPES[case.lhs_type]
    arrays = []
    for letters in (lhs, rhs):
        shape = case.shape(letters)
        if case.random and np.dtype(dtype).kind in "iu":
            # The whole range: products and sums wrap modulo 2^32, as NumPy's int32 does.
            info = np.iinfo(dtype)
            arrays.append(rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype))
        elif case.random:
            arrays.append(rng.standard_normal(shape).astype(dtype))
        else:
            arrays.append(rng.integers(-3, 4, shape).astype(dtype))
    return arrays[0], arrays[1]


def reference(case: Case, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    wide = np.float64 if np.dtype(DTYPES[case.out_type]).kind == "f" or a.dtype.kind == "V" else np.int64
    result = np.einsum(case.spec, a.astype(np.float64).astype(wide), b.astype(np.float64).astype(wide))
    return result.astype(DTYPES[case.out_type])


@pytest.fixture(scope="module")
def module() -> str:
    compile(MODULE, CASES[0].name)
    return MODULE


def _check(case: Case, result: np.ndarray, expected: np.ndarray) -> None:
    assert result.shape == expected.shape and result.dtype == expected.dtype
    if case.random and result.dtype.kind == "f":
        lhs, _, _ = case.operands()
        k = int(np.prod([case.sizes[c] for c in lhs if c not in case.operands()[2]]))
        # fma in k order: each step rounds once; bound by k units of the result's magnitude.
        tol = 4 * k * float(np.finfo(np.float32).eps)
        scale = np.abs(expected).max()
        np.testing.assert_allclose(result, expected, rtol=0, atol=tol * scale)
    else:
        np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_contraction(module: str, case: Case) -> None:
    a, b = inputs(case, 7)
    _check(case, np.asarray(compile(module, case.name)(a, b)), reference(case, a, b))


def _lowered_functions(text: str, target: str = "") -> dict[str, str]:
    """Each function's IR after `linalg-vectorize-contractions` (for `target`)."""
    from xdsl.dialects import func

    from lowering.codegen.pack_contractions import LinalgPackContractionsPass
    from lowering.codegen.vectorize_contractions import LinalgVectorizeContractionsPass
    from xla_dialect.context import make_context, parse_module
    from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

    ctx = make_context()
    module = parse_module(text, ctx=ctx)
    run_passes(module, [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-pack-contractions")] if p != "outline-linalg-kernels"], ctx)
    LinalgPackContractionsPass(target).apply(ctx, module)
    LinalgVectorizeContractionsPass(target).apply(ctx, module)
    return {f.sym_name.data: str(f) for f in module.ops if isinstance(f, func.FuncOp)}


VECTOR_MULI = re.compile(r"arith\.muli .* : vector<")
"""The integer micro-kernel's products."""


def test_pipeline_packs_the_cases_meant_for_it() -> None:
    from lowering.codegen.target import get_target

    target = get_target()
    vnni = target.has_avx512_vnni
    pmaddwd = target.has_avx2 and not vnni and target.vector_bits == 256
    lowered = _lowered_functions(MODULE)
    for case in CASES:
        body = lowered[case.name]
        vectorized = "vector.fma" in body or "x86vector." in body or bool(VECTOR_MULI.search(body))
        if case.packed:
            assert vectorized, f"{case.name}: expected the vectorized micro-kernel"
        else:
            assert not vectorized, f"{case.name}: expected the simple path"
        if case.packed and case.lhs_type in ("i8", "ui8", "i16") and case.name != "i8_two_k_dims":  # odd j
            assert ("x86vector.avx512.dot.i16" in body) == vnni, f"{case.name}: vpdpwssd iff AVX512-VNNI"
            assert ("x86vector.avx2.pmaddwd" in body) == pmaddwd, f"{case.name}: vpmaddwd on AVX2 without VNNI"


@pytest.mark.parametrize("target", ["avx2", "sse"])
def test_other_targets(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiles for 16 registers and 8 or 4 lanes, compiled for a CPU without AVX-512."""
    names = ["mm_primes", "batch_middle", "random_f32", "f64", "i8_primes", "i8_batch_last", "random_i32"]
    cases = [c for c in CASES if c.name in names]
    text = "\n".join(function(c) for c in cases)
    lowered = _lowered_functions(text, target)
    lanes = {"avx2": 8, "sse": 4}[target]
    assert f"vector<{lanes}xf32>" in lowered["mm_primes"]
    assert "vector<16xf32>" not in lowered["mm_primes"]
    assert f"vector<{lanes}xi32>" in lowered["i8_primes"]
    # AVX2 sums i16 pairs with vpmaddwd; SSE multiplies i32 lanes
    assert ("x86vector.avx2.pmaddwd" in lowered["i8_primes"]) == (target == "avx2"), target
    if not _runs_here(target):
        pytest.skip(f"the values need a CPU with {target}'s extensions (the IR was checked)")
    monkeypatch.setenv("XLA_DIALECT_TARGET", target)
    for case in cases:
        a, b = inputs(case, 11)
        _check(case, np.asarray(compile(text, case.name)(a, b)), reference(case, a, b))


def _runs_here(target: str) -> bool:
    """Whether this CPU has what code compiled for the named `target` uses (the JIT
    refuses the others: they would die of an illegal instruction)."""
    from lowering.codegen.target import NAMED_TARGETS
    from runtime.jit import missing_features

    return not missing_features(NAMED_TARGETS[target])


NEAR_ROWS = ["near_rows_b", "near_rows_batched", "near_rows_f64", "near_rows_t_result", "near_rows_33_panels"]


def test_near_rows_read_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a target that reads near k rows of B in place (Zen 4: `near_rows_in_place`), the
    near-row cases view B unpacked up to 32 row panels, and give NumPy's values; on
    Intel's cores B is packed. The values are checked here on this CPU through the
    `avx512` target with the property switched on (the `znver4` target's code needs a
    Zen 4 to run)."""
    import dataclasses

    from lowering.codegen import target as target_module

    cases = [c for c in CASES if c.name in NEAR_ROWS]
    text = "\n".join(function(c) for c in cases) + "\n// near rows read in place\n"
    for name, in_place in (("znver4", True), ("avx512", False)):
        lowered = _lowered_functions(text, name)
        # B (`%b`, its vectorized side 32 or 64 wide) viewed; the transposed result's
        # case vectorizes the other operand.
        b_view = re.compile(r"memref.reinterpret_cast %b to offset: \[0\], sizes: \[\d+, \d+, \d+, (32|64)\]")
        b_viewed = {c.name: bool(b_view.search(lowered[c.name])) for c in cases if c.name != "near_rows_t_result"}
        expected = {n: in_place and n != "near_rows_33_panels" for n in b_viewed}
        assert b_viewed == expected, name
    avx512 = dataclasses.replace(target_module.NAMED_TARGETS["avx512"], near_rows_in_place=True)
    monkeypatch.setitem(target_module.NAMED_TARGETS, "avx512", avx512)
    target_module._named.cache_clear()
    monkeypatch.setenv("XLA_DIALECT_TARGET", "avx512")
    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    try:
        assert "memref.reinterpret_cast %b to" in _lowered_functions(text)["near_rows_b"]
        if not _runs_here("avx512"):
            pytest.skip("the values need an AVX-512 CPU (the IR was checked)")
        for case in cases:
            a, b = inputs(case, 13)
            _check(case, np.asarray(compile(text, case.name)(a, b)), reference(case, a, b))
    finally:
        target_module._named.cache_clear()


RIGHT_PACK_CASES = [
    # 34 column panels, 2 per part: the last part packs one; edge columns and rows.
    Case("rpp_short_last_part", "mk,kn->mn", {"m": 21, "k": 30, "n": 2171}, random=True),
    Case("rpp_batched", "bmk,bkn->bmn", {"b": 3, "m": 30, "k": 41, "n": 200}, random=True),
    Case("rpp_t_rhs", "mk,nk->mn", {"m": 40, "k": 48, "n": 200}, random=True),
    Case("rpp_bf16", "mk,kn->mn", {"m": 33, "k": 48, "n": 130}, "bf16", "f32"),
    Case("rpp_f64", "mk,kn->mn", {"m": 29, "k": 40, "n": 161}, "f64", "f64"),
    Case("rpp_i8", "mk,kn->mn", {"m": 29, "k": 40, "n": 137}, "i8", "i32", random=True),
    Case("rpp_two_k_dims", "mij,ijn->mn", {"m": 24, "i": 5, "j": 7, "n": 136}, random=True),
]


def test_right_pack_in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `right_pack_in_parts` (Intel's AVX-512 cores), B's pack moves into the
    parallel parts when all rows fit one: each part packs its columns into a per-thread
    buffer (an alloca of `[1, panels, k, nr]`), no whole packed B is allocated, and the
    results are NumPy's. Checked through the `avx512` target with the property switched
    on, which runs on any AVX-512 CPU; without it, B is packed whole."""
    import dataclasses

    from lowering.codegen import target as target_module

    text = "\n".join(function(c) for c in RIGHT_PACK_CASES) + "\n// right pack in parts\n"
    local_b = re.compile(r"memref.alloca\(\) \{alignment = 64 : i64\} : memref<1x\d+x\d+x(8|16|32|64)x?\d*x[fi]\d+>")
    whole_b = re.compile(r"memref.alloc\(\) \{alignment = 64 : i64\} : memref<\d+x\d+x\d+x(8|16|32|64)x[fi]\d+>")
    before = _lowered_functions(text, "avx512")
    assert not any(local_b.search(f) for f in before.values())
    avx512 = dataclasses.replace(target_module.NAMED_TARGETS["avx512"], right_pack_in_parts=True)
    monkeypatch.setitem(target_module.NAMED_TARGETS, "avx512", avx512)
    target_module._named.cache_clear()
    monkeypatch.setenv("XLA_DIALECT_TARGET", "avx512")
    monkeypatch.setenv("XLA_DIALECT_CACHE", "0")
    try:
        after = _lowered_functions(text)
        for case in RIGHT_PACK_CASES:
            assert local_b.search(after[case.name]) and not whole_b.search(after[case.name]), case.name
        if not _runs_here("avx512"):
            pytest.skip("the values need an AVX-512 CPU (the IR was checked)")
        for case in RIGHT_PACK_CASES:
            a, b = inputs(case, 17)
            _check(case, np.asarray(compile(text, case.name)(a, b)), reference(case, a, b))
    finally:
        target_module._named.cache_clear()


def test_no_leak_across_10000_calls() -> None:
    """Packed panels, scratch tiles and cached blocks: resident memory stays flat."""

    def resident_kib() -> int:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4

    text = function(Case("leak", "mk,kn->mn", {"m": 64, "k": 72, "n": 80}))
    f = compile(text, "leak")
    a = np.ones((64, 72), np.float32)
    b = np.ones((72, 80), np.float32)
    out = np.empty((64, 80), np.float32)
    for _ in range(200):
        f(a, b, out=[out])
    before = resident_kib()
    for _ in range(10_000):
        f(a, b, out=[out])
    assert resident_kib() - before < 4096
    np.testing.assert_array_equal(out, np.full((64, 80), 72, np.float32))
