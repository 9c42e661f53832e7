"""An entry with more arrays in and out than ctypes passes to a foreign function
(1,024): it is called through its packed entry, one array of the pointers
(`runtime.jit.packed_entries`). A JAX MLP of 2,500 ops has that many."""

from __future__ import annotations

import numpy as np
import pytest

from runtime.jit import MAX_CTYPES_ARGUMENTS, PACKED_PREFIX, FunctionSignature, packed_entries
from xla_tools import compile

N = MAX_CTYPES_ARGUMENTS + 6


def _program(n: int) -> str:
    params = ", ".join(f"%a{i}: tensor<2xf32>" for i in range(n))
    return (
        f"func.func @main({params}) -> (tensor<2xf32>, tensor<2xf32>) {{\n"
        f"  %s = xla.add %a0, %a{n - 1} : tensor<2xf32>\n"
        f"  %d = xla.subtract %a1, %a{n - 2} : tensor<2xf32>\n"
        "  func.return %s, %d : tensor<2xf32>, tensor<2xf32>\n}\n"
    )


def test_more_arrays_than_ctypes_passes() -> None:
    executable = compile(_program(N))
    assert f"{PACKED_PREFIX}main" in executable._jit.symbols
    args = [np.full(2, float(i), np.float32) for i in range(N)]
    total, difference = executable(*args)
    np.testing.assert_array_equal(total, np.full(2, N - 1, np.float32))
    np.testing.assert_array_equal(difference, np.full(2, 1 - (N - 2), np.float32))
    out = [np.empty(2, np.float32), np.empty(2, np.float32)]
    executable(*args, out=out)
    np.testing.assert_array_equal(out[0], total)


def test_below_the_limit_calls_the_entry_directly() -> None:
    executable = compile(_program(4))
    assert f"{PACKED_PREFIX}main" not in executable._jit.symbols
    np.testing.assert_array_equal(executable(*[np.ones(2, np.float32)] * 4)[0], np.full(2, 2, np.float32))


def test_packed_entry_is_not_optimized() -> None:
    """The packed entry is compiled `optnone` and calls through the entry's address:
    LLVM's optimizing code generation of a call with thousands of arguments, and O3's
    interprocedural passes on a direct one, are superlinear."""
    from xdsl.dialects import llvm

    ptr = llvm.LLVMPointerType()
    ir = packed_entries({"main": FunctionSignature("main", (ptr,) * N, llvm.LLVMVoidType())})
    assert f'define void @"{PACKED_PREFIX}main"(ptr %args) noinline optnone {{' in ir
    assert ir.count("load ptr") == N
    # called through its address, which O3's interprocedural passes do not follow
    assert f'load volatile ptr, ptr @"{PACKED_PREFIX}address.main"' in ir
    assert "call void %callee(" in ir


def test_split_entry_brings_its_own_packed_entry() -> None:
    """An entry cut by `llvm-split-large-functions` gets its packed entry from the pass
    (the parts read the pointers they use from the array; no call passes all of them),
    and the runtime adds none; it computes what the entry called directly computes."""
    from lowering.to_llvm.common import register_llvm_extensions
    from runtime.executable import load, xla_signatures
    from xla_dialect.context import make_context, parse_module
    from xla_tools.pipelines import LOWER_TO_LLVM, run_passes

    n = N
    params = ", ".join(f"%a{i}: tensor<2x2xf32>" for i in range(n))
    program = (  # two products and a sum: the entry calls several kernels
        f"func.func @main({params}) -> (tensor<2x2xf32>, tensor<2x2xf32>) {{\n"
        f"  %p = xla.dot %a0, %a{n - 1} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
        f"  %s = xla.add %p, %a1 : tensor<2x2xf32>\n"
        f"  %q = xla.dot %s, %a{n - 2} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
        "  func.return %s, %q : tensor<2x2xf32>, tensor<2x2xf32>\n}\n"
    )
    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module(program, "many.mlir", ctx)
    signatures = xla_signatures(module)
    run_passes(module, LOWER_TO_LLVM, ctx, options={"llvm-split-large-functions": {"max_ops": 2}})
    text = str(module)
    assert f"llvm.func @{PACKED_PREFIX}main(" in text
    assert "llvm.call @main.part1(" in text
    # `@main` itself, which the host cannot call and nothing else calls, is gone
    assert "llvm.func @main(" not in text
    compiled = load(module, signatures)
    assert "@__xla_packed.address.main" not in compiled.jit.llvm_ir  # the runtime added none
    assert 'define void @"main"(' not in compiled.jit.llvm_ir and "main" not in compiled.jit.symbols
    rng = np.random.default_rng(0)
    args = [rng.integers(-4, 5, (2, 2)).astype(np.float32) for _ in range(n)]
    s, q = compiled.executable("main")(*args)
    expected_s = args[0] @ args[n - 1] + args[1]  # small integers: exact in f32
    np.testing.assert_array_equal(s, expected_s)
    np.testing.assert_array_equal(q, expected_s @ args[n - 2])


def _wide_llvm_module(n: int, caller: bool) -> str:
    """An llvm-dialect module whose `@wide` takes `n` pointers and calls a kernel
    three times (and, with `caller`, a function that calls `@wide`)."""
    params = ", ".join(f"%a{i}: !llvm.ptr" for i in range(n))
    args = ", ".join(f"%b{i}" for i in range(n))
    types = ", ".join(["!llvm.ptr"] * n)
    text = (
        "builtin.module {\n"
        "  llvm.func @k(!llvm.ptr, !llvm.ptr)\n"
        f"  llvm.func @wide({params}) {{\n"
        f"    llvm.call @k(%a0, %a{n - 1}) : (!llvm.ptr, !llvm.ptr) -> ()\n"
        f"    llvm.call @k(%a1, %a{n - 2}) : (!llvm.ptr, !llvm.ptr) -> ()\n"
        f"    llvm.call @k(%a2, %a{n - 3}) : (!llvm.ptr, !llvm.ptr) -> ()\n"
        "    llvm.return\n  }\n"
    )
    if caller:
        text += (
            f"  llvm.func @caller({params.replace('%a', '%b')}) {{\n"
            f"    llvm.call @wide({args}) : ({types}) -> ()\n"
            "    llvm.return\n  }\n"
        )
    return text + "}\n"


@pytest.mark.parametrize(
    ("caller", "keep_wide", "n", "kept"),
    [
        (False, False, N, False),  # the host calls the packed entry only
        (True, False, N, True),  # the module calls it
        (False, True, N, True),  # asked to keep it
        (False, False, MAX_CTYPES_ARGUMENTS, True),  # ctypes can call it
    ],
)
def test_split_pass_drops_the_wide_function_nothing_calls(caller: bool, keep_wide: bool, n: int, kept: bool) -> None:
    """`llvm-split-large-functions` erases a function of more pointers than ctypes
    passes once it has defined its packed entry, unless something calls it (or
    `keep_wide`): code generation of a function storing thousands of arguments costs,
    and nothing could call it."""
    from lowering.split_large_functions import SplitLargeFunctionsPass
    from lowering.to_llvm.common import register_llvm_extensions
    from xla_dialect.context import make_context, parse_module

    ctx = make_context()
    register_llvm_extensions(ctx)
    module = parse_module(_wide_llvm_module(n, caller), "wide.mlir", ctx)
    SplitLargeFunctionsPass(max_ops=1, packed_over=n - 1, keep_wide=keep_wide).apply(ctx, module)
    module.verify()
    text = str(module)
    assert f"llvm.func @{PACKED_PREFIX}wide(" in text
    assert "llvm.call @wide.part2(" in text
    assert ("llvm.func @wide(" in text) == kept
