"""Assembly formats compiled on first use (`xla_dialect.lazy_formats`): every op class
of the registered dialects still has a valid format, and ops read and print by it."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import i32
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.irdl.operations import PyRDLOpDefinitionError
from xdsl.printer import Printer

from lowering.codegen.x86vector import X86Vector
from lowering.to_llvm.common import extended_llvm_dialect
from xla_dialect import parse_module
from xla_dialect.lazy_formats import format_program
from xla_dialect.registry import get_all_dialects


def test_every_registered_format_compiles() -> None:
    dialects = [factory() for factory in get_all_dialects().values()]
    dialects += [extended_llvm_dialect(), X86Vector]
    compiled = 0
    for dialect in dialects:
        for op in dialect.operations:
            definition = getattr(op, "get_irdl_definition", None)
            if definition is not None and definition().assembly_format is not None:
                assert format_program(op) is not None, op.name
                compiled += 1
    assert compiled > 300  # arith, tensor, memref, vector, llvm, ... all lazy


def test_ops_read_and_print_by_their_format() -> None:
    assert format_program(arith.AddiOp) is not None
    text = "%0 = arith.addi %a, %b : i32"
    module = parse_module(f'func.func @f(%a: i32, %b: i32) -> i32 {{\n  {text}\n  func.return %0 : i32\n}}')
    out = StringIO()
    Printer(stream=out).print_op(module)
    assert "%0 = arith.addi %a, %b : i32" in out.getvalue()


def test_an_invalid_format_fails_at_first_use() -> None:
    @irdl_op_definition
    class BadFormatOp(IRDLOperation):
        name = "test.bad_format"
        lhs = operand_def(i32)
        res = result_def(i32)
        assembly_format = "$lhs `:` $undefined attr-dict"

    with pytest.raises(PyRDLOpDefinitionError, match="assembly format"):
        format_program(BadFormatOp)
