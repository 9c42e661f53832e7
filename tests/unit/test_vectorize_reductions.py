"""Numerics of `linalg-vectorize-reductions` through `compile()`: row, column and
selection (argmax) forms on sizes with remainders, against NumPy and against the
spec's sequential order where the pass must keep it (column form, `reassociate=False`):
NaN propagation of max/min from any lane, signed zeros, argmax ties and first NaN."""

from __future__ import annotations

import numpy as np
import pytest

from xla_dialect import parse_module
from xla_tools import compile
from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

R, C = 6, 101  # 101 = 6 * 16 + 5: vector loop, then a scalar remainder (16 lanes of f32 with AVX-512)
MIXED = 400  # rows of the special-value tests


def _reduce_fn(name: str, op: str, dims: int, t: str, init: str, shape: tuple[int, int] = (R, C)) -> str:
    out = shape[1 - dims]
    return f"""
func.func @{name}(%x: tensor<{shape[0]}x{shape[1]}x{t}>) -> tensor<{out}x{t}> {{
  %init = xla.constant dense<{init}> : tensor<{t}>
  %r = xla.reduce(%x init: %init) applies xla.{op} across dimensions = [{dims}] : (tensor<{shape[0]}x{shape[1]}x{t}>, tensor<{t}>) -> tensor<{out}x{t}>
  func.return %r : tensor<{out}x{t}>
}}"""


def _argmax_fn(name: str, dims: int) -> str:
    out = C if dims == 0 else R
    return f"""
func.func @{name}(%x: tensor<{R}x{C}xf32>) -> tensor<{out}xi32> {{
  %iota = xla.iota dim = {dims} : tensor<{R}x{C}xi32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %v, %i = xla.reduce(%x init: %ninf), (%iota init: %zero) across dimensions = [{dims}] : (tensor<{R}x{C}xf32>, tensor<{R}x{C}xi32>, tensor<f32>, tensor<i32>) -> (tensor<{out}xf32>, tensor<{out}xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {{
    %gt = xla.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = xla.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = xla.or %gt, %nan : tensor<i1>
    %eq = xla.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = xla.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = xla.and %eq, %lt : tensor<i1>
    %pick_i = xla.or %pick, %tie : tensor<i1>
    %rv = xla.select %pick, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %ri = xla.select %pick_i, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %rv, %ri : tensor<f32>, tensor<i32>
  }}
  func.return %i : tensor<{out}xi32>
}}"""


FUNCTIONS = {
    "max_rows": (_reduce_fn("max_rows", "maximum", 1, "f32", "0xFF800000"), "row"),
    "min_rows": (_reduce_fn("min_rows", "minimum", 1, "f32", "0x7F800000"), "row"),
    "sum_rows": (_reduce_fn("sum_rows", "add", 1, "f32", "-0.0"), "row"),
    "sum_rows_f64": (_reduce_fn("sum_rows_f64", "add", 1, "f64", "0.0"), "row"),
    "sum_rows_i32": (_reduce_fn("sum_rows_i32", "add", 1, "i32", "7"), "row"),
    "max_rows_f64": (_reduce_fn("max_rows_f64", "maximum", 1, "f64", "0xFFF0000000000000"), "row"),
    "min_rows_f64": (_reduce_fn("min_rows_f64", "minimum", 1, "f64", "0x7FF0000000000000"), "row"),
    # many rows of special values for the checked max/min (a redo only on a NaN or a zero)
    "max_rows_mixed": (_reduce_fn("max_rows_mixed", "maximum", 1, "f32", "0xFF800000", (MIXED, 133)), "row"),
    "min_rows_mixed": (_reduce_fn("min_rows_mixed", "minimum", 1, "f32", "0x7F800000", (MIXED, 133)), "row"),
    "max_rows_mixed_f64": (
        _reduce_fn("max_rows_mixed_f64", "maximum", 1, "f64", "0xFFF0000000000000", (MIXED, 67)),
        "row",
    ),
    "min_rows_mixed_f64": (
        _reduce_fn("min_rows_mixed_f64", "minimum", 1, "f64", "0x7FF0000000000000", (MIXED, 67)),
        "row",
    ),
    # an initial value of -0.0 (max) and +0.0 (min) combined after the checked loop
    "max_rows_init_zero": (_reduce_fn("max_rows_init_zero", "maximum", 1, "f32", "-0.0"), "row"),
    "min_rows_init_zero": (_reduce_fn("min_rows_init_zero", "minimum", 1, "f32", "0.0"), "row"),
    "max_rows_i8": (_reduce_fn("max_rows_i8", "maximum", 1, "i8", "-128"), "row"),
    "sum_columns": (_reduce_fn("sum_columns", "add", 0, "f32", "0.0"), "column"),
    "sum_columns_wide": (_reduce_fn("sum_columns_wide", "add", 0, "f32", "0.0", (3, 275)), "column"),
    "max_columns": (_reduce_fn("max_columns", "maximum", 0, "f32", "0xFF800000"), "column"),
    # 11 rows = 2 groups of 4 (`column_rows`) and a group of 3, over a block, a vector and scalars
    "sum_columns_tall": (_reduce_fn("sum_columns_tall", "add", 0, "f32", "-0.0", (11, 275)), "column"),
    "sum_columns_f64": (_reduce_fn("sum_columns_f64", "add", 0, "f64", "0.0", (9, 131)), "column"),
    "sum_columns_3d": (
        """
func.func @sum_columns_3d(%x: tensor<5x3x290xf32>) -> tensor<290xf32> {
  %init = xla.constant dense<0.0> : tensor<f32>
  %r = xla.reduce(%x init: %init) applies xla.add across dimensions = [0, 1] : (tensor<5x3x290xf32>, tensor<f32>) -> tensor<290xf32>
  func.return %r : tensor<290xf32>
}""",
        "column",
    ),
    "argmax_rows": (_argmax_fn("argmax_rows", 1), "select"),
    "argmax_columns": (_argmax_fn("argmax_columns", 0), "column"),
}
MODULE = "\n".join(text for text, _ in FUNCTIONS.values())
RNG = np.random.default_rng(11)


@pytest.fixture(scope="module")
def fns():
    return {name: compile(MODULE, entry=name) for name in FUNCTIONS}


@pytest.fixture(scope="module")
def ordered():
    return {name: compile(MODULE, entry=name, reassociate=False) for name in ("sum_rows", "argmax_rows")}


def test_each_function_takes_its_form() -> None:
    module = parse_module(MODULE)
    run_passes(module, [p for p in LOWER_TO_LLVM[: LOWER_TO_LLVM.index("linalg-vectorize-reductions") + 1] if p != "outline-linalg-kernels"])
    forms = {}
    for f in module.ops:
        notes = [o.attributes["vectorized"].data for o in f.walk() if "vectorized" in o.attributes]
        forms[f.sym_name.data] = [n.split("(")[0] for n in notes]
    for name, (_, form) in FUNCTIONS.items():
        assert form in forms[name], (name, forms[name])


def _sequential(x: np.ndarray, axis: int, init: float = 0.0) -> np.ndarray:
    """The spec's order: one element after the other, in the element type."""
    acc = np.full(x.shape[1 - axis], init, dtype=x.dtype)
    for k in range(x.shape[axis]):
        acc = (acc + (x[k] if axis == 0 else x[:, k])).astype(x.dtype)
    return acc


def test_max_min_rows_nan_from_any_lane_and_signed_zeros(fns) -> None:
    x = RNG.standard_normal((R, C)).astype(np.float32)
    x[0, 3] = np.nan  # a lane of the first vector
    x[1, 40] = np.nan  # a later accumulator
    x[2, C - 1] = np.nan  # the scalar remainder
    x[3] = -0.0
    x[4] = -0.0
    x[4, 50] = 0.0
    mx, mn = fns["max_rows"](x), fns["min_rows"](x)
    assert np.isnan(mx[:3]).all() and np.isnan(mn[:3]).all()
    assert mx[3] == 0 and np.signbit(mx[3]) and np.signbit(mn[3])
    assert mx[4] == 0 and not np.signbit(mx[4]) and np.signbit(mn[4])
    np.testing.assert_array_equal(mx[5], x[5].max())  # the fast path's result stands
    np.testing.assert_array_equal(mn[5], x[5].min())
    # infinities are numbers to the one-pass max/min
    y = RNG.standard_normal((R, C)).astype(np.float32)
    y[0, 9] = np.inf
    y[1, 9] = -np.inf
    y[2, [0, 50]] = [np.inf, np.nan]
    y[3] = -np.inf
    y[4] = 0.0
    y[4, 30] = -0.0
    for got, want in ((fns["max_rows"](y), np.max(y, axis=1)), (fns["min_rows"](y), np.min(y, axis=1))):
        np.testing.assert_array_equal(got, want)
    assert not np.signbit(fns["max_rows"](y)[4]) and np.signbit(fns["min_rows"](y)[4])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_min_rows_sign_of_zero_nan_and_infinities_in_one_pass(fns, dtype) -> None:
    """The one-pass max/min: the sign of a zero result from the bits of every element
    (in whichever lane and accumulator they sit), a NaN anywhere, infinities as numbers."""
    suffix = "_f64" if dtype == np.float64 else ""
    x = np.full((R, C), -1.0, dtype)
    x[0, [7, 70]] = -0.0  # max: only -0.0 and negatives -> -0.0
    x[1, [7, 70]] = [-0.0, 0.0]  # +0.0 in another accumulator -> +0.0
    x[2, [1, 99]] = [0.0, -0.0]  # +0.0 in the first lane, -0.0 in the remainder -> +0.0
    x[3, 33] = np.nan
    x[3, 34] = np.inf
    x[4] = -np.inf
    x[5, 50] = np.inf
    mx = fns["max_rows" + suffix](x)
    assert mx[0] == 0 and np.signbit(mx[0])
    assert mx[1] == 0 and not np.signbit(mx[1])
    assert mx[2] == 0 and not np.signbit(mx[2])
    assert np.isnan(mx[3])
    assert mx[4] == -np.inf and mx[5] == np.inf
    y = -x
    mn = fns["min_rows" + suffix](y)
    assert mn[0] == 0 and not np.signbit(mn[0])  # min of +0.0 and positives -> +0.0
    assert mn[1] == 0 and np.signbit(mn[1])  # -0.0 among them -> -0.0
    assert mn[2] == 0 and np.signbit(mn[2])
    assert np.isnan(mn[3])
    assert mn[4] == np.inf and mn[5] == -np.inf
    z = RNG.standard_normal((R, C)).astype(dtype)
    np.testing.assert_array_equal(fns["max_rows" + suffix](z), z.max(axis=1))
    np.testing.assert_array_equal(fns["min_rows" + suffix](z), z.min(axis=1))


def _signed_order(v: float) -> tuple[float, bool]:
    return (v, not np.signbit(v))  # -0.0 < +0.0


def _exact_extremum(x: np.ndarray, is_max: bool, init: float) -> np.ndarray:
    """The spec's max/min of each row (and `init`) one element at a time: NaN if there
    is one, else the largest (smallest) value with -0.0 ordered below +0.0."""
    out = np.empty(x.shape[0], x.dtype)
    for i, row in enumerate(x):
        values = [init, *row.tolist()]
        if any(np.isnan(v) for v in values):
            out[i] = np.nan
            continue
        out[i] = max(values, key=_signed_order) if is_max else min(values, key=_signed_order)
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_checked_max_min_rows_on_special_values_bitwise(fns, dtype) -> None:
    """Rows drawn from NaN, +-0.0, +-inf and a few numbers, in any lane, accumulator or the
    scalar remainder, some all NaN, some all zeros of either sign, some a single special
    value among negatives (max) or positives (min): every result bit for bit the spec's
    (any NaN counts as NaN). A wrong sign of zero or a missed NaN fails here."""
    suffix = "_f64" if dtype == np.float64 else ""
    cols = 133 if dtype == np.float32 else 67
    rng = np.random.default_rng(5)
    palette = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf, 1.5, -1.5, -2.0], dtype)
    x = palette[rng.integers(0, len(palette), (MIXED, cols))]
    x[::3] = np.where(rng.random((len(x[::3]), cols)) < 0.95, -3.0, x[::3])  # mostly numbers
    x[1::7] = palette[rng.integers(1, 3, (len(x[1::7]), cols))]  # only zeros of both signs
    x[2::11] = np.nan
    x[4::13] = -0.0
    x[5::13] = 0.0
    for i in range(6, MIXED, 17):  # one special value at a random place among -1.0s or 1.0s
        x[i] = -1.0 if i % 2 else 1.0
        x[i, rng.integers(0, cols)] = palette[rng.integers(0, len(palette))]
    for is_max, name, init in ((True, "max_rows_mixed", -np.inf), (False, "min_rows_mixed", np.inf)):
        got = fns[name + suffix](x)
        want = _exact_extremum(x, is_max, init)
        assert np.array_equal(np.isnan(got), np.isnan(want)), name
        numbers = ~np.isnan(want)
        np.testing.assert_array_equal(got[numbers], want[numbers])
        np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))


def test_checked_max_min_rows_initial_zero(fns) -> None:
    """The initial value is combined exactly after the checked loop: max with -0.0 of
    rows of -0.0 stays -0.0 and of a +0.0 is +0.0; min with +0.0 the mirror image."""
    x = np.full((R, C), -0.0, np.float32)
    x[1, 64] = 0.0
    x[2] = -5.0
    x[3, 100] = np.nan  # in the scalar remainder
    x[4] = RNG.standard_normal(C).astype(np.float32)
    for name, y, is_max, init in (
        ("max_rows_init_zero", x, True, -0.0),
        ("min_rows_init_zero", -x, False, 0.0),
    ):
        got = fns[name](y)
        want = _exact_extremum(y, is_max, init)
        assert np.array_equal(np.isnan(got), np.isnan(want))
        numbers = ~np.isnan(want)
        np.testing.assert_array_equal(got[numbers], want[numbers])
        np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))


def test_sums_over_rows(fns, ordered) -> None:
    x = RNG.standard_normal((R, C)).astype(np.float32)
    x[0] = -0.0  # -0.0 accumulators and init: the sum stays -0.0
    expected = x.astype(np.float64).sum(axis=1)
    got = fns["sum_rows"](x)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert np.signbit(got[0])
    # reassociate=False: the spec's order, bit for bit
    np.testing.assert_array_equal(ordered["sum_rows"](x), _sequential(x, 1, -0.0))
    y = RNG.standard_normal((R, C))
    np.testing.assert_allclose(fns["sum_rows_f64"](y), y.sum(axis=1), rtol=1e-12)


def test_integer_rows_wrap(fns) -> None:
    x = RNG.integers(-(2**31), 2**31 - 1, size=(R, C), dtype=np.int32)
    with np.errstate(over="ignore"):
        expected = np.add.reduce(x, axis=1, dtype=np.int32) + np.int32(7)
    np.testing.assert_array_equal(fns["sum_rows_i32"](x), expected)
    b = RNG.integers(-128, 127, size=(R, C), dtype=np.int8)
    b[2, C - 1] = 127  # the maximum in the scalar remainder
    np.testing.assert_array_equal(fns["max_rows_i8"](b), b.max(axis=1))


def test_columns_keep_the_spec_order(fns) -> None:
    x = (RNG.standard_normal((R, C)) * 1e4).astype(np.float32)
    np.testing.assert_array_equal(fns["sum_columns"](x), _sequential(x, 0))
    # 275 = 256 (a block of 16 vectors with AVX-512) + one vector + 3 scalars
    w = (RNG.standard_normal((3, 275)) * 1e4).astype(np.float32)
    np.testing.assert_array_equal(fns["sum_columns_wide"](w), _sequential(w, 0))
    x[2, 5] = np.nan
    x[:, 100] = -0.0
    mx = fns["max_columns"](x)
    assert np.isnan(mx[5]) and np.signbit(mx[100])
    np.testing.assert_array_equal(np.delete(mx, 5), np.delete(x.max(axis=0), 5))


def test_columns_in_groups_of_rows_keep_the_spec_order(fns) -> None:
    """Blocks of outputs take the rows a group at a time (`column_rows`): each output
    still adds its rows one after another, the group left over included."""
    x = (RNG.standard_normal((11, 275)) * 1e4).astype(np.float32)
    x[:, 270] = -0.0  # a column of -0.0 from an initial -0.0 stays -0.0 (scalar tail)
    x[:, 3] = -0.0  # (a vector of the block)
    x[7, 40] = np.nan
    x[4, 41] = np.inf
    x[9, 41] = -np.inf
    got = fns["sum_columns_tall"](x)
    with np.errstate(invalid="ignore"):  # inf + -inf
        np.testing.assert_array_equal(got, _sequential(x, 0, -0.0))
    assert np.signbit(got[270]) and np.signbit(got[3]) and np.isnan(got[40]) and np.isnan(got[41])
    d = RNG.standard_normal((9, 131)) * 1e12
    np.testing.assert_array_equal(fns["sum_columns_f64"](d), _sequential(d, 0))
    t = (RNG.standard_normal((5, 3, 290)) * 1e4).astype(np.float32)
    np.testing.assert_array_equal(fns["sum_columns_3d"](t), _sequential(t.reshape(15, 290), 0))


def _argmax_rows_cases() -> np.ndarray:
    x = RNG.standard_normal((R, C)).astype(np.float32)
    x[0, [6, 21, 37, 90]] = 9.0  # ties in different lanes and accumulators: the smallest index
    x[1, [70, 3]] = np.nan  # NaNs: the first one, though it sits in a later lane than another
    x[1, 19] = np.nan
    x[2, [99, 100]] = 50.0  # the maximum in the remainder only
    x[3] = -np.inf  # all equal to the initial value: index 0
    x[4, [96, 16]] = 8.0  # a tie between the remainder's first element and an early lane
    x[5, [17, 2]] = np.nan  # the first NaN in a higher lane than the second
    return x


def test_argmax_rows(fns, ordered) -> None:
    x = _argmax_rows_cases()
    expected = np.argmax(x, axis=1)  # NaN counts as the maximum, first occurrence
    assert expected.tolist() == [6, 3, 99, 0, 16, 2]
    np.testing.assert_array_equal(fns["argmax_rows"](x), expected)
    np.testing.assert_array_equal(ordered["argmax_rows"](x), expected)
    for seed in range(5):
        y = np.random.default_rng(seed).integers(-3, 3, size=(R, C)).astype(np.float32)  # many ties
        np.testing.assert_array_equal(fns["argmax_rows"](y), np.argmax(y, axis=1))


def test_argmax_columns(fns) -> None:
    x = np.random.default_rng(5).integers(-2, 2, size=(R, C)).astype(np.float32)
    x[4, 7] = np.nan
    x[2, 7] = np.nan
    x[5, 8] = 9.0  # the maximum in the group of rows left over (rows 4-5)
    x[1, 9] = 9.0  # a tie across groups: the first
    x[4, 9] = 9.0
    expected = np.argmax(x, axis=0)
    assert expected[7] == 2 and expected[8] == 5 and expected[9] == 1
    np.testing.assert_array_equal(fns["argmax_columns"](x), expected)


ARGMAX_ALL = """func.func @main(%x: tensor<64xf32>) -> (tensor<f32>, tensor<i32>) {
  %iota = xla.iota dim = 0 : tensor<64xi32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %v, %i = xla.reduce(%x init: %ninf), (%iota init: %zero) across dimensions = [0] : (tensor<64xf32>, tensor<64xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = xla.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = xla.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = xla.or %gt, %nan : tensor<i1>
    %eq = xla.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = xla.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = xla.and %eq, %lt : tensor<i1>
    %pick_i = xla.or %pick, %tie : tensor<i1>
    %rv = xla.select %pick, %a, %b : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %ri = xla.select %pick_i, %ai, %bi : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    xla.return %rv, %ri : tensor<f32>, tensor<i32>
  }
  func.return %v, %i : tensor<f32>, tensor<i32>
}"""


@pytest.mark.parametrize("case", ["random", "tie", "nan", "all -inf"])
def test_argmax_to_a_scalar_reads_its_result_through_a_rank_one_view(case: str) -> None:
    """The rank-0 results are read and written as vectors of one through
    memref<1xT> views (MLIR's vector.load needs the rank): first maximum, first NaN."""
    x = np.random.default_rng(0).standard_normal(64).astype(np.float32)
    if case == "tie":
        x[17] = x[40] = 9.0
    elif case == "nan":
        x[33] = x[50] = np.nan
    elif case == "all -inf":
        x[:] = -np.inf
    value, index = compile(ARGMAX_ALL)(x)
    want = int(np.argmax(x))
    assert int(index) == want
    np.testing.assert_array_equal(value, x[want])
