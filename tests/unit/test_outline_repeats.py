"""`xla-outline-repeats`: the runs it finds are runs of repeats, the outlined program
computes what the unrolled one does, and the pipeline outlines deep programs."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from lowering.codegen.linalg_fuse_elementwise import MAX_BODY_WEIGHT
from passes.outline_repeats import ELEMENTWISE_REPEAT_WEIGHT, Run, find_run, outline_repeats
from xla_dialect.context import parse_module
from xla_tools import compile


def _is_run(keys: list[int], run: Run) -> bool:
    end = run.start + run.count * run.period
    return end <= len(keys) and all(keys[i] == keys[i + run.period] for i in range(run.start, end - run.period))


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ([1, 2, 3] * 5, Run(0, 3, 5, 15)),
        ([9, 9, 1, 2, 3, 4] + [5, 6, 7, 8] * 3 + [0], Run(6, 4, 3, 12)),
        ([1, 2, 3, 4, 5, 6], None),
        ([], None),
    ],
)
def test_find_run(keys: list[int], expected: Run | None) -> None:
    assert find_run(keys) == expected


def test_find_run_returns_true_runs() -> None:
    """On random sequences with planted repeats, whatever is found repeats."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        layer = rng.integers(0, 6, int(rng.integers(2, 9))).tolist()
        noise = lambda: rng.integers(0, 6, int(rng.integers(0, 12))).tolist()
        keys = noise() + layer * int(rng.integers(1, 6)) + noise()
        run = find_run(keys)
        if run is not None:
            assert run.count >= 2 and run.period >= 2
            assert _is_run(keys, run), (keys, run)


def _unrolled(header: list[str], layer: Callable[[int, str], list[str]], carried: str, count: int) -> tuple[list[str], str]:
    """`header`, then `count` layers, each `layer(i, x)` on the previous one's result
    `x` (`%x` first, then `carried` with `{i}` the layer's number); the lines and the
    last result."""
    lines, x = list(header), "%x"
    for i in range(count):
        lines += layer(i, x)
        x = carried.format(i=i)
    return lines, x


def _mlp_text(layers: int, width: int = 8, batch: int = 4) -> str:
    """An unrolled MLP: dot, bias, relu per layer, the weights as arguments."""
    t, w, b = f"tensor<{batch}x{width}xf32>", f"tensor<{width}x{width}xf32>", f"tensor<{width}xf32>"
    params = ", ".join(f"%w{i}: {w}, %b{i}: {b}" for i in range(layers))
    lines, x = _unrolled(
        [f"func.func @main(%x: {t}, {params}) -> {t} {{"],
        lambda i, x: [
            f"  %d{i} = stablehlo.dot_general {x}, %w{i}, contracting_dims = [1] x [0] : ({t}, {w}) -> {t}",
            f"  %e{i} = stablehlo.broadcast_in_dim %b{i}, dims = [1] : ({b}) -> {t}",
            f"  %s{i} = stablehlo.add %d{i}, %e{i} : {t}",
            f"  %z{i} = stablehlo.constant dense<0.0> : {t}",
            f"  %r{i} = stablehlo.maximum %s{i}, %z{i} : {t}",
        ],
        "%r{i}",
        layers,
    )
    lines += [f"  return {x} : {t}", "}"]
    return "\n".join(lines)


def test_deep_mlp_is_outlined_once() -> None:
    module = parse_module(_mlp_text(20))
    created = outline_repeats(module)
    assert [f.sym_name.data for f in created] == ["main.repeat0"]
    main = next(op for op in module.ops if getattr(op, "sym_name", None) and op.sym_name.data == "main")  # pyright: ignore
    calls = [op for op in main.walk() if op.name == "func.call"]
    assert len(calls) == 19  # the first layer's dot reads %x, an argument, so the run starts after it
    module.verify()


def test_outlined_mlp_computes_the_unrolled_one() -> None:
    layers, width, batch = 20, 8, 4
    rng = np.random.default_rng(3)
    x = rng.standard_normal((batch, width)).astype(np.float32)
    params = [
        a
        for _ in range(layers)
        for a in (rng.standard_normal((width, width)).astype(np.float32) * 0.5, rng.standard_normal(width).astype(np.float32))
    ]
    expected = x.astype(np.float64)
    for i in range(layers):
        expected = np.maximum(expected @ params[2 * i].astype(np.float64) + params[2 * i + 1], 0.0)
    got = np.asarray(compile(_mlp_text(layers, width, batch))(x, *params))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * float(np.abs(expected).max()))


def test_values_read_after_the_run_are_results() -> None:
    """Each block's sum is read after the run: the function returns it too."""
    blocks, t, m = 24, "tensor<8xf32>", "tensor<8x8xf32>"
    lines, x = _unrolled(
        [
            f"func.func @main(%x: {t}, %y: {t}, %w: {m}) -> ({t}, tensor<f32>) {{",
            "  %zero = stablehlo.constant dense<0.0> : tensor<f32>",
        ],
        lambda i, x: [
            f"  %m{i} = stablehlo.dot_general {x}, %w, contracting_dims = [0] x [0] : ({t}, {m}) -> {t}",
            f"  %a{i} = stablehlo.add %m{i}, %y : {t}",
            f"  %q{i} = stablehlo.sine %a{i} : {t}",
            f"  %s{i} = stablehlo.reduce(%q{i} init: %zero) applies stablehlo.add across dimensions = [0] : ({t}, tensor<f32>) -> tensor<f32>",
        ],
        "%q{i}",
        blocks,
    )
    total = "%s0"
    for i in range(1, blocks):
        lines.append(f"  %t{i} = stablehlo.add {total}, %s{i} : tensor<f32>")
        total = f"%t{i}"
    lines += [f"  return {x}, {total} : {t}, tensor<f32>", "}"]
    text = "\n".join(lines)
    module = parse_module(text)
    assert len(outline_repeats(module)) == 1
    module.verify()
    rng = np.random.default_rng(5)
    x0, y = rng.standard_normal(8).astype(np.float32), rng.standard_normal(8).astype(np.float32) * 0.5
    w = rng.standard_normal((8, 8)).astype(np.float32) * 0.3
    out, sums = compile(text)(x0, y, w)
    value, expected_sums = x0.astype(np.float64), []
    for _ in range(blocks):
        value = np.sin(value @ w.astype(np.float64) + y)
        expected_sums.append(value.sum())
    np.testing.assert_allclose(out, value, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(sums, sum(expected_sums), rtol=1e-4, atol=1e-4)


def _chain_text(pairs: int) -> str:
    t = "tensor<8xf32>"
    lines, x = _unrolled(
        [f"func.func @main(%x: {t}, %y: {t}) -> {t} {{"],
        lambda i, x: [f"  %a{i} = stablehlo.add {x}, %y : {t}", f"  %b{i} = stablehlo.tanh %a{i} : {t}"],
        "%b{i}",
        pairs,
    )
    lines += [f"  return {x} : {t}", "}"]
    return "\n".join(lines)


def test_short_element_wise_chains_stay() -> None:
    """Without a contraction a repeat weighs up to ELEMENTWISE_REPEAT_WEIGHT (a tanh
    40, an add 1: 49 add-tanh pairs); 60 pairs hold one such repeat, not two."""
    assert ELEMENTWISE_REPEAT_WEIGHT == MAX_BODY_WEIGHT  # one fused loop per repeat
    assert outline_repeats(parse_module(_chain_text(60))) == []


def test_long_element_wise_chains_are_grouped() -> None:
    """400 add-tanh pairs: 8 repeats of 49 pairs, each one fused loop, computing the chain."""
    module = parse_module(_chain_text(400))
    (function,) = outline_repeats(module)
    module.verify()
    body = [op for op in function.body.block.ops if op.name != "func.return"]
    assert len(body) == 98
    main = next(op for op in module.ops if op is not function)
    assert sum(op.name == "func.call" for op in main.walk()) == 8
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal(8).astype(np.float32), rng.standard_normal(8).astype(np.float32) * 0.1
    expected = x.astype(np.float64)
    for _ in range(400):
        expected = np.tanh(expected + y)
    np.testing.assert_allclose(compile(_chain_text(400))(x, y), expected, rtol=1e-5, atol=1e-6)
