"""Lowering of `xla` to native code: xla → linalg/tensor/arith/math/scf → memref →
loops → cf → llvm → llvmlite.

`lowering_passes()` maps the pipeline's pass names to lazy factories.

The bottom of the pipeline (independent of the xla dialect):

* `lower-scf-to-cf`: scf.for/if/while/index_switch/execute_region → cf;
* `convert-{arith,math,cf,func,memref,index}-to-llvm`: each dialect → llvm;
* `convert-to-llvm`: all of those at once, checking nothing else is left;
* `lowering.jit.compile_llvm_module`: llvm dialect → native code.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _scf_to_cf() -> type[ModulePass]:
    from lowering.scf_to_cf import LowerScfToCfPass

    return LowerScfToCfPass


def _arith() -> type[ModulePass]:
    from lowering.to_llvm.arith import ConvertArithToLLVMPass

    return ConvertArithToLLVMPass


def _math() -> type[ModulePass]:
    from lowering.to_llvm.math import ConvertMathToLLVMPass

    return ConvertMathToLLVMPass


def _cf() -> type[ModulePass]:
    from lowering.to_llvm.cf import ConvertCfToLLVMPass

    return ConvertCfToLLVMPass


def _func() -> type[ModulePass]:
    from lowering.to_llvm.func import ConvertFuncToLLVMPass

    return ConvertFuncToLLVMPass


def _memref() -> type[ModulePass]:
    from lowering.to_llvm.memref import ConvertMemrefToLLVMPass

    return ConvertMemrefToLLVMPass


def _index() -> type[ModulePass]:
    from lowering.to_llvm.index import ConvertIndexToLLVMPass

    return ConvertIndexToLLVMPass


def _all() -> type[ModulePass]:
    from lowering.to_llvm import ConvertToLLVMPass

    return ConvertToLLVMPass


def lowering_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {
        "lower-scf-to-cf": _scf_to_cf,
        "convert-arith-to-llvm": _arith,
        "convert-math-to-llvm": _math,
        "convert-cf-to-llvm": _cf,
        "convert-func-to-llvm": _func,
        "convert-memref-to-llvm": _memref,
        "convert-index-to-llvm": _index,
        "convert-to-llvm": _all,
    }
