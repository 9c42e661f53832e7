"""Lowering of `xla` to native code: xla → linalg/tensor/arith/math/scf → memref →
loops → cf → llvm → llvmlite.

`lowering_passes()` maps the pipeline's pass names to lazy factories.

The top of the pipeline (from the xla dialect):

* `xla-flatten-tuples`: tuple values → their leaves;
* `convert-xla-to-linalg`: xla → linalg/tensor/arith/math/scf on tensors;
* `linalg-fuse-elementwise`: chains of element-wise generics → one generic;
* `bufferize`: tensors → memrefs, results → out-parameters, deallocation;
* xDSL's `linalg-generalize-named-ops`, then `linalg-interchange`: loop order
  with a streaming innermost loop (matmul in i-k-j order);
* `linalg-reassociate-reductions`: float reduction combiners marked `reassoc`
  (the spec leaves the order open), so LLVM vectorizes them;
* xDSL's `convert-linalg-to-loops` and `lower-affine`: linalg → scf.for nests;
* `convert-complex-to-standard`: complex arithmetic → arith/math on the parts;
* `arith-emulate-unsupported-floats`: bf16 arithmetic computed in f32.

The bottom of the pipeline (independent of the xla dialect):

* `lower-scf-to-cf`: scf.for/if/while/index_switch/execute_region → cf;
* `convert-{arith,math,cf,func,memref,index,complex}-to-llvm`: each dialect → llvm;
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


def _complex() -> type[ModulePass]:
    from lowering.to_llvm.complex import ConvertComplexToLLVMPass

    return ConvertComplexToLLVMPass


def _complex_to_standard() -> type[ModulePass]:
    from lowering.complex_to_standard import ConvertComplexToStandardPass

    return ConvertComplexToStandardPass


def _all() -> type[ModulePass]:
    from lowering.to_llvm import ConvertToLLVMPass

    return ConvertToLLVMPass


def _flatten_tuples() -> type[ModulePass]:
    from lowering.flatten_tuples import FlattenTuplesPass

    return FlattenTuplesPass


def _xla_to_linalg() -> type[ModulePass]:
    from lowering.xla_to_linalg import ConvertXlaToLinalgPass

    return ConvertXlaToLinalgPass


def _bufferize() -> type[ModulePass]:
    from lowering.bufferize import BufferizePass

    return BufferizePass


def _emulate_floats() -> type[ModulePass]:
    from lowering.emulate_floats import EmulateUnsupportedFloatsPass

    return EmulateUnsupportedFloatsPass


def _interchange() -> type[ModulePass]:
    from lowering.linalg_interchange import LinalgInterchangePass

    return LinalgInterchangePass


def _fuse() -> type[ModulePass]:
    from lowering.linalg_fuse_elementwise import LinalgFuseElementwisePass

    return LinalgFuseElementwisePass


def _reassociate() -> type[ModulePass]:
    from lowering.linalg_reassociate import LinalgReassociateReductionsPass

    return LinalgReassociateReductionsPass


def _pipeline() -> type[ModulePass]:
    from lowering.pipeline import LowerToLLVMPass

    return LowerToLLVMPass


def lowering_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {
        "xla-flatten-tuples": _flatten_tuples,
        "convert-xla-to-linalg": _xla_to_linalg,
        "linalg-fuse-elementwise": _fuse,
        "bufferize": _bufferize,
        "linalg-interchange": _interchange,
        "linalg-reassociate-reductions": _reassociate,
        "arith-emulate-unsupported-floats": _emulate_floats,
        "lower-to-llvm": _pipeline,
        "lower-scf-to-cf": _scf_to_cf,
        "convert-arith-to-llvm": _arith,
        "convert-math-to-llvm": _math,
        "convert-cf-to-llvm": _cf,
        "convert-func-to-llvm": _func,
        "convert-memref-to-llvm": _memref,
        "convert-index-to-llvm": _index,
        "convert-complex-to-standard": _complex_to_standard,
        "convert-complex-to-llvm": _complex,
        "convert-to-llvm": _all,
    }


def compile(program: object, entry: str = "main", **kwargs: object) -> object:
    """Compile an `xla` module (text or parsed) and return its `entry` function as a
    callable on NumPy arrays; see `lowering.executable.compile`."""
    from lowering.executable import compile as compile_executable

    return compile_executable(program, entry, **kwargs)  # pyright: ignore[reportArgumentType]
