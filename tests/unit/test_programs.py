"""Whole programs compiled through `lower-to-llvm` and run against NumPy: the
bundled MLP, softmax, layer norm, a while loop with a data-dependent trip count,
tuples through calls and loops, and conditionals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from runtime import Executable
from xla_tools import compile

ROOT = Path(__file__).resolve().parents[2]

PROGRAMS = """
func.func @softmax(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %max = xla.reduce(%x init: %ninf) applies xla.maximum across dimensions = [1] : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
  %s = xla.subtract %x, %max, broadcast_dimensions = [0] : (tensor<3x5xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  %e = xla.exponential %s : tensor<3x5xf32>
  %sum = xla.reduce(%e init: %zero) applies xla.add across dimensions = [1] : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
  %p = xla.divide %e, %sum, broadcast_dimensions = [0] : (tensor<3x5xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  func.return %p : tensor<3x5xf32>
}

func.func @layer_norm(%x: tensor<4x6xf64>, %g: tensor<6xf64>, %b: tensor<6xf64>) -> tensor<4x6xf64> {
  %zero = xla.constant dense<0.0> : tensor<f64>
  %n = xla.constant dense<6.0> : tensor<f64>
  %eps = xla.constant dense<1.0e-5> : tensor<f64>
  %sum = xla.reduce(%x init: %zero) applies xla.add across dimensions = [1] : (tensor<4x6xf64>, tensor<f64>) -> tensor<4xf64>
  %mean = xla.divide %sum, %n : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
  %mb = xla.broadcast_in_dim %mean, dims = [0] : (tensor<4xf64>) -> tensor<4x6xf64>
  %d = xla.subtract %x, %mb : tensor<4x6xf64>
  %sq = xla.multiply %d, %d : tensor<4x6xf64>
  %ss = xla.reduce(%sq init: %zero) applies xla.add across dimensions = [1] : (tensor<4x6xf64>, tensor<f64>) -> tensor<4xf64>
  %var = xla.divide %ss, %n : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
  %ve = xla.add %var, %eps : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
  %inv = xla.rsqrt %ve : tensor<4xf64>
  %y = xla.multiply %d, %inv, broadcast_dimensions = [0] : (tensor<4x6xf64>, tensor<4xf64>) -> tensor<4x6xf64>
  %yg = xla.multiply %y, %g, broadcast_dimensions = [1] : (tensor<4x6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
  %out = xla.add %yg, %b, broadcast_dimensions = [1] : (tensor<4x6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
  func.return %out : tensor<4x6xf64>
}

// Collatz: count the steps until n reaches 1 (a data-dependent trip count);
// the old tuple-carrying While form.
func.func @collatz(%n: tensor<i64>) -> tensor<i64> {
  %zero = xla.constant dense<0> : tensor<i64>
  %init = xla.tuple %n, %zero : tuple<tensor<i64>, tensor<i64>>
  %w = xla.while(%s = %init) : tuple<tensor<i64>, tensor<i64>>
   cond {
    %v = xla.get_tuple_element %s[0] : (tuple<tensor<i64>, tensor<i64>>) -> tensor<i64>
    %one = xla.constant dense<1> : tensor<i64>
    %gt = xla.compare GT, %v, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
    xla.return %gt : tensor<i1>
  } do {
    %v = xla.get_tuple_element %s[0] : (tuple<tensor<i64>, tensor<i64>>) -> tensor<i64>
    %k = xla.get_tuple_element %s[1] : (tuple<tensor<i64>, tensor<i64>>) -> tensor<i64>
    %one = xla.constant dense<1> : tensor<i64>
    %two = xla.constant dense<2> : tensor<i64>
    %three = xla.constant dense<3> : tensor<i64>
    %zero2 = xla.constant dense<0> : tensor<i64>
    %r = xla.remainder %v, %two : tensor<i64>
    %even = xla.compare EQ, %r, %zero2 : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %half = xla.divide %v, %two : tensor<i64>
    %t = xla.multiply %v, %three : tensor<i64>
    %t1 = xla.add %t, %one : tensor<i64>
    %next = xla.select %even, %half, %t1 : tensor<i1>, tensor<i64>
    %k1 = xla.add %k, %one : tensor<i64>
    %s1 = xla.tuple %next, %k1 : tuple<tensor<i64>, tensor<i64>>
    xla.return %s1 : tuple<tensor<i64>, tensor<i64>>
  }
  %steps = xla.get_tuple_element %w[1] : (tuple<tensor<i64>, tensor<i64>>) -> tensor<i64>
  func.return %steps : tensor<i64>
}

// Newton's method for sqrt, iterating until the update is small: a loop whose
// carried tensor is replaced every iteration and swapped with the previous one.
func.func @newton_sqrt(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<i32>) {
  %zero = xla.constant dense<0> : tensor<i32>
  %x0 = xla.constant dense<1.0> : tensor<8xf32>
  %big = xla.constant dense<1.0e9> : tensor<8xf32>
  %r:3 = xla.while(%x = %x0, %prev = %big, %k = %zero) : tensor<8xf32>, tensor<8xf32>, tensor<i32>
   cond {
    %d = xla.subtract %x, %prev : tensor<8xf32>
    %ad = xla.abs %d : tensor<8xf32>
    %ninf = xla.constant dense<0xFF800000> : tensor<f32>
    %m = xla.reduce(%ad init: %ninf) applies xla.maximum across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %tol = xla.constant dense<1.0e-6> : tensor<f32>
    %go = xla.compare GT, %m, %tol : (tensor<f32>, tensor<f32>) -> tensor<i1>
    xla.return %go : tensor<i1>
  } do {
    %q = xla.divide %a, %x : tensor<8xf32>
    %s = xla.add %x, %q : tensor<8xf32>
    %half = xla.constant dense<0.5> : tensor<f32>
    %n = xla.multiply %s, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    %one = xla.constant dense<1> : tensor<i32>
    %k1 = xla.add %k, %one : tensor<i32>
    xla.return %n, %x, %k1 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
  }
  func.return %r#0, %r#2 : tensor<8xf32>, tensor<i32>
}

func.func private @scale_pair(%t: tuple<tensor<3xf32>, tensor<i32>>, %s: tensor<f32>) -> tuple<tensor<3xf32>, tensor<i32>> {
  %v = xla.get_tuple_element %t[0] : (tuple<tensor<3xf32>, tensor<i32>>) -> tensor<3xf32>
  %k = xla.get_tuple_element %t[1] : (tuple<tensor<3xf32>, tensor<i32>>) -> tensor<i32>
  %w = xla.multiply %v, %s : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %r = xla.tuple %w, %k : tuple<tensor<3xf32>, tensor<i32>>
  func.return %r : tuple<tensor<3xf32>, tensor<i32>>
}

func.func @tuples(%t: tuple<tensor<3xf32>, tensor<i32>>, %s: tensor<f32>) -> (tuple<tensor<3xf32>, tensor<i32>>, tensor<f32>) {
  %a = func.call @scale_pair(%t, %s) : (tuple<tensor<3xf32>, tensor<i32>>, tensor<f32>) -> tuple<tensor<3xf32>, tensor<i32>>
  %b = xla.call @scale_pair(%a, %s) : (tuple<tensor<3xf32>, tensor<i32>>, tensor<f32>) -> tuple<tensor<3xf32>, tensor<i32>>
  func.return %b, %s : tuple<tensor<3xf32>, tensor<i32>>, tensor<f32>
}

// Conditionals: `if` on a predicate, `case` on an index (out of range runs the last branch).
func.func @piecewise(%p: tensor<i1>, %k: tensor<i32>, %x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %a = "xla.if"(%p) ({
    %n = xla.negate %x : tensor<2x2xf32>
    xla.return %n : tensor<2x2xf32>
  }, {
    %t = xla.transpose %x, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
    xla.return %t : tensor<2x2xf32>
  }) : (tensor<i1>) -> tensor<2x2xf32>
  %b = "xla.case"(%k) ({
    xla.return %x : tensor<2x2xf32>
  }, {
    %d = xla.add %x, %x : tensor<2x2xf32>
    xla.return %d : tensor<2x2xf32>
  }, {
    %z = xla.constant dense<0.0> : tensor<2x2xf32>
    xla.return %z : tensor<2x2xf32>
  }) : (tensor<i32>) -> tensor<2x2xf32>
  func.return %a, %b : tensor<2x2xf32>, tensor<2x2xf32>
}
"""


@pytest.fixture(scope="module")
def program() -> str:
    return PROGRAMS


def fn(name: str) -> Executable:
    return compile(PROGRAMS, name)


def test_mlp_example() -> None:
    mlp = compile((ROOT / "examples" / "mlp.mlir").read_text())
    x = np.load(ROOT / "examples" / "mlp_input.npz")["arg0"]
    w1 = np.array([[0.5, -0.25, 0.125, 1.0, 0.0], [-0.5, 0.75, 0.25, -1.0, 0.5], [0.25, 0.5, -0.75, 0.5, -0.25], [1.0, -1.0, 0.5, 0.25, 0.75]], np.float32)
    b1 = np.array([0.1, -0.1, 0.2, 0.0, -0.2], np.float32)
    w2 = np.array([[0.5, -0.5, 0.25], [0.25, 0.75, -0.5], [-1.0, 0.5, 0.5], [0.75, -0.25, 0.0], [0.0, 0.5, -0.75]], np.float32)
    b2 = np.array([0.0, 0.1, -0.1], np.float32)
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    np.testing.assert_allclose(mlp(x), e / e.sum(axis=1, keepdims=True), rtol=1e-6)


def test_softmax() -> None:
    x = np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32) * 10
    x[1, 2] = 80.0  # exp overflows without the max shift
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(fn("softmax")(x), e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_layer_norm() -> None:
    rng = np.random.default_rng(1)
    x, g, b = rng.standard_normal((4, 6)), rng.standard_normal(6), rng.standard_normal(6)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    np.testing.assert_allclose(fn("layer_norm")(x, g, b), (x - mean) / np.sqrt(var + 1e-5) * g + b, rtol=1e-12)


def collatz_steps(n: int) -> int:
    k = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        k += 1
    return k


@pytest.mark.parametrize("n", [1, 2, 7, 27, 97, 871])
def test_while_with_data_dependent_trip_count(n: int) -> None:
    assert int(fn("collatz")(np.int64(n))) == collatz_steps(n)


def test_newton_loop_swapping_carried_tensors() -> None:
    a = np.array([0.25, 1, 2, 9, 10, 100, 1e4, 3], np.float32)
    root, iterations = fn("newton_sqrt")(a)
    np.testing.assert_allclose(root, np.sqrt(a), rtol=1e-6)
    assert 5 < int(iterations) < 40


def test_tuples_through_calls() -> None:
    v = np.array([1, 2, 3], np.float32)
    (w, k), s = fn("tuples")((v, np.int32(7)), np.float32(3))
    np.testing.assert_array_equal(w, v * 9)
    assert int(k) == 7 and float(s) == 3.0


@pytest.mark.parametrize("p, k", [(True, 0), (False, 1), (True, 2), (False, -1), (True, 99)])
def test_conditionals(p: bool, k: int) -> None:
    x = np.array([[1, 2], [3, 4]], np.float32)
    a, b = fn("piecewise")(np.bool_(p), np.int32(k), x)
    np.testing.assert_array_equal(a, -x if p else x.T)
    expected = {0: x, 1: 2 * x}.get(k, np.zeros_like(x))
    np.testing.assert_array_equal(b, expected)


def test_repeated_calls_do_not_leak() -> None:
    """Temporaries are freed: 300 calls of softmax keep the same footprint."""
    import resource

    f = fn("layer_norm")
    rng = np.random.default_rng(2)
    x, g, b = rng.standard_normal((4, 6)), rng.standard_normal(6), rng.standard_normal(6)
    for _ in range(50):
        f(x, g, b)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(3000):
        f(x, g, b)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert after - before < 2048  # KiB
