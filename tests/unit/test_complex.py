"""Complex element types (`complex<f32>`, `complex<f64>`) through `lower-to-llvm`.

Every case is one function of a single module, compiled once. Element-wise ops
are compared with NumPy computed in complex128 (so complex64 results are judged
against a more precise reference), by the modulus of the error relative to the
modulus of the reference. Structural ops (broadcast, reshape, transpose, slice,
concatenate, pad), contractions and reductions move or combine whole complex
values and are compared with NumPy's results directly. Special values
(division by zero, infinities, signed zeros, NaN) are checked separately.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest

from xla_tools import compile

C64, C128 = np.dtype(np.complex64), np.dtype(np.complex128)
TYPES = {"c64": (C64, "complex<f32>", "f32", np.float32), "c128": (C128, "complex<f64>", "f64", np.float64)}
RTOL = {"c64": 4e-6, "c128": 1e-13}

Ref = Callable[..., np.ndarray]


@dataclass
class Case:
    name: str
    args: list[str]  # MLIR argument types
    body: list[str]  # ops; the result is %r
    result: str
    inputs: Callable[[np.random.Generator], list[np.ndarray]]
    reference: Ref
    rtol: float = 0.0  # 0: exact
    atol: float = 0.0
    ids: list[str] = field(default_factory=list)

    def function(self) -> str:
        params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(self.args))
        lines = "\n    ".join(self.body)
        return (
            f"  func.func @{self.name}({params}) -> {self.result} {{\n    {lines}\n"
            f"    func.return %r : {self.result}\n  }}"
        )


def random_complex(rng: np.random.Generator, shape: Sequence[int], dtype: np.dtype, scale: float = 3.0) -> np.ndarray:
    z = rng.uniform(-scale, scale, shape) + 1j * rng.uniform(-scale, scale, shape)
    return z.astype(dtype)


SHAPE = (3, 5)
SPECIAL_POINTS = [1, -1, 1j, -1j, 0.5 + 1e-3j, 1e-4 - 2e-4j, 20 - 0.3j, -25 + 1.5j, 1e-30 + 1e-30j]


def elementwise_inputs(
    dtype: np.dtype, arity: int, special: bool = True
) -> Callable[[np.random.Generator], list[np.ndarray]]:
    def make(rng: np.random.Generator) -> list[np.ndarray]:
        arrays = []
        for _ in range(arity):
            z = random_complex(rng, SHAPE, dtype)
            if special:
                z.reshape(-1)[: len(SPECIAL_POINTS)] = SPECIAL_POINTS
            arrays.append(z)
        return arrays

    return make


def zs(dtype: np.dtype, *shapes: tuple[int, ...]) -> Callable[[np.random.Generator], list[np.ndarray]]:
    """Inputs: one random complex array per shape."""
    return lambda rng: [random_complex(rng, shape, dtype) for shape in shapes]


def _sign(z: np.ndarray) -> np.ndarray:
    m = np.abs(z)
    return np.where(m == 0, z, z / np.where(m == 0, 1, m))


def _log1p(z: np.ndarray) -> np.ndarray:
    """log(1 + z) without NumPy's rounding of 1 + z (|1 + z|² = 1 + 2a + a² + b²,
    in extended precision)."""
    a, b = z.real.astype(np.longdouble), z.imag.astype(np.longdouble)
    re = 0.5 * np.log1p(2 * a + a * a + b * b)
    return (re + 1j * np.arctan2(b, 1 + a)).astype(C128)


def _atan2(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    return -1j * np.log((x + 1j * y) / np.sqrt(x * x + y * y))


UNARY: dict[str, Ref] = {
    "negate": np.negative,
    "exponential": np.exp,
    "exponential_minus_one": np.expm1,
    "log": np.log,
    "log_plus_one": lambda z: _log1p(z),
    "sqrt": np.sqrt,
    "rsqrt": lambda z: 1 / np.sqrt(z),
    "sine": np.sin,
    "cosine": np.cos,
    "tan": np.tan,
    "tanh": np.tanh,
    "sign": _sign,
    "logistic": lambda z: 1 / (1 + np.exp(-z)),
    "cbrt": lambda z: z ** (1 / 3),
}
BINARY: dict[str, Ref] = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "power": np.power,
    "atan2": _atan2,
}
PARTS: dict[str, Ref] = {"abs": np.abs, "real": np.real, "imag": np.imag}


def _tensor(shape: Sequence[int], element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


def _cases() -> list[Case]:
    cases: list[Case] = []
    for key, (dtype, ct, ft, fdtype) in TYPES.items():
        t = _tensor(SHAPE, ct)
        ft_t = _tensor(SHAPE, ft)
        rtol = RTOL[key]
        for op, ref in UNARY.items():
            cases.append(Case(f"{op}_{key}", [t], [f"%r = xla.{op} %a0 : {t}"], t, elementwise_inputs(dtype, 1), ref, rtol))
        for op, ref in BINARY.items():
            tol = rtol * (50 if op == "power" else 1)  # exp(w log z) amplifies the error of log z
            # (atan2's formula squares its operands: no tiny special points)
            inputs = elementwise_inputs(dtype, 2, special=op != "atan2")
            cases.append(Case(f"{op}_{key}", [t, t], [f"%r = xla.{op} %a0, %a1 : {t}"], t, inputs, ref, tol))
        for op, ref in PARTS.items():
            cases.append(
                Case(f"{op}_{key}", [t], [f"%r = xla.{op} %a0 : ({t}) -> {ft_t}"], ft_t, elementwise_inputs(dtype, 1), ref, rtol)
            )
        cases.append(
            Case(
                f"complex_{key}",
                [ft_t, ft_t],
                [f"%r = xla.complex %a0, %a1 : ({ft_t}, {ft_t}) -> {t}"],
                t,
                lambda rng, f=fdtype: [rng.standard_normal(SHAPE).astype(f), rng.standard_normal(SHAPE).astype(f)],
                lambda a, b: a + 1j * b,
            )
        )
        bool_t = _tensor(SHAPE, "i1")

        def eq_inputs(rng: np.random.Generator, d: np.dtype = dtype) -> list[np.ndarray]:
            a = random_complex(rng, SHAPE, d)
            b = a.copy()
            b[0] += 1  # real part differs
            b[1] += 1j  # imaginary part differs
            b[2, 0] = complex(np.nan, 0)
            a[2, 0] = complex(np.nan, 0)
            return [a, b]

        for direction, ref in (("EQ", np.equal), ("NE", np.not_equal)):
            cases.append(
                Case(
                    f"compare_{direction.lower()}_{key}",
                    [t, t],
                    [f"%r = xla.compare {direction}, %a0, %a1 : ({t}, {t}) -> {bool_t}"],
                    bool_t,
                    eq_inputs,
                    ref,
                )
            )
        cases.append(
            Case(
                f"select_{key}",
                [t, t],
                [
                    f"%p = xla.compare NE, %a0, %a1 : ({t}, {t}) -> {bool_t}",
                    f"%r = xla.select %p, %a0, %a1 : ({bool_t}, {t}, {t}) -> {t}",
                ],
                t,
                eq_inputs,
                lambda a, b: np.where(a != b, a, b),
            )
        )
    c64, c128 = _tensor(SHAPE, "complex<f32>"), _tensor(SHAPE, "complex<f64>")
    convert_cases = [
        ("c64_to_c128", c64, c128, lambda r: [random_complex(r, SHAPE, C64)], lambda z: z.astype(C128)),
        ("c128_to_c64", c128, c64, lambda r: [random_complex(r, SHAPE, C128)], lambda z: z.astype(C64)),
        ("f32_to_c64", _tensor(SHAPE, "f32"), c64, lambda r: [r.standard_normal(SHAPE).astype(np.float32)], lambda x: x.astype(C64)),
        ("f64_to_c64", _tensor(SHAPE, "f64"), c64, lambda r: [r.standard_normal(SHAPE)], lambda x: x.astype(C64)),
        ("i32_to_c128", _tensor(SHAPE, "i32"), c128, lambda r: [r.integers(-1000, 1000, SHAPE).astype(np.int32)], lambda x: x.astype(C128)),
        ("pred_to_c64", _tensor(SHAPE, "i1"), c64, lambda r: [r.integers(0, 2, SHAPE).astype(bool)], lambda x: x.astype(C64)),
        ("c64_to_f32", c64, _tensor(SHAPE, "f32"), lambda r: [random_complex(r, SHAPE, C64)], lambda z: z.real.copy()),
        ("c128_to_i32", c128, _tensor(SHAPE, "i32"), lambda r: [random_complex(r, SHAPE, C128, 100)], lambda z: np.trunc(z.real).astype(np.int32)),
    ]
    for name, src, dst, inputs, ref in convert_cases:
        cases.append(Case(f"convert_{name}", [src], [f"%r = xla.convert %a0 : ({src}) -> {dst}"], dst, inputs, ref))
    cases.extend(_structural_cases())
    return cases


def _structural_cases() -> list[Case]:
    cases: list[Case] = []
    for key, (dtype, ct, _ft, _f) in TYPES.items():
        def T(shape: Sequence[int], ct: str = ct) -> str:
            return _tensor(shape, ct)

        rtol = RTOL[key]
        literal = "[(1.5, -2.0), (0.0, 1.0), (-3.25, 0.5)]"
        lit_value = np.array([1.5 - 2j, 1j, -3.25 + 0.5j], dtype)
        cases += [
            Case(
                f"constant_{key}",
                [T([3])],
                [
                    f"%c = xla.constant dense<{literal}> : {T([3])}",
                    f"%s = xla.constant dense<(2.0, -1.0)> : {T([3])}",
                    f"%m = xla.multiply %a0, %c : {T([3])}",
                    f"%r = xla.add %m, %s : {T([3])}",
                ],
                T([3]),
                zs(dtype, (3,)),
                lambda a, v=lit_value: a * v + (2 - 1j),
                rtol,
            ),
            Case(
                f"broadcast_{key}",
                [T([3])],
                [f"%r = xla.broadcast_in_dim %a0, dims = [1] : ({T([3])}) -> {T([2, 3])}"],
                T([2, 3]),
                zs(dtype, (3,)),
                lambda a: np.broadcast_to(a, (2, 3)),
            ),
            Case(
                f"reshape_transpose_{key}",
                [T([2, 6])],
                [
                    f"%s = xla.reshape %a0 : ({T([2, 6])}) -> {T([3, 4])}",
                    f"%r = xla.transpose %s, dims = [1, 0] : ({T([3, 4])}) -> {T([4, 3])}",
                ],
                T([4, 3]),
                zs(dtype, (2, 6)),
                lambda a: a.reshape(3, 4).T,
            ),
            Case(
                f"slice_concatenate_{key}",
                [T([6]), T([2])],
                [
                    f"%s = xla.slice %a0 [1:6:2] : ({T([6])}) -> {T([3])}",
                    f"%r = xla.concatenate %s, %a1, dim = 0 : ({T([3])}, {T([2])}) -> {T([5])}",
                ],
                T([5]),
                zs(dtype, (6,), (2,)),
                lambda a, b: np.concatenate([a[1:6:2], b]),
            ),
            Case(
                f"pad_{key}",
                [T([3]), T([])],
                [f"%r = xla.pad %a0, %a1, low = [1], high = [2], interior = [1] : ({T([3])}, {T([])}) -> {T([8])}"],
                T([8]),
                zs(dtype, (3,), ()),
                lambda a, v: np.array([v, a[0], v, a[1], v, a[2], v, v]),
            ),
            Case(
                f"dot_{key}",
                [T([4, 5]), T([5, 3])],
                [f"%r = xla.dot %a0, %a1 : ({T([4, 5])}, {T([5, 3])}) -> {T([4, 3])}"],
                T([4, 3]),
                zs(dtype, (4, 5), (5, 3)),
                np.matmul,
                rtol * 10,
            ),
            Case(
                f"dot_general_{key}",
                [T([2, 3, 4]), T([2, 4, 5])],
                [
                    (
                        "%r = xla.dot_general %a0, %a1, batching_dims = [0] x [0], contracting_dims = [2] x [1]"
                        f" : ({T([2, 3, 4])}, {T([2, 4, 5])}) -> {T([2, 3, 5])}"
                    )
                ],
                T([2, 3, 5]),
                zs(dtype, (2, 3, 4), (2, 4, 5)),
                np.matmul,
                rtol * 10,
            ),
            Case(
                f"reduce_add_{key}",
                [T([4, 6])],
                [
                    f"%c = xla.constant dense<(0.0, 0.0)> : {T([])}",
                    f"%r = xla.reduce(%a0 init: %c) applies xla.add across dimensions = [1] : ({T([4, 6])}, {T([])}) -> {T([4])}",
                ],
                T([4]),
                zs(dtype, (4, 6)),
                lambda a: a.sum(axis=1),
                rtol * 10,
            ),
            Case(
                f"reduce_multiply_{key}",
                [T([5])],
                [
                    f"%c = xla.constant dense<(1.0, 0.0)> : {T([])}",
                    f"%r = xla.reduce(%a0 init: %c) applies xla.multiply across dimensions = [0] : ({T([5])}, {T([])}) -> {T([])}",
                ],
                T([]),
                zs(dtype, (5,)),
                lambda a: np.prod(a.astype(C128)),
                rtol * 10,
            ),
        ]
    mixed = [_tensor([3, 4], "complex<f32>"), _tensor([4], "complex<f32>"), _tensor([3], "complex<f64>")]
    cases.append(
        Case(
            "dot_c64_to_c128",
            mixed[:2],
            [f"%r = xla.dot %a0, %a1 : ({mixed[0]}, {mixed[1]}) -> {mixed[2]}"],
            mixed[2],
            lambda rng: [random_complex(rng, (3, 4), C64), random_complex(rng, (4,), C64)],
            lambda a, b: a.astype(C128) @ b.astype(C128),
            1e-13,
        )
    )
    return cases


CASES = _cases()
MODULE = "builtin.module {\n" + "\n".join(c.function() for c in CASES) + "\n}\n"


@pytest.fixture(scope="module")
def functions() -> dict[str, Callable[..., np.ndarray]]:
    return {c.name: compile(MODULE, entry=c.name) for c in CASES}  # pyright: ignore[reportReturnType]


def _check(got: np.ndarray, ref: np.ndarray, rtol: float, atol: float = 0.0) -> None:
    assert got.shape == ref.shape
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(got, ref.astype(got.dtype))
        return
    ref = ref.astype(C128 if np.iscomplexobj(ref) else np.float64)
    finite = np.isfinite(ref)
    # infinities and NaNs must match exactly (part by part)
    np.testing.assert_array_equal(got[~finite], ref[~finite].astype(got.dtype))
    with np.errstate(invalid="ignore"):  # inf - inf where the infinities matched
        err = np.abs(got.astype(ref.dtype) - ref)
    bound = rtol * np.abs(ref) + atol + np.finfo(got.real.dtype).tiny
    bad = finite & ~(err <= bound)
    assert not bad.any(), f"at {np.argwhere(bad)[:5].tolist()}: got {got[bad][:5]}, want {ref[bad][:5]}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_complex(case: Case, functions: dict[str, Callable[..., np.ndarray]]) -> None:
    rng = np.random.default_rng(abs(hash(case.name)) % 2**32)
    inputs = case.inputs(rng)
    wide = [x.astype(C128) if np.iscomplexobj(x) else x for x in inputs]
    with np.errstate(all="ignore"):
        ref = np.asarray(case.reference(*wide))
    got = functions[case.name](*inputs)
    _check(got, ref, case.rtol, case.atol)


# ---------------------------------------------------------------------------
# Special values
# ---------------------------------------------------------------------------

INF, NAN = np.inf, np.nan
SPECIAL_MODULE = """
func.func @special_div(%a: tensor<6xcomplex<f64>>, %b: tensor<6xcomplex<f64>>) -> tensor<6xcomplex<f64>> {
  %r = xla.divide %a, %b : tensor<6xcomplex<f64>>
  func.return %r : tensor<6xcomplex<f64>>
}
func.func @special_abs(%a: tensor<6xcomplex<f32>>) -> tensor<6xf32> {
  %r = xla.abs %a : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  func.return %r : tensor<6xf32>
}
func.func @special_sqrt(%a: tensor<6xcomplex<f64>>) -> tensor<6xcomplex<f64>> {
  %r = xla.sqrt %a : tensor<6xcomplex<f64>>
  func.return %r : tensor<6xcomplex<f64>>
}
func.func @special_exp(%a: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  %r = xla.exponential %a : tensor<4xcomplex<f64>>
  func.return %r : tensor<4xcomplex<f64>>
}
func.func @special_tanh(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %r = xla.tanh %a : tensor<4xcomplex<f32>>
  func.return %r : tensor<4xcomplex<f32>>
}
func.func @special_pow(%a: tensor<4xcomplex<f64>>, %b: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  %r = xla.power %a, %b : tensor<4xcomplex<f64>>
  func.return %r : tensor<4xcomplex<f64>>
}
func.func @special_sign(%a: tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>> {
  %r = xla.sign %a : tensor<3xcomplex<f64>>
  func.return %r : tensor<3xcomplex<f64>>
}
"""


@pytest.fixture(scope="module")
def special() -> Callable[[str], Callable[..., np.ndarray]]:
    return lambda name: compile(SPECIAL_MODULE, entry=name)  # pyright: ignore[reportReturnType]


def _same(got: np.ndarray, want: Sequence[complex] | np.ndarray) -> None:
    np.testing.assert_allclose(got, np.asarray(want, dtype=got.dtype), rtol=1e-6, equal_nan=True)


def test_division_special_values(special: Callable[[str], Callable[..., np.ndarray]]) -> None:
    a = np.array([1 + 1j, -2 + 0j, complex(INF, 1), 3 + 4j, 1e300 + 1e300j, 1e-300 + 0j], C128)
    b = np.array([0j, 0j, 2 + 1j, complex(INF, 0), 1e300 + 1e300j, 1e-300 + 1e-300j], C128)
    got = special("special_div")(a, b)
    # z/0 → signed infinities (XLA and NumPy), inf/finite → infinity,
    # finite/inf → 0, and Smith's scaling keeps huge and tiny quotients exact.
    _same(got[:2], [complex(INF, INF), complex(-INF, NAN)])
    assert np.isinf(got[2].real) and got[2].real > 0 and np.isinf(got[2].imag)
    assert got[3] == 0
    _same(got[4:], [1 + 0j, 0.5 - 0.5j])


def test_abs_special_values(special: Callable[[str], Callable[..., np.ndarray]]) -> None:
    a = np.array([3e30 + 4e30j, 3e-30 + 4e-30j, 0j, complex(INF, NAN), complex(NAN, 1), complex(-INF, 0)], C64)
    got = special("special_abs")(a)
    _same(got, [5e30, 5e-30, 0, INF, NAN, INF])


def test_sqrt_special_values(special: Callable[[str], Callable[..., np.ndarray]]) -> None:
    a = np.array([0j, -4 + 0j, complex(-4, -0.0), complex(1, INF), complex(-INF, 1), 1e300 + 1e300j], C128)
    got = special("special_sqrt")(a)
    _same(got, [0j, 2j, -2j, complex(INF, INF), complex(0, INF), np.sqrt(a[5])])


def test_exp_special_values(special: Callable[[str], Callable[..., np.ndarray]]) -> None:
    a = np.array([complex(INF, 0), complex(-INF, 0), 710 + 0j, complex(NAN, 0)], C128)
    _same(special("special_exp")(a), [complex(INF, 0), 0j, complex(INF, 0), complex(NAN, 0)])


def test_tanh_large_arguments(special: Callable[[str], Callable[..., np.ndarray]]) -> None:
    a = np.array([100 + 1j, -100 + 1j, 30 - 0.5j, 0.5 + 0j], C64)
    got = special("special_tanh")(a)
    assert np.all(np.isfinite(got))
    _same(got, np.tanh(a.astype(C128)).astype(C64))


def test_power_of_zero(special: Callable[[str], Callable[..., np.ndarray]]) -> None:
    a = np.array([0j, 0j, 2 + 3j, -1 + 0j], C128)
    b = np.array([0j, 2.5 + 1j, 0j, 0.5 + 0j], C128)
    _same(special("special_pow")(a, b), [1, 0, 1, 1j])


def test_sign_of_zero_and_nan(special: Callable[[str], Callable[..., np.ndarray]]) -> None:
    a = np.array([0j, complex(NAN, 1), -3 + 4j], C128)
    _same(special("special_sign")(a), [0j, complex(NAN, NAN), -0.6 + 0.8j])
